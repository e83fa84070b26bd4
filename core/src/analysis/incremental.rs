//! The analysis of a design as it is being edited (issue 19): the browser app analyses the
//! design on every keystroke, within the frame that shows it, and most of that time went to the
//! verdicts of patterns the keystroke could not have changed. [`Analyzed`] is an analysis with
//! what it was worked out from; [`Analyzed::again`] works out the next version's, keeping the
//! verdict of every pattern nothing it depends on has changed for.
//!
//! What a verdict depends on (`coverage::read_verdict` and `write_verdict`): the pattern itself;
//! the tables and their indexes; the names, order and tables of the entities (positions,
//! lookups by name, the order other entity types are listed in); and, of the entities, the
//! attributes and key templates of those it names and, on each index, the presence and
//! templates of the ones whose partition key can render equal to theirs there (the other item
//! types a Query on that index meets: `PreparedIndex::partition_peers`). So when only entities'
//! contents changed, a pattern is judged again when it changed, or names an entity whose
//! attributes or templates changed, or names an entity that was or is now a partition peer of
//! one on an index where that one's presence or templates changed; any other change (a table,
//! an entity added, removed, renamed or moved to another table) judges every pattern again.
//! The findings of each entity and each pattern alone (`findings::Units`) are kept too: an
//! entity's when it is unchanged in the same frame (and its findings read no other entity),
//! a pattern's when its verdict is kept (they read what the verdict reads). The checks that
//! look across the design are worked out whole.
//!
//! A read given as a PartiQL statement is judged again every time: its verdict may be the one a
//! build with the parser judged (`statements`, the app's worker's answer), which comes with no
//! edit of the design (`analysis::statements`).
//!
//! Nothing is copied that did not change: the verdicts kept are moved from the last analysis
//! (copying a thousand verdicts cost more than judging the few an edit reaches), and so are
//! the patterns and entities kept to compare the next version with.

use std::collections::HashMap;

use crate::analysis::Analysis;
use crate::analysis::statements::{self, Statements};
use crate::answer::Verdict;
use crate::coverage::{KnownPeers, Prepared, shape};
use crate::findings::{Measured, PatternFindings, Reused, Units};
use crate::model::{AccessPattern, Design, Entity, Table};

/// An analysis ([`Analyzed::analysis`]) and the parts of the design it was worked out from
/// that verdicts depend on. Equal when the analyses are.
#[derive(Debug)]
pub struct Analyzed {
    analysis: Analysis,
    tables: Vec<Table>,
    entities: Vec<Entity>,
    /// The design's patterns, in the order of the analysis's verdicts.
    patterns: Vec<AccessPattern>,
    /// The partition peers worked out, table by table, index by index: an index whose members
    /// are the same takes them instead of comparing every pair of partitions again.
    peers: Vec<Vec<KnownPeers>>,
    /// The findings of each entity and each pattern alone, in design order.
    units: Units,
}

impl PartialEq for Analyzed {
    fn eq(&self, other: &Analyzed) -> bool {
        self.analysis == other.analysis
    }
}

impl std::ops::Deref for Analyzed {
    type Target = Analysis;

    fn deref(&self) -> &Analysis {
        &self.analysis
    }
}

impl Analyzed {
    /// [`crate::analysis::analyze_measured`] of `design`, worked out whole, its reads given as
    /// statements judged as `statements` says where it has judged them.
    pub fn new(
        design: &Design,
        measured: Option<&Measured>,
        statements: Option<&Statements>,
    ) -> Analyzed {
        let prepared = Prepared::new(design);
        let verdicts = statements::verdicts(&prepared, statements);
        let (analysis, units) = crate::analysis::analysis_kept(
            &prepared,
            verdicts,
            measured,
            statements,
            Reused::default(),
        );
        Analyzed {
            analysis,
            tables: design.tables.clone(),
            entities: design.entities.clone(),
            patterns: design.patterns.clone(),
            peers: prepared.into_known_peers(Vec::new()),
            units,
        }
    }

