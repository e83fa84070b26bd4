//! Capacity and cost: item sizes, read and write units per access pattern, the monthly bill of
//! every table under every billing mode, and a per-partition throughput check.
//!
//! Everything is computed from the design, its coverage verdicts and a [`ItemStore`] of sample
//! items (for average item sizes and for how many items each read returns), scaled to the
//! entities' volumes (the items a table holds in production: [`crate::model::Volume`]);
//! prices are parameters ([`Prices`], a Region's, from [`crate::pricing`]; us-east-1 by
//! default). Nothing here does IO.
//!
//! The arithmetic, stated once:
//! - a month is 30 days, [`MONTH_SECONDS`] = 2,592,000 s; a GB is 2^30 bytes;
//! - a read: the bytes read rounded up to 4 KB per request; eventual 0.5, strong 1,
//!   transactional 2 units per 4 KB. A Query with a page size reads a full page of the
//!   pattern's entity (the production case); without one, as many items as the sample run
//!   returned. A scatter-gather runs one such Query per shard. A Scan reads the whole table;
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
//! - the partition check: a partition key built only from a constant, an enum or a date takes a
//!   pattern's whole rate on one partition (one shard's share when write-sharded; every shard
//!   takes the full rate of a scatter-gather read), one built from `distinct: N` hints 1/N of
//!   it; over 3,000 read or 1,000 write units per second it is hot, and the write shards that
//!   would cool it are named.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::Write as _;

use serde::Serialize;

use crate::answer::{Operation, Verdict};
use crate::eval::{ItemStore, PlanError, count_one};
use crate::limits::{
    ITEM_STORAGE_OVERHEAD_BYTES, PARTITION_READ_UNITS_PER_SECOND, PARTITION_WRITE_UNITS_PER_SECOND,
    Prices,
};
use crate::model::{AccessPattern, Action, ByName, Design, Entity, Projection, Table, WriteStep};
use crate::pricing::{dollars, grouped};
use crate::sample::{SampleConfig, generate};
use crate::template::KeyTemplate;

pub use crate::size::{
    Consistency, attribute_size, item_size, number_size, read_units, value_size, write_units,
};

/// Seconds in the 30-day month the monthly figures use.
pub const MONTH_SECONDS: f64 = 30.0 * 86_400.0;
/// Bytes in a GB of storage.
pub const BYTES_PER_GB: f64 = 1_073_741_824.0;

/// Hours in the 30-day month.
pub const MONTH_HOURS: f64 = MONTH_SECONDS / 3_600.0;
/// The share of provisioned capacity auto scaling aims to use: AWS's default target.
pub const DEFAULT_TARGET_UTILIZATION: f64 = 0.7;

/// What the estimate assumes beyond the design.
#[derive(Debug, Clone, PartialEq)]
pub struct CostConfig {
    pub prices: Prices,
    /// Items stored per entity, overriding the entities' volumes; entities named neither here
    /// nor by a volume use the sample's count.
    pub counts: BTreeMap<String, u64>,
    /// The share of provisioned capacity used (0 to 1]: capacity = load / target.
    pub target_utilization: f64,
}

