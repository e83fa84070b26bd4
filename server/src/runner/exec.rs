//! Executing a plan's checks on the engine: every read with its key condition (paging to the
//! end, a Query per shard merged in sort-key order) and every write as the pattern states it
//! (a transaction with its conditions), then comparing with the plan's prediction.
//!
//! Requests go only to the run's own table names, mapped from design table names by the
//! caller's `names` function.

use std::cmp::Ordering;
use std::collections::HashMap;
use std::time::Instant;

use aws_sdk_dynamodb::types::{
    AttributeValue as Sdk, Delete, Put, ReturnConsumedCapacity, TransactWriteItem, Update,
};
use keyplan_core::{AttributeValue, Item, Operation};

use super::convert::{item_from_sdk, item_to_sdk, to_sdk};
use super::diff::diff;
use super::error::{RunError, code, run_error};
use super::plan::{ExpectedPage, KeyQuery, ReadCheck, WriteCheck, WriteRequest};
use super::{PatternResult, Status};
use crate::engine::Engine;
use crate::runner::paging::{MAX_EMPTY_PAGES, Paging};

/// Maps a design table name to the run's engine-side name.
pub type Names<'a> = &'a (dyn Fn(&str) -> String + Send + Sync);

/// What the requests of one pattern cost.
#[derive(Debug, Default)]
struct Tally {
    requests: usize,
    capacity: f64,
    /// The items the engine read before the filter (ScannedCount summed).
    scanned: usize,
}

/// Runs a read and compares it with the prediction: each query's pages item for item, and for
/// a scatter-gather the merged first page too.
pub async fn read(
    engine: &Engine,
    names: Names<'_>,
    index: usize,
    check: &ReadCheck,
) -> PatternResult {
    let started = Instant::now();
    let mut tally = Tally::default();
    let outcome = read_and_compare(engine, names, check, &mut tally).await;
    let scanned = tally.scanned;
    let mut result = PatternResult::new(
        index,
        &check.pattern,
        check.operation.as_str(),
        check.index.clone(),
    );
    result.expected_items = check.n_expected();
    let filtered = check.queries.iter().any(|(q, _, _)| q.has_filter());
    if filtered {
        result.expected_scanned = Some(check.n_scanned());
    }
    result.inputs = check.inputs.clone();
    result.predicted_capacity = Some(check.predicted_units());
    if filtered {
        result.actual_scanned = Some(scanned);
    }
    finish(result, started, &tally, outcome)
}

/// What the engine returned next to the prediction: the items it returned, how they differ
/// (a mismatch), and what the engine did its own way that is no fault of the design.
#[derive(Debug, Default)]
struct Compared {
    actual: usize,
    diffs: Vec<String>,
    notes: Vec<String>,
}

/// Fills in the figures and the outcome: a mismatch when there are diffs, an error message,
/// the notes on what the engine did its own way as the message.
fn finish(
    mut result: PatternResult,
    started: Instant,
    tally: &Tally,
    outcome: Result<Compared, RunError>,
) -> PatternResult {
    result.latency_ms = started.elapsed().as_secs_f64() * 1000.0;
    result.requests = tally.requests;
    result.consumed_capacity = tally.capacity;
    match outcome {
        Ok(compared) => {
            result.actual_items = compared.actual;
            if !compared.diffs.is_empty() {
                result.status = Status::Mismatch;
                result.diff = Some(compared.diffs.join("\n"));
            }
            if !compared.notes.is_empty() {
                result.message = Some(compared.notes.join("\n"));
            }
        }
        Err(e) => {
            result.status = Status::Error;
            result.message = Some(e.to_string());
        }
    }
    result
}

