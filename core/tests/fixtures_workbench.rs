//! Real NoSQL Workbench models without facets (tests/fixtures/nosql-workbench, sources and
//! licences in its SOURCES.md): the 2019 format (no `Version`) and 2.0, whose entities can
//! only be inferred from the sample items (issue 36). Every file imports, and the snapshot
//! shows the entities kept with their key templates, the notes, and what was assumed.

use std::path::PathBuf;

use keyplan_core::import::{Format, detect, import};

/// The design as a reviewer reads it: each entity with its keys and typed attributes, then
/// the notes and each value assumed.
fn summary(imported: &keyplan_core::import::Imported) -> String {
    let design = &imported.design;
    let mut out = String::new();
    for t in &design.tables {
        let sk = t.sort_key.as_ref().map(|k| format!(" / {}", k.name));
        let gsis: Vec<&str> = t.gsis.iter().map(|g| g.name.as_str()).collect();
        out += &format!(
            "table {}: {}{} gsis {gsis:?}, {} sample items\n",
            t.name,
            t.partition_key.name,
            sk.unwrap_or_default(),
            design.samples.get(&t.name).map_or(0, Vec::len)
        );
    }
    for e in &design.entities {
        out += &format!("entity {} ({})\n", e.name, e.table);
        for (key, template) in &e.keys {
            out += &format!("  {key} = {template}\n");
        }
        let attributes: Vec<String> = e
            .attributes
            .iter()
            .map(|a| format!("{}:{:?}{}", a.name, a.ty, if a.required { "!" } else { "" }))
            .collect();
        out += &format!("  attributes {}\n", attributes.join(" "));
    }
    for n in &imported.notes {
        out += &format!("note: {n}\n");
    }
    for a in &imported.assumed {
        out += &format!("assumed: {a}\n");
    }
    out
}

#[test]
fn every_real_workbench_model_without_facets_imports_and_says_what_it_kept() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/nosql-workbench");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("the fixtures directory")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    assert!(files.len() >= 4, "only {} workbench fixtures", files.len());
    for path in files {
        let text = std::fs::read_to_string(&path).expect("a fixture reads");
        let name = path
            .file_name()
            .expect("a file name")
            .to_string_lossy()
            .replace(' ', "_");
        assert_eq!(detect(&text), Ok(Format::NosqlWorkbench), "{name}");
        let imported =
            import(Format::NosqlWorkbench, &text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(
            !imported.design.entities.is_empty(),
            "{name}: no entity kept"
        );
        insta::assert_snapshot!(format!("workbench__{name}"), summary(&imported));
    }
}

// issue 36: aws-samples' ACL model states its entities in its `ModelSchema` (user, group,
// role, privilege) and tags each item with them in `type`; their keys have one shape (`U1`,
// `G1`), so the values were read as states of one entity and the four entities were lost.
#[test]
fn a_model_whose_schema_names_the_type_values_keeps_an_entity_per_value() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/nosql-workbench/ACL.json");
    let text = std::fs::read_to_string(path).expect("a fixture reads");
    let imported = import(Format::NosqlWorkbench, &text).unwrap_or_else(|e| panic!("{e}"));
    let names: Vec<&str> = imported
        .design
        .entities
        .iter()
        .map(|e| e.name.as_str())
        .collect();
    assert_eq!(names.len(), 4, "{names:?}");
}
