//! What the findings read from the sample, measured apart from the judgement so that the
//! browser app measures in its worker (the sample, the evaluator and the cost model stay out of
//! the thread that paints) and judges on the main thread with the rest of the analysis
//! (issue 19): the filtered reads KP024 judges, and the partition loads KP014 judges and the item
//! sizes KP029 weighs, which are the cost report's own (issue 42: one load model and one item
//! size, so `keyplan check` and `keyplan cost` ask for the same shards). One sample serves them
//! all, and none is made for a design that has nothing for them.

use serde::{Deserialize, Serialize};

use super::filters::{self, FilterRead, MAX_ITEMS};
use crate::answer::Verdict;
use crate::cost::{CostConfig, PartitionLoad, Throttle};
use crate::eval::ItemStore;
use crate::model::Design;
use crate::sample::{SampleConfig, generate_within, sizing_sample};

/// The sample data the findings judge, for one design and its verdicts.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Measured {
    /// What each covered read with a filter reads and returns (KP024).
    pub filter_reads: Vec<FilterRead>,
    /// The load on the busiest partition of every key that concentrates traffic, as
    /// `keyplan cost` reports it (KP014 warns of the hot ones).
    pub partitions: Vec<PartitionLoad>,
    /// The item size of each entity that KP029 weighs without a size from its volume, as
    /// `keyplan cost` estimates it (the sample's mean), by entity name.
    pub item_bytes: Vec<(String, u64)>,
    /// Where a provisioned table or GSI is given less capacity than the patterns' peak, as
    /// `keyplan cost` reports it (KP031).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub throttles: Vec<Throttle>,
}

/// Whether [`measure`] has anything to measure in `design`, before its verdicts are known: a
/// read with a filter, a partition key that concentrates traffic, or an item collection to
/// weigh. The app asks its worker only then.
pub fn measures_anything(design: &Design) -> bool {
    design.patterns.iter().any(|p| !p.filter.is_empty())
        || crate::cost::concentrates(design)
        || super::capacity::wants_item_bytes(design)
        || wants_throttles(design)
}

/// Whether KP031 has a capacity to judge: a provisioned table and a pattern to load it.
fn wants_throttles(design: &Design) -> bool {
    !design.patterns.is_empty()
        && design
            .tables
            .iter()
            .any(|t| t.billing.table_capacity().is_some())
}

/// Measures on the sample `keyplan cost` makes by default what the findings judge. The
/// filtered reads only on a sample of at most [`MAX_ITEMS`] items (past it KP024 says
/// nothing); the partition loads on the default sample within the sample budget
/// ([`sizing_sample`]: `keyplan cost`'s default `--max-items`), past it on one item of each
/// entity, which still gives every entity a size.
pub fn measure(design: &Design, verdicts: &[Verdict]) -> Measured {
    let wants_reads = filters::wants_reads(design, verdicts);
    let wants_loads = crate::cost::concentrates(design);
    let wants_sizes = super::capacity::wants_item_bytes(design);
    let wants_throttles = wants_throttles(design);
    if !wants_reads && !wants_loads && !wants_sizes && !wants_throttles {
        return Measured::default();
    }
    let (sample, whole) = if wants_loads || wants_sizes || wants_throttles {
        sizing_sample(design)
    } else {
        match generate_within(design, &SampleConfig::default(), MAX_ITEMS) {
            Ok(sample) => (sample, true),
            Err(_) => return Measured::default(),
        }
    };
    let items = sample.items.len() as u64;
    let store = ItemStore::build(design, sample.into_load_items());
    let filter_reads = if wants_reads && whole && items <= MAX_ITEMS {
        filters::reads_on(design, verdicts, &store)
    } else {
        Vec::new()
    };
    if !wants_loads && !wants_sizes && !wants_throttles {
        return Measured {
            filter_reads,
            ..Measured::default()
        };
    }
    let report = crate::cost::estimate(design, verdicts, &store, &CostConfig::default());
    Measured {
        filter_reads,
        partitions: if wants_loads {
            report.partitions
        } else {
            Vec::new()
        },
        item_bytes: if wants_sizes {
            report
                .entities
                .iter()
                .filter(|size| size.average_bytes > 0)
                .map(|size| (size.entity.clone(), size.average_bytes as u64))
                .collect()
        } else {
            Vec::new()
        },
        throttles: report.throttles,
    }
}
