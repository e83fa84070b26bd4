//! Benchmark (issue 37): `keyplan design` against the hand designs. For the built-in examples
//! and the shared corpus's awslabs/mcp designs, each stripped of every key and index
//! (`synth::strip`), prints the hand design's monthly cost beside the proposal's (both by the
//! cost model `keyplan cost` uses, `synth::figures`), indexes beside, reads served (hand,
//! proposal, and whether the proposal serves every read the hand one does), the engine run,
//! the search's time and gap; then generated designs of 20 entities x 60 patterns and 100 x 400
//! (`generated::with_patterns`), with a progress line on stderr. Run with
//! `scripts/design-bench [CORPUS]` (a release build); the corpus is the argument, else
//! `$KEYPLAN_CORPUS`, else `../shared/corpus` beside the checkout. `KEYPLAN_BENCH_SAVE=DIR`
//! writes each stripped input there, named after its design, to rerun one as `keyplan design`.

use std::path::{Path, PathBuf};
use std::time::Instant;

use keyplan_core::Design;
use keyplan_core::synth::{self, Control, Options, Progress, figures, strip::strip};
use keyplan_server::design_io::Budget;
use keyplan_server::engine::{Engine, Engines, EnginesConfig};
use keyplan_server::synthesis::Prover;
use tokio_util::sync::CancellationToken;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let engines = Engines::start(&EnginesConfig {
        embedded: true,
        ..Default::default()
    })
    .await?;
    let engine = engines.get(None)?.clone();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");

    println!(
        "{:<44} {:>11} {:>11} {:>5} {:>5} {:>7} {:>7} {:>5} {:>6} {:>8} {:>6}",
        "design (stripped)",
        "hand $/mo",
        "prop $/mo",
        "h.idx",
        "p.idx",
        "h.reads",
        "p.reads",
        "all?",
        "engine",
        "time ms",
        "gap %"
    );
    // The built-in examples are examples/*.keyplan.json, by slug.
    let mut designs: Vec<(String, Design)> = keyplan_core::examples::all()
        .into_iter()
        .map(|(slug, design)| (slug.to_string(), design))
        .collect();
    designs.extend(corpus(std::env::args().nth(1).map(PathBuf::from), &root));
    let (mut cheaper, mut all_served, mut proven) = (0, 0, 0);
    let total = designs.len();
    for (name, hand) in designs {
        let row = bench(&engine, &name, &hand, false).await;
        cheaper += usize::from(row.cost <= row.hand_cost + 0.005);
        all_served += usize::from(row.missing.is_empty());
        proven += usize::from(row.engine_ok);
        row.print(&name);
        for read in &row.missing {
            println!("    not served, which the hand design serves: `{read}`");
        }
    }
    println!(
        "as cheap or cheaper: {cheaper}/{total}; every read the hand design serves: {all_served}/{total}; engine runs passed: {proven}/{total}"
    );
    for (entities, patterns) in [(20, 60), (100, 400)] {
        let hand = keyplan_core::generated::with_patterns(entities, patterns);
        let name = format!("generated {entities}x{patterns}");
        bench(&engine, &name, &hand, true).await.print(&name);
    }
    Ok(())
}

/// One row's figures.
struct Row {
    hand_cost: f64,
    cost: f64,
    hand_indexes: usize,
    indexes: usize,
    hand_served: usize,
    served: usize,
    reads: usize,
    /// Reads the hand design serves and the proposal does not.
    missing: Vec<String>,
    engine_ok: bool,
    ms: f64,
    gap: f64,
}

impl Row {
    fn print(&self, name: &str) {
        println!(
            "{:<44} {:>11.2} {:>11.2} {:>5} {:>5} {:>7} {:>7} {:>5} {:>6} {:>8.0} {:>6.1}",
            name,
            self.hand_cost,
            self.cost,
            self.hand_indexes,
            self.indexes,
            format!("{}/{}", self.hand_served, self.reads),
            format!("{}/{}", self.served, self.reads),
            if self.missing.is_empty() { "yes" } else { "NO" },
            if self.engine_ok { "ok" } else { "FAILED" },
            self.ms,
            self.gap
        );
    }
}

