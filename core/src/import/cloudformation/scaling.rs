//! Application Auto Scaling in a template (issue 40 item 2): an
//! `AWS::ApplicationAutoScaling::ScalableTarget` whose `ResourceId` names a table of the
//! template (`table/orders`, `!Sub table/${OrdersTable}`, `!Join [/, [table, !Ref
//! OrdersTable]]`, with `/index/GSI1` for a GSI) gives that table's or GSI's read or write
//! capacity its bounds (`ScalableDimension` `dynamodb:table:ReadCapacityUnits`,
//! `dynamodb:index:WriteCapacityUnits`...), and the `AWS::ApplicationAutoScaling::ScalingPolicy`
//! whose `ScalingTargetId` is a `Ref` to that target its `TargetTrackingScalingPolicyConfiguration`'s
//! `TargetValue` (<https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/AutoScaling.CloudFormation.html>).
//! Only top-level resources are read; a target naming no table of the template is said.

use serde_json::{Map, Value};

use super::intrinsics::Scope;
use super::lenient::Lenient;
use crate::import::At;
use crate::import::scaling::{REFERENCE, Stated, give, settle};
use crate::model::{Scaling, Table};

const SCALABLE_TARGET: &str = "AWS::ApplicationAutoScaling::ScalableTarget";
const SCALING_POLICY: &str = "AWS::ApplicationAutoScaling::ScalingPolicy";

/// Gives the tables (each with its logical ID) the auto scaling of the scalable targets among
/// `resources` (at `path`) that name them.
pub(super) fn apply(
    resources: &Map<String, Value>,
    path: &str,
    scope: &Scope<'_>,
    tables: &mut [(&str, &mut Table)],
    out: &mut Lenient<'_>,
) {
    for (id, resource) in resources {
        if resource.get("Type").and_then(Value::as_str) != Some(SCALABLE_TARGET) {
            continue;
        }
        let properties_path = format!("{path}.{id}.Properties");
        let Some(raw) = resource.get("Properties") else {
            continue;
        };
        // The bounds and the dimension evaluated; the ResourceId is read as written (a `Ref` to
        // a table is its logical ID here, which the intrinsics leave out), the role not at all.
        let mut kept = raw.clone();
        if let Some(kept) = kept.as_object_mut() {
            kept.retain(|key, _| {
                matches!(
                    key.as_str(),
                    "MinCapacity" | "MaxCapacity" | "ScalableDimension" | "ServiceNamespace"
                )
            });
        }
        let Some(properties) = scope.resolve(&kept, &properties_path, out) else {
            continue;
        };
        let at = At {
            value: &properties,
            path: properties_path.clone(),
        };
        if at
            .get("ServiceNamespace")
            .is_some_and(|n| n.value().as_str() != Some("dynamodb"))
        {
            continue;
        }
        let who = format!("scalable target {id}");
        let mut bound = |key: &str| at.get(key).map(|c| out.capacity(&c, key));
        let (Some(min), Some(max)) = (bound("MinCapacity"), bound("MaxCapacity")) else {
            out.assume(
                &at,
                format!("{who}: without MinCapacity or MaxCapacity"),
                "no auto scaling",
            );
            continue;
        };
        let scalable = at
            .get("ScalableDimension")
            .and_then(|d| d.value().as_str().map(str::to_string))
            .unwrap_or_default();
        let stated = Stated {
            who: &who,
            resource_id: raw.get("ResourceId").and_then(resource_id),
            scalable: &scalable,
            scaling: Scaling {
                min,
                max,
                target: target_value(resources, id, scope, path, out),
            },
        };
        give(stated, tables, out);
    }
    settle(tables);
}

/// The target utilisation of the scaling policy whose ScalingTargetId is a `Ref` to `target`.
fn target_value(
    resources: &Map<String, Value>,
    target: &str,
    scope: &Scope<'_>,
    path: &str,
    out: &mut Lenient<'_>,
) -> Option<f64> {
    resources.iter().find_map(|(id, resource)| {
        if resource.get("Type").and_then(Value::as_str) != Some(SCALING_POLICY) {
            return None;
        }
        let properties = resource.get("Properties")?;
        let names = properties.get("ScalingTargetId")?;
        let named = names.get("Ref").and_then(Value::as_str) == Some(target)
            || names.as_str() == Some(target);
        if !named {
            return None;
        }
        let value = properties
            .get("TargetTrackingScalingPolicyConfiguration")?
            .get("TargetValue")?;
        let value = scope.resolve(value, &format!("{path}.{id}.Properties"), out)?;
        match value {
            Value::Number(n) => n.as_f64(),
            Value::String(s) => s.trim().parse().ok(),
            _ => None,
        }
    })
}

/// A ResourceId as text, each `Ref` to a resource its logical ID marked by [`REFERENCE`]: from
/// a string, a `Fn::Sub` (its `${Name}`s) or a `Fn::Join`.
fn resource_id(value: &Value) -> Option<String> {
    let text = match value {
        Value::String(s) => s.clone(),
        Value::Object(o) if o.len() == 1 => {
            let (name, inner) = o.iter().next()?;
            match (name.as_str(), inner) {
                ("Fn::Sub", Value::String(template)) => subbed(template),
                ("Fn::Sub", Value::Array(args)) => subbed(args.first()?.as_str()?),
                ("Fn::Join", Value::Array(args)) if args.len() == 2 => {
                    let delimiter = args[0].as_str()?;
                    let parts: Option<Vec<String>> = args[1]
                        .as_array()?
                        .iter()
                        .map(|part| match part {
                            Value::String(s) => Some(s.clone()),
                            Value::Object(r) => {
                                Some(format!("{REFERENCE}{}", r.get("Ref")?.as_str()?))
                            }
                            _ => None,
                        })
                        .collect();
                    parts?.join(delimiter)
                }
                _ => return None,
            }
        }
        _ => return None,
    };
    Some(text)
}

/// A `Fn::Sub` template with each `${Name}` marked as a `Ref` to `Name`.
fn subbed(template: &str) -> String {
    let mut out = String::new();
    let mut rest = template;
    while let Some(start) = rest.find("${") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let Some(end) = after.find('}') else {
            out.push_str(&rest[start..]);
            return out;
        };
        out.push(REFERENCE);
        out.push_str(&after[..end]);
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    out
}
