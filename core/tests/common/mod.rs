//! What the integration tests over the shared corpus share: where the corpus is, and its files.

use std::path::{Path, PathBuf};

/// `shared/corpus` beside the checkout: beside the main checkout's folder, or beside the
/// folder of the worktrees a checkout sits in (`/work/wt/NAME`).
pub fn corpus_dir() -> PathBuf {
    let core = Path::new(env!("CARGO_MANIFEST_DIR"));
    core.ancestors()
        .skip(2)
        .map(|dir| dir.join("shared/corpus"))
        .find(|dir| dir.is_dir())
        .unwrap_or_else(|| core.join("../../shared/corpus"))
}

/// Every `.json` file under the corpus, sorted, as (path relative to the corpus, text).
pub fn corpus_files() -> Vec<(String, String)> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let entries = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("the corpus folder {} is readable: {e}", dir.display()));
        for entry in entries {
            let path = entry.expect("readable entry").path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "json") {
                out.push(path);
            }
        }
    }
    let root = corpus_dir();
    let mut paths = Vec::new();
    walk(&root, &mut paths);
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).expect("readable corpus file");
            let relative = path
                .strip_prefix(&root)
                .expect("under the corpus")
                .to_string_lossy()
                .replace('\\', "/");
            (relative, text)
        })
        .collect()
}
