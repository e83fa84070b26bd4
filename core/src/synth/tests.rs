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
    check_served(proposal);
    assert_eq!((proposal.reads_served, proposal.reads), (7, 7));
    let order = proposal.design.entity("Order").expect("Order");
    assert!(
        order.keys["PK"].source().starts_with("CUSTOMER#"),
        "{:?}",
        order.keys
    );
}

fn examples() -> Vec<Design> {
    [
        include_str!("../../../examples/ecommerce-orders.keyplan.json"),
        include_str!("../../../examples/order-management.keyplan.json"),
        include_str!("../../../examples/saas-multi-tenant.keyplan.json"),
    ]
    .into_iter()
    .map(|text| crate::file::parse(text).expect("an example parses"))
    .collect()
}

#[path = "../../tests/hand_designs/mod.rs"]
mod hand_designs;

/// The examples and the shared corpus's awslabs/mcp designs (when it is beside the checkout),
/// by file name.
fn hand_designs() -> Vec<(String, Design)> {
    hand_designs::designs(
        |text| crate::file::parse(text).expect("an example parses"),
        |text| Some(crate::import::detect_and_import(text).ok()?.design),
    )
}

/// The problem's price of `solution` beside the full estimate of the design it renders, read
/// by read (a serving's cost, or the Scan's) and for the rest (writes, storage, indexes).
fn problem_beside_estimate(
    candidates: &candidates::Candidates,
    solution: &problem::Solution,
    rendered: &Design,
) -> (f64, f64, String) {
    let report = crate::cost::estimate_sampled(
        rendered,
        &crate::sample::SampleConfig::default(),
        &crate::cost::CostConfig::default(),
    );
    let mut lines = String::new();
    let (mut problem_reads, mut estimate_reads) = (0.0, 0.0);
    for (r, read) in candidates.problem.reads.iter().enumerate() {
        let problem = match solution.servings.get(r).copied().flatten() {
            Some(s) => read.servings[s].cost,
            None => candidates.reads[r].scan,
        };
        let estimate = report
            .patterns
            .iter()
            .find(|p| p.pattern == read.pattern)
            .map_or(0.0, |p| p.monthly_cost);
        problem_reads += problem;
        estimate_reads += estimate;
        lines.push_str(&format!(
            "  read {}: problem {problem:.2}, estimate {estimate:.2}\n",
            read.pattern
        ));
    }
    let problem = solution.cost - candidates.penalties(solution);
    let estimate = report.monthly_total;
    lines.push_str(&format!(
        "  writes, storage and indexes: problem {:.2}, estimate {:.2}\n",
        problem - problem_reads,
        estimate - estimate_reads
    ));
    (problem, estimate, lines)
}

