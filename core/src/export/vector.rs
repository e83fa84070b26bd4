//! A table's vector indexes (issue 40) where the format is not CloudFormation's (whose
//! `VectorIndexes` entries, CreateTable's too, are [`vector_indexes`]): the CDK's property
//! override, and the comment Terraform gets instead: the AWS provider's `aws_dynamodb_table`
//! has no vector index block in any source keyplan found (read 2026-12-05).

use std::fmt::Write as _;

use crate::export::cloudformation::vector_indexes;
use crate::model::Table;

/// The CDK lines that give the `TableV2` held in `var` its vector indexes: `TableV2` has no
/// property for them, so they go to its `CfnGlobalTable` as a property override (CloudFormation's
/// `AWS::DynamoDB::GlobalTable` takes `VectorIndexes` in the same shape). Empty without any.
pub fn cdk_override(table: &Table, var: &str) -> String {
    let Some(specs) = vector_indexes(table) else {
        return String::new();
    };
    let json = crate::export::names::json_pretty(&specs)
        .unwrap_or_else(|e| unreachable!("vector indexes serialise: {e}"));
    let mut out = String::new();
    let _ = writeln!(
        out,
        "    // Vector indexes (DynamoDB, August 2026): TableV2 has no property for them yet."
    );
    let _ = write!(
        out,
        "    ({var}.node.defaultChild as CfnGlobalTable).addPropertyOverride('VectorIndexes', "
    );
    let mut lines = json.lines();
    if let Some(first) = lines.next() {
        out.push_str(first);
    }
    for line in lines {
        out.push('\n');
        out.push_str("    ");
        out.push_str(line);
    }
    out.push_str(");\n");
    out
}

/// The Terraform comment saying the table's vector indexes were left out, one line each.
pub fn terraform_left_out(table: &Table) -> String {
    let mut out = String::new();
    for v in &table.vector_indexes {
        let _ = writeln!(
            out,
            "  # Left out: vector index {} ({} on {}, {} dimensions, {}); the AWS provider's\n  # aws_dynamodb_table has no vector index block keyplan knows of: create it with\n  # CloudFormation, the CDK or `aws dynamodb update-table`.",
            crate::export::names::one_line(&v.name),
            v.distance.as_str(),
            crate::export::names::one_line(&v.attribute),
            v.dimensions,
            match v.projection {
                crate::model::Projection::All => "ALL",
                crate::model::Projection::KeysOnly => "KEYS_ONLY",
                crate::model::Projection::Include { .. } => "INCLUDE",
            }
        );
    }
    out
}

#[cfg(test)]
pub(crate) mod tests;
