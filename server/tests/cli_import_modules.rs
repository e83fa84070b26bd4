//! `keyplan import` of several JavaScript/TypeScript modules, or of a folder, read together
//! (issue 36), on ElectroDB's own versioncontrol example (tests/fixtures/electrodb/SOURCES.md).

mod cli_support;

use std::path::PathBuf;

use cli_support::{fails, keyplan_without};

fn fixtures(path: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures")
        .join(path)
        .display()
        .to_string()
}

// issue 36: a folder is the modules of one application: the enum arrays `issues.ts` imports
// from `types.ts` are its attributes' values, and the Service of `index.ts` names the table.
#[test]
fn a_folder_of_modules_is_one_design_with_what_its_files_import_from_each_other() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let out = dir.path().join("vc.keyplan.json");
    let folder = fixtures("electrodb/versioncontrol");
    let output = keyplan_without(
        &["KEYPLAN_FORMAT"],
        &[
            "import",
            &folder,
            "-o",
            out.to_str().expect("a UTF-8 path"),
            "--json",
        ],
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("read 3 files under ") && stderr.contains("an ElectroDB service"),
        "{stderr}"
    );
    let report: serde_json::Value =
        serde_json::from_slice(&output.stdout).expect("the report is JSON");
    assert_eq!(report["entities"], 2, "{report}");
    assert_eq!(report["assumed"], serde_json::json!([]), "{report}");
    let design = std::fs::read_to_string(&out).expect("the design is written");
    assert!(
        design.contains("\"electro\""),
        "the Service's table: {design}"
    );
    assert!(
        design.contains("\"PullRequest\"") && design.contains("\"Closed\""),
        "the enum values from types.ts: {design}"
    );
}

// issue 36: the same entity module alone was refused over its imported types; it now reads,
// and says which types it assumed, at which file and line.
#[test]
fn a_module_alone_says_what_it_assumed_of_its_imports_with_file_and_line() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let out = dir.path().join("issues.keyplan.json");
    let issues = fixtures("electrodb/versioncontrol/issues.ts");
    let output = keyplan_without(
        &["KEYPLAN_FORMAT"],
        &["import", &issues, "-o", out.to_str().expect("a UTF-8 path")],
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "assumed: {issues}:25: issues.attributes.ticketType's type `TicketTypes`: assumed a string"
        )),
        "{stderr}"
    );
}

// What a folder gives is bounded before any file is read: more than 256 modules are refused,
// saying how many were found and what to do.
#[test]
fn a_folder_of_more_modules_than_keyplan_reads_is_refused_before_reading_them() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    for i in 0..300 {
        std::fs::write(dir.path().join(format!("m{i}.ts")), "export const a = 1;\n")
            .expect("a module is written");
    }
    let out = dir.path().join("out.keyplan.json");
    fails(
        &["KEYPLAN_FORMAT"],
        &[
            "import",
            dir.path().to_str().expect("a UTF-8 path"),
            "-o",
            out.to_str().expect("a UTF-8 path"),
        ],
        2,
        "more than 256 modules found: keyplan reads at most 256 together; name the folder or the files that hold the models",
    );
    assert!(!out.exists());
}
