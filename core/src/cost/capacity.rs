//! The capacity a table is given (`billing: provisioned`, issue 40): what the table and each
//! GSI cost as given, and where the patterns' peak load is over what they can serve. One
//! capacity model: the units are the ones [`super::units`] gives each request, the partitions
//! the ones [`super::partitions`] loads; this module only sets them against the capacity given.
//!
//! The rules, each from the developer guide:
//! - a GSI of a provisioned table has capacity of its own, and a read through it or a write
//!   that lands in it takes that capacity; an LSI shares the table's
//!   (<https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html#GSI.ThroughputConsiderations>);
//! - "if a global secondary index has insufficient write capacity, table writes will be
//!   throttled": a GSI's write throttling holds back the table's writes, its read throttling
//!   does not (the same page, and AWS's knowledge-center article "Why is my GSI throttling my
//!   table?", <https://repost.aws/knowledge-center/dynamodb-gsi-throttling-table>);
//! - a request over a table's or a GSI's provisioned capacity is throttled
//!   (`TableWriteProvisionedThroughputExceeded`, `IndexWriteProvisionedThroughputExceeded`...,
//!   <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/troubleshooting-throttling-diagnostics.html>);
//!   burst capacity is best effort and not counted on here;
//! - one partition serves at most 3,000 read and 1,000 write units a second whatever the
//!   capacity (<https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/burst-adaptive-capacity.html>);
//! - auto scaling keeps the capacity at the consumed units over the target utilisation, within
//!   its minimum and maximum (<https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/AutoScaling.html>):
//!   it is billed at the average load so held, and judged against its maximum at the peak.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use super::{DEFAULT_TARGET_UTILIZATION, PartitionLoad, PatternCost, TableBilling, Throughput};
use crate::limits::{PARTITION_READ_UNITS_PER_SECOND, PARTITION_WRITE_UNITS_PER_SECOND};
use crate::model::{Capacity, Dimension, Scaling, Table};

/// One dimension of a table's or a GSI's given capacity, against its load.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GivenUnits {
    /// Units a second consumed, on average and at the peak.
    pub load: Throughput,
    /// Capacity units billed: the given, or what auto scaling holds for the average load.
    pub billed: f64,
    /// The most capacity it can have: the given, or auto scaling's maximum.
    pub limit: f64,
    /// The auto scaling bounds, when it scales.
    pub scaling: Option<Scaling>,
    /// Each pattern's units a second at its peak, the largest first.
    pub patterns: Vec<(String, f64)>,
}

/// The capacity given to the table (`index: None`) or one of its GSIs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlaceCapacity {
    pub index: Option<String>,
    pub read: GivenUnits,
    pub write: GivenUnits,
}

impl PlaceCapacity {
    pub fn units(&self, dimension: Dimension) -> &GivenUnits {
        match dimension {
            Dimension::Read => &self.read,
            Dimension::Write => &self.write,
        }
    }
}

/// A pattern's share of a throttled load: its units a second at its peak, when known (a
/// partition's loads are summed without them).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PatternLoad {
    pub pattern: String,
    pub units: Option<f64>,
}

/// Where the patterns' peak load is over what the table, a GSI or a partition can serve.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Throttle {
    pub table: String,
    /// The GSI, `None` for the table (or a partition of the table).
    pub index: Option<String>,
    /// The partition, named with an example value, when the limit is one partition's.
    pub partition: Option<String>,
    pub dimension: Dimension,
    /// Units a second at the patterns' peak.
    pub peak: f64,
    /// What it can serve: the capacity given, auto scaling's maximum, or one partition's.
    pub capacity: f64,
    /// Whether `capacity` is auto scaling's maximum.
    pub auto_scaled: bool,
    /// The patterns that cause it, the largest first.
    pub patterns: Vec<PatternLoad>,
}

impl Throttle {
    /// `orders/GSI1`, `orders partition STATUS#PENDING`.
    pub fn place(&self) -> String {
        let mut place = self.table.clone();
        if let Some(index) = &self.index {
            let _ = write!(place, "/{index}");
        }
        if let Some(partition) = &self.partition {
            let _ = write!(place, " partition {partition}");
        }
        place
    }

