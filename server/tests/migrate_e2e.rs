//! The Migrate tab in the browser (issue 18 item 5): the order example marked as deployed, then
//! the GSI its "Get order by ID" Scan is offered used (GSI3, which holds no Order: issue 43),
//! plans the backfill of its key attributes onto the orders, shows the verdict that changed, offers core's
//! migration program, proves the plan on the server's embedded engine, and keeps its baseline
//! across a reload.
#![allow(clippy::unwrap_used)]

mod browser;

use browser::*;
use keyplan_core::migrate::code::{Language, generate};
use keyplan_core::migrate::{PlanConfig, plan};

/// Clicks the pattern row that names `pattern`.
async fn select_pattern(b: &Browser, pattern: &str) {
    b.js_on(
        pattern,
        "[...document.querySelectorAll('[data-testid=pattern-row]')]\
           .find(r => r.textContent.includes(arguments[0])).click(); return 0;",
    )
    .await;
}

#[test]
fn the_suggested_gsi_used_after_marking_deployed_is_planned_offered_as_code_and_proven() {
    app_test_with_server(async |server, b| {
        b.click("[data-testid=tab-migrate]").await;
        b.find("[data-testid=migrate-no-baseline]").await;
        b.click("[data-testid=mark-deployed]").await;
        b.toast_containing("Marked as deployed").await;
        assert_eq!(
            b.text("[data-testid=migrate-summary]").await,
            "No changes since the deployed design: nothing to migrate."
        );

        select_pattern(b, "Get order by ID").await;
        let suggestion = b.text("[data-testid=suggestion]").await;
        b.click("[data-testid=apply-suggestion]").await;
        eventually("the plan has its step", || async {
            !b.texts("[data-testid=migrate-step]").await.is_empty()
        })
        .await;
        // The suggestion overloads GSI3, which holds no Order (issue 43): no GSI is created,
        // the orders get the key attributes GSI3 is keyed on (a backfill).
        let kinds = b.texts("[data-testid=migrate-step-kind]").await;
        assert_eq!(kinds, ["backfill"]);
        let actions = b.texts("[data-testid=migrate-step-action]").await;
        let design = b.saved_design().await;
        let (_, before) = keyplan_core::examples::all()
            .into_iter()
            .find(|(_, e)| e.name == design.name)
            .unwrap();
        assert_eq!(
            design.table("orders").unwrap().gsis.len(),
            before.table("orders").unwrap().gsis.len(),
            "no GSI added ({suggestion})"
        );
        assert!(
            actions.iter().all(|a| a.contains("GSI3PK")),
            "{actions:?} name GSI3PK"
        );
        let verdicts = b.texts("[data-testid=migrate-verdict]").await;
        assert!(
            verdicts
                .iter()
                .any(|v| v.starts_with("~ Get order by ID: Scan, not covered -> Query on")),
            "{verdicts:?}"
        );
        assert!(
            b.text("[data-testid=migrate-totals]")
                .await
                .starts_with("Total: "),
        );
        // The design records no volumes: the steps count nothing until the user says how many
        // orders the table holds; then the backfill counts them.
        let steps = b.texts("[data-testid=migrate-step]").await;
        assert!(steps[0].contains("unknown"), "{steps:?}");
        b.type_into("[aria-label='Items of Order']", "30,000").await;
        eventually("the backfill counts the orders", || async {
            b.texts("[data-testid=migrate-step]")
                .await
                .first()
                .is_some_and(|s| s.contains("30,000"))
        })
        .await;
        let totals = b.text("[data-testid=migrate-totals]").await;
        assert!(!totals.starts_with("Total: 0 RRU, 0 WRU"), "{totals}");
        b.screenshot("migrate-gsi-added").await;

        // The program to download is core's, for the same plan: what `keyplan migrate --to` writes.
        let dir = tempfile::tempdir().unwrap();
        b.download_into(dir.path()).await;
        b.click("[data-testid=migrate-download-typescript]").await;
        b.toast_containing("Downloaded migrate-order-management.ts")
            .await;
        let file = dir.path().join("migrate-order-management.ts");
        eventually("the program is downloaded", || async { file.is_file() }).await;
        let config = PlanConfig {
            items: [("Order".to_string(), 30_000)].into_iter().collect(),
            ..PlanConfig::default()
        };
        let expected = generate(
            &before,
            &design,
            &plan(&before, &design, &config),
            Language::TypeScript,
        )
        .unwrap();
        assert_eq!(std::fs::read_to_string(&file).unwrap(), expected);

        // Proven on the server's embedded engine: the deployed design's sample migrated by the
        // plan is what core predicts, and every pattern of the new design passes on it.
        b.click("[data-testid=migrate-verify]").await;
        let report = b.text("[data-testid=migrate-verified]").await;
        assert!(report.ends_with("Verification passed."), "{report}");
        assert!(
            report.contains("data: as core predicts, item for item"),
            "{report}"
        );
        assert!(report.contains("pass     Get order by ID"), "{report}");
        b.screenshot("migrate-verified").await;
        // The whole report, in both colour schemes, has no serious accessibility violation.
        if b.inject_axe().await {
            for scheme in ["light", "dark"] {
                b.prefer_color_scheme(scheme).await;
                let found = b.axe(&format!("{scheme} migrate")).await;
                assert!(found.is_empty(), "{found:#?}");
            }
        }

        // The baseline is kept in the browser: after a reload the plan is the same.
        b.visit(&server.url).await;
        b.click("[data-testid=tab-migrate]").await;
        b.find("[data-testid=migrate-baseline]").await;
        eventually("the plan is back", || async {
            b.texts("[data-testid=migrate-step-kind]").await == kinds
        })
        .await;
    });
}
