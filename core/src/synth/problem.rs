//! The synthesis problem as the solver sees it: a weighted covering problem that knows nothing
//! of DynamoDB. `candidates` builds it from a design (every primary key an entity could have,
//! every secondary-index membership that could serve a read, each with its monthly cost by
//! keyplan's cost model); `solve` picks the cheapest consistent choice; `render` turns the
//! choice back into a design.
//!
//! The objective is the sum of the chosen options' and paths' costs and of every read's cost:
//! the serving chosen for it, or its Scan when none is. A serving is available only when every
//! option and path it needs is chosen. Each table holds at most `max_gsis` GSIs and 5 LSIs,
//! counted as [`IndexCount`] says.

use serde::Serialize;

/// The whole problem: exactly one option per group, any subset of paths, and for every read
/// one serving whose needs are all chosen, or its Scan.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Problem {
    /// One group per entity: the primary keys it can have.
    pub groups: Vec<Group>,
    /// Secondary-index memberships: an entity in an index with a given key.
    pub paths: Vec<Path>,
    /// The reads to serve.
    pub reads: Vec<Read>,
    /// How chosen paths become indexes of a table.
    pub count: IndexCount,
    /// The most GSIs a table may have (DynamoDB's default quota is 20). LSIs: at most 5.
    pub max_gsis: u32,
}

/// How many indexes a table needs for the paths chosen in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum IndexCount {
    /// Overloaded indexes (single-table style: `GSI1PK`/`GSI1SK` hold a different template per
    /// entity): a table needs as many GSIs as the entity with most chosen GSI paths has; LSIs
    /// likewise.
    Overloaded,
    /// One index per distinct [`Path::index`] among the chosen paths of a table (natural style:
    /// an index is its key attributes; entities with the same key share it).
    Distinct,
}

/// An entity's possible primary keys: exactly one is chosen.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Group {
    /// The entity's name (the rendering and the explanations look it up).
    pub entity: String,
    /// The table the entity lives in, an index into the problem's tables by order of first use.
    pub table: usize,
    pub options: Vec<Choice>,
}

/// One primary key an entity could have, and what having it costs a month (its writes and
/// storage; a sharded key's extra reads are in the servings that read it).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Choice {
    /// Monthly cost in USD.
    pub cost: f64,
}

/// An option of a group, by position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct OptionRef {
    pub group: usize,
    pub option: usize,
}

/// An entity's membership of a secondary index with a given key: chosen or not.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Path {
    /// The entity's group.
    pub group: usize,
    pub kind: PathKind,
    /// The index identity for [`IndexCount::Distinct`]: paths with the same value in the same
    /// table share one index.
    pub index: u32,
    /// Monthly cost in USD of the entity's items in the index (the write amplification of its
    /// writes, its storage).
    pub cost: f64,
    /// An LSI shares the table's partition key, so it needs the group's primary key to be this
    /// option.
    pub requires: Option<OptionRef>,
}

/// The kind of index a path is a membership of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PathKind {
    Gsi,
    Lsi,
}

/// A read and the ways it could be served.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Read {
    /// The pattern's name.
    pub pattern: String,
    pub servings: Vec<Serving>,
    /// Monthly cost in USD of serving the read by a Scan.
    pub scan: f64,
}

/// One way to serve a read (a GetItem or a Query), available when everything it needs is chosen.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Serving {
    pub needs: Vec<Need>,
    /// Monthly cost in USD of the read served this way.
    pub cost: f64,
}

/// Something a serving needs chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Need {
    /// A group's primary key (the read runs on the table).
    Option(OptionRef),
    /// A path, by position (the read runs on that index).
    Path(usize),
}

/// A choice for every decision of a [`Problem`], and its cost.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Solution {
    /// The option chosen in each group, by group.
    pub options: Vec<usize>,
    /// The paths chosen, ascending.
    pub paths: Vec<usize>,
    /// Per read, the serving chosen, or `None` for its Scan.
    pub servings: Vec<Option<usize>>,
    /// The objective: monthly cost in USD.
    pub cost: f64,
    /// Secondary indexes the busiest table needs (GSIs and LSIs), as [`IndexCount`] counts.
    pub indexes: u32,
}

/// What the solver found: the Pareto front of (cost, indexes) and how close to optimal it is.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Solved {
    /// Cheapest first; each one has fewer indexes than every cheaper one. Never empty: the
    /// all-Scan choice (first option of every group, no path) is always feasible.
    pub front: Vec<Solution>,
    /// A proven lower bound on the cost of any feasible solution within `max_gsis`.
    pub lower_bound: f64,
    /// Whether the cheapest solution is proven optimal (the bound met).
    pub optimal: bool,
    /// Search nodes explored: deterministic for a given problem and budget.
    pub explored: u64,
}

impl Solved {
    /// The gap between the cheapest solution and the lower bound, in percent of the solution
    /// (0 when proven optimal).
    pub fn gap_percent(&self) -> f64 {
        let best = self.front.first().map_or(0.0, |s| s.cost);
        if self.optimal || best <= 0.0 {
            0.0
        } else {
            ((best - self.lower_bound) / best * 100.0).max(0.0)
        }
    }
}
