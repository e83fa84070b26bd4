//! Render: the solver's [`Solution`] written as a complete design in a [`Style`]. The input's
//! entities, attributes, patterns and pinned keys are kept; each entity gets the chosen
//! primary key, and the chosen index paths become GSIs and LSIs: overloaded and numbered by
//! first use (`GSI1PK`/`GSI1SK`) in single-table style, one per distinct key with the entity's
//! own attribute names as multi-attribute keys (`byStatus`) in natural style. Nothing here
//! judges or prices the result.

use std::collections::{BTreeMap, BTreeSet};

use super::Style;
use super::candidates::shape::{identities, keyed_partition};
use super::candidates::{Candidates, KeyOption, Origin, PathMeaning, keyed_naturally};
use super::problem::{Need, PathKind, Solution};
use crate::casing;
use crate::model::{Design, Gsi, KeyAttribute, KeyType, Lsi, Projection};
use crate::template::KeyTemplate;

/// A rendered design and where each chosen path went.
#[derive(Debug, Clone)]
pub struct Rendered {
    pub design: Design,
    /// By path position: the table and index it was rendered into, if chosen.
    pub placed: BTreeMap<usize, (String, String)>,
    /// By group: the primary key the entity was given, as written (see [`placed_key`]).
    pub keys: BTreeMap<usize, KeyOption>,
}

/// `solution` as a design in `style`.
pub fn render(
    design: &Design,
    candidates: &Candidates,
    solution: &Solution,
    style: Style,
) -> Rendered {
    let mut out = design.clone();
    for keys in &candidates.tables {
        if let Some(table) = out.tables.iter_mut().find(|t| t.name == keys.name) {
            table.partition_key = keys.partition_key.clone();
            table.sort_key = Some(keys.sort_key.clone());
        }
    }
    let ids = identities(design);
    let mut keys = BTreeMap::new();
    for (g, group) in candidates.groups.iter().enumerate() {
        let Some(option) = placed_key(design, &ids, candidates, solution, g) else {
            continue;
        };
        keys.insert(g, option.clone());
        let Some(entity) = out.entities.iter_mut().find(|e| e.name == group.entity) else {
            continue;
        };
        if option.origin == Origin::Pinned {
            continue;
        }
        let Some(table) = candidates.tables.iter().find(|t| t.name == entity.table) else {
            continue;
        };
        // Keys for indexes the input has (pinned) stay; the primary key is the chosen one.
        let kept: BTreeSet<String> = design
            .table(&entity.table)
            .map(|t| t.key_attributes().iter().map(|k| k.name.clone()).collect())
            .unwrap_or_default();
        entity.keys.retain(|name, _| {
            kept.contains(name) && *name != table.partition_key.name && *name != table.sort_key.name
        });
        entity.keys.insert(
            table.partition_key.name.clone(),
            KeyTemplate::parse(&option.partition),
        );
        if !option.sort.is_empty() {
            entity.keys.insert(
                table.sort_key.name.clone(),
                KeyTemplate::parse(&option.sort),
            );
        }
    }
    let placed = match style {
        Style::SingleTable => overloaded(&mut out, candidates, solution),
        Style::Natural => distinct(&mut out, candidates, solution),
    };
    Rendered {
        design: out,
        placed,
        keys,
    }
}

/// The primary key group `g` gets in `solution`, as the proposal writes it. A key under a
/// parent's partition carries the parent's label (`CUSTOMER#{customerId}`): true only where
/// the parent's own key is that partition. Where it is not, the entity is not in the parent's
/// item collection, and its partition is labelled as any key on that identity is, by the
/// entity the value names (`USER#{user_id}`, not `USER_ORDER_HISTORY#{user_id}` beside a
/// UserOrderHistory keyed elsewhere). The label is no part of the choice's cost (but for a
/// few bytes of key), and the proposal's verdicts are checked after rendering as always.
fn placed_key(
    design: &Design,
    ids: &[Option<String>],
    candidates: &Candidates,
    solution: &Solution,
    g: usize,
) -> Option<KeyOption> {
    let chosen = |g: usize| {
        let o = *solution.options.get(g)?;
        candidates.groups.get(g)?.options.get(o)
    };
    let option = chosen(g)?;
    let Origin::Under(parent) = &option.origin else {
        return Some(option.clone());
    };
    let parent_partition = candidates
        .groups
        .iter()
        .position(|other| &other.entity == parent)
        .and_then(chosen)
        .map(|o| o.partition.as_str());
    if parent_partition == Some(option.partition.as_str()) {
        return Some(option.clone());
    }
    let entity = &candidates.groups[g].entity;
    let attributes: Vec<String> = KeyTemplate::parse(&option.partition)
        .attribute_vars()
        .map(|v| v.name.clone())
        .collect();
    let mut partition = keyed_partition(design, ids, entity, &attributes);
    if let Some(sharding) = option.sharding {
        partition = partition.sharded(sharding.shards);
    }
    let partition = partition.template();
    let origin = if parent_partition == Some(partition.as_str()) {
        Origin::Under(parent.clone())
    } else {
        Origin::Apart(parent.clone())
    };
    Some(KeyOption {
        partition,
        origin,
        ..option.clone()
    })
}

