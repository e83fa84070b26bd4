//! `keyplan design` (issue 37): from a stripped example (every key and index taken out) it
//! writes a design that `keyplan check` covers and `keyplan run` passes; `--json` has its
//! documented shape; `--alternatives` is a non-dominated front written as a folder; a proposal
//! the engine refuses is not presented; bad input is refused saying where; the same input gives
//! the same bytes.
#![allow(clippy::unwrap_used)]

mod cli_support;
mod run_support;

use std::path::{Path, PathBuf};

use expect_test::expect;
use keyplan_core::synth::strip::strip;

/// Variables that would change what `keyplan design` and `keyplan run` do.
const UNSET: [&str; 4] = [
    "KEYPLAN_ENGINE",
    "KEYPLAN_ENDPOINT",
    "KEYPLAN_SEED",
    "KEYPLAN_STYLE",
];

fn keyplan(args: &[&str]) -> std::process::Output {
    cli_support::keyplan_without(&UNSET, args)
}

fn succeeds(args: &[&str]) -> String {
    cli_support::succeeds(&UNSET, args)
}

/// The built-in example `slug` stripped of its keys and indexes, written in `dir`.
fn stripped(dir: &Path, slug: &str) -> PathBuf {
    let design = keyplan_core::examples::get(slug).unwrap();
    let path = dir.join(format!("{slug}.keyplan.json"));
    std::fs::write(&path, keyplan_core::file::to_string(&strip(&design))).unwrap();
    path
}

fn text(path: &Path) -> &str {
    path.to_str().unwrap()
}

#[test]
fn a_stripped_example_gets_a_design_that_check_covers_and_run_passes() {
    let dir = tempfile::tempdir().unwrap();
    let input = stripped(dir.path(), "ecommerce-orders");
    let out = dir.path().join("proposed.keyplan.json");
    succeeds(&["design", text(&input), "-o", text(&out)]);

    let check: serde_json::Value =
        serde_json::from_str(&succeeds(&["check", text(&out), "--json"])).unwrap();
    let design = &check["designs"][0];
    let reads: Vec<&serde_json::Value> = design["patterns"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| {
            matches!(
                p["operation"].as_str(),
                Some("GetItem" | "Query" | "Scan" | "BatchGetItem")
            )
        })
        .collect();
    assert!(!reads.is_empty());
    for read in reads {
        assert_eq!(read["covered"], true, "{read}");
    }
    succeeds(&["run", text(&out)]);
}

#[test]
fn the_json_answer_has_the_proposals_with_their_engine_runs_and_the_bound() {
    let dir = tempfile::tempdir().unwrap();
    let input = stripped(dir.path(), "ecommerce-orders");
    let answer: serde_json::Value =
        serde_json::from_str(&succeeds(&["design", text(&input), "--json"])).unwrap();
    let keys =
        |v: &serde_json::Value| -> Vec<String> { v.as_object().unwrap().keys().cloned().collect() };
    let proposal = &answer["proposals"][0];
    let shape = format!(
        "{:?}\n{:?}\n{:?}",
        keys(&answer),
        keys(proposal),
        keys(&proposal["engine"])
    );
    expect![[r#"
        ["explored", "gap_percent", "lower_bound", "optimal", "proposals", "rejected", "stopped", "style"]
        ["design", "engine", "indexes", "monthly_cost", "rank", "reads", "reads_served", "reasons", "unserved"]
        ["engine", "errors", "items", "mismatched", "ok", "passed", "skipped"]"#]]
    .assert_eq(&shape);
    assert_eq!(proposal["engine"]["ok"], true);
    assert_eq!(proposal["engine"]["engine"], "embedded");
    assert_eq!(proposal["reads_served"], proposal["reads"]);
    assert!(
        !proposal["reasons"].as_array().unwrap().is_empty(),
        "every table key and index has a reason"
    );
}

#[test]
fn alternatives_are_a_non_dominated_front_written_as_a_folder() {
    let dir = tempfile::tempdir().unwrap();
    let input = stripped(dir.path(), "ecommerce-orders");
    let out = dir.path().join("proposals");
    let answer: serde_json::Value = serde_json::from_str(&succeeds(&[
        "design",
        text(&input),
        "--alternatives",
        "3",
        "--json",
        "-o",
        text(&out),
    ]))
    .unwrap();
    let front: Vec<(f64, u64, u64)> = answer["proposals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["monthly_cost"].as_f64().unwrap(),
                p["indexes"].as_u64().unwrap(),
                p["rank"].as_u64().unwrap(),
            )
        })
        .collect();
    // Every alternative serves every read the cheapest serves (synth's rule), so a design
    // whose indexes all pay for themselves has a front of one.
    assert!((1..=3).contains(&front.len()), "{front:?}");
    for pair in front.windows(2) {
        let ((cost_a, indexes_a, _), (cost_b, indexes_b, _)) = (pair[0], pair[1]);
        assert!(
            cost_a <= cost_b && indexes_a > indexes_b,
            "dearer ones have fewer indexes: {front:?}"
        );
    }
    assert_eq!(
        std::fs::read_dir(&out).unwrap().count(),
        front.len(),
        "a file per proposal"
    );
    for (_, _, rank) in &front {
        let file = out.join(format!("ecommerce-orders.{rank}.keyplan.json"));
        succeeds(&["check", text(&file)]);
    }
}

