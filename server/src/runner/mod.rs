//! A run: the design's tables created on a DynamoDB engine under run-scoped names, the sample
//! items loaded, every pattern executed as its verdict says and compared with core's
//! evaluation, and the tables deleted again.
//!
//! The invariant: a run deletes every table it created and never touches one it did not. The
//! tables are deleted after success, after an error, after a cancel (the token), and when the
//! run's future is dropped midway ([`tables::TableGuard`]'s `Drop`). Only names the run
//! generated (`keyplan-run-<id>-<table>`) are written to or deleted. A cancel stops the run at
//! its next request: the requests in flight are waited for (up to the engine's
//! [`Timing::cancel_grace`](crate::engine::Timing)), so no write lands after the deletes; the
//! cleanup then lists the engine's tables until none of the run's remain, and its event names
//! a table deleted only once the engine no longer lists it.
//!
//! A run asked to keep its tables ([`run_keeping`]) leaves them, and their items, on the engine
//! once it has finished (mismatches included); it records them first ([`kept`]), and a run that
//! fails, is cancelled, or cannot record them still deletes them.
//!
//! The runner talks to every engine, the embedded one included, through `aws-sdk-dynamodb`;
//! it reports progress as [`RunEvent`]s, the same ones the CLI's progress bar and the API's
//! server-sent events show.

use std::time::Instant;

use tokio_util::sync::CancellationToken;

pub mod build;
pub mod convert;
pub mod diff;
pub mod error;
pub mod exec;
pub mod kept;
pub mod load;
pub mod migrate;
pub mod paging;
pub mod plan;
pub mod scan;
pub mod statement;
pub mod tables;
pub mod vector;

pub use error::RunError;
/// The run protocol's types are core's: the app reads exactly what the runner writes.
pub use keyplan_core::api::runs::{Cleanup, PatternResult, RunEvent, Status, Summary};
pub use plan::{CheckKind, Plan};
pub use tables::{PREFIX, RunId};

use crate::engine::{Engine, PREFLIGHT_TIMEOUT};

/// What a run that keeps its tables needs: where it records them, and the design's name for
/// the listing.
#[derive(Debug, Clone, Copy)]
pub struct Keep<'a> {
    pub keeper: &'a kept::Keeper,
    pub design: &'a str,
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
    run_keeping(engine, plan, id, cancel, emit, None).await
}

