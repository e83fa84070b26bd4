//! Tables that exist, read into a design (issue 17): what the engine's `DescribeTable` said
//! (keys, indexes, billing, TTL) and a bounded sample of each table's items, read by the
//! server (`keyplan import --table`). Nothing here talks to an engine.
//!
//! Entities, attribute types and key templates come from the sample exactly as they come from
//! a NoSQL Workbench table's items (see `nosql_workbench/infer.rs`). Each entity's share of
//! the sample, scaled to the table's item count, and its items' mean size become the entity's
//! [`Volume`]. The sampled items themselves are kept as the design's samples only when asked:
//! they are someone's production data, and a design file goes into git.

use crate::cost::item_size;
use crate::item::Item;
use crate::model::{AttrType, Design, Entity, Table, Volume};

use super::Imported;
use super::cloudformation::note_stream;
use super::nosql_workbench::infer_from_items;

/// One table as the engine described it, and the items read from it.
#[derive(Debug, Clone, PartialEq)]
pub struct LiveTable {
    /// Keys, indexes, billing and TTL as `DescribeTable` and `DescribeTimeToLive` gave them.
    pub table: Table,
    /// The table's `AttributeDefinitions`: every key attribute of the table and its indexes.
    pub declared: Vec<(String, AttrType)>,
    /// The sampled items.
    pub items: Vec<Item>,
    /// `ItemCount` (DynamoDB updates it about every six hours).
    pub item_count: u64,
    /// The stream's view type (`NEW_AND_OLD_IMAGES`...) when a stream is enabled.
    pub stream: Option<String>,
    /// The table class when it is not `STANDARD` (`STANDARD_INFREQUENT_ACCESS`).
    pub table_class: Option<String>,
}

/// How the sample is used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Options {
    /// Keep the sampled items as the design's samples.
    pub keep_items: bool,
}

/// A design named `name` holding `tables`, with entities inferred from their samples.
pub fn import(name: &str, tables: Vec<LiveTable>, options: Options) -> Imported {
    let mut imported = Imported::new(Design::new(name));
    let mut entity_names = Vec::new();
    for live in tables {
        let LiveTable {
            table,
            declared,
            items,
            item_count,
            stream,
            table_class,
        } = live;
        if let Some(view) = stream {
            note_stream(&table.name, Some(&view), &mut imported.notes);
        }
        if let Some(class) = table_class {
            imported.notes.push(format!(
                "table {}: its table class ({class}) is not kept; keyplan prices the standard class",
                table.name
            ));
        }
        let first = imported.design.entities.len();
        let (entities, assumed, table, items) = infer_from_items(
            table,
            declared,
            items,
            &mut entity_names,
            &mut imported.notes,
        );
        let table_name = table.name.clone();
        imported.design.entities.extend(entities);
        imported.assumed.extend(assumed);
        imported.design.tables.push(table);
        measure(
            &mut imported.design,
            first,
            &table_name,
            &items,
            item_count,
            &mut imported.notes,
        );
        if options.keep_items && !items.is_empty() {
            imported.design.samples.insert(table_name, items);
        }
    }
    imported
}

/// Sets the volume of every entity of `table` (those from `first` on) from the items sampled
/// from it, and says what the sample found.
fn measure(
    design: &mut Design,
    first: usize,
    table: &str,
    items: &[Item],
    item_count: u64,
    notes: &mut Vec<String>,
) {
    let sampled = items.len() as u64;
    if sampled == 0 {
        notes.push(format!(
            "table {table}: the scan found no items, so its one entity holds only the key attributes"
        ));
        return;
    }
    // (items, bytes) per entity, by position from `first`; the rest matched no entity.
    let n = design.entities.len() - first;
    let mut found: Vec<(u64, u64)> = vec![(0, 0); n];
    let mut unmatched = 0u64;
    for item in items {
        let entity = crate::sample::identify(design, table, item)
            .and_then(|name| design.entities[first..].iter().position(|e| e.name == name));
        match entity {
            Some(i) => {
                found[i].0 += 1;
                found[i].1 += item_size(item) as u64;
            }
            None => unmatched += 1,
        }
    }
    // The table's count lags by up to six hours; it is never less than what was just read.
    let total = item_count.max(sampled);
    for (entity, (count, bytes)) in design.entities[first..].iter_mut().zip(found) {
        if count == 0 {
            continue;
        }
        entity.volume = Some(volume(count, bytes, sampled, total));
    }
    let shares: Vec<String> = design.entities[first..]
        .iter()
        .filter_map(|e: &Entity| {
            let v = e.volume?;
            Some(format!(
                "{} {} of {sampled} (about {} items of {} bytes)",
                e.name,
                percent(v.sampled, sampled),
                v.items,
                v.item_bytes.unwrap_or_default()
            ))
        })
        .collect();
    let scope = if sampled < total {
        format!("{sampled} of its about {total} items were sampled")
    } else {
        format!("all {sampled} items were read")
    };
    notes.push(format!("table {table}: {scope}; {}", shares.join(", ")));
    if unmatched > 0 {
        notes.push(format!(
            "table {table}: {unmatched} sampled items match no inferred entity's key templates"
        ));
    }
}

/// An entity seen `count` times (`bytes` in all) among `sampled` items of a table of `total`.
fn volume(count: u64, bytes: u64, sampled: u64, total: u64) -> Volume {
    // u128: a share of a count, rounded to the nearest item, cannot overflow.
    let items = (u128::from(count) * u128::from(total) + u128::from(sampled) / 2)
        / u128::from(sampled.max(1));
    Volume {
        items: u64::try_from(items).unwrap_or(u64::MAX),
        item_bytes: Some((bytes + count / 2) / count.max(1)),
        sampled: count,
    }
}

/// `part` of `whole` as a whole percentage, `<1%` for a small non-zero part.
fn percent(part: u64, whole: u64) -> String {
    let p = (part * 100 + whole / 2) / whole.max(1);
    if p == 0 && part > 0 {
        "<1%".to_string()
    } else {
        format!("{p}%")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_share_of_the_sample_scales_to_the_table() {
        // 250 of 1,000 sampled, table of 40,000: 10,000 items.
        let v = volume(250, 250 * 180, 1000, 40_000);
        assert_eq!((v.items, v.item_bytes, v.sampled), (10_000, Some(180), 250));
        // A whole table read: the counts are the counts.
        assert_eq!(volume(3, 10, 7, 7).items, 3);
        // No overflow near the top.
        assert_eq!(volume(u64::MAX, 0, u64::MAX, u64::MAX).items, u64::MAX);
        assert_eq!(percent(1, 1000), "<1%");
        assert_eq!(percent(333, 1000), "33%");
    }
}
