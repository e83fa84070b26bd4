//! The write simulation: the requests a write pattern sends on the sample items and what the
//! tables hold after them, next to the evaluator that predicts the reads (issue 14: it was
//! about 250 lines of design reasoning in the server's runner, which only executes plans).
//!
//! A [`Simulation`] takes a design's write patterns one after the other, as a run sends them,
//! and simulates each on the state the earlier ones left (issue 41: two updates of one entity
//! were each predicted on the sample as loaded, while the engine held the first one's change).
//! Each write starts from the entity's last item in that state: the item the latest earlier
//! put made, else the last sample item an earlier write did not delete, as earlier updates left
//! it. A put makes a new item from it: every variable of its table key gets a value no item
//! has (shared by the steps of a transaction, so an order and its lines agree on `orderId`),
//! and every key template is rendered again. An update changes the attributes it names (the
//! next value of an enum, a number plus one, a string marked) and the index keys built from
//! them; a delete removes the item. The steps of one pattern all start from the state before
//! the pattern, so a transaction never writes one item twice. A conditional put of a new item
//! must fail when sent again: [`Simulated::repeat_fails`].

use std::collections::BTreeMap;

use crate::eval::ItemStore;
use crate::item::{AttributeValue, Item};
use crate::model::{AccessPattern, Action, AttrType, Design, Entity, KeyType, Table, WriteStep};

/// One write, by design table name.
#[derive(Debug, Clone, PartialEq)]
pub enum WriteRequest {
    Put {
        table: String,
        item: Item,
        condition: Option<String>,
    },
    /// `SET` each attribute to its value.
    Update {
        table: String,
        key: Item,
        set: Vec<(String, AttributeValue)>,
        condition: Option<String>,
    },
    Delete {
        table: String,
        key: Item,
        condition: Option<String>,
    },
}

/// A write pattern's requests and what the tables hold after them.
#[derive(Debug, Clone, PartialEq)]
pub struct Simulated {
    /// Several for TransactWriteItems, one otherwise.
    pub requests: Vec<WriteRequest>,
    /// Each key written: its table, the key, and the item it holds after the writes (`None`
    /// where the key must be gone: a delete).
    pub after: Vec<(String, Item, Option<Item>)>,
    /// Sending the same requests again must fail on a condition (a conditional put of a new
    /// item).
    pub repeat_fails: bool,
}

/// A key an earlier write of the simulation wrote, and what it holds since.
#[derive(Debug, Clone)]
struct Written {
    table: String,
    key: Item,
    entity: String,
    /// `None` once deleted.
    item: Option<Item>,
    /// Made by a put: not an item of the sample.
    put: bool,
}

/// The write patterns of one run, simulated in the order the run sends them, each on the
/// sample in `store` as the earlier ones left it.
#[derive(Debug)]
pub struct Simulation<'a> {
    design: &'a Design,
    store: &'a ItemStore,
    /// Every key written so far, in the order first written.
    written: Vec<Written>,
}

