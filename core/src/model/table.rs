//! A table as the design states it: its primary key, its secondary indexes (GSIs, with keys of
//! up to four attributes, and LSIs), their projections, its billing, TTL and replicas; and
//! [`IndexKeys`], one view of the table's key or any index's, which the rest of core reads.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{KeyType, VectorIndex};

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
    /// Its vector indexes, searched by similarity with `SearchVectors` (no Query reads them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub vector_indexes: Vec<VectorIndex>,
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
            vector_indexes: Vec::new(),
        }
    }

    pub fn gsi(&self, name: &str) -> Option<&Gsi> {
        self.gsis.iter().find(|g| g.name == name)
    }

    pub fn lsi(&self, name: &str) -> Option<&Lsi> {
        self.lsis.iter().find(|l| l.name == name)
    }

    pub fn vector_index(&self, name: &str) -> Option<&VectorIndex> {
        self.vector_indexes.iter().find(|v| v.name == name)
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

    /// Every dimension of the table (`None`) and of its GSIs that auto-scales, with its bounds:
    /// what the exports write as scalable targets. A GSI without capacity of its own scales
    /// as the table does.
    pub fn scaled(&self) -> Vec<(Option<&str>, Dimension, Scaling)> {
        let places = std::iter::once((None, self.billing.table_capacity())).chain(
            self.gsis
                .iter()
                .map(|g| (Some(g.name.as_str()), self.billing.index_capacity(&g.name))),
        );
        let mut out = Vec::new();
        for (index, capacity) in places {
            let Some(scaling) = capacity.and_then(|c| c.auto_scaling) else {
                continue;
            };
            for (dimension, bounds) in [
                (Dimension::Read, scaling.read),
                (Dimension::Write, scaling.write),
            ] {
                out.extend(bounds.map(|bounds| (index, dimension, bounds)));
            }
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
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "mode", rename_all = "snake_case", deny_unknown_fields)]
pub enum Billing {
    #[default]
    OnDemand,
    /// Capacity given in advance: the table's read and write capacity units, the bounds auto
    /// scaling keeps them in, and each GSI's own ([`Billing::index_capacity`]).
    Provisioned {
        read: u64,
        write: u64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        auto_scaling: Option<AutoScaling>,
        /// Each GSI's own capacity, by index name: a GSI of a provisioned table has capacity
        /// of its own (<https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html#GSI.ThroughputConsiderations>);
        /// one not named here has the table's, as the exports write it.
        #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
        indexes: BTreeMap<String, Capacity>,
    },
}

impl Billing {
    /// Provisioned capacity of `read` and `write` units, without auto scaling, every GSI with
    /// the same.
    pub fn provisioned(read: u64, write: u64) -> Billing {
        Billing::Provisioned {
            read,
            write,
            auto_scaling: None,
            indexes: BTreeMap::new(),
        }
    }

    /// Sets each GSI's own capacity, keeping apart only those that differ from the table's: a
    /// GSI not listed takes the table's, and the sources that state every GSI's (a global
    /// table, Terraform's GSI blocks) state it equal to the table's when it is the same.
    pub fn set_index_capacity(&mut self, given: BTreeMap<String, Capacity>) {
        if let Billing::Provisioned { indexes, .. } = self {
            *indexes = given;
        }
        self.fold_index_capacity();
    }

    /// Forgets each GSI capacity equal to the table's, auto scaling included: such a GSI takes
    /// the table's. An importer calls it once every scalable target is given
    /// ([`Billing::set_scaling`] gives a GSI a capacity of its own target by target).
    pub fn fold_index_capacity(&mut self) {
        let own = self.table_capacity();
        if let Billing::Provisioned { indexes, .. } = self {
            indexes.retain(|_, capacity| !capacity.is_the_tables(own));
        }
    }

    /// The table's own capacity, when it is provisioned.
    pub fn table_capacity(&self) -> Option<Capacity> {
        match self {
            Billing::OnDemand => None,
            Billing::Provisioned {
                read,
                write,
                auto_scaling,
                ..
            } => Some(Capacity {
                read: *read,
                write: *write,
                auto_scaling: *auto_scaling,
            }),
        }
    }

    /// Gives the table (`index: None`) or its GSI `index` auto scaling of `dimension` within
    /// `scaling`, the GSI taking the table's capacity first when it has none of its own; false
    /// when the table is on-demand, which has no capacity to scale.
    pub fn set_scaling(
        &mut self,
        index: Option<&str>,
        dimension: Dimension,
        scaling: Scaling,
    ) -> bool {
        let table_capacity = self.table_capacity();
        let (
            Billing::Provisioned {
                auto_scaling,
                indexes,
                ..
            },
            Some(table),
        ) = (self, table_capacity)
        else {
            return false;
        };
        let auto_scaling = match index {
            None => auto_scaling,
            Some(index) => {
                &mut indexes
                    .entry(index.to_string())
                    .or_insert(Capacity {
                        auto_scaling: None,
                        ..table
                    })
                    .auto_scaling
            }
        };
        let bounds = auto_scaling.get_or_insert_with(AutoScaling::default);
        match dimension {
            Dimension::Read => bounds.read = Some(scaling),
            Dimension::Write => bounds.write = Some(scaling),
        }
        true
    }

    /// The capacity of the GSI `index`, when the table is provisioned: its own, else the
    /// table's.
    pub fn index_capacity(&self, index: &str) -> Option<Capacity> {
        match self {
            Billing::OnDemand => None,
            Billing::Provisioned { indexes, .. } => indexes
                .get(index)
                .copied()
                .or_else(|| self.table_capacity()),
        }
    }
}

/// Reads or writes: one of a capacity's two dimensions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Dimension {
    Read,
    Write,
}

impl Dimension {
    /// `read`, `write`.
    pub fn word(self) -> &'static str {
        match self {
            Dimension::Read => "read",
            Dimension::Write => "write",
        }
    }
}

/// Provisioned capacity of a table or a GSI: read and write capacity units, and the bounds
/// auto scaling keeps them in.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Capacity {
    pub read: u64,
    pub write: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub auto_scaling: Option<AutoScaling>,
}

impl Capacity {
    /// Whether a GSI given this capacity takes its table's (`table`, auto scaling included)
    /// and has none of its own: the one rule by which an edit ([`Billing::set_units`]) and an
    /// import ([`Billing::fold_index_capacity`]) forget a GSI's capacity.
    pub(super) fn is_the_tables(&self, table: Option<Capacity>) -> bool {
        Some(*self) == table
    }
}

/// Auto scaling of a table's or a GSI's capacity, each of reads and writes on its own, as
/// Application Auto Scaling states it (a scalable target's bounds and a target-tracking
/// policy's utilisation: <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/AutoScaling.html>).
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct AutoScaling {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read: Option<Scaling>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub write: Option<Scaling>,
}

/// The bounds auto scaling keeps one dimension's capacity units in, and the share of them it
/// aims to use.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Scaling {
    pub min: u64,
    pub max: u64,
    /// The target utilisation in percent (AWS takes 20 to 90); absent, AWS's default of 70.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<f64>,
}

impl Scaling {
    /// The target utilisation auto scaling aims at when none is given, in percent: AWS's
    /// default (<https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/AutoScaling.html>).
    pub const DEFAULT_TARGET: f64 = 70.0;

    /// The target utilisation in percent, AWS's default when none is given.
    pub fn target_or_default(&self) -> f64 {
        self.target.unwrap_or(Scaling::DEFAULT_TARGET)
    }
}
