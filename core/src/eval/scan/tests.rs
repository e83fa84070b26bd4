use expect_test::expect;

use super::*;
use crate::coverage::testing::design;
use crate::eval::{ItemStore, run_pattern};
use crate::sample::{SampleConfig, generate};

const ORDERS: &str = "
    table orders PK SK
    entity Customer customerId name | PK=CUSTOMER#{customerId} SK=PROFILE
    entity Order orderId customerId status=NEW|DONE total:N | PK=CUSTOMER#{customerId} SK=ORDER#{orderId}
";

fn scan_of(pattern: &str) -> (Design, ItemStore, Verdict) {
    let design = design(&format!("{ORDERS}\n{pattern}"));
    let store = ItemStore::build(
        &design,
        generate(&design, &SampleConfig::default()).into_load_items(),
    );
    let verdict = crate::analysis::verdicts(&design).remove(0);
    (design, store, verdict)
}

#[test]
fn a_scan_reads_every_item_of_the_table_and_returns_those_its_filter_keeps() {
    let (design, store, verdict) = scan_of("read orders_by_status Order by status");
    assert_eq!(verdict.operation, Operation::Scan);
    let run = scan_pattern(&design, &store, &verdict, None).expect("a Scan runs");
    let table = store.table("orders").expect("the table");
    let wanted = &run.inputs["status"];
    let kept: Vec<_> = table
        .items()
        .iter()
        .filter(|s| s.item.get("status").and_then(|v| v.as_key_text()) == Some(wanted))
        .collect();
    // Every item read, Customers too; only the Orders of that status returned.
    assert_eq!(run.result.scanned, table.items().len());
    assert_eq!(run.result.items.len(), kept.len());
    assert!(!kept.is_empty() && kept.len() < table.items().len());
    assert!(
        run.result
            .entities
            .iter()
            .all(|e| e.as_deref() == Some("Order"))
    );
    assert_eq!(run.filter, Some(format!("status = {wanted:?}")));
    assert_eq!(run.result.bytes_read, table.bytes());
    assert!(run.conditions.is_empty());
}

#[test]
fn a_scan_with_a_limit_reads_one_page_of_that_many_items() {
    let (design, store, verdict) = scan_of("read orders_by_status Order by status page 7");
    let inputs = [("status".to_string(), "DONE".to_string())].into();
    let run = scan_pattern(&design, &store, &verdict, Some(inputs)).expect("a Scan runs");
    assert_eq!(run.result.scanned, 7);
    assert_eq!(run.result.pages.len(), 1);
    let first_seven = &store.table("orders").expect("the table").items()[..7];
    let done = first_seven
        .iter()
        .filter(|s| s.item.get("status") == Some(&crate::item::AttributeValue::S("DONE".into())))
        .count();
    assert_eq!(run.result.items.len(), done);
}

#[test]
fn a_key_read_is_not_run_as_a_scan_nor_a_scan_as_a_key_read() {
    let (design, store, verdict) = scan_of("read customer Customer by customerId");
    let error = scan_pattern(&design, &store, &verdict, None).expect_err("a GetItem");
    expect!["`customer` is served by GetItem, not by a Scan"].assert_eq(&error.to_string());
    let (design, store, verdict) = scan_of("read orders_by_status Order by status");
    let error = run_pattern(&design, &store, &verdict, None).expect_err("a Scan");
    expect!["`orders_by_status` is not served by GetItem or Query (Scan), so there is nothing to evaluate"]
        .assert_eq(&error.to_string());
}

#[test]
fn a_filter_value_of_the_wrong_type_is_refused_with_the_attribute() {
    let (design, store, verdict) = scan_of("read big_orders Order by total");
    let inputs = [("total".to_string(), "lots".to_string())].into();
    let error = scan_pattern(&design, &store, &verdict, Some(inputs)).expect_err("not a number");
    expect!["`total`: `lots` is not a valid N value"].assert_eq(&error.to_string());
}
