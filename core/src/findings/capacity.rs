//! KP014: hot partitions. A partition key that takes few values (a constant, an enum, a date,
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
use crate::model::{Action, AttrType, Entity, IndexKind};
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

/// A rough item size: attribute names plus a typical value, plus the key attributes.
pub(crate) fn item_bytes(entity: &Entity) -> usize {
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
