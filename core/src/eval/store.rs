//! The items of a design's tables, loaded and kept the way DynamoDB keeps them
//! ([`ItemStore::build`]): per table its items and, for the table and each of its indexes,
//! entries sorted by partition key, then sort key, then the table's key; grouped by entity and
//! found by partition, so that a read or the cost estimate does not walk every entry. An item
//! whose keys are missing or of the wrong type is left out and said why ([`Rejected`]).
//! Reading them is `read`'s work.

use std::cmp::Ordering;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, DefaultHasher};

use serde::Serialize;

use super::key::{KeyValue, Keys, key_summary, key_values};
use crate::accepts::Schema;
use crate::fast_hash::{FastHashMap, hash_of};
use crate::item::Item;
use crate::model::{Design, IndexKind, KeyAttribute, Projection, Table};
use crate::size::{attribute_size, item_size};

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

/// One entry of an index: its key values, the item it points at and its projected size.
#[derive(Debug, Clone)]
pub(super) struct Entry {
    pub(super) partition: Keys,
    pub(super) sort: Keys,
    /// The item's position in the table, which is its table key's rank: ties of the index key
    /// are ordered by it, as by the table's primary key.
    pub(super) item: usize,
    pub(super) size: usize,
}

impl Entry {
    pub(super) fn position(&self) -> (&[KeyValue], usize) {
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
    pub(super) entries: Vec<Entry>,
    /// By entity name: the positions in `entries` of its items, in index order. Built once
    /// with the store, so that work per entity or per pattern does not walk every entry, and
    /// hashed: the cost estimate looks 10,000 entities up 30,000 times (issue 13).
    by_entity: FixedHashMap<String, Vec<usize>>,
    /// By [`partition_hash`]: the range of `entries` a partition's entries fill, or `None`
    /// for a hash two partitions share (those are searched for). A Query finds its partition
    /// here instead of by a binary search of every entry, each step of which missed the
    /// cache at 100,000 entries (issue 13).
    pub(super) partitions: FastHashMap<u64, Option<(usize, usize)>>,
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

    pub(super) fn key_names(&self) -> impl Iterator<Item = &str> {
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
    pub(super) fn partition(&self, partition: &[KeyValue]) -> &[Entry] {
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
    pub(super) items: Vec<StoredItem>,
    /// The sizes of all its items together, in bytes: what a Scan reads.
    bytes: usize,
    /// The table itself first, then its GSIs, then its LSIs.
    pub(super) indexes: Vec<IndexStore>,
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
    /// [`size::item_size`](crate::size::item_size) of each [`TableStore::project`]ed item of
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

    pub(super) fn table_key_names(&self) -> Vec<&KeyAttribute> {
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
    pub(super) tables: Vec<TableStore>,
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

/// Puts `items` in the order `order` gives (a permutation of their positions: `items[k]`
/// becomes what `items[order[k]]` was) in place, each cycle of the permutation followed once:
/// moving them into a list of options and out again into a third list copied 100,000 loads
/// twice into memory never touched before (issue 13).
pub(super) fn permute<T>(items: &mut [T], mut order: Vec<usize>) {
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
}
