//! `keyplan run` (issue 8): JSON lines with `--json`, exit 0 when every pattern passes, exit 1
//! with a clear message when the engine cannot be reached or the arguments are wrong.
#![allow(clippy::unwrap_used)]

mod run_support;

use run_support::keyplan;

const EXAMPLE: &str = "examples/order-management.keyplan.json";

#[test]
fn run_prints_json_events_and_exits_0_when_every_pattern_passes() {
    let (code, stdout, stderr) = keyplan(&["run", EXAMPLE, "--json", "--count", "Customer=5"]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    let events: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(events[0]["type"], "started");
    assert_eq!(events[0]["engine"], "embedded");
    let last = events.last().unwrap();
    assert_eq!(last["type"], "done");
    assert_eq!(last["ok"], true);
    assert!(
        events
            .iter()
            .any(|e| e["type"] == "pattern" && e["status"] == "pass")
    );
}

/// `keyplan ARGS` exits with `code`, its stderr saying `reason`.
fn fails(args: &[&str], code: i32, reason: &str) {
    let (exit, _, stderr) = keyplan(args);
    assert_eq!(exit, code, "{stderr}");
    assert!(stderr.contains(reason), "{stderr}");
}

#[test]
fn run_on_an_unreachable_endpoint_exits_1_and_says_so() {
    fails(
        &["run", EXAMPLE, "--endpoint", "http://127.0.0.1:1"],
        1,
        "error: cannot reach engine `endpoint` (http://127.0.0.1:1) within 5 s",
    );
}

#[test]
fn run_refuses_bad_arguments_with_the_reason() {
    fails(
        &["run", EXAMPLE, "--count", "Nope=3"],
        1,
        "`--count Nope=...` names no entity of the design",
    );
    fails(
        &["run", EXAMPLE, "--endpoint", "aws"],
        1,
        "refused without `--allow-aws`",
    );
    // issue 13: unreadable input exits 2, as from every subcommand.
    fails(
        &["run", "missing.keyplan.json"],
        2,
        "missing.keyplan.json: cannot read",
    );
}
