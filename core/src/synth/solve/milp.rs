//! A component as a mixed-integer program, searched by microlp's branch and bound (pure Rust,
//! runs in wasm) in chunks of nodes, so the caller can report progress, stop it and hold it to
//! its node budget: no clock is read, so the same problem and budget give the same answer.
//!
//! Binary `x[g][o]` chooses group `g`'s option `o` (exactly one per group), binary `y[p]` path
//! `p`; `z[r][s]` in [0, 1] serves read `r` by serving `s` (at most one per read), the Scan
//! otherwise: the objective is the options' and paths' costs plus, per read, its Scan and each
//! chosen serving's saving on it. For every read and need, the servings of the read that need it
//! sum to at most the need's variable (the strong form: an LP relaxation close to the integer
//! optimum). An LSI path is at most its primary key. Index limits: per group under
//! [`IndexCount::Overloaded`] (with the table's GSIs and LSIs as variables when a limit holds
//! both together); per table under [`IndexCount::Distinct`], with a binary per index.

use microlp::{ComparisonOp, OptimizationDirection, ResumeOptions, SolveOptions, Variable};

use super::super::problem::{IndexCount, Need, PathKind, Problem, Solution};
use super::split::Limits;

/// Nodes between two progress reports.
pub(super) const CHUNK: u64 = 256;

/// What the search of a component found.
#[derive(Debug, Clone)]
pub(super) struct Searched {
    /// The best choice it found (options, paths), if any.
    pub choice: Option<(Vec<usize>, Vec<usize>)>,
    /// A proven lower bound on the component's cost, if the search got one.
    pub bound: Option<f64>,
    pub optimal: bool,
    pub nodes: u64,
}

struct Model {
    lp: microlp::Problem,
    x: Vec<Vec<Variable>>,
    y: Vec<Variable>,
    /// Distinct: the binary of each (table, kind, index) and the paths in it.
    indexes: Vec<(Variable, Vec<usize>)>,
    /// The Scans of the component's reads: the objective's constant.
    constant: f64,
}

fn slot(kind: PathKind) -> usize {
    match kind {
        PathKind::Gsi => 0,
        PathKind::Lsi => 1,
    }
}

fn model(problem: &Problem, limits: Limits) -> Model {
    let mut lp = microlp::Problem::new(OptimizationDirection::Minimize);
    let x: Vec<Vec<Variable>> = problem
        .groups
        .iter()
        .map(|group| {
            let x: Vec<Variable> = group
                .options
                .iter()
                .map(|o| lp.add_binary_var(o.cost))
                .collect();
            let row: Vec<(Variable, f64)> = x.iter().map(|&v| (v, 1.0)).collect();
            lp.add_constraint(row.as_slice(), ComparisonOp::Eq, 1.0);
            x
        })
        .collect();
    let y: Vec<Variable> = problem
        .paths
        .iter()
        .map(|p| lp.add_binary_var(p.cost))
        .collect();
    for (p, path) in problem.paths.iter().enumerate() {
        if let Some(o) = path.requires {
            lp.add_constraint(
                [(y[p], 1.0), (x[o.group][o.option], -1.0)].as_slice(),
                ComparisonOp::Le,
                0.0,
            );
        }
    }
    let mut constant = 0.0;
    for read in &problem.reads {
        constant += read.scan;
        let z: Vec<Variable> = read
            .servings
            .iter()
            .map(|s| lp.add_var(s.cost - read.scan, (0.0, 1.0)))
            .collect();
        let row: Vec<(Variable, f64)> = z.iter().map(|&v| (v, 1.0)).collect();
        lp.add_constraint(row.as_slice(), ComparisonOp::Le, 1.0);
        let mut needs: Vec<Need> = read
            .servings
            .iter()
            .flat_map(|s| s.needs.iter().copied())
            .collect();
        needs.sort_unstable();
        needs.dedup();
        for need in needs {
            let mut row: Vec<(Variable, f64)> = read
                .servings
                .iter()
                .zip(&z)
                .filter(|(s, _)| s.needs.contains(&need))
                .map(|(_, &v)| (v, 1.0))
                .collect();
            let chosen = match need {
                Need::Option(o) => x[o.group][o.option],
                Need::Path(p) => y[p],
            };
            row.push((chosen, -1.0));
            lp.add_constraint(row.as_slice(), ComparisonOp::Le, 0.0);
        }
    }
    let indexes = limit_rows(problem, limits, &mut lp, &y);
    Model {
        lp,
        x,
        y,
        indexes,
        constant,
    }
}

