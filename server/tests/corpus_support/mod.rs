//! The shared corpus of real designs (`../shared/corpus` beside the checkout), for the tests
//! that run keyplan over every model in it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The JSON files under `root`'s NoSQL Workbench and MCP folders, sorted; none when they are
/// not there.
pub fn model_files(root: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = ["nosql-workbench", "mcp-data-model"]
        .iter()
        .flat_map(|dir| json_files(&root.join(dir)))
        .collect();
    files.sort();
    files
}

/// Every JSON file under `dir`, recursively, sorted; none when it cannot be read.
pub fn json_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = files_under(dir);
    files.retain(|p| p.extension().is_some_and(|e| e == "json"));
    files.sort();
    files
}

/// Every file under `dir`, recursively; none when it cannot be read.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .flatten()
        .flat_map(|e| {
            let path = e.path();
            if path.is_dir() {
                files_under(&path)
            } else {
                vec![path]
            }
        })
        .collect()
}

/// The shared corpus (`shared/corpus`) beside the checkout: in the main checkout's folder, or
/// in the folder of the worktrees a checkout sits in; `None` when it is not there.
pub fn root() -> Option<PathBuf> {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .skip(1)
        .map(|dir| dir.join("shared/corpus"))
        .find(|dir| dir.is_dir())
}