    /// What it can serve, in words: `the 100 WCU given`, `auto scaling's most, 400 WCU`,
    /// `one partition's 1,000 WCU`.
    pub fn capacity_words(&self) -> String {
        let unit = match self.dimension {
            Dimension::Read => "RCU",
            Dimension::Write => "WCU",
        };
        let capacity = crate::pricing::grouped(self.capacity, 0);
        if self.partition.is_some() {
            format!("one partition's {capacity} {unit}")
        } else if self.auto_scaled {
            format!("auto scaling's most, {capacity} {unit}")
        } else {
            format!("the {capacity} {unit} given")
        }
    }

    /// The patterns with their units: `` `PutOrder` 300, `UpdateStatus` 50 ``.
    pub fn patterns_words(&self) -> String {
        self.patterns
            .iter()
            .map(|p| match p.units {
                Some(units) => format!("`{}` {}", p.pattern, crate::pricing::grouped(units, 1)),
                None => format!("`{}`", p.pattern),
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// One line: where, by how much, and which patterns.
    pub fn summary(&self) -> String {
        format!(
            "{} {}s: {} units/s at the peak, {} over {} ({:.1}x): {}",
            self.place(),
            self.dimension.word(),
            crate::pricing::grouped(self.peak, 1),
            crate::pricing::grouped(self.peak - self.capacity, 1),
            self.capacity_words(),
            self.peak / self.capacity,
            self.patterns_words()
        )
    }
}

/// The capacity given to `table` and each of its GSIs, against the patterns' load, when the
/// table is provisioned; `None` when it is on-demand.
pub(super) fn given(table: &Table, patterns: &[PatternCost]) -> Option<Vec<PlaceCapacity>> {
    let table_capacity = table.billing.table_capacity()?;
    let mut places: Vec<(Option<&str>, Capacity, Load, Load)> =
        vec![(None, table_capacity, Load::default(), Load::default())];
    for gsi in &table.gsis {
        let capacity = table.billing.index_capacity(&gsi.name)?;
        places.push((Some(&gsi.name), capacity, Load::default(), Load::default()));
    }
    for pattern in patterns {
        for units in pattern.tables.iter().filter(|u| u.table == table.name) {
            let gsi_reads: f64 = units.gsis.iter().map(|g| g.read_units).sum();
            let gsi_writes: f64 = units.gsis.iter().map(|g| g.write_units).sum();
            // The table's own: its reads, its writes and its LSIs', which share its capacity.
            let (_, _, reads, writes) = &mut places[0];
            reads.add(pattern, units.read_units - gsi_reads);
            writes.add(
                pattern,
                units.table_write_units + units.index_write_units - gsi_writes,
            );
            for gsi in &units.gsis {
                if let Some((_, _, reads, writes)) = places
                    .iter_mut()
                    .find(|(index, ..)| *index == Some(gsi.index.as_str()))
                {
                    reads.add(pattern, gsi.read_units);
                    writes.add(pattern, gsi.write_units);
                }
            }
        }
    }
    let scaling = |capacity: &Capacity, dimension| {
        capacity.auto_scaling.and_then(|a| match dimension {
            Dimension::Read => a.read,
            Dimension::Write => a.write,
        })
    };
    Some(
        places
            .into_iter()
            .map(|(index, capacity, reads, writes)| PlaceCapacity {
                index: index.map(str::to_string),
                read: reads.given(capacity.read, scaling(&capacity, Dimension::Read)),
                write: writes.given(capacity.write, scaling(&capacity, Dimension::Write)),
            })
            .collect(),
    )
}

/// One dimension's load on one place, with each pattern's share at its peak.
#[derive(Default)]
struct Load {
    load: Throughput,
    patterns: Vec<(String, f64)>,
}

impl Load {
    fn add(&mut self, pattern: &PatternCost, per_request: f64) {
        if per_request <= 0.0 {
            return;
        }
        self.load.average += per_request * pattern.average_rate;
        self.load.peak += per_request * pattern.rate;
        match self
            .patterns
            .iter_mut()
            .find(|(p, _)| *p == pattern.pattern)
        {
            Some((_, units)) => *units += per_request * pattern.rate,
            None => self
                .patterns
                .push((pattern.pattern.clone(), per_request * pattern.rate)),
        }
    }

    /// The capacity `given` (auto-scaled within `scaling`) against this load. Provisioned
    /// capacity is at least 1 unit.
    fn given(mut self, given: u64, scaling: Option<Scaling>) -> GivenUnits {
        self.patterns.sort_by(|a, b| b.1.total_cmp(&a.1));
        let (billed, limit) = match scaling {
            None => {
                let given = given.max(1) as f64;
                (given, given)
            }
            Some(s) => {
                let min = s.min.max(1) as f64;
                let max = (s.max as f64).max(min);
                let target = s
                    .target
                    .map(|t| t / 100.0)
                    .filter(|t| *t > 0.0 && *t <= 1.0)
                    .unwrap_or(DEFAULT_TARGET_UTILIZATION);
                ((self.load.average / target).ceil().clamp(min, max), max)
            }
        };
        GivenUnits {
            load: self.load,
            billed,
            limit,
            scaling,
            patterns: self.patterns,
        }
    }
}

/// The capacity units billed as given, table and GSIs together: (RCU, WCU).
pub(super) fn billed(places: &[PlaceCapacity]) -> (f64, f64) {
    places.iter().fold((0.0, 0.0), |(r, w), place| {
        (r + place.read.billed, w + place.write.billed)
    })
}

/// How the capacity given is billed, in words: `table 100 RCU / 50 WCU; GSI1 10 RCU / 40 WCU
/// (auto-scaled 5 to 200 at 70%)`.
pub(super) fn billed_words(places: &[PlaceCapacity]) -> String {
    let units = |units: &GivenUnits, unit: &str| {
        let mut words = format!("{} {unit}", units.billed);
        if let Some(s) = units.scaling {
            let target = s.target_or_default();
            let _ = write!(words, " (auto-scaled {} to {} at {target}%)", s.min, s.max);
        }
        words
    };
    places
        .iter()
        .map(|place| {
            format!(
                "{} {} / {}",
                place.index.as_deref().unwrap_or("table"),
                units(&place.read, "RCU"),
                units(&place.write, "WCU")
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// Every place over what it can serve at the patterns' peak: each provisioned table and GSI
/// against its capacity (auto scaling's maximum when it scales), and each partition of a
/// provisioned table that the cost report finds hot, against one partition's limits.
pub(super) fn throttles(billing: &[TableBilling], partitions: &[PartitionLoad]) -> Vec<Throttle> {
    let mut out = Vec::new();
    for table in billing {
        for place in &table.given {
            for dimension in [Dimension::Read, Dimension::Write] {
                let units = place.units(dimension);
                // A thousandth of a unit of rounding is not a throttle.
                if units.load.peak <= units.limit + 1e-3 {
                    continue;
                }
                out.push(Throttle {
                    table: table.table.clone(),
                    index: place.index.clone(),
                    partition: None,
                    dimension,
                    peak: units.load.peak,
                    capacity: units.limit,
                    auto_scaled: units.scaling.is_some(),
                    patterns: units
                        .patterns
                        .iter()
                        .map(|(pattern, units)| PatternLoad {
                            pattern: pattern.clone(),
                            units: Some(*units),
                        })
                        .collect(),
                });
            }
        }
        if table.given.is_empty() {
            continue;
        }
        for load in partitions
            .iter()
            .filter(|l| l.hot && l.table == table.table)
        {
            for (dimension, peak, limit) in [
                (
                    Dimension::Read,
                    load.read_units_per_second,
                    PARTITION_READ_UNITS_PER_SECOND,
                ),
                (
                    Dimension::Write,
                    load.write_units_per_second,
                    PARTITION_WRITE_UNITS_PER_SECOND,
                ),
            ] {
                if peak <= limit {
                    continue;
                }
                out.push(Throttle {
                    table: table.table.clone(),
                    index: load.index.clone(),
                    partition: Some(load.partition.clone()),
                    dimension,
                    peak,
                    capacity: limit,
                    auto_scaled: false,
                    patterns: load
                        .patterns
                        .iter()
                        .map(|pattern| PatternLoad {
                            pattern: pattern.clone(),
                            units: None,
                        })
                        .collect(),
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests;
