//! Benchmark (issue 8): the seed's order design with about 10,000 items on the embedded engine.
//! Prints the wall time of the whole run (create, batch load, every pattern, cleanup) and, in
//! the same process, of a naive loader sending one PutItem at a time for the same items, and
//! their ratio. Run with `scripts/bench-run` (a release build).

use std::time::Instant;

use keyplan_server::engine::{Engine, Engines, EnginesConfig};
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
        ..Default::default()
    })
    .await?;
    let engine = engines.get(None)?.clone();
    println!("items: {}", plan.n_items());

    // Three rounds, alternating the two, so both see the same machine; medians reported.
    let mut naive_times = Vec::new();
    let mut whole_times = Vec::new();
    let mut load_times = Vec::new();
    let mut last = None;
    for _ in 0..ROUNDS {
        naive_times.push(naive_load(&engine, &plan).await?);
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
        whole_times.push(started.elapsed().as_secs_f64());
        anyhow::ensure!(summary.ok, "the run did not pass: {summary:?}");
        load_times.push(summary.load_ms / 1000.0);
        last = Some(summary);
    }
    let (naive, whole, load) = (median(naive_times), median(whole_times), median(load_times));
    let summary = last.ok_or_else(|| anyhow::anyhow!("no round ran"))?;
    println!(
        "whole run (median of {ROUNDS}): {whole:.3} s (batch load of {} items: {load:.3} s in {} requests; {} patterns passed)",
        summary.items_written, summary.load_requests, summary.passed
    );
    println!("naive sequential PutItem loader (median of {ROUNDS}): {naive:.3} s");
    println!(
        "ratio: naive loader / whole run = {:.1}x; naive loader / batch load = {:.1}x",
        naive / whole,
        naive / load
    );
    Ok(())
}

const ROUNDS: usize = 3;

/// Creates the plan's tables, loads every item with one PutItem after another, deletes the
/// tables; returns the loading time in seconds.
async fn naive_load(engine: &Engine, plan: &runner::Plan) -> anyhow::Result<f64> {
    let id = RunId::random();
    let guard = tables::TableGuard::new(engine);
    let never_cancelled = tokio_util::sync::CancellationToken::new();
    for table in &plan.tables {
        tables::create(
            engine,
            &guard,
            table,
            &id.table_name(&table.name),
            &never_cancelled,
            &|_| {},
        )
        .await?;
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
    let seconds = started.elapsed().as_secs_f64();
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
