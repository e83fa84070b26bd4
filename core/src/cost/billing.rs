//! Every table's monthly bill under every billing mode and table class (on-demand, provisioned
//! auto-scaled and at the peak, reserved for 1 and 3 years; Standard and Standard-IA; global
//! tables' replicas), from the patterns' units, their rates and the storage. Nothing here
//! formats a report.

use super::{
    BYTES_PER_GB, CostConfig, DEFAULT_TARGET_UTILIZATION, MONTH_HOURS, MONTH_SECONDS, Mode,
    ModeCost, PatternCost, StorageCost, TableBilling, TableClass, Throughput,
};
use crate::model::Design;

/// Every table's bill under every billing mode and table class, from the patterns' units, their
/// average and peak rates, and the storage.
pub(super) fn billing(
    design: &Design,
    patterns: &[PatternCost],
    storage: &[StorageCost],
    config: &CostConfig,
) -> Vec<TableBilling> {
    let target = if config.target_utilization > 0.0 && config.target_utilization <= 1.0 {
        config.target_utilization
    } else {
        DEFAULT_TARGET_UTILIZATION
    };
    let prices = &config.prices;
    let mut out = Vec::with_capacity(design.tables.len());
    for table in &design.tables {
        let mut reads = Throughput::default();
        let mut table_writes = Throughput::default();
        let mut index_writes = Throughput::default();
        for pattern in patterns {
            for units in pattern.tables.iter().filter(|u| u.table == table.name) {
                for (sum, per_request) in [
                    (&mut reads, units.read_units),
                    (&mut table_writes, units.table_write_units),
                    (&mut index_writes, units.index_write_units),
                ] {
                    sum.average += per_request * pattern.average_rate;
                    sum.peak += per_request * pattern.rate;
                }
            }
        }
        let storage_gb: f64 = storage
            .iter()
            .filter(|s| s.table == table.name)
            .map(|s| s.bytes / BYTES_PER_GB)
            .sum();
        let regions: Vec<String> = std::iter::once(prices.region.clone())
            .chain(table.replicas.iter().cloned())
            .collect();
        let n_regions = regions.len() as f64;
        let writes_average = table_writes.average + index_writes.average;
        let writes_peak = table_writes.peak + index_writes.peak;
        // A provisioned table has at least 1 RCU and 1 WCU.
        let capacity = |units: f64| (units / target).ceil().max(1.0);
        let rcu_average = capacity(reads.average);
        let wcu_average = capacity(writes_average);
        let rcu_peak = capacity(reads.peak);
        let wcu_peak = capacity(writes_peak);
        // Replicated writes (rWCU) cannot be reserved: in a global table only the indexes'
        // writes can.
        let reservable_wcu = if table.replicas.is_empty() {
            wcu_average
        } else {
            (index_writes.average / target).ceil()
        };
        let regions_note = if table.replicas.is_empty() {
            String::new()
        } else {
            format!(" x {} Regions", regions.len())
        };
        let given = super::capacity::given(table, patterns).unwrap_or_default();
        let (given_rcu, given_wcu) = super::capacity::billed(&given);
        let mut modes = Vec::new();
        for class in TableClass::ALL {
            let c = match class {
                TableClass::Standard => &prices.standard,
                TableClass::StandardInfrequentAccess => &prices.standard_ia,
            };
            let storage_cost = storage_gb * n_regions * c.per_gb_month;
            let storage_note = format!(
                "{} GB{regions_note} at ${}/GB",
                round_to(storage_gb, 1),
                c.per_gb_month
            );
            let provisioned = |rcu: f64, wcu: f64| {
                MONTH_HOURS * (rcu * c.per_rcu_hour + n_regions * wcu * c.per_wcu_hour)
            };
            if !given.is_empty() {
                modes.push(ModeCost {
                    mode: Mode::ProvisionedAsGiven,
                    class,
                    monthly: Some(provisioned(given_rcu, given_wcu) + storage_cost),
                    storage: storage_cost,
                    upfront: 0.0,
                    break_even_months: None,
                    why: format!(
                        "{given_rcu} RCU and {given_wcu} WCU{regions_note} as the design gives them ({}) for {MONTH_HOURS} h; {storage_note}",
                        super::capacity::billed_words(&given)
                    ),
                });
            }
            for mode in Mode::ALL {
                let mut upfront = 0.0;
                let mut break_even_months = None;
                let (monthly, why) = match mode {
                    Mode::OnDemand => (
                        Some(
                            reads.average * MONTH_SECONDS / 1e6 * c.per_million_read_units
                                + n_regions * writes_average * MONTH_SECONDS / 1e6
                                    * c.per_million_write_units
                                + storage_cost,
                        ),
                        format!(
                            "{} RRU/s and {} WRU/s{regions_note} on average, at ${}/M and ${}/M; {storage_note}",
                            round_to(reads.average, 1),
                            round_to(writes_average, 1),
                            c.per_million_read_units,
                            c.per_million_write_units
                        ),
                    ),
                    Mode::ProvisionedAutoScaled => (
                        Some(provisioned(rcu_average, wcu_average) + storage_cost),
                        format!(
                            "{rcu_average} RCU and {wcu_average} WCU{regions_note} (the average at {:.0}% use) for {MONTH_HOURS} h; {storage_note}",
                            target * 100.0
                        ),
                    ),
                    Mode::ProvisionedAtPeak => (
                        Some(provisioned(rcu_peak, wcu_peak) + storage_cost),
                        format!(
                            "{rcu_peak} RCU and {wcu_peak} WCU{regions_note} (the peak at {:.0}% use) all month; {storage_note}",
                            target * 100.0
                        ),
                    ),
                    // Priced above, for a provisioned table only.
                    Mode::ProvisionedAsGiven => continue,
                    Mode::ReservedOneYear | Mode::ReservedThreeYear => {
                        let term = match mode {
                            Mode::ReservedOneYear => prices.reserved_one_year,
                            _ => prices.reserved_three_year,
                        };
                        match (class, term) {
                            (TableClass::StandardInfrequentAccess, _) => (
                                None,
                                "reserved capacity is sold for the Standard class only".to_string(),
                            ),
                            (_, None) => {
                                (None, format!("{} does not sell this term", prices.region))
                            }
                            (TableClass::Standard, Some(term)) => {
                                let rcu_blocks = (rcu_average / 100.0).floor();
                                let wcu_blocks = (reservable_wcu / 100.0).floor();
                                upfront =
                                    rcu_blocks * term.rcu_upfront + wcu_blocks * term.wcu_upfront;
                                let hourly_by_the_hour = 100.0
                                    * (rcu_blocks * c.per_rcu_hour + wcu_blocks * c.per_wcu_hour);
                                let hourly_reserved =
                                    rcu_blocks * term.rcu_hourly + wcu_blocks * term.wcu_hourly;
                                let saving = (hourly_by_the_hour - hourly_reserved) * MONTH_HOURS;
                                if upfront > 0.0 && saving > 0.0 {
                                    break_even_months = Some(upfront / saving);
                                }
                                let monthly = provisioned(rcu_average, wcu_average)
                                    - hourly_by_the_hour * MONTH_HOURS
                                    + hourly_reserved * MONTH_HOURS
                                    + upfront / f64::from(term.months)
                                    + storage_cost;
                                let why = if rcu_blocks + wcu_blocks == 0.0 {
                                    "under 100 units of capacity: nothing to reserve".to_string()
                                } else {
                                    format!(
                                        "{} RCU and {} WCU reserved (${} upfront over {} months), the rest auto-scaled; {storage_note}",
                                        rcu_blocks * 100.0,
                                        wcu_blocks * 100.0,
                                        round_to(upfront, 0),
                                        term.months
                                    )
                                };
                                (Some(monthly), why)
                            }
                        }
                    }
                };
                // Vector indexes are on-demand only, on on-demand tables (issue 40, KP044).
                let (monthly, why) = if mode != Mode::OnDemand && !table.vector_indexes.is_empty() {
                    upfront = 0.0;
                    break_even_months = None;
                    (
                        None,
                        "not offered: a table with vector indexes is on-demand only".to_string(),
                    )
                } else {
                    (monthly, why)
                };
                modes.push(ModeCost {
                    mode,
                    class,
                    monthly,
                    storage: storage_cost,
                    upfront,
                    break_even_months,
                    why,
                });
            }
        }
        let standard = &prices.standard;
        let break_even_utilization =
            (standard.per_wcu_hour / 3_600.0) / (standard.per_million_write_units / 1e6);
        let peak_price = rcu_peak * standard.per_rcu_hour + wcu_peak * standard.per_wcu_hour;
        let peak_capacity_use = if peak_price > 0.0 {
            (reads.average * standard.per_rcu_hour + writes_average * standard.per_wcu_hour)
                / peak_price
        } else {
            0.0
        };
        out.push(TableBilling {
            table: table.name.clone(),
            billing: match table.billing {
                crate::model::Billing::OnDemand => "on-demand".to_string(),
                crate::model::Billing::Provisioned { read, write, .. } => {
                    format!("provisioned {read} RCU / {write} WCU")
                }
            },
            regions,
            reads,
            table_writes,
            index_writes,
            storage_gb,
            rcu_average,
            wcu_average,
            rcu_peak,
            wcu_peak,
            target_utilization: target,
            break_even_utilization,
            peak_capacity_use,
            modes,
            given,
        });
    }
    out
}

/// `x` rounded to `digits` decimals, for the words of an explanation.
pub(super) fn round_to(x: f64, digits: i32) -> f64 {
    let scale = 10f64.powi(digits);
    (x * scale).round() / scale
}
