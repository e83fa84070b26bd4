//! How the work grows with a design's size: generated designs of 100, 1,000 and 10,000
//! entities, and the time of what `keyplan` does with each (issue 13): reading the file,
//! `check` (the analysis), sample generation, `cost`, `query`, and every export format. The
//! last column is the time at 10,000 divided by the time at 1,000: about 10 for linear work,
//! about 13 for n log n, 100 for quadratic. Each time is printed twice: wall-clock, and the CPU
//! time the thread had (on Linux), which a machine busy with other work does not inflate; the
//! kernel counts it at the scheduler's tick (4 ms here), so rows of a few ms read 0 or 4.
//!
//! Run (a release build: the figures mean nothing in debug): `scripts/bench-scale`, or
//! `cargo run --release -p keyplan-core --example scale [-- SIZES...]`.
//!
//! Other arguments pick the rows whose names contain them (`-- 1000 cost markdown`), to
//! measure one thing while working on it.
//!
//! The designs are [`keyplan_core::generated::design`], the one `benches/analysis.rs` uses at
//! 200 entities: one table with 20 GSIs, entities in groups of five sharing a parent partition,
//! each in one GSI by a write-sharded status, and five read patterns per entity. Each time is
//! the best of a few runs (one at 10,000).

use std::hint::black_box;
use std::time::{Duration, Instant};

use keyplan_core::analyze;
use keyplan_core::eval::{self, Store};
use keyplan_core::export::{Format, export};
use keyplan_core::model::Design;
use keyplan_core::sample::{SampleConfig, generate};

/// The CPU time this thread has had, from Linux's `/proc/thread-self/schedstat` (its first
/// field, in nanoseconds); `None` elsewhere.
fn cpu_time() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(nanos))
}

/// A measurement: the wall-clock time and, where the system tells, the CPU time (which a
/// busy machine does not inflate by the time the thread waits for a core).
#[derive(Clone, Copy)]
struct Timing {
    wall: Duration,
    cpu: Option<Duration>,
}

/// The best of `runs` timings of `f`, wall-clock and CPU time each.
fn best(runs: usize, f: &mut dyn FnMut()) -> Timing {
    let timings: Vec<Timing> = (0..runs.max(1))
        .map(|_| {
            let (start, cpu_start) = (Instant::now(), cpu_time());
            f();
            let wall = start.elapsed();
            let cpu = cpu_time().zip(cpu_start).map(|(end, start)| end - start);
            Timing { wall, cpu }
        })
        .collect();
    Timing {
        wall: timings.iter().map(|t| t.wall).min().unwrap_or_default(),
        cpu: timings.iter().map(|t| t.cpu).min().flatten(),
    }
}

/// One table of the rows' times: a column per size and the growth from the one before the
/// last to the last.
fn print_table(title: &str, sizes: &[usize], rows: &[(String, Vec<Duration>)]) {
    println!("{title}");
    let mut header = format!("{:<30}", "entities");
    for n in sizes {
        header.push_str(&format!(" {n:>10}"));
    }
    if sizes.len() >= 2 {
        header.push_str(&format!(" {:>8}", "growth"));
    }
    println!("{header}");
    for (name, times) in rows {
        let mut line = format!("{name:<30}");
        for t in times {
            line.push_str(&format!(" {:>8.1}ms", t.as_secs_f64() * 1000.0));
        }
        if let [.., a, b] = times[..] {
            line.push_str(&format!(
                " {:>7.1}x",
                b.as_secs_f64() / a.as_secs_f64().max(1e-9)
            ));
        }
        println!("{line}");
    }
}

/// `keyplan query FILE "Thing0 of parent"`: the sample, its store, the analysis, one pattern.
fn query(design: &Design) -> usize {
    let store = Store::build(
        design,
        generate(design, &SampleConfig::default()).into_load_items(),
    );
    let analysis = analyze(design);
    let Some(verdict) = analysis
        .verdicts
        .iter()
        .find(|v| v.pattern == "Thing0 of parent")
    else {
        return 0;
    };
    let Some(pattern) = design.pattern(&verdict.pattern) else {
        return 0;
    };
    let inputs = eval::pick_inputs(design, &store, verdict, pattern).ok();
    eval::run_pattern(design, &store, verdict, inputs).map_or(0, |run| run.result.items.len())
}

/// `keyplan cost FILE`: the sample, its store, the analysis and the estimate.
fn cost(design: &Design) -> usize {
    let store = Store::build(
        design,
        generate(design, &SampleConfig::default()).into_load_items(),
    );
    let analysis = analyze(design);
    keyplan_core::cost::estimate(
        design,
        &analysis.verdicts,
        &store,
        &keyplan_core::cost::CostConfig::default(),
    )
    .patterns
    .len()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let sizes: Vec<usize> = args.iter().filter_map(|a| a.parse().ok()).collect();
    let only: Vec<&String> = args
        .iter()
        .filter(|a| a.parse::<usize>().is_err())
        .collect();
    let wanted = |name: &str| only.is_empty() || only.iter().any(|o| name.contains(o.as_str()));
    let sizes = if sizes.is_empty() {
        vec![100, 1_000, 10_000]
    } else {
        sizes
    };
    let mut rows: Vec<(String, Vec<Timing>)> = Vec::new();
    let mut record = |name: &str, time: Timing| match rows.iter_mut().find(|(n, _)| n == name) {
        Some((_, times)) => times.push(time),
        None => rows.push((name.to_string(), vec![time])),
    };
    // Times `f` when its row is wanted.
    let mut measure = |name: &str, runs: usize, f: &mut dyn FnMut()| {
        if wanted(name) {
            record(name, best(runs, f));
        }
    };
    for &n in &sizes {
        let design = keyplan_core::generated::design(n);
        let text = keyplan_core::file::to_string(&design);
        let runs = if n >= 10_000 { 1 } else { 3 };
        eprintln!(
            "{n} entities: {} patterns, a {} KB design file, {} sample items",
            design.patterns.len(),
            text.len() / 1024,
            generate(&design, &SampleConfig::default()).items.len()
        );
        measure("read the file", runs, &mut || {
            let _ = black_box(keyplan_core::file::parse(&text));
        });
        measure("check (analysis)", runs, &mut || {
            black_box(analyze(&design));
        });
        measure("sample", runs, &mut || {
            black_box(generate(&design, &SampleConfig::default()));
        });
        measure("cost", runs, &mut || {
            black_box(cost(&design));
        });
        measure("query", runs, &mut || {
            black_box(query(&design));
        });
        for format in Format::ALL {
            measure(&format!("export {}", format.name()), runs, &mut || {
                let _ = black_box(export(&design, format));
            });
        }
    }
    let wall: Vec<(String, Vec<Duration>)> = rows
        .iter()
        .map(|(name, times)| (name.clone(), times.iter().map(|t| t.wall).collect()))
        .collect();
    print_table("wall-clock time", &sizes, &wall);
    let cpu: Option<Vec<(String, Vec<Duration>)>> = rows
        .iter()
        .map(|(name, times)| {
            let times: Option<Vec<Duration>> = times.iter().map(|t| t.cpu).collect();
            Some((name.clone(), times?))
        })
        .collect();
    if let Some(cpu) = cpu {
        println!();
        print_table(
            "CPU time (this thread's, from /proc/thread-self/schedstat)",
            &sizes,
            &cpu,
        );
    }
    println!("growth: the time at the last size / the time at the one before");
}
