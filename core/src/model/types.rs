//! The design document: tables, entities and access patterns, as the user states them.
//!
//! This is the document a user edits, saves as `*.keyplan.json` and shares. It holds the user's
//! words and nothing derived: coverage, findings, sample items and costs are computed from it
//! elsewhere and never stored here. Key templates are parsed once, on the way in
//! ([`KeyTemplate`]), and keep their source text so a bad one round-trips untouched.
//!
//! Names are identities: an entity, a table, an index and a pattern are referred to by name,
//! which keeps the file readable and its diffs small. Uniqueness is checked by the findings,
//! not enforced here, so a half-edited design is still a design.

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};

use crate::item::Item;
use crate::template::KeyTemplate;

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

/// The scalar types a key attribute can have.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize,
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum KeyType {
    #[default]
    S,
    N,
    B,
}

/// Every DynamoDB attribute type.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize,
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum AttrType {
    #[default]
    S,
    N,
    B,
    #[serde(rename = "BOOL")]
    Bool,
    #[serde(rename = "NULL")]
    Null,
    M,
    L,
    SS,
    NS,
    BS,
}

impl AttrType {
    /// Every attribute type, in DynamoDB's documentation order.
    /// A share link codes each by its position here (share::v1): append only, never reorder.
    pub const ALL: [AttrType; 10] = [
        AttrType::S,
        AttrType::N,
        AttrType::B,
        AttrType::Bool,
        AttrType::Null,
        AttrType::M,
        AttrType::L,
        AttrType::SS,
        AttrType::NS,
        AttrType::BS,
    ];

    /// DynamoDB's name of the type: `S`, `BOOL`, `SS`.
    pub fn as_str(self) -> &'static str {
        match self {
            AttrType::S => "S",
            AttrType::N => "N",
            AttrType::B => "B",
            AttrType::Bool => "BOOL",
            AttrType::Null => "NULL",
            AttrType::M => "M",
            AttrType::L => "L",
            AttrType::SS => "SS",
            AttrType::NS => "NS",
            AttrType::BS => "BS",
        }
    }

    /// The key type this attribute type can serve as, if any.
    pub fn as_key_type(self) -> Option<KeyType> {
        match self {
            AttrType::S => Some(KeyType::S),
            AttrType::N => Some(KeyType::N),
            AttrType::B => Some(KeyType::B),
            _ => None,
        }
    }
}

impl From<KeyType> for AttrType {
    /// The attribute type of a key of type `ty`.
    fn from(ty: KeyType) -> AttrType {
        match ty {
            KeyType::S => AttrType::S,
            KeyType::N => AttrType::N,
            KeyType::B => AttrType::B,
        }
    }
}

/// A key attribute of a table or index: its name and scalar type.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct KeyAttribute {
    pub name: String,
    #[serde(rename = "type", default)]
    pub ty: KeyType,
}

impl KeyAttribute {
    pub fn new(name: impl Into<String>, ty: KeyType) -> KeyAttribute {
        KeyAttribute {
            name: name.into(),
            ty,
        }
    }
}

/// A DynamoDB table: its primary key, secondary indexes, billing and TTL.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Table {
    pub name: String,
    pub partition_key: KeyAttribute,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sort_key: Option<KeyAttribute>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub gsis: Vec<Gsi>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lsis: Vec<Lsi>,
    #[serde(default)]
    pub billing: Billing,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ttl_attribute: Option<String>,
    /// The other AWS Regions this table is replicated to, as a global table (`eu-west-1`): every
    /// write to the table is also a replicated write in each of them, and each stores a copy.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub replicas: Vec<String>,
}

impl Table {
    /// A table with these keys and nothing else yet: no indexes, the default billing, no TTL,
    /// no replicas. The importers and a share link start from it and fill in what they read.
    pub fn new(name: String, partition_key: KeyAttribute, sort_key: Option<KeyAttribute>) -> Table {
        Table {
            name,
            partition_key,
            sort_key,
            gsis: Vec::new(),
            lsis: Vec::new(),
            billing: Billing::default(),
            ttl_attribute: None,
            replicas: Vec::new(),
        }
    }

