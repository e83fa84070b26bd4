//! Users' real OneTable schemas and ElectroDB entities (tests/fixtures/{onetable,electrodb},
//! sources and licences in their SOURCES.md): every file imports, and the snapshot shows what
//! keyplan kept (tables, indexes, entities with their key templates, patterns) and the notes
//! of what it did not. Needs core's `js` feature (the server enables it, so the workspace's
//! test run has it).
#![cfg(feature = "js")]

use std::path::PathBuf;

use keyplan_core::import::{Format, Imported, detect, import, import_files};
use keyplan_core::model::Design;

/// An import as the snapshots show it: the design, its notes and what it assumed.
fn render_imported(imported: &Imported) -> String {
    let mut out = render(&imported.design, &imported.notes);
    for a in &imported.assumed {
        out += &format!("assumed: {a}\n");
    }
    out
}

fn render(design: &Design, notes: &[String]) -> String {
    let mut out = String::new();
    for t in &design.tables {
        let sk = t.sort_key.as_ref().map(|k| format!(" / {}", k.name));
        out += &format!(
            "table {}: {}{}\n",
            t.name,
            t.partition_key.name,
            sk.unwrap_or_default()
        );
        for g in &t.gsis {
            let keys = |k: &[keyplan_core::model::KeyAttribute]| {
                k.iter()
                    .map(|a| a.name.as_str())
                    .collect::<Vec<_>>()
                    .join("+")
            };
            out += &format!(
                "  gsi {}: {} / {} {:?}\n",
                g.name,
                keys(&g.partition_key),
                keys(&g.sort_key),
                g.projection
            );
        }
        for l in &t.lsis {
            out += &format!("  lsi {}: {} {:?}\n", l.name, l.sort_key.name, l.projection);
        }
    }
    for e in &design.entities {
        out += &format!("entity {} ({})\n", e.name, e.table);
        for (key, template) in &e.keys {
            out += &format!("  {key} = {template}\n");
        }
        let attributes: Vec<String> = e
            .attributes
            .iter()
            .map(|a| {
                let values = if a.values.is_empty() {
                    String::new()
                } else {
                    format!("{:?}", a.values)
                };
                format!(
                    "{}:{:?}{}{values}",
                    a.name,
                    a.ty,
                    if a.required { "!" } else { "" }
                )
            })
            .collect();
        out += &format!("  attributes {}\n", attributes.join(" "));
    }
    for p in &design.patterns {
        out += &format!(
            "pattern {} reads {:?} by {:?}\n",
            p.name, p.entities, p.inputs
        );
    }
    for n in notes {
        out += &format!("note: {n}\n");
    }
    out
}

/// The JavaScript and TypeScript files of tests/fixtures/`dir`, sorted.
fn module_fixtures(dir: &str) -> Vec<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures")
        .join(dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("the fixtures directory")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "ts" || e == "js"))
        .collect();
    files.sort();
    files
}

/// A fixture's file name and what it imports as, detected as `format`.
fn read_fixture(
    format: Format,
    path: &std::path::Path,
) -> (String, keyplan_core::import::Imported) {
    let text = std::fs::read_to_string(path).expect("a fixture reads");
    let name = path
        .file_name()
        .expect("a file name")
        .to_string_lossy()
        .to_string();
    assert_eq!(detect(&text), Ok(format), "{name} is detected as {format}");
    let imported = import(format, &text).unwrap_or_else(|e| panic!("{name}: {e}"));
    (name, imported)
}

fn check_all(format: Format, dir: &str) {
    let files = module_fixtures(dir);
    assert!(files.len() >= 3, "only {} {dir} fixtures", files.len());
    for path in files {
        let (name, imported) = read_fixture(format, &path);
        assert!(
            !imported.design.entities.is_empty(),
            "{name}: no entity kept"
        );
        insta::assert_snapshot!(format!("{dir}__{name}"), render_imported(&imported));
    }
}

#[test]
fn every_real_onetable_schema_imports_and_says_what_it_kept() {
    check_all(Format::OneTable, "onetable");
}

#[test]
fn every_real_electrodb_model_imports_and_says_what_it_kept() {
    check_all(Format::ElectroDb, "electrodb");
}

/// Every fixture of `dir` is detected as `format` and imports; the snapshot shows what was
/// kept, the notes, and what was assumed with its line (issue 36: files that state only a
/// table, as DynamoDB-Toolbox's TableDTO test does, keep their table).
fn check_all_with_assumptions(format: Format, dir: &str) {
    let files = module_fixtures(dir);
    assert!(!files.is_empty(), "no {dir} fixtures");
    for path in files {
        let (name, imported) = read_fixture(format, &path);
        assert!(!imported.design.tables.is_empty(), "{name}: no table kept");
        insta::assert_snapshot!(format!("{dir}__{name}"), render_imported(&imported));
    }
}

// Issue 36, item 4: DynamoDB-Toolbox v2 and Dynamoose were refused or misread as ElectroDB.
#[test]
fn every_real_dynamodb_toolbox_module_imports_and_says_what_it_kept_and_assumed() {
    check_all_with_assumptions(Format::Toolbox, "dynamodb-toolbox");
}

#[test]
fn every_real_dynamoose_model_imports_and_says_what_it_kept_and_assumed() {
    check_all_with_assumptions(Format::Dynamoose, "dynamoose");
}

