//! Design synthesis: from the access patterns, the keys and indexes that serve them, the
//! cheapest by keyplan's cost model, proven by keyplan's own verdicts (issue 37).
//!
//! The seed articles' process, done by the tool: list the patterns, co-locate what is read
//! together, choose the primary key that serves most of them, add GSIs only for what it cannot
//! serve, check every pattern is a GetItem or a Query. Here it is an optimisation: `candidates`
//! lists every primary key and index membership that could serve a read, with its monthly cost
//! ([`problem::Problem`]); `solve` picks the cheapest consistent set under the index limits and
//! proves how close to optimal it is; `render` writes the choice as a design in the asked
//! [`Style`], keeping whatever the input fixed; `explain` says why, in figures, for every key,
//! index and shard count. The verdicts and findings of each proposal are checked here before it
//! is returned; running it on an engine is the server's part (`keyplan design`).
//!
//! Deterministic: no clock, no randomness; the search is bounded by [`Options::budget`] in
//! nodes, never in time, so the same input gives the same answer on any machine.

use serde::{Deserialize, Serialize};

use crate::model::Design;

pub mod adopt;
pub mod problem;

/// The naming style of a proposal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Style {
    /// Generic key names (`PK`/`SK`, `GSI1PK`/`GSI1SK`), prefixed templates
    /// (`CUSTOMER#{customerId}`), overloaded GSIs, what is read together co-located.
    #[default]
    SingleTable,
    /// AWS's 2026 guidance: natural attribute names, multi-attribute GSI keys instead of
    /// concatenations, an index per access path where that is not dearer.
    Natural,
}

impl Style {
    pub fn as_str(self) -> &'static str {
        match self {
            Style::SingleTable => "single-table",
            Style::Natural => "natural",
        }
    }
}

impl std::str::FromStr for Style {
    type Err = String;
    fn from_str(text: &str) -> Result<Style, String> {
        match text {
            "single-table" => Ok(Style::SingleTable),
            "natural" => Ok(Style::Natural),
            other => Err(format!(
                "`{other}` is not a style: one of single-table, natural"
            )),
        }
    }
}

/// What the synthesis is asked for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Options {
    pub style: Style,
    /// The most GSIs a table may have (DynamoDB's default quota: 20).
    pub max_gsis: u32,
    /// How many designs of the Pareto front of (monthly cost, indexes) to return, at least 1.
    pub alternatives: usize,
    /// Search nodes the solver may explore before it stops with the best found and its gap.
    pub budget: u64,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            style: Style::SingleTable,
            max_gsis: crate::limits::MAX_GSIS as u32,
            alternatives: 1,
            budget: 200_000,
        }
    }
}

/// How far the search is, reported as it goes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Progress {
    /// Search nodes explored so far, of at most [`Options::budget`].
    pub explored: u64,
    pub budget: u64,
    /// The cheapest monthly cost found so far.
    pub best: Option<f64>,
    /// The proven lower bound so far.
    pub bound: f64,
}

/// What the caller of [`propose`] answers a [`Progress`] with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Control {
    Continue,
    /// Stop now and return the best found, with its gap.
    Stop,
}

/// The answer: the proposals, cheapest first, and how close the cheapest is to optimal.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Synthesis {
    pub style: Style,
    /// Cheapest first; each has fewer indexes than every cheaper one.
    pub proposals: Vec<Proposal>,
    /// A proven lower bound on the monthly cost of any design that serves the patterns within
    /// the index limits, by the same cost model.
    pub lower_bound: f64,
    /// (cheapest - bound) / cheapest in percent; 0 when proven optimal.
    pub gap_percent: f64,
    pub optimal: bool,
    /// The search stopped early: by the budget or when asked to.
    pub stopped: bool,
    pub explored: u64,
}

/// One proposed design and its figures.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Proposal {
    /// The complete design: the input's entities, attributes and patterns, with keys and indexes.
    pub design: Design,
    /// Monthly cost in USD by keyplan's cost model (`keyplan cost`'s on-demand Standard figure).
    pub monthly_cost: f64,
    /// Secondary indexes, GSIs and LSIs, over all tables.
    pub indexes: usize,
    /// Reads served by GetItem or Query, of all reads.
    pub reads_served: usize,
    pub reads: usize,
    /// One line of why for every table key, index and shard count, in figures.
    pub reasons: Vec<Reason>,
    /// The reads no design can serve, and why (a read with no inputs and no constant to key on).
    pub unserved: Vec<Unserved>,
}

/// Why the proposal has one of its parts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Reason {
    pub subject: Subject,
    pub text: String,
}

/// The part of a proposal a [`Reason`] explains.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Subject {
    TableKey { table: String },
    Index { table: String, index: String },
    Shards { entity: String, key: String },
}

/// A read left to a Scan, and why no design could serve it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Unserved {
    pub pattern: String,
    pub reason: String,
}

/// Why no proposal could be made.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SynthError {
    pub message: String,
}

impl std::fmt::Display for SynthError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for SynthError {}

/// Proposes designs for `design`'s patterns. `progress` is called as the search goes and may
/// stop it; the best found so far is returned with its gap.
///
/// Until `candidates`, `solve` and `render` land this returns the input as its one proposal,
/// with its figures, so the CLI and the app can be built against the real signature.
pub fn propose(
    design: &Design,
    options: &Options,
    progress: &mut dyn FnMut(&Progress) -> Control,
) -> Result<Synthesis, SynthError> {
    let _ = progress(&Progress {
        explored: 0,
        budget: options.budget,
        best: None,
        bound: 0.0,
    });
    let proposal = figures(design.clone(), Vec::new(), Vec::new());
    Ok(Synthesis {
        style: options.style,
        lower_bound: proposal.monthly_cost,
        proposals: vec![proposal],
        gap_percent: 0.0,
        optimal: false,
        stopped: false,
        explored: 0,
    })
}

/// A proposal's figures, by the same verdicts and cost model `keyplan check` and `keyplan cost`
/// use.
fn figures(design: Design, reasons: Vec<Reason>, unserved: Vec<Unserved>) -> Proposal {
    let verdicts = crate::coverage::verdicts(&design);
    let reads: Vec<_> = verdicts
        .iter()
        .filter(|v| design.pattern(&v.pattern).is_some_and(|p| p.is_read()))
        .collect();
    let report = crate::cost::estimate_sampled(
        &design,
        &crate::sample::SampleConfig::default(),
        &crate::cost::CostConfig::default(),
    );
    let indexes = design
        .tables
        .iter()
        .map(|t| t.gsis.len() + t.lsis.len())
        .sum();
    Proposal {
        monthly_cost: report.monthly_total,
        indexes,
        reads_served: reads.iter().filter(|v| v.covered).count(),
        reads: reads.len(),
        design,
        reasons,
        unserved,
    }
}
