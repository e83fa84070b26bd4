//! The migrations of issue 18's item 4, shared by the tests of `--verify` and of the generated
//! migration programs: the order example, and five designs it migrates to.
#![allow(dead_code)]

use keyplan_core::model::{Design, KeyAttribute, KeyType, Lsi, Projection};

pub fn order_example() -> Design {
    keyplan_core::examples::get("order-management").expect("the order example")
}

/// The order example changed as each of issue 18's migrations says, each named.
pub fn migrations() -> Vec<(&'static str, Design)> {
    let base = order_example();
    let orders = |d: &mut Design| {
        d.tables
            .iter_mut()
            .find(|t| t.name == "orders")
            .expect("the orders table")
            .clone()
    };
    let put_table = |d: &mut Design, t: keyplan_core::model::Table| {
        let slot = d
            .tables
            .iter_mut()
            .find(|x| x.name == t.name)
            .expect("the table");
        *slot = t;
    };
    let entity = |d: &mut Design, name: &str| -> usize {
        d.entities
            .iter()
            .position(|e| e.name == name)
            .expect("the entity")
    };

    // A GSI for "Get order by ID", the Scan the example reports.
    let mut gsi = base.clone();
    let mut t = orders(&mut gsi);
    t.gsis.push(keyplan_core::model::Gsi {
        name: "GSI4".into(),
        partition_key: vec![KeyAttribute::new("GSI4PK", KeyType::S)],
        sort_key: Vec::new(),
        projection: Projection::All,
    });
    put_table(&mut gsi, t);
    let i = entity(&mut gsi, "Order");
    gsi.entities[i]
        .keys
        .insert("GSI4PK".into(), "ORDER#{orderId}".into());

    // An entity re-keyed from `{id}` to `TYPE#{id}`.
    let mut rekey = base.clone();
    let i = entity(&mut rekey, "OrderItem");
    rekey.entities[i]
        .keys
        .insert("SK".into(), "ORDERITEM#{itemId}".into());

    // A GSI removed, with the pattern that read it.
    let mut removed = base.clone();
    let mut t = orders(&mut removed);
    t.gsis.retain(|g| g.name != "GSI2");
    put_table(&mut removed, t);
    let i = entity(&mut removed, "Order");
    removed.entities[i]
        .keys
        .retain(|k, _| !k.starts_with("GSI2"));
    removed
        .patterns
        .retain(|p| p.name != "Get orders by fulfillment center");

    // An LSI added: the table is rebuilt.
    let mut lsi = base.clone();
    let mut t = orders(&mut lsi);
    t.lsis.push(Lsi {
        name: "LSI1".into(),
        sort_key: KeyAttribute::new("createdAt", KeyType::S),
        projection: Projection::All,
    });
    put_table(&mut lsi, t);

    // GSI1's composite sort key `{createdAt}#{orderId}` as a multi-attribute key.
    let mut multi = base.clone();
    let mut t = orders(&mut multi);
    let g = t.gsis.iter_mut().find(|g| g.name == "GSI1").expect("GSI1");
    g.sort_key = vec![
        KeyAttribute::new("createdAt", KeyType::S),
        KeyAttribute::new("orderId", KeyType::S),
    ];
    put_table(&mut multi, t);
    let i = entity(&mut multi, "Order");
    multi.entities[i].keys.remove("GSI1SK");

    vec![
        ("a GSI for Get order by ID", gsi),
        ("OrderItem re-keyed to ORDERITEM#{itemId}", rekey),
        ("GSI2 removed", removed),
        ("an LSI added", lsi),
        ("a multi-attribute GSI1 sort key", multi),
    ]
}
