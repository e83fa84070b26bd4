//! A vector search run on the engine (issue 40): SearchVectors with core's search vector and
//! `TopK` (<https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_SearchVectors.html>),
//! its answer compared with core's exact one.
//!
//! AWS's page states the answer as exact ("Returns the items with the k smallest scores", the
//! k highest for DOT_PRODUCT), and the embedded dynoxide 3.2 computes it so (brute force over
//! every vector). The comparison is nonetheless the one an approximate index can be held to
//! honestly: each returned item is scored by core from its own copy of the item, and the answer
//! passes when its scores are, position by position, the exact answer's (so items of equal
//! score, which DynamoDB orders as it likes, are interchangeable), its items are the ones core
//! projects, and each engine `Score` is core's to a millionth. Otherwise the diff lists what
//! differs and the recall: how many of the returned items score at least as well as core's k-th,
//! of the k expected.
//!
//! An engine without vector indexes (moto 5) makes the table without its vector index: its
//! DescribeTable lists none, so the search is reported not run, with that reason, and the run
//! goes on (as it does in a migration's verification whose step adding the index was not
//! executed).

use std::collections::HashMap;
use std::time::Instant;

use aws_sdk_dynamodb::types::{AttributeValue as Sdk, IndexStatus};
use keyplan_core::eval::{VectorHit, rank_scores};
use keyplan_core::{Item, Operation};

use super::convert::{canonical, item_from_sdk, show_item};
use super::diff::diff;
use super::error::{RunError, run_error};
use super::exec::Names;
use super::plan::VectorCheck;
use super::{PatternResult, Status};
use crate::engine::Engine;

/// How far an engine's `Score` may be from core's, relative to the larger of 1 and the score:
/// the index stores 32-bit floats, whose sums may be taken in another order.
const SCORE_TOLERANCE: f64 = 1e-6;

/// Runs the search and compares it with core's.
pub async fn search(
    engine: &Engine,
    names: Names<'_>,
    index: usize,
    check: &VectorCheck,
) -> PatternResult {
    let started = Instant::now();
    let search = &check.search;
    let mut result = PatternResult::new(
        index,
        &check.pattern,
        Operation::SearchVectors.as_str(),
        Some(search.index.clone()),
    );
    result.expected_items = search.answer().len();
    result.inputs = search.run.inputs.clone();
    let table = names(&check.table);
    let outcome = match described(engine, &table, &search.index).await {
        Ok(true) => run_and_compare(engine, &table, check).await,
        Ok(false) => {
            result.status = Status::Skipped;
            result.message = Some(format!(
                "not run: {}'s table {} has no vector index {} (its DescribeTable lists none): the engine has no vector indexes, or the index was not made",
                engine.name, check.table, search.index
            ));
            return result;
        }
        Err(e) => Err(e),
    };
    result.latency_ms = started.elapsed().as_secs_f64() * 1000.0;
    match outcome {
        Ok(compared) => {
            result.requests = 1;
            result.actual_items = compared.returned;
            if !compared.diffs.is_empty() {
                result.status = Status::Mismatch;
                result.diff = Some(compared.diffs.join("\n"));
            }
            result.message = Some(compared.note);
        }
        Err(e) => {
            result.status = Status::Error;
            result.message = Some(e.to_string());
        }
    }
    result
}

/// Whether the engine describes the vector index `index` on `table`.
async fn described(engine: &Engine, table: &str, index: &str) -> Result<bool, RunError> {
    Ok(index_status(engine, table, index).await?.is_some())
}

/// The status of vector index `index` of the engine table `table`, as DescribeTable gives it
/// (`Some(None)` when it lists the index without one); `None` when it lists no such index.
pub(super) async fn index_status(
    engine: &Engine,
    table: &str,
    index: &str,
) -> Result<Option<Option<IndexStatus>>, RunError> {
    let what = format!("describe table {table}");
    let answer = engine
        .client
        .describe_table()
        .table_name(table)
        .send()
        .await
        .map_err(|e| run_error(engine, &what, &e))?;
    Ok(answer.table().and_then(|t| {
        t.vector_indexes()
            .iter()
            .find(|v| v.index_name() == Some(index))
            .map(|v| v.index_status().cloned())
    }))
}

