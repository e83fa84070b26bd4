//! Loading the sample items: BatchWriteItem, 25 items a request, several requests in flight,
//! unprocessed items and throttling retried with exponential backoff and full jitter.
//!
//! Every item is written exactly once to the run's own table name for its design table. Deletes
//! ([`write_all`]) are a migration's, of keys it moved. Progress is reported as items are
//! acknowledged.
//!
//! A load is checked before a run reads: each table is counted (a consistent `Select=COUNT`
//! Scan) and must hold the items written to it. An engine can acknowledge a write it does not
//! keep (moto's server loses the items of a new partition that two requests write into at
//! once); its run fails naming the table and the items missing, instead of reporting
//! mismatches that blame the design.

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use aws_sdk_dynamodb::types::{
    DeleteRequest, PutRequest, ReturnConsumedCapacity, Select, WriteRequest,
};
use futures_util::StreamExt;
use keyplan_core::Item;
use keyplan_core::limits::MAX_BATCH_WRITE_ITEMS;
use tokio_util::sync::CancellationToken;

use super::convert::item_to_sdk;
use super::error::{Failure, RunError, classify, run_error};
use crate::engine::Engine;
use crate::runner::paging::{MAX_EMPTY_PAGES, Paging};

/// Requests in flight while loading.
pub const CONCURRENCY: usize = 8;
/// Retries of one batch's leftovers before the run fails.
const MAX_RETRIES: u32 = 10;

/// What loading did.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Loaded {
    pub items: usize,
    pub requests: usize,
    pub consumed_capacity: f64,
}

