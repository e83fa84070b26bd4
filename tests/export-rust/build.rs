//! Writes keyplan's Rust access-code export of every built-in example, the kitchen-sink and
//! vector-search fixtures (tests/export), and of every design
//! imported from ../shared/corpus when it is there, into OUT_DIR, one module each; src/lib.rs
//! includes them, so `cargo build` (and `cargo test --workspace`) compiles the generated code
//! against the real aws-sdk-dynamodb.

use std::fmt::Write;
use std::path::{Path, PathBuf};

use keyplan_core::export::{Target, export};

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it"));
    let repo = manifest.join("../..");
    println!("cargo:rerun-if-changed={}", repo.join("examples").display());
    let mut designs: Vec<(String, keyplan_core::Design)> = keyplan_core::examples::all()
        .into_iter()
        .map(|(slug, d)| (slug.to_string(), d))
        .collect();
    // Every table feature the examples lack; and a vector index with its search (issue 40).
    for (name, file) in [
        ("kitchen sink", "kitchen-sink.keyplan.json"),
        ("vector search", "vector-search.keyplan.json"),
    ] {
        let fixture = repo.join("tests/export").join(file);
        println!("cargo:rerun-if-changed={}", fixture.display());
        let text = std::fs::read_to_string(&fixture).expect("the export fixture");
        designs.push((
            name.to_string(),
            keyplan_core::file::parse(&text).expect("the export fixture parses"),
        ));
    }
    let corpus = repo.join("../shared/corpus");
    if corpus.is_dir() {
        println!("cargo:rerun-if-changed={}", corpus.display());
        collect_corpus(&corpus, &mut designs);
    }
    let mut modules = String::new();
    for (i, (name, design)) in designs.iter().enumerate() {
        let Ok(code) = export(design, Target::Rust) else {
            continue;
        };
        // `include!` cannot take inner doc comments: they become plain comments.
        let code = code.replace("//!", "//");
        let file = format!("design_{i}.rs");
        std::fs::write(out.join(&file), code).expect("write generated code");
        let _ = writeln!(
            modules,
            "/// {name}\npub mod design_{i} {{\n    include!(concat!(env!(\"OUT_DIR\"), \"/{file}\"));\n}}"
        );
    }
    std::fs::write(out.join("designs.rs"), modules).expect("write module list");
}

fn collect_corpus(dir: &Path, designs: &mut Vec<(String, keyplan_core::Design)>) {
    let mut files: Vec<PathBuf> = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(d) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "json") {
                files.push(path);
            }
        }
    }
    files.sort();
    for path in files {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        if let Ok(imported) = keyplan_core::import::detect_and_import(&text)
            && !imported.design.tables.is_empty()
        {
            designs.push((path.display().to_string(), imported.design));
        }
    }
}