impl Default for CostConfig {
    fn default() -> CostConfig {
        CostConfig {
            prices: Prices::default(),
            counts: BTreeMap::new(),
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
}

impl TableBilling {
    /// The cost of `mode` in `class`, if offered.
    pub fn monthly(&self, mode: Mode, class: TableClass) -> Option<f64> {
        self.modes
            .iter()
            .find(|m| m.mode == mode && m.class == class)
            .and_then(|m| m.monthly)
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
#[derive(Debug, Clone, PartialEq, Serialize)]
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
    /// Entities whose stored items are the sample's, for want of a volume.
    pub sample_only: Vec<String>,
    /// On-demand, Standard, every Region of every table: the patterns at their average rate.
    pub monthly_request_cost: f64,
    pub monthly_storage_cost: f64,
    pub monthly_total: f64,
}

/// Sizes of the entity in the table and each index, from the store. Each secondary index is
/// walked once, entity by entity, instead of looked up for every entity (issue 13).
fn entity_sizes(design: &Design, store: &ItemStore, config: &CostConfig) -> Vec<EntitySize> {
    let mut out: Vec<EntitySize> = Vec::with_capacity(design.entities.len());
    // Per entity in `out`: the volume's item size over the sample's mean, which scales the
    // entity's index entries too.
    let mut scale: Vec<f64> = Vec::with_capacity(design.entities.len());
    // Per table name: the positions in `out` of its entities with samples, by entity name.
    let mut sampled: BTreeMap<&str, HashMap<&str, Vec<usize>>> = BTreeMap::new();
    for entity in &design.entities {
        let mut size = EntitySize {
            entity: entity.name.clone(),
            table: entity.table.clone(),
            samples: 0,
            average_bytes: 0,
            items: 0.0,
            items_from: ItemsFrom::Sample,
            indexes: Vec::new(),
        };
        // The table itself first: its entries are the table's items, in order.
        if let Some(table) = store.table(&entity.table)
            && let Some(primary) = table.indexes().first()
        {
            let sizes: Vec<usize> = table
                .items_of(primary, &entity.name)
                .map(|s| s.size)
                .collect();
            size.samples = sizes.len();
            size.average_bytes = average(&sizes);
            if !sizes.is_empty() {
                sampled
                    .entry(entity.table.as_str())
                    .or_default()
                    .entry(entity.name.as_str())
                    .or_default()
                    .push(out.len());
            }
        }
        let sample_mean = size.average_bytes;
        let given_bytes = entity
            .volume
            .and_then(|v| v.item_bytes)
            .map(|b| usize::try_from(b).unwrap_or(usize::MAX));
        let mut ratio = 1.0;
        if let Some(bytes) = given_bytes {
            if sample_mean > 0 {
                ratio = bytes as f64 / sample_mean as f64;
            }
            size.average_bytes = bytes;
        }
        (size.items, size.items_from) = match (config.counts.get(&entity.name), entity.volume) {
            (Some(&n), _) => (n as f64, ItemsFrom::Given),
            (None, Some(volume)) => (volume.items as f64, ItemsFrom::Volume),
            (None, None) => (size.samples as f64, ItemsFrom::Sample),
        };
        out.push(size);
        scale.push(ratio);
    }
    for (table_name, entities) in &sampled {
        let Some(table) = store.table(table_name) else {
            continue;
        };
        for index in table.indexes().iter().skip(1) {
            for (name, entries, bytes) in table.projected_totals(index) {
                for &at in entities.get(name).map_or(&[][..], Vec::as_slice) {
                    let samples = out[at].samples;
                    let projected = bytes.div_ceil(entries) as f64 * scale[at];
                    out[at].indexes.push((
                        index.name.clone().unwrap_or_default(),
                        entries as f64 / samples as f64,
                        projected.ceil() as usize,
                    ));
                }
            }
        }
    }
    out
}

fn average(sizes: &[usize]) -> usize {
    if sizes.is_empty() {
        0
    } else {
        sizes.iter().sum::<usize>().div_ceil(sizes.len())
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
    let mut table_bytes: HashMap<&str, f64> = HashMap::new();
    for size in &sizes {
        *table_bytes.entry(size.table.as_str()).or_default() +=
            size.items * size.average_bytes as f64;
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
    let storage = storage(design, &sizes, config);
    let billing = billing(design, &patterns, &storage, config);
    let mut loads = loads.list;
    for load in &mut loads {
        let reads_hot = load.read_units_per_second > PARTITION_READ_UNITS_PER_SECOND;
        let writes_hot = load.write_units_per_second > PARTITION_WRITE_UNITS_PER_SECOND;
        load.hot = reads_hot || writes_hot;
        // Writes spread over the shards; every scatter-gather read reads every shard.
        let total_writes = load.write_units_per_second * f64::from(load.shards);
        let needed = (total_writes / PARTITION_WRITE_UNITS_PER_SECOND).ceil() as u32;
        load.shards_needed = needed.max(load.shards).max(1);
        load.advice = match (writes_hot, reads_hot) {
            (true, _) => Some(format!(
                "write-shard it into {} partitions ({{shard:{}}}) and scatter-gather the reads",
                load.shards_needed, load.shards_needed
            )),
            (false, true) if load.shards > 1 => Some(
                "every scatter-gather request reads each shard: fewer shards or a smaller page per shard, or cache the reads (DAX)".to_string(),
            ),
            (false, true) => Some(
                "every request reads this one partition: cache it (DAX) or keep copies in several partitions and read one at random".to_string(),
            ),
            (false, false) => None,
        };
    }
    loads.sort_by(|a, b| {
        b.hot.cmp(&a.hot).then_with(|| {
            (a.table.as_str(), &a.index, &a.partition).cmp(&(
                b.table.as_str(),
                &b.index,
                &b.partition,
            ))
        })
    });
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
        sample_only,
        monthly_request_cost: monthly_total - monthly_storage_cost,
        monthly_storage_cost,
        monthly_total,
    }
}

/// The entity sizes by entity name, the first of each name (as a search of the list finds).
struct SizesByName<'a>(HashMap<&'a str, &'a EntitySize>);

impl<'a> SizesByName<'a> {
    fn new(sizes: &'a [EntitySize]) -> SizesByName<'a> {
        let mut by_name = HashMap::with_capacity(sizes.len());
        for size in sizes {
            by_name.entry(size.entity.as_str()).or_insert(size);
        }
        SizesByName(by_name)
    }

    fn of(&self, entity: &str) -> Option<&'a EntitySize> {
        self.0.get(entity).copied()
    }
}

/// Whether [`read_cost`] reads the sample run's item count: only a Query without a page size
/// does (a GetItem reads one item, a paged Query a full page, a Scan the table).
fn reads_sample_count(verdict: &Verdict, pattern: &AccessPattern) -> bool {
    verdict.operation == Operation::Query && pattern.page_size.is_none()
}

fn read_cost(
    by_name: &ByName<'_>,
    verdict: &Verdict,
    pattern: &AccessPattern,
    table_bytes: &HashMap<&str, f64>,
    sizes: &SizesByName<'_>,
    run: Option<&Result<usize, PlanError>>,
    cost: &mut PatternCost,
) {
    let consistency = if pattern.consistent {
        Consistency::Strong
    } else {
        Consistency::Eventual
    };
    let entity = pattern
        .entities
        .first()
        .map(String::as_str)
        .unwrap_or_default();
    let entity_size = sizes.of(entity);
    let table = verdict
        .table
        .clone()
        .or_else(|| by_name.entity(entity).map(|e| e.table.clone()))
        .unwrap_or_default();
    read_units_of(
        verdict,
        pattern,
        &table,
        table_bytes,
        entity_size,
        run,
        consistency,
        cost,
    );
    cost.tables.push(TableUnits {
        table,
        read_units: cost.read_units,
        table_write_units: 0.0,
        index_write_units: 0.0,
    });
}

/// The read units of one request of a read pattern, with where they go.
#[allow(clippy::too_many_arguments)]
fn read_units_of(
    verdict: &Verdict,
    pattern: &AccessPattern,
    table: &str,
    table_bytes: &HashMap<&str, f64>,
    entity_size: Option<&EntitySize>,
    run: Option<&Result<usize, PlanError>>,
    consistency: Consistency,
    cost: &mut PatternCost,
) {
    match verdict.operation {
        Operation::GetItem => {
            let bytes = entity_size.map_or(0, |s| s.average_bytes);
            cost.read_units = read_units(bytes, consistency);
            cost.breakdown.push(format!("1 item of ~{bytes} B"));
        }
        Operation::Query => {
            let index_bytes = match &verdict.index {
                None => entity_size.map_or(0, |s| s.average_bytes),
                Some(index) => entity_size
                    .and_then(|s| s.indexes.iter().find(|(i, _, _)| i == index))
                    .map_or(0, |(_, _, b)| *b),
            };
            let queries = verdict.shards.unwrap_or(1).max(1);
            let items_per_query = match (pattern.page_size, run) {
                (Some(page), _) => f64::from(page),
                (None, Some(Ok(items))) => *items as f64 / f64::from(queries),
                (None, _) => 1.0,
            };
            let bytes = (items_per_query * index_bytes as f64).ceil() as usize;
            let per_query = read_units(bytes, consistency);
            cost.read_units = per_query * f64::from(queries);
            // The sample's count is of the items read, before any filter (issue 16): a
            // filter drops items after DynamoDB has read, and charged for, them.
            let source = if pattern.page_size.is_some() {
                "a full page"
            } else if !pattern.filter.is_empty() {
                "as many as the sample reads, before the filter"
            } else {
                "as many as the sample returns"
            };
            if queries > 1 {
                cost.breakdown.push(format!(
                    "{queries} queries x {per_query} ({} items of ~{index_bytes} B each, {source})",
                    OneDecimal(items_per_query)
                ));
            } else {
                cost.breakdown.push(format!(
                    "{} items of ~{index_bytes} B ({source})",
                    OneDecimal(items_per_query)
                ));
            }
        }
        _ => {
            // A Scan reads every item of the table, one 1 MB page at a time: the items stored
            // (volumes, else the sample's), not only the sample's.
            let bytes = table_bytes.get(table).copied().unwrap_or_default().ceil();
            let pages = (bytes / crate::limits::MAX_PAGE_BYTES as f64)
                .ceil()
                .max(1.0);
            cost.read_units = (bytes / crate::limits::READ_UNIT_BYTES as f64)
                .ceil()
                .max(1.0)
                * consistency.units_per_block();
            cost.breakdown.push(format!(
                "Scan of the whole table: {} in {pages} page(s); grows with the table",
                bytes_text(bytes)
            ));
        }
    }
}

/// A number as `{:.1}` writes it. A whole number (a Query's count of items, the common case)
/// is written as an integer and `.0`, not through the float formatting, which took a thousand
/// instructions for each of the 30,000 Query patterns at 10,000 entities (issue 13).
struct OneDecimal(f64);

impl std::fmt::Display for OneDecimal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let x = self.0;
        // Below 2^53 every whole number is exact, so its integer is the float's value.
        // A negative zero stays with the float formatting, which writes its sign.
        if x.is_sign_positive() && x.fract() == 0.0 && x < 1e15 {
            write!(f, "{}.0", x as u64)
        } else {
            write!(f, "{x:.1}")
        }
    }
}

/// The partition-key template of `entity` for `index` (`None`: the table).
fn partition_template(table: &Table, entity: &Entity, index: Option<&str>) -> Option<KeyTemplate> {
    let key = match index {
        None => table.partition_key.name.clone(),
        Some(name) => match (table.gsi(name), table.lsi(name)) {
            (Some(gsi), _) => gsi.partition_key.first()?.name.clone(),
            (None, Some(_)) => table.partition_key.name.clone(),
            (None, None) => return None,
        },
    };
    entity.key_template(&key).map(|t| t.into_owned())
}

/// Whether every attribute variable of `template` takes few values (by
/// [`crate::concentration::few_values`], the rule KP014 applies too), so that traffic
/// concentrates on few partitions. Returns the partition named with example values and the
/// share of the traffic the busiest one takes (the product of each variable's busiest share).
fn concentrated(entity: Option<&Entity>, template: &KeyTemplate) -> Option<(String, f64)> {
    let mut share = 1.0;
    for var in template.attribute_vars() {
        let attribute = entity.and_then(|e| e.attribute(&var.name))?;
        share *= crate::concentration::few_values(attribute)?.busiest_share();
    }
    let name = template.render(|var| {
        if var.shards.is_some() {
            return Some("0".to_string());
        }
        let attribute = entity.and_then(|e| e.attribute(&var.name));
        Some(match attribute.and_then(|a| a.values.first()) {
            Some(first) => first.clone(),
            None => format!("<{}>", var.name),
        })
    })?;
    Some((name, share))
}

/// Where a load falls: a partition of the table or of one index.
struct Place<'a> {
    table: &'a str,
    index: Option<&'a str>,
    partition: String,
    template: &'a KeyTemplate,
}

/// The partition loads in the order they were first met, with where each one is by its place
/// and which patterns each has, so that adding to one does not search them all.
#[derive(Default)]
struct Loads {
    list: Vec<PartitionLoad>,
    /// By (table, index, partition): the position in `list`.
    at: HashMap<(String, Option<String>, String), usize>,
    /// (position in `list`, pattern) for every pattern a load has.
    patterns: HashSet<(usize, String)>,
}

fn add_load(loads: &mut Loads, place: Place<'_>, pattern: &str, reads: f64, writes: f64) {
    let Place {
        table,
        index,
        partition,
        template,
    } = place;
    let shards = template.shard().and_then(|v| v.shards).unwrap_or(1);
    let key = (table.to_string(), index.map(str::to_string), partition);
    let at = match loads.at.get(&key) {
        Some(&at) => at,
        None => {
            let at = loads.list.len();
            let (_, _, partition) = key.clone();
            loads.at.insert(key, at);
            loads.list.push(PartitionLoad {
                table: table.to_string(),
                index: index.map(str::to_string),
                partition,
                template: template.source().to_string(),
                shards,
                read_units_per_second: 0.0,
                write_units_per_second: 0.0,
                patterns: Vec::new(),
                hot: false,
                shards_needed: 1,
                advice: None,
            });
            at
        }
    };
    let load = &mut loads.list[at];
    load.read_units_per_second += reads;
    load.write_units_per_second += writes;
    if loads.patterns.insert((at, pattern.to_string())) {
        load.patterns.push(pattern.to_string());
    }
}

fn read_loads(
    by_name: &ByName<'_>,
    verdict: &Verdict,
    pattern: &AccessPattern,
    cost: &PatternCost,
    loads: &mut Loads,
) {
    let (Some(table), Some(spec)) = (&verdict.table, &verdict.query) else {
        return;
    };
    let Some(part) = spec.partition.first() else {
        return;
    };
    let entity = pattern.entities.first().and_then(|e| by_name.entity(e));
    if let Some((name, share)) = concentrated(entity, &part.template) {
        // Every request reads every shard: each shard's partition sees the full rate.
        let queries = f64::from(verdict.shards.unwrap_or(1).max(1));
        add_load(
            loads,
            Place {
                table,
                index: verdict.index.as_deref(),
                partition: name,
                template: &part.template,
            },
            &pattern.name,
            pattern.rate * share * cost.read_units / queries,
            0.0,
        );
    }
}

/// The write steps of a pattern: its own action, or a transaction's steps.
fn steps(pattern: &AccessPattern) -> Vec<WriteStep> {
    if pattern.action == Action::Transact {
        return pattern.writes.clone();
    }
    pattern
        .entities
        .iter()
        .map(|entity| WriteStep {
            action: pattern.action,
            entity: entity.clone(),
            count: 1,
            condition: pattern.condition.clone(),
            changes: pattern.changes.clone(),
        })
        .collect()
}

fn write_cost(
    design: &Design,
    by_name: &ByName<'_>,
    pattern: &AccessPattern,
    sizes: &SizesByName<'_>,
    cost: &mut PatternCost,
    loads: &mut Loads,
) {
    let factor = if pattern.action == Action::Transact {
        2.0
    } else {
        1.0
    };
    for step in steps(pattern) {
        let Some(entity) = by_name.entity(&step.entity) else {
            cost.breakdown
                .push(format!("{}: no such entity", step.entity));
            continue;
        };
        let Some(table) = design.table(&entity.table) else {
            continue;
        };
        let size = sizes.of(&entity.name);
        let bytes = size.map_or(0, |s| s.average_bytes);
        let count = f64::from(step.count);
        let verb = match step.action {
            Action::Put => "put",
            Action::Update => "update",
            Action::Delete => "delete",
            _ => "write",
        };
        let table_units = write_units(bytes) as f64 * count * factor;
        cost.write_units += table_units;
        add_table_units(cost, &table.name, table_units, 0.0);
        let times = if step.count > 1 {
            format!("{} x ", step.count)
        } else {
            String::new()
        };
        cost.breakdown.push(format!(
            "{verb} {times}{} in {}: {table_units}",
            entity.name, table.name
        ));
        add_write_load(loads, table, entity, None, pattern, table_units);
        for (index, share, projected) in size.map_or(&[][..], |s| &s.indexes[..]) {
            let key_vars = index_key_vars(table, entity, index);
            let projection = index_projection(table, index);
            let (writes, why) = match step.action {
                Action::Update if step.changes.iter().any(|c| key_vars.contains(c)) => {
                    let changed: Vec<&str> = step
                        .changes
                        .iter()
                        .filter(|c| key_vars.contains(*c))
                        .map(String::as_str)
                        .collect();
                    (
                        2.0,
                        format!(" (delete+put: {} changes its key)", changed.join(", ")),
                    )
                }
                Action::Update
                    if !step.changes.is_empty()
                        && !step.changes.iter().any(|c| projects(&projection, c)) =>
                {
                    (0.0, " (changes nothing it projects)".to_string())
                }
                _ => (1.0, String::new()),
            };
            let units = write_units(*projected) as f64 * writes * share * count * factor;
            if units == 0.0 && why.is_empty() {
                continue;
            }
            cost.write_units += units;
            add_table_units(cost, &table.name, 0.0, units);
            let share_note = if *share < 1.0 {
                format!(", {:.0}% of items", share * 100.0)
            } else {
                String::new()
            };
            cost.breakdown
                .push(format!("{index}: {units}{why}{share_note}"));
            add_write_load(loads, table, entity, Some(index), pattern, units);
        }
    }
}

/// Adds write units of one request to `table`'s entry in `cost.tables`.
fn add_table_units(cost: &mut PatternCost, table: &str, table_writes: f64, index_writes: f64) {
    match cost.tables.iter_mut().find(|t| t.table == table) {
        Some(units) => {
            units.table_write_units += table_writes;
            units.index_write_units += index_writes;
        }
        None => cost.tables.push(TableUnits {
            table: table.to_string(),
            read_units: 0.0,
            table_write_units: table_writes,
            index_write_units: index_writes,
        }),
    }
}

/// Adds a write pattern's load on the partition `entity` writes in `index` (`None`: the
/// table), when its key concentrates traffic; a write-sharded key spreads it over its shards.
fn add_write_load(
    loads: &mut Loads,
    table: &Table,
    entity: &Entity,
    index: Option<&str>,
    pattern: &AccessPattern,
    units: f64,
) {
    if let Some(template) = partition_template(table, entity, index)
        && let Some((name, share)) = concentrated(Some(entity), &template)
    {
        let shards = f64::from(template.shard().and_then(|v| v.shards).unwrap_or(1));
        add_load(
            loads,
            Place {
                table: &table.name,
                index,
                partition: name,
                template: &template,
            },
            &pattern.name,
            0.0,
            pattern.rate * share * units / shards,
        );
    }
}

/// The attribute variables (and attribute names) behind `index`'s keys for `entity`.
fn index_key_vars(table: &Table, entity: &Entity, index: &str) -> Vec<String> {
    let keys: Vec<String> = match (table.gsi(index), table.lsi(index)) {
        (Some(gsi), _) => gsi
            .partition_key
            .iter()
            .chain(&gsi.sort_key)
            .map(|k| k.name.clone())
            .collect(),
        (None, Some(lsi)) => vec![lsi.sort_key.name.clone()],
        _ => Vec::new(),
    };
    let mut out = keys.clone();
    for key in keys {
        if let Some(template) = entity.key_template(&key) {
            out.extend(template.attribute_vars().map(|v| v.name.clone()));
        }
    }
    out
}

fn index_projection(table: &Table, index: &str) -> Projection {
    match (table.gsi(index), table.lsi(index)) {
        (Some(gsi), _) => gsi.projection.clone(),
        (None, Some(lsi)) => lsi.projection.clone(),
        _ => Projection::All,
    }
}

fn projects(projection: &Projection, attribute: &str) -> bool {
    match projection {
        Projection::All => true,
        Projection::KeysOnly => false,
        Projection::Include { attributes } => attributes.iter().any(|a| a == attribute),
    }
}

fn storage(design: &Design, sizes: &[EntitySize], config: &CostConfig) -> Vec<StorageCost> {
    let mut out: Vec<StorageCost> = Vec::new();
    let overhead = ITEM_STORAGE_OVERHEAD_BYTES as f64;
    let mut add = |table: &str, index: Option<&str>, items: f64, bytes: f64| match out
        .iter_mut()
        .find(|s| s.table == table && s.index.as_deref() == index)
    {
        Some(s) => {
            s.items += items;
            s.bytes += bytes;
        }
        None => out.push(StorageCost {
            table: table.to_string(),
            index: index.map(str::to_string),
            items,
            bytes,
            monthly_cost: 0.0,
        }),
    };
    for table in &design.tables {
        add(&table.name, None, 0.0, 0.0);
    }
    for size in sizes {
        let count = size.items;
        add(
            &size.table,
            None,
            count,
            count * (size.average_bytes as f64 + overhead),
        );
        for (index, share, projected) in &size.indexes {
            let entries = count * share;
            add(
                &size.table,
                Some(index),
                entries,
                entries * (*projected as f64 + overhead),
            );
        }
    }
    for s in &mut out {
        s.monthly_cost = s.bytes / BYTES_PER_GB * config.prices.standard.per_gb_month;
    }
    out
}

/// Every table's bill under every billing mode and table class, from the patterns' units, their
/// average and peak rates, and the storage.
fn billing(
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
                crate::model::Billing::Provisioned { read, write } => {
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
        });
    }
    out
}

