//! A bounded Scan of a whole table, read-only: at most a given number of items, however large
//! the table, over [`SEGMENTS`] parallel segments (so a sample is not only the first partitions
//! in hash order). Each segment reserves its page's `Limit` (at most a fair share of the limit,
//! so each segment reads) from one shared allowance before each request, so the items read can
//! never exceed it. Reads are eventually consistent (half the read units of a strong read), and
//! the read units the engine reports are summed. What the engine sends is bounded
//! ([`crate::engine::bounds`]): each segment's pages ([`super::paging`]).
//!
//! A live import samples tables that exist with it (`crate::live`); a migration's verification
//! reads its tables back with it ([`super::migrate`]).

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use aws_sdk_dynamodb::types::{AttributeValue as SdkValue, ReturnConsumedCapacity};
use keyplan_core::Item;

use super::convert::item_from_sdk;
use super::error::{RunError, run_error};
use super::paging::{MAX_EMPTY_PAGES, Paging};
use crate::engine::Engine;

/// Parallel scan segments.
pub const SEGMENTS: i32 = 4;
/// The most items one Scan page asks for.
const PAGE: u64 = 1_000;

/// What reading one table cost.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct ScanStats {
    /// Items read (at most the limit).
    pub items: u64,
    /// Scan requests sent.
    pub pages: u64,
    /// Read capacity units the engine reported consumed; `None` when it reports none (local
    /// engines often do not).
    pub read_units: Option<f64>,
}

/// At most `limit` items of `table`, over [`SEGMENTS`] parallel segments.
pub async fn scan(
    engine: &Engine,
    table: &str,
    limit: u64,
    progress: &(dyn Fn(u64) + Send + Sync),
) -> Result<(Vec<Item>, ScanStats), RunError> {
    // What may still be asked for: each page reserves its Limit here first and gives back what
    // the page did not return, so all segments together never read more than `limit`.
    let allowance = Arc::new(AtomicU64::new(limit));
    // A page asks for at most a fair share, so every segment gets to read before the
    // allowance is spent; what a short segment leaves is read by the others' next pages.
    let page = PAGE.min(limit.div_ceil(SEGMENTS as u64).max(1));
    let read = Arc::new(AtomicU64::new(0));
    let segments = (0..SEGMENTS).map(|segment| {
        let allowance = allowance.clone();
        let read = read.clone();
        async move {
            let mut items: Vec<Item> = Vec::new();
            let mut pages = 0u64;
            let mut units: Option<f64> = None;
            let mut start: Option<HashMap<String, SdkValue>> = None;
            // Every page but an empty one takes an item of the allowance.
            let mut paging = Paging::new(engine, format!("scan {table}"), limit + MAX_EMPTY_PAGES);
            loop {
                let left = allowance
                    .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |left| {
                        Some(left - left.min(page))
                    })
                    .unwrap_or(0);
                let reserved = left.min(page);
                if reserved == 0 {
                    break;
                }
                let out = engine
                    .client
                    .scan()
                    .table_name(table)
                    .segment(segment)
                    .total_segments(SEGMENTS)
                    .limit(i32::try_from(reserved).unwrap_or(i32::MAX))
                    .return_consumed_capacity(ReturnConsumedCapacity::Total)
                    .set_exclusive_start_key(start.clone())
                    .send()
                    .await
                    .map_err(|e| run_error(engine, &format!("scan {table}"), &e))?;
                pages += 1;
                let next = out.last_evaluated_key().filter(|key| !key.is_empty());
                paging.page(out.items().len(), start.as_ref(), next)?;
                if let Some(c) = out.consumed_capacity().and_then(|c| c.capacity_units()) {
                    *units.get_or_insert(0.0) += c;
                }
                // An engine that returns more than Limit is cut to it.
                let got: Vec<Item> = out
                    .items()
                    .iter()
                    .take(usize::try_from(reserved).unwrap_or(usize::MAX))
                    .map(item_from_sdk)
                    .collect();
                let n = got.len() as u64;
                allowance.fetch_add(reserved - n, Ordering::SeqCst);
                items.extend(got);
                progress(read.fetch_add(n, Ordering::Relaxed) + n);
                match next {
                    Some(key) => start = Some(key.clone()),
                    None => break,
                }
            }
            Ok::<_, RunError>((items, pages, units))
        }
    });
    let mut items = Vec::new();
    let mut stats = ScanStats::default();
    for result in futures_util::future::join_all(segments).await {
        let (segment_items, pages, units) = result?;
        items.extend(segment_items);
        stats.pages += pages;
        if let Some(u) = units {
            *stats.read_units.get_or_insert(0.0) += u;
        }
    }
    stats.items = items.len() as u64;
    Ok((items, stats))
}
