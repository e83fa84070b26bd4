//! The order of a Query sorted in memory (issue 43): a read whose key does not sort by the
//! pattern's order reads every item its key condition matches, then sorts them by the order's
//! attribute (strings by their UTF-8 bytes, numbers as numbers, binary by its bytes, as
//! DynamoDB orders keys), items without a comparable value last, ties in the order the key
//! read them, and keeps the first page. The evaluator's run and the engine run's comparison
//! both order by [`sort_in_memory`], so they cannot disagree. Nothing here reads a store.

use std::cmp::Ordering;

use super::KeyValue;
use crate::item::{AttributeValue, Item};
use crate::model::KeyType;

/// Sorts `rows` (each holding an item, found by `item`) by `attribute`, descending when asked,
/// and keeps the first `page` of them when a page size is given.
pub fn sort_in_memory<T>(
    rows: &mut Vec<T>,
    item: impl Fn(&T) -> &Item,
    attribute: &str,
    descending: bool,
    page: Option<u32>,
) {
    let value = |row: &T| -> Option<KeyValue> {
        let v = item(row).get(attribute)?;
        let ty = match v {
            AttributeValue::S(_) => KeyType::S,
            AttributeValue::N(_) => KeyType::N,
            AttributeValue::B(_) => KeyType::B,
            _ => return None,
        };
        KeyValue::from_attribute(v, ty).ok()
    };
    let mut keyed: Vec<(Option<KeyValue>, T)> = rows.drain(..).map(|r| (value(&r), r)).collect();
    // A stable sort: equal values keep the key's order.
    keyed.sort_by(|(a, _), (b, _)| match (a, b) {
        (Some(a), Some(b)) if descending => b.cmp(a),
        (Some(a), Some(b)) => a.cmp(b),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    });
    rows.extend(keyed.into_iter().map(|(_, row)| row));
    if let Some(page) = page {
        rows.truncate(page as usize);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(id: &str, value: Option<AttributeValue>) -> Item {
        let mut item = Item::new();
        item.insert("id".into(), AttributeValue::S(id.into()));
        if let Some(v) = value {
            item.insert("at".into(), v);
        }
        item
    }

    fn ids(rows: &[Item]) -> Vec<String> {
        rows.iter()
            .map(|r| r["id"].as_key_text().unwrap_or_default().to_string())
            .collect()
    }

    #[test]
    fn numbers_sort_as_numbers_missing_values_last_and_ties_keep_the_key_order() {
        let n = |t: &str| Some(AttributeValue::N(t.into()));
        let mut rows = vec![
            row("a", n("10")),
            row("b", None),
            row("c", n("9")),
            row("d", n("10")),
            row("e", Some(AttributeValue::Bool(true))),
        ];
        sort_in_memory(&mut rows, |r| r, "at", false, None);
        assert_eq!(ids(&rows), ["c", "a", "d", "b", "e"]);
        sort_in_memory(&mut rows, |r| r, "at", true, Some(2));
        assert_eq!(ids(&rows), ["a", "d"]);
    }

    #[test]
    fn strings_sort_by_their_bytes() {
        let s = |t: &str| Some(AttributeValue::S(t.into()));
        let mut rows = vec![
            row("a", s("2026-12-05")),
            row("b", s("2026-01-30")),
            row("c", s("Z")),
        ];
        sort_in_memory(&mut rows, |r| r, "at", true, None);
        assert_eq!(ids(&rows), ["c", "a", "b"]);
    }
}

#[cfg(test)]
mod run_tests {
    use crate::coverage::testing::design;
    use crate::eval::{ItemStore, run_pattern};
    use crate::item::AttributeValue;

    // issue 43: a Query sorted in memory reads every matching item, sorts them by the order's
    // attribute and returns the first page; a run that paged by the key returned the first
    // orders by id instead.
    #[test]
    fn a_query_sorted_in_memory_returns_the_first_page_in_the_patterns_order() {
        let d = design(
            "
            table orders PK SK
            entity Customer customerId | PK=CUSTOMER#{customerId} SK=PROFILE
            entity Order orderId customerId createdAt | PK=CUSTOMER#{customerId} SK=ORDER#{orderId}
            read customer_orders Order by customerId order createdAt desc page 3
            ",
        );
        let sample = crate::sample::generate(
            &d,
            &crate::sample::SampleConfig::new(
                [("Customer".to_string(), 2), ("Order".to_string(), 12)].into(),
                None,
            ),
        );
        let store = ItemStore::build(&d, sample.load_items());
        let verdict = crate::coverage::verdicts(&d).remove(0);
        assert_eq!(verdict.sorted_in_memory.as_deref(), Some("createdAt"));
        let run = run_pattern(&d, &store, &verdict, None).expect("runs");
        let text = |v: &AttributeValue| v.as_key_text().unwrap_or_default().to_string();
        let got: Vec<String> = run
            .result
            .items
            .iter()
            .map(|i| text(&i["createdAt"]))
            .collect();
        // Every order of that customer, newest first: the first three.
        let customer = text(&run.result.items[0]["customerId"]);
        let mut all: Vec<String> = sample
            .load_items()
            .filter(|l| l.entity.as_deref() == Some("Order"))
            .filter(|l| l.item.get("customerId").map(text) == Some(customer.clone()))
            .map(|l| text(&l.item["createdAt"]))
            .collect();
        all.sort();
        all.reverse();
        assert!(all.len() > 3, "{all:?}");
        all.truncate(3);
        assert_eq!(got, all);
    }
}
