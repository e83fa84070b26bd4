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

// issue 43 items 5 and 7: the Migrate tab kept the items typed for an entity only while it was
// open, had no write rate, showed money to four places and needed sideways scrolling at
// 1024 px. The count typed is the entity's volume (an edit, undoable, saved with the design and
// shown in the inspector), the write rate is asked like `--max-wcu` and kept across tabs,
// money has separators and two decimals, and the steps are drawn as a timeline with their
// durations.
#[test]
fn the_migrate_tab_keeps_the_volumes_and_write_rate_typed_and_draws_the_steps_as_a_timeline() {
    app_test_with_server(async |_server, b| {
        b.client
            .set_window_size(1024, 768)
            .await
            .expect("a 1024 px window");
        b.click("[data-testid=tab-migrate]").await;
        b.click("[data-testid=mark-deployed]").await;
        b.toast_containing("Marked as deployed").await;
        select_pattern(b, "Get order by ID").await;
        b.click("[data-testid=apply-suggestion]").await;
        // The offer overloads GSI3, which Order did not fill (issue 43 item 1): one backfill.
        eventually("the plan has its step", || async {
            b.texts("[data-testid=migrate-step]").await.len() == 1
        })
        .await;

        // The orders typed here are the Order entity's volume, in the saved design.
        b.type_into("[aria-label='Items of Order']", "30,000").await;
        eventually("the volume is the entity's", || async {
            b.saved_design()
                .await
                .entity("Order")
                .and_then(|e| e.volume)
                .map(|v| v.items)
                == Some(30_000)
        })
        .await;
        eventually("the backfill counts the orders", || async {
            b.texts("[data-testid=migrate-step]")
                .await
                .first()
                .is_some_and(|s| s.contains("30,000"))
        })
        .await;

        // A write rate as `--max-wcu` takes it; one under 1 WCU/s is refused, saying why.
        b.type_into("[data-testid=migrate-max-wcu]", "100").await;
        eventually("the durations are at 100 WCU/s", || async {
            b.text("[data-testid=migrate-totals]")
                .await
                .ends_with("at 100 WCU/s")
        })
        .await;
        b.type_into("[data-testid=migrate-max-wcu]", "0").await;
        let refused = b.text("[data-testid=migrate-max-wcu-error]").await;
        assert!(
            refused.contains("at least 1 write unit per second"),
            "{refused}"
        );
        assert!(
            b.text("[data-testid=migrate-totals]")
                .await
                .ends_with("at 100 WCU/s")
        );
        b.type_into("[data-testid=migrate-max-wcu]", "100").await;

        // Money with separators and two decimals.
        let totals = b.text("[data-testid=migrate-totals]").await;
        let money = totals
            .split(", ")
            .find(|part| part.starts_with('$'))
            .unwrap_or_default();
        let cents = money.split(' ').next().unwrap_or_default();
        assert!(
            cents.len() >= 5 && cents.as_bytes()[cents.len() - 3] == b'.',
            "{totals}"
        );

        // The steps as a timeline: one row a step, each with its duration, the plan's.
        let durations = b.texts("[data-testid=migrate-step-duration]").await;
        let timeline = strings(
            &b.js("return Array.from(document.querySelectorAll('[data-testid=chart-timeline] svg .chart-row'),\
                     g => Array.from(g.querySelectorAll('text'), t => t.textContent).join(' '));")
                .await,
        );
        assert_eq!(timeline.len(), durations.len(), "{timeline:?}");
        for (row, duration) in timeline.iter().zip(&durations) {
            assert!(row.contains(duration.as_str()), "{row} shows {duration}");
        }
        assert!(
            durations.iter().any(|d| d.contains("min")),
            "the backfill at 100 WCU/s takes minutes: {durations:?}"
        );

        // Readable at 1024 px: the plan fits its pane, nothing scrolls sideways.
        let fits = b
            .js(
                "const plan = document.querySelector('[data-testid=migrate-plan]');\
                 const view = document.querySelector('[data-testid=migrate-view]');\
                 return [plan.scrollWidth, plan.clientWidth, view.scrollWidth, view.clientWidth];",
            )
            .await;
        let [plan, plan_room, view, view_room] =
            [0, 1, 2, 3].map(|i| fits[i].as_f64().expect("a width"));
        b.screenshot("migrate-1024").await;
        let widest = b
            .js("const view = document.querySelector('[data-testid=migrate-view]');\
                 const r = view.getBoundingClientRect();\
                 return Array.from(view.querySelectorAll('*')).filter(e => e.getBoundingClientRect().right > r.right + 1).map(e => e.tagName + '.' + e.className + ' ' + (e.getAttribute('data-testid') || '')).slice(0, 5).join(' | ');")
            .await;
        assert!(
            plan <= plan_room && view <= view_room,
            "{fits}: past the pane: {widest}"
        );
        b.js("document.querySelector('[data-testid=chart-timeline]').scrollIntoView({block: 'nearest'}); return 0;")
            .await;
        b.screenshot("migrate-timeline-1024").await;

        // What was typed is kept across tabs.
        b.click("[data-testid=tab-cost]").await;
        b.find("[data-testid=cost-view]").await;
        b.click("[data-testid=tab-migrate]").await;
        eventually("the count and the rate are still there", || async {
            b.has("[aria-label='Items of Order']").await
                && b.value("[aria-label='Items of Order']").await == "30,000"
                && b.value("[data-testid=migrate-max-wcu]").await == "100"
        })
        .await;

        // An edit like any other: undone, the volume is gone from the design and the field.
        b.press(&[CONTROL], 'z').await;
        eventually("undo takes the volume back", || async {
            b.saved_design()
                .await
                .entity("Order")
                .is_some_and(|e| e.volume.is_none())
                && b.value("[aria-label='Items of Order']").await.is_empty()
        })
        .await;

        if b.inject_axe().await {
            for scheme in ["light", "dark"] {
                b.prefer_color_scheme(scheme).await;
                let found = b.axe(&format!("{scheme} migrate timeline")).await;
                assert!(found.is_empty(), "{found:#?}");
            }
        }
        b.screenshot("migrate-timeline-dark").await;
    });
}