#[test]
fn the_problems_cost_of_the_chosen_design_agrees_with_the_full_estimate() {
    let mut failures = Vec::new();
    for (name, hand) in hand_designs() {
        let design = strip::strip(&hand);
        for style in [Style::SingleTable, Style::Natural] {
            let options = Options {
                style,
                ..Options::default()
            };
            let mut go_on = |_: &Progress| Control::Continue;
            let (candidates, _) =
                sized_candidates(&design, &options, &solve::solve, &mut go_on).expect("candidates");
            let solved = solve::solve(&candidates.problem, &options, &mut go_on).expect("solved");
            let solution = &solved.front[0];
            let rendered = render::render(&design, &candidates, solution, options.style);
            let (problem, full, lines) =
                problem_beside_estimate(&candidates, solution, &rendered.design);
            let off = (problem - full).abs() / full;
            let line = format!(
                "{name} ({}): problem {problem:.2}, estimate {full:.2}\n{lines}",
                style.as_str()
            );
            println!("{line}");
            if off >= 0.05 {
                failures.push(line);
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn keys_the_input_pinned_are_kept_as_written() {
    let mut pinned = design(SEED);
    let order = pinned
        .entities
        .iter_mut()
        .find(|e| e.name == "Order")
        .expect("Order");
    order.keys.insert(
        "PK".to_string(),
        crate::KeyTemplate::parse("ORDER#{orderId}"),
    );
    order
        .keys
        .insert("SK".to_string(), crate::KeyTemplate::parse("DETAILS"));
    let proposal = &run(&pinned, &Options::default()).proposals[0];
    check_served(proposal);
    let order = proposal.design.entity("Order").expect("Order");
    assert_eq!(order.keys["PK"].source(), "ORDER#{orderId}");
    assert_eq!(order.keys["SK"].source(), "DETAILS");
}

#[test]
fn natural_style_keys_indexes_on_the_entities_own_attributes() {
    let options = Options {
        style: Style::Natural,
        ..Options::default()
    };
    let proposal = &run(&design(SEED), &options).proposals[0];
    check_served(proposal);
    let table = &proposal.design.tables[0];
    let by_status = table
        .gsis
        .iter()
        .find(|g| g.partition_key.len() == 1 && g.partition_key[0].name == "status")
        .unwrap_or_else(|| panic!("an index on status: {:#?}", table.gsis));
    assert!(by_status.name.starts_with("by"), "{}", by_status.name);
    let sort: Vec<&str> = by_status.sort_key.iter().map(|k| k.name.as_str()).collect();
    assert_eq!(sort, ["createdAt", "orderId"]);
    let order = proposal.design.entity("Order").expect("Order");
    assert!(!order.keys.contains_key("status"), "{:?}", order.keys);
}

/// The design with its entities and patterns in reverse order.
fn reversed(design: &Design) -> Design {
    let mut out = design.clone();
    out.entities.reverse();
    out.patterns.reverse();
    for entity in &mut out.entities {
        entity.attributes.reverse();
    }
    out
}

/// A design's keys and indexes, independent of the order of its entities.
fn keys_of(design: &Design) -> String {
    let mut entities: Vec<String> = design
        .entities
        .iter()
        .map(|e| format!("{}: {:?}", e.name, e.keys))
        .collect();
    entities.sort();
    let mut tables: Vec<String> = design.tables.iter().map(|t| format!("{t:?}")).collect();
    tables.sort();
    format!("{entities:#?}\n{tables:#?}")
}

#[test]
fn the_same_patterns_in_another_order_give_the_same_proposal() {
    for style in [Style::SingleTable, Style::Natural] {
        let options = Options {
            style,
            ..Options::default()
        };
        for original in std::iter::once(design(SEED)).chain(examples().iter().map(strip::strip)) {
            let forward = run(&original, &options);
            let backward = run(&reversed(&original), &options);
            assert_eq!(
                keys_of(&forward.proposals[0].design),
                keys_of(&backward.proposals[0].design),
                "{}",
                original.name
            );
            // The same design; its estimate sums in the input's order, to the last bits.
            let (a, b) = (
                forward.proposals[0].monthly_cost,
                backward.proposals[0].monthly_cost,
            );
            assert!((a - b).abs() <= a.abs() * 1e-9, "{a} vs {b}");
        }
    }
}

/// Orders read strongly consistently by customer in two orders: a GSI cannot serve either.
const CONSISTENT: &str = r#"{
  "version": 1, "name": "consistent",
  "tables": [{ "name": "things", "partition_key": { "name": "PK", "type": "S" }, "sort_key": { "name": "SK", "type": "S" } }],
  "entities": [
    { "name": "Order", "table": "things", "attributes": [
      { "name": "orderId", "type": "S", "required": true },
      { "name": "customerId", "type": "S", "required": true },
      { "name": "createdAt", "type": "S", "required": true },
      { "name": "total", "type": "N", "required": true } ] }
  ],
  "patterns": [
    { "name": "Customer orders by date", "entities": ["Order"], "inputs": ["customerId"], "order_by": "createdAt", "consistent": true, "page_size": 20, "rate": 50 },
    { "name": "Customer orders by total", "entities": ["Order"], "inputs": ["customerId"], "order_by": "total", "consistent": true, "page_size": 20, "rate": 50 },
    { "name": "Place order", "action": "put", "entities": ["Order"], "rate": 10 }
  ]
}"#;

#[test]
fn a_strongly_consistent_read_is_served_by_the_table_or_an_lsi_never_a_gsi() {
    let proposal = &run(&design(CONSISTENT), &Options::default()).proposals[0];
    check_served(proposal);
    let table = &proposal.design.tables[0];
    for verdict in crate::analysis::analyze(&proposal.design).verdicts {
        if let Some(index) = &verdict.index {
            assert!(table.lsi(index).is_some(), "{} on {index}", verdict.pattern);
        }
    }
    assert_eq!(table.lsis.len(), 1, "{table:#?}");
    assert!(table.gsis.is_empty(), "{table:#?}");
}

/// Readings of a few sensor kinds written 5,000 a second: a key on the kind alone would take
/// 5,000 WCU on one partition.
const HOT: &str = r#"{
  "version": 1, "name": "hot",
  "tables": [{ "name": "things", "partition_key": { "name": "PK", "type": "S" }, "sort_key": { "name": "SK", "type": "S" } }],
  "entities": [
    { "name": "Reading", "table": "things", "attributes": [
      { "name": "readingId", "type": "S", "required": true },
      { "name": "kind", "type": "S", "required": true, "values": ["TEMPERATURE", "HUMIDITY"] },
      { "name": "takenAt", "type": "S", "required": true } ] }
  ],
  "patterns": [
    { "name": "Readings of a kind since", "entities": ["Reading"], "inputs": ["kind"], "sort": { "attribute": "takenAt", "op": ">=" }, "page_size": 100, "rate": 1 },
    { "name": "Record reading", "action": "put", "entities": ["Reading"], "rate": 5000 }
  ]
}"#;

#[test]
fn a_hot_low_cardinality_write_key_gets_the_cost_models_shard_count() {
    let proposal = &run(&design(HOT), &Options::default()).proposals[0];
    check_served(proposal);
    let report = crate::cost::estimate_sampled(
        &proposal.design,
        &crate::sample::SampleConfig::default(),
        &crate::cost::CostConfig::default(),
    );
    let load = report
        .partitions
        .iter()
        .find(|l| l.shards > 1)
        .unwrap_or_else(|| panic!("a sharded key: {:#?}", report.partitions));
    assert!(!load.hot, "{load:#?}");
    // 5,000 puts of a sub-KB item a second on one kind: 5,000 WCU over 1,000 per partition.
    assert_eq!(load.shards, crate::concentration::shards_needed(5000.0, 1));
    assert!(
        proposal
            .reasons
            .iter()
            .any(|r| matches!(r.subject, Subject::Shards { .. }) && r.text.contains("5 shards")),
        "{:#?}",
        proposal.reasons
    );
}

#[test]
fn every_alternative_serves_every_read_and_none_is_dominated() {
    let options = Options {
        alternatives: 3,
        ..Options::default()
    };
    for original in std::iter::once(design(SEED)).chain(examples().iter().map(strip::strip)) {
        let synthesis = run(&original, &options);
        for proposal in &synthesis.proposals {
            check_served(proposal);
        }
        for pair in synthesis.proposals.windows(2) {
            assert!(
                pair[0].monthly_cost < pair[1].monthly_cost && pair[0].indexes > pair[1].indexes,
                "{}: {} indexes at {} before {} at {}",
                original.name,
                pair[0].indexes,
                pair[0].monthly_cost,
                pair[1].indexes,
                pair[1].monthly_cost
            );
        }
    }
}

/// Items of a table with no sort key, read all or by an optional kind, and a read of
/// an entity the design lacks.
const LOOSE: &str = r#"{"version": 1, "name": "loose",
  "tables": [{ "name": "things", "partition_key": { "name": "PK", "type": "S" } }],
  "entities": [{ "name": "Item", "table": "things", "attributes": [
    { "name": "itemId", "required": true }, { "name": "kind" } ] }],
  "patterns": [
    { "name": "ghost", "entities": ["Nobody"], "inputs": ["x"] },
    { "name": "all items", "entities": ["Item"] },
    { "name": "by kind", "entities": ["Item"], "inputs": ["kind"] } ]
}"#;

#[test]
fn an_optional_attribute_never_keys_the_table() {
    let mut loose = design(LOOSE);
    loose.patterns.retain(|p| p.name != "ghost");
    let proposal = &run(&loose, &Options::default()).proposals[0];
    let item = proposal.design.entity("Item").expect("Item");
    let table = &proposal.design.tables[0];
    for key in table.primary_key() {
        let template = &item.keys[&key.name];
        assert!(
            template.attribute_vars().all(|v| v.name != "kind"),
            "{}: {template}",
            key.name
        );
    }
}

#[test]
fn a_read_of_an_entity_the_design_lacks_is_unserved_saying_so_not_refused() {
    let proposal = &run(&design(LOOSE), &Options::default()).proposals[0];
    assert_eq!(proposal.unserved.len(), 1, "{:#?}", proposal.unserved);
    assert_eq!(proposal.unserved[0].pattern, "ghost");
    assert!(
        proposal.unserved[0]
            .reason
            .contains("it returns `Nobody`, which the design does not have"),
        "{}",
        proposal.unserved[0].reason
    );
}

#[test]
fn no_lsi_where_a_customers_orders_would_pass_10_gb() {
    let mut big = design(CONSISTENT);
    big.entities.insert(
        0,
        serde_json::from_str(
            r#"{ "name": "Customer", "table": "things", "volume": { "items": 10 },
                 "attributes": [{ "name": "customerId", "type": "S", "required": true }] }"#,
        )
        .expect("an entity"),
    );
    // 2 billion orders of 1 KB over 10 customers: 200 GB under each.
    big.entities[1].volume = Some(crate::model::Volume {
        items: 2_000_000_000,
        item_bytes: Some(1_000),
        sampled: 0,
    });
    let proposal = &run(&big, &Options::default()).proposals[0];
    let table = &proposal.design.tables[0];
    assert!(table.lsis.is_empty(), "{table:#?}");
    assert_eq!(proposal.unserved.len(), 1, "{:#?}", proposal.unserved);
}

