//! The sample budget on the command line (issue 13): `sample`, `cost`, `query` and `run` refuse,
//! before generating anything, a sample larger than `--max-items` (100,000 by default), naming
//! the entity that takes the most and how many items it would take. They used to abort with
//! status 134 when the allocation failed.
#![allow(clippy::unwrap_used)]

mod budget_support;

use std::process::{Command, Output};

fn keyplan(args: &[&str]) -> Output {
    in_the_repository(Command::new(env!("CARGO_BIN_EXE_keyplan")))
        .args(args)
        .output()
        .expect("the keyplan binary runs")
}

/// `command` run from the repository's root, without the environment that picks an engine or
/// a budget.
fn in_the_repository(mut command: Command) -> Command {
    command
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .env_remove("KEYPLAN_ENGINE")
        .env_remove("KEYPLAN_ENDPOINT")
        .env_remove("KEYPLAN_MAX_ITEMS");
    command
}

const EXAMPLE: &str = "examples/order-management.keyplan.json";

/// Sixteen entities, each the child of the one before, no counts (the design).
const CHAIN: &str = "tests/fixtures/chain-16.keyplan.json";

/// Every subcommand that makes a sample, with `file` and `extra` arguments.
fn sample_commands<'a>(file: &'a str, extra: &[&'a str]) -> Vec<Vec<&'a str>> {
    [
        vec!["sample", file],
        vec!["cost", file],
        vec!["query", file, "Get customer"],
        vec!["run", file, "--json"],
    ]
    .into_iter()
    .map(|mut args| {
        args.extend_from_slice(extra);
        args
    })
    .collect()
}

fn assert_refused(args: &[&str], wants: &[&str]) {
    let out = keyplan(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
    assert!(out.stdout.is_empty(), "{args:?}");
    for want in wants {
        assert!(stderr.contains(want), "{args:?}: {stderr}");
    }
}

#[test]
fn a_sixteen_level_chain_is_refused_by_every_command_that_makes_a_sample() {
    // issue 13: 10 * 3^15 planned items; the commands aborted with status 134.
    for args in sample_commands(CHAIN, &[]) {
        assert_refused(
            &args,
            &[
                "the sample would have 215,233,600 items, more than the 100,000 allowed",
                "entity `E15` alone would take 143,489,070 (3 for each item of `E14`)",
                "--count E15=N",
                "--max-items",
            ],
        );
    }
}

#[test]
fn a_count_whose_children_multiply_past_the_budget_is_refused() {
    // issue 13: `Customer=100000` passed a check of the counts alone.
    for args in sample_commands(EXAMPLE, &["--count", "Customer=100000"]) {
        assert_refused(
            &args,
            &[
                "the sample would have 2,200,010 items",
                "entity `OrderItem` alone would take 900,000",
            ],
        );
    }
}

#[test]
fn max_items_sets_the_budget() {
    // The example's default sample: 230 items.
    assert_refused(
        &["sample", EXAMPLE, "--max-items", "229"],
        &["the sample would have 230 items, more than the 229 allowed"],
    );
    let out = keyplan(&["sample", EXAMPLE, "--max-items", "230"]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 230);
}

/// `keyplan ARGS` with its address space capped at 2 GB, so a budget that fails to refuse
/// aborts the command instead of taking the machine's memory (issue 41: 3.7 GB).
fn keyplan_within_2_gb(args: &[&str]) -> Output {
    in_the_repository(Command::new("sh"))
        .arg("-c")
        .arg("ulimit -v 2000000 && exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_keyplan"))
        .args(args)
        .output()
        .expect("sh runs the keyplan binary")
}

/// [`budget_support::grown`] written into `dir`.
fn grown(dir: &std::path::Path, n_tables: usize, n_gsis: usize) -> String {
    let path = dir.join(format!("grown-{n_tables}-{n_gsis}.keyplan.json"));
    std::fs::write(&path, budget_support::grown(n_tables, n_gsis).to_string()).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn migrate_verify_refuses_an_old_sample_past_the_budget_before_planning() {
    // issue 41: a 3.3 KB design aborted `keyplan migrate --verify` at 3.7 GB.
    let out = keyplan_within_2_gb(&["migrate", CHAIN, EXAMPLE, "--verify"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(
            "cannot verify: the sample would have 215,233,600 items, more than the 100,000 allowed"
        ),
        "{stderr}"
    );
    assert!(stderr.contains("raise `--max-items`"), "{stderr}");
    // The plan alone is made, its sizes from a sample within the budget.
    let out = keyplan_within_2_gb(&["migrate", CHAIN, EXAMPLE]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_run_or_verification_of_too_many_tables_or_gsis_is_refused_before_any_is_created() {
    // issue 41: one 211 KB request created 2,002 tables; 202 tables of 25 GSIs stalled the
    // embedded engine.
    let dir = tempfile::tempdir().unwrap();
    let (many, wide, half) = (
        grown(dir.path(), 26, 0),
        grown(dir.path(), 1, 21),
        grown(dir.path(), 13, 0),
    );
    assert_refused(
        &["run", &many],
        &["the run would create 26 tables, more than the 25 keyplan creates at once"],
    );
    assert_refused(
        &["run", &wide],
        &["table `orders` has 21 GSIs, more than the 20 DynamoDB allows a table by default"],
    );
    assert_refused(
        &["migrate", &half, &half, "--verify"],
        &["cannot verify: the verification would create 26 tables, more than the 25"],
    );
    assert_refused(
        &["migrate", EXAMPLE, &wide, "--verify"],
        &["cannot verify: the new design's table `orders` has 21 GSIs"],
    );
}

#[test]
fn an_engine_import_of_too_many_tables_or_items_is_refused_before_reading() {
    let names: Vec<String> = (0..26).map(|i| format!("table{i}")).collect();
    let mut args = vec!["import", "-o", "-"];
    for name in &names {
        args.extend(["--table", name]);
    }
    assert_refused(
        &args,
        &["the import would read 26 tables, more than the 25 keyplan reads at once"],
    );
    assert_refused(
        &[
            "import", "--table", "a", "--table", "b", "--sample", "100000", "-o", "-",
        ],
        &[
            "reading up to 100,000 items from each of 2 tables could hold 200,000 items, more than the 100,000 allowed",
        ],
    );
}

#[test]
fn migrate_says_items_too_large_to_count_instead_of_overflowing() {
    // issue 41: `--items` near u64::MAX panicked in a debug build and wrapped in a release one.
    let dir = tempfile::tempdir().unwrap();
    let text =
        std::fs::read_to_string(format!("{}/../{EXAMPLE}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let new = dir.path().join("new.keyplan.json");
    std::fs::write(
        &new,
        text.replacen("\"ORDER#{orderId}\"", "\"ORDER#{status}#{orderId}\"", 1),
    )
    .unwrap();
    let out = keyplan(&[
        "migrate",
        EXAMPLE,
        new.to_str().unwrap(),
        "--items",
        "Order=18446744073709551615",
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("Too large to count: Order: 18,446,744,073,709,551,615 items of"),
        "{stdout}"
    );
}
