//! The analysis of a build without the parser, given the statements judged by one with it:
//! its verdicts, coverage and findings follow the statements' verdicts (issue 40).

use super::*;
use crate::analysis::{Analyzed, analyze_measured};
use crate::answer::{Operation, Verdict};
use crate::findings::Measured;
use crate::model::AccessPattern;

const PATTERN: &str = "by statement";
const UNMAPPED: &str = "in WHERE at line 1, column 28: the function lower is no condition a read pattern can state (a comparison, BETWEEN, IN, begins_with, contains, IS [NOT] MISSING)";

/// The ecommerce example and a read of orders by status (a Query on GSI2 by its fields) given
/// as `statement`.
fn design(statement: &str) -> Design {
    let mut design = crate::examples::get("ecommerce-orders").expect("the example");
    let mut pattern = AccessPattern::read(PATTERN, &["Order"], &["status"]);
    pattern.partiql = Some(statement.to_string());
    design.patterns.push(pattern);
    design
}

/// What a build with the parser answers for a statement it cannot map: a Scan (the verdict of
/// the read without inputs stands for it) and KP033's reason.
fn unmapped_statements(design: &Design) -> Statements {
    let mut scanning = design.clone();
    let pattern = scanning.patterns.last_mut().expect("the pattern");
    pattern.inputs.clear();
    pattern.partiql = None;
    let verdict = crate::analysis::verdicts(&scanning)
        .pop()
        .expect("a verdict");
    assert_eq!(verdict.operation, Operation::Scan);
    Statements {
        reads: vec![Stated {
            verdict,
            unmapped: Some(UNMAPPED.to_string()),
        }],
        served_after: Vec::new(),
    }
}

fn verdict_of(analysis: &crate::analysis::Analysis) -> &Verdict {
    analysis
        .verdicts
        .iter()
        .find(|v| v.pattern == PATTERN)
        .expect("the verdict")
}

fn kp033(analysis: &crate::analysis::Analysis) -> Vec<String> {
    analysis
        .findings
        .iter()
        .filter(|f| f.code == "KP033")
        .map(|f| format!("{} {}", f.place, f.message))
        .collect()
}