/// Every prefix of every DynamoDB-Toolbox and Dynamoose fixture (a file cut anywhere, as an
/// upload cut short is) is read or refused with an error, never a panic.
#[test]
fn every_cut_of_a_toolbox_or_dynamoose_fixture_is_read_or_refused_without_a_panic() {
    for (format, dir) in [
        (Format::Toolbox, "dynamodb-toolbox"),
        (Format::Dynamoose, "dynamoose"),
    ] {
        for path in module_fixtures(dir) {
            let text = std::fs::read_to_string(&path).expect("a fixture reads");
            for (end, _) in text.char_indices().step_by(3) {
                let cut = &text[..end];
                let _ = detect(cut);
                let _ = import(format, cut);
            }
        }
    }
}

/// The fixtures of one folder, `(name, text)` by their paths under tests/fixtures.
fn folder(dir: &str) -> Vec<(String, String)> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures");
    let mut files: Vec<(String, String)> = std::fs::read_dir(root.join(dir))
        .expect("the fixtures directory")
        .map(|e| e.expect("a directory entry").path())
        .map(|p| {
            let text = std::fs::read_to_string(&p).expect("a fixture reads");
            let name = p
                .strip_prefix(&root)
                .expect("under the fixtures")
                .to_string_lossy()
                .to_string();
            (name, text)
        })
        .collect();
    files.sort();
    files
}

/// The ElectroDB modules of one folder of tests/fixtures, read together.
fn electrodb_folder(dir: &str) -> Imported {
    let files = folder(dir);
    let pairs: Vec<(&str, &str)> = files
        .iter()
        .map(|(n, t)| (n.as_str(), t.as_str()))
        .collect();
    let (format, imported) = import_files(&pairs).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(format, Format::ElectroDb);
    imported
}

// issue 36: an entity whose attribute types are enum arrays imported from a sibling module
// (ElectroDB's versioncontrol example, `type: TicketTypes` from ./types) was refused whole;
// read alone it keeps every attribute and index, and says which types it assumed, where.
#[test]
fn an_entity_read_without_its_sibling_files_assumes_the_types_they_give() {
    let files = folder("electrodb/versioncontrol");
    let (_, issues) = files
        .iter()
        .find(|(name, _)| name.ends_with("issues.ts"))
        .expect("issues.ts");
    let imported = import(Format::ElectroDb, issues).unwrap_or_else(|e| panic!("{e}"));
    insta::assert_snapshot!(
        "electrodb__versioncontrol__issues_alone",
        render_imported(&imported)
    );
}

// issue 36: the same entities read with the module they import from and the service that
// combines them: the enum values and the service's table are read, nothing assumed of them.
#[test]
fn a_folder_of_electrodb_modules_reads_the_enums_and_the_service_they_share() {
    let imported = electrodb_folder("electrodb/versioncontrol");
    insta::assert_snapshot!(
        "electrodb__versioncontrol__together",
        render_imported(&imported)
    );
}

// issue 36: sensedeep/custom-metrics' schema as its package ships it, compiled CommonJS
// (`exports.Schema = Schema`, types as text, `type: 'date', ttl: true`). OneTable writes a
// `ttl` date as epoch seconds and any date, without `isoDates`, as epoch milliseconds: the
// TTL attribute was read as a string, which DynamoDB's TTL ignores.
#[test]
fn a_compiled_commonjs_onetable_schema_keeps_its_ttl_date_a_number() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/onetable/custom-metrics-schema.js");
    let (_, imported) = read_fixture(Format::OneTable, &path);
    let table = &imported.design.tables[0];
    assert_eq!(table.ttl_attribute.as_deref(), Some("expires"));
    let metric = &imported.design.entities[0];
    let expires = metric.attribute("expires").expect("expires is kept");
    assert_eq!(expires.ty, keyplan_core::model::AttrType::N);
}

// issue 36: ElectroDB's taskapp example keeps each model as CommonJS, `module.exports = {
// model, attributes, indexes }`, and makes the `new Entity` elsewhere: the file was refused as
// no format keyplan reads. It is the entity the application makes of it, with its five GSIs.
#[test]
fn a_commonjs_electrodb_model_exported_without_its_new_entity_is_that_entity() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/electrodb/taskapp-employees.js");
    let (_, imported) = read_fixture(Format::ElectroDb, &path);
    let design = &imported.design;
    assert_eq!(design.entities.len(), 1);
    assert_eq!(design.entities[0].name, "employees");
    assert_eq!(design.tables[0].gsis.len(), 5);
}

// issue 36: electrodb-migrations builds its entity in a factory whose index `field`s are
// function constants, `const pkField = options?.keyFields?.pk ?? DEFAULT_TABLE_KEYS.pk`, the
// default imported from ./types: the table's keys were named `pkField` and `skField`. Read
// with the module it imports from, they are the defaults the file falls back to.
#[test]
fn an_index_field_set_from_a_function_constant_takes_the_default_it_falls_back_to() {
    let imported = electrodb_folder("electrodb/electrodb-migrations");
    let table = &imported.design.tables[0];
    assert_eq!(table.partition_key.name, "pk");
    assert_eq!(table.sort_key.as_ref().map(|k| k.name.as_str()), Some("sk"));
    insta::assert_snapshot!(
        "electrodb__electrodb-migrations__together",
        render_imported(&imported)
    );
}
