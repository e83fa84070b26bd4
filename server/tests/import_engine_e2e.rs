//! "Import from engine" in the app, end to end (issue 17): a dynoxide engine started by the
//! test holds the order example's `orders` table with its sample; the real `keyplan serve`
//! names it (`--endpoint dynoxide=URL`); in a real browser the user opens the dialog from the
//! design list, picks the engine and the table, imports, and the design the server infers
//! opens as a new local design while the one open before stays in the list. The engine holds
//! the same items afterwards. A table that went away and an engine that does not answer are
//! reported with the server's message. The dialog's rules (URLs, the sample field, the words)
//! are unit-tested in `app/src/engine_import.rs`. Saves `test-output/engine-import-*.png`.
#![allow(clippy::unwrap_used)]

mod browser;
mod run_support;

use browser::{
    Browser, CONTROL, ENTER, ESCAPE, RELEASE, SHIFT, eventually, prerequisites, start_server_with,
};
use keyplan_core::import::live::{self, Options};
use keyplan_server::engine::Engine;
use keyplan_server::runner::tables::TableGuard;
use run_support::{dynoxide_endpoint, examples, item_count, load_design};

/// The order example's `orders` table on `engine` with 12 customers' items.
async fn orders_on(engine: &Engine) -> (TableGuard, String) {
    let (_, mut design, _) = examples(None).remove(0);
    design.tables.retain(|t| t.name == "orders");
    design.entities.retain(|e| e.table == "orders");
    design.patterns.clear();
    let counts = [("Customer".to_string(), 12)].into_iter().collect();
    let (guard, names) = load_design(engine, &design, &counts).await;
    (guard, names["orders"].clone())
}

/// `keyplan serve` naming the test's engine `dynoxide` (and `more` arguments), with the app
/// open in a fresh browser; `None` when the prerequisites are missing.
async fn app_naming(engine: &Engine, more: &[&str]) -> Option<(browser::Server, Browser)> {
    let dist = prerequisites()?;
    let keyplan_server::engine::EngineKind::Endpoint { url } = &engine.kind else {
        panic!("the test's engine is an endpoint");
    };
    let endpoint = format!("dynoxide={url}");
    let mut args = vec!["--endpoint", endpoint.as_str()];
    args.extend_from_slice(more);
    let server = start_server_with(&dist, &args);
    let b = Browser::open().await;
    b.visit(&server.url).await;
    Some((server, b))
}

/// Opens the dialog from the design list and picks the engine `name`.
async fn open_dialog_on(b: &Browser, name: &str) {
    b.click("[data-testid=design-switcher]").await;
    b.find("[data-testid=engine-import-open]").await;
    b.screenshot("engine-import-design-list").await;
    b.click("[data-testid=engine-import-open]").await;
    b.find("[role=dialog][aria-label='Import from engine']")
        .await;
    b.select("[data-testid=engine-import-engine]", name).await;
}

/// The checkbox of table `table` in the dialog, once listed.
fn table_box(table: &str) -> String {
    format!("[data-testid=engine-import-table][value='{table}']")
}