/// The engine's answer next to core's.
#[derive(Debug, Default)]
struct Compared {
    returned: usize,
    diffs: Vec<String>,
    note: String,
}

async fn run_and_compare(
    engine: &Engine,
    table: &str,
    check: &VectorCheck,
) -> Result<Compared, RunError> {
    let search = &check.search;
    let what = format!("search vector index {} of {table}", search.index);
    let vector: Vec<Sdk> = search.query.iter().map(|v| Sdk::N(v.to_string())).collect();
    let answer = engine
        .client
        .search_vectors()
        .table_name(table)
        .index_name(&search.index)
        .set_search_vector(Some(vector))
        .top_k(i32::try_from(search.top_k).unwrap_or(i32::MAX))
        .send()
        .await
        .map_err(|e| run_error(engine, &what, &e))?;
    let returned: Vec<(Item, Option<f64>)> = answer
        .search_results()
        .iter()
        .map(|hit| {
            (
                hit.item().map(item_from_sdk).unwrap_or_default(),
                Some(hit.score()),
            )
        })
        .collect();
    Ok(compare(check, &returned))
}

/// Judges `returned` (each item with the engine's `Score`) against core's search.
fn compare(check: &VectorCheck, returned: &[(Item, Option<f64>)]) -> Compared {
    let search = &check.search;
    let expected = search.answer();
    // An item's table key written out, its numbers as DynamoDB writes them.
    let key_of = |item: &Item| -> String {
        let key: Item = check
            .table_key
            .iter()
            .filter_map(|k| item.get(k).map(|v| (k.clone(), canonical(v))))
            .collect();
        show_item(&key, &check.table_key)
    };
    let by_key: HashMap<String, &VectorHit> = search
        .ranked
        .iter()
        .map(|hit| (key_of(&hit.key), hit))
        .collect();
    let mut diffs = Vec::new();
    // Each returned item as core holds it (its score, its projection), by its key.
    let mut core_hits: Vec<&VectorHit> = Vec::new();
    for (item, score) in returned {
        let Some(hit) = by_key.get(&key_of(item)) else {
            diffs.push(format!(
                "returned an item core holds no vector of: {}",
                show_item(item, &check.table_key)
            ));
            continue;
        };
        core_hits.push(hit);
        if let Some(score) = score
            && (score - hit.score).abs() > SCORE_TOLERANCE * hit.score.abs().max(1.0)
        {
            diffs.push(format!(
                "Score of {}: the engine's {score}, core's {}",
                show_item(&hit.key, &check.table_key),
                hit.score
            ));
        }
    }
    let equal = |a: f64, b: f64| (a - b).abs() <= SCORE_TOLERANCE * a.abs().max(1.0);
    let exact = core_hits.len() == expected.len()
        && core_hits
            .iter()
            .zip(expected)
            .all(|(got, want)| equal(got.score, want.score));
    let recall = search.threshold().map_or(0, |threshold| {
        core_hits
            .iter()
            .filter(|hit| {
                equal(hit.score, threshold)
                    || rank_scores(search.distance, hit.score, threshold).is_lt()
            })
            .count()
    });
    let got: Vec<Item> = returned.iter().map(|(item, _)| item.clone()).collect();
    if exact {
        // The same scores in the same places: compare the items against core's projection of
        // the very items returned, so that tied items in another order are no difference.
        let want: Vec<Item> = core_hits.iter().map(|hit| hit.item.clone()).collect();
        if let Some(d) = diff(&want, &got, &check.table_key) {
            diffs.push(d);
        }
    } else {
        let want: Vec<Item> = expected.iter().map(|hit| hit.item.clone()).collect();
        diffs.push(format!(
            "not the exact {} nearest by {}: recall {recall} of {}",
            expected.len(),
            search.distance.as_str(),
            expected.len()
        ));
        if let Some(d) = diff(&want, &got, &check.table_key) {
            diffs.push(d);
        }
    }
    let note = format!(
        "{} nearest by {} of {} vector(s) of {} number(s): recall {recall} of {} against core's exact answer (equal scores interchangeable)",
        search.top_k,
        search.distance.as_str(),
        search.ranked.len(),
        search.query.len(),
        expected.len()
    );
    Compared {
        returned: returned.len(),
        diffs,
        note,
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use keyplan_core::AttributeValue;
    use keyplan_core::eval::{ItemStore, LoadItem, vector_pattern};

    use super::*;

    /// A check of the 2 items nearest `[1, 0]` by DOT_PRODUCT among a `[1, 0]`, b `[0, 1]`,
    /// c `[1, 0]` (a and c tie at 1) and d `[-1, 0]`.
    fn check() -> VectorCheck {
        let design = keyplan_core::file::parse(
            r#"{"version": 1, "name": "v",
  "tables": [{"name": "t", "partition_key": {"name": "PK", "type": "S"},
    "vector_indexes": [{"name": "ByV", "attribute": "v", "dimensions": 2, "distance": "DOT_PRODUCT"}]}],
  "entities": [{"name": "E", "table": "t",
    "attributes": [{"name": "id", "type": "S", "required": true}, {"name": "v", "type": "L"}],
    "keys": {"PK": "{id}"}}],
  "patterns": [{"name": "Near", "entities": ["E"], "inputs": ["queryVector"],
    "vector": {"attribute": "v", "top_k": 2}}]}"#,
        )
        .unwrap();
        let items = [
            ("a", "1", "0"),
            ("b", "0", "1"),
            ("c", "1", "0"),
            ("d", "-1", "0"),
        ]
        .map(|(id, x, y)| LoadItem {
            table: "t".into(),
            entity: Some("E".into()),
            item: Item::from([
                ("PK".to_string(), AttributeValue::S(id.into())),
                (
                    "v".to_string(),
                    AttributeValue::L(vec![
                        AttributeValue::N(x.into()),
                        AttributeValue::N(y.into()),
                    ]),
                ),
            ]),
        });
        let store = ItemStore::build(&design, items);
        let verdict = &keyplan_core::analyze(&design).verdicts[0];
        VectorCheck {
            pattern: "Near".into(),
            table: "t".into(),
            table_key: vec!["PK".into()],
            search: vector_pattern(&design, &store, verdict, Some(vec![1.0, 0.0])).unwrap(),
        }
    }

    fn answer(ids: &[(&str, f64)]) -> Vec<(Item, Option<f64>)> {
        ids.iter()
            .map(|(id, score)| {
                (
                    Item::from([("PK".to_string(), AttributeValue::S((*id).into()))]),
                    Some(*score),
                )
            })
            .collect()
    }

    #[test]
    fn tied_items_in_another_order_are_no_difference() {
        let compared = compare(&check(), &answer(&[("c", 1.0), ("a", 1.0)]));
        assert_eq!(compared.diffs, Vec::<String>::new());
        assert!(compared.note.contains("recall 2 of 2"), "{}", compared.note);
    }

    #[test]
    fn an_answer_missing_a_nearest_item_is_a_mismatch_with_its_recall() {
        let compared = compare(&check(), &answer(&[("a", 1.0), ("b", 0.0)]));
        assert!(
            compared.diffs[0].starts_with("not the exact 2 nearest by DOT_PRODUCT: recall 1 of 2"),
            "{:?}",
            compared.diffs
        );
    }

    #[test]
    fn a_score_that_is_not_cores_is_a_mismatch() {
        let compared = compare(&check(), &answer(&[("a", 1.0), ("c", 0.5)]));
        assert_eq!(compared.diffs.len(), 1, "{:?}", compared.diffs);
        assert!(
            compared.diffs[0].starts_with("Score of "),
            "{:?}",
            compared.diffs
        );
    }
}
