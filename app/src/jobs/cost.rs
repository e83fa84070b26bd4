//! The cost view's page, computed in the worker: core's capacity and cost model
//! (`keyplan_core::cost`) over the sample items and the entities' volumes, at the prices of the
//! Region asked for, written out as the view shows it (core decides each figure and its why),
//! with its pictures ([`crate::chart`]): the bill per billing mode, the costliest patterns and
//! each partition's load against DynamoDB's per-partition limits.

use keyplan_core::cost::{CostConfig, CostReport, Mode, PartitionLoad, TableClass, estimate};
use keyplan_core::limits::{PARTITION_READ_UNITS_PER_SECOND, PARTITION_WRITE_UNITS_PER_SECOND};
use keyplan_core::pricing::{Prices, grouped};
use serde::{Deserialize, Serialize};

use super::Loaded;
use crate::chart::{Bar, Chart, Limit, Row};
use crate::text::{plural, thousands};

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
    /// Where the capacity a provisioned table or GSI is given is under the peak, in words.
    pub throttled: Vec<String>,
    pub patterns: Vec<PatternRow>,
    pub storage: Vec<StorageRow>,
    /// The design's monthly bill per billing mode, Standard beside Standard-IA.
    pub bill_chart: Chart,
    /// The costliest patterns, the costliest first.
    pub pattern_chart: Chart,
    /// Each partition's reads and writes against the per-partition limits; `None` when no key
    /// concentrates traffic.
    pub partition_chart: Option<Chart>,
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
            // The capacity as given first, for a provisioned table (issue 40).
            rows: table
                .shown_modes()
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
                "{} {} `{}`: {} RCU/s, {} WCU/s{}",
                p.table,
                p.index.clone().unwrap_or_default(),
                p.template,
                grouped(p.read_units_per_second, 0),
                grouped(p.write_units_per_second, 0),
                p.advice
                    .as_ref()
                    .map(|a| format!(" — {a}"))
                    .unwrap_or_default()
            )
        })
        .collect();
    CostPage {
        bill_chart: bill_chart(&r),
        pattern_chart: pattern_chart(&r),
        partition_chart: partition_chart(&r.partitions),
        refused: loaded.refused.clone(),
        regions: Prices::regions().map(str::to_string).collect(),
        total: dollars(r.monthly_total),
        requests: dollars(r.monthly_request_cost),
        storage_cost: storage_cost(&r, &loaded.design),
        sample_only: sample_only(&r.sample_only),
        billing,
        hot,
        throttled: r.throttles.iter().map(|t| t.summary()).collect(),
        patterns: r
            .patterns
            .iter()
            .map(|p| PatternRow {
                pattern: p.pattern.clone(),
                operation: p.operation.to_string(),
                // A rate below one a second keeps its fraction (0.5/s).
                rate: grouped(p.rate, if p.rate.fract() == 0.0 { 0 } else { 1 }),
                read_units: grouped(p.read_units, 1),
                write_units: grouped(p.write_units, 1),
                monthly: p.monthly_text(dollars(p.monthly_cost)),
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
                items: grouped(s.items, 0),
                bytes: grouped(s.bytes, 0),
                monthly: dollars(s.monthly_cost),
            })
            .collect(),
    }
}

/// The design's monthly bill with every table under each billing mode, in each table class.
fn bill_chart(r: &CostReport) -> Chart {
    Chart {
        title: "Monthly bill per billing mode, every table".to_string(),
        label_heading: "Billing mode".to_string(),
        series: TableClass::ALL
            .iter()
            .map(|c| c.label().to_string())
            .collect(),
        // The capacity as given when every table is provisioned: else the design has no such bill.
        rows: r
            .billing
            .iter()
            .all(|t| t.shown_modes().contains(&Mode::ProvisionedAsGiven))
            .then_some(Mode::ProvisionedAsGiven)
            .into_iter()
            .chain(Mode::ALL)
            .map(|mode| Row {
                label: mode.label().to_string(),
                bars: TableClass::ALL
                    .into_iter()
                    .map(|class| {
                        let monthly = r.monthly_by_mode(mode, class);
                        Bar::of(monthly, monthly.map_or("not offered".to_string(), dollars))
                    })
                    .collect(),
                marked: false,
                note: None,
            })
            .collect(),
        limit: None,
        more: None,
    }
}

/// Patterns drawn in the ranking; the rest are summed under it.
const RANKED: usize = 10;

/// The patterns by monthly cost, the costliest first (equals in the design's order).
fn pattern_chart(r: &CostReport) -> Chart {
    let mut ranked: Vec<_> = r.patterns.iter().collect();
    ranked.sort_by(|a, b| b.monthly_cost.total_cmp(&a.monthly_cost));
    let rest = ranked.split_off(ranked.len().min(RANKED));
    Chart {
        title: "Access patterns by monthly cost (on-demand, Standard)".to_string(),
        label_heading: "Access pattern".to_string(),
        series: vec!["Monthly".to_string()],
        rows: ranked
            .into_iter()
            .map(|p| Row {
                label: p.pattern.clone(),
                bars: vec![Bar::of(Some(p.monthly_cost), dollars(p.monthly_cost))],
                marked: false,
                note: None,
            })
            .collect(),
        limit: None,
        more: (!rest.is_empty()).then(|| {
            format!(
                "and {}, {} together",
                plural(rest.len(), "more pattern"),
                dollars(rest.iter().map(|p| p.monthly_cost).sum())
            )
        }),
    }
}

