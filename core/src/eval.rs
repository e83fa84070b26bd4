//! In-memory evaluation of GetItem and Query with DynamoDB's semantics, over sample items.
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
//! coverage [`Verdict`] and input values into the queries to run, and [`pick_inputs`] finds
//! input values in the sample data whose partition has results.
//!
//! A query's filter ([`FilterTest`], issue 16) is applied as DynamoDB applies a
//! FilterExpression: after the key condition, to each item read, so the Limit and the 1 MB page
//! count the items read, not those returned (a page can come back empty with a
//! LastEvaluatedKey), and the read units are those of everything read; a page reports both
//! ([`Page::scanned`], DynamoDB's ScannedCount, and its items, the Count).
//!
//! Not modelled: projection expressions, and an LSI Query fetching unprojected attributes from
//! the table (results carry what the index projects, and the filter sees what it projects). Nothing here does IO;
//! bad queries are [`QueryError`] values, never panics.

use std::borrow::Cow;
use std::cmp::Ordering;
use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasherDefault, DefaultHasher};

use base64::Engine as _;
use serde::Serialize;

use crate::accepts::{self, Read, Refusal, Schema, Test};
use crate::answer::{Operation, QuerySpec, Verdict};
use crate::fast_hash::{FastHashMap, hash_of};
use crate::item::{AttributeValue, Item};
use crate::model::{
    AccessPattern, AttrType, ByName, Design, Entity, FilterOp, IndexKind, KeyAttribute, KeyType,
    Projection, SortOp, Table,
};
use crate::size::{Consistency, attribute_size, item_size, read_units};
use crate::template::{KeyTemplate, Part};

pub use crate::number;

mod filter;
mod page_end;
pub use filter::FilterTest;
pub use page_end::PageEnd;

pub use crate::item::decode_binary;
pub use number::{Decimal, NumberError};

/// A key attribute's value, typed so that the derived order is DynamoDB's order.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum KeyValue {
    /// Compared by UTF-8 bytes, which is `String`'s own order.
    S(String),
    N(Decimal),
    /// Compared by the decoded bytes.
    B(Vec<u8>),
}

impl KeyValue {
    /// The typed key value of `value` for a key of type `ty`.
    pub fn from_attribute(value: &AttributeValue, ty: KeyType) -> Result<KeyValue, String> {
        match (ty, value) {
            (KeyType::S, AttributeValue::S(s)) if !s.is_empty() => Ok(KeyValue::S(s.clone())),
            (KeyType::N, AttributeValue::N(n)) => Decimal::parse(n)
                .map(KeyValue::N)
                .map_err(|e| e.to_string()),
            (KeyType::B, AttributeValue::B(b)) => match decode_binary(b) {
                Some(bytes) if !bytes.is_empty() => Ok(KeyValue::B(bytes)),
                Some(_) => Err("an empty binary value cannot be a key".to_string()),
                None => Err(format!("`{b}` is not base64")),
            },
            (_, AttributeValue::S(s)) if s.is_empty() => {
                Err("an empty string cannot be a key".to_string())
            }
            (ty, other) => Err(format!("a {ty:?} key cannot hold {}", type_name(other))),
        }
    }
}

/// Encodes bytes as a binary attribute's base64 text.
pub fn encode_binary(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

fn type_name(value: &AttributeValue) -> &'static str {
    match value {
        AttributeValue::S(_) => "a string",
        AttributeValue::N(_) => "a number",
        AttributeValue::B(_) => "binary",
        AttributeValue::Bool(_) => "a boolean",
        AttributeValue::Null(_) => "null",
        AttributeValue::M(_) => "a map",
        AttributeValue::L(_) => "a list",
        AttributeValue::SS(_) => "a string set",
        AttributeValue::NS(_) => "a number set",
        AttributeValue::BS(_) => "a binary set",
    }
}

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
        self.filter
            .iter()
            .map(|test| {
                let values: Vec<String> = test.values.iter().map(show_value).collect();
                crate::coverage::filter_clause(test.op, &test.attribute, &values)
            })
            .collect::<Vec<_>>()
            .join(" AND ")
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

fn show_value(value: &AttributeValue) -> String {
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

/// An item the store refused, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Rejected {
    pub table: String,
    /// `None` for the table itself (the item was not stored at all).
    pub index: Option<String>,
    pub reason: String,
}

/// One stored item.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredItem {
    pub entity: Option<String>,
    pub item: Item,
    /// DynamoDB's size of the item, in bytes.
    pub size: usize,
}

/// The values of a key (its attributes' in order), a one-attribute key's held in place: every
/// key but a multi-attribute one. A vector each was two more allocations per entry and a
/// pointer further from every comparison of the store's sorts and searches (200,000 entries at
/// 10,000 entities, issue 13). Compared, ordered and hashed as the slice of its values.
#[derive(Debug, Clone, Default)]
enum Keys {
    #[default]
    Empty,
    One(KeyValue),
    Many(Vec<KeyValue>),
}

impl Keys {
    fn as_slice(&self) -> &[KeyValue] {
        match self {
            Keys::Empty => &[],
            Keys::One(value) => std::slice::from_ref(value),
            Keys::Many(values) => values,
        }
    }
}

impl std::ops::Deref for Keys {
    type Target = [KeyValue];

    fn deref(&self) -> &[KeyValue] {
        self.as_slice()
    }
}

impl PartialEq for Keys {
    fn eq(&self, other: &Keys) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for Keys {}

impl PartialOrd for Keys {
    fn partial_cmp(&self, other: &Keys) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Keys {
    fn cmp(&self, other: &Keys) -> Ordering {
        self.as_slice().cmp(other.as_slice())
    }
}

/// One entry of an index: its key values, the item it points at and its projected size.
#[derive(Debug, Clone)]
struct Entry {
    partition: Keys,
    sort: Keys,
    /// The item's position in the table, which is its table key's rank: ties of the index key
    /// are ordered by it, as by the table's primary key.
    item: usize,
    size: usize,
}

impl Entry {
    fn position(&self) -> (&[KeyValue], usize) {
        (&self.sort, self.item)
    }
}

/// A map whose hasher has fixed keys, so that its order (and the store's Debug text) is the
/// same every time: SipHash, for keys a design chooses (entity names), which a hostile design
/// could otherwise choose to collide in [`FastHashMap`]'s hash, making each insert search all
/// the others.
type FixedHashMap<K, V> = HashMap<K, V, BuildHasherDefault<DefaultHasher>>;

/// A hash of a partition's key values, by which [`IndexStore::partition`] finds it: the fast
/// hash (SipHash was a tenth of building the store from 100,000 items, issue 13), since two
/// partitions that share one cost a search, not a wrong answer, nor a slower map.
fn partition_hash(partition: &[KeyValue]) -> u64 {
    hash_of(partition)
}

/// The table itself or one of its secondary indexes, sorted.
#[derive(Debug, Clone)]
pub struct IndexStore {
    /// `None` for the table itself.
    pub name: Option<String>,
    pub kind: IndexKind,
    pub partition_key: Vec<KeyAttribute>,
    pub sort_key: Vec<KeyAttribute>,
    pub projection: Projection,
    entries: Vec<Entry>,
    /// By entity name: the positions in `entries` of its items, in index order. Built once
    /// with the store, so that work per entity or per pattern does not walk every entry, and
    /// hashed: the cost estimate looks 10,000 entities up 30,000 times (issue 13).
    by_entity: FixedHashMap<String, Vec<usize>>,
    /// By [`partition_hash`]: the range of `entries` a partition's entries fill, or `None`
    /// for a hash two partitions share (those are searched for). A Query finds its partition
    /// here instead of by a binary search of every entry, each step of which missed the
    /// cache at 100,000 entries (issue 13).
    partitions: FastHashMap<u64, Option<(usize, usize)>>,
}

impl IndexStore {
    /// The index's keys, as [`crate::accepts`] checks a key condition against them.
    pub fn schema(&self) -> Schema<'_> {
        Schema {
            kind: self.kind,
            partition_key: &self.partition_key,
            sort_key: &self.sort_key,
        }
    }

    /// How many items the index holds.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    fn key_names(&self) -> impl Iterator<Item = &str> {
        self.partition_key
            .iter()
            .chain(&self.sort_key)
            .map(|k| k.name.as_str())
    }

