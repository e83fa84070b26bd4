//! NoSQL Workbench data model JSON, format 3.0: a DataModel entry per table with its GSIs, a
//! facet per entity (key aliases from the entity's key templates, its attributes) and the
//! sample items ([`crate::sample`]: imported ones kept, the rest generated) as each facet's
//! TableData, so a design travels to the AWS tool and back
//! through keyplan's importer.
//!
//! Workbench has no LSIs, no multi-attribute GSI keys, no vector indexes and no access
//! patterns: LSIs, the extra attributes of a multi-attribute key and vector indexes are left
//! out (the CloudFormation export keeps them), the first attribute of each key standing for
//! it, and [`left_out`] says so, a line each, for the export's warnings (issue 40). Format 3.0
//! holds a table's key attributes, non-key attributes, GSIs, facets, data and billing, and
//! nothing else: none of the Workbench models in the shared corpus (awslabs'
//! amazon-dynamodb-design-patterns) has a field for the others.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::export::cloudformation::key_type;
use crate::export::names;
use crate::item::Item;
use crate::model::{AttrType, Billing, Design, Entity, KeyAttribute, Projection, Table};
use crate::sample::SampleData;

#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
struct Model {
    model_name: String,
    model_metadata: Metadata,
    data_model: Vec<TableModel>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
struct Metadata {
    author: &'static str,
    date_created: &'static str,
    date_last_modified: &'static str,
    description: String,
    #[serde(rename = "AWSService")]
    aws_service: &'static str,
    version: &'static str,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
struct Attr {
    attribute_name: String,
    attribute_type: &'static str,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
struct KeyAttributes {
    partition_key: Attr,
    #[serde(skip_serializing_if = "Option::is_none")]
    sort_key: Option<Attr>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
struct ProjectionModel {
    projection_type: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    non_key_attributes: Option<Vec<String>>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
struct GsiModel {
    index_name: String,
    key_attributes: KeyAttributes,
    projection: ProjectionModel,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
struct Alias {
    partition_key_alias: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    sort_key_alias: Option<String>,
}

#[derive(Debug, Serialize)]
struct Empty {}

#[derive(Debug, Serialize)]
struct DataAccess {
    #[serde(rename = "MySql")]
    my_sql: Empty,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
struct Facet {
    facet_name: String,
    key_attribute_alias: Alias,
    table_data: Vec<Item>,
    non_key_attributes: Vec<String>,
    data_access: DataAccess,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
struct Throughput {
    read_capacity_units: u64,
    write_capacity_units: u64,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
struct Capacity {
    provisioned_throughput: Throughput,
    #[serde(skip_serializing_if = "Option::is_none")]
    auto_scaling_read: Option<AutoScaling>,
    #[serde(skip_serializing_if = "Option::is_none")]
    auto_scaling_write: Option<AutoScaling>,
}

/// One dimension's auto scaling, as Workbench writes it (its models in AWS's
/// aws-dynamodb-examples state `ScalableTargetRequest` and `ScalingPolicyConfiguration`).
#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
struct AutoScaling {
    scalable_target_request: ScalableTarget,
    #[serde(skip_serializing_if = "Option::is_none")]
    scaling_policy_configuration: Option<ScalingPolicy>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
struct ScalableTarget {
    min_capacity: u64,
    max_capacity: u64,
    service_role: &'static str,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
struct ScalingPolicy {
    target_value: f64,
}

impl AutoScaling {
    fn of(scaling: Option<crate::model::Scaling>) -> Option<AutoScaling> {
        let scaling = scaling?;
        Some(AutoScaling {
            scalable_target_request: ScalableTarget {
                min_capacity: scaling.min,
                max_capacity: scaling.max,
                service_role: "AWSServiceRoleForApplicationAutoScaling_DynamoDBTable",
            },
            scaling_policy_configuration: scaling
                .target
                .map(|target_value| ScalingPolicy { target_value }),
        })
    }
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
struct TableModel {
    table_name: String,
    key_attributes: KeyAttributes,
    non_key_attributes: Vec<Attr>,
    table_facets: Vec<Facet>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    global_secondary_indexes: Vec<GsiModel>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    table_data: Vec<Item>,
    data_access: DataAccess,
    billing_mode: &'static str,
    provisioned_capacity_settings: Capacity,
}

fn attr_type(ty: AttrType) -> &'static str {
    ty.as_str()
}

fn key_attr(k: &KeyAttribute) -> Attr {
    Attr {
        attribute_name: k.name.clone(),
        attribute_type: key_type(k.ty),
    }
}

fn table_model<'a>(design: &'a Design, sample: &SampleData, table: &'a Table) -> TableModel {
    let table_keys: Vec<&str> = table.primary_key().map(|k| k.name.as_str()).collect();
    // Table NonKeyAttributes: the index keys, then every entity attribute, each once (the
    // names so far in a set: a big table's attributes are not searched for each one).
    let mut non_key: Vec<Attr> = Vec::new();
    let mut listed: BTreeSet<&str> = table_keys.iter().copied().collect();
    let mut push = |name: &'a str, ty: &'static str| {
        if listed.insert(name) {
            non_key.push(Attr {
                attribute_name: name.to_string(),
                attribute_type: ty,
            });
        }
    };
    for k in table.key_attributes() {
        push(&k.name, key_type(k.ty));
    }
    let entities: Vec<&Entity> = design.entities_in(&table.name).collect();
    for e in &entities {
        for a in &e.attributes {
            push(&a.name, attr_type(a.ty));
        }
    }