impl<'a> Simulation<'a> {
    /// A simulation on the sample in `store`, nothing written yet.
    pub fn new(design: &'a Design, store: &'a ItemStore) -> Simulation<'a> {
        Simulation {
            design,
            store,
            written: Vec::new(),
        }
    }

    /// The requests `pattern` (a put, update, delete or transaction) sends on the state the
    /// earlier writes left, and what the tables hold after them; that state then includes
    /// them. `Err` says why it cannot be simulated (no item to write from, an update that
    /// changes nothing), and changes nothing.
    pub fn write(&mut self, pattern: &AccessPattern) -> Result<Simulated, String> {
        let (simulated, effects) = self.simulate(pattern)?;
        for effect in effects {
            match self
                .written
                .iter_mut()
                .find(|w| w.table == effect.table && w.key == effect.key)
            {
                Some(known) => known.item = effect.item,
                None => self.written.push(effect),
            }
        }
        Ok(simulated)
    }

    /// The entity's last item in the current state: the item of the latest put still there,
    /// else the last sample item not deleted, as the earlier writes left it.
    fn last_item(&self, entity: &Entity) -> Option<Item> {
        let put = self.written.iter().rev().find_map(|w| {
            (w.put && w.entity == entity.name)
                .then_some(w.item.as_ref())
                .flatten()
        });
        if let Some(item) = put {
            return Some(item.clone());
        }
        let table = self.design.table(&entity.table)?;
        let sample = self.store.table(&entity.table)?.items();
        sample
            .iter()
            .rev()
            .filter(|s| s.entity.as_deref() == Some(entity.name.as_str()))
            .find_map(|s| {
                let key = key_of(table, &s.item);
                match self
                    .written
                    .iter()
                    .find(|w| w.table == entity.table && w.key == key)
                {
                    Some(w) => w.item.clone().map(Some),
                    None => Some(Some(s.item.clone())),
                }
            })
            .flatten()
    }

    fn simulate(&self, pattern: &AccessPattern) -> Result<(Simulated, Vec<Written>), String> {
        let design = self.design;
        let steps: Vec<WriteStep> = match pattern.action {
            Action::Transact => pattern.writes.clone(),
            Action::Read => return Err("not a write".to_string()),
            action => pattern
                .entities
                .iter()
                .map(|e| WriteStep {
                    action,
                    entity: e.clone(),
                    count: 1,
                    condition: pattern.condition.clone(),
                    changes: pattern.changes.clone(),
                })
                .collect(),
        };
        if steps.is_empty() {
            return Err("the write names no entity".to_string());
        }
        let mut shared: BTreeMap<String, AttributeValue> = BTreeMap::new();
        let mut requests = Vec::new();
        let mut after = Vec::new();
        let mut repeat_fails = false;
        let mut effects = Vec::new();
        for (step_index, step) in steps.iter().enumerate() {
            let Some(entity) = design.entity(&step.entity) else {
                return Err(format!("no entity `{}`", step.entity));
            };
            let Some(table) = design.table(&entity.table) else {
                return Err(format!("no table `{}`", entity.table));
            };
            let Some(base) = self.last_item(entity) else {
                return Err(format!("no sample item of {} to write from", entity.name));
            };
            let base = &base;
            let mut effect = |key: &Item, item: Option<&Item>, put: bool| {
                effects.push(Written {
                    table: table.name.clone(),
                    key: key.clone(),
                    entity: entity.name.clone(),
                    item: item.cloned(),
                    put,
                });
            };
            match step.action {
                Action::Put => {
                    let mut introduced = BTreeMap::new();
                    for copy in 0..step.count.max(1) {
                        let item = fresh_item(
                            design,
                            entity,
                            base,
                            &shared,
                            &mut introduced,
                            step_index,
                            copy,
                        );
                        if step
                            .condition
                            .as_deref()
                            .is_some_and(|c| c.contains("attribute_not_exists"))
                        {
                            repeat_fails = true;
                        }
                        let key = key_of(table, &item);
                        effect(&key, Some(&item), true);
                        after.push((table.name.clone(), key, Some(item.clone())));
                        requests.push(WriteRequest::Put {
                            table: table.name.clone(),
                            item,
                            condition: step.condition.clone(),
                        });
                    }
                    for (k, v) in introduced {
                        shared.entry(k).or_insert(v);
                    }
                }
                Action::Update => {
                    let key = key_of(table, base);
                    let mut updated = base.clone();
                    let mut set = Vec::new();
                    for change in &step.changes {
                        let value = changed_value(entity, change, base.get(change));
                        updated.insert(change.clone(), value.clone());
                        set.push((change.clone(), value));
                    }
                    // Index keys built from a changed attribute change with it (not the table's
                    // own key, which an update cannot change).
                    for (attribute, value) in rendered_keys(design, entity, &updated) {
                        if !key.contains_key(&attribute) && updated.get(&attribute) != Some(&value)
                        {
                            updated.insert(attribute.clone(), value.clone());
                            set.push((attribute, value));
                        }
                    }
                    if set.is_empty() {
                        return Err("the update changes no attribute".to_string());
                    }
                    effect(&key, Some(&updated), false);
                    after.push((table.name.clone(), key.clone(), Some(updated)));
                    requests.push(WriteRequest::Update {
                        table: table.name.clone(),
                        key,
                        set,
                        condition: step.condition.clone(),
                    });
                }
                Action::Delete => {
                    let key = key_of(table, base);
                    effect(&key, None, false);
                    after.push((table.name.clone(), key.clone(), None));
                    requests.push(WriteRequest::Delete {
                        table: table.name.clone(),
                        key,
                        condition: step.condition.clone(),
                    });
                }
                Action::Read | Action::Transact => {
                    return Err(format!("a {:?} step cannot be written", step.action));
                }
            }
        }
        Ok((
            Simulated {
                requests,
                after,
                repeat_fails,
            },
            effects,
        ))
    }
}