/// `x` rounded to `digits` decimals, for the words of an explanation.
fn round_to(x: f64, digits: i32) -> f64 {
    let scale = 10f64.powi(digits);
    (x * scale).round() / scale
}

/// A byte count in the largest unit that keeps it at least 1: `812 B`, `4.1 TB` (binary units).
pub fn bytes_text(bytes: f64) -> String {
    const UNITS: [&str; 5] = ["B", "KB", "MB", "GB", "TB"];
    let mut value = bytes;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{value:.0} B")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

impl CostReport {
    /// The report as a plain-text table, for the CLI and for tests.
    pub fn to_table(&self) -> String {
        let mut out = self.patterns_text();
        out.push_str(&self.storage_text());
        out.push_str(&self.billing_text());
        out.push_str(&self.partitions_text());
        out
    }

    /// Each pattern's units and on-demand cost, with where its units go.
    pub fn patterns_text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{:<36} {:<18} {:>8} {:>8} {:>8} {:>8} {:>12}",
            "pattern", "operation", "peak/s", "avg/s", "RCU/req", "WCU/req", "$/month"
        );
        for p in &self.patterns {
            let _ = writeln!(
                out,
                "{:<36} {:<18} {:>8} {:>8} {:>8} {:>8} {:>12}",
                truncate(&p.pattern, 36),
                p.operation,
                p.rate,
                round_to(p.average_rate, 2),
                p.read_units,
                p.write_units,
                grouped(p.monthly_cost, 2)
            );
            for line in &p.breakdown {
                let _ = writeln!(out, "    {line}");
            }
        }
        out
    }

    /// The storage of every table and index, and the on-demand headline.
    pub fn storage_text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "storage:");
        for s in &self.storage {
            let name = match &s.index {
                Some(i) => format!("{}/{i}", s.table),
                None => s.table.clone(),
            };
            let _ = writeln!(
                out,
                "    {:<30} {:>12.0} items {:>10} {:>12.2}",
                name,
                s.items,
                bytes_text(s.bytes),
                s.monthly_cost
            );
        }
        if let Some(note) = self.sample_only_note() {
            let _ = writeln!(out, "    {note}");
        }
        let _ = writeln!(
            out,
            "monthly, on-demand, Standard, {}: requests {} + storage {} = {} (30-day month)",
            self.prices.region,
            dollars(self.monthly_request_cost, 2),
            dollars(self.monthly_storage_cost, 2),
            dollars(self.monthly_total, 2)
        );
        out
    }

    /// Every table's billing modes side by side, each with its arithmetic.
    pub fn billing_text(&self) -> String {
        let mut out = String::new();
        for table in &self.billing {
            let _ = writeln!(out, "{}", table.heading());
            let cells = Mode::ALL.map(|mode| {
                (
                    table.cell(mode, TableClass::Standard),
                    table.cell(mode, TableClass::StandardInfrequentAccess),
                )
            });
            // Fourteen places hold up to $9,999,999.99; a larger bill widens its column.
            let width = |cell: fn(&(String, String)) -> &String| {
                cells
                    .iter()
                    .map(|c| cell(c).len())
                    .max()
                    .unwrap_or(0)
                    .max(14)
            };
            let (w1, w2) = (width(|c| &c.0), width(|c| &c.1));
            let _ = writeln!(
                out,
                "    {:<30} {:>w1$} {:>w2$}",
                "mode", "Standard", "Standard-IA"
            );
            for (mode, (standard, infrequent)) in Mode::ALL.into_iter().zip(&cells) {
                let _ = writeln!(
                    out,
                    "    {:<30} {standard:>w1$} {infrequent:>w2$}",
                    mode.label()
                );
                for line in table.notes(mode) {
                    let _ = writeln!(out, "        {line}");
                }
            }
            let _ = writeln!(out, "    {}", table.break_even_note());
        }
        out
    }

    /// The partitions a key concentrates traffic on, hot or not.
    pub fn partitions_text(&self) -> String {
        let mut out = String::new();
        if !self.partitions.is_empty() {
            let _ = writeln!(out, "partitions (per partition, per second):");
        }
        for l in &self.partitions {
            let place = match &l.index {
                Some(i) => format!("{}/{i}", l.table),
                None => l.table.clone(),
            };
            let verdict = match (&l.advice, l.hot) {
                (Some(advice), true) => format!("HOT: {advice}"),
                _ => "ok".to_string(),
            };
            let _ = writeln!(
                out,
                "    {place} {} ({}): {:.1} RCU/s, {:.1} WCU/s: {verdict} [{}]",
                l.partition,
                l.template,
                l.read_units_per_second,
                l.write_units_per_second,
                l.patterns.join(", ")
            );
        }
        out
    }
}