    /// The entries of `entity`'s items, in index order; their number known up front, so that
    /// what is collected from them is sized once.
    fn entries_of<'a>(&'a self, entity: &str) -> impl ExactSizeIterator<Item = &'a Entry> + 'a {
        self.by_entity
            .get(entity)
            .map_or(&[][..], Vec::as_slice)
            .iter()
            .map(|&at| &self.entries[at])
    }

    /// Groups the entries by their items' entity: what [`IndexStore::entries_of`] reads.
    /// `entities` are the table's entity names, sorted, and `rank` each item's position in it:
    /// worked out once for the table, not looked up by name for every entry of every index.
    fn group_by_entity(&mut self, entities: &[&str], rank: &[Option<usize>]) {
        let mut groups: Vec<Vec<usize>> = vec![Vec::new(); entities.len()];
        for (at, entry) in self.entries.iter().enumerate() {
            if let Some(r) = rank[entry.item] {
                groups[r].push(at);
            }
        }
        self.by_entity = entities
            .iter()
            .zip(groups)
            .filter(|(_, positions)| !positions.is_empty())
            .map(|(name, positions)| (name.to_string(), positions))
            .collect();
    }

    /// Finds where each partition's entries are: what [`IndexStore::partition`] reads. The
    /// entries are sorted, so a partition's are next to each other.
    fn find_partitions(&mut self) {
        // Counted first, so that the map is sized once instead of rehashed at each doubling.
        let runs = || self.entries.chunk_by(|a, b| a.partition == b.partition);
        let mut partitions =
            FastHashMap::with_capacity_and_hasher(runs().count(), Default::default());
        let mut start = 0;
        for run in runs() {
            partitions
                .entry(partition_hash(run[0].partition.as_slice()))
                .and_modify(|range| *range = None)
                .or_insert(Some((start, start + run.len())));
            start += run.len();
        }
        self.partitions = partitions;
    }

    /// The entries of one partition, in index order (none when it holds no item).
    fn partition(&self, partition: &[KeyValue]) -> &[Entry] {
        let entries = &self.entries;
        match self.partitions.get(&partition_hash(partition)) {
            Some(Some((lo, hi))) if *entries[*lo].partition == *partition => &entries[*lo..*hi],
            // Two partitions with this hash: searched for.
            Some(None) => {
                let lo = entries.partition_point(|e| e.partition.as_slice() < partition);
                // From `lo` on, the partition's entries come first: equal keys, not compared
                // by order.
                let hi = lo + entries[lo..].partition_point(|e| *e.partition == *partition);
                &entries[lo..hi]
            }
            // No partition has this hash, or another partition has it alone.
            _ => &[],
        }
    }
}

/// A table's items and its indexes.
#[derive(Debug, Clone)]
pub struct TableStore {
    pub name: String,
    table: Table,
    items: Vec<StoredItem>,
    /// The sizes of all its items together, in bytes: what a Scan reads.
    bytes: usize,
    /// The table itself first, then its GSIs, then its LSIs.
    indexes: Vec<IndexStore>,
}

impl TableStore {
    pub fn items(&self) -> &[StoredItem] {
        &self.items
    }

    /// The sizes of all its items together, in bytes: what a Scan of the whole table reads.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    pub fn indexes(&self) -> &[IndexStore] {
        &self.indexes
    }

    pub fn index(&self, name: Option<&str>) -> Option<&IndexStore> {
        self.indexes.iter().find(|i| i.name.as_deref() == name)
    }

    /// The stored items of `entity` that `index` holds, in index order (for the table itself,
    /// table order): what filtering every partition of [`TableStore::partitions`] by entity
    /// gives, without walking the other entities' items.
    pub fn items_of<'a>(
        &'a self,
        index: &'a IndexStore,
        entity: &str,
    ) -> impl ExactSizeIterator<Item = &'a StoredItem> + 'a {
        index.entries_of(entity).map(|e| &self.items[e.item])
    }

    /// The sizes of `entity`'s items as `index` projects them, in index order: what
    /// [`cost::item_size`](crate::cost::item_size) of each [`TableStore::project`]ed item of
    /// [`TableStore::items_of`] gives, read from the entries instead of copying every item.
    pub fn projected_sizes_of<'a>(
        &'a self,
        index: &'a IndexStore,
        entity: &str,
    ) -> impl Iterator<Item = usize> + 'a {
        index.entries_of(entity).map(|e| e.size)
    }

    /// For each entity with items in `index`, in no particular order: its name, how many
    /// entries it has there and their projected sizes summed. What
    /// [`TableStore::projected_sizes_of`] gives every entity, in one walk of the index instead
    /// of a lookup per entity.
    pub fn projected_totals<'a>(
        &'a self,
        index: &'a IndexStore,
    ) -> impl Iterator<Item = (&'a str, usize, usize)> + 'a {
        index.by_entity.iter().map(|(entity, positions)| {
            let bytes = positions.iter().map(|&at| index.entries[at].size).sum();
            (entity.as_str(), positions.len(), bytes)
        })
    }

    /// The stored items of `index` grouped by partition: each partition's key values and its
    /// items in sort order, partitions in key order.
    pub fn partitions<'a>(
        &'a self,
        index: &'a IndexStore,
    ) -> Vec<(&'a [KeyValue], Vec<&'a StoredItem>)> {
        let mut out: Vec<(&[KeyValue], Vec<&StoredItem>)> = Vec::new();
        for entry in &index.entries {
            match out.last_mut() {
                Some((key, items)) if *key == entry.partition.as_slice() => {
                    items.push(&self.items[entry.item]);
                }
                _ => out.push((&entry.partition, vec![&self.items[entry.item]])),
            }
        }
        out
    }

    /// `item` as `index` projects it: everything (ALL), or the table's and the index's keys
    /// (KEYS_ONLY) plus the listed attributes (INCLUDE).
    pub fn project(&self, index: &IndexStore, item: &Item) -> Item {
        match &index.projection {
            Projection::All => item.clone(),
            projection => item
                .iter()
                .filter(|(name, _)| self.is_projected(index, projection, name))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
        }
    }

    fn is_projected(&self, index: &IndexStore, projection: &Projection, name: &str) -> bool {
        let table_key = name == self.table.partition_key.name
            || self.table.sort_key.as_ref().is_some_and(|k| k.name == name);
        table_key
            || index.key_names().any(|k| k == name)
            || matches!(projection, Projection::Include { attributes } if attributes.iter().any(|a| a == name))
            || matches!(projection, Projection::All)
    }

    fn projected_size(&self, index: &IndexStore, item: &Item, full: usize) -> usize {
        match &index.projection {
            Projection::All => full,
            projection => item
                .iter()
                .filter(|(name, _)| self.is_projected(index, projection, name))
                .map(|(name, value)| attribute_size(name, value))
                .sum(),
        }
    }

    fn table_key_names(&self) -> Vec<&KeyAttribute> {
        self.table.primary_key().collect()
    }

    /// Fills the secondary index `index` with those of the items at `holding` (positions in
    /// table order) that it holds, sorted, grouped by entity (`entities` and `rank` as
    /// [`IndexStore::group_by_entity`] takes them) and by partition; with the refusals of the
    /// items whose key attribute has the wrong type.
    fn fill_index(
        &self,
        mut index: IndexStore,
        holding: &[usize],
        entities: &[&str],
        rank: &[Option<usize>],
    ) -> (IndexStore, Vec<Rejected>) {
        let mut refused = Vec::new();
        let mut entries = Vec::with_capacity(holding.len());
        for &i in holding {
            let stored = &self.items[i];
            let partition = key_values(&stored.item, &index.partition_key);
            // Not in the index (the common case): its sort key does not matter.
            if matches!(partition, Err((_, None))) {
                continue;
            }
            let sort = key_values(&stored.item, &index.sort_key);
            match (partition, sort) {
                (Ok(partition), Ok(sort)) => {
                    let size = self.projected_size(&index, &stored.item, stored.size);
                    entries.push(Entry {
                        partition,
                        sort,
                        item: i,
                        size,
                    });
                }
                // A missing key attribute: the item is simply not in this index.
                (Err((_, None)), _) | (_, Err((_, None))) => {}
                (Err((attribute, Some(e))), _) | (_, Err((attribute, Some(e)))) => {
                    refused.push(Rejected {
                        table: self.name.clone(),
                        index: index.name.clone(),
                        reason: format!("`{attribute}`: {e}"),
                    })
                }
            }
        }
        // Positions are sorted, then the entries moved once into place. The item's
        // position breaks ties, so the order is total and an unstable sort is exact.
        let summaries = entries.iter().map(|e| key_summary(&e.partition));
        let order = sorted_positions(summaries, |a, b| {
            let (a, b) = (&entries[a], &entries[b]);
            a.partition
                .cmp(&b.partition)
                .then_with(|| a.position().cmp(&b.position()))
        });
        permute(&mut entries, order);
        index.entries = entries;
        index.group_by_entity(entities, rank);
        index.find_partitions();
        (index, refused)
    }
}

