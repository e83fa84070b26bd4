//! Input values for a read pattern picked from the stored items ([`pick_inputs`]): those of
//! the partition holding the most items of the pattern's first entity, with values for its
//! range and filter conditions that match some of them.

use std::collections::BTreeMap;

use super::key::KeyValue;
use super::plan::PlanError;
use super::store::{ItemStore, StoredItem};
use crate::answer::Verdict;
use crate::item::AttributeValue;
use crate::model::{AccessPattern, Design, Entity, FilterOp, KeyType, SortOp};

/// Input values for a pattern taken from the stored items: the inputs of the item of the
/// pattern's first entity whose partition (in the verdict's index) holds the most items of that
/// entity. A range condition's own value is taken from that partition so that it matches some
/// of its items: the first quarter for `>` and `>=`, the last for `<` and `<=`, the middle half
/// for `between`; `=` and `begins_with` take the anchor item's value.
pub fn pick_inputs(
    design: &Design,
    store: &ItemStore,
    verdict: &Verdict,
    pattern: &AccessPattern,
) -> Result<BTreeMap<String, String>, PlanError> {
    pick_inputs_by(&|name| design.entity(name), store, verdict, pattern)
}

/// An entity by name: [`Design::entity`], or [`ByName::entity`] for work over many patterns.
pub(super) type EntityLookup<'d, 'l> = &'l dyn Fn(&str) -> Option<&'d Entity>;

/// [`pick_inputs`] with the entities looked up by `entity_named`.
pub(super) fn pick_inputs_by(
    entity_named: EntityLookup<'_, '_>,
    store: &ItemStore,
    verdict: &Verdict,
    pattern: &AccessPattern,
) -> Result<BTreeMap<String, String>, PlanError> {
    let entity = pattern.entities.first().map_or("", String::as_str);
    let no_sample = || PlanError::NoSample(entity.to_string());
    let table_name = verdict.table.as_deref().ok_or_else(no_sample)?;
    let table = store.table(table_name).ok_or_else(no_sample)?;
    let index = table
        .index(verdict.index.as_deref())
        .ok_or_else(no_sample)?;
    let mut names: Vec<&str> = pattern.inputs.iter().map(String::as_str).collect();
    if let Some(spec) = &verdict.query {
        for part in spec.partition.iter().chain(&spec.sort_equal) {
            for var in part.template.attribute_vars() {
                if !names.contains(&var.name.as_str()) {
                    names.push(&var.name);
                }
            }
        }
    }
    let range_attribute = verdict
        .query
        .as_ref()
        .and_then(|s| s.sort_condition.as_ref())
        .and(pattern.sort.as_ref())
        .map(|s| s.attribute.as_str());
    names.retain(|n| Some(*n) != range_attribute);
    // Group this entity's items in the index by their input values: sorted by them (a few
    // items per entity, so sorting is cheaper than hashing), each group a run. The largest
    // group wins, the smallest key among equals. The keys are kept side by side in one
    // vector, `names.len()` values an item, instead of a vector per item: the cost estimate
    // picks inputs for 30,000 patterns at 10,000 entities (issue 13).
    // Both sized for every item up front: grown by doubling, they were a fifth of this work.
    let width = names.len();
    let of_entity = table.items_of(index, entity);
    let mut texts: Vec<&str> = Vec::with_capacity(of_entity.len() * width);
    let mut keyed: Vec<&StoredItem> = Vec::with_capacity(of_entity.len());
    for stored in of_entity {
        let start = texts.len();
        for name in &names {
            match stored.item.get(*name).and_then(|v| v.as_key_text()) {
                Some(value) => texts.push(value),
                None => break,
            }
        }
        if texts.len() - start == width {
            keyed.push(stored);
        } else {
            texts.truncate(start);
        }
    }
    let key_of = |at: usize| &texts[at * width..(at + 1) * width];
    let mut order: Vec<usize> = (0..keyed.len()).collect();
    order.sort_by(|&a, &b| key_of(a).cmp(key_of(b)));
    let mut best: Option<&[usize]> = None;
    for group in order.chunk_by(|&a, &b| key_of(a) == key_of(b)) {
        if best.is_none_or(|b| group.len() > b.len()) {
            best = Some(group);
        }
    }
    let group = best.ok_or_else(no_sample)?;
    let items: Vec<&StoredItem> = group.iter().map(|&at| keyed[at]).collect();
    let mut inputs: BTreeMap<String, String> = names
        .into_iter()
        .zip(key_of(group[0]))
        .map(|(name, value)| (name.to_string(), value.to_string()))
        .collect();
    if let (Some(attribute), Some(sort)) = (range_attribute, &pattern.sort) {
        let ty = entity_named(entity)
            .and_then(|e| e.attribute(attribute))
            .and_then(|a| a.ty.as_key_type())
            .unwrap_or(KeyType::S);
        let mut values: Vec<(KeyValue, &str)> = items
            .iter()
            .filter_map(|s| s.item.get(attribute))
            .filter_map(|v| {
                let text = v.as_key_text()?;
                let typed = KeyValue::from_attribute(v, ty).ok()?;
                Some((typed, text))
            })
            .collect();
        values.sort();
        if !values.is_empty() {
            let n = values.len();
            let (value, upper) = match sort.op {
                SortOp::Gt | SortOp::Ge => (n / 4, None),
                SortOp::Lt | SortOp::Le => (n - 1 - n / 4, None),
                SortOp::Between => (n / 4, Some(n - 1 - n / 4)),
                SortOp::Eq | SortOp::BeginsWith => (0, None),
            };
            inputs.insert(attribute.to_string(), values[value].1.to_string());
            if let Some(upper) = upper {
                // `between` has two bounds: `{name}` is the lower, `{name_to}` the upper.
                inputs.insert(format!("{attribute}_to"), values[upper].1.to_string());
            }
        }
    }
    if let Some(expression) = &verdict.filter {
        let terms = expression
            .terms
            .iter()
            .filter(|t| t.source == crate::answer::FilterSource::Filter);
        for term in terms {
            pick_filter_values(term, &items, || table.items_of(index, entity), &mut inputs);
        }
    }
    Ok(inputs)
}

