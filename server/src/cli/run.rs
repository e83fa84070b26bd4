//! `keyplan run FILE`: runs a design against a DynamoDB engine and says, pattern by pattern,
//! whether the engine answered what core predicted.
//!
//! With no engine named, the run uses dynoxide-rs embedded in this process. A progress bar
//! shows on a terminal; `--json` prints every event as one JSON line instead. The exit code is
//! 1 on any mismatch, error or failure, and the run's tables are deleted in every case, Ctrl-C
//! included, but one: `--keep` leaves them (and their items) on the engine once the run has
//! finished, recorded in the data folder; `--list-kept` lists what runs kept on the engine and
//! `--delete-kept RUN` deletes one run's kept tables and nothing else ([`crate::runner::kept`]).

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use tokio_util::sync::CancellationToken;

use crate::design_io::{Budget, read_design, run_plan};
use crate::engine::Engines;
use crate::runner::kept::Keeper;
use crate::runner::{self, RunEvent, RunId, Status};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The design file: a keyplan design or any format keyplan reads (see `--from`).
    #[arg(required_unless_present_any = ["list_kept", "delete_kept"])]
    pub file: Option<PathBuf>,
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
    /// Leave the tables and their items on the engine when the run finishes, to look at with
    /// other tools; the embedded engine keeps them in `kept-tables.db` in the data folder.
    #[arg(long)]
    pub keep: bool,
    /// List the tables runs kept on the engine, instead of running a design.
    #[arg(long, conflicts_with_all = ["file", "keep", "delete_kept"])]
    pub list_kept: bool,
    /// Delete the tables run RUN kept on the engine (and nothing else), instead of running a
    /// design; repeatable.
    #[arg(long, value_name = "RUN", conflicts_with_all = ["file", "keep"])]
    pub delete_kept: Vec<String>,
    /// Where kept tables are recorded. Default: the user's data folder
    /// (`$XDG_DATA_HOME/keyplan`, else `~/.local/share/keyplan`), as `keyplan serve`'s.
    #[arg(long, env = "KEYPLAN_DATA_DIR", value_name = "DIR")]
    pub data_dir: Option<PathBuf>,
}

pub async fn run(args: Args) -> anyhow::Result<ExitCode> {
    let keeper = Keeper::in_dir(super::serve::data_dir(args.data_dir.clone()));
    let (config, name) = args.engine.config();
    if args.list_kept || !args.delete_kept.is_empty() {
        let engines = Engines::start(&config).await?;
        let engine = engines.get(Some(&name))?.clone();
        return kept(&keeper, &engine, &args.delete_kept).await;
    }
    let Some(file) = args.file.as_ref() else {
        anyhow::bail!("give the design file to run");
    };
    let design = read_design(file, args.from)?;
    let sample = args.sample.config(&design)?;
    let plan = run_plan(&design, &sample, args.budget)
        .with_context(|| format!("cannot run {}", file.display()))?;

    let engines = Engines::start(&config).await?;
    let mut engine = engines.get(Some(&name))?.clone();
    if args.keep {
        keeper.check_room()?;
        engine = keeper.engine_for(&engine)?;
    }
    let keep = args.keep.then_some(runner::Keep {
        keeper: &keeper,
        design: &design.name,
    });

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
        runner::run_keeping(&engine, &plan, &id, &cancel, &emit, keep).await
    } else {
        let show = Display::new(std::io::stderr().is_terminal(), &id);
        let emit = |event: RunEvent| show.event(&event);
        runner::run_keeping(&engine, &plan, &id, &cancel, &emit, keep).await
    };
    Ok(if summary.ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// `--list-kept` (no `delete`) or `--delete-kept RUN...`: what runs kept on `engine`, or the
/// delete of the runs named. Exit code 1 when a delete failed or named no kept run.
async fn kept(
    keeper: &Keeper,
    engine: &crate::engine::Engine,
    delete: &[String],
) -> anyhow::Result<ExitCode> {
    if delete.is_empty() {
        let runs = keeper.list(engine).await?;
        if runs.is_empty() {
            println!("no run kept tables on {}", engine.name);
        }
        for run in runs {
            println!(
                "run {} ({}), kept {}:",
                run.run,
                run.design,
                keyplan_core::sample::iso_datetime(i64::try_from(run.kept_at).unwrap_or(i64::MAX))
            );
            for table in run.tables {
                println!(
                    "  {}  {}  {}",
                    table.name,
                    table.table,
                    kept_state(&table.state)
                );
            }
        }
        return Ok(ExitCode::SUCCESS);
    }
    let mut ok = true;
    for run in delete {
        let Some(id) = RunId::parse(run) else {
            eprintln!("error: `{run}` is not a run id (1 to 32 of a-z and 0-9)");
            ok = false;
            continue;
        };
        match keeper.delete(engine, &id).await {
            Ok(answer) => {
                for name in &answer.deleted {
                    println!("deleted {name}");
                }
                for name in &answer.gone {
                    println!("already gone: {name}");
                }
                for name in &answer.left_alone {
                    println!("left alone (another table now has this name): {name}");
                }
                for failure in &answer.failed {
                    println!("COULD NOT DELETE: {failure}");
                }
                ok &= answer.failed.is_empty();
            }
            Err(e) => {
                eprintln!("error: {e}");
                ok = false;
            }
        }
    }
    Ok(if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// A kept table's state, as the listing says it.
fn kept_state(state: &keyplan_core::api::runs::KeptState) -> String {
    use keyplan_core::api::runs::KeptState;
    match state {
        KeptState::Present => "present".to_string(),
        KeptState::Gone => "gone (no longer on the engine)".to_string(),
        KeptState::Replaced => "replaced (another table has this name; never deleted)".to_string(),
        KeptState::Unknown { why } => format!("unknown: {why}"),
    }
}

/// The human display: a progress bar for the load (on a terminal), a line per pattern, a
/// diff under each mismatch, and a last line with the figures.
struct Display {
    bar: Mutex<Option<ProgressBar>>,
    terminal: bool,
    /// The run's id, for the command that deletes what it kept.
    run: String,
}

impl Display {
    fn new(terminal: bool, run: &RunId) -> Display {
        Display {
            bar: Mutex::new(None),
            terminal,
            run: run.to_string(),
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
            RunEvent::Cleanup(cleanup) if !cleanup.kept.is_empty() => self.line(&format!(
                "  kept {} table(s): {} (list them with `keyplan run --list-kept`, delete them with `keyplan run --delete-kept {}`)",
                cleanup.kept.len(),
                cleanup.kept.join(", "),
                self.run
            )),
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
