//! DynamoDB's limits, capacity arithmetic and prices, each in one place with its source.
//!
//! Source: the DynamoDB developer guide (service quotas, naming rules, capacity-unit
//! calculations), as collected in keyplan's reference notes (shared/reference/dynamodb-facts.md).
//! Change a number here only. Prices are not limits: they are in [`crate::pricing`].

/// Default quota of global secondary indexes per table (can be raised on request).
pub const MAX_GSIS: usize = 20;
/// The seed article's "three-GSI rule": past this, each GSI's write cost deserves a warning.
pub const RECOMMENDED_MAX_GSIS: usize = 3;
/// Local secondary indexes per table; only at table creation.
pub const MAX_LSIS: usize = 5;
/// Projected non-key attributes (INCLUDE) over all indexes of a table.
pub const MAX_PROJECTED_ATTRIBUTES: usize = 100;
/// Attributes in a multi-attribute GSI partition key, and in its sort key.
pub const MAX_GSI_KEY_ATTRIBUTES: usize = 4;
/// Bytes in a partition key value (UTF-8).
pub const MAX_PARTITION_KEY_BYTES: usize = 2048;
/// Bytes in a sort key value.
pub const MAX_SORT_KEY_BYTES: usize = 1024;
/// Bytes in an item, attribute names included.
pub const MAX_ITEM_BYTES: usize = 400 * 1024;
/// Characters in a table or index name (3 to 255 of `a-z A-Z 0-9 _ - .`).
pub const TABLE_NAME_LEN: std::ops::RangeInclusive<usize> = 3..=255;
/// Bytes in a key attribute name.
pub const KEY_ATTRIBUTE_NAME_BYTES: std::ops::RangeInclusive<usize> = 1..=255;
/// Distinct items in one TransactWriteItems or TransactGetItems.
pub const MAX_TRANSACT_ITEMS: usize = 100;
/// A key attribute with at most this many distinct values concentrates traffic on few
/// partitions (see [`crate::concentration`]); with traffic spread evenly the busiest value
/// takes 1 in this many. One partition serves 3,000 read and 1,000 write units a second, so
/// at a thousand values a pattern's traffic already needs to be heavy to reach one
/// partition's limit, which KP014 and the cost report then compare.
pub const FEW_DISTINCT_VALUES: u64 = 1_000;
/// Put or delete requests in one BatchWriteItem.
pub const MAX_BATCH_WRITE_ITEMS: usize = 25;
/// Keys in one BatchGetItem.
pub const MAX_BATCH_GET_ITEMS: usize = 100;
/// Bytes a Query or Scan reads for one page, before any filter: the page ends after the item
/// that takes it past them ([`crate::eval::PageEnd`] cites the pages).
pub const MAX_PAGE_BYTES: usize = 1024 * 1024;
/// Read units per second one partition serves.
pub const PARTITION_READ_UNITS_PER_SECOND: f64 = 3000.0;
/// Write units per second one partition serves.
pub const PARTITION_WRITE_UNITS_PER_SECOND: f64 = 1000.0;
/// Bytes one read unit covers (a strongly consistent read).
pub const READ_UNIT_BYTES: usize = 4 * 1024;
/// Bytes one write unit covers.
pub const WRITE_UNIT_BYTES: usize = 1024;
/// Bytes of one item collection (the items of one partition-key value and their LSI entries)
/// in a table with a local secondary index.
pub const MAX_ITEM_COLLECTION_BYTES: f64 = 10.0 * 1024.0 * 1024.0 * 1024.0;
/// Storage overhead per item, and per index entry.
pub const ITEM_STORAGE_OVERHEAD_BYTES: usize = 100;

/// Whether `name` is a valid table or index name.
pub fn is_valid_table_name(name: &str) -> bool {
    TABLE_NAME_LEN.contains(&name.chars().count())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
}

/// The prices, per Region, live in [`crate::pricing`] with their sources.
pub use crate::pricing::Prices;
