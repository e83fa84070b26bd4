//! Entity inference on tables without facets (issue 36): what splits entities, what a key's
//! template keeps when its values differ, how variables are spelled, and what is assumed of a
//! value no type fits. Each case is a model's one table, and its entities, notes and
//! assumptions as a table of lines.

use expect_test::{Expect, expect};

use crate::import::nosql_workbench::import;

/// A model of one table keyed `PK`/`SK`, declaring `declared` and holding `items`, written one
/// item a line so an assumption's line is the item's.
fn model(declared: &str, items: &[&str]) -> String {
    format!(
        "{{\"ModelName\":\"M\",\"DataModel\":[{{\"TableName\":\"Orders\",\n\"KeyAttributes\":{{\"PartitionKey\":{{\"AttributeName\":\"PK\",\"AttributeType\":\"S\"}},\"SortKey\":{{\"AttributeName\":\"SK\",\"AttributeType\":\"S\"}}}},\n\"NonKeyAttributes\":[{declared}],\n\"TableData\":[\n{}\n]}}]}}",
        items.join(",\n")
    )
}

fn check(text: &str, expect: Expect) {
    let imported = import(text).expect("the model imports");
    let mut out = String::new();
    for e in &imported.design.entities {
        let keys: Vec<String> = e.keys.iter().map(|(k, t)| format!("{k}={t}")).collect();
        let attributes: Vec<String> = e
            .attributes
            .iter()
            .map(|a| format!("{}:{}", a.name, a.ty.as_str()))
            .collect();
        out += &format!(
            "entity {} {} [{}]\n",
            e.name,
            keys.join(" "),
            attributes.join(" ")
        );
    }
    // The first note says that Workbench has no TTL, the last how GSI templates are inferred.
    for note in imported
        .notes
        .iter()
        .filter(|n| n.starts_with("table ") || n.starts_with("entity "))
    {
        out += &format!("note: {note}\n");
    }
    for assumption in &imported.assumed {
        out += &format!("assumed: {assumption}\n");
    }
    expect.assert_eq(&out);
}

#[test]
fn a_type_attribute_whose_values_are_states_of_one_key_shape_splits_no_entities() {
    // issue 36: an order's events carry `type` SHIPPED, CREATED...: one entity, not five.
    let events: Vec<String> = ["CREATED", "PAID", "PACKED", "SHIPPED", "DELIVERED"]
        .iter()
        .enumerate()
        .map(|(i, state)| {
            format!(
                "{{\"PK\":{{\"S\":\"ORDER#{}\"}},\"SK\":{{\"S\":\"EVENT#2024-05-0{i}\"}},\"type\":{{\"S\":\"{state}\"}}}}",
                i % 2
            )
        })
        .collect();
    let events: Vec<&str> = events.iter().map(String::as_str).collect();
    check(
        &model("", &events),
        expect![[r#"
            entity Orders PK=ORDER#{orderId} SK=EVENT#{date} [orderId:S date:S type:S]
            note: table Orders: the `type` attribute's values (CREATED, PAID, PACKED, SHIPPED, ...) are not entity types (their items' keys have one shape and no value is a key's tag), so they split no entities
        "#]],
    );
    // Values that name the keys' tags are entity types, whatever their keys' shapes.
    check(
        &model(
            "",
            &[
                r#"{"PK":{"S":"ORDER#1"},"SK":{"S":"A"},"type":{"S":"order"}}"#,
                r#"{"PK":{"S":"USER#1"},"SK":{"S":"A"},"type":{"S":"user"}}"#,
            ],
        ),
        expect![[r#"
            entity order PK=ORDER#{orderId} SK=A [orderId:S type:S]
            entity user PK=USER#{userId} SK=A [userId:S type:S]
            note: table Orders: entities are the values of the `type` attribute
        "#]],
    );
}

#[test]
fn sort_keys_of_different_depths_keep_their_literal_prefix() {
    // issue 36: `INVENTORY#WH1` and `INVENTORY#WH1#BIN7` under one entity type.
    check(
        &model(
            "",
            &[
                r#"{"PK":{"S":"PRODUCT#1"},"SK":{"S":"INVENTORY#WH1"},"entityType":{"S":"inventory"}}"#,
                r#"{"PK":{"S":"PRODUCT#2"},"SK":{"S":"INVENTORY#WH1#BIN7"},"entityType":{"S":"inventory"}}"#,
                r#"{"PK":{"S":"PRODUCT#2"},"SK":{"S":"PRODUCT#2"},"entityType":{"S":"product"}}"#,
            ],
        ),
        expect![[r#"
            entity inventory PK=PRODUCT#{productId} SK=INVENTORY#{inventoryId} [productId:S inventoryId:S entityType:S]
            entity product PK=PRODUCT#{productId} SK=PRODUCT#{productId} [productId:S entityType:S]
            note: entity inventory: the items' `SK` values have different shapes; the template `INVENTORY#{inventoryId}` keeps what they share
            note: table Orders: entities are the values of the `entityType` attribute
        "#]],
    );
}

#[test]
fn a_variable_named_after_a_tag_is_spelled_as_the_model_spells_the_attribute() {
    // issue 36: `company_id` is not renamed `companyId`.
    check(
        &model(
            r#"{"AttributeName":"company_id","AttributeType":"S"}"#,
            &[
                r#"{"PK":{"S":"COMPANY#acme"},"SK":{"S":"PROFILE"}}"#,
                r#"{"PK":{"S":"COMPANY#initech"},"SK":{"S":"PROFILE"}}"#,
            ],
        ),
        expect![[r#"
            entity Orders PK=COMPANY#{company_id} SK=PROFILE [company_id:S]
        "#]],
    );
}

#[test]
fn an_attribute_of_two_types_is_assumed_a_string_at_the_item_that_differs() {
    // issue 36: never refused, never a silent guess: the line of the second type's value.
    check(
        &model(
            "",
            &[
                r#"{"PK":{"S":"ORDER#1"},"SK":{"S":"A"},"total":{"N":"12"}}"#,
                r#"{"PK":{"S":"ORDER#2"},"SK":{"S":"A"},"total":{"NULL":true}}"#,
                r#"{"PK":{"S":"ORDER#3"},"SK":{"S":"A"},"total":{"S":"twelve"}}"#,
            ],
        ),
        expect![[r#"
            entity Orders PK=ORDER#{orderId} SK=A [orderId:S total:S]
            assumed: line 7: table Orders: attribute `total` of entity Orders holds N in one sample item and S in another: assumed a string (S)
        "#]],
    );
}
