//! A read's verdict: the returned entities and their table checked, every index asked for its
//! [`Candidate`], the cheapest chosen with the reasons it beat the others; or, when none
//! serves, a Scan with each index's reason and a suggested index.

use super::candidate::{Candidate, ReadContext};
use super::names::unknown_attributes;
use super::prepared::{Prepared, index_label};
use super::{Words, empty_verdict, filter, key_condition_text, suggest};
use crate::accepts;
use crate::answer::{Operation, SortKeyCondition, Verdict};
use crate::model::{AccessPattern, Entity, IndexKind, Order, SortOp};

pub(super) fn read_verdict(
    prepared: &Prepared<'_>,
    pattern: &AccessPattern,
    words: Words,
) -> Verdict {
    read_verdict_on(prepared, pattern, words, None)
}

/// [`read_verdict`] with only the index named by `only` asked (`Some(None)`: the table's
/// own key), as a PartiQL statement that names its index is served (issue 40).
pub(super) fn read_verdict_on(
    prepared: &Prepared<'_>,
    pattern: &AccessPattern,
    words: Words,
    only: Option<Option<&str>>,
) -> Verdict {
    let asked = |name: Option<&str>| only.is_none_or(|only| only == name);
    let mut verdict = empty_verdict(pattern, Operation::Scan);
    let Some((table_idx, returned)) = home_of(prepared, pattern, &mut verdict) else {
        return verdict;
    };
    let table = &prepared.tables[table_idx];
    verdict.table = Some(table.table.name.clone());
    let entities: Vec<&Entity> = returned.iter().map(|&i| prepared.entity(i)).collect();
    // A filter DynamoDB refuses (begins_with on a number) fails the request on every index: no
    // read serves the pattern, and no index would.
    for condition in &pattern.filter {
        let ty = entities
            .iter()
            .find_map(|e| e.attribute(&condition.attribute))
            .map(|a| a.ty);
        if let Some(ty) = ty
            && let Err(refusal) = accepts::filter_condition(&condition.attribute, ty, condition.op)
        {
            verdict
                .reasons
                .push(format!("DynamoDB refuses it: {refusal}"));
            return verdict;
        }
    }
    let unknown = unknown_attributes(pattern, &entities);
    let mut ctx = ReadContext {
        prepared,
        pattern,
        returned: &returned,
        explain: false,
    };
    // An index without the first returned entity serves nothing: passed over before building
    // a candidate, since most of a big table's indexes hold none of its entities (21 indexes,
    // one holding a given entity, for 50,000 patterns; issue 13).
    let mut candidates: Vec<Candidate<'_>> = table
        .indexes
        .iter()
        .enumerate()
        .filter(|(_, index)| prepared.member_position(index, returned[0]).is_some())
        .filter(|(_, index)| asked(index.keys.name))
        .filter_map(|(position, index)| ctx.filtered_candidate(position, index).ok())
        .collect();
    candidates.sort_by_key(Candidate::rank);
    let mut candidates = candidates.into_iter();
    let Some(best) = candidates.next() else {
        if words == Words::Left {
            verdict.filter = filter::expression(filter::scan_terms(pattern), None);
            return verdict;
        }
        // No index serves it: ask each again, this time for its reason.
        ctx.explain = true;
        verdict.reasons = unknown
            .iter()
            .map(|u| u.to_string())
            .chain(
                table
                    .indexes
                    .iter()
                    .enumerate()
                    .filter(|(_, index)| asked(index.keys.name))
                    .filter_map(|(position, index)| {
                        let reason = ctx.filtered_candidate(position, index).err()?;
                        let label = index_label(&index.keys);
                        let mut line = String::with_capacity(label.len() + 2 + reason.len());
                        line.push_str(label);
                        line.push_str(": ");
                        line.push_str(&reason);
                        Some(line)
                    }),
            )
            .collect();
        // An index keyed on an attribute the entities do not have would serve nothing.
        if unknown.is_empty() {
            verdict.suggestions = suggest::suggestion(&ctx, table).into_iter().collect();
        }
        if let (Some(cond), Some(by)) = (&pattern.sort, &pattern.order_by)
            && cond.attribute != *by
        {
            verdict.reasons.insert(
                0,
                format!(
                    "a Query returns a range in the order of its attribute: it cannot narrow by `{}` and order by `{by}`; sort after the read, or order by `{}`",
                    cond.attribute, cond.attribute
                ),
            );
        }
        if verdict.suggestions.is_empty() && pattern.inputs.is_empty() {
            verdict.reasons.insert(
                0,
                "the pattern has no inputs yet: name the attributes the caller knows".to_string(),
            );
        }
        verdict.filter = filter::expression(filter::scan_terms(pattern), None);
        return verdict;
    };
    let mut best = best;
    let mut reasons: Vec<String> = Vec::new();
    if words == Words::Written {
        reasons.extend(unknown.iter().map(|u| u.to_string()));
        reasons.extend(best.notes(prepared));
    }
    // GetItem takes no FilterExpression: a Query on the whole key reads the same one item
    // and applies the filter (issue 16).
    if best.operation == Operation::GetItem && !pattern.filter.is_empty() {
        best.operation = Operation::Query;
        // The sort key's equality becomes the Query's sort-key condition (a table with no
        // sort key has only its partition key's).
        if let Some(last) = best.query.sort_equal.pop() {
            best.query.sort_condition = Some(SortKeyCondition {
                attribute: last.attribute,
                op: SortOp::Eq,
                values: vec![last.template],
            });
        }
        if words == Words::Written {
            reasons.push(
                "GetItem takes no FilterExpression: a Query on the whole key reads the same item and applies the filter"
                    .to_string(),
            );
        }
    }
    if words == Words::Written {
        for other in candidates {
            reasons.push(why_better(&best, &other));
        }
    }
    verdict.operation = best.operation;
    verdict.covered = true;
    verdict.index = best.keys.name.map(str::to_string);
    verdict.key_condition = Some(key_condition_text(&best.query));
    if best.operation == Operation::Query {
        verdict.filter = filter::expression(
            filter::query_terms(pattern, &best.unused_inputs),
            verdict.key_condition.as_ref(),
        );
    }
    // A number inside a string sort key sorts as text (KP021): the order is not the numbers'.
    let sorts_as_text = |by: &str| {
        returned.iter().any(|&idx| {
            prepared
                .entity(idx)
                .attribute(by)
                .is_some_and(|a| a.ty == crate::model::AttrType::N)
        })
    };
    verdict.order = order_text(pattern, &best, sorts_as_text);
    if best.sorted_in_memory.is_some() {
        verdict.sorted_in_memory = pattern.order_by.clone();
        if words == Words::Written {
            verdict.suggestions = super::re_key::re_key(&ctx, &best)
                .into_iter()
                .chain(suggest::suggestion(&ctx, table))
                .collect();
        }
    }
    verdict.query = Some(best.query);
    verdict.shards = best.shards;
    verdict.reasons = reasons;
    verdict
}

