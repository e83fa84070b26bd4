//! `keyplan query FILE PATTERN`: runs one read pattern over the design's sample items and
//! prints what DynamoDB would return.
//!
//! The pattern is served the way coverage decided (GetItem, Query, or a scatter-gather of one
//! Query per write shard). Input values default to ones taken from the sample (a partition
//! that has results); `--input name=value` overrides them. The output names the key condition
//! of every query, then the items as DynamoDB JSON one per line, the LastEvaluatedKey of any
//! query that stopped at its Limit, and the read units consumed. `--json` prints the whole
//! run as one JSON document instead.

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
    let run = execute(&design, &store, &verdict, &args.inputs)?;
    if args.json {
        print(&format!("{}\n", serde_json::to_string_pretty(&run)?))?;
    } else {
        print(&describe(&verdict, &run))?;
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

/// Runs the pattern with the inputs picked from the sample, overridden by `given`.
pub fn execute(
    design: &Design,
    store: &ItemStore,
    verdict: &Verdict,
    given: &[(String, String)],
) -> anyhow::Result<PatternRun> {
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
        Operation::SearchVectors => anyhow::bail!(
            "`{}` is a vector search (SearchVectors on {}): `keyplan query` does not evaluate similarity on the sample yet",
            verdict.pattern,
            verdict.index.as_deref().unwrap_or("a vector index")
        ),
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
    Ok(eval::run_pattern(design, store, verdict, Some(inputs))?)
}

/// The run as text for a terminal.
pub fn describe(verdict: &Verdict, run: &PatternRun) -> String {
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
    for condition in &run.conditions {
        let _ = writeln!(out, "key condition: {condition}");
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
    let _ = writeln!(
        out,
        "{} item(s), {} bytes read, {} read units",
        run.result.items.len(),
        run.result.bytes_read,
        run.result.read_units
    );
    for item in &run.result.items {
        let _ = writeln!(out, "{}", serde_json::to_string(item).unwrap_or_default());
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
        assert!(!run.result.items.is_empty());
        let given = [("orderId".to_string(), "nope".to_string())];
        let none = execute(&design, &store, &verdict, &given).expect("the pattern runs");
        assert!(none.result.items.is_empty());
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
}
