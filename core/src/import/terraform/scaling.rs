//! Application Auto Scaling in a Terraform configuration (issue 40 item 2): a `resource
//! "aws_appautoscaling_target"` whose `resource_id` names a table of the configuration
//! (`"table/orders"`, `"table/${aws_dynamodb_table.orders.name}"`, with `/index/GSI1` for a
//! GSI) gives that table's or GSI's read or write capacity its bounds (`scalable_dimension`,
//! `min_capacity`, `max_capacity`), and the `aws_appautoscaling_policy` whose `resource_id`
//! is that target's its `target_tracking_scaling_policy_configuration`'s `target_value`
//! (<https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/appautoscaling_target>,
//! whose DynamoDB example this reads). A target naming no table of the file is said.

use serde_json::Value;

use super::eval::{Evaluator, Instance, body_json};
use crate::import::At;
use crate::import::cloudformation::lenient::Lenient;
use crate::import::scaling::{REFERENCE, Stated, give, settle};
use crate::model::{Scaling, Table};

const TARGET: &str = "aws_appautoscaling_target";
const POLICY: &str = "aws_appautoscaling_policy";

/// Gives the tables (each with its resource label) the auto scaling of the targets of `body`.
pub(super) fn apply(
    body: &hcl::Body,
    ev: &mut Evaluator,
    tables: &mut [(&str, &mut Table)],
    out: &mut Lenient<'_>,
) {
    // Each policy: the target its resource_id names (as written), and its evaluated blocks.
    let policies: Vec<(String, Value)> = resources(body, POLICY)
        .map(|(label, block)| {
            let path = format!("resource.{POLICY}.{label}");
            let names = written(block.body(), "resource_id").unwrap_or_default();
            let value = body_json(&evaluated(block.body()), &path, ev, out, Instance::Single);
            (names, value)
        })
        .collect();
    let targets: Vec<(String, &hcl::Block)> = resources(body, TARGET).collect();
    for (label, block) in targets {
        let path = format!("resource.{TARGET}.{label}");
        let value = body_json(&evaluated(block.body()), &path, ev, out, Instance::Single);
        let at = At {
            value: &value,
            path: path.clone(),
        };
        if at
            .get("service_namespace")
            .is_some_and(|n| n.value().as_str() != Some("dynamodb"))
        {
            continue;
        }
        let who = format!("{TARGET}.{label}");
        let mut bound = |key: &str| at.get(key).map(|c| out.capacity(&c, key));
        let (Some(min), Some(max)) = (bound("min_capacity"), bound("max_capacity")) else {
            out.assume(
                &at,
                format!("{who}: without min_capacity or max_capacity"),
                "no auto scaling",
            );
            continue;
        };
        let target = policies.iter().find_map(|(names, policy)| {
            if !names.contains(&format!("{who}.")) {
                return None;
            }
            let configuration = policy.get("target_tracking_scaling_policy_configuration")?;
            // A block is a list of one.
            let configuration = configuration.get(0).unwrap_or(configuration);
            match configuration.get("target_value")? {
                Value::Number(n) => n.as_f64(),
                Value::String(s) => s.trim().parse().ok(),
                _ => None,
            }
        });
        let scalable = at
            .get("scalable_dimension")
            .and_then(|d| d.value().as_str().map(str::to_string))
            .unwrap_or_default();
        let stated = Stated {
            who: &who,
            resource_id: written(block.body(), "resource_id").map(|r| resource_id(&r)),
            scalable: &scalable,
            scaling: Scaling { min, max, target },
        };
        give(stated, tables, out);
    }
    settle(tables);
}

/// The `resource "TYPE" "label"` blocks of `body`, by label.
fn resources<'b>(
    body: &'b hcl::Body,
    kind: &'b str,
) -> impl Iterator<Item = (String, &'b hcl::Block)> + 'b {
    body.blocks().filter_map(move |b| {
        let labels = b.labels();
        (b.identifier() == "resource" && labels.first().is_some_and(|l| l.as_str() == kind))
            .then(|| labels.get(1).map(|l| (l.as_str().to_string(), b)))
            .flatten()
    })
}

/// The attribute `key` of `body` as written: a quoted string's text with its `${...}`, or an
/// expression's (`aws_appautoscaling_target.read.resource_id`).
fn written(body: &hcl::Body, key: &str) -> Option<String> {
    let expr = body.attributes().find(|a| a.key() == key)?.expr();
    Some(match expr {
        hcl::Expression::String(s) => s.clone(),
        hcl::Expression::TemplateExpr(t) => match t.as_ref() {
            hcl::TemplateExpr::QuotedString(s) => s.clone(),
            hcl::TemplateExpr::Heredoc(h) => h.template.clone(),
        },
        other => other.to_string(),
    })
}

/// `body` without the attributes that name other resources (read as written by [`written`]):
/// evaluated, they would only be said to be unknown.
fn evaluated(body: &hcl::Body) -> hcl::Body {
    body.iter()
        .filter(|s| match s {
            hcl::Structure::Attribute(a) => !matches!(a.key(), "resource_id" | "name" | "role_arn"),
            hcl::Structure::Block(_) => true,
        })
        .cloned()
        .collect()
}

/// A resource_id, an `aws_dynamodb_table`'s `name` or `id` it interpolates
/// (`${aws_dynamodb_table.orders.name}`) its label marked by [`REFERENCE`].
fn resource_id(text: &str) -> String {
    text.split('/')
        .map(|segment| {
            match segment
                .strip_prefix("${aws_dynamodb_table.")
                .and_then(|rest| rest.strip_suffix('}'))
                .and_then(|rest| rest.split('.').next())
            {
                Some(label) => format!("{REFERENCE}{label}"),
                None => segment.to_string(),
            }
        })
        .collect::<Vec<_>>()
        .join("/")
}
