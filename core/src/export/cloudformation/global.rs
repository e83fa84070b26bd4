//! A table with replicas as an `AWS::DynamoDB::GlobalTable` (version 2019.11.21): an
//! `AWS::DynamoDB::Table` cannot state replicas, and AWS's reference for the GlobalTable
//! resource (docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-resource-dynamodb-globaltable.html)
//! has its `Replicas` list hold one replica in the stack's own Region, so the first is
//! `!Ref AWS::Region` and the design's replicas follow (which the import reads back as they
//! were). Streams with new and old images are on, as a global table with more than one
//! replica requires; recovery and deletion protection are per replica.
//!
//! A provisioned global table states its write capacity as auto-scaling bounds: the design's
//! write units are both the minimum and the maximum, so the capacity is the one designed; read
//! units are each replica's `ReadCapacityUnits`.

use serde::Serialize;

use super::{
    AttributeDefinition, KeySchemaElement, Sub, TimeToLive, VectorIndexSpec, attribute_definitions,
    billing_mode, gsi_specs, lsis, table_key_schema, time_to_live, vector_indexes,
};
use crate::export::cloudformation::IndexSpec;
use crate::model::{Capacity, Table};

/// The target utilisation of the write auto-scaling policy, in percent (DynamoDB's default).
const TARGET_UTILISATION: u32 = 70;

#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
pub(super) struct GlobalTableProperties {
    table_name: Sub,
    attribute_definitions: Vec<AttributeDefinition>,
    key_schema: Vec<KeySchemaElement>,
    #[serde(skip_serializing_if = "Option::is_none")]
    global_secondary_indexes: Option<Vec<GlobalIndexSpec>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    local_secondary_indexes: Option<Vec<IndexSpec>>,
    /// AWS::DynamoDB::GlobalTable takes `VectorIndexes` as AWS::DynamoDB::Table does (AWS's
    /// reference, aws-properties-dynamodb-globaltable-vectorindex.html, and cfn-lint 1.58.0's
    /// GlobalTable schema, read 2026-12-06); DynamoDB copies the index to every replica
    /// (developer guide, VectorSearchGlobalTables.html).
    #[serde(skip_serializing_if = "Option::is_none")]
    vector_indexes: Option<Vec<VectorIndexSpec>>,
    billing_mode: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    write_provisioned_throughput_settings: Option<WriteSettings>,
    stream_specification: Stream,
    #[serde(rename = "SSESpecification")]
    sse_specification: Sse,
    #[serde(skip_serializing_if = "Option::is_none")]
    time_to_live_specification: Option<TimeToLive>,
    replicas: Vec<Replica>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
struct GlobalIndexSpec {
    /// The GSI as a table states it, without throughput.
    #[serde(flatten)]
    index: IndexSpec,
    #[serde(skip_serializing_if = "Option::is_none")]
    write_provisioned_throughput_settings: Option<WriteSettings>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
struct WriteSettings {
    write_capacity_auto_scaling_settings: AutoScaling,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
struct AutoScaling {
    min_capacity: u64,
    max_capacity: u64,
    target_tracking_scaling_policy_configuration: TargetTracking,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
struct TargetTracking {
    target_value: u32,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
struct Stream {
    stream_view_type: &'static str,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
struct Sse {
    #[serde(rename = "SSEEnabled")]
    sse_enabled: bool,
}

#[derive(Debug, Serialize)]
#[serde(untagged)]
enum Region {
    Stack {
        #[serde(rename = "Ref")]
        reference: &'static str,
    },
    Named(String),
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
struct Replica {
    region: Region,
    point_in_time_recovery_specification: super::PointInTimeRecovery,
    deletion_protection_enabled: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    read_provisioned_throughput_settings: Option<ReadSettings>,
    #[serde(skip_serializing_if = "Option::is_none")]
    global_secondary_indexes: Option<Vec<ReplicaIndex>>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
struct ReadSettings {
    read_capacity_units: u64,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
struct ReplicaIndex {
    index_name: String,
    read_provisioned_throughput_settings: ReadSettings,
}

/// The write settings of a provisioned table or GSI: the design's units as both bounds.
/// The write auto scaling the design states, else its units as both bounds.
fn write_settings(capacity: Option<Capacity>) -> Option<WriteSettings> {
    let capacity = capacity?;
    let scaling = capacity.auto_scaling.and_then(|a| a.write);
    Some(WriteSettings {
        write_capacity_auto_scaling_settings: AutoScaling {
            min_capacity: scaling.map_or(capacity.write, |s| s.min).max(1),
            max_capacity: scaling.map_or(capacity.write, |s| s.max).max(1),
            target_tracking_scaling_policy_configuration: TargetTracking {
                target_value: scaling
                    .and_then(|s| s.target)
                    .map_or(TARGET_UTILISATION, |t| t.round() as u32),
            },
        },
    })
}

fn replica(table: &Table, region: Region) -> Replica {
    let read = table.billing.table_capacity().map(|c| c.read.max(1));
    let indexes: Option<Vec<ReplicaIndex>> = read.filter(|_| !table.gsis.is_empty()).map(|read| {
        table
            .gsis
            .iter()
            .map(|g| ReplicaIndex {
                index_name: g.name.clone(),
                read_provisioned_throughput_settings: ReadSettings {
                    read_capacity_units: read,
                },
            })
            .collect()
    });
    Replica {
        region,
        point_in_time_recovery_specification: super::PointInTimeRecovery {
            point_in_time_recovery_enabled: true,
        },
        deletion_protection_enabled: true,
        read_provisioned_throughput_settings: read.map(|read_capacity_units| ReadSettings {
            read_capacity_units,
        }),
        global_secondary_indexes: indexes,
    }
}

/// The GlobalTable properties of `table`, named `table_name`: its own Region's replica first,
/// then one per replica of the design.
pub(super) fn properties(table: &Table, table_name: Sub) -> GlobalTableProperties {
    let gsis: Vec<GlobalIndexSpec> = gsi_specs(table, false)
        .into_iter()
        .map(|index| GlobalIndexSpec {
            write_provisioned_throughput_settings: write_settings(
                table.billing.index_capacity(&index.index_name),
            ),
            index,
        })
        .collect();
    let own = Region::Stack {
        reference: "AWS::Region",
    };
    let replicas = std::iter::once(replica(table, own))
        .chain(
            table
                .replicas
                .iter()
                .map(|r| replica(table, Region::Named(r.clone()))),
        )
        .collect();
    GlobalTableProperties {
        table_name,
        attribute_definitions: attribute_definitions(table),
        key_schema: table_key_schema(table),
        global_secondary_indexes: (!gsis.is_empty()).then_some(gsis),
        local_secondary_indexes: lsis(table),
        vector_indexes: vector_indexes(table),
        billing_mode: billing_mode(&table.billing),
        write_provisioned_throughput_settings: write_settings(table.billing.table_capacity()),
        stream_specification: Stream {
            stream_view_type: "NEW_AND_OLD_IMAGES",
        },
        sse_specification: Sse { sse_enabled: true },
        time_to_live_specification: time_to_live(table),
        replicas,
    }
}
