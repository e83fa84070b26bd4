//! Among designs of equal cost, the co-located one: where keyplan's cost model cannot tell an
//! entity under its parent from one in its own partition (the same units either way), the
//! seed articles' process keeps what belongs together in one item collection. Each entity the
//! solver left out of its parent's partition is tried there, by re-solving with its other
//! options priced out of reach; the result is taken only when it costs no more, by the
//! problem and by the full estimate of the design it renders.

use super::candidates::{Candidates, Origin};
use super::problem::Solution;
use super::{Control, Options, Progress, Solver, SynthError, monthly_cost, render, solved};
use crate::model::Design;

/// At most this many re-solves: each is a full search.
const MAX_TRIES: usize = 8;

/// `best`, or a solution of equal cost with more entities under their parents.
pub(super) fn co_located(
    design: &Design,
    candidates: &Candidates,
    best: &Solution,
    options: &Options,
    solver: Solver<'_>,
    progress: &mut dyn FnMut(&Progress) -> Control,
) -> Result<Solution, SynthError> {
    let full = |solution: &Solution| {
        let rendered = render::render(design, candidates, solution, options.style);
        monthly_cost(&rendered.design)
    };
    let mut best = best.clone();
    let mut best_full = full(&best);
    let mut tries = 0;
    for (g, group) in candidates.groups.iter().enumerate() {
        let chosen = best.options.get(g).copied().unwrap_or_default();
        if matches!(
            group.options.get(chosen).map(|o| &o.origin),
            Some(Origin::Under(_))
        ) {
            continue;
        }
        for (o, option) in group.options.iter().enumerate() {
            if !matches!(option.origin, Origin::Under(_)) || tries >= MAX_TRIES {
                continue;
            }
            tries += 1;
            let mut problem = candidates.problem.clone();
            // The other options priced above any design: the search must take this one.
            let out_of_reach = 1.0 + best.cost.abs() * 2.0;
            for (other, choice) in problem.groups[g].options.iter_mut().enumerate() {
                if other != o {
                    choice.cost += out_of_reach;
                }
            }
            let found = solved(solver, &problem, options, progress)?;
            let Some(trial) = found.front.first() else {
                continue;
            };
            if trial.options.get(g) != Some(&o) {
                continue;
            }
            // Priced by the real problem: no dearer than the best, within round-off.
            let Ok(real) = candidates.problem.evaluate(&trial.options, &trial.paths) else {
                continue;
            };
            let same = |a: f64, b: f64| a <= b + 1e-9 * (1.0 + b.abs());
            if same(real.cost, best.cost) {
                let real_full = full(&real);
                if same(real_full, best_full) {
                    best = real;
                    best_full = real_full;
                    break;
                }
            }
        }
    }
    Ok(best)
}
