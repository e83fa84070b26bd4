//! The primal heuristic: a good solution before the search, so that a search stopped by its
//! budget still answers well. It starts from every entity's cheapest primary key and no index,
//! then takes, while one helps, the cheapest of three kinds of move: give a read one of its
//! servings (choosing what it needs), drop a path, change an entity's primary key.

use super::super::problem::{IndexCount, Need, PathKind, Problem, Solution};
use super::split::Limits;

/// Passes over the moves before the heuristic settles for what it has: each pass that changes
/// nothing ends it sooner; the bound keeps a pathological problem from cycling on round-off.
const MAX_PASSES: usize = 50;

/// A feasible solution of `problem` (valid) under `limits`, locally optimal for the moves.
pub(super) fn heuristic(problem: &Problem, limits: Limits) -> Solution {
    let mut best = plain(problem);
    let options = best.options.clone();
    if let Some(repaired) = repair(problem, limits, options, Vec::new())
        && repaired.cost < best.cost
    {
        best = repaired;
    }
    // Under Distinct, local moves rarely trade one index for another: start from the indexes
    // that save most, opened one by one, when that is cheaper.
    if problem.count == IndexCount::Distinct
        && let Some(opened) = open_indexes(problem, limits, &best.options)
        && opened.cost < best.cost
    {
        best = opened;
    }
    improve(problem, limits, best)
}

/// The moves, from `best`, while one helps.
fn improve(problem: &Problem, limits: Limits, mut best: Solution) -> Solution {
    for _ in 0..MAX_PASSES {
        let mut moved = false;
        for (r, read) in problem.reads.iter().enumerate() {
            // The best of the read's servings, each with what it needs chosen and what no read
            // uses any more dropped: a serving dearer for the read can still save a path.
            let mut better: Option<Solution> = None;
            for (s, serving) in read.servings.iter().enumerate() {
                if best.servings[r] == Some(s) {
                    continue;
                }
                let mut options = best.options.clone();
                let mut paths = best.paths.clone();
                for need in &serving.needs {
                    match need {
                        Need::Option(o) => options[o.group] = o.option,
                        Need::Path(p) => {
                            if let Some(o) = problem.paths[*p].requires {
                                options[o.group] = o.option;
                            }
                            paths.push(*p);
                        }
                    }
                }
                if let Some(candidate) = repair(problem, limits, options, paths)
                    && candidate.cost < better.as_ref().map_or(best.cost, |b| b.cost)
                {
                    better = Some(candidate);
                }
            }
            if let Some(better) = better {
                best = better;
                moved = true;
            }
        }
        for at in (0..best.paths.len()).rev() {
            if at >= best.paths.len() {
                continue;
            }
            let mut paths = best.paths.clone();
            paths.remove(at);
            let options = best.options.clone();
            moved |= take(problem, limits, &mut best, options, paths);
        }
        if problem.count == IndexCount::Distinct {
            // Under a binding limit, which indexes to have is the question: free one.
            let mut indexes: Vec<(usize, PathKind, u32)> = best
                .paths
                .iter()
                .map(|&p| {
                    let path = &problem.paths[p];
                    (problem.groups[path.group].table, path.kind, path.index)
                })
                .collect();
            indexes.dedup();
            indexes.sort_by_key(|&(t, k, i)| (t, k == PathKind::Lsi, i));
            indexes.dedup();
            for (table, kind, index) in indexes {
                let mut paths = best.paths.clone();
                paths.retain(|&p| {
                    let path = &problem.paths[p];
                    (problem.groups[path.group].table, path.kind, path.index)
                        != (table, kind, index)
                });
                let options = best.options.clone();
                moved |= take(problem, limits, &mut best, options, paths);
            }
        }
        for (g, group) in problem.groups.iter().enumerate() {
            for option in 0..group.options.len() {
                if best.options[g] == option {
                    continue;
                }
                let mut options = best.options.clone();
                options[g] = option;
                let paths = best.paths.clone();
                moved |= take(problem, limits, &mut best, options, paths);
            }
        }
        if !moved {
            break;
        }
    }
    best
}