/// Every table of a design with its items, ready to be queried.
#[derive(Debug, Clone)]
pub struct ItemStore {
    tables: Vec<TableStore>,
    /// Items (or index entries) left out because their keys are missing or of the wrong type.
    pub rejected: Vec<Rejected>,
}

/// An item to load: its table, its entity (if known) and the item.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LoadItem {
    pub table: String,
    pub entity: Option<String>,
    pub item: Item,
}

/// An item to load with its partition and sort key values.
type KeyedLoad = (Keys, Keys, LoadItem);

/// The values of `item`'s key `keys`, or the first key attribute it lacks (with why its value
/// cannot be a key, when it has one).
fn key_values<'k>(
    item: &Item,
    keys: &'k [KeyAttribute],
) -> Result<Keys, (&'k str, Option<String>)> {
    let value = |k: &'k KeyAttribute| match item.get(&k.name) {
        None => Err((k.name.as_str(), None)),
        Some(v) => KeyValue::from_attribute(v, k.ty).map_err(|e| (k.name.as_str(), Some(e))),
    };
    let [first, rest @ ..] = keys else {
        return Ok(Keys::Empty);
    };
    let first = value(first)?;
    if rest.is_empty() {
        return Ok(Keys::One(first));
    }
    // A plain loop into an exact-size vector: this runs for every item and index on a load,
    // and most items are not in most indexes, so nothing is allocated before a key is found.
    let mut out = Vec::with_capacity(keys.len());
    out.push(first);
    for k in rest {
        out.push(value(k)?);
    }
    Ok(Keys::Many(out))
}

/// An order-keeping summary of key values: the first value's variant, then the first 31 bytes
/// of its text (a string's or binary's; none of a number), zero-padded. Where two summaries
/// differ the values compare as they do (a zero pad is below any byte, and the variants are in
/// [`KeyValue`]'s order), so that a sort follows the values' pointers only on a tie: it
/// compared the full keys of 100,000 items, a cache miss each (issue 13). 31 bytes, not 15:
/// keys share long beginnings (`PARENT123#parent_`, `CUSTOMER#cust_`), and 15 bytes left most
/// of a table's comparisons to the full keys.
fn key_summary(values: &[KeyValue]) -> (u128, u128) {
    let (variant, text): (u8, &[u8]) = match values.first() {
        None => return (0, 0),
        Some(KeyValue::S(s)) => (1, s.as_bytes()),
        Some(KeyValue::N(_)) => (2, &[]),
        Some(KeyValue::B(b)) => (3, b),
    };
    let mut head = [0u8; 32];
    head[0] = variant;
    let n = text.len().min(31);
    head[1..=n].copy_from_slice(&text[..n]);
    let (high, low) = head.split_at(16);
    (
        u128::from_be_bytes(high.try_into().unwrap_or_default()),
        u128::from_be_bytes(low.try_into().unwrap_or_default()),
    )
}

/// Puts `items` in the order `order` gives (a permutation of their positions: `items[k]`
/// becomes what `items[order[k]]` was) in place, each cycle of the permutation followed once:
/// moving them into a list of options and out again into a third list copied 100,000 loads
/// twice into memory never touched before (issue 13).
fn permute<T>(items: &mut [T], mut order: Vec<usize>) {
    const DONE: usize = usize::MAX;
    for start in 0..items.len() {
        let mut at = start;
        while order[at] != DONE {
            let from = order[at];
            order[at] = DONE;
            if from == start {
                break;
            }
            items.swap(at, from);
            at = from;
        }
    }
}

/// The positions of the summarised keys in the order of `cmp` (a total order, so that the
/// unstable sort is exact), which the [`key_summary`]s decide wherever they differ.
fn sorted_positions(
    summaries: impl Iterator<Item = (u128, u128)>,
    cmp: impl Fn(usize, usize) -> Ordering,
) -> Vec<usize> {
    let mut keyed: Vec<((u128, u128), usize)> =
        summaries.enumerate().map(|(at, s)| (s, at)).collect();
    keyed.sort_unstable_by(|a, b| a.0.cmp(&b.0).then_with(|| cmp(a.1, b.1)));
    keyed.into_iter().map(|(_, at)| at).collect()
}

impl ItemStore {
    /// Loads `items` into the tables of `design`. A later item with the same primary key
    /// replaces an earlier one, as a PutItem would.
    pub fn build(design: &Design, items: impl IntoIterator<Item = LoadItem>) -> ItemStore {
        let mut rejected = Vec::new();
        let mut tables: Vec<TableStore> = design
            .tables
            .iter()
            .map(|t| TableStore {
                name: t.name.clone(),
                table: t.clone(),
                items: Vec::new(),
                bytes: 0,
                indexes: Vec::new(),
            })
            .collect();
        // Per table: each item's primary key values and the item, in load order. A design of
        // one table has every item there, so its list is sized for all of them up front: grown
        // by doubling, each step copied every load so far into memory never touched before
        // (100,000 loads at 10,000 entities, issue 13).
        let items = items.into_iter();
        let mut keyed: Vec<Vec<KeyedLoad>> = vec![Vec::new(); tables.len()];
        if let [only] = keyed.as_mut_slice() {
            only.reserve(items.size_hint().0);
        }
        let table_keys: Vec<(Vec<KeyAttribute>, Vec<KeyAttribute>)> = tables
            .iter()
            .map(|t| {
                (
                    vec![t.table.partition_key.clone()],
                    t.table.sort_key.iter().cloned().collect(),
                )
            })
            .collect();
        for load in items {
            let Some(t) = tables.iter().position(|t| t.name == load.table) else {
                rejected.push(Rejected {
                    table: load.table.clone(),
                    index: None,
                    reason: format!("there is no table `{}`", load.table),
                });
                continue;
            };
            let (pk, sk) = &table_keys[t];
            match key_values(&load.item, pk).and_then(|p| Ok((p, key_values(&load.item, sk)?))) {
                Ok((partition, sort)) => keyed[t].push((partition, sort, load)),
                Err((attribute, why)) => rejected.push(Rejected {
                    table: tables[t].name.clone(),
                    index: None,
                    reason: match why {
                        None => format!("an item has no `{attribute}`, a primary key attribute"),
                        Some(e) => format!("`{attribute}`: {e}"),
                    },
                }),
            }
        }
        for (table, mut loads) in tables.iter_mut().zip(keyed) {
            // Table order, with load order among equal keys: the last of them wins, as a later
            // PutItem replaces an earlier one. Positions are sorted, not the loads themselves,
            // which would move every item's keys and attributes at each step of the sort.
            let order = sorted_positions(loads.iter().map(|l| key_summary(&l.0)), |a, b| {
                (&loads[a].0, &loads[a].1, a).cmp(&(&loads[b].0, &loads[b].1, b))
            });
            permute(&mut loads, order);
            let mut table_entries: Vec<Entry> = Vec::with_capacity(loads.len());
            table.items.reserve(loads.len());
            let mut loads = loads.into_iter().peekable();
            while let Some((partition, sort, load)) = loads.next() {
                let replaced = loads
                    .peek()
                    .is_some_and(|next| next.0 == partition && next.1 == sort);
                if replaced {
                    continue;
                }
                let size = item_size(&load.item);
                table_entries.push(Entry {
                    partition,
                    sort,
                    item: table.items.len(),
                    size,
                });
                table.bytes += size;
                table.items.push(StoredItem {
                    entity: load.entity,
                    item: load.item,
                    size,
                });
            }
            // The table's entity names, sorted, and each item's position among them.
            let mut entities: Vec<&str> = table
                .items
                .iter()
                .filter_map(|s| s.entity.as_deref())
                .collect::<std::collections::HashSet<&str>>()
                .into_iter()
                .collect();
            entities.sort_unstable();
            let rank_of: HashMap<&str, usize> =
                entities.iter().enumerate().map(|(r, &e)| (e, r)).collect();
            let rank: Vec<Option<usize>> = table
                .items
                .iter()
                .map(|s| s.entity.as_deref().and_then(|e| rank_of.get(e).copied()))
                .collect();
            // Per index (in `indexes()` order), the items that hold its first partition key
            // attribute, in table order: the only ones that can be in it. Found by walking
            // each item's attributes once, instead of looking every index's key up in every
            // item (most items are in few of a table's indexes).
            let index_keys = table.table.indexes();
            let mut holding: Vec<Vec<usize>> = vec![Vec::new(); index_keys.len()];
            // Hashed fast: a million attribute names looked up at 100,000 items, among the
            // few names that key the table's indexes.
            let mut by_first_key: FastHashMap<&str, Vec<usize>> = FastHashMap::default();
            for (at, keys) in index_keys.iter().enumerate() {
                // The table's own entries are its items, keyed already.
                if keys.kind == IndexKind::Table {
                    continue;
                }
                match keys.partition_key.first() {
                    Some(first) => by_first_key
                        .entry(first.name.as_str())
                        .or_default()
                        .push(at),
                    // No partition key (not a valid index): every item is looked at.
                    None => holding[at] = (0..table.items.len()).collect(),
                }
            }
            for (i, stored) in table.items.iter().enumerate() {
                for name in stored.item.keys() {
                    for &at in by_first_key
                        .get(name.as_str())
                        .map_or(&[][..], Vec::as_slice)
                    {
                        holding[at].push(i);
                    }
                }
            }
            // The table's own index takes the entries built above; each secondary index is
            // built from the items that can be in it, independently of the others (over the
            // machine's cores with `parallel`), its refusals kept in index order.
            let mut built = Vec::with_capacity(index_keys.len());
            let mut secondary = Vec::with_capacity(index_keys.len());
            for (keys, holding) in index_keys.into_iter().zip(holding) {
                let mut index = IndexStore {
                    name: keys.name.map(str::to_string),
                    kind: keys.kind,
                    partition_key: keys.partition_key.to_vec(),
                    sort_key: keys.sort_key.to_vec(),
                    projection: keys.projection.clone(),
                    entries: Vec::new(),
                    by_entity: FixedHashMap::default(),
                    partitions: FastHashMap::default(),
                };
                if index.kind == IndexKind::Table {
                    index.entries = std::mem::take(&mut table_entries);
                    index.group_by_entity(&entities, &rank);
                    index.find_partitions();
                    built.push(index);
                } else {
                    secondary.push((index, holding));
                }
            }
            let table_ref: &TableStore = table;
            let secondary = crate::par::map_owned(secondary, |(index, holding)| {
                table_ref.fill_index(index, &holding, &entities, &rank)
            });
            for (index, refused) in secondary {
                built.push(index);
                rejected.extend(refused);
            }
            table.indexes = built;
        }
        ItemStore { tables, rejected }
    }

