//! What each access pattern says of itself (KP005, KP018, KP019, KP022, KP023, KP028), one
//! pattern at a time ([`crate::findings::Units`] keeps each pattern's), and what the patterns
//! leave unused (KP012, KP013), worked out across them all.

use std::collections::{HashMap, HashSet};

use super::{Findings, index_path};
use crate::answer::{Fix, Operation, Place, Severity, Verdict};
use crate::coverage::shape;
use crate::coverage::{Member, Prepared, PreparedIndex};
use crate::limits;
use crate::model::Action;
use crate::template::KeyTemplate;
/// KP005, KP018, KP019, KP022, KP023, KP028: what `pattern` (judged `verdict`) says of itself.
/// It reads the pattern, its verdict, the tables, the entities' names, and of the entities the
/// attributes of those it names and the templates of their partition peers on the verdict's
/// index: what the verdict reads ([`crate::analysis::Analyzed`] keeps both together).
pub(super) fn pattern_findings(
    prepared: &Prepared<'_>,
    pattern: &crate::model::AccessPattern,
    verdict: &Verdict,
    out: &mut Findings,
) {
    let path = || Place::Pattern(pattern.name.clone());
    let named: Vec<&str> = match pattern.action {
        Action::Transact => pattern.writes.iter().map(|w| w.entity.as_str()).collect(),
        _ => pattern.entities.iter().map(String::as_str).collect(),
    };
    let mut known = Vec::new();
    for name in named {
        match prepared.entity_by_name.get(name) {
            Some(&e) => known.push(prepared.entity(e)),
            None => out.push(
                "KP018",
                Severity::Error,
                path(),
                format!("`{}` names unknown entity `{name}`", pattern.name),
            ),
        }
    }
    if pattern.is_read() {
        for unknown in crate::coverage::unknown_attributes(pattern, &known) {
            out.push_fix(
                "KP019",
                Severity::Error,
                path(),
                format!("`{}`: {unknown}", pattern.name),
                unknown.closest.map(|to| Fix::RenamePatternAttribute {
                    pattern: pattern.name.clone(),
                    from: unknown.name.to_string(),
                    to: to.to_string(),
                }),
            );
        }
        let contradictions = crate::coverage::contradictions(pattern);
        for contradiction in &contradictions {
            out.push(
                "KP023",
                Severity::Error,
                path(),
                format!("`{}` contradicts itself: {contradiction}", pattern.name),
            );
        }
        if contradictions.is_empty() {
            unordered(prepared, pattern, verdict, &path, out);
        }
        skipped_types(prepared, pattern, verdict, &path, out);
    }
    if pattern.action == Action::Transact {
        let items: u64 = pattern.writes.iter().map(|w| u64::from(w.count)).sum();
        if items > limits::MAX_TRANSACT_ITEMS as u64 {
            out.push(
                "KP022",
                Severity::Error,
                path(),
                format!(
                    "`{}` writes {items} items in one transaction; DynamoDB allows {}",
                    pattern.name,
                    limits::MAX_TRANSACT_ITEMS
                ),
            );
        }
    }
}

/// KP012 and KP013: the indexes no read uses, the entities no read reads.
pub(super) fn unused(prepared: &Prepared<'_>, verdicts: &[Verdict], out: &mut Findings) {
    let design = prepared.design;
    let mut used_indexes: HashSet<(&str, Option<&str>)> = HashSet::new();
    let mut read_entities: HashSet<&str> = HashSet::with_capacity(design.entities.len());
    for (pattern, verdict) in design.patterns.iter().zip(verdicts) {
        if pattern.is_read() {
            read_entities.extend(pattern.entities.iter().map(String::as_str));
            if let (Some(table), true) = (&verdict.table, verdict.covered) {
                used_indexes.insert((table.as_str(), verdict.index.as_deref()));
            }
        }
    }
    for table in &prepared.tables {
        for index in table.indexes.iter().skip(1) {
            let name = index.keys.name;
            if !used_indexes.contains(&(table.table.name.as_str(), name)) {
                out.push(
                    "KP012",
                    Severity::Warning,
                    index_path(table.table, index.keys.kind, name),
                    format!(
                        "no read pattern uses {} of `{}`: it costs writes and storage for nothing; drop it or add the pattern it is for",
                        name.unwrap_or_default(),
                        table.table.name
                    ),
                );
            }
        }
    }
    for entity in &design.entities {
        if !read_entities.contains(entity.name.as_str()) {
            out.push(
                "KP013",
                Severity::Info,
                Place::Entity(entity.name.clone()),
                format!(
                    "no read pattern reads {}: add the patterns that read it, so coverage can check them",
                    entity.name
                ),
            );
        }
    }
}