impl CostReport {
    /// What the report says when some entities' stored items are the sample's.
    pub fn sample_only_note(&self) -> Option<String> {
        (!self.sample_only.is_empty()).then(|| {
            format!(
                "sample items only for {}: give each a volume (\"volume\": {{ \"items\": N }}) or --stored ENTITY=N for a real storage figure",
                self.sample_only.join(", ")
            )
        })
    }

    /// The report as Markdown: the billing modes of every table side by side, then the
    /// patterns, for a pull request or a design document.
    pub fn to_markdown(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "## Monthly cost ({}, 30-day month)\n",
            self.prices.region
        );
        for table in &self.billing {
            let _ = writeln!(out, "### {}\n", table.heading().trim_end_matches(':'));
            let _ = writeln!(out, "| mode | Standard | Standard-IA | why |");
            let _ = writeln!(out, "|---|---:|---:|---|");
            for mode in Mode::ALL {
                let _ = writeln!(
                    out,
                    "| {} | {} | {} | {} |",
                    mode.label(),
                    table.cell(mode, TableClass::Standard),
                    table.cell(mode, TableClass::StandardInfrequentAccess),
                    table.notes(mode).join("; ")
                );
            }
            let _ = writeln!(out, "\n{}\n", table.break_even_note());
        }
        if let Some(note) = self.sample_only_note() {
            let _ = writeln!(out, "Storage: {note}.\n");
        }
        let _ = writeln!(out, "### Access patterns (on-demand, Standard)\n");
        let _ = writeln!(
            out,
            "| pattern | operation | peak/s | avg/s | RCU/req | WCU/req | $/month |"
        );
        let _ = writeln!(out, "|---|---|---:|---:|---:|---:|---:|");
        for p in &self.patterns {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} | {} |",
                p.pattern.replace('|', "\\|"),
                p.operation,
                p.rate,
                round_to(p.average_rate, 2),
                p.read_units,
                p.write_units,
                dollars(p.monthly_cost, 2)
            );
        }
        out
    }
}

