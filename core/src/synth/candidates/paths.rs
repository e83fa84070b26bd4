//! Secondary-index paths: for each read, the membership of each returned entity in a GSI keyed
//! on the read's equality inputs and sorted by its sort attribute (a constant partition when it
//! has no inputs), and for a strongly consistent read an LSI on the table's partition with the
//! sort attribute; each priced as the writes and storage it adds, sharded where its busiest
//! partition's writes need it.

use std::collections::BTreeMap;

use super::probe::Prober;
use super::shape::{Seg, Shape, keyed_partition, keyed_sort, label};
use super::{
    GroupMeaning, Numbering, Origin, PathMeaning, ReadShape, Sharding, TableKeys, keyable,
    option_keys, path_keys, probe_index, with_landers,
};
use crate::model::{AccessPattern, AttrType, Design};
use crate::synth::Style;
use crate::synth::problem::{OptionRef, Path, PathKind};

#[allow(clippy::too_many_arguments)]
pub(super) fn index_paths(
    design: &Design,
    prober: &Prober<'_>,
    tables: &[TableKeys],
    ids: &[Option<String>],
    identity: &[String],
    reads: &[ReadShape<'_>],
    meaning: &[GroupMeaning],
    style: Style,
) -> (Vec<Path>, Vec<PathMeaning>) {
    let mut wanted: Vec<(usize, PathMeaning, Option<OptionRef>)> = Vec::new();
    for read in reads {
        if !keyable(design, read) {
            continue;
        }
        let first = &design.entities[read.entities[0]];
        for &e in &read.entities {
            let entity = &design.entities[e];
            let id = &identity[e];
            let sort_attr = read
                .sort
                .as_deref()
                .filter(|s| entity.attribute(s).is_some());
            let natural = style == Style::Natural
                && !read.equal.is_empty()
                && read.entities.len() == 1
                && read
                    .equal
                    .iter()
                    .chain(sort_attr.map(|s| s.to_string()).as_ref())
                    .chain(std::iter::once(id))
                    .all(|a| {
                        entity
                            .attribute(a)
                            .is_some_and(|a| a.ty != AttrType::Bool && a.ty.as_key_type().is_some())
                    })
                && read.equal.len() <= 4;
            let (partition, sort) = if natural {
                let partition = Shape(read.equal.iter().map(|i| Seg::Attr(i.clone())).collect());
                let mut sort: Vec<Seg> = sort_attr
                    .map(|s| Seg::Attr(s.to_string()))
                    .into_iter()
                    .collect();
                if !read.equal.contains(id) && sort_attr != Some(id.as_str()) {
                    sort.push(Seg::Attr(id.clone()));
                }
                (partition, Shape(sort))
            } else {
                let partition = keyed_partition(design, ids, &first.name, &read.equal);
                let sort = keyed_sort(&entity.name, sort_attr, id, &partition);
                (partition, sort)
            };
            wanted.push((
                e,
                PathMeaning {
                    entity: entity.name.clone(),
                    kind: PathKind::Gsi,
                    partition,
                    sort,
                    pattern: read.pattern.name.clone(),
                    sharding: None,
                },
                None,
            ));
            // A strongly consistent read on another sort key: an LSI under each table
            // partition the read binds.
            if read.pattern.consistent
                && read.entities.len() == 1
                && let Some(sort_attr) = sort_attr
            {
                for (o, option) in meaning[e].options.iter().enumerate() {
                    let bound = crate::template::KeyTemplate::parse(&option.partition)
                        .attribute_vars()
                        .all(|v| read.equal.contains(&v.name));
                    if !bound
                        || option.sharding.is_some()
                        || option.origin == Origin::Pinned
                        || over_collection_limit(design, identity, entity, &option.partition)
                    {
                        continue;
                    }
                    let sort = Shape(vec![
                        Seg::Label(label(&entity.name)),
                        Seg::Attr(sort_attr.to_string()),
                        Seg::Attr(id.clone()),
                    ]);
                    wanted.push((
                        e,
                        PathMeaning {
                            entity: entity.name.clone(),
                            kind: PathKind::Lsi,
                            partition: Shape(Vec::new()),
                            sort,
                            pattern: read.pattern.name.clone(),
                            sharding: None,
                        },
                        Some(OptionRef {
                            group: e,
                            option: o,
                        }),
                    ));
                }
            }
        }
    }
    let mut paths = Vec::new();
    let mut out: Vec<PathMeaning> = Vec::new();
    let mut numbering: Numbering<(Shape, Shape, u8)> = Numbering::new();
    let mut base_cost: BTreeMap<(usize, usize), f64> = BTreeMap::new();
    for (e, mut path, requires) in wanted {
        if out.iter().zip(&paths).any(|(m, p): (&PathMeaning, &Path)| {
            p.group == e
                && m.kind == path.kind
                && m.partition == path.partition
                && m.sort == path.sort
                && p.requires == requires
        }) {
            continue;
        }
        let entity = &design.entities[e];
        let option = requires.map_or(0, |r| r.option);
        let Some(key_option) = meaning[e].options.get(option) else {
            continue;
        };
        // An index and what it costs over the table alone, for the entity and the entities a
        // natural key holds unasked (their writes and storage in it are the path's too).
        let mut price = |path: &PathMeaning| {
            let mut members = vec![(entity, option_keys(tables, entity, key_option))];
            with_landers(design, tables, meaning, path, &mut members);
            let mut writes = Vec::new();
            for (member, _) in &members {
                for write in prober.writes_of(&member.name) {
                    if !writes
                        .iter()
                        .any(|have: &AccessPattern| have.name == write.name)
                    {
                        writes.push(write);
                    }
                }
            }
            let base = if members.len() == 1 {
                *base_cost.entry((e, option)).or_insert_with(|| {
                    let probe = prober.design(&entity.table, &members, None, writes.clone());
                    prober.estimate(&probe).monthly_total
                })
            } else {
                let probe = prober.design(&entity.table, &members, None, writes.clone());
                prober.estimate(&probe).monthly_total
            };
            for (_, keys) in &mut members {
                keys.extend(path_keys(path));
            }
            let probe = prober.design(&entity.table, &members, Some(&probe_index(path)), writes);
            let report = prober.estimate(&probe);
            let cost = (report.monthly_total - base).max(0.0);
            (report, cost)
        };
        let (report, mut cost) = price(&path);
        if path.kind == PathKind::Gsi
            && let Some(load) = report
                .partitions
                .iter()
                .find(|l| l.index.is_some() && l.hot && l.shards_needed > 1 && l.shards == 1)
        {
            path.sharding = Some(Sharding {
                shards: load.shards_needed,
                write_units_per_second: load.write_units_per_second,
            });
            // A multi-attribute key cannot hold a shard: a sharded key is a template.
            path.partition = path.partition.sharded(load.shards_needed);
            cost = price(&path).1;
        }
        let kind_code = match path.kind {
            PathKind::Gsi => 0,
            PathKind::Lsi => 1,
        };
        let index_number = numbering.number((path.partition.clone(), path.sort.clone(), kind_code));
        paths.push(Path {
            group: e,
            kind: path.kind,
            index: index_number,
            cost,
            requires,
        });
        out.push(path);
    }
    (paths, out)
}

/// Whether `entity`'s items under one `partition` would pass the 10 GB an item collection may
/// hold when the table has an LSI: its volume's bytes over the partitions its key takes (a
/// parent's items for a parent's identity, else a `distinct` hint). Unknown volumes or
/// partition counts are not refused.
fn over_collection_limit(
    design: &Design,
    identity: &[String],
    entity: &crate::model::Entity,
    partition: &str,
) -> bool {
    let Some(volume) = entity.volume else {
        return false;
    };
    let Some(bytes) = volume.item_bytes else {
        return false;
    };
    let template = crate::template::KeyTemplate::parse(partition);
    let mut partitions = 1.0;
    for var in template.attribute_vars() {
        let parent_items = design
            .entities
            .iter()
            .zip(identity)
            .find(|(e, id)| **id == var.name && e.name != entity.name)
            .and_then(|(e, _)| e.volume.map(|v| v.items));
        let distinct = entity.attribute(&var.name).and_then(|a| a.distinct);
        match parent_items.or(distinct) {
            Some(n) => partitions *= n.max(1) as f64,
            None => return false,
        }
    }
    volume.items as f64 * bytes as f64 / partitions > crate::limits::MAX_ITEM_COLLECTION_BYTES
}
