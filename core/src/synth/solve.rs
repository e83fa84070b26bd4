//! The solver of the synthesis problem ([`Problem`]): the cheapest consistent choice of primary
//! keys and index memberships under the index limits, with a proven lower bound, and the
//! Pareto front of (cost, indexes) when alternatives are asked for.
//!
//! The problem is first cut into independent components (`split`); each gets a good solution
//! from a heuristic (`greedy`), then an exact branch and bound with LP-relaxation bounds
//! (`milp`). The search is bounded by [`Options::budget`] in nodes over the whole solve, never
//! by time, and reads no clock: the same problem and options give the same [`Solved`].

mod greedy;
mod milp;
mod split;
#[cfg(test)]
mod tests;

use super::problem::{Problem, ProblemError, Solution, Solved};
use super::{Control, Options, Progress};
use split::{Limits, Split};

/// Solves `problem`: the cheapest solution within its index limits, proven optimal when the
/// budget allows, and for `options.alternatives` > 1 the cheapest with fewer indexes, down to
/// none. `progress` hears how far the search is at least every few hundred nodes and once per
/// component, and may stop it: the best found so far is returned, with its bound.
///
/// A malformed problem (see [`Problem::validate`]) is an error, not a panic.
pub fn solve(
    problem: &Problem,
    options: &Options,
    progress: &mut dyn FnMut(&Progress) -> Control,
) -> Result<Solved, ProblemError> {
    problem.validate()?;
    let mut run = Run {
        budget: options.budget,
        explored: 0,
        stopped: false,
        progress,
    };
    let alternatives = options.alternatives.max(1);
    // The cheapest gets the whole budget alone, half of it with alternatives to find.
    let first_budget = if alternatives > 1 {
        options.budget / 2
    } else {
        options.budget
    };
    let cheapest = run.solve_within(problem, u32::MAX, first_budget, None);
    let mut front = vec![cheapest.solution.clone()];
    while front.len() < alternatives && !run.stopped {
        let last = front.last().map_or(0, |s| s.indexes);
        if last == 0 {
            break;
        }
        let left = alternatives - front.len();
        let share = run.budget.saturating_sub(run.explored) / left as u64;
        let fewer = run.solve_within(problem, last - 1, share, Some(&cheapest));
        // A search stopped early can find, with fewer indexes, what the last one missed: then
        // the last is dominated and gives way.
        while front.last().is_some_and(|s| s.cost >= fewer.solution.cost) {
            front.pop();
        }
        front.push(fewer.solution);
    }
    let best = front[0].cost;
    let optimal = cheapest.optimal && best <= cheapest.solution.cost;
    Ok(Solved {
        lower_bound: if optimal {
            best
        } else {
            cheapest.bound.min(best)
        },
        optimal,
        explored: run.explored,
        front,
    })
}

/// The best solution of one search and what is proven about it.
#[derive(Debug, Clone)]
struct Found {
    solution: Solution,
    bound: f64,
    optimal: bool,
}

/// The state of a whole solve: the budget spent, and whether it was asked to stop.
struct Run<'p> {
    budget: u64,
    explored: u64,
    stopped: bool,
    progress: &'p mut dyn FnMut(&Progress) -> Control,
}

