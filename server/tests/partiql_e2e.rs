//! A read given as a PartiQL statement, judged in the browser as `keyplan check` judges it
//! (issue 40): the app's worker has the parser, the main module does not. Typing a statement
//! in the pattern inspector shows its verdict there and in the pattern list: a Scan with the
//! reason, KP033's reason for one keyplan cannot map, a Query once it is fixed.
//!
//! What the verdicts say is decided and tested in core (`core/src/partiql/tests.rs`); this
//! checks that the app shows the statement's verdict, not its fields'.

mod browser;

use browser::{Browser, app_test_with_server, eventually};
use keyplan_core::AccessPattern;

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