    pub fn gsi(&self, name: &str) -> Option<&Gsi> {
        self.gsis.iter().find(|g| g.name == name)
    }

    pub fn lsi(&self, name: &str) -> Option<&Lsi> {
        self.lsis.iter().find(|l| l.name == name)
    }

    /// The table itself, then every GSI, then every LSI, each as the keys a Query can use.
    pub fn indexes(&self) -> Vec<IndexKeys<'_>> {
        let mut out = Vec::with_capacity(1 + self.gsis.len() + self.lsis.len());
        out.push(IndexKeys {
            name: None,
            kind: IndexKind::Table,
            partition_key: std::slice::from_ref(&self.partition_key),
            sort_key: self.sort_key.as_slice(),
            projection: &Projection::All,
        });
        for gsi in &self.gsis {
            out.push(IndexKeys {
                name: Some(&gsi.name),
                kind: IndexKind::Gsi,
                partition_key: &gsi.partition_key,
                sort_key: &gsi.sort_key,
                projection: &gsi.projection,
            });
        }
        for lsi in &self.lsis {
            out.push(IndexKeys {
                name: Some(&lsi.name),
                kind: IndexKind::Lsi,
                partition_key: std::slice::from_ref(&self.partition_key),
                sort_key: std::slice::from_ref(&lsi.sort_key),
                projection: &lsi.projection,
            });
        }
        out
    }

    /// The table's primary key: its partition key, then its sort key if it has one.
    pub fn primary_key(&self) -> impl Iterator<Item = &KeyAttribute> {
        std::iter::once(&self.partition_key).chain(self.sort_key.as_ref())
    }

    /// Every key attribute of the table and its indexes, each once, in a stable order (table
    /// keys first). These and only these belong in CloudFormation's AttributeDefinitions.
    pub fn key_attributes(&self) -> Vec<&KeyAttribute> {
        let mut out: Vec<&KeyAttribute> = Vec::new();
        // The names so far in a set: a table with 20 GSIs has 42 keys, and every entity and
        // every pattern asks.
        let mut seen: std::collections::BTreeSet<&str> = std::collections::BTreeSet::new();
        for key in self.every_key() {
            if seen.insert(&key.name) {
                out.push(key);
            }
        }
        out
    }

    /// The key attribute named `name`: the first of [`Table::key_attributes`] with that name,
    /// found without listing them all.
    pub fn key_attribute(&self, name: &str) -> Option<&KeyAttribute> {
        self.every_key().find(|k| k.name == name)
    }

    /// The keys of the table, then of every GSI, then of every LSI, repeats included.
    fn every_key(&self) -> impl Iterator<Item = &KeyAttribute> {
        self.primary_key()
            .chain(
                self.gsis
                    .iter()
                    .flat_map(|g| g.partition_key.iter().chain(&g.sort_key)),
            )
            .chain(
                self.lsis
                    .iter()
                    .flat_map(|l| std::iter::once(&self.partition_key).chain([&l.sort_key])),
            )
    }
}

/// Which kind of index an [`IndexKeys`] describes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum IndexKind {
    Table,
    Gsi,
    Lsi,
}

/// A uniform view of the table's primary key or one of its indexes.
#[derive(Debug, Clone, Copy)]
pub struct IndexKeys<'a> {
    /// `None` for the table itself.
    pub name: Option<&'a str>,
    pub kind: IndexKind,
    /// One attribute, or up to four for a multi-attribute GSI key.
    pub partition_key: &'a [KeyAttribute],
    /// None, one, or up to four for a multi-attribute GSI key.
    pub sort_key: &'a [KeyAttribute],
    pub projection: &'a Projection,
}

/// A global secondary index. Its keys may have up to four attributes each (DynamoDB's
/// multi-attribute GSI keys).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Gsi {
    pub name: String,
    pub partition_key: Vec<KeyAttribute>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sort_key: Vec<KeyAttribute>,
    #[serde(default)]
    pub projection: Projection,
}

