//! Issue 42 item 1: KP014 (`keyplan check`) and the cost report's partitions (`keyplan cost`)
//! judge a partition with one load model, so on every example and every design of the shared
//! corpus they name the same hot partitions and ask for the same write shards. Before, KP014
//! sent a pattern's whole traffic to one value of a key and divided a scatter-gather read by
//! its shards; the cost report gave the busiest value its share and every shard the whole read,
//! so the order-management example was hot in one and not in the other.
#![allow(clippy::unwrap_used)]

mod corpus_support;

use keyplan_core::Design;
use keyplan_core::cost::{CostConfig, estimate_sampled};
use keyplan_core::limits::{PARTITION_READ_UNITS_PER_SECOND, PARTITION_WRITE_UNITS_PER_SECOND};
use keyplan_core::sample::SampleConfig;

/// Every example, and every design of the shared corpus that imports, by name.
fn designs() -> Vec<(String, Design)> {
    let mut designs: Vec<(String, Design)> = keyplan_core::examples::all()
        .into_iter()
        .map(|(slug, design)| (slug.to_string(), design))
        .collect();
    match corpus_support::root() {
        Some(corpus) => {
            for path in corpus_support::model_files(&corpus) {
                let text = std::fs::read_to_string(&path).unwrap();
                // Usage-data files are not designs: the importer says so.
                if let Ok(imported) = keyplan_core::import::detect_and_import(&text) {
                    let name = path.file_name().unwrap().to_string_lossy().into_owned();
                    designs.push((name, imported.design));
                }
            }
        }
        None => eprintln!("the shared corpus is not beside the checkout: examples only"),
    }
    designs
}

/// The hot partitions of the cost report at its defaults (what `keyplan cost` prints): for each
/// way a partition is hot, `template: {shard:N}` with the write shards it asks for, or
/// `template: reads` (sharding does not cool reads), sorted.
fn hot_in_cost(design: &Design) -> Vec<String> {
    let report = estimate_sampled(design, &SampleConfig::default(), &CostConfig::default());
    let mut hot: Vec<String> = report
        .partitions
        .iter()
        .filter(|l| l.hot)
        .flat_map(|l| {
            let writes = (l.write_units_per_second > PARTITION_WRITE_UNITS_PER_SECOND)
                .then(|| format!("{}: {{shard:{}}}", l.template, l.shards_needed));
            let reads = (l.read_units_per_second > PARTITION_READ_UNITS_PER_SECOND)
                .then(|| format!("{}: reads", l.template));
            writes.into_iter().chain(reads)
        })
        .collect();
    hot.sort();
    hot
}

/// The same of KP014's findings (what `keyplan check` prints): the template its message quotes
/// first, and the last `{shard:N}` of the fix of a partition whose writes are hot.
fn hot_in_kp014(design: &Design) -> Vec<String> {
    let mut hot: Vec<String> = keyplan_core::analyze(design)
        .findings
        .iter()
        .filter(|f| f.code == "KP014")
        .map(|f| {
            let template = f.message.split('`').nth(1).unwrap_or_default();
            match f.message.rfind("{shard:") {
                Some(at) if f.message.contains(" write units") => {
                    let shards: String = f.message[at + "{shard:".len()..]
                        .chars()
                        .take_while(char::is_ascii_digit)
                        .collect();
                    format!("{template}: {{shard:{shards}}}")
                }
                _ => format!("{template}: reads"),
            }
        })
        .collect();
    hot.sort();
    hot
}

#[test]
fn kp014_and_the_cost_report_name_the_same_hot_partitions_and_shards_on_every_design() {
    let designs = designs();
    let mut disagreements = Vec::new();
    let mut hot = 0;
    for (name, design) in &designs {
        let (cost, kp014) = (hot_in_cost(design), hot_in_kp014(design));
        hot += cost.len();
        if cost != kp014 {
            disagreements.push(format!("{name}:\n  cost:  {cost:?}\n  KP014: {kp014:?}"));
        }
    }
    eprintln!("{} designs, {hot} hot partitions", designs.len());
    assert!(
        hot > 0,
        "some design has a hot partition, so the comparison means something"
    );
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
}
