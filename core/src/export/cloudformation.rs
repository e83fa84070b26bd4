//! CloudFormation: one `AWS::DynamoDB::Table` per table, in JSON or YAML; a table with
//! replicas is an `AWS::DynamoDB::GlobalTable` instead (see [`global`]).
//!
//! AttributeDefinitions hold exactly the key attributes of the table and its indexes
//! ([`Table::key_attributes`]): CloudFormation rejects any other. The shapes of the DynamoDB
//! API that CloudFormation and CreateTable share (key schemas, indexes, projections) live here
//! as typed structs, so the wire format is written in one place.

use serde::Serialize;
use serde::ser::SerializeMap;

mod scaling;

use crate::export::ExportError;
use crate::export::names::{self, Lang, Scope};
use crate::model::{Billing, Capacity, Design, KeyAttribute, KeyType, Projection, Table};

mod global;

/// A map that serialises in insertion order (serde_json sorts its own maps).
#[derive(Debug)]
pub struct Ordered<V>(pub Vec<(String, V)>);

impl<V: Serialize> Serialize for Ordered<V> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct AttributeDefinition {
    pub attribute_name: String,
    pub attribute_type: &'static str,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct KeySchemaElement {
    pub attribute_name: String,
    pub key_type: &'static str,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct ProjectionSpec {
    pub projection_type: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub non_key_attributes: Option<Vec<String>>,
}

#[derive(Debug, Clone, Copy, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct Throughput {
    pub read_capacity_units: u64,
    pub write_capacity_units: u64,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct IndexSpec {
    pub index_name: String,
    pub key_schema: Vec<KeySchemaElement>,
    pub projection: ProjectionSpec,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub provisioned_throughput: Option<Throughput>,
}

pub fn key_type(ty: KeyType) -> &'static str {
    match ty {
        KeyType::S => "S",
        KeyType::N => "N",
        KeyType::B => "B",
    }
}

pub fn attribute_definitions(table: &Table) -> Vec<AttributeDefinition> {
    table
        .key_attributes()
        .into_iter()
        .map(|k| AttributeDefinition {
            attribute_name: k.name.clone(),
            attribute_type: key_type(k.ty),
        })
        .collect()
}

/// HASH elements then RANGE elements, in order (a multi-attribute GSI key has several).
/// The table's own key schema: its partition key, then its sort key if it has one.
pub fn table_key_schema(table: &Table) -> Vec<KeySchemaElement> {
    key_schema(
        std::slice::from_ref(&table.partition_key),
        table.sort_key.as_slice(),
    )
}

pub fn key_schema(partition: &[KeyAttribute], sort: &[KeyAttribute]) -> Vec<KeySchemaElement> {
    let hash = partition.iter().map(|k| KeySchemaElement {
        attribute_name: k.name.clone(),
        key_type: "HASH",
    });
    let range = sort.iter().map(|k| KeySchemaElement {
        attribute_name: k.name.clone(),
        key_type: "RANGE",
    });
    hash.chain(range).collect()
}

pub fn projection(p: &Projection) -> ProjectionSpec {
    match p {
        Projection::All => ProjectionSpec {
            projection_type: "ALL",
            non_key_attributes: None,
        },
        Projection::KeysOnly => ProjectionSpec {
            projection_type: "KEYS_ONLY",
            non_key_attributes: None,
        },
        Projection::Include { attributes } => ProjectionSpec {
            projection_type: "INCLUDE",
            non_key_attributes: Some(attributes.clone()),
        },
    }
}

/// The table's ProvisionedThroughput, when it is provisioned.
pub fn throughput(billing: &Billing) -> Option<Throughput> {
    billing.table_capacity().map(capacity_throughput)
}

/// A capacity as a ProvisionedThroughput (at least 1 unit each: DynamoDB's least).
pub fn capacity_throughput(capacity: Capacity) -> Throughput {
    Throughput {
        read_capacity_units: capacity.read.max(1),
        write_capacity_units: capacity.write.max(1),
    }
}

pub fn billing_mode(billing: &Billing) -> &'static str {
    match billing {
        Billing::OnDemand => "PAY_PER_REQUEST",
        Billing::Provisioned { .. } => "PROVISIONED",
    }
}

pub fn gsis(table: &Table) -> Option<Vec<IndexSpec>> {
    let specs = gsi_specs(table, true);
    (!specs.is_empty()).then_some(specs)
}

/// Each GSI of `table`, with its own capacity when `with_capacity` (a global table states its
/// capacity elsewhere).
fn gsi_specs(table: &Table, with_capacity: bool) -> Vec<IndexSpec> {
    table
        .gsis
        .iter()
        .map(|g| IndexSpec {
            index_name: g.name.clone(),
            key_schema: key_schema(&g.partition_key, &g.sort_key),
            projection: projection(&g.projection),
            provisioned_throughput: table
                .billing
                .index_capacity(&g.name)
                .filter(|_| with_capacity)
                .map(capacity_throughput),
        })
        .collect()
}