/// The awslabs/mcp e-commerce schema's order table, short: a UserOrderHistory whose identity
/// is `user_id` (User lives in another table), so Order's candidates include a key under it.
const HISTORY: &str = r#"{
  "version": 1, "name": "history",
  "tables": [
    { "name": "users", "partition_key": { "name": "PK", "type": "S" }, "sort_key": { "name": "SK", "type": "S" } },
    { "name": "orders", "partition_key": { "name": "PK", "type": "S" }, "sort_key": { "name": "SK", "type": "S" } }],
  "entities": [
    { "name": "User", "table": "users", "attributes": [
      { "name": "user_id", "type": "S", "required": true } ] },
    { "name": "Order", "table": "orders", "attributes": [
      { "name": "order_id", "type": "S", "required": true },
      { "name": "user_id", "type": "S", "required": true } ] },
    { "name": "UserOrderHistory", "table": "orders", "attributes": [
      { "name": "user_id", "type": "S", "required": true },
      { "name": "order_id", "type": "S", "required": true },
      { "name": "order_date", "type": "S", "required": true } ] }
  ],
  "patterns": [
    { "name": "Get order", "entities": ["Order"], "inputs": ["order_id"] },
    { "name": "Order history", "entities": ["UserOrderHistory"], "inputs": ["user_id"], "order_by": "order_date", "page_size": 20 }
  ]
}"#;

