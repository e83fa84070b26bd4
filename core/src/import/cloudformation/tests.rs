//! The intrinsic functions and resource kinds of CloudFormation, SAM and the Serverless
//! Framework, each a short template: what is read, and what is assumed in place of a refusal
//! (issue 36). Real files are in core/tests/fixtures_iac.rs.

use expect_test::expect;

use crate::import::Format;
use crate::import::tests::check_tables;

#[test]
fn join_select_and_find_in_map_names_read_what_the_template_states() {
    let template = r#"
Parameters:
  Stage: {Type: String, Default: prod}
  Names: {Type: CommaDelimitedList, Default: "carts,baskets"}
Mappings:
  Sizes: {prod: {read: 20}}
Resources:
  Joined:
    Type: AWS::DynamoDB::Table
    Properties:
      TableName: !Join ["-", [orders, !Ref Stage, !Ref "AWS::Region"]]
      AttributeDefinitions: [{AttributeName: id, AttributeType: S}]
      KeySchema: [{AttributeName: id, KeyType: HASH}]
      ProvisionedThroughput:
        ReadCapacityUnits: !FindInMap [Sizes, !Ref Stage, read]
        WriteCapacityUnits: !Select [1, [3, 4]]
  Picked:
    Type: AWS::DynamoDB::Table
    Properties:
      TableName: !Select [0, !Ref Names]
      AttributeDefinitions: [{AttributeName: id, AttributeType: S}]
      KeySchema: [{AttributeName: id, KeyType: HASH}]
      BillingMode: PAY_PER_REQUEST
"#;
    check_tables(
        Format::CloudFormation,
        template,
        expect![[r#"
            design "orders, carts"
            table orders PK id:S Provisioned { read: 20, write: 4 }
            table carts PK id:S OnDemand
            note: a CloudFormation template holds tables and indexes but no entities or access patterns: the design opens with its 2 tables; add entities and patterns to check it
            assumed: line 15: `!Ref Stage`: assumed the parameter's Default `prod`
            assumed: line 11: `!Join ["-",["orders",{"Ref":"Stage"},{"Ref":"AWS::Region"}]]` (`!Ref Stage`, `!Ref AWS::Region` left out): assumed `orders`, its literal part
            assumed: line 20: `!Ref Names`: assumed the parameter's Default `carts,baskets`
        "#]],
    );
}

#[test]
fn a_for_each_over_a_parameter_list_and_over_what_cannot_be_read() {
    let template = r#"
Transform: AWS::LanguageExtensions
Parameters:
  Tables: {Type: CommaDelimitedList, Default: "users, orders"}
  Unknown: {Type: CommaDelimitedList}
Resources:
  Fn::ForEach::Listed:
    - Name
    - !Ref Tables
    - ${Name}Table:
        Type: AWS::DynamoDB::Table
        Properties:
          TableName: !Sub app-${Name}
          AttributeDefinitions: [{AttributeName: pk, AttributeType: S}]
          KeySchema: [{AttributeName: pk, KeyType: HASH}]
          BillingMode: PAY_PER_REQUEST
  Fn::ForEach::Unread:
    - Other
    - !Ref Unknown
    - Other${Other}:
        Type: AWS::DynamoDB::Table
        Properties:
          AttributeDefinitions: [{AttributeName: pk, AttributeType: S}]
          KeySchema: [{AttributeName: pk, KeyType: HASH}]
          BillingMode: PAY_PER_REQUEST
"#;
    check_tables(
        Format::CloudFormation,
        template,
        expect![[r#"
            design "app-users, app-orders, Other"
            table app-users PK pk:S OnDemand
            table app-orders PK pk:S OnDemand
            table Other PK pk:S OnDemand
            note: a CloudFormation template holds tables and indexes but no entities or access patterns: the design opens with its 3 tables; add entities and patterns to check it
            assumed: line 7: `!Ref Tables`: assumed the parameter's Default `users, orders`
            assumed: line 17: `Fn::ForEach::Unread` over `!Ref Unknown`: assumed one instance, `${Other}` unread
        "#]],
    );
}

#[test]
fn a_global_table_keeps_its_auto_scaling_and_the_regions_it_is_replicated_to() {
    let template = r#"
Resources:
  Events:
    Type: AWS::DynamoDB::GlobalTable
    Properties:
      TableName: events
      BillingMode: PROVISIONED
      AttributeDefinitions: [{AttributeName: id, AttributeType: S}]
      KeySchema: [{AttributeName: id, KeyType: HASH}]
      WriteProvisionedThroughputSettings:
        WriteCapacityAutoScalingSettings: {MinCapacity: 4, MaxCapacity: 10, TargetTrackingScalingPolicyConfiguration: {TargetValue: 70}}
      Replicas:
        - Region: us-east-1
          ReadProvisionedThroughputSettings:
            ReadCapacityAutoScalingSettings: {MinCapacity: 6, MaxCapacity: 20, TargetTrackingScalingPolicyConfiguration: {TargetValue: 70}}
        - Region: !Ref Secondary
"#;
    check_tables(
        Format::CloudFormation,
        template,
        expect![[r#"
            design "events"
            table events PK id:S Provisioned { read: 6, write: 4 } auto scaling {"read":{"min":6,"max":20,"target":70.0},"write":{"min":4,"max":10,"target":70.0}}
              replicated to Secondary
            note: a CloudFormation template holds tables and indexes but no entities or access patterns: the design opens with its table; add entities and patterns to check it
            note: table events: its replicas are in us-east-1, Secondary: the first, us-east-1, is read as the table's own Region (the stack's), the others as the Regions it is replicated to
            assumed: line 12: a replica's Region `!Ref Secondary`: assumed `Secondary`
        "#]],
    );
}

#[test]
fn a_serverless_service_reads_its_own_values_and_fallbacks_and_assumes_the_rest() {
    let service = r#"
service: shop
provider:
  name: aws
  stage: ${opt:stage, 'dev'}
custom:
  ordersTable: ${self:service}-orders-${self:provider.stage}
  capacity: 5
resources:
  Resources:
    Orders:
      Type: AWS::DynamoDB::Table
      Properties:
        TableName: ${self:custom.ordersTable}
        AttributeDefinitions: [{AttributeName: id, AttributeType: S}]
        KeySchema: [{AttributeName: id, KeyType: HASH}]
        ProvisionedThroughput:
          ReadCapacityUnits: ${self:custom.capacity}
          WriteCapacityUnits: ${env:WRITE_UNITS}
    Carts:
      Type: AWS::DynamoDB::Table
      Properties:
        TableName: ${file(./names.yml):carts}
        AttributeDefinitions: [{AttributeName: id, AttributeType: S}]
        KeySchema: [{AttributeName: id, KeyType: HASH}]
        BillingMode: PAY_PER_REQUEST
"#;
    check_tables(
        Format::CloudFormation,
        service,
        expect![[r#"
        design "Carts, shop-orders-dev"
        table Carts PK id:S OnDemand
        table shop-orders-dev PK id:S Provisioned { read: 5, write: 1 }
        note: a Serverless Framework service holds tables and indexes but no entities or access patterns: the design opens with its 2 tables; add entities and patterns to check it
        assumed: line 23: TableName `${file(./names.yml):carts}`: assumed `Carts`
        assumed: line 19: WriteCapacityUnits `${env:WRITE_UNITS}`: assumed 1
    "#]],
    );
}

// issue 41's bounds for what issue 36 unrolls: five nested loops of a hundred elements are ten
// billion resources; they stop at the bound, said, and the table before them (the template's members read in order) is read.
#[test]
fn nested_for_each_loops_stop_at_the_bound() {
    let hundred: Vec<String> = (0..100).map(|i| i.to_string()).collect();
    let mut fragment = serde_json::json!({
        "Bucket${A}${B}${C}${D}${E}": {"Type": "AWS::S3::Bucket"}
    });
    for name in ["E", "D", "C", "B", "A"] {
        fragment = serde_json::json!({
            format!("Fn::ForEach::{name}"): [name, hundred, fragment]
        });
    }
    let mut resources = fragment;
    resources["Accounts"] = serde_json::json!({"Type": "AWS::Serverless::SimpleTable"});
    let template = serde_json::json!({ "Resources": resources }).to_string();
    check_tables(
        Format::CloudFormation,
        &template,
        expect![[r#"
        design "Accounts"
        table Accounts PK id:S OnDemand
        note: a CloudFormation template holds tables and indexes but no entities or access patterns: the design opens with its table; add entities and patterns to check it
        note: more than 100000 resources, `Fn::ForEach` loops unrolled: those after are not read
    "#]],
    );
}

// issue 40 item 2: a table's capacity, its GSI's own and the auto scaling Application Auto
// Scaling gives them (the developer guide's AutoScaling.CloudFormation example's shape: a
// scalable target per dimension, its ResourceId joined from the table's `Ref`, and a
// target-tracking policy) are kept, not only the table's ProvisionedThroughput.
#[test]
fn a_tables_gsi_capacity_and_its_scalable_targets_and_policies_are_kept() {
    let template = r#"
Resources:
  OrdersTable:
    Type: AWS::DynamoDB::Table
    Properties:
      TableName: orders
      AttributeDefinitions: [{AttributeName: id, AttributeType: S}, {AttributeName: status, AttributeType: S}]
      KeySchema: [{AttributeName: id, KeyType: HASH}]
      ProvisionedThroughput: {ReadCapacityUnits: 5, WriteCapacityUnits: 5}
      GlobalSecondaryIndexes:
        - IndexName: byStatus
          KeySchema: [{AttributeName: status, KeyType: HASH}]
          Projection: {ProjectionType: ALL}
          ProvisionedThroughput: {ReadCapacityUnits: 10, WriteCapacityUnits: 2}
  WriteScaling:
    Type: AWS::ApplicationAutoScaling::ScalableTarget
    Properties:
      MaxCapacity: 15
      MinCapacity: 5
      ResourceId: !Join [/, [table, !Ref OrdersTable]]
      RoleARN: !GetAtt ScalingRole.Arn
      ScalableDimension: dynamodb:table:WriteCapacityUnits
      ServiceNamespace: dynamodb
  WritePolicy:
    Type: AWS::ApplicationAutoScaling::ScalingPolicy
    Properties:
      PolicyName: WriteAutoScalingPolicy
      PolicyType: TargetTrackingScaling
      ScalingTargetId: !Ref WriteScaling
      TargetTrackingScalingPolicyConfiguration:
        TargetValue: 50.0
        PredefinedMetricSpecification: {PredefinedMetricType: DynamoDBWriteCapacityUtilization}
  IndexReadScaling:
    Type: AWS::ApplicationAutoScaling::ScalableTarget
    Properties:
      MaxCapacity: 100
      MinCapacity: 10
      ResourceId: !Sub table/${OrdersTable}/index/byStatus
      ScalableDimension: dynamodb:index:ReadCapacityUnits
      ServiceNamespace: dynamodb
  Elsewhere:
    Type: AWS::ApplicationAutoScaling::ScalableTarget
    Properties:
      MaxCapacity: 100
      MinCapacity: 10
      ResourceId: table/not-here
      ScalableDimension: dynamodb:table:ReadCapacityUnits
      ServiceNamespace: dynamodb
"#;
    check_tables(
        Format::CloudFormation,
        template,
        expect![[r#"
            design "orders"
            table orders PK id:S Provisioned { read: 5, write: 5 } auto scaling {"write":{"min":5,"max":15,"target":50.0}} byStatus {"read":10,"write":2,"auto_scaling":{"read":{"min":10,"max":100}}}
              gsi byStatus status:S /  All
            note: a CloudFormation template holds tables and indexes but no entities or access patterns: the design opens with its table; add entities and patterns to check it
            note: scalable target Elsewhere: it names table `not-here`, not one of the file's: not kept
        "#]],
    );
}

#[test]
fn vector_indexes_are_read_and_what_cannot_be_is_assumed_with_its_line() {
    let template = r#"
Parameters:
  Dims: {Type: Number}
Resources:
  Products:
    Type: AWS::DynamoDB::Table
    Properties:
      TableName: products
      BillingMode: PAY_PER_REQUEST
      AttributeDefinitions: [{AttributeName: pk, AttributeType: S}]
      KeySchema: [{AttributeName: pk, KeyType: HASH}]
      VectorIndexes:
        - IndexName: ByEmbedding
          VectorAttribute: {AttributeName: embedding}
          Dimensions: "1024"
          DistanceFunction: DOT_PRODUCT
          Projection: {ProjectionType: INCLUDE, NonKeyAttributes: [title]}
          SearchSchema:
            - {AttributeName: tenant, SearchSchemaElementType: PARTITION_KEY}
        - IndexName: ByImage
          VectorAttribute: {AttributeName: image}
          Dimensions: !Ref Dims
          DistanceFunction: MANHATTAN
          Projection: {ProjectionType: ALL}
        - IndexName: Huge
          VectorAttribute: {AttributeName: huge}
          Dimensions: 9000
          Projection: {ProjectionType: KEYS_ONLY}
        - IndexName: NoAttribute
          Dimensions: 8
          DistanceFunction: COSINE
          Projection: {ProjectionType: KEYS_ONLY}
"#;
    check_tables(
        Format::CloudFormation,
        template,
        expect![[r#"
            design "products"
            table products PK pk:S OnDemand
              vector ByEmbedding embedding 1024 DOT_PRODUCT Include { attributes: ["title"] }
              vector ByImage image 1 COSINE All
              vector Huge huge 4096 COSINE KeysOnly
            note: a CloudFormation template holds tables and indexes but no entities or access patterns: the design opens with its table; add entities and patterns to check it
            note: table products: vector index ByEmbedding's SearchSchema (its partition key and inline filters) is not kept; keyplan designs hold none
            assumed: line 12: vector index ByImage's Dimensions `!Ref Dims`: assumed 1
            assumed: line 12: vector index ByImage's DistanceFunction `MANHATTAN`: assumed COSINE
            assumed: line 12: vector index Huge's Dimensions 9000, outside 1 to 4096: assumed 4096
            assumed: line 12: vector index NoAttribute without VectorAttribute.AttributeName: assumed the index left out
        "#]],
    );
}
