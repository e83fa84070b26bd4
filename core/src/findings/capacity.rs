//! KP014: hot partitions. KP029: item collections over 10 GB in a table with an LSI.
//!
//! KP014 warns of the partitions the cost report finds hot (issue 42: one load model, so
//! `keyplan check` and `keyplan cost` ask for the same shards): a partition key that takes few
//! values (a constant, an enum, a date, a small `distinct` hint) gives its busiest value that
//! value's share of the patterns' traffic ([`crate::concentration`]), at the units the cost
//! model gives each request (its sizes from the sample), and one partition serves 3,000 read
//! units and 1,000 write units a second. The loads are measured on the sample
//! ([`super::measure`]), in the browser app's worker.

use super::Findings;
use crate::answer::{Fix, Place, Severity};
use crate::cost::PartitionLoad;
use crate::limits;
use crate::model::{Design, Entity};
use crate::template::KeyTemplate;

/// KP014 for every hot partition of `loads` (the cost report's partitions of the design).
pub(super) fn hot_partitions(design: &Design, loads: &[PartitionLoad], out: &mut Findings) {
    for load in loads.iter().filter(|l| l.hot) {
        let Some(table) = design.table(&load.table) else {
            continue;
        };
        let key = match load.index.as_deref().and_then(|i| table.gsi(i)) {
            Some(gsi) => gsi.partition_key.first().map(|k| k.name.as_str()),
            None => Some(table.partition_key.name.as_str()),
        };
        let Some(key) = key else {
            continue;
        };
        // The first entity whose partition key has this template: where the finding points.
        let Some((entity, template)) = design.entities_in(&table.name).find_map(|e| {
            e.key_template(key)
                .filter(|t| t.source() == load.template)
                .map(|t| (e, t.into_owned()))
        }) else {
            continue;
        };
        let why = few_values(entity, &template);
        let patterns = load
            .patterns
            .iter()
            .map(|p| format!("`{p}`"))
            .collect::<Vec<_>>()
            .join(" and ");
        let shards = if load.shards > 1 {
            format!(", one of {} shards", load.shards)
        } else {
            String::new()
        };
        // Hot writes are cooled by the shards the cost report asks for: the Apply writes them
        // into the template (issue 43), up to the most a template may hold. Sharding never
        // cools reads, which read every shard.
        let shard_fix =
            (load.shards_needed <= crate::template::MAX_SHARDS).then(|| Fix::ShardPartitionKey {
                table: table.name.clone(),
                key: key.to_string(),
                template: load.template.clone(),
                sharded: crate::concentration::sharded(&template, load.shards_needed)
                    .source()
                    .to_string(),
                shards: load.shards_needed,
            });
        let checks = [
            (
                load.write_units_per_second,
                limits::PARTITION_WRITE_UNITS_PER_SECOND,
                "write",
                crate::cost::write_advice(load),
                shard_fix,
            ),
            (
                load.read_units_per_second,
                limits::PARTITION_READ_UNITS_PER_SECOND,
                "read",
                crate::cost::read_advice(load.shards).to_string(),
                None,
            ),
        ];
        for (units, limit, what, advice, fix) in checks {
            if units <= limit {
                continue;
            }
            out.push_fix(
                "KP014",
                Severity::Warning,
                Place::key(&entity.name, key),
                format!(
                    "{key} `{}` takes few values ({why}): its busiest partition (`{}`{shards}), loaded by {patterns}, takes about {units:.0} {what} units a second, over one partition's {limit:.0}: {advice}",
                    load.template, load.partition
                ),
                fix,
            );
        }
    }
}

