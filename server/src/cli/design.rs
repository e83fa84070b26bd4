//! `keyplan design FILE`: proposes the keys and indexes of a design from its access patterns
//! (issue 37), proves each proposal on an engine before it is shown, and prints them with
//! their figures and reasons, or writes them as design files (`-o`).
//!
//! The search is core's (`keyplan_core::synth::propose`), bounded by `--budget` nodes, never
//! by time; it runs off the async threads. On a terminal a progress line on stderr shows the
//! nodes explored, the best cost and the bound; the first Ctrl-C stops the search and the best
//! so far is proven and printed with its gap, a second one stops the engine run too. The proof
//! is [`crate::synthesis`]'s: a proposal that fails on the engine is not presented (the output
//! says which pattern and why), and the exit code is 1 when none passes.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use keyplan_core::counts::plural;
use keyplan_core::pricing::dollars;
use keyplan_core::synth::{self, Control, Options, Progress, Style};
use tokio_util::sync::CancellationToken;

use crate::design_io::{Budget, print, read_design};
use crate::engine::Engines;
use crate::synthesis::{Answer, Prover};

use keyplan_core::synth::{MAX_ALTERNATIVES, MAX_BUDGET};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The design file: its entities, attributes and patterns; keys and indexes it fixes are
    /// kept, the rest is proposed.
    pub file: PathBuf,
    #[command(flatten)]
    pub from: crate::design_io::From,
    /// The naming style: `single-table` (PK/SK, prefixed templates, overloaded GSIs) or
    /// `natural` (natural attribute names, multi-attribute GSI keys).
    #[arg(long, default_value = "single-table", value_parser = parse_style, env = "KEYPLAN_STYLE")]
    pub style: Style,
    /// The most GSIs a table may have.
    #[arg(long = "max-gsis", value_name = "N", default_value_t = Options::default().max_gsis,
          value_parser = clap::value_parser!(u32).range(0..=keyplan_core::limits::MAX_GSIS as i64))]
    pub max_gsis: u32,
    /// How many designs of the Pareto front of (monthly cost, indexes) to propose.
    #[arg(long, value_name = "K", default_value_t = 1,
          value_parser = clap::value_parser!(u64).range(1..=MAX_ALTERNATIVES as u64))]
    pub alternatives: u64,
    /// Search nodes to explore before stopping with the best found and its gap.
    #[arg(long, value_name = "NODES", default_value_t = Options::default().budget,
          value_parser = clap::value_parser!(u64).range(1..=MAX_BUDGET))]
    pub budget: u64,
    /// Print the proposals, their engine runs and the bound as one JSON document.
    #[arg(long)]
    pub json: bool,
    /// Write the cheapest proven proposal as a design file; with `--alternatives` above 1, a
    /// folder where each goes as `<name>.<rank>.keyplan.json`.
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    pub engine: super::engine_choice::EngineChoice,
    /// The proof's sample.
    #[command(flatten)]
    pub sample: crate::design_io::SampleArgs,
    #[command(flatten)]
    pub max_items: Budget,
}

fn parse_style(text: &str) -> Result<Style, String> {
    text.parse()
}

pub async fn run(args: Args) -> anyhow::Result<ExitCode> {
    let design = read_design(&args.file, args.from)?;
    let sample = args.sample.config(&design)?;
    let options = Options {
        style: args.style,
        max_gsis: args.max_gsis,
        alternatives: args.alternatives as usize,
        budget: args.budget,
    };
    // The engine first: a wrong `--endpoint` is said before the search, not after it.
    let (config, name) = args.engine.config();
    let engines = Engines::start(&config).await?;
    let engine = engines.get(Some(&name))?.clone();

    let stop_search = Arc::new(AtomicBool::new(false));
    let cancel = CancellationToken::new();
    let interrupts = interrupt_handler(stop_search.clone(), cancel.clone());

    let terminal = std::io::stderr().is_terminal();
    let synthesis = tokio::task::spawn_blocking(move || {
        let bar = terminal.then(progress_bar);
        let mut progress = |p: &Progress| {
            if let Some(bar) = &bar {
                bar.set_length(p.budget);
                bar.set_position(p.explored);
                let best = p.best.map_or("-".to_string(), |b| dollars(b, 2));
                bar.set_message(format!("best {best}/month, bound {}", dollars(p.bound, 2)));
            }
            match stop_search.load(Ordering::Relaxed) {
                true => Control::Stop,
                false => Control::Continue,
            }
        };
        let result = synth::propose(&design, &options, &mut progress);
        if let Some(bar) = bar {
            bar.finish_and_clear();
        }
        result
    })
    .await
    .context("the search stopped unexpectedly")?
    .with_context(|| format!("cannot propose a design for {}", args.file.display()))?;

    let prover = Prover {
        engine: &engine,
        sample: &sample,
        budget: args.max_items,
    };
    let answer = prover.prove(synthesis, &cancel).await;
    interrupts.abort();

    if let Some(out) = &args.output {
        write_designs(&answer, out, &args.file, args.alternatives > 1)?;
    }
    if args.json {
        print(&format!("{}\n", serde_json::to_string_pretty(&answer)?))?;
    } else {
        print(&text(&answer))?;
    }
    Ok(match answer.proposals.is_empty() {
        true => ExitCode::FAILURE,
        false => ExitCode::SUCCESS,
    })
}

