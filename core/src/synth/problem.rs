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

/// What is wrong with a problem, or with a choice made for it, and where.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ProblemError {
    pub message: String,
}

impl std::fmt::Display for ProblemError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ProblemError {}

fn wrong(message: String) -> Result<(), ProblemError> {
    Err(ProblemError { message })
}

/// The most LSIs a table may have.
pub const MAX_LSIS: u32 = crate::limits::MAX_LSIS as u32;

/// A monthly cost the solver can add up: finite and not negative.
fn valid_cost(cost: f64) -> bool {
    cost.is_finite() && cost >= 0.0
}

impl Problem {
    /// Checks the problem is well formed: every group has an option, every reference is in
    /// range, every cost is finite and not negative, an LSI path requires an option of its own
    /// group and a GSI path none.
    pub fn validate(&self) -> Result<(), ProblemError> {
        for (g, group) in self.groups.iter().enumerate() {
            if group.options.is_empty() {
                return wrong(format!("group {g} (`{}`) has no option", group.entity));
            }
            for (o, option) in group.options.iter().enumerate() {
                if !valid_cost(option.cost) {
                    return wrong(format!(
                        "group {g} (`{}`) option {o} costs {}: a cost is finite and not negative",
                        group.entity, option.cost
                    ));
                }
            }
        }
        let option_in_range = |o: &OptionRef| {
            self.groups
                .get(o.group)
                .is_some_and(|g| o.option < g.options.len())
        };
        for (p, path) in self.paths.iter().enumerate() {
            if path.group >= self.groups.len() {
                return wrong(format!(
                    "path {p} is of group {}, but there are {} groups",
                    path.group,
                    self.groups.len()
                ));
            }
            if !valid_cost(path.cost) {
                return wrong(format!(
                    "path {p} costs {}: a cost is finite and not negative",
                    path.cost
                ));
            }
            match (path.kind, path.requires) {
                (PathKind::Gsi, Some(_)) => {
                    return wrong(format!("path {p} is a GSI path but requires an option"));
                }
                (PathKind::Lsi, None) => {
                    return wrong(format!(
                        "path {p} is an LSI path but requires no primary key"
                    ));
                }
                (PathKind::Lsi, Some(o)) if o.group != path.group || !option_in_range(&o) => {
                    return wrong(format!(
                        "path {p} of group {} requires option {} of group {}, which is not one \
                         of its group's options",
                        path.group, o.option, o.group
                    ));
                }
                _ => {}
            }
        }
        for read in &self.reads {
            if !valid_cost(read.scan) {
                return wrong(format!(
                    "read `{}` scans for {}: a cost is finite and not negative",
                    read.pattern, read.scan
                ));
            }
            for (s, serving) in read.servings.iter().enumerate() {
                if !valid_cost(serving.cost) {
                    return wrong(format!(
                        "read `{}` serving {s} costs {}: a cost is finite and not negative",
                        read.pattern, serving.cost
                    ));
                }
                for need in &serving.needs {
                    let in_range = match need {
                        Need::Option(o) => option_in_range(o),
                        Need::Path(p) => *p < self.paths.len(),
                    };
                    if !in_range {
                        return wrong(format!(
                            "read `{}` serving {s} needs {need:?}, which the problem does not have",
                            read.pattern
                        ));
                    }
                }
            }
        }
        Ok(())
    }

    /// How many tables the groups use.
    pub fn tables(&self) -> usize {
        self.groups.iter().map(|g| g.table + 1).max().unwrap_or(0)
    }

    /// Per table, the GSIs and LSIs the chosen `paths` need, as [`Problem::count`] counts them.
    /// `paths` are in range.
    pub fn index_counts(&self, paths: &[usize]) -> Vec<[u32; 2]> {
        let kind_slot = |kind: PathKind| match kind {
            PathKind::Gsi => 0,
            PathKind::Lsi => 1,
        };
        let mut counts = vec![[0u32; 2]; self.tables()];
        match self.count {
            IndexCount::Overloaded => {
                let mut per_group = vec![[0u32; 2]; self.groups.len()];
                for &p in paths {
                    let path = &self.paths[p];
                    per_group[path.group][kind_slot(path.kind)] += 1;
                }
                for (group, count) in self.groups.iter().zip(&per_group) {
                    let table = &mut counts[group.table];
                    table[0] = table[0].max(count[0]);
                    table[1] = table[1].max(count[1]);
                }
            }
            IndexCount::Distinct => {
                let mut seen = std::collections::BTreeSet::new();
                for &p in paths {
                    let path = &self.paths[p];
                    let table = self.groups[path.group].table;
                    if seen.insert((table, kind_slot(path.kind), path.index)) {
                        counts[table][kind_slot(path.kind)] += 1;
                    }
                }
            }
        }
        counts
    }

