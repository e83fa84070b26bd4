//! Synthesis end to end on small designs: the seed article's seven patterns, the examples with
//! their keys removed, pinned keys, both styles, input order, consistent reads and hot keys.

use super::*;
use crate::model::Design;

fn design(json: &str) -> Design {
    serde_json::from_str(json).expect("a test design parses")
}

fn run(design: &Design, options: &Options) -> Synthesis {
    propose(design, options, &mut |_| Control::Continue).expect("a proposal")
}

/// The seed article's order system (/work/shared/reference/seeds/000): three entities with no
/// keys and its seven read patterns, with a transactional order placement and a status update.
const SEED: &str = r#"{
  "version": 1, "name": "seed",
  "tables": [{ "name": "orders", "partition_key": { "name": "PK", "type": "S" }, "sort_key": { "name": "SK", "type": "S" } }],
  "entities": [
    { "name": "Customer", "table": "orders", "attributes": [
      { "name": "customerId", "type": "S", "required": true },
      { "name": "name", "type": "S", "required": true },
      { "name": "email", "type": "S", "required": true } ] },
    { "name": "Order", "table": "orders", "attributes": [
      { "name": "orderId", "type": "S", "required": true },
      { "name": "customerId", "type": "S", "required": true },
      { "name": "status", "type": "S", "required": true, "values": ["PENDING", "PROCESSING", "SHIPPED"] },
      { "name": "createdAt", "type": "S", "required": true },
      { "name": "fcId", "type": "S", "required": true },
      { "name": "priority", "type": "N", "required": true },
      { "name": "date", "type": "S", "required": true },
      { "name": "total", "type": "N", "required": true } ] },
    { "name": "OrderItem", "table": "orders", "attributes": [
      { "name": "orderId", "type": "S", "required": true },
      { "name": "itemId", "type": "S", "required": true },
      { "name": "productId", "type": "S", "required": true },
      { "name": "quantity", "type": "N", "required": true } ] }
  ],
  "patterns": [
    { "name": "Get order by ID", "entities": ["Order"], "inputs": ["orderId"], "rate": 300 },
    { "name": "Get customer orders by date", "entities": ["Order"], "inputs": ["customerId"], "order_by": "createdAt", "order": "desc", "page_size": 20, "rate": 150 },
    { "name": "Get orders in a status", "entities": ["Order"], "inputs": ["status"], "sort": { "attribute": "createdAt", "op": ">" }, "page_size": 50, "rate": 20 },
    { "name": "Get order items", "entities": ["OrderItem"], "inputs": ["orderId"], "page_size": 50, "rate": 100 },
    { "name": "Get customer profile", "entities": ["Customer"], "inputs": ["customerId"], "rate": 200 },
    { "name": "Get orders by fulfillment center", "entities": ["Order"], "inputs": ["fcId"], "order_by": "priority", "page_size": 50, "rate": 10 },
    { "name": "Get daily orders by status", "entities": ["Order"], "inputs": ["date", "status"], "page_size": 100, "rate": 1 },
    { "name": "Place order", "action": "transact", "writes": [
      { "action": "put", "entity": "Order" }, { "action": "put", "entity": "OrderItem", "count": 3 } ], "rate": 30 },
    { "name": "Update order status", "action": "update", "entities": ["Order"], "changes": ["status"], "rate": 30 }
  ]
}"#;

/// Every read of `proposal` a GetItem or a Query by core's verdicts, and no error finding.
fn check_served(proposal: &Proposal) {
    let analysis = crate::analysis::analyze(&proposal.design);
    for verdict in &analysis.verdicts {
        if proposal
            .design
            .pattern(&verdict.pattern)
            .is_some_and(|p| p.is_read())
        {
            assert!(
                verdict.covered,
                "`{}` is a {:?}: {:?}",
                verdict.pattern, verdict.operation, verdict.reasons
            );
        }
    }
    let errors: Vec<_> = analysis
        .findings
        .iter()
        .filter(|f| f.severity == crate::answer::Severity::Error)
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
}

#[test]
fn the_seed_articles_seven_patterns_are_all_served_with_orders_under_their_customer() {
    let synthesis = run(&design(SEED), &Options::default());
    let proposal = &synthesis.proposals[0];
    println!(
        "{}",
        serde_json::to_string_pretty(&proposal.design.entities).unwrap()
    );
    println!("{:#?}", proposal.reasons);
    check_served(proposal);
    assert_eq!((proposal.reads_served, proposal.reads), (7, 7));
    let order = proposal.design.entity("Order").unwrap();
    assert!(
        order.keys["PK"].source().starts_with("CUSTOMER#"),
        "{:?}",
        order.keys
    );
}