/// Saves a screenshot in the colour scheme `scheme`, once the buttons' colour transitions into
/// it have ended.
async fn screenshot_in(b: &Browser, scheme: &str, name: &str) {
    b.prefer_color_scheme(scheme).await;
    b.js_async(
        "const done = arguments[arguments.length - 1];\
         requestAnimationFrame(() => Promise.all(document.getAnimations()\
           .filter(a => a.effect?.getTiming().iterations !== Infinity)\
           .map(a => a.finished.catch(() => 0))).then(() => done(0)));",
        Vec::new(),
    )
    .await;
    b.screenshot(name).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_imported_from_an_engine_opens_as_a_new_design_and_the_engine_is_unchanged() {
    let (_stop, engine, _) = dynoxide_endpoint().await;
    let (_guard, table) = orders_on(&engine).await;
    let before = item_count(&engine, &table).await;
    assert!(before > 12, "the sample is loaded: {before} items");
    // What the server will infer from the same table, read here through the same functions.
    let read =
        keyplan_server::live::read_tables(&engine, std::slice::from_ref(&table), 1_000, &|_| {})
            .await
            .unwrap();
    let expected = live::import(
        &table,
        read.into_iter().map(|(t, _)| t).collect(),
        Options::default(),
    )
    .design;
    let mut expected_entities = browser::entity_names_of(&expected);
    expected_entities.sort();
    assert!(!expected_entities.is_empty());

    let Some((_server, b)) = app_naming(&engine, &[]).await else {
        return;
    };
    let first = b.text("[data-testid=design-title]").await;

    open_dialog_on(&b, "dynoxide").await;
    // The engine lists the table with the items DescribeTable counts.
    b.find(&table_box(&table)).await;
    let label = b
        .js_on(
            &table_box(&table),
            "return document.querySelector(arguments[0]).closest('label').innerText;",
        )
        .await;
    let label = label.as_str().unwrap_or_default().to_string();
    assert_eq!(label.trim(), format!("{table} (about {before} items)"));
    b.click(&table_box(&table)).await;
    for (scheme, width, height) in [
        ("light", 1440, 900),
        ("dark", 1440, 900),
        ("dark", 1024, 768),
        ("light", 1024, 768),
    ] {
        b.client.set_window_size(width, height).await.unwrap();
        screenshot_in(&b, scheme, &format!("engine-import-{scheme}-{width}")).await;
    }
    // The import's request is held until the busy state has been seen, and its streamed
    // answer's last line (the design) until the progress it streamed before has been seen.
    b.js("const fetch = window.fetch;\
          window.__keyplanRelease = new Promise(r => { window.__keyplanReleaseNow = r; });\
          window.__keyplanAnswer = new Promise(r => { window.__keyplanAnswerNow = r; });\
          const hold = response => {\
            if (!response.body) return response;\
            const decoder = new TextDecoder(), encoder = new TextEncoder();\
            let pending = '';\
            const held = new TransformStream({\
              async transform(chunk, controller) {\
                pending += decoder.decode(chunk, { stream: true });\
                const lines = pending.split('\\n'); pending = lines.pop();\
                for (const line of lines) {\
                  if (line.includes('\"answer\"')) await window.__keyplanAnswer;\
                  controller.enqueue(encoder.encode(line + '\\n'));\
                }\
              },\
              flush(controller) { if (pending) controller.enqueue(encoder.encode(pending)); },\
            });\
            return new Response(response.body.pipeThrough(held),\
              { status: response.status, headers: response.headers });\
          };\
          window.fetch = (request, init) => String(request.url ?? request).includes('/api/import/engine')\
            ? window.__keyplanRelease.then(() => fetch(request, init)).then(hold) : fetch(request, init);\
          return 0;")
        .await;
    b.click("[data-testid=engine-import-start]").await;
    assert_eq!(
        b.text("[data-testid=engine-import-reading]").await,
        format!(
            "Reading {table} from dynoxide: describing, then scanning at most 1,000 items per table, then inferring the entities…"
        )
    );
    assert_eq!(
        b.text("[data-testid=engine-import-start]").await,
        "Importing…"
    );
    screenshot_in(&b, "light", "engine-import-busy-light-1024").await;
    b.js("window.__keyplanReleaseNow(); return 0;").await;
    // issue 17 item 2: the dialog says how far the scan has read, page by page, to the end.
    b.find("[data-testid=engine-import-progress][aria-valuenow='100']")
        .await;
    assert_eq!(
        b.text("[data-testid=engine-import-reading]").await,
        format!("Read {table} from dynoxide: {before} items; inferring the entities…")
    );
    screenshot_in(&b, "dark", "engine-import-progress-dark-1024").await;
    b.js("window.__keyplanAnswerNow(); return 0;").await;

    let toast = b.toast_containing("Imported").await;
    assert!(
        toast.starts_with(&format!(
            "Imported {table} from dynoxide as \u{201c}{table}\u{201d}: 1 table, {}, {before} items read",
            entities_in_words(expected_entities.len())
        )),
        "{toast}"
    );
    assert!(!b.has("[data-testid=dialog]").await, "the dialog closed");
    assert_eq!(b.text("[data-testid=design-title]").await, table);
    let opened = b.saved_design().await;
    let mut entities = browser::entity_names_of(&opened);
    entities.sort();
    assert_eq!(entities, expected_entities);
    assert_eq!(opened.tables[0].name, table);
    assert_eq!(
        b.texts(".card").await.len(),
        expected_entities.len(),
        "a card per inferred entity"
    );
    // A new design: the one open before is still in the list.
    let designs = b.local_designs().await;
    assert_eq!(designs, [table.clone(), first], "{designs:?}");
    // Read-only: the engine holds what it held.
    assert_eq!(item_count(&engine, &table).await, before);
    b.close().await;
}

/// "4 entities", as the toast counts them.
fn entities_in_words(n: usize) -> String {
    match n {
        1 => "1 entity".to_string(),
        n => format!("{n} entities"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_gone_and_an_engine_that_does_not_answer_are_reported_with_the_servers_message() {
    let (_stop, engine, _) = dynoxide_endpoint().await;
    let (_guard, table) = orders_on(&engine).await;
    // Nothing listens at the other engine's address.
    let more = ["--endpoint", "dead=http://127.0.0.1:1"];
    let Some((_server, b)) = app_naming(&engine, &more).await else {
        return;
    };
    let first = b.text("[data-testid=design-title]").await;

    open_dialog_on(&b, "dynoxide").await;
    b.click(&table_box(&table)).await;
    // The table goes after it was listed, before the import.
    engine
        .client
        .delete_table()
        .table_name(&table)
        .send()
        .await
        .unwrap();
    b.click("[data-testid=engine-import-start]").await;
    let error = b.text("[data-testid=engine-import-error]").await;
    assert_eq!(
        error,
        format!("The import failed: engine `dynoxide` has no table `{table}`")
    );
    // Nothing opened: the dialog stays, on the same design.
    assert!(b.has("[data-testid=engine-import]").await);
    screenshot_in(&b, "dark", "engine-import-error-dark").await;

    b.select("[data-testid=engine-import-engine]", "dead").await;
    // Within the engine's 5-second preflight, the server's 502 message.
    eventually("the dead engine's message", || async {
        b.texts("[data-testid=engine-import-error]")
            .await
            .iter()
            .any(|e| e.starts_with("The tables could not be listed: cannot reach engine `dead`"))
    })
    .await;
    b.press(&[], ESCAPE).await;
    assert_eq!(b.text("[data-testid=design-title]").await, first);
    assert_eq!(b.local_designs().await, [first]);
    b.close().await;
}

/// Where focus is: the element's `data-testid` (else its tag), and whether it is in the dialog.
async fn focus(b: &Browser) -> (String, bool) {
    let v = b
        .js("const a = document.activeElement;\
             return [a.dataset.testid || a.tagName.toLowerCase(), a.closest('[role=dialog]') !== null];")
        .await;
    (
        v[0].as_str().unwrap_or_default().to_string(),
        v[1].as_bool().unwrap_or(false),
    )
}

const TAB: char = '\u{E004}';

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_dialog_works_by_keyboard_alone_keeps_focus_inside_and_passes_axe() {
    let (_stop, engine, _) = dynoxide_endpoint().await;
    let (_guard, table) = orders_on(&engine).await;
    let Some((_server, b)) = app_naming(&engine, &[]).await else {
        return;
    };

    // From the gallery this time ("New").
    b.click_button("New").await;
    b.find("[data-testid=engine-import-open]").await;
    screenshot_in(&b, "light", "engine-import-gallery").await;
    b.click("[data-testid=engine-import-open]").await;
    // Once the engines are listed, the first one has focus.
    b.find("[data-testid=engine-import-empty]").await;
    eventually("the engine list takes focus", || async {
        focus(&b).await == ("engine-import-engine".to_string(), true)
    })
    .await;
    b.select("[data-testid=engine-import-engine]", "dynoxide")
        .await;
    b.find(&table_box(&table)).await;
    if b.inject_axe().await {
        for scheme in ["light", "dark"] {
            screenshot_in(&b, scheme, &format!("engine-import-axe-{scheme}")).await;
            let found = b.axe(&format!("{scheme} import from engine")).await;
            assert!(found.is_empty(), "{}", found.join("\n"));
        }
    }

    b.js("document.querySelector('[data-testid=engine-import-engine]').focus(); return 0;")
        .await;
    let mut visited = Vec::new();
    for _ in 0..6 {
        b.press(&[], TAB).await;
        let (at, inside) = focus(&b).await;
        assert!(inside, "Tab left the dialog for {at}");
        visited.push(at);
    }
    // Engine, all tables, the table, the sample, Cancel (Import is off: no table is picked),
    // then round to Close and the engine again.
    assert_eq!(
        visited,
        [
            "engine-import-all",
            "engine-import-table",
            "engine-import-sample",
            "engine-import-cancel",
            "dialog-close",
            "engine-import-engine"
        ]
    );
    b.press(&[SHIFT], TAB).await;
    b.press(&[SHIFT], TAB).await;
    assert_eq!(focus(&b).await, ("engine-import-cancel".to_string(), true));
    // Pick the table with Space, then sample 25 items.
    b.press(&[SHIFT], TAB).await;
    b.press(&[SHIFT], TAB).await;
    assert_eq!(focus(&b).await.0, "engine-import-table");
    b.press(&[], ' ').await;
    b.press(&[], TAB).await;
    b.find("[data-testid=engine-import-sample]")
        .await
        .send_keys(&format!("{}a{}25", CONTROL, RELEASE))
        .await
        .expect("type the sample size");
    b.press(&[], TAB).await;
    b.press(&[], TAB).await;
    assert_eq!(focus(&b).await.0, "engine-import-start");
    b.press(&[], ENTER).await;
    let toast = b.toast_containing("Imported").await;
    assert!(toast.contains(", 25 items read"), "{toast}");
    assert_eq!(b.text("[data-testid=design-title]").await, table);
    b.close().await;
}