    // The position of the first entity of each name.
    let mut position: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, e) in entities.iter().enumerate() {
        position.entry(e.name.as_str()).or_insert(i);
    }
    let mut by_entity: Vec<Vec<Item>> = vec![Vec::new(); entities.len()];
    let mut unmatched = Vec::new();
    for sample in sample.items.iter().filter(|i| i.table == table.name) {
        match sample
            .entity
            .as_deref()
            .and_then(|e| position.get(e).copied())
        {
            Some(i) => by_entity[i].push(sample.item.clone()),
            None => unmatched.push(sample.item.clone()),
        }
    }

    let facets = entities
        .iter()
        .zip(by_entity)
        .map(|(e, table_data)| {
            let alias = |k: &KeyAttribute| {
                e.key_template(&k.name)
                    .map(|t| t.source().to_string())
                    .unwrap_or_else(|| k.name.clone())
            };
            let mut non_key_attributes: Vec<String> = Vec::new();
            for index in table.indexes().iter().skip(1) {
                for k in index.partition_key.iter().chain(index.sort_key) {
                    if e.fills(&k.name)
                        && !non_key_attributes.contains(&k.name)
                        && !table_keys.contains(&k.name.as_str())
                    {
                        non_key_attributes.push(k.name.clone());
                    }
                }
            }
            for a in &e.attributes {
                if !non_key_attributes.contains(&a.name) && !table_keys.contains(&a.name.as_str()) {
                    non_key_attributes.push(a.name.clone());
                }
            }
            Facet {
                facet_name: e.name.clone(),
                key_attribute_alias: Alias {
                    partition_key_alias: alias(&table.partition_key),
                    sort_key_alias: table.sort_key.as_ref().map(alias),
                },
                table_data,
                non_key_attributes,
                data_access: DataAccess { my_sql: Empty {} },
            }
        })
        .collect();

