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
//! entities). The CPU time the process's threads had (on Linux) comes first, the least of the
//! measurements: a machine busy with other work does not add CPU time to a thread, but its
//! cache misses and migrations do, and only ever upwards, so the least is the figure least
//! disturbed. The wall-clock time follows, the median: what a user waits for. With core's
//! `parallel` feature, which `scripts/bench-scale` builds with as the CLI does, a row's work is
//! spread over the cores, so its wall-clock time can be below its CPU time (which counts rayon's
//! threads too, their waiting for work included).
//!
//! Times on a shared machine are not steady (another process's cache misses add CPU time
//! too: the same build's `cost` at 10,000 entities took 1.39 s and 1.73 s of CPU in two runs
//! here), so `--instructions` counts the work instead: each row's instructions under valgrind's
//! callgrind, one call per row in a child process per size, collected only inside the call
//! ([`keyplan_scale_counted`]). The count is the same on a busy machine as on an idle one
//! (within 0.1%: hash seeds differ), so its growth is the work's; it takes about 50 times as
//! long as the row (20 minutes for seven rows at 1,000 and 10,000 entities on the shared
//! 2-core machine).
//!
//! Run (a release build: the figures mean nothing in debug): `scripts/bench-scale`, or
//! `cargo run --release -p keyplan-core --features parallel --example scale [-- SIZES...]`;
//! `scripts/bench-scale --instructions 1000 10000` for the counts.
//!
//! Other arguments pick the rows whose names contain them (`-- 1000 cost markdown`), to
//! measure one thing while working on it. `KEYPLAN_SCALE_DUMP=FILE` writes, per size and row, a
//! hash and the length of what the row computed (the Debug text of the analysis, sample, cost
//! report or query run; the export's text) to FILE: an optimisation must leave it the same.
//! With `--once` (`scale --once 1000 10000 cost markdown`) it writes them without timing.
//!
//! The rows do what the CLI does, with its allocator (jemalloc): `cost` and `query` build the
//! store from the sample (moved, not copied); `cost` computes the verdicts alone (no
//! findings, no reasons), `query` only its pattern's, as `keyplan cost` and `keyplan query` do.
//!
//! The designs are [`keyplan_core::generated::design`], the one `benches/analysis.rs` uses at
//! 200 entities: one table with 20 GSIs, entities in groups of five sharing a parent partition,
//! each in one GSI by a write-sharded status, and five read patterns per entity.

use std::fmt::{Debug, Write as _};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::hint::black_box;
use std::time::{Duration, Instant};

use keyplan_core::analysis::verdict_of;
use keyplan_core::analyze;
use keyplan_core::eval::{self, ItemStore};
use keyplan_core::export::{Target, export};
use keyplan_core::model::Design;
use keyplan_core::sample::{SampleConfig, generate};