/// TTL on the table's TTL attribute, if it has one.
fn time_to_live(table: &Table) -> Option<TimeToLive> {
    table.ttl_attribute.as_ref().map(|a| TimeToLive {
        attribute_name: a.clone(),
        enabled: true,
    })
}

/// `{ "AttributeName": "embedding" }`
#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct VectorAttribute {
    attribute_name: String,
}

/// One `VectorIndexes` entry (issue 40), CloudFormation's and CreateTable's: the shape
/// cfn-lint 1.58.0's resource schema of `AWS::DynamoDB::Table` and the API's
/// `CreateVectorIndexAction` give
/// (<https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-properties-dynamodb-table-vectorindex.html>,
/// <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_CreateVectorIndexAction.html>,
/// read 2026-12-05).
#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct VectorIndexSpec {
    index_name: String,
    vector_attribute: VectorAttribute,
    dimensions: u32,
    distance_function: &'static str,
    projection: ProjectionSpec,
}

/// The table's `VectorIndexes`, or `None` when it has none (the property is left out: its
/// schema takes at least one).
pub fn vector_indexes(table: &Table) -> Option<Vec<VectorIndexSpec>> {
    let specs: Vec<VectorIndexSpec> = table
        .vector_indexes
        .iter()
        .map(|v| VectorIndexSpec {
            index_name: v.name.clone(),
            vector_attribute: VectorAttribute {
                attribute_name: v.attribute.clone(),
            },
            dimensions: v.dimensions,
            distance_function: v.distance.as_str(),
            projection: projection(&v.projection),
        })
        .collect();
    (!specs.is_empty()).then_some(specs)
}

pub fn lsis(table: &Table) -> Option<Vec<IndexSpec>> {
    let specs: Vec<IndexSpec> = table
        .lsis
        .iter()
        .map(|l| IndexSpec {
            index_name: l.name.clone(),
            key_schema: key_schema(
                std::slice::from_ref(&table.partition_key),
                std::slice::from_ref(&l.sort_key),
            ),
            projection: projection(&l.projection),
            provisioned_throughput: None,
        })
        .collect();
    (!specs.is_empty()).then_some(specs)
}