/// The index limits' rows; under Distinct, the index binaries and their paths.
fn limit_rows(
    problem: &Problem,
    limits: Limits,
    lp: &mut microlp::Problem,
    y: &[Variable],
) -> Vec<(Variable, Vec<usize>)> {
    let kinds = [PathKind::Gsi, PathKind::Lsi];
    let mut indexes = Vec::new();
    match problem.count {
        IndexCount::Overloaded => {
            let mut per_group = vec![[Vec::new(), Vec::new()]; problem.groups.len()];
            for (p, path) in problem.paths.iter().enumerate() {
                per_group[path.group][slot(path.kind)].push((y[p], 1.0));
            }
            for table in 0..problem.tables() {
                let members: Vec<usize> = (0..problem.groups.len())
                    .filter(|&g| problem.groups[g].table == table)
                    .collect();
                let widest = |k: usize| {
                    members
                        .iter()
                        .map(|&g| per_group[g][k].len())
                        .max()
                        .unwrap_or(0)
                };
                let both =
                    widest(0) > 0 && widest(1) > 0 && widest(0) + widest(1) > limits.total as usize;
                // With both kinds bound together, the table's count of each kind is a variable
                // at least every group's.
                let counts: Option<[Variable; 2]> = both.then(|| {
                    let counts = kinds.map(|k| lp.add_var(0.0, (0.0, f64::from(limits.of(k)))));
                    lp.add_constraint(
                        [(counts[0], 1.0), (counts[1], 1.0)].as_slice(),
                        ComparisonOp::Le,
                        f64::from(limits.total),
                    );
                    counts
                });
                for &g in &members {
                    for kind in kinds {
                        let row = &per_group[g][slot(kind)];
                        match counts {
                            Some(counts) if !row.is_empty() => {
                                let mut row = row.clone();
                                row.push((counts[slot(kind)], -1.0));
                                lp.add_constraint(row.as_slice(), ComparisonOp::Le, 0.0);
                            }
                            _ if row.len() > limits.of(kind) as usize => {
                                let limit = f64::from(limits.of(kind));
                                lp.add_constraint(row.as_slice(), ComparisonOp::Le, limit);
                            }
                            _ => {}
                        }
                    }
                }
            }
        }
        IndexCount::Distinct => {
            let mut by_index = std::collections::BTreeMap::<(usize, usize, u32), Vec<usize>>::new();
            for (p, path) in problem.paths.iter().enumerate() {
                let table = problem.groups[path.group].table;
                by_index
                    .entry((table, slot(path.kind), path.index))
                    .or_default()
                    .push(p);
            }
            let mut per_table = vec![[Vec::new(), Vec::new()]; problem.tables()];
            for ((table, kind, _), paths) in by_index {
                let u = lp.add_binary_var(0.0);
                for &p in &paths {
                    lp.add_constraint([(y[p], 1.0), (u, -1.0)].as_slice(), ComparisonOp::Le, 0.0);
                }
                per_table[table][kind].push((u, 1.0));
                indexes.push((u, paths));
            }
            for [gsis, lsis] in per_table {
                for (row, kind) in [(&gsis, PathKind::Gsi), (&lsis, PathKind::Lsi)] {
                    if row.len() > limits.of(kind) as usize {
                        let limit = f64::from(limits.of(kind));
                        lp.add_constraint(row.as_slice(), ComparisonOp::Le, limit);
                    }
                }
                if gsis.len() + lsis.len() > limits.total as usize {
                    let both: Vec<(Variable, f64)> = gsis.iter().chain(&lsis).copied().collect();
                    let limit = f64::from(limits.total);
                    lp.add_constraint(both.as_slice(), ComparisonOp::Le, limit);
                }
            }
        }
    }
    indexes
}

/// Searches `problem` (a component) from `incumbent` for at most `budget` nodes, calling
/// `report` with the nodes explored, the best cost and the bound after every [`CHUNK`] nodes;
/// `report` returning false stops the search.
pub(super) fn search(
    problem: &Problem,
    limits: Limits,
    incumbent: &Solution,
    budget: u64,
    report: &mut dyn FnMut(u64, Option<f64>, Option<f64>) -> bool,
) -> Searched {
    let model = model(problem, limits);
    let mut hint: Vec<(Variable, f64)> = Vec::new();
    for (x, &chosen) in model.x.iter().zip(&incumbent.options) {
        hint.extend(
            x.iter()
                .enumerate()
                .map(|(o, &v)| (v, f64::from(u8::from(o == chosen)))),
        );
    }
    let mut chosen = vec![false; problem.paths.len()];
    for &p in &incumbent.paths {
        chosen[p] = true;
    }
    hint.extend(
        model
            .y
            .iter()
            .zip(&chosen)
            .map(|(&v, &c)| (v, f64::from(u8::from(c)))),
    );
    for (u, paths) in &model.indexes {
        let used = paths.iter().any(|&p| chosen[p]);
        hint.push((*u, f64::from(u8::from(used))));
    }
    let mut options = SolveOptions::default();
    options.node_limit = Some(CHUNK.min(budget));
    options.warm_start = Some(hint);
    let mut nodes = 0;
    let mut outcome = model.lp.solve_with(options);
    let mut last = Searched {
        choice: None,
        bound: None,
        optimal: false,
        nodes: 0,
    };
    loop {
        let current = match outcome {
            Ok(current) => current,
            Err(_) => return last,
        };
        let stats = current.stats();
        nodes = stats.nodes_solved.max(nodes);
        let bound = stats.best_bound.map(|b| b + model.constant);
        let optimal = current.is_optimal();
        let best = current.solution().map(|s| s.objective() + model.constant);
        let choice = current.solution().map(|s| read_choice(&model, s));
        let more = current.termination_reason() == microlp::TerminationReason::NodeLimit
            && !optimal
            && nodes < budget;
        last = Searched {
            choice: choice.clone(),
            bound,
            optimal,
            nodes,
        };
        if !more || !report(nodes, best, bound) {
            return last;
        }
        let mut resume = ResumeOptions::default();
        resume.node_limit = Some(CHUNK.min(budget - nodes));
        outcome = current.resume_with(resume);
    }
}

/// The options and paths a solution of the model chooses.
fn read_choice(model: &Model, solution: &microlp::Solution) -> (Vec<usize>, Vec<usize>) {
    let options = model
        .x
        .iter()
        .map(|x| {
            (0..x.len())
                .max_by(|&a, &b| {
                    solution
                        .var_value(x[a])
                        .total_cmp(&solution.var_value(x[b]))
                        .then(b.cmp(&a))
                })
                .unwrap_or(0)
        })
        .collect();
    let paths = (0..model.y.len())
        .filter(|&p| solution.var_value(model.y[p]) > 0.5)
        .collect();
    (options, paths)
}
