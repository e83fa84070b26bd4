//! `keyplan migrate --verify` (issue 18): the plans of issue 18's five migrations of the order
//! example, executed on the embedded engine and on moto, proven item for item; a plan missing
//! a step fails; nothing is left behind.

mod run_support;

use keyplan_core::migrate::{PlanConfig, StepKind, plan};
use keyplan_core::model::{Design, KeyAttribute, KeyType, Lsi, Projection};
use keyplan_server::engine::Engine;
use keyplan_server::runner::RunId;
use keyplan_server::runner::migrate::{Verified, verify};
use run_support::*;
use tokio_util::sync::CancellationToken;

fn order_example() -> Design {
    keyplan_core::examples::get("order-management").expect("the order example")
}

/// The order example changed as each of issue 18's migrations says, each named.
fn migrations() -> Vec<(&'static str, Design)> {
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

async fn verified(
    engine: &Engine,
    old: &Design,
    new: &Design,
    plan: &keyplan_core::migrate::Plan,
) -> Verified {
    verify(
        engine,
        old,
        new,
        plan,
        &Default::default(),
        &RunId::random(),
        &CancellationToken::new(),
        &|_| {},
    )
    .await
    .expect("the verification runs")
}

/// Every migration proves out: the data as predicted, NEW's reads pass, no table left.
async fn every_migration_proves_out_on(engine: &Engine) {
    let old = order_example();
    for (what, new) in migrations() {
        let plan = plan(&old, &new, &PlanConfig::default());
        let v = verified(engine, &old, &new, &plan).await;
        assert!(v.ok(), "{what}: {v:#?}");
        assert_eq!(
            v.items_before, v.items_after,
            "{what}: no item lost or added"
        );
        let passed = v
            .patterns
            .iter()
            .filter(|p| p.status == keyplan_core::run::Status::Pass)
            .count();
        let served = keyplan_core::analyze(&new)
            .verdicts
            .iter()
            .filter(|v| {
                matches!(
                    v.operation,
                    keyplan_core::Operation::GetItem | keyplan_core::Operation::Query
                )
            })
            .count();
        assert_eq!(
            passed, served,
            "{what}: every served read ran on the migrated data: {v:#?}"
        );
        assert!(
            run_tables(engine).await.is_empty(),
            "{what}: tables left behind"
        );
    }
}

// issue 18: the five migrations the issue names, proven on the embedded engine.
#[tokio::test]
async fn every_migration_of_the_order_example_proves_out_on_the_embedded_engine() {
    let (_engines, engine) = embedded().await;
    every_migration_proves_out_on(&engine).await;
}

// issue 18: and on moto, another engine over HTTP.
#[tokio::test]
async fn every_migration_of_the_order_example_proves_out_on_moto() {
    let Some((_moto, engine)) = start_moto().await else {
        return;
    };
    every_migration_proves_out_on(&engine).await;
}

// issue 18: `--verify` cannot pass without having read the migrated items: a plan whose
// backfill step is left out leaves the orders outside the new GSI, and the verification says
// which items differ from the prediction.
#[tokio::test]
async fn a_plan_missing_its_backfill_fails_the_verification() {
    let (_engines, engine) = embedded().await;
    let old = order_example();
    let (_, new) = migrations().remove(0);
    let mut plan = plan(&old, &new, &PlanConfig::default());
    let before = plan.steps.len();
    plan.steps.retain(|s| s.kind != StepKind::Backfill);
    assert_eq!(plan.steps.len(), before - 1, "the plan had one backfill");
    let v = verified(&engine, &old, &new, &plan).await;
    assert!(!v.ok(), "{v:#?}");
    assert_eq!(v.data_mismatches.len(), 1, "{v:#?}");
    assert!(
        v.data_mismatches[0].contains("GSI4PK"),
        "{}",
        v.data_mismatches[0]
    );
    assert!(run_tables(&engine).await.is_empty(), "tables left behind");
}
