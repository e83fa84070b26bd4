//! In-memory evaluation of GetItem, Query, Scan and SearchVectors with DynamoDB's semantics, over sample items.
//!
//! A [`ItemStore`] holds each table's items and, for the table and every index, the entries sorted
//! the way DynamoDB keeps them: by partition key, then sort key (strings by their UTF-8 bytes,
//! binary by its decoded bytes, numbers numerically as exact decimals, never as floats). An item
//! lacking an index's key attributes is absent from that index (sparse). Index entries with an
//! equal index key are ordered by the table's primary key, which is also what makes a
//! LastEvaluatedKey (index keys plus table keys) a total position.
//!
//! [`ItemStore::query`] executes one [`KeyQuery`]: key condition, ScanIndexForward, Limit,
//! ExclusiveStartKey, the 1 MB page, the index's projection and the read units consumed.
//! [`ItemStore::scatter_gather`] runs one query per write shard and merges them. [`plan`] turns a
//! coverage [`Verdict`](crate::answer::Verdict) and input values into the queries to run, and
//! [`pick_inputs`] finds input values in the sample data whose partition has results.
//!
//! A query's filter ([`FilterTest`], issue 16) is applied as DynamoDB applies a
//! FilterExpression: after the key condition, to each item read, so the Limit and the 1 MB page
//! count the items read, not those returned (a page can come back empty with a
//! LastEvaluatedKey), and the read units are those of everything read; a page reports both
//! ([`Page::scanned`], DynamoDB's ScannedCount, and its items, the Count).
//!
//! Not modelled: projection expressions, and an LSI Query fetching unprojected attributes from
//! the table (results carry what the index projects, and the filter sees what it projects).
//! Nothing here does IO; bad queries are [`QueryError`] values, never panics.
//!
//! Its parts: `key` types key values and renders keys from templates, `store` loads and sorts
//! the items, `query` is what a read asks and gets back, `read` runs it, `plan` turns a verdict
//! into queries, `inputs` picks input values from the items and `run` runs whole read
//! patterns, `scan` runs a pattern a Scan serves (every item read, its filter after), `vector` a vector search (the exact nearest items by the index's distance); `filter` is a read's FilterExpression and `page_end` where its page ends.

pub use crate::number;

mod filter;
mod inputs;
mod key;
mod order;
mod page_end;
mod plan;
mod query;
mod read;
mod run;
mod scan;
mod store;
mod vector;

pub use filter::FilterTest;
pub use inputs::pick_inputs;
pub(crate) use key::render_key_in;
pub use key::{KeyValue, encode_binary, render_key, render_key_cow};
pub use order::sort_in_memory;
pub use page_end::PageEnd;
pub use plan::{PlanError, ReadPlan, plan};
pub use query::{KeyQuery, Merged, Page, QueryError, SortTest, describe_filter};
pub(crate) use run::count_one;
pub use run::{PatternRun, count_all, run_all, run_pattern};
pub use scan::scan_pattern;
pub use store::{IndexStore, ItemStore, LoadItem, Rejected, StoredItem, TableStore};
pub use vector::{VectorHit, VectorRun, rank_scores, score, vector_of, vector_pattern};

pub use crate::item::decode_binary;
pub use number::{Decimal, NumberError};

#[cfg(test)]
mod tests;
