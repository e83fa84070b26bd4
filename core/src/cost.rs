//! Capacity and cost: item sizes, read and write units per access pattern, the monthly bill of
//! every table under every billing mode, and a per-partition throughput check.
//!
//! Everything is computed from the design, its coverage verdicts and a [`ItemStore`] of sample
//! items (for average item sizes and for how many items each read returns), scaled to the
//! entities' volumes (the items a table holds in production: [`crate::model::Volume`]);
//! prices are parameters ([`Prices`], a Region's, from [`crate::pricing`]; us-east-1 by
//! default). Nothing here does IO.
//!
//! This module owns the report's types and [`estimate`], which puts them together; its parts
//! are `sizes` (item sizes and storage), `units` (each request's units), `partitions` (the load
//! on the busiest partition), `billing` (the monthly bill per mode), `vector` (what vector
//! indexes hold and take, not priced) and `report` (the words); what
//! following a suggestion costs is [`crate::suggested`]'s, above this and `migrate`.
//!
//! The arithmetic, stated once:
//! - a month is 30 days, [`MONTH_SECONDS`] = 2,592,000 s; a GB is 2^30 bytes;
//! - a read: the bytes read rounded up to 4 KB per request; eventual 0.5, strong 1,
//!   transactional 2 units per 4 KB. A Query with a page size reads a full page of the
//!   pattern's entity (the production case); without one, or sorted in memory (issue 43), as
//!   many items as the sample run returned. A scatter-gather runs one such Query per shard. A Scan reads the whole table;
//! - a write: the item rounded up to 1 KB in the table, plus the projected item in every index
//!   it lands in (weighted by the share of the entity's items that land there); an update
//!   whose changed attributes feed an index key costs a delete and a put in that index, and one
//!   that changes nothing an index projects costs that index nothing; a transaction doubles;
//! - storage: every item's size plus 100 bytes, and every index entry's projected size plus
//!   100 bytes, for the item counts given (`counts`, else the entity's volume, else the
//!   sample's, which the report then says); an item's size is the volume's when it gives one,
//!   else the sample's mean (and an index entry's is scaled with it);
//! - rates: a pattern's `rate` is its peak, its average the peak over its `peak_factor`;
//!   on-demand bills the average, provisioned capacity holds the average (auto scaling) or the
//!   peak (fixed) over the target utilisation; reserved capacity covers whole blocks of 100 of
//!   the auto-scaled capacity, the rest billed as provisioned; a global table writes every
//!   table write and every index write in each of its Regions, and stores a copy in each;
//! - the capacity a provisioned table is given: billed as given, each GSI's its own (else the
//!   table's), auto-scaled capacity at the average load over its target within its bounds; the
//!   peak judged against it (auto scaling's maximum) in the table and each GSI, and against one
//!   partition's limits in each partition (`capacity`);
//! - the partition check: a partition key built only from a constant, an enum or a date takes a
//!   pattern's whole rate on one partition (one shard's share when write-sharded; every shard
//!   takes the full rate of a scatter-gather read), one built from `distinct: N` hints 1/N of
//!   it; over 3,000 read or 1,000 write units per second it is hot, and the write shards that
//!   would cool it are named.

mod billing;
mod capacity;
mod partitions;
mod report;
mod sizes;
mod units;
mod vector;

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;

use billing::billing;
use partitions::{Loads, read_loads};
use sizes::{SizesByName, entity_sizes, storage};
use units::{read_cost, reads_sample_count, write_cost};

use crate::answer::{Operation, Verdict};
use crate::eval::{ItemStore, count_one};
use crate::limits::Prices;
use crate::model::{ByName, Design};
use crate::sample::{SampleConfig, generate};

pub use crate::model::Dimension;
pub use crate::size::{
    Consistency, attribute_size, bytes_text, item_size, number_size, read_units, value_size,
    write_units,
};
pub use capacity::{GivenUnits, PatternLoad, PlaceCapacity, Throttle};
pub use partitions::{concentrates, read_advice, write_advice};
pub use vector::VectorIndexCost;