/// The allocator of the `keyplan` binary (server/src/main.rs), whose commands the rows time.
#[cfg(not(target_env = "msvc"))]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// The CPU time this process's threads have had, from Linux's
/// `/proc/self/task/*/schedstat` (each one's first field, in nanoseconds); `None` elsewhere.
/// Every thread's, not only this one's: with core's `parallel` feature (the CLI's) a row's work
/// is shared with rayon's threads, which stay alive between rows. The kernel brings the
/// figures up to date at the scheduler's tick (4 ms here), which is why a measurement lasts at
/// least [`MIN_MEASUREMENT`].
fn cpu_time() -> Option<Duration> {
    let mut total = Duration::ZERO;
    for task in std::fs::read_dir("/proc/self/task").ok()? {
        let text = std::fs::read_to_string(task.ok()?.path().join("schedstat")).ok()?;
        let nanos = text.split_whitespace().next()?.parse().ok()?;
        total += Duration::from_nanos(nanos);
    }
    Some(total)
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

/// What a table's figures are: times in seconds (a row must keep under 1 s at the last size),
/// or counts of instructions.
#[derive(Clone, Copy, PartialEq)]
enum Unit {
    Seconds,
    Instructions,
}

impl Unit {
    fn cell(self, figure: f64) -> String {
        match self {
            Unit::Seconds => format!(" {:>8.1}ms", figure * 1000.0),
            Unit::Instructions => format!(" {:>9.1}M", figure / 1e6),
        }
    }

    /// A row this small at the last size is fixed work: its growth is noise (a millisecond),
    /// or setting up (a million instructions).
    fn negligible(self, figure: f64) -> bool {
        match self {
            Unit::Seconds => figure < 1e-3,
            Unit::Instructions => figure < 1e6,
        }
    }
}

/// One table of the rows' figures: a column per size, then the growth from the one before the
/// last size to the last, what n log n allows, and whether the row keeps to it and (for times)
/// to 1 s.
fn print_table(title: &str, unit: Unit, sizes: &[usize], rows: &[(String, Vec<f64>)]) {
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
    for (name, figures) in rows {
        let mut line = format!("{name:<28}");
        for &figure in figures {
            line.push_str(&unit.cell(figure));
        }
        if let (Some(allowed), [.., a, b]) = (allowed, &figures[..]) {
            let growth = b / a.max(1e-9);
            let grows_ok = growth <= allowed * 1.1 || unit.negligible(*b);
            let fast = unit == Unit::Instructions || *b < 1.0;
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
        match (failing.len(), unit) {
            (0, Unit::Seconds) => {
                println!("every row grows at most as n log n and takes under 1 s at the last size")
            }
            (0, Unit::Instructions) => println!("every row grows at most as n log n"),
            (_, Unit::Seconds) => println!("over n log n or 1 s: {}", failing.join(", ")),
            (_, Unit::Instructions) => println!("over n log n: {}", failing.join(", ")),
        }
    }
}

/// `keyplan query FILE "Thing0 of parent"`: the sample moved into its store, the pattern's
/// verdict, the pattern run with inputs picked from the sample.
fn query(design: &Design) -> Option<eval::PatternRun> {
    let store = ItemStore::build(
        design,
        generate(design, &SampleConfig::default()).into_load_items(),
    );
    let pattern = design.pattern("Thing0 of parent")?;
    let verdict = verdict_of(design, pattern);
    let inputs = eval::pick_inputs(design, &store, &verdict, pattern).ok();
    eval::run_pattern(design, &store, &verdict, inputs).ok()
}

/// `keyplan cost FILE`: the sample moved into its store, the verdicts (without their
/// reasons) and the estimate.
fn cost(design: &Design) -> keyplan_core::cost::CostReport {
    keyplan_core::cost::estimate_sampled(
        design,
        &SampleConfig::default(),
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
            Box::new(move || Box::new(keyplan_core::import::detect_and_import_as(text))),
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
    for format in Target::ALL {
        rows.push((
            format!("export {}", format.name()),
            Box::new(move || Box::new(export(design, format))),
        ));
    }
    rows
}

/// Calls `f` once, the only code the instruction count (`--instructions`) counts: callgrind
/// collects from entering this function to leaving it, and writes a count on each leaving.
#[inline(never)]
fn keyplan_scale_counted(f: &mut dyn FnMut()) {
    f();
}

/// `--once`, the child of `--instructions`: each row computed once, in [`keyplan_scale_counted`],
/// its name printed after it.
/// With `KEYPLAN_SCALE_DUMP=FILE`, the rows' fingerprints are written to FILE as the timing
/// writes them, each computed once more outside the count: a check that an optimisation
/// changed no output, in seconds instead of the timing's minutes.
fn once(sizes: &[usize], wanted: &dyn Fn(&str) -> bool) {
    // Callgrind counts the thread that enters `keyplan_scale_counted`: with `parallel`, rayon's
    // pool is this thread alone, so that every instruction of a row is counted.
    #[cfg(feature = "parallel")]
    rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .use_current_thread()
        .build_global()
        .expect("the only thread pool of this process");
    let dump_file = std::env::var_os("KEYPLAN_SCALE_DUMP");
    let mut dump = String::new();
    for &n in sizes {
        let design = keyplan_core::generated::design(n);
        let text = keyplan_core::file::to_string(&design);
        for (name, compute) in rows(&design, &text) {
            if wanted(&name) {
                keyplan_scale_counted(&mut || drop(black_box(compute())));
                println!("{n}\t{name}");
                if dump_file.is_some() {
                    let computed = format!("{:?}", compute());
                    let _ = writeln!(dump, "{n} {name}: {}", fingerprint(&computed));
                }
            }
        }
    }
    if let Some(file) = dump_file {
        std::fs::write(&file, dump).expect("write the KEYPLAN_SCALE_DUMP file");
    }
}

/// `--instructions`: every row's instructions, counted by valgrind's callgrind in a child
/// process (`--once`) per size: the same count on a busy machine as on an idle one, so its
/// growth is the work's, not the machine's. About 50 times slower than the timing.
fn instructions(sizes: &[usize], picks: &[&String]) -> Result<Vec<(String, Vec<f64>)>, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?;
    let dir = std::env::temp_dir().join(format!("keyplan-scale-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let counted = count_instructions(&exe, &dir, sizes, picks);
    let _ = std::fs::remove_dir_all(&dir);
    counted
}

/// [`instructions`], its files written in `dir`.
fn count_instructions(
    exe: &std::path::Path,
    dir: &std::path::Path,
    sizes: &[usize],
    picks: &[&String],
) -> Result<Vec<(String, Vec<f64>)>, String> {
    let mut rows: Vec<(String, Vec<f64>)> = Vec::new();
    for &n in sizes {
        let out_file = dir.join(format!("callgrind.{n}"));
        let output = std::process::Command::new("valgrind")
            .arg("--tool=callgrind")
            .arg("--collect-atstart=no")
            .arg("--toggle-collect=*keyplan_scale_counted*")
            .arg("--dump-after=scale::keyplan_scale_counted")
            .arg(format!("--callgrind-out-file={}", out_file.display()))
            .arg(exe)
            .arg("--once")
            .arg(n.to_string())
            .args(picks)
            .output()
            .map_err(|e| format!("cannot run valgrind (is it installed?): {e}"))?;
        if !output.status.success() {
            return Err(format!(
                "valgrind failed at {n} entities: {}",
                String::from_utf8_lossy(&output.stderr)
            ));
        }
        let names: Vec<String> = String::from_utf8_lossy(&output.stdout)
            .lines()
            .filter_map(|line| line.split_once('\t').map(|(_, name)| name.to_string()))
            .collect();
        for (part, name) in names.into_iter().enumerate() {
            let file = format!("{}.{}", out_file.display(), part + 1);
            let text = std::fs::read_to_string(&file).map_err(|e| format!("{file}: {e}"))?;
            let count: f64 = text
                .lines()
                .find_map(|l| {
                    l.strip_prefix("totals:")
                        .or_else(|| l.strip_prefix("summary:"))
                })
                .and_then(|t| t.split_whitespace().next()?.parse().ok())
                .ok_or_else(|| format!("{file} has no instruction total"))?;
            match rows.iter_mut().find(|(row, _)| *row == name) {
                Some((_, counts)) => counts.push(count),
                None => rows.push((name, vec![count])),
            }
        }
    }
    Ok(rows)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let sizes: Vec<usize> = args.iter().filter_map(|a| a.parse().ok()).collect();
    let flag = |name: &str| args.iter().any(|a| a == name);
    let only: Vec<&String> = args
        .iter()
        .filter(|a| a.parse::<usize>().is_err() && !a.starts_with("--"))
        .collect();
    let wanted = |name: &str| only.is_empty() || only.iter().any(|o| name.contains(o.as_str()));
    let sizes = if sizes.is_empty() {
        vec![100, 1_000, 10_000]
    } else {
        sizes
    };
    if flag("--once") {
        once(&sizes, &wanted);
        return;
    }
    if flag("--instructions") {
        match instructions(&sizes, &only) {
            Ok(rows) => print_table(
                "instructions (valgrind's callgrind: the same count however busy the machine is)",
                Unit::Instructions,
                &sizes,
                &rows,
            ),
            Err(message) => {
                eprintln!("error: {message}");
                std::process::exit(1);
            }
        }
        return;
    }
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
    let cpu: Option<Vec<(String, Vec<f64>)>> = timings
        .iter()
        .map(|(name, times)| {
            let times: Option<Vec<f64>> = times
                .iter()
                .map(|t| t.cpu.map(|c| c.as_secs_f64()))
                .collect();
            Some((name.clone(), times?))
        })
        .collect();
    if let Some(cpu) = cpu {
        print_table(
            "CPU time (all the threads', from /proc/self/task/*/schedstat; the least of the runs)",
            Unit::Seconds,
            &sizes,
            &cpu,
        );
        println!();
    }
    let wall: Vec<(String, Vec<f64>)> = timings
        .iter()
        .map(|(name, times)| {
            let times = times.iter().map(|t| t.wall.as_secs_f64()).collect();
            (name.clone(), times)
        })
        .collect();
    print_table("wall-clock time (median)", Unit::Seconds, &sizes, &wall);
}
