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
use problem::{Problem, Solved};

pub mod adopt;
pub mod candidates;
pub mod explain;
mod prefer;
pub mod problem;
pub mod render;
pub mod solve;
pub mod strip;

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

/// The most alternatives a caller of the command line or MCP may ask for (the app shows fewer,
/// side by side).
pub const MAX_ALTERNATIVES: usize = 20;
/// The largest search budget, in nodes, the command line and MCP accept.
pub const MAX_BUDGET: u64 = 1_000_000_000;

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

impl Subject {
    /// What a reason is about, in the words the CLI and the app print: `table orders's key`,
    /// `orders.GSI1`, `Order's GSI1PK shards`.
    pub fn words(&self) -> String {
        match self {
            Subject::TableKey { table } => format!("table {table}'s key"),
            Subject::Index { table, index } => format!("{table}.{index}"),
            Subject::Shards { entity, key } => format!("{entity}'s {key} shards"),
        }
    }
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
pub fn propose(
    design: &Design,
    options: &Options,
    progress: &mut dyn FnMut(&Progress) -> Control,
) -> Result<Synthesis, SynthError> {
    propose_with(design, options, progress, &solve::solve)
}

/// A solver of the covering problem: [`solve::solve`], or a stand-in in tests.
pub(crate) type Solver<'s> = &'s dyn Fn(
    &Problem,
    &Options,
    &mut dyn FnMut(&Progress) -> Control,
) -> Result<Solved, problem::ProblemError>;

/// The solver's answer, its error (a malformed problem: a candidates bug) said as one.
fn solved(
    solver: Solver<'_>,
    problem: &Problem,
    options: &Options,
    progress: &mut dyn FnMut(&Progress) -> Control,
) -> Result<Solved, SynthError> {
    solver(problem, options, progress).map_err(|e| SynthError {
        message: format!("the candidates made a problem the solver refuses: {e}"),
    })
}

/// How many times a proposal whose verdicts disagree with the problem is re-solved without the
/// servings that disagreed.
const MAX_ROUNDS: usize = 4;

/// [`propose`] with the given solver: candidates, solve, render each design of the front,
/// check it by core's verdicts and findings, figures.
pub(crate) fn propose_with(
    design: &Design,
    options: &Options,
    progress: &mut dyn FnMut(&Progress) -> Control,
    solver: Solver<'_>,
) -> Result<Synthesis, SynthError> {
    if options.alternatives == 0 {
        return Err(SynthError {
            message: "alternatives must be at least 1".to_string(),
        });
    }
    let mut asked_stop = false;
    let mut watch = |p: &Progress| {
        let control = progress(p);
        asked_stop |= control == Control::Stop;
        control
    };
    // Errors the input has and no key could cause (a pattern naming an unknown entity) are the
    // user's to fix; a proposal is refused for the errors it brings.
    let input_errors = errors(&crate::analysis::analyze(design));
    let (mut candidates, mut explored) = sized_candidates(design, options, solver, &mut watch)?;
    let mut round = 0;
    loop {
        round += 1;
        let mut solved = solved(solver, &candidates.problem, options, &mut watch)?;
        explored += solved.explored;
        solved.explored = explored;
        if let Some(first) = solved.front.first() {
            let preferred =
                prefer::co_located(design, &candidates, first, options, solver, &mut watch)?;
            // Equal cost: the dearer designs kept are those with fewer indexes than it.
            solved.front.retain(|s| s.indexes < preferred.indexes);
            solved.front.insert(0, preferred);
        }
        let mut proposals = Vec::new();
        let mut wrong: Vec<(usize, usize)> = Vec::new();
        let mut refused: Vec<String> = Vec::new();
        // Alternatives that serve every read the cheapest serves: one that leaves a servable
        // read to a Scan is not a design for the patterns (its penalty, not its cost, put it
        // on the front).
        let least_penalty = solved
            .front
            .first()
            .map_or(0.0, |s| candidates.penalties(s));
        let serving_all: Vec<&problem::Solution> = solved
            .front
            .iter()
            .filter(|s| candidates.penalties(s) <= least_penalty * (1.0 + 1e-9))
            .take(options.alternatives)
            .collect();
        for solution in serving_all {
            let rendered = render::render(design, &candidates, solution, options.style);
            let analysis = crate::analysis::analyze(&rendered.design);
            let mut agrees = true;
            for (r, read) in candidates.problem.reads.iter().enumerate() {
                let Some(serving) = solution.servings.get(r).copied().flatten() else {
                    continue;
                };
                let covered = analysis
                    .verdicts
                    .iter()
                    .find(|v| v.pattern == read.pattern)
                    .is_some_and(|v| v.covered);
                if !covered {
                    agrees = false;
                    wrong.push((r, serving));
                }
            }
            let errors: Vec<String> = errors(&analysis)
                .into_iter()
                .filter(|e| !input_errors.contains(e))
                .collect();
            if !errors.is_empty() {
                refused.extend(errors);
                continue;
            }
            if agrees {
                let (reasons, unserved) = explain::explain(&candidates, solution, &rendered);
                proposals.push((solution.cost, figures(rendered.design, reasons, unserved)));
            }
        }
        if !wrong.is_empty() && round < MAX_ROUNDS {
            candidates.drop_servings(&wrong);
            continue;
        }
        if proposals.is_empty() {
            refused.sort();
            refused.dedup();
            return Err(SynthError {
                message: format!(
                    "no proposal passed keyplan's own checks: {}",
                    if refused.is_empty() {
                        "their verdicts disagreed with the candidates".to_string()
                    } else {
                        refused.join("; ")
                    }
                ),
            });
        }
        let best = solved.front.first();
        let penalties = best.map_or(0.0, |s| candidates.penalties(s));
        let lower_bound = (solved.lower_bound - penalties).max(0.0);
        let best_cost = best.map_or(0.0, |s| s.cost - penalties);
        let gap_percent = if solved.optimal || best_cost <= 0.0 {
            0.0
        } else {
            ((best_cost - lower_bound) / best_cost * 100.0).max(0.0)
        };
        return Ok(Synthesis {
            style: options.style,
            proposals: pareto(proposals.into_iter().map(|(_, p)| p).collect()),
            lower_bound,
            gap_percent,
            optimal: solved.optimal,
            stopped: asked_stop || (!solved.optimal && solved.explored >= options.budget),
            explored: solved.explored,
        });
    }
}

/// The candidates of `design` in a canonical order (tables, entities and patterns by name, so
/// the input's order is no choice), priced with items of the sizes a first proposal gives
/// them: a probe's items carry only the keys it tries, a proposal's all of its keys. Returns
/// them with the search nodes the first proposal took.
pub(crate) fn sized_candidates(
    design: &Design,
    options: &Options,
    solver: Solver<'_>,
    progress: &mut dyn FnMut(&Progress) -> Control,
) -> Result<(candidates::Candidates, u64), SynthError> {
    let canonical = canonical(design);
    let first = candidates::candidates(&canonical, options, &Default::default())?;
    let solved = solved(solver, &first.problem, options, progress)?;
    let Some(best) = solved.front.first() else {
        return Ok((first, solved.explored));
    };
    let rendered = render::render(&canonical, &first, best, options.style);
    let report = crate::cost::estimate_sampled(
        &rendered.design,
        &crate::sample::SampleConfig::default(),
        &crate::cost::CostConfig::default(),
    );
    let measured = candidates::Measured {
        bytes: report
            .entities
            .iter()
            .map(|e| (e.entity.clone(), e.average_bytes as u64))
            .collect(),
        samples: report
            .entities
            .iter()
            .map(|e| {
                (
                    e.entity.clone(),
                    u32::try_from(e.samples).unwrap_or(u32::MAX),
                )
            })
            .collect(),
    };
    Ok((
        candidates::candidates(&canonical, options, &measured)?,
        solved.explored,
    ))
}

/// `design` with its tables, entities and patterns sorted by name (stably: a repeated name
/// keeps its order).
fn canonical(design: &Design) -> Design {
    let mut out = design.clone();
    out.tables.sort_by(|a, b| a.name.cmp(&b.name));
    out.entities.sort_by(|a, b| a.name.cmp(&b.name));
    out.patterns.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

/// The error-level findings of an analysis, each as one line.
fn errors(analysis: &crate::answer::Analysis) -> Vec<String> {
    analysis
        .findings
        .iter()
        .filter(|f| f.severity == crate::answer::Severity::Error)
        .map(|f| format!("{} at {}: {}", f.code, f.place, f.message))
        .collect()
}

/// The proposals, cheapest first, each kept only when it has fewer indexes than every kept one
/// and is dearer by the full estimate (the problem ranks them within a few percent of it).
fn pareto(proposals: Vec<Proposal>) -> Vec<Proposal> {
    let mut kept: Vec<Proposal> = Vec::with_capacity(proposals.len());
    for proposal in proposals {
        let keep = kept.last().is_none_or(|last| {
            proposal.indexes < last.indexes && proposal.monthly_cost > last.monthly_cost
        });
        if keep {
            kept.push(proposal);
        }
    }
    kept
}

/// The monthly cost of `design` by keyplan's cost model: `keyplan cost`'s on-demand Standard
/// total.
fn monthly_cost(design: &Design) -> f64 {
    crate::cost::estimate_sampled(
        design,
        &crate::sample::SampleConfig::default(),
        &crate::cost::CostConfig::default(),
    )
    .monthly_total
}

/// A proposal's figures, by the same verdicts and cost model `keyplan check` and `keyplan cost`
/// use; the benchmark reads a hand design's by it too, so both sides are priced alike.
pub fn figures(design: Design, reasons: Vec<Reason>, unserved: Vec<Unserved>) -> Proposal {
    let verdicts = crate::coverage::verdicts(&design);
    let reads: Vec<_> = verdicts
        .iter()
        .filter(|v| design.pattern(&v.pattern).is_some_and(|p| p.is_read()))
        .collect();
    let monthly_cost = monthly_cost(&design);
    let indexes = design
        .tables
        .iter()
        .map(|t| t.gsis.len() + t.lsis.len())
        .sum();
    Proposal {
        monthly_cost,
        indexes,
        reads_served: reads.iter().filter(|v| v.covered).count(),
        reads: reads.len(),
        design,
        reasons,
        unserved,
    }
}

#[cfg(test)]
mod tests;