/// KP028: a covered read that asks an order (`order: desc`, `order_by`) its operation cannot
/// give: a GetItem (one item), or a Query on an index without a sort key, or with its whole
/// sort key bound by the inputs, whose items share one sort-key value (issue 16). No
/// suggestion goes with it: the pattern, not the design, has to say which order it means.
fn unordered(
    prepared: &Prepared<'_>,
    pattern: &crate::model::AccessPattern,
    verdict: &Verdict,
    path: &dyn Fn() -> Place,
    out: &mut Findings,
) {
    let asks = pattern.order_by.is_some() || pattern.order == crate::model::Order::Desc;
    if !asks || !verdict.covered || verdict.order.is_some() {
        return;
    }
    let asked = match &pattern.order_by {
        Some(by) => format!("its results ordered by `{by}`"),
        None => "its results in descending order".to_string(),
    };
    let Some(index) = prepared
        .tables
        .iter()
        .find(|t| verdict.table.as_deref() == Some(t.table.name.as_str()))
        .and_then(|t| {
            t.indexes
                .iter()
                .find(|i| i.keys.name == verdict.index.as_deref())
        })
    else {
        return;
    };
    let label = crate::coverage::index_label(&index.keys);
    let why = match (verdict.operation, index.keys.sort_key) {
        (Operation::GetItem, _) => {
            "it reads one item (a GetItem on its full primary key), and one item has no order; drop the order, or the input that names the item".to_string()
        }
        (_, []) => format!(
            "{label}, which serves it, has no sort key, so its Query returns a partition's items in no order; give {label} a sort key on the attribute to order by, or drop the order"
        ),
        (_, keys) => {
            let names: Vec<String> = keys.iter().map(|k| format!("`{}`", k.name)).collect();
            format!(
                "its inputs bind all of {label}'s sort key ({}), so the items it returns share one sort-key value and come back in no order; drop the order, or the input that binds the last sort-key attribute",
                names.join(", ")
            )
        }
    };
    out.push(
        "KP028",
        Severity::Error,
        path(),
        format!("`{}` asks {asked}, but {why}", pattern.name),
    );
}

