//! KP033: a read given as a PartiQL statement keyplan cannot map onto a pattern (issue 40),
//! with why, the clause and the line and column; its verdict is a Scan that says the same. A
//! build without the parser takes why from the `statements` judged by one with it.

use super::Findings;
use crate::answer::{Place, Severity};
use crate::coverage::Prepared;
use crate::coverage::stated::{Statements, unmapped};

pub(super) fn statements(
    prepared: &Prepared<'_>,
    statements: Option<&Statements>,
    out: &mut Findings,
) {
    for pattern in &prepared.design.patterns {
        if let Some(why) = unmapped(prepared, pattern, statements) {
            out.push(
                "KP033",
                Severity::Error,
                Place::Pattern(pattern.name.clone()),
                format!(
                    "`{}`'s PartiQL statement cannot be mapped onto a read pattern {why}",
                    pattern.name
                ),
            );
        }
    }
}
