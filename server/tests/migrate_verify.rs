//! `keyplan migrate --verify` (issue 18): the plans of issue 18's five migrations of the order
//! example, executed on the embedded engine and on moto, proven item for item; a plan missing
//! a step fails; nothing is left behind.

mod migrate_support;
mod run_support;

use keyplan_core::api::migrate::Verified;
use keyplan_core::migrate::{PlanConfig, StepKind, plan};
use keyplan_core::model::Design;
use keyplan_server::engine::Engine;
use keyplan_server::runner::RunId;
use keyplan_server::runner::migrate::verify;
use migrate_support::{migrations, order_example};
use run_support::*;
use tokio_util::sync::CancellationToken;

async fn verified(
    engine: &Engine,
    old: &Design,
    new: &Design,
    plan: &keyplan_core::migrate::MigrationPlan,
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
            .filter(|p| p.status == keyplan_core::api::runs::Status::Pass)
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

/// The vector fixture with and without its vector index, and the search pattern's result in
/// a verification.
fn vector_designs() -> (Design, Design) {
    let fixture = repo().join("tests/export/vector-search.keyplan.json");
    let text = std::fs::read_to_string(&fixture).expect("the vector fixture");
    let with = keyplan_core::file::parse(&text).expect("the fixture parses");
    let mut without = with.clone();
    without.tables[0].vector_indexes.clear();
    (with, without)
}

fn search_result(v: &Verified) -> &keyplan_core::api::runs::PatternResult {
    v.patterns
        .iter()
        .find(|p| p.pattern == "Similar products")
        .expect("the search pattern is checked")
}

// issue 40: a vector index added or dropped on a kept table is sent as UpdateTable's
// VectorIndexUpdates, and proven: the engine describes the index (or no longer does), and
// NEW's vector search on the migrated table answers as core's evaluation says. (Before, the
// verification said such a step was not executed.)
#[tokio::test]
async fn a_vector_index_step_is_sent_and_the_search_answers_as_core_says() {
    let (_engines, engine) = embedded().await;
    let (with, without) = vector_designs();
    for (what, old, new, action, proof) in [
        (
            "added",
            &without,
            &with,
            "Create vector index ByEmbedding",
            "DescribeTable lists ByEmbedding ACTIVE",
        ),
        (
            "dropped",
            &with,
            &without,
            "Delete the old vector index ByEmbedding",
            "DescribeTable no longer lists ByEmbedding",
        ),
    ] {
        let plan = plan(old, new, &PlanConfig::default());
        assert!(
            plan.steps
                .iter()
                .any(|s| s.vector && s.action.starts_with(action)),
            "{what}: {plan:#?}"
        );
        let v = verified(&engine, old, new, &plan).await;
        assert!(v.ok(), "{what}: {v:#?}");
        assert!(v.not_executed.is_empty(), "{what}: {v:#?}");
        let step = v
            .executed
            .iter()
            .find(|line| line.contains(action))
            .unwrap_or_else(|| panic!("{what}: {v:#?}"));
        assert!(step.contains(proof), "{what}: {step}");
        let search = search_result(&v);
        if what == "added" {
            assert_eq!(
                search.status,
                keyplan_core::api::runs::Status::Pass,
                "{what}: {search:#?}"
            );
            assert_eq!(search.operation, "SearchVectors", "{search:#?}");
            assert!(search.actual_items > 0, "{search:#?}");
        }
        assert!(
            run_tables(&engine).await.is_empty(),
            "{what}: tables left behind"
        );
    }
}

// issue 40: an engine without vector indexes (moto 5) takes the UpdateTable and describes no
// vector index: the step is said not executed with that reason, and the rest proves out.
#[tokio::test]
async fn a_vector_index_step_on_an_engine_without_them_is_said_not_executed() {
    let Some((_moto, engine)) = start_moto().await else {
        return;
    };
    let (with, without) = vector_designs();
    for (what, old, new) in [("added", &without, &with), ("dropped", &with, &without)] {
        let plan = plan(old, new, &PlanConfig::default());
        let v = verified(&engine, old, new, &plan).await;
        assert!(v.ok(), "{what}: {v:#?}");
        assert_eq!(v.not_executed.len(), 1, "{what}: {v:#?}");
        assert!(
            v.not_executed[0].contains("lists no vector index ByEmbedding"),
            "{what}: {}",
            v.not_executed[0]
        );
        assert!(
            run_tables(&engine).await.is_empty(),
            "{what}: tables left behind"
        );
    }
}
