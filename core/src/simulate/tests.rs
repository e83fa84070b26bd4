use expect_test::{Expect, expect};

use super::*;
use crate::sample::SampleConfig;

/// Every write pattern of the built-in example `slug`, simulated on its default sample: each
/// request (its kind, table, key and what it sets) and what the key holds after.
fn check(slug: &str, expect: Expect) {
    let design = crate::examples::all()
        .into_iter()
        .find(|(s, _)| *s == slug)
        .map(|(_, d)| d)
        .expect("a built-in example");
    let sample = crate::sample::generate(&design, &SampleConfig::new(BTreeMap::new(), None));
    let store = ItemStore::build(&design, sample.load_items());
    let text = |item: &Item| -> String {
        item.iter()
            .map(|(k, v)| format!("{k}={}", v.as_key_text().unwrap_or("…")))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut out = Vec::new();
    for pattern in design.patterns.iter().filter(|p| !p.is_read()) {
        match writes(&design, &store, pattern) {
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
                            let set: Vec<&str> = set.iter().map(|(k, _)| k.as_str()).collect();
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
          update orders PK=ANALYTICS SK=DATE#2025-06-09#STATUS#DELIVERED: set orderCount
          after orders PK=CUSTOMER#customer_XHN404Z5-run0-0 SK=ORDER#order_R3ZTXXFS-run0-0: present
          after orders PK=ORDER#order_R3ZTXXFS-run0-0 SK=ITEM#item_ZCBVGGCK-run1-0: present
          after orders PK=ORDER#order_R3ZTXXFS-run0-0 SK=ITEM#item_ZCBVGGCK-run1-1: present
          after orders PK=ORDER#order_R3ZTXXFS-run0-0 SK=ITEM#item_ZCBVGGCK-run1-2: present
          after orders PK=ANALYTICS SK=DATE#2025-06-09#STATUS#DELIVERED: present
        Update order status:
          update orders PK=CUSTOMER#customer_XHN404Z5 SK=ORDER#order_R3ZTXXFS: set status, GSI1PK
          after orders PK=CUSTOMER#customer_XHN404Z5 SK=ORDER#order_R3ZTXXFS: present
        Record order event:
          put order-events: 6 attributes
          after order-events PK=ORDER#order_XF0EVVQ7-run0-0 SK=EVENT#2025-03-10T11:44:01Z-run0-0#event_Q0DAX0DH-run0-0: present"#]],
    );
}
