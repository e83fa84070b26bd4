//! The primal heuristic: a good solution before the search, so that a search stopped by its
//! budget still answers well. It starts from every entity's cheapest primary key and no index,
//! then takes, while one helps, the cheapest of three kinds of move: give a read one of its
//! servings (choosing what it needs), drop a path, change an entity's primary key.

use super::super::problem::{Need, Problem, Solution};
use super::split::Limits;

/// Passes over the moves before the heuristic settles for what it has: each pass that changes
/// nothing ends it sooner; the bound keeps a pathological problem from cycling on round-off.
const MAX_PASSES: usize = 50;

/// A feasible solution of `problem` (valid) under `limits`, locally optimal for the moves.
pub(super) fn heuristic(problem: &Problem, limits: Limits) -> Solution {
    let options: Vec<usize> = problem
        .groups
        .iter()
        .map(|group| {
            (0..group.options.len())
                .min_by(|&a, &b| group.options[a].cost.total_cmp(&group.options[b].cost))
                .unwrap_or(0)
        })
        .collect();
    let mut best = evaluate(problem, limits, options, Vec::new())
        .expect("every group's option with no path keeps every limit");
    for _ in 0..MAX_PASSES {
        let mut moved = false;
        for (r, read) in problem.reads.iter().enumerate() {
            for serving in &read.servings {
                let current = best.servings[r].map_or(read.scan, |s| read.servings[s].cost);
                if serving.cost >= current {
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
                moved |= take(problem, limits, &mut best, options, paths);
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

/// Takes a choice if it keeps the limits and is cheaper than `best`.
fn take(
    problem: &Problem,
    limits: Limits,
    best: &mut Solution,
    options: Vec<usize>,
    paths: Vec<usize>,
) -> bool {
    match evaluate(problem, limits, options, paths) {
        Some(candidate) if candidate.cost < best.cost => {
            *best = candidate;
            true
        }
        _ => false,
    }
}

/// The solution of a choice, its paths made ascending and distinct and its LSI paths whose
/// primary key is not chosen dropped; `None` when it breaks a limit.
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
    let solution = problem.evaluate(&options, &paths).ok()?;
    let within = problem
        .index_counts(&solution.paths)
        .iter()
        .all(|&[gsis, lsis]| gsis <= limits.gsis && lsis <= limits.lsis);
    (within && solution.indexes <= limits.total).then_some(solution)
}
