//! Table tests of the importers: small inputs, and the designs, notes or errors they give.

use expect_test::{Expect, expect};

use super::{Format, detect, detect_and_import, import};
use crate::coverage::testing::typed_keys;
use crate::model::Design;

/// A table's billing as the summaries show it: `OnDemand`, `Provisioned { read: 5, write: 5 }`,
/// then its auto scaling and each GSI's own capacity, when given (issue 40), as JSON.
pub(crate) fn billing_shown(billing: &crate::model::Billing) -> String {
    use crate::model::Billing;
    match billing {
        Billing::OnDemand => "OnDemand".to_string(),
        Billing::Provisioned {
            read,
            write,
            auto_scaling,
            indexes,
        } => {
            let mut out = format!("Provisioned {{ read: {read}, write: {write} }}");
            if let Some(scaling) = auto_scaling {
                let json = serde_json::to_string(scaling).unwrap_or_default();
                out += &format!(" auto scaling {json}");
            }
            for (index, capacity) in indexes {
                let json = serde_json::to_string(capacity).unwrap_or_default();
                out += &format!(" {index} {json}");
            }
            out
        }
    }
}

/// A compact, reviewable rendering of a design: tables with keys and indexes, entities with
/// key templates and attributes, patterns with inputs and sort conditions.
fn summary(design: &Design) -> String {
    let mut out = format!("design {:?}\n", design.name);
    for t in &design.tables {
        let sk = t
            .sort_key
            .as_ref()
            .map(|k| format!(" SK {}:{:?}", k.name, k.ty));
        out += &format!(
            "table {} PK {}:{:?}{} {}\n",
            t.name,
            t.partition_key.name,
            t.partition_key.ty,
            sk.unwrap_or_default(),
            billing_shown(&t.billing)
        );
        for g in &t.gsis {
            out += &format!(
                "  gsi {} {} / {} {:?}\n",
                g.name,
                typed_keys(&g.partition_key, "+"),
                typed_keys(&g.sort_key, "+"),
                g.projection
            );
        }
    }
    for e in &design.entities {
        let keys: Vec<String> = e.keys.iter().map(|(k, t)| format!("{k}={t}")).collect();
        let attrs: Vec<String> = e
            .attributes
            .iter()
            .map(|a| format!("{}:{:?}{}", a.name, a.ty, if a.required { "!" } else { "" }))
            .collect();
        out += &format!(
            "entity {} ({}) {} [{}]\n",
            e.name,
            e.table,
            keys.join(" "),
            attrs.join(" ")
        );
    }
    for p in &design.patterns {
        let sort = p
            .sort
            .as_ref()
            .map(|s| format!(" sort {} {}", s.attribute, s.op.as_str()))
            .unwrap_or_default();
        let filter: String = p
            .filter
            .iter()
            .map(|f| match f.count {
                Some(n) => format!(" filter {} {} {n}", f.attribute, f.op.as_str()),
                None => format!(" filter {} {}", f.attribute, f.op.as_str()),
            })
            .collect();
        let sort = format!("{sort}{filter}");
        let writes: Vec<String> = p
            .writes
            .iter()
            .map(|w| format!("{:?} {}", w.action, w.entity))
            .collect();
        out += &format!(
            "pattern {} {:?} {:?} inputs {:?}{sort}{}{}\n",
            p.name,
            p.action,
            p.entities,
            p.inputs,
            if p.changes.is_empty() {
                String::new()
            } else {
                format!(" changes {:?}", p.changes)
            },
            if writes.is_empty() {
                String::new()
            } else {
                format!(" writes {writes:?}")
            },
        );
    }
    for (table, items) in &design.samples {
        out += &format!("samples {table}: {}\n", items.len());
    }
    out
}

fn check(format: Format, input: &str, expect: Expect) {
    let actual = match import(format, input) {
        Ok(imported) => {
            let mut out = summary(&imported.design);
            for note in &imported.notes {
                out += &format!("note: {note}\n");
            }
            for assumption in &imported.assumed {
                out += &format!("assumed: {assumption}\n");
            }
            for (pattern, declared) in &imported.declared {
                out += &format!(
                    "declared {pattern}: {} {:?}\n",
                    declared.operation, declared.index
                );
            }
            out
        }
        Err(e) => format!("error: {e}\n"),
    };
    expect.assert_eq(&actual);
}

fn workbench(tables: &str) -> String {
    format!(
        r#"{{"ModelName":"M","ModelMetadata":{{"Version":"3.0","Description":"d"}},"DataModel":[{tables}]}}"#
    )
}

const PK_SK: &str = r#""KeyAttributes":{"PartitionKey":{"AttributeName":"PK","AttributeType":"S"},"SortKey":{"AttributeName":"SK","AttributeType":"S"}}"#;

