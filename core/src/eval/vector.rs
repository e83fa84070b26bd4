//! A vector search run over the sample ([`vector_pattern`], issue 40): the exact `TopK` nearest
//! items by the vector index's distance function, as AWS's SearchVectors states its answer:
//! "COSINE - Returns the items with the k smallest scores. Scores range from 0 (identical) to 2
//! (opposite)", "EUCLIDEAN - Returns the items with the k smallest scores", "DOT_PRODUCT -
//! Returns the items with the k highest scores"
//! (<https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_SearchVectors.html>).
//!
//! The candidates are the table's items whose vector attribute is a list of exactly the index's
//! dimensions of numbers, each a finite 32-bit float: an item without it is not in the index
//! (sparse), and DynamoDB refuses a write of any other. Each number is read as the index stores
//! it (a 32-bit float) and the score is computed in 64 bits; a COSINE score against a zero
//! vector is 1. Ties (equal scores) are broken by the table's primary key order, the order
//! [`ItemStore`] keeps a table's items in; DynamoDB's own order of equal scores is not stated,
//! so a run compares tied items as interchangeable. A result is the item as the index projects
//! it, without its vector (SearchVectors returns the vector only when a ProjectionExpression
//! asks for it).
//!
//! Without a query vector given, the search asks for the items nearest the first candidate's
//! own vector ("more like this one"), so the sample always has an answer.

use std::cmp::Ordering;
use std::collections::BTreeMap;

use super::plan::PlanError;
use super::query::Merged;
use super::run::PatternRun;
use super::store::{ItemStore, TableStore};
use crate::answer::{Operation, Verdict};
use crate::model::{Design, Distance, Projection, VectorIndex};
use crate::{AttributeValue, Item};

/// One candidate of a search, ranked: the item as the index projects it and its score.
#[derive(Debug, Clone, PartialEq)]
pub struct VectorHit {
    /// The item's table key (its partition and sort key attributes).
    pub key: Item,
    /// The item as the vector index projects it, without the vector.
    pub item: Item,
    pub entity: Option<String>,
    pub score: f64,
}

/// A vector search over the sample: every candidate ranked, the first `top_k` the answer.
#[derive(Debug, Clone, PartialEq)]
pub struct VectorRun {
    pub index: String,
    pub distance: Distance,
    pub top_k: usize,
    /// The search vector, as the index reads it.
    pub query: Vec<f32>,
    /// Every candidate, best first; ties in table key order.
    pub ranked: Vec<VectorHit>,
    /// Items carrying the attribute that are not candidates (another length, not numbers).
    pub misfits: usize,
    /// The answer as every other read's: the first `top_k` items.
    pub run: PatternRun,
}

impl VectorRun {
    /// The answer: the `top_k` best candidates.
    pub fn answer(&self) -> &[VectorHit] {
        &self.ranked[..self.top_k.min(self.ranked.len())]
    }

    /// The score of the last item of the answer, which an item must equal or better to be a
    /// true neighbour (equal scores are interchangeable); `None` when nothing is returned.
    pub fn threshold(&self) -> Option<f64> {
        self.answer().last().map(|hit| hit.score)
    }
}

/// The vector the index reads from `value`: `dimensions` numbers, each a finite 32-bit float.
pub fn vector_of(value: &AttributeValue, dimensions: u32) -> Option<Vec<f32>> {
    let AttributeValue::L(list) = value else {
        return None;
    };
    if list.len() != dimensions as usize {
        return None;
    }
    list.iter()
        .map(|element| match element {
            AttributeValue::N(n) => n.trim().parse::<f32>().ok().filter(|v| v.is_finite()),
            _ => None,
        })
        .collect()
}

/// The score of `stored` against `query` by `distance`, in 64 bits over 32-bit elements.
pub fn score(distance: Distance, query: &[f32], stored: &[f32]) -> f64 {
    let pairs = query
        .iter()
        .zip(stored)
        .map(|(q, s)| (f64::from(*q), f64::from(*s)));
    match distance {
        Distance::Euclidean => pairs.map(|(q, s)| (q - s) * (q - s)).sum::<f64>().sqrt(),
        Distance::DotProduct => pairs.map(|(q, s)| q * s).sum(),
        Distance::Cosine => {
            let (mut dot, mut qq, mut ss) = (0.0, 0.0, 0.0);
            for (q, s) in pairs {
                dot += q * s;
                qq += q * q;
                ss += s * s;
            }
            if qq == 0.0 || ss == 0.0 {
                return 1.0;
            }
            (1.0 - dot / (qq.sqrt() * ss.sqrt())).clamp(0.0, 2.0)
        }
    }
}

/// How `a` ranks against `b` by `distance`: `Less` when `a` is the better (nearer) score.
pub fn rank_scores(distance: Distance, a: f64, b: f64) -> Ordering {
    match distance {
        Distance::DotProduct => b.total_cmp(&a),
        Distance::Cosine | Distance::Euclidean => a.total_cmp(&b),
    }
}

