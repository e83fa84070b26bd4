//! A read given as a PartiQL statement, judged in the browser as `keyplan check` judges it
//! (issue 40): the app's worker has the parser, the main module does not. Typing a statement
//! in the pattern inspector shows its verdict there and in the pattern list: a Scan with the
//! reason, KP033's reason for one keyplan cannot map, a Query once it is fixed.
//!
//! What the verdicts say is decided and tested in core (`core/src/partiql/tests.rs`); this
//! checks that the app shows the statement's verdict, not its fields', and that everything
//! counted from the verdicts (the top bar's coverage line, the Findings panel and its count)
//! is what `keyplan check` says of the same design.

mod browser;

use browser::{Browser, app_test_with_server, eventually};
use keyplan_core::{AccessPattern, Design};

const PATTERN: &str = "by statement";

/// The badge and the reasons the inspector shows, and the badge of the pattern's row.
async fn shown(b: &Browser) -> (String, String, String) {
    let row = format!("[data-pattern='{PATTERN}'] [data-testid=verdict-badge]");
    (
        b.text("[data-testid=verdict-box] [data-testid=verdict-badge]")
            .await,
        b.text("[data-testid=verdict-reasons]").await,
        b.text(&row).await,
    )
}

/// Types `statement` in the inspector's PartiQL field and waits until both badges say
/// `badge` and the reasons hold `reason`.
async fn judged(b: &Browser, statement: &str, badge: &str, reason: &str) {
    b.type_into("[data-testid=pattern-partiql]", statement)
        .await;
    eventually(
        &format!("`{statement}` shown as {badge}: {reason}"),
        || async {
            let (inspector, reasons, row) = shown(b).await;
            inspector == badge && row == badge && reasons.contains(reason)
        },
    )
    .await;
}

