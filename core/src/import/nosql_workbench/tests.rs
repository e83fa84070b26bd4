//! What a NoSQL Workbench model states that keyplan cannot read (a type, a mode, an item's value
//! not in DynamoDB JSON) is assumed, with its line, and the rest of the model kept (issue 36: a
//! model was refused whole over one value).

use expect_test::expect;

use super::import;
use crate::model::AttrType;

#[test]
fn values_keyplan_cannot_read_are_assumed_with_their_lines_and_the_model_kept() {
    let model = r#"{
  "ModelName": "M",
  "ModelMetadata": {"Version": "4.0"},
  "DataModel": [{
    "TableName": "Orders",
    "KeyAttributes": {
      "PartitionKey": {"AttributeName": "PK", "AttributeType": "BOOL"},
      "SortKey": {"AttributeName": "SK", "AttributeType": "S"}
    },
    "NonKeyAttributes": [{"AttributeName": "total", "AttributeType": "DECIMAL"}],
    "GlobalSecondaryIndexes": [{
      "IndexName": "ByTotal",
      "KeySchema": [
        {"AttributeName": "total", "KeyType": "HASH"},
        {"AttributeName": "SK", "KeyType": "SORT"}
      ],
      "Projection": {"ProjectionType": "SOME"}
    }],
    "BillingMode": "FREE",
    "TableData": [
      {"PK": {"S": "ORDER#1"}, "SK": {"S": "A"}, "total": {"N": "12"}},
      {"PK": {"S": "ORDER#2"}, "SK": {"S": "A"},
       "total": 12.5}
    ]
  }]
}"#;
    let imported = import(model).expect("the model imports");
    let table = &imported.design.tables[0];
    let kept = format!(
        "{} {}:{} / {} gsi {} {:?} {:?} {:?}\n",
        table.name,
        table.partition_key.name,
        AttrType::from(table.partition_key.ty).as_str(),
        table.sort_key.as_ref().map_or("", |k| k.name.as_str()),
        table.gsis[0].name,
        table.gsis[0].partition_key,
        table.gsis[0].projection,
        table.billing,
    );
    let items = &imported.design.samples["Orders"];
    let kept = format!("{kept}second item's total: {:?}\n", items[1]["total"]);
    let assumed: Vec<String> = imported.assumed.iter().map(|a| format!("{a}\n")).collect();
    expect![[r#"
        Orders PK:S / SK gsi ByTotal [KeyAttribute { name: "total", ty: S }] All OnDemand
        second item's total: N("12.5")
        line 3: ModelMetadata.Version: format version 4.0 (keyplan knows 1.0, 2.0 and 3.0): assumed the members of 3.0, read where they are
        line 7: DataModel[0].KeyAttributes.PartitionKey.AttributeType: key type `BOOL` (a key attribute is S, N or B): assumed a string (S)
        line 10: DataModel[0].NonKeyAttributes[0].AttributeType: attribute type `DECIMAL` (S, N, B, BOOL, NULL, M, L, SS, NS or BS): assumed a string (S)
        line 15: DataModel[0].GlobalSecondaryIndexes[0].KeySchema[1].KeyType: KeyType `SORT` (HASH or RANGE): assumed no key: the element is left out
        line 17: DataModel[0].GlobalSecondaryIndexes[0].Projection.ProjectionType: ProjectionType `SOME` (ALL, KEYS_ONLY or INCLUDE): assumed ALL
        line 19: DataModel[0].BillingMode: BillingMode `FREE` (PROVISIONED or PAY_PER_REQUEST): assumed on-demand (PAY_PER_REQUEST)
        line 23: DataModel[0].TableData[1].total: not a value in DynamoDB JSON, such as {"S": "text"}: assumed the plain JSON value (text S, number N, true or false BOOL, null NULL, object M, list L)
    "#]]
    .assert_eq(&(kept + &assumed.concat()));
}
