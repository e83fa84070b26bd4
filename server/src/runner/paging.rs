//! The bounds of one conversation with an engine, whatever it sends (issue 41, item 4): a paged
//! conversation (a table listing, a scan, a query) of a stated number of pages that never hands
//! back the key it was sent ([`Paging`]), and a whole import of a table, run, verification or
//! listing within the engine's [`Timing::conversation`](crate::engine::Timing) ([`within`]).
//! Each ends the conversation with a [`RunError`] that names it; none is ever met by DynamoDB
//! answering as documented. One answer's size is bounded below them, in the HTTP layer
//! ([`crate::engine::bounds`]).

use std::future::Future;

use super::RunError;
use crate::engine::Engine;

/// Pages without an item, each with a key to go on from, that one scan or query takes before
/// it stops: DynamoDB sends one only when a filter discards a whole page, or rarely in a
/// parallel scan.
pub const MAX_EMPTY_PAGES: u64 = 100;
/// ListTables pages one listing reads: 100,000 tables, DynamoDB's default quota is 2,500 a
/// Region.
pub const MAX_TABLE_PAGES: u64 = 1_000;

/// The pages of one paged conversation so far, and the bounds that stop one that would never
/// end: at most `max_pages` pages, `max_empty` of them empty ([`MAX_EMPTY_PAGES`] unless
/// more are expected), `max_items` items, and never the key it was sent handed back as the key
/// to go on from.
#[derive(Debug)]
pub struct Paging<'a> {
    engine: &'a Engine,
    what: String,
    max_pages: u64,
    max_empty: u64,
    max_items: u64,
    pages: u64,
    empty: u64,
    items: u64,
}

impl<'a> Paging<'a> {
    /// Paging through `what` (said as "list tables", "scan t") on `engine`, at most
    /// `max_pages` pages.
    pub fn new(engine: &'a Engine, what: impl Into<String>, max_pages: u64) -> Paging<'a> {
        Paging {
            engine,
            what: what.into(),
            max_pages,
            max_empty: MAX_EMPTY_PAGES,
            max_items: u64::MAX,
            pages: 0,
            empty: 0,
            items: 0,
        }
    }

    /// At most `max_items` items over all pages.
    pub fn with_max_items(self, max_items: u64) -> Paging<'a> {
        Paging { max_items, ..self }
    }

    /// `expected` empty pages allowed beyond [`MAX_EMPTY_PAGES`] (a filtered query's pages
    /// that core predicts empty).
    pub fn with_empty_pages_expected(self, expected: u64) -> Paging<'a> {
        Paging {
            max_empty: MAX_EMPTY_PAGES.saturating_add(expected),
            ..self
        }
    }

    /// Counts a page of `items` items that was asked for from key `sent` and names `next` to
    /// go on from (`None`: the last page). An error when the conversation must stop.
    pub fn page<K: PartialEq>(
        &mut self,
        items: usize,
        sent: Option<&K>,
        next: Option<&K>,
    ) -> Result<(), RunError> {
        self.pages += 1;
        self.items = self.items.saturating_add(items as u64);
        if items == 0 {
            self.empty += 1;
        }
        let Some(next) = next else {
            return Ok(());
        };
        let detail = if sent == Some(next) {
            "it handed back the key it was sent as the key to go on from, so it would send that page forever".to_string()
        } else if self.items > self.max_items {
            format!(
                "it sent {} items, more than the {} keyplan reads here",
                self.items, self.max_items
            )
        } else if self.empty >= self.max_empty {
            format!(
                "it sent {} pages without an item, each with a key to go on from; keyplan stops at {}",
                self.empty, self.max_empty
            )
        } else if self.pages >= self.max_pages {
            format!(
                "it sent {} pages and named another; keyplan reads at most {} here",
                self.pages, self.max_pages
            )
        } else {
            return Ok(());
        };
        Err(RunError::Endless {
            engine: self.engine.name.clone(),
            what: self.what.clone(),
            detail,
        })
    }
}

/// `work`, a whole conversation with `engine` (said as "read table t", "run the design"),
/// given up with a [`RunError::TooLong`] past the engine's conversation limit.
pub async fn within<T>(
    engine: &Engine,
    what: &str,
    work: impl Future<Output = Result<T, RunError>>,
) -> Result<T, RunError> {
    let limit = engine.timing.conversation;
    tokio::time::timeout(limit, work)
        .await
        .unwrap_or_else(|_| Err(too_long(engine, what)))
}

/// The error of a conversation with `engine` that passed its limit while doing `what`.
pub fn too_long(engine: &Engine, what: &str) -> RunError {
    RunError::TooLong {
        engine: engine.name.clone(),
        what: what.to_string(),
        limit: engine.timing.conversation,
    }
}
