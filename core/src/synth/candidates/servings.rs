//! The servings of one read: each way the table (an option of every returned entity, the same
//! partition for all) or an index path serves it as a GetItem or a Query, as core's verdicts
//! judge it on a probe, at the cost the cost model gives it there.

use std::collections::BTreeMap;

use super::probe::{Prober, Served};
use super::shape::Shape;
use super::{
    GroupMeaning, MAX_COMBINATIONS, PROBE_INDEX, PathMeaning, ReadShape, ServingMeaning, TableKeys,
    binds, option_keys, path_keys, path_needs, probe_index, with_landers,
};
use crate::answer::Operation;
use crate::model::{Design, Entity};
use crate::synth::problem::{Need, OptionRef, Path, PathKind, Serving};
use crate::template::KeyTemplate;

pub(super) fn servings(
    design: &Design,
    prober: &Prober<'_>,
    tables: &[TableKeys],
    read: &ReadShape<'_>,
    groups: &[GroupMeaning],
    paths: &[Path],
    meaning: &[PathMeaning],
) -> (Vec<Serving>, Vec<ServingMeaning>) {
    let mut servings = Vec::new();
    let mut out = Vec::new();
    if read.entities.is_empty() || read.entities.len() != read.pattern.entities.len() {
        return (servings, out);
    }
    let table = &design.entities[read.entities[0]].table;
    if read
        .entities
        .iter()
        .any(|&e| &design.entities[e].table != table)
    {
        return (servings, out);
    }
    let mut accept = |served: Served, needs: Vec<Need>, on: Option<&str>| {
        let on_it = served.index.as_deref() == on;
        if on_it
            && !served.sorted_in_memory
            && matches!(served.operation, Operation::GetItem | Operation::Query)
        {
            servings.push(Serving {
                needs,
                cost: served.cost,
            });
            out.push(ServingMeaning {
                operation: served.operation,
                shards: served.shards,
            });
        }
    };
    // The table: every combination of options that puts the returned entities in one
    // partition the inputs bind.
    for combination in table_combinations(read, groups) {
        let members: Vec<(&Entity, BTreeMap<String, KeyTemplate>)> = combination
            .iter()
            .map(|r| {
                let entity = &design.entities[r.group];
                (
                    entity,
                    option_keys(tables, entity, &groups[r.group].options[r.option]),
                )
            })
            .collect();
        let probe = prober.design(table, &members, None, vec![read.pattern.clone()]);
        let needs = combination.iter().copied().map(Need::Option).collect();
        accept(prober.serve(&probe), needs, None);
    }
    // An index: one path per returned entity with the same partition.
    for combination in path_combinations(read, paths, meaning) {
        let mut members: Vec<(&Entity, BTreeMap<String, KeyTemplate>)> = combination
            .iter()
            .map(|&p| {
                let path = &paths[p];
                let entity = &design.entities[path.group];
                // An LSI needs its option; a GSI is probed on a primary key the read cannot
                // use, so that the verdict judges the index.
                let option = path
                    .requires
                    .map(|r| r.option)
                    .or_else(|| unbound_option(read, &groups[path.group]))
                    .unwrap_or(0);
                let mut keys = option_keys(tables, entity, &groups[path.group].options[option]);
                keys.extend(path_keys(&meaning[p]));
                (entity, keys)
            })
            .collect();
        if let [p] = combination[..] {
            let asked = members.len();
            with_landers(design, tables, groups, &meaning[p], &mut members);
            for (_, keys) in &mut members[asked..] {
                keys.extend(path_keys(&meaning[p]));
            }
        }
        // One index for the combination: a multi-entity read's paths all sort (by their
        // entity's label first), so the first path's shape is the index's.
        let index = probe_index(&meaning[combination[0]]);
        let probe = prober.design(table, &members, Some(&index), vec![read.pattern.clone()]);
        let mut needs: Vec<Need> = combination
            .iter()
            .flat_map(|&p| path_needs(p, paths[p].requires))
            .collect();
        needs.sort_unstable();
        needs.dedup();
        accept(prober.serve(&probe), needs, Some(PROBE_INDEX));
    }
    (servings, out)
}

/// The first option of `group` whose partition the read cannot bind.
fn unbound_option(read: &ReadShape<'_>, group: &GroupMeaning) -> Option<usize> {
    group.options.iter().position(|o| {
        let template = KeyTemplate::parse(&o.partition);
        let attrs: Vec<&str> = template.attribute_vars().map(|v| v.name.as_str()).collect();
        !binds(read, &attrs)
    })
}

/// Combinations of one option per returned entity whose partitions are the same template
/// and bound by the read's inputs; at most [`MAX_COMBINATIONS`].
fn table_combinations(read: &ReadShape<'_>, groups: &[GroupMeaning]) -> Vec<Vec<OptionRef>> {
    let bound = |partition: &str| {
        let template = KeyTemplate::parse(partition);
        let attrs: Vec<&str> = template.attribute_vars().map(|v| v.name.as_str()).collect();
        binds(read, &attrs)
    };
    let first = read.entities[0];
    let mut out = Vec::new();
    for (o, option) in groups[first].options.iter().enumerate() {
        if !bound(&option.partition) {
            continue;
        }
        let mut partial = vec![vec![OptionRef {
            group: first,
            option: o,
        }]];
        for &e in &read.entities[1..] {
            let mut next = Vec::new();
            for prefix in &partial {
                for (oe, other) in groups[e].options.iter().enumerate() {
                    if other.partition == option.partition && next.len() < MAX_COMBINATIONS {
                        let mut combination = prefix.clone();
                        combination.push(OptionRef {
                            group: e,
                            option: oe,
                        });
                        next.push(combination);
                    }
                }
            }
            partial = next;
        }
        out.extend(partial);
        if out.len() >= MAX_COMBINATIONS {
            out.truncate(MAX_COMBINATIONS);
            break;
        }
    }
    out
}

/// Combinations of one path per returned entity, of one kind, whose partitions are the same
/// and bound by the read's inputs. A multi-entity read takes only the paths made for it.
fn path_combinations(
    read: &ReadShape<'_>,
    paths: &[Path],
    meaning: &[PathMeaning],
) -> Vec<Vec<usize>> {
    let bound = |shape: &Shape| binds(read, &shape.attributes());
    if read.entities.len() == 1 {
        return paths
            .iter()
            .enumerate()
            .filter(|(p, path)| {
                path.group == read.entities[0]
                    && match path.kind {
                        PathKind::Gsi => bound(&meaning[*p].partition),
                        PathKind::Lsi => meaning[*p].pattern == read.pattern.name,
                    }
            })
            .map(|(p, _)| vec![p])
            .collect();
    }
    let mut combination = Vec::new();
    for &e in &read.entities {
        let found = paths.iter().enumerate().position(|(p, path)| {
            path.group == e && path.kind == PathKind::Gsi && meaning[p].pattern == read.pattern.name
        });
        match found {
            Some(p) => combination.push(p),
            None => return Vec::new(),
        }
    }
    vec![combination]
}
