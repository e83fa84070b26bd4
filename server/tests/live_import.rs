//! Importing tables that exist (issue 17): every built-in example and the exporters'
//! kitchen-sink fixture is loaded into an engine (the embedded one, and moto), read back with
//! `keyplan_server::live` and `keyplan_core::import::live`, and compared with the design it
//! came from. The comparison is printed as a table; on the examples every entity and every key
//! template (variable names aside) must come back, and every pattern, named as the import names
//! its entities and variables, must get the verdict it gets in the original. The import never writes: every table holds
//! the same items before and after, and no table appears or goes.
#![allow(clippy::unwrap_used)]

mod corpus_support;
mod run_support;

use std::collections::BTreeMap;

use keyplan_core::import::live::{self, Options};
use keyplan_core::model::{Design, Entity};
use keyplan_core::template::{KeyTemplate, Var};
use keyplan_server::engine::Engine;
use keyplan_server::live::read_tables;
use run_support::*;

/// How one design came back.
#[derive(Debug, Default)]
struct Accuracy {
    entities: usize,
    entities_found: usize,
    templates: usize,
    templates_recovered: usize,
    patterns: usize,
    /// Patterns, their entities and attributes named as the import names them, that get the
    /// verdict they get in the original design (operation, index, key condition).
    patterns_same: usize,
    /// What did not come back, one line each.
    missed: Vec<String>,
}

/// A template with its variables blanked: `CUSTOMER#{}#ORDER#{}`; shards keep their count.
fn shape(template: &KeyTemplate) -> String {
    let blank = |var: &Var| {
        Some(match var.shards {
            Some(n) => format!("{{:{n}}}"),
            None => "{}".to_string(),
        })
    };
    template.render(blank).expect("a blank for every variable")
}

/// Every key template of `entity` in `design`, by key attribute, as shapes.
fn shapes(design: &Design, entity: &Entity) -> BTreeMap<String, String> {
    let Some(table) = design.table(&entity.table) else {
        return BTreeMap::new();
    };
    table
        .key_attributes()
        .into_iter()
        .filter_map(|key| {
            let template = entity.key_template(&key.name)?;
            Some((key.name.clone(), shape(&template)))
        })
        .collect()
}