/// Seconds in the 30-day month the monthly figures use.
pub const MONTH_SECONDS: f64 = 30.0 * 86_400.0;
/// Bytes in a GB of storage.
pub const BYTES_PER_GB: f64 = 1_073_741_824.0;

/// Hours in the 30-day month.
pub const MONTH_HOURS: f64 = MONTH_SECONDS / 3_600.0;
/// The share of provisioned capacity auto scaling aims to use: AWS's default target.
pub const DEFAULT_TARGET_UTILIZATION: f64 = crate::model::Scaling::DEFAULT_TARGET / 100.0;

/// What the estimate assumes beyond the design.
#[derive(Debug, Clone, PartialEq)]
pub struct CostConfig {
    pub prices: Prices,
    /// Items stored per entity, overriding the entities' volumes; entities named neither here
    /// nor by a volume use the sample's count.
    pub counts: BTreeMap<String, u64>,
    /// Mean item bytes per entity, overriding the volume's and the sample's, as `counts` does
    /// the items: the synthesis prices a probe, which holds only the keys it tries, at a whole
    /// proposal's sizes (issue 37) without giving it volumes it does not have.
    pub item_bytes: BTreeMap<String, u64>,
    /// The share of provisioned capacity used (0 to 1]: capacity = load / target.
    pub target_utilization: f64,
}

impl Default for CostConfig {
    fn default() -> CostConfig {
        CostConfig {
            prices: Prices::default(),
            counts: BTreeMap::new(),
            item_bytes: BTreeMap::new(),
            target_utilization: DEFAULT_TARGET_UTILIZATION,
        }
    }
}

/// Where an entity's stored item count comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ItemsFrom {
    /// Given for the estimate (`--stored ENTITY=N`).
    Given,
    /// The entity's volume.
    Volume,
    /// The sample's items, standing in for a volume nobody gave.
    Sample,
}

/// The average size of an entity's items in the table and in each index.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EntitySize {
    pub entity: String,
    pub table: String,
    /// Sample items of the entity.
    pub samples: usize,
    /// Average item size in bytes (rounded up): the volume's, else the sample's.
    pub average_bytes: usize,
    /// Items stored in production, and where that figure comes from.
    pub items: f64,
    pub items_from: ItemsFrom,
    /// Per secondary index the entity lands in: the index, the share of the entity's items in
    /// it (0 to 1) and their average projected size.
    pub indexes: Vec<(String, f64, usize)>,
}

/// The cost of one access pattern.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PatternCost {
    pub pattern: String,
    pub operation: &'static str,
    /// Requests per second at peak.
    pub rate: f64,
    /// Requests per second averaged over the month (the peak over the pattern's peak factor).
    pub average_rate: f64,
    /// Read units one request consumes.
    pub read_units: f64,
    /// Write units one request consumes, all indexes included.
    pub write_units: f64,
    /// Where the units go: `table 1`, `GSI1 2 (delete+put: status)`, `8 queries x 0.5`.
    pub breakdown: Vec<String>,
    pub monthly_read_units: f64,
    pub monthly_write_units: f64,
    /// On-demand, Standard class, at the average rate, in the table's own Region.
    pub monthly_cost: f64,
    /// The units of one request by table: reads, writes to the table, writes to its indexes.
    pub tables: Vec<TableUnits>,
}

/// The units one request of a pattern consumes in one table.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TableUnits {
    pub table: String,
    pub read_units: f64,
    pub table_write_units: f64,
    pub index_write_units: f64,
    /// Of those, what each GSI takes (its own capacity when the table is provisioned): the
    /// reads through it and the writes that land in it. An LSI's take the table's.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub gsis: Vec<IndexUnits>,
}

/// The units one request of a pattern consumes in one GSI.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct IndexUnits {
    pub index: String,
    pub read_units: f64,
    pub write_units: f64,
}

/// Units per second, averaged over the month and at peak.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct Throughput {
    pub average: f64,
    pub peak: f64,
}

