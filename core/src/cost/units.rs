//! The read and write units of one request of each pattern, with where they go (the table, an
//! index, a Scan's pages), in words for the report's breakdown. The load they put on one
//! partition is [`super::partitions`]'s; their monthly price, [`super::billing`]'s.

use std::collections::HashMap;

use super::partitions::{Loads, add_write_load};
use super::sizes::SizesByName;
use super::{EntitySize, IndexUnits, PatternCost, TableUnits};
use crate::answer::{Operation, Verdict};
use crate::eval::PlanError;
use crate::model::{AccessPattern, Action, ByName, Design, Entity, Projection, Table, WriteStep};
use crate::size::{Consistency, bytes_text, read_units, read_units_estimated, write_units};

/// Whether [`read_cost`] reads the sample run's item count: a Query without a page size, or
/// one sorted in memory, which reads every matching item whatever its page (a GetItem reads
/// one item, a paged Query a full page, a Scan the table).
pub(super) fn reads_sample_count(verdict: &Verdict, pattern: &AccessPattern) -> bool {
    verdict.operation == Operation::Query
        && (pattern.page_size.is_none() || verdict.sorted_in_memory.is_some())
}

/// A table's items as a Scan reads them: their bytes, and whether every entity's count was
/// given (a volume, `--stored`) rather than the sample's.
#[derive(Debug, Clone, Copy)]
pub(super) struct Stored {
    pub bytes: f64,
    pub counted: bool,
}

#[allow(clippy::too_many_arguments)]
pub(super) fn read_cost(
    design: &Design,
    by_name: &ByName<'_>,
    verdict: &Verdict,
    pattern: &AccessPattern,
    table_bytes: &HashMap<&str, Stored>,
    sizes: &SizesByName<'_>,
    run: Option<&Result<usize, PlanError>>,
    cost: &mut PatternCost,
) {
    let consistency = if pattern.consistent {
        Consistency::Strong
    } else {
        Consistency::Eventual
    };
    let entity = pattern
        .entities
        .first()
        .map(String::as_str)
        .unwrap_or_default();
    let entity_size = sizes.of(entity);
    let table = verdict
        .table
        .clone()
        .or_else(|| by_name.entity(entity).map(|e| e.table.clone()))
        .unwrap_or_default();
    // The partition's items of the entity, when the volumes count them: its volume's share
    // under the partition key. A Query sorted in memory reads them all, and a page holds no
    // more than there are (issue 43).
    let partition_items = (verdict.operation == Operation::Query)
        .then_some(())
        .and_then(|_| {
            let entity = by_name.entity(entity)?;
            let items = entity.volume?.items as f64;
            let template = &verdict.query.as_ref()?.partition.first()?.template;
            let (share, _) =
                crate::concentration::partition_share(design, std::iter::once(entity), template)?;
            Some(items * share)
        });
    read_units_of(
        verdict,
        pattern,
        &table,
        table_bytes,
        entity_size,
        run,
        partition_items,
        consistency,
        cost,
    );
    // A read through a GSI takes the GSI's capacity; through an LSI, the table's.
    let gsis = verdict
        .index
        .as_deref()
        .filter(|index| design.table(&table).and_then(|t| t.gsi(index)).is_some())
        .map(|index| IndexUnits {
            index: index.to_string(),
            read_units: cost.read_units,
            write_units: 0.0,
        })
        .into_iter()
        .collect();
    cost.tables.push(TableUnits {
        table,
        read_units: cost.read_units,
        table_write_units: 0.0,
        index_write_units: 0.0,
        gsis,
    });
}

