//! `keyplan query FILE PATTERN`: runs one read pattern over the design's sample items and
//! prints what DynamoDB would return.
//!
//! The pattern is served the way coverage decided (GetItem, Query, or a scatter-gather of one
//! Query per write shard). Input values default to ones taken from the sample (a partition
//! that has results); `--input name=value` overrides them. The output names the key condition
//! of every query, then the items as DynamoDB JSON one per line, the LastEvaluatedKey of any
//! query that stopped at its Limit, and the read units consumed. `--json` prints the whole
//! run as one JSON document instead.
//!
//! A vector search (issue 40) is answered by core's evaluation too
//! ([`keyplan_core::eval::vector_pattern`]: the exact `TopK` nearest items by the index's
//! distance, each with its score), its query vector given as `--input NAME=[n, ...]` or, when
//! not given, the first sample item's own vector. It is not sent to an engine: `keyplan query`
//! runs every pattern over the sample in core and starts none; `keyplan run` runs SearchVectors
//! on the engine (the embedded one has it) and compares its answer with this one.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use keyplan_core::eval::{self, ItemStore, PatternRun};
use keyplan_core::model::{AccessPattern, Design};
use keyplan_core::sample::generate;
use keyplan_core::{Operation, Verdict};

use crate::design_io::{Budget, parse_pair, print, read_design, sample_config};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The design file: a keyplan design or any format keyplan reads (see `--from`).
    pub file: PathBuf,
    #[command(flatten)]
    pub from: crate::design_io::From,
    /// The read pattern's name (case-insensitive when unambiguous).
    pub pattern: String,
    /// An input value, `NAME=VALUE`; repeatable. Inputs not given are taken from the sample.
    #[arg(long = "input", value_name = "NAME=VALUE", value_parser = parse_pair)]
    pub inputs: Vec<(String, String)>,
    /// The seed of the sample generator.
    #[arg(long, default_value_t = 1, env = "KEYPLAN_SEED")]
    pub seed: u64,
    /// Items to generate for an entity, `ENTITY=N`; repeatable.
    #[arg(long = "count", value_name = "ENTITY=N", value_parser = crate::design_io::parse_count)]
    pub counts: Vec<(String, u32)>,
    #[command(flatten)]
    pub budget: Budget,
    /// Print the run as one JSON document.
    #[arg(long)]
    pub json: bool,
}

pub async fn run(args: Args) -> anyhow::Result<ExitCode> {
    let design = read_design(&args.file, args.from)?;
    let config = sample_config(&design, args.seed, &args.counts, args.budget)?;
    // The sample moves into the store, and a query reads the verdicts only (issue 13: scale).
    let store = ItemStore::build(&design, generate(&design, &config).into_load_items());
    // Only this pattern's verdict: a big design's others took a third of the time.
    let pattern = find_pattern(&design, &args.pattern)?;
    let verdict = keyplan_core::analysis::verdict_of(&design, pattern);
    let answer = execute(&design, &store, &verdict, &args.inputs)?;
    if args.json {
        print(&format!("{}\n", serde_json::to_string_pretty(&answer)?))?;
    } else {
        print(&describe(&verdict, &answer))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The pattern named `name`: exactly, or case-insensitively when only one pattern matches
/// that way (the first of its name, as the verdicts list them).
pub fn find_pattern<'a>(design: &'a Design, name: &str) -> anyhow::Result<&'a AccessPattern> {
    if let Some(p) = design.patterns.iter().find(|p| p.name == name) {
        return Ok(p);
    }
    let loose: Vec<&AccessPattern> = design
        .patterns
        .iter()
        .filter(|p| p.name.eq_ignore_ascii_case(name.trim()))
        .collect();
    if let [one] = loose[..] {
        return Ok(one);
    }
    let reads: Vec<&str> = design
        .patterns
        .iter()
        .filter(|p| p.is_read())
        .map(|p| p.name.as_str())
        .collect();
    anyhow::bail!(
        "the design has no pattern `{name}`; its read patterns are: {}",
        reads.join(", ")
    )
}

/// A pattern's answer: its run, and for a vector search each returned item's score.
#[derive(Debug, serde::Serialize)]
pub struct Answer {
    #[serde(flatten)]
    pub run: PatternRun,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub scores: Vec<f64>,
}