/// A local secondary index: the table's partition key with another sort key.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Lsi {
    pub name: String,
    pub sort_key: KeyAttribute,
    #[serde(default)]
    pub projection: Projection,
}

/// Which attributes an index copies from the table.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "type", rename_all = "SCREAMING_SNAKE_CASE", deny_unknown_fields)]
pub enum Projection {
    #[default]
    All,
    KeysOnly,
    Include {
        attributes: Vec<String>,
    },
}

/// How the table is billed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "mode", rename_all = "snake_case", deny_unknown_fields)]
pub enum Billing {
    #[default]
    OnDemand,
    Provisioned {
        read: u64,
        write: u64,
    },
}

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
}

impl Entity {
    pub fn attribute(&self, name: &str) -> Option<&Attribute> {
        self.attributes.iter().find(|a| a.name == name)
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

/// What an access pattern does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Read items; coverage decides between GetItem, Query and Scan.
    #[default]
    Read,
    Put,
    Update,
    Delete,
    /// Several writes in one TransactWriteItems; see [`AccessPattern::writes`].
    Transact,
}

impl Action {
    /// Every action.
    /// A share link codes each by its position here (share::v1): append only, never reorder.
    pub const ALL: [Action; 5] = [
        Action::Read,
        Action::Put,
        Action::Update,
        Action::Delete,
        Action::Transact,
    ];

    pub fn is_read(self) -> bool {
        self == Action::Read
    }

    /// The action as the design file writes it: `read`, `put`, `transact`.
    pub fn as_str(self) -> &'static str {
        match self {
            Action::Read => "read",
            Action::Put => "put",
            Action::Update => "update",
            Action::Delete => "delete",
            Action::Transact => "transact",
        }
    }
}

/// A key-condition operator on the sort key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum SortOp {
    #[serde(rename = "=")]
    Eq,
    #[serde(rename = "<")]
    Lt,
    #[serde(rename = "<=")]
    Le,
    #[serde(rename = ">")]
    Gt,
    #[serde(rename = ">=")]
    Ge,
    #[serde(rename = "between")]
    Between,
    #[serde(rename = "begins_with")]
    BeginsWith,
}

impl SortOp {
    /// Every operator.
    /// A share link codes each by its position here (share::v1): append only, never reorder.
    pub const ALL: [SortOp; 7] = [
        SortOp::Eq,
        SortOp::Lt,
        SortOp::Le,
        SortOp::Gt,
        SortOp::Ge,
        SortOp::Between,
        SortOp::BeginsWith,
    ];

    /// The operator as written in a DynamoDB key condition expression.
    pub fn as_str(self) -> &'static str {
        match self {
            SortOp::Eq => "=",
            SortOp::Lt => "<",
            SortOp::Le => "<=",
            SortOp::Gt => ">",
            SortOp::Ge => ">=",
            SortOp::Between => "between",
            SortOp::BeginsWith => "begins_with",
        }
    }
}

impl AttrType {
    /// The type of `value`.
    pub fn of(value: &crate::item::AttributeValue) -> AttrType {
        use crate::item::AttributeValue as V;
        match value {
            V::S(_) => AttrType::S,
            V::N(_) => AttrType::N,
            V::B(_) => AttrType::B,
            V::Bool(_) => AttrType::Bool,
            V::Null(_) => AttrType::Null,
            V::M(_) => AttrType::M,
            V::L(_) => AttrType::L,
            V::SS(_) => AttrType::SS,
            V::NS(_) => AttrType::NS,
            V::BS(_) => AttrType::BS,
        }
    }
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

/// A FilterExpression operator: what DynamoDB applies to each item a Query or Scan read, after
/// the key condition and before the page is returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum FilterOp {
    #[serde(rename = "=")]
    Eq,
    #[serde(rename = "<>")]
    Ne,
    #[serde(rename = "<")]
    Lt,
    #[serde(rename = "<=")]
    Le,
    #[serde(rename = ">")]
    Gt,
    #[serde(rename = ">=")]
    Ge,
    #[serde(rename = "between")]
    Between,
    #[serde(rename = "begins_with")]
    BeginsWith,
    #[serde(rename = "contains")]
    Contains,
    #[serde(rename = "in")]
    In,
    #[serde(rename = "attribute_exists")]
    Exists,
    #[serde(rename = "attribute_not_exists")]
    NotExists,
}