/// A billing mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    OnDemand,
    /// Provisioned capacity that auto scaling keeps at the load over the target utilisation.
    ProvisionedAutoScaled,
    /// Provisioned capacity fixed at the peak over the target utilisation.
    ProvisionedAtPeak,
    /// Auto-scaled provisioned capacity, its whole blocks of 100 reserved for a year.
    ReservedOneYear,
    ReservedThreeYear,
    /// The capacity the design gives a provisioned table and its GSIs, as given (auto-scaled
    /// within its bounds when it scales): only a provisioned table has it, so it is not in
    /// [`Mode::ALL`] ([`TableBilling::shown_modes`]).
    ProvisionedAsGiven,
}

impl Mode {
    pub const ALL: [Mode; 5] = [
        Mode::OnDemand,
        Mode::ProvisionedAutoScaled,
        Mode::ProvisionedAtPeak,
        Mode::ReservedOneYear,
        Mode::ReservedThreeYear,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Mode::OnDemand => "on-demand",
            Mode::ProvisionedAutoScaled => "provisioned, auto scaling",
            Mode::ProvisionedAtPeak => "provisioned at peak",
            Mode::ReservedOneYear => "provisioned, 1-year reserved",
            Mode::ReservedThreeYear => "provisioned, 3-year reserved",
            Mode::ProvisionedAsGiven => "provisioned as given",
        }
    }
}

/// A table class.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TableClass {
    Standard,
    StandardInfrequentAccess,
}

impl TableClass {
    pub const ALL: [TableClass; 2] = [TableClass::Standard, TableClass::StandardInfrequentAccess];

    pub fn label(self) -> &'static str {
        match self {
            TableClass::Standard => "Standard",
            TableClass::StandardInfrequentAccess => "Standard-IA",
        }
    }
}

/// A table's monthly bill under one billing mode and table class.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ModeCost {
    pub mode: Mode,
    pub class: TableClass,
    /// `None` when the mode is not offered (reserved capacity for Standard-IA, or a term the
    /// Region does not sell).
    pub monthly: Option<f64>,
    /// Of which storage, in every Region.
    pub storage: f64,
    /// Paid once for a reservation, spread over its term in `monthly`.
    pub upfront: f64,
    /// Months of a reservation after which it has paid for itself against provisioned
    /// capacity bought by the hour.
    pub break_even_months: Option<f64>,
    /// The arithmetic, in words.
    pub why: String,
}

/// One table's bill, side by side under every billing mode.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TableBilling {
    pub table: String,
    /// How the design bills it: `on-demand`, `provisioned 5 RCU / 5 WCU`.
    pub billing: String,
    /// The Region the prices are for, then the table's replicas.
    pub regions: Vec<String>,
    /// Read units per second (in the table's own Region; reads are local).
    pub reads: Throughput,
    /// Write units per second to the table, and to its indexes (in every Region).
    pub table_writes: Throughput,
    pub index_writes: Throughput,
    /// Table and indexes, in one Region.
    pub storage_gb: f64,
    /// Provisioned capacity per Region: auto-scaled (average) and at peak, at the target.
    pub rcu_average: f64,
    pub wcu_average: f64,
    pub rcu_peak: f64,
    pub wcu_peak: f64,
    pub target_utilization: f64,
    /// The average use of provisioned capacity above which it is cheaper than on-demand
    /// (Standard; reads and writes price alike).
    pub break_even_utilization: f64,
    /// How much of capacity fixed at the peak the average load uses, weighted by price (0 to 1).
    pub peak_capacity_use: f64,
    pub modes: Vec<ModeCost>,
    /// The capacity the design gives the table and each GSI, against their load: empty when it
    /// is on-demand.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub given: Vec<PlaceCapacity>,
}

impl TableBilling {
    /// The cost of `mode` in `class`, if offered.
    pub fn monthly(&self, mode: Mode, class: TableClass) -> Option<f64> {
        self.modes
            .iter()
            .find(|m| m.mode == mode && m.class == class)
            .and_then(|m| m.monthly)
    }

