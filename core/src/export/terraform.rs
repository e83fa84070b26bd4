//! Terraform: an `aws_dynamodb_table` resource per table (a `replica` block per Region it is
//! replicated to), a variable for the environment suffix of every table name, and outputs
//! with each table's name and ARN.
//!
//! As in CloudFormation, the `attribute` blocks are exactly the key attributes of the table
//! and its indexes (the provider loops forever on any other). Every string goes through
//! [`names::hcl_str`], so no user text can start a Terraform interpolation.

mod scaling;

use std::fmt::Write;

use crate::export::cloudformation::key_type;
use crate::export::names::{self, Lang, Scope, hcl_str};
use crate::model::{Billing, Design, Projection};

/// The provider version a multi-attribute GSI key needs (`key_schema` in
/// `global_secondary_index`).
const MULTI_ATTRIBUTE_PROVIDER: &str = ">= 6.29.0";

fn projection(out: &mut String, p: &Projection) {
    match p {
        Projection::All => out.push_str("    projection_type = \"ALL\"\n"),
        Projection::KeysOnly => out.push_str("    projection_type = \"KEYS_ONLY\"\n"),
        Projection::Include { attributes } => {
            out.push_str("    projection_type    = \"INCLUDE\"\n");
            let list: Vec<String> = attributes.iter().map(|a| hcl_str(a)).collect();
            let _ = writeln!(out, "    non_key_attributes = [{}]", list.join(", "));
        }
    }
}

pub fn terraform(design: &Design) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# DynamoDB tables of {} (exported by keyplan).\n",
        names::one_line(&design.name)
    );
    // Multi-attribute GSI keys are `key_schema` blocks, which the provider takes from 6.29.0
    // (hashicorp/terraform-provider-aws#45357, released 28 January 2026; its `hash_key` and
    // `range_key` take one attribute each): a design with one asks for that version.
    let multi = design
        .tables
        .iter()
        .flat_map(|t| &t.gsis)
        .any(|g| g.partition_key.len() > 1 || g.sort_key.len() > 1);
    let version = if multi {
        MULTI_ATTRIBUTE_PROVIDER
    } else {
        ">= 6.0"
    };
    let _ = write!(
        out,
        "terraform {{\n  required_providers {{\n    aws = {{\n      source  = \"hashicorp/aws\"\n      version = \"{version}\"\n    }}\n  }}\n}}\n\n"
    );
    out.push_str(
        "variable \"environment\" {\n  description = \"Suffix of every table name, so one configuration serves each stage\"\n  type        = string\n  default     = \"dev\"\n}\n",
    );
    let mut labels = Scope::with_taken(&["environment"]);
    let mut outputs = String::new();
    for table in &design.tables {
        let label = labels.unique(names::valid(&names::snake(&table.name), Lang::Hcl, "table"));
        let _ = writeln!(out, "\nresource \"aws_dynamodb_table\" \"{label}\" {{");
        // The quoted prefix without its closing quote, then the interpolation.
        let prefix = hcl_str(&format!("{}-", table.name));
        let _ = writeln!(
            out,
            "  name         = {}${{var.environment}}\"",
            &prefix[..prefix.len() - 1]
        );
        match table.billing {
            Billing::OnDemand => out.push_str("  billing_mode = \"PAY_PER_REQUEST\"\n"),
            Billing::Provisioned { read, write, .. } => {
                out.push_str("  billing_mode   = \"PROVISIONED\"\n");
                let _ = writeln!(out, "  read_capacity  = {}", read.max(1));
                let _ = writeln!(out, "  write_capacity = {}", write.max(1));
            }
        }
        let _ = writeln!(
            out,
            "  hash_key     = {}",
            hcl_str(&table.partition_key.name)
        );
        if let Some(sk) = &table.sort_key {
            let _ = writeln!(out, "  range_key    = {}", hcl_str(&sk.name));
        }
        out.push_str("\n  deletion_protection_enabled = true\n");
        for attr in table.key_attributes() {
            let _ = writeln!(
                out,
                "\n  attribute {{\n    name = {}\n    type = \"{}\"\n  }}",
                hcl_str(&attr.name),
                key_type(attr.ty)
            );
        }
        for gsi in &table.gsis {
            let _ = writeln!(
                out,
                "\n  global_secondary_index {{\n    name = {}",
                hcl_str(&gsi.name)
            );
            let multi = gsi.partition_key.len() > 1 || gsi.sort_key.len() > 1;
            if multi {
                out.push_str(
                    "    # A multi-attribute key (DynamoDB, November 2025): key_schema blocks, in order,\n    # which the AWS provider takes from version 6.29.0.\n",
                );
                for (keys, kind) in [(&gsi.partition_key, "HASH"), (&gsi.sort_key, "RANGE")] {
                    for k in keys.iter() {
                        let _ = writeln!(
                            out,
                            "    key_schema {{\n      attribute_name = {}\n      key_type       = \"{kind}\"\n    }}",
                            hcl_str(&k.name)
                        );
                    }
                }
            } else {
                if let Some(pk) = gsi.partition_key.first() {
                    let _ = writeln!(out, "    hash_key  = {}", hcl_str(&pk.name));
                }
                if let Some(sk) = gsi.sort_key.first() {
                    let _ = writeln!(out, "    range_key = {}", hcl_str(&sk.name));
                }
            }
            projection(&mut out, &gsi.projection);
            if let Some(capacity) = table.billing.index_capacity(&gsi.name) {
                let _ = writeln!(out, "    read_capacity   = {}", capacity.read.max(1));
                let _ = writeln!(out, "    write_capacity  = {}", capacity.write.max(1));
            }
            out.push_str("  }\n");
        }
        for lsi in &table.lsis {
            let _ = writeln!(
                out,
                "\n  local_secondary_index {{\n    name      = {}\n    range_key = {}",
                hcl_str(&lsi.name),
                hcl_str(&lsi.sort_key.name)
            );
            projection(&mut out, &lsi.projection);
            out.push_str("  }\n");
        }
        if let Some(ttl) = &table.ttl_attribute {
            let _ = writeln!(
                out,
                "\n  ttl {{\n    attribute_name = {}\n    enabled        = true\n  }}",
                hcl_str(ttl)
            );
        }
        // A replica needs the table's stream, with new and old images (the provider's
        // `replica` argument), and takes its own point-in-time recovery.
        if !table.replicas.is_empty() {
            out.push_str(
                "\n  stream_enabled   = true\n  stream_view_type = \"NEW_AND_OLD_IMAGES\"\n",
            );
        }
        for region in &table.replicas {
            let _ = writeln!(
                out,
                "\n  replica {{\n    region_name            = {}\n    point_in_time_recovery = true\n  }}",
                hcl_str(region)
            );
        }
        let left_out = super::vector::terraform_left_out(table);
        if !left_out.is_empty() {
            out.push('\n');
            out.push_str(&left_out);
        }
        out.push_str("\n  point_in_time_recovery {\n    enabled = true\n  }\n");
        out.push_str("\n  server_side_encryption {\n    enabled = true\n  }\n");
        if scaling::scales(table) {
            // Auto scaling sets the capacity: Terraform leaves it alone (the provider's advice).
            out.push_str("\n  lifecycle {\n    prevent_destroy = true\n    ignore_changes  = [read_capacity, write_capacity]\n  }\n}\n");
        } else {
            out.push_str("\n  lifecycle {\n    prevent_destroy = true\n  }\n}\n");
        }
        scaling::write(&mut out, table, &label);
        let _ = writeln!(
            outputs,
            "\noutput \"{label}_table_name\" {{\n  value = aws_dynamodb_table.{label}.name\n}}\n\noutput \"{label}_table_arn\" {{\n  value = aws_dynamodb_table.{label}.arn\n}}"
        );
    }
    out.push_str(&outputs);
    align_assignments(&out)
}

