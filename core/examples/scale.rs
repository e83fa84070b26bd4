//! How the work grows with a design's size: generated designs of 100, 1,000 and 10,000
//! entities, and the time of what `keyplan` does with each (issue 13): reading the file,
//! `check` (the analysis), sample generation, `cost`, `query`, and every export format. The
//! last column is the time at 10,000 divided by the time at 1,000: about 10 for linear work,
//! about 13 for n log n, 100 for quadratic.
//!
//! Run (a release build: the figures mean nothing in debug): `scripts/bench-scale`, or
//! `cargo run --release -p keyplan-core --example scale [-- SIZES...]`.
//!
//! The designs are the shape of `benches/analysis.rs` grown: one table with 20 GSIs, entities
//! in groups of five sharing a parent partition, each in one GSI by a write-sharded status,
//! and five read patterns per entity (a GetItem, a partition Query, a two-entity Query, a
//! sharded status Query with a range, and a lookup that needs a Scan). One table is the
//! hardest case: every check between the entities of a table sees all of them. Each time is
//! the best of a few runs (one at 10,000).

use std::time::{Duration, Instant};

use keyplan_core::eval::{self, Store};
use keyplan_core::export::{Format, export};
use keyplan_core::model::*;
use keyplan_core::sample::{SampleConfig, generate};
use keyplan_core::{KeyTemplate, analyze};

const N_GSIS: usize = 20;
/// Entities that share a parent's partition.
const GROUP: usize = 5;

fn generated_design(n_entities: usize) -> Design {
    let mut design = Design::new(format!("generated {n_entities}"));
    let gsis = (1..=N_GSIS)
        .map(|g| Gsi {
            name: format!("GSI{g}"),
            partition_key: vec![KeyAttribute::new(format!("GSI{g}PK"), KeyType::S)],
            sort_key: vec![KeyAttribute::new(format!("GSI{g}SK"), KeyType::S)],
            projection: Projection::All,
        })
        .collect();
    design.tables.push(Table {
        name: "app".to_string(),
        partition_key: KeyAttribute::new("PK", KeyType::S),
        sort_key: Some(KeyAttribute::new("SK", KeyType::S)),
        gsis,
        lsis: Vec::new(),
        billing: Billing::OnDemand,
        ttl_attribute: None,
    });
    for i in 0..n_entities {
        let name = format!("Thing{i}");
        let id = format!("thing{i}Id");
        let group = i / GROUP;
        let g = i % N_GSIS + 1;
        let mut status = Attribute::new("status", AttrType::S);
        status.values = vec!["NEW".into(), "OPEN".into(), "DONE".into()];
        let attributes = vec![
            Attribute::new(id.clone(), AttrType::S),
            Attribute::new("parentId", AttrType::S),
            status,
            Attribute::new("createdAt", AttrType::S),
            Attribute::new("title", AttrType::S),
            Attribute::new("amount", AttrType::N),
        ];
        let keys = [
            ("PK".to_string(), format!("PARENT{group}#{{parentId}}")),
            ("SK".to_string(), format!("THING{i}#{{{id}}}")),
            (format!("GSI{g}PK"), format!("T{i}#{{status}}#S{{shard:4}}")),
            (format!("GSI{g}SK"), format!("{{createdAt}}#{{{id}}}")),
        ]
        .into_iter()
        .map(|(k, v)| (k, KeyTemplate::parse(&v)))
        .collect();
        design.entities.push(Entity {
            name: name.clone(),
            table: "app".to_string(),
            description: format!("The {i}th thing."),
            attributes,
            keys,
        });
        design.layout.insert(
            name.clone(),
            Point {
                x: (i % 100) as f64 * 300.0,
                y: (i / 100) as f64 * 200.0,
            },
        );
        let sibling = format!("Thing{}", group * GROUP);
        let mut by_status = AccessPattern::read(format!("{name} by status"), &[&name], &["status"]);
        by_status.sort = Some(SortCondition {
            attribute: "createdAt".to_string(),
            op: SortOp::Gt,
        });
        by_status.rate = 50.0;
        design.patterns.extend([
            AccessPattern::read(format!("Get {name}"), &[&name], &["parentId", &id]),
            AccessPattern::read(format!("{name} of parent"), &[&name], &["parentId"]),
            AccessPattern::read(
                format!("{name} with {sibling}"),
                &[&name, &sibling],
                &["parentId"],
            ),
            by_status,
            AccessPattern::read(format!("{name} by id"), &[&name], &[&id]),
        ]);
    }
    design
}