/// The chosen paths that must share an index, as bundles in order of first path: the paths a
/// chosen serving needs together (a multi-entity read's entities in one partition).
fn bundles(candidates: &Candidates, solution: &Solution) -> Vec<Vec<usize>> {
    let chosen: BTreeSet<usize> = solution.paths.iter().copied().collect();
    let mut bundle_of: BTreeMap<usize, usize> = BTreeMap::new();
    let mut bundles: Vec<Vec<usize>> = Vec::new();
    for &p in &solution.paths {
        if bundle_of.contains_key(&p) {
            continue;
        }
        bundle_of.insert(p, bundles.len());
        bundles.push(vec![p]);
    }
    for (r, serving) in solution.servings.iter().enumerate() {
        let Some(s) = serving else { continue };
        let Some(serving) = candidates.problem.reads[r].servings.get(*s) else {
            continue;
        };
        let together: Vec<usize> = serving
            .needs
            .iter()
            .filter_map(|n| match n {
                Need::Path(p) if chosen.contains(p) => Some(*p),
                _ => None,
            })
            .collect();
        let Some(&first) = together.first() else {
            continue;
        };
        let target = bundle_of[&first];
        for &p in &together[1..] {
            let from = bundle_of[&p];
            if from != target {
                let moved = std::mem::take(&mut bundles[from]);
                for &m in &moved {
                    bundle_of.insert(m, target);
                }
                bundles[target].extend(moved);
            }
        }
    }
    bundles.retain(|b| !b.is_empty());
    bundles.iter_mut().for_each(|b| b.sort_unstable());
    bundles.sort();
    bundles
}

/// Single-table style: each bundle of paths into the first numbered index (per kind) that
/// none of its entities is in yet.
fn overloaded(
    out: &mut Design,
    candidates: &Candidates,
    solution: &Solution,
) -> BTreeMap<usize, (String, String)> {
    let mut placed = BTreeMap::new();
    // Per table and kind: the entities in each numbered slot.
    let mut slots: BTreeMap<(String, u8), Vec<BTreeSet<String>>> = BTreeMap::new();
    for bundle in bundles(candidates, solution) {
        let first = &candidates.paths[bundle[0]];
        let Some(table) = entity_table(out, &first.entity) else {
            continue;
        };
        let kind_code = kind_code(first.kind);
        let taken = slots.entry((table.clone(), kind_code)).or_default();
        let entities: BTreeSet<String> = bundle
            .iter()
            .map(|&p| candidates.paths[p].entity.clone())
            .collect();
        let slot = match taken.iter().position(|s| s.is_disjoint(&entities)) {
            Some(slot) => slot,
            None => {
                taken.push(BTreeSet::new());
                taken.len() - 1
            }
        };
        taken[slot].extend(entities);
        let name = slot_name(first.kind, slot + 1);
        for &p in &bundle {
            let path = &candidates.paths[p];
            place_overloaded(out, &table, &name, path);
            placed.insert(p, (table.clone(), name.clone()));
        }
    }
    placed
}

fn kind_code(kind: PathKind) -> u8 {
    match kind {
        PathKind::Gsi => 0,
        PathKind::Lsi => 1,
    }
}

fn entity_table(design: &Design, entity: &str) -> Option<String> {
    design.entity(entity).map(|e| e.table.clone())
}

/// `GSI{n}` or `LSI{n}`.
fn slot_name(kind: PathKind, n: usize) -> String {
    let stem = match kind {
        PathKind::Gsi => "GSI",
        PathKind::Lsi => "LSI",
    };
    format!("{stem}{n}")
}

