//! The re-keyed sort key a Query sorted in memory is offered (issue 43): the order's attribute
//! put first after the bound prefix (`ORDER#{orderId}` read by `createdAt` becomes
//! `ORDER#{createdAt}#{orderId}`), so the Query reads in order, a page at a time.

use super::candidate::Candidate;
use super::{ReadContext, shape};
use crate::answer::{Suggestion, SuggestionKind};
use crate::model::{Entity, KeyType};
use crate::template::{KeyTemplate, Part, Span, Var};

/// For a Query that sorts in memory because its sort key continues with another variable
/// after the bound prefix (`ORDER#{orderId}` read by `createdAt`): the sort key re-keyed with
/// the order's attribute first (`ORDER#{createdAt}#{orderId}`), so the Query reads in order, a
/// page at a time. Every returned entity is re-keyed alike; `None` when one sort key is not a
/// single string attribute or a template does not continue after its bound prefix.
pub(super) fn re_key(ctx: &ReadContext<'_, '_>, best: &Candidate<'_>) -> Option<Suggestion> {
    let pattern = ctx.pattern;
    let by = pattern.order_by.as_deref()?;
    if pattern.sort.as_ref().is_some_and(|c| c.attribute != by) {
        return None;
    }
    let [sort_key] = best.keys.sort_key else {
        return None;
    };
    if sort_key.ty != KeyType::S {
        return None;
    }
    let mut templates = ctx.returned.iter().map(|&e| {
        let entity = ctx.prepared.entity(e);
        let template = entity.key_template(&sort_key.name)?;
        let prefix =
            shape::bound_prefix(&template, |name| pattern.inputs.iter().any(|i| i == name));
        let next = prefix.next?;
        if next.name == by {
            return None;
        }
        let mut parts = prefix.parts.clone();
        parts.push(Part::Var(Var {
            name: by.to_string(),
            shards: None,
            span: Span::new(0, 0),
        }));
        shape::push_literal(&mut parts, "#");
        parts.push(Part::Var(next.clone()));
        parts.extend(prefix.rest.iter().cloned());
        Some(KeyTemplate::from_parts(&parts).source().to_string())
    });
    let first = templates.next()??;
    if !templates.all(|t| t.as_deref() == Some(first.as_str())) {
        return None;
    }
    let entities: Vec<&Entity> = ctx
        .returned
        .iter()
        .map(|&i| ctx.prepared.entity(i))
        .collect();
    let names = entities
        .iter()
        .map(|e| format!("{}'s", e.name))
        .collect::<Vec<_>>()
        .join(" and ");
    let words = super::order::words(by, pattern.order == crate::model::Order::Desc);
    Some(Suggestion {
        kind: SuggestionKind::SortKey,
        index: best.keys.name.map(str::to_string),
        partition: None,
        text: format!(
            "re-key {names} {} as `{first}`: the Query then reads {words} a page at a time (the items already stored need rewriting: plan the migration)",
            sort_key.name
        ),
        sort: Some(first),
        entities: entities.iter().map(|e| e.name.clone()).collect(),
        warning: None,
    })
}