/// The vector index `verdict` searches, on its table.
fn searched<'d>(
    design: &'d Design,
    verdict: &Verdict,
) -> Result<(&'d VectorIndex, usize), PlanError> {
    if verdict.operation != Operation::SearchVectors {
        return Err(PlanError::NotAVectorSearch(
            verdict.pattern.clone(),
            verdict.operation.as_str(),
        ));
    }
    let incomplete = || PlanError::Incomplete(verdict.pattern.clone());
    let pattern = design.pattern(&verdict.pattern).ok_or_else(incomplete)?;
    let search = pattern.vector.as_ref().ok_or_else(incomplete)?;
    let table = verdict
        .table
        .as_deref()
        .and_then(|t| design.table(t))
        .ok_or_else(incomplete)?;
    let index = verdict
        .index
        .as_deref()
        .and_then(|name| table.vector_index(name))
        .ok_or_else(incomplete)?;
    Ok((index, search.top_k as usize))
}

/// Runs the vector search `verdict` is of over the sample: with `query`, or without one the
/// first candidate's own vector.
pub fn vector_pattern(
    design: &Design,
    store: &ItemStore,
    verdict: &Verdict,
    query: Option<Vec<f32>>,
) -> Result<VectorRun, PlanError> {
    let (index, top_k) = searched(design, verdict)?;
    let table_name = verdict.table.clone().unwrap_or_default();
    let table = store
        .table(&table_name)
        .ok_or_else(|| PlanError::NoSample(format!("`{table_name}`")))?;
    let mut misfits = 0;
    let mut candidates: Vec<(usize, Vec<f32>)> = Vec::new();
    for (position, stored) in table.items().iter().enumerate() {
        let Some(value) = stored.item.get(&index.attribute) else {
            continue;
        };
        match vector_of(value, index.dimensions) {
            Some(vector) => candidates.push((position, vector)),
            None => misfits += 1,
        }
    }
    let (query, query_from) = match query {
        Some(query) => (query, None),
        None => {
            let (position, vector) = candidates.first().ok_or_else(|| {
                PlanError::NoSample(format!(
                    "`{table_name}` whose `{}` holds {} numbers",
                    index.attribute, index.dimensions
                ))
            })?;
            (vector.clone(), Some(*position))
        }
    };
    if query.len() != index.dimensions as usize {
        return Err(PlanError::VectorLength {
            given: query.len(),
            index: index.name.clone(),
            dimensions: index.dimensions,
        });
    }
    let mut ranked: Vec<VectorHit> = candidates
        .iter()
        .map(|(position, vector)| {
            let stored = &table.items()[*position];
            VectorHit {
                key: table_key(table, &stored.item),
                item: project(table, index, &stored.item),
                entity: stored.entity.clone(),
                score: score(index.distance, &query, vector),
            }
        })
        .collect();
    // A stable sort over the table's key order: equal scores stay in that order.
    ranked.sort_by(|a, b| rank_scores(index.distance, a.score, b.score));
    let answer = &ranked[..top_k.min(ranked.len())];
    let described = match query_from {
        Some(position) => format!(
            "the {} of {}",
            index.attribute,
            describe_key(&table_key(table, &table.items()[position].item))
        ),
        None => format!("a vector of {} numbers", index.dimensions),
    };
    let run = PatternRun {
        pattern: verdict.pattern.clone(),
        operation: Operation::SearchVectors,
        inputs: pattern_inputs(design, verdict, &described),
        conditions: vec![format!(
            "SearchVectors on {}: the {top_k} nearest by {} of {} item(s) with a {}-number {}",
            index.name,
            index.distance.as_str(),
            ranked.len(),
            index.dimensions,
            index.attribute
        )],
        filter: None,
        result: Merged {
            items: answer.iter().map(|hit| hit.item.clone()).collect(),
            entities: answer.iter().map(|hit| hit.entity.clone()).collect(),
            pages: Vec::new(),
            bytes_read: 0,
            read_units: 0.0,
            scanned: ranked.len(),
        },
    };
    Ok(VectorRun {
        index: index.name.clone(),
        distance: index.distance,
        top_k,
        query,
        ranked,
        misfits,
        run,
    })
}

/// The pattern's query input named, with what it was given.
fn pattern_inputs(design: &Design, verdict: &Verdict, described: &str) -> BTreeMap<String, String> {
    let name = design
        .pattern(&verdict.pattern)
        .and_then(|p| p.vector.as_ref())
        .map_or_else(|| "queryVector".to_string(), |v| v.query.clone());
    BTreeMap::from([(name, described.to_string())])
}

/// `item`'s table key attributes.
fn table_key(table: &TableStore, item: &Item) -> Item {
    table
        .index(None)
        .map(|own| {
            own.partition_key
                .iter()
                .chain(&own.sort_key)
                .filter_map(|k| item.get(&k.name).map(|v| (k.name.clone(), v.clone())))
                .collect()
        })
        .unwrap_or_default()
}

/// A key as `PK = PRODUCT#1, SK = PRODUCT`.
fn describe_key(key: &Item) -> String {
    key.iter()
        .map(|(name, value)| format!("{name} = {}", super::query::show_value(value)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `item` as the vector index projects it: the table's keys and what the projection names,
/// never the vector itself.
fn project(table: &TableStore, index: &VectorIndex, item: &Item) -> Item {
    let key = table_key(table, item);
    item.iter()
        .filter(|(name, _)| **name != index.attribute)
        .filter(|(name, _)| {
            key.contains_key(*name)
                || match &index.projection {
                    Projection::All => true,
                    Projection::KeysOnly => false,
                    Projection::Include { attributes } => attributes.iter().any(|a| a == *name),
                }
        })
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

#[cfg(test)]
mod tests;
