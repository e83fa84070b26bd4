//! Where the user types next, and what the editor says, in a real browser (issue 43, items 2
//! and 4): a new entity, attribute or pattern puts the caret in its Name field, seen in
//! the inspector; selecting another item starts the inspector at its top; the sidebars' rows
//! fit their column at the stated widths (measured with getBoundingClientRect, not eyeballed);
//! the copy counts in words; and typing in a key template leaves the rest of the entity's
//! editor as it was (item 8). Screenshots go to `test-output/`.

mod browser;

use browser::{Browser, app_test, eventually};

/// What has the keyboard focus: its `data-testid`, else its `aria-label`.
async fn focused(b: &Browser) -> String {
    b.js("const e = document.activeElement; return e ? (e.dataset.testid || e.getAttribute('aria-label') || e.tagName) : '';")
        .await
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// Waits until the focused element is `what` and lies whole inside the inspector's box.
async fn caret_in(b: &Browser, what: &str) {
    eventually(&format!("the caret is in {what}, seen in the inspector"), || async {
        let seen = b
            .js("const e = document.activeElement, i = document.querySelector('[data-testid=inspector]');\
                 if (!e || !i || !i.contains(e)) return false;\
                 const r = e.getBoundingClientRect(), s = i.getBoundingClientRect();\
                 return r.top >= s.top && r.bottom <= s.bottom;")
            .await
            .as_bool()
            .unwrap_or(false);
        seen && focused(b).await == what
    })
    .await;
}

/// The inspector's scroll offset.
async fn inspector_scroll(b: &Browser) -> f64 {
    b.js("return document.querySelector('[data-testid=inspector]').scrollTop;")
        .await
        .as_f64()
        .unwrap_or(-1.0)
}

// issue 43, item 2: a new thing was added below the fold, and the caret stayed where it was.
#[test]
fn a_new_entity_attribute_or_pattern_puts_the_caret_in_its_name_field() {
    app_test(async |b| {
        b.client.set_window_size(1440, 900).await.expect("resize");
        b.mouse_click("[data-entity=Order] .card-head").await;
        b.find("[data-testid=add-attribute]").await;
        // Order's attribute rows, counted before the click: counted after it, the count could
        // be read before the new row was drawn (and the wait below be for the last old row).
        let rows = "[data-testid=inspector] .attr-row";
        let before = b.texts(rows).await.len();
        assert!(before > 0, "Order's attributes are listed");
        b.mouse_click("[data-testid=add-attribute]").await;
        eventually("the new attribute's row is drawn", || async {
            b.texts(rows).await.len() == before + 1
        })
        .await;
        caret_in(b, &format!("Name of attribute {}", before + 1)).await;

        b.mouse_click("[data-testid=add-pattern]").await;
        caret_in(b, "pattern-name-input").await;

        b.mouse_click("[data-testid=add-entity]").await;
        caret_in(b, "entity-name-input").await;
        b.screenshot("focus-new-entity").await;
    });
}

/// The entity's Table select: its value and each option's, the selected one marked.
async fn table_select(b: &Browser) -> Vec<String> {
    let v = b
        .js("const s = document.querySelector('[data-testid=inspector] select[aria-label=Table]'); return [s.value, ...Array.from(s.options).map(o => o.value + (o.selected ? ' selected' : ''))];")
        .await;
    serde_json::from_value(v).unwrap_or_default()
}

// issue 43, item 8: every keystroke in a key template made the Table select's options again
// (each option's value and selection written into the page again, and drawn again), though
// they show the tables and the entity's table, which a keystroke does not change. Choosing a
// table still moves the entity, and the select shows it.
#[test]
fn a_keystroke_in_a_template_leaves_the_table_select_alone() {
    app_test(async |b| {
        b.mouse_click("[data-entity=Order] .card-head").await;
        b.find("[data-testid=template-PK]").await;
        assert_eq!(
            table_select(b).await,
            ["orders", "orders selected", "order-events"]
        );
        b.js("window.__tableWrites = []; new MutationObserver(l => window.__tableWrites.push(...l.map(r => r.type + ' ' + (r.attributeName || '') + ' ' + r.target.nodeName))).observe(document.querySelector('[data-testid=inspector] select[aria-label=Table]'), { subtree: true, childList: true, attributes: true, characterData: true }); return 0;")
            .await;
        let before = b.value("[data-testid=template-PK]").await;
        b.mouse_click("[data-testid=template-PK]").await;
        let field = b.find("[data-testid=template-PK]").await;
        field.send_keys("#X").await.expect("type in the template");
        eventually("the template took the keystrokes", || async {
            b.value("[data-testid=template-PK]").await.len() == before.len() + 2
        })
        .await;
        // Mutation records are delivered in a microtask after the change: read after a frame.
        let writes = b
            .js_async(
                "const done = arguments[arguments.length - 1]; requestAnimationFrame(() => setTimeout(() => done(window.__tableWrites), 0));",
                Vec::new(),
            )
            .await;
        assert_eq!(
            writes,
            serde_json::json!([]),
            "the keystrokes wrote the select again"
        );

        b.select(
            "[data-testid=inspector] select[aria-label=Table]",
            "order-events",
        )
        .await;
        eventually(
            "Order moved to order-events, and the select says so",
            || async {
                table_select(b).await == ["order-events", "orders", "order-events selected"]
            },
        )
        .await;
        b.screenshot("focus-table-select-moved").await;
    });
}

// issue 43, item 2: the inspector kept the last item's scroll, so the next one opened halfway.
#[test]
fn selecting_another_item_starts_the_inspector_at_its_top() {
    app_test(async |b| {
        b.client.set_window_size(1024, 768).await.expect("resize");
        b.mouse_click("[data-entity=Order] .card-head").await;
        b.find("[data-testid=add-attribute]").await;
        b.js("const i = document.querySelector('[data-testid=inspector]'); i.scrollTop = i.scrollHeight;")
            .await;
        assert!(
            inspector_scroll(b).await > 0.0,
            "the Order editor is taller than the window"
        );
        b.mouse_click("[data-entity=Customer] .card-head").await;
        eventually("the inspector shows Customer from its top", || async {
            b.value("[data-testid=entity-name-input]").await == "Customer"
                && inspector_scroll(b).await == 0.0
        })
        .await;
    });
}

/// Every element matching `rows` whose children `cells` do not share one line (no height all
/// their boxes cross), or that pass their row's or the row's parent's right edge.
async fn rows_not_on_one_line(b: &Browser, rows: &str, cells: &str) -> Vec<String> {
    let v = b
        .js_on(
            rows,
            &format!(
                "return Array.from(document.querySelectorAll(arguments[0])).flatMap(row => {{\
                   const r = row.getBoundingClientRect();\
                   const cells = Array.from(row.querySelectorAll({cells:?})).map(c => c.getBoundingClientRect());\
                   const one_line = Math.max(...cells.map(c => c.top)) < Math.min(...cells.map(c => c.bottom));\
                   const wide = cells.some(c => c.right > r.right + 0.5) || r.right > row.parentElement.getBoundingClientRect().right + 0.5;\
                   return (!one_line || wide) ? [(row.getAttribute('aria-label') || row.className) + ': tops ' + cells.map(c => Math.round(c.top)) + ', rights ' + cells.map(c => Math.round(c.right)) + ' in ' + Math.round(r.right)] : [];\
                 }});"
            ),
        )
        .await;
    browser::strings(&v)
}

/// Every element matching `css` that passes the right edge of the sidebar holding it.
async fn past_the_sidebar(b: &Browser, css: &str) -> Vec<String> {
    let v = b
        .js_on(
            css,
            "return Array.from(document.querySelectorAll(arguments[0])).flatMap(e => {\
               const side = e.closest('.sidebar'); if (!side) return [];\
               const r = e.getBoundingClientRect(), s = side.getBoundingClientRect();\
               return r.right > s.right - 1 ? [e.textContent + ': right ' + r.right + ' past ' + s.right]\
                    : r.left < s.left ? [e.textContent + ': left ' + r.left + ' before ' + s.left] : [];\
             });",
        )
        .await;
    browser::strings(&v)
}

// issue 43, item 2: an attribute took two lines, its known values under its name, then kept
// one line by cutting the names; a key template's field and a quick fix passed the sidebar's
// edge.
#[test]
fn attribute_rows_fit_one_line_and_key_rows_stay_in_the_sidebar() {
    app_test(async |b| {
        b.client.set_window_size(1440, 900).await.expect("resize");
        b.mouse_click("[data-entity=Order] .card-head").await;
        b.find("[data-testid=inspector] .attr-row").await;
        b.js("document.querySelector('[data-testid=inspector] .attr-row').scrollIntoView();")
            .await;
        b.screenshot("focus-attributes-1440").await;
        // At 1440 px the rows kept one line by cutting the names (`customer`, `fulfillme`).
        let cut = b
            .js("return Array.from(document.querySelectorAll('[data-testid=inspector] .attr-row > input.mono'))\
                 .filter(i => i.scrollWidth > i.clientWidth).map(i => i.value + ': ' + i.scrollWidth + ' in ' + i.clientWidth);")
            .await;
        let cut = browser::strings(&cut);
        assert!(cut.is_empty(), "names cut: {cut:?}");
        let wrapped = rows_not_on_one_line(
            b,
            "[data-testid=inspector] .attr-row",
            ":scope > input, :scope > select, :scope > label, :scope > button",
        )
        .await;
        assert!(wrapped.is_empty(), "{wrapped:?}");
        // A key and its template on one line; its diagnostics go under them.
        let wide = rows_not_on_one_line(
            b,
            ".template-row",
            ":scope > .key-chip, :scope > .template-field",
        )
        .await;
        assert!(wide.is_empty(), "{wide:?}");
        // The order design's KP025 findings carry the longest fixes.
        b.mouse_click("[data-testid=findings-tab]").await;
        b.find(".finding-fix").await;
        b.screenshot("focus-findings-1440").await;
        let fixes = past_the_sidebar(b, ".quick-fix, .finding-fix").await;
        assert!(fixes.is_empty(), "{fixes:?}");
    });
}

// issue 43, item 2: at 1024 px the coverage summary was cut to "7 of 8 read pa…".
#[test]
fn the_coverage_summary_is_read_whole_at_1024_px() {
    app_test(async |b| {
        b.client.set_window_size(1024, 768).await.expect("resize");
        let cut = b
            .js("const c = document.querySelector('[data-testid=coverage-summary]'); return c.scrollWidth > c.clientWidth + 0.5;")
            .await;
        b.screenshot("focus-topbar-1024").await;
        // The pattern list's "+ Access pattern" and "Suggest keys" overflowed the sidebar's
        // left edge at 1024 px, its first letter cut ("ccess pattern").
        let out = past_the_sidebar(b, ".panel-actions .button").await;
        assert!(out.is_empty(), "{out:?}");
        assert_eq!(
            cut.as_bool(),
            Some(false),
            "the summary is cut: {}",
            b.text("[data-testid=coverage-summary]").await
        );
    });
}

// issue 43, item 4: after an undo took the rename back, "Rename in patterns" was still offered,
// its edit worked out on a design that was gone.
#[test]
fn an_offer_is_withdrawn_when_the_design_changes_under_it() {
    app_test(async |b| {
        b.click("[data-entity=Order] .card-head").await;
        b.type_into("[aria-label='Name of attribute 1']", "id")
            .await;
        b.find("[data-testid=rename-offer]").await;
        b.mouse_click("[aria-label='Undo (Ctrl+Z)']").await;
        eventually("the undo took the rename back", || async {
            b.value("[aria-label='Name of attribute 1']").await == "orderId"
        })
        .await;
        eventually("the offer is withdrawn", || async {
            !b.has("[data-testid=rename-offer]").await
        })
        .await;
    });
}

// issue 43, item 4: an empty table key said "not in this index (sparse)": an item cannot leave
// the table's own key out.
#[test]
fn the_table_keys_placeholder_says_it_is_required() {
    app_test(async |b| {
        b.new_blank_design().await;
        b.mouse_click(".canvas-empty button").await;
        let placeholder = b
            .find("[data-testid=template-PK]")
            .await
            .attr("placeholder")
            .await
            .expect("attr")
            .unwrap_or_default();
        assert!(placeholder.contains("required"), "{placeholder}");
        assert!(!placeholder.contains("sparse"), "{placeholder}");
    });
}

// issue 43, item 2: the pattern list opened another design scrolled as far as the last one.
#[test]
fn another_design_opens_with_its_pattern_list_at_the_top() {
    app_test(async |b| {
        b.client.set_window_size(1024, 768).await.expect("resize");
        let scrolled = "const l = document.querySelector('.panel-body:has([data-testid=add-pattern])'); l.scrollTop = l.scrollHeight; return l.scrollTop;";
        assert!(
            b.js(scrolled).await.as_f64().unwrap_or(0.0) > 0.0,
            "the list scrolls"
        );
        b.mouse_click_on(b.button("New").await).await;
        b.mouse_click("[data-testid=gallery-example][data-slug=saas-multi-tenant]")
            .await;
        eventually("the SaaS design's list shows from its top", || async {
            b.text("[data-testid=design-title]").await == "SaaS multi-tenant"
                && b.js("return document.querySelector('.panel-body:has([data-testid=add-pattern])').scrollTop;")
                    .await
                    .as_f64()
                    == Some(0.0)
        })
        .await;
    });
}

// issue 43, item 4: the top bar said "1 error" in red while the field listed the same KP002
// in a warning's amber, and the Findings list's ERROR was a third red.
#[test]
fn an_error_has_one_colour_in_the_top_bar_the_findings_and_the_field() {
    app_test(async |b| {
        b.click("[data-entity=Order] .card-head").await;
        b.type_into("[data-testid=template-PK]", "ORDER#{nowhere}")
            .await;
        b.mouse_click("[data-testid=findings-tab]").await;
        b.find("[data-code=KP002] .severity").await;
        for scheme in ["light", "dark"] {
            b.prefer_color_scheme(scheme).await;
            let seen = b
                .js("const colour = e => e ? getComputedStyle(e).color : 'missing';\
                     const field = Array.from(document.querySelectorAll('.diagnostic')).find(d => d.textContent.startsWith('KP002'));\
                     return ['topbar ' + colour(document.querySelector('[data-testid=coverage-summary]')),\
                             'findings ' + colour(document.querySelector('[data-code=KP002] .severity')),\
                             'field ' + colour(field)];")
                .await;
            let seen = browser::strings(&seen);
            b.screenshot(&format!("focus-error-colours-{scheme}")).await;
            let distinct: std::collections::BTreeSet<&str> = seen
                .iter()
                .map(|s| s.split_once(' ').map_or("", |(_, c)| c))
                .collect();
            assert_eq!(distinct.len(), 1, "{scheme}: {seen:?}");
        }
    });
}
