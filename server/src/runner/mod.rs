//! A run: the design's tables created on a DynamoDB engine under run-scoped names, the sample
//! items loaded, every pattern executed as its verdict says and compared with core's
//! evaluation, and the tables deleted again.
//!
//! The invariant: a run deletes every table it created and never touches one it did not. The
//! tables are deleted after success, after an error, after a cancel (the token), and when the
//! run's future is dropped midway ([`tables::TableGuard`]'s `Drop`). Only names the run
//! generated (`keyplan-run-<id>-<table>`) are written to or deleted.
//!
//! The runner talks to every engine, the embedded one included, through `aws-sdk-dynamodb`;
//! it reports progress as [`RunEvent`]s, the same ones the CLI's progress bar and the API's
//! server-sent events show.

use std::time::Instant;

use serde::Serialize;
use tokio_util::sync::CancellationToken;

pub mod build;
pub mod convert;
pub mod diff;
pub mod error;
pub mod exec;
pub mod load;
pub mod plan;
pub mod tables;

pub use error::RunError;
pub use plan::{CheckKind, PatternResult, Plan, Status};
pub use tables::{PREFIX, RunId};

use crate::engine::{Engine, PREFLIGHT_TIMEOUT};

/// Something that happened in a run, in order. Serialised with a `type` tag; the API streams
/// each as a server-sent event named after its type.
#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum RunEvent {
    /// The run began: what it will do.
    Started {
        id: RunId,
        engine: String,
        tables: Vec<String>,
        items: usize,
        patterns: usize,
    },
    /// A table exists and is ACTIVE: its design name and the run's name for it.
    TableCreated { table: String, name: String },
    /// Sample items acknowledged by the engine so far.
    ItemsWritten { written: usize, total: usize },
    /// One pattern's result: pass, mismatch (with a diff), error or skipped.
    Pattern(PatternResult),
    /// The run's tables were deleted (or could not be: `failed` names them).
    Cleanup(tables::Cleanup),
    /// The run finished; `ok` is false on any mismatch or error.
    Done(Summary),
    /// The run stopped before finishing, with why. Cleanup has run.
    Failed { message: String, summary: Summary },
}

impl RunEvent {
    /// The event's name on the wire (its `type`).
    pub fn name(&self) -> &'static str {
        match self {
            RunEvent::Started { .. } => "started",
            RunEvent::TableCreated { .. } => "table_created",
            RunEvent::ItemsWritten { .. } => "items_written",
            RunEvent::Pattern(_) => "pattern",
            RunEvent::Cleanup(_) => "cleanup",
            RunEvent::Done(_) => "done",
            RunEvent::Failed { .. } => "failed",
        }
    }

    /// Whether this is the last event of a run.
    pub fn is_last(&self) -> bool {
        matches!(self, RunEvent::Done(_) | RunEvent::Failed { .. })
    }
}

/// The figures of a run.
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct Summary {
    pub passed: usize,
    pub mismatched: usize,
    pub errors: usize,
    pub skipped: usize,
    pub items_written: usize,
    /// BatchWriteItem requests sent (retries included).
    pub load_requests: usize,
    pub load_ms: f64,
    pub total_ms: f64,
    /// Tables the run could not delete; empty when cleanup succeeded.
    pub left_behind: Vec<String>,
    pub ok: bool,
}

/// Runs `plan` on `engine` under run id `id`, calling `emit` for every event; returns the
/// summary that the last event carries. Never panics on an engine's answer; always cleans up.
pub async fn run(
    engine: &Engine,
    plan: &Plan,
    id: &RunId,
    cancel: &CancellationToken,
    emit: &(dyn Fn(RunEvent) + Send + Sync),
) -> Summary {
    let started = Instant::now();
    emit(RunEvent::Started {
        id: id.clone(),
        engine: engine.name.clone(),
        tables: plan.tables.iter().map(|t| t.name.clone()).collect(),
        items: plan.n_items(),
        patterns: plan.checks.len(),
    });
    let guard = tables::TableGuard::new(engine.client.clone());
    let mut summary = Summary::default();
    let outcome = tokio::select! {
        biased;
        _ = cancel.cancelled() => Err(RunError::Cancelled),
        result = body(engine, plan, id, &guard, emit, &mut summary) => result,
    };
    let cleanup = guard.cleanup().await;
    summary.left_behind = cleanup.failed.clone();
    emit(RunEvent::Cleanup(cleanup));
    summary.total_ms = started.elapsed().as_secs_f64() * 1000.0;
    summary.ok = outcome.is_ok()
        && summary.mismatched == 0
        && summary.errors == 0
        && summary.left_behind.is_empty();
    match outcome {
        Ok(()) => emit(RunEvent::Done(summary.clone())),
        Err(e) => emit(RunEvent::Failed {
            message: e.to_string(),
            summary: summary.clone(),
        }),
    }
    summary
}

