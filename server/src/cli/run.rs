//! `keyplan run FILE`: runs a design against a DynamoDB engine and says, pattern by pattern,
//! whether the engine answered what core predicted.
//!
//! With no engine named, the run uses dynoxide-rs embedded in this process. A progress bar
//! shows on a terminal; `--json` prints every event as one JSON line instead. The exit code is
//! 1 on any mismatch, error or failure, and the run's tables are deleted in every case, Ctrl-C
//! included.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use tokio_util::sync::CancellationToken;

use crate::design_io::{Budget, read_design, run_plan};
use crate::engine::Engines;
use crate::runner::{self, RunEvent, RunId, Status};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The design file: a keyplan design or any format keyplan reads (see `--from`).
    pub file: PathBuf,
    #[command(flatten)]
    pub from: crate::design_io::From,
    #[command(flatten)]
    pub engine: super::engine_choice::EngineChoice,
    #[command(flatten)]
    pub sample: crate::design_io::SampleArgs,
    /// Print every event as a JSON line on stdout instead of a progress bar.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub budget: Budget,
}

pub async fn run(args: Args) -> anyhow::Result<ExitCode> {
    let design = read_design(&args.file, args.from)?;
    let sample = args.sample.config(&design)?;
    let plan = run_plan(&design, &sample, args.budget)
        .with_context(|| format!("cannot run {}", args.file.display()))?;

    let (config, name) = args.engine.config();
    let engines = Engines::start(&config).await?;
    let engine = engines.get(Some(&name))?.clone();

    let cancel = CancellationToken::new();
    let on_interrupt = cancel.clone();
    tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            eprintln!("interrupted: deleting the run's tables...");
            on_interrupt.cancel();
        }
    });
    let id = RunId::random();
    let summary = if args.json {
        let emit = |event: RunEvent| {
            if let Ok(line) = serde_json::to_string(&event) {
                println!("{line}");
            }
        };
        runner::run(&engine, &plan, &id, &cancel, &emit).await
    } else {
        let show = Display::new(std::io::stderr().is_terminal());
        let emit = |event: RunEvent| show.event(&event);
        runner::run(&engine, &plan, &id, &cancel, &emit).await
    };
    Ok(if summary.ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// The human display: a progress bar for the load (on a terminal), a line per pattern, a
/// diff under each mismatch, and a last line with the figures.
struct Display {
    bar: Mutex<Option<ProgressBar>>,
    terminal: bool,
}

impl Display {
    fn new(terminal: bool) -> Display {
        Display {
            bar: Mutex::new(None),
            terminal,
        }
    }

    fn line(&self, text: &str) {
        match self.bar.lock().ok().and_then(|b| b.clone()) {
            Some(bar) => bar.suspend(|| println!("{text}")),
            None => println!("{text}"),
        }
    }

    fn event(&self, event: &RunEvent) {
        match event {
            RunEvent::Started {
                id,
                engine,
                tables,
                items,
                patterns,
            } => self.line(&format!(
                "run {id} on {engine}: {} table(s), {items} items, {patterns} patterns",
                tables.len()
            )),
            RunEvent::TableCreated { table, name } => {
                self.line(&format!("  created {table} as {name}"))
            }
            RunEvent::Waiting {
                table,
                name,
                status,
                waited_s,
                deadline_s,
            } => self.line(&format!(
                "  waiting for {table} ({name}): {status} after {waited_s:.0} s, giving up after {deadline_s:.0} s"
            )),
            RunEvent::ItemsWritten { written, total } => {
                if let Ok(mut bar) = self.bar.lock() {
                    if bar.is_none() && self.terminal {
                        let b = ProgressBar::new(*total as u64);
                        b.set_style(
                            ProgressStyle::with_template(
                                "  loading [{bar:30}] {pos}/{len} items ({per_sec})",
                            )
                            .unwrap_or_else(|_| ProgressStyle::default_bar())
                            .progress_chars("=> "),
                        );
                        *bar = Some(b);
                    }
                    if let Some(b) = bar.as_ref() {
                        b.set_position(*written as u64);
                        if written == total {
                            b.finish_and_clear();
                        }
                    }
                    if written == total {
                        *bar = None;
                    }
                }
                if written == total {
                    self.line(&format!("  loaded {total} items"));
                }
            }
            RunEvent::Pattern(result) => {
                let mark = match result.status {
                    Status::Pass => "ok      ",
                    Status::Mismatch => "MISMATCH",
                    Status::Error => "ERROR   ",
                    Status::Skipped => "skipped ",
                };
                let on = result
                    .index_name
                    .as_deref()
                    .map(|i| format!(" on {i}"))
                    .unwrap_or_default();
                let detail = if result.status == Status::Skipped {
                    result.message.clone().unwrap_or_default()
                } else {
                    let predicted = result
                        .predicted_capacity
                        .map(|p| format!(" (core predicts {p:.1})"))
                        .unwrap_or_default();
                    format!(
                        "{}{on}: {} item(s), {} request(s), {:.1} ms, {:.1} capacity units{predicted}",
                        result.operation,
                        result.actual_items,
                        result.requests,
                        result.latency_ms,
                        result.consumed_capacity
                    )
                };
                self.line(&format!("  {mark} {}  {detail}", result.pattern));
                if let Some(diff) = &result.diff {
                    for l in diff.lines() {
                        self.line(&format!("           {l}"));
                    }
                }
                // An error's cause, or what the engine did its own way on a pass (a skip's
                // reason is on its line already).
                if result.status != Status::Skipped
                    && let Some(message) = &result.message
                {
                    self.line(&format!("           {message}"));
                }
            }
            RunEvent::Cleanup(cleanup) => {
                if cleanup.failed.is_empty() {
                    self.line(&format!("  deleted {} table(s)", cleanup.deleted.len()));
                } else {
                    self.line(&format!(
                        "  COULD NOT DELETE (delete by hand): {}",
                        cleanup.failed.join(", ")
                    ));
                }
            }
            RunEvent::Done(s) => self.line(&format!(
                "{}: {} passed, {} mismatched, {} errors, {} skipped; loaded {} items in {:.0} ms, whole run {:.0} ms",
                if s.ok { "passed" } else { "FAILED" },
                s.passed,
                s.mismatched,
                s.errors,
                s.skipped,
                s.items_written,
                s.load_ms,
                s.total_ms
            )),
            RunEvent::Failed { message, .. } => {
                if let Ok(mut bar) = self.bar.lock()
                    && let Some(b) = bar.take()
                {
                    b.finish_and_clear();
                }
                eprintln!("error: {message}");
            }
        }
    }
}