// issue 40: the app's coverage line and Findings panel read the main thread's analysis, which
// judged a statement by its fields: a statement that scans counted as covered and KP033 was
// never listed.
#[test]
fn the_statements_judged_elsewhere_decide_the_verdict_the_coverage_and_kp033() {
    let design = design(r#"SELECT * FROM "shop" WHERE lower(status) = ?"#);
    let statements = unmapped_statements(&design);
    let nothing = Measured::default();
    let analyzed = Analyzed::new(&design, Some(&nothing), Some(&statements));
    assert_eq!(verdict_of(&analyzed), &statements.reads[0].verdict);
    assert_eq!(analyzed.coverage(), (7, 8));
    assert_eq!(
        kp033(&analyzed),
        [format!(
            "patterns/{PATTERN} `{PATTERN}`'s PartiQL statement cannot be mapped onto a read pattern {UNMAPPED}"
        )]
    );
    // Judged again with no edit, without the answer and with it: the verdict follows.
    let (without, changed) = analyzed.again(&design, Some(&nothing), None);
    assert!(changed);
    assert_eq!(
        without.analysis(),
        &analyze_measured(&design, Some(&nothing))
    );
    let (with, changed) = without.again(&design, Some(&nothing), Some(&statements));
    assert!(changed);
    assert_eq!(verdict_of(&with), &statements.reads[0].verdict);
    assert_eq!(kp033(&with).len(), 1);
    // An edit elsewhere keeps the statement's verdict the answer's.
    let mut edited = design.clone();
    edited.patterns[0].rate += 1.0;
    let (with, _) = with.again(&edited, Some(&nothing), Some(&statements));
    assert_eq!(verdict_of(&with), &statements.reads[0].verdict);
    assert_eq!(with.coverage(), (7, 8));
}

#[test]
fn an_answer_is_taken_only_for_a_read_still_given_as_a_statement() {
    let design = design(r#"SELECT * FROM "shop" WHERE lower(status) = ?"#);
    let statements = unmapped_statements(&design);
    let mut fields = design.clone();
    fields.patterns.last_mut().expect("the pattern").partiql = None;
    let nothing = Measured::default();
    let analyzed = Analyzed::new(&fields, Some(&nothing), Some(&statements));
    assert_eq!(
        analyzed.analysis(),
        &analyze_measured(&fields, Some(&nothing))
    );
    assert_eq!(verdict_of(&analyzed).operation, Operation::Query);
    assert!(kp033(&analyzed).is_empty());
}

// What the worker answers is what `keyplan check` says: taken into the analysis, it changes
// nothing in a build with the parser.
#[test]
fn the_statements_a_build_with_the_parser_judges_are_its_own_verdicts() {
    let statements = [
        r#"SELECT * FROM "shop" WHERE total > ?"#,
        r#"SELECT * FROM "shop" WHERE lower(status) = ?"#,
        r#"SELECT * FROM "shop"."GSI2" WHERE GSI2PK = ?"#,
    ];
    for statement in statements {
        let design = design(statement);
        let judged = judge(&design);
        assert_eq!(judged.is_some(), crate::partiql::READS_PARTIQL);
        // A build without the parser judges nothing.
        let Some(judged) = judged else { return };
        assert_eq!(judged.reads.len(), 1);
        let whole = crate::analysis::analyze(&design);
        assert_eq!(judged.reads[0].verdict, *verdict_of(&whole), "{statement}");
        assert_eq!(
            Analyzed::new(&design, None, Some(&judged)).analysis(),
            &whole,
            "{statement}"
        );
        assert_eq!(
            judged.reads[0].unmapped.is_some(),
            !kp033(&whole).is_empty(),
            "{statement}"
        );
    }
}

// issue 40: KP025 offered to make GSI2's joined keys multi-attribute in the app, where
// `keyplan check` refused: the read given as a statement names GSI2PK, and DynamoDB refuses
// PartiQL on a GSI whose key has more than one attribute. Only the parser's build can tell.
#[test]
fn kp025_offers_its_edit_as_the_parser_judged_the_statements_after_it() {
    let design = design(r#"SELECT * FROM "shop"."GSI2" WHERE GSI2PK = ?"#);
    let mut fields = design.clone();
    fields.patterns.last_mut().expect("the pattern").partiql = None;
    let query = verdict_of(&crate::analysis::analyze(&fields)).clone();
    assert_eq!(query.index.as_deref(), Some("GSI2"));
    let refused = "`by statement` would need a Scan after it (GSI2 would not serve it: DynamoDB refuses a PartiQL read of `GSI2`)";
    let statements = Statements {
        reads: vec![Stated {
            verdict: query,
            unmapped: None,
        }],
        served_after: vec![ServedAfter {
            table: "shop".to_string(),
            gsi: "GSI2".to_string(),
            refused: Some(refused.to_string()),
        }],
    };
    let analyzed = Analyzed::new(&design, None, Some(&statements));
    let kp025: Vec<_> = analyzed
        .findings
        .iter()
        .filter(|f| f.code == "KP025" && f.place.to_string() == "tables/shop/gsis/GSI2")
        .collect();
    assert_eq!(kp025.len(), 1, "{kp025:?}");
    assert_eq!(kp025[0].fix, None);
    assert!(
        kp025[0].message.contains(
            "(no edit offered: `by statement` would need a Scan after it (GSI2 would not serve it: "
        ),
        "{}",
        kp025[0].message
    );
    if let Some(judged) = judge(&design) {
        assert_eq!(judged.served_after.len(), 1);
        assert!(
            judged.served_after[0]
                .refused
                .as_deref()
                .is_some_and(|r| r.starts_with("`by statement` would need a Scan after it")),
            "{judged:?}"
        );
    }
}