/// The order a Query gives, in words, when the pattern names one or reads descending.
/// `sorts_as_text` says whether an attribute ordered by through a key template is a number,
/// which the string key sorts as text.
fn order_text(
    pattern: &AccessPattern,
    best: &Candidate<'_>,
    sorts_as_text: impl Fn(&str) -> bool,
) -> Option<String> {
    if pattern.order_by.is_none() && pattern.order == Order::Asc {
        return None;
    }
    let descending = pattern.order == Order::Desc;
    if best.sorted_in_memory.is_some()
        && let Some(by) = &pattern.order_by
    {
        return Some(format!(
            "not in that order: every matching item is read and sorted by {by} in memory, {} (cannot be paged by {by})",
            super::order::words(by, descending)
        ));
    }
    let (sort_key, by) = best.ordered_by.as_ref()?;
    // issue 43: such an order was shown as a clean ascending one.
    // A key attribute of its own (a multi-attribute key's `createdAt`) keeps its type.
    if let Some(by) = by.as_deref()
        && by != sort_key
        && sorts_as_text(by)
    {
        return Some(format!(
            "by {by} as text, not as numbers (`10` before `2`: KP021), {} (ScanIndexForward={} on {sort_key})",
            if descending {
                "descending"
            } else {
                "ascending"
            },
            !descending
        ));
    }
    let by = by.as_deref().unwrap_or(sort_key);
    Some(format!(
        "{} by {by} (ScanIndexForward={} on {sort_key})",
        super::order::words(by, descending),
        !descending
    ))
}

