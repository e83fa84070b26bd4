//! How many items each step of a migration touches and what it costs: item counts and sizes
//! per entity (from `--items`, the volumes, else the sample's mean size), and each step's
//! reads and writes with their arithmetic in words. An entity whose figures do not fit in 64
//! bits is counted as too large, never wrapped around (issue 41).

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};

use super::{Phase, PlanConfig, Step, StepKind, in_gsi, units};
use crate::model::{Design, Entity, Table};
use crate::sample::{self, thousands};
use crate::size::{Consistency, item_size, mean_item_bytes, read_units_estimated, write_units};

/// Reads and writes, in units, with their arithmetic in words.
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct Work {
    items: Option<u64>,
    read_units: f64,
    write_units: f64,
    units: Vec<String>,
    /// Entities of the step whose figures are too large to count ([`Sizes::too_large`]).
    too_large: Vec<String>,
}

impl Work {
    /// The step of an entity whose figures are too large to count.
    pub(super) fn too_large(e: &Entity) -> Work {
        Work {
            too_large: vec![e.name.clone()],
            ..Work::default()
        }
    }

    pub(super) fn add(mut self, other: Work) -> Work {
        // Saturating, though [`Sizes::of`] keeps every sum of counted entities within u64.
        self.items = match (self.items, other.items) {
            (Some(a), Some(b)) => Some(a.saturating_add(b)),
            (a, None) => a,
            (None, b) => b,
        };
        self.read_units += other.read_units;
        self.write_units += other.write_units;
        self.units.extend(other.units);
        self.too_large.extend(other.too_large);
        self
    }
}

/// How the `units` of a step whose figures are too large to count start.
pub(super) const TOO_LARGE: &str = "too large to count";

/// An entity's mean item size when neither a volume nor the sample gives one.
const DEFAULT_ITEM_BYTES: u64 = 1024;

/// Item counts and sizes per entity.
pub(super) struct Sizes<'a> {
    config: &'a PlanConfig,
    /// Items per entity, when known and countable.
    items: BTreeMap<String, u64>,
    /// Entities whose figures do not fit in 64 bits (issue 41: `--items` near `u64::MAX`
    /// panicked in a debug build and wrapped around in a release one), with their count and
    /// size in words; their steps count nothing and say so.
    pub(super) too_large: BTreeMap<String, String>,
    /// Mean item bytes per entity.
    bytes: BTreeMap<String, u64>,
    /// GSIs each entity's items are in, in the new design.
    indexes: BTreeMap<String, usize>,
    /// The entities whose items a step has counted so far, known or not
    /// ([`super::MigrationPlan::counted`]).
    asked: RefCell<BTreeSet<String>>,
}

