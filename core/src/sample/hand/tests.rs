use expect_test::expect;

use super::*;
use crate::coverage::testing::design;
use crate::edit::{Edit, apply};
use crate::sample::{SampleConfig, generate};

const ORDERS: &str = "
    table orders PK SK
    gsi GSI1 GSI1PK GSI1SK
    entity Customer customerId name | PK=CUSTOMER#{customerId} SK=PROFILE
    entity Order orderId customerId status=NEW|DONE | PK=CUSTOMER#{customerId} SK=ORDER#{orderId} GSI1PK=STATUS#{status} GSI1SK={orderId}
";

fn s(text: &str) -> AttributeValue {
    AttributeValue::S(text.to_string())
}

fn key_of(item: &Item) -> Item {
    ["PK", "SK"]
        .into_iter()
        .filter_map(|k| Some((k.to_string(), item.get(k)?.clone())))
        .collect()
}

/// The design and its first generated Order.
fn orders() -> (Design, Item) {
    let design = design(ORDERS);
    let order = generate(&design, &SampleConfig::default())
        .items
        .into_iter()
        .find(|i| i.entity.as_deref() == Some("Order"))
        .expect("an Order")
        .item;
    (design, order)
}

fn hand(replaces: Option<Item>, item: Item) -> HandItem {
    HandItem {
        table: "orders".into(),
        entity: "Order".into(),
        replaces,
        item,
    }
}

#[test]
fn an_edited_item_stands_in_for_the_generated_one_it_replaces() {
    let (mut design, order) = orders();
    let before = generate(&design, &SampleConfig::default());
    let mut edited = order.clone();
    edited.insert("status".into(), s("DONE"));
    edited.insert("GSI1PK".into(), s("STATUS#DONE"));
    edited.insert("note".into(), s("typed by hand"));
    design.hand_items = vec![hand(Some(key_of(&order)), edited.clone())];
    let after = generate(&design, &SampleConfig::default());
    assert_eq!(after.items.len(), before.items.len());
    assert!(!after.items.iter().any(|i| i.item == order));
    let put = after.items.last().expect("the hand item, last");
    assert_eq!((put.entity.as_deref(), &put.item), (Some("Order"), &edited));
    assert!(misfits(&design).is_empty(), "{:?}", misfits(&design));
}

#[test]
fn an_added_item_is_put_and_one_with_another_items_key_replaces_that_item() {
    let (mut design, order) = orders();
    let before = generate(&design, &SampleConfig::default()).items.len();
    let mut added: Item = [
        ("PK", "CUSTOMER#c-new"),
        ("SK", "ORDER#o-new"),
        ("customerId", "c-new"),
        ("orderId", "o-new"),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), s(v)))
    .collect();
    design.hand_items = vec![hand(None, added.clone())];
    assert_eq!(
        generate(&design, &SampleConfig::default()).items.len(),
        before + 1
    );
    // Its key is the generated order's: a PutItem replaces that order.
    added.insert("PK".into(), order["PK"].clone());
    added.insert("SK".into(), order["SK"].clone());
    design.hand_items = vec![hand(None, added.clone())];
    let after = generate(&design, &SampleConfig::default());
    assert_eq!(after.items.len(), before);
    assert!(!after.items.iter().any(|i| i.item == order));
    // The sample's plan counts the hand items, before anything is made.
    assert_eq!(
        crate::sample::plan(&design, &SampleConfig::default()).total,
        before as u64 + 1
    );
}

#[test]
fn an_item_that_no_longer_fits_its_templates_says_where() {
    let (mut design, order) = orders();
    let mut moved = order.clone();
    moved.insert("orderId".into(), s("o-typed"));
    let mut keyless = order.clone();
    keyless.remove("PK");
    keyless.remove("customerId");
    let mut no_status = order.clone();
    no_status.remove("status");
    no_status.remove("GSI1PK");
    no_status.remove("GSI1SK");
    design.hand_items = vec![
        hand(Some(key_of(&order)), moved),
        hand(None, keyless),
        hand(None, no_status),
    ];
    let said: Vec<String> = misfits(&design)
        .into_iter()
        .map(|m| format!("{}: {}", m.at, m.message))
        .collect();
    let order_id = order["orderId"].as_key_text().expect("text");
    let said = said.join("\n").replace(order_id, "ID");
    // The third lacks GSI1's keys and the status they are made of: it is not in GSI1 (sparse),
    // which is no misfit.
    expect![[r#"
        0: SK is `ORDER#ID`, but Order's template `ORDER#{orderId}` makes `ORDER#o-typed` of its attributes
        0: GSI1SK is `ID`, but Order's template `{orderId}` makes `o-typed` of its attributes
        1: it has no PK, and Order's template `CUSTOMER#{customerId}` needs attributes the item lacks: the table refuses it"#]]
    .assert_eq(&said);
}

#[test]
fn setting_the_hand_items_is_one_edit_undone_by_its_inverse() {
    let (mut design, order) = orders();
    let original = design.clone();
    let items = vec![hand(Some(key_of(&order)), order.clone())];
    let undo = apply(
        &mut design,
        Edit::SetHandItems {
            items: items.clone(),
        },
    )
    .expect("applies");
    assert_eq!(design.hand_items, items);
    // Kept with the design in its file.
    let text = crate::file::to_string(&design);
    assert!(text.contains("\"hand_items\""), "{text}");
    assert_eq!(
        crate::file::parse(&text).expect("reads back").hand_items,
        items
    );
    apply(&mut design, undo).expect("undoes");
    assert_eq!(design, original);
    assert!(!crate::file::to_string(&design).contains("hand_items"));
}
