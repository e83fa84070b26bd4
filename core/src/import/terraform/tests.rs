//! Terraform's expressions and repetition, each a short configuration: what is read, and what
//! is assumed in place of a refusal (issue 36). Real files are in core/tests/fixtures_iac.rs.

use expect_test::expect;

use crate::import::Format;
use crate::import::tests::check_tables;

#[test]
fn variables_locals_for_each_count_and_dynamic_blocks_over_literal_collections() {
    let config = r#"
variable "env" { default = "prod" }
variable "keys" {
  default = [{ name = "pk", type = "S" }, { name = "sk", type = "N" }]
}
locals {
  prefix = "shop-${var.env}"
}

resource "aws_dynamodb_table" "per_tenant" {
  for_each     = { acme = "PROVISIONED", globex = "PAY_PER_REQUEST" }
  name         = "${local.prefix}-${each.key}"
  billing_mode = each.value
  hash_key     = "pk"
  range_key    = "sk"
  dynamic "attribute" {
    for_each = var.keys
    content {
      name = attribute.value.name
      type = attribute.value.type
    }
  }
}

resource "aws_dynamodb_table" "shard" {
  count        = 2
  name         = "shard-${count.index}"
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = "id"
  attribute {
    name = "id"
    type = "S"
  }
}
"#;
    check_tables(
        Format::Terraform,
        config,
        expect![[r#"
            design "acme, globex, shard-0, shard-1"
            table acme PK pk:S SK sk:N Provisioned { read: 1, write: 1 }
            table globex PK pk:S SK sk:N OnDemand
            table shard-0 PK id:S OnDemand
            table shard-1 PK id:S OnDemand
            note: a Terraform configuration holds tables and indexes but no entities or access patterns: the design opens with its 4 tables; add entities and patterns to check it
            assumed: line 12: `"${local.prefix}-${each.key}"` (`${local.prefix}` left out): assumed `acme`, its literal part
            assumed: line 10: table acme: PROVISIONED without read_capacity: assumed 1
            assumed: line 10: table acme: PROVISIONED without write_capacity: assumed 1
            assumed: line 12: `"${local.prefix}-${each.key}"` (`${local.prefix}` left out): assumed `globex`, its literal part
        "#]],
    );
}

#[test]
fn a_for_each_and_names_that_cannot_be_read_give_one_table_with_placeholders() {
    let config = r#"
resource "aws_dynamodb_table" "tables" {
  for_each     = var.tables
  name         = each.key
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = each.value.hash_key
}

resource "aws_dynamodb_table" "other" {
  count        = 3
  name         = var.name
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = "id"
}
"#;
    check_tables(
        Format::Terraform,
        config,
        expect![[r#"
        design "each.key, var.name, var.name2, var.name3"
        table each.key PK each.value.hash_key:S OnDemand
        table var.name PK id:S OnDemand
        table var.name2 PK id:S OnDemand
        table var.name3 PK id:S OnDemand
        note: a Terraform configuration holds tables and indexes but no entities or access patterns: the design opens with its 4 tables; add entities and patterns to check it
        note: table var.name2: named `var.name` in the file, as an earlier table is; numbered to tell them apart
        note: table var.name3: named `var.name` in the file, as an earlier table is; numbered to tell them apart
        assumed: line 3: for_each `var.tables`: assumed one table, `each` unread
        assumed: line 4: name `each.key`: assumed `each.key`
        assumed: line 6: key attribute `each.value.hash_key`: assumed `each.value.hash_key`
        assumed: line 6: `each.value.hash_key` has no `attribute` of its type: assumed a string (S)
        assumed: line 11: name `var.name`: assumed `var.name`
        assumed: line 13: `id` has no `attribute` of its type: assumed a string (S)
    "#]],
    );
}

#[test]
fn the_dynamodb_table_module_reads_its_inputs_and_its_ttl() {
    let config = r#"
module "orders" {
  source  = "terraform-aws-modules/dynamodb-table/aws"
  version = "4.0.0"

  name      = "orders"
  hash_key  = "pk"
  range_key = "sk"
  attributes = [
    { name = "pk", type = "S" },
    { name = "sk", type = "S" },
    { name = "gsi1pk", type = "S" },
  ]
  global_secondary_indexes = [
    { name = "gsi1", hash_key = "gsi1pk", projection_type = "ALL" },
  ]
  local_secondary_indexes = [
    { name = "bySk", range_key = "sk", projection_type = "KEYS_ONLY" },
  ]
  ttl_enabled        = true
  ttl_attribute_name = "expires"
}

module "carts" {
  source             = "terraform-aws-modules/dynamodb-table/aws"
  name               = "carts"
  hash_key           = "id"
  attributes         = [{ name = "id", type = "S" }]
  ttl_attribute_name = "expires"
}
"#;
    check_tables(
        Format::Terraform,
        config,
        expect![[r#"
        design "orders, carts"
        table orders PK pk:S SK sk:S OnDemand
          gsi gsi1 gsi1pk:S /  All
        table carts PK id:S OnDemand
          lsi bySk sk:S KeysOnly
          ttl expires
        note: a Terraform configuration holds tables and indexes but no entities or access patterns: the design opens with its 2 tables; add entities and patterns to check it
        note: table carts: its TTL attribute `expires` is named but ttl_enabled is not true (the module's default is false), so TTL is off
    "#]],
    );
}

// issue 41's bounds for what issue 36 evaluates: locals that multiply each other (a million
// values from three lines, a hundred million from four) and a dynamic block over them are not
// evaluated past the bound; the table is read, its name assumed.
#[test]
fn locals_that_multiply_each_other_are_not_evaluated_past_the_bound() {
    let hundred = |item: &str| vec![item; 100].join(", ");
    let config = format!(
        r#"locals {{
  l0 = [{}]
  l1 = [{}]
  l2 = [{}]
}}

resource "aws_dynamodb_table" "t" {{
  name         = local.l2
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = "id"
  attribute {{
    name = "id"
    type = "S"
  }}
  dynamic "global_secondary_index" {{
    for_each = local.l2
    content {{
      name            = "g"
      hash_key        = "id"
      projection_type = "ALL"
    }}
  }}
}}
"#,
        hundred("1"),
        hundred("local.l0"),
        hundred("local.l1")
    );
    check_tables(
        Format::Terraform,
        &config,
        expect![[r#"
        design "local.l2"
        table local.l2 PK id:S OnDemand
        note: a Terraform configuration holds tables and indexes but no entities or access patterns: the design opens with its table; add entities and patterns to check it
        assumed: line 15: dynamic "global_secondary_index" over `local.l2`: assumed no `global_secondary_index` block: its collection cannot be read here
        assumed: line 8: name `local.l2`: assumed `local.l2`
    "#]],
    );
}

// issue 40 item 2: a GSI's own read_capacity and write_capacity, and the auto scaling of the
// provider's documented DynamoDB example (an aws_appautoscaling_target per dimension, its
// resource_id interpolating the table's name, and a target-tracking aws_appautoscaling_policy
// on it), are kept; a target for a table the file does not declare is said.
#[test]
fn a_gsis_capacity_and_the_appautoscaling_targets_and_policies_naming_the_table_are_kept() {
    let config = r#"
resource "aws_dynamodb_table" "orders" {
  name           = "orders"
  hash_key       = "id"
  read_capacity  = 5
  write_capacity = 5
  attribute {
    name = "id"
    type = "S"
  }
  attribute {
    name = "status"
    type = "S"
  }
  global_secondary_index {
    name            = "byStatus"
    hash_key        = "status"
    projection_type = "ALL"
    read_capacity   = 10
    write_capacity  = 2
  }
}

resource "aws_appautoscaling_target" "dynamodb_table_read_target" {
  max_capacity       = 100
  min_capacity       = 5
  resource_id        = "table/${aws_dynamodb_table.orders.name}"
  scalable_dimension = "dynamodb:table:ReadCapacityUnits"
  service_namespace  = "dynamodb"
}

resource "aws_appautoscaling_policy" "dynamodb_table_read_policy" {
  name               = "DynamoDBReadCapacityUtilization:${aws_appautoscaling_target.dynamodb_table_read_target.resource_id}"
  policy_type        = "TargetTrackingScaling"
  resource_id        = aws_appautoscaling_target.dynamodb_table_read_target.resource_id
  scalable_dimension = aws_appautoscaling_target.dynamodb_table_read_target.scalable_dimension
  service_namespace  = aws_appautoscaling_target.dynamodb_table_read_target.service_namespace
  target_tracking_scaling_policy_configuration {
    predefined_metric_specification {
      predefined_metric_type = "DynamoDBReadCapacityUtilization"
    }
    target_value = 60
  }
}

resource "aws_appautoscaling_target" "index_write" {
  max_capacity       = 40
  min_capacity       = 2
  resource_id        = "table/orders/index/byStatus"
  scalable_dimension = "dynamodb:index:WriteCapacityUnits"
  service_namespace  = "dynamodb"
}

resource "aws_appautoscaling_target" "elsewhere" {
  max_capacity       = 40
  min_capacity       = 2
  resource_id        = "table/${aws_dynamodb_table.carts.name}"
  scalable_dimension = "dynamodb:table:WriteCapacityUnits"
  service_namespace  = "dynamodb"
}
"#;
    check_tables(
        Format::Terraform,
        config,
        expect![[r#"
            design "orders"
            table orders PK id:S Provisioned { read: 5, write: 5 } auto scaling {"read":{"min":5,"max":100,"target":60.0}} byStatus {"read":10,"write":2,"auto_scaling":{"write":{"min":2,"max":40}}}
              gsi byStatus status:S /  All
            note: a Terraform configuration holds tables and indexes but no entities or access patterns: the design opens with its table; add entities and patterns to check it
            note: aws_appautoscaling_target.elsewhere: it names table `carts`, not one of the file's: not kept
        "#]],
    );
}
