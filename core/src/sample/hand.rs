//! Sample items written by hand ([`HandItem`]): put into the generated sample as a PutItem
//! puts an item ([`put`]), and checked against their entity's key templates ([`misfits`]), since
//! an edit can change a key, or an attribute a key is made of, so that the item no longer sits
//! where the design would write it.

use std::collections::HashSet;

use super::{SampleData, SampleItem};
use crate::eval::render_key;
use crate::item::{AttributeValue, Item};
use crate::model::{Design, HandItem, Table};

/// The identity of an item of `table`: its table and the text of each primary key attribute
/// (`None` where one is missing), as a PutItem finds the item it replaces.
fn identity(table: &str, primary: &[&str], item: &Item) -> String {
    let mut out = String::from(table);
    for name in primary {
        out.push('\u{0}');
        match item.get(*name) {
            Some(value) => {
                out.push(type_tag(value));
                out.push_str(value.as_key_text().unwrap_or_default());
            }
            None => out.push('-'),
        }
    }
    out
}

fn type_tag(value: &AttributeValue) -> char {
    match value {
        AttributeValue::N(_) => 'N',
        AttributeValue::B(_) => 'B',
        _ => 'S',
    }
}

fn primary_names(table: Option<&Table>) -> Vec<&str> {
    table
        .map(|t| t.primary_key().map(|k| k.name.as_str()).collect())
        .unwrap_or_default()
}

/// Puts the design's hand items into `data`, in order, after the generated and imported items:
/// each replaces the item its `replaces` names and any item of its table with its own primary
/// key (a later hand item so replaces an earlier one). One walk of the sample, however many.
pub(super) fn put(design: &Design, data: &mut SampleData) {
    if design.hand_items.is_empty() {
        return;
    }
    let mut gone: HashSet<String> = HashSet::with_capacity(design.hand_items.len() * 2);
    let mut kept: Vec<(String, &HandItem)> = Vec::with_capacity(design.hand_items.len());
    for hand in &design.hand_items {
        let primary = primary_names(design.table(&hand.table));
        if let Some(replaced) = &hand.replaces {
            gone.insert(identity(&hand.table, &primary, replaced));
        }
        let own = identity(&hand.table, &primary, &hand.item);
        kept.retain(|(key, _)| *key != own);
        gone.insert(own.clone());
        kept.push((own, hand));
    }
    data.items.retain(|sample| {
        let primary = primary_names(design.table(&sample.table));
        !gone.contains(&identity(&sample.table, &primary, &sample.item))
    });
    data.items
        .extend(kept.into_iter().map(|(_, hand)| SampleItem {
            table: hand.table.clone(),
            entity: Some(hand.entity.clone()),
            item: hand.item.clone(),
        }));
}

/// Why a hand item does not sit where its entity's templates would write it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Misfit {
    /// The position of the item in [`Design::hand_items`].
    pub at: usize,
    pub message: String,
}

/// Every way each hand item departs from its entity's key templates: a key attribute whose
/// value is not what the template makes of the item's attributes, one the template needs an
/// attribute for that the item lacks, a primary key missing (the table would refuse the item),
/// an entity or table that is gone. An index key the item lacks with the template's attribute
/// missing too is no misfit: the item is not in that (sparse) index.
pub fn misfits(design: &Design) -> Vec<Misfit> {
    let mut out = Vec::new();
    for (at, hand) in design.hand_items.iter().enumerate() {
        let mut say = |message: String| out.push(Misfit { at, message });
        let Some(entity) = design.entity(&hand.entity) else {
            say(format!("its entity `{}` is not in the design", hand.entity));
            continue;
        };
        let Some(table) = design.table(&hand.table) else {
            say(format!("its table `{}` is not in the design", hand.table));
            continue;
        };
        let primary = primary_names(Some(table));
        // The keys of an index the item is not in: one of its keys the item lacks and the
        // entity's template cannot make of its attributes (sparse), so the others say nothing.
        let unmade = |name: &str| {
            !hand.item.contains_key(name)
                && entity.key_template(name).is_none_or(|t| {
                    render_key(t.as_ref(), crate::model::KeyType::S, |v| {
                        hand.item.get(&v.name).cloned()
                    })
                    .is_none()
                })
        };
        let mut outside: HashSet<&str> = HashSet::new();
        let indexes = table
            .gsis
            .iter()
            .map(|g| {
                g.partition_key
                    .iter()
                    .chain(&g.sort_key)
                    .collect::<Vec<_>>()
            })
            .chain(table.lsis.iter().map(|l| vec![&l.sort_key]));
        for keys in indexes {
            if keys.iter().any(|k| unmade(&k.name)) {
                outside.extend(keys.iter().map(|k| k.name.as_str()));
            }
        }
        for key in table.key_attributes() {
            let is_primary = primary.contains(&key.name.as_str());
            if !is_primary && outside.contains(key.name.as_str()) {
                continue;
            }
            let found = hand.item.get(&key.name);
            let Some(template) = entity.key_template(&key.name) else {
                if is_primary && found.is_none() {
                    say(format!("it has no {}: the table refuses it", key.name));
                }
                continue;
            };
            if template.vars().any(|v| v.shards.is_some()) {
                // A shard is drawn, not made of the item: any value of the right shape fits;
                // only a missing primary key is said.
                if is_primary && found.is_none() {
                    say(format!("it has no {}: the table refuses it", key.name));
                }
                continue;
            }
            let made = render_key(template.as_ref(), key.ty, |v| {
                hand.item.get(&v.name).cloned()
            });
            let show = |v: &AttributeValue| v.as_key_text().unwrap_or("?").to_string();
            match (found, made) {
                (Some(value), Some(made)) if *value != made => say(format!(
                    "{} is `{}`, but {}'s template `{template}` makes `{}` of its attributes",
                    key.name,
                    show(value),
                    entity.name,
                    show(&made),
                )),
                (None, Some(made)) => say(format!(
                    "it has no {}, which {}'s template `{template}` makes `{}` of its attributes",
                    key.name,
                    entity.name,
                    show(&made),
                )),
                (Some(value), None) => say(format!(
                    "{} is `{}`, but {}'s template `{template}` needs attributes the item lacks",
                    key.name,
                    show(value),
                    entity.name,
                )),
                (None, None) if is_primary => say(format!(
                    "it has no {}, and {}'s template `{template}` needs attributes the item lacks: the table refuses it",
                    key.name, entity.name,
                )),
                _ => {}
            }
        }
    }
    out
}

#[cfg(test)]
mod tests;