impl FilterOp {
    /// Every operator.
    /// A share link codes each by its position here (share::v1): append only, never reorder.
    pub const ALL: [FilterOp; 12] = [
        FilterOp::Eq,
        FilterOp::Ne,
        FilterOp::Lt,
        FilterOp::Le,
        FilterOp::Gt,
        FilterOp::Ge,
        FilterOp::Between,
        FilterOp::BeginsWith,
        FilterOp::Contains,
        FilterOp::In,
        FilterOp::Exists,
        FilterOp::NotExists,
    ];

    /// The operator as the design file writes it, which is also DynamoDB's (`<>`,
    /// `attribute_exists`).
    pub fn as_str(self) -> &'static str {
        match self {
            FilterOp::Eq => "=",
            FilterOp::Ne => "<>",
            FilterOp::Lt => "<",
            FilterOp::Le => "<=",
            FilterOp::Gt => ">",
            FilterOp::Ge => ">=",
            FilterOp::Between => "between",
            FilterOp::BeginsWith => "begins_with",
            FilterOp::Contains => "contains",
            FilterOp::In => "in",
            FilterOp::Exists => "attribute_exists",
            FilterOp::NotExists => "attribute_not_exists",
        }
    }
}

impl From<SortOp> for FilterOp {
    /// A sort-key operator as a filter operator (a Scan filters by the sort condition).
    fn from(op: SortOp) -> FilterOp {
        match op {
            SortOp::Eq => FilterOp::Eq,
            SortOp::Lt => FilterOp::Lt,
            SortOp::Le => FilterOp::Le,
            SortOp::Gt => FilterOp::Gt,
            SortOp::Ge => FilterOp::Ge,
            SortOp::Between => FilterOp::Between,
            SortOp::BeginsWith => FilterOp::BeginsWith,
        }
    }
}

/// A condition the read's items must meet to be returned, applied by DynamoDB after the key
/// condition (a FilterExpression): "only the unshipped ones" is
/// `{ "attribute": "status", "op": "<>" }`. Like a [`SortCondition`], it holds no value: the
/// caller gives the values at request time, as inputs named by [`FilterCondition::value_names`]
/// (`status`; `total` and `total_to` for `between`; `status_1` to `status_3` for an `in` of
/// three). A filter reads every item the key selects and returns fewer: it costs what it
/// reads.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct FilterCondition {
    pub attribute: String,
    pub op: FilterOp,
    /// For `in`: how many values the caller gives (1 to 100, DynamoDB's limit; 2 when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<u32>,
}

impl FilterCondition {
    /// The most values an `in` takes: DynamoDB allows up to 100 in an IN list.
    pub const MAX_IN_VALUES: u32 = 100;

    pub fn new(attribute: impl Into<String>, op: FilterOp) -> FilterCondition {
        FilterCondition {
            attribute: attribute.into(),
            op,
            count: None,
        }
    }

    /// How many values the condition compares with: none for attribute_exists and
    /// attribute_not_exists, two for between, [`FilterCondition::count`] (clamped to 1 to 100)
    /// for in, one otherwise.
    pub fn n_values(&self) -> usize {
        match self.op {
            FilterOp::Exists | FilterOp::NotExists => 0,
            FilterOp::Between => 2,
            FilterOp::In => self.count.unwrap_or(2).clamp(1, Self::MAX_IN_VALUES) as usize,
            _ => 1,
        }
    }

    /// The inputs the condition's values are given as, in order: `status`; `total` and
    /// `total_to` for between (as a sort condition's); `status_1`, `status_2`... for in.
    pub fn value_names(&self) -> Vec<String> {
        let attribute = &self.attribute;
        match self.op {
            FilterOp::Exists | FilterOp::NotExists => Vec::new(),
            FilterOp::Between => vec![attribute.clone(), format!("{attribute}_to")],
            FilterOp::In => (1..=self.n_values())
                .map(|i| format!("{attribute}_{i}"))
                .collect(),
            _ => vec![attribute.clone()],
        }
    }
}