async fn read_and_compare(
    engine: &Engine,
    names: Names<'_>,
    check: &ReadCheck,
    tally: &mut Tally,
) -> Result<Compared, RunError> {
    let table = names(&check.table);
    let fetches = check.queries.iter().map(|(query, expected, _)| async {
        if check.operation == Operation::GetItem {
            get_item(engine, &table, check, query).await
        } else {
            query_pages(engine, &table, check, query, expected).await
        }
    });
    let answers = futures_util::future::join_all(fetches).await;
    let mut compared = Compared::default();
    // A read given as PartiQL (issue 40): the statement too, against the same prediction.
    if let Some(statement) = &check.statement {
        let want: Vec<Item> = check
            .queries
            .iter()
            .flat_map(|(_, pages, _)| pages.iter().flat_map(|p| p.items.clone()))
            .collect();
        let (got, requests) =
            super::statement::execute(engine, &table, check, statement, want.len()).await?;
        tally.requests += requests;
        if let Some(d) = diff(&want, &got, &check.show_first) {
            compared.diffs.push(format!(
                "ExecuteStatement `{}`: {d}",
                statement.text(&check.table)
            ));
        }
    }
    let sharded = check.queries.len() > 1;
    let mut first_pages = Vec::new();
    let mut own_first_pages = false;
    // Every item read, for a Query sorted in memory: it reads them all, then sorts.
    let mut every_item: Vec<Item> = Vec::new();
    for (shard, ((query, expected, other), answer)) in check.queries.iter().zip(answers).enumerate()
    {
        let (pages, requests, capacity, scanned) = answer?;
        tally.requests += requests;
        tally.capacity += capacity;
        tally.scanned += scanned;
        let label = if sharded {
            format!("shard {shard}: ")
        } else {
            String::new()
        };
        let want: Vec<Item> = expected.iter().flat_map(|p| p.items.clone()).collect();
        let got: Vec<Item> = pages.iter().flatten().cloned().collect();
        compared.actual += got.len();
        if check.sorted_in_memory.is_some() {
            every_item.extend(got.iter().cloned());
        }
        let want_sizes = page_sizes(expected.iter().map(|p| p.items.len()).collect());
        let got_sizes = page_sizes(pages.iter().map(Vec::len).collect());
        let want_scanned: usize = expected.iter().map(|p| p.scanned).sum();
        // The engine's own page ends (issue 41 item 7): the same items, paged and counted as
        // core predicts an engine that ends a page before the item crossing 1 MB would.
        let scanned_differs = query.has_filter() && scanned != want_scanned;
        let own_paging = (want_sizes != got_sizes || scanned_differs)
            && other.as_ref().is_some_and(|o| {
                page_sizes(o.page_items.clone()) == got_sizes
                    && (!query.has_filter() || o.scanned == scanned)
            });
        if scanned_differs && !own_paging {
            compared.diffs.push(format!(
                "{label}the engine read {scanned} items before the filter (ScannedCount), core predicts {want_scanned}"
            ));
        }
        if let Some(d) = diff(&want, &got, &check.show_first) {
            compared.diffs.push(format!("{label}{d}"));
        } else if own_paging {
            let counted = if scanned_differs {
                format!(
                    "; it counts the item it stopped at as read, ScannedCount {scanned} where DynamoDB's is {want_scanned}"
                )
            } else {
                String::new()
            };
            let paged = if want_sizes == got_sizes {
                " in the same pages".to_string()
            } else {
                format!(", in pages of {got_sizes:?} where DynamoDB's are {want_sizes:?}")
            };
            compared.notes.push(format!(
                "{label}the engine ends a page before the item that takes it past 1 MB, DynamoDB after it: the same {} items{paged}{counted} (the engine's paging, not a difference in the design)",
                got.len()
            ));
            own_first_pages = true;
        } else if want_sizes != got_sizes {
            compared.diffs.push(format!(
                "{label}the same items, paged differently: core predicts pages of {want_sizes:?}, the engine returned {got_sizes:?}"
            ));
        }
        first_pages.push(pages.into_iter().next().unwrap_or_default());
    }
    if let (Some(merged), Some(order)) = (&check.merged, &check.sorted_in_memory) {
        // The engine's items in the order the shards merge, then sorted as core sorts them.
        merge_in_key_order(&mut every_item, check);
        keyplan_core::eval::sort_in_memory(
            &mut every_item,
            |item| item,
            &order.attribute,
            !check.scan_forward,
            order.page,
        );
        if let Some(d) = diff(merged, &every_item, &check.show_first) {
            compared.diffs.push(format!(
                "first page sorted in memory by {}: {d}",
                order.attribute
            ));
        }
    } else if let Some(merged) = &check.merged {
        if own_first_pages {
            compared.notes.push(
                "the merged first page of all shards is not compared: the engine's first pages end by its own rule".to_string(),
            );
        } else {
            let mut rows: Vec<Item> = first_pages.into_iter().flatten().collect();
            merge_in_key_order(&mut rows, check);
            if let Some(limit) = check.page_size {
                rows.truncate(limit as usize);
            }
            if let Some(d) = diff(merged, &rows, &check.show_first) {
                compared
                    .diffs
                    .push(format!("merged first page of all shards: {d}"));
            }
        }
    }
    Ok(compared)
}