/// Under [`IndexCount::Distinct`], which indexes to have is most of the question: opens them
/// one at a time, each time the one (all its paths the keys allow) that saves most, while one
/// saves and the limits allow.
fn open_indexes(problem: &Problem, limits: Limits, options: &[usize]) -> Option<Solution> {
    let identity = |p: usize| {
        let path = &problem.paths[p];
        (
            problem.groups[path.group].table,
            path.kind == PathKind::Lsi,
            path.index,
        )
    };
    let mut indexes: Vec<(usize, bool, u32)> = (0..problem.paths.len()).map(identity).collect();
    indexes.sort_unstable();
    indexes.dedup();
    let mut current = evaluate(problem, limits, options.to_vec(), Vec::new())?;
    let mut open = vec![false; indexes.len()];
    loop {
        let mut step: Option<(usize, Solution)> = None;
        for (at, &index) in indexes.iter().enumerate() {
            if open[at] {
                continue;
            }
            let mut paths = current.paths.clone();
            paths.extend((0..problem.paths.len()).filter(|&p| identity(p) == index));
            if let Some(candidate) = evaluate(problem, limits, options.to_vec(), paths)
                && candidate.cost < step.as_ref().map_or(current.cost, |(_, s)| s.cost)
            {
                step = Some((at, candidate));
            }
        }
        let Some((at, better)) = step else {
            return Some(current);
        };
        open[at] = true;
        current = better;
    }
}

/// Every entity's cheapest primary key (the first of equals) and no index: feasible in any
/// valid problem, under any limits.
pub(super) fn plain(problem: &Problem) -> Solution {
    let options: Vec<usize> = problem
        .groups
        .iter()
        .map(|group| {
            (0..group.options.len())
                .min_by(|&a, &b| group.options[a].cost.total_cmp(&group.options[b].cost))
                .unwrap_or(0)
        })
        .collect();
    problem
        .evaluate(&options, &[])
        .expect("options in range and no path break no rule")
}

/// Takes a choice if it keeps the limits and is cheaper than `best`.
fn take(
    problem: &Problem,
    limits: Limits,
    best: &mut Solution,
    options: Vec<usize>,
    paths: Vec<usize>,
) -> bool {
    match repair(problem, limits, options, paths) {
        Some(candidate) if candidate.cost < best.cost => {
            *best = candidate;
            true
        }
        _ => false,
    }
}

/// The solution of a choice after every read it leaves dearer than one of its servings that
/// the chosen primary keys allow (a move that changes a key can take a read's serving away) is
/// given that serving's paths, the reads that save most first, as far as the index limits let.
fn repair(
    problem: &Problem,
    limits: Limits,
    options: Vec<usize>,
    paths: Vec<usize>,
) -> Option<Solution> {
    let solution = evaluate(problem, limits, options, paths)?;
    let mut chosen = vec![false; problem.paths.len()];
    for &p in &solution.paths {
        chosen[p] = true;
    }
    let allowed = |need: &Need| match need {
        Need::Option(o) => solution.options[o.group] == o.option,
        Need::Path(p) => problem.paths[*p]
            .requires
            .is_none_or(|o| solution.options[o.group] == o.option),
    };
    let extra = |needs: &[Need], chosen: &[bool]| -> f64 {
        needs
            .iter()
            .filter_map(|need| match need {
                Need::Path(p) if !chosen[*p] => Some(problem.paths[*p].cost),
                _ => None,
            })
            .sum()
    };
    // (saving, read, serving): each read's best serving the keys allow, if it saves.
    let mut wanted: Vec<(f64, usize, usize)> = Vec::new();
    for (r, (read, serving)) in problem.reads.iter().zip(&solution.servings).enumerate() {
        let current = serving.map_or(read.scan, |s| read.servings[s].cost);
        let best = (0..read.servings.len())
            .filter(|&s| read.servings[s].needs.iter().all(allowed))
            .map(|s| {
                (
                    read.servings[s].cost + extra(&read.servings[s].needs, &chosen),
                    s,
                )
            })
            .min_by(|a, b| a.0.total_cmp(&b.0));
        if let Some((total, s)) = best
            && total < current
        {
            wanted.push((current - total, r, s));
        }
    }
    if wanted.is_empty() {
        return Some(solution);
    }
    wanted.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut counts = Counts::new(problem, limits, &solution.paths);
    let mut paths = solution.paths.clone();
    for (_, r, s) in wanted {
        let needs = &problem.reads[r].servings[s].needs;
        let new: Vec<usize> = needs
            .iter()
            .filter_map(|need| match need {
                Need::Path(p) if !chosen[*p] => Some(*p),
                _ => None,
            })
            .collect();
        if new.is_empty() {
            continue;
        }
        let mut trial = counts.clone();
        if new.iter().all(|&p| trial.add(p)) {
            counts = trial;
            for p in new {
                chosen[p] = true;
                paths.push(p);
            }
        }
    }
    match evaluate(problem, limits, solution.options.clone(), paths) {
        Some(repaired) if repaired.cost < solution.cost => Some(repaired),
        _ => Some(solution),
    }
}

