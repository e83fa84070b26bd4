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
        orders_stored(b, "1,000,000,").await;
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
        orders_stored(b, "2,800,000,").await;
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

/// The order example before its status index was write-sharded, its order status updated
/// 3,000 times a second: every new order's status partition takes 6,200 write units a second,
/// hot, cooled by 7 shards (core/src/cost/tests.rs says so); the GSI1 reads are hot too.
fn design_with_a_hot_status_partition() -> keyplan_core::Design {
    let mut design = keyplan_core::examples::first();
    design
        .entities
        .iter_mut()
        .find(|e| e.name == "Order")
        .expect("Order")
        .keys
        .insert(
            "GSI1PK".into(),
            keyplan_core::KeyTemplate::parse("STATUS#{status}"),
        );
    design
        .patterns
        .iter_mut()
        .find(|p| p.name == "Update order status")
        .expect("the status update")
        .rate = 3_000.0;
    design
}

/// Opens `design` at `url` on its Cost tab, once its charts are drawn.
async fn open_cost_tab(b: &Browser, url: &str, design: &keyplan_core::Design) {
    b.store_as_open_design(&keyplan_core::file::to_string(design))
        .await;
    b.visit(url).await;
    b.click("[data-testid=tab-cost]").await;
    b.find("[data-testid=chart-billing] svg").await;
}

/// The rows of a chart's text for a screen reader (its table), one string a row, cells joined
/// by ` | `.
async fn chart_rows(b: &Browser, chart: &str) -> Vec<String> {
    browser::strings(
        &b.js_on(
            chart,
            "return Array.from(document.querySelectorAll(`[data-testid=${arguments[0]}] tbody tr`),\
               tr => Array.from(tr.cells, c => c.textContent.trim()).join(' | '));",
        )
        .await,
    )
}

/// The text drawn in each of a chart's rows matching `rows` (`.chart-row`, `.chart-row.marked`).
async fn drawn_rows(b: &Browser, chart: &str, rows: &str) -> Vec<String> {
    browser::strings(
        &b.js_on(
            &format!("[data-testid={chart}] svg {rows}"),
            "return Array.from(document.querySelectorAll(arguments[0]),\
               g => Array.from(g.querySelectorAll('text'), t => t.textContent).join(' '));",
        )
        .await,
    )
}

// issue 43 item 7: the Cost tab was four tables. It draws the monthly bill per billing mode
// (Standard and Standard-IA side by side), the patterns ranked by monthly cost, and each
// partition's read and write load against the per-partition limits with the hot ones marked
// and their shards, in SVG, with the figures as text for a screen reader, in both schemes.
#[test]
fn the_cost_tab_draws_the_bill_the_costliest_patterns_and_the_partitions_load() {
    app_test_with_server(async |server, b| {
        let design = design_with_a_hot_status_partition();
        open_cost_tab(b, &server.url, &design).await;
        let report = keyplan_core::cost::estimate_sampled(
            &design,
            &Default::default(),
            &keyplan_core::cost::CostConfig::default(),
        );

        // Five modes, Standard beside Standard-IA; reserved capacity is not sold for
        // Standard-IA, so 8 bars, and its cell says so.
        let bill = chart_rows(b, "chart-billing").await;
        assert_eq!(bill.len(), 5, "{bill:?}");
        // On-demand in Standard is the monthly total the tab leads with.
        let total = b.text("[data-testid=monthly-total]").await;
        assert!(
            bill[0].starts_with(&format!("on-demand | {total} | $")),
            "{bill:?}"
        );
        assert!(bill[3].ends_with("not offered"), "{bill:?}");
        let bars = b
            .js("return document.querySelectorAll('[data-testid=chart-billing] .chart-bar').length;")
            .await;
        assert_eq!(bars, 8, "bars drawn");

        // The patterns by monthly cost, the costliest first: core's figures, in core's order.
        let mut ranked = report.patterns.clone();
        ranked.sort_by(|a, b| b.monthly_cost.total_cmp(&a.monthly_cost));
        let rows = chart_rows(b, "chart-patterns").await;
        let names: Vec<&str> = rows
            .iter()
            .map(|r| r.split(" | ").next().unwrap_or_default())
            .collect();
        let expected: Vec<&str> = ranked
            .iter()
            .take(names.len())
            .map(|p| p.pattern.as_str())
            .collect();
        assert!(names.len() >= 5, "{rows:?}");
        assert_eq!(names, expected, "{rows:?}");

        // Each partition's reads and writes against 3,000 RCU and 1,000 WCU a second; the hot
        // status partition is marked with the shards that would cool it.
        let loads = chart_rows(b, "chart-partitions").await;
        assert_eq!(loads.len(), report.partitions.len(), "{loads:?}");
        let hot = drawn_rows(b, "chart-partitions", ".chart-row.marked").await;
        assert!(
            hot.iter().any(|r| r.contains("STATUS#PENDING")
                && r.contains("7 shards")
                && r.contains("6,200 WCU/s")),
            "{hot:?} of {loads:?}"
        );
        assert!(
            loads.iter().any(|r| r.contains("STATUS#PENDING")
                && r.contains("6,200 WCU/s")
                && r.contains("7 shards")),
            "{loads:?}"
        );
        assert!(b.has("[data-testid=chart-partitions] .chart-limit").await);
        b.screenshot("cost-charts-light").await;
        if b.inject_axe().await {
            for scheme in ["light", "dark"] {
                b.prefer_color_scheme(scheme).await;
                let found = b.axe(&format!("{scheme} cost charts")).await;
                assert!(found.is_empty(), "{found:#?}");
            }
        }
        b.prefer_color_scheme("dark").await;
        b.screenshot("cost-charts-dark").await;
        b.js(
            "document.querySelector('[data-testid=chart-partitions]').scrollIntoView(); return 0;",
        )
        .await;
        b.screenshot("cost-charts-partitions-dark").await;
    });
}

