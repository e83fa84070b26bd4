//! Capacity and cost: item sizes, read and write units per access pattern, the monthly
//! on-demand bill, and a per-partition throughput check.
//!
//! Everything is computed from the design, its coverage verdicts and a [`Store`] of sample
//! items (for average item sizes and for how many items each read returns); prices are
//! parameters ([`Prices`], defaulting to us-east-1 on-demand). Nothing here does IO.
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
//!   100 bytes, for the item counts given (default: the sample's);
//! - the partition check: a partition key built only from a constant, an enum or a date takes a
//!   pattern's whole rate on one partition (one shard's share when write-sharded; every shard
//!   takes the full rate of a scatter-gather read), one built from `distinct: N` hints 1/N of
//!   it; over 3,000 read or 1,000 write units per second it is hot, and the write shards that
//!   would cool it are named.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::Write as _;

use serde::Serialize;

use crate::analysis::{Operation, Verdict};
use crate::eval::{PlanError, Store, TableStore, count_one};
use crate::limits::{
    ITEM_STORAGE_OVERHEAD_BYTES, PARTITION_READ_UNITS_PER_SECOND, PARTITION_WRITE_UNITS_PER_SECOND,
    Prices,
};
use crate::model::{AccessPattern, Action, ByName, Design, Entity, Projection, Table, WriteStep};
use crate::template::KeyTemplate;

pub use crate::size::{
    Consistency, attribute_size, item_size, number_size, read_units, value_size, write_units,
};

/// Seconds in the 30-day month the monthly figures use.
pub const MONTH_SECONDS: f64 = 30.0 * 86_400.0;
/// Bytes in a GB of storage.
pub const BYTES_PER_GB: f64 = 1_073_741_824.0;

/// What the estimate assumes beyond the design.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CostConfig {
    pub prices: Prices,
    /// Items stored per entity, for storage; entities not named use the sample's count.
    pub counts: BTreeMap<String, u64>,
}

/// The average size of an entity's items in the table and in each index.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EntitySize {
    pub entity: String,
    pub table: String,
    /// Sample items of the entity.
    pub samples: usize,
    /// Average item size in bytes (rounded up).
    pub average_bytes: usize,
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
    /// Read units one request consumes.
    pub read_units: f64,
    /// Write units one request consumes, all indexes included.
    pub write_units: f64,
    /// Where the units go: `table 1`, `GSI1 2 (delete+put: status)`, `8 queries x 0.5`.
    pub breakdown: Vec<String>,
    pub monthly_read_units: f64,
    pub monthly_write_units: f64,
    pub monthly_cost: f64,
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
    pub monthly_request_cost: f64,
    pub monthly_storage_cost: f64,
    pub monthly_total: f64,
}

