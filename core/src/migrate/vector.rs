//! The steps of a kept table's vector indexes (issue 40), planned as its GSIs are: one the new
//! design adds is an UpdateTable whose `VectorIndexUpdates` holds a `Create` action, which
//! DynamoDB backfills from the items that carry its vector attribute; one it drops, a `Delete`
//! action once nothing searches it; one whose settings change is deleted and created again, as
//! a vector index has no update action.
//!
//! Sourced (read 2026-12-06):
//! - UpdateTable's `VectorIndexUpdates`, each a `Create` (`CreateVectorIndexAction`) or a
//!   `Delete`: <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_VectorIndexUpdate.html>
//!   (no `Update` action exists).
//! - The backfill: the index is `CREATING`, then backfills from the table's items; writes made
//!   meanwhile reach it, but `SearchVectors` fails until the backfill ends, and its duration
//!   follows the index's construction, not the item count
//!   (<https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/VectorSearchDataSync.html>,
//!   <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/VectorSearchWorkingWith.html>).
//! - Only an item holding a valid vector attribute is in the index (the same page): items
//!   without one are not backfilled, and an embedding is the application's to compute, so no
//!   step writes one.
//!
//! What is counted: the vectors the backfill replicates and their bytes (4 a dimension, the
//! projection not counted), metered in vector write bytes, which have no published price
//! ([`crate::pricing::VECTOR_NOT_PRICED`]): such a step adds no write units, cost or time.

use super::sizes::{Sizes, Work};
use super::{Phase, Step, StepKind, names};
use crate::limits::VECTOR_BYTES_PER_DIMENSION;
use crate::model::{Design, Entity, Table, VectorIndex};

/// The steps of `after`'s vector indexes against `before`'s (the same table in OLD and NEW).
pub(super) fn steps(
    steps: &mut Vec<Step>,
    sizes: &Sizes,
    old: &Design,
    new: &Design,
    before: &Table,
    after: &Table,
) {
    for index in &after.vector_indexes {
        let was = before.vector_index(&index.name);
        if was == Some(index) {
            continue;
        }
        let holders: Vec<&Entity> = new
            .entities_in(&after.name)
            .filter(|e| e.attribute(&index.attribute).is_some())
            .collect();
        let (carried, missing): (Vec<&Entity>, Vec<&Entity>) = holders.iter().partition(|e| {
            old.entity(&e.name)
                .is_some_and(|o| o.table == after.name && o.attribute(&index.attribute).is_some())
        });
        let vector_bytes = u64::from(index.dimensions) * VECTOR_BYTES_PER_DIMENSION as u64;
        let mut work = Work::default();
        for e in &carried {
            work = work.add(sizes.vector_writes(e, vector_bytes));
        }
        let mut why = match (was.is_some(), carried.is_empty()) {
            (true, _) => format!(
                "its settings change, which DynamoDB cannot change on a vector index: delete the old {} first (or give the new one another name)",
                index.name
            ),
            (false, true) => format!(
                "the new design adds it; no existing item carries {} yet",
                index.attribute
            ),
            (false, false) => format!(
                "the new design adds it; the items of {} already carry {}, so DynamoDB backfills it (SearchVectors fails until the backfill ends, however few the items)",
                names(&carried),
                index.attribute
            ),
        };
        if !missing.is_empty() {
            why.push_str(&format!(
                "; {} items enter it once the application writes {} on them (an embedding it computes: no step of this plan writes one)",
                names(&missing),
                index.attribute
            ));
        }
        let mut step = sizes.step(
            Phase::Expand,
            StepKind::Online,
            after,
            Some(&index.name),
            None,
            format!("Create vector index {} ({})", index.name, settings(index)),
            why,
            work,
        );
        step.vector = true;
        steps.push(step);
    }
    for index in &before.vector_indexes {
        let now = after.vector_index(&index.name);
        if now == Some(index) {
            continue;
        }
        let mut step = sizes.step(
            Phase::Contract,
            StepKind::Contract,
            after,
            Some(&index.name),
            None,
            format!("Delete the old vector index {}", index.name),
            if now.is_some() {
                "it is replaced by one with other settings".to_string()
            } else {
                "the new design has no such vector index; delete it once nothing searches it"
                    .to_string()
            },
            Work::default(),
        );
        step.vector = true;
        steps.push(step);
    }
}

/// `embedding, 1536 dimensions, COSINE`.
fn settings(index: &VectorIndex) -> String {
    format!(
        "{}, {} dimensions, {}",
        index.attribute,
        index.dimensions,
        index.distance.as_str()
    )
}
