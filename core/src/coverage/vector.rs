//! A vector search's verdict: `SearchVectors` on the table's vector index over the searched
//! attribute, or, when none can answer it, a Scan (the application reads every item and ranks
//! them itself) with the reason.
//!
//! Sourced (read 2026-12-05): `TopK` is 1 to 100 and items without the vector attribute are not
//! in the index (<https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/VectorSearchTroubleshooting.html>,
//! <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/VectorSearchStorage.html>);
//! `SearchVectors` takes an index, a search vector, `TopK`, a `SearchConditionExpression` on the
//! index's `SearchSchema` attributes alone and no ConsistentRead, and returns items by
//! similarity (<https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_SearchVectors.html>).
//! Assumed: a search vector whose length is not the index's dimensions is refused, as a write
//! of one is (the troubleshooting page says so of writes only).

use super::empty_verdict;
use super::prepared::Prepared;
use super::read::home_of;
use crate::answer::{Operation, Verdict};
use crate::limits;
use crate::model::{AccessPattern, VectorIndex};

pub(super) fn vector_verdict(prepared: &Prepared<'_>, pattern: &AccessPattern) -> Verdict {
    let mut verdict = empty_verdict(pattern, Operation::Scan);
    let Some(search) = &pattern.vector else {
        return verdict;
    };
    let Some((table_idx, returned)) = home_of(prepared, pattern, &mut verdict) else {
        return verdict;
    };
    let table = prepared.tables[table_idx].table;
    verdict.table = Some(table.name.clone());
    let reasons = &mut verdict.reasons;
    if !(1..=limits::VECTOR_TOP_K_MAX).contains(&search.top_k) {
        reasons.push(format!(
            "SearchVectors takes a TopK of 1 to {}, not {}",
            limits::VECTOR_TOP_K_MAX,
            search.top_k
        ));
    }
    for idx in &returned {
        let entity = prepared.entity(*idx);
        if entity.attribute(&search.attribute).is_none() {
            reasons.push(format!(
                "{} has no attribute `{}`: its items are not in a vector index on it",
                entity.name, search.attribute
            ));
        }
    }
    let on_attribute: Vec<&VectorIndex> = table
        .vector_indexes
        .iter()
        .filter(|v| v.attribute == search.attribute)
        .collect();
    let index = match &search.index {
        Some(name) => match table.vector_index(name) {
            Some(index) if index.attribute == search.attribute => Some(index),
            Some(index) => {
                reasons.push(format!(
                    "vector index `{name}` is on `{}`, not `{}`",
                    index.attribute, search.attribute
                ));
                None
            }
            None => {
                reasons.push(format!(
                    "table `{}` has no vector index `{name}`",
                    table.name
                ));
                None
            }
        },
        None => on_attribute.first().copied(),
    };
    let Some(index) = index else {
        if search.index.is_none() {
            let dimensions = search
                .dimensions
                .map_or_else(|| "its".to_string(), |d| d.to_string());
            reasons.push(format!(
                "table `{}` has no vector index on `{}`: add one ({dimensions} dimensions, the embedding model's distance function)",
                table.name, search.attribute
            ));
        }
        return verdict;
    };
    if let Some(dimensions) = search.dimensions
        && dimensions != index.dimensions
    {
        reasons.push(format!(
            "the query vector has {dimensions} dimensions and `{}` holds {}: they must agree",
            index.name, index.dimensions
        ));
    }
    let narrowing: Vec<&str> = pattern
        .inputs
        .iter()
        .filter(|i| **i != search.query)
        .map(String::as_str)
        .collect();
    if !narrowing.is_empty() {
        reasons.push(format!(
            "SearchVectors narrows only by the index's SearchSchema, which keyplan does not model: inputs {} cannot narrow it",
            narrowing.iter().map(|i| format!("`{i}`")).collect::<Vec<_>>().join(", ")
        ));
    }
    if !pattern.filter.is_empty() {
        reasons.push(
            "SearchVectors filters only on the index's SearchSchema attributes, which keyplan does not model"
                .to_string(),
        );
    }
    if let Some(by) = pattern
        .order_by
        .as_ref()
        .or(pattern.sort.as_ref().map(|s| &s.attribute))
    {
        reasons.push(format!(
            "SearchVectors returns items by similarity: it cannot range or order by `{by}`"
        ));
    }
    if pattern.consistent {
        reasons.push("SearchVectors has no strongly consistent read".to_string());
    }
    if !verdict.reasons.is_empty() {
        return verdict;
    }
    verdict.operation = Operation::SearchVectors;
    verdict.covered = true;
    verdict.index = Some(index.name.clone());
    verdict.order = Some(format!(
        "the {} nearest to `{}` by {} distance on `{}`",
        search.top_k,
        search.query,
        index.distance.as_str(),
        index.attribute
    ));
    verdict
}

#[cfg(test)]
mod tests;
