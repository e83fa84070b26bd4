//! The solver against brute force on small random problems, and its promises: deterministic,
//! independent of the input's order, held to its budget, stopped when asked.

use proptest::prelude::*;

use super::solve;
use crate::synth::problem::{
    Choice, Group, IndexCount, Need, OptionRef, Path, PathKind, Problem, Read, Serving, Solution,
    Solved,
};
use crate::synth::{Control, Options};

/// A random problem of at most 5 groups of 3 options, 8 paths and 8 reads over one or two
/// tables, with tight index limits: small enough to enumerate every choice.
fn random_problem(seed: u64) -> Problem {
    let mut rng = oorandom::Rand64::new(seed.into());
    let mut below = |n: u64| rng.rand_range(0..n.max(1)) as usize;
    let n_tables = 1 + below(2);
    let groups: Vec<Group> = (0..1 + below(5))
        .map(|g| Group {
            entity: format!("E{g}"),
            table: below(n_tables as u64),
            options: (0..1 + below(3))
                .map(|_| Choice {
                    cost: below(10) as f64 + 0.5,
                })
                .collect(),
        })
        .collect();
    let paths: Vec<Path> = (0..below(9))
        .map(|_| {
            let group = below(groups.len() as u64);
            let lsi = below(4) == 0;
            Path {
                group,
                kind: if lsi { PathKind::Lsi } else { PathKind::Gsi },
                index: below(3) as u32,
                cost: below(6) as f64 * 0.5,
                requires: lsi.then(|| OptionRef {
                    group,
                    option: below(groups[group].options.len() as u64),
                }),
            }
        })
        .collect();
    let need = |below: &mut dyn FnMut(u64) -> usize| {
        if !paths.is_empty() && below(2) == 0 {
            Need::Path(below(paths.len() as u64))
        } else {
            let group = below(groups.len() as u64);
            Need::Option(OptionRef {
                group,
                option: below(groups[group].options.len() as u64),
            })
        }
    };
    let reads: Vec<Read> = (0..below(9))
        .map(|r| Read {
            pattern: format!("R{r}"),
            servings: (0..1 + below(3))
                .map(|_| Serving {
                    needs: (0..1 + below(2)).map(|_| need(&mut below)).collect(),
                    cost: below(8) as f64 * 0.25,
                })
                .collect(),
            scan: 2.0 + below(20) as f64,
        })
        .collect();
    Problem {
        groups,
        paths,
        reads,
        count: if below(2) == 0 {
            IndexCount::Overloaded
        } else {
            IndexCount::Distinct
        },
        max_gsis: below(4) as u32,
    }
}

/// Every feasible solution of `problem`, by enumeration.
fn every_solution(problem: &Problem) -> Vec<Solution> {
    let mut all = Vec::new();
    let mut options = vec![0; problem.groups.len()];
    loop {
        for mask in 0u32..1 << problem.paths.len() {
            let paths: Vec<usize> = (0..problem.paths.len())
                .filter(|p| mask & 1 << p != 0)
                .collect();
            if let Ok(solution) = problem.evaluate(&options, &paths) {
                all.push(solution);
            }
        }
        // The next combination of options, as an odometer.
        let mut g = 0;
        loop {
            if g == options.len() {
                return all;
            }
            options[g] += 1;
            if options[g] < problem.groups[g].options.len() {
                break;
            }
            options[g] = 0;
            g += 1;
        }
    }
}

fn run(problem: &Problem, options: &Options) -> Solved {
    solve(problem, options, &mut |_| Control::Continue).expect("a valid problem")
}