impl<'a> Sizes<'a> {
    pub(super) fn of(old: &Design, new: &Design, config: &'a PlanConfig) -> Sizes<'a> {
        let mut items = BTreeMap::new();
        let mut bytes = BTreeMap::new();
        // The open design's volume (what a person last said), else the deployed one's.
        for e in new.entities.iter().chain(&old.entities) {
            if let Some(v) = &e.volume {
                items.entry(e.name.clone()).or_insert(v.items);
                if let Some(item_bytes) = v.item_bytes {
                    bytes.entry(e.name.clone()).or_insert(item_bytes);
                }
            }
        }
        items.extend(config.items.clone());
        // Sizes the volumes do not give: the mean of the new design's sample, then of the
        // old one's (for entities the new design drops).
        for design in [new, old] {
            let (sample, _) = sample::sizing_sample(design);
            let mut sums: BTreeMap<&str, (u64, u64)> = BTreeMap::new();
            for item in &sample.items {
                if let Some(entity) = &item.entity {
                    let s = sums.entry(entity.as_str()).or_default();
                    s.0 += item_size(&item.item) as u64;
                    s.1 += 1;
                }
            }
            for (entity, (total, n)) in sums {
                bytes
                    .entry(entity.to_string())
                    .or_insert(mean_item_bytes(total, n));
            }
        }
        // GSIs an entity's items are in: in the new design, else (dropped) in the old one.
        let mut indexes = BTreeMap::new();
        for design in [new, old] {
            for e in &design.entities {
                let n = design
                    .table(&e.table)
                    .map_or(0, |t| t.gsis.iter().filter(|g| in_gsi(e, g)).count());
                indexes.entry(e.name.clone()).or_insert(n);
            }
        }
        let too_large = countable(old, new, &mut items, &bytes, &indexes);
        Sizes {
            config,
            items,
            too_large,
            bytes,
            indexes,
            asked: RefCell::default(),
        }
    }

    /// Notes that a step counts the items of `entity`.
    fn ask(&self, entity: &str) {
        if !self.asked.borrow().contains(entity) {
            self.asked.borrow_mut().insert(entity.to_string());
        }
    }

    /// The entities whose items the steps counted, by name.
    pub(super) fn asked(&self) -> Vec<String> {
        self.asked.borrow().iter().cloned().collect()
    }

    /// The items of `entities` together, for a step on all of them: `None` when one's volume
    /// is unknown.
    pub(super) fn count(&self, entities: &[&Entity]) -> Work {
        for e in entities {
            self.ask(&e.name);
        }
        let items = entities.iter().try_fold(0u64, |sum, e| {
            Some(sum.saturating_add(*self.items.get(&e.name)?))
        });
        Work {
            items,
            too_large: entities
                .iter()
                .filter(|e| self.too_large.contains_key(&e.name))
                .map(|e| e.name.clone())
                .collect(),
            ..Work::default()
        }
    }

    fn bytes(&self, e: &Entity) -> u64 {
        self.bytes
            .get(&e.name)
            .copied()
            .unwrap_or(DEFAULT_ITEM_BYTES)
    }

    /// Half a read unit per 4 KB of the entity's items, as a Scan reads them.
    fn scan(&self, e: &Entity, n: u64) -> (f64, String) {
        let bytes = n.saturating_mul(self.bytes(e));
        let units = read_units_estimated(bytes as f64, Consistency::Eventual);
        (
            units,
            format!(
                "Scan {} x {} B = {} RRU",
                thousands(n),
                self.bytes(e),
                self::units(units)
            ),
        )
    }

    /// An UpdateItem per item (`writes` per item) and one write per GSI it is in.
    pub(super) fn update(&self, e: &Entity, writes: u64) -> Work {
        let n = match self.counted(e) {
            Ok(n) => n,
            Err(work) => return work,
        };
        let (reads, scan) = self.scan(e, n);
        let per_item = self.write_units(e).saturating_mul(writes);
        let indexes = self.indexes.get(&e.name).copied().unwrap_or(0) as u64;
        let w = n.saturating_mul(per_item.saturating_add(indexes)) as f64;
        Work {
            items: Some(n),
            read_units: reads,
            write_units: w,
            units: vec![format!(
                "{scan}; {} items x ({per_item} WRU + {indexes} GSI writes) = {} WRU",
                thousands(n),
                self::units(w)
            )],
            too_large: Vec::new(),
        }
    }

    /// The entity's item count, or the work of a step that cannot count it: too large, or of
    /// an unknown volume.
    fn counted(&self, e: &Entity) -> Result<u64, Work> {
        self.ask(&e.name);
        if self.too_large.contains_key(&e.name) {
            return Err(Work::too_large(e));
        }
        self.items.get(&e.name).copied().ok_or_else(Work::default)
    }

    /// Write units of one of the entity's items.
    fn write_units(&self, e: &Entity) -> u64 {
        item_write_units(self.bytes(e))
    }

    /// A PutItem at the new key and a DeleteItem of the old, per item.
    pub(super) fn copy(&self, e: &Entity) -> Work {
        self.update(e, 2)
    }

    /// A DeleteItem per item.
    pub(super) fn delete(&self, e: &Entity) -> Work {
        self.update(e, 1)
    }

    /// What DynamoDB writes into a new GSI it backfills: one write per item.
    pub(super) fn index_writes(&self, e: &Entity) -> Work {
        let n = match self.counted(e) {
            Ok(n) => n,
            Err(work) => return work,
        };
        let per_item = self.write_units(e);
        let w = n.saturating_mul(per_item) as f64;
        Work {
            items: Some(n),
            read_units: 0.0,
            write_units: w,
            units: vec![format!(
                "{} backfill: {n} x {per_item} WRU = {w} WRU",
                e.name
            )],
            too_large: Vec::new(),
        }
    }

    /// What DynamoDB replicates into a new vector index it backfills: the entity's vectors of
    /// `vector_bytes` each, metered in vector write bytes, which have no published price
    /// ([`crate::pricing::VECTOR_NOT_PRICED`]): no write units, no cost.
    pub(super) fn vector_writes(&self, e: &Entity, vector_bytes: u64) -> Work {
        let n = match self.counted(e) {
            Ok(n) => n,
            Err(work) => return work,
        };
        Work {
            items: Some(n),
            read_units: 0.0,
            write_units: 0.0,
            units: vec![format!(
                "{} backfill: {} vectors x {} B = {} vector write bytes, {}",
                e.name,
                thousands(n),
                thousands(vector_bytes),
                thousands(n.saturating_mul(vector_bytes)),
                crate::pricing::VECTOR_NOT_PRICED
            )],
            too_large: Vec::new(),
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn step(
        &self,
        phase: Phase,
        kind: StepKind,
        table: &Table,
        index: Option<&str>,
        entity: Option<&str>,
        action: String,
        why: String,
        work: Work,
    ) -> Step {
        let mut too_large: Vec<&str> = work.too_large.iter().map(String::as_str).collect();
        too_large.extend(entity.filter(|e| self.too_large.contains_key(*e)));
        too_large.sort_unstable();
        too_large.dedup();
        if let Some(e) = entity {
            self.ask(e);
        }
        let unknown = entity.is_some_and(|e| !self.items.contains_key(e));
        // A step with an entity too large to count counts nothing, not a part of itself.
        let (items, work_units, units) = if !too_large.is_empty() {
            let counts: Vec<String> = too_large
                .iter()
                .map(|e| format!("{e}: {}", self.too_large[*e]))
                .collect();
            let units = format!("{TOO_LARGE} ({})", counts.join("; "));
            (None, (0.0, 0.0), units)
        } else if unknown {
            let units = "volume unknown: give --items ENTITY=N".to_string();
            (None, (work.read_units, work.write_units), units)
        } else {
            let units = work.units.join("; ");
            (
                work.items.or(Some(0)),
                (work.read_units, work.write_units),
                units,
            )
        };
        let (read_units, write_units) = work_units;
        let prices = &self.config.prices.standard;
        Step {
            phase,
            kind,
            table: table.name.clone(),
            index: index.map(str::to_string),
            entity: entity.map(str::to_string),
            action,
            why,
            items,
            read_units,
            write_units,
            cost: write_units / 1e6 * prices.per_million_write_units
                + read_units / 1e6 * prices.per_million_read_units,
            seconds: write_units / self.config.max_wcu.max(1.0),
            units,
            vector: false,
        }
    }

    pub(super) fn unknown(&self, old: &Design, new: &Design) -> Vec<String> {
        let mut names: Vec<String> = old
            .entities
            .iter()
            .chain(&new.entities)
            .filter(|e| !self.items.contains_key(&e.name) && !self.too_large.contains_key(&e.name))
            .map(|e| e.name.clone())
            .collect();
        names.sort();
        names.dedup();
        names
    }
}

/// Write units of one item of `bytes` bytes (all of them, on a target whose `usize` is smaller).
fn item_write_units(bytes: u64) -> u64 {
    write_units(usize::try_from(bytes).unwrap_or(usize::MAX))
}

/// Takes out of `items` every entity of `old` or `new` whose figures do not fit in 64 bits, and
/// returns them with their count and size in words. What is checked bounds every sum a step or
/// the plan makes in integers: the bytes all counted entities' items hold (a Scan reads them),
/// and the write units of copying them all (two writes of each item, one per GSI it is in).
fn countable(
    old: &Design,
    new: &Design,
    items: &mut BTreeMap<String, u64>,
    bytes: &BTreeMap<String, u64>,
    indexes: &BTreeMap<String, usize>,
) -> BTreeMap<String, String> {
    let mut too_large = BTreeMap::new();
    let (mut all_items, mut all_bytes, mut all_writes) = (0u64, 0u64, 0u64);
    let names: std::collections::BTreeSet<&str> = old
        .entities
        .iter()
        .chain(&new.entities)
        .map(|e| e.name.as_str())
        .collect();
    for name in names {
        let Some(&n) = items.get(name) else {
            continue;
        };
        let item_bytes = bytes.get(name).copied().unwrap_or(DEFAULT_ITEM_BYTES);
        let gsis = indexes.get(name).copied().unwrap_or(0) as u64;
        let sums = (|| {
            let writes_per_item = item_write_units(item_bytes)
                .checked_mul(2)?
                .checked_add(gsis)?;
            Some((
                all_items.checked_add(n)?,
                all_bytes.checked_add(n.checked_mul(item_bytes)?)?,
                all_writes.checked_add(n.checked_mul(writes_per_item)?)?,
            ))
        })();
        match sums {
            Some(sums) => (all_items, all_bytes, all_writes) = sums,
            None => {
                items.remove(name);
                too_large.insert(
                    name.to_string(),
                    format!(
                        "{} items of {} B, past the {} bytes or write units keyplan counts",
                        thousands(n),
                        thousands(item_bytes),
                        thousands(u64::MAX)
                    ),
                );
            }
        }
    }
    too_large
}