/// Partitions drawn; the rest (never a hot one before a cool one) are counted under them.
const LOADS: usize = 12;

/// Units a second in words: whole from 10 up, else to a tenth.
fn per_second(units: f64, unit: &str) -> String {
    if units >= 10.0 {
        format!("{} {unit}/s", thousands(units.round() as u64))
    } else {
        format!("{units:.1} {unit}/s")
    }
}

/// Each partition's reads and writes as shares of one partition's limits (3,000 RCU and 1,000
/// WCU a second), the limit drawn across, the hot ones marked with the write shards that would
/// cool them (core's [`PartitionLoad::shards_needed`]).
fn partition_chart(loads: &[PartitionLoad]) -> Option<Chart> {
    if loads.is_empty() {
        return None;
    }
    let shown = &loads[..loads.len().min(LOADS)];
    let rows = shown
        .iter()
        .map(|p| {
            let writes_hot = p.write_units_per_second > PARTITION_WRITE_UNITS_PER_SECOND;
            let note = match (p.hot, writes_hot) {
                (false, _) => None,
                (true, true) => Some(format!(
                    "hot: needs {} shards (has {})",
                    p.shards_needed, p.shards
                )),
                (true, false) => Some(format!(
                    "hot reads: shards do not cool them ({} now)",
                    plural(p.shards as usize, "shard")
                )),
            };
            Row {
                label: match &p.index {
                    Some(index) => format!("{} · {index} {}", p.table, p.partition),
                    None => format!("{} {}", p.table, p.partition),
                },
                bars: vec![
                    Bar::of(
                        Some(p.read_units_per_second / PARTITION_READ_UNITS_PER_SECOND),
                        per_second(p.read_units_per_second, "RCU"),
                    ),
                    Bar::of(
                        Some(p.write_units_per_second / PARTITION_WRITE_UNITS_PER_SECOND),
                        per_second(p.write_units_per_second, "WCU"),
                    ),
                ],
                marked: p.hot,
                note,
            }
        })
        .collect();
    Some(Chart {
        title: "Load on the busiest partition of each key that takes few values, at peak"
            .to_string(),
        label_heading: "Partition".to_string(),
        series: vec![
            format!(
                "Reads (limit {})",
                per_second(PARTITION_READ_UNITS_PER_SECOND, "RCU")
            ),
            format!(
                "Writes (limit {})",
                per_second(PARTITION_WRITE_UNITS_PER_SECOND, "WCU")
            ),
        ],
        rows,
        limit: Some(Limit {
            at: 1.0,
            label: "one partition's limit".to_string(),
        }),
        more: (loads.len() > shown.len()).then(|| {
            format!(
                "and {}",
                plural(loads.len() - shown.len(), "more partition")
            )
        }),
    })
}

