//! What a read asks and what it gets back: one Query (or GetItem) with concrete values
//! ([`KeyQuery`]), written out for people to read; why DynamoDB would refuse it
//! ([`QueryError`]); a page of results ([`Page`]) and the merge of a scatter-gather
//! ([`Merged`]). Running one is `read`'s work.

use serde::Serialize;

use super::filter::FilterTest;
use crate::accepts::Refusal;
use crate::item::{AttributeValue, Item};
use crate::model::SortOp;

/// Why a query cannot run, as DynamoDB would refuse it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum QueryError {
    #[error("there is no table `{0}`")]
    NoTable(String),
    #[error("table `{table}` has no index `{index}`")]
    NoIndex { table: String, index: String },
    /// The key condition's shape breaks one of DynamoDB's rules ([`crate::accepts`]).
    #[error(transparent)]
    Refused(#[from] Refusal),
    #[error("`{attribute}`: {message}")]
    BadKeyValue { attribute: String, message: String },
    #[error("between's lower bound is greater than its upper bound")]
    BetweenReversed,
    #[error("Limit must be at least 1")]
    ZeroLimit,
    #[error("the exclusive start key is invalid: {0}")]
    BadStartKey(String),
}

/// A sort-key condition with concrete values (one, or two for `between`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SortTest {
    pub attribute: String,
    pub op: SortOp,
    pub values: Vec<AttributeValue>,
}

/// One Query (or, with the whole key and no condition, GetItem) with concrete values.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct KeyQuery {
    pub table: String,
    /// `None` for the table itself.
    pub index: Option<String>,
    /// Each partition key attribute and its value.
    pub partition: Vec<(String, AttributeValue)>,
    /// Equalities on leading sort-key attributes (all of a GetItem's sort key).
    pub sort_equal: Vec<(String, AttributeValue)>,
    pub sort_condition: Option<SortTest>,
    /// ScanIndexForward.
    pub forward: bool,
    pub limit: Option<u32>,
    pub exclusive_start_key: Option<Item>,
    /// ConsistentRead: strong reads cost twice an eventual one.
    pub consistent: bool,
    /// The FilterExpression's conditions, all of which a returned item meets.
    pub filter: Vec<FilterTest>,
}

impl KeyQuery {
    /// A query of one partition of the table or `index`, forward, unlimited, eventual.
    pub fn new(
        table: impl Into<String>,
        index: Option<&str>,
        partition: Vec<(String, AttributeValue)>,
    ) -> KeyQuery {
        KeyQuery {
            table: table.into(),
            index: index.map(str::to_string),
            partition,
            sort_equal: Vec::new(),
            sort_condition: None,
            forward: true,
            limit: None,
            exclusive_start_key: None,
            consistent: false,
            filter: Vec::new(),
        }
    }

    /// The filter expression with values written inline, for people to read:
    /// `status <> "DONE" AND attribute_exists(shippedAt)`; empty without a filter.
    pub fn describe_filter(&self) -> String {
        describe_filter(&self.filter)
    }

    /// The key condition expression with values written inline, for people to read:
    /// `PK = "CUSTOMER#c1" AND begins_with(SK, "ORDER#")`.
    pub fn describe(&self) -> String {
        let mut parts: Vec<String> = self
            .partition
            .iter()
            .chain(&self.sort_equal)
            .map(|(name, value)| format!("{name} = {}", show_value(value)))
            .collect();
        if let Some(test) = &self.sort_condition {
            let values: Vec<String> = test.values.iter().map(show_value).collect();
            parts.push(match test.op {
                SortOp::Between => format!(
                    "{} BETWEEN {} AND {}",
                    test.attribute,
                    values.first().map_or("?", String::as_str),
                    values.get(1).map_or("?", String::as_str)
                ),
                SortOp::BeginsWith => format!(
                    "begins_with({}, {})",
                    test.attribute,
                    values.first().map_or("?", String::as_str)
                ),
                op => format!(
                    "{} {} {}",
                    test.attribute,
                    op.as_str(),
                    values.first().map_or("?", String::as_str)
                ),
            });
        }
        parts.join(" AND ")
    }
}

/// A FilterExpression's conditions with values written inline, for people to read (a Query's
/// or a Scan's): `status <> "DONE" AND attribute_exists(shippedAt)`; empty without any.
pub fn describe_filter(tests: &[FilterTest]) -> String {
    tests
        .iter()
        .map(|test| {
            let values: Vec<String> = test.values.iter().map(show_value).collect();
            crate::coverage::filter_clause(test.op, &test.attribute, &values)
        })
        .collect::<Vec<_>>()
        .join(" AND ")
}

pub(super) fn show_value(value: &AttributeValue) -> String {
    match value {
        AttributeValue::S(s) => format!("{s:?}"),
        AttributeValue::N(n) => n.clone(),
        AttributeValue::B(b) => format!("b64:{b}"),
        other => format!("{other:?}"),
    }
}

/// One page of results.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Page {
    /// The items, projected as the index projects them, in the order DynamoDB returns them.
    pub items: Vec<Item>,
    /// The entity of each item, where known (parallel to `items`).
    pub entities: Vec<Option<String>>,
    /// Set when the read stopped at the Limit or the 1 MB page: the key to continue from
    /// (for an index: its keys plus the table's primary key).
    pub last_evaluated_key: Option<Item>,
    /// The summed size of the items read (projected items, for an index).
    pub bytes_read: usize,
    /// The read units consumed.
    pub read_units: f64,
    /// How many items were read before the filter (DynamoDB's ScannedCount; `items.len()` is
    /// its Count).
    pub scanned: usize,
}

impl Page {
    /// A page that has read nothing yet.
    pub(super) fn empty() -> Page {
        Page {
            items: Vec::new(),
            entities: Vec::new(),
            last_evaluated_key: None,
            bytes_read: 0,
            read_units: 0.0,
            scanned: 0,
        }
    }
}

/// The merged result of a scatter-gather (or of a single query).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Merged {
    pub items: Vec<Item>,
    pub entities: Vec<Option<String>>,
    /// Each query's own page, in query order (their LastEvaluatedKeys continue each shard).
    pub pages: Vec<Page>,
    pub bytes_read: usize,
    pub read_units: f64,
    /// The items read before the filter, over every query (ScannedCount summed).
    pub scanned: usize,
}
