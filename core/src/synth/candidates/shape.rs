//! The shapes of the keys the candidates propose, before they are written in a style: a key is
//! a list of [`Seg`]ments (a label, an attribute, a write shard), which single-table style
//! joins with `#` into a template (`ORDER#{createdAt}#{orderId}`) and natural style keeps as
//! separate key attributes where every segment is an attribute. Also each entity's identity
//! (the attribute that names one item) and parents (the entities whose identity it carries).
//! Nothing here costs or judges a key.

use crate::casing;
use crate::model::{Design, Entity};
use crate::template::KeyTemplate;

/// One piece of a key.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Seg {
    /// Literal text: `ORDER`.
    Label(String),
    /// An attribute of the entity: `{orderId}`.
    Attr(String),
    /// A write shard of `n`: `{shard:n}`.
    Shard(u32),
}

/// A key as segments, written as a template by joining them with `#`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Shape(pub Vec<Seg>);

impl Shape {
    /// The template single-table style writes: `CUSTOMER#{customerId}`.
    pub fn template(&self) -> String {
        let parts: Vec<String> = self
            .0
            .iter()
            .map(|seg| match seg {
                Seg::Label(text) => text.clone(),
                Seg::Attr(name) => format!("{{{name}}}"),
                Seg::Shard(n) => format!("{{shard:{n}}}"),
            })
            .collect();
        parts.join("#")
    }

    pub fn parse(&self) -> KeyTemplate {
        KeyTemplate::parse(&self.template())
    }

    /// The attributes of the key, in order.
    pub fn attributes(&self) -> Vec<&str> {
        self.0
            .iter()
            .filter_map(|seg| match seg {
                Seg::Attr(name) => Some(name.as_str()),
                _ => None,
            })
            .collect()
    }

    /// The key's write shards, if sharded.
    pub fn shards(&self) -> Option<u32> {
        self.0.iter().find_map(|seg| match seg {
            Seg::Shard(n) => Some(*n),
            _ => None,
        })
    }

    /// The key with `n` write shards appended.
    pub fn sharded(&self, n: u32) -> Shape {
        let mut segs = self.0.clone();
        segs.push(Seg::Shard(n));
        Shape(segs)
    }

    /// Whether the key is attributes only (natural style can key on them directly).
    pub fn is_attributes_only(&self) -> bool {
        !self.0.is_empty() && self.0.iter().all(|seg| matches!(seg, Seg::Attr(_)))
    }
}

/// An entity's label in templates: `OrderItem` -> `ORDER_ITEM`.
pub fn label(entity: &str) -> String {
    casing::screaming(entity)
}

/// The identity of every entity of the design, in design order: the attribute that names one
/// item. Pinned table keys give it (the last attribute variable of the primary key); else
/// `{entity}Id` (`orderId`), `{entity}_id`, `id`; else the first `*Id` attribute that is not
/// another entity's identity (required ones first); else the first attribute. `None` for an
/// entity with no attribute at all.
pub fn identities(design: &Design) -> Vec<Option<String>> {
    let by_rule: Vec<Option<String>> = design
        .entities
        .iter()
        .map(|entity| pinned_identity(design, entity).or_else(|| named_identity(entity)))
        .collect();
    design
        .entities
        .iter()
        .zip(&by_rule)
        .map(|(entity, found)| {
            found.clone().or_else(|| {
                let taken = |name: &str| by_rule.iter().flatten().any(|id| id == name);
                let ids = |required: bool| {
                    entity
                        .attributes
                        .iter()
                        .filter(move |a| a.required == required || !required)
                        .find(|a| is_id_name(&a.name) && !taken(&a.name))
                        .map(|a| a.name.clone())
                };
                ids(true)
                    .or_else(|| ids(false))
                    .or_else(|| entity.attributes.first().map(|a| a.name.clone()))
            })
        })
        .collect()
}

fn pinned_identity(design: &Design, entity: &Entity) -> Option<String> {
    let table = design.table(&entity.table)?;
    if !entity.keys.contains_key(&table.partition_key.name) {
        return None;
    }
    entity.identity(table)
}

fn named_identity(entity: &Entity) -> Option<String> {
    let camel = format!("{}Id", casing::camel(&entity.name));
    let snake = format!("{}_id", casing::snake(&entity.name));
    [camel.as_str(), snake.as_str(), "id"]
        .into_iter()
        .find(|name| entity.attribute(name).is_some())
        .map(str::to_string)
}

fn is_id_name(name: &str) -> bool {
    name.ends_with("Id") || name.ends_with("_id") || name.ends_with("ID")
}

/// The parents of every entity, by position: the other entities of its table whose identity
/// it carries as an attribute (an Order carrying `customerId` is under Customer).
pub fn parents(design: &Design, identities: &[Option<String>]) -> Vec<Vec<usize>> {
    design
        .entities
        .iter()
        .enumerate()
        .map(|(child_idx, child)| {
            design
                .entities
                .iter()
                .enumerate()
                .filter(|&(parent_idx, parent)| {
                    parent_idx != child_idx
                        && parent.table == child.table
                        && identities[parent_idx]
                            .as_deref()
                            .is_some_and(|id| child.attribute(id).is_some())
                        && identities[parent_idx] != identities[child_idx]
                })
                .map(|(parent_idx, _)| parent_idx)
                .collect()
        })
        .collect()
}

/// The partition a key on `inputs` of `entity` gets: each input labelled by the entity whose
/// identity it is (`CUSTOMER#{customerId}`), else by its own name (`STATUS#{status}`); a
/// constant partition (no inputs) is the entity's label alone.
pub fn keyed_partition(
    design: &Design,
    identities: &[Option<String>],
    entity: &str,
    inputs: &[String],
) -> Shape {
    if inputs.is_empty() {
        return Shape(vec![Seg::Label(label(entity))]);
    }
    let mut segs = Vec::with_capacity(inputs.len() * 2);
    for input in inputs {
        let owner = design
            .entities
            .iter()
            .zip(identities)
            .find(|(_, id)| id.as_deref() == Some(input.as_str()))
            .map(|(e, _)| label(&e.name));
        segs.push(Seg::Label(
            owner.unwrap_or_else(|| casing::screaming(input)),
        ));
        segs.push(Seg::Attr(input.clone()));
    }
    Shape(segs)
}

/// A sort key of `entity` that orders by `sort` (when given) and ends with the identity unless
/// the partition already holds it: `ORDER#{createdAt}#{orderId}`.
pub fn keyed_sort(entity: &str, sort: Option<&str>, identity: &str, partition: &Shape) -> Shape {
    let mut segs = vec![Seg::Label(label(entity))];
    if let Some(sort) = sort
        && sort != identity
    {
        segs.push(Seg::Attr(sort.to_string()));
    }
    if !partition.attributes().contains(&identity) {
        segs.push(Seg::Attr(identity.to_string()));
    }
    Shape(segs)
}