/// `message` with the reason a text is not a JavaScript module left out: it is the parser's
/// error where the `js` feature is on and "read by the command line" where it is off, and
/// `cargo test --workspace` turns the feature on (the server's) while `-p keyplan-core` does
/// not. The module readers' own messages are tested with them.
fn without_module_reasons(message: &str) -> String {
    message
        .lines()
        .filter(|l| {
            let l = l.trim_start();
            !(l.starts_with("not a OneTable schema") && l.contains("ElectroDB module"))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn detect_tells_the_formats_apart_by_shape() {
    let cases = [
        r#"{"version":1,"name":"x","entities":[]}"#,
        r#"{"ModelName":"x","DataModel":[]}"#,
        r#"{"tables":[{"table_config":{"table_name":"t","partition_key":"pk"},"entities":{}}]}"#,
        r#"{"entities":{"User":{"sample_data":{}}}}"#,
        r#"{"hello":"world"}"#,
        r#"[1, 2]"#,
        "{\n  \"ModelName\": \"x\",\n  oops\n}",
        r#"{"version":"0.0.1","format":"onetable:1.1.0","indexes":{"primary":{"hash":"pk"}},"models":{}}"#,
        "Resources:\n  Bucket:\n    Type: AWS::S3::Bucket\n",
        "Resources:\n  T:\n    Type: AWS::DynamoDB::Table\n    Properties:\n      TableName: !Sub 'orders-${Env}'\n",
        "resource \"aws_dynamodb_table\" \"t\" {\n  name = \"t\"\n}\n",
        "resource \"aws_s3_bucket\" \"b\" {}\n",
        "key: [unclosed\n",
    ];
    let actual: Vec<String> = cases
        .iter()
        .map(|c| match detect(c) {
            Ok(f) => f.to_string(),
            Err(e) => without_module_reasons(&format!("error: {e}")),
        })
        .collect();
    expect![[r#"
        keyplan
        nosql-workbench
        mcp
        error: this is the usage data of an awslabs/mcp schema (sample values per entity), not a design: import the schema.json it belongs to
        error: not a format keyplan reads. keyplan reads a OneTable schema (JSON or JavaScript/TypeScript), a keyplan design, a NoSQL Workbench model, an awslabs/mcp schema.json, a CloudFormation template (JSON or YAML), a Terraform configuration (HCL), an ElectroDB module (JavaScript/TypeScript), a DynamoDB-Toolbox module or DTO (JavaScript/TypeScript or JSON) or a Dynamoose module (JavaScript/TypeScript)
          not a OneTable schema: no `models` and `indexes` objects
          not a keyplan design: no `version`
          not a NoSQL Workbench model: no `ModelName` or `DataModel`
          not an awslabs/mcp schema.json: no `tables` list
          not a CloudFormation template: no `Resources`
          not a Terraform configuration: JSON, not HCL
          not an ElectroDB module or a Dynamoose module: it is JSON, not a JavaScript or TypeScript module
          not a DynamoDB-Toolbox module or DTO: no EntityDTO (`entityName`, `schema`, `table`) or TableDTO
        error: not a format keyplan reads. keyplan reads a OneTable schema (JSON or JavaScript/TypeScript), a keyplan design, a NoSQL Workbench model, an awslabs/mcp schema.json, a CloudFormation template (JSON or YAML), a Terraform configuration (HCL), an ElectroDB module (JavaScript/TypeScript), a DynamoDB-Toolbox module or DTO (JavaScript/TypeScript or JSON) or a Dynamoose module (JavaScript/TypeScript)
          not a OneTable schema: no `models` and `indexes` objects
          not a keyplan design, a NoSQL Workbench model or an awslabs/mcp schema.json: the JSON is a list, not an object
          not a CloudFormation template: no `Resources`
          not a Terraform configuration: JSON, not HCL
          not an ElectroDB module or a Dynamoose module: it is JSON, not a JavaScript or TypeScript module
          not a DynamoDB-Toolbox module or DTO: no EntityDTO (`entityName`, `schema`, `table`) or TableDTO
        error: line 3, column 3: key must be a string
        onetable
        error: not a format keyplan reads. keyplan reads a OneTable schema (JSON or JavaScript/TypeScript), a keyplan design, a NoSQL Workbench model, an awslabs/mcp schema.json, a CloudFormation template (JSON or YAML), a Terraform configuration (HCL), an ElectroDB module (JavaScript/TypeScript), a DynamoDB-Toolbox module or DTO (JavaScript/TypeScript or JSON) or a Dynamoose module (JavaScript/TypeScript)
          not a keyplan design, a NoSQL Workbench model or an awslabs/mcp schema.json: not JSON (line 1, column 1: expected value)
          not a CloudFormation template: no AWS::DynamoDB::Table, AWS::DynamoDB::GlobalTable or AWS::Serverless::SimpleTable among its 1 resource(s)
          not a Terraform configuration: not HCL (line 1, column 10: invalid structure; expected `{`, `=`, `"` or identifier)
        cloudformation
        terraform
        error: not a format keyplan reads. keyplan reads a OneTable schema (JSON or JavaScript/TypeScript), a keyplan design, a NoSQL Workbench model, an awslabs/mcp schema.json, a CloudFormation template (JSON or YAML), a Terraform configuration (HCL), an ElectroDB module (JavaScript/TypeScript), a DynamoDB-Toolbox module or DTO (JavaScript/TypeScript or JSON) or a Dynamoose module (JavaScript/TypeScript)
          not a keyplan design, a NoSQL Workbench model or an awslabs/mcp schema.json: not JSON (line 1, column 1: expected value)
          not a CloudFormation template: no `Resources`
          not a Terraform configuration: no `resource "aws_dynamodb_table"` block or `module` of terraform-aws-modules/dynamodb-table/aws
        error: not a format keyplan reads. keyplan reads a OneTable schema (JSON or JavaScript/TypeScript), a keyplan design, a NoSQL Workbench model, an awslabs/mcp schema.json, a CloudFormation template (JSON or YAML), a Terraform configuration (HCL), an ElectroDB module (JavaScript/TypeScript), a DynamoDB-Toolbox module or DTO (JavaScript/TypeScript or JSON) or a Dynamoose module (JavaScript/TypeScript)
          not a keyplan design, a NoSQL Workbench model or an awslabs/mcp schema.json: not JSON (line 1, column 1: expected value)
          not a CloudFormation template: not JSON or YAML (line 2, column 1: did not find expected ',' or ']' at line 2 column 1, while parsing a flow sequence at line 1 column 6)
          not a Terraform configuration: not HCL (line 1, column 4: invalid structure; expected `{`, `=`, `"` or identifier)"#]]
    .assert_eq(&actual.join("\n"));
}

#[test]
fn a_keyplan_design_file_imports_as_itself() {
    let text = crate::file::to_string(&Design::new("mine"));
    let imported = detect_and_import(&text).expect("imports");
    assert_eq!(imported.design, Design::new("mine"));
}

#[test]
fn workbench_structure_errors_name_the_path() {
    check(
        Format::NosqlWorkbench,
        &workbench(r#"{"TableName":"t","KeyAttributes":{"SortKey":{"AttributeName":"SK"}}}"#),
        expect![[r#"
            error: DataModel[0].KeyAttributes.PartitionKey missing
        "#]],
    );
    // A key type, a version or an item's value keyplan does not know is assumed, not refused
    // (issue 36): see nosql_workbench/tests.rs.
}

// issue 15: a Workbench model's items are read straight into items beside the JSON tree (a
// tree of a 32 MB model's took seconds); what the tree made of duplicate members, of items that
// are not objects and of nesting too deep is kept, errors in the order they came.
#[test]
fn workbench_items_read_beside_the_tree_keep_its_errors_and_its_last_duplicates() {
    let table = |data: &str| workbench(&format!(r#"{{"TableName":"t",{PK_SK},{data}}}"#));
    let item = r#"{"PK":{"S":"A#1"},"SK":{"S":"x"}}"#;
    let cases = [
        // A member given twice counts once, the last.
        r#""TableData":[{"PK":{"X":1},"PK":{"S":"A#1"},"SK":{"S":"w"},"SK":{"S":"x","S":"y"}}]"#
            .to_string(),
        r#""TableData":[{"PK":{"S":"A#1"},"PK":{"X":1}}]"#.to_string(),
        format!(r#""TableData":[{{"PK":{{"X":1}}}}],"TableData":[{item}]"#),
        format!(r#""TableData":[{item}],"TableData":null"#),
        // A value not in DynamoDB JSON is read as plain JSON (issue 36: assumed, and said); an
        // item that is not an object is still wrong, the first.
        format!(r#""TableData":[{item},{{"zz":{{"X":1}},"PK":{{"S":"A#2"}},"aa":5}},7]"#),
        format!(r#""TableData":[{item},[1]]"#),
        r#""TableData":{"a":1}"#.to_string(),
        format!(
            r#""TableFacets":[{{"FacetName":"A","TableData":[{item},{{"SK":{{"SS":["a",true]}}}}]}}]"#
        ),
        // The table's own error comes first, as before its items.
        r#""TableFacets":[{"TableData":[{"PK":{"X":1}}]}]"#.to_string(),
        // Too deep inside an item, or after a wrong one: the recursion limit, where it is.
        format!(r#""TableData":[{{"PK":{{"L":{}}}}}]"#, "[".repeat(200)),
        format!(r#""TableData":[{{"PK":{{"X":1}}}},{}]"#, "[".repeat(200)),
    ];
    let actual: String = cases
        .iter()
        .map(|data| match import(Format::NosqlWorkbench, &table(data)) {
            Ok(imported) => {
                let samples = imported
                    .design
                    .samples
                    .get("t")
                    .cloned()
                    .unwrap_or_default();
                format!("{} items: {:?}\n", samples.len(), samples)
            }
            Err(e) => format!("error: {e}\n"),
        })
        .collect();
    expect![[r#"
        1 items: [{"PK": S("A#1"), "SK": S("y")}]
        1 items: [{"PK": M({"X": N("1")})}]
        1 items: [{"PK": S("A#1"), "SK": S("x")}]
        0 items: []
        error: DataModel[0].TableData[2]: expected an object, found a number
        error: DataModel[0].TableData[1]: expected an object, found a list
        error: DataModel[0].TableData: expected a list, found an object
        2 items: [{"PK": S("A#1"), "SK": S("x")}, {"SK": M({"SS": L([S("a"), Bool(true)])})}]
        error: DataModel[0].TableFacets[0].FacetName missing
        error: line 1, column 374: recursion limit exceeded
        error: line 1, column 380: recursion limit exceeded
    "#]]
    .assert_eq(&actual);
}

#[test]
fn workbench_facets_become_entities_with_templates_from_items_and_aliases() {
    // RecurringPayments-like: aliases name the variables the item values leave unnamed.
    let table = format!(
        r#"{{"TableName":"Payments",{PK_SK},
        "NonKeyAttributes":[{{"AttributeName":"SKU","AttributeType":"S"}},{{"AttributeName":"TTL","AttributeType":"N"}},{{"AttributeName":"NextDate","AttributeType":"S"}}],
        "TableFacets":[
          {{"FacetName":"Subscription","KeyAttributeAlias":{{"PartitionKeyAlias":"AccountId","SortKeyAlias":"SubId#SKU"}},
            "TableData":[{{"PK":{{"S":"ACC#123"}},"SK":{{"S":"SUB#7#SKU#999"}},"SKU":{{"S":"999"}},"NextDate":{{"S":"2023-06-28"}}}}],
            "NonKeyAttributes":["SKU","NextDate"]}},
          {{"FacetName":"Song","KeyAttributeAlias":{{"PartitionKeyAlias":"SONG#<songId>","SortKeyAlias":"Metadata"}},"NonKeyAttributes":["TTL"]}}
        ],
        "GlobalSecondaryIndexes":[{{"IndexName":"ByNext","KeyAttributes":{{"PartitionKey":{{"AttributeName":"NextDate","AttributeType":"S"}}}},
          "Projection":{{"ProjectionType":"INCLUDE","NonKeyAttributes":["SKU"]}}}}],
        "BillingMode":"PROVISIONED","ProvisionedCapacitySettings":{{"ProvisionedThroughput":{{"ReadCapacityUnits":5,"WriteCapacityUnits":3}}}}}}"#
    );
    check(
        Format::NosqlWorkbench,
        &workbench(&table),
        expect![[r#"
            design "M"
            table Payments PK PK:S SK SK:S Provisioned { read: 5, write: 3 }
              gsi ByNext NextDate:S /  Include { attributes: ["SKU"] }
            entity Subscription (Payments) PK=ACC#{AccountId} SK=SUB#{SubId}#SKU#{SKU} [AccountId:S! SubId:S! SKU:S! NextDate:S!]
            entity Song (Payments) PK=SONG#{songId} SK={Metadata} [songId:S! Metadata:S! TTL:N]
            samples Payments: 1
            note: NoSQL Workbench models hold no TTL setting: if a table has one, set its TTL attribute in keyplan
            note: secondary index key templates are inferred from the sample items (NoSQL Workbench has aliases for the table's keys only): a write-shard part such as `SHARD{shard:10}` gets one more shard than the largest number the items hold, so check its count
        "#]],
    );
}

#[test]
fn workbench_items_without_facets_are_grouped_by_key_shape() {
    // ChatSystem-like: `User:UserA` and `Room:Art`; a sort key equal to an attribute is it.
    let items = r#"[
      {"PK":{"S":"User:UserA"},"SK":{"S":"2023-04-01T12:00:00Z"},"RoomID":{"S":"Music"},"CreatedAt":{"S":"2023-04-01T12:00:00Z"}},
      {"PK":{"S":"User:UserB"},"SK":{"S":"2023-04-01T12:05:00Z"},"RoomID":{"S":"Art"},"CreatedAt":{"S":"2023-04-01T12:05:00Z"}},
      {"PK":{"S":"Room:Music"},"SK":{"S":"meta"},"CreatedBy":{"S":"UserA"}},
      {"PK":{"S":"Room:Art"},"SK":{"S":"meta"},"CreatedBy":{"S":"UserB"}},
      {"PK":{"S":"USER#123#follower"},"SK":{"S":"USER#456"}},
      {"PK":{"S":"USER#123#follower"},"SK":{"S":"USER#789"}}
    ]"#;
    let table = format!(
        r#"{{"TableName":"Chat",{PK_SK},"TableData":{items},
        "GlobalSecondaryIndexes":[{{"IndexName":"ByRoom","KeyAttributes":{{"PartitionKey":{{"AttributeName":"RoomID","AttributeType":"S"}},"SortKey":{{"AttributeName":"CreatedAt","AttributeType":"S"}}}},"Projection":{{"ProjectionType":"ALL"}}}}]}}"#
    );
    check(
        Format::NosqlWorkbench,
        &workbench(&table),
        expect![[r#"
            design "M"
            table Chat PK PK:S SK SK:S OnDemand
              gsi ByRoom RoomID:S / CreatedAt:S All
            entity User (Chat) PK=User:{userId} SK={CreatedAt} [userId:S! CreatedAt:S! RoomID:S!]
            entity Room (Chat) PK=Room:{roomId} SK=meta [roomId:S! CreatedBy:S!]
            entity Follower (Chat) PK=USER#{userId}#follower SK=USER#{userId2} [userId:S! userId2:S!]
            samples Chat: 6
            note: NoSQL Workbench models hold no TTL setting: if a table has one, set its TTL attribute in keyplan
            note: table Chat: no facets, so entities were inferred from the shapes of the items' keys
            note: secondary index key templates are inferred from the sample items (NoSQL Workbench has aliases for the table's keys only): a write-shard part such as `SHARD{shard:10}` gets one more shard than the largest number the items hold, so check its count
        "#]],
    );
}

#[test]
fn workbench_entity_type_attribute_names_the_entities_and_version_1_reads() {
    let items = r#"[
      {"PK":{"S":"c#1"},"SK":{"S":"c#1"},"EntityType":{"S":"customer"},"Detail":{"M":{"plain":true,"n":2}}},
      {"PK":{"S":"o#9"},"SK":{"S":"p#1"},"EntityType":{"S":"orderItem"},"GSI1-PK":{"S":"p#1"},"GSI1-SK":{"S":"2020-06-21T19:18:00"}}
    ]"#;
    let text = format!(
        r#"{{"ModelName":"Shop","ModelMetadata":{{"Version":"1.0"}},"DataModel":[{{"TableName":"Shop",{PK_SK},"TableData":{items},
        "GlobalSecondaryIndexes":[{{"IndexName":"GSI1","KeySchema":[{{"AttributeName":"GSI1-PK","KeyType":"HASH"}},{{"AttributeName":"GSI1-SK","KeyType":"RANGE"}}],"Projection":{{"ProjectionType":"KEYS_ONLY"}}}}]}}]}}"#
    );
    check(
        Format::NosqlWorkbench,
        &text,
        expect![[r#"
            design "Shop"
            table Shop PK PK:S SK SK:S OnDemand
              gsi GSI1 GSI1-PK:S / GSI1-SK:S KeysOnly
            entity customer (Shop) PK=c#{customerId} SK=c#{customerId} [customerId:S! Detail:M! EntityType:S!]
            entity orderItem (Shop) GSI1-PK=p#{pId} GSI1-SK={date} PK=o#{orderId} SK=p#{pId} [orderId:S! pId:S! date:S! EntityType:S!]
            samples Shop: 2
            note: NoSQL Workbench models hold no TTL setting: if a table has one, set its TTL attribute in keyplan
            note: table Shop: entities are the values of the `EntityType` attribute
            note: secondary index key templates are inferred from the sample items (NoSQL Workbench has aliases for the table's keys only): a write-shard part such as `SHARD{shard:10}` gets one more shard than the largest number the items hold, so check its count
        "#]],
    );
}

// issue 15: an item-heavy model's templates come from an evenly spread subset of its items, but
// a write shard's count still comes from every item: the one item of shard 9 is not in the
// subset.
#[test]
fn workbench_shard_count_counts_every_item_when_templates_come_from_a_subset() {
    let items: Vec<String> = (0..1500)
        .map(|i| {
            let shard = if i == 2 { 9 } else { i % 5 };
            format!(r#"{{"PK":{{"S":"STATUS#SHARD{shard}"}},"SK":{{"S":"ORDER#{i}"}}}}"#)
        })
        .collect();
    let table = format!(
        r#"{{"TableName":"Orders",{PK_SK},"TableData":[{}]}}"#,
        items.join(",")
    );
    check(
        Format::NosqlWorkbench,
        &workbench(&table),
        expect![[r#"
            design "M"
            table Orders PK PK:S SK SK:S OnDemand
            entity Orders (Orders) PK=STATUS#SHARD{shard:10} SK=ORDER#{orderId} [orderId:S!]
            samples Orders: 1500
            note: NoSQL Workbench models hold no TTL setting: if a table has one, set its TTL attribute in keyplan
            note: entity Orders: `PK` is write-sharded; 10 shards is one more than the largest shard number in the items, so check it against the writers
            note: table Orders: 1 entity holds more than 1000 items (the largest 1500): key templates were inferred from 1000 of each one's items, spread evenly through them; every item is kept as sample data
        "#]],
    );
}

#[test]
fn workbench_table_with_no_items_keeps_its_attributes_on_one_entity() {
    let table = r#"{"TableName":"device-log","KeyAttributes":{"PartitionKey":{"AttributeName":"DeviceID","AttributeType":"S"},"SortKey":{"AttributeName":"Ts","AttributeType":"N"}},"NonKeyAttributes":[{"AttributeName":"State","AttributeType":"S"}]}"#;
    check(
        Format::NosqlWorkbench,
        &workbench(table),
        expect![[r#"
            design "M"
            table device-log PK DeviceID:S SK Ts:N OnDemand
            entity DeviceLog (device-log)  [DeviceID:S! Ts:N! State:S]
            note: NoSQL Workbench models hold no TTL setting: if a table has one, set its TTL attribute in keyplan
        "#]],
    );
}

const MCP: &str = r#"{
  "tables": [{
    "table_config": {"table_name": "App", "partition_key": "pk", "sort_key": "sk"},
    "gsi_list": [{"name": "ByStatus", "partition_key": "status_pk", "sort_key": "created_sk", "projection": "INCLUDE", "included_attributes": ["user_id"]}],
    "entities": {
      "User": {
        "entity_type": "USER", "pk_template": "USER#{user_id}", "sk_template": "PROFILE",
        "fields": [{"name": "user_id", "type": "string", "required": true}, {"name": "email", "type": "string", "required": false}],
        "access_patterns": [
          {"pattern_id": 1, "name": "get_user", "description": "by id", "operation": "GetItem", "parameters": [{"name": "user_id", "type": "string"}], "return_type": "single_entity"},
          {"pattern_id": 2, "name": "update_email", "description": "", "operation": "UpdateItem", "parameters": [{"name": "user_id", "type": "string"}, {"name": "email", "type": "string"}], "return_type": "single_entity"},
          {"pattern_id": 3, "name": "user_and_orders", "description": "", "operation": "Query", "parameters": [{"name": "user_id", "type": "string"}], "return_type": "mixed_data"}
        ]
      },
      "Order": {
        "entity_type": "ORDER", "pk_template": "USER#{user_id}", "sk_template": "ORDER#{order_date}#{order_id}",
        "gsi_mappings": [{"name": "ByStatus", "pk_template": "STATUS#{status}", "sk_template": "{created_at}"}],
        "fields": [{"name": "user_id", "type": "string", "required": true}, {"name": "order_id", "type": "string", "required": true},
                   {"name": "order_date", "type": "string", "required": true}, {"name": "status", "type": "string", "required": true},
                   {"name": "created_at", "type": "integer", "required": true}, {"name": "lines", "type": "array", "item_type": "object", "required": false}],
        "access_patterns": [
          {"pattern_id": 4, "name": "orders_between", "description": "", "operation": "Query", "range_condition": "between",
           "parameters": [{"name": "user_id", "type": "string"}, {"name": "start", "type": "string"}, {"name": "end", "type": "string"}], "return_type": "entity_list"},
          {"pattern_id": 5, "name": "recent_by_status", "description": "", "operation": "Query", "index_name": "ByStatus", "range_condition": ">=",
           "parameters": [{"name": "status", "type": "string"}, {"name": "since", "type": "integer"}], "return_type": "entity_list"},
          {"pattern_id": 6, "name": "place_order", "description": "", "operation": "PutItem",
           "parameters": [{"name": "order", "type": "entity", "entity_type": "Order"}, {"name": "user", "type": "entity", "entity_type": "User"}], "return_type": "single_entity"},
          {"pattern_id": 7, "name": "followers", "description": "", "operation": "Scan", "parameters": [{"name": "target_user_id", "type": "string"}], "return_type": "entity_list"}
        ]
      }
    }
  }],
  "cross_table_access_patterns": [
    {"pattern_id": 100, "name": "register", "description": "atomically", "operation": "TransactWrite",
     "entities_involved": [{"action": "Put", "condition": "attribute_not_exists(pk)", "entity": "User", "table": "App"},
                           {"action": "ConditionCheck", "entity": "Order", "table": "App"}],
     "parameters": [{"name": "user", "type": "entity", "entity_type": "User"}], "return_type": "boolean"}
  ]
}"#;

#[test]
fn mcp_schema_maps_tables_templates_gsis_and_patterns() {
    check(
        Format::Mcp,
        MCP,
        expect![[r#"
            design "App"
            table App PK pk:S SK sk:S OnDemand
              gsi ByStatus status_pk:S / created_sk:N Include { attributes: ["user_id"] }
            entity Order (App) created_sk={created_at} pk=USER#{user_id} sk=ORDER#{order_date}#{order_id} status_pk=STATUS#{status} [user_id:S! order_id:S! order_date:S! status:S! created_at:N! lines:L]
            entity User (App) pk=USER#{user_id} sk=PROFILE [user_id:S! email:S]
            pattern orders_between Read ["Order"] inputs ["user_id"] sort order_date between
            pattern recent_by_status Read ["Order"] inputs ["status"] sort created_at >=
            pattern place_order Put ["Order"] inputs []
            pattern followers Read ["Order"] inputs []
            pattern get_user Read ["User"] inputs ["user_id"]
            pattern update_email Update ["User"] inputs ["user_id"] changes ["email"]
            pattern user_and_orders Read ["Order", "User"] inputs ["user_id"]
            pattern register Transact [] inputs [] writes ["Put User"]
            note: pattern place_order: also takes User as parameters; keyplan records only the entity written
            note: pattern followers: parameter(s) target_user_id are not attributes of Order; dropped
            note: pattern register: the `ConditionCheck` step on Order is not kept (keyplan transactions hold puts, updates and deletes)
            note: entity_type values (ORDER, USER) are not kept: keyplan tells entities apart by their key templates
            note: pattern_id and return_type are not kept; each pattern's operation and index_name are keyplan's to decide (compare with `keyplan check`)
            declared followers: Scan None
            declared get_user: GetItem None
            declared orders_between: Query None
            declared place_order: PutItem None
            declared recent_by_status: Query Some("ByStatus")
            declared register: TransactWrite None
            declared update_email: UpdateItem None
            declared user_and_orders: Query None
        "#]],
    );
}

#[test]
fn mcp_structure_errors_name_the_path() {
    check(
        Format::Mcp,
        r#"{"tables":[{"table_config":{"table_name":"t"},"entities":{}}]}"#,
        expect![[r#"
            error: tables[0].table_config.partition_key missing
        "#]],
    );
    check(
        Format::Mcp,
        r#"{"tables":[{"table_config":{"table_name":"t","partition_key":"pk"},"entities":{"U":{"entity_type":"U","pk_template":"U#{id}","fields":[{"name":"id","type":"text","required":true}]}}}]}"#,
        expect![[r#"
            error: tables[0].entities.U.fields[0].type: field type `text`: expected string, integer, decimal, boolean, array, object or uuid
        "#]],
    );
    check(
        Format::Mcp,
        r#"{"tables":[{"table_config":{"table_name":"t","partition_key":"pk"},"entities":{"U":{"entity_type":"U","pk_template":"U#{id}","fields":[],"gsi_mappings":[{"name":"Nope","pk_template":"{id}"}]}}}]}"#,
        expect![[r#"
            error: tables[0].entities.U.gsi_mappings[0].name: no GSI `Nope` in the table's gsi_list
        "#]],
    );
}

#[test]
fn mcp_usage_data_becomes_sample_items_with_rendered_keys() {
    let mut imported = import(Format::Mcp, MCP).expect("imports");
    let usage = r#"{"entities": {"Order": {"sample_data": {"user_id": "u1", "order_id": "o7",
        "order_date": "2024-01-02", "status": "open", "created_at": 1700000000, "lines": [{"sku": "a"}]}}}}"#;
    super::mcp::add_usage_data(&mut imported, usage).expect("usage data reads");
    let items = &imported.design.samples["App"];
    expect![[r#"[{"created_at":{"N":"1700000000"},"created_sk":{"N":"1700000000"},"lines":{"L":[{"M":{"sku":{"S":"a"}}}]},"order_date":{"S":"2024-01-02"},"order_id":{"S":"o7"},"pk":{"S":"USER#u1"},"sk":{"S":"ORDER#2024-01-02#o7"},"status":{"S":"open"},"status_pk":{"S":"STATUS#open"},"user_id":{"S":"u1"}}]"#]].assert_eq(&serde_json::to_string(items).expect("items serialise"));
    let unknown = r#"{"entities": {"Nope": {"sample_data": {}}}}"#;
    expect!["entities.Nope: no entity `Nope` in the schema"].assert_eq(
        &super::mcp::add_usage_data(&mut imported, unknown)
            .expect_err("an unknown entity")
            .to_string(),
    );
}

#[test]
fn multi_attribute_gsi_keys_read_as_lists_in_both_formats() {
    check(
        Format::Mcp,
        r#"{"tables":[{"table_config":{"table_name":"t","partition_key":"pk"},
          "gsi_list":[{"name":"ByRegion","partition_key":["region","tier"],"sort_key":["score"]}],
          "entities":{"P":{"entity_type":"P","pk_template":"P#{id}","fields":[
            {"name":"id","type":"string","required":true},{"name":"region","type":"string","required":true},
            {"name":"tier","type":"string","required":true},{"name":"score","type":"integer","required":true}],
            "gsi_mappings":[{"name":"ByRegion","pk_template":["{region}","{tier}"],"sk_template":["{score}"]}]}}}]}"#,
        expect![[r#"
            design "t"
            table t PK pk:S OnDemand
              gsi ByRegion region:S+tier:S / score:N All
            entity P (t) pk=P#{id} [id:S! region:S! tier:S! score:N!]
            note: entity_type values (P) are not kept: keyplan tells entities apart by their key templates
            note: pattern_id and return_type are not kept; each pattern's operation and index_name are keyplan's to decide (compare with `keyplan check`)
        "#]],
    );
    let table = r#"{"TableName":"t","KeyAttributes":{"PartitionKey":{"AttributeName":"id","AttributeType":"S"}},
      "GlobalSecondaryIndexes":[{"IndexName":"ByRegion","KeyAttributes":{
        "PartitionKey":[{"AttributeName":"region","AttributeType":"S"},{"AttributeName":"tier","AttributeType":"S"}],
        "SortKey":{"AttributeName":"score","AttributeType":"N"}}}]}"#;
    check(
        Format::NosqlWorkbench,
        &workbench(table),
        expect![[r#"
            design "M"
            table t PK id:S OnDemand
              gsi ByRegion region:S+tier:S / score:N All
            entity T (t)  [id:S!]
            note: NoSQL Workbench models hold no TTL setting: if a table has one, set its TTL attribute in keyplan
            note: secondary index key templates are inferred from the sample items (NoSQL Workbench has aliases for the table's keys only): a write-shard part such as `SHARD{shard:10}` gets one more shard than the largest number the items hold, so check its count
        "#]],
    );
}

/// An mcp schema with one table (`pk`, sort key `sort_key`, GSIs `ByStatus` and the inverted
/// index `Inverted`) and the given entities' JSON.
fn mcp_table(entities: &str) -> String {
    format!(
        r#"{{"tables":[{{"table_config":{{"table_name":"Shop","partition_key":"pk","sort_key":"sort_key"}},
          "gsi_list":[{{"name":"ByStatus","partition_key":"status","sort_key":"created_at","projection":"ALL"}},
                      {{"name":"Inverted","partition_key":"sort_key","sort_key":"pk","projection":"KEYS_ONLY"}}],
          "entities":{{{entities}}}}}]}}"#
    )
}

const MCP_ORDER: &str = r#""Order":{"entity_type":"ORDER","pk_template":"USER#{user_id}","sk_template":"ORDER#{order_id}",
  "gsi_mappings":[{"name":"ByStatus","pk_template":"{status}","sk_template":"{created_at}"}],
  "fields":[{"name":"user_id","type":"string","required":true},{"name":"order_id","type":"string","required":true},
            {"name":"status","type":"string","required":true},{"name":"created_at","type":"string","required":true},
            {"name":"total","type":"integer","required":true}],
  "access_patterns":[
    {"pattern_id":1,"name":"order_now","description":"","operation":"GetItem","consistent_read":true,
     "parameters":[{"name":"user_id","type":"string"},{"name":"order_id","type":"string"}],"return_type":"single_entity"},
    {"pattern_id":2,"name":"open_orders","description":"","operation":"Query","index_name":"ByStatus","consistent_read":true,
     "parameters":[{"name":"status","type":"string"}],"return_type":"entity_list"},
    {"pattern_id":3,"name":"big_orders","description":"","operation":"Query","consistent_read":false,
     "filter_expression":{"conditions":[{"field":"total","operator":">=","param":"min_total"}]},
     "parameters":[{"name":"user_id","type":"string"},{"name":"min_total","type":"integer"}],"return_type":"entity_list"}
  ]}"#;

// issue 15: an mcp pattern's `consistent_read` was dropped, so a strongly consistent read
// was served by a GSI (which DynamoDB refuses) and costed as an eventual one.
#[test]
fn mcp_consistent_read_is_kept_and_no_gsi_serves_it() {
    let imported = import(Format::Mcp, &mcp_table(MCP_ORDER)).expect("imports");
    let consistent: Vec<(&str, bool)> = imported
        .design
        .patterns
        .iter()
        .map(|p| (p.name.as_str(), p.consistent))
        .collect();
    expect![[r#"[("order_now", true), ("open_orders", true), ("big_orders", false)]"#]]
        .assert_eq(&format!("{consistent:?}"));
    let analysis = crate::analysis::analyze(&imported.design);
    let open = &analysis.verdicts[1];
    expect!["Scan None covered false"].assert_eq(&format!(
        "{:?} {:?} covered {}",
        open.operation, open.index, open.covered
    ));
}

// issue 15: an mcp `filter_expression` was dropped without a word, and its parameters were
// read as key or range values. issue 16: it is the pattern's filter, its values renamed to
// keyplan's inputs.
#[test]
fn mcp_filter_expression_is_kept_as_the_filter_and_its_parameters_are_not_keys() {
    check(
        Format::Mcp,
        &mcp_table(MCP_ORDER),
        expect![[r#"
            design "Shop"
            table Shop PK pk:S SK sort_key:S OnDemand
              gsi ByStatus status:S / created_at:S All
              gsi Inverted sort_key:S / pk:S KeysOnly
            entity Order (Shop) pk=USER#{user_id} sort_key=ORDER#{order_id} [user_id:S! order_id:S! status:S! created_at:S! total:N!]
            pattern order_now Read ["Order"] inputs ["user_id", "order_id"]
            pattern open_orders Read ["Order"] inputs ["status"]
            pattern big_orders Read ["Order"] inputs ["user_id"] filter total >=
            note: pattern big_orders: filter_expression `total >= :min_total` is kept as its filter; its values are given as keyplan's inputs: `min_total` is `total`
            note: entity_type values (ORDER) are not kept: keyplan tells entities apart by their key templates
            note: pattern_id and return_type are not kept; each pattern's operation and index_name are keyplan's to decide (compare with `keyplan check`)
            declared big_orders: Query None
            declared open_orders: Query Some("ByStatus")
            declared order_now: GetItem None
        "#]],
    );
}

// issue 15: an entity with a field named like the table's sort-key attribute lost its
// sk_template (`MENU#{category}#{product_id}` became nothing), which then collided (KP004)
// with every other entity of the partition.
#[test]
fn mcp_field_named_like_the_sort_key_attribute_keeps_the_sk_template() {
    let product = r#""Product":{"entity_type":"PRODUCT","pk_template":"STORE#{store_id}","sk_template":"MENU#{category}#{product_id}",
      "fields":[{"name":"store_id","type":"string","required":true},{"name":"category","type":"string","required":true},
                {"name":"product_id","type":"string","required":true},{"name":"sort_key","type":"string","required":true}],
      "gsi_mappings":[{"name":"Inverted","pk_template":"{sort_key}","sk_template":"STORE#{store_id}"}],
      "access_patterns":[]},
      "Store":{"entity_type":"STORE","pk_template":"STORE#{store_id}","sk_template":"PROFILE",
      "fields":[{"name":"store_id","type":"string","required":true}],"access_patterns":[]}"#;
    let imported = import(Format::Mcp, &mcp_table(product)).expect("imports");
    let summary = summary(&imported.design);
    expect![[r#"
        design "Shop"
        table Shop PK pk:S SK sort_key:S OnDemand
          gsi ByStatus status:S / created_at:S All
          gsi Inverted sort_key:S / pk:S KeysOnly
        entity Product (Shop) pk=STORE#{store_id} sort_key=MENU#{category}#{product_id} [store_id:S! category:S! product_id:S! sort_key:S!]
        entity Store (Shop) pk=STORE#{store_id} sort_key=PROFILE [store_id:S!]
    "#]].assert_eq(&summary);
    let analysis = crate::analysis::analyze(&imported.design);
    let codes: Vec<&str> = analysis.findings.iter().map(|f| f.code).collect();
    assert!(!codes.contains(&"KP004"), "no key collision: {codes:?}");
}

// issue 15: `range_condition` with only the key parameter took the key's value as the range
// value; mcp's own validator requires the partition key's parameter plus one per range operand.
#[test]
fn mcp_range_condition_without_a_range_parameter_reads_keys_from_the_key_parameters() {
    let order = r#""Order":{"entity_type":"ORDER","pk_template":"USER#{user_id}","sk_template":"ORDER#{order_date}#{order_id}",
      "fields":[{"name":"user_id","type":"string","required":true},{"name":"order_date","type":"string","required":true},
                {"name":"order_id","type":"string","required":true}],
      "access_patterns":[
        {"pattern_id":1,"name":"orders_of_user","description":"","operation":"Query","range_condition":"begins_with",
         "parameters":[{"name":"user_id","type":"string"}],"return_type":"entity_list"},
        {"pattern_id":2,"name":"orders_between","description":"","operation":"Query","range_condition":"between",
         "parameters":[{"name":"user_id","type":"string"},{"name":"from","type":"string"}],"return_type":"entity_list"}
      ]}"#;
    check(
        Format::Mcp,
        &mcp_table(order),
        expect![[r#"
        design "Shop"
        table Shop PK pk:S SK sort_key:S OnDemand
          gsi ByStatus status:S / created_at:S All
          gsi Inverted sort_key:S / pk:S KeysOnly
        entity Order (Shop) pk=USER#{user_id} sort_key=ORDER#{order_date}#{order_id} [user_id:S! order_date:S! order_id:S!]
        pattern orders_of_user Read ["Order"] inputs ["user_id"] sort order_date begins_with
        pattern orders_between Read ["Order"] inputs ["user_id"] sort order_date between
        note: pattern orders_of_user: range_condition `begins_with` with 1 value parameter(s); awslabs/mcp's validator requires exactly 2 (partition key + 1 range value): all are read as key values, and the range's value is left to the query
        note: pattern orders_between: range_condition `between` with 2 value parameter(s); awslabs/mcp's validator requires exactly 3 (partition key + 2 range values): all are read as key values, and the range's value is left to the query
        note: pattern orders_between: parameter(s) from are not attributes of Order; dropped
        note: entity_type values (ORDER) are not kept: keyplan tells entities apart by their key templates
        note: pattern_id and return_type are not kept; each pattern's operation and index_name are keyplan's to decide (compare with `keyplan check`)
        declared orders_between: Query None
        declared orders_of_user: Query None
    "#]],
    );
}

/// A table's every kept setting as one line each: keys, indexes, billing, TTL, LSIs.
fn tables_summary(design: &Design) -> String {
    let mut out = summary(design);
    for t in &design.tables {
        for l in &t.lsis {
            out += &format!(
                "  lsi {} {}:{:?} {:?}\n",
                l.name, l.sort_key.name, l.sort_key.ty, l.projection
            );
        }
        if let Some(ttl) = &t.ttl_attribute {
            out += &format!("  ttl {ttl}\n");
        }
        if !t.replicas.is_empty() {
            out += &format!("  replicated to {}\n", t.replicas.join(", "));
        }
        for v in &t.vector_indexes {
            out += &format!(
                "  vector {} {} {} {} {:?}\n",
                v.name,
                v.attribute,
                v.dimensions,
                v.distance.as_str(),
                v.projection
            );
        }
    }
    out
}

pub(super) fn check_tables(format: Format, input: &str, expect: Expect) {
    let actual = match import(format, input) {
        Ok(imported) => {
            let mut out = tables_summary(&imported.design);
            for note in &imported.notes {
                out += &format!("note: {note}\n");
            }
            for assumed in &imported.assumed {
                out += &format!("assumed: {assumed}\n");
            }
            out
        }
        Err(e) => format!("error: {e}\n"),
    };
    expect.assert_eq(&actual);
}

#[test]
fn cloudformation_yaml_with_short_form_tags_reads_tables_indexes_billing_and_ttl() {
    let template = r#"AWSTemplateFormatVersion: "2010-09-09"
Parameters:
  Env: {Type: String}
Resources:
  Orders:
    Type: AWS::DynamoDB::Table
    Properties:
      TableName: !Sub "orders-${Env}"
      AttributeDefinitions:
        - {AttributeName: pk, AttributeType: S}
        - {AttributeName: sk, AttributeType: S}
        - {AttributeName: region, AttributeType: S}
        - {AttributeName: tier, AttributeType: S}
        - {AttributeName: score, AttributeType: N}
        - {AttributeName: placed, AttributeType: N}
      KeySchema:
        - {AttributeName: pk, KeyType: HASH}
        - {AttributeName: sk, KeyType: RANGE}
      GlobalSecondaryIndexes:
        - IndexName: ByRegion
          KeySchema:
            - {AttributeName: region, KeyType: HASH}
            - {AttributeName: tier, KeyType: HASH}
            - {AttributeName: score, KeyType: RANGE}
          Projection: {ProjectionType: INCLUDE, NonKeyAttributes: [total]}
          ProvisionedThroughput: {ReadCapacityUnits: 5, WriteCapacityUnits: 5}
      LocalSecondaryIndexes:
        - IndexName: ByPlaced
          KeySchema:
            - {AttributeName: pk, KeyType: HASH}
            - {AttributeName: placed, KeyType: RANGE}
          Projection: {ProjectionType: KEYS_ONLY}
      BillingMode: PROVISIONED
      ProvisionedThroughput: {ReadCapacityUnits: "10", WriteCapacityUnits: 4}
      TimeToLiveSpecification: {AttributeName: expires, Enabled: true}
      StreamSpecification: {StreamViewType: NEW_AND_OLD_IMAGES}
      Tags: [{Key: team, Value: !Ref Env}]
  Bucket:
    Type: AWS::S3::Bucket
Outputs:
  Arn: {Value: !GetAtt Orders.Arn}
"#;
    check_tables(
        Format::CloudFormation,
        template,
        expect![[r#"
            design "orders"
            table orders PK pk:S SK sk:S Provisioned { read: 10, write: 4 } ByRegion {"read":5,"write":5}
              gsi ByRegion region:S+tier:S / score:N Include { attributes: ["total"] }
              lsi ByPlaced placed:N KeysOnly
              ttl expires
            note: a CloudFormation template holds tables and indexes but no entities or access patterns: the design opens with its table; add entities and patterns to check it
            note: table orders: its stream (NEW_AND_OLD_IMAGES) is not kept; keyplan designs hold no stream settings
            note: table orders: Tags not kept
            assumed: line 8: `!Sub orders-${Env}` (`${Env}` left out): assumed `orders`, its literal part
        "#]],
    );
}

#[test]
fn cloudformation_global_table_and_what_is_assumed_in_place_of_a_refusal() {
    let global = r#"{"Resources":{"G":{"Type":"AWS::DynamoDB::GlobalTable","Properties":{
      "TableName":"events","BillingMode":"PAY_PER_REQUEST",
      "AttributeDefinitions":[{"AttributeName":"id","AttributeType":"B"}],
      "KeySchema":[{"AttributeName":"id","KeyType":"HASH"}],
      "Replicas":[{"Region":"eu-west-1"}],
      "StreamSpecification":{"StreamViewType":"KEYS_ONLY"}}}}}"#;
    check_tables(
        Format::CloudFormation,
        global,
        expect![[r#"
            design "events"
            table events PK id:B OnDemand
            note: a CloudFormation template holds tables and indexes but no entities or access patterns: the design opens with its table; add entities and patterns to check it
            note: table events: its stream (KEYS_ONLY) is not kept; keyplan designs hold no stream settings
        "#]],
    );
    let undefined = r#"{"Resources":{"T":{"Type":"AWS::DynamoDB::Table","Properties":{
      "AttributeDefinitions":[{"AttributeName":"id","AttributeType":"S"}],
      "KeySchema":[{"AttributeName":"nope","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST"}}}}"#;
    check_tables(
        Format::CloudFormation,
        undefined,
        expect![[r#"
            design "T"
            table T PK nope:S OnDemand
            note: a CloudFormation template holds tables and indexes but no entities or access patterns: the design opens with its table; add entities and patterns to check it
            assumed: line 3: `nope` is not in AttributeDefinitions: assumed a string (S)
        "#]],
    );
    check_tables(
        Format::CloudFormation,
        "Resources:\n  T: [unclosed\n",
        expect![[r#"
            error: line 3, column 1: did not find expected ',' or ']' at line 3 column 1, while parsing a flow sequence at line 2 column 6
        "#]],
    );
}

#[test]
fn terraform_reads_tables_indexes_multi_attribute_keys_billing_ttl_streams_and_assumes_the_rest() {
    let config = r#"
variable "environment" { default = "dev" }

resource "aws_dynamodb_table" "orders" {
  name           = "orders-${var.environment}"
  billing_mode   = "PROVISIONED"
  read_capacity  = 10
  write_capacity = var.write
  hash_key       = "pk"
  range_key      = "sk"

  attribute {
    name = "pk"
    type = "S"
  }
  attribute {
    name = "sk"
    type = "S"
  }
  attribute {
    name = "region"
    type = "S"
  }
  attribute {
    name = "score"
    type = "N"
  }

  global_secondary_index {
    name            = "ByRegion"
    key_schema {
      attribute_name = "region"
      key_type       = "HASH"
    }
    key_schema {
      attribute_name = "score"
      key_type       = "RANGE"
    }
    projection_type = "KEYS_ONLY"
  }
  global_secondary_index {
    name               = "ByScore"
    hash_key           = "score"
    projection_type    = "INCLUDE"
    non_key_attributes = ["total"]
  }
  local_secondary_index {
    name            = "ByRegionLocal"
    range_key       = "region"
    projection_type = "ALL"
  }

  ttl {
    attribute_name = "expires"
    enabled        = true
  }
  stream_enabled   = true
  stream_view_type = "NEW_IMAGE"
  tags = { team = "a" }
}

resource "aws_s3_bucket" "b" {}
"#;
    check_tables(
        Format::Terraform,
        config,
        expect![[r#"
            design "orders"
            table orders PK pk:S SK sk:S Provisioned { read: 10, write: 1 }
              gsi ByRegion region:S / score:N KeysOnly
              gsi ByScore score:N /  Include { attributes: ["total"] }
              lsi ByRegionLocal region:S All
              ttl expires
            note: a Terraform configuration holds tables and indexes but no entities or access patterns: the design opens with its table; add entities and patterns to check it
            note: table orders: its stream (NEW_IMAGE) is not kept; keyplan designs hold no stream settings
            note: table orders: tags not kept
            assumed: line 5: `"orders-${var.environment}"` (`${var.environment}` left out): assumed `orders`, its literal part
            assumed: line 8: write_capacity `var.write`: assumed 1
        "#]],
    );
    check_tables(
        Format::Terraform,
        "resource \"aws_dynamodb_table\" \"t\" {\n  hash_key = \"id\"\n}\n",
        expect![[r#"
            design "t"
            table t PK id:S Provisioned { read: 1, write: 1 }
            note: a Terraform configuration holds tables and indexes but no entities or access patterns: the design opens with its table; add entities and patterns to check it
            assumed: line 2: `id` has no `attribute` of its type: assumed a string (S)
            assumed: line 1: table t: PROVISIONED without read_capacity: assumed 1
            assumed: line 1: table t: PROVISIONED without write_capacity: assumed 1
        "#]],
    );
    check_tables(
        Format::Terraform,
        "resource \"aws_dynamodb_table\" \"t\" {\n  hash_key = \n",
        expect![[r#"
            error: line 2, column 14: invalid expression; expected `"`, `[`, `{`, `-`, `!`, `(`, `_`, `<`, letter or digit
        "#]],
    );
}

// issue 15: the mcp and CloudFormation readers, asked by name for JSON without their
// top-level member, say it is missing without parsing the tree; what the parse refuses (a
// number out of range, nesting past serde_json's limit, text after the value, a syntax error
// after the names) keeps the parse's error, and a top level that is not an object reads as
// it did.
#[test]
fn a_reader_by_name_finds_its_member_missing_as_the_parse_would() {
    let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
    let texts = [
        r#"{"ModelName": "m", "DataModel": [{"TableData": [{"pk": {"S": "a"}}]}]}"#.to_string(),
        r#"{"ModelName": "m", "x": 1e400}"#.to_string(),
        format!(r#"{{"ModelName": "m", "x": {deep}}}"#),
        r#"{"ModelName": "m"} x"#.to_string(),
        r#"{"ModelName": "m", "x": [1, 2,]}"#.to_string(),
        r#"{"ModelName": "m", "x": "\ud800"}"#.to_string(),
        r#"[{"tables": []}]"#.to_string(),
        r#"{"tables": null, "Resources": null}"#.to_string(),
    ];
    let mut out = String::new();
    for text in &texts {
        for format in [Format::Mcp, Format::CloudFormation] {
            let said = match import(format, text) {
                Ok(imported) => summary(&imported.design),
                Err(e) => e.to_string(),
            };
            out += &format!("{format}: {said}\n");
        }
    }
    expect![[r#"
        mcp: tables missing
        cloudformation: Resources missing
        mcp: line 1, column 29: number out of range
        cloudformation: Resources missing
        mcp: line 1, column 151: recursion limit exceeded
        cloudformation: line 1, column 152: brackets nested more than 128 deep
        mcp: line 1, column 20: trailing characters
        cloudformation: the document: deserializing from YAML containing more than one document is not supported
        mcp: line 1, column 31: trailing comma
        cloudformation: Resources missing
        mcp: line 1, column 32: unexpected end of hex escape
        cloudformation: line 1, column 28: found invalid Unicode character escape code at line 1 column 28, while parsing a quoted scalar at line 1 column 25
        mcp: tables missing
        cloudformation: Resources missing
        mcp: tables missing
        cloudformation: Resources missing
    "#]].assert_eq(&out);
}

// issue 15: hostile files give a clear error, never a panic or a stack overflow: deep
// nesting in each syntax, and a 50 MB file, which YAML and HCL refuse before parsing.
#[test]
fn deep_nesting_and_huge_files_are_clear_errors() {
    let deep = 100_000;
    let cases = [
        ("JSON", format!("{}{}", "[".repeat(deep), "]".repeat(deep))),
        (
            "YAML",
            format!(
                "Description: it's\nResources: {}{}",
                "[".repeat(deep),
                "]".repeat(deep)
            ),
        ),
        (
            "YAML block",
            (0..200).fold(String::from("Resources:\n"), |mut s, depth| {
                s += &format!("{}k{depth}:\n", "  ".repeat(depth + 1));
                s
            }),
        ),
        (
            "HCL",
            format!(
                "resource \"aws_dynamodb_table\" \"t\" {{\n  a = {}{}\n}}\n",
                "[".repeat(deep),
                "]".repeat(deep)
            ),
        ),
        (
            "HCL blocks",
            format!("{}{}", "a {\n".repeat(deep), "}\n".repeat(deep)),
        ),
        (
            "50 MB of YAML",
            format!(
                "Resources:\n  T:\n    Type: AWS::DynamoDB::Table\n    Description: \"{}\"\n",
                "x".repeat(50 << 20)
            ),
        ),
        (
            "50 MB of HCL",
            format!(
                "resource \"aws_dynamodb_table\" \"t\" {{\n  description = \"{}\"\n}}\n",
                "x".repeat(50 << 20)
            ),
        ),
    ];
    let mut out = String::new();
    for (what, text) in &cases {
        let result = detect_and_import(text);
        let message = match result {
            Ok(_) => "read".to_string(),
            Err(e) => e.to_string(),
        };
        // The message, without the long quoted source lines some parsers echo.
        let first: String = without_module_reasons(&message)
            .lines()
            .map(|l| l.chars().take(160).collect::<String>())
            .collect::<Vec<_>>()
            .join("\n    ");
        out += &format!("{what}: {first}\n");
    }
    expect![[r#"
        JSON: line 1, column 128: recursion limit exceeded
        YAML: not a format keyplan reads. keyplan reads a OneTable schema (JSON or JavaScript/TypeScript), a keyplan design, a NoSQL Workbench model, an awslabs/mcp schema.js
              not a keyplan design, a NoSQL Workbench model or an awslabs/mcp schema.json: not JSON (line 1, column 1: expected value)
              not a CloudFormation template: not JSON or YAML (line 2, column 140: brackets nested more than 128 deep)
              not a Terraform configuration: not HCL (line 1, column 12: invalid structure; expected `{`, `=`, `"` or identifier)
        YAML block: not a format keyplan reads. keyplan reads a OneTable schema (JSON or JavaScript/TypeScript), a keyplan design, a NoSQL Workbench model, an awslabs/mcp schema.js
              not a keyplan design, a NoSQL Workbench model or an awslabs/mcp schema.json: not JSON (line 1, column 1: expected value)
              not a CloudFormation template: not JSON or YAML (line 129, column 257: recursion limit exceeded at line 129 column 257)
              not a Terraform configuration: not HCL (line 1, column 10: invalid structure; expected `{`, `=`, `"` or identifier)
        HCL: not a format keyplan reads. keyplan reads a OneTable schema (JSON or JavaScript/TypeScript), a keyplan design, a NoSQL Workbench model, an awslabs/mcp schema.js
              not a keyplan design, a NoSQL Workbench model or an awslabs/mcp schema.json: not JSON (line 1, column 1: expected value)
              not a CloudFormation template: not JSON or YAML (line 2, column 134: brackets nested more than 128 deep)
              not a Terraform configuration: not HCL (line 2, column 71: invalid nesting depth; expected at most 64 nested levels)
        HCL blocks: not a format keyplan reads. keyplan reads a OneTable schema (JSON or JavaScript/TypeScript), a keyplan design, a NoSQL Workbench model, an awslabs/mcp schema.js
              not a keyplan design, a NoSQL Workbench model or an awslabs/mcp schema.json: not JSON (line 1, column 1: expected value)
              not a CloudFormation template: not JSON or YAML (line 129, column 3: brackets nested more than 128 deep)
              not a Terraform configuration: not HCL (line 65, column 3: invalid nesting depth; expected at most 64 nested levels)
        50 MB of YAML: 52428867 bytes is more than the 33554432 bytes a file in another tool's format can be here
        50 MB of HCL: 52428857 bytes is more than the 33554432 bytes a file in another tool's format can be here
    "#]].assert_eq(&out);
}

#[test]
fn onetable_json_schema_reads_indexes_models_templates_types_enums_and_required() {
    let schema = r#"{
      "format": "onetable:1.1.0", "version": "0.0.1",
      "indexes": {
        "primary": {"hash": "pk", "sort": "sk"},
        "gs1": {"hash": "gs1pk", "sort": "gs1sk", "project": ["email"]},
        "ls1": {"sort": "created", "type": "local", "project": "keys"}
      },
      "models": {
        "Account": {
          "pk": {"type": "string", "value": "${_type}#${id}"},
          "sk": {"type": "string", "value": "${_type}#"},
          "id": {"type": "string", "generate": "ulid", "required": true},
          "name": {"type": "string", "required": true},
          "status": {"type": "string", "enum": ["active", "closed"]},
          "created": {"type": "number"},
          "expires": {"type": "number", "ttl": true}
        },
        "User": {
          "pk": {"type": "string", "value": "Account#${accountId}"},
          "sk": {"type": "string", "value": "User#${email}"},
          "gs1pk": {"type": "string", "value": "User#${email}"},
          "gs1sk": {"type": "string", "value": "User#"},
          "accountId": {"type": "string", "required": true},
          "email": {"type": "string", "required": true, "hidden": false}
        }
      }
    }"#;
    check(
        Format::OneTable,
        schema,
        expect![[r#"
            design "table"
            table table PK pk:S SK sk:S OnDemand
              gsi gs1 gs1pk:S / gs1sk:S Include { attributes: ["email"] }
            entity Account (table) pk=Account#{id} sk=Account# [created:N expires:N id:S! name:S! status:S]
            entity User (table) gs1pk=User#{email} gs1sk=User# pk=Account#{accountId} sk=User#{email} [accountId:S! email:S!]
            note: table table: field properties keyplan does not hold were left out: `generate` (Account.id); `hidden` (User.email)
            note: OneTable schemas declare no access patterns: add the reads and writes the application makes to see how each is served
            note: OneTable schemas hold no billing mode or capacity: each table is read as on-demand
            note: a JSON schema names no table: the table is called `table` (rename it in keyplan)
        "#]],
    );
    assert_eq!(detect(schema), Ok(Format::OneTable));
}

#[test]
fn onetable_errors_name_the_path() {
    // issue 36: a type OneTable does not have is assumed a string, and said; the rest reads.
    check(
        Format::OneTable,
        r#"{"indexes": {"gs1": {"hash": "a"}}, "models": {}}"#,
        expect![[r#"
            error: indexes.primary missing
        "#]],
    );
    check(
        Format::OneTable,
        r#"{"indexes": {"primary": {"hash": "pk"}}, "models": {"U": {"pk": {"type": "Strung"}}}}"#,
        expect![[r#"
            design "table"
            table table PK pk:S OnDemand
            entity U (table)  [pk:S]
            note: OneTable schemas declare no access patterns: add the reads and writes the application makes to see how each is served
            note: OneTable schemas hold no billing mode or capacity: each table is read as on-demand
            note: a JSON schema names no table: the table is called `table` (rename it in keyplan)
            assumed: models.U.pk.type: `Strung`: assumed a string
        "#]],
    );
}

#[cfg(feature = "js")]
const ONETABLE_TS: &str = r#"
import { Table } from 'dynamodb-onetable';
const Version = '0.0.1';
export const Schema = {
    format: 'onetable:1.1.0',
    version: Version,
    indexes: {
        primary: { hash: 'pk', sort: 'sk' },
        gs1: { hash: 'gs1pk', sort: 'gs1sk', project: 'all' },
    },
    models: {
        Customer: {
            pk: { type: String, value: 'customer#${id}' },
            sk: { type: String, value: 'customer#' },
            id: { type: String, generate: 'ulid', validate: /^[0-9A-Z]{26}$/i },
            email: { type: String, required: true },
            tier: { type: String, enum: ['free', 'pro'] as const, default: 'free' },
        },
        Order: {
            pk: { type: String, value: 'customer#${customerId}' },
            sk: { type: String, value: `order#${'${id}'}` },
            gs1pk: { type: String, value: 'order#${id}' },
            gs1sk: { type: String, value: 'order#' },
            id: { type: String, generate: 'ulid' },
            customerId: { type: String, required: true },
            total: { type: Number, default: () => 0 },
            placed: { type: Date },
        },
    } as const,
    params: { isoDates: true, timestamps: true },
} as const;
export const table = new Table({ name: process.env.TABLE ?? 'shop', schema: Schema, partial: true });
"#;

#[cfg(feature = "js")]
#[test]
fn onetable_typescript_module_reads_like_its_json_and_names_the_table() {
    check(
        Format::OneTable,
        ONETABLE_TS,
        expect![[r#"
            design "shop"
            table shop PK pk:S SK sk:S OnDemand
              gsi gs1 gs1pk:S / gs1sk:S All
            entity Customer (shop) pk=customer#{id} sk=customer# [email:S! id:S tier:S]
            entity Order (shop) gs1pk=order#{id} gs1sk=order# pk=customer#{customerId} sk=order#{id} [customerId:S! id:S placed:S total:N]
            note: table `shop`: the name is `process.env.TABLE`, which is not literal; its fallback `shop` is used
            note: table shop: field properties keyplan does not hold were left out: `default` (Customer.tier, Order.total); `generate` (Customer.id, Order.id); `validate` (Customer.id)
            note: OneTable schemas declare no access patterns: add the reads and writes the application makes to see how each is served
            note: OneTable schemas hold no billing mode or capacity: each table is read as on-demand
            note: not literal, so not read (keyplan never runs the module's code): Schema.models.Customer.id.validate (`/^[0-9A-Z]{26}$/i`), Schema.models.Order.total.default (`() => 0`)
        "#]],
    );
    assert_eq!(detect(ONETABLE_TS), Ok(Format::OneTable));
}

#[cfg(feature = "js")]
const ELECTRODB_TS: &str = r#"
import { Entity, Service } from 'electrodb';
const table = 'app';
export const Store = new Entity({
  model: { entity: 'store', version: '1', service: 'mall' },
  attributes: {
    storeId: { type: 'string', required: true },
    mallId: { type: 'string', required: true },
    category: { type: ['food', 'spa', 'toys'] as const },
    rent: { type: 'number', default: () => 0 },
    tags: { type: 'set', items: 'string' },
  },
  indexes: {
    store: {
      collection: 'directory',
      pk: { field: 'pk', composite: ['mallId'] },
      sk: { field: 'sk', composite: ['storeId'] },
    },
    byCategory: {
      index: 'gsi1',
      pk: { field: 'gsi1pk', composite: ['category'], template: 'CAT#${category}', casing: 'none' },
      sk: { field: 'gsi1sk', composite: ['storeId'] },
    },
  },
}, { table });
export const Mall = new Entity({
  model: { entity: 'mall', version: '2', service: 'mall' },
  attributes: { mallId: { type: 'string' }, name: { type: 'string', field: 'mall_name', label: 'n' } },
  indexes: {
    mall: {
      collection: 'directory',
      pk: { field: 'pk', composite: ['mallId'] },
      sk: { field: 'sk', composite: [] },
    },
    byName: {
      index: 'gsi1',
      pk: { field: 'gsi1pk', composite: ['name'] },
      sk: { field: 'gsi1sk', composite: [] },
    },
  },
}, { table });
export const MallService = new Service({ Store, Mall }, { table: process.env.TABLE || 'malls' });
"#;

#[cfg(feature = "js")]
#[test]
fn electrodb_entities_read_default_keys_templates_collections_and_services() {
    check(
        Format::ElectroDb,
        ELECTRODB_TS,
        expect![[r#"
            design "mall"
            table malls PK pk:S SK sk:S OnDemand
              gsi gsi1 gsi1pk:S / gsi1sk:S All
            entity store (malls) gsi1pk=CAT#{category} gsi1sk=$store_1#storeid_{storeId} pk=$mall#mallid_{mallId} sk=$directory#store_1#storeid_{storeId} [category:S mallId:S! rent:N storeId:S! tags:SS]
            entity mall (malls) gsi1pk=$mall#n_{mall_name} gsi1sk=$mall_2 pk=$mall#mallid_{mallId} sk=$directory#mall_2 [mallId:S mall_name:S]
            pattern store byCategory Read ["store"] inputs ["category"]
            pattern store store Read ["store"] inputs ["mallId"]
            pattern mall byName Read ["mall"] inputs ["mall_name"]
            pattern mall mall Read ["mall"] inputs ["mallId"]
            pattern collection directory Read ["store", "mall"] inputs ["mallId"]
            note: read 2 entities (store, mall), 1 service(s), 1 secondary index(es) and 1 collection(s); each index is a read pattern
            note: table `malls`: the name is `process.env.TABLE`, which is not literal; its fallback `malls` is used
            note: ElectroDB changes the case of these keys, values included, and keyplan keeps the values as given: store.indexes.byCategory.sk (lower), store.indexes.store.pk (lower), store.indexes.store.sk (lower), mall.indexes.byName.pk (lower), mall.indexes.mall.pk (lower)
            note: ElectroDB does not say what a secondary index projects: every one is read as projecting all attributes
            note: ElectroDB models hold no billing mode, capacity or TTL (the table's settings): each table is read as on-demand, without a TTL attribute
            note: attribute properties keyplan does not hold were left out: `default` (store.rent)
            note: not literal, so not read (keyplan never runs the module's code): store.attributes.rent.default (`() => 0`)
        "#]],
    );
    assert_eq!(detect(ELECTRODB_TS), Ok(Format::ElectroDb));
}

#[cfg(feature = "js")]
#[test]
fn javascript_errors_say_where() {
    check(
        Format::ElectroDb,
        "const a = new Entity({ model: { entity: 'x' }, attributes: {}, indexes: { p: { pk: { composite: [] } } } });",
        expect![[r#"
            error: new Entity at line 1, column 11: x.indexes.p.pk.field missing
        "#]],
    );
    check(
        Format::ElectroDb,
        "const a = {\n  b: [1, 2,\n};",
        expect![[r#"
        error: line 3, column 1: not JavaScript or TypeScript: Unexpected token
    "#]],
    );
    check(
        Format::OneTable,
        "export const x = { models: 3 };",
        expect![[r#"
        error: the module: no OneTable schema in it: expected a constant or `export default` holding an object with `indexes` and `models`
    "#]],
    );
}

/// Each pattern's verdict, in a comparable line: operation, table, index, key condition and
/// shards.
#[cfg(feature = "js")]
fn verdict_lines(design: &Design) -> Vec<String> {
    crate::analyze(design)
        .verdicts
        .iter()
        .map(|v| {
            format!(
                "{}: {:?} {:?} {:?} {:?} shards {:?}",
                v.pattern, v.operation, v.table, v.index, v.key_condition, v.shards
            )
        })
        .collect()
}

// issue 15: every built-in example, exported to OneTable and to ElectroDB and imported back,
// serves every one of its patterns the same way (the exports carry no patterns, so the
// example's own are put on the imported design). OneTable has no random default, so a write
// shard comes back as a plain attribute: the patterns reading through one are listed.
#[cfg(feature = "js")]
#[test]
fn examples_exported_to_onetable_and_electrodb_import_back_with_the_same_verdicts() {
    use crate::export::{Target as Export, export};
    let mut differences = Vec::new();
    let mut n_patterns = 0;
    for (slug, design) in crate::examples::all() {
        let before = verdict_lines(&design);
        n_patterns += before.len();
        for (format, to) in [
            (Format::OneTable, Export::OneTable),
            (Format::ElectroDb, Export::ElectroDb),
        ] {
            let text = export(&design, to).expect("the example exports");
            let imported = import(format, &text)
                .unwrap_or_else(|e| panic!("{slug} as {format} does not import back: {e}"));
            let mut back = imported.design;
            assert_eq!(
                back.tables.iter().map(|t| &t.name).collect::<Vec<_>>(),
                design.tables.iter().map(|t| &t.name).collect::<Vec<_>>(),
                "{slug} as {format}: the tables"
            );
            back.patterns = design.patterns.clone();
            let after = verdict_lines(&back);
            for (b, a) in before.iter().zip(&after) {
                if b != a {
                    differences.push(format!("{slug} {format}: {b}\n  became {a}"));
                }
            }
        }
    }
    assert!(n_patterns >= 20, "only {n_patterns} patterns compared");
    expect![[r#"
        order-management onetable: Get orders by status: Query Some("orders") Some("GSI1") Some(KeyCondition { expression: "GSI1PK = :pk AND GSI1SK >= :sk", values: [(":pk", "STATUS#{status}#SHARD{shard:10}"), (":sk", "{createdAt}$")] }) shards Some(10)
          became Get orders by status: Scan Some("orders") None None shards None"#]].assert_eq(&differences.join("\n"));
}

// issue 15: hostile modules are refused within their bounds, before oxc recurses: nesting
// past the limit, a file past the size limit; nesting just under the limit still reads.
#[cfg(feature = "js")]
#[test]
fn hostile_modules_are_refused_before_parsing_and_nesting_under_the_limit_reads() {
    use super::js::{MAX_BYTES, MAX_NESTING};
    let deep = |open: &str, close: &str, n: usize| {
        format!("export const x = {}1{};", open.repeat(n), close.repeat(n))
    };
    let mut lines = Vec::new();
    for (what, text) in [
        ("brackets", deep("[", "]", 100_000)),
        ("objects", deep("{a:", "}", 100_000)),
        ("parentheses", deep("(", ")", 100_000)),
        ("negations", deep("!", "", 100_000)),
        ("unary minus", deep("- ", "", 100_000)),
        ("ternaries", deep("a ? b : ", "", 100_000)),
        ("assignments", deep("a = ", "", 100_000)),
        ("arrows", deep("() => ", "", 100_000)),
        ("typeof", deep("typeof ", "", 100_000)),
        ("new", deep("new ", "X", 100_000)),
        (
            "type arguments",
            format!(
                "type T = {}string{};",
                "Array<".repeat(100_000),
                ">".repeat(100_000)
            ),
        ),
        (
            "size",
            format!("export const x = '{}';", "a".repeat(MAX_BYTES)),
        ),
    ] {
        let error = super::js::read(&text).expect_err(what);
        lines.push(format!("{what}: {error}"));
    }
    // Chains that oxc parses without recursion, but that nest in the tree.
    for (what, text) in [
        (
            "members",
            format!("export const x = a{};", ".b".repeat(100_000)),
        ),
        (
            "sums",
            format!("export const x = 1{};", " + 1".repeat(100_000)),
        ),
        (
            "calls",
            format!("export const x = f{};", "()".repeat(100_000)),
        ),
    ] {
        let error = super::js::read(&text).expect_err(what);
        lines.push(format!("{what}: {error}"));
    }
    expect![[r#"
        brackets: line 1, column 218: nested more than 200 levels deep; keyplan reads schemas, not deeply nested code
        objects: line 1, column 417: nested more than 200 levels deep; keyplan reads schemas, not deeply nested code
        parentheses: line 1, column 218: nested more than 200 levels deep; keyplan reads schemas, not deeply nested code
        negations: line 1, column 418: nested more than 200 levels deep; keyplan reads schemas, not deeply nested code
        unary minus: line 1, column 818: nested more than 200 levels deep; keyplan reads schemas, not deeply nested code
        ternaries: line 1, column 1620: nested more than 200 levels deep; keyplan reads schemas, not deeply nested code
        assignments: line 1, column 1620: nested more than 200 levels deep; keyplan reads schemas, not deeply nested code
        arrows: line 1, column 1218: nested more than 200 levels deep; keyplan reads schemas, not deeply nested code
        typeof: line 1, column 1424: nested more than 200 levels deep; keyplan reads schemas, not deeply nested code
        new: line 1, column 821: nested more than 200 levels deep; keyplan reads schemas, not deeply nested code
        type arguments: line 1, column 2415: nested more than 200 levels deep; keyplan reads schemas, not deeply nested code
        size: the module: 2097172 bytes: keyplan reads JavaScript and TypeScript modules of at most 2 MB
        members: line 1, column 18: an expression nested more than 1000 levels deep; keyplan reads schemas, not deeply nested code
        sums: line 1, column 1620: nested more than 200 levels deep; keyplan reads schemas, not deeply nested code
        calls: line 1, column 18: an expression nested more than 1000 levels deep; keyplan reads schemas, not deeply nested code"#]].assert_eq(&lines.join("\n"));
    // Just under the limit, each shape parses and evaluates without overflowing the stack.
    let n = MAX_NESTING - 10;
    for text in [
        deep("[", "]", n),
        // A colon counts half a level too.
        deep("{a:", "}", n / 2),
        deep("(", ")", n),
        deep("!", "", n),
        deep("a ? b : ", "", n / 2),
        deep("() => ", "", n / 2),
    ] {
        // Referred to, so evaluated (issue 41: only what is referred to is).
        let text = format!("{text}\nexport default x;");
        super::js::read(&text).unwrap_or_else(|e| panic!("{e}: {}", &text[..40]));
    }
}

// issue 15: without the `js` feature (the browser app's build) a module is refused with where
// it can be read, and a OneTable schema in JSON still reads.
#[cfg(not(feature = "js"))]
#[test]
fn without_the_js_feature_a_module_says_where_it_can_be_read() {
    check(
        Format::ElectroDb,
        "import { Entity } from 'electrodb';",
        expect![[r#"
            error: line 1, column 1: not JSON (expected value); a OneTable, ElectroDB, DynamoDB-Toolbox or Dynamoose module in JavaScript or TypeScript is read by the `keyplan` command line and by `keyplan serve` (POST /api/import), not by this build
        "#]],
    );
    expect!["line 1, column 1: not JSON (expected value); a OneTable, ElectroDB, DynamoDB-Toolbox or Dynamoose module in JavaScript or TypeScript is read by the `keyplan` command line and by `keyplan serve` (POST /api/import), not by this build"]
        .assert_eq(&detect("export const Schema = { indexes: {}, models: {} };").expect_err("a module").to_string());
    assert!(
        import(
            Format::OneTable,
            r#"{"indexes": {"primary": {"hash": "pk"}}, "models": {}}"#
        )
        .is_ok()
    );
}

// issue 15: fuzzing found a module whose `#__PURE__` comment trips a debug_assert inside
// oxc_parser; the import must answer (an error or a design), never panic.
#[cfg(feature = "js")]
#[test]
fn a_module_with_a_misplaced_pure_comment_is_read_without_a_panic() {
    let bytes =
        include_bytes!("../../../fuzz/regressions/onetable/oxc-pure-comment-debug-assert.bin");
    let text = String::from_utf8_lossy(bytes);
    let _ = super::onetable::import(&text);
    let _ = super::detect_and_import(&text);
}

// issue 15: a 50 MB NoSQL Workbench model took 20 s to read; another tool's file larger than
// MAX_IMPORT_BYTES is refused before it is parsed, by detection and by its reader, while a
// keyplan design file that large (sample items) is still told apart and read.
#[test]
fn another_tools_file_over_the_limit_is_refused_before_parsing_and_a_large_design_is_not() {
    let padding = "x".repeat(super::MAX_IMPORT_BYTES);
    let model = workbench(&format!(
        r#"{{"TableName": "t", "KeyAttributes": {{"PartitionKey": {{"AttributeName": "pk", "AttributeType": "S"}}}}, "TableData": [{{"pk": {{"S": "{padding}"}}}}]}}"#
    ));
    let expected = format!(
        "{} bytes is more than the {} bytes a file in another tool's format can be here",
        model.len(),
        super::MAX_IMPORT_BYTES
    );
    assert_eq!(
        detect(&model).map_err(|e| e.to_string()),
        Err(expected.clone())
    );
    assert_eq!(
        import(Format::NosqlWorkbench, &model).map_err(|e| e.to_string()),
        Err(expected)
    );
    let mut design = Design::new(&padding);
    design.description = "large".to_string();
    let text = crate::file::to_string(&design);
    assert_eq!(
        detect(&text).map_err(|e| e.to_string()),
        Ok(Format::Keyplan)
    );
    assert_eq!(
        detect_and_import(&text)
            .expect("a design file")
            .design
            .description,
        "large"
    );
}

// issue 16: what an mcp filter_expression says that keyplan's filter cannot hold is a note,
// and the read keeps no filter; what it can is kept, each operator and function.
#[test]
fn mcp_filter_expressions_that_do_not_fit_are_notes() {
    let pattern = |name: &str, filter: &str| {
        format!(
            r#"{{"pattern_id":9,"name":"{name}","description":"","operation":"Query",
             "filter_expression":{filter},
             "parameters":[{{"name":"user_id","type":"string"}},{{"name":"a","type":"string"}},{{"name":"b","type":"string"}},{{"name":"c","type":"string"}}],"return_type":"entity_list"}}"#
        )
    };
    let patterns = [
        pattern(
            "ored",
            r#"{"conditions":[{"field":"status","operator":"=","param":"a"},{"field":"total","operator":">","param":"b"}],"logical_operator":"OR"}"#,
        ),
        pattern(
            "sized",
            r#"{"conditions":[{"field":"status","function":"size","operator":">","param":"a"}]}"#,
        ),
        pattern(
            "unknown",
            r#"{"conditions":[{"field":"colour","operator":"=","param":"a"}]}"#,
        ),
        pattern(
            "kept",
            r#"{"conditions":[{"field":"status","operator":"in","params":["a","b","c"]},{"field":"created_at","function":"attribute_exists"},{"field":"total","operator":"between","param":"a","param2":"b"},{"field":"status","operator":"<>","param":"status"}]}"#,
        ),
    ];
    let order = MCP_ORDER.replacen(
        r#""access_patterns":["#,
        &format!(r#""access_patterns":[{},"#, patterns.join(",")),
        1,
    );
    check(
        Format::Mcp,
        &mcp_table(&order),
        expect![[r#"
        design "Shop"
        table Shop PK pk:S SK sort_key:S OnDemand
          gsi ByStatus status:S / created_at:S All
          gsi Inverted sort_key:S / pk:S KeysOnly
        entity Order (Shop) pk=USER#{user_id} sort_key=ORDER#{order_id} [user_id:S! order_id:S! status:S! created_at:S! total:N!]
        pattern ored Read ["Order"] inputs ["user_id"]
        pattern sized Read ["Order"] inputs ["user_id"]
        pattern unknown Read ["Order"] inputs ["user_id"]
        pattern kept Read ["Order"] inputs ["user_id"] filter status in 3 filter created_at attribute_exists filter total between filter status <>
        pattern order_now Read ["Order"] inputs ["user_id", "order_id"]
        pattern open_orders Read ["Order"] inputs ["status"]
        pattern big_orders Read ["Order"] inputs ["user_id"] filter total >=
        note: pattern ored: filter_expression `status = :a OR total > :b` is not kept: it joins its conditions with OR, and keyplan's filter is all of its conditions (AND); the read is judged by its key condition alone
        note: pattern ored: parameter(s) c are not attributes of Order; dropped
        note: pattern sized: filter_expression `size(status) > :a` is not kept: it uses size(status), which keyplan's filter conditions do not hold; the read is judged by its key condition alone
        note: pattern sized: parameter(s) b, c are not attributes of Order; dropped
        note: pattern unknown: filter_expression `colour = :a` is not kept: it filters on `colour`, which is not a field of Order; the read is judged by its key condition alone
        note: pattern unknown: parameter(s) b, c are not attributes of Order; dropped
        note: pattern kept: filter_expression `status IN (:a, :b, :c) AND attribute_exists(created_at) AND total BETWEEN :a AND :b AND status <> :status` is kept as its filter; its values are given as keyplan's inputs: `a` is `status_1`, `b` is `status_2`, `c` is `status_3`, `a` is `total`, `b` is `total_to`
        note: pattern big_orders: filter_expression `total >= :min_total` is kept as its filter; its values are given as keyplan's inputs: `min_total` is `total`
        note: entity_type values (ORDER) are not kept: keyplan tells entities apart by their key templates
        note: pattern_id and return_type are not kept; each pattern's operation and index_name are keyplan's to decide (compare with `keyplan check`)
        declared big_orders: Query None
        declared kept: Query None
        declared open_orders: Query Some("ByStatus")
        declared order_now: GetItem None
        declared ored: Query None
        declared sized: Query None
        declared unknown: Query None
    "#]],
    );
}
