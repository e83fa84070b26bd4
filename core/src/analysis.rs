//! The answers keyplan gives about a design: a verdict for every access pattern and a list of
//! findings. [`analyze`] is the one entry point the app, the CLI and the exporters call.
//!
//! The answers are plain data in [`crate::answer`] (re-exported here), computed fresh from a
//! [`Design`]; nothing here is stored in a design file. Coverage (how each pattern is served) lives in [`crate::coverage`], the findings in
//! [`crate::findings`].

mod incremental;
pub mod statements;

pub use crate::answer::*;
use crate::model::Design;
pub use incremental::Analyzed;
pub use statements::Statements;

/// The verdicts of [`analyze`] alone, for work that reads no findings (the access code):
/// the findings are about a third of the analysis.
pub fn verdicts(design: &Design) -> Vec<Verdict> {
    crate::coverage::verdicts_of(&crate::coverage::Prepared::new(design))
}

/// [`verdicts`] without their reasons and suggested indexes, the rest the same: what the cost
/// estimate reads (how each pattern is served), without a Scan's reason for every index of its
/// table, most of what the verdicts of a big design cost (issue 13).
pub fn verdicts_unexplained(design: &Design) -> Vec<Verdict> {
    crate::coverage::verdicts_unexplained(design)
}

/// The verdict of one of `design`'s patterns, the one [`verdicts`] gives it, without the
/// others' (a pattern's verdict depends on the design and that pattern only): `keyplan
/// query` runs one pattern, and 50,000 verdicts took it a third of its time (issue 13).
pub fn verdict_of(design: &Design, pattern: &crate::model::AccessPattern) -> Verdict {
    crate::coverage::verdict_of(&crate::coverage::Prepared::new(design), pattern)
}

/// Analyses a design: a verdict per pattern, then the findings. The design's tables, indexes
/// and key templates are looked up once, for both.
pub fn analyze(design: &Design) -> Analysis {
    analyze_measured(design, None)
}

/// [`analyze`] with KP024 and KP014 (the findings that look at sample data) judged on what was
/// `measured` elsewhere ([`crate::findings::measure`], in the browser app's worker), or
/// measured here when `None`. Given nothing measured (`Some(&Measured::default())`), nothing
/// samples and neither says anything: what the app's main thread shows until the worker has
/// measured (issue 19).
pub fn analyze_measured(design: &Design, measured: Option<&crate::findings::Measured>) -> Analysis {
    let prepared = crate::coverage::Prepared::new(design);
    let verdicts = crate::coverage::verdicts_of(&prepared);
    analysis_of(&prepared, verdicts, measured, None)
}

/// The analysis of a prepared design whose `verdicts` are known: its findings added (KP024 and
/// KP014 on what was `measured`, as [`analyze_measured`] judges them; KP033 on the
/// `statements` judged by a build with the PartiQL parser, if given).
fn analysis_of(
    prepared: &crate::coverage::Prepared<'_>,
    verdicts: Vec<Verdict>,
    measured: Option<&crate::findings::Measured>,
    statements: Option<&Statements>,
) -> Analysis {
    analysis_kept(prepared, verdicts, measured, statements, Default::default()).0
}

