//! The committed JSON Schema of the design file, `docs/keyplan.schema.json`, is what core's
//! types generate: this fails when a model change leaves it stale.
//! `UPDATE_EXPECT=1 cargo test -p keyplan-server --test cli_schema` rewrites it.

use expect_test::expect_file;

#[test]
fn the_committed_design_file_schema_matches_the_types() {
    let schema = keyplan_server::design_io::design_schema();
    expect_file!["../../docs/keyplan.schema.json"].assert_eq(&schema);
}

#[test]
fn the_schema_accepts_the_shape_of_a_design_file() {
    let schema: serde_json::Value =
        serde_json::from_str(&keyplan_server::design_io::design_schema()).expect("JSON");
    assert_eq!(schema["title"], "Design");
    let required: Vec<&str> = schema["required"]
        .as_array()
        .expect("a required list")
        .iter()
        .filter_map(|v| v.as_str())
        .collect();
    assert_eq!(required, ["version", "name"]);
    for field in ["tables", "entities", "patterns", "samples", "layout"] {
        assert!(
            schema["properties"].get(field).is_some(),
            "the schema documents `{field}`"
        );
    }
}