/// Compares `original` with `inferred`, where table `t` of the original is `names[t]`.
fn compare(original: &Design, inferred: &Design, names: &BTreeMap<String, String>) -> Accuracy {
    let mut accuracy = Accuracy::default();
    // Original entity -> the inferred one; per original entity, its variables -> the import's.
    let mut renames: BTreeMap<String, String> = BTreeMap::new();
    let mut renamed_vars: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for table in &original.tables {
        // Run tables are on-demand whatever the design says, and in one Region (an engine has
        // no others), so billing and replicas cannot come back.
        let want = keyplan_core::model::Table {
            name: names[&table.name].clone(),
            billing: Default::default(),
            replicas: Vec::new(),
            ..table.clone()
        };
        match inferred.table(&want.name) {
            Some(got) if *got == want => {}
            got => accuracy.missed.push(format!(
                "table {}: {want:?} came back as {got:?}",
                table.name
            )),
        }
    }
    for entity in &original.entities {
        let Some(table) = original.table(&entity.table) else {
            continue;
        };
        accuracy.entities += 1;
        let want = shapes(original, entity);
        accuracy.templates += want.len();
        let primary: Vec<&str> = std::iter::once(table.partition_key.name.as_str())
            .chain(table.sort_key.iter().map(|k| k.name.as_str()))
            .collect();
        let live_table = &names[&entity.table];
        // The inferred entity of the same table whose primary-key templates match.
        let found = inferred
            .entities
            .iter()
            .filter(|e| &e.table == live_table)
            .find(|e| {
                let got = shapes(inferred, e);
                primary.iter().all(|k| got.get(*k) == want.get(*k))
            });
        let Some(found) = found else {
            accuracy.missed.push(format!(
                "{}: no entity with primary key {:?}",
                entity.name,
                primary.iter().map(|k| want.get(*k)).collect::<Vec<_>>()
            ));
            continue;
        };
        accuracy.entities_found += 1;
        renames.insert(entity.name.clone(), found.name.clone());
        // The variables of matching templates, position by position.
        let vars = renamed_vars.entry(entity.name.clone()).or_default();
        for key in table_keys(original, entity) {
            if let (Some(a), Some(b)) = (entity.key_template(&key), found.key_template(&key))
                && shape(&a) == shape(&b)
            {
                for (x, y) in a.vars().zip(b.vars()) {
                    vars.insert(x.name.clone(), y.name.clone());
                }
            }
        }
        let got = shapes(inferred, found);
        for (key, template) in &want {
            if got.get(key) == Some(template) {
                accuracy.templates_recovered += 1;
            } else {
                accuracy.missed.push(format!(
                    "{}.{key}: {template} came back as {:?} (entity {})",
                    entity.name,
                    got.get(key),
                    found.name
                ));
            }
        }
    }
    // Each pattern, named as the import names things, against its verdict in the original.
    let mut with_patterns = inferred.clone();
    for pattern in &original.patterns {
        accuracy.patterns += 1;
        let entities: Vec<&String> = pattern
            .entities
            .iter()
            .chain(pattern.writes.iter().map(|w| &w.entity))
            .collect();
        if !entities.iter().all(|e| renames.contains_key(*e)) {
            accuracy.missed.push(format!(
                "pattern {}: an entity did not come back",
                pattern.name
            ));
            continue;
        }
        let var = |name: &String| -> String {
            entities
                .iter()
                .find_map(|e| renamed_vars.get(*e).and_then(|v| v.get(name)))
                .unwrap_or(name)
                .clone()
        };
        let mut mapped = pattern.clone();
        mapped.entities = pattern
            .entities
            .iter()
            .map(|e| renames[e].clone())
            .collect();
        for w in &mut mapped.writes {
            w.entity = renames[&w.entity].clone();
        }
        mapped.inputs = pattern.inputs.iter().map(var).collect();
        if let Some(sort) = &mut mapped.sort {
            sort.attribute = var(&sort.attribute);
        }
        mapped.order_by = pattern.order_by.as_ref().map(var);
        // A PartiQL statement names its table (quoted, as the examples write it): the live one.
        mapped.partiql = pattern.partiql.as_ref().map(|statement| {
            names.iter().fold(statement.clone(), |s, (design, live)| {
                s.replace(&format!("\"{design}\""), &format!("\"{live}\""))
            })
        });
        with_patterns.patterns = vec![mapped.clone()];
        let want = keyplan_core::analysis::verdict_of(original, pattern);
        let got = keyplan_core::analysis::verdict_of(&with_patterns, &mapped);
        let key = |v: &keyplan_core::Verdict| {
            (
                v.operation,
                v.index.clone(),
                v.key_condition.as_ref().map(|k| k.expression.clone()),
            )
        };
        if key(&want) == key(&got) {
            accuracy.patterns_same += 1;
        } else {
            accuracy.missed.push(format!(
                "pattern {}: {:?} came back as {:?} ({})",
                pattern.name,
                key(&want),
                key(&got),
                got.reasons.join("; ")
            ));
        }
    }
    accuracy
}

/// The key attributes of `entity`'s table, its primary key first.
fn table_keys(design: &Design, entity: &Entity) -> Vec<String> {
    design
        .table(&entity.table)
        .map(|t| {
            t.key_attributes()
                .into_iter()
                .map(|k| k.name.clone())
                .collect()
        })
        .unwrap_or_default()
}

/// Items in each of `tables`, counted with a `Select=COUNT` scan.
async fn counts(engine: &Engine, tables: &[String]) -> Vec<(String, usize)> {
    let mut out = Vec::new();
    for table in tables {
        out.push((table.clone(), item_count(engine, table).await));
    }
    out
}

