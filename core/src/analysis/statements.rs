//! Reads given as PartiQL statements, judged by a build that reads PartiQL and taken into the
//! analysis of one that does not (issue 40). The browser app's main module leaves the parser
//! out (3.2 MB of wasm), its worker has it: [`judge`] is the worker's half, [`Statements`] what
//! it answers, and [`crate::analysis::Analyzed`] the main thread's half, which judges such a
//! read by the worker's verdict, not by its structured fields, before anything is counted from
//! the verdicts. So the coverage line, every finding that reads the verdicts (an index no read
//! uses, a Query that meets other item types...) and KP033 (a statement keyplan cannot map) say
//! what `keyplan check` says of the same design.
//!
//! A read the worker has not judged yet (a statement just typed, a pattern just renamed) keeps
//! the last verdict it gave under that name until the next answer comes; one it never judged is
//! judged by its fields. KP025's offer (a GSI's joined keys made multi-attribute) judges the
//! reads its GSI serves after the edit: for a statement that too is the parser's
//! ([`ServedAfter`]). Nothing here reads a statement: a build without the parser cannot.

use serde::{Deserialize, Serialize};

use crate::answer::Verdict;
use crate::coverage::{Prepared, unmapped_statement, verdict_of};
use crate::model::{AccessPattern, Design};

/// The verdicts of a design's reads given as statements, judged with the parser.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Statements {
    /// One per read given as a statement, in design order.
    pub reads: Vec<Stated>,
    /// For each GSI that serves one of them and whose joined keys KP025 would make
    /// multi-attribute: whether every read it serves still is after that edit.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub served_after: Vec<ServedAfter>,
}

/// Whether KP025's edit of a GSI (its joined keys made multi-attribute) leaves every read the
/// GSI serves served, for one that serves a read given as a statement.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ServedAfter {
    pub table: String,
    pub gsi: String,
    /// Why a read would need a Scan after the edit (KP025 then offers no edit); `None` when
    /// every one is still served.
    pub refused: Option<String>,
}

/// One read's verdict, and why keyplan cannot map its statement if it cannot.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Stated {
    /// The verdict `keyplan check` gives the read; `verdict.pattern` names it.
    pub verdict: Verdict,
    /// KP033's reason (`in WHERE at line 1, column 28: ...`), for a statement keyplan cannot
    /// map onto a pattern.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unmapped: Option<String>,
}

/// The verdicts of `design`'s reads given as statements, as `keyplan check` gives them; `None`
/// from a build without the parser, whose verdicts are the structured fields'.
pub fn judge(design: &Design) -> Option<Statements> {
    if !crate::partiql::READS_PARTIQL {
        return None;
    }
    let prepared = Prepared::new(design);
    let verdicts = crate::coverage::verdicts_of(&prepared);
    let reads = design
        .patterns
        .iter()
        .zip(&verdicts)
        .filter(|(p, _)| p.statement().is_some())
        .map(|(pattern, verdict)| Stated {
            verdict: verdict.clone(),
            unmapped: unmapped_statement(&prepared, pattern),
        })
        .collect();
    let served_after = crate::findings::served_after(&prepared, &verdicts);
    Some(Statements {
        reads,
        served_after,
    })
}

/// Whether `design` has a read given as a statement: only then is there anything to judge.
pub fn states_any(design: &Design) -> bool {
    design.patterns.iter().any(|p| p.statement().is_some())
}

impl Statements {
    /// What was judged of `pattern`, if it is a read given as a statement and one of that
    /// name was judged.
    pub fn of(&self, pattern: &AccessPattern) -> Option<&Stated> {
        pattern.statement()?;
        self.reads
            .iter()
            .find(|stated| stated.verdict.pattern == pattern.name)
    }

    /// Whether a read of this name was judged.
    pub fn judged(&self, name: &str) -> bool {
        self.reads
            .iter()
            .any(|stated| stated.verdict.pattern == name)
    }

    /// Whether KP025's edit of `table`'s `gsi` leaves its reads served, if that was judged.
    pub fn served_after(&self, table: &str, gsi: &str) -> Option<&ServedAfter> {
        self.served_after
            .iter()
            .find(|s| s.table == table && s.gsi == gsi)
    }
}

/// `pattern`'s verdict: the one judged elsewhere for a read given as a statement, else this
/// build's.
pub(crate) fn verdict(
    prepared: &Prepared<'_>,
    pattern: &AccessPattern,
    statements: Option<&Statements>,
) -> Verdict {
    match statements.and_then(|s| s.of(pattern)) {
        Some(stated) => stated.verdict.clone(),
        None => verdict_of(prepared, pattern),
    }
}

/// The verdicts of `prepared`'s design, in design order, each as [`verdict`] gives it.
pub(crate) fn verdicts(prepared: &Prepared<'_>, statements: Option<&Statements>) -> Vec<Verdict> {
    let mut verdicts = crate::coverage::verdicts_of(prepared);
    if let Some(statements) = statements.filter(|s| !s.reads.is_empty()) {
        for (verdict, pattern) in verdicts.iter_mut().zip(&prepared.design.patterns) {
            if let Some(stated) = statements.of(pattern) {
                verdict.clone_from(&stated.verdict);
            }
        }
    }
    verdicts
}

/// Why keyplan cannot map `pattern`'s statement (KP033), if it cannot: as judged elsewhere for
/// a read judged there, else as this build can tell (nothing, without the parser).
pub(crate) fn unmapped(
    prepared: &Prepared<'_>,
    pattern: &AccessPattern,
    statements: Option<&Statements>,
) -> Option<String> {
    match statements.and_then(|s| s.of(pattern)) {
        Some(stated) => stated.unmapped.clone(),
        None => unmapped_statement(prepared, pattern),
    }
}

#[cfg(test)]
mod tests;