async fn body(
    engine: &Engine,
    plan: &Plan,
    id: &RunId,
    guard: &tables::TableGuard,
    emit: &(dyn Fn(RunEvent) + Send + Sync),
    summary: &mut Summary,
) -> Result<(), RunError> {
    preflight(engine).await?;
    let creates = plan.tables.iter().map(|table| async move {
        let name = id.table_name(&table.name);
        tables::create(engine, guard, table, &name).await?;
        emit(RunEvent::TableCreated {
            table: table.name.clone(),
            name,
        });
        Ok::<(), RunError>(())
    });
    for result in futures_util::future::join_all(creates).await {
        result?;
    }

    let load_started = Instant::now();
    let items: Vec<(String, keyplan_core::Item)> = plan
        .items
        .iter()
        .flat_map(|(table, items)| {
            let name = id.table_name(table);
            items.iter().map(move |i| (name.clone(), i.clone()))
        })
        .collect();
    let total = items.len();
    emit(RunEvent::ItemsWritten { written: 0, total });
    // Report about every 2%, and always the last batch.
    let step = (total / 50).max(1);
    let last_reported = std::sync::atomic::AtomicUsize::new(0);
    let progress = |written: usize, total: usize| {
        let last = last_reported.load(std::sync::atomic::Ordering::Relaxed);
        if written == total || written >= last + step {
            last_reported.store(written, std::sync::atomic::Ordering::Relaxed);
            emit(RunEvent::ItemsWritten { written, total });
        }
    };
    let loaded = load::load(engine, items, &progress).await?;
    summary.items_written = loaded.items;
    summary.load_requests = loaded.requests;
    summary.load_ms = load_started.elapsed().as_secs_f64() * 1000.0;

    let names = |table: &str| id.table_name(table);
    // Reads first, on the data as loaded; then writes, which change it.
    for check in &plan.checks {
        if let CheckKind::Read(read) = &check.kind {
            record(
                summary,
                emit,
                exec::read(engine, &names, check.index, read).await,
            );
        }
    }
    for check in &plan.checks {
        match &check.kind {
            CheckKind::Write(write) => record(
                summary,
                emit,
                exec::write(engine, &names, check.index, write).await,
            ),
            CheckKind::Skip(reason) => {
                let mut result = PatternResult::new(check.index, &check.pattern, "Scan", None);
                result.status = Status::Skipped;
                result.message = Some(reason.clone());
                record(summary, emit, result)
            }
            CheckKind::Read(_) => {}
        }
    }
    Ok(())
}

fn record(summary: &mut Summary, emit: &(dyn Fn(RunEvent) + Send + Sync), result: PatternResult) {
    match result.status {
        Status::Pass => summary.passed += 1,
        Status::Mismatch => summary.mismatched += 1,
        Status::Error => summary.errors += 1,
        Status::Skipped => summary.skipped += 1,
    }
    emit(RunEvent::Pattern(result));
}

/// One cheap request with the whole 5-second budget: an engine that is down, a wrong URL or
/// refused credentials fail here, before anything is created.
pub async fn preflight(engine: &Engine) -> Result<(), RunError> {
    let target = engine.kind.describe();
    let request = engine.client.list_tables().limit(1).send();
    match tokio::time::timeout(PREFLIGHT_TIMEOUT, request).await {
        Err(_) => Err(RunError::Unreachable {
            engine: engine.name.clone(),
            target,
            detail: "no answer".to_string(),
        }),
        Ok(Err(err)) => Err(error::run_error(&engine.name, &target, "list tables", &err)),
        Ok(Ok(_)) => Ok(()),
    }
}