/// The best of `runs` timings of `f`.
fn best<T>(runs: usize, mut f: impl FnMut() -> T) -> Duration {
    (0..runs.max(1))
        .map(|_| {
            let start = Instant::now();
            std::hint::black_box(f());
            start.elapsed()
        })
        .min()
        .unwrap_or_default()
}

/// `keyplan query FILE "Thing0 of parent"`: the sample, its store, the analysis, one pattern.
fn query(design: &Design) -> usize {
    let store = Store::build(
        design,
        generate(design, &SampleConfig::default()).load_items(),
    );
    let analysis = analyze(design);
    let Some(verdict) = analysis
        .verdicts
        .iter()
        .find(|v| v.pattern == "Thing0 of parent")
    else {
        return 0;
    };
    let Some(pattern) = design.pattern(&verdict.pattern) else {
        return 0;
    };
    let inputs = eval::pick_inputs(design, &store, verdict, pattern).ok();
    eval::run_pattern(design, &store, verdict, inputs).map_or(0, |run| run.result.items.len())
}

/// `keyplan cost FILE`: the sample, its store, the analysis and the estimate.
fn cost(design: &Design) -> usize {
    let store = Store::build(
        design,
        generate(design, &SampleConfig::default()).load_items(),
    );
    let analysis = analyze(design);
    keyplan_core::cost::estimate(
        design,
        &analysis.verdicts,
        &store,
        &keyplan_core::cost::CostConfig::default(),
    )
    .patterns
    .len()
}

fn main() {
    let sizes: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let sizes = if sizes.is_empty() {
        vec![100, 1_000, 10_000]
    } else {
        sizes
    };
    let mut rows: Vec<(String, Vec<Duration>)> = Vec::new();
    let mut record = |name: &str, time: Duration| match rows.iter_mut().find(|(n, _)| n == name) {
        Some((_, times)) => times.push(time),
        None => rows.push((name.to_string(), vec![time])),
    };
    for &n in &sizes {
        let design = generated_design(n);
        let text = keyplan_core::file::to_string(&design);
        let runs = if n >= 10_000 { 1 } else { 3 };
        eprintln!(
            "{n} entities: {} patterns, a {} KB design file, {} sample items",
            design.patterns.len(),
            text.len() / 1024,
            generate(&design, &SampleConfig::default()).items.len()
        );
        record(
            "read the file",
            best(runs, || keyplan_core::file::parse(&text)),
        );
        record("check (analysis)", best(runs, || analyze(&design)));
        record(
            "sample",
            best(runs, || generate(&design, &SampleConfig::default())),
        );
        record("cost", best(runs, || cost(&design)));
        record("query", best(runs, || query(&design)));
        for format in Format::ALL {
            record(
                &format!("export {}", format.name()),
                best(runs, || export(&design, format)),
            );
        }
    }
    let mut header = format!("{:<30}", "entities");
    for n in &sizes {
        header.push_str(&format!(" {n:>10}"));
    }
    if sizes.len() >= 2 {
        header.push_str(&format!(" {:>8}", "growth"));
    }
    println!("{header}");
    for (name, times) in &rows {
        let mut line = format!("{name:<30}");
        for t in times {
            line.push_str(&format!(" {:>8.1}ms", t.as_secs_f64() * 1000.0));
        }
        if let [.., a, b] = times[..] {
            line.push_str(&format!(
                " {:>7.1}x",
                b.as_secs_f64() / a.as_secs_f64().max(1e-9)
            ));
        }
        println!("{line}");
    }
    println!("growth: the time at the last size / the time at the one before");
}