#[test]
fn a_statement_typed_in_the_inspector_is_judged_as_the_cli_judges_it() {
    app_test_with_server(async |server, b| {
        let mut design = keyplan_core::examples::get("ecommerce-orders").expect("the example");
        design
            .patterns
            .push(AccessPattern::read(PATTERN, &["Order"], &[]));
        b.open_design(&server.url, &design).await;
        b.click(&format!("[data-pattern='{PATTERN}']")).await;

        // A statement that scans, one keyplan cannot map (KP033), and that one fixed: each with
        // the badge and a reason the inspector shows, and the screenshot taken of it.
        let steps = [
            (
                r#"SELECT * FROM "shop" WHERE total > ?"#,
                "Scan",
                "partition key",
                "partiql-scan",
            ),
            (
                r#"SELECT * FROM "shop" WHERE lower(status) = ?"#,
                "Scan",
                "keyplan cannot map the PartiQL statement in WHERE at line 1, column 28: the function lower is no condition a read pattern can state",
                "partiql-kp033",
            ),
            (
                r#"SELECT * FROM "shop"."GSI2" WHERE GSI2PK = ?"#,
                "Query on GSI2",
                "",
                "partiql-query",
            ),
        ];
        for (statement, badge, reason, screenshot) in steps {
            judged(b, statement, badge, reason).await;
            b.screenshot(screenshot).await;
            assert!(
                !b.has("[data-testid=partiql-pending]").await,
                "the statement is judged, not the fields"
            );
        }
        let saved = b.saved_design().await;
        assert_eq!(
            saved.pattern(PATTERN).and_then(|p| p.partiql.as_deref()),
            Some(r#"SELECT * FROM "shop"."GSI2" WHERE GSI2PK = ?"#)
        );
    });
}

/// What the top bar's coverage line, the Findings tab's count and the Findings panel's
/// messages (in order) show.
async fn counted(b: &Browser) -> (String, String, Vec<String>) {
    (
        b.text("[data-testid=coverage-summary]").await,
        b.text("[data-testid=findings-tab] .count").await,
        b.texts("[data-testid=finding-row] .finding-message").await,
    )
}

/// What `keyplan check` (core with the parser, as the CLI is built) says of `design`, in the
/// words [`counted`] reads.
fn checked(design: &Design) -> (String, String, Vec<String>) {
    let analysis = keyplan_core::analyze(design);
    (
        analysis.summary(),
        analysis.findings.len().to_string(),
        analysis
            .findings
            .iter()
            .map(|f| f.message.clone())
            .collect(),
    )
}

/// Waits until the app counts `design` as `keyplan check` does; the app's counts are logged
/// as they change, so a timeout shows what it counted instead.
async fn counted_as_the_cli_counts(b: &Browser, design: &Design, step: &str) {
    let expected = checked(design);
    let expected = &expected;
    let last = &std::cell::RefCell::new(None);
    eventually(
        &format!("{step}: the app counting as `keyplan check` does: {expected:?}"),
        move || async move {
            let shown = counted(b).await;
            if last.borrow().as_ref() != Some(&shown) {
                eprintln!("{step}: the app counts {shown:?}");
                *last.borrow_mut() = Some(shown.clone());
            }
            &shown == expected
        },
    )
    .await;
}

// issue 40: the worker judged a read given as a statement for the inspector and the pattern
// list, but the coverage line and the Findings panel read the main thread's analysis, which
// judges the structured fields: a statement that scans counted as covered, and KP033 was not
// listed.
#[test]
fn the_coverage_line_and_the_findings_count_a_statement_as_the_cli_does() {
    app_test_with_server(async |server, b| {
        let mut design = keyplan_core::examples::get("ecommerce-orders").expect("the example");
        // The structured fields alone are a Query on GSI2: covered, whatever the statement says.
        let mut pattern = AccessPattern::read(PATTERN, &["Order"], &["status"]);
        pattern.partiql = Some(r#"SELECT * FROM "shop" WHERE total > ?"#.to_string());
        design.patterns.push(pattern);
        let stated = |design: &mut Design, statement: &str| {
            let pattern = design
                .patterns
                .iter_mut()
                .find(|p| p.name == PATTERN)
                .expect("the pattern");
            pattern.partiql = Some(statement.to_string());
        };
        let mut fields_only = design.clone();
        fields_only
            .patterns
            .last_mut()
            .expect("the pattern")
            .partiql = None;
        assert_ne!(
            checked(&design).0,
            checked(&fields_only).0,
            "the statement scans where the fields do not, so the counts mean something"
        );

        b.open_design(&server.url, &design).await;
        b.mouse_click("[data-testid=findings-tab]").await;
        counted_as_the_cli_counts(b, &design, "opened with a statement that scans").await;
        b.screenshot("partiql-counted-scan").await;

        // The inspector's field, reached from the pattern list; the Findings panel shown again.
        b.mouse_click("[data-testid=patterns-tab]").await;
        b.click(&format!("[data-pattern='{PATTERN}']")).await;
        b.mouse_click("[data-testid=findings-tab]").await;
        let steps = [
            (
                r#"SELECT * FROM "shop" WHERE lower(status) = ?"#,
                "a statement keyplan cannot map (KP033)",
                "partiql-counted-kp033",
                true,
            ),
            (
                r#"SELECT * FROM "shop"."GSI2" WHERE GSI2PK = ?"#,
                "the statement fixed",
                "partiql-counted-query",
                false,
            ),
        ];
        for (statement, step, screenshot, unmapped) in steps {
            b.type_into("[data-testid=pattern-partiql]", statement)
                .await;
            stated(&mut design, statement);
            let (_, _, messages) = checked(&design);
            assert_eq!(
                messages
                    .iter()
                    .any(|m| m.contains("PartiQL statement cannot be mapped")),
                unmapped,
                "{step}: KP033 in what the CLI lists: {messages:?}"
            );
            counted_as_the_cli_counts(b, &design, step).await;
            b.screenshot(screenshot).await;
        }
    });
}
