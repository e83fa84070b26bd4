//! `keyplan import` of DynamoDB-Toolbox and Dynamoose modules (issue 36, item 4): real files
//! (tests/fixtures, sources in their SOURCES.md) are read, not refused, and the report says
//! what was assumed with the file and line, on stderr and in `--json`.

mod cli_support;

use cli_support::keyplan_without;

fn fixture(path: &str) -> String {
    format!("{}/../tests/fixtures/{path}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn a_dynamodb_toolbox_module_imports_and_the_report_places_each_assumption() {
    let file = fixture("dynamodb-toolbox/entity-dto.unit.test.ts");
    let out = keyplan_without(&["KEYPLAN_FORMAT"], &["import", &file, "-o", "-"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("as a DynamoDB-Toolbox module or DTO"),
        "{stderr}"
    );
    assert!(
        stderr.contains("entity-dto.unit.test.ts:11: a table without `name` (given to each command): assumed the table is called `table` (its variable)"),
        "{stderr}"
    );
}

#[test]
fn a_dynamoose_module_imports_and_the_json_report_says_its_table_name_is_a_fallback() {
    let file = fixture("dynamoose/poc-model.ts");
    let out = keyplan_without(
        &["KEYPLAN_FORMAT"],
        &["import", &file, "-o", "/dev/null", "--json"],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("the --json report");
    assert_eq!(report["format"], "dynamoose", "{report}");
    let notes = report["notes"].to_string();
    assert!(notes.contains("its fallback `Users` is used"), "{report}");
}
