//! The solver of the covering problem. Interim, until synth-solve's branch-and-bound lands:
//! every combination of primary keys (up to the node budget, in a fixed order), each read
//! given the cheapest serving whose needs are met or can be added, and a lower bound that
//! adds every group's cheapest option to every read's cheapest way.

use super::problem::{IndexCount, Need, PathKind, Problem, Solution, Solved};
use super::{Control, Options, Progress};

/// The cheapest solution found over the option combinations the budget allows.
pub fn solve(
    problem: &Problem,
    options: &Options,
    progress: &mut dyn FnMut(&Progress) -> Control,
) -> Solved {
    let bound = lower_bound(problem);
    let sizes: Vec<usize> = problem
        .groups
        .iter()
        .map(|g| g.options.len().max(1))
        .collect();
    let mut choice = vec![0usize; sizes.len()];
    let mut best: Option<Solution> = None;
    let mut explored = 0u64;
    loop {
        explored += 1;
        let solution = complete(problem, &choice);
        if best.as_ref().is_none_or(|b| solution.cost < b.cost - 1e-9) {
            best = Some(solution);
        }
        if explored % 64 == 0 {
            let control = progress(&Progress {
                explored,
                budget: options.budget,
                best: best.as_ref().map(|b| b.cost),
                bound,
            });
            if control == Control::Stop {
                break;
            }
        }
        if explored >= options.budget || !advance(&mut choice, &sizes) {
            break;
        }
    }
    let best = best.unwrap_or_else(|| complete(problem, &vec![0; sizes.len()]));
    let optimal = best.cost <= bound + 1e-9;
    Solved {
        front: vec![best],
        lower_bound: bound,
        optimal,
        explored,
    }
}

/// The next combination, the last group fastest; false after the last.
fn advance(choice: &mut [usize], sizes: &[usize]) -> bool {
    for g in (0..choice.len()).rev() {
        choice[g] += 1;
        if choice[g] < sizes[g] {
            return true;
        }
        choice[g] = 0;
    }
    false
}

/// Every group's cheapest option plus every read's cheapest way: no solution costs less.
fn lower_bound(problem: &Problem) -> f64 {
    let options: f64 = problem
        .groups
        .iter()
        .map(|g| {
            g.options
                .iter()
                .map(|o| o.cost)
                .fold(f64::INFINITY, f64::min)
        })
        .filter(|c| c.is_finite())
        .sum();
    let reads: f64 = problem
        .reads
        .iter()
        .map(|r| r.servings.iter().map(|s| s.cost).fold(r.scan, f64::min))
        .sum();
    options + reads
}

/// With these options, each read in turn takes its cheapest serving (counting the paths it
/// adds) within the index limits, or its Scan.
fn complete(problem: &Problem, options: &[usize]) -> Solution {
    let mut paths: Vec<usize> = Vec::new();
    let mut servings = Vec::with_capacity(problem.reads.len());
    for read in &problem.reads {
        let mut pick: Option<(usize, f64)> = None;
        for (s, serving) in read.servings.iter().enumerate() {
            let mut added = 0.0;
            let mut fits = true;
            let mut new_paths = Vec::new();
            for need in &serving.needs {
                match *need {
                    Need::Option(o) => fits &= options.get(o.group) == Some(&o.option),
                    Need::Path(p) => {
                        let path = &problem.paths[p];
                        if let Some(o) = path.requires {
                            fits &= options.get(o.group) == Some(&o.option);
                        }
                        if !paths.contains(&p) && !new_paths.contains(&p) {
                            added += path.cost;
                            new_paths.push(p);
                        }
                    }
                }
            }
            if !fits {
                continue;
            }
            let mut trial = paths.clone();
            trial.extend(&new_paths);
            if !within_limits(problem, &trial) {
                continue;
            }
            let cost = serving.cost + added;
            if cost < read.scan && pick.is_none_or(|(_, c)| cost < c) {
                pick = Some((s, cost));
            }
        }
        if let Some((s, _)) = pick {
            for need in &read.servings[s].needs {
                if let Need::Path(p) = *need
                    && !paths.contains(&p)
                {
                    paths.push(p);
                }
            }
        }
        servings.push(pick.map(|(s, _)| s));
    }
    paths.sort_unstable();
    let mut cost: f64 = problem
        .groups
        .iter()
        .zip(options)
        .map(|(g, &o)| g.options.get(o).map_or(0.0, |c| c.cost))
        .sum();
    cost += paths.iter().map(|&p| problem.paths[p].cost).sum::<f64>();
    for (read, serving) in problem.reads.iter().zip(&servings) {
        cost += serving.map_or(read.scan, |s| read.servings[s].cost);
    }
    let indexes = index_count(problem, &paths).into_iter().max().unwrap_or(0);
    Solution {
        options: options.to_vec(),
        paths,
        servings,
        cost,
        indexes,
    }
}

/// Per table, the GSIs plus LSIs the chosen paths need, as the problem counts them.
fn index_count(problem: &Problem, paths: &[usize]) -> Vec<u32> {
    let tables = problem
        .groups
        .iter()
        .map(|g| g.table + 1)
        .max()
        .unwrap_or(0);
    let mut out = vec![0u32; tables];
    for (t, count) in out.iter_mut().enumerate() {
        let (gsis, lsis) = table_indexes(problem, paths, t);
        *count = gsis + lsis;
    }
    out
}

fn table_indexes(problem: &Problem, paths: &[usize], table: usize) -> (u32, u32) {
    let in_table: Vec<usize> = paths
        .iter()
        .copied()
        .filter(|&p| problem.groups[problem.paths[p].group].table == table)
        .collect();
    let count = |kind: PathKind| -> u32 {
        let of_kind: Vec<usize> = in_table
            .iter()
            .copied()
            .filter(|&p| problem.paths[p].kind == kind)
            .collect();
        match problem.count {
            IndexCount::Overloaded => (0..problem.groups.len())
                .map(|g| {
                    of_kind
                        .iter()
                        .filter(|&&p| problem.paths[p].group == g)
                        .count() as u32
                })
                .max()
                .unwrap_or(0),
            IndexCount::Distinct => {
                let mut ids: Vec<u32> = of_kind.iter().map(|&p| problem.paths[p].index).collect();
                ids.sort_unstable();
                ids.dedup();
                ids.len() as u32
            }
        }
    };
    (count(PathKind::Gsi), count(PathKind::Lsi))
}

fn within_limits(problem: &Problem, paths: &[usize]) -> bool {
    let tables = problem
        .groups
        .iter()
        .map(|g| g.table + 1)
        .max()
        .unwrap_or(0);
    (0..tables).all(|t| {
        let (gsis, lsis) = table_indexes(problem, paths, t);
        gsis <= problem.max_gsis && lsis as usize <= crate::limits::MAX_LSIS
    })
}
