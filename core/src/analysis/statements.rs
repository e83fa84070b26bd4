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

pub use crate::coverage::stated::{ServedAfter, Stated, Statements};
pub(crate) use crate::coverage::stated::{verdict, verdicts};
use crate::coverage::{Prepared, unmapped_statement};
use crate::model::Design;

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

#[cfg(test)]
mod tests;