/// KP029: in a table with an LSI, the items of one partition-key value and their LSI entries
/// (an item collection) may hold at most 10 GB; writes past it fail. From the entities'
/// volumes: the entities whose table partition key has the same template share collections
/// (a customer's profile and orders under `CUSTOMER#{customerId}`); a collection holds their
/// bytes over the values the key takes: the busiest value's share when the key takes few values
/// ([`crate::concentration`]), else an even share of the values, which a `distinct` hint or the
/// volume of the entity that variable identifies (the Customer entity for `customerId`) gives.
/// A key whose values nothing counts is not judged.
pub(super) fn item_collections(design: &Design, measured: &[(String, u64)], out: &mut Findings) {
    for table in design.tables.iter().filter(|t| !t.lsis.is_empty()) {
        let pk = &table.partition_key.name;
        // By partition-key template text: its entities with their bytes, and the template.
        let mut groups: Vec<Collection<'_>> = Vec::new();
        for entity in design.entities_in(&table.name) {
            let (Some(volume), Some(template)) = (entity.volume, entity.key_template(pk)) else {
                continue;
            };
            // The one item size (issue 42): the volume's, else the cost report's (the sample's
            // mean, measured with KP014's loads); an entity of neither is not weighed yet.
            let Some(bytes) = volume.item_bytes.or_else(|| {
                measured
                    .iter()
                    .find(|(name, _)| *name == entity.name)
                    .map(|&(_, bytes)| bytes)
            }) else {
                continue;
            };
            let item = bytes as f64 + limits::ITEM_STORAGE_OVERHEAD_BYTES as f64;
            // Each LSI projecting everything holds a copy; keys-only or include ones, a part
            // of it, counted here as a copy too (an upper bound).
            let bytes = volume.items as f64 * item * (1 + table.lsis.len()) as f64;
            let source = template.source().to_string();
            match groups.iter_mut().find(|(s, ..)| *s == source) {
                Some((_, members, _)) => members.push((entity, bytes)),
                None => groups.push((source, vec![(entity, bytes)], template.into_owned())),
            }
        }
        for (source, members, template) in groups {
            let total: f64 = members.iter().map(|(_, b)| b).sum();
            let Some((share, why)) = crate::concentration::partition_share(
                design,
                members.iter().map(|(e, _)| *e),
                &template,
            ) else {
                continue;
            };
            let busiest = total * share;
            let limit = limits::MAX_ITEM_COLLECTION_BYTES;
            if busiest <= limit / 2.0 {
                continue;
            }
            let severity = if busiest > limit {
                Severity::Error
            } else {
                Severity::Warning
            };
            let names: Vec<String> = members
                .iter()
                .map(|(e, _)| format!("`{}`", e.name))
                .collect();
            let lsis: Vec<String> = table.lsis.iter().map(|l| format!("`{}`", l.name)).collect();
            let verdict = if busiest > limit {
                "over the 10 GB an item collection may hold in a table with an LSI: writes to it will fail (ItemCollectionSizeLimitExceededException)"
            } else {
                "past half the 10 GB an item collection may hold in a table with an LSI"
            };
            out.push(
                "KP029",
                severity,
                // The (first) LSI that makes the limit apply: selecting it shows the cause.
                table.lsis.first().map_or_else(
                    || Place::Table(table.name.clone()),
                    |lsi| Place::lsi(&table.name, &lsi.name),
                ),
                format!(
                    "{pk} `{source}` in `{}` gathers {} into item collections of about {} each ({why}), with LSI {}: {verdict}; put the LSI's sort key in a GSI instead, or a more selective value in {pk}",
                    table.name,
                    names.join(" and "),
                    crate::cost::bytes_text(busiest),
                    lsis.join(", ")
                ),
            );
        }
    }
}

/// The entities whose items share a partition template's collections, with their bytes (text,
/// members, template).
type Collection<'a> = (String, Vec<(&'a Entity, f64)>, KeyTemplate);

/// Why a partition key's template takes few values (by [`crate::concentration::few_values`],
/// the rule its load was judged by).
fn few_values(entity: &Entity, template: &KeyTemplate) -> String {
    let why: Vec<String> = template
        .attribute_vars()
        .filter_map(|var| entity.attribute(&var.name))
        .filter_map(crate::concentration::few_values)
        .map(|few| few.to_string())
        .collect();
    if why.is_empty() {
        "it is a constant".to_string()
    } else {
        why.join(", ")
    }
}

/// Whether KP029 needs an item size measured: a table with an LSI holds an entity whose volume
/// gives its count but not its size.
pub(super) fn wants_item_bytes(design: &Design) -> bool {
    design
        .tables
        .iter()
        .filter(|t| !t.lsis.is_empty())
        .any(|table| {
            design
                .entities_in(&table.name)
                .any(|e| e.volume.is_some_and(|v| v.item_bytes.is_none()))
        })
}

#[cfg(test)]
mod tests;
