//! Benchmark (issue 8): the seed's order design with about 10,000 items on the embedded engine.
//! Prints the wall time of the whole run (create, batch load, every pattern, cleanup) and, in
//! the same process, of a naive loader sending one PutItem at a time for the same items, and
//! their ratio. Run with `scripts/bench-run` (a release build).

use std::time::Instant;

use keyplan_server::engine::{Engines, EnginesConfig};
use keyplan_server::runner::{self, RunEvent, RunId, tables};
use tokio_util::sync::CancellationToken;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let design = keyplan_core::examples::get("order-management")
        .ok_or_else(|| anyhow::anyhow!("the order-management example is missing"))?;
    let counts = [
        ("Customer", 1000),
        ("Order", 3000),
        ("OrderItem", 4000),
        ("DailyOrderCount", 40),
        ("OrderEvent", 1960),
    ]
    .into_iter()
    .map(|(e, n)| (e.to_string(), n))
    .collect();
    let plan = runner::build::plan(&design, &counts)?;
    let engines = Engines::start(&EnginesConfig {
        embedded: true,
        endpoints: Vec::new(),
        allow_aws: false,
    })
    .await?;
    let engine = engines.get(None)?.clone();
    println!("items: {}", plan.n_items());

    // The naive loader: the same tables, one PutItem after another.
    let id = RunId::random();
    let guard = tables::TableGuard::new(engine.client.clone());
    for table in &plan.tables {
        tables::create(&engine, &guard, table, &id.table_name(&table.name)).await?;
    }
    let started = Instant::now();
    for (table, items) in &plan.items {
        let name = id.table_name(table);
        for item in items {
            engine
                .client
                .put_item()
                .table_name(&name)
                .set_item(Some(runner::convert::item_to_sdk(item)?))
                .send()
                .await?;
        }
    }
    let naive = started.elapsed().as_secs_f64();
    let cleanup = guard.cleanup().await;
    anyhow::ensure!(
        cleanup.failed.is_empty(),
        "cleanup failed: {:?}",
        cleanup.failed
    );

    let started = Instant::now();
    let emit = |_: RunEvent| {};
    let summary = runner::run(
        &engine,
        &plan,
        &RunId::random(),
        &CancellationToken::new(),
        &emit,
    )
    .await;
    let whole = started.elapsed().as_secs_f64();
    anyhow::ensure!(summary.ok, "the run did not pass: {summary:?}");

    println!(
        "whole run: {whole:.3} s (batch load of {} items: {:.3} s in {} requests; {} patterns passed)",
        summary.items_written,
        summary.load_ms / 1000.0,
        summary.load_requests,
        summary.passed
    );
    println!("naive sequential PutItem loader: {naive:.3} s");
    println!(
        "ratio: naive loader / whole run = {:.1}x; naive loader / batch load = {:.1}x",
        naive / whole,
        naive / (summary.load_ms / 1000.0)
    );
    Ok(())
}
