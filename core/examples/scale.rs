//! How the work grows with a design's size: generated designs of 100, 1,000 and 10,000
//! entities, and the time of what `keyplan` does with each (issue 13): reading the file,
//! `check` (the analysis), sample generation, `cost`, `query`, and every export format.
//!
//! Each row prints the time at every size, the growth from the one before the last size to the
//! last (t(10,000) / t(1,000)), and the growth n log n allows between those sizes (13.3 from
//! 1,000 to 10,000: 10 for linear work, 100 for quadratic); `ok` when the row grows at most
//! that much (with a tenth of slack for noise) and its time at the last size is under 1 s.
//! A measurement repeats a fast row until it has taken 50 ms, so that short rows are not lost
//! in the clock's resolution; each row is measured a few times (five, three at 10,000
//! entities). The CPU time the thread had (on Linux) comes first, the least of the
//! measurements: a machine busy with other work does not add CPU time to a thread, but its
//! cache misses and migrations do, and only ever upwards, so the least is the figure least
//! disturbed and the one the growth is computed from. The wall-clock time follows, the median.
//!
//! Run (a release build: the figures mean nothing in debug): `scripts/bench-scale`, or
//! `cargo run --release -p keyplan-core --example scale [-- SIZES...]`.
//!
//! Other arguments pick the rows whose names contain them (`-- 1000 cost markdown`), to
//! measure one thing while working on it. `KEYPLAN_SCALE_DUMP=FILE` writes, per size and row, a
//! hash and the length of what the row computed (the Debug text of the analysis, sample, cost
//! report or query run; the export's text) to FILE: an optimisation must leave it the same.
//!
//! The rows do what the CLI does, with its allocator (jemalloc): `cost` and `query` build the
//! store from the sample (moved, not copied); `cost` computes the verdicts alone (no
//! findings), `query` only its pattern's, as `keyplan cost` and `keyplan query` do.
//!
//! The designs are [`keyplan_core::generated::design`], the one `benches/analysis.rs` uses at
//! 200 entities: one table with 20 GSIs, entities in groups of five sharing a parent partition,
//! each in one GSI by a write-sharded status, and five read patterns per entity.

use std::fmt::{Debug, Write as _};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::hint::black_box;
use std::time::{Duration, Instant};

use keyplan_core::analysis::{verdict_of, verdicts};
use keyplan_core::analyze;
use keyplan_core::eval::{self, Store};
use keyplan_core::export::{Format, export};
use keyplan_core::model::Design;
use keyplan_core::sample::{SampleConfig, generate};

/// The allocator of the `keyplan` binary (server/src/main.rs), whose commands the rows time.
#[cfg(not(target_env = "msvc"))]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// The CPU time this thread has had, from Linux's `/proc/thread-self/schedstat` (its first
/// field, in nanoseconds); `None` elsewhere. The kernel brings it up to date at the
/// scheduler's tick (4 ms here), which is why a measurement lasts at least [`MIN_MEASUREMENT`].
fn cpu_time() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(nanos))
}

/// A measurement repeats its row until it has taken this long (wall-clock).
const MIN_MEASUREMENT: Duration = Duration::from_millis(50);

/// A row's time at one size: the median wall-clock time and, where the system tells, the
/// least CPU time.
#[derive(Clone, Copy)]
struct Timing {
    wall: Duration,
    cpu: Option<Duration>,
}

/// `runs` measurements of `f`, each of as many calls as take [`MIN_MEASUREMENT`] (counted on
/// a first call, which also warms up), divided by the calls: their median wall-clock time and
/// least CPU time.
fn measure(runs: usize, f: &mut dyn FnMut()) -> Timing {
    let start = Instant::now();
    f();
    let once = start.elapsed().max(Duration::from_micros(1));
    let calls = (MIN_MEASUREMENT.as_secs_f64() / once.as_secs_f64()).ceil() as u32;
    let calls = calls.clamp(1, 100_000);
    let mut walls = Vec::with_capacity(runs);
    let mut cpus = Vec::with_capacity(runs);
    for _ in 0..runs.max(1) {
        let (start, cpu_start) = (Instant::now(), cpu_time());
        for _ in 0..calls {
            f();
        }
        walls.push(start.elapsed() / calls);
        cpus.push(
            cpu_time()
                .zip(cpu_start)
                .map(|(end, start)| (end - start) / calls),
        );
    }
    walls.sort();
    let cpus: Option<Vec<Duration>> = cpus.into_iter().collect();
    Timing {
        wall: walls[walls.len() / 2],
        cpu: cpus.and_then(|c| c.into_iter().min()),
    }
}

/// n log n at `n`.
fn n_log_n(n: usize) -> f64 {
    let n = n.max(2) as f64;
    n * n.ln()
}