#[derive(Debug, Serialize)]
struct Template {
    #[serde(rename = "AWSTemplateFormatVersion")]
    version: &'static str,
    #[serde(rename = "Description")]
    description: String,
    #[serde(rename = "Parameters")]
    parameters: Ordered<Parameter>,
    #[serde(rename = "Resources")]
    resources: Ordered<AnyResource>,
    #[serde(rename = "Outputs")]
    outputs: Ordered<Output>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
struct Parameter {
    #[serde(rename = "Type")]
    ty: &'static str,
    default: &'static str,
    description: &'static str,
    allowed_pattern: &'static str,
    max_length: u32,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
struct Resource {
    #[serde(rename = "Type")]
    ty: &'static str,
    deletion_policy: &'static str,
    update_replace_policy: &'static str,
    properties: Properties,
}

/// A table, or a resource of its auto scaling.
#[derive(Debug, Serialize)]
#[serde(untagged)]
enum AnyResource {
    Table(Box<Resource>),
    Scaling(scaling::ScalingResource),
}

/// A table's properties, or a global table's.
#[derive(Debug, Serialize)]
#[serde(untagged)]
enum Properties {
    Table(Box<TableProperties>),
    Global(Box<global::GlobalTableProperties>),
}

#[derive(Debug, Serialize)]
struct Sub {
    #[serde(rename = "Fn::Sub")]
    sub: String,
}

#[derive(Debug, Serialize)]
struct Ref {
    #[serde(rename = "Ref")]
    reference: String,
}

#[derive(Debug, Serialize)]
struct GetAtt {
    #[serde(rename = "Fn::GetAtt")]
    get_att: [String; 2],
}

#[derive(Debug, Serialize)]
#[serde(untagged)]
enum Value {
    Ref(Ref),
    GetAtt(GetAtt),
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
struct Export {
    name: Sub,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
struct Output {
    description: String,
    value: Value,
    export: Export,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
struct PointInTimeRecovery {
    point_in_time_recovery_enabled: bool,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
struct Sse {
    #[serde(rename = "SSEEnabled")]
    sse_enabled: bool,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
struct TimeToLive {
    attribute_name: String,
    enabled: bool,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
struct TableProperties {
    table_name: Sub,
    attribute_definitions: Vec<AttributeDefinition>,
    key_schema: Vec<KeySchemaElement>,
    #[serde(skip_serializing_if = "Option::is_none")]
    global_secondary_indexes: Option<Vec<IndexSpec>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    local_secondary_indexes: Option<Vec<IndexSpec>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    vector_indexes: Option<Vec<VectorIndexSpec>>,
    billing_mode: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    provisioned_throughput: Option<Throughput>,
    point_in_time_recovery_specification: PointInTimeRecovery,
    #[serde(rename = "SSESpecification")]
    sse_specification: Sse,
    #[serde(skip_serializing_if = "Option::is_none")]
    time_to_live_specification: Option<TimeToLive>,
    deletion_protection_enabled: bool,
}

const ENVIRONMENT: &str = "Environment";

fn template(design: &Design) -> Template {
    let mut ids = Scope::with_taken(&[ENVIRONMENT]);
    let mut resources = Vec::new();
    let mut outputs = Vec::new();
    for table in &design.tables {
        let id = ids.unique(names::valid(
            &format!("{}Table", names::pascal(&table.name)),
            Lang::CloudFormation,
            "Table",
        ));
        // `${` would start a substitution; `${!` is CloudFormation's literal escape.
        let table_name = Sub {
            sub: format!("{}-${{{ENVIRONMENT}}}", table.name.replace("${", "${!")),
        };
        let (ty, properties) = if table.replicas.is_empty() {
            let properties = table_properties(table, table_name);
            (
                "AWS::DynamoDB::Table",
                Properties::Table(Box::new(properties)),
            )
        } else {
            let properties = global::properties(table, table_name);
            (
                "AWS::DynamoDB::GlobalTable",
                Properties::Global(Box::new(properties)),
            )
        };
        let name_output = ids.unique(format!("{id}Name"));
        outputs.push((
            name_output.clone(),
            Output {
                description: format!("The name of the {} table", table.name),
                value: Value::Ref(Ref {
                    reference: id.clone(),
                }),
                export: Export {
                    name: Sub {
                        sub: format!("${{AWS::StackName}}-{name_output}"),
                    },
                },
            },
        ));
        let arn_output = ids.unique(format!("{id}Arn"));
        outputs.push((
            arn_output.clone(),
            Output {
                description: format!("The ARN of the {} table", table.name),
                value: Value::GetAtt(GetAtt {
                    get_att: [id.clone(), "Arn".to_string()],
                }),
                export: Export {
                    name: Sub {
                        sub: format!("${{AWS::StackName}}-{arn_output}"),
                    },
                },
            },
        ));
        // A global table states its auto scaling in its own properties.
        let scaling = match table.replicas.is_empty() {
            true => scaling::resources(table, &id, |wanted| ids.unique(wanted)),
            false => Vec::new(),
        };
        resources.push((
            id,
            AnyResource::Table(Box::new(Resource {
                ty,
                deletion_policy: "Retain",
                update_replace_policy: "Retain",
                properties,
            })),
        ));
        resources.extend(
            scaling
                .into_iter()
                .map(|(id, resource)| (id, AnyResource::Scaling(resource))),
        );
    }
    let description = if design.description.is_empty() {
        format!("DynamoDB tables of {} (exported by keyplan)", design.name)
    } else {
        format!(
            "DynamoDB tables of {} (exported by keyplan): {}",
            design.name,
            names::one_line(&design.description)
        )
    };
    Template {
        version: "2010-09-09",
        // CloudFormation's limit on a template description is 1024 bytes.
        description: truncate(&description, 1024),
        parameters: Ordered(vec![(
            ENVIRONMENT.to_string(),
            Parameter {
                ty: "String",
                default: "dev",
                description: "Suffix of every table name, so one template serves each stage",
                allowed_pattern: "^[a-zA-Z0-9_.-]+$",
                max_length: 32,
            },
        )]),
        resources: Ordered(resources),
        outputs: Ordered(outputs),
    }
}

/// The properties of a table without replicas, named `table_name`.
fn table_properties(table: &Table, table_name: Sub) -> TableProperties {
    TableProperties {
        table_name,
        attribute_definitions: attribute_definitions(table),
        key_schema: table_key_schema(table),
        global_secondary_indexes: gsis(table),
        local_secondary_indexes: lsis(table),
        vector_indexes: vector_indexes(table),
        billing_mode: billing_mode(&table.billing),
        provisioned_throughput: throughput(&table.billing),
        point_in_time_recovery_specification: PointInTimeRecovery {
            point_in_time_recovery_enabled: true,
        },
        sse_specification: Sse { sse_enabled: true },
        time_to_live_specification: time_to_live(table),
        deletion_protection_enabled: true,
    }
}

fn truncate(s: &str, max_bytes: usize) -> String {
    if s.len() <= max_bytes {
        return s.to_string();
    }
    let mut end = max_bytes - 3;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}...", &s[..end])
}

pub fn json(design: &Design) -> String {
    let mut text = names::json_pretty(&template(design))
        .unwrap_or_else(|e| unreachable!("a template always serialises: {e}"));
    text.push('\n');
    text
}

/// The template in YAML; refused for a design with a hidden character in a name (KP030): the
/// YAML writer would put a name holding a line break in a block scalar, one line of the file per
/// line of the name, where no other export writes a line the design made (issue 41).
pub fn yaml(design: &Design) -> Result<String, ExportError> {
    if let Some(why) = crate::findings::first_hidden_character(design) {
        return Err(ExportError::HiddenCharacter(
            why,
            super::Target::CloudFormationYaml,
        ));
    }
    serde_norway::to_string(&template(design)).map_err(|e| ExportError::Yaml(e.to_string()))
}