/// The first Ctrl-C stops the search (the best so far is proven and printed), the next stops
/// the engine run.
fn interrupt_handler(
    stop_search: Arc<AtomicBool>,
    cancel: CancellationToken,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        while tokio::signal::ctrl_c().await.is_ok() {
            if stop_search.swap(true, Ordering::Relaxed) {
                eprintln!("interrupted: stopping the engine run and deleting its tables...");
                cancel.cancel();
                return;
            }
            eprintln!("interrupted: stopping the search; the best so far is proven next");
        }
    })
}

fn progress_bar() -> ProgressBar {
    let bar = ProgressBar::new(0).with_finish(indicatif::ProgressFinish::AndClear);
    bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("  searching [{bar:30}] {pos}/{len} nodes, {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    bar
}

/// Writes the proven proposals: the cheapest to `out`, or each to `out/<name>.<rank>.keyplan.json`
/// when `folder`.
fn write_designs(answer: &Answer, out: &Path, input: &Path, folder: bool) -> anyhow::Result<()> {
    let Some(cheapest) = answer.proposals.first() else {
        return Ok(());
    };
    let write = |path: &Path, design| {
        std::fs::write(path, keyplan_core::file::to_string(design))
            .with_context(|| format!("cannot write {}", path.display()))
    };
    if !folder {
        return write(out, &cheapest.proposal.design);
    }
    std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    let name = stem(input);
    for proven in &answer.proposals {
        write(
            &out.join(format!("{name}.{}.keyplan.json", proven.rank)),
            &proven.proposal.design,
        )?;
    }
    Ok(())
}

/// The input's file name without `.keyplan.json` (or its last extension).
fn stem(input: &Path) -> String {
    let name = input
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "design".to_string());
    match name.strip_suffix(".keyplan.json") {
        Some(stem) => stem.to_string(),
        None => input
            .file_stem()
            .map_or(name.clone(), |s| s.to_string_lossy().into_owned()),
    }
}

/// The human report: each proven proposal with its figures, reasons and unserved reads; the
/// refused ones with why; then the bound.
pub fn text(answer: &Answer) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let total = answer.proposals.len() + answer.rejected.len();
    for proven in &answer.proposals {
        let p = &proven.proposal;
        let e = &proven.engine;
        let _ = writeln!(
            out,
            "proposal {} of {total} ({}): {}/month, {}, reads served {}/{}, engine run ok on {} ({} passed, {} skipped)",
            proven.rank,
            answer.style.as_str(),
            dollars(p.monthly_cost, 2),
            plural(p.indexes, "index"),
            p.reads_served,
            p.reads,
            e.engine,
            e.passed,
            plural(e.skipped, "Scan")
        );
        for reason in &p.reasons {
            let _ = writeln!(out, "  why {}: {}", reason.subject.words(), reason.text);
        }
        for unserved in &p.unserved {
            let _ = writeln!(
                out,
                "  unserved `{}`: {}",
                unserved.pattern, unserved.reason
            );
        }
    }
    for rejected in &answer.rejected {
        let _ = writeln!(
            out,
            "proposal {} of {total} ({}/month, {}) NOT SHOWN: the engine run on {} failed: {}",
            rejected.rank,
            dollars(rejected.monthly_cost, 2),
            plural(rejected.indexes, "index"),
            rejected.engine.engine,
            rejected.engine.first_reason()
        );
    }
    let searched = format!(
        "{} explored",
        plural(
            usize::try_from(answer.explored).unwrap_or(usize::MAX),
            "node"
        )
    );
    let _ = if answer.optimal {
        writeln!(out, "proven optimal ({searched})")
    } else {
        writeln!(
            out,
            "lower bound {}/month, gap {:.1}%{} ({searched})",
            dollars(answer.lower_bound, 2),
            answer.gap_percent,
            if answer.stopped {
                ", the search stopped early"
            } else {
                ""
            }
        )
    };
    out
}
