//! `keyplan import` of real infrastructure files (issue 36): a Terraform module whose keys,
//! name and blocks come from variables is imported, not refused, each value assumed said as
//! `assumed: FILE:LINE: ...`; the placeholders it names the table and keys with pass
//! `keyplan check` (they are valid DynamoDB names); and `--json` carries the same assumptions.
#![allow(clippy::unwrap_used)]

mod cli_support;

use std::path::PathBuf;
use std::process::Output;

fn keyplan(args: &[&str]) -> Output {
    cli_support::keyplan_without(&["KEYPLAN_ENGINE", "KEYPLAN_ENDPOINT"], args)
}

fn fixture(path: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures")
        .join(path)
        .to_string_lossy()
        .to_string()
}

#[test]
fn a_terraform_module_of_variables_imports_with_each_assumption_on_its_line_and_checks() {
    let dir = tempfile::tempdir().unwrap();
    let source = fixture("terraform/cloudposse-main.tf");
    let design = dir.path().join("table.keyplan.json");
    let out = keyplan(&["import", &source, "-o", design.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    for line in [
        format!("assumed: {source}:49: count `local.enabled ? 1 : 0`: assumed one table"),
        format!("assumed: {source}:50: name `local.table_name`: assumed `local.table_name`"),
        format!("assumed: {source}:54: key attribute `var.hash_key`: assumed `var.hash_key`"),
        format!("assumed: {source}:78: dynamic \"attribute\" over `local.attributes_final`"),
    ] {
        assert!(stderr.contains(&line), "{line}\n{stderr}");
    }
    // The placeholders are names DynamoDB takes: no KP016 from `check`.
    let check = keyplan(&["check", design.to_str().unwrap()]);
    let said = String::from_utf8_lossy(&check.stdout);
    assert_eq!(check.status.code(), Some(0), "{said}");
    assert!(!said.contains("KP016"), "{said}");
}

#[test]
fn a_serverless_service_imports_and_its_json_report_says_what_was_assumed() {
    let dir = tempfile::tempdir().unwrap();
    let source = fixture("cloudformation/serverless.yml");
    let design = dir.path().join("service.keyplan.json");
    let out = keyplan(&["import", &source, "-o", design.to_str().unwrap(), "--json"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let assumed = report["assumed"].as_array().unwrap();
    assert_eq!(assumed.len(), 1, "{report}");
    assert_eq!(assumed[0]["line"], 45, "{report}");
    assert_eq!(
        assumed[0]["assumed"], "`users-table`, its literal part",
        "{report}"
    );
}
