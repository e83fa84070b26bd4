use std::collections::BTreeSet;

use expect_test::expect;

use super::*;

fn order_design() -> Design {
    let text = include_str!("../../../examples/order-management.keyplan.json");
    crate::file::parse(text).expect("the example design parses")
}

fn values_of(data: &SampleData, entity: &str, attribute: &str) -> Vec<String> {
    data.items
        .iter()
        .filter(|i| i.entity.as_deref() == Some(entity))
        .filter_map(|i| i.item.get(attribute).and_then(|v| v.as_key_text()))
        .map(str::to_string)
        .collect()
}

#[test]
fn the_same_seed_gives_the_same_items_and_another_seed_other_items() {
    let design = order_design();
    let a = generate(&design, &SampleConfig::default());
    let b = generate(&design, &SampleConfig::default());
    let c = generate(
        &design,
        &SampleConfig {
            seed: 2,
            ..SampleConfig::default()
        },
    );
    assert_eq!(a, b);
    assert_ne!(a, c);
}

#[test]
fn default_counts_give_roots_ten_items_and_children_three_per_parent() {
    let design = order_design();
    let data = generate(&design, &SampleConfig::default());
    let counts: Vec<(String, usize)> = design
        .entities
        .iter()
        .map(|e| (e.name.clone(), data.count(&e.name)))
        .collect();
    expect![[r#"
        [
            (
                "Customer",
                10,
            ),
            (
                "Order",
                30,
            ),
            (
                "OrderItem",
                90,
            ),
            (
                "DailyOrderCount",
                10,
            ),
            (
                "OrderEvent",
                90,
            ),
        ]
    "#]]
    .assert_debug_eq(&counts);
}

#[test]
fn children_reference_existing_parents_through_shared_key_variables() {
    let design = order_design();
    let config = SampleConfig {
        seed: 7,
        counts: [("Order".to_string(), 50)].into(),
    };
    let data = generate(&design, &config);
    let customers: BTreeSet<String> = values_of(&data, "Customer", "customerId")
        .into_iter()
        .collect();
    let orders: BTreeSet<String> = values_of(&data, "Order", "orderId").into_iter().collect();
    assert_eq!(orders.len(), 50);
    assert!(
        values_of(&data, "Order", "customerId")
            .iter()
            .all(|c| customers.contains(c))
    );
    assert!(
        values_of(&data, "OrderItem", "orderId")
            .iter()
            .all(|o| orders.contains(o))
    );
    assert!(
        values_of(&data, "OrderEvent", "orderId")
            .iter()
            .all(|o| orders.contains(o))
    );
    // Every customer has orders: parents are used round-robin.
    let with_orders: BTreeSet<String> = values_of(&data, "Order", "customerId")
        .into_iter()
        .collect();
    assert_eq!(with_orders, customers);
}

#[test]
fn every_key_attribute_is_rendered_from_its_template_with_shards_and_sparse_indexes() {
    let design = order_design();
    let data = generate(&design, &SampleConfig::default());
    let first = |entity: &str| {
        data.items
            .iter()
            .find(|i| i.entity.as_deref() == Some(entity))
            .map(|i| serde_json::to_string_pretty(&i.item).expect("items serialise"))
            .unwrap_or_default()
    };
    expect![[r#"
        {
          "GSI1PK": {
            "S": "STATUS#DELIVERED#SHARD4"
          },
          "GSI1SK": {
            "S": "2025-05-25T09:16:48Z#order_FK6QNW2H"
          },
          "GSI2PK": {
            "S": "FC#FC-08"
          },
          "GSI2SK": {
            "S": "4#order_FK6QNW2H"
          },
          "PK": {
            "S": "CUSTOMER#customer_1T1NM5NS"
          },
          "SK": {
            "S": "ORDER#order_FK6QNW2H"
          },
          "createdAt": {
            "S": "2025-05-25T09:16:48Z"
          },
          "customerId": {
            "S": "customer_1T1NM5NS"
          },
          "fulfillmentCenter": {
            "S": "FC-08"
          },
          "orderId": {
            "S": "order_FK6QNW2H"
          },
          "priority": {
            "N": "4"
          },
          "status": {
            "S": "DELIVERED"
          },
          "total": {
            "N": "819.87"
          }
        }"#]]
    .assert_eq(&first("Order"));
    expect![[r#"
        {
          "PK": {
            "S": "CUSTOMER#customer_1T1NM5NS"
          },
          "SK": {
            "S": "PROFILE"
          },
          "createdAt": {
            "S": "2025-05-24T11:00:34Z"
          },
          "customerId": {
            "S": "customer_1T1NM5NS"
          },
          "email": {
            "S": "anita.dijkstra0@example.com"
          },
          "name": {
            "S": "Anita Dijkstra"
          }
        }"#]]
    .assert_eq(&first("Customer"));
    expect![[r#"
        {
          "GSI3PK": {
            "S": "DATE#2025-03-04"
          },
          "GSI3SK": {
            "S": "STATUS#PENDING"
          },
          "PK": {
            "S": "ANALYTICS"
          },
          "SK": {
            "S": "DATE#2025-03-04#STATUS#PENDING"
          },
          "date": {
            "S": "2025-03-04"
          },
          "orderCount": {
            "N": "88"
          },
          "status": {
            "S": "PENDING"
          }
        }"#]]
    .assert_eq(&first("DailyOrderCount"));
}

#[test]
fn imported_items_are_kept_identified_and_used_as_parents() {
    let mut design = order_design();
    let item: Item = [
        ("PK".to_string(), AttributeValue::S("CUSTOMER#c-42".into())),
        ("SK".to_string(), AttributeValue::S("PROFILE".into())),
        (
            "name".to_string(),
            AttributeValue::S("Imported Person".into()),
        ),
    ]
    .into();
    design.samples.insert("orders".into(), vec![item.clone()]);
    let config = SampleConfig {
        seed: 1,
        counts: [("Order".to_string(), 4)].into(),
    };
    let data = generate(&design, &config);
    assert_eq!(data.items[0].item, item);
    assert_eq!(data.items[0].entity.as_deref(), Some("Customer"));
    // Only the imported customer and the orders asked for: no other item of that table.
    assert_eq!(data.count("Customer"), 1);
    assert_eq!(data.count("OrderItem"), 0);
    assert_eq!(values_of(&data, "Order", "customerId"), ["c-42"; 4]);
    // The other table is still generated, three events per order.
    assert_eq!(data.count("OrderEvent"), 12);
}

#[test]
fn templates_match_key_text_back_into_variables() {
    let t = |s: &str| KeyTemplate::parse(s);
    expect![[r#"
        [
            Some(
                [
                    (
                        "customerId",
                        "c1",
                    ),
                ],
            ),
            Some(
                [
                    (
                        "date",
                        "2025-01-02",
                    ),
                    (
                        "status",
                        "NEW",
                    ),
                ],
            ),
            None,
            Some(
                [
                    (
                        "status",
                        "PENDING",
                    ),
                ],
            ),
            None,
        ]
    "#]]
    .assert_debug_eq(&[
        match_template(&t("CUSTOMER#{customerId}"), "CUSTOMER#c1"),
        match_template(
            &t("DATE#{date}#STATUS#{status}"),
            "DATE#2025-01-02#STATUS#NEW",
        ),
        match_template(&t("PROFILE"), "ORDER#1"),
        match_template(
            &t("STATUS#{status}#SHARD{shard:10}"),
            "STATUS#PENDING#SHARD7",
        ),
        match_template(
            &t("STATUS#{status}#SHARD{shard:10}"),
            "STATUS#PENDING#SHARDx",
        ),
    ]);
}

#[test]
fn identify_prefers_the_entity_whose_templates_match_most_literally() {
    let design = order_design();
    let item = |pk: &str, sk: &str| -> Item {
        [
            ("PK".to_string(), AttributeValue::S(pk.into())),
            ("SK".to_string(), AttributeValue::S(sk.into())),
        ]
        .into()
    };
    let found: Vec<Option<String>> = [
        item("CUSTOMER#1", "PROFILE"),
        item("CUSTOMER#1", "ORDER#9"),
        item("ORDER#9", "ITEM#3"),
        item("ANALYTICS", "DATE#2025-01-01#STATUS#NEW"),
        item("SOMETHING", "ELSE"),
    ]
    .iter()
    .map(|i| identify(&design, "orders", i))
    .collect();
    expect![[r#"
        [
            Some(
                "Customer",
            ),
            Some(
                "Order",
            ),
            Some(
                "OrderItem",
            ),
            Some(
                "DailyOrderCount",
            ),
            None,
        ]
    "#]]
    .assert_debug_eq(&found);
}

#[test]
fn a_lookup_entity_copies_its_parents_email_and_a_reference_cycle_still_gives_items() {
    // Regression: two entities naming each other's key variables generated nothing.
    let text = r#"{
      "version": 1, "name": "users",
      "tables": [
        { "name": "Users", "partition_key": { "name": "pk", "type": "S" } },
        { "name": "EmailLookup", "partition_key": { "name": "pk", "type": "S" } }
      ],
      "entities": [
        { "name": "User", "table": "Users",
          "attributes": [ { "name": "user_id", "type": "S" }, { "name": "email", "type": "S" } ],
          "keys": { "pk": "USER#{user_id}" } },
        { "name": "EmailLookup", "table": "EmailLookup",
          "attributes": [ { "name": "email", "type": "S" }, { "name": "user_id", "type": "S" } ],
          "keys": { "pk": "EMAIL#{email}" } }
      ]
    }"#;
    let design = crate::file::parse(text).expect("the design parses");
    let data = generate(&design, &SampleConfig::default());
    assert_eq!(data.count("User"), 10);
    assert_eq!(data.count("EmailLookup"), 10);
    let users: BTreeSet<(String, String)> = data
        .items
        .iter()
        .filter(|i| i.entity.as_deref() == Some("User"))
        .map(|i| {
            (
                values_of_item(&i.item, "user_id"),
                values_of_item(&i.item, "email"),
            )
        })
        .collect();
    for item in data
        .items
        .iter()
        .filter(|i| i.entity.as_deref() == Some("EmailLookup"))
    {
        let pair = (
            values_of_item(&item.item, "user_id"),
            values_of_item(&item.item, "email"),
        );
        assert!(users.contains(&pair), "{pair:?} is no user's");
    }
}

fn values_of_item(item: &Item, attribute: &str) -> String {
    item.get(attribute)
        .and_then(|v| v.as_key_text())
        .unwrap_or_default()
        .to_string()
}

/// A design of `depth` entities in one table, each the child of the one before (`E3`'s key
/// starts with its parent's id `e2Id`), with no counts: the defaults multiply down the chain.
fn chain(depth: usize) -> Design {
    let mut design = Design::new("chain");
    design.tables.push(crate::model::Table {
        name: "t".to_string(),
        partition_key: crate::model::KeyAttribute::new("PK", KeyType::S),
        sort_key: Some(crate::model::KeyAttribute::new("SK", KeyType::S)),
        gsis: Vec::new(),
        lsis: Vec::new(),
        billing: crate::model::Billing::OnDemand,
        ttl_attribute: None,
        replicas: Vec::new(),
        vector_indexes: Vec::new(),
    });
    for i in 0..depth {
        let parent = if i == 0 {
            "ROOT".to_string()
        } else {
            format!("E{}#{{e{}Id}}", i - 1, i - 1)
        };
        design.entities.push(Entity {
            name: format!("E{i}"),
            table: "t".to_string(),
            description: String::new(),
            attributes: vec![Attribute::new(format!("e{i}Id"), AttrType::S)],
            keys: [
                ("PK".to_string(), KeyTemplate::parse(&parent)),
                (
                    "SK".to_string(),
                    KeyTemplate::parse(&format!("E{i}#{{e{i}Id}}")),
                ),
            ]
            .into(),
            volume: None,
        });
    }
    design
}

#[test]
fn the_plan_counts_defaults_down_a_parent_child_chain() {
    let planned = plan(&chain(4), &SampleConfig::default());
    let counts: Vec<(&str, u64)> = planned
        .entities
        .iter()
        .map(|e| (e.entity.as_str(), e.items))
        .collect();
    assert_eq!(counts, [("E0", 10), ("E1", 30), ("E2", 90), ("E3", 270)]);
    assert_eq!(planned.total, 400);
}

#[test]
fn a_sixteen_level_chain_is_refused_before_anything_is_generated() {
    // issue 13: 10 * 3^15 items were planned and the process died allocating them.
    let refused = generate_within(&chain(16), &SampleConfig::default(), MAX_SAMPLE_ITEMS)
        .expect_err("over the budget");
    expect![[r#"the sample would have 215,233,600 items, more than the 100,000 allowed: entity `E15` alone would take 143,489,070 (3 for each item of `E14`)"#]]
    .assert_eq(&refused.to_string());
    assert_eq!(refused.entity, "E15");
    assert_eq!(refused.items, 143_489_070);
}

#[test]
fn a_large_count_for_a_root_is_refused_with_the_children_it_brings() {
    // issue 13: `{"Customer":100000}` passed a check of the counts alone and planned millions.
    let design = order_design();
    let config = SampleConfig::new([("Customer".to_string(), 100_000)].into(), None);
    let refused = generate_within(&design, &config, MAX_SAMPLE_ITEMS).expect_err("over");
    expect![[r#"the sample would have 2,200,010 items, more than the 100,000 allowed: entity `OrderItem` alone would take 900,000 (3 for each item of `Order`)"#]]
    .assert_eq(&refused.to_string());
}

#[test]
fn counts_near_the_largest_number_saturate_instead_of_overflowing() {
    let design = chain(40);
    let counts = design
        .entities
        .iter()
        .map(|e| (e.name.clone(), u32::MAX))
        .collect();
    let given = plan(&design, &SampleConfig::new(counts, None));
    assert_eq!(given.total, 40 * u64::from(u32::MAX));
    assert!(given.check(MAX_SAMPLE_ITEMS).is_err());
    let deep = plan(&chain(60), &SampleConfig::default());
    assert!(deep.check(MAX_SAMPLE_ITEMS).is_err());
}

#[test]
fn the_plan_bounds_what_every_example_generates() {
    for (slug, design) in crate::examples::all() {
        for counts in [
            BTreeMap::new(),
            design
                .entities
                .iter()
                .take(1)
                .map(|e| (e.name.clone(), 7))
                .collect(),
        ] {
            let config = SampleConfig::new(counts, Some(3));
            let planned_sample = plan(&design, &config);
            let data = generate(&design, &config);
            assert!(data.items.len() as u64 <= planned_sample.total, "{slug}");
            for planned in &planned_sample.entities {
                let made = data.count(&planned.entity) as u64;
                assert!(made <= planned.items, "{slug} {}: {made}", planned.entity);
            }
            assert_eq!(
                generate_within(&design, &config, planned_sample.total),
                Ok(data),
                "{slug}"
            );
        }
    }
}

#[test]
fn the_order_example_plans_exactly_what_it_generates() {
    let design = order_design();
    let planned_sample = plan(&design, &SampleConfig::default());
    let data = generate(&design, &SampleConfig::default());
    for planned in &planned_sample.entities {
        if planned.entity != "DailyOrderCount" {
            // Daily counters share keys (one per day and status), so fewer survive.
            assert_eq!(
                data.count(&planned.entity) as u64,
                planned.items,
                "{}",
                planned.entity
            );
        }
    }
}

/// The order entities are generated in, found the obvious way: at each step, search for the
/// first entity whose parents are all placed, else the first not placed.
fn parents_first_by_search(parents: &[Vec<(usize, Vec<String>)>]) -> Vec<usize> {
    let n = parents.len();
    let mut order = Vec::with_capacity(n);
    let mut placed = vec![false; n];
    while order.len() < n {
        let ready =
            (0..n).find(|&i| !placed[i] && parents[i].iter().all(|(p, _)| placed[*p] || *p == i));
        let next = ready.unwrap_or_else(|| (0..n).find(|&i| !placed[i]).unwrap_or(0));
        placed[next] = true;
        order.push(next);
    }
    order
}

// issue 13: the generation order is kept in sets of the ready and the waiting instead of
// searched for at each step (quadratic at 10,000 entities); on chains, trees, cycles and
// self-references it must be the order the search gives.
#[test]
fn entities_are_ordered_parents_first_as_a_search_at_each_step_would_order_them() {
    let mut rng = oorandom::Rand64::new(13);
    for case in 0..500 {
        let n = 1 + (case % 12);
        let parents: Vec<Vec<(usize, Vec<String>)>> = (0..n)
            .map(|_| {
                let mut mine: Vec<usize> = (0..rng.rand_range(0..3))
                    .map(|_| rng.rand_range(0..n as u64) as usize)
                    .collect();
                mine.dedup();
                mine.into_iter().map(|p| (p, Vec::new())).collect()
            })
            .collect();
        assert_eq!(
            parents_first(&parents),
            parents_first_by_search(&parents),
            "{parents:?}"
        );
    }
}

// issue 13: the relations of a large design (owners, edges and mutual references looked up
// in maps, not searched for per attribute): a binary tree of 300 entities listed children
// first, each holding its parent's id, and a user with an email lookup that refer to each
// other (the reference through the id is kept).
#[test]
fn a_large_tree_of_entities_has_each_parent_once_and_is_ordered_parents_first() {
    let n = 300;
    let at = |node: usize| n - 1 - node;
    let mut design = crate::generated::design(0);
    let entity = |name: &str, key: &str, attributes: &[&str]| Entity {
        name: name.to_string(),
        table: "app".to_string(),
        description: String::new(),
        attributes: attributes
            .iter()
            .map(|a| Attribute::new(*a, AttrType::S))
            .collect(),
        keys: [("PK".to_string(), KeyTemplate::parse(key))].into(),
        volume: None,
    };
    for position in 0..n {
        let node = n - 1 - position;
        let own = format!("node{node}Id");
        let parent = format!("node{}Id", node.saturating_sub(1) / 2);
        let attributes: Vec<&str> = if node == 0 {
            vec![&own]
        } else {
            vec![&own, &parent]
        };
        design.entities.push(entity(
            &format!("Node{node}"),
            &format!("NODE{node}#{{{own}}}"),
            &attributes,
        ));
    }
    design
        .entities
        .push(entity("User", "USER#{userId}", &["userId", "email"]));
    design
        .entities
        .push(entity("Email", "EMAIL#{email}", &["email", "userId"]));
    let relations = relations(&design);
    let mut expected: Vec<Vec<(usize, Vec<String>)>> = (0..n)
        .map(|position| match n - 1 - position {
            0 => Vec::new(),
            node => {
                let parent = (node - 1) / 2;
                vec![(at(parent), vec![format!("node{parent}Id")])]
            }
        })
        .collect();
    expected.push(Vec::new());
    expected.push(vec![(n, vec!["userId".to_string(), "email".to_string()])]);
    assert_eq!(relations.parents, expected);
    assert_eq!(relations.order, parents_first_by_search(&expected));
    let mut rank = vec![0; n + 2];
    for (r, &e) in relations.order.iter().enumerate() {
        rank[e] = r;
    }
    assert!(
        expected
            .iter()
            .enumerate()
            .all(|(e, ps)| ps.iter().all(|(p, _)| rank[*p] < rank[e]))
    );
}

// issue 13: `cost`, `query` and the Markdown export move the sample into the store; what they
// load must be what the copying `load_items` gives, in the same order.
#[test]
fn moving_the_sample_into_the_store_loads_the_items_that_copying_loads() {
    let data = generate(&crate::generated::design(12), &SampleConfig::default());
    let copied: Vec<LoadItem> = data.load_items().collect();
    let moved: Vec<LoadItem> = data.into_load_items().collect();
    assert!(copied.len() > 50, "only {} items", copied.len());
    assert_eq!(moved, copied);
}

// issue 40: items carry their embeddings before a vector index is made on them (a migration
// adds the index and DynamoDB backfills it from them): an attribute a read pattern searches
// holds vectors of the pattern's stated dimensions even when no index is on it yet.
#[test]
fn an_embedding_a_pattern_searches_holds_the_patterns_dimensions_without_an_index() {
    let mut design = crate::file::parse(include_str!(
        "../../../tests/export/vector-search.keyplan.json"
    ))
    .expect("the vector fixture parses");
    design.tables[0].vector_indexes.clear();
    let data = generate(&design, &SampleConfig::default());
    let lengths: Vec<usize> = data
        .items
        .iter()
        .filter_map(|i| match i.item.get("embedding") {
            Some(crate::AttributeValue::L(numbers)) => Some(numbers.len()),
            _ => None,
        })
        .collect();
    assert!(!lengths.is_empty(), "the products carry embeddings");
    assert!(lengths.iter().all(|n| *n == 8), "{lengths:?}");
}
