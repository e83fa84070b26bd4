//! A migration step that adds or drops a vector index on a kept table (issue 40), executed in
//! a verification: UpdateTable's `VectorIndexUpdates`, one `Create` or `Delete` action a call
//! (<https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_VectorIndexUpdate.html>),
//! then DescribeTable read back as the proof the step's line gives.
//!
//! A new index is `CREATING` while DynamoDB backfills it, and SearchVectors refuses it until
//! the backfill ends, which can be after the index reports `ACTIVE`
//! (<https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/VectorSearchDataSync.html>;
//! the embedded dynoxide 3.2 plays this window, 30 s, as AWS does): the step waits for the
//! index to be `ACTIVE`, then for a search of it to be answered, within the engine's deadline
//! for a new table, so NEW's vector search runs on a searchable index.
//!
//! An engine without vector indexes (moto 5) takes the UpdateTable and describes none: the step
//! is then said not executed, with that reason, and the verification goes on (NEW's search is
//! reported not run for the same reason).

use std::time::Duration;

use aws_sdk_dynamodb::types::{
    AttributeValue, CreateVectorIndexAction, DeleteVectorIndexAction, VectorIndexUpdate,
};
use keyplan_core::api::migrate::Verified;
use keyplan_core::api::runs::RunEvent;
use keyplan_core::migrate::{Phase, Step};
use keyplan_core::model::{Design, Table};
use tokio_util::sync::CancellationToken;

use super::super::error::{RunError, run_error};
use super::super::tables;
use crate::engine::Engine;

/// Executes the vector index step `step` on the engine table `name`; returns its line's detail
/// (what DescribeTable says after it), or records in `verified` why it was not executed.
#[allow(clippy::too_many_arguments)]
pub(super) async fn execute(
    engine: &Engine,
    (old, new): (&Design, &Design),
    name: &str,
    step: &Step,
    cancel: &CancellationToken,
    emit: &(dyn Fn(RunEvent) + Send + Sync),
    verified: &mut Verified,
) -> Result<Option<String>, RunError> {
    let index = step.index.as_deref().ok_or_else(|| {
        RunError::Design(format!(
            "the vector index step `{}` names no index",
            step.action
        ))
    })?;
    let new_table = new.table(&step.table);
    let replaced = old
        .table(&step.table)
        .and_then(|t| t.vector_index(index))
        .is_some();
    let not_executed = |verified: &mut Verified, why: String| {
        verified
            .not_executed
            .push(format!("{}: {why}", step.action));
        Ok(Some("not executed".to_string()))
    };
    match step.phase {
        Phase::Expand => {
            let table = new_table.ok_or_else(|| missing(&step.table))?;
            let wanted = table.vector_index(index).ok_or_else(|| {
                RunError::Design(format!("table {} has no vector index {index}", table.name))
            })?;
            // DynamoDB cannot change a vector index: the old one of this name goes first.
            if replaced
                && super::super::vector::index_status(engine, name, index)
                    .await?
                    .is_some()
            {
                delete(engine, table, name, index, cancel, emit).await?;
            }
            let sdk = tables::vector_index(wanted)?;
            let action = CreateVectorIndexAction::builder()
                .index_name(sdk.index_name)
                .set_vector_attribute(sdk.vector_attribute)
                .dimensions(sdk.dimensions)
                .distance_function(sdk.distance_function)
                .set_projection(sdk.projection)
                .build()?;
            let what = format!("create vector index {index} on {}", table.name);
            super::update_table(engine, table, name, &what, cancel, emit, |update| {
                update.vector_index_updates(VectorIndexUpdate::builder().create(action).build())
            })
            .await?;
            if super::super::vector::index_status(engine, name, index)
                .await?
                .is_none()
            {
                return not_executed(verified, without_vectors(engine, index));
            }
            let waited = searchable(engine, table, name, wanted, cancel, emit).await?;
            Ok(Some(format!(
                "DescribeTable lists {index} ACTIVE; SearchVectors answered after {waited:.0} s of backfill"
            )))
        }
        _ => {
            // A vector index replaced under its own name was deleted before it was created again.
            if new_table.is_some_and(|t| t.vector_index(index).is_some()) {
                return Ok(None);
            }
            let table = old.table(&step.table).ok_or_else(|| missing(&step.table))?;
            if super::super::vector::index_status(engine, name, index)
                .await?
                .is_none()
            {
                return not_executed(verified, without_vectors(engine, index));
            }
            delete(engine, table, name, index, cancel, emit).await?;
            Ok(Some(format!("DescribeTable no longer lists {index}")))
        }
    }
}

