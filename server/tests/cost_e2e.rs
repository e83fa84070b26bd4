//! The Cost tab in a real browser (issue 16 item 5): every table's bill under every billing
//! mode side by side, in Standard and Standard-IA, at the prices of the Region chosen, with a
//! volume set on an entity counted in storage. What each figure is, is decided and tested in
//! core (core/src/cost/tests.rs); this checks that the app shows it and that the Region
//! choice changes it.

mod browser;

use browser::{Browser, app_test_with_server, eventually};

/// The rows of the first table's billing modes: mode, Standard, Standard-IA (the order example
/// has two tables, each with its five modes).
async fn modes(b: &Browser) -> Vec<String> {
    let mut rows = b.texts("[data-testid=billing-modes] tbody tr").await;
    rows.truncate(5);
    rows
}

/// The storage table's row for the orders table shows `items`.
async fn orders_stored(b: &Browser, items: &str) {
    let storage = b.texts(".cost-table tbody tr").await;
    assert!(
        storage
            .iter()
            .any(|r| r.starts_with("orders") && r.contains(items)),
        "{storage:?}"
    );
}

#[test]
fn the_cost_tab_shows_every_billing_mode_and_follows_the_region() {
    app_test_with_server(async |server, b| {
        // The order example, its orders holding a billion items.
        let mut design = keyplan_core::examples::first();
        design
            .entities
            .iter_mut()
            .find(|e| e.name == "Order")
            .expect("Order")
            .volume = Some(keyplan_core::model::Volume::items(1_000_000_000));
        b.store_as_open_design(&keyplan_core::file::to_string(&design))
            .await;
        b.visit(&server.url).await;
        b.press(&[], '3').await;
        b.find("[data-testid=billing-modes]").await;
        let rows = modes(b).await;
        let labels: Vec<String> = rows
            .iter()
            .map(|r| {
                r.split(['\t', '$', '—'])
                    .next()
                    .unwrap_or_default()
                    .trim()
                    .to_string()
            })
            .collect();
        assert_eq!(
            labels,
            [
                "on-demand",
                "provisioned, auto scaling",
                "provisioned at peak",
                "provisioned, 1-year reserved",
                "provisioned, 3-year reserved"
            ],
            "{rows:?}"
        );
        // Reserved capacity is not sold for Standard-IA.
        assert!(rows[3].ends_with('—'), "{rows:?}");
        // The billion orders are stored: the storage table counts them.
        orders_stored(b, "1000").await;
        let us_east = rows[0].clone();
        b.select("[data-testid=region]", "eu-west-1").await;
        eventually("the on-demand figure at eu-west-1's prices", || async {
            modes(b).await[0] != us_east
        })
        .await;
        let caption = b.text("[data-testid=billing-modes] caption").await;
        assert!(caption.contains("eu-west-1"), "{caption}");
    });
}

#[test]
fn an_entitys_items_in_production_set_in_the_inspector_are_stored_and_counted() {
    app_test_with_server(async |server, b| {
        b.visit(&server.url).await;
        b.press(&[], '1').await;
        b.click("[data-entity=Order] .card-head").await;
        b.type_into("[data-testid=entity-volume]", "2800000000")
            .await;
        eventually("the volume is in the design", || async {
            b.saved_design()
                .await
                .entity("Order")
                .and_then(|e| e.volume)
                .map(|v| (v.items, v.item_bytes))
                == Some((2_800_000_000, None))
        })
        .await;
        // The field keeps the focus (a `3` would go into it): the tab is clicked.
        b.click("[data-testid=tab-cost]").await;
        b.find("[data-testid=billing-modes]").await;
        orders_stored(b, "2800").await;
    });
}

// issue 19: a design of 400 patterns draws its pattern rows a chunk a frame (so opening the tab
// is never one long task); every row is there once the chunks have come, in design order.
#[test]
fn every_patterns_row_of_a_large_design_is_drawn() {
    app_test_with_server(async |server, b| {
        let design = browser::generated_design(100);
        b.open_design(&server.url, &design).await;
        b.click("[data-testid=tab-cost]").await;
        b.find("[data-testid=pattern-costs]").await;
        eventually("all 400 pattern rows", || async {
            b.texts("[data-testid=pattern-costs] tbody tr").await.len() == 400
        })
        .await;
        // Their text as the document has it: rows off screen are not laid out (their
        // `innerText` is empty) until scrolled to.
        let names = browser::strings(
            &b.js("return Array.from(document.querySelectorAll('[data-testid=pattern-costs] tbody tr td:first-child'), td => td.textContent.trim());")
                .await,
        );
        let expected: Vec<&str> = design.patterns.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, expected);
    });
}