    /// The billing modes its report shows: the capacity as given first when the design gives
    /// one, then [`Mode::ALL`].
    pub fn shown_modes(&self) -> Vec<Mode> {
        let given = self
            .modes
            .iter()
            .any(|m| m.mode == Mode::ProvisionedAsGiven);
        given
            .then_some(Mode::ProvisionedAsGiven)
            .into_iter()
            .chain(Mode::ALL)
            .collect()
    }
}

/// The storage of one table or index.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StorageCost {
    pub table: String,
    /// `None` for the table itself.
    pub index: Option<String>,
    pub items: f64,
    pub bytes: f64,
    pub monthly_cost: f64,
}

/// The load on the busiest partition a key template concentrates traffic on.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
pub struct PartitionLoad {
    pub table: String,
    pub index: Option<String>,
    /// The partition, named with an example value: `STATUS#PENDING#SHARD0`, `ANALYTICS`.
    pub partition: String,
    /// The template it comes from.
    pub template: String,
    /// Shards the template already has (1 when not sharded).
    pub shards: u32,
    /// Read and write units per second on one partition (one shard) at the patterns' peak.
    pub read_units_per_second: f64,
    pub write_units_per_second: f64,
    /// The patterns contributing.
    pub patterns: Vec<String>,
    /// Over 3,000 read or 1,000 write units per second.
    pub hot: bool,
    /// Write shards that would bring its writes under 1,000 units per second per shard.
    pub shards_needed: u32,
    /// What to do about it, when hot.
    pub advice: Option<String>,
}

/// The whole estimate.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CostReport {
    pub prices: Prices,
    pub month_seconds: f64,
    pub entities: Vec<EntitySize>,
    pub patterns: Vec<PatternCost>,
    pub storage: Vec<StorageCost>,
    pub partitions: Vec<PartitionLoad>,
    /// Every table under every billing mode and table class.
    pub billing: Vec<TableBilling>,
    /// Where the patterns' peak is over the capacity a provisioned table, one of its GSIs or
    /// one of its partitions can serve.
    pub throttles: Vec<Throttle>,
    /// Entities whose stored items are the sample's, for want of a volume.
    pub sample_only: Vec<String>,
    /// Every vector index: what it holds, what is written to and searched in it (not priced).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub vector_indexes: Vec<VectorIndexCost>,
    /// On-demand, Standard, every Region of every table: the patterns at their average rate.
    pub monthly_request_cost: f64,
    pub monthly_storage_cost: f64,
    pub monthly_total: f64,
}

impl CostReport {
    /// The design's monthly bill with every table under `mode` in `class`: the sum of the
    /// tables' bills, or `None` when one of them is not offered it (reserved Standard-IA).
    pub fn monthly_by_mode(&self, mode: Mode, class: TableClass) -> Option<f64> {
        self.billing.iter().map(|t| t.monthly(mode, class)).sum()
    }
}

/// The estimate over a sample of `design` generated with `sample`: what `keyplan cost`
/// reports. The sample moves into its store while the verdicts are worked out (at the same
/// time with core's `parallel` feature), without their reasons, which cost does not read
/// (issue 13: scale).
pub fn estimate_sampled(design: &Design, sample: &SampleConfig, config: &CostConfig) -> CostReport {
    let (store, verdicts) = crate::par::join(
        || ItemStore::build(design, generate(design, sample).into_load_items()),
        || crate::coverage::verdicts_unexplained(design),
    );
    let report = estimate(design, &verdicts, &store, config);
    crate::par::drop_later((store, verdicts));
    report
}

