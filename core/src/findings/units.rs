//! The findings about one entity or one pattern alone ([`Units`]), kept from one analysis of
//! a design to the next (issue 43: an edit under a frame). An edit of one key template left
//! the findings of the hundred other entities and four hundred patterns as they were, and the
//! app worked them all out again on every keystroke.
//!
//! What each unit reads, so what a caller must compare before giving a unit back
//! ([`Reused`]; [`crate::analysis::Analyzed`] does):
//! - an entity's: the entity (KP030 of its names, values and templates; KP001, KP002, KP003,
//!   KP015, KP020, KP021 of its templates) and its table's indexes; and, when it has a KP002,
//!   the other entities too (its fix looks for an id renamed among them:
//!   [`EntityFindings::reads_others`]);
//! - a pattern's: what its verdict reads (KP005, KP018, KP019, KP022, KP023, KP028: the pattern,
//!   its verdict, the tables, the entities' names, the attributes of those it names, the
//!   templates of their partition peers) and the pattern alone for its KP030.
//!
//! The checks that look across the design (duplicate names, collisions, the indexes and
//! entities nothing reads, capacity) are worked out whole every time.

use super::{Findings, hidden};
use crate::answer::{Finding, Verdict};
use crate::coverage::Prepared;

/// An entity's own findings.
#[derive(Debug, Default)]
pub(crate) struct EntityFindings {
    hidden: Vec<Finding>,
    keys: Vec<Finding>,
}

impl EntityFindings {
    fn of(prepared: &Prepared<'_>, e: usize) -> EntityFindings {
        let entity = prepared.entity(e);
        let mut hidden = Findings(Vec::new());
        hidden::in_entity(entity, &mut hidden);
        let mut keys = Findings(Vec::new());
        let table = prepared.homes[e].map(|(t, _)| &prepared.tables[t]);
        super::entity_keys(entity, &prepared.design.entities, table, &mut keys);
        EntityFindings {
            hidden: hidden.0,
            keys: keys.0,
        }
    }

    /// Whether these findings read other entities than their own: a KP002's fix renames an id
    /// only when no other entity has an attribute of the missing name.
    pub(crate) fn reads_others(&self) -> bool {
        self.keys.iter().any(|f| f.code == "KP002")
    }
}

/// A pattern's own findings.
#[derive(Debug, Default)]
pub(crate) struct PatternFindings {
    hidden: Vec<Finding>,
    own: Vec<Finding>,
}

impl PatternFindings {
    fn of(prepared: &Prepared<'_>, p: usize, verdict: &Verdict) -> PatternFindings {
        let pattern = &prepared.design.patterns[p];
        let mut hidden = Findings(Vec::new());
        hidden::in_pattern(pattern, &mut hidden);
        let mut own = Findings(Vec::new());
        super::patterns::pattern_findings(prepared, pattern, verdict, &mut own);
        PatternFindings {
            hidden: hidden.0,
            own: own.0,
        }
    }
}

/// The units of the last analysis that still hold, by position in the design analysed now
/// (`None`, or a position past the end: worked out again).
#[derive(Debug, Default)]
pub(crate) struct Reused {
    pub entities: Vec<Option<EntityFindings>>,
    pub patterns: Vec<Option<PatternFindings>>,
}

/// The findings of a design's entities and patterns, each apart, in design order.
#[derive(Debug, Default)]
pub(crate) struct Units {
    pub entities: Vec<EntityFindings>,
    pub patterns: Vec<PatternFindings>,
}

impl Units {
    /// The units of `prepared`'s design, judged `verdicts`: those `reused` gives taken, the
    /// others worked out.
    pub(crate) fn new(prepared: &Prepared<'_>, verdicts: &[Verdict], reused: Reused) -> Units {
        let Reused {
            mut entities,
            mut patterns,
        } = reused;
        let design = prepared.design;
        entities.resize_with(design.entities.len(), || None);
        patterns.resize_with(design.patterns.len(), || None);
        Units {
            entities: entities
                .into_iter()
                .enumerate()
                .map(|(e, kept)| kept.unwrap_or_else(|| EntityFindings::of(prepared, e)))
                .collect(),
            patterns: patterns
                .into_iter()
                .zip(verdicts)
                .enumerate()
                .map(|(p, (kept, verdict))| {
                    kept.unwrap_or_else(|| PatternFindings::of(prepared, p, verdict))
                })
                .collect(),
        }
    }

    /// KP030 of the entities then of the patterns, in design order.
    pub(super) fn hidden(&self, out: &mut Findings) {
        for unit in &self.entities {
            out.0.extend_from_slice(&unit.hidden);
        }
        for unit in &self.patterns {
            out.0.extend_from_slice(&unit.hidden);
        }
    }

    /// The entities' key templates' findings, in design order.
    pub(super) fn keys(&self, out: &mut Findings) {
        for unit in &self.entities {
            out.0.extend_from_slice(&unit.keys);
        }
    }

    /// The patterns' own findings, in design order.
    pub(super) fn patterns(&self, out: &mut Findings) {
        for unit in &self.patterns {
            out.0.extend_from_slice(&unit.own);
        }
    }
}