// issue 43 item 1: KP014's Apply had no browser test. The hot status partition's finding offers
// to write-shard the template into the shards the Cost tab asks for; Apply writes them into
// Order's template, the write finding and the hot write load go, and one Undo brings them back.
#[test]
fn kp014s_apply_writes_the_cost_reports_shard_count_into_the_template() {
    app_test_with_server(async |server, b| {
        // The shard count the Cost tab gives for the hot partition.
        open_cost_tab(b, &server.url, &design_with_a_hot_status_partition()).await;
        let hot = drawn_rows(b, "chart-partitions", ".chart-row.marked").await;
        let status = hot
            .iter()
            .find(|r| r.contains("STATUS#PENDING"))
            .unwrap_or_else(|| panic!("the status partition is hot: {hot:?}"));
        let shards: u32 = status
            .split(" shards")
            .next()
            .and_then(|s| s.rsplit(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("a shard count in {status:?}"));
        let sharded = keyplan_core::concentration::sharded(
            &keyplan_core::KeyTemplate::parse("STATUS#{status}"),
            shards,
        )
        .source()
        .to_string();

        b.click("[data-testid=tab-canvas]").await;
        b.mouse_click("[data-testid=findings-tab]").await;
        let fix = "[data-code=KP014] [data-testid=finding-fix]";
        let label = b.text(fix).await;
        assert!(
            label.contains(&format!("into {shards} shards")) && label.contains(&sharded),
            "{label}"
        );
        b.screenshot("cost-kp014-offer").await;
        // issue 43, item 2: the fix's three lines ran out of its one-line button over the
        // next finding.
        let spills = b
            .js_on(
                fix,
                "const e = document.querySelector(arguments[0]), side = e.closest('.sidebar').getBoundingClientRect();\
                 return e.scrollHeight > e.clientHeight + 1 || e.getBoundingClientRect().right > side.right;",
            )
            .await;
        assert_eq!(
            spills.as_bool(),
            Some(false),
            "the fix's label spills out of its button"
        );
        b.mouse_click(fix).await;
        eventually(
            "the Apply wrote the shards into Order's template",
            || async { b.has("[data-entity=Order]").await && !b.has(fix).await },
        )
        .await;
        b.mouse_click("[data-entity=Order] .card-head").await;
        assert_eq!(b.value("[data-testid=template-GSI1PK]").await, sharded);
        let saved = b.saved_design().await;
        let order = saved.entity("Order").expect("Order");
        assert_eq!(
            order.key_template("GSI1PK").map(|t| t.source().to_string()),
            Some(sharded.clone())
        );
        b.click("[data-testid=tab-cost]").await;
        b.find("[data-testid=chart-partitions] svg").await;
        b.screenshot("cost-kp014-applied").await;

        b.mouse_click("[aria-label='Undo (Ctrl+Z)']").await;
        b.click("[data-testid=tab-canvas]").await;
        eventually("one Undo takes the shards back", || async {
            b.value("[data-testid=template-GSI1PK]").await == "STATUS#{status}" && b.has(fix).await
        })
        .await;
    });
}