/// The table key of `item`.
fn key_of(table: &Table, item: &Item) -> Item {
    table
        .primary_key()
        .filter_map(|k| item.get(&k.name).map(|v| (k.name.clone(), v.clone())))
        .collect()
}

/// A new item of `entity` made from `base`: every variable of its table-key templates gets a
/// new value (the transaction's shared one if an earlier step chose it, so an order and its
/// lines agree on `orderId`), and every key template is rendered again.
fn fresh_item(
    design: &Design,
    entity: &Entity,
    base: &Item,
    shared: &BTreeMap<String, AttributeValue>,
    introduced: &mut BTreeMap<String, AttributeValue>,
    step: usize,
    copy: u32,
) -> Item {
    let mut item = base.clone();
    let Some(table) = design.table(&entity.table) else {
        return item;
    };
    let primary = table.primary_key();
    let mut vars = Vec::new();
    for key in primary {
        if let Some(template) = entity.key_template(&key.name) {
            for var in template.attribute_vars() {
                if !vars.contains(&var.name) {
                    vars.push(var.name.clone());
                }
            }
        }
    }
    for var in vars {
        let value = match shared.get(&var) {
            Some(v) => v.clone(),
            None => {
                let old = base
                    .get(&var)
                    .cloned()
                    .unwrap_or(AttributeValue::S(var.clone()));
                let new = renewed(&old, step, copy);
                if copy == 0 {
                    introduced.insert(var.clone(), new.clone());
                }
                new
            }
        };
        item.insert(var, value);
    }
    for (attribute, value) in rendered_keys(design, entity, &item) {
        item.insert(attribute, value);
    }
    item
}

/// A value no sample item has: `o-3` becomes `o-3-run1-0`, a number grows by a million.
fn renewed(old: &AttributeValue, step: usize, copy: u32) -> AttributeValue {
    match old {
        AttributeValue::N(n) => {
            let base: i64 = n.parse::<f64>().map(|f| f as i64).unwrap_or(0);
            AttributeValue::N(
                (base + 1_000_000 + (step as i64) * 1000 + i64::from(copy)).to_string(),
            )
        }
        AttributeValue::S(s) => AttributeValue::S(format!("{s}-run{step}-{copy}")),
        other => other.clone(),
    }
}

/// The value an update sets: the next of an enum's values, a number plus one, a string marked.
fn changed_value(entity: &Entity, attribute: &str, old: Option<&AttributeValue>) -> AttributeValue {
    let known = entity.attribute(attribute);
    if let Some(values) = known.map(|a| &a.values).filter(|v| !v.is_empty()) {
        let current = old.and_then(|o| o.as_key_text());
        let at = values.iter().position(|v| Some(v.as_str()) == current);
        let next = at.map_or(0, |i| (i + 1) % values.len());
        return AttributeValue::S(values[next].clone());
    }
    match old {
        Some(AttributeValue::N(n)) => {
            let value = n.parse::<f64>().unwrap_or(0.0) + 1.0;
            AttributeValue::N(format_number(value))
        }
        Some(AttributeValue::S(s)) => AttributeValue::S(format!("{s}-updated")),
        Some(AttributeValue::Bool(b)) => AttributeValue::Bool(!b),
        _ => match known.map(|a| a.ty) {
            Some(AttrType::N) => AttributeValue::N("1".to_string()),
            _ => AttributeValue::S("updated".to_string()),
        },
    }
}

fn format_number(value: f64) -> String {
    if value.fract() == 0.0 && value.abs() < 1e15 {
        format!("{}", value as i64)
    } else {
        value.to_string()
    }
}

/// Every key attribute `entity` fills, rendered from `item`'s attributes (a shard variable
/// gets a shard chosen from the item's other values, stable for the same values).
fn rendered_keys(design: &Design, entity: &Entity, item: &Item) -> Vec<(String, AttributeValue)> {
    let Some(table) = design.table(&entity.table) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (attribute, template) in &entity.keys {
        let ty = table.key_attribute(attribute).map_or(KeyType::S, |k| k.ty);
        let seed: String = template
            .attribute_vars()
            .filter_map(|v| item.get(&v.name).and_then(|x| x.as_key_text()))
            .collect();
        let rendered = crate::eval::render_key(template, ty, |var| match var.shards {
            Some(n) => Some(AttributeValue::S(
                (fnv(&seed) % u64::from(n.max(1))).to_string(),
            )),
            None => item.get(&var.name).cloned(),
        });
        if let Some(value) = rendered {
            out.push((attribute.clone(), value));
        }
    }
    out
}

fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests;
