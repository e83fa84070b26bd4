//! Synthesis against hand designs (issue 37): the built-in examples and the shared corpus's
//! awslabs/mcp designs, with every key and index removed, get a proposal that serves every
//! read the hand design serves, passes keyplan's own verdicts and findings, and costs no more
//! than the hand design unless it serves more reads (the table is printed; `--nocapture`
//! shows it). The corpus sits in
//! `../shared/corpus` beside the checkout; without it only the examples run.

mod hand_designs;

use keyplan_core::synth::strip::strip;
use keyplan_core::synth::{Control, Options, Style, propose};
use keyplan_core::{Design, analyze};

/// The built-in examples and the corpus's awslabs/mcp designs (imported), by file name.
fn designs() -> Vec<(String, Design)> {
    hand_designs::designs(
        |text| keyplan_core::file::parse(text).expect("an example parses"),
        |text| Some(keyplan_core::import::detect_and_import(text).ok()?.design),
    )
}

/// The reads a design serves in the order they ask for: a Query that sorts a whole partition in
/// memory (issue 43) is covered but cannot page in that order, and the synthesis never counts it.
fn served(design: &Design) -> Vec<String> {
    analyze(design)
        .verdicts
        .into_iter()
        .filter(|v| {
            design.pattern(&v.pattern).is_some_and(|p| p.is_read())
                && v.covered
                && v.sorted_in_memory.is_none()
        })
        .map(|v| v.pattern)
        .collect()
}

fn monthly(design: &Design) -> f64 {
    keyplan_core::cost::estimate_sampled(
        design,
        &keyplan_core::sample::SampleConfig::default(),
        &keyplan_core::cost::CostConfig::default(),
    )
    .monthly_total
}

#[test]
fn every_read_a_hand_design_serves_is_served_from_its_patterns_alone() {
    let mut table = String::from(
        "design | style | reads served (hand) | proposal $/month | hand $/month | indexes (hand)\n",
    );
    let mut failures = Vec::new();
    for (name, hand) in designs() {
        let hand_served = served(&hand);
        for style in [Style::SingleTable, Style::Natural] {
            let options = Options {
                style,
                ..Options::default()
            };
            let synthesis = match propose(&strip(&hand), &options, &mut |_| Control::Continue) {
                Ok(s) => s,
                Err(e) => {
                    failures.push(format!("{name} ({}): {e}", style.as_str()));
                    continue;
                }
            };
            let proposal = &synthesis.proposals[0];
            let ours = served(&proposal.design);
            let missed: Vec<&String> = hand_served.iter().filter(|p| !ours.contains(p)).collect();
            if !missed.is_empty() {
                failures.push(format!(
                    "{name} ({}): the hand design serves {missed:?}, the proposal does not",
                    style.as_str()
                ));
            }
            // As cheap as the hand design, unless it serves reads the hand design scans.
            let hand_cost = monthly(&hand);
            if proposal.monthly_cost > hand_cost * 1.000_001 && ours.len() <= hand_served.len() {
                failures.push(format!(
                    "{name} ({}): ${:.2} a month, dearer than the hand design's ${hand_cost:.2} with no more reads served",
                    style.as_str(),
                    proposal.monthly_cost
                ));
            }
            let hand_indexes: usize = hand
                .tables
                .iter()
                .map(|t| t.gsis.len() + t.lsis.len())
                .sum();
            table.push_str(&format!(
                "{name} | {} | {}/{} ({}) | {:.2} | {:.2} | {} ({hand_indexes})\n",
                style.as_str(),
                proposal.reads_served,
                proposal.reads,
                hand_served.len(),
                proposal.monthly_cost,
                hand_cost,
                proposal.indexes,
            ));
        }
    }
    println!("{table}");
    assert!(failures.is_empty(), "{failures:#?}");
}