/// A condition on one attribute that the pattern narrows by, which coverage maps onto an
/// index's sort key: "orders since a date" is `{ "attribute": "createdAt", "op": ">=" }`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct SortCondition {
    pub attribute: String,
    pub op: SortOp,
}

/// The order results come back in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Order {
    #[default]
    Asc,
    Desc,
}

/// One write inside a transaction.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WriteStep {
    /// `put`, `update` or `delete`.
    pub action: Action,
    pub entity: String,
    /// How many items of the entity this step writes (an order's lines).
    #[serde(default = "one_u32", skip_serializing_if = "is_one_u32")]
    pub count: u32,
    /// A condition expression, as DynamoDB takes it (`attribute_not_exists(PK)`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<String>,
    /// For an update: the attributes it changes (an index key among them costs a delete and a
    /// put in that index).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub changes: Vec<String>,
}

/// Something the application does with the table: a read to be served by GetItem or Query, or a
/// write whose cost and run matter.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct AccessPattern {
    pub name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    #[serde(default, skip_serializing_if = "is_default")]
    pub action: Action,
    /// For a read, the entities it returns; for a put, update or delete, the entity written.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub entities: Vec<String>,
    /// The attributes the caller knows.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub inputs: Vec<String>,
    /// A condition the read narrows by, mapped onto an index's sort key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sort: Option<SortCondition>,
    /// Conditions every returned item meets, all of them (a FilterExpression joined by AND),
    /// applied after the key condition: the read still reads, and pays for, what they drop.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub filter: Vec<FilterCondition>,
    #[serde(default, skip_serializing_if = "is_default")]
    pub order: Order,
    /// The attribute the results must come back ordered by (`createdAt` for "newest first"),
    /// apart from any range condition: only an index whose sort key sorts by it serves the read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub order_by: Option<String>,
    /// The read must see every write before it (strong consistency): no GSI can serve it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub consistent: bool,
    /// Expected requests per second at peak.
    #[serde(default = "one_f64")]
    pub rate: f64,
    /// How many times its average rate the peak `rate` is: 3 means the pattern averages a third
    /// of its peak over a month. On-demand bills the average, provisioned capacity must hold
    /// the peak. 1 (the default): the pattern runs at its peak all month.
    #[serde(default = "one_f64", skip_serializing_if = "is_one_f64")]
    pub peak_factor: f64,
    /// The Limit of one page of results.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page_size: Option<u32>,
    /// For an update: the attributes it changes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub changes: Vec<String>,
    /// For a transaction: its writes, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub writes: Vec<WriteStep>,
    /// For a put: a condition expression.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<String>,
}

impl AccessPattern {
    /// A read of `entities` by `inputs`, with defaults for the rest.
    pub fn read(name: impl Into<String>, entities: &[&str], inputs: &[&str]) -> AccessPattern {
        AccessPattern {
            name: name.into(),
            description: String::new(),
            action: Action::Read,
            entities: entities.iter().map(|s| s.to_string()).collect(),
            inputs: inputs.iter().map(|s| s.to_string()).collect(),
            sort: None,
            filter: Vec::new(),
            order: Order::Asc,
            order_by: None,
            consistent: false,
            rate: 1.0,
            peak_factor: 1.0,
            page_size: None,
            changes: Vec::new(),
            writes: Vec::new(),
            condition: None,
        }
    }

    pub fn is_read(&self) -> bool {
        self.action.is_read()
    }

    /// Requests per second averaged over a month: the peak `rate` over the `peak_factor` (a
    /// factor under 1, or not a number, counts as 1: the average cannot exceed the peak).
    pub fn average_rate(&self) -> f64 {
        let factor = if self.peak_factor.is_finite() && self.peak_factor > 1.0 {
            self.peak_factor
        } else {
            1.0
        };
        self.rate / factor
    }
}

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
mod tests {
    use super::*;