    pub fn tables(&self) -> &[TableStore] {
        &self.tables
    }

    pub fn table(&self, name: &str) -> Option<&TableStore> {
        self.tables.iter().find(|t| t.name == name)
    }

    fn resolve(
        &self,
        table: &str,
        index: Option<&str>,
    ) -> Result<(&TableStore, &IndexStore), QueryError> {
        let t = self
            .table(table)
            .ok_or_else(|| QueryError::NoTable(table.to_string()))?;
        let i = t.index(index).ok_or_else(|| QueryError::NoIndex {
            table: table.to_string(),
            index: index.unwrap_or_default().to_string(),
        })?;
        Ok((t, i))
    }

    /// Executes one Query exactly as DynamoDB does, returning one page.
    pub fn query(&self, query: &KeyQuery) -> Result<Page, QueryError> {
        self.query_ending(query, PageEnd::AfterCrossing)
    }

    /// Executes one Query with its 1 MB page ended by `end`: DynamoDB's rule, or an engine's.
    pub fn query_ending(&self, query: &KeyQuery, end: PageEnd) -> Result<Page, QueryError> {
        let (table, index, matching, consistency) = self.matching(query)?;
        Ok(self.read_page(table, index, matching, (query, end), consistency))
    }

    /// How many items [`ItemStore::query`]'s page reads, before any filter (its ScannedCount), with
    /// the same checks and the same stops (the Limit, the 1 MB page), without copying them:
    /// what the cost estimate reads, since a filter drops items only after paying for them.
    pub fn count(&self, query: &KeyQuery) -> Result<usize, QueryError> {
        let (_, _, matching, _) = self.matching(query)?;
        let limit = query.limit.map_or(usize::MAX, |l| l as usize);
        let (mut items, mut bytes) = (0, 0);
        let mut count = |entry: &Entry| {
            if items >= limit || bytes >= crate::limits::MAX_PAGE_BYTES {
                return false;
            }
            items += 1;
            bytes += entry.size;
            true
        };
        if query.forward {
            matching.iter().all(&mut count);
        } else {
            matching.iter().rev().all(&mut count);
        }
        Ok(items)
    }

    /// The checks of a Query and the entries its key condition (and ExclusiveStartKey)
    /// select, in index order, with its table, index and read consistency.
    fn matching<'s>(
        &'s self,
        query: &KeyQuery,
    ) -> Result<(&'s TableStore, &'s IndexStore, &'s [Entry], Consistency), QueryError> {
        let (table, index) = self.resolve(&query.table, query.index.as_deref())?;
        if query.limit == Some(0) {
            return Err(QueryError::ZeroLimit);
        }
        accepts::key_condition(
            index.schema(),
            Read::Query,
            query.consistent,
            query.partition.iter().map(|(name, _)| name.as_str()),
            query.sort_equal.iter().map(|(name, _)| name.as_str()),
            query.sort_condition.as_ref().map(|t| Test {
                attribute: &t.attribute,
                op: t.op,
                values: t.values.len(),
            }),
        )?;
        for test in &query.filter {
            for value in &test.values {
                accepts::filter_condition(&test.attribute, AttrType::of(value), test.op)?;
            }
        }
        let partition = typed_values(&index.partition_key, &query.partition, true)?;
        let bounds = SortBounds::new(index, &query.sort_equal, query.sort_condition.as_ref())?;
        let part = index.partition(&partition);
        let a = part.partition_point(|e| bounds.place(&e.sort) == Ordering::Less);
        let b = a + part[a..].partition_point(|e| bounds.place(&e.sort) != Ordering::Greater);
        let mut matching = &part[a..b];
        if let Some(start) = &query.exclusive_start_key {
            let (sort, rank, exact) = start_position(table, index, start, &partition, &bounds)?;
            let position = (sort.as_slice(), rank);
            matching = if query.forward {
                // After the start key: past its rank when an item has exactly that table key,
                // from the rank of the next table key otherwise.
                let from = matching.partition_point(|e| {
                    if exact {
                        e.position() <= position
                    } else {
                        e.position() < position
                    }
                });
                &matching[from..]
            } else {
                let to = matching.partition_point(|e| e.position() < position);
                &matching[..to]
            };
        }
        let consistency = if query.consistent {
            Consistency::Strong
        } else {
            Consistency::Eventual
        };
        Ok((table, index, matching, consistency))
    }

    fn read_page(
        &self,
        table: &TableStore,
        index: &IndexStore,
        matching: &[Entry],
        (query, end): (&KeyQuery, PageEnd),
        consistency: Consistency,
    ) -> Page {
        let (forward, filter) = (query.forward, &query.filter);
        let limit = query.limit.map_or(usize::MAX, |l| l as usize);
        let mut page = Page {
            items: Vec::new(),
            entities: Vec::new(),
            last_evaluated_key: None,
            bytes_read: 0,
            read_units: 0.0,
            scanned: 0,
        };
        let mut last: Option<&Entry> = None;
        let mut stopped = false;
        let ordered: Box<dyn Iterator<Item = &Entry>> = if forward {
            Box::new(matching.iter())
        } else {
            Box::new(matching.iter().rev())
        };
        for entry in ordered {
            if page.scanned >= limit || page.bytes_read >= crate::limits::MAX_PAGE_BYTES {
                stopped = true;
                break;
            }
            if end == PageEnd::BeforeCrossing
                && page.scanned > 0
                && page.bytes_read + entry.size > crate::limits::MAX_PAGE_BYTES
            {
                page.scanned += 1;
                stopped = true;
                break;
            }
            let stored = &table.items[entry.item];
            let projected = table.project(index, &stored.item);
            // The filter sees the item as read and drops it after the read: it still counts
            // towards the Limit, the page and the units.
            if filter::matches_all(filter, &projected) {
                page.items.push(projected);
                page.entities.push(stored.entity.clone());
            }
            page.scanned += 1;
            page.bytes_read += entry.size;
            last = Some(entry);
        }
        // DynamoDB stops reading at the Limit (or the 1 MB page) without looking further, so a
        // page that reached the Limit carries a LastEvaluatedKey even when nothing follows.
        if page.scanned >= limit || page.bytes_read >= crate::limits::MAX_PAGE_BYTES {
            stopped = true;
        }
        if stopped && let Some(entry) = last {
            page.last_evaluated_key = Some(last_key(table, index, &table.items[entry.item].item));
        }
        page.read_units = read_units(page.bytes_read, consistency);
        page
    }

    /// GetItem: the item with exactly this primary key, if any. A missing item still costs
    /// one read (half a unit eventually consistent).
    pub fn get_item(&self, query: &KeyQuery) -> Result<Page, QueryError> {
        let (table, found) = self.find_item(query)?;
        let consistency = if query.consistent {
            Consistency::Strong
        } else {
            Consistency::Eventual
        };
        let mut page = Page {
            items: Vec::new(),
            entities: Vec::new(),
            last_evaluated_key: None,
            bytes_read: 0,
            read_units: read_units(0, consistency),
            scanned: 0,
        };
        if let Some(entry) = found {
            let stored = &table.items[entry.item];
            page.items.push(stored.item.clone());
            page.entities.push(stored.entity.clone());
            page.scanned = 1;
            page.bytes_read = stored.size;
            page.read_units = read_units(stored.size, consistency);
        }
        Ok(page)
    }

    /// The checks of GetItem and the entry of the item it finds, if any.
    fn find_item(&self, query: &KeyQuery) -> Result<(&TableStore, Option<&Entry>), QueryError> {
        let (table, index) = self.resolve(&query.table, None)?;
        accepts::key_condition(
            index.schema(),
            Read::GetItem,
            query.consistent,
            query.partition.iter().map(|(name, _)| name.as_str()),
            query.sort_equal.iter().map(|(name, _)| name.as_str()),
            None,
        )?;
        let partition = typed_values(&index.partition_key, &query.partition, true)?;
        let sort = typed_values(&index.sort_key, &query.sort_equal, true)?;
        let entries = index.partition(&partition);
        let at = entries.partition_point(|e| *e.sort < *sort);
        let found = entries.get(at).filter(|e| *e.sort == *sort);
        Ok((table, found))
    }

    /// How many items (0 or 1) [`ItemStore::get_item`] returns, with the same checks, without
    /// copying the item.
    pub fn count_item(&self, query: &KeyQuery) -> Result<usize, QueryError> {
        Ok(usize::from(self.find_item(query)?.1.is_some()))
    }

    /// Scatter-gather: runs each query (one per write shard, each with the same Limit), merges
    /// the items by the index's sort key in the queries' direction (ties by table key) and keeps
    /// the first Limit. The read units are the sum over all the queries.
    pub fn scatter_gather(&self, queries: &[KeyQuery]) -> Result<Merged, QueryError> {
        // One query (a pattern without write shards): its page is already in index order,
        // sort key then table key, and within its Limit, so there is nothing to merge.
        if let [query] = queries {
            let page = self.query(query)?;
            return Ok(Merged {
                items: page.items.clone(),
                entities: page.entities.clone(),
                bytes_read: page.bytes_read,
                read_units: page.read_units,
                scanned: page.scanned,
                pages: vec![page],
            });
        }
        let mut pages = Vec::with_capacity(queries.len());
        // (sort key, table key, page, item in page): merged by position, copied once at the end.
        let mut rows: Vec<(Keys, Keys, usize, usize)> = Vec::new();
        let mut forward = true;
        let mut limit = None;
        for query in queries {
            let (table, index) = self.resolve(&query.table, query.index.as_deref())?;
            forward = query.forward;
            limit = query.limit;
            let page = self.query(query)?;
            let table_keys: Vec<KeyAttribute> =
                table.table_key_names().into_iter().cloned().collect();
            for (at, item) in page.items.iter().enumerate() {
                let sort = key_values(item, &index.sort_key).unwrap_or_default();
                let table_key = key_values(item, &table_keys).unwrap_or_default();
                rows.push((sort, table_key, pages.len(), at));
            }
            pages.push(page);
        }
        rows.sort_by(|a, b| {
            let order = (&a.0, &a.1).cmp(&(&b.0, &b.1));
            if forward { order } else { order.reverse() }
        });
        if let Some(limit) = limit {
            rows.truncate(limit as usize);
        }
        let read_units = pages.iter().map(|p| p.read_units).sum();
        let bytes_read = pages.iter().map(|p| p.bytes_read).sum();
        let scanned = pages.iter().map(|p| p.scanned).sum();
        let (items, entities) = rows
            .iter()
            .map(|(_, _, page, at)| {
                (
                    pages[*page].items[*at].clone(),
                    pages[*page].entities[*at].clone(),
                )
            })
            .unzip();
        Ok(Merged {
            items,
            entities,
            pages,
            bytes_read,
            read_units,
            scanned,
        })
    }
}

