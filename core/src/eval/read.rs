//! Reads of an [`ItemStore`] with DynamoDB's semantics: a Query (its key condition checked by
//! [`crate::accepts`], ScanIndexForward, the Limit, the ExclusiveStartKey, the 1 MB page, the
//! filter after the read, the index's projection and the read units), a GetItem, and a
//! scatter-gather over write shards; and for each, a count of what it reads that copies no
//! item, which is what the cost estimate needs.

use std::cmp::Ordering;

use super::filter;
use super::key::{KeyValue, Keys, key_values};
use super::page_end::PageEnd;
use super::query::{KeyQuery, Merged, Page, QueryError, SortTest};
use super::store::{Entry, IndexStore, ItemStore, TableStore};
use crate::accepts::{self, Read, Refusal, Test};
use crate::item::{AttributeValue, Item};
use crate::model::{AttrType, KeyAttribute, SortOp};
use crate::size::{Consistency, read_units};

impl ItemStore {
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
        let mut page = Page::empty();
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
        for query in queries {
            pages.push((query, self.query(query)?));
        }
        self.merge(pages, queries.last().and_then(|q| q.limit))
    }

    /// Every item `queries` match, each query read to its last page, merged as
    /// [`ItemStore::scatter_gather`] merges first pages: what a Query sorted in memory reads
    /// before it sorts (issue 43), however many 1 MB pages that takes.
    pub fn read_every_page(&self, queries: &[KeyQuery]) -> Result<Merged, QueryError> {
        let mut pages = Vec::new();
        for query in queries {
            let mut next = query.clone();
            loop {
                let page = self.query(&next)?;
                let last = page.last_evaluated_key.clone();
                pages.push((query, page));
                match last {
                    // Each page starts after the last one's key: the sample is finite and
                    // every page moves on, so this ends.
                    Some(key) => next.exclusive_start_key = Some(key),
                    None => break,
                }
            }
        }
        self.merge(pages, None)
    }

    /// Pages of `queries` (each with the query it answers) merged by the index's sort key in
    /// the queries' direction, ties by table key, the first `limit` kept. The read units are
    /// the sum over all the pages.
    fn merge(
        &self,
        read: Vec<(&KeyQuery, Page)>,
        limit: Option<u32>,
    ) -> Result<Merged, QueryError> {
        let mut pages = Vec::with_capacity(read.len());
        // (sort key, table key, page, item in page): merged by position, copied once at the end.
        let mut rows: Vec<(Keys, Keys, usize, usize)> = Vec::new();
        let mut forward = true;
        for (query, page) in read {
            let (table, index) = self.resolve(&query.table, query.index.as_deref())?;
            forward = query.forward;
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
