//! How big an entity's items are, in the table and in each index it lands in, and how many
//! the table stores (the volume's size, else the sample's mean; `--stored`, else the volume's
//! count, else the sample's), and the storage each table and index holds. Nothing here prices a
//! request.

use std::collections::{BTreeMap, HashMap};

use super::{BYTES_PER_GB, CostConfig, EntitySize, ItemsFrom, StorageCost};
use crate::eval::ItemStore;
use crate::limits::ITEM_STORAGE_OVERHEAD_BYTES;
use crate::model::Design;
use crate::size::mean_item_bytes;

/// Sizes of the entity in the table and each index, from the store. Each secondary index is
/// walked once, entity by entity, instead of looked up for every entity (issue 13).
pub(super) fn entity_sizes(
    design: &Design,
    store: &ItemStore,
    config: &CostConfig,
) -> Vec<EntitySize> {
    let mut out: Vec<EntitySize> = Vec::with_capacity(design.entities.len());
    // Per entity in `out`: the volume's item size over the sample's mean, which scales the
    // entity's index entries too.
    let mut scale: Vec<f64> = Vec::with_capacity(design.entities.len());
    // Per table name: the positions in `out` of its entities with samples, by entity name.
    let mut sampled: BTreeMap<&str, HashMap<&str, Vec<usize>>> = BTreeMap::new();
    for entity in &design.entities {
        let mut size = EntitySize {
            entity: entity.name.clone(),
            table: entity.table.clone(),
            samples: 0,
            average_bytes: 0,
            items: 0.0,
            items_from: ItemsFrom::Sample,
            indexes: Vec::new(),
        };
        // The table itself first: its entries are the table's items, in order.
        if let Some(table) = store.table(&entity.table)
            && let Some(primary) = table.indexes().first()
        {
            // A vector is billed at 4 bytes a dimension, not by its numbers (issue 40).
            let vectors = design
                .table(&entity.table)
                .map_or(&[][..], |t| t.vector_indexes.as_slice());
            let sizes: Vec<usize> = table
                .items_of(primary, &entity.name)
                .map(|s| {
                    if vectors.is_empty() {
                        s.size
                    } else {
                        crate::size::billed_item_size(&s.item, vectors)
                    }
                })
                .collect();
            size.samples = sizes.len();
            size.average_bytes = average(&sizes);
            if !sizes.is_empty() {
                sampled
                    .entry(entity.table.as_str())
                    .or_default()
                    .entry(entity.name.as_str())
                    .or_default()
                    .push(out.len());
            }
        }
        let sample_mean = size.average_bytes;
        let given_bytes = config
            .item_bytes
            .get(&entity.name)
            .copied()
            .or_else(|| entity.volume.and_then(|v| v.item_bytes))
            .map(|b| usize::try_from(b).unwrap_or(usize::MAX));
        let mut ratio = 1.0;
        if let Some(bytes) = given_bytes {
            if sample_mean > 0 {
                ratio = bytes as f64 / sample_mean as f64;
            }
            size.average_bytes = bytes;
        }
        (size.items, size.items_from) = match (config.counts.get(&entity.name), entity.volume) {
            (Some(&n), _) => (n as f64, ItemsFrom::Given),
            (None, Some(volume)) => (volume.items as f64, ItemsFrom::Volume),
            (None, None) => (size.samples as f64, ItemsFrom::Sample),
        };
        out.push(size);
        scale.push(ratio);
    }
    for (table_name, entities) in &sampled {
        let Some(table) = store.table(table_name) else {
            continue;
        };
        for index in table.indexes().iter().skip(1) {
            for (name, entries, bytes) in table.projected_totals(index) {
                for &at in entities.get(name).map_or(&[][..], Vec::as_slice) {
                    let samples = out[at].samples;
                    let projected = bytes.div_ceil(entries) as f64 * scale[at];
                    out[at].indexes.push((
                        index.name.clone().unwrap_or_default(),
                        entries as f64 / samples as f64,
                        projected.ceil() as usize,
                    ));
                }
            }
        }
    }
    out
}

pub(super) fn average(sizes: &[usize]) -> usize {
    let total = sizes.iter().map(|&s| s as u64).sum();
    usize::try_from(mean_item_bytes(total, sizes.len() as u64)).unwrap_or(usize::MAX)
}

/// The entity sizes by entity name, the first of each name (as a search of the list finds).
pub(super) struct SizesByName<'a>(HashMap<&'a str, &'a EntitySize>);

impl<'a> SizesByName<'a> {
    pub(super) fn new(sizes: &'a [EntitySize]) -> SizesByName<'a> {
        let mut by_name = HashMap::with_capacity(sizes.len());
        for size in sizes {
            by_name.entry(size.entity.as_str()).or_insert(size);
        }
        SizesByName(by_name)
    }

    pub(super) fn of(&self, entity: &str) -> Option<&'a EntitySize> {
        self.0.get(entity).copied()
    }
}

pub(super) fn storage(
    design: &Design,
    sizes: &[EntitySize],
    config: &CostConfig,
) -> Vec<StorageCost> {
    let mut out: Vec<StorageCost> = Vec::new();
    let overhead = ITEM_STORAGE_OVERHEAD_BYTES as f64;
    let mut add = |table: &str, index: Option<&str>, items: f64, bytes: f64| match out
        .iter_mut()
        .find(|s| s.table == table && s.index.as_deref() == index)
    {
        Some(s) => {
            s.items += items;
            s.bytes += bytes;
        }
        None => out.push(StorageCost {
            table: table.to_string(),
            index: index.map(str::to_string),
            items,
            bytes,
            monthly_cost: 0.0,
        }),
    };
    for table in &design.tables {
        add(&table.name, None, 0.0, 0.0);
    }
    for size in sizes {
        let count = size.items;
        add(
            &size.table,
            None,
            count,
            count * (size.average_bytes as f64 + overhead),
        );
        for (index, share, projected) in &size.indexes {
            let entries = count * share;
            add(
                &size.table,
                Some(index),
                entries,
                entries * (*projected as f64 + overhead),
            );
        }
    }
    for s in &mut out {
        s.monthly_cost = s.bytes / BYTES_PER_GB * config.prices.standard.per_gb_month;
    }
    out
}