/// Sorts the items of several shards as their merge orders them: by the index's sort key,
/// then the table's key, in the read's direction.
fn merge_in_key_order(rows: &mut [Item], check: &ReadCheck) {
    rows.sort_by(|a, b| {
        let order = compare_keys(a, b, &check.merge_order);
        if check.scan_forward {
            order
        } else {
            order.reverse()
        }
    });
}

/// The items of each page, without the empty pages at the end (an engine may end with an
/// empty page where another ends with a LastEvaluatedKey).
fn page_sizes(mut pages: Vec<usize>) -> Vec<usize> {
    while pages.len() > 1 && pages.last() == Some(&0) {
        pages.pop();
    }
    pages
}

/// The pages' items, the requests sent, the capacity consumed and the items read before the
/// filter.
type Pages = (Vec<Vec<Item>>, usize, f64, usize);

async fn get_item(
    engine: &Engine,
    table: &str,
    check: &ReadCheck,
    query: &KeyQuery,
) -> Result<Pages, RunError> {
    let out = engine
        .client
        .get_item()
        .table_name(table)
        .set_key(Some(item_to_sdk(&query.key())?))
        .consistent_read(check.consistent)
        .return_consumed_capacity(ReturnConsumedCapacity::Total)
        .send()
        .await
        .map_err(|e| run_error(engine, "GetItem", &e))?;
    let capacity = out
        .consumed_capacity()
        .and_then(|c| c.capacity_units())
        .unwrap_or(0.0);
    let items: Vec<Item> = out.item().map(item_from_sdk).into_iter().collect();
    let scanned = items.len();
    Ok((vec![items], 1, capacity, scanned))
}

/// One Query, paged to the end: at most twice the pages and items core predicts
/// (`expected`), and [`MAX_EMPTY_PAGES`] more pages (empty ones beyond those core predicts),
/// so an engine that pages on forever is stopped.
async fn query_pages(
    engine: &Engine,
    table: &str,
    check: &ReadCheck,
    query: &KeyQuery,
    expected: &[ExpectedPage],
) -> Result<Pages, RunError> {
    let (expression, mut names, mut values) = query.expression();
    let filter = query
        .filter_expression()
        .map(|(text, more_names, more_values)| {
            names.extend(more_names);
            values.extend(more_values);
            text
        });
    let names: HashMap<String, String> = names.into_iter().collect();
    let values = values
        .iter()
        .map(|(k, v)| Ok((k.clone(), to_sdk(v)?)))
        .collect::<Result<HashMap<String, Sdk>, RunError>>()?;
    let mut pages = Vec::new();
    let mut start: Option<HashMap<String, Sdk>> = None;
    let mut capacity = 0.0;
    let mut scanned = 0usize;
    let predicted_items: usize = expected.iter().map(|p| p.items.len()).sum();
    let mut paging = Paging::new(
        engine,
        format!("run the Query `{expression}`"),
        (expected.len() as u64).saturating_mul(2) + MAX_EMPTY_PAGES,
    )
    .with_max_items((predicted_items as u64).saturating_mul(2) + 1_000)
    .with_empty_pages_expected(expected.iter().filter(|p| p.items.is_empty()).count() as u64);
    loop {
        let out = engine
            .client
            .query()
            .table_name(table)
            .set_index_name(check.index.clone())
            .key_condition_expression(&expression)
            .set_filter_expression(filter.clone())
            .set_expression_attribute_names(Some(names.clone()))
            .set_expression_attribute_values(Some(values.clone()))
            .scan_index_forward(check.scan_forward)
            .consistent_read(check.consistent)
            .set_limit(check.page_size.map(|n| n.min(i32::MAX as u32) as i32))
            .set_exclusive_start_key(start.clone())
            .return_consumed_capacity(ReturnConsumedCapacity::Total)
            .send()
            .await
            .map_err(|e| {
                let what = format!("run the Query `{expression}`");
                run_error(engine, &what, &e)
            })?;
        let next = out.last_evaluated_key().filter(|key| !key.is_empty());
        paging.page(out.items().len(), start.as_ref(), next)?;
        capacity += out
            .consumed_capacity()
            .and_then(|c| c.capacity_units())
            .unwrap_or(0.0);
        pages.push(out.items().iter().map(item_from_sdk).collect());
        scanned += usize::try_from(out.scanned_count()).unwrap_or(0);
        match next {
            Some(key) => start = Some(key.clone()),
            None => break,
        }
    }
    let requests = pages.len();
    Ok((pages, requests, capacity, scanned))
}