/// Every design of ../shared/corpus that imports and plans a sample, by file name.
fn corpus() -> Vec<(String, Design, keyplan_server::runner::build::Counts)> {
    let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/corpus"));
    let files = corpus_support::model_files(root);
    assert!(!files.is_empty(), "no corpus at {}", root.display());
    files
        .into_iter()
        .filter_map(|path| {
            let text = std::fs::read_to_string(&path).ok()?;
            let imported = keyplan_core::import::detect_and_import(&text).ok()?;
            let name = path.file_stem()?.to_string_lossy().into_owned();
            Some((name, imported.design, Default::default()))
        })
        .collect()
}

/// Loads every design into `engine`, imports each back, and returns the accuracy table.
async fn round_trip(
    engine: &Engine,
    designs: Vec<(String, Design, keyplan_server::runner::build::Counts)>,
) -> Vec<(String, Accuracy)> {
    let mut guards = Vec::new();
    let mut loaded = Vec::new();
    for (slug, design, counts) in designs {
        if keyplan_server::runner::build::plan(&design, &counts).is_err() {
            continue;
        }
        let (guard, names) = load_design(engine, &design, &counts).await;
        guards.push(guard);
        loaded.push((slug, design, names));
    }
    let before_tables = keyplan_server::live::list_tables(engine).await.unwrap();
    let before = counts(engine, &before_tables).await;
    let mut table = Vec::new();
    for (slug, design, names) in &loaded {
        let tables: Vec<String> = names.values().cloned().collect();
        let read = read_tables(engine, &tables, 100_000, &|_| {})
            .await
            .unwrap();
        let imported = live::import(
            slug,
            read.into_iter().map(|(t, _)| t).collect(),
            Options::default(),
        );
        table.push((slug.clone(), compare(design, &imported.design, names)));
    }
    let after_tables = keyplan_server::live::list_tables(engine).await.unwrap();
    assert_eq!(
        before_tables, after_tables,
        "the import created or deleted a table"
    );
    assert_eq!(
        before,
        counts(engine, &after_tables).await,
        "the import wrote items"
    );
    for guard in guards {
        let cleanup = guard.cleanup().await;
        assert!(cleanup.failed.is_empty(), "{cleanup:?}");
    }
    table
}