    // `fills` says what `key_template` finds: an own template, an attribute of the key's
    // name, or neither.
    #[test]
    fn an_entity_fills_the_keys_it_has_a_template_for() {
        for (_, design) in crate::examples::all() {
            for entity in &design.entities {
                let names = design
                    .tables
                    .iter()
                    .flat_map(|t| t.key_attributes())
                    .map(|k| k.name.clone());
                let names = names.chain(entity.attributes.iter().map(|a| a.name.clone()));
                for name in names.chain(["nothing".to_string()]) {
                    assert_eq!(
                        entity.fills(&name),
                        entity.key_template(&name).is_some(),
                        "{} {name}",
                        entity.name
                    );
                }
            }
        }
    }

    // issue 14: each name is spelled once, and it is the design file's own (serde's).
    #[test]
    fn type_action_and_operator_names_read_back_and_match_the_file() {
        for ty in AttrType::ALL {
            assert_eq!(ty.as_str().parse::<AttrType>(), Ok(ty));
            assert_eq!(
                serde_json::to_string(&ty).unwrap_or_default(),
                format!("\"{}\"", ty.as_str())
            );
        }
        for action in Action::ALL {
            assert_eq!(action.as_str().parse::<Action>(), Ok(action));
            assert_eq!(
                serde_json::to_string(&action).unwrap_or_default(),
                format!("\"{}\"", action.as_str())
            );
        }
        for op in FilterOp::ALL {
            assert_eq!(op.as_str().parse::<FilterOp>(), Ok(op));
            assert_eq!(
                serde_json::to_string(&op).unwrap_or_default(),
                format!("\"{}\"", op.as_str())
            );
        }
        for op in SortOp::ALL {
            assert_eq!(op.as_str().parse::<SortOp>(), Ok(op));
            assert_eq!(
                serde_json::to_string(&op).unwrap_or_default(),
                format!("\"{}\"", op.as_str())
            );
        }
        assert_eq!(
            "bool".parse::<AttrType>(),
            Err(
                "`bool` is not an attribute type: one of S, N, B, BOOL, NULL, M, L, SS, NS, BS"
                    .to_string()
            )
        );
        assert_eq!(
            "~".parse::<SortOp>(),
            Err(
                "`~` is not a sort-key operator: one of =, <, <=, >, >=, between, begins_with"
                    .to_string()
            )
        );
    }

    // issue 13: the key attributes are deduplicated through a set and one is found without
    // listing them all; both must keep the first of each name in index order (table, GSIs,
    // LSIs), as the search through the list did, with its type.
    #[test]
    fn key_attributes_are_each_name_once_in_index_order_and_the_first_is_found() {
        let table = Table {
            name: "t".into(),
            partition_key: KeyAttribute::new("PK", KeyType::S),
            sort_key: Some(KeyAttribute::new("SK", KeyType::S)),
            gsis: vec![
                Gsi {
                    name: "G1".into(),
                    partition_key: vec![KeyAttribute::new("SK", KeyType::N)],
                    sort_key: vec![KeyAttribute::new("G1SK", KeyType::N)],
                    projection: Projection::All,
                },
                Gsi {
                    name: "G2".into(),
                    partition_key: vec![
                        KeyAttribute::new("a", KeyType::S),
                        KeyAttribute::new("G1SK", KeyType::S),
                    ],
                    sort_key: Vec::new(),
                    projection: Projection::KeysOnly,
                },
            ],
            lsis: vec![Lsi {
                name: "L1".into(),
                sort_key: KeyAttribute::new("a", KeyType::B),
                projection: Projection::All,
            }],
            billing: Billing::OnDemand,
            ttl_attribute: None,
            replicas: Vec::new(),
        };
        let listed: Vec<String> = table
            .key_attributes()
            .iter()
            .map(|k| format!("{} {:?}", k.name, k.ty))
            .collect();
        assert_eq!(listed, ["PK S", "SK S", "G1SK N", "a S"]);
        for key in table.key_attributes() {
            assert_eq!(table.key_attribute(&key.name), Some(key));
        }
        assert_eq!(table.key_attribute("b"), None);
    }
}