/// Sizes of the entity in the table and each index, from the store. Each secondary index is
/// walked once, entity by entity, instead of looked up for every entity (issue 13).
fn entity_sizes(design: &Design, store: &Store) -> Vec<EntitySize> {
    let mut out: Vec<EntitySize> = Vec::with_capacity(design.entities.len());
    // Per table name: the positions in `out` of its entities with samples, by entity name.
    let mut sampled: BTreeMap<&str, HashMap<&str, Vec<usize>>> = BTreeMap::new();
    for entity in &design.entities {
        let mut size = EntitySize {
            entity: entity.name.clone(),
            table: entity.table.clone(),
            samples: 0,
            average_bytes: 0,
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
        out.push(size);
    }
    for (table_name, entities) in &sampled {
        let Some(table) = store.table(table_name) else {
            continue;
        };
        for index in table.indexes().iter().skip(1) {
            for (name, entries, bytes) in table.projected_totals(index) {
                for &at in entities.get(name).map_or(&[][..], Vec::as_slice) {
                    let samples = out[at].samples;
                    out[at].indexes.push((
                        index.name.clone().unwrap_or_default(),
                        entries as f64 / samples as f64,
                        bytes.div_ceil(entries),
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

/// Estimates the cost of `design` with the sample in `store` and the coverage `verdicts`.
pub fn estimate(
    design: &Design,
    verdicts: &[Verdict],
    store: &Store,
    config: &CostConfig,
) -> CostReport {
    let sizes = entity_sizes(design, store);
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
    let sizes_by_name = SizesByName::new(&sizes);
    let prices = config.prices;
    let mut patterns = Vec::new();
    let mut loads = Loads::default();
    for verdict in verdicts {
        let Some(pattern) = by_name.pattern(&verdict.pattern) else {
            continue;
        };
        let mut cost = PatternCost {
            pattern: pattern.name.clone(),
            operation: verdict.operation.as_str(),
            rate: pattern.rate,
            read_units: 0.0,
            write_units: 0.0,
            breakdown: Vec::new(),
            monthly_read_units: 0.0,
            monthly_write_units: 0.0,
            monthly_cost: 0.0,
        };
        if pattern.is_read() {
            let run = if reads_sample_count(verdict, pattern) {
                counted
                    .get(pattern.name.as_str())
                    .map(|counted| count_one(&by_name, design, store, counted))
            } else {
                None
            };
            read_cost(
                &by_name,
                verdict,
                pattern,
                store,
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
        cost.monthly_read_units = cost.read_units * pattern.rate * MONTH_SECONDS;
        cost.monthly_write_units = cost.write_units * pattern.rate * MONTH_SECONDS;
        cost.monthly_cost = cost.monthly_read_units / 1e6 * prices.per_million_read_units
            + cost.monthly_write_units / 1e6 * prices.per_million_write_units;
        patterns.push(cost);
    }
    let storage = storage(design, &sizes, config);
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
    let monthly_request_cost = patterns.iter().map(|p| p.monthly_cost).sum();
    let monthly_storage_cost = storage.iter().map(|s| s.monthly_cost).sum();
    CostReport {
        prices,
        month_seconds: MONTH_SECONDS,
        entities: sizes,
        patterns,
        storage,
        partitions: loads,
        monthly_request_cost,
        monthly_storage_cost,
        monthly_total: monthly_request_cost + monthly_storage_cost,
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
    store: &Store,
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
                    "{queries} queries x {per_query} ({items_per_query:.1} items of ~{index_bytes} B each, {source})"
                ));
            } else {
                cost.breakdown.push(format!(
                    "{items_per_query:.1} items of ~{index_bytes} B ({source})"
                ));
            }
        }
        _ => {
            // A Scan reads every item of the table, one 1 MB page at a time.
            let table = verdict
                .table
                .clone()
                .or_else(|| by_name.entity(entity).map(|e| e.table.clone()))
                .unwrap_or_default();
            let bytes = store.table(&table).map_or(0, TableStore::bytes);
            let pages = bytes.div_ceil(crate::limits::MAX_PAGE_BYTES).max(1);
            cost.read_units = bytes.div_ceil(crate::limits::READ_UNIT_BYTES).max(1) as f64
                * consistency.units_per_block();
            cost.breakdown.push(format!(
                "Scan of the whole table: {bytes} B of samples in {pages} page(s); grows with the table"
            ));
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
        let count = config
            .counts
            .get(&size.entity)
            .map_or(size.samples as f64, |&n| n as f64);
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
        s.monthly_cost = s.bytes / BYTES_PER_GB * config.prices.per_gb_month;
    }
    out
}

impl CostReport {
    /// The report as a plain-text table, for the CLI and for tests.
    pub fn to_table(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{:<36} {:<18} {:>8} {:>8} {:>8} {:>12}",
            "pattern", "operation", "rate/s", "RCU/req", "WCU/req", "$/month"
        );
        for p in &self.patterns {
            let _ = writeln!(
                out,
                "{:<36} {:<18} {:>8} {:>8} {:>8} {:>12.2}",
                truncate(&p.pattern, 36),
                p.operation,
                p.rate,
                p.read_units,
                p.write_units,
                p.monthly_cost
            );
            for line in &p.breakdown {
                let _ = writeln!(out, "    {line}");
            }
        }
        let _ = writeln!(out, "storage:");
        for s in &self.storage {
            let name = match &s.index {
                Some(i) => format!("{}/{i}", s.table),
                None => s.table.clone(),
            };
            let _ = writeln!(
                out,
                "    {:<30} {:>10.0} items {:>14.0} B {:>12.4}",
                name, s.items, s.bytes, s.monthly_cost
            );
        }
        let _ = writeln!(
            out,
            "monthly: requests ${:.2} + storage ${:.4} = ${:.2} (30-day month)",
            self.monthly_request_cost, self.monthly_storage_cost, self.monthly_total
        );
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