/// The index counts of a growing set of paths, path by path: the incremental form of
/// [`Problem::index_counts`] (which [`Problem::evaluate`] still checks the result by).
#[derive(Clone)]
struct Counts<'p> {
    problem: &'p Problem,
    limits: Limits,
    /// Overloaded: each group's GSIs and LSIs.
    per_group: Vec<[u32; 2]>,
    /// Distinct: the indexes in use, by (table, kind, index).
    used: std::collections::BTreeSet<(usize, usize, u32)>,
    per_table: Vec<[u32; 2]>,
}

impl<'p> Counts<'p> {
    fn new(problem: &'p Problem, limits: Limits, paths: &[usize]) -> Counts<'p> {
        let mut counts = Counts {
            problem,
            limits,
            per_group: vec![[0; 2]; problem.groups.len()],
            used: Default::default(),
            per_table: vec![[0; 2]; problem.tables()],
        };
        for &p in paths {
            counts.add(p);
        }
        counts
    }

    /// Adds a path and says whether the limits still hold.
    fn add(&mut self, p: usize) -> bool {
        let path = &self.problem.paths[p];
        let kind = usize::from(path.kind == PathKind::Lsi);
        let table = self.problem.groups[path.group].table;
        let counts = &mut self.per_table[table];
        match self.problem.count {
            IndexCount::Overloaded => {
                let group = &mut self.per_group[path.group][kind];
                *group += 1;
                counts[kind] = counts[kind].max(*group);
            }
            IndexCount::Distinct => {
                if self.used.insert((table, kind, path.index)) {
                    counts[kind] += 1;
                }
            }
        }
        counts[0] <= self.limits.gsis
            && counts[1] <= self.limits.lsis
            && counts[0] + counts[1] <= self.limits.total
    }
}

/// The solution of a choice, its paths made ascending and distinct, its LSI paths whose
/// primary key is not chosen and the paths no read is served by dropped; `None` when it breaks
/// a limit.
pub(super) fn evaluate(
    problem: &Problem,
    limits: Limits,
    options: Vec<usize>,
    mut paths: Vec<usize>,
) -> Option<Solution> {
    paths.sort_unstable();
    paths.dedup();
    paths.retain(|&p| {
        problem.paths[p]
            .requires
            .is_none_or(|o| options[o.group] == o.option)
    });
    let mut solution = problem.evaluate(&options, &paths).ok()?;
    let mut used = vec![false; problem.paths.len()];
    for (read, serving) in problem.reads.iter().zip(&solution.servings) {
        for need in serving.iter().flat_map(|&s| &read.servings[s].needs) {
            if let Need::Path(p) = need {
                used[*p] = true;
            }
        }
    }
    if solution.paths.iter().any(|&p| !used[p]) {
        // Each read's serving stays available and cheapest among fewer: only the cost falls.
        paths.retain(|&p| used[p]);
        solution = problem.evaluate(&options, &paths).ok()?;
    }
    let within = problem
        .index_counts(&solution.paths)
        .iter()
        .all(|&[gsis, lsis]| gsis <= limits.gsis && lsis <= limits.lsis);
    (within && solution.indexes <= limits.total).then_some(solution)
}
