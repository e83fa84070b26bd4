//! A synthesis proven on an engine (issue 37): each proposal `keyplan_core::synth::propose`
//! made is run as `keyplan run` runs a design (its tables created, the sample loaded, every
//! pattern run and compared with core's evaluation, the tables deleted), by the one runner,
//! and only those that pass are presented. `keyplan design`, its benchmark and the MCP tool
//! share this, and [`Answer`], the JSON they print.
//!
//! The answer holds no time and no run id, only what the design decides, so the same input
//! gives the same bytes on any machine.

use keyplan_core::api::runs::{RunEvent, Status, Summary};
use keyplan_core::sample::SampleConfig;
use keyplan_core::synth::{Proposal, Synthesis};
use serde::Serialize;
use tokio_util::sync::CancellationToken;

use crate::engine::Engine;
use crate::runner::{self, RunId};

/// `keyplan design --json`: the synthesis with only its proven proposals, each with its
/// engine run, and the proposals the engine refused, with why. Field order is the wire's.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Answer {
    pub style: keyplan_core::synth::Style,
    /// The proposals that passed on the engine, cheapest first.
    pub proposals: Vec<Proven>,
    /// Proposals the engine run refused: not presented, only said.
    pub rejected: Vec<Rejected>,
    /// As [`Synthesis`] says: a lower bound on any design's monthly cost, the gap in percent
    /// of the cheapest proposal found (proven or not), whether it is optimal, whether the
    /// search stopped early and how many nodes it explored.
    pub lower_bound: f64,
    pub gap_percent: f64,
    pub optimal: bool,
    pub stopped: bool,
    pub explored: u64,
}

/// A proposal and its engine run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Proven {
    /// The proposal's rank in the synthesis, from 1 (the cheapest).
    pub rank: usize,
    #[serde(flatten)]
    pub proposal: Proposal,
    pub engine: Proof,
}

/// A proposal the engine run refused: its figures and why.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Rejected {
    pub rank: usize,
    pub monthly_cost: f64,
    pub indexes: usize,
    pub engine: Proof,
}

/// What the engine run of a proposal showed: its counts and the patterns that failed. No
/// times, so the output is deterministic.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Proof {
    /// The engine's name (`embedded`).
    pub engine: String,
    pub ok: bool,
    pub passed: usize,
    pub mismatched: usize,
    pub errors: usize,
    /// Reads the design leaves to a Scan, which a run skips.
    pub skipped: usize,
    pub items: usize,
    /// Why the run stopped before its patterns (the design does not validate, an engine
    /// error), when it did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped: Option<String>,
    /// Every pattern that did not pass and was not skipped, and why.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub failures: Vec<Failure>,
}

/// A pattern the engine did not answer as core predicted.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Failure {
    pub pattern: String,
    /// `mismatch` or `error`.
    pub status: &'static str,
    pub why: String,
}

impl Proof {
    /// The first reason the run failed, in one line: what stopped it, else its first failing
    /// pattern.
    pub fn first_reason(&self) -> String {
        match (&self.stopped, self.failures.first()) {
            (Some(why), _) => why.clone(),
            (None, Some(f)) => format!("pattern `{}`: {}: {}", f.pattern, f.status, f.why),
            (None, None) => "the run failed".to_string(),
        }
    }
}

/// How to run a proposal: the sample (seed and counts) within its budget, on which engine.
#[derive(Debug, Clone)]
pub struct Prover<'a> {
    pub engine: &'a Engine,
    pub sample: &'a SampleConfig,
    /// The most sample items a run may make.
    pub budget: crate::design_io::Budget,
}

impl Prover<'_> {
    /// Runs every proposal of `synthesis`, one after the other; the answer keeps those that
    /// passed. A cancel stops the run in progress (its tables are deleted) and refuses it and
    /// those after it.
    pub async fn prove(&self, synthesis: Synthesis, cancel: &CancellationToken) -> Answer {
        let mut proposals = Vec::new();
        let mut rejected = Vec::new();
        for (i, proposal) in synthesis.proposals.into_iter().enumerate() {
            let proof = self.run(&proposal.design, cancel).await;
            if proof.ok {
                proposals.push(Proven {
                    rank: i + 1,
                    proposal,
                    engine: proof,
                });
            } else {
                rejected.push(Rejected {
                    rank: i + 1,
                    monthly_cost: proposal.monthly_cost,
                    indexes: proposal.indexes,
                    engine: proof,
                });
            }
        }
        Answer {
            style: synthesis.style,
            proposals,
            rejected,
            lower_bound: synthesis.lower_bound,
            gap_percent: synthesis.gap_percent,
            optimal: synthesis.optimal,
            stopped: synthesis.stopped,
            explored: synthesis.explored,
        }
    }

    /// Runs one design as `keyplan run` does and says how it went.
    pub async fn run(
        &self,
        design: &keyplan_core::model::Design,
        cancel: &CancellationToken,
    ) -> Proof {
        let mut proof = Proof {
            engine: self.engine.name.clone(),
            ..Proof::default()
        };
        let plan = match crate::design_io::run_plan(design, self.sample, self.budget) {
            Ok(plan) => plan,
            Err(why) => {
                proof.stopped = Some(format!("{why:#}"));
                return proof;
            }
        };
        let events = std::sync::Mutex::new(Vec::new());
        let emit = |event: RunEvent| {
            if let Ok(mut events) = events.lock() {
                events.push(event);
            }
        };
        let summary = runner::run(self.engine, &plan, &RunId::random(), cancel, &emit).await;
        for event in events.into_inner().unwrap_or_default() {
            match event {
                RunEvent::Pattern(result)
                    if matches!(result.status, Status::Mismatch | Status::Error) =>
                {
                    proof.failures.push(Failure {
                        pattern: result.pattern,
                        status: result.status.label(),
                        why: result
                            .message
                            .or(result.diff)
                            .unwrap_or_else(|| "no reason given".to_string()),
                    })
                }
                RunEvent::Failed { message, .. } => proof.stopped = Some(message),
                _ => {}
            }
        }
        counts(&mut proof, &summary);
        proof
    }
}

fn counts(proof: &mut Proof, summary: &Summary) {
    proof.ok = summary.ok;
    proof.passed = summary.passed;
    proof.mismatched = summary.mismatched;
    proof.errors = summary.errors;
    proof.skipped = summary.skipped;
    proof.items = summary.items_written;
}