    let (read, write, scaling) = match &table.billing {
        Billing::OnDemand => (0, 0, None),
        Billing::Provisioned {
            read,
            write,
            auto_scaling,
            ..
        } => (*read, *write, *auto_scaling),
    };
    TableModel {
        table_name: table.name.clone(),
        key_attributes: KeyAttributes {
            partition_key: key_attr(&table.partition_key),
            sort_key: table.sort_key.as_ref().map(key_attr),
        },
        non_key_attributes: non_key,
        table_facets: facets,
        global_secondary_indexes: table
            .gsis
            .iter()
            .filter_map(|g| {
                Some(GsiModel {
                    index_name: g.name.clone(),
                    key_attributes: KeyAttributes {
                        partition_key: key_attr(g.partition_key.first()?),
                        sort_key: g.sort_key.first().map(key_attr),
                    },
                    projection: match &g.projection {
                        Projection::All => ProjectionModel {
                            projection_type: "ALL",
                            non_key_attributes: None,
                        },
                        Projection::KeysOnly => ProjectionModel {
                            projection_type: "KEYS_ONLY",
                            non_key_attributes: None,
                        },
                        Projection::Include { attributes } => ProjectionModel {
                            projection_type: "INCLUDE",
                            non_key_attributes: Some(attributes.clone()),
                        },
                    },
                })
            })
            .collect(),
        table_data: unmatched,
        data_access: DataAccess { my_sql: Empty {} },
        billing_mode: match table.billing {
            Billing::OnDemand => "PAY_PER_REQUEST",
            Billing::Provisioned { .. } => "PROVISIONED",
        },
        provisioned_capacity_settings: Capacity {
            provisioned_throughput: Throughput {
                read_capacity_units: read,
                write_capacity_units: write,
            },
            auto_scaling_read: AutoScaling::of(scaling.and_then(|s| s.read)),
            auto_scaling_write: AutoScaling::of(scaling.and_then(|s| s.write)),
        },
    }
}

pub fn workbench(design: &Design) -> String {
    // The sample generator keeps imported items and fills in the rest, each with its entity.
    let sample = super::export_sample(design);
    let model = Model {
        model_name: design.name.clone(),
        model_metadata: Metadata {
            author: "keyplan",
            // Fixed, so an export is reproducible; Workbench fills these on save.
            date_created: "",
            date_last_modified: "",
            description: design.description.clone(),
            aws_service: "Amazon DynamoDB",
            version: "3.0",
        },
        data_model: design
            .tables
            .iter()
            .map(|t| table_model(design, &sample, t))
            .collect(),
    };
    let mut text = names::json_pretty(&model)
        .unwrap_or_else(|e| unreachable!("a Workbench model always serialises: {e}"));
    text.push('\n');
    text
}

/// What the Workbench model cannot hold and the export leaves out, a line each: each LSI, each
/// multi-attribute GSI key's later attributes and each vector index.
pub fn left_out(design: &Design) -> Vec<String> {
    let mut said = Vec::new();
    for table in &design.tables {
        for lsi in &table.lsis {
            said.push(format!(
                "table `{}`: LSI `{}` is left out: NoSQL Workbench's model has no local secondary indexes (the CloudFormation export keeps it)",
                table.name, lsi.name
            ));
        }
        for gsi in &table.gsis {
            let later: Vec<&str> = [&gsi.partition_key, &gsi.sort_key]
                .into_iter()
                .flat_map(|key| key.iter().skip(1))
                .map(|k| k.name.as_str())
                .collect();
            if !later.is_empty() {
                said.push(format!(
                    "table `{}`: GSI `{}`'s key attributes {} are left out, the first of each key standing for it: NoSQL Workbench's model has no multi-attribute keys (the CloudFormation export keeps them)",
                    table.name,
                    gsi.name,
                    later.join(", ")
                ));
            }
        }
        for index in &table.vector_indexes {
            said.push(format!(
                "table `{}`: vector index `{}` ({}, {} dimensions, {}) is left out: NoSQL Workbench's model has no vector indexes (the CloudFormation, CDK and CreateTable exports keep it)",
                table.name,
                index.name,
                index.attribute,
                index.dimensions,
                index.distance.as_str()
            ));
        }
    }
    said
}