/// The read units of one request of a read pattern, with where they go.
#[allow(clippy::too_many_arguments)]
pub(super) fn read_units_of(
    verdict: &Verdict,
    pattern: &AccessPattern,
    table: &str,
    table_bytes: &HashMap<&str, Stored>,
    entity_size: Option<&EntitySize>,
    run: Option<&Result<usize, PlanError>>,
    partition_items: Option<f64>,
    consistency: Consistency,
    cost: &mut PatternCost,
) {
    match verdict.operation {
        Operation::GetItem => {
            let bytes = entity_size.map_or(0, |s| s.average_bytes);
            cost.read_units = read_units(bytes, consistency);
            cost.breakdown.push(format!("1 item of ~{bytes} B"));
        }
        Operation::Query => {
            let index_bytes = match &verdict.index {
                None => entity_size.map_or(0, |s| s.average_bytes),
                Some(index) => entity_size
                    .and_then(|s| s.indexes.iter().find(|(i, _, _)| i == index))
                    .map_or(0, |(_, _, b)| *b),
            };
            let queries = verdict.shards.unwrap_or(1).max(1);
            let in_memory = verdict.sorted_in_memory.is_some();
            let page_size = pattern.page_size.filter(|_| !in_memory);
            let per_query = partition_items.map(|items| items / f64::from(queries));
            let items_per_query = match (page_size, per_query, run) {
                (Some(page), Some(items), _) => f64::from(page).min(items),
                (Some(page), None, _) => f64::from(page),
                (None, Some(items), _) if in_memory => items,
                (None, _, Some(Ok(items))) => *items as f64 / f64::from(queries),
                (None, _, _) => 1.0,
            };
            let bytes = (items_per_query * index_bytes as f64).ceil() as usize;
            let per_query = read_units(bytes, consistency);
            cost.read_units = per_query * f64::from(queries);
            // The sample's count is of the items read, before any filter (issue 16): a
            // filter drops items after DynamoDB has read, and charged for, them.
            let source = if in_memory && partition_items.is_some() {
                "the partition's items, by the volumes, to sort them in memory"
            } else if in_memory {
                "every matching item, to sort them in memory"
            } else if pattern.page_size.is_some() {
                "a full page"
            } else if !pattern.filter.is_empty() {
                "as many as the sample reads, before the filter"
            } else {
                "as many as the sample returns"
            };
            if queries > 1 {
                cost.breakdown.push(format!(
                    "{queries} queries x {per_query} ({} items of ~{index_bytes} B each, {source})",
                    OneDecimal(items_per_query)
                ));
            } else {
                cost.breakdown.push(format!(
                    "{} items of ~{index_bytes} B ({source})",
                    OneDecimal(items_per_query)
                ));
            }
        }
        Operation::SearchVectors => {
            cost.breakdown.push(format!(
                "SearchVectors: metered in vector search bytes, not read units ({})",
                crate::pricing::VECTOR_NOT_PRICED
            ));
        }
        _ => {
            // A Scan reads every item of the table, one 1 MB page at a time: the items stored
            // (volumes, else the sample's), not only the sample's.
            let stored = table_bytes.get(table);
            let bytes = stored.map_or(0.0, |s| s.bytes).ceil();
            let pages = (bytes / crate::limits::MAX_PAGE_BYTES as f64)
                .ceil()
                .max(1.0);
            cost.read_units = read_units_estimated(bytes, consistency);
            // issue 43: the volumes given are what the Scan reads; only a table whose size is
            // the sample's grows past this figure.
            let of_what = if stored.is_some_and(|s| s.counted) {
                "the entities' items in production"
            } else {
                "the sample's size, since not every entity gives its items in production: grows with the table"
            };
            cost.breakdown.push(format!(
                "Scan of the whole table: {} in {} ({of_what})",
                bytes_text(bytes),
                crate::counts::plural(pages as usize, "page")
            ));
        }
    }
}

/// A number as `{:.1}` writes it. A whole number (a Query's count of items, the common case)
/// is written as an integer and `.0`, not through the float formatting, which took a thousand
/// instructions for each of the 30,000 Query patterns at 10,000 entities (issue 13).
pub(super) struct OneDecimal(pub(super) f64);

impl std::fmt::Display for OneDecimal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let x = self.0;
        // Below 2^53 every whole number is exact, so its integer is the float's value.
        // A negative zero stays with the float formatting, which writes its sign.
        if x.is_sign_positive() && x.fract() == 0.0 && x < 1e15 {
            write!(f, "{}.0", x as u64)
        } else {
            write!(f, "{x:.1}")
        }
    }
}

/// The write steps of a pattern: its own action, or a transaction's steps.
pub(super) fn steps(pattern: &AccessPattern) -> Vec<WriteStep> {
    if pattern.action == Action::Transact {
        return pattern.writes.clone();
    }
    pattern
        .entities
        .iter()
        .map(|entity| WriteStep {
            action: pattern.action,
            entity: entity.clone(),
            count: 1,
            condition: pattern.condition.clone(),
            changes: pattern.changes.clone(),
        })
        .collect()
}

