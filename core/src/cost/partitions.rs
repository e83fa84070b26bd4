//! The load each pattern puts on the busiest partition of a key that takes few values, and
//! whether it is hot: the partitions of the cost report. Nothing here sizes items or prices
//! units: a pattern's units come from [`super::units`].

use std::collections::{HashMap, HashSet};

use super::{PartitionLoad, PatternCost};
use crate::answer::Verdict;
use crate::concentration::{busiest_share, shards_needed};
use crate::limits::{PARTITION_READ_UNITS_PER_SECOND, PARTITION_WRITE_UNITS_PER_SECOND};
use crate::model::{AccessPattern, ByName, Design, Entity, Table};
use crate::template::KeyTemplate;

/// The partition-key template of `entity` for `index` (`None`: the table).
pub(super) fn partition_template(
    table: &Table,
    entity: &Entity,
    index: Option<&str>,
) -> Option<KeyTemplate> {
    let key = match index {
        None => table.partition_key.name.clone(),
        Some(name) => match (table.gsi(name), table.lsi(name)) {
            (Some(gsi), _) => gsi.partition_key.first()?.name.clone(),
            (None, Some(_)) => table.partition_key.name.clone(),
            (None, None) => return None,
        },
    };
    entity.key_template(&key).map(|t| t.into_owned())
}

/// Whether `template` concentrates traffic on few partitions ([`busiest_share`], the rule
/// KP014 reads from here too). Returns the partition named with example values and the share
/// of the traffic the busiest one takes.
fn concentrated(entity: Option<&Entity>, template: &KeyTemplate) -> Option<(String, f64)> {
    let share = busiest_share(entity, template)?;
    let name = template.render(|var| {
        if var.shards.is_some() {
            return Some("0".to_string());
        }
        let attribute = entity.and_then(|e| e.attribute(&var.name));
        Some(match attribute.and_then(|a| a.values.first()) {
            Some(first) => first.clone(),
            None => format!("<{}>", var.name),
        })
    })?;
    Some((name, share))
}

/// Whether a partition key of some entity, in its table or a GSI, concentrates traffic
/// ([`concentrated`]): only then can a pattern load a partition here.
pub fn concentrates(design: &Design) -> bool {
    design.entities.iter().any(|entity| {
        let Some(table) = design.table(&entity.table) else {
            return false;
        };
        std::iter::once(None)
            .chain(table.gsis.iter().map(|g| Some(g.name.as_str())))
            .filter_map(|index| partition_template(table, entity, index))
            .any(|template| busiest_share(Some(entity), &template).is_some())
    })
}

/// Where a load falls: a partition of the table or of one index.
pub(super) struct Place<'a> {
    table: &'a str,
    index: Option<&'a str>,
    partition: String,
    template: &'a KeyTemplate,
}

/// The partition loads in the order they were first met, with where each one is by its place
/// and which patterns each has, so that adding to one does not search them all.
#[derive(Default)]
pub(super) struct Loads {
    list: Vec<PartitionLoad>,
    /// By (table, index, partition): the position in `list`.
    at: HashMap<(String, Option<String>, String), usize>,
    /// (position in `list`, pattern) for every pattern a load has.
    patterns: HashSet<(usize, String)>,
}

pub(super) fn add_load(
    loads: &mut Loads,
    place: Place<'_>,
    pattern: &str,
    reads: f64,
    writes: f64,
) {
    let Place {
        table,
        index,
        partition,
        template,
    } = place;
    let shards = template.shard().and_then(|v| v.shards).unwrap_or(1);
    let key = (table.to_string(), index.map(str::to_string), partition);
    let at = match loads.at.get(&key) {
        Some(&at) => at,
        None => {
            let at = loads.list.len();
            let (_, _, partition) = key.clone();
            loads.at.insert(key, at);
            loads.list.push(PartitionLoad {
                table: table.to_string(),
                index: index.map(str::to_string),
                partition,
                template: template.source().to_string(),
                shards,
                read_units_per_second: 0.0,
                write_units_per_second: 0.0,
                patterns: Vec::new(),
                hot: false,
                shards_needed: 1,
                advice: None,
            });
            at
        }
    };
    let load = &mut loads.list[at];
    load.read_units_per_second += reads;
    load.write_units_per_second += writes;
    if loads.patterns.insert((at, pattern.to_string())) {
        load.patterns.push(pattern.to_string());
    }
}

