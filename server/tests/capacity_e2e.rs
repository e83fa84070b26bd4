//! The capacity a table is given, edited in the table inspector of a real browser (issue 40):
//! billing mode, read and write units, auto scaling's bounds, a GSI's own units; each edit an
//! undoable edit of the design, with KP031 (throttling) and the cost report's "provisioned as
//! given" row following it. What KP031 and the bill say is decided and tested in core; this
//! checks that the app shows what core says of the design the app holds. (The PartiQL field's
//! verdict is tested in `partiql_e2e.rs`.)

mod browser;

use browser::{Browser, CONTROL, app_test, eventually};
use keyplan_core::{Billing, Dimension};

/// Whether core finds KP031 in `design`.
fn throttles(design: &keyplan_core::Design) -> bool {
    keyplan_core::analyze(design)
        .findings
        .iter()
        .any(|f| f.code == "KP031")
}

/// Waits until the findings list shows KP031 exactly when core finds it in the app's design,
/// and returns whether it does.
async fn kp031_as_core_says(b: &Browser, what: &str) -> bool {
    eventually(what, || async {
        let design = b.saved_design().await;
        b.has("[data-code=KP031]").await == throttles(&design)
    })
    .await;
    b.has("[data-code=KP031]").await
}

/// The first table's "provisioned as given" row of the cost report.
async fn as_given(b: &Browser) -> String {
    b.texts("[data-testid=billing-modes] tbody tr")
        .await
        .into_iter()
        .find(|r| r.starts_with("provisioned as given"))
        .unwrap_or_default()
}

#[test]
fn a_tables_capacity_is_edited_in_the_inspector_and_kp031_and_the_cost_follow() {
    app_test(async |b| {
        b.mouse_click("[data-testid=findings-tab]").await;
        b.click(".table-head").await;
        b.select("[aria-label='Billing mode']", "provisioned").await;
        eventually("the capacity fields show", || async {
            b.value("[aria-label='Read units']").await == "5"
        })
        .await;
        // 5 units a second against the example's peak: throttled, and said so.
        assert!(
            kp031_as_core_says(b, "KP031 at 5 units").await,
            "5 units throttle"
        );
        b.screenshot("capacity-inspector").await;

        b.click_and_type("[aria-label='Read units']", "40000").await;
        b.click_and_type("[aria-label='Write units']", "40000")
            .await;
        b.click_and_type("[aria-label='GSI1 write units']", "2")
            .await;
        eventually("the capacities are in the design", || async {
            let design = b.saved_design().await;
            let billing = &design.tables[0].billing;
            billing.units(None, Dimension::Read) == Some(40_000)
                && billing.units(Some("GSI1"), Dimension::Write) == Some(2)
                && billing.units(Some("GSI2"), Dimension::Write) == Some(40_000)
        })
        .await;
        // GSI1 short of writes holds the table's writes back: KP031 says so, naming it.
        assert!(kp031_as_core_says(b, "KP031 with GSI1 at 2 writes").await);
        let finding = b.text("[data-code=KP031]").await;
        assert!(finding.contains("GSI1"), "{finding}");

        // A target AWS refuses is refused with the reason, and the field keeps what the
        // design holds; one it takes is kept, and undone by Ctrl+Z.
        b.click_and_type("[aria-label='Read max']", "50000").await;
        b.click_and_type("[aria-label='Read target %']", "95").await;
        let refusal = b.toast_containing("outside").await;
        assert!(refusal.contains("20% to 90%"), "{refusal}");
        assert_eq!(b.value("[aria-label='Read target %']").await, "");
        b.click_and_type("[aria-label='Read target %']", "50").await;
        eventually("the read auto scaling is in the design", || async {
            let design = b.saved_design().await;
            design.tables[0]
                .billing
                .scaling(None, Dimension::Read)
                .is_some_and(|s| s.min == 40_000 && s.max == 50_000 && s.target == Some(50.0))
        })
        .await;
        b.screenshot("capacity-auto-scaling").await;
        // At 1024 px the fields still fit the inspector, three to a row.
        b.client.set_window_size(1024, 768).await.expect("resize");
        let spills = b
            .js(
                "const side = document.querySelector('[data-testid=inspector]').getBoundingClientRect();\
                 return Array.from(document.querySelectorAll('[data-testid=table-capacity] input'))\
                   .filter(i => i.getBoundingClientRect().right > side.right + 1 || i.clientWidth < 40)\
                   .map(i => i.getAttribute('aria-label'));",
            )
            .await;
        assert_eq!(
            spills,
            serde_json::json!([]),
            "fields spill or shrink at 1024 px"
        );
        b.screenshot("capacity-1024").await;
        b.client.set_window_size(1440, 900).await.expect("resize");
        b.press(&[CONTROL], 'z').await;
        eventually("undo takes the target back", || async {
            let design = b.saved_design().await;
            design.tables[0]
                .billing
                .scaling(None, Dimension::Read)
                .is_some_and(|s| s.target.is_none())
        })
        .await;

        // The cost report's "provisioned as given" row follows the units.
        b.click("[data-testid=tab-cost]").await;
        eventually("the cost shows the capacity as given", || async {
            !as_given(b).await.is_empty()
        })
        .await;
        let before = as_given(b).await;
        // (Reads auto-scale, billed within their bounds: the write units, which do not.)
        b.click_and_type("[aria-label='Write units']", "45000")
            .await;
        eventually("the bill as given changes with the units", || async {
            let now = as_given(b).await;
            !now.is_empty() && now != before
        })
        .await;
        b.screenshot("capacity-cost").await;

        // Back to on demand: no capacity, no fields, no KP031.
        b.select("[aria-label='Billing mode']", "on_demand").await;
        eventually("the fields go", || async {
            !b.has("[aria-label='Read units']").await
                && matches!(b.saved_design().await.tables[0].billing, Billing::OnDemand)
        })
        .await;
    });
}
