use expect_test::{Expect, expect};

use super::*;
use crate::sample::SampleConfig;

/// Every write pattern of the built-in example `slug`, simulated in order on its default
/// sample: each request (its kind, table, key and what it sets) and what the key holds after.
fn check(slug: &str, expect: Expect) {
    let design = crate::examples::all()
        .into_iter()
        .find(|(s, _)| *s == slug)
        .map(|(_, d)| d)
        .expect("a built-in example");
    check_design(&design, expect);
}

/// Every write pattern of `design`, simulated in order on its default sample, as [`check`]
/// shows them; an update's set values are shown too.
fn check_design(design: &Design, expect: Expect) {
    let design = design.clone();
    let sample = crate::sample::generate(&design, &SampleConfig::new(BTreeMap::new(), None));
    let store = ItemStore::build(&design, sample.load_items());
    let text = |item: &Item| -> String {
        item.iter()
            .map(|(k, v)| format!("{k}={}", v.as_key_text().unwrap_or("…")))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut out = Vec::new();
    let mut simulation = Simulation::new(&design, &store);
    for pattern in design.patterns.iter().filter(|p| !p.is_read()) {
        match simulation.write(pattern) {
            Err(why) => out.push(format!("{}: not simulated: {why}", pattern.name)),
            Ok(s) => {
                out.push(format!(
                    "{}:{}",
                    pattern.name,
                    if s.repeat_fails {
                        " (again: fails)"
                    } else {
                        ""
                    }
                ));
                for request in &s.requests {
                    out.push(match request {
                        WriteRequest::Put { table, item, .. } => {
                            format!("  put {table}: {} attributes", item.len())
                        }
                        WriteRequest::Update {
                            table, key, set, ..
                        } => {
                            let set: Vec<String> = set
                                .iter()
                                .map(|(k, v)| format!("{k}={}", v.as_key_text().unwrap_or("…")))
                                .collect();
                            format!("  update {table} {}: set {}", text(key), set.join(", "))
                        }
                        WriteRequest::Delete { table, key, .. } => {
                            format!("  delete {table} {}", text(key))
                        }
                    });
                }
                for (table, key, item) in &s.after {
                    out.push(format!(
                        "  after {table} {}: {}",
                        text(key),
                        if item.is_some() { "present" } else { "gone" }
                    ));
                }
            }
        }
    }
    expect.assert_eq(&out.join("\n"));
}

#[test]
fn the_order_example_writes_an_order_with_its_lines_and_updates_its_status_keys() {
    check(
        "order-management",
        expect![[r#"
            Create order: (again: fails)
              put orders: 13 attributes
              put orders: 7 attributes
              put orders: 7 attributes
              put orders: 7 attributes
              update orders PK=ANALYTICS SK=DATE#2025-06-09#STATUS#DELIVERED: set orderCount=425
              after orders PK=CUSTOMER#customer_XHN404Z5-run0-0 SK=ORDER#order_R3ZTXXFS-run0-0: present
              after orders PK=ORDER#order_R3ZTXXFS-run0-0 SK=ITEM#item_ZCBVGGCK-run1-0: present
              after orders PK=ORDER#order_R3ZTXXFS-run0-0 SK=ITEM#item_ZCBVGGCK-run1-1: present
              after orders PK=ORDER#order_R3ZTXXFS-run0-0 SK=ITEM#item_ZCBVGGCK-run1-2: present
              after orders PK=ANALYTICS SK=DATE#2025-06-09#STATUS#DELIVERED: present
            Update order status:
              update orders PK=CUSTOMER#customer_XHN404Z5-run0-0 SK=ORDER#order_R3ZTXXFS-run0-0: set status=DELIVERED, GSI1PK=STATUS#DELIVERED#SHARD3
              after orders PK=CUSTOMER#customer_XHN404Z5-run0-0 SK=ORDER#order_R3ZTXXFS-run0-0: present
            Record order event:
              put order-events: 6 attributes
              after order-events PK=ORDER#order_XF0EVVQ7-run0-0 SK=EVENT#2025-03-10T11:44:01Z-run0-0#event_Q0DAX0DH-run0-0: present"#]],
    );
}

// Issue 41 item 7: each write of a shipment starts from what the earlier ones left, as the
// engine holds it, not from the sample as loaded.
#[test]
fn writes_of_one_entity_each_start_from_what_the_earlier_ones_left() {
    let design = crate::file::parse(
        r#"{
          "version": 1, "name": "delivery",
          "tables": [{ "name": "deliveries", "partition_key": { "name": "PK", "type": "S" } }],
          "entities": [{
            "name": "Shipment", "table": "deliveries",
            "attributes": [
              { "name": "shipmentId", "type": "S", "required": true },
              { "name": "status", "type": "S", "required": true,
                "values": ["CREATED", "PICKED_UP", "DELIVERED"] },
              { "name": "attempts", "type": "N", "required": true }
            ],
            "keys": { "PK": "SHIPMENT#{shipmentId}" }
          }],
          "patterns": [
            { "name": "Update status", "action": "update", "entities": ["Shipment"],
              "changes": ["status"] },
            { "name": "Accept delivery", "action": "update", "entities": ["Shipment"],
              "changes": ["status", "attempts"] },
            { "name": "Create shipment", "action": "put", "entities": ["Shipment"],
              "condition": "attribute_not_exists(PK)" },
            { "name": "Create another", "action": "put", "entities": ["Shipment"],
              "condition": "attribute_not_exists(PK)" },
            { "name": "Cancel shipment", "action": "delete", "entities": ["Shipment"] },
            { "name": "Update again", "action": "update", "entities": ["Shipment"],
              "changes": ["status"] }
          ]
        }"#,
    )
    .expect("the design parses");
    check_design(
        &design,
        expect![[r#"
        Update status:
          update deliveries PK=SHIPMENT#shipment_Z0PB3YJP: set status=DELIVERED
          after deliveries PK=SHIPMENT#shipment_Z0PB3YJP: present
        Accept delivery:
          update deliveries PK=SHIPMENT#shipment_Z0PB3YJP: set status=CREATED, attempts=8
          after deliveries PK=SHIPMENT#shipment_Z0PB3YJP: present
        Create shipment: (again: fails)
          put deliveries: 4 attributes
          after deliveries PK=SHIPMENT#shipment_Z0PB3YJP-run0-0: present
        Create another: (again: fails)
          put deliveries: 4 attributes
          after deliveries PK=SHIPMENT#shipment_Z0PB3YJP-run0-0-run0-0: present
        Cancel shipment:
          delete deliveries PK=SHIPMENT#shipment_Z0PB3YJP-run0-0-run0-0
          after deliveries PK=SHIPMENT#shipment_Z0PB3YJP-run0-0-run0-0: gone
        Update again:
          update deliveries PK=SHIPMENT#shipment_Z0PB3YJP-run0-0: set status=PICKED_UP
          after deliveries PK=SHIPMENT#shipment_Z0PB3YJP-run0-0: present"#]],
    );
}
