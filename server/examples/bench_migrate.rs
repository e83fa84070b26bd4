//! Benchmark (issue 18): the order example gaining a GSI for "Get order by ID", with about
//! 100,000 items on the embedded engine. Prints the time core takes to plan the migration
//! (median of many), and the verification's figures: its steps on the engine (a Scan and
//! batched writes of every order, each part's time) beside a naive migration of the same
//! orders (the same GSI created, then one PutItem at a time), and their ratio (target at least
//! 5x). Run with `scripts/bench-migrate` (release).

use std::time::Instant;

use keyplan_core::migrate::{PlanConfig, migrated_item, plan};
use keyplan_core::model::{Gsi, KeyAttribute, KeyType, Projection};
use keyplan_server::engine::{Engine, Engines, EnginesConfig};
use keyplan_server::runner::{self, RunId, tables};
use tokio_util::sync::CancellationToken;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let old = keyplan_core::examples::get("order-management")
        .ok_or_else(|| anyhow::anyhow!("the order-management example is missing"))?;
    let mut new = old.clone();
    let orders = new
        .tables
        .iter_mut()
        .find(|t| t.name == "orders")
        .ok_or_else(|| anyhow::anyhow!("no orders table"))?;
    orders.gsis.push(Gsi {
        name: "GSI4".into(),
        partition_key: vec![KeyAttribute::new("GSI4PK", KeyType::S)],
        sort_key: Vec::new(),
        projection: Projection::All,
    });
    let order = new
        .entities
        .iter_mut()
        .find(|e| e.name == "Order")
        .ok_or_else(|| anyhow::anyhow!("no Order entity"))?;
    order.keys.insert("GSI4PK".into(), "ORDER#{orderId}".into());

    let config = PlanConfig::default();
    let mut times = Vec::new();
    for _ in 0..PLAN_ROUNDS {
        let started = Instant::now();
        std::hint::black_box(plan(&old, &new, &config));
        times.push(started.elapsed().as_secs_f64() * 1000.0);
    }
    let migration = plan(&old, &new, &config);
    println!(
        "plan: {:.3} ms (median of {PLAN_ROUNDS}), {} steps",
        median(times),
        migration.steps.len()
    );

    let counts: runner::build::Counts = [
        ("Customer", 10_000),
        ("Order", 30_000),
        ("OrderItem", 40_000),
        ("DailyOrderCount", 400),
        ("OrderEvent", 19_600),
    ]
    .into_iter()
    .map(|(e, n)| (e.to_string(), n))
    .collect();
    let engines = Engines::start(&EnginesConfig {
        embedded: true,
        endpoints: Vec::new(),
        allow_aws: false,
        ..Default::default()
    })
    .await?;
    let engine = engines.get(None)?.clone();
    let verified = runner::migrate::verify(
        &engine,
        &old,
        &new,
        &migration,
        &counts,
        &RunId::random(),
        &CancellationToken::new(),
        &|_| {},
    )
    .await?;
    anyhow::ensure!(
        verified.ok(),
        "the verification failed: {:?}",
        verified.data_mismatches
    );
    println!(
        "verify: {} items, {:.3} s in all; its steps {:.3} s ({} items written)",
        verified.items_before,
        verified.total_ms / 1000.0,
        verified.migrate_ms / 1000.0,
        verified.written
    );
    for step in &verified.executed {
        println!("  {step}");
    }
    let naive = naive(&engine, &old, &new, &counts).await?;
    println!("naive one-PutItem-at-a-time migration of the same orders: {naive:.3} s");
    println!(
        "ratio: naive / verify's steps = {:.1}x; naive / whole verification = {:.1}x",
        naive / (verified.migrate_ms / 1000.0),
        naive / (verified.total_ms / 1000.0)
    );
    Ok(())
}

const PLAN_ROUNDS: usize = 200;

/// Loads OLD's sample, then migrates it as a naive program would: the new GSI created (as the
/// verification's first step does, so both end with the same tables), then every order
/// rewritten in NEW's shape with one PutItem after another (the items in hand, no Scan);
/// returns the seconds of both.
async fn naive(
    engine: &Engine,
    old: &keyplan_core::Design,
    new: &keyplan_core::Design,
    counts: &runner::build::Counts,
) -> anyhow::Result<f64> {
    let run = runner::build::plan(old, counts)?;
    let id = RunId::random();
    let guard = tables::TableGuard::new(engine);
    let cancel = CancellationToken::new();
    for table in &run.tables {
        tables::create(
            engine,
            &guard,
            table,
            &id.table_name(&table.name),
            &cancel,
            &|_| {},
        )
        .await?;
    }
    let items: Vec<(String, &keyplan_core::Item)> = run
        .items
        .iter()
        .flat_map(|(t, items)| {
            let name = id.table_name(t);
            items.iter().map(move |i| (name.clone(), i))
        })
        .collect();
    let refs: Vec<(&str, &keyplan_core::Item)> =
        items.iter().map(|(t, i)| (t.as_str(), *i)).collect();
    runner::load::load(engine, &refs, &cancel, &|_, _| {}).await?;
    let started = Instant::now();
    let orders = new
        .table("orders")
        .ok_or_else(|| anyhow::anyhow!("no orders table"))?;
    runner::migrate::create_gsi(
        engine,
        orders,
        &id.table_name("orders"),
        "GSI4",
        &cancel,
        &|_| {},
    )
    .await?;
    let indexed = started.elapsed().as_secs_f64();
    for (table, item) in &refs {
        if keyplan_core::sample::identify(old, "orders", item).as_deref() != Some("Order") {
            continue;
        }
        let Some(migrated) = migrated_item(old, new, "Order", item).map_err(anyhow::Error::msg)?
        else {
            continue;
        };
        engine
            .client
            .put_item()
            .table_name(*table)
            .set_item(Some(runner::convert::item_to_sdk(&migrated)?))
            .send()
            .await?;
    }
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "  naive: GSI4 created in {indexed:.3} s, the orders put one at a time in {:.3} s",
        seconds - indexed
    );
    let cleanup = guard.cleanup().await;
    anyhow::ensure!(
        cleanup.failed.is_empty(),
        "cleanup failed: {:?}",
        cleanup.failed
    );
    Ok(seconds)
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values.get(values.len() / 2).copied().unwrap_or(f64::NAN)
}
