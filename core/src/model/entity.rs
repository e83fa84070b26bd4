//! An entity: one kind of item in a table, its attributes, the key template it fills each key
//! attribute with, and how many items of it production holds ([`Volume`]).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{AttrType, Table, is_default};
use crate::template::KeyTemplate;

/// One kind of item stored in a table: a customer, an order, an order line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Entity {
    pub name: String,
    /// The table the entity lives in.
    pub table: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    #[serde(default)]
    pub attributes: Vec<Attribute>,
    /// The template for each key attribute (of the table or any index) the entity fills, by key
    /// attribute name: `"PK": "CUSTOMER#{customerId}"`. A key attribute with no template here
    /// is filled by the entity's own attribute of that name, if it has one; otherwise the entity
    /// is absent from that index (sparse).
    #[serde(default)]
    pub keys: BTreeMap<String, KeyTemplate>,
    /// How many items of the entity the table holds in production, and how large they are:
    /// measured when the design was read from a live table (`keyplan import --table`), or
    /// expected, set by whoever draws the design (`"volume": { "items": 2800000000 }`). Storage,
    /// item collections, Scans and the cost report use it; absent, they use the sample's items.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub volume: Option<Volume>,
}

/// An entity's items in production. From a live table, estimated from a bounded sample of it:
/// the entity's share of the sampled items times the table's item count (DescribeTable's
/// `ItemCount`, which DynamoDB updates about every six hours), and the sampled items' mean
/// size. Set by hand, the item count alone, the size defaulting to the sample's mean.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Volume {
    /// Items of the entity in the table.
    pub items: u64,
    /// Their mean size in bytes, as DynamoDB counts item size (names and values); absent, the
    /// mean of the design's sample items of the entity.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub item_bytes: Option<u64>,
    /// Of how many sampled items of a live table the figures were estimated; 0 when they were
    /// set by hand.
    #[serde(default, skip_serializing_if = "is_default")]
    pub sampled: u64,
}

impl Volume {
    /// A volume set by hand: `items` items of the sample's mean size.
    pub fn items(items: u64) -> Volume {
        Volume {
            items,
            item_bytes: None,
            sampled: 0,
        }
    }

    /// The volume once its item count is set to `items` (`None`: no volume): the one rule for
    /// every field that edits "Items in production". The mean item size, measured or given,
    /// stays; a count set where there was no volume is one set by hand.
    pub fn with_items(previous: Option<Volume>, items: Option<u64>) -> Option<Volume> {
        let items = items?;
        Some(match previous {
            Some(volume) => Volume { items, ..volume },
            None => Volume::items(items),
        })
    }
}

/// `customerId` for `Customer`: the id attribute an entity drawn in the app starts with,
/// renamed with the entity until the user renames it.
pub fn starting_id(entity: &str) -> String {
    let mut chars = entity.chars();
    let mut name: String = match chars.next() {
        Some(c) => c.to_lowercase().chain(chars).collect(),
        None => String::new(),
    };
    name.push_str("Id");
    name
}

impl Entity {
    pub fn attribute(&self, name: &str) -> Option<&Attribute> {
        self.attributes.iter().find(|a| a.name == name)
    }

    /// The id attribute the entity started with ([`starting_id`]) while none of its key
    /// templates uses it, when `name` (a key variable that is no attribute of it) is its id by
    /// another name: `id`, or a name ending in `Id`, `ID` or `_id` that no entity of `entities`
    /// has (`customerId` in Order refers to a Customer). That attribute takes its place rather
    /// than leaving it behind (issue 43).
    pub fn starting_id_renamed(&self, entities: &[Entity], name: &str) -> Option<&str> {
        let id = starting_id(&self.name);
        let used = self
            .keys
            .values()
            .any(|t| t.attribute_vars().any(|v| v.name == id));
        let is_id = name == "id" || ["Id", "ID", "_id"].iter().any(|end| name.ends_with(end));
        let refers = entities.iter().any(|e| e.attribute(name).is_some());
        if used || !is_id || refers {
            return None;
        }
        self.attribute(&id).map(|a| a.name.as_str())
    }

    /// The template that fills `key_attribute` for this entity: its own template, or the
    /// implicit `{name}` when the entity has an attribute of that name. `None`: the entity does
    /// not appear in an index keyed on that attribute.
    pub fn key_template(&self, key_attribute: &str) -> Option<std::borrow::Cow<'_, KeyTemplate>> {
        if let Some(t) = self.keys.get(key_attribute) {
            return Some(std::borrow::Cow::Borrowed(t));
        }
        self.attribute(key_attribute)
            .map(|a| std::borrow::Cow::Owned(KeyTemplate::variable(&a.name)))
    }

    /// Whether [`Entity::key_template`] has a template for `key_attribute`, without making the
    /// implicit one.
    pub fn fills(&self, key_attribute: &str) -> bool {
        self.keys.contains_key(key_attribute) || self.attribute(key_attribute).is_some()
    }

    /// The entity's identity in `table` (its own table): the last attribute variable of its
    /// primary key, partition key then sort key (Customer: `customerId`; an OrderItem at
    /// `ORDER#{orderId}` / `ITEM#{itemId}`: `itemId`). Another entity that carries it refers
    /// to this one; the canvas draws that line and the sample makes it a parent.
    pub fn identity(&self, table: &Table) -> Option<String> {
        let mut last = None;
        for key in table.primary_key() {
            if let Some(template) = self.key_template(&key.name)
                && let Some(var) = template.attribute_vars().last()
            {
                last = Some(var.name.clone());
            }
        }
        last
    }
}

/// An attribute of an entity.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Attribute {
    pub name: String,
    #[serde(rename = "type", default)]
    pub ty: AttrType,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub required: bool,
    /// The known values of an enum-like attribute (`PENDING`, `SHIPPED`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<String>,
    /// A hint of how many distinct values the attribute takes in production.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub distinct: Option<u64>,
}

impl Attribute {
    pub fn new(name: impl Into<String>, ty: AttrType) -> Attribute {
        Attribute {
            name: name.into(),
            ty,
            required: false,
            values: Vec::new(),
            distinct: None,
        }
    }
}