/// Writes `items` (engine table name, item) into tables created for them (empty, and no two
/// items with one key), calls `progress(written, total)` after each acknowledged batch, then
/// checks that each table holds as many items as were written to it ([`RunError::Engine`]
/// when not). A batch is converted to the SDK's form only when it is sent, so a run never
/// holds its sample twice. Once `cancel` fires no batch is sent any more (the ones in flight
/// finish) and the load ends with [`RunError::Cancelled`].
pub async fn load(
    engine: &Engine,
    items: &[(&str, &Item)],
    cancel: &CancellationToken,
    progress: &(dyn Fn(usize, usize) + Send + Sync),
) -> Result<Loaded, RunError> {
    let writes: Vec<(&str, Write<'_>)> = items.iter().map(|(t, i)| (*t, Write::Put(i))).collect();
    let loaded = write_all(engine, &writes, cancel, progress).await?;
    let mut written: BTreeMap<&str, usize> = BTreeMap::new();
    for (table, _) in items {
        *written.entry(table).or_default() += 1;
    }
    for (table, written) in written {
        if cancel.is_cancelled() {
            return Err(RunError::Cancelled);
        }
        let held = count(engine, table, written).await?;
        if held != written {
            return Err(RunError::Engine {
                engine: engine.name.clone(),
                what: "keep the sample items it acknowledged".to_string(),
                detail: format!(
                    "table `{table}` holds {held} items after {written} were written and \
                     acknowledged (moto's server, for one, loses the items of a new partition \
                     that two requests write into at once)"
                ),
            });
        }
    }
    Ok(loaded)
}

/// How many items `table` holds: a consistent `Select=COUNT` Scan, page by page. On Amazon
/// DynamoDB it reads 4 KB a read unit where the load wrote at most 1 KB a write unit: at most a
/// quarter as many units as the load. An engine that counts on past `at_most` items (or pages
/// on without counting, see [`Paging`]) is stopped.
pub async fn count(engine: &Engine, table: &str, at_most: usize) -> Result<usize, RunError> {
    let what = format!("count the items of `{table}`");
    let at_most = at_most as u64;
    let mut paging = Paging::new(
        engine,
        what.as_str(),
        at_most.saturating_add(MAX_EMPTY_PAGES),
    )
    .with_max_items(at_most);
    let mut held = 0;
    let mut start = None;
    loop {
        let page = engine
            .client
            .scan()
            .table_name(table)
            .select(Select::Count)
            .consistent_read(true)
            .set_exclusive_start_key(start.clone())
            .send()
            .await
            .map_err(|err| run_error(engine, &what, &err))?;
        let counted = usize::try_from(page.count()).unwrap_or(0);
        held += counted;
        let next = page.last_evaluated_key().filter(|key| !key.is_empty());
        paging.page(counted, start.as_ref(), next)?;
        match next {
            Some(key) => start = Some(key.clone()),
            None => return Ok(held),
        }
    }
}

/// One write of a batch: an item put, or the key of an item deleted.
#[derive(Debug, Clone, Copy)]
pub enum Write<'a> {
    Put(&'a Item),
    Delete(&'a Item),
}

/// Sends `writes` (engine table name, write) as [`load`] sends items: BatchWriteItem, 25 a
/// request, [`CONCURRENCY`] in flight, leftovers retried. A migration puts items at their new
/// keys and deletes the old ones this way.
pub async fn write_all(
    engine: &Engine,
    items: &[(&str, Write<'_>)],
    cancel: &CancellationToken,
    progress: &(dyn Fn(usize, usize) + Send + Sync),
) -> Result<Loaded, RunError> {
    let total = items.len();
    let written = AtomicUsize::new(0);
    let requests = AtomicUsize::new(0);
    let mut consumed = 0.0;
    let (written_ref, requests_ref) = (&written, &requests);
    // By index, not by chunk: a closure over borrowed chunks trips the compiler's proof that
    // the run's future is Send.
    let n_batches = items.len().div_ceil(MAX_BATCH_WRITE_ITEMS);
    let mut stream = futures_util::stream::iter(0..n_batches)
        .map(move |i| async move {
            if cancel.is_cancelled() {
                return Ok(0.0);
            }
            let end = ((i + 1) * MAX_BATCH_WRITE_ITEMS).min(items.len());
            let mut batch: HashMap<String, Vec<WriteRequest>> = HashMap::new();
            for (table, write) in &items[i * MAX_BATCH_WRITE_ITEMS..end] {
                let request = match write {
                    Write::Put(item) => WriteRequest::builder()
                        .put_request(
                            PutRequest::builder()
                                .set_item(Some(item_to_sdk(item)?))
                                .build()?,
                        )
                        .build(),
                    Write::Delete(key) => WriteRequest::builder()
                        .delete_request(
                            DeleteRequest::builder()
                                .set_key(Some(item_to_sdk(key)?))
                                .build()?,
                        )
                        .build(),
                };
                batch.entry(table.to_string()).or_default().push(request);
            }
            write_batch(
                engine,
                batch,
                written_ref,
                requests_ref,
                total,
                cancel,
                progress,
            )
            .await
        })
        .buffer_unordered(CONCURRENCY);
    while let Some(result) = stream.next().await {
        consumed += result?;
    }
    if cancel.is_cancelled() {
        return Err(RunError::Cancelled);
    }
    Ok(Loaded {
        items: written.load(Ordering::Relaxed),
        requests: requests.load(Ordering::Relaxed),
        consumed_capacity: consumed,
    })
}

async fn write_batch(
    engine: &Engine,
    mut batch: HashMap<String, Vec<WriteRequest>>,
    written: &AtomicUsize,
    requests: &AtomicUsize,
    total: usize,
    cancel: &CancellationToken,
    progress: &(dyn Fn(usize, usize) + Send + Sync),
) -> Result<f64, RunError> {
    let mut attempt = 0;
    let mut consumed = 0.0;
    loop {
        let sent: usize = batch.values().map(Vec::len).sum();
        requests.fetch_add(1, Ordering::Relaxed);
        let answer = engine
            .client
            .batch_write_item()
            .set_request_items(Some(batch.clone()))
            .return_consumed_capacity(ReturnConsumedCapacity::Total)
            .send()
            .await;
        let leftover = match answer {
            Ok(out) => {
                consumed += out
                    .consumed_capacity()
                    .iter()
                    .filter_map(|c| c.capacity_units())
                    .sum::<f64>();
                let leftover: HashMap<String, Vec<WriteRequest>> = out
                    .unprocessed_items()
                    .cloned()
                    .unwrap_or_default()
                    .into_iter()
                    .filter(|(_, v)| !v.is_empty())
                    .collect();
                let left: usize = leftover.values().map(Vec::len).sum();
                let now = written.fetch_add(sent - left, Ordering::Relaxed) + sent - left;
                progress(now, total);
                leftover
            }
            Err(err) => {
                let (failure, _) = classify(&err);
                if failure != Failure::Throttled || attempt >= MAX_RETRIES {
                    let what = format!("write {sent} sample items");
                    return Err(run_error(engine, &what, &err));
                }
                batch
            }
        };
        if leftover.is_empty() {
            return Ok(consumed);
        }
        if cancel.is_cancelled() {
            return Err(RunError::Cancelled);
        }
        if attempt >= MAX_RETRIES {
            return Err(RunError::Engine {
                engine: engine.name.clone(),
                what: "write the sample items".to_string(),
                detail: format!(
                    "{} items still unprocessed after {MAX_RETRIES} retries",
                    leftover.values().map(Vec::len).sum::<usize>()
                ),
            });
        }
        tokio::time::sleep(backoff(attempt)).await;
        attempt += 1;
        batch = leftover;
    }
}

/// Exponential backoff with full jitter: a random wait in [0, min(5 s, 25 ms * 2^attempt)].
pub fn backoff(attempt: u32) -> Duration {
    let cap = Duration::from_millis(25)
        .saturating_mul(1 << attempt.min(16))
        .min(Duration::from_secs(5));
    cap.mul_f64(jitter())
}

/// A number in [0, 1) from the standard library's random hasher seed.
fn jitter() -> f64 {
    use std::hash::{BuildHasher, Hasher};
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u8(0);
    (hasher.finish() >> 11) as f64 / (1u64 << 53) as f64
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn backoff_grows_and_is_capped() {
        for attempt in 0..30 {
            let cap = Duration::from_millis(25)
                .saturating_mul(1 << attempt.min(16))
                .min(Duration::from_secs(5));
            assert!(backoff(attempt) <= cap);
        }
    }
}