/// KP005: the chosen Query's sort condition also matches another entity type in the partition.
fn skipped_types(
    prepared: &Prepared<'_>,
    pattern: &crate::model::AccessPattern,
    verdict: &Verdict,
    path: &dyn Fn() -> Place,
    out: &mut Findings,
) {
    if verdict.operation != Operation::Query {
        return;
    }
    let (Some(table), Some(query)) = (&verdict.table, &verdict.query) else {
        return;
    };
    let Some(table) = prepared.tables.iter().find(|t| &t.table.name == table) else {
        return;
    };
    let Some(index) = table
        .indexes
        .iter()
        .find(|i| i.keys.name == verdict.index.as_deref())
    else {
        return;
    };
    let returned: Vec<usize> = pattern
        .entities
        .iter()
        .filter_map(|n| prepared.entity_by_name.get(n.as_str()).copied())
        .collect();
    let sort_attr = query.sort_condition.as_ref().map(|c| c.attribute.as_str());
    let prefix = query.sort_condition.as_ref().and_then(|c| c.values.first());
    // The Query's partition is normally the first returned entity's: then the members that
    // can share it are known already.
    let peers = returned.first().and_then(|&e| {
        let position = prepared.member_position(index, e)?;
        let mine = &index.members[position].partition;
        let same = mine.len() == query.partition.len()
            && mine
                .iter()
                .zip(&query.partition)
                .all(|(a, b)| a.source() == b.template.source());
        same.then(|| index.partition_peers(position))
    });
    let candidates: Box<dyn Iterator<Item = &Member<'_>>> = match peers {
        Some(peers) => Box::new(peers.iter().map(|&m| &index.members[m])),
        None => Box::new(index.members.iter()),
    };
    let mut seen = HashMap::new();
    for m in candidates {
        if returned.contains(&m.entity) {
            continue;
        }
        let other = prepared.entity(m.entity);
        let same_partition = peers.is_some()
            || m.partition
                .iter()
                .zip(&query.partition)
                .all(|(a, b)| shape::can_equal(a.parts(), b.template.parts()));
        let same_equal = query.sort_equal.iter().all(|k| {
            index
                .keys
                .sort_key
                .iter()
                .position(|s| s.name == k.attribute)
                .is_some_and(|j| shape::can_equal(m.sort[j].parts(), k.template.parts()))
        });
        if !same_partition || !same_equal {
            continue;
        }
        let their_sort = sort_attr.and_then(|a| {
            index
                .keys
                .sort_key
                .iter()
                .position(|s| s.name == a)
                .map(|j| &m.sort[j])
        });
        let matches = match (prefix, their_sort) {
            (Some(p), Some(t)) => {
                let literal_prefix: Vec<_> = p
                    .parts()
                    .iter()
                    .take_while(|part| match part {
                        crate::template::Part::Var(v) => pattern.inputs.contains(&v.name),
                        crate::template::Part::Literal(_) => true,
                    })
                    .cloned()
                    .collect();
                shape::can_begin_with(t.parts(), &literal_prefix)
            }
            _ => true,
        };
        if matches && seen.insert(other.name.as_str(), ()).is_none() {
            let condition = match (prefix, their_sort) {
                (Some(p), Some(t)) => format!("`{p}` also matches {}'s `{t}`", other.name),
                _ => shared_prefix(prepared, pattern, index, m).unwrap_or_else(|| {
                    format!(
                        "nothing in the key condition tells {} items apart",
                        other.name
                    )
                }),
            };
            out.push(
                "KP005",
                Severity::Warning,
                path(),
                format!(
                    "`{}` reads {} but its Query also returns {} items: {condition}; give each type its own sort-key prefix, or skip {} by type",
                    pattern.name,
                    pattern.entities.join(", "),
                    other.name,
                    other.name
                ),
            );
        }
    }
}

/// For a Query with no sort condition: the returned entity's sort template and the other's,
/// and the prefix they share (`ORDER#{orderId}` and `ORDER#{orderId}#ITEM#{itemId}`).
fn shared_prefix(
    prepared: &Prepared<'_>,
    pattern: &crate::model::AccessPattern,
    index: &PreparedIndex<'_>,
    other: &Member<'_>,
) -> Option<String> {
    let name = pattern.entities.first()?;
    let &e = prepared.entity_by_name.get(name.as_str())?;
    let mine = prepared.member(index, e)?;
    let (a, b) = (mine.sort.last()?, other.sort.last()?);
    let bound =
        |t: &KeyTemplate| shape::bound_prefix(t, |v| pattern.inputs.iter().any(|i| i == v)).parts;
    let common = shape::common_prefix(&bound(a), &bound(b));
    let shared = if common.is_empty() {
        String::new()
    } else {
        format!(" share the prefix `{}`", KeyTemplate::from_parts(&common))
    };
    let verb = if shared.is_empty() {
        " both fit the key condition"
    } else {
        ""
    };
    Some(format!(
        "{name}'s `{a}` and {}'s `{b}`{shared}{verb}",
        prepared.entity(other.entity).name
    ))
}