    pub fn analysis(&self) -> &Analysis {
        &self.analysis
    }

    /// [`Analyzed::new`] of `design`, an edited version of the design this one is of, and
    /// whether its analysis differs from this one's. The verdicts of the patterns the edits
    /// cannot have reached are this one's, taken, not worked out again.
    pub fn again(
        self,
        design: &Design,
        measured: Option<&Measured>,
        statements: Option<&Statements>,
    ) -> (Analyzed, bool) {
        let prepared = Prepared::new(design);
        let touched = touched(&self, &prepared);
        let Analyzed {
            analysis:
                Analysis {
                    verdicts,
                    findings: last_findings,
                },
            mut tables,
            mut entities,
            patterns,
            peers,
            units,
        } = self;
        // Whatever changed, an index whose members are the same has the same peers.
        let peers = prepared.take_known_peers(peers);
        let (patterns, verdicts, verdicts_changed, reused) = match touched {
            Some(touched) => {
                let Units {
                    entities: entity_units,
                    patterns: pattern_units,
                } = units;
                let mut reused = Reused::default();
                for ((kept, now), unit) in
                    entities.iter_mut().zip(&design.entities).zip(entity_units)
                {
                    // The frame is the same: only the entity itself, and the others when
                    // its findings read them, can change its findings.
                    let same = kept == now;
                    if !same {
                        kept.clone_from(now);
                    }
                    reused
                        .entities
                        .push((same && !unit.reads_others()).then_some(unit));
                }
                let (patterns, verdicts, changed, from) =
                    reuse(patterns, verdicts, &prepared, &touched, statements);
                // A pattern's own findings read what its verdict reads: kept with it.
                let mut pattern_units: Vec<Option<PatternFindings>> =
                    pattern_units.into_iter().map(Some).collect();
                reused.patterns = from
                    .into_iter()
                    .map(|i| pattern_units.get_mut(i?)?.take())
                    .collect();
                (patterns, verdicts, changed, reused)
            }
            None => {
                tables.clone_from(&design.tables);
                entities.clone_from(&design.entities);
                let all = statements::verdicts(&prepared, statements);
                let changed = all != verdicts;
                (design.patterns.clone(), all, changed, Reused::default())
            }
        };
        let (analysis, units) =
            crate::analysis::analysis_kept(&prepared, verdicts, measured, statements, reused);
        let changed = verdicts_changed || analysis.findings != last_findings;
        let next = Analyzed {
            analysis,
            tables,
            entities,
            patterns,
            peers: prepared.into_known_peers(peers),
            units,
        };
        (next, changed)
    }
}

/// By entity position, whether a verdict that names the entity must be worked out again: the
/// entities whose attributes or key templates changed and, on each index where what it shows
/// the others changed (its presence, its templates), every entity whose partition can render
/// equal to its own there, before or after the change. `None` when more than entities'
/// contents changed: every pattern is judged again.
fn touched(last: &Analyzed, prepared: &Prepared<'_>) -> Option<Vec<bool>> {
    let design = prepared.design;
    let same_frame = last.tables == design.tables
        && last.entities.len() == design.entities.len()
        && last
            .entities
            .iter()
            .zip(&design.entities)
            .all(|(old, new)| old.name == new.name && old.table == new.table);
    if !same_frame {
        return None;
    }
    let mut touched = vec![false; design.entities.len()];
    for (at, (old, new)) in last.entities.iter().zip(&design.entities).enumerate() {
        // A verdict reads an entity's attributes and key templates, not its description or
        // volume.
        if old.attributes == new.attributes && old.keys == new.keys {
            continue;
        }
        touched[at] = true;
        let Some((table, _)) = prepared.homes[at] else {
            continue;
        };
        for index in &prepared.tables[table].indexes {
            // What the other item types of an index see of this one: whether it is there, and
            // its templates. Unchanged, the edit reaches no one through this index.
            let keys = index.keys.partition_key.iter().chain(index.keys.sort_key);
            let templates = |e: &Entity| -> Option<Vec<String>> {
                keys.clone()
                    .map(|k| e.key_template(&k.name).map(|t| t.source().to_string()))
                    .collect()
            };
            if templates(old) == templates(new) {
                continue;
            }
            for version in [old, new] {
                let Some(mine) = index
                    .keys
                    .partition_key
                    .iter()
                    .map(|k| version.key_template(&k.name))
                    .collect::<Option<Vec<_>>>()
                else {
                    continue;
                };
                for member in &index.members {
                    // Both ways round: a peer of either is a peer.
                    let equal = member.partition.iter().zip(&mine).all(|(theirs, mine)| {
                        shape::can_equal(theirs.parts(), mine.parts())
                            || shape::can_equal(mine.parts(), theirs.parts())
                    });
                    if equal {
                        touched[member.entity] = true;
                    }
                }
            }
        }
    }
    Some(touched)
}

