//! The cost view's page, computed in the worker: core's capacity and cost model
//! (`keyplan_core::cost`) over the sample items and the entities' volumes, at the prices of the
//! Region asked for, written out as the view shows it (core decides each figure and its why).

use keyplan_core::cost::{CostConfig, Mode, TableClass, estimate};
use keyplan_core::pricing::Prices;
use serde::{Deserialize, Serialize};

use super::Loaded;

/// One billing mode's row of a table's bill.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BillingRow {
    pub mode: String,
    pub standard: String,
    pub infrequent_access: String,
    /// How the figures were reached, one note a line.
    pub why: String,
}

/// A table's monthly bill under every billing mode and table class.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Billing {
    pub heading: String,
    pub rows: Vec<BillingRow>,
    pub break_even: String,
}

/// A pattern's units and cost.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PatternRow {
    pub pattern: String,
    pub operation: String,
    pub rate: String,
    pub read_units: String,
    pub write_units: String,
    pub monthly: String,
    /// Where the units go, one line each.
    pub breakdown: String,
}

/// The storage of a table or an index.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StorageRow {
    pub name: String,
    pub items: String,
    pub bytes: String,
    pub monthly: String,
}

/// Everything the cost view shows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CostPage {
    /// Why there is no sample, when there is none.
    pub refused: Option<String>,
    /// The Regions whose prices core knows, for the picker.
    pub regions: Vec<String>,
    pub total: String,
    pub requests: String,
    pub storage_cost: String,
    pub sample_only: Option<String>,
    pub billing: Vec<Billing>,
    /// The partitions that would run hot, in words.
    pub hot: Vec<String>,
    pub patterns: Vec<PatternRow>,
    pub storage: Vec<StorageRow>,
}

/// Whole dollars from $100 up, where cents are noise beside the estimate's precision.
fn dollars(x: f64) -> String {
    keyplan_core::pricing::dollars(x, if x >= 100.0 { 0 } else { 2 })
}

/// The page at the prices of `region` (us-east-1's when core does not know it).
pub fn page(loaded: &Loaded, region: &str) -> CostPage {
    let config = CostConfig {
        prices: Prices::region(region).unwrap_or_default(),
        ..CostConfig::default()
    };
    let r = estimate(&loaded.design, &loaded.verdicts, &loaded.store, &config);
    let billing = r
        .billing
        .iter()
        .map(|table| Billing {
            heading: table.heading(),
            rows: Mode::ALL
                .into_iter()
                .map(|mode| {
                    let cell = |class| table.monthly(mode, class).map_or("—".to_string(), dollars);
                    BillingRow {
                        mode: mode.label().to_string(),
                        standard: cell(TableClass::Standard),
                        infrequent_access: cell(TableClass::StandardInfrequentAccess),
                        why: table.notes(mode).join("\n"),
                    }
                })
                .collect(),
            break_even: table.break_even_note(),
        })
        .collect();
    let hot = r
        .partitions
        .iter()
        .filter(|p| p.hot)
        .map(|p| {
            format!(
                "{} {} `{}`: {:.0} RCU/s, {:.0} WCU/s{}",
                p.table,
                p.index.clone().unwrap_or_default(),
                p.template,
                p.read_units_per_second,
                p.write_units_per_second,
                p.advice
                    .as_ref()
                    .map(|a| format!(" — {a}"))
                    .unwrap_or_default()
            )
        })
        .collect();
    CostPage {
        refused: loaded.refused.clone(),
        regions: Prices::regions().map(str::to_string).collect(),
        total: dollars(r.monthly_total),
        requests: dollars(r.monthly_request_cost),
        storage_cost: dollars(r.monthly_storage_cost),
        sample_only: sample_only(&r.sample_only),
        billing,
        hot,
        patterns: r
            .patterns
            .iter()
            .map(|p| PatternRow {
                pattern: p.pattern.clone(),
                operation: p.operation.to_string(),
                rate: format!("{}", p.rate),
                read_units: format!("{:.1}", p.read_units),
                write_units: format!("{:.1}", p.write_units),
                monthly: dollars(p.monthly_cost),
                breakdown: p.breakdown.join("\n"),
            })
            .collect(),
        storage: r
            .storage
            .iter()
            .map(|s| StorageRow {
                name: match &s.index {
                    Some(i) => format!("{} · {i}", s.table),
                    None => s.table.clone(),
                },
                items: format!("{:.0}", s.items),
                bytes: format!("{:.0}", s.bytes),
                monthly: dollars(s.monthly_cost),
            })
            .collect(),
    }
}

/// Entities named in the storage note before the rest are counted.
const NAMED: usize = 5;

/// The storage note in the app's words: which entities' stored items are only the sample's (a
/// few named, the rest counted: a 100-entity design listed all 100) and where the app sets a
/// real figure (core's note names the CLI's `--stored` and the file's `volume`).
fn sample_only(names: &[String]) -> Option<String> {
    let listed = match names.len() {
        0 => return None,
        n if n <= NAMED => names.join(", "),
        n => format!("{} and {} more", names[..NAMED].join(", "), n - NAMED),
    };
    Some(format!(
        "Storage counts only the sample's items for {listed}: set \u{201c}Items in production\u{201d} in {} inspector for a real figure.",
        if names.len() == 1 {
            "its"
        } else {
            "each one's"
        }
    ))
}

#[cfg(test)]
mod tests {
    use super::sample_only;
    use crate::jobs::{Cost, Worker};

    #[test]
    fn the_cost_page_is_cores_estimate_in_the_regions_prices() {
        let design = keyplan_core::examples::first();
        let mut worker = Worker::default();
        let page = |worker: &mut Worker, region: &str| {
            worker.answer(Cost {
                design: design.clone(),
                region: region.to_string(),
            })
        };
        let here = page(&mut worker, "us-east-1");
        assert!(here.total.starts_with('$'), "{}", here.total);
        assert_eq!(here.patterns.len(), design.patterns.len());
        assert!(!here.billing.is_empty());
        assert!(
            here.regions.iter().any(|r| r == "eu-west-1"),
            "{:?}",
            here.regions
        );
        let store = keyplan_core::eval::ItemStore::build(
            &design,
            keyplan_core::sample::generate(&design, &Default::default()).into_load_items(),
        );
        let expected = keyplan_core::cost::estimate(
            &design,
            &keyplan_core::analysis::verdicts(&design),
            &store,
            &Default::default(),
        );
        assert_eq!(
            here.total,
            keyplan_core::pricing::dollars(
                expected.monthly_total,
                if expected.monthly_total >= 100.0 {
                    0
                } else {
                    2
                }
            )
        );
        let elsewhere = page(&mut worker, "eu-west-1");
        assert_ne!(elsewhere.total, here.total, "another Region's prices");
    }

    #[test]
    fn the_storage_note_names_a_few_entities_and_counts_the_rest() {
        let names = |n: usize| (0..n).map(|i| format!("E{i}")).collect::<Vec<_>>();
        assert_eq!(sample_only(&[]), None);
        assert_eq!(
            sample_only(&names(1)).as_deref(),
            Some(
                "Storage counts only the sample's items for E0: set \u{201c}Items in production\u{201d} in its inspector for a real figure."
            )
        );
        let many = sample_only(&names(100)).expect("a note");
        assert!(
            many.starts_with(
                "Storage counts only the sample's items for E0, E1, E2, E3, E4 and 95 more: set"
            ),
            "{many}"
        );
    }
}
