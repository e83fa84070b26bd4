//! Probes: small designs built around one candidate (an entity with one primary key, one
//! index membership, one read on the keys it needs), judged and priced by core's own
//! verdicts and cost model, so the candidates are exactly what those rules accept and cost
//! what `keyplan cost` says. Every probe prices its entities at the item counts of the whole
//! design ([`Prober::counts`]), so the parts add up to the full estimate.

use std::collections::BTreeMap;

use crate::answer::Operation;
use crate::cost::{CostConfig, CostReport, estimate_sampled};
use crate::model::{AccessPattern, Action, Design, Entity, Gsi, KeyAttribute, Lsi, Table};
use crate::sample::SampleConfig;
use crate::template::KeyTemplate;

/// An index a probe adds to its table.
#[derive(Debug, Clone)]
pub enum ProbeIndex {
    Gsi(Gsi),
    Lsi(Lsi),
}

/// How a probe's read was served.
#[derive(Debug, Clone, PartialEq)]
pub struct Served {
    pub operation: Operation,
    /// The index queried, `None` for the table.
    pub index: Option<String>,
    pub shards: Option<u32>,
    /// A Query that reads the whole partition to sort it in memory (issue 43): it cannot page
    /// in the order asked, so the synthesis never counts it as serving the read.
    pub sorted_in_memory: bool,
    /// Monthly cost in USD.
    pub cost: f64,
}

/// Builds and prices probes of one design.
#[derive(Debug)]
pub struct Prober<'a> {
    pub design: &'a Design,
    /// The table keys every probe of a table has: its partition and sort key attributes.
    pub keys: BTreeMap<String, (KeyAttribute, KeyAttribute)>,
    /// Items per entity in the whole design (volumes, else the whole sample's).
    pub counts: BTreeMap<String, u64>,
    /// Mean item bytes per entity in a whole proposal (with all its key attributes), for the
    /// entities whose volume gives none: a probe's items carry only the keys it tries.
    pub sizes: BTreeMap<String, u64>,
    /// Sample items per entity in a whole proposal, for the probes' samples (see
    /// [`super::Measured::samples`]); the sample's defaults for an entity not in it.
    pub samples: BTreeMap<String, u32>,
}

impl<'a> Prober<'a> {
    /// A prober of `design` whose tables have these `keys`, at the sample's counts and sizes
    /// until they are set.
    pub fn new(
        design: &'a Design,
        keys: BTreeMap<String, (KeyAttribute, KeyAttribute)>,
    ) -> Prober<'a> {
        Prober {
            design,
            keys,
            counts: BTreeMap::new(),
            sizes: BTreeMap::new(),
            samples: BTreeMap::new(),
        }
    }

    /// A design of `table` holding `entities` with the given keys, an `index`, and `patterns`.
    pub fn design(
        &self,
        table: &str,
        entities: &[(&Entity, BTreeMap<String, KeyTemplate>)],
        index: Option<&ProbeIndex>,
        patterns: Vec<AccessPattern>,
    ) -> Design {
        let mut probe = Design::new(self.design.name.clone());
        let (pk, sk) = &self.keys[table];
        let mut t = match self.design.table(table) {
            Some(original) => {
                let mut t = Table::new(table.to_string(), pk.clone(), Some(sk.clone()));
                t.billing = original.billing.clone();
                t.ttl_attribute = original.ttl_attribute.clone();
                t.replicas = original.replicas.clone();
                t
            }
            None => Table::new(table.to_string(), pk.clone(), Some(sk.clone())),
        };
        match index {
            Some(ProbeIndex::Gsi(gsi)) => t.gsis.push(gsi.clone()),
            Some(ProbeIndex::Lsi(lsi)) => t.lsis.push(lsi.clone()),
            None => {}
        }
        probe.tables.push(t);
        for (entity, keys) in entities {
            let mut e = (*entity).clone();
            e.keys = keys.clone();
            probe.entities.push(e);
        }
        probe.patterns = patterns;
        probe
    }

    /// The estimate of a probe, at the whole design's item counts.
    pub fn estimate(&self, probe: &Design) -> CostReport {
        let config = CostConfig {
            counts: self.counts.clone(),
            item_bytes: self.sizes.clone(),
            ..CostConfig::default()
        };
        let sample = SampleConfig::new(
            self.samples
                .iter()
                .filter(|(name, _)| probe.entity(name).is_some())
                .map(|(name, &n)| (name.clone(), n))
                .collect(),
            None,
        );
        estimate_sampled(probe, &sample, &config)
    }

    /// How the probe's one read is served, and what it costs a month.
    pub fn serve(&self, probe: &Design) -> Served {
        let report = self.estimate(probe);
        let cost = report.patterns.first().map_or(0.0, |p| p.monthly_cost);
        match crate::coverage::verdicts_unexplained(probe)
            .into_iter()
            .next()
        {
            Some(verdict) => Served {
                operation: verdict.operation,
                index: verdict.index,
                shards: verdict.shards,
                sorted_in_memory: verdict.sorted_in_memory.is_some(),
                cost,
            },
            None => Served {
                operation: Operation::Scan,
                index: None,
                shards: None,
                sorted_in_memory: false,
                cost,
            },
        }
    }

    /// The writes of the design that write `entity` (a put, update or delete of it, or a
    /// transaction with a step on it).
    pub fn writes_of(&self, entity: &str) -> Vec<AccessPattern> {
        self.design
            .patterns
            .iter()
            .filter(|p| match p.action {
                Action::Read => false,
                Action::Transact => p.writes.iter().any(|w| w.entity == entity),
                _ => p.entities.iter().any(|e| e == entity),
            })
            .cloned()
            .collect()
    }
}