/// One table of the rows' times: a column per size, then the growth from the one before the
/// last size to the last, what n log n allows, and whether the row keeps to it and to 1 s.
fn print_table(title: &str, sizes: &[usize], rows: &[(String, Vec<Duration>)]) {
    println!("{title}");
    let mut header = format!("{:<28}", "entities");
    for n in sizes {
        header.push_str(&format!(" {n:>10}"));
    }
    let allowed = match sizes {
        [.., a, b] => Some(n_log_n(*b) / n_log_n(*a)),
        _ => None,
    };
    if let (Some(allowed), [.., a, b]) = (allowed, sizes) {
        header.push_str(&format!(
            " {:>8} {:>8}",
            format!("{b}/{a}"),
            format!("nlogn {allowed:.1}")
        ));
    }
    println!("{header}");
    let mut failing = Vec::new();
    for (name, times) in rows {
        let mut line = format!("{name:<28}");
        for t in times {
            line.push_str(&format!(" {:>8.1}ms", t.as_secs_f64() * 1000.0));
        }
        if let (Some(allowed), [.., a, b]) = (allowed, &times[..]) {
            let growth = b.as_secs_f64() / a.as_secs_f64().max(1e-9);
            // A row of under a millisecond at the last size is fixed work: its growth is noise.
            let grows_ok = growth <= allowed * 1.1 || b.as_secs_f64() < 1e-3;
            let fast = b.as_secs_f64() < 1.0;
            line.push_str(&format!(
                " {growth:>7.1}x {:>8}",
                match (grows_ok, fast) {
                    (true, true) => "ok",
                    (false, true) => "GROWS",
                    (true, false) => "SLOW",
                    (false, false) => "SLOW+GROWS",
                }
            ));
            if !(grows_ok && fast) {
                failing.push(name.as_str());
            }
        }
        println!("{line}");
    }
    if allowed.is_some() {
        match failing.len() {
            0 => {
                println!("every row grows at most as n log n and takes under 1 s at the last size")
            }
            _ => println!("over n log n or 1 s: {}", failing.join(", ")),
        }
    }
}

/// `keyplan query FILE "Thing0 of parent"`: the sample moved into its store, the pattern's
/// verdict, the pattern run with inputs picked from the sample.
fn query(design: &Design) -> Option<eval::PatternRun> {
    let store = Store::build(
        design,
        generate(design, &SampleConfig::default()).into_load_items(),
    );
    let pattern = design.pattern("Thing0 of parent")?;
    let verdict = verdict_of(design, pattern);
    let inputs = eval::pick_inputs(design, &store, &verdict, pattern).ok();
    eval::run_pattern(design, &store, &verdict, inputs).ok()
}

/// `keyplan cost FILE`: the sample moved into its store, the verdicts and the estimate.
fn cost(design: &Design) -> keyplan_core::cost::CostReport {
    let store = Store::build(
        design,
        generate(design, &SampleConfig::default()).into_load_items(),
    );
    let verdicts = verdicts(design);
    keyplan_core::cost::estimate(
        design,
        &verdicts,
        &store,
        &keyplan_core::cost::CostConfig::default(),
    )
}

/// What a row computed, for `KEYPLAN_SCALE_DUMP`: a hash of the text and its length.
fn fingerprint(text: &str) -> String {
    let mut hasher = DefaultHasher::new();
    text.hash(&mut hasher);
    format!("{:016x} {}", hasher.finish(), text.len())
}

/// A row: its name, and what its command computes (kept from being optimised away, and
/// formatted only for the dump).
type Row<'d> = (String, Box<dyn Fn() -> Box<dyn Debug + 'd> + 'd>);

/// The rows for one design, each doing what its command does.
fn rows<'d>(design: &'d Design, text: &'d str) -> Vec<Row<'d>> {
    let mut rows: Vec<Row<'d>> = vec![
        (
            "read the file".to_string(),
            Box::new(move || Box::new(keyplan_core::file::parse(text))),
        ),
        (
            "check (analysis)".to_string(),
            Box::new(move || Box::new(analyze(design))),
        ),
        (
            "sample".to_string(),
            Box::new(move || Box::new(generate(design, &SampleConfig::default()))),
        ),
        ("cost".to_string(), Box::new(move || Box::new(cost(design)))),
        (
            "query".to_string(),
            Box::new(move || Box::new(query(design))),
        ),
    ];
    for format in Format::ALL {
        rows.push((
            format!("export {}", format.name()),
            Box::new(move || Box::new(export(design, format))),
        ));
    }
    rows
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
    let dump_file = std::env::var_os("KEYPLAN_SCALE_DUMP");
    let mut dump = String::new();
    let mut timings: Vec<(String, Vec<Timing>)> = Vec::new();
    for &n in &sizes {
        let design = keyplan_core::generated::design(n);
        let text = keyplan_core::file::to_string(&design);
        let runs = if n >= 10_000 { 3 } else { 5 };
        let planned = keyplan_core::sample::plan(&design, &SampleConfig::default()).total;
        eprintln!(
            "{n} entities: {} patterns, a {} KB design file, {planned} sample items",
            design.patterns.len(),
            text.len() / 1024,
        );
        for (name, compute) in rows(&design, &text) {
            if !wanted(&name) {
                continue;
            }
            if dump_file.is_some() {
                let computed = format!("{:?}", compute());
                let _ = writeln!(dump, "{n} {name}: {}", fingerprint(&computed));
            }
            let timing = measure(runs, &mut || drop(black_box(compute())));
            match timings.iter_mut().find(|(row, _)| *row == name) {
                Some((_, times)) => times.push(timing),
                None => timings.push((name, vec![timing])),
            }
        }
    }
    if let Some(file) = dump_file {
        std::fs::write(&file, dump).expect("write the KEYPLAN_SCALE_DUMP file");
    }
    let cpu: Option<Vec<(String, Vec<Duration>)>> = timings
        .iter()
        .map(|(name, times)| {
            let times: Option<Vec<Duration>> = times.iter().map(|t| t.cpu).collect();
            Some((name.clone(), times?))
        })
        .collect();
    if let Some(cpu) = cpu {
        print_table(
            "CPU time (this thread's, from /proc/thread-self/schedstat; the least of the runs)",
            &sizes,
            &cpu,
        );
        println!();
    }
    let wall: Vec<(String, Vec<Duration>)> = timings
        .iter()
        .map(|(name, times)| (name.clone(), times.iter().map(|t| t.wall).collect()))
        .collect();
    print_table("wall-clock time (median)", &sizes, &wall);
}