/// The `name = value` line `line` splits into (indentation and name, value), or `None` for
/// any other line: blank, a comment, a block's header or end, or an assignment whose value
/// opens a bracket over several lines (`aws = {`), which `terraform fmt` leaves out of the
/// alignment.
fn assignment(line: &str) -> Option<(&str, &str)> {
    let indent = line.len() - line.trim_start().len();
    let rest = &line[indent..];
    let name_len = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        .unwrap_or(rest.len());
    if name_len == 0 {
        return None;
    }
    let after = rest[name_len..].trim_start_matches(' ');
    let value = after.strip_prefix('=')?.strip_prefix(' ')?;
    if value.starts_with('=') || value.ends_with('{') || value.ends_with('[') {
        return None;
    }
    Some((&line[..indent + name_len], value.trim_start_matches(' ')))
}

/// Aligns the `=` of each run of consecutive assignment lines one column after the longest
/// name, as `terraform fmt` does (any other line ends a run), so the export is already
/// formatted (issue 12).
fn align_assignments(text: &str) -> String {
    let lines: Vec<&str> = text.split('\n').collect();
    let parsed: Vec<Option<(&str, &str)>> = lines.iter().map(|l| assignment(l)).collect();
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    let mut i = 0;
    while i < lines.len() {
        let Some(_) = parsed[i] else {
            out.push_str(lines[i]);
            if i + 1 < lines.len() {
                out.push('\n');
            }
            i += 1;
            continue;
        };
        let run_end = (i..lines.len())
            .find(|&j| parsed[j].is_none())
            .unwrap_or(lines.len());
        let width = parsed[i..run_end]
            .iter()
            .flatten()
            .map(|(lead, _)| lead.chars().count())
            .max()
            .unwrap_or(0);
        for (lead, value) in parsed[i..run_end].iter().flatten() {
            let pad = width - lead.chars().count();
            let _ = write!(out, "{lead}{:pad$} = {value}", "");
            out.push('\n');
        }
        i = run_end;
    }
    out
}

#[cfg(test)]
mod tests {
    use expect_test::{Expect, expect};

    use super::align_assignments;

    fn check(input: &str, expected: Expect) {
        expected.assert_eq(&align_assignments(input));
    }

    // issue 12: the export was not `terraform fmt`-aligned.
    #[test]
    fn each_run_of_assignments_aligns_its_equals_signs_as_terraform_fmt_does() {
        check(
            "a {\n  name = \"x\"\n  billing_mode = \"P\"\n  read_capacity   = 1\n\n  deletion_protection_enabled = true\n  b {\n    n = 1\n    projection_type = \"ALL\"\n  }\n}\n",
            expect![[r#"
                a {
                  name          = "x"
                  billing_mode  = "P"
                  read_capacity = 1

                  deletion_protection_enabled = true
                  b {
                    n               = 1
                    projection_type = "ALL"
                  }
                }
            "#]],
        );
    }

    #[test]
    fn a_value_opening_a_bracket_comments_and_strings_with_equals_stay_as_they_are() {
        check(
            "aws = {\n  source = \"a = b\"\n  version = \">= 6.0\"\n}\n# x = y\nk = \"v\"\n",
            expect![[r#"
                  aws = {
                    source  = "a = b"
                    version = ">= 6.0"
                  }
                  # x = y
                  k = "v"
            "#]],
        );
    }
}
