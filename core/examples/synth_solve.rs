//! The synthesis solver on random problems of the shape `synth::candidates` makes (issue 37):
//! 20 entities and 60 reads, and 100 entities and 400 reads, in both index counts. Each entity
//! has 3 to 6 possible primary keys; each read belongs to an entity and has 2 to 4 servings: by
//! one of its entity's primary keys, by one of 1 to 3 GSI or LSI memberships of its own, or,
//! for a read of related entities, by the primary keys of both (an item collection). Costs are
//! monthly USD of the sizes keyplan's cost model gives: a key's writes and storage a few
//! dollars, a Scan tens to thousands.
//!
//! Prints one row per problem: its size, the time the solve took, the nodes explored, the
//! cheapest cost, the proven bound and the gap, and whether it was proven optimal.
//!
//! Run: `cargo run --release -p keyplan-core --example synth_solve` (the times mean little in
//! debug); `-- 1000` sets the node budget (default: `Options::default()`'s), `-- 1000 5` also
//! the most GSIs a table may have (default 20: the tighter, the harder).

use std::time::Instant;

use keyplan_core::synth::problem::{
    Choice, Group, IndexCount, Need, OptionRef, Path, PathKind, Problem, Read, Serving,
};
use keyplan_core::synth::solve::solve;
use keyplan_core::synth::{Control, Options};

/// A random problem of `entities` groups and `reads` reads, from `seed`.
fn problem(entities: usize, reads: usize, count: IndexCount, max_gsis: u32, seed: u64) -> Problem {
    let mut rng = oorandom::Rand64::new(seed.into());
    let mut uniform = |low: f64, high: f64| low + (high - low) * rng.rand_float();
    let mut groups = Vec::new();
    for e in 0..entities {
        let n_options = 3 + (uniform(0.0, 4.0) as usize).min(3);
        let base = uniform(0.5, 20.0);
        groups.push(Group {
            entity: format!("Entity{e}"),
            table: 0,
            options: (0..n_options)
                .map(|o| Choice {
                    // The first key is the plainest; sharded or composite ones cost a little more.
                    cost: base * (1.0 + 0.1 * o as f64 * uniform(0.0, 1.0)),
                })
                .collect(),
        });
    }
    let mut paths: Vec<Path> = Vec::new();
    let mut all_reads = Vec::new();
    for r in 0..reads {
        let group = (uniform(0.0, entities as f64) as usize).min(entities - 1);
        let n_options = groups[group].options.len();
        let pick_option = |x: f64| OptionRef {
            group,
            option: ((x * n_options as f64) as usize).min(n_options - 1),
        };
        let scan = uniform(20.0, 3000.0);
        let mut servings = Vec::new();
        let n_servings = 2 + (uniform(0.0, 3.0) as usize).min(2);
        let n_paths = 1 + (uniform(0.0, 3.0) as usize).min(2);
        for s in 0..n_servings {
            let read_cost = uniform(0.05, 8.0);
            if s < n_paths {
                let lsi = uniform(0.0, 1.0) < 0.15;
                let requires = lsi.then(|| pick_option(uniform(0.0, 1.0)));
                paths.push(Path {
                    group,
                    kind: if lsi { PathKind::Lsi } else { PathKind::Gsi },
                    // Entities with the same key attributes share an index (natural style).
                    index: uniform(0.0, 24.0) as u32,
                    cost: groups[group].options[0].cost * uniform(0.3, 1.2),
                    requires,
                });
                servings.push(Serving {
                    needs: vec![Need::Path(paths.len() - 1)],
                    cost: read_cost,
                });
            } else if uniform(0.0, 1.0) < 0.3 && entities > 1 {
                // Read with a related entity: both in one item collection.
                let other = (uniform(0.0, entities as f64) as usize).min(entities - 1);
                let other_options = groups[other].options.len();
                let mut needs = vec![Need::Option(pick_option(uniform(0.0, 1.0)))];
                if other != group {
                    needs.push(Need::Option(OptionRef {
                        group: other,
                        option: (uniform(0.0, other_options as f64) as usize)
                            .min(other_options - 1),
                    }));
                }
                servings.push(Serving {
                    needs,
                    cost: read_cost,
                });
            } else {
                servings.push(Serving {
                    needs: vec![Need::Option(pick_option(uniform(0.0, 1.0)))],
                    cost: read_cost,
                });
            }
        }
        all_reads.push(Read {
            pattern: format!("Read{r}"),
            servings,
            scan,
        });
    }
    Problem {
        groups,
        paths,
        reads: all_reads,
        count,
        max_gsis,
    }
}

fn main() {
    let budget = std::env::args()
        .nth(1)
        .and_then(|b| b.parse().ok())
        .unwrap_or(Options::default().budget);
    let max_gsis = std::env::args()
        .nth(2)
        .and_then(|b| b.parse().ok())
        .unwrap_or(Options::default().max_gsis);
    let options = Options {
        budget,
        ..Options::default()
    };
    println!(
        "{:>8} {:>6} {:>11} {:>4} {:>9} {:>8} {:>12} {:>12} {:>8} optimal",
        "entities", "reads", "count", "seed", "seconds", "nodes", "cost", "bound", "gap %"
    );
    for (entities, reads) in [(20, 60), (100, 400)] {
        for count in [IndexCount::Overloaded, IndexCount::Distinct] {
            for seed in 1..=3 {
                let problem = problem(entities, reads, count, max_gsis, seed);
                let started = Instant::now();
                let solved = match solve(&problem, &options, &mut |_| Control::Continue) {
                    Ok(solved) => solved,
                    Err(error) => {
                        println!("{entities:>8} {reads:>6} error: {error}");
                        continue;
                    }
                };
                let seconds = started.elapsed().as_secs_f64();
                println!(
                    "{entities:>8} {reads:>6} {:>11} {seed:>4} {seconds:>9.3} {:>8} {:>12.2} {:>12.2} {:>8.3} {}",
                    format!("{count:?}"),
                    solved.explored,
                    solved.front[0].cost,
                    solved.lower_bound,
                    solved.gap_percent(),
                    solved.optimal
                );
            }
        }
    }
}