#[test]
fn a_proposal_the_engine_refuses_is_not_presented_and_says_why() {
    use keyplan_core::synth::{Synthesis, figures};
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let (_engines, engine) = run_support::embedded().await;
        let hand = keyplan_core::examples::get("ecommerce-orders").unwrap();
        let synthesis = Synthesis {
            style: keyplan_core::synth::Style::SingleTable,
            // A design no entity fills the key of: the run refuses it before any table.
            proposals: vec![
                figures(strip(&hand), Vec::new(), Vec::new()),
                figures(hand, Vec::new(), Vec::new()),
            ],
            lower_bound: 0.0,
            gap_percent: 100.0,
            optimal: false,
            stopped: false,
            explored: 0,
        };
        let prover = keyplan_server::synthesis::Prover {
            engine: &engine,
            sample: &keyplan_core::sample::SampleConfig::default(),
            budget: keyplan_server::design_io::Budget::default(),
        };
        let cancel = tokio_util::sync::CancellationToken::new();
        let answer = prover.prove(synthesis, &cancel).await;
        assert_eq!(answer.proposals.len(), 1);
        assert_eq!(answer.proposals[0].rank, 2);
        assert!(answer.proposals[0].engine.ok);
        assert_eq!(answer.rejected.len(), 1);
        let why = answer.rejected[0].engine.first_reason();
        assert!(why.contains("the design does not validate"), "{why}");
        let shown = keyplan_server::cli::design::text(&answer);
        assert!(
            shown.contains("proposal 1 of 2") && shown.contains("NOT SHOWN"),
            "{shown}"
        );
    });
}

#[test]
fn bad_input_is_refused_saying_what_and_where() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.keyplan.json");
    std::fs::write(&bad, "{\"version\": 1,\n \"name\": 3}").unwrap();
    let out = keyplan(&["design", text(&bad)]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("bad.keyplan.json") && stderr.contains("line 2"),
        "{stderr}"
    );

    let input = stripped(dir.path(), "ecommerce-orders");
    for (args, reason) in [
        (
            vec!["--style", "flat"],
            "`flat` is not a style: one of single-table, natural",
        ),
        (vec!["--max-gsis", "21"], "21 is not in 0..=20"),
        (vec!["--budget", "0"], "0 is not in 1..=1000000000"),
        (vec!["--count", "Nobody=3"], "names no entity of the design"),
    ] {
        let mut all = vec!["design", text(&input)];
        all.extend(args);
        let out = keyplan(&all);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_ne!(out.status.code(), Some(0), "{stderr}");
        assert!(stderr.contains(reason), "{stderr}");
    }
}

#[test]
fn the_same_input_gives_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let input = stripped(dir.path(), "order-management");
    for args in [vec!["--json"], vec!["--alternatives", "2"]] {
        let mut all = vec!["design", text(&input)];
        all.extend(args);
        let first = keyplan(&all);
        let second = keyplan(&all);
        assert_eq!(
            first.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&first.stderr)
        );
        assert_eq!(first.stdout, second.stdout);
    }
}