impl ItemStore {
    /// How many items [`ItemStore::scatter_gather`] of `queries` merges, with the same checks,
    /// without copying them.
    pub fn count_scatter_gather(&self, queries: &[KeyQuery]) -> Result<usize, QueryError> {
        let mut items = 0usize;
        let mut limit = None;
        for query in queries {
            limit = query.limit;
            items += self.count(query)?;
        }
        // One query stops at its own Limit; merged shards keep the first Limit of them all.
        Ok(match limit {
            Some(limit) if queries.len() > 1 => items.min(limit as usize),
            _ => items,
        })
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

/// The LastEvaluatedKey of `item`: the index's key attributes and the table's primary key.
fn last_key(table: &TableStore, index: &IndexStore, item: &Item) -> Item {
    let names = table
        .table_key_names()
        .into_iter()
        .map(|k| k.name.as_str())
        .chain(index.key_names())
        .collect::<Vec<_>>();
    item.iter()
        .filter(|(name, _)| names.contains(&name.as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

/// The typed values for `keys`, in key order, from the (name, value) pairs given: a leading run
/// of them, or with `complete` every one. The condition's shape was checked first
/// ([`accepts::key_condition`]); this types the values.
fn typed_values(
    keys: &[KeyAttribute],
    given: &[(String, AttributeValue)],
    complete: bool,
) -> Result<Vec<KeyValue>, QueryError> {
    let mut out = Vec::with_capacity(keys.len());
    for key in keys {
        match given.iter().find(|(n, _)| *n == key.name) {
            Some((_, value)) => {
                out.push(KeyValue::from_attribute(value, key.ty).map_err(|message| {
                    QueryError::BadKeyValue {
                        attribute: key.name.clone(),
                        message,
                    }
                })?)
            }
            None if complete => {
                return Err(Refusal::MissingPartitionKey(key.name.clone()).into());
            }
            None => break,
        }
    }
    Ok(out)
}

/// The typed sort-key condition: equalities on the leading sort attributes, then at most one
/// comparison on the next.
#[derive(Debug)]
struct SortBounds {
    equal: Vec<KeyValue>,
    test: Option<(SortOp, Vec<KeyValue>)>,
}

impl SortBounds {
    fn new(
        index: &IndexStore,
        equal: &[(String, AttributeValue)],
        test: Option<&SortTest>,
    ) -> Result<SortBounds, QueryError> {
        let equal_values = typed_values(&index.sort_key, equal, false)?;
        let test = match test {
            None => None,
            Some(test) => {
                // Its place in the key, arity and operator were checked by the authority.
                let Some(key) = index.sort_key.get(equal_values.len()) else {
                    return Err(Refusal::NotAKey(test.attribute.clone()).into());
                };
                let values = test
                    .values
                    .iter()
                    .map(|v| {
                        KeyValue::from_attribute(v, key.ty).map_err(|message| {
                            QueryError::BadKeyValue {
                                attribute: key.name.clone(),
                                message,
                            }
                        })
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                if test.op == SortOp::Between && values[0] > values[1] {
                    return Err(QueryError::BetweenReversed);
                }
                Some((test.op, values))
            }
        };
        Ok(SortBounds {
            equal: equal_values,
            test,
        })
    }

    /// Where a sort key lies relative to the matching range: before it (Less), in it (Equal)
    /// or after it (Greater). Monotone in the sort key, so the matches are contiguous.
    fn place(&self, sort: &[KeyValue]) -> Ordering {
        for (have, want) in sort.iter().zip(&self.equal) {
            match have.cmp(want) {
                Ordering::Equal => {}
                other => return other,
            }
        }
        let Some((op, values)) = &self.test else {
            return Ordering::Equal;
        };
        let Some(v) = sort.get(self.equal.len()) else {
            return Ordering::Equal;
        };
        let x = &values[0];
        match op {
            SortOp::Eq => v.cmp(x),
            SortOp::Lt => {
                if v < x {
                    Ordering::Equal
                } else {
                    Ordering::Greater
                }
            }
            SortOp::Le => {
                if v <= x {
                    Ordering::Equal
                } else {
                    Ordering::Greater
                }
            }
            SortOp::Gt => {
                if v > x {
                    Ordering::Equal
                } else {
                    Ordering::Less
                }
            }
            SortOp::Ge => {
                if v >= x {
                    Ordering::Equal
                } else {
                    Ordering::Less
                }
            }
            SortOp::Between => {
                if v < x {
                    Ordering::Less
                } else if v > &values[1] {
                    Ordering::Greater
                } else {
                    Ordering::Equal
                }
            }
            SortOp::BeginsWith => {
                let starts = match (v, x) {
                    (KeyValue::S(v), KeyValue::S(p)) => v.as_bytes().starts_with(p.as_bytes()),
                    (KeyValue::B(v), KeyValue::B(p)) => v.starts_with(p),
                    _ => false,
                };
                if starts { Ordering::Equal } else { v.cmp(x) }
            }
        }
    }
}

/// The position an ExclusiveStartKey names, after checking it has the keys it needs, names the
/// queried partition and satisfies the key condition: its index sort key, the rank its table key
/// has (or would have) in the table, and whether an item has exactly that table key.
fn start_position(
    table: &TableStore,
    index: &IndexStore,
    start: &Item,
    partition: &[KeyValue],
    bounds: &SortBounds,
) -> Result<(Keys, usize, bool), QueryError> {
    let bad = |message: String| QueryError::BadStartKey(message);
    let start_partition = key_values(start, &index.partition_key)
        .map_err(|(a, _)| bad(format!("it has no valid `{a}`")))?;
    if *start_partition != *partition {
        return Err(bad(
            "it is in another partition than the query's".to_string()
        ));
    }
    let sort = key_values(start, &index.sort_key)
        .map_err(|(a, _)| bad(format!("it has no valid `{a}`")))?;
    if bounds.place(&sort) != Ordering::Equal {
        return Err(bad("it does not match the sort key condition".to_string()));
    }
    let table_index = &table.indexes[0];
    let table_partition = key_values(start, &table_index.partition_key)
        .map_err(|(a, _)| bad(format!("it has no valid `{a}`")))?;
    let table_sort = key_values(start, &table_index.sort_key)
        .map_err(|(a, _)| bad(format!("it has no valid `{a}`")))?;
    let key = (table_partition.as_slice(), table_sort.as_slice());
    let entries = &table_index.entries;
    let rank = entries.partition_point(|e| (e.partition.as_slice(), e.sort.as_slice()) < key);
    let exact = entries
        .get(rank)
        .is_some_and(|e| (e.partition.as_slice(), e.sort.as_slice()) == key);
    Ok((sort, rank, exact))
}

// ---------------------------------------------------------------------------------------------
// Verdicts to queries

/// Why a verdict cannot be turned into queries.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    #[error("`{0}` is not served by GetItem or Query ({1}), so there is nothing to evaluate")]
    NotAKeyRead(String, &'static str),
    #[error("the verdict for `{0}` names no table or key condition")]
    Incomplete(String),
    #[error("no value for `{0}`: give it with --input {0}=VALUE")]
    MissingInput(String),
    #[error("no sample item of {0} to take input values from")]
    NoSample(String),
    #[error(transparent)]
    Query(#[from] QueryError),
}

/// What a read pattern runs: its queries (one per shard for a scatter-gather) and operation.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ReadPlan {
    pub pattern: String,
    pub operation: Operation,
    pub queries: Vec<KeyQuery>,
}

/// A key attribute's value rendered from `template`, typed for `ty`: a number's text for N
/// (`None` if the text is not a number), base64 of the text for B (a template that is just one
/// binary attribute keeps its value). `None` when a variable has no value or the text is empty.
pub fn render_key(
    template: &KeyTemplate,
    ty: KeyType,
    mut value: impl FnMut(&crate::template::Var) -> Option<AttributeValue>,
) -> Option<AttributeValue> {
    render_key_cow(template, ty, |v| value(v).map(Cow::Owned))
}

/// [`render_key`] with values that may be borrowed, which saves a copy per variable.
pub fn render_key_cow<'a>(
    template: &KeyTemplate,
    ty: KeyType,
    value: impl FnMut(&crate::template::Var) -> Option<Cow<'a, AttributeValue>>,
) -> Option<AttributeValue> {
    render_key_in(template, ty, value, &mut String::new())
}

/// [`render_key_cow`] writing the text into `buffer` (cleared first): a caller rendering many
/// keys grows one buffer, and each key's string is allocated once at its exact length.
pub(crate) fn render_key_in<'a>(
    template: &KeyTemplate,
    ty: KeyType,
    mut value: impl FnMut(&crate::template::Var) -> Option<Cow<'a, AttributeValue>>,
    buffer: &mut String,
) -> Option<AttributeValue> {
    let parts = template.parts();
    if ty == KeyType::B
        && let [Part::Var(var)] = parts
        && let Some(found) = value(var)
        && let AttributeValue::B(b) = found.as_ref()
    {
        return Some(AttributeValue::B(b.clone()));
    }
    buffer.clear();
    for part in parts {
        match part {
            Part::Literal(s) => buffer.push_str(s),
            Part::Var(var) => buffer.push_str(value(var)?.as_key_text()?),
        }
    }
    typed_key(buffer, ty)
}

/// A rendered key's text as a value of type `ty`, as [`render_key`] gives it: `None` when the
/// text is empty or not a number for N.
fn typed_key(text: &str, ty: KeyType) -> Option<AttributeValue> {
    if text.is_empty() {
        return None;
    }
    match ty {
        KeyType::S => Some(AttributeValue::S(text.to_owned())),
        KeyType::N => Decimal::parse(text)
            .ok()
            .map(|d| AttributeValue::N(d.to_string())),
        KeyType::B => Some(AttributeValue::B(encode_binary(text.as_bytes()))),
    }
}

/// [`typed_key`] of a text the caller no longer needs: a string key keeps it, not a copy.
fn typed_key_of(text: String, ty: KeyType) -> Option<AttributeValue> {
    match ty {
        KeyType::S if !text.is_empty() => Some(AttributeValue::S(text)),
        _ => typed_key(&text, ty),
    }
}

/// The key attribute `name` of the verdict's table or index.
fn key_type(table: &Table, name: &str) -> KeyType {
    table.key_attribute(name).map_or(KeyType::S, |k| k.ty)
}

/// Turns a verdict and input values (attribute name to text) into the queries it runs. A
/// write-sharded partition key becomes one query per shard. The pattern's `page_size` is the
/// Limit; its `consistent` flag the ConsistentRead.
pub fn plan(
    design: &Design,
    verdict: &Verdict,
    pattern: &AccessPattern,
    inputs: &BTreeMap<String, String>,
) -> Result<ReadPlan, PlanError> {
    if !matches!(verdict.operation, Operation::GetItem | Operation::Query) {
        return Err(PlanError::NotAKeyRead(
            verdict.pattern.clone(),
            verdict.operation.as_str(),
        ));
    }
    let incomplete = || PlanError::Incomplete(verdict.pattern.clone());
    let (Some(table_name), Some(spec)) = (&verdict.table, &verdict.query) else {
        return Err(incomplete());
    };
    let table = design.table(table_name).ok_or_else(incomplete)?;
    let shards = verdict.shards.unwrap_or(1).max(1);
    let mut queries = Vec::with_capacity(shards as usize);
    for shard in 0..shards {
        queries.push(plan_one(
            design, table, verdict, pattern, spec, inputs, shard,
        )?);
    }
    Ok(ReadPlan {
        pattern: verdict.pattern.clone(),
        operation: verdict.operation,
        queries,
    })
}

fn plan_one(
    design: &Design,
    table: &Table,
    verdict: &Verdict,
    pattern: &AccessPattern,
    spec: &QuerySpec,
    inputs: &BTreeMap<String, String>,
    shard: u32,
) -> Result<KeyQuery, PlanError> {
    // What `render_key` makes of the inputs' text values (the shard's number for a shard
    // variable), written into one string instead of a copy of each value (issue 13).
    let shard_text = shard.to_string();
    fn piece<'a>(
        part: &'a Part,
        shard_text: &'a str,
        inputs: &'a BTreeMap<String, String>,
    ) -> Result<&'a str, PlanError> {
        match part {
            Part::Literal(literal) => Ok(literal),
            Part::Var(v) if v.shards.is_some() => Ok(shard_text),
            Part::Var(v) => inputs
                .get(&v.name)
                .map(String::as_str)
                .ok_or_else(|| PlanError::MissingInput(v.name.clone())),
        }
    }
    let render = |attribute: &str, template: &KeyTemplate| -> Result<AttributeValue, PlanError> {
        // Measured first, then written into a string of that size: grown by doubling, it was
        // reallocated twice a key (60,000 keys at 10,000 entities).
        let mut len = 0;
        for part in template.parts() {
            len += piece(part, &shard_text, inputs)?.len();
        }
        let mut text = String::with_capacity(len);
        for part in template.parts() {
            text.push_str(piece(part, &shard_text, inputs)?);
        }
        let ty = key_type(table, attribute);
        typed_key_of(text, ty).ok_or_else(|| {
            PlanError::Query(QueryError::BadKeyValue {
                attribute: attribute.to_string(),
                message: format!("`{template}` does not render to a valid {ty:?} value"),
            })
        })
    };
    let mut query = KeyQuery::new(&table.name, verdict.index.as_deref(), Vec::new());
    for part in &spec.partition {
        query.partition.push((
            part.attribute.clone(),
            render(&part.attribute, &part.template)?,
        ));
    }
    for part in &spec.sort_equal {
        query.sort_equal.push((
            part.attribute.clone(),
            render(&part.attribute, &part.template)?,
        ));
    }
    if let Some(condition) = &spec.sort_condition {
        let values = condition
            .values
            .iter()
            .map(|t| render(&condition.attribute, t))
            .collect::<Result<Vec<_>, _>>()?;
        query.sort_condition = Some(SortTest {
            attribute: condition.attribute.clone(),
            op: condition.op,
            values,
        });
    }
    if let Some(expression) = &verdict.filter {
        for term in &expression.terms {
            let ty = filter_value_type(design, pattern, &term.attribute, term.op);
            let values = term
                .inputs
                .iter()
                .map(|name| {
                    let text = inputs
                        .get(name)
                        .ok_or_else(|| PlanError::MissingInput(name.clone()))?;
                    typed_filter_value(text, ty).ok_or_else(|| {
                        PlanError::Query(QueryError::BadKeyValue {
                            attribute: term.attribute.clone(),
                            message: format!("`{text}` is not a valid {} value", ty.as_str()),
                        })
                    })
                })
                .collect::<Result<Vec<_>, _>>()?;
            query.filter.push(FilterTest {
                attribute: term.attribute.clone(),
                op: term.op,
                values,
            });
        }
    }
    query.forward = verdict.scan_forward;
    query.limit = pattern.page_size;
    query.consistent = pattern.consistent;
    Ok(query)
}

/// The type of a filter value on `attribute`: the attribute's own type among the pattern's
/// entities, or its elements' for `contains` on a set (a string for a list, or unknown).
fn filter_value_type(
    design: &Design,
    pattern: &AccessPattern,
    attribute: &str,
    op: FilterOp,
) -> AttrType {
    let ty = pattern
        .entities
        .iter()
        .filter_map(|e| design.entity(e)?.attribute(attribute))
        .map(|a| a.ty)
        .next()
        .unwrap_or(AttrType::S);
    match (op, ty) {
        (FilterOp::Contains, AttrType::SS | AttrType::L | AttrType::M) => AttrType::S,
        (FilterOp::Contains, AttrType::NS) => AttrType::N,
        (FilterOp::Contains, AttrType::BS) => AttrType::B,
        (_, ty) => ty,
    }
}

/// An input's text as a filter value of type `ty`: a number must be one, binary is the
/// text's bytes (as a key renders it), a boolean `true` or `false`; other types are compared
/// as strings. `None` when the text is not of the type.
fn typed_filter_value(text: &str, ty: AttrType) -> Option<AttributeValue> {
    match ty {
        AttrType::N => Decimal::parse(text)
            .ok()
            .map(|d| AttributeValue::N(d.to_string())),
        AttrType::B => Some(AttributeValue::B(encode_binary(text.as_bytes()))),
        AttrType::Bool => match text {
            "true" => Some(AttributeValue::Bool(true)),
            "false" => Some(AttributeValue::Bool(false)),
            _ => None,
        },
        _ => Some(AttributeValue::S(text.to_string())),
    }
}

/// Input values for a pattern taken from the stored items: the inputs of the item of the
/// pattern's first entity whose partition (in the verdict's index) holds the most items of that
/// entity. A range condition's own value is taken from that partition so that it matches some
/// of its items: the first quarter for `>` and `>=`, the last for `<` and `<=`, the middle half
/// for `between`; `=` and `begins_with` take the anchor item's value.
pub fn pick_inputs(
    design: &Design,
    store: &ItemStore,
    verdict: &Verdict,
    pattern: &AccessPattern,
) -> Result<BTreeMap<String, String>, PlanError> {
    pick_inputs_by(&|name| design.entity(name), store, verdict, pattern)
}

/// An entity by name: [`Design::entity`], or [`ByName::entity`] for work over many patterns.
type EntityLookup<'d, 'l> = &'l dyn Fn(&str) -> Option<&'d Entity>;

/// [`pick_inputs`] with the entities looked up by `entity_named`.
fn pick_inputs_by(
    entity_named: EntityLookup<'_, '_>,
    store: &ItemStore,
    verdict: &Verdict,
    pattern: &AccessPattern,
) -> Result<BTreeMap<String, String>, PlanError> {
    let entity = pattern.entities.first().map_or("", String::as_str);
    let no_sample = || PlanError::NoSample(entity.to_string());
    let table_name = verdict.table.as_deref().ok_or_else(no_sample)?;
    let table = store.table(table_name).ok_or_else(no_sample)?;
    let index = table
        .index(verdict.index.as_deref())
        .ok_or_else(no_sample)?;
    let mut names: Vec<&str> = pattern.inputs.iter().map(String::as_str).collect();
    if let Some(spec) = &verdict.query {
        for part in spec.partition.iter().chain(&spec.sort_equal) {
            for var in part.template.attribute_vars() {
                if !names.contains(&var.name.as_str()) {
                    names.push(&var.name);
                }
            }
        }
    }
    let range_attribute = verdict
        .query
        .as_ref()
        .and_then(|s| s.sort_condition.as_ref())
        .and(pattern.sort.as_ref())
        .map(|s| s.attribute.as_str());
    names.retain(|n| Some(*n) != range_attribute);
    // Group this entity's items in the index by their input values: sorted by them (a few
    // items per entity, so sorting is cheaper than hashing), each group a run. The largest
    // group wins, the smallest key among equals. The keys are kept side by side in one
    // vector, `names.len()` values an item, instead of a vector per item: the cost estimate
    // picks inputs for 30,000 patterns at 10,000 entities (issue 13).
    // Both sized for every item up front: grown by doubling, they were a fifth of this work.
    let width = names.len();
    let of_entity = table.items_of(index, entity);
    let mut texts: Vec<&str> = Vec::with_capacity(of_entity.len() * width);
    let mut keyed: Vec<&StoredItem> = Vec::with_capacity(of_entity.len());
    for stored in of_entity {
        let start = texts.len();
        for name in &names {
            match stored.item.get(*name).and_then(|v| v.as_key_text()) {
                Some(value) => texts.push(value),
                None => break,
            }
        }
        if texts.len() - start == width {
            keyed.push(stored);
        } else {
            texts.truncate(start);
        }
    }
    let key_of = |at: usize| &texts[at * width..(at + 1) * width];
    let mut order: Vec<usize> = (0..keyed.len()).collect();
    order.sort_by(|&a, &b| key_of(a).cmp(key_of(b)));
    let mut best: Option<&[usize]> = None;
    for group in order.chunk_by(|&a, &b| key_of(a) == key_of(b)) {
        if best.is_none_or(|b| group.len() > b.len()) {
            best = Some(group);
        }
    }
    let group = best.ok_or_else(no_sample)?;
    let items: Vec<&StoredItem> = group.iter().map(|&at| keyed[at]).collect();
    let mut inputs: BTreeMap<String, String> = names
        .into_iter()
        .zip(key_of(group[0]))
        .map(|(name, value)| (name.to_string(), value.to_string()))
        .collect();
    if let (Some(attribute), Some(sort)) = (range_attribute, &pattern.sort) {
        let ty = entity_named(entity)
            .and_then(|e| e.attribute(attribute))
            .and_then(|a| a.ty.as_key_type())
            .unwrap_or(KeyType::S);
        let mut values: Vec<(KeyValue, &str)> = items
            .iter()
            .filter_map(|s| s.item.get(attribute))
            .filter_map(|v| {
                let text = v.as_key_text()?;
                let typed = KeyValue::from_attribute(v, ty).ok()?;
                Some((typed, text))
            })
            .collect();
        values.sort();
        if !values.is_empty() {
            let n = values.len();
            let (value, upper) = match sort.op {
                SortOp::Gt | SortOp::Ge => (n / 4, None),
                SortOp::Lt | SortOp::Le => (n - 1 - n / 4, None),
                SortOp::Between => (n / 4, Some(n - 1 - n / 4)),
                SortOp::Eq | SortOp::BeginsWith => (0, None),
            };
            inputs.insert(attribute.to_string(), values[value].1.to_string());
            if let Some(upper) = upper {
                // `between` has two bounds: `{name}` is the lower, `{name_to}` the upper.
                inputs.insert(format!("{attribute}_to"), values[upper].1.to_string());
            }
        }
    }
    if let Some(expression) = &verdict.filter {
        let terms = expression
            .terms
            .iter()
            .filter(|t| t.source == crate::answer::FilterSource::Filter);
        for term in terms {
            pick_filter_values(term, &items, || table.items_of(index, entity), &mut inputs);
        }
    }
    Ok(inputs)
}

/// Values for a filter condition's inputs (those not given already), taken as a request
/// would plausibly send them: from the anchor partition's items (`group`), else from any of
/// the entity's (`all`). `=`, `<>` and begins_with take the first item's value, contains an
/// element of it (or the string itself), a range the quartiles as [`pick_inputs`] takes a
/// sort condition's, in the first distinct values.
fn pick_filter_values<'s, I: Iterator<Item = &'s StoredItem>>(
    term: &crate::answer::FilterTerm,
    group: &[&'s StoredItem],
    all: impl FnOnce() -> I,
    inputs: &mut BTreeMap<String, String>,
) {
    if term.inputs.iter().all(|name| inputs.contains_key(name)) {
        return;
    }
    let of = |stored: &&StoredItem| stored.item.get(&term.attribute).cloned();
    let mut found: Vec<AttributeValue> = group.iter().filter_map(of).collect();
    if found.is_empty() {
        found = all().filter_map(|s| of(&s)).collect();
    }
    let text = |value: &AttributeValue| -> Option<String> {
        match value {
            AttributeValue::Bool(b) => Some(b.to_string()),
            AttributeValue::SS(set) | AttributeValue::NS(set) | AttributeValue::BS(set) => {
                set.first().cloned()
            }
            AttributeValue::L(list) => list.first()?.as_key_text().map(str::to_string),
            other => other.as_key_text().map(str::to_string),
        }
    };
    let Some(first) = found.first().and_then(text) else {
        return;
    };
    let mut sorted: Vec<(Option<KeyValue>, String)> = found
        .iter()
        .filter_map(|v| {
            let typed = [KeyType::S, KeyType::N, KeyType::B]
                .into_iter()
                .find_map(|ty| KeyValue::from_attribute(v, ty).ok());
            Some((typed, text(v)?))
        })
        .collect();
    sorted.sort();
    sorted.dedup();
    let n = sorted.len();
    let chosen: Vec<String> = match term.op {
        FilterOp::Gt | FilterOp::Ge => vec![sorted[n / 4].1.clone()],
        FilterOp::Lt | FilterOp::Le => vec![sorted[n - 1 - n / 4].1.clone()],
        FilterOp::Between => vec![sorted[n / 4].1.clone(), sorted[n - 1 - n / 4].1.clone()],
        FilterOp::In => sorted.iter().map(|(_, t)| t.clone()).collect(),
        _ => vec![first],
    };
    for (i, name) in term.inputs.iter().enumerate() {
        // An `in` of more values than the sample has repeats the last.
        if let Some(value) = chosen.get(i).or(chosen.last()) {
            inputs.entry(name.clone()).or_insert_with(|| value.clone());
        }
    }
}

/// The outcome of running one read pattern over the sample.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PatternRun {
    pub pattern: String,
    pub operation: Operation,
    pub inputs: BTreeMap<String, String>,
    /// Each query's key condition, written out.
    pub conditions: Vec<String>,
    /// The filter the queries share, written out (`status <> "DONE"`); `None` without one.
    pub filter: Option<String>,
    pub result: Merged,
}

/// Plans and runs one read pattern with `inputs` (or, when `None`, inputs picked from the
/// stored items).
pub fn run_pattern(
    design: &Design,
    store: &ItemStore,
    verdict: &Verdict,
    inputs: Option<BTreeMap<String, String>>,
) -> Result<PatternRun, PlanError> {
    let pattern = design
        .pattern(&verdict.pattern)
        .ok_or_else(|| PlanError::Incomplete(verdict.pattern.clone()))?;
    run_found(
        design,
        &|name| design.entity(name),
        store,
        verdict,
        pattern,
        inputs,
    )
}

/// [`run_pattern`] for the pattern `verdict` is of, found by the caller.
fn run_found(
    design: &Design,
    entity_named: EntityLookup<'_, '_>,
    store: &ItemStore,
    verdict: &Verdict,
    pattern: &AccessPattern,
    inputs: Option<BTreeMap<String, String>>,
) -> Result<PatternRun, PlanError> {
    let (inputs, plan) = inputs_and_plan(design, entity_named, store, verdict, pattern, inputs)?;
    let result = if plan.operation == Operation::GetItem {
        let mut merged = Merged {
            items: Vec::new(),
            entities: Vec::new(),
            pages: Vec::new(),
            bytes_read: 0,
            read_units: 0.0,
            scanned: 0,
        };
        for query in &plan.queries {
            let page = store.get_item(query)?;
            merged.scanned += page.scanned;
            merged.items.extend(page.items.iter().cloned());
            merged.entities.extend(page.entities.iter().cloned());
            merged.bytes_read += page.bytes_read;
            merged.read_units += page.read_units;
            merged.pages.push(page);
        }
        merged
    } else {
        store.scatter_gather(&plan.queries)?
    };
    Ok(PatternRun {
        pattern: plan.pattern.clone(),
        operation: plan.operation,
        inputs,
        conditions: plan.queries.iter().map(KeyQuery::describe).collect(),
        filter: plan
            .queries
            .first()
            .map(KeyQuery::describe_filter)
            .filter(|f| !f.is_empty()),
        result,
    })
}

/// The checks of [`run_found`], the inputs (given, or picked from the stored items) and the
/// plan.
fn inputs_and_plan(
    design: &Design,
    entity_named: EntityLookup<'_, '_>,
    store: &ItemStore,
    verdict: &Verdict,
    pattern: &AccessPattern,
    inputs: Option<BTreeMap<String, String>>,
) -> Result<(BTreeMap<String, String>, ReadPlan), PlanError> {
    if !matches!(verdict.operation, Operation::GetItem | Operation::Query) {
        return Err(PlanError::NotAKeyRead(
            verdict.pattern.clone(),
            verdict.operation.as_str(),
        ));
    }
    let inputs = match inputs {
        Some(inputs) => inputs,
        None => pick_inputs_by(entity_named, store, verdict, pattern)?,
    };
    let plan = plan(design, verdict, pattern, &inputs)?;
    Ok((inputs, plan))
}

/// How many items [`run_all`]'s run of each covered read pattern returns, or why it cannot
/// run, without copying the items: the cost estimate reads only the count. Same order and
/// same errors as [`run_all`].
pub fn count_all(
    design: &Design,
    store: &ItemStore,
    verdicts: &[Verdict],
) -> Vec<(String, Result<usize, PlanError>)> {
    let by_name = ByName::new(design);
    verdicts
        .iter()
        .filter(|v| matches!(v.operation, Operation::GetItem | Operation::Query))
        .map(|v| (v.pattern.clone(), count_one(&by_name, design, store, v)))
        .collect()
}

/// How many items [`run_all`]'s run of the read pattern of `verdict` (a GetItem or a Query)
/// returns, or why it cannot run: one entry of [`count_all`], with the design's patterns and
/// entities looked up in `by_name`, which the caller has built already.
pub(crate) fn count_one(
    by_name: &ByName<'_>,
    design: &Design,
    store: &ItemStore,
    verdict: &Verdict,
) -> Result<usize, PlanError> {
    let entity_named = |name: &str| by_name.entity(name);
    let Some(pattern) = by_name.pattern(&verdict.pattern) else {
        return Err(PlanError::Incomplete(verdict.pattern.clone()));
    };
    let (_, plan) = inputs_and_plan(design, &entity_named, store, verdict, pattern, None)?;
    if plan.operation == Operation::GetItem {
        let mut items = 0;
        for query in &plan.queries {
            items += store.count_item(query)?;
        }
        Ok(items)
    } else {
        Ok(store.count_scatter_gather(&plan.queries)?)
    }
}

/// Runs every covered read pattern (GetItem or Query) with inputs from the stored items, in
/// design order; other verdicts are skipped.
pub fn run_all(
    design: &Design,
    store: &ItemStore,
    verdicts: &[Verdict],
) -> Vec<(String, Result<PatternRun, PlanError>)> {
    let by_name = ByName::new(design);
    let entity_named = |name: &str| by_name.entity(name);
    verdicts
        .iter()
        .filter(|v| matches!(v.operation, Operation::GetItem | Operation::Query))
        .map(|v| {
            let run = match by_name.pattern(&v.pattern) {
                Some(pattern) => run_found(design, &entity_named, store, v, pattern, None),
                None => Err(PlanError::Incomplete(v.pattern.clone())),
            };
            (v.pattern.clone(), run)
        })
        .collect()
}

#[cfg(test)]
mod tests;
