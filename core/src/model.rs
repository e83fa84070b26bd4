//! The design document: tables, entities and access patterns, as the user states them.
//!
//! This is the document a user edits, saves as `*.keyplan.json` and shares. It holds the user's
//! words and nothing derived: coverage, findings, sample items and costs are computed from it
//! elsewhere and never stored here. Key templates are parsed once, on the way in
//! ([`KeyTemplate`](crate::template::KeyTemplate)), and keep their source text so a bad one
//! round-trips untouched.
//!
//! Names are identities: an entity, a table, an index and a pattern are referred to by name,
//! which keeps the file readable and its diffs small. Uniqueness is checked by the findings,
//! not enforced here, so a half-edited design is still a design.
//!
//! Its parts: `table` (tables and their indexes), `entity` (entities and their attributes),
//! `pattern` (access patterns), `types` (attribute and key types) and `vector` (vector indexes
//! and vector searches); the design that holds
//! them is here, with the names of types, actions and operators read back.

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};

use crate::item::Item;

mod capacity;
mod entity;
mod pattern;
mod table;
mod types;
mod vector;

pub use capacity::{Bound, TARGET_RANGE};
pub use entity::{Attribute, Entity, Volume, starting_id};
pub use pattern::{
    AccessPattern, Action, FilterCondition, FilterOp, Order, SortCondition, SortOp, WriteStep,
};
pub use table::{
    AutoScaling, Billing, Capacity, Dimension, Gsi, IndexKeys, IndexKind, KeyAttribute, Lsi,
    Projection, Scaling, Table,
};
pub use types::{AttrType, KeyType};
pub use vector::{Distance, VectorIndex, VectorSearch};

/// The design-file format this build writes. Older versions are migrated by [`crate::file`].
pub const CURRENT_VERSION: u32 = 1;

/// A whole design: one or more tables, the entities stored in them and the access patterns the
/// application needs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Design {
    /// Format version of the design file; see [`CURRENT_VERSION`].
    pub version: u32,
    pub name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    #[serde(default)]
    pub tables: Vec<Table>,
    #[serde(default)]
    pub entities: Vec<Entity>,
    #[serde(default)]
    pub patterns: Vec<AccessPattern>,
    /// Canvas positions of the entity cards, by entity name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub layout: BTreeMap<String, Point>,
    /// Items that came with an import (NoSQL Workbench TableData), by table name. The sample
    /// generator keeps and uses them.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub samples: BTreeMap<String, Vec<Item>>,
    /// Sample items edited or added by hand (the Data view), put after the generated ones:
    /// what the sample, the evaluation and a run hold.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hand_items: Vec<HandItem>,
}

/// A sample item written by hand: a generated item edited (`replaces` names the primary key
/// of the item it stands for) or an item added. It is put as a PutItem puts one, after the
/// generated items: it replaces the item `replaces` names and any with its own primary key.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct HandItem {
    pub table: String,
    /// The entity the item is of.
    pub entity: String,
    /// The primary key attributes of the generated item this one replaces; absent for an item
    /// added.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replaces: Option<Item>,
    /// The whole item, in DynamoDB JSON.
    pub item: Item,
}

impl Design {
    /// An empty design with the current version.
    pub fn new(name: impl Into<String>) -> Design {
        Design {
            version: CURRENT_VERSION,
            name: name.into(),
            description: String::new(),
            tables: Vec::new(),
            entities: Vec::new(),
            patterns: Vec::new(),
            layout: BTreeMap::new(),
            samples: BTreeMap::new(),
            hand_items: Vec::new(),
        }
    }

    pub fn table(&self, name: &str) -> Option<&Table> {
        self.tables.iter().find(|t| t.name == name)
    }

    pub fn entity(&self, name: &str) -> Option<&Entity> {
        self.entities.iter().find(|e| e.name == name)
    }

    pub fn pattern(&self, name: &str) -> Option<&AccessPattern> {
        self.patterns.iter().find(|p| p.name == name)
    }

    /// The entities stored in `table`, in design order.
    pub fn entities_in<'a>(&'a self, table: &'a str) -> impl Iterator<Item = &'a Entity> + 'a {
        self.entities.iter().filter(move |e| e.table == table)
    }
}

/// The entities and patterns of a design by name, for work over the whole design:
/// [`Design::entity`] and [`Design::pattern`] search the lists, so calling them once per
/// pattern is quadratic. Built once; the first of each name wins, as with those. Hashed: the
/// cost estimate looks 50,000 patterns up by name (issue 13).
#[derive(Debug, Clone)]
pub struct ByName<'a> {
    entities: HashMap<&'a str, &'a Entity>,
    patterns: HashMap<&'a str, &'a AccessPattern>,
}

impl<'a> ByName<'a> {
    pub fn new(design: &'a Design) -> ByName<'a> {
        let mut entities = HashMap::with_capacity(design.entities.len());
        for entity in &design.entities {
            entities.entry(entity.name.as_str()).or_insert(entity);
        }
        let mut patterns = HashMap::with_capacity(design.patterns.len());
        for pattern in &design.patterns {
            patterns.entry(pattern.name.as_str()).or_insert(pattern);
        }
        ByName { entities, patterns }
    }

    /// [`Design::entity`]: the first entity named `name`.
    pub fn entity(&self, name: &str) -> Option<&'a Entity> {
        self.entities.get(name).copied()
    }

    /// [`Design::pattern`]: the first pattern named `name`.
    pub fn pattern(&self, name: &str) -> Option<&'a AccessPattern> {
        self.patterns.get(name).copied()
    }
}

/// A position on the canvas, in canvas units.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Point {
    pub x: f64,
    pub y: f64,
}

/// The names [`AttrType::as_str`], [`Action::as_str`] and [`SortOp::as_str`] give, read back:
/// one spelling of each for the editor, the Workbench export and the test DSL (issue 14).
macro_rules! from_name {
    ($ty:ty, $what:literal) => {
        impl std::str::FromStr for $ty {
            type Err = String;
            fn from_str(text: &str) -> Result<Self, String> {
                <$ty>::ALL
                    .into_iter()
                    .find(|v| v.as_str() == text)
                    .ok_or_else(|| {
                        let names: Vec<&str> = <$ty>::ALL.iter().map(|v| v.as_str()).collect();
                        format!("`{text}` is not {}: one of {}", $what, names.join(", "))
                    })
            }
        }
    };
}
from_name!(AttrType, "an attribute type");
from_name!(Action, "an action");
from_name!(SortOp, "a sort-key operator");
from_name!(FilterOp, "a filter operator");

fn one_u32() -> u32 {
    1
}

fn is_one_u32(n: &u32) -> bool {
    *n == 1
}

fn one_f64() -> f64 {
    1.0
}

fn is_one_f64(n: &f64) -> bool {
    *n == 1.0
}

fn is_default<T: Default + PartialEq>(value: &T) -> bool {
    *value == T::default()
}

#[cfg(test)]
mod tests;
