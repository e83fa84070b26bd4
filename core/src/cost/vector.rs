//! What a table's vector indexes hold and take each month (issue 40): the items in each, the
//! bytes of their vectors, the bytes every write replicates into them and the searches made,
//! each [`VECTOR_NOT_PRICED`] since AWS's price of them was not found (see [`crate::pricing`]).
//!
//! Sourced (read 2026-12-05): an index holds only the items that have its vector attribute, a
//! vector as 32-bit floats (4 bytes a dimension) plus the projected attributes; a write is
//! metered in vector write bytes only when it changes what the index holds, a search in vector
//! search bytes that scale with the vectors it examines
//! (<https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/VectorSearchStorage.html>,
//! <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/VectorSearchMonitoring.html>).
//! Counted here: the vectors' bytes alone (the projection and the keys are not, so every figure
//! is a floor); what one search examines is not published, so searches are counted, not sized.

use serde::Serialize;

use super::units::steps;
use super::{EntitySize, MONTH_SECONDS, PatternCost};
use crate::answer::{Operation, Verdict};
use crate::limits::VECTOR_BYTES_PER_DIMENSION;
use crate::model::{Action, ByName, Design, Projection, VectorIndex};
use crate::pricing::VECTOR_NOT_PRICED;

/// One vector index's month.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct VectorIndexCost {
    pub table: String,
    pub index: String,
    /// Items holding the vector attribute: the entities' items that declare it.
    pub items: f64,
    /// Bytes of one entry's vector (dimensions x 4); the projection is not counted.
    pub vector_bytes: f64,
    /// `items` x `vector_bytes`: the least the index stores.
    pub storage_bytes: f64,
    /// Vector write bytes replicated into the index a month, at the patterns' average rates.
    pub monthly_write_bytes: f64,
    /// `SearchVectors` requests a month on the index.
    pub monthly_searches: f64,
    /// Always `None` until AWS publishes a price: see [`VECTOR_NOT_PRICED`].
    pub monthly_cost: Option<f64>,
    pub priced: &'static str,
}

/// Every vector index of `design`, with what the patterns write to and search in it; each
/// write pattern's and search's line in `patterns` says what it replicates or searches.
pub(super) fn vector_costs(
    design: &Design,
    by_name: &ByName<'_>,
    verdicts: &[Verdict],
    sizes: &[EntitySize],
    patterns: &mut [PatternCost],
) -> Vec<VectorIndexCost> {
    let mut out = Vec::new();
    // By name: `patterns` has a line for each verdict whose pattern exists, in order.
    let verdict_of: std::collections::HashMap<&str, &Verdict> =
        verdicts.iter().map(|v| (v.pattern.as_str(), v)).collect();
    for table in &design.tables {
        for index in &table.vector_indexes {
            let vector_bytes = (index.dimensions as usize * VECTOR_BYTES_PER_DIMENSION) as f64;
            let holds = |entity: &str| {
                by_name.entity(entity).is_some_and(|e| {
                    e.table == table.name && e.attribute(&index.attribute).is_some()
                })
            };
            let items: f64 = sizes
                .iter()
                .filter(|s| s.table == table.name && holds(&s.entity))
                .map(|s| s.items)
                .sum();
            let mut cost = VectorIndexCost {
                table: table.name.clone(),
                index: index.name.clone(),
                items,
                vector_bytes,
                storage_bytes: items * vector_bytes,
                monthly_write_bytes: 0.0,
                monthly_searches: 0.0,
                monthly_cost: None,
                priced: VECTOR_NOT_PRICED,
            };
            for line in patterns.iter_mut() {
                let (Some(pattern), Some(verdict)) = (
                    by_name.pattern(&line.pattern),
                    verdict_of.get(line.pattern.as_str()),
                ) else {
                    continue;
                };
                let month = pattern.average_rate() * MONTH_SECONDS;
                if verdict.operation == Operation::SearchVectors {
                    if verdict.table.as_deref() == Some(&table.name)
                        && verdict.index.as_deref() == Some(&index.name)
                    {
                        cost.monthly_searches += month;
                    }
                    continue;
                }
                if pattern.is_read() {
                    continue;
                }
                let written: f64 = steps(pattern)
                    .iter()
                    .filter(|s| holds(&s.entity) && replicates(index, s.action, &s.changes))
                    .map(|s| f64::from(s.count.max(1)) * vector_bytes)
                    .sum();
                if written > 0.0 {
                    cost.monthly_write_bytes += written * month;
                    line.breakdown.push(format!(
                        "vector index {}: at least {} B of vector write bytes a request ({VECTOR_NOT_PRICED})",
                        index.name, written
                    ));
                }
            }
            out.push(cost);
        }
    }
    out
}

/// Whether a write replicates into `index`: a put or a delete of an item holding its
/// attribute does; an update only when it changes the attribute, or anything an `ALL`
/// projection copies (an INCLUDE projection's attributes are not traced: counted as changing).
fn replicates(index: &VectorIndex, action: Action, changes: &[String]) -> bool {
    match action {
        Action::Update => match &index.projection {
            Projection::All => true,
            Projection::KeysOnly => changes.is_empty() || changes.contains(&index.attribute),
            Projection::Include { attributes } => {
                changes.is_empty()
                    || changes
                        .iter()
                        .any(|c| *c == index.attribute || attributes.contains(c))
            }
        },
        _ => true,
    }
}

#[cfg(test)]
mod tests;