/// A path into the overloaded index `name`: the index made if new, the entity's templates set.
fn place_overloaded(out: &mut Design, table: &str, name: &str, path: &PathMeaning) {
    let pk = format!("{name}PK");
    let sk = format!("{name}SK");
    if let Some(t) = out.tables.iter_mut().find(|t| t.name == table) {
        match path.kind {
            PathKind::Gsi if t.gsi(name).is_none() => t.gsis.push(Gsi {
                name: name.to_string(),
                partition_key: vec![KeyAttribute::new(&pk, KeyType::S)],
                sort_key: if path.sort.0.is_empty() {
                    Vec::new()
                } else {
                    vec![KeyAttribute::new(&sk, KeyType::S)]
                },
                projection: Projection::All,
            }),
            PathKind::Lsi if t.lsi(name).is_none() => t.lsis.push(Lsi {
                name: name.to_string(),
                sort_key: KeyAttribute::new(&sk, KeyType::S),
                projection: Projection::All,
            }),
            _ => {}
        }
    }
    if let Some(entity) = out.entities.iter_mut().find(|e| e.name == path.entity) {
        if path.kind == PathKind::Gsi {
            entity.keys.insert(pk, path.partition.parse());
        }
        if !path.sort.0.is_empty() {
            entity.keys.insert(sk, path.sort.parse());
        }
    }
}

/// Natural style: one index per distinct key; attributes-only keys become multi-attribute
/// keys named after the attributes, which the entities fill with their own values (every
/// entity of the table with those attributes lands in the index: the candidates price it with
/// the path, [`super::candidates::landers`]).
fn distinct(
    out: &mut Design,
    candidates: &Candidates,
    solution: &Solution,
) -> BTreeMap<usize, (String, String)> {
    let mut placed = BTreeMap::new();
    let mut names: BTreeMap<(String, u32), String> = BTreeMap::new();
    let mut lsi_count: BTreeMap<String, usize> = BTreeMap::new();
    for &p in &solution.paths {
        let path = &candidates.paths[p];
        let number = candidates.problem.paths[p].index;
        let Some(table) = entity_table(out, &path.entity) else {
            continue;
        };
        if path.kind == PathKind::Lsi {
            let n = lsi_count.entry(table.clone()).or_default();
            *n += 1;
            let name = slot_name(PathKind::Lsi, *n);
            place_overloaded(out, &table, &name, path);
            placed.insert(p, (table, name));
            continue;
        }
        let name = match names.get(&(table.clone(), number)) {
            Some(name) => name.clone(),
            None => {
                let name = natural_name(out, &table, path);
                names.insert((table.clone(), number), name.clone());
                name
            }
        };
        if keyed_naturally(path) {
            place_natural(out, &table, &name, path);
        } else {
            place_overloaded(out, &table, &name, path);
        }
        placed.insert(p, (table, name));
    }
    placed
}

/// `byStatus`, `byCustomerIdAndStatus`; `allOrders` for a constant partition; numbered when
/// taken.
fn natural_name(design: &Design, table: &str, path: &PathMeaning) -> String {
    let attrs = path.partition.attributes();
    let stem = if attrs.is_empty() {
        format!("all{}s", casing::pascal(&path.entity))
    } else {
        let words: Vec<String> = attrs.iter().map(|a| casing::pascal(a)).collect();
        format!("by{}", words.join("And"))
    };
    let taken = |name: &str| design.table(table).is_some_and(|t| t.gsi(name).is_some());
    if !taken(&stem) {
        return stem;
    }
    let sorted: Vec<String> = path
        .sort
        .attributes()
        .iter()
        .map(|a| casing::pascal(a))
        .collect();
    let with_sort = format!("{stem}By{}", sorted.join("And"));
    if !sorted.is_empty() && !taken(&with_sort) {
        return with_sort;
    }
    (2..)
        .map(|n| format!("{stem}{n}"))
        .find(|name| !taken(name))
        .unwrap_or(stem)
}

/// A path into the natural index `name`, keyed on the entity's own attributes.
fn place_natural(out: &mut Design, table: &str, name: &str, path: &PathMeaning) {
    let key_type = |attr: &str| {
        out.entity(&path.entity)
            .and_then(|e| e.attribute(attr))
            .and_then(|a| a.ty.as_key_type())
            .unwrap_or(KeyType::S)
    };
    let partition_key: Vec<KeyAttribute> = path
        .partition
        .attributes()
        .iter()
        .map(|a| KeyAttribute::new(*a, key_type(a)))
        .collect();
    let sort_key: Vec<KeyAttribute> = path
        .sort
        .attributes()
        .iter()
        .map(|a| KeyAttribute::new(*a, key_type(a)))
        .collect();
    if let Some(t) = out.tables.iter_mut().find(|t| t.name == table)
        && t.gsi(name).is_none()
    {
        t.gsis.push(Gsi {
            name: name.to_string(),
            partition_key,
            sort_key,
            projection: Projection::All,
        });
    }
}