/// Runs the pattern with the inputs picked from the sample, overridden by `given`.
pub fn execute(
    design: &Design,
    store: &ItemStore,
    verdict: &Verdict,
    given: &[(String, String)],
) -> anyhow::Result<Answer> {
    match verdict.operation {
        Operation::GetItem | Operation::Query => {}
        Operation::Scan => {
            let mut message = format!(
                "`{}` is not covered: only a Scan serves it",
                verdict.pattern
            );
            for reason in &verdict.reasons {
                let _ = write!(message, "\n  - {reason}");
            }
            for suggestion in &verdict.suggestions {
                let _ = write!(message, "\n  suggestion: {suggestion}");
            }
            anyhow::bail!(message)
        }
        Operation::SearchVectors => return search(design, store, verdict, given),
        other => anyhow::bail!(
            "`{}` is a write ({}): `keyplan query` runs reads; see `keyplan cost` for its units",
            verdict.pattern,
            other.as_str()
        ),
    }
    let pattern = design
        .pattern(&verdict.pattern)
        .ok_or_else(|| anyhow::anyhow!("the verdict names no pattern"))?;
    let mut inputs: BTreeMap<String, String> =
        eval::pick_inputs(design, store, verdict, pattern).unwrap_or_default();
    inputs.extend(given.iter().cloned());
    Ok(Answer {
        run: eval::run_pattern(design, store, verdict, Some(inputs))?,
        scores: Vec::new(),
    })
}

/// A vector search over the sample: with the query vector given as the pattern's query input
/// (a JSON list of numbers), or the first candidate's own.
fn search(
    design: &Design,
    store: &ItemStore,
    verdict: &Verdict,
    given: &[(String, String)],
) -> anyhow::Result<Answer> {
    let input = design
        .pattern(&verdict.pattern)
        .and_then(|p| p.vector.as_ref())
        .map_or("queryVector", |v| v.query.as_str());
    let query = match given.iter().find(|(name, _)| name == input) {
        Some((_, text)) => Some(serde_json::from_str::<Vec<f32>>(text).map_err(|e| {
            anyhow::anyhow!(
                "--input {input}: the query vector is a JSON list of numbers, such as [0.1, -0.2, 0.3]: {e}"
            )
        })?),
        None => None,
    };
    let searched = eval::vector_pattern(design, store, verdict, query)?;
    let scores = searched.answer().iter().map(|hit| hit.score).collect();
    Ok(Answer {
        run: searched.run,
        scores,
    })
}

