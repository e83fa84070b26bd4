//! A provisioned table's and each GSI's auto scaling as Terraform states it (issue 40 item 2):
//! an `aws_appautoscaling_target` per table or GSI and dimension that scales, its resource_id
//! interpolating the table's name, and a target-tracking `aws_appautoscaling_policy` on it at
//! the target utilisation (AWS's default of 70% when the design gives none), as the provider's
//! documented DynamoDB example writes them
//! (<https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/appautoscaling_policy>).

use std::fmt::Write as _;

use crate::export::names;
use crate::model::{Dimension, Table};

/// Whether the table or one of its GSIs scales: then Terraform must leave the capacity
/// auto scaling sets alone (`ignore_changes`).
pub(super) fn scales(table: &Table) -> bool {
    !table.scaled().is_empty()
}

/// Writes the targets and policies of `table`, whose resource is `label`, to `out`.
pub(super) fn write(out: &mut String, table: &Table, label: &str) {
    for (index, dimension, bounds) in table.scaled() {
        let (units, metric) = match dimension {
            Dimension::Read => ("ReadCapacityUnits", "Read"),
            Dimension::Write => ("WriteCapacityUnits", "Write"),
        };
        let (kind, suffix, place) = match index {
            None => ("table", String::new(), String::new()),
            Some(index) => (
                "index",
                format!("/index/{index}"),
                format!("_{}", names::snake(index)),
            ),
        };
        let target = format!("{label}{place}_{}", dimension.word());
        let _ = writeln!(
            out,
            "\nresource \"aws_appautoscaling_target\" \"{target}\" {{\n  max_capacity       = {}\n  min_capacity       = {}\n  resource_id        = \"table/${{aws_dynamodb_table.{label}.name}}{suffix}\"\n  scalable_dimension = \"dynamodb:{kind}:{units}\"\n  service_namespace  = \"dynamodb\"\n}}",
            bounds.max.max(bounds.min).max(1),
            bounds.min.max(1),
        );
        let _ = writeln!(
            out,
            "\nresource \"aws_appautoscaling_policy\" \"{target}\" {{\n  name               = \"DynamoDB{metric}CapacityUtilization:${{aws_appautoscaling_target.{target}.resource_id}}\"\n  policy_type        = \"TargetTrackingScaling\"\n  resource_id        = aws_appautoscaling_target.{target}.resource_id\n  scalable_dimension = aws_appautoscaling_target.{target}.scalable_dimension\n  service_namespace  = aws_appautoscaling_target.{target}.service_namespace\n\n  target_tracking_scaling_policy_configuration {{\n    predefined_metric_specification {{\n      predefined_metric_type = \"DynamoDB{metric}CapacityUtilization\"\n    }}\n    target_value = {}\n  }}\n}}",
            bounds.target_or_default()
        );
    }
}
