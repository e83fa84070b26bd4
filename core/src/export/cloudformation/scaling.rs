//! A provisioned table's and each GSI's auto scaling as CloudFormation states it (issue 40
//! item 2): an `AWS::ApplicationAutoScaling::ScalableTarget` per table or GSI and dimension
//! that scales, its ResourceId `table/${Table}` (`/index/GSI1` for a GSI), and a
//! target-tracking `AWS::ApplicationAutoScaling::ScalingPolicy` on it at the target
//! utilisation (AWS's default of 70% when the design gives none), as the developer guide's
//! <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/AutoScaling.CloudFormation.html>
//! writes them. Without a RoleARN, Application Auto Scaling uses its service-linked role.

use serde::Serialize;

use super::{Ref, Sub};
use crate::model::{Dimension, Scaling, Table};

/// One resource of a table's auto scaling.
#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
pub(super) struct ScalingResource {
    #[serde(rename = "Type")]
    ty: &'static str,
    properties: ScalingProperties,
}

#[derive(Debug, Serialize)]
#[serde(untagged)]
enum ScalingProperties {
    Target(TargetProperties),
    Policy(PolicyProperties),
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
struct TargetProperties {
    max_capacity: u64,
    min_capacity: u64,
    resource_id: Sub,
    scalable_dimension: String,
    service_namespace: &'static str,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
struct PolicyProperties {
    policy_name: String,
    policy_type: &'static str,
    scaling_target_id: Ref,
    target_tracking_scaling_policy_configuration: TargetTracking,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
struct TargetTracking {
    target_value: f64,
    predefined_metric_specification: PredefinedMetric,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
struct PredefinedMetric {
    predefined_metric_type: String,
}

/// The table's and its GSIs' scaling targets and policies, each with its logical ID from
/// `unique` (given a wanted ID), the table's resource being `table_id`.
pub(super) fn resources(
    table: &Table,
    table_id: &str,
    mut unique: impl FnMut(String) -> String,
) -> Vec<(String, ScalingResource)> {
    table
        .scaled()
        .into_iter()
        .flat_map(|(index, dimension, bounds)| {
            pair(table_id, index, dimension, bounds, &mut unique)
        })
        .collect()
}

/// The scalable target and its policy for one table or GSI and dimension.
fn pair(
    table_id: &str,
    index: Option<&str>,
    dimension: Dimension,
    bounds: Scaling,
    unique: &mut impl FnMut(String) -> String,
) -> [(String, ScalingResource); 2] {
    let (units, metric) = match dimension {
        Dimension::Read => ("ReadCapacityUnits", "Read"),
        Dimension::Write => ("WriteCapacityUnits", "Write"),
    };
    let (kind, resource_id, place) = match index {
        None => ("table", format!("table/${{{table_id}}}"), String::new()),
        Some(index) => (
            "index",
            format!("table/${{{table_id}}}/index/{index}"),
            crate::export::names::pascal(index),
        ),
    };
    let target_id = unique(format!("{table_id}{place}{metric}Scaling"));
    let policy_id = unique(format!("{target_id}Policy"));
    let target = ScalingResource {
        ty: "AWS::ApplicationAutoScaling::ScalableTarget",
        properties: ScalingProperties::Target(TargetProperties {
            max_capacity: bounds.max.max(bounds.min).max(1),
            min_capacity: bounds.min.max(1),
            resource_id: Sub { sub: resource_id },
            scalable_dimension: format!("dynamodb:{kind}:{units}"),
            service_namespace: "dynamodb",
        }),
    };
    let policy = ScalingResource {
        ty: "AWS::ApplicationAutoScaling::ScalingPolicy",
        properties: ScalingProperties::Policy(PolicyProperties {
            policy_name: policy_id.clone(),
            policy_type: "TargetTrackingScaling",
            scaling_target_id: Ref {
                reference: target_id.clone(),
            },
            target_tracking_scaling_policy_configuration: TargetTracking {
                target_value: bounds.target_or_default(),
                predefined_metric_specification: PredefinedMetric {
                    predefined_metric_type: format!("DynamoDB{metric}CapacityUtilization"),
                },
            },
        }),
    };
    [(target_id, target), (policy_id, policy)]
}