/// DynamoDB's order of key values: strings and binaries by bytes, numbers by value.
pub fn compare_keys(a: &Item, b: &Item, attributes: &[String]) -> Ordering {
    for attr in attributes {
        let order = match (a.get(attr), b.get(attr)) {
            (Some(x), Some(y)) => compare_values(x, y),
            (None, Some(_)) => Ordering::Less,
            (Some(_), None) => Ordering::Greater,
            (None, None) => Ordering::Equal,
        };
        if order != Ordering::Equal {
            return order;
        }
    }
    Ordering::Equal
}

fn compare_values(a: &AttributeValue, b: &AttributeValue) -> Ordering {
    match (a, b) {
        (AttributeValue::N(x), AttributeValue::N(y)) => {
            match (x.parse::<f64>(), y.parse::<f64>()) {
                (Ok(x), Ok(y)) => x.partial_cmp(&y).unwrap_or(Ordering::Equal),
                _ => x.cmp(y),
            }
        }
        (AttributeValue::B(x), AttributeValue::B(y)) => {
            let decode = |t: &str| aws_smithy_types::base64::decode(t).unwrap_or_default();
            decode(x).cmp(&decode(y))
        }
        _ => a.as_key_text().cmp(&b.as_key_text()),
    }
}

/// Runs a write pattern, reads back what it wrote, and (for a conditional put of new items)
/// sends it again to prove the condition refuses a duplicate.
pub async fn write(
    engine: &Engine,
    names: Names<'_>,
    index: usize,
    check: &WriteCheck,
) -> PatternResult {
    let started = Instant::now();
    let mut tally = Tally::default();
    let outcome = write_and_verify(engine, names, check, &mut tally).await;
    let mut result = PatternResult::new(index, &check.pattern, check.operation.as_str(), None);
    result.expected_items = check.after.len();
    finish(result, started, &tally, outcome)
}

async fn write_and_verify(
    engine: &Engine,
    names: Names<'_>,
    check: &WriteCheck,
    tally: &mut Tally,
) -> Result<Compared, RunError> {
    send_writes(engine, names, check, tally).await?;
    let mut found = 0;
    let mut diffs = Vec::new();
    for (table, key, want) in &check.after {
        tally.requests += 1;
        let out = engine
            .client
            .get_item()
            .table_name(names(table))
            .set_key(Some(item_to_sdk(key)?))
            .consistent_read(true)
            .send()
            .await
            .map_err(|e| run_error(engine, "read back a write", &e))?;
        let got: Vec<Item> = out.item().map(item_from_sdk).into_iter().collect();
        found += got.len();
        let want: Vec<Item> = want.iter().cloned().collect();
        let show: Vec<String> = key.keys().cloned().collect();
        if let Some(d) = diff(&want, &got, &show) {
            diffs.push(d);
        }
    }
    if check.repeat_fails {
        match send_writes(engine, names, check, tally).await {
            Ok(()) => diffs.push(
                "sent again, the write succeeded: its condition did not refuse the duplicate"
                    .to_string(),
            ),
            Err(RunError::Refused { detail, .. } | RunError::Engine { detail, .. })
                if detail.contains("ConditionalCheckFailed") => {}
            Err(e) => return Err(e),
        }
    }
    Ok(Compared {
        actual: found,
        diffs,
        notes: Vec::new(),
    })
}

