//! The AWS CLI's `aws dynamodb create-table --cli-input-json file://table.json` input.
//!
//! One table gives one CreateTable request object; a design with several tables gives a JSON
//! array of them (`jq -c '.[0]'` picks one). CreateTable cannot switch on TTL or point-in-time
//! recovery: those are separate calls (`update-time-to-live`, `update-continuous-backups`),
//! which the Markdown document lists.

use serde::Serialize;

use crate::export::cloudformation::{
    self, AttributeDefinition, IndexSpec, KeySchemaElement, Throughput,
};
use crate::export::names;
use crate::model::{Design, Table};

#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
struct Sse {
    enabled: bool,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
struct CreateTableInput {
    table_name: String,
    attribute_definitions: Vec<AttributeDefinition>,
    key_schema: Vec<KeySchemaElement>,
    #[serde(skip_serializing_if = "Option::is_none")]
    global_secondary_indexes: Option<Vec<IndexSpec>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    local_secondary_indexes: Option<Vec<IndexSpec>>,
    /// CreateTable's `VectorIndexes` (the embedded engine, dynoxide 3.2, reads the same key).
    #[serde(skip_serializing_if = "Option::is_none")]
    vector_indexes: Option<Vec<cloudformation::VectorIndexSpec>>,
    billing_mode: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    provisioned_throughput: Option<Throughput>,
    #[serde(rename = "SSESpecification")]
    sse_specification: Sse,
    deletion_protection_enabled: bool,
}

fn input(table: &Table) -> CreateTableInput {
    CreateTableInput {
        table_name: table.name.clone(),
        attribute_definitions: cloudformation::attribute_definitions(table),
        key_schema: cloudformation::table_key_schema(table),
        global_secondary_indexes: cloudformation::gsis(table),
        local_secondary_indexes: cloudformation::lsis(table),
        vector_indexes: cloudformation::vector_indexes(table),
        billing_mode: cloudformation::billing_mode(&table.billing),
        provisioned_throughput: cloudformation::throughput(&table.billing),
        sse_specification: Sse { enabled: true },
        deletion_protection_enabled: true,
    }
}

pub fn create_table(design: &Design) -> String {
    let inputs: Vec<CreateTableInput> = design.tables.iter().map(input).collect();
    let text = match inputs.as_slice() {
        [one] => names::json_pretty(one),
        _ => names::json_pretty(&inputs),
    };
    let mut text = text.unwrap_or_else(|e| unreachable!("CreateTable input serialises: {e}"));
    text.push('\n');
    text
}