fn missing(table: &str) -> RunError {
    RunError::Design(format!(
        "the plan names table {table}, which neither design has"
    ))
}

/// Why a step was not executed on an engine that describes no vector index.
fn without_vectors(engine: &Engine, index: &str) -> String {
    format!(
        "{}'s DescribeTable lists no vector index {index} (it took UpdateTable's VectorIndexUpdates and has no vector indexes): the table is verified without this change",
        engine.name
    )
}

/// Deletes vector index `index` of `table` (the engine table `name`) and waits until the
/// table is ACTIVE and no longer lists it.
async fn delete(
    engine: &Engine,
    table: &Table,
    name: &str,
    index: &str,
    cancel: &CancellationToken,
    emit: &(dyn Fn(RunEvent) + Send + Sync),
) -> Result<(), RunError> {
    let what = format!("delete vector index {index} of {}", table.name);
    let action = DeleteVectorIndexAction::builder()
        .index_name(index)
        .build()?;
    super::update_table(engine, table, name, &what, cancel, emit, |update| {
        update.vector_index_updates(VectorIndexUpdate::builder().delete(action).build())
    })
    .await?;
    match super::super::vector::index_status(engine, name, index).await? {
        None => Ok(()),
        Some(status) => Err(RunError::Engine {
            engine: engine.name.clone(),
            what,
            detail: format!("the table still lists the index ({status:?}) once ACTIVE"),
        }),
    }
}

/// Waits until a SearchVectors of `index` is answered rather than refused as backfilling;
/// returns the seconds waited. Any other refusal, or the engine's deadline for a new table
/// passing, is an error saying so.
async fn searchable(
    engine: &Engine,
    table: &Table,
    name: &str,
    index: &keyplan_core::VectorIndex,
    cancel: &CancellationToken,
    emit: &(dyn Fn(RunEvent) + Send + Sync),
) -> Result<f64, RunError> {
    let what = format!("search vector index {} of {}", index.name, table.name);
    // Any vector of the index's length: only whether the search is answered matters.
    let probe: Vec<AttributeValue> = (0..index.dimensions)
        .map(|_| AttributeValue::N("1".to_string()))
        .collect();
    let mut patience = tables::Patience::new(engine, &table.name, name, Duration::from_millis(50));
    loop {
        if cancel.is_cancelled() {
            return Err(RunError::Cancelled);
        }
        let answer = engine
            .client
            .search_vectors()
            .table_name(name)
            .index_name(&index.name)
            .set_search_vector(Some(probe.clone()))
            .top_k(1)
            .send()
            .await;
        let refusal = match answer {
            Ok(_) => return Ok(patience.waited_s()),
            Err(e) => {
                let refusal = run_error(engine, &what, &e);
                // DynamoDB's answer while the index backfills (dynoxide plays AWS's words).
                if !refusal.to_string().contains("backfilling") {
                    return Err(refusal);
                }
                refusal
            }
        };
        patience
            .again(
                &what,
                &format!("vector index {} backfilling", index.name),
                emit,
                |deadline| format!("the index still refused searches after {deadline:.0} s, this engine's deadline for a new table: {refusal}"),
            )
            .await?;
    }
}
