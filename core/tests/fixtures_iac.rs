//! Real CloudFormation, SAM, Serverless Framework and Terraform files written by others
//! (tests/fixtures/{cloudformation,terraform}, sources and licences in their SOURCES.md), issue
//! 36: every file imports, none refused over a value it could not read, and the snapshot shows
//! what keyplan kept (tables, keys, indexes, billing, TTL), the notes of what a design does not
//! hold, and each value assumed, with its line.

use std::path::PathBuf;

use keyplan_core::import::{Format, Imported, detect, import};
use keyplan_core::model::KeyAttribute;

fn keys(attributes: &[KeyAttribute]) -> String {
    attributes
        .iter()
        .map(|a| format!("{}:{:?}", a.name, a.ty))
        .collect::<Vec<_>>()
        .join("+")
}

/// `OnDemand`, `Provisioned { read: 5, write: 5 }`, then the auto scaling and each GSI's own
/// capacity when the file gives them (issue 40), as JSON.
fn billing(billing: &keyplan_core::model::Billing) -> String {
    let json = serde_json::to_value(billing).expect("a billing serialises");
    match (json.get("read"), json.get("write")) {
        (Some(read), Some(write)) => {
            let mut out = format!("Provisioned {{ read: {read}, write: {write} }}");
            for extra in ["auto_scaling", "indexes"] {
                if let Some(value) = json.get(extra) {
                    out += &format!(" {extra} {value}");
                }
            }
            out
        }
        _ => "OnDemand".to_string(),
    }
}

fn render(imported: &Imported) -> String {
    let mut out = String::new();
    for t in &imported.design.tables {
        let sk = t
            .sort_key
            .as_ref()
            .map(|k| format!(" / {}:{:?}", k.name, k.ty));
        out += &format!(
            "table {}: {}:{:?}{} {}\n",
            t.name,
            t.partition_key.name,
            t.partition_key.ty,
            sk.unwrap_or_default(),
            billing(&t.billing)
        );
        for g in &t.gsis {
            out += &format!(
                "  gsi {}: {} / {} {:?}\n",
                g.name,
                keys(&g.partition_key),
                keys(&g.sort_key),
                g.projection
            );
        }
        for l in &t.lsis {
            out += &format!(
                "  lsi {}: {}:{:?} {:?}\n",
                l.name, l.sort_key.name, l.sort_key.ty, l.projection
            );
        }
        if let Some(ttl) = &t.ttl_attribute {
            out += &format!("  ttl {ttl}\n");
        }
        if !t.replicas.is_empty() {
            out += &format!("  replicated to {}\n", t.replicas.join(", "));
        }
    }
    for n in &imported.notes {
        out += &format!("note: {n}\n");
    }
    for a in &imported.assumed {
        out += &format!("assumed: {a}\n");
    }
    out
}

fn check_all(format: Format, dir: &str, extensions: &[&str]) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures")
        .join(dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("the fixtures directory")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| {
            p.extension()
                .is_some_and(|e| extensions.iter().any(|x| e == *x))
        })
        .collect();
    files.sort();
    assert!(files.len() >= 2, "only {} {dir} fixtures", files.len());
    for path in files {
        let text = std::fs::read_to_string(&path).expect("a fixture reads");
        let name = path
            .file_name()
            .expect("a file name")
            .to_string_lossy()
            .to_string();
        assert_eq!(detect(&text), Ok(format), "{name} is detected as {format}");
        let imported = import(format, &text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(!imported.design.tables.is_empty(), "{name}: no table kept");
        insta::assert_snapshot!(format!("{dir}__{name}"), render(&imported));
    }
}

#[test]
fn every_real_cloudformation_sam_and_serverless_file_imports_and_says_what_it_assumed() {
    check_all(
        Format::CloudFormation,
        "cloudformation",
        &["yaml", "yml", "json"],
    );
}

#[test]
fn every_real_terraform_file_imports_and_says_what_it_assumed() {
    check_all(Format::Terraform, "terraform", &["tf"]);
}

// issue 36: terraform-aws-modules' own wrapper calls the module `for_each = var.items` with
// every input `try(each.value.x, var.defaults.x, default)`: the table was named after the
// whole expression (`try_each.value.name__var.defaults.name__null`); its placeholders are
// now the value each input is written to take, `each.value.name`.
#[test]
fn a_for_each_wrapper_of_try_inputs_names_its_placeholders_after_their_first_choice() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/terraform/wrappers-main.tf");
    let text = std::fs::read_to_string(path).expect("a fixture reads");
    let imported = import(Format::Terraform, &text).unwrap_or_else(|e| panic!("{e}"));
    let table = &imported.design.tables[0];
    assert_eq!(table.name, "each.value.name");
    assert_eq!(table.partition_key.name, "each.value.hash_key");
}