/// [`run`], keeping the tables when `keep` says where to record them and the run finishes.
/// `engine` is the one [`kept::Keeper::engine_for`] gives.
pub async fn run_keeping(
    engine: &Engine,
    plan: &Plan,
    id: &RunId,
    cancel: &CancellationToken,
    emit: &(dyn Fn(RunEvent) + Send + Sync),
    keep: Option<Keep<'_>>,
) -> Summary {
    let started = Instant::now();
    emit(RunEvent::Started {
        id: id.to_string(),
        engine: engine.name.clone(),
        tables: plan.tables.iter().map(|t| t.name.clone()).collect(),
        items: plan.n_items(),
        patterns: plan.checks.len(),
    });
    let guard = tables::TableGuard::new(engine);
    let mut summary = Summary::default();
    let outcome = {
        // The body stops by itself at its next request once cancelled; only requests that
        // outlive the grace are dropped (an engine that hangs).
        let body = body(engine, plan, id, &guard, cancel, emit, &mut summary);
        let grace = async {
            cancel.cancelled().await;
            tokio::time::sleep(engine.timing.cancel_grace).await;
        };
        tokio::select! {
            result = body => result,
            _ = grace => Err(RunError::Cancelled),
            // An engine that answers every request in time but never lets the run end
            // (issue 41): the run stops at the engine's conversation limit and cleans up.
            () = tokio::time::sleep(engine.timing.conversation) => {
                Err(crate::runner::paging::too_long(engine, "run the design"))
            }
        }
    };
    let (cleanup, outcome) = match (outcome, keep) {
        (Ok(()), Some(keep)) => {
            let tables: Vec<(String, String)> = plan
                .tables
                .iter()
                .map(|t| (t.name.clone(), id.table_name(&t.name)))
                .collect();
            match keep.keeper.record(engine, id, keep.design, &tables).await {
                Ok(kept) => {
                    guard.keep();
                    let cleanup = Cleanup {
                        kept,
                        ..Cleanup::default()
                    };
                    (cleanup, Ok(()))
                }
                Err(e) => (
                    guard.cleanup().await,
                    Err(RunError::Data(format!(
                        "the tables could not be kept ({e}), so the run deleted them"
                    ))),
                ),
            }
        }
        (outcome, _) => (guard.cleanup().await, outcome),
    };
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

/// Stops a run at its next step once it is cancelled.
fn go_on(cancel: &CancellationToken) -> Result<(), RunError> {
    if cancel.is_cancelled() {
        Err(RunError::Cancelled)
    } else {
        Ok(())
    }
}

async fn body(
    engine: &Engine,
    plan: &Plan,
    id: &RunId,
    guard: &tables::TableGuard,
    cancel: &CancellationToken,
    emit: &(dyn Fn(RunEvent) + Send + Sync),
    summary: &mut Summary,
) -> Result<(), RunError> {
    preflight(engine).await?;
    go_on(cancel)?;
    let creates = plan.tables.iter().map(|table| async move {
        let name = id.table_name(&table.name);
        tables::create(engine, guard, table, &name, cancel, emit).await?;
        emit(RunEvent::TableCreated {
            table: table.name.clone(),
            name,
        });
        Ok::<(), RunError>(())
    });
    for result in futures_util::future::join_all(creates).await {
        result?;
    }

    go_on(cancel)?;

    let load_started = Instant::now();
    // The plan's items by reference: a run holds its sample once.
    let names: std::collections::BTreeMap<&str, String> = plan
        .items
        .keys()
        .map(|table| (table.as_str(), id.table_name(table)))
        .collect();
    let items: Vec<(&str, &keyplan_core::Item)> = plan
        .items
        .iter()
        .flat_map(|(table, items)| {
            let name = names.get(table.as_str()).map_or("", String::as_str);
            items.iter().map(move |i| (name, i))
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
    let loaded = load::load(engine, &items, cancel, &progress).await?;
    drop(items);
    summary.items_written = loaded.items;
    summary.load_requests = loaded.requests;
    summary.load_ms = load_started.elapsed().as_secs_f64() * 1000.0;

    let names = |table: &str| id.table_name(table);
    // Reads first, on the data as loaded; then writes, which change it.
    for check in &plan.checks {
        go_on(cancel)?;
        match &check.kind {
            CheckKind::Read(read) => record(
                summary,
                emit,
                exec::read(engine, &names, check.index, read).await,
            ),
            CheckKind::Vector(search) => record(
                summary,
                emit,
                vector::search(engine, &names, check.index, search).await,
            ),
            CheckKind::Write(_) | CheckKind::Skip(_) => {}
        }
    }
    for check in &plan.checks {
        go_on(cancel)?;
        match &check.kind {
            CheckKind::Write(write) => record(
                summary,
                emit,
                exec::write(engine, &names, check.index, write).await,
            ),
            CheckKind::Skip(reason) => {
                let mut result =
                    PatternResult::new(check.index, &check.pattern, check.operation.as_str(), None);
                result.status = Status::Skipped;
                result.message = Some(reason.clone());
                record(summary, emit, result)
            }
            CheckKind::Read(_) | CheckKind::Vector(_) => {}
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
        Ok(Err(err)) => Err(match error::run_error(engine, "list tables", &err) {
            RunError::Lost { detail, .. } | RunError::Timeout { detail, .. } => {
                RunError::Unreachable {
                    engine: engine.name.clone(),
                    target,
                    detail,
                }
            }
            other => other,
        }),
        Ok(Ok(_)) => Ok(()),
    }
}
