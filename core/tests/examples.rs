//! Every built-in example under `examples/` is a valid design file that round-trips.

use std::path::Path;

#[test]
fn every_example_parses_and_round_trips() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let mut n_examples = 0;
    for entry in std::fs::read_dir(&dir).expect("examples/ exists") {
        let path = entry.expect("readable entry").path();
        if !path.to_string_lossy().ends_with(".keyplan.json") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("readable example");
        let design =
            keyplan_core::file::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let again = keyplan_core::file::parse(&keyplan_core::file::to_string(&design))
            .expect("written design parses");
        assert_eq!(design, again, "{}", path.display());
        for entity in &design.entities {
            for (key, template) in &entity.keys {
                assert!(
                    template.is_valid(),
                    "{}: {}.{key}",
                    path.display(),
                    entity.name
                );
            }
        }
        n_examples += 1;
    }
    assert!(n_examples >= 1, "no examples found in {}", dir.display());
}
