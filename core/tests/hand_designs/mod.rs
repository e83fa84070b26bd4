//! The hand designs the synthesis is measured against (issue 37), as (file name, text): the
//! built-in examples and the shared corpus's awslabs/mcp schemas, sorted by name. Shared by
//! `tests/synth.rs` and the synthesis's own tests (`src/synth/tests.rs`, by path), so both
//! run over the same designs; each passes the parsers by its own path to the crate.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The examples, parsed by `parse`, then the corpus's schemas that `import` reads, by file
/// name.
pub fn designs<D>(
    parse: impl Fn(&str) -> D,
    import: impl Fn(&str) -> Option<D>,
) -> Vec<(String, D)> {
    let examples = example_texts()
        .into_iter()
        .map(|(name, text)| (name, parse(&text)));
    let corpus = corpus_texts()
        .into_iter()
        .filter_map(|(name, text)| Some((name, import(&text)?)));
    examples.chain(corpus).collect()
}

/// The `*.keyplan.json` files of `examples/`.
pub fn example_texts() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
    texts(&dir, ".keyplan.json").expect("the examples folder is readable")
}

/// The awslabs/mcp schemas of `shared/corpus` beside the checkout (beside the main
/// checkout's folder, or beside the folder of the worktrees a checkout sits in); none when it
/// is not there.
pub fn corpus_texts() -> Vec<(String, String)> {
    let core = Path::new(env!("CARGO_MANIFEST_DIR"));
    core.ancestors()
        .skip(2)
        .map(|dir| dir.join("shared/corpus/mcp-data-model"))
        .find(|dir| dir.is_dir())
        .and_then(|dir| texts(&dir, "_schema.json"))
        .unwrap_or_default()
}

/// The readable files of `dir` whose names end with `suffix`, sorted, with their texts.
fn texts(dir: &Path, suffix: &str) -> Option<Vec<(String, String)>> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().ends_with(suffix))
        .collect();
    paths.sort();
    Some(
        paths
            .into_iter()
            .filter_map(|path| {
                let text = std::fs::read_to_string(&path).ok()?;
                let name = path.file_name()?.to_string_lossy().into_owned();
                Some((name, text))
            })
            .collect(),
    )
}
