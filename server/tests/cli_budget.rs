//! The sample budget on the command line (issue 13): `sample`, `cost`, `query` and `run` refuse,
//! before generating anything, a sample larger than `--max-items` (100,000 by default), naming
//! the entity that takes the most and how many items it would take. They used to abort with
//! status 134 when the allocation failed.
#![allow(clippy::unwrap_used)]

use std::process::{Command, Output};

fn keyplan(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_keyplan"))
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .env_remove("KEYPLAN_ENGINE")
        .env_remove("KEYPLAN_ENDPOINT")
        .env_remove("KEYPLAN_MAX_ITEMS")
        .output()
        .expect("the keyplan binary runs")
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