/// The run as text for a terminal.
pub fn describe(verdict: &Verdict, answer: &Answer) -> String {
    let run = &answer.run;
    let mut out = String::new();
    let place = match (&verdict.table, &verdict.index) {
        (Some(t), Some(i)) => format!("{t} index {i}"),
        (Some(t), None) => t.clone(),
        _ => String::new(),
    };
    let _ = writeln!(
        out,
        "{}: {} on {place}",
        run.pattern,
        run.operation.as_str()
    );
    let inputs: Vec<String> = run.inputs.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let _ = writeln!(out, "inputs: {}", inputs.join(" "));
    let vector = run.operation == Operation::SearchVectors;
    for condition in &run.conditions {
        let what = if vector { "search" } else { "key condition" };
        let _ = writeln!(out, "{what}: {condition}");
    }
    if let Some(filter) = &run.filter {
        let _ = writeln!(
            out,
            "filter: {filter} (read {} item(s) before it)",
            run.result.scanned
        );
    }
    if run.operation == Operation::Query {
        let _ = writeln!(
            out,
            "ScanIndexForward: {}{}",
            verdict.scan_forward,
            if run.conditions.len() > 1 {
                format!(" (merged over {} shards)", run.conditions.len())
            } else {
                String::new()
            }
        );
    }
    if vector {
        // Metered in vector search request bytes, not read units (see keyplan_core::pricing).
        let _ = writeln!(
            out,
            "{} item(s), core's exact answer; its cost is {}",
            run.result.items.len(),
            keyplan_core::pricing::VECTOR_NOT_PRICED
        );
    } else {
        let _ = writeln!(
            out,
            "{} item(s), {} bytes read, {} read units",
            run.result.items.len(),
            run.result.bytes_read,
            run.result.read_units
        );
    }
    for (n, item) in run.result.items.iter().enumerate() {
        let item = serde_json::to_string(item).unwrap_or_default();
        match answer.scores.get(n) {
            Some(score) => {
                let _ = writeln!(out, "score {score} {item}");
            }
            None => {
                let _ = writeln!(out, "{item}");
            }
        }
    }
    for (n, page) in run.result.pages.iter().enumerate() {
        if let Some(key) = &page.last_evaluated_key {
            let which = if run.result.pages.len() > 1 {
                format!(" (query {})", n + 1)
            } else {
                String::new()
            };
            let _ = writeln!(
                out,
                "LastEvaluatedKey{which}: {}",
                serde_json::to_string(key).unwrap_or_default()
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn order_design() -> Design {
        keyplan_core::file::parse(include_str!(
            "../../../examples/order-management.keyplan.json"
        ))
        .expect("the example parses")
    }

    #[test]
    fn a_pattern_runs_with_inputs_from_the_sample_or_given_ones() {
        let design = order_design();
        let store = ItemStore::build(&design, generate(&design, &Default::default()).load_items());
        let pattern = find_pattern(&design, "get ORDER items").expect("found loosely");
        let verdict = keyplan_core::analysis::verdict_of(&design, pattern);
        let run = execute(&design, &store, &verdict, &[]).expect("the pattern runs");
        assert!(!run.run.result.items.is_empty());
        let given = [("orderId".to_string(), "nope".to_string())];
        let none = execute(&design, &store, &verdict, &given).expect("the pattern runs");
        assert!(none.run.result.items.is_empty());
        assert!(describe(&verdict, &none).contains("key condition: PK = \"ORDER#nope\""));
    }

    #[test]
    fn an_unknown_or_uncovered_pattern_is_a_clear_error() {
        let design = order_design();
        let store = ItemStore::build(&design, generate(&design, &Default::default()).load_items());
        let err = find_pattern(&design, "nope").expect_err("no such pattern");
        assert!(err.to_string().contains("Get order items"));
        let scan = find_pattern(&design, "Get order by ID").expect("exists");
        let scan = keyplan_core::analysis::verdict_of(&design, scan);
        let err = execute(&design, &store, &scan, &[]).expect_err("a scan is refused");
        assert!(err.to_string().contains("not covered"));
    }

    fn vector_design() -> Design {
        keyplan_core::file::parse(include_str!(
            "../../../tests/export/vector-search.keyplan.json"
        ))
        .expect("the vector fixture parses")
    }

    // issue 40: a vector search is answered as core's evaluation gives it (the exact nearest
    // items by the index's distance), with the query vector given or taken from the sample.
    #[test]
    fn a_vector_search_gives_the_nearest_items_with_their_scores() {
        let design = vector_design();
        let store = ItemStore::build(&design, generate(&design, &Default::default()).load_items());
        let pattern = find_pattern(&design, "Similar products").expect("exists");
        let verdict = keyplan_core::analysis::verdict_of(&design, pattern);
        let run = execute(&design, &store, &verdict, &[]).expect("the search runs");
        assert_eq!(run.run.operation, Operation::SearchVectors);
        assert_eq!(run.run.result.items.len(), 5);
        let text = describe(&verdict, &run);
        assert!(
            text.contains("search: SearchVectors on ByEmbedding"),
            "{text}"
        );
        assert!(
            text.contains("score 0 "),
            "the sample's own vector is nearest: {text}"
        );
        let given = [("queryVector".to_string(), "[1,0,0,0,0,0,0,0]".to_string())];
        let run = execute(&design, &store, &verdict, &given).expect("the search runs");
        assert_eq!(run.run.result.items.len(), 5);
        for (bad, why) in [
            ("[1,2]", "ByEmbedding holds 8"),
            ("one,two", "a JSON list of numbers"),
        ] {
            let given = [("queryVector".to_string(), bad.to_string())];
            let err = execute(&design, &store, &verdict, &given).expect_err(bad);
            assert!(err.to_string().contains(why), "{bad}: {err}");
        }
    }
}