async fn send_writes(
    engine: &Engine,
    names: Names<'_>,
    check: &WriteCheck,
    tally: &mut Tally,
) -> Result<(), RunError> {
    tally.requests += 1;
    let client = &engine.client;
    if check.operation == Operation::TransactWriteItems {
        let items = check
            .requests
            .iter()
            .map(|r| transact_item(names, r))
            .collect::<Result<Vec<_>, RunError>>()?;
        let out = client
            .transact_write_items()
            .set_transact_items(Some(items))
            .return_consumed_capacity(ReturnConsumedCapacity::Total)
            .send()
            .await
            .map_err(|e| {
                let mut err = run_error(engine, "run the transaction", &e);
                if let Some(
                    aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsError::TransactionCanceledException(t),
                ) = e.as_service_error()
                {
                    let reasons = t.cancellation_reasons();
                    let codes: Vec<&str> = reasons.iter().map(|r| r.code().unwrap_or("?")).collect();
                    if let RunError::Engine { detail, .. } | RunError::Refused { detail, .. } =
                        &mut err
                    {
                        let codes = keyplan_core::text::visible(&codes.join(", "));
                        detail.push_str(&format!(" (reasons: {codes})"));
                    }
                }
                err
            })?;
        tally.capacity += out
            .consumed_capacity()
            .iter()
            .filter_map(|c| c.capacity_units())
            .sum::<f64>();
        return Ok(());
    }
    for request in &check.requests {
        let capacity = match request {
            WriteRequest::Put {
                table,
                item,
                condition,
            } => client
                .put_item()
                .table_name(names(table))
                .set_item(Some(item_to_sdk(item)?))
                .set_condition_expression(condition.clone())
                .return_consumed_capacity(ReturnConsumedCapacity::Total)
                .send()
                .await
                .map(|o| o.consumed_capacity().and_then(|c| c.capacity_units()))
                .map_err(|e| conditional(run_error(engine, "PutItem", &e), code(&e))),
            WriteRequest::Update {
                table,
                key,
                set,
                condition,
            } => {
                let (expression, names_map, values) = update_expression(set)?;
                client
                    .update_item()
                    .table_name(names(table))
                    .set_key(Some(item_to_sdk(key)?))
                    .update_expression(expression)
                    .set_expression_attribute_names(Some(names_map))
                    .set_expression_attribute_values(Some(values))
                    .set_condition_expression(condition.clone())
                    .return_consumed_capacity(ReturnConsumedCapacity::Total)
                    .send()
                    .await
                    .map(|o| o.consumed_capacity().and_then(|c| c.capacity_units()))
                    .map_err(|e| conditional(run_error(engine, "UpdateItem", &e), code(&e)))
            }
            WriteRequest::Delete {
                table,
                key,
                condition,
            } => client
                .delete_item()
                .table_name(names(table))
                .set_key(Some(item_to_sdk(key)?))
                .set_condition_expression(condition.clone())
                .return_consumed_capacity(ReturnConsumedCapacity::Total)
                .send()
                .await
                .map(|o| o.consumed_capacity().and_then(|c| c.capacity_units()))
                .map_err(|e| conditional(run_error(engine, "DeleteItem", &e), code(&e))),
        }?;
        tally.capacity += capacity.unwrap_or(0.0);
    }
    Ok(())
}

/// A single write's failed condition reads like a transaction's: `ConditionalCheckFailed`.
fn conditional(mut err: RunError, code: Option<&str>) -> RunError {
    if code == Some("ConditionalCheckFailedException")
        && let RunError::Engine { detail, .. } | RunError::Refused { detail, .. } = &mut err
    {
        detail.push_str(" (reasons: ConditionalCheckFailed)");
    }
    err
}

type Expression = (String, HashMap<String, String>, HashMap<String, Sdk>);

fn update_expression(set: &[(String, AttributeValue)]) -> Result<Expression, RunError> {
    let mut names = HashMap::new();
    let mut values = HashMap::new();
    let mut terms = Vec::new();
    for (i, (attr, value)) in set.iter().enumerate() {
        names.insert(format!("#u{i}"), attr.clone());
        values.insert(format!(":u{i}"), to_sdk(value)?);
        terms.push(format!("#u{i} = :u{i}"));
    }
    Ok((format!("SET {}", terms.join(", ")), names, values))
}

fn transact_item(names: Names<'_>, request: &WriteRequest) -> Result<TransactWriteItem, RunError> {
    Ok(match request {
        WriteRequest::Put {
            table,
            item,
            condition,
        } => TransactWriteItem::builder()
            .put(
                Put::builder()
                    .table_name(names(table))
                    .set_item(Some(item_to_sdk(item)?))
                    .set_condition_expression(condition.clone())
                    .build()?,
            )
            .build(),
        WriteRequest::Update {
            table,
            key,
            set,
            condition,
        } => {
            let (expression, names_map, values) = update_expression(set)?;
            TransactWriteItem::builder()
                .update(
                    Update::builder()
                        .table_name(names(table))
                        .set_key(Some(item_to_sdk(key)?))
                        .update_expression(expression)
                        .set_expression_attribute_names(Some(names_map))
                        .set_expression_attribute_values(Some(values))
                        .set_condition_expression(condition.clone())
                        .build()?,
                )
                .build()
        }
        WriteRequest::Delete {
            table,
            key,
            condition,
        } => TransactWriteItem::builder()
            .delete(
                Delete::builder()
                    .table_name(names(table))
                    .set_key(Some(item_to_sdk(key)?))
                    .set_condition_expression(condition.clone())
                    .build()?,
            )
            .build(),
    })
}
