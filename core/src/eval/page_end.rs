//! Where a Query's 1 MB page ends: DynamoDB's rule, and the embedded engine's other one, which
//! a run predicts too so that it can tell the engine's paging from a wrong prediction
//! (issue 41 item 7).
//!
//! What DynamoDB documents: a Query "can retrieve a maximum of 1 MB of data", applied before
//! the filter (developer guide, Query.FilterExpression and Query.Pagination:
//! https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Query.Pagination.html),
//! 1 MB being 1,048,576 bytes of item sizes as "Item sizes and formats" counts them. The
//! guide's "pages of data that are 1 MB in size (or less)" leaves open which side of 1 MB the
//! item that crosses it falls; the Scan API reference says it in words
//! (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_Scan.html): "If the
//! total size of scanned items exceeds the maximum dataset size limit of 1 MB, the scan
//! completes and results are returned", so the page holds the item that exceeds it. What real
//! DynamoDB does agrees: a full page consumes 128.5 read units eventually consistent, 257
//! blocks of 4 KB, so more than 1,048,576 bytes were read (measured with 1,042-byte items in
//! "DynamoDB Scan (and why 128.5 RCU?)", Franck Pachot, 2020-11-30,
//! https://www.dbi-services.com/blog/dynamodb-scan-pagination/). Core's evaluator pages by
//! that rule; the embedded engine does not (see [`PageEnd::BeforeCrossing`]). Pure data, no
//! IO.

/// The rule that ends a Query's page at 1 MB
/// ([`MAX_PAGE_BYTES`](crate::limits::MAX_PAGE_BYTES)), by the item that takes the bytes read
/// past it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PageEnd {
    /// DynamoDB's: the page ends after that item, so a page reads at most one item past 1 MB.
    #[default]
    AfterCrossing,
    /// The embedded engine's (dynoxide-rs 3.2, `src/actions/query.rs`): the page ends before
    /// that item (unless it is the page's first), so no page reads more than 1 MB; the item
    /// still counts in the page's ScannedCount, though the next page reads it again.
    BeforeCrossing,
}
