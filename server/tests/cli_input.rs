//! Unreadable input exits 2 from every subcommand that reads a design file (issue 13): an empty
//! file, one that is not a design, binary bytes, a missing file and a directory. The message
//! names the file; nothing goes to stdout. (`check` and `import` did; the others exited 1.)
#![allow(clippy::unwrap_used)]

use std::path::Path;
use std::process::{Command, Output};

fn keyplan(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_keyplan"))
        .args(args)
        .env("NO_COLOR", "1")
        .env_remove("KEYPLAN_ENGINE")
        .env_remove("KEYPLAN_ENDPOINT")
        .output()
        .expect("the keyplan binary runs")
}

/// Each kind of bad input, as (what it is, its path) under `dir`.
fn bad_inputs(dir: &Path) -> Vec<(&'static str, String)> {
    let write = |name: &str, bytes: &[u8]| {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        path.to_str().unwrap().to_string()
    };
    let folder = dir.join("a-directory.keyplan.json");
    std::fs::create_dir(&folder).unwrap();
    vec![
        ("empty", write("empty.keyplan.json", b"")),
        (
            "invalid",
            write("invalid.keyplan.json", b"{\"version\": 1, \"tables\": ["),
        ),
        (
            "not a design",
            write("other.keyplan.json", b"{\"hello\": \"world\"}"),
        ),
        (
            "binary",
            write(
                "binary.keyplan.json",
                &[0x89, b'P', b'N', b'G', 0, 0xff, 0xfe, 7],
            ),
        ),
        (
            "missing",
            dir.join("missing.keyplan.json")
                .to_str()
                .unwrap()
                .to_string(),
        ),
        ("a directory", folder.to_str().unwrap().to_string()),
    ]
}

#[test]
fn every_subcommand_exits_2_on_every_kind_of_unreadable_input() {
    let dir = tempfile::tempdir().unwrap();
    let out_file = dir.path().join("out.keyplan.json");
    let out_file = out_file.to_str().unwrap();
    for (kind, path) in bad_inputs(dir.path()) {
        let path = path.as_str();
        for args in [
            vec!["check", path],
            vec!["import", path, "--from", "nosql-workbench", "-o", out_file],
            vec!["import", path, "--from", "mcp", "-o", out_file],
            vec!["export", path, "--to", "markdown"],
            vec!["sample", path],
            vec!["query", path, "Get customer"],
            vec!["cost", path],
            vec!["link", path],
            vec!["run", path, "--json"],
        ] {
            let out = keyplan(&args);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{kind}: {args:?}: {stderr}");
            assert!(out.stdout.is_empty(), "{kind}: {args:?}");
            assert!(stderr.contains(path), "{kind}: {args:?}: {stderr}");
        }
    }
}

#[test]
fn a_design_that_reads_but_cannot_be_worked_on_still_exits_1() {
    // Not unreadable: the design has no table to export, and no such pattern to query.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("empty-design.keyplan.json");
    std::fs::write(&path, r#"{"version": 1, "name": "nothing"}"#).unwrap();
    let path = path.to_str().unwrap();
    for args in [
        vec!["export", path, "--to", "terraform"],
        vec!["query", path, "no such pattern"],
    ] {
        let out = keyplan(&args);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {out:?}");
    }
}