fn exact(alternatives: usize) -> Options {
    Options {
        alternatives,
        budget: 1_000_000,
        ..Options::default()
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-6 * (1.0 + a.abs().max(b.abs()))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn the_solver_finds_the_brute_force_optimum_and_front(seed in any::<u64>()) {
        let problem = random_problem(seed);
        let all = every_solution(&problem);
        let solved = run(&problem, &exact(4));
        prop_assert!(solved.optimal, "not proven optimal: {solved:?}");
        let optimum = all.iter().map(|s| s.cost).fold(f64::INFINITY, f64::min);
        prop_assert!(close(solved.front[0].cost, optimum), "{} against {optimum}", solved.front[0].cost);
        prop_assert!(solved.lower_bound <= solved.front[0].cost + 1e-9);
        prop_assert!(close(solved.lower_bound, optimum));
        for (at, solution) in solved.front.iter().enumerate() {
            prop_assert_eq!(problem.check(solution), Ok(()));
            // Each is the cheapest with at most its indexes.
            let within = all
                .iter()
                .filter(|s| s.indexes <= solution.indexes)
                .map(|s| s.cost)
                .fold(f64::INFINITY, f64::min);
            prop_assert!(close(solution.cost, within), "front {at}: {} against {within}", solution.cost);
            if at > 0 {
                let cheaper = &solved.front[at - 1];
                prop_assert!(cheaper.cost < solution.cost && cheaper.indexes > solution.indexes);
            }
        }
        // The front goes down to the fewest indexes any solution as cheap can have.
        let last = solved.front.last().expect("never empty");
        if solved.front.len() < 4 {
            let fewer = all.iter().any(|s| s.indexes < last.indexes);
            prop_assert!(!fewer, "the front stops at {} indexes", last.indexes);
        }
    }

    #[test]
    fn a_budget_of_one_node_still_answers_a_feasible_solution_above_its_bound(seed in any::<u64>()) {
        let problem = random_problem(seed);
        let solved = run(&problem, &Options { budget: 1, ..exact(3) });
        prop_assert!(solved.explored <= 1);
        for solution in &solved.front {
            prop_assert_eq!(problem.check(solution), Ok(()));
        }
        prop_assert!(solved.lower_bound <= solved.front[0].cost + 1e-9);
    }

    #[test]
    fn the_same_problem_in_another_order_costs_the_same(seed in any::<u64>()) {
        let problem = random_problem(seed);
        let solved = run(&problem, &exact(1));
        prop_assert_eq!(&solved, &run(&problem, &exact(1)));
        let mut reversed = problem.clone();
        reversed.reads.reverse();
        // The groups reversed: every reference to a group follows it.
        let n = problem.groups.len();
        reversed.groups.reverse();
        let flip = |o: OptionRef| OptionRef { group: n - 1 - o.group, option: o.option };
        for path in &mut reversed.paths {
            path.group = n - 1 - path.group;
            path.requires = path.requires.map(flip);
        }
        for read in &mut reversed.reads {
            read.servings.reverse();
            for serving in &mut read.servings {
                for need in &mut serving.needs {
                    if let Need::Option(o) = need {
                        *o = flip(*o);
                    }
                }
            }
        }
        let again = run(&reversed, &exact(1));
        prop_assert!(close(solved.front[0].cost, again.front[0].cost));
    }
}

#[test]
fn a_stop_is_honoured_at_once() {
    let problem = (0..200)
        .map(random_problem)
        .max_by_key(|p| p.reads.len() + p.paths.len())
        .expect("problems");
    let mut calls = 0;
    let solved = solve(&problem, &exact(3), &mut |_| {
        calls += 1;
        Control::Stop
    })
    .expect("a valid problem");
    assert_eq!(calls, 1, "progress was called again after it asked to stop");
    assert_eq!(problem.check(&solved.front[0]), Ok(()));
    assert!(solved.lower_bound <= solved.front[0].cost);
}

#[test]
fn progress_is_reported_once_per_component_at_least() {
    let problem = random_problem(7);
    let mut reports = Vec::new();
    let solved = solve(&problem, &exact(1), &mut |p| {
        reports.push(p.clone());
        Control::Continue
    })
    .expect("a valid problem");
    assert!(!reports.is_empty());
    let last = reports.last().expect("a report");
    assert_eq!(last.explored, solved.explored);
    assert_eq!(last.best, Some(solved.front[0].cost));
}

#[test]
fn a_malformed_problem_is_an_error_that_says_where() {
    let mut problem = random_problem(3);
    problem.reads.push(Read {
        pattern: "Get orders".into(),
        servings: vec![Serving {
            needs: vec![Need::Path(99)],
            cost: 1.0,
        }],
        scan: 2.0,
    });
    let error = solve(&problem, &exact(1), &mut |_| Control::Continue)
        .expect_err("a serving needs a path the problem lacks");
    assert_eq!(
        error.message,
        "read `Get orders` serving 0 needs Path(99), which the problem does not have"
    );
}