/// Estimates the cost of `design` with the sample in `store` and the coverage `verdicts`.
pub fn estimate(
    design: &Design,
    verdicts: &[Verdict],
    store: &ItemStore,
    config: &CostConfig,
) -> CostReport {
    let sizes = entity_sizes(design, store, config);
    // The bytes of every table's items, for Scans: the stored items at their sizes.
    let mut table_bytes: HashMap<&str, units::Stored> = HashMap::new();
    for size in &sizes {
        let stored = table_bytes
            .entry(size.table.as_str())
            .or_insert(units::Stored {
                bytes: 0.0,
                counted: true,
            });
        stored.bytes += size.items * size.average_bytes as f64;
        stored.counted &= size.items_from != ItemsFrom::Sample;
    }
    // Only how many items each read returns matters here: counted, not copied, and only for
    // the reads whose units depend on it (issue 13). A pattern's count is its last GetItem or
    // Query verdict's, should several verdicts carry its name.
    let by_name = ByName::new(design);
    let mut counted: HashMap<&str, &Verdict> = HashMap::with_capacity(verdicts.len());
    for verdict in verdicts {
        if matches!(verdict.operation, Operation::GetItem | Operation::Query) {
            counted.insert(verdict.pattern.as_str(), verdict);
        }
    }
    // The counts first, each read's on its own (over the machine's cores with `parallel`):
    // they are most of the estimate's work at 10,000 entities.
    let runs = crate::par::map(verdicts, |verdict| {
        let pattern = by_name.pattern(&verdict.pattern)?;
        if !(pattern.is_read() && reads_sample_count(verdict, pattern)) {
            return None;
        }
        let counted = counted.get(pattern.name.as_str())?;
        Some(count_one(&by_name, design, store, counted))
    });
    let sizes_by_name = SizesByName::new(&sizes);
    let prices = &config.prices.standard;
    let mut patterns = Vec::new();
    let mut loads = Loads::default();
    for (verdict, run) in verdicts.iter().zip(runs) {
        let Some(pattern) = by_name.pattern(&verdict.pattern) else {
            continue;
        };
        let mut cost = PatternCost {
            pattern: pattern.name.clone(),
            operation: verdict.operation.as_str(),
            rate: pattern.rate,
            average_rate: pattern.average_rate(),
            read_units: 0.0,
            write_units: 0.0,
            breakdown: Vec::new(),
            monthly_read_units: 0.0,
            monthly_write_units: 0.0,
            monthly_cost: 0.0,
            tables: Vec::new(),
        };
        if pattern.is_read() {
            read_cost(
                design,
                &by_name,
                verdict,
                pattern,
                &table_bytes,
                &sizes_by_name,
                run.as_ref(),
                &mut cost,
            );
            read_loads(&by_name, verdict, pattern, &cost, &mut loads);
        } else {
            write_cost(
                design,
                &by_name,
                pattern,
                &sizes_by_name,
                &mut cost,
                &mut loads,
            );
        }
        cost.monthly_read_units = cost.read_units * cost.average_rate * MONTH_SECONDS;
        cost.monthly_write_units = cost.write_units * cost.average_rate * MONTH_SECONDS;
        cost.monthly_cost = cost.monthly_read_units / 1e6 * prices.per_million_read_units
            + cost.monthly_write_units / 1e6 * prices.per_million_write_units;
        patterns.push(cost);
    }
    let vector_indexes = vector::vector_costs(design, &by_name, verdicts, &sizes, &mut patterns);
    let storage = storage(design, &sizes, config);
    let billing = billing(design, &patterns, &storage, config);
    let loads = partitions::judge(loads);
    let throttles = capacity::throttles(&billing, &loads);
    // The headline is on-demand, Standard: the sum of each table's row, replicas included.
    let on_demand = |b: &TableBilling| {
        b.modes
            .iter()
            .find(|m| m.mode == Mode::OnDemand && m.class == TableClass::Standard)
            .map_or((0.0, 0.0), |m| (m.monthly.unwrap_or_default(), m.storage))
    };
    let monthly_total: f64 = billing.iter().map(|b| on_demand(b).0).sum();
    let monthly_storage_cost: f64 = billing.iter().map(|b| on_demand(b).1).sum();
    let sample_only = sizes
        .iter()
        .filter(|s| s.items_from == ItemsFrom::Sample)
        .map(|s| s.entity.clone())
        .collect();
    CostReport {
        prices: config.prices.clone(),
        month_seconds: MONTH_SECONDS,
        entities: sizes,
        patterns,
        storage,
        partitions: loads,
        billing,
        throttles,
        sample_only,
        vector_indexes,
        monthly_request_cost: monthly_total - monthly_storage_cost,
        monthly_storage_cost,
        monthly_total,
    }
}

#[cfg(test)]
mod tests;