/// One sentence saying why `best` beat `other`, by the first criterion that differs.
fn why_better(best: &Candidate<'_>, other: &Candidate<'_>) -> String {
    let (b, o) = (best.rank(), other.rank());
    let name = index_label(&best.keys);
    let other_name = index_label(&other.keys);
    let why = if b.0 != o.0 {
        "it reads in the pattern's order, a page at a time; the other sorts every matching item in memory".to_string()
    } else if b.1 != o.1 {
        "a GetItem reads exactly one item by its full key".to_string()
    } else if b.2 != o.2 {
        format!(
            "its key uses more of the inputs ({} left to filter instead of {})",
            b.2, o.2
        )
    } else if b.3 != o.3 {
        match best.keys.kind {
            IndexKind::Lsi => {
                "an LSI shares the table's partitions and can read consistently".to_string()
            }
            _ => "a Query on the table needs no index (no extra writes or storage) and can read consistently".to_string(),
        }
    } else if b.4 != o.4 {
        match b.4 {
            1 => format!("one Query instead of {} (one per shard)", o.4),
            n => format!(
                "{n} Queries instead of {} (fewer shards to scatter over)",
                o.4
            ),
        }
    } else if b.5 != o.5 {
        format!("it reads {} other entity type(s) instead of {}", b.5, o.5)
    } else {
        "it comes first in the table's index order".to_string()
    };
    format!("chose {name} over {other_name}, which also serves it: {why}")
}

/// The table a read's returned entities live in and their indexes in the design, or `None`
/// with the reason written to `verdict` (an unknown entity, no entity, entities of two tables).
/// The vector search ([`super::vector`]) asks the same.
pub(super) fn home_of(
    prepared: &Prepared<'_>,
    pattern: &AccessPattern,
    verdict: &mut Verdict,
) -> Option<(usize, Vec<usize>)> {
    let mut returned = Vec::with_capacity(pattern.entities.len());
    for name in &pattern.entities {
        match prepared.entity_by_name.get(name.as_str()) {
            Some(&idx) => returned.push(idx),
            None => verdict.reasons.push(format!("unknown entity `{name}`")),
        }
    }
    if pattern.entities.is_empty() {
        verdict
            .reasons
            .push("the pattern returns no entity: name the entities it reads".to_string());
    }
    if !verdict.reasons.is_empty() {
        return None;
    }
    let mut table_idx = None;
    for &idx in &returned {
        let entity = prepared.entity(idx);
        match prepared.homes[idx] {
            None => {
                verdict.reasons.push(format!(
                    "{} lives in unknown table `{}`",
                    entity.name, entity.table
                ));
                return None;
            }
            Some((t, _)) => match table_idx {
                None => table_idx = Some(t),
                Some(first) if first != t => {
                    verdict.reasons.push(format!(
                        "{} and {} live in different tables (`{}` and `{}`): one request cannot read both",
                        prepared.entity(returned[0]).name,
                        entity.name,
                        prepared.tables[first].table.name,
                        entity.table
                    ));
                    return None;
                }
                Some(_) => {}
            },
        }
    }
    Some((table_idx?, returned))
}
