//! What a build that reads PartiQL answers of a design's reads given as statements, and how a
//! verdict, a finding or KP033's reason takes it in (issue 40): the data of
//! [`crate::analysis::statements`], here below the findings so that they can read it (the
//! judging itself, in `analysis`, runs the findings' KP025 check).

use serde::{Deserialize, Serialize};

use crate::answer::Verdict;
use crate::coverage::{Prepared, unmapped_statement, verdict_of};
use crate::model::AccessPattern;

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