impl Run<'_> {
    /// The cheapest solution whose busiest table has at most `total` indexes, searched for at
    /// most `budget` nodes. `shown` is what progress reports as the best and the bound while
    /// the Pareto front's re-solves run (the cheapest's), `None` while the cheapest is sought.
    fn solve_within(
        &mut self,
        problem: &Problem,
        total: u32,
        budget: u64,
        shown: Option<&Found>,
    ) -> Found {
        let limits = Limits::new(problem, total);
        let Split { components, fixed } = split::split(problem, limits);
        // Every component's heuristic solution and simple bound first, so that a stop at any
        // point still has a solution for all of them.
        let mut found: Vec<Found> = components
            .iter()
            .map(|c| Found {
                solution: greedy::heuristic(&c.problem, limits),
                bound: simple_bound(&c.problem),
                optimal: false,
            })
            .collect();
        let sizes: Vec<u64> = components.iter().map(|c| size(&c.problem)).collect();
        let mut size_left: u64 = sizes.iter().sum();
        let mut budget_left = budget;
        for (at, component) in components.iter().enumerate() {
            size_left -= sizes[at];
            if self.stopped {
                break;
            }
            // A share of what is left by size; what a component does not use goes on.
            let share = if size_left == 0 {
                budget_left
            } else {
                (budget_left as u128 * sizes[at] as u128 / (size_left + sizes[at]) as u128) as u64
            };
            let incumbent = found[at].solution.clone();
            let (done, rest): (&[Found], &[Found]) = (&found[..at], &found[at + 1..]);
            let others_cost: f64 = done.iter().chain(rest).map(|f| f.solution.cost).sum();
            let others_bound: f64 = done.iter().chain(rest).map(|f| f.bound).sum();
            let explored_before = self.explored;
            let mut stopped = false;
            let searched = {
                let progress = &mut *self.progress;
                let budget_total = self.budget;
                let mut report = |nodes: u64, best: Option<f64>, bound: Option<f64>| {
                    let (best, bound) = match shown {
                        Some(shown) => (shown.solution.cost, shown.bound),
                        None => (
                            fixed
                                + others_cost
                                + best.map_or(incumbent.cost, |b| b.min(incumbent.cost)),
                            fixed + others_bound + bound.unwrap_or(0.0),
                        ),
                    };
                    let asked = progress(&Progress {
                        explored: explored_before + nodes,
                        budget: budget_total,
                        best: Some(best),
                        bound,
                    });
                    stopped = asked == Control::Stop;
                    !stopped
                };
                if component.problem.reads.is_empty() {
                    None
                } else {
                    Some(milp::search(
                        &component.problem,
                        limits,
                        &incumbent,
                        share,
                        &mut report,
                    ))
                }
            };
            self.stopped |= stopped;
            let nodes = searched.as_ref().map_or(0, |s| s.nodes);
            self.explored += nodes;
            budget_left -= nodes.min(budget_left);
            let entry = &mut found[at];
            match searched {
                // Without reads, the cheapest option of each group is the optimum, and the
                // heuristic starts from it.
                None => {
                    entry.bound = entry.solution.cost;
                    entry.optimal = true;
                }
                Some(searched) => {
                    if let Some((options, paths)) = searched.choice
                        && let Some(solution) =
                            greedy::evaluate(&component.problem, limits, options, paths)
                        && solution.cost < entry.solution.cost
                    {
                        entry.solution = solution;
                    }
                    if let Some(bound) = searched.bound {
                        entry.bound = entry.bound.max(safe(bound)).min(entry.solution.cost);
                    }
                    entry.optimal = searched.optimal;
                    if entry.optimal {
                        entry.bound = entry.solution.cost;
                    }
                }
            }
            let done_cost: f64 = fixed + found.iter().map(|f| f.solution.cost).sum::<f64>();
            let done_bound: f64 = fixed + found.iter().map(|f| f.bound).sum::<f64>();
            let (best, bound) = match shown {
                Some(shown) => (shown.solution.cost, shown.bound),
                None => (done_cost, done_bound),
            };
            let asked = (self.progress)(&Progress {
                explored: self.explored,
                budget: self.budget,
                best: Some(best),
                bound,
            });
            self.stopped |= asked == Control::Stop;
        }
        let mut options = vec![0; problem.groups.len()];
        let mut paths = Vec::new();
        for (component, f) in components.iter().zip(&found) {
            for (local, &g) in component.groups.iter().enumerate() {
                options[g] = f.solution.options[local];
            }
            paths.extend(f.solution.paths.iter().map(|&p| component.paths[p]));
        }
        paths.sort_unstable();
        let solution = greedy::evaluate(problem, limits, options, paths)
            .expect("the components' solutions together keep the limits each keeps");
        let bound = fixed + found.iter().map(|f| f.bound).sum::<f64>();
        Found {
            optimal: found.iter().all(|f| f.optimal),
            bound: bound.min(solution.cost),
            solution,
        }
    }
}

/// A bound the LP's round-off cannot put above the true one.
fn safe(bound: f64) -> f64 {
    bound - 1e-7 * (1.0 + bound.abs())
}

/// A lower bound no search is needed for (every cost is not negative): each group's cheapest
/// option, each read's cheapest serving or its Scan, no path.
fn simple_bound(problem: &Problem) -> f64 {
    let options: f64 = problem
        .groups
        .iter()
        .map(|g| {
            g.options
                .iter()
                .map(|o| o.cost)
                .fold(f64::INFINITY, f64::min)
        })
        .sum();
    let reads: f64 = problem
        .reads
        .iter()
        .map(|r| r.servings.iter().map(|s| s.cost).fold(r.scan, f64::min))
        .sum();
    options + reads
}

/// How much of the budget a component deserves: its decisions and servings.
fn size(problem: &Problem) -> u64 {
    let options: usize = problem.groups.iter().map(|g| g.options.len()).sum();
    let servings: usize = problem.reads.iter().map(|r| r.servings.len()).sum();
    (options + problem.paths.len() + servings) as u64
}
