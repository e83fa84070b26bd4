//! The index that would serve a read no index serves, stated as key templates.
//!
//! The partition key is made of the pattern's inputs, each behind a type prefix
//! (`STATUS#{status}`, `ORDER#{orderId}` for an entity's own id); the sort key is the sort
//! condition's attribute then the entity's id (`{createdAt}#{orderId}`), or the id alone, so
//! the keys stay unique and ordered. A read that needs strong consistency cannot use a GSI, so
//! it gets an LSI or a table key instead. A GSI the entities do not fill yet serves before a
//! new one: the suggestion names it, and applying it overloads that index.

use super::{PreparedTable, ReadContext, shape};
use crate::answer::{Suggestion, SuggestionKind};
use crate::model::{Entity, IndexKind, KeyAttribute, KeyType, Projection};

pub(super) fn suggestion(
    ctx: &ReadContext<'_, '_>,
    table: &PreparedTable<'_>,
) -> Option<Suggestion> {
    let pattern = ctx.pattern;
    let entities: Vec<&Entity> = ctx
        .returned
        .iter()
        .map(|&i| ctx.prepared.entity(i))
        .collect();
    let single = entities.len() == 1;
    let ordered = pattern
        .sort
        .as_ref()
        .map(|c| c.attribute.as_str())
        .or(pattern.order_by.as_deref());
    // With no inputs, the only key is a constant: every item in one partition. That is worth
    // suggesting only for a read that needs an order across all of them, and then with the
    // hot-partition warning; a pattern that just has no inputs yet gets no suggestion.
    if pattern.inputs.is_empty() && ordered.is_none() {
        return None;
    }
    // A pattern that contradicts itself (KP023) is to be fixed, not indexed.
    if !super::contradictions(pattern).is_empty() {
        return None;
    }
    // A Query returns a range in its attribute's order: no key narrows by one attribute and
    // orders by another.
    if let (Some(cond), Some(by)) = (&pattern.sort, &pattern.order_by)
        && cond.attribute != *by
    {
        return None;
    }
    let partition = if pattern.inputs.is_empty() {
        screaming(&entities.first()?.name)
    } else {
        pattern
            .inputs
            .iter()
            .map(|input| format!("{}#{{{input}}}", label(input, &entities)))
            .collect::<Vec<_>>()
            .join("#")
    };
    let warning = pattern.inputs.is_empty().then(|| {
        format!(
            "a constant partition key puts every {} in one partition, which serves at most {} reads and {} writes a second: shard it (`{partition}#{{shard:10}}`) before traffic grows",
            entities.iter().map(|e| e.name.as_str()).collect::<Vec<_>>().join(" and "),
            crate::limits::PARTITION_READ_UNITS_PER_SECOND,
            crate::limits::PARTITION_WRITE_UNITS_PER_SECOND,
        )
    });
    let id = id_attribute(entities.first()?)
        .filter(|id| single && !pattern.inputs.iter().any(|i| i == id));
    let sort = match (ordered, id) {
        (Some(by), Some(id)) if by != id => Some(format!("{{{by}}}#{{{id}}}")),
        (Some(by), _) => Some(format!("{{{by}}}")),
        (None, Some(id)) => Some(format!("{{{id}}}")),
        (None, None) => None,
    };
    let names = entities.iter().map(|e| e.name.clone()).collect();
    let many = if single {
        String::new()
    } else {
        format!(
            " (each of {} filling both keys)",
            entities
                .iter()
                .map(|e| e.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    if pattern.consistent {
        // An LSI keeps the table's partition key: it helps when the inputs bind it.
        let table_partition_bound = table.indexes.first().is_some_and(|index| {
            ctx.returned.iter().all(|&e| {
                ctx.prepared.member(index, e).is_some_and(|m| {
                    m.partition
                        .iter()
                        .all(|t| t.attribute_vars().all(|v| pattern.inputs.contains(&v.name)))
                })
            })
        });
        return Some(match (table_partition_bound, sort) {
            (true, Some(sort)) => Suggestion {
                text: format!(
                    "an LSI with sort key `{sort}` would serve it{many} (an LSI reads consistently; it can only be added when the table is created)"
                ),
                kind: SuggestionKind::Lsi,
                index: None,
                partition: None,
                sort: Some(sort),
                entities: names,
                warning: None,
            },
            (_, sort) => Suggestion {
                text: format!(
                    "a strongly consistent read needs the table's own key (a GSI is eventually consistent): key the table by partition key `{partition}`{}{many}, or drop the consistency need and add a GSI with those keys",
                    sort.as_ref()
                        .map(|s| format!(" and sort key `{s}`"))
                        .unwrap_or_default()
                ),
                kind: SuggestionKind::TableKey,
                index: None,
                partition: Some(partition),
                sort,
                entities: names,
                warning,
            },
        });
    }
    if let Some((index, sort)) = overloadable(ctx, table, &partition, sort.as_deref(), &entities) {
        let who = entities
            .iter()
            .map(|e| e.name.as_str())
            .collect::<Vec<_>>()
            .join(" or ");
        let whom = entities
            .iter()
            .map(|e| e.name.as_str())
            .collect::<Vec<_>>()
            .join(" and ");
        let keys = match &sort {
            Some(sort) => format!("partition key `{partition}` and sort key `{sort}`"),
            None => format!("partition key `{partition}`"),
        };
        return Some(Suggestion {
            kind: SuggestionKind::Gsi,
            text: format!(
                "{index} holds no {who} yet: give {whom} {keys} on it to serve it, with no new index"
            ),
            index: Some(index.to_string()),
            partition: Some(partition),
            sort,
            entities: names,
            warning,
        });
    }
    let text = match &sort {
        Some(sort) => format!(
            "a GSI with partition key `{partition}` and sort key `{sort}` would serve it{many}"
        ),
        None => format!("a GSI with partition key `{partition}` would serve it{many}"),
    };
    Some(Suggestion {
        kind: SuggestionKind::Gsi,
        index: None,
        partition: Some(partition),
        sort,
        entities: names,
        text,
        warning,
    })
}

/// A GSI of `table` that can serve the read as it is, overloaded: the first whose keys are one
/// string attribute each, that projects every attribute, that none of the returned `entities`
/// fills yet, whose sort key is there exactly when the read needs one (a read that needs none
/// fills it with the entity's type, `ORDER`, when it is one entity), and none of whose items
/// can share a partition with the new key (they would be read with it). Returns its name and
/// the sort template to give it. A design keeps few GSIs (KP006): one that holds none of these
/// entities is used before a new one is added (issue 43).
fn overloadable<'a>(
    ctx: &ReadContext<'_, 'a>,
    table: &'a PreparedTable<'a>,
    partition: &str,
    sort: Option<&str>,
    entities: &[&Entity],
) -> Option<(&'a str, Option<String>)> {
    let partition = crate::template::KeyTemplate::parse(partition);
    table.indexes.iter().find_map(|index| {
        let keys = &index.keys;
        let one_string = |k: &[KeyAttribute]| matches!(k, [k] if k.ty == KeyType::S);
        if keys.kind != IndexKind::Gsi
            || *keys.projection != Projection::All
            || !one_string(keys.partition_key)
            || !(keys.sort_key.is_empty() || one_string(keys.sort_key))
        {
            return None;
        }
        let filled = keys
            .partition_key
            .iter()
            .chain(keys.sort_key)
            .any(|k| entities.iter().any(|e| e.key_template(&k.name).is_some()));
        if filled {
            return None;
        }
        let sort = match (sort, keys.sort_key.is_empty()) {
            (Some(_), true) => return None,
            (Some(sort), false) => Some(sort.to_string()),
            (None, true) => None,
            (None, false) => match entities {
                [only] => Some(screaming(&only.name)),
                _ => return None,
            },
        };
        let shared = index.members.iter().any(|m| {
            !ctx.returned.contains(&m.entity)
                && shape::can_equal(m.partition[0].parts(), partition.parts())
        });
        if shared {
            return None;
        }
        Some((keys.name?, sort))
    })
}

/// The type prefix for an input: the entity's name for its own id (`orderId` of Order ->
/// `ORDER`), the stem of another id (`customerId` -> `CUSTOMER`), else the input's name
/// (`fulfillmentCenter` -> `FULFILLMENT_CENTER`).
fn label(input: &str, entities: &[&Entity]) -> String {
    if let Some(e) = entities.iter().find(|e| id_attribute(e) == Some(input)) {
        return screaming(&e.name);
    }
    let stem = input
        .strip_suffix("Id")
        .or_else(|| input.strip_suffix("ID"))
        .or_else(|| input.strip_suffix("_id"))
        .filter(|s| !s.is_empty())
        .unwrap_or(input);
    screaming(stem)
}

/// The attribute that identifies an item of `entity`: `orderId` for Order, or `id`, else the
/// first attribute named like an id.
pub(crate) fn id_attribute(entity: &Entity) -> Option<&str> {
    let mut own = String::new();
    let mut chars = entity.name.chars();
    if let Some(c) = chars.next() {
        own.extend(c.to_lowercase());
        own.push_str(chars.as_str());
    }
    own.push_str("Id");
    let names = || entity.attributes.iter().map(|a| a.name.as_str());
    names()
        .find(|n| n.eq_ignore_ascii_case(&own) || n.eq_ignore_ascii_case("id"))
        .or_else(|| names().find(|n| n.ends_with("Id") || n.ends_with("ID") || n.ends_with("_id")))
}

/// `fulfillmentCenter` -> `FULFILLMENT_CENTER`, `OrderItem` -> `ORDER_ITEM`.
pub(crate) fn screaming(name: &str) -> String {
    let mut out = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if c.is_uppercase() && prev_lower {
            out.push('_');
        }
        prev_lower = c.is_lowercase() || c.is_ascii_digit();
        if c == '-' || c == ' ' {
            out.push('_');
        } else {
            out.extend(c.to_uppercase());
        }
    }
    out
}

#[cfg(test)]
mod tests;