/// Values for a filter condition's inputs (those not given already), taken as a request
/// would plausibly send them: from the anchor partition's items (`group`), else from any of
/// the entity's (`all`). `=`, `<>` and begins_with take the first item's value, contains an
/// element of it (or the string itself), a range the quartiles as [`pick_inputs`] takes a
/// sort condition's, in the first distinct values.
fn pick_filter_values<'s, I: Iterator<Item = &'s StoredItem>>(
    term: &crate::answer::FilterTerm,
    group: &[&'s StoredItem],
    all: impl FnOnce() -> I,
    inputs: &mut BTreeMap<String, String>,
) {
    if term.inputs.iter().all(|name| inputs.contains_key(name)) {
        return;
    }
    let of = |stored: &&StoredItem| stored.item.get(&term.attribute).cloned();
    let mut found: Vec<AttributeValue> = group.iter().filter_map(of).collect();
    if found.is_empty() {
        found = all().filter_map(|s| of(&s)).collect();
    }
    let text = |value: &AttributeValue| -> Option<String> {
        match value {
            AttributeValue::Bool(b) => Some(b.to_string()),
            AttributeValue::SS(set) | AttributeValue::NS(set) | AttributeValue::BS(set) => {
                set.first().cloned()
            }
            AttributeValue::L(list) => list.first()?.as_key_text().map(str::to_string),
            other => other.as_key_text().map(str::to_string),
        }
    };
    let Some(first) = found.first().and_then(text) else {
        return;
    };
    let mut sorted: Vec<(Option<KeyValue>, String)> = found
        .iter()
        .filter_map(|v| {
            let typed = [KeyType::S, KeyType::N, KeyType::B]
                .into_iter()
                .find_map(|ty| KeyValue::from_attribute(v, ty).ok());
            Some((typed, text(v)?))
        })
        .collect();
    sorted.sort();
    sorted.dedup();
    let n = sorted.len();
    let chosen: Vec<String> = match term.op {
        FilterOp::Gt | FilterOp::Ge => vec![sorted[n / 4].1.clone()],
        FilterOp::Lt | FilterOp::Le => vec![sorted[n - 1 - n / 4].1.clone()],
        FilterOp::Between => vec![sorted[n / 4].1.clone(), sorted[n - 1 - n / 4].1.clone()],
        FilterOp::In => sorted.iter().map(|(_, t)| t.clone()).collect(),
        _ => vec![first],
    };
    for (i, name) in term.inputs.iter().enumerate() {
        // An `in` of more values than the sample has repeats the last.
        if let Some(value) = chosen.get(i).or(chosen.last()) {
            inputs.entry(name.clone()).or_insert_with(|| value.clone());
        }
    }
}