/// [`analysis_of`], the entities' and patterns' own findings taken from `reused` where it has
/// them; and those of every entity and pattern, for the next version's.
pub(crate) fn analysis_kept(
    prepared: &crate::coverage::Prepared<'_>,
    verdicts: Vec<Verdict>,
    measured: Option<&crate::findings::Measured>,
    statements: Option<&Statements>,
    reused: crate::findings::Reused,
) -> (Analysis, crate::findings::Units) {
    let measured_here;
    let measured = match measured {
        Some(measured) => measured,
        None => {
            measured_here = crate::findings::measure(prepared.design, &verdicts);
            &measured_here
        }
    };
    let (mut findings, units) =
        crate::findings::findings_kept(prepared, &verdicts, measured, statements, reused);
    findings.sort_by_key(|f| std::cmp::Reverse(f.severity));
    (Analysis { verdicts, findings }, units)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The examples and a generated design, each named.
    fn designs() -> Vec<(&'static str, Design)> {
        let mut designs = crate::examples::all();
        designs.push(("generated", crate::generated::design(30)));
        designs
    }

    // issue 13: with core's `parallel` feature (the server's, so the workspace's tests) the
    // patterns are judged on several threads; the verdicts must be each pattern's own, judged
    // alone, in the design's order. 2,000 patterns: enough to be split between threads.
    #[test]
    fn the_verdicts_judged_together_are_each_patterns_own_in_order() {
        let design = crate::generated::design(400);
        let one_by_one: Vec<Verdict> = design
            .patterns
            .iter()
            .map(|p| verdict_of(&design, p))
            .collect();
        assert_eq!(verdicts(&design), one_by_one);
        assert_eq!(analyze(&design).verdicts, one_by_one);
        let unexplained = verdicts_unexplained(&design);
        assert_eq!(unexplained.len(), one_by_one.len());
        for (alone, explained) in unexplained.iter().zip(&one_by_one) {
            assert_eq!(alone.pattern, explained.pattern);
            assert_eq!(alone.operation, explained.operation);
            assert_eq!(alone.index, explained.index);
        }
    }

    // issue 13: the access code reads the verdicts without the findings; they must be the
    // verdicts the whole analysis gives.
    #[test]
    fn the_verdicts_alone_are_the_verdicts_of_the_whole_analysis() {
        for (name, design) in designs() {
            let alone = verdicts(&design);
            assert!(!alone.is_empty(), "{name} has no verdicts");
            assert_eq!(alone, analyze(&design).verdicts, "{name}");
        }
    }

    // issue 19: the app measures KP024's reads (and, issue 42, KP014's loads) in its worker and
    // judges them with the rest of the analysis; the result must be the analysis that measures
    // them itself.
    #[test]
    fn reads_measured_apart_give_the_same_analysis() {
        let mut designs = designs();
        // The browser test's fixture: `one_order` reads all 30 sample orders to keep one.
        designs.push((
            "filtered",
            crate::file::parse(include_str!("../../tests/fixtures/kp024-shop.keyplan.json"))
                .expect("the fixture reads"),
        ));
        let mut warned = false;
        for (name, design) in designs {
            let whole = analyze(&design);
            let measured = crate::findings::measure(&design, &whole.verdicts);
            assert_eq!(analyze_measured(&design, Some(&measured)), whole, "{name}");
            let unmeasured = analyze_measured(&design, Some(&Default::default()));
            assert_eq!(unmeasured.verdicts, whole.verdicts, "{name}");
            assert!(
                !unmeasured
                    .findings
                    .iter()
                    .any(|f| f.code == "KP024" || f.code == "KP014"),
                "{name}"
            );
            warned |= whole.findings.iter().any(|f| f.code == "KP024");
        }
        assert!(
            warned,
            "some design warns KP024, so the comparison means something"
        );
    }

    // issue 13: `keyplan cost` reads the verdicts without their words; apart from those they
    // must be the verdicts, and the estimate from them the same.
    #[test]
    fn the_verdicts_unexplained_are_the_verdicts_without_reasons() {
        for (name, design) in designs() {
            let mut expected = verdicts(&design);
            for verdict in &mut expected {
                verdict.reasons.clear();
                verdict.suggestions = Vec::new();
            }
            let unexplained = verdicts_unexplained(&design);
            assert_eq!(unexplained, expected, "{name}");
            let store = crate::eval::ItemStore::build(
                &design,
                crate::sample::generate(&design, &Default::default()).into_load_items(),
            );
            let config = crate::cost::CostConfig::default();
            assert_eq!(
                crate::cost::estimate(&design, &unexplained, &store, &config),
                crate::cost::estimate(&design, &verdicts(&design), &store, &config),
                "{name}"
            );
        }
    }

    // issue 13: `keyplan query` computes the verdict of its one pattern alone.
    #[test]
    fn one_patterns_verdict_is_its_verdict_among_all() {
        for (name, design) in designs() {
            let all = verdicts(&design);
            for (pattern, verdict) in design.patterns.iter().zip(&all) {
                assert_eq!(
                    &verdict_of(&design, pattern),
                    verdict,
                    "{name}: {}",
                    pattern.name
                );
            }
        }
    }
}