/// The monthly storage in words: in dollars when every entity's items are counted (its
/// "Items in production"), "unknown" when none is (the sample's few items are no figure: the
/// tile said "$0.00", issue 43), and "at least" the counted ones' when some are not.
fn storage_cost(r: &CostReport, design: &keyplan_core::Design) -> String {
    let sum = dollars(r.monthly_storage_cost);
    if r.sample_only.is_empty() {
        sum
    } else if design.entities.iter().all(|e| e.volume.is_none()) {
        "unknown".to_string()
    } else {
        format!("at least {sum}")
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
    use super::{RANKED, sample_only};
    use crate::jobs::{Cost, Worker};

    /// Core's estimate of `design` over the sample the worker generates.
    fn estimated(design: &keyplan_core::Design) -> keyplan_core::cost::CostReport {
        let store = keyplan_core::eval::ItemStore::build(
            design,
            keyplan_core::sample::generate(design, &Default::default()).into_load_items(),
        );
        keyplan_core::cost::estimate(
            design,
            &keyplan_core::analysis::verdicts(design),
            &store,
            &Default::default(),
        )
    }

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
        let expected = estimated(&design);
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

    // issue 43, item 9: the Cost tab's tables printed "2000" per second, "36660" bytes and a
    // hot partition's "8000 RCU/s": thousands grouped everywhere.
    #[test]
    fn the_cost_tables_group_thousands() {
        let design = keyplan_core::examples::first();
        let page = Worker::default().answer(Cost {
            design,
            region: "us-east-1".to_string(),
        });
        let status = page
            .patterns
            .iter()
            .find(|p| p.pattern == "Get orders by status")
            .expect("the example's status read");
        assert_eq!(status.rate, "2,000");
        let orders = &page.storage[0];
        assert!(orders.bytes.contains(','), "{orders:?}");
        assert!(
            page.hot.iter().any(|h| h.contains("8,000 RCU/s")),
            "{:?}",
            page.hot
        );
    }

    // issue 40 item 2: the Cost tab priced a provisioned table only as keyplan would size it.
    // Given 1 RCU and 1 WCU, the example's first table shows the capacity as given first, and
    // says where its peak is over it.
    #[test]
    fn a_provisioned_table_shows_its_capacity_as_given_and_where_it_throttles() {
        let mut design = keyplan_core::examples::first();
        design.tables[0].billing = keyplan_core::Billing::provisioned(1, 1);
        let page = Worker::default().answer(Cost {
            design: design.clone(),
            region: "us-east-1".to_string(),
        });
        let first = &page.billing[0].rows[0];
        assert_eq!(first.mode, "provisioned as given");
        assert!(first.standard.starts_with('$'), "{first:?}");
        assert!(first.why.contains("as the design gives them"), "{first:?}");
        assert!(
            page.throttled
                .iter()
                .any(|line| line.contains("over the 1 WCU given")),
            "{:?}",
            page.throttled
        );
    }

    // issue 43, item 4: with no entity's items counted, the storage tile said "$0.00".
    #[test]
    fn storage_nobody_counted_is_unknown_and_partly_counted_is_at_least() {
        let mut design = keyplan_core::examples::first();
        let mut worker = Worker::default();
        let mut storage = |design: &keyplan_core::Design| {
            worker
                .answer(Cost {
                    design: design.clone(),
                    region: "us-east-1".to_string(),
                })
                .storage_cost
        };
        assert_eq!(storage(&design), "unknown");
        design.entities[0].volume = Some(keyplan_core::model::Volume::items(1_000_000));
        let partly = storage(&design);
        assert!(partly.starts_with("at least $"), "{partly}");
        for e in &mut design.entities {
            e.volume = Some(keyplan_core::model::Volume::items(1_000_000));
        }
        let counted = storage(&design);
        assert!(counted.starts_with('$'), "{counted}");
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

    // issue 43 item 7: the Cost tab's pictures are core's figures: the bill per mode summed
    // over the tables, the patterns in order of cost, and each partition's load as a share of
    // one partition's limits, the hot one marked with the shards core asks for.
    #[test]
    fn the_charts_draw_the_reports_bill_ranking_and_partition_loads() {
        let mut design = keyplan_core::examples::first();
        let order = design
            .entities
            .iter_mut()
            .find(|e| e.name == "Order")
            .expect("Order");
        order.keys.insert(
            "GSI1PK".into(),
            keyplan_core::KeyTemplate::parse("STATUS#{status}"),
        );
        for p in &mut design.patterns {
            if p.name == "Update order status" {
                p.rate = 3_000.0;
            }
        }
        let page = Worker::default().answer(Cost {
            design: design.clone(),
            region: "us-east-1".to_string(),
        });
        let report = estimated(&design);

        let bill = &page.bill_chart;
        assert_eq!(bill.series, ["Standard", "Standard-IA"]);
        assert_eq!(bill.rows.len(), 5);
        assert_eq!(bill.rows[0].bars[0].text, page.total);
        assert_eq!(bill.rows[0].bars[0].value, Some(report.monthly_total));
        assert_eq!(
            (
                bill.rows[3].bars[1].value,
                bill.rows[3].bars[1].text.as_str()
            ),
            (None, "not offered")
        );

        let ranked: Vec<f64> = page
            .pattern_chart
            .rows
            .iter()
            .map(|r| r.bars[0].value.expect("a cost"))
            .collect();
        assert!(ranked.windows(2).all(|w| w[0] >= w[1]), "{ranked:?}");
        assert_eq!(ranked.len(), report.patterns.len().min(RANKED));
        let costliest = report
            .patterns
            .iter()
            .map(|p| p.monthly_cost)
            .fold(0.0, f64::max);
        assert_eq!(ranked[0], costliest);

        let loads = page
            .partition_chart
            .expect("the status key concentrates traffic");
        assert_eq!(loads.rows.len(), report.partitions.len());
        let hot = loads
            .rows
            .iter()
            .find(|r| r.label == "orders · GSI1 STATUS#PENDING")
            .expect("the status partition");
        assert!(hot.marked);
        assert_eq!(hot.note.as_deref(), Some("hot: needs 7 shards (has 1)"));
        assert_eq!(hot.bars[1].text, "6,200 WCU/s");
        assert_eq!(hot.bars[1].value, Some(6.2));
        assert!(
            loads
                .rows
                .iter()
                .filter(|r| !r.marked)
                .all(|r| r.note.is_none())
        );
        assert_eq!(loads.limit.map(|l| l.at), Some(1.0));
    }

    #[test]
    fn a_ranking_of_many_patterns_sums_the_rest() {
        let design = keyplan_core::generated::design(24);
        let page = Worker::default().answer(Cost {
            design,
            region: "us-east-1".to_string(),
        });
        assert_eq!(page.pattern_chart.rows.len(), RANKED);
        let more = page.pattern_chart.more.expect("the rest, summed");
        assert!(more.starts_with("and 110 more patterns, $"), "{more}");
    }
}