fn print(engine: &str, table: &[(String, Accuracy)]) -> String {
    let mut out = format!(
        "{engine}: design | entities found | key templates recovered | patterns with the same verdict\n"
    );
    for (slug, a) in table {
        out.push_str(&format!(
            "{slug} | {}/{} | {}/{} | {}/{}\n",
            a.entities_found,
            a.entities,
            a.templates_recovered,
            a.templates,
            a.patterns_same,
            a.patterns
        ));
        for miss in &a.missed {
            out.push_str(&format!("  missed: {miss}\n"));
        }
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_example_comes_back_from_the_embedded_engine_and_nothing_is_written() {
    let (_engines, engine) = embedded().await;
    every_example_comes_back_from("embedded", &engine).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_example_comes_back_from_moto_and_nothing_is_written() {
    let Some((_moto, engine)) = start_moto().await else {
        return;
    };
    every_example_comes_back_from("moto", &engine).await;
}

/// Every example round-tripped through `engine` with 60 items of each entity (enough for a
/// write-sharded key to show its last shard), its report printed: nothing may be missed.
async fn every_example_comes_back_from(name: &str, engine: &Engine) {
    let table = round_trip(engine, examples(Some(60))).await;
    let report = print(name, &table);
    eprintln!("{report}");
    assert!(table.iter().all(|(_, a)| a.missed.is_empty()), "{report}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_corpus_comes_back_as_far_as_its_items_tell() {
    let (_engines, engine) = embedded().await;
    let designs = corpus();
    let n = designs.len();
    let table = round_trip(&engine, designs).await;
    let report = print("embedded, corpus", &table);
    let sum = |f: fn(&Accuracy) -> usize| table.iter().map(|(_, a)| f(a)).sum::<usize>();
    let (found, entities) = (sum(|a| a.entities_found), sum(|a| a.entities));
    let (recovered, templates) = (sum(|a| a.templates_recovered), sum(|a| a.templates));
    let (same, patterns) = (sum(|a| a.patterns_same), sum(|a| a.patterns));
    eprintln!(
        "{report}corpus: {} of {n} designs loaded; {found} of {entities} entities found, {recovered} of {templates} key templates recovered, {same} of {patterns} patterns with the same verdict",
        table.len()
    );
    // Only the mcp schemas carry patterns; every one of them keeps its verdict.
    assert_eq!(same, patterns, "{report}");
    // What the inference reached when this test was written (issue 17); a change that finds
    // less fails here. ConnectedVehicles keys users and vehicles alike (`ID#`/`VIN#` with the
    // same bare sort key) and GamingPlayerProfiles' Equipments share a shape with another
    // entity: their items alone do not tell them apart.
    assert_eq!(table.len(), n, "{report}");
    assert!(found >= 148 && recovered >= 380, "{report}");
}

/// Each entity of `design` as `name: KEY=template ...`, keys sorted.
fn templates(design: &Design) -> String {
    let mut out = String::new();
    for entity in &design.entities {
        let keys: Vec<String> = entity
            .keys
            .iter()
            .map(|(k, t)| format!("{k}={}", t.source()))
            .collect();
        out.push_str(&format!("{}: {}\n", entity.name, keys.join(" ")));
    }
    out
}

// issue 17 item 4: a table whose keys say only `c#12345` and `shp#555` imports with the names a
// person would choose (`customerId`, `shipmentItemId`, not `cId` or `shpId`), from the words
// the table's items hold: the entity-type attribute's values, the key words (`u#1#post`), the
// attribute names (`DeviceID`). The corpus's own items are loaded as they are.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_live_table_gets_the_names_a_person_would_choose() {
    let (_engines, engine) = embedded().await;
    let wanted = [
        "an-online-shop__json__AnOnlineShop_14",
        "SocialNetwork__SocialNetworkSchema",
        "device-state-log__json__DeviceStateLog_3",
    ];
    let mut designs: Vec<_> = corpus()
        .into_iter()
        .filter(|(slug, _, _)| wanted.contains(&slug.as_str()))
        .collect();
    designs.sort_by_key(|(slug, _, _)| wanted.iter().position(|w| w == slug));
    assert_eq!(designs.len(), wanted.len(), "corpus files moved");
    let mut report = String::new();
    for (slug, design, counts) in designs {
        assert!(
            design.samples.values().all(|s| !s.is_empty()),
            "{slug}: the file's own items are loaded"
        );
        let (guard, names) = load_design(&engine, &design, &counts).await;
        let tables: Vec<String> = names.values().cloned().collect();
        let read = read_tables(&engine, &tables, 1_000, &|_| {}).await.unwrap();
        // The tables as their owner named them, not the run-scoped names they were loaded as.
        let read = read
            .into_iter()
            .map(|(mut t, _)| {
                let (design_name, _) = names.iter().find(|(_, n)| **n == t.table.name).unwrap();
                t.table.name = design_name.clone();
                t
            })
            .collect();
        let imported = live::import(&slug, read, Options::default());
        report.push_str(&format!("{slug}\n{}", templates(&imported.design)));
        assert!(guard.cleanup().await.failed.is_empty());
    }
    expect_test::expect![[r#"
        an-online-shop__json__AnOnlineShop_14
        customer: PK=c#{customerId} SK=c#{customerId}
        product: PK=p#{productId} SK=p#{productId}
        warehouseItem: GSI2-PK=w#{warehouseId} GSI2-SK=p#{productId} PK=p#{productId} SK=w#{warehouseId}
        order: PK=o#{orderId} SK=c#{customerId}
        invoice: GSI1-PK=i#{invoiceId} GSI1-SK=i#{invoiceId} GSI2-PK=c#{customerId} GSI2-SK={Date} PK=o#{orderId} SK=i#{invoiceId}
        orderItem: GSI1-PK=p#{productId} GSI1-SK={Date} GSI2-PK=c#{customerId} GSI2-SK={Date} PK=o#{orderId} SK=p#{productId}
        shipment: GSI1-PK=sh#{shipmentId} GSI1-SK=sh#{shipmentId} GSI2-PK=w#{warehouseId} GSI2-SK=sh#{shipmentId} PK=o#{orderId} SK=sh#{shipmentId}
        shipmentItem: GSI1-PK=sh#{shipmentId} GSI1-SK=p#{productId} PK=o#{orderId} SK=shp#{shipmentItemId}
        warehouse: PK=w#{warehouseId} SK=w#{warehouseId}
        SocialNetwork__SocialNetworkSchema
        UCount: PK=u#{uId} SK="count"
        UInfo: PK=u#{uId} SK="info"
        Post: PK=u#{uId}#post SK=p#{postId}
        Likecount: PK=p#{postId}#likecount SK="count"
        Following: PK=u#{uId}#following SK=u#{uId2}
        Timeline: PK=u#{uId}#timeline SK=p#{postId}#u#{uId2}
        Follower: PK=u#{uId}#follower SK=u#{uId2}
        Likelist: PK=p#{postId}#likelist SK=u#{uId}
        device-state-log__json__DeviceStateLog_3
        DeviceStateLog: DeviceID=d#{deviceId} State#Date={State}#{Date}
    "#]].assert_eq(&report);
}

// issue 36: a table whose items carry `type` SHIPPED, CREATED... (an order event's status, not
// an entity's name) imports as one entity, and the import says why the attribute split none.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_type_attribute_holding_an_event_status_is_one_entity_not_five() {
    use aws_sdk_dynamodb::types::{
        AttributeDefinition, AttributeValue, BillingMode, KeySchemaElement, KeyType,
        ScalarAttributeType,
    };
    let (_engines, engine) = embedded().await;
    let table = "order_events";
    let key = |name: &str, key_type: KeyType| {
        KeySchemaElement::builder()
            .attribute_name(name)
            .key_type(key_type)
            .build()
            .unwrap()
    };
    let defined = |name: &str| {
        AttributeDefinition::builder()
            .attribute_name(name)
            .attribute_type(ScalarAttributeType::S)
            .build()
            .unwrap()
    };
    engine
        .client
        .create_table()
        .table_name(table)
        .attribute_definitions(defined("PK"))
        .attribute_definitions(defined("SK"))
        .key_schema(key("PK", KeyType::Hash))
        .key_schema(key("SK", KeyType::Range))
        .billing_mode(BillingMode::PayPerRequest)
        .send()
        .await
        .unwrap();
    let states = ["CREATED", "PAID", "PACKED", "SHIPPED", "DELIVERED"];
    for order in 0..4 {
        for (step, state) in states.iter().enumerate().take(2 + order) {
            engine
                .client
                .put_item()
                .table_name(table)
                .item("PK", AttributeValue::S(format!("ORDER#{order}")))
                .item(
                    "SK",
                    AttributeValue::S(format!("EVENT#2024-05-0{step}T10:00:00")),
                )
                .item("type", AttributeValue::S(state.to_string()))
                .item("by", AttributeValue::S("warehouse".into()))
                .send()
                .await
                .unwrap();
        }
    }
    let read = read_tables(&engine, &[table.to_string()], 1_000, &|_| {})
        .await
        .unwrap();
    let read = read.into_iter().map(|(t, _)| t).collect();
    let imported = live::import("events", read, Options::default());
    let notes: Vec<&String> = imported
        .notes
        .iter()
        .filter(|n| n.contains("`type`"))
        .collect();
    expect_test::expect![[r#"
        OrderEvents: PK=ORDER#{orderId} SK=EVENT#{date}
        [
            "table order_events: the `type` attribute's values (CREATED, PAID, PACKED, SHIPPED, ...) are not entity types (their items' keys have one shape and no value is a key's tag), so they split no entities",
        ]
    "#]]
    .assert_eq(&format!("{}{notes:#?}\n", templates(&imported.design)));
}
