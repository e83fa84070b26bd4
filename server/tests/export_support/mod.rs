//! The designs every export is checked on, written to files, and a tool's run: shared by
//! export_tools.rs and export_libraries.rs.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

use keyplan_core::Design;
use keyplan_core::export::{Target, export};

use crate::corpus_support;
use crate::run_support::repo;

/// (name, design) for every example and every corpus design that imports.
pub fn designs() -> Vec<(String, Design)> {
    let mut out: Vec<(String, Design)> = keyplan_core::examples::all()
        .into_iter()
        .map(|(slug, d)| (slug.to_string(), d))
        .collect();
    // Every table feature the examples lack (LSI, multi-attribute GSI key, provisioned, ...).
    // And a vector index with its search (issue 40).
    for (name, file) in [
        ("kitchen_sink", "kitchen-sink.keyplan.json"),
        ("vector_search", "vector-search.keyplan.json"),
    ] {
        let fixture = repo().join("tests/export").join(file);
        let text = std::fs::read_to_string(&fixture).expect("the export fixture");
        let design = keyplan_core::file::parse(&text).expect("the export fixture parses");
        out.push((name.to_string(), design));
    }
    for path in corpus_support::json_files(&repo().join("../shared/corpus")) {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        // Usage-data files and the like are not designs: the importer says so.
        if let Ok(imported) = keyplan_core::import::detect_and_import(&text) {
            if imported.design.tables.is_empty() {
                continue;
            }
            let stem = path
                .file_stem()
                .map(|s| {
                    s.to_string_lossy()
                        .replace(|c: char| !c.is_ascii_alphanumeric(), "_")
                })
                .unwrap_or_default();
            out.push((format!("corpus_{stem}"), imported.design));
        }
    }
    out
}

pub fn write_all(dir: &Path, format: Target, suffix: &str) -> Vec<(String, Design, PathBuf)> {
    designs()
        .into_iter()
        .map(|(name, design)| {
            let text = export(&design, format).unwrap_or_else(|e| panic!("{name}: {e}"));
            let path = dir.join(format!("{name}{suffix}"));
            std::fs::write(&path, text).expect("write export");
            (name, design, path)
        })
        .collect()
}

pub fn run(command: &mut Command) -> (bool, String) {
    let output = command.output().expect("the tool starts");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    (output.status.success(), text)
}

/// Writes the `tsconfig.json` every TypeScript export is compiled with: `--strict`, Node's
/// module resolution (so `.tools/node_modules` is found), output in `out/`.
pub fn write_tsconfig(dir: &Path) {
    std::fs::write(
        dir.join("tsconfig.json"),
        r#"{
  "compilerOptions": {
    "strict": true,
    "outDir": "out",
    "target": "es2022",
    "module": "nodenext",
    "moduleResolution": "nodenext",
    "types": ["node"],
    "skipLibCheck": true
  },
  "include": ["*.ts"]
}
"#,
    )
    .expect("write tsconfig");
}