pub(super) fn read_loads(
    by_name: &ByName<'_>,
    verdict: &Verdict,
    pattern: &AccessPattern,
    cost: &PatternCost,
    loads: &mut Loads,
) {
    let (Some(table), Some(spec)) = (&verdict.table, &verdict.query) else {
        return;
    };
    let Some(part) = spec.partition.first() else {
        return;
    };
    let entity = pattern.entities.first().and_then(|e| by_name.entity(e));
    if let Some((name, share)) = concentrated(entity, &part.template) {
        // Every request reads every shard: each shard's partition sees the full rate.
        let queries = f64::from(verdict.shards.unwrap_or(1).max(1));
        add_load(
            loads,
            Place {
                table,
                index: verdict.index.as_deref(),
                partition: name,
                template: &part.template,
            },
            &pattern.name,
            pattern.rate * share * cost.read_units / queries,
            0.0,
        );
    }
}

/// Adds a write pattern's load on the partition `entity` writes in `index` (`None`: the
/// table), when its key concentrates traffic; a write-sharded key spreads it over its shards.
pub(super) fn add_write_load(
    loads: &mut Loads,
    table: &Table,
    entity: &Entity,
    index: Option<&str>,
    pattern: &AccessPattern,
    units: f64,
) {
    if let Some(template) = partition_template(table, entity, index)
        && let Some((name, share)) = concentrated(Some(entity), &template)
    {
        let shards = f64::from(template.shard().and_then(|v| v.shards).unwrap_or(1));
        add_load(
            loads,
            Place {
                table: &table.name,
                index,
                partition: name,
                template: &template,
            },
            &pattern.name,
            0.0,
            pattern.rate * share * units / shards,
        );
    }
}

/// The loads judged: each marked hot or not, with the shards that would cool it and what to do,
/// the hot ones first.
pub(super) fn judge(loads: Loads) -> Vec<PartitionLoad> {
    let mut loads = loads.list;
    for load in &mut loads {
        let reads_hot = load.read_units_per_second > PARTITION_READ_UNITS_PER_SECOND;
        let writes_hot = load.write_units_per_second > PARTITION_WRITE_UNITS_PER_SECOND;
        load.hot = reads_hot || writes_hot;
        // Writes spread over the shards; every scatter-gather read reads every shard.
        let total_writes = load.write_units_per_second * f64::from(load.shards);
        load.shards_needed = shards_needed(total_writes, load.shards);
        load.advice = if writes_hot {
            Some(write_advice(load))
        } else if reads_hot {
            Some(read_advice(load.shards).to_string())
        } else {
            None
        };
    }
    loads.sort_by(|a, b| {
        b.hot.cmp(&a.hot).then_with(|| {
            (a.table.as_str(), &a.index, &a.partition).cmp(&(
                b.table.as_str(),
                &b.index,
                &b.partition,
            ))
        })
    });
    loads
}

/// What to do about a partition whose writes are hot: write-shard its key into
/// [`PartitionLoad::shards_needed`] shards (the count KP014 and an edit that shards the key
/// take from here).
pub fn write_advice(load: &PartitionLoad) -> String {
    let needed = load.shards_needed;
    if load.shards > 1 {
        format!(
            "raise its shards from {} to {needed} (`{{shard:{needed}}}`) and scatter-gather the reads",
            load.shards
        )
    } else {
        let sharded = crate::concentration::sharded(&KeyTemplate::parse(&load.template), needed);
        format!("write-shard it into {needed} (`{sharded}`) and scatter-gather the reads")
    }
}

/// What to do about a partition whose reads are hot, with `shards` write shards: sharding does
/// not cool reads that read every shard.
pub fn read_advice(shards: u32) -> &'static str {
    if shards > 1 {
        "every scatter-gather request reads each shard: fewer shards or a smaller page per shard, or cache the reads (DAX)"
    } else {
        "every request reads this one partition: cache it (DAX) or keep copies in several partitions and read one at random"
    }
}
