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

/// Tables in one Region of an account: DynamoDB's default quota (can be raised on request).
pub const MAX_TABLES_PER_REGION: usize = 2_500;

/// Vector indexes (issue 40), read 2026-12-05: dimensions are 1 to 4,096 (CloudFormation's
/// `AWS::DynamoDB::Table VectorIndex`, <https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-properties-dynamodb-table-vectorindex.html>;
/// the API reference says at least 1), `TopK` 1 to 100, and a vector is stored in the index
/// as 32-bit floats (<https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/VectorSearch.Requirements.html>,
/// <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/VectorSearchTroubleshooting.html>).
pub const VECTOR_DIMENSIONS_MAX: u32 = 4096;
/// The most items one `SearchVectors` returns (`TopK`); the least is 1.
pub const VECTOR_TOP_K_MAX: u32 = 100;
/// Bytes one dimension of a vector takes in a vector index (f32).
pub const VECTOR_BYTES_PER_DIMENSION: usize = 4;

/// Whether `name` is a valid table or index name.
pub fn is_valid_table_name(name: &str) -> bool {
    TABLE_NAME_LEN.contains(&name.chars().count())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
}

/// The prices, per Region, live in [`crate::pricing`] with their sources.
pub use crate::pricing::Prices;

/// One of the limits above, as data: for the MCP server's `keyplan://limits` resource, which
/// tells an agent DynamoDB's limits as keyplan checks them.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Limit {
    /// The constant's name here.
    pub name: &'static str,
    /// The limit: the most allowed (or, for a rate, the most served).
    pub value: f64,
    /// The least allowed, for a range.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at_least: Option<f64>,
    /// What it bounds, and in what unit.
    pub what: &'static str,
}

const fn limit(name: &'static str, value: f64, what: &'static str) -> Limit {
    Limit {
        name,
        value,
        at_least: None,
        what,
    }
}

/// Every limit above, in their order: a limit added above is added here too.
pub const ALL: &[Limit] = &[
    limit(
        "MAX_GSIS",
        MAX_GSIS as f64,
        "global secondary indexes per table (default quota)",
    ),
    limit(
        "RECOMMENDED_MAX_GSIS",
        RECOMMENDED_MAX_GSIS as f64,
        "GSIs per table past which each one's write cost deserves a warning",
    ),
    limit(
        "MAX_LSIS",
        MAX_LSIS as f64,
        "local secondary indexes per table, only at creation",
    ),
    limit(
        "MAX_PROJECTED_ATTRIBUTES",
        MAX_PROJECTED_ATTRIBUTES as f64,
        "projected non-key attributes (INCLUDE) over all indexes of a table",
    ),
    limit(
        "MAX_GSI_KEY_ATTRIBUTES",
        MAX_GSI_KEY_ATTRIBUTES as f64,
        "attributes in a multi-attribute GSI partition key, and in its sort key",
    ),
    limit(
        "MAX_PARTITION_KEY_BYTES",
        MAX_PARTITION_KEY_BYTES as f64,
        "bytes in a partition key value (UTF-8)",
    ),
    limit(
        "MAX_SORT_KEY_BYTES",
        MAX_SORT_KEY_BYTES as f64,
        "bytes in a sort key value",
    ),
    limit(
        "MAX_ITEM_BYTES",
        MAX_ITEM_BYTES as f64,
        "bytes in an item, attribute names included",
    ),
    Limit {
        name: "TABLE_NAME_LEN",
        value: *TABLE_NAME_LEN.end() as f64,
        at_least: Some(*TABLE_NAME_LEN.start() as f64),
        what: "characters in a table or index name, of a-z A-Z 0-9 _ - .",
    },
    Limit {
        name: "KEY_ATTRIBUTE_NAME_BYTES",
        value: *KEY_ATTRIBUTE_NAME_BYTES.end() as f64,
        at_least: Some(*KEY_ATTRIBUTE_NAME_BYTES.start() as f64),
        what: "bytes in a key attribute name",
    },
    limit(
        "MAX_TRANSACT_ITEMS",
        MAX_TRANSACT_ITEMS as f64,
        "distinct items in one TransactWriteItems or TransactGetItems",
    ),
    limit(
        "FEW_DISTINCT_VALUES",
        FEW_DISTINCT_VALUES as f64,
        "distinct values of a key attribute at or under which traffic concentrates on few partitions",
    ),
    limit(
        "MAX_BATCH_WRITE_ITEMS",
        MAX_BATCH_WRITE_ITEMS as f64,
        "put or delete requests in one BatchWriteItem",
    ),
    limit(
        "MAX_BATCH_GET_ITEMS",
        MAX_BATCH_GET_ITEMS as f64,
        "keys in one BatchGetItem",
    ),
    limit(
        "MAX_PAGE_BYTES",
        MAX_PAGE_BYTES as f64,
        "bytes a Query or Scan reads for one page, before any filter",
    ),
    limit(
        "PARTITION_READ_UNITS_PER_SECOND",
        PARTITION_READ_UNITS_PER_SECOND,
        "read units a second one partition serves",
    ),
    limit(
        "PARTITION_WRITE_UNITS_PER_SECOND",
        PARTITION_WRITE_UNITS_PER_SECOND,
        "write units a second one partition serves",
    ),
    limit(
        "READ_UNIT_BYTES",
        READ_UNIT_BYTES as f64,
        "bytes one read unit covers (a strongly consistent read)",
    ),
    limit(
        "WRITE_UNIT_BYTES",
        WRITE_UNIT_BYTES as f64,
        "bytes one write unit covers",
    ),
    limit(
        "MAX_ITEM_COLLECTION_BYTES",
        MAX_ITEM_COLLECTION_BYTES,
        "bytes of one item collection in a table with a local secondary index",
    ),
    limit(
        "ITEM_STORAGE_OVERHEAD_BYTES",
        ITEM_STORAGE_OVERHEAD_BYTES as f64,
        "storage overhead per item, and per index entry",
    ),
    limit(
        "MAX_TABLES_PER_REGION",
        MAX_TABLES_PER_REGION as f64,
        "tables in one Region of an account (default quota)",
    ),
    Limit {
        name: "VECTOR_DIMENSIONS_MAX",
        value: VECTOR_DIMENSIONS_MAX as f64,
        at_least: Some(1.0),
        what: "dimensions of a vector index",
    },
    Limit {
        name: "VECTOR_TOP_K_MAX",
        value: VECTOR_TOP_K_MAX as f64,
        at_least: Some(1.0),
        what: "items one SearchVectors returns (TopK)",
    },
    limit(
        "VECTOR_BYTES_PER_DIMENSION",
        VECTOR_BYTES_PER_DIMENSION as f64,
        "bytes one dimension of a vector takes in a vector index (32-bit float)",
    ),
];

#[cfg(test)]
mod tests {
    // issue 39: the MCP server's limits resource is this table; a constant left out of it
    // would be a limit an agent never hears of.
    #[test]
    fn every_limit_is_in_the_table() {
        let constants: Vec<&str> = include_str!("limits.rs")
            .lines()
            .filter_map(|l| l.strip_prefix("pub const "))
            .filter_map(|l| l.split(':').next())
            .filter(|name| *name != "ALL")
            .collect();
        let listed: Vec<&str> = super::ALL.iter().map(|l| l.name).collect();
        assert_eq!(constants, listed);
    }
}