pub(super) fn write_cost(
    design: &Design,
    by_name: &ByName<'_>,
    pattern: &AccessPattern,
    sizes: &SizesByName<'_>,
    cost: &mut PatternCost,
    loads: &mut Loads,
) {
    let factor = if pattern.action == Action::Transact {
        2.0
    } else {
        1.0
    };
    for step in steps(pattern) {
        let Some(entity) = by_name.entity(&step.entity) else {
            cost.breakdown
                .push(format!("{}: no such entity", step.entity));
            continue;
        };
        let Some(table) = design.table(&entity.table) else {
            continue;
        };
        let size = sizes.of(&entity.name);
        let bytes = size.map_or(0, |s| s.average_bytes);
        let count = f64::from(step.count);
        let verb = match step.action {
            Action::Put => "put",
            Action::Update => "update",
            Action::Delete => "delete",
            _ => "write",
        };
        let table_units = write_units(bytes) as f64 * count * factor;
        cost.write_units += table_units;
        add_table_units(cost, &table.name, table_units, 0.0);
        let times = if step.count > 1 {
            format!("{} x ", step.count)
        } else {
            String::new()
        };
        cost.breakdown.push(format!(
            "{verb} {times}{} in {}: {table_units}",
            entity.name, table.name
        ));
        add_write_load(loads, table, entity, None, pattern, table_units);
        for (index, share, projected) in size.map_or(&[][..], |s| &s.indexes[..]) {
            let key_vars = index_key_vars(table, entity, index);
            let projection = index_projection(table, index);
            let (writes, why) = match step.action {
                Action::Update if step.changes.iter().any(|c| key_vars.contains(c)) => {
                    let changed: Vec<&str> = step
                        .changes
                        .iter()
                        .filter(|c| key_vars.contains(*c))
                        .map(String::as_str)
                        .collect();
                    (
                        2.0,
                        format!(" (delete+put: {} changes its key)", changed.join(", ")),
                    )
                }
                Action::Update
                    if !step.changes.is_empty()
                        && !step.changes.iter().any(|c| projects(&projection, c)) =>
                {
                    (0.0, " (changes nothing it projects)".to_string())
                }
                _ => (1.0, String::new()),
            };
            let units = write_units(*projected) as f64 * writes * share * count * factor;
            if units == 0.0 && why.is_empty() {
                continue;
            }
            cost.write_units += units;
            add_table_units(cost, &table.name, 0.0, units);
            if table.gsi(index).is_some() {
                add_gsi_write_units(cost, &table.name, index, units);
            }
            let share_note = if *share < 1.0 {
                format!(", {:.0}% of items", share * 100.0)
            } else {
                String::new()
            };
            cost.breakdown
                .push(format!("{index}: {units}{why}{share_note}"));
            add_write_load(loads, table, entity, Some(index), pattern, units);
        }
    }
}

/// Adds write units of one request to `table`'s entry in `cost.tables`.
pub(super) fn add_table_units(
    cost: &mut PatternCost,
    table: &str,
    table_writes: f64,
    index_writes: f64,
) {
    match cost.tables.iter_mut().find(|t| t.table == table) {
        Some(units) => {
            units.table_write_units += table_writes;
            units.index_write_units += index_writes;
        }
        None => cost.tables.push(TableUnits {
            table: table.to_string(),
            read_units: 0.0,
            table_write_units: table_writes,
            index_write_units: index_writes,
            gsis: Vec::new(),
        }),
    }
}

/// Adds the write units of one request that land in the GSI `index` to `table`'s entry (which
/// [`add_table_units`] has made).
fn add_gsi_write_units(cost: &mut PatternCost, table: &str, index: &str, units: f64) {
    let Some(entry) = cost.tables.iter_mut().find(|t| t.table == table) else {
        return;
    };
    match entry.gsis.iter_mut().find(|g| g.index == index) {
        Some(gsi) => gsi.write_units += units,
        None => entry.gsis.push(IndexUnits {
            index: index.to_string(),
            read_units: 0.0,
            write_units: units,
        }),
    }
}

/// The attribute variables (and attribute names) behind `index`'s keys for `entity`.
pub(super) fn index_key_vars(table: &Table, entity: &Entity, index: &str) -> Vec<String> {
    let keys: Vec<String> = match (table.gsi(index), table.lsi(index)) {
        (Some(gsi), _) => gsi
            .partition_key
            .iter()
            .chain(&gsi.sort_key)
            .map(|k| k.name.clone())
            .collect(),
        (None, Some(lsi)) => vec![lsi.sort_key.name.clone()],
        _ => Vec::new(),
    };
    let mut out = keys.clone();
    for key in keys {
        if let Some(template) = entity.key_template(&key) {
            out.extend(template.attribute_vars().map(|v| v.name.clone()));
        }
    }
    out
}

pub(super) fn index_projection(table: &Table, index: &str) -> Projection {
    match (table.gsi(index), table.lsi(index)) {
        (Some(gsi), _) => gsi.projection.clone(),
        (None, Some(lsi)) => lsi.projection.clone(),
        _ => Projection::All,
    }
}

pub(super) fn projects(projection: &Projection, attribute: &str) -> bool {
    match projection {
        Projection::All => true,
        Projection::KeysOnly => false,
        Projection::Include { attributes } => attributes.iter().any(|a| a == attribute),
    }
}
