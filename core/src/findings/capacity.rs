//! KP014: hot partitions. KP029: item collections over 10 GB in a table with an LSI.
//!
//! KP014: A partition key that takes few values (a constant, an enum, a date,
//! a small `distinct` hint) concentrates traffic: at worst all of a pattern's traffic lands on
//! one value, and one partition serves 3,000 read units and 1,000 write units a second.
//!
//! Units are estimated from a rough item size (attribute names plus a typical value each) and
//! the page size; the figures are orders of magnitude, enough to say "shard this into N".

use std::collections::HashMap;

use super::Findings;
use crate::answer::{Operation, Place, Severity, Verdict};
use crate::coverage::{Member, Prepared};
use crate::limits;
use crate::model::{Action, AttrType, Design, Entity, IndexKind};
use crate::template::KeyTemplate;

/// A partition key value shape several patterns may load.
#[derive(Debug)]
struct Load {
    read_units: f64,
    write_units: f64,
    read_patterns: Vec<String>,
    write_patterns: Vec<String>,
    shards: u32,
    why_few: String,
    place: Place,
    key: String,
    template: String,
}

pub(super) fn hot_partitions(prepared: &Prepared<'_>, verdicts: &[Verdict], out: &mut Findings) {
    // By (table, index position, partition group): members of one group have the same
    // partition template text.
    let mut loads: HashMap<(usize, usize, usize), Load> = HashMap::new();
    let mut order = Vec::new();
    let mut add = |key: (usize, usize, usize),
                   member: &Member<'_>,
                   entity: &Entity,
                   index_key: &str,
                   pattern: &str,
                   read: f64,
                   write: f64| {
        let Some(why_few) = few_values(entity, &member.partition) else {
            return;
        };
        let load = loads.entry(key).or_insert_with(|| {
            order.push(key);
            Load {
                shards: member
                    .partition
                    .iter()
                    .filter_map(|t| t.shard().and_then(|v| v.shards))
                    .product::<u32>()
                    .max(1),
                why_few,
                place: Place::key(&entity.name, index_key),
                key: index_key.to_string(),
                template: member
                    .partition
                    .iter()
                    .map(|t| t.source())
                    .collect::<Vec<_>>()
                    .join(", "),
                read_units: 0.0,
                write_units: 0.0,
                read_patterns: Vec::new(),
                write_patterns: Vec::new(),
            }
        });
        load.read_units += read;
        load.write_units += write;
        let patterns = if read > 0.0 {
            &mut load.read_patterns
        } else {
            &mut load.write_patterns
        };
        if !patterns.iter().any(|p| p == pattern) {
            patterns.push(pattern.to_string());
        }
    };
    let design = prepared.design;
    for (pattern, verdict) in design.patterns.iter().zip(verdicts) {
        match pattern.action {
            Action::Read => {
                if !matches!(verdict.operation, Operation::Query | Operation::GetItem) {
                    continue;
                }
                let Some(&e) = pattern
                    .entities
                    .first()
                    .and_then(|n| prepared.entity_by_name.get(n.as_str()))
                else {
                    continue;
                };
                let Some((t, _)) = prepared.homes[e] else {
                    continue;
                };
                let table = &prepared.tables[t];
                let Some((pos, index)) = table
                    .indexes
                    .iter()
                    .enumerate()
                    .find(|(_, i)| i.keys.name == verdict.index.as_deref())
                else {
                    continue;
                };
                let Some(position) = prepared.member_position(index, e) else {
                    continue;
                };
                let member = &index.members[position];
                let entity = prepared.entity(e);
                let items = match verdict.operation {
                    Operation::GetItem => 1.0,
                    _ => f64::from(pattern.page_size.unwrap_or(1)),
                };
                let bytes = items * item_bytes(entity) as f64;
                let mut units = (bytes / limits::READ_UNIT_BYTES as f64).ceil().max(1.0);
                if !pattern.consistent {
                    units /= 2.0;
                }
                let key = (t, pos, index.partition_group(position));
                add(
                    key,
                    member,
                    entity,
                    &index.keys.partition_key[0].name,
                    &pattern.name,
                    pattern.rate * units,
                    0.0,
                );
            }
            _ => {
                let steps: Vec<(Action, &str, u32, &[String], bool)> =
                    if pattern.action == Action::Transact {
                        pattern
                            .writes
                            .iter()
                            .map(|w| {
                                (
                                    w.action,
                                    w.entity.as_str(),
                                    w.count,
                                    w.changes.as_slice(),
                                    true,
                                )
                            })
                            .collect()
                    } else {
                        pattern
                            .entities
                            .iter()
                            .map(|n| {
                                (
                                    pattern.action,
                                    n.as_str(),
                                    1,
                                    pattern.changes.as_slice(),
                                    false,
                                )
                            })
                            .collect()
                    };
                for (action, name, count, changes, transactional) in steps {
                    let Some(&e) = prepared.entity_by_name.get(name) else {
                        continue;
                    };
                    let Some((t, _)) = prepared.homes[e] else {
                        continue;
                    };
                    let entity = prepared.entity(e);
                    let per_item = (item_bytes(entity) as f64 / limits::WRITE_UNIT_BYTES as f64)
                        .ceil()
                        .max(1.0);
                    let factor = if transactional { 2.0 } else { 1.0 };
                    for (pos, index) in prepared.tables[t].indexes.iter().enumerate() {
                        let Some(position) = prepared.member_position(index, e) else {
                            continue;
                        };
                        let member = &index.members[position];
                        let mut writes = 1.0;
                        if action == Action::Update && index.keys.kind != IndexKind::Table {
                            // An update touches an index only when it changes one of its keys;
                            // then it is a delete and a put there.
                            let touches = member
                                .partition
                                .iter()
                                .chain(&member.sort)
                                .any(|t| t.attribute_vars().any(|v| changes.contains(&v.name)));
                            if !touches {
                                continue;
                            }
                            writes = 2.0;
                        }
                        let key = (t, pos, index.partition_group(position));
                        add(
                            key,
                            member,
                            entity,
                            &index.keys.partition_key[0].name,
                            &pattern.name,
                            0.0,
                            pattern.rate * f64::from(count) * per_item * factor * writes,
                        );
                    }
                }
            }
        }
    }
    for key in order {
        let Some(load) = loads.get(&key) else {
            continue;
        };
        let shards = f64::from(load.shards);
        let checks = [
            (
                load.read_units,
                limits::PARTITION_READ_UNITS_PER_SECOND,
                "read",
                &load.read_patterns,
            ),
            (
                load.write_units,
                limits::PARTITION_WRITE_UNITS_PER_SECOND,
                "write",
                &load.write_patterns,
            ),
        ];
        for (units, limit, what, patterns) in checks {
            if units / shards <= limit {
                continue;
            }
            let needed = (units / limit).ceil() as u32;
            let fix = if load.shards > 1 {
                format!("raise its shards from {} to {needed}", load.shards)
            } else {
                format!(
                    "write-shard it into {needed} (`{}#SHARD{{shard:{needed}}}`) and read the shards in parallel",
                    load.template
                )
            };
            out.push(
                "KP014",
                Severity::Warning,
                load.place.clone(),
                format!(
                    "{} `{}` takes few values ({}), and {} can send about {:.0} {what} units a second to one of them{}, over one partition's {:.0}: {fix}",
                    load.key,
                    load.template,
                    load.why_few,
                    patterns
                        .iter()
                        .map(|p| format!("`{p}`"))
                        .collect::<Vec<_>>()
                        .join(" and "),
                    units / shards,
                    if load.shards > 1 {
                        format!(" per shard over {}", load.shards)
                    } else {
                        String::new()
                    },
                    limit
                ),
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
pub(super) fn item_collections(design: &Design, out: &mut Findings) {
    for table in design.tables.iter().filter(|t| !t.lsis.is_empty()) {
        let pk = &table.partition_key.name;
        // By partition-key template text: its entities with their bytes, and the template.
        let mut groups: Vec<Collection<'_>> = Vec::new();
        for entity in design.entities_in(&table.name) {
            let (Some(volume), Some(template)) = (entity.volume, entity.key_template(pk)) else {
                continue;
            };
            let item = item_bytes(entity) as f64 + limits::ITEM_STORAGE_OVERHEAD_BYTES as f64;
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
            let Some((share, why)) = collection_share(design, &members, &template) else {
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

/// The share of a partition template's items that its busiest value holds, and why.
fn collection_share(
    design: &Design,
    members: &[(&Entity, f64)],
    template: &KeyTemplate,
) -> Option<(f64, String)> {
    let mut share = 1.0;
    let mut why = Vec::new();
    for var in template.attribute_vars() {
        let attribute = members.iter().find_map(|(e, _)| e.attribute(&var.name));
        if let Some(few) = attribute.and_then(crate::concentration::few_values) {
            share *= few.busiest_share();
            why.push(few.to_string());
            continue;
        }
        if let Some(count) = attribute.and_then(|a| a.distinct) {
            share /= count.max(1) as f64;
            why.push(format!("`{}` takes about {count} values", var.name));
            continue;
        }
        // The entity this variable identifies: as many values as it has items.
        let identified = design.entities.iter().find(|e| {
            e.volume.is_some()
                && design
                    .table(&e.table)
                    .and_then(|t| e.identity(t))
                    .is_some_and(|id| id == var.name)
        })?;
        let count = identified.volume.map_or(1, |v| v.items).max(1);
        share /= count as f64;
        why.push(format!("one per `{}`: {count} of them", identified.name));
    }
    if why.is_empty() {
        why.push("a constant: one collection".to_string());
    }
    Some((share, why.join(", ")))
}

/// Why a partition key takes few values, or `None` when one of its variables can take many
/// (by [`crate::concentration::few_values`], the rule the cost report applies too).
fn few_values(entity: &Entity, templates: &[std::borrow::Cow<'_, KeyTemplate>]) -> Option<String> {
    let mut why = Vec::new();
    for var in templates.iter().flat_map(|t| t.attribute_vars()) {
        let a = entity.attribute(&var.name)?;
        why.push(crate::concentration::few_values(a)?.to_string());
    }
    if why.is_empty() {
        why.push("it is a constant".to_string());
    }
    Some(why.join(", "))
}

/// An entity's item size: its volume's when it gives one (measured, or expected by whoever
/// drew the design), else a rough one: attribute names plus a typical value, plus the keys.
pub(crate) fn item_bytes(entity: &Entity) -> usize {
    if let Some(bytes) = entity.volume.and_then(|v| v.item_bytes) {
        return usize::try_from(bytes).unwrap_or(usize::MAX);
    }
    let attributes: usize = entity
        .attributes
        .iter()
        .map(|a| {
            let value = match a.ty {
                AttrType::S => a.values.iter().map(String::len).max().unwrap_or(24),
                AttrType::N => 8,
                AttrType::B => 32,
                AttrType::Bool | AttrType::Null => 1,
                AttrType::M | AttrType::L => 128,
                AttrType::SS | AttrType::NS | AttrType::BS => 64,
            };
            a.name.len() + value
        })
        .sum();
    let keys: usize = entity
        .keys
        .iter()
        .map(|(k, t)| k.len() + t.source().len() + 16)
        .sum();
    attributes + keys
}
