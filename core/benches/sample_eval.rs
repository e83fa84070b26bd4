//! Sample generation and in-memory evaluation at scale, on the order-management design.
//! Targets: 100,000 items generated in under 300 ms; every read pattern evaluated over them in
//! under 20 ms. Also measured: loading them into a store (sorting the table and its indexes),
//! and evaluation including the search of the sample for input values.
//!
//! Run: `cargo bench -p keyplan-core --bench sample_eval`.

use std::collections::BTreeMap;

use criterion::{Criterion, criterion_group, criterion_main};
use keyplan_core::eval::{self, ItemStore};
use keyplan_core::sample::{SampleConfig, generate};
use keyplan_core::{Operation, analyze};

fn order_design() -> keyplan_core::Design {
    keyplan_core::file::parse(include_str!("../../examples/order-management.keyplan.json"))
        .expect("the example parses")
}

/// About 100,000 items: 5,000 customers, 25,000 orders, 45,000 order lines, 25,000 events and
/// the daily counters (one per day and status, so fewer than asked survive).
fn config() -> SampleConfig {
    SampleConfig {
        seed: 1,
        counts: [
            ("Customer".to_string(), 5_000),
            ("Order".to_string(), 25_000),
            ("OrderItem".to_string(), 45_000),
            ("DailyOrderCount".to_string(), 1_000),
            ("OrderEvent".to_string(), 25_000),
        ]
        .into(),
    }
}

fn benches(c: &mut Criterion) {
    let design = order_design();
    let config = config();
    let data = generate(&design, &config);
    eprintln!("sample items: {}", data.items.len());
    let mut group = c.benchmark_group("sample_eval");
    group.sample_size(10);
    // Dropping 100k items is not generating them: the drops happen outside the timing.
    group.bench_function("generate 100k items", |b| {
        b.iter_with_large_drop(|| generate(std::hint::black_box(&design), &config))
    });
    group.bench_function("load 100k items into a store", |b| {
        b.iter_batched(
            || data.load_items().collect::<Vec<_>>(),
            |items| ItemStore::build(&design, items),
            criterion::BatchSize::LargeInput,
        )
    });
    let store = ItemStore::build(&design, data.load_items());
    let verdicts = analyze(&design).verdicts;
    let reads: Vec<_> = verdicts
        .iter()
        .filter(|v| matches!(v.operation, Operation::GetItem | Operation::Query))
        .collect();
    let inputs: Vec<BTreeMap<String, String>> = reads
        .iter()
        .map(|v| {
            let pattern = design.pattern(&v.pattern).expect("the verdict's pattern");
            eval::pick_inputs(&design, &store, v, pattern).expect("inputs from the sample")
        })
        .collect();
    eprintln!("read patterns evaluated: {}", reads.len());
    group.bench_function("evaluate every read pattern", |b| {
        b.iter(|| {
            for (verdict, inputs) in reads.iter().zip(&inputs) {
                let run = eval::run_pattern(&design, &store, verdict, Some(inputs.clone()))
                    .expect("the pattern runs");
                std::hint::black_box(run);
            }
        })
    });
    group.bench_function("pick inputs and evaluate every read pattern", |b| {
        b.iter(|| eval::run_all(&design, &store, &verdicts))
    });
    group.finish();
}

criterion_group!(sample_eval, benches);
criterion_main!(sample_eval);