    /// The solution a choice of one option per group and a set of paths makes: every read
    /// served by its cheapest available serving cheaper than its Scan (the first of equals), or
    /// scanned; or what rule the choice breaks (an option or path out of range, an LSI path
    /// without its primary key, a table over its GSI or LSI limit).
    pub fn evaluate(&self, options: &[usize], paths: &[usize]) -> Result<Solution, ProblemError> {
        self.check_choice(options, paths)?;
        let mut chosen = vec![false; self.paths.len()];
        for &p in paths {
            chosen[p] = true;
        }
        let available = |need: &Need| match need {
            Need::Option(o) => options[o.group] == o.option,
            Need::Path(p) => chosen[*p],
        };
        let servings = self
            .reads
            .iter()
            .map(|read| {
                let mut best: Option<(usize, f64)> = None;
                for (s, serving) in read.servings.iter().enumerate() {
                    let cheaper = serving.cost < best.map_or(read.scan, |(_, c)| c);
                    if cheaper && serving.needs.iter().all(available) {
                        best = Some((s, serving.cost));
                    }
                }
                best.map(|(s, _)| s)
            })
            .collect();
        Ok(self.priced(options.to_vec(), paths.to_vec(), servings))
    }

    /// Checks a solution: its choice keeps every rule, every serving it picks is available, and
    /// its cost and index count are what they add up to.
    pub fn check(&self, solution: &Solution) -> Result<(), ProblemError> {
        self.check_choice(&solution.options, &solution.paths)?;
        if solution.servings.len() != self.reads.len() {
            return wrong(format!(
                "the solution serves {} reads, but there are {}",
                solution.servings.len(),
                self.reads.len()
            ));
        }
        let chosen: std::collections::BTreeSet<usize> = solution.paths.iter().copied().collect();
        for (read, serving) in self.reads.iter().zip(&solution.servings) {
            let Some(s) = *serving else { continue };
            let Some(serving) = read.servings.get(s) else {
                return wrong(format!(
                    "read `{}` is served by serving {s}, which it does not have",
                    read.pattern
                ));
            };
            for need in &serving.needs {
                let met = match need {
                    Need::Option(o) => solution.options[o.group] == o.option,
                    Need::Path(p) => chosen.contains(p),
                };
                if !met {
                    return wrong(format!(
                        "read `{}` is served by serving {s}, which needs {need:?}, not chosen",
                        read.pattern
                    ));
                }
            }
        }
        let priced = self.priced(
            solution.options.clone(),
            solution.paths.clone(),
            solution.servings.clone(),
        );
        let tolerance = 1e-9 * (1.0 + priced.cost.abs());
        if (priced.cost - solution.cost).abs() > tolerance {
            return wrong(format!(
                "the solution says it costs {}, but its choices add up to {}",
                solution.cost, priced.cost
            ));
        }
        if priced.indexes != solution.indexes {
            return wrong(format!(
                "the solution says its busiest table has {} indexes, but it has {}",
                solution.indexes, priced.indexes
            ));
        }
        Ok(())
    }

    /// The rules on a choice of options and paths alone.
    fn check_choice(&self, options: &[usize], paths: &[usize]) -> Result<(), ProblemError> {
        if options.len() != self.groups.len() {
            return wrong(format!(
                "the choice has {} options, but there are {} groups",
                options.len(),
                self.groups.len()
            ));
        }
        for (g, (&option, group)) in options.iter().zip(&self.groups).enumerate() {
            if option >= group.options.len() {
                return wrong(format!(
                    "group {g} (`{}`) has no option {option}",
                    group.entity
                ));
            }
        }
        if let Some(pair) = paths.windows(2).find(|pair| pair[0] >= pair[1]) {
            return wrong(format!(
                "the chosen paths are not ascending and distinct: {} then {}",
                pair[0], pair[1]
            ));
        }
        for &p in paths {
            let Some(path) = self.paths.get(p) else {
                return wrong(format!(
                    "path {p} is chosen, but there are {} paths",
                    self.paths.len()
                ));
            };
            if let Some(o) = path.requires
                && options.get(o.group) != Some(&o.option)
            {
                return wrong(format!(
                    "LSI path {p} needs option {} of group {}, which is not chosen",
                    o.option, o.group
                ));
            }
        }
        for (t, [gsis, lsis]) in self.index_counts(paths).into_iter().enumerate() {
            if gsis > self.max_gsis {
                return wrong(format!(
                    "table {t} needs {gsis} GSIs, more than the {} allowed",
                    self.max_gsis
                ));
            }
            if lsis > MAX_LSIS {
                return wrong(format!(
                    "table {t} needs {lsis} LSIs, more than the {MAX_LSIS} allowed"
                ));
            }
        }
        Ok(())
    }

    /// A choice with its cost and index count, added up in one order (groups, paths, reads) so
    /// that every caller gets the same figure.
    fn priced(
        &self,
        options: Vec<usize>,
        paths: Vec<usize>,
        servings: Vec<Option<usize>>,
    ) -> Solution {
        let mut cost = 0.0;
        for (group, &o) in self.groups.iter().zip(&options) {
            cost += group.options[o].cost;
        }
        for &p in &paths {
            cost += self.paths[p].cost;
        }
        for (read, serving) in self.reads.iter().zip(&servings) {
            cost += serving.map_or(read.scan, |s| read.servings[s].cost);
        }
        let indexes = self
            .index_counts(&paths)
            .iter()
            .map(|[gsis, lsis]| gsis + lsis)
            .max()
            .unwrap_or(0);
        Solution {
            options,
            paths,
            servings,
            cost,
            indexes,
        }
    }
}