/// The partition template rendered for `entity` when Order takes its key under
/// UserOrderHistory and UserOrderHistory takes the option whose partition starts with
/// `history_partition`, with the table key's reason.
fn under_history(history_partition: &str) -> (String, String) {
    let design = design(HISTORY);
    let options = Options::default();
    let (candidates, _) =
        sized_candidates(&design, &options, &solve::solve, &mut |_| Control::Continue)
            .expect("candidates");
    let pick = |entity: &str, wanted: &dyn Fn(&candidates::KeyOption) -> bool| {
        let g = candidates
            .groups
            .iter()
            .position(|g| g.entity == entity)
            .expect("the entity's group");
        let o = candidates.groups[g]
            .options
            .iter()
            .position(wanted)
            .unwrap_or_else(|| panic!("{entity}: {:#?}", candidates.groups[g].options));
        (g, o)
    };
    let mut chosen = vec![0; candidates.groups.len()];
    let (g, o) = pick("Order", &|o| {
        o.origin == candidates::Origin::Under("UserOrderHistory".to_string())
    });
    chosen[g] = o;
    let (g, o) = pick("UserOrderHistory", &|o| {
        o.partition.starts_with(history_partition)
    });
    chosen[g] = o;
    let solution = candidates
        .problem
        .evaluate(&chosen, &[])
        .expect("a valid choice");
    let rendered = render::render(&design, &candidates, &solution, options.style);
    let (reasons, _) = explain::explain(&candidates, &solution, &rendered);
    let order = rendered.design.entity("Order").expect("Order");
    let reason = reasons
        .iter()
        .find(|r| {
            r.subject
                == Subject::TableKey {
                    table: "orders".to_string(),
                }
        })
        .map(|r| r.text.clone())
        .unwrap_or_default();
    (order.keys["PK"].source().to_string(), reason)
}

#[test]
fn an_entity_carries_another_entitys_label_only_in_that_entitys_partition() {
    // UserOrderHistory in its own partition: Order under it is in its item collection.
    let (partition, reason) = under_history("USER_ORDER_HISTORY#");
    assert_eq!(partition, "USER_ORDER_HISTORY#{user_id}");
    assert!(reason.contains("under UserOrderHistory"), "{reason}");
    // UserOrderHistory keyed on the user: Order is not with it, and is labelled by the user.
    let (partition, reason) = under_history("USER#");
    assert_eq!(partition, "USER#{user_id}");
    assert!(
        !reason.contains("USER_ORDER_HISTORY#{user_id}`"),
        "{reason}"
    );
}

#[test]
fn natural_style_names_an_index_key_after_its_attribute_and_prices_what_else_lands_in_it() {
    let options = Options {
        style: Style::Natural,
        ..Options::default()
    };
    for original in std::iter::once(design(SEED)).chain(examples().iter().map(strip::strip)) {
        let proposal = &run(&original, &options).proposals[0];
        check_served(proposal);
        for table in &proposal.design.tables {
            for gsi in &table.gsis {
                for key in gsi.partition_key.iter().chain(&gsi.sort_key) {
                    // A key of attributes is the attribute itself; a template (`...PK`) only
                    // for a constant or write-sharded partition, which no attribute holds.
                    let templated_attribute = proposal.design.entities_in(&table.name).any(|e| {
                        e.keys.get(&key.name).is_some_and(|t| {
                            t.attribute_vars().next().is_some() && t.shard().is_none()
                        })
                    });
                    assert!(
                        !templated_attribute,
                        "{}: {}.{} keys `{}` on a template of attributes",
                        original.name, table.name, gsi.name, key.name
                    );
                }
            }
        }
    }
}