/// The patterns of `prepared`'s design with their verdicts, in design order: the last verdict
/// of a pattern that is unchanged, names no touched entity and is not given as a statement,
/// the others worked out again (a statement's as `statements` says where it has judged it);
/// whether the verdicts differ from the last ones; and, by pattern, the last position of the
/// verdict kept (`None`: worked out again).
fn reuse(
    patterns: Vec<AccessPattern>,
    verdicts: Vec<Verdict>,
    prepared: &Prepared<'_>,
    touched: &[bool],
    statements: Option<&Statements>,
) -> (Vec<AccessPattern>, Vec<Verdict>, bool, Vec<Option<usize>>) {
    let design = prepared.design;
    let names_touched = |pattern: &AccessPattern| {
        pattern
            .entities
            .iter()
            .chain(pattern.writes.iter().map(|w| &w.entity))
            .any(|name| {
                prepared
                    .entity_by_name
                    .get(name.as_str())
                    .is_some_and(|&at| touched[at])
            })
    };
    let mut changed = patterns.len() != design.patterns.len();
    // Each taken at most once: a second pattern of the same name is judged itself.
    let mut last: Vec<Option<(AccessPattern, Verdict)>> =
        patterns.into_iter().zip(verdicts).map(Some).collect();
    // The last patterns by name, built only when the patterns moved.
    let mut by_name: Option<HashMap<String, usize>> = None;
    let mut patterns = Vec::with_capacity(design.patterns.len());
    let mut verdicts = Vec::with_capacity(design.patterns.len());
    let mut from = Vec::with_capacity(design.patterns.len());
    for (at, pattern) in design.patterns.iter().enumerate() {
        let in_place = last
            .get(at)
            .and_then(Option::as_ref)
            .is_some_and(|(p, _)| p.name == pattern.name);
        let previous = if in_place {
            Some(at)
        } else {
            by_name
                .get_or_insert_with(|| {
                    let mut map = HashMap::with_capacity(last.len());
                    for (i, entry) in last.iter().enumerate() {
                        if let Some((p, _)) = entry {
                            map.entry(p.name.clone()).or_insert(i);
                        }
                    }
                    map
                })
                .get(&pattern.name)
                .copied()
        };
        let kept = previous
            .filter(|&i| {
                last[i].as_ref().is_some_and(|(p, _)| p == pattern)
                    && !names_touched(pattern)
                    && pattern.statement().is_none()
            })
            .and_then(|i| Some((i, last[i].take()?)));
        from.push(kept.as_ref().map(|&(i, _)| i));
        let (pattern, verdict) = match kept {
            Some((i, kept)) => {
                changed |= i != at;
                kept
            }
            None => {
                let verdict = statements::verdict(prepared, pattern, statements);
                changed |= last
                    .get(at)
                    .and_then(Option::as_ref)
                    .is_none_or(|(_, v)| *v != verdict);
                (pattern.clone(), verdict)
            }
        };
        patterns.push(pattern);
        verdicts.push(verdict);
    }
    (patterns, verdicts, changed, from)
}