impl TableBilling {
    /// The monthly cost of `mode` in `class` as a report shows it: `$1,234.56`, `-` when the mode
    /// is not offered.
    pub fn cell(&self, mode: Mode, class: TableClass) -> String {
        self.monthly(mode, class)
            .map_or_else(|| "-".to_string(), |x| dollars(x, 2))
    }

    /// `orders (on-demand; us-east-1 + eu-west-1):`
    pub fn heading(&self) -> String {
        format!(
            "billing modes, table {} (the design's: {}; {}):",
            self.table,
            self.billing,
            self.regions.join(" + ")
        )
    }

    /// Why `mode` costs what it does: the Standard class's arithmetic, the break-even of a
    /// reservation, and Standard-IA's when it is offered.
    pub fn notes(&self, mode: Mode) -> Vec<String> {
        let mut notes = Vec::new();
        if let Some(standard) = self
            .modes
            .iter()
            .find(|m| m.mode == mode && m.class == TableClass::Standard)
        {
            notes.push(standard.why.clone());
            if let Some(months) = standard.break_even_months {
                notes.push(format!(
                    "pays for itself after {:.1} months against capacity bought by the hour",
                    months
                ));
            }
        }
        notes
    }

    /// When provisioned capacity is cheaper than on-demand.
    pub fn break_even_note(&self) -> String {
        format!(
            "provisioned is cheaper than on-demand when its capacity is more than {:.0}% used on average (fixed at the peak, it would be {:.0}% used; auto scaling aims at {:.0}%)",
            self.break_even_utilization * 100.0,
            self.peak_capacity_use * 100.0,
            self.target_utilization * 100.0
        )
    }
}

fn truncate(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        text.to_string()
    } else {
        let mut t: String = text.chars().take(width - 1).collect();
        t.push('…');
        t
    }
}

#[cfg(test)]
mod tests;