async fn bench(engine: &Engine, name: &str, hand: &Design, show_progress: bool) -> Row {
    if let Some(dir) = std::env::var_os("KEYPLAN_BENCH_SAVE") {
        // The stripped input, to rerun one row as `keyplan design FILE`.
        let path = Path::new(&dir).join(format!(
            "{}.keyplan.json",
            name.trim_end_matches(".json").replace(' ', "-")
        ));
        if let Err(e) = std::fs::write(&path, keyplan_core::file::to_string(&strip(hand))) {
            eprintln!("cannot write {}: {e}", path.display());
        }
    }
    let hand_figures = figures(hand.clone(), Vec::new(), Vec::new());
    let started = Instant::now();
    // A line per whole percent of the budget, not per report.
    let mut shown = u64::MAX;
    let mut progress = |p: &Progress| {
        let percent = p.explored * 100 / p.budget.max(1);
        if show_progress && percent != shown {
            shown = percent;
            let best = p.best.map_or("-".to_string(), |b| format!("{b:.2}"));
            eprint!(
                "\r  searching: {}/{} nodes, best ${best}, bound ${:.2}   ",
                p.explored, p.budget, p.bound
            );
        }
        Control::Continue
    };
    let synthesis = synth::propose(&strip(hand), &Options::default(), &mut progress);
    let ms = started.elapsed().as_secs_f64() * 1000.0;
    if show_progress {
        eprintln!();
    }
    let synthesis = match synthesis {
        Ok(s) => s,
        Err(e) => {
            println!("  no proposal: {e}");
            return Row {
                hand_cost: hand_figures.monthly_cost,
                cost: f64::NAN,
                hand_indexes: hand_figures.indexes,
                indexes: 0,
                hand_served: hand_figures.reads_served,
                served: 0,
                reads: hand_figures.reads,
                missing: vec![e.to_string()],
                engine_ok: false,
                ms,
                gap: f64::NAN,
            };
        }
    };
    let gap = synthesis.gap_percent;
    let proposal = synthesis.proposals.first().cloned();
    let prover = Prover {
        engine,
        sample: &keyplan_core::sample::SampleConfig::default(),
        budget: Budget::default(),
    };
    let answer = prover.prove(synthesis, &CancellationToken::new()).await;
    let engine_ok = answer.proposals.first().is_some_and(|p| p.rank == 1);
    if let Some(rejected) = answer.rejected.first() {
        println!("  engine refused: {}", rejected.engine.first_reason());
    }
    let proposal = proposal.unwrap_or_else(|| figures(hand.clone(), Vec::new(), Vec::new()));
    Row {
        hand_cost: hand_figures.monthly_cost,
        cost: proposal.monthly_cost,
        hand_indexes: hand_figures.indexes,
        indexes: proposal.indexes,
        hand_served: hand_figures.reads_served,
        served: proposal.reads_served,
        reads: hand_figures.reads,
        missing: missing(hand, &proposal.design),
        engine_ok,
        ms,
        gap,
    }
}

/// The reads `hand` serves by GetItem or Query and `proposed` does not.
fn missing(hand: &Design, proposed: &Design) -> Vec<String> {
    let served = |design: &Design| -> Vec<String> {
        keyplan_core::coverage::verdicts(design)
            .into_iter()
            .filter(|v| v.covered && design.pattern(&v.pattern).is_some_and(|p| p.is_read()))
            .map(|v| v.pattern)
            .collect()
    };
    let proposed = served(proposed);
    served(hand)
        .into_iter()
        .filter(|read| !proposed.contains(read))
        .collect()
}

/// The awslabs/mcp designs of the corpus (`*_schema.json` under `mcp-data-model`), imported;
/// none, said on stderr, when there is no corpus.
fn corpus(arg: Option<PathBuf>, root: &Path) -> Vec<(String, Design)> {
    let found = arg
        .or_else(|| std::env::var_os("KEYPLAN_CORPUS").map(PathBuf::from))
        .into_iter()
        .chain([
            root.join("../shared/corpus"),
            root.join("../../shared/corpus"),
        ])
        .map(|dir| dir.join("mcp-data-model"))
        .find(|dir| dir.is_dir());
    let Some(dir) = found else {
        eprintln!("no corpus found (give its path, or set KEYPLAN_CORPUS): examples only");
        return Vec::new();
    };
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|entries| entries.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    paths.retain(|p| p.to_string_lossy().ends_with("_schema.json"));
    paths.sort();
    paths
        .into_iter()
        .filter_map(|path| {
            let text = std::fs::read_to_string(&path).ok()?;
            match keyplan_core::import::detect_and_import(&text) {
                Ok(imported) => Some((name_of(&path), imported.design)),
                Err(e) => {
                    eprintln!("{}: not read: {e}", path.display());
                    None
                }
            }
        })
        .collect()
}

fn name_of(path: &Path) -> String {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name = name.trim_start_matches("valid_schemas__");
    name.split("__").last().unwrap_or(name).to_string()
}
