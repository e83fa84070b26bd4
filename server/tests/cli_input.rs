//! Unreadable input exits 2 from every subcommand that reads a design file (issue 13): an empty
//! file, one that is not a design, binary bytes, a missing file and a directory. The message
//! names the file; nothing goes to stdout. (`check` and `import` did; the others exited 1.)
#![allow(clippy::unwrap_used)]

mod cli_support;

use std::path::Path;
use std::process::Output;

fn keyplan(args: &[&str]) -> Output {
    cli_support::keyplan_without(&["KEYPLAN_ENGINE", "KEYPLAN_ENDPOINT"], args)
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
            vec!["diff", path, path],
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

/// The example design exported by `keyplan export --to FORMAT` into `dir`.
fn exported(dir: &Path, to: &str, name: &str) -> String {
    let example = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/order-management.keyplan.json"
    );
    let path = dir.join(name);
    let path = path.to_str().unwrap().to_string();
    let out = keyplan(&["export", example, "--to", to, "-o", &path]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    path
}

// issue 15: `export`, `sample`, `query`, `cost`, `link` and `run` read only keyplan files
// ("the design file has no `version`" for a Workbench model); every subcommand now reads
// every format through one reader, and `--from` overrides detection.
#[test]
fn every_subcommand_reads_every_format_and_from_overrides_detection() {
    let dir = tempfile::tempdir().unwrap();
    let workbench = exported(dir.path(), "nosql-workbench", "model.json");
    let stack = exported(dir.path(), "cloudformation-yaml", "stack.yaml");
    let tf = exported(dir.path(), "terraform", "main.tf");
    let mcp = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../shared/corpus/mcp-data-model/valid_schemas__ecommerce_app__ecommerce_schema.json"
    )
    .to_string();
    for (path, format, what) in [
        (&mcp, "mcp", "an awslabs/mcp schema.json"),
        (&workbench, "nosql-workbench", "a NoSQL Workbench model"),
        (&stack, "cloudformation", "a CloudFormation template"),
        (&tf, "terraform", "a Terraform configuration"),
    ] {
        let path = path.as_str();
        let mut commands = vec![
            vec!["check", path],
            vec!["export", path, "--to", "markdown"],
            vec!["link", path],
            vec!["diff", path, path],
        ];
        // The tables-only formats have no entities to sample; Workbench has no patterns.
        if format == "nosql-workbench" || format == "mcp" {
            commands.extend([
                vec!["sample", path],
                vec!["cost", path],
                vec!["run", path, "--json"],
            ]);
        }
        if format == "mcp" {
            commands.push(vec!["query", path, "get_user_by_id"]);
        }
        for mut args in commands {
            let out = keyplan(&args);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_ne!(out.status.code(), Some(2), "{args:?}: {stderr}");
            if args[0] != "check" && args[0] != "run" {
                assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
                assert!(stderr.contains(&format!("as {what}")), "{args:?}: {stderr}");
            }
            // Naming the format reads it the same; naming another refuses it, saying so.
            args.extend(["--from", format]);
            let named = keyplan(&args);
            assert_eq!(named.status.code(), out.status.code(), "{args:?}");
            let last = args.len() - 1;
            args[last] = if format == "terraform" {
                "mcp"
            } else {
                "terraform"
            };
            let wrong = keyplan(&args);
            let stderr = String::from_utf8_lossy(&wrong.stderr);
            assert_eq!(wrong.status.code(), Some(2), "{args:?}: {stderr}");
            assert!(stderr.contains("does not read as a"), "{args:?}: {stderr}");
        }
    }
    // `import` detects too, and says what it read.
    let out_file = dir.path().join("back.keyplan.json");
    let out = keyplan(&["import", &stack, "-o", out_file.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("read ") && stderr.contains("as a CloudFormation template"),
        "{stderr}"
    );
    assert!(
        stderr.contains("no entities or access patterns"),
        "{stderr}"
    );
}

// issue 15: a OneTable schema said only "DataModel missing"; a file keyplan cannot read
// says what it looks like, which formats keyplan reads and why each did not fit.
#[test]
fn a_file_no_format_fits_says_what_was_tried_and_why() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("schema.json");
    let out_file = dir.path().join("out.keyplan.json");
    // Imports `schema` from a file: the exit code and stderr.
    let import = |schema: &str| {
        std::fs::write(&path, schema).unwrap();
        let out = keyplan(&[
            "import",
            path.to_str().unwrap(),
            "-o",
            out_file.to_str().unwrap(),
        ]);
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        (out.status.code(), stderr)
    };
    let (code, stderr) = import(
        r#"{"version": "0.0.1", "format": "onetable:1.1.0", "indexes": {"primary": {"hash": "pk"}}}"#,
    );
    assert_eq!(code, Some(2), "{stderr}");
    for part in [
        "keyplan reads a OneTable schema (JSON or JavaScript/TypeScript), a keyplan design, a NoSQL Workbench model",
        "not a OneTable schema: no `models` and `indexes` objects",
        "not a keyplan design: `version` is text",
        "not a Terraform configuration",
    ] {
        assert!(stderr.contains(part), "{part}: {stderr}");
    }

    // And the OneTable schema the issue met now reads as one.
    let (code, stderr) = import(
        r#"{"version": "0.0.1", "format": "onetable:1.1.0", "indexes": {"primary": {"hash": "pk"}}, "models": {}}"#,
    );
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stderr.contains("as a OneTable schema"), "{stderr}");
    assert!(
        stderr.contains(": 1 table, 0 entities, 0 patterns"),
        "{stderr}"
    );
}
