//! Saving and keeping designs, end to end in a real browser (issue 12): Save writes the design
//! file `keyplan` writes (downloaded where the browser cannot write files, written back through
//! the File System Access API where it can), designs live in IndexedDB (migrated from the old
//! localStorage layout, an 80,000-item model survives a reload, an edit right before a reload
//! survives, a design too big for the browser's storage is never dropped silently), a delete is
//! confirmed and can be undone, the design list has dates, rename and duplicate; and the
//! accessibility of every view and dialog (axe-core, focus in dialogs, focus rings).
//!
//! Headless Chromium has no native file pickers a test can drive: the File System Access path
//! is fed a real file handle from the origin-private file system instead (see the harness's
//! `browser/files.rs`), so the write-back code really runs.

mod browser;

use std::path::{Path, PathBuf};

use browser::{
    Browser, CONTROL, ESCAPE, SHIFT, app_test, app_test_with_server, downloads, eventually,
    generated_design, open_app, prerequisites, start_server, workspace,
};
use serde_json::{Value, json};

async fn title_text(b: &Browser) -> String {
    b.text("[data-testid=design-title]").await
}

// issue 12: a design could not be saved as a file at all.
#[test]
fn save_downloads_the_design_file_the_cli_writes_where_the_browser_cannot_write_files() {
    app_test(async |b| {
        let dir = tempfile::tempdir().expect("a download directory");
        b.download_into(dir.path()).await;
        b.without_file_pickers().await;
        b.autosaved().await;

        b.press(&[CONTROL], 's').await;
        eventually("the design file is downloaded", || async {
            downloads(dir.path()).len() == 1
        })
        .await;
        let first = &downloads(dir.path())[0].clone();
        assert_eq!(
            first.file_name().and_then(|n| n.to_str()),
            Some("order-management.keyplan.json")
        );
        let cli = keyplan_core::file::to_string(&keyplan_core::examples::first());
        assert_eq!(std::fs::read_to_string(first).expect("read it"), cli);
        eventually("the top bar names the file", || async {
            b.texts("[data-testid=file-name]").await == ["order-management.keyplan.json"]
        })
        .await;
        assert!(!b.has("[data-testid=edited]").await);

        // An edit marks the design edited; the Save button writes the edited design.
        b.type_into("[data-testid=design-name-input]", "Order management v2")
            .await;
        b.find("[data-testid=edited]").await;
        // Chrome asks before a page's second download; grant it as a user would.
        let _ = b
            .try_cdp(
                "Browser.setPermission",
                json!({ "permission": { "name": "automatic-downloads" }, "setting": "granted" }),
            )
            .await;
        std::fs::remove_file(first).expect("remove the first download");
        b.click("[data-testid=save]").await;
        eventually("the edited design is downloaded", || async {
            downloads(dir.path()).len() == 1
        })
        .await;
        let saved = keyplan_core::file::to_string(&b.saved_design().await);
        assert!(saved.contains("Order management v2"));
        let second = &downloads(dir.path())[0];
        assert_eq!(std::fs::read_to_string(second).expect("read it"), saved);
        eventually("the edited mark goes", || async {
            !b.has("[data-testid=edited]").await
        })
        .await;

        // The export dialog offers the design file too.
        b.button("Export").await.click().await.expect("open export");
        b.click("[data-testid=export-format] option[value=keyplan]")
            .await;
        eventually("the preview is the design file", || async {
            b.text("[data-testid=export-preview]").await.trim() == saved.trim()
        })
        .await;
    });
}

// issue 12: Save writes back to the file the design was opened from; Save as asks where.
#[test]
fn save_writes_back_to_the_file_the_design_was_opened_from() {
    app_test(async |b| {
        let mut design = generated_design(3);
        design.name = "Write-back shop".into();
        let text = keyplan_core::file::to_string(&design);
        b.offer_file_to_open("shop.keyplan.json", &text).await;

        b.click("[aria-label='Open a file']").await;
        eventually("the file opens under its name", || async {
            b.texts("[data-testid=file-name]").await == ["shop.keyplan.json"]
        })
        .await;
        assert_eq!(title_text(b).await, "Write-back shop");
        assert!(!b.has("[data-testid=edited]").await);

        b.type_into("[data-testid=design-name-input]", "Write-back shop, edited")
            .await;
        b.find("[data-testid=edited]").await;
        b.press(&[CONTROL], 's').await;
        eventually("the edited mark goes once saved", || async {
            !b.has("[data-testid=edited]").await
        })
        .await;
        let expected = keyplan_core::file::to_string(&b.saved_design().await);
        assert!(expected.contains("Write-back shop, edited"));
        assert_eq!(b.file_text("shop.keyplan.json").await, expected);

        // Save as writes where the picker says and links the design to that file.
        b.offer_file_to_save("copy.keyplan.json").await;
        b.click("[data-testid=save-as]").await;
        eventually("the design is linked to the new file", || async {
            b.texts("[data-testid=file-name]").await == ["copy.keyplan.json"]
        })
        .await;
        assert_eq!(b.file_text("copy.keyplan.json").await, expected);
        assert_eq!(
            b.js("return window.suggestedName;").await,
            json!("shop.keyplan.json")
        );
    });
}

// issue 12: designs move from localStorage (the old layout) into IndexedDB on first load.
#[test]
fn designs_in_the_old_local_storage_layout_move_into_the_database() {
    app_test_with_server(async |server, b| {
        let mut legacy = generated_design(2);
        legacy.name = "Legacy shop".into();
        b.store_as_open_design(&keyplan_core::file::to_string(&legacy))
            .await;

        b.visit(&server.url).await;
        eventually("the old design opens", || async {
            title_text(b).await == "Legacy shop"
        })
        .await;
        assert_eq!(
            b.texts("[data-testid=entity-name]").await,
            ["Entity000", "Entity001"]
        );
        let left = b
        .js("return Object.keys(localStorage).filter(k => k.startsWith('keyplan.design')).length;")
        .await;
        assert_eq!(left, json!(0), "the old keys are removed once moved");
        let designs = b.local_designs().await;
        assert!(designs.contains(&"Legacy shop".to_string()), "{designs:?}");

        b.visit(&server.url).await;
        eventually("it opens again from the database", || async {
            title_text(b).await == "Legacy shop"
        })
        .await;
    });
}

// issue 12: IndexedDB writes are asynchronous; an edit right before the page goes is kept.
#[test]
fn an_edit_right_before_a_reload_survives_it() {
    app_test_with_server(async |server, b| {
        b.autosaved().await;
        // The edit and the reload in one script: no idle moment for autosave in between.
        b.js(
            "const field = document.querySelector('[data-testid=design-name-input]');\
          field.focus();\
          field.value = 'Renamed right before the reload';\
          field.dispatchEvent(new Event('input', { bubbles: true }));\
          setTimeout(() => location.reload(), 0);\
          return 0;",
        )
        .await;
        eventually("the page reloads", || async {
            b.js("return performance.getEntriesByType('navigation')[0].type;")
                .await
                == json!("reload")
        })
        .await;
        b.find("[data-testid=coverage-summary]").await;
        assert_eq!(title_text(b).await, "Renamed right before the reload");
        let _ = server;
    });
}

/// The corpus beside the checkout (`shared/` next to it in CI, two levels up in a worktree).
fn corpus_file(name: &str) -> Option<PathBuf> {
    ["../shared/corpus", "../../shared/corpus"]
        .iter()
        .map(|dir| workspace().join(dir).join(name))
        .find(|p| p.exists())
}

/// A NoSQL Workbench model of about 21 MB, the size issue 12 reports: the online shop with its
/// 19 items repeated to `n_items` (each copy's keys made unique), written to `dir` as compact
/// JSON. (Indented as the corpus file is, 80,000 items take 46 MB, more than the 32 MB
/// `keyplan_core::import::MAX_IMPORT_BYTES` another tool's file may be.)
fn big_workbench_model(dir: &Path, n_items: usize) -> Option<(PathBuf, String)> {
    let source = corpus_file(
        "nosql-workbench/amazon-dynamodb-design-patterns/an-online-shop__json__AnOnlineShop_14.json",
    );
    let Some(source) = source else {
        eprintln!("skipped: the corpus is not beside the checkout");
        return None;
    };
    let mut model: Value =
        serde_json::from_str(&std::fs::read_to_string(source).expect("read the corpus model"))
            .expect("the corpus model is JSON");
    let table = &mut model["DataModel"][0];
    let items = table["TableData"].as_array().expect("TableData").clone();
    let copies: Vec<Value> = (0..n_items)
        .map(|i| {
            let mut item = items[i % items.len()].clone();
            for key in ["PK", "SK"] {
                if let Some(s) = item[key]["S"].as_str() {
                    item[key]["S"] = json!(format!("{s}-{i}"));
                }
            }
            item
        })
        .collect();
    table["TableData"] = Value::Array(copies);
    model["ModelName"] = json!("Big online shop");
    let path = dir.join("big-online-shop.json");
    let text = serde_json::to_string(&model).expect("serialise the model");
    std::fs::write(&path, &text).expect("write the model");
    Some((path, text))
}

// issue 12: a 21 MB model went past localStorage's quota and was gone after a reload.
#[tokio::test]
async fn an_80_000_item_model_survives_a_reload() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let Some((path, text)) = big_workbench_model(dir.path(), 80_000) else {
        return;
    };
    assert!(text.len() > 15_000_000, "{} bytes", text.len());
    let Some((server, b)) = open_app().await else {
        return;
    };
    b.choose_file(&path).await;
    eventually("the model opens", || async {
        b.has("[data-testid=design-title]").await && title_text(&b).await != "Order management"
    })
    .await;
    let name = title_text(&b).await;
    b.autosaved().await;
    assert_eq!(
        b.js("return document.querySelector('[data-storage]').dataset.storage;")
            .await,
        json!("saved")
    );
    assert!(!b.has("[data-testid=storage-problem]").await);

    b.visit(&server.url).await;
    eventually("the model opens again after the reload", || async {
        title_text(&b).await == name
    })
    .await;
    let design = b.saved_design().await;
    let items: usize = design.samples.values().map(Vec::len).sum();
    assert_eq!(items, 80_000);
    b.close().await;
}

// issue 12: a design the browser will not keep is never dropped silently.
#[tokio::test]
async fn a_design_too_big_for_the_storage_says_so_and_offers_a_way_out() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let Some((path, _)) = big_workbench_model(dir.path(), 80_000) else {
        return;
    };
    let Some(dist) = prerequisites() else {
        return;
    };
    let server = start_server(&dist);
    // A real quota the browser enforces: Chromium's storage pool of 4 MB gives the origin 3 MB
    // (75 %), and IndexedDB keeps the 80,000-item design in about 3.8 MB. (Headless Chromium
    // ignores the DevTools `Storage.overrideQuotaForOrigin`, and `navigator.storage.estimate()`
    // reports a fixed 10 GiB whatever the pool is.)
    let b =
        Browser::open_with(&["--enable-features=StorageQuotaSettings:PoolSizeBytes/4000000"]).await;
    b.visit(&server.url).await;
    b.autosaved().await;
    b.choose_file(&path).await;
    let problem = b.text("[data-testid=storage-problem]").await;
    assert!(
        problem.contains("could not be kept in this browser")
            && problem.contains("Save it as a file")
            && problem.contains("drop the 80,000 imported sample items"),
        "{problem}"
    );
    b.find("[data-testid=problem-save]").await;
    // The other designs are untouched, and the list is not blank.
    b.click("[data-testid=design-switcher]").await;
    let rows = b.texts("[data-testid=design-name]").await;
    assert!(rows.contains(&"Order management".to_string()), "{rows:?}");
    b.press(&[], ESCAPE).await;

    let name = title_text(&b).await;
    b.click("[data-testid=drop-samples]").await;
    eventually("the problem goes once the design fits", || async {
        !b.has("[data-testid=storage-problem]").await
    })
    .await;
    b.autosaved().await;
    b.visit(&server.url).await;
    eventually(
        "the design without its samples survives a reload",
        || async { title_text(&b).await == name },
    )
    .await;
    assert!(b.saved_design().await.samples.is_empty());
    b.close().await;
}

// issue 12: "Delete this design from the browser" deleted at once, with no way back.
#[test]
fn deleting_a_design_asks_first_and_can_be_undone() {
    app_test(async |b| {
        b.autosaved().await;
        b.click("[data-testid=delete-this-design]").await;
        b.find("[data-testid=confirm-delete]").await;
        b.click("[data-testid=confirm-cancel]").await;
        assert_eq!(b.local_designs().await, ["Order management"]);

        b.click("[data-testid=delete-this-design]").await;
        b.click("[data-testid=confirm-delete]").await;
        b.find("[data-testid=undo-delete]").await;
        eventually("a blank design replaces it", || async {
            title_text(b).await == "Untitled design"
        })
        .await;
        assert_eq!(b.local_designs().await, ["Untitled design"]);

        b.click("[data-testid=undo-delete]").await;
        eventually("the deleted design is back and open", || async {
            title_text(b).await == "Order management"
        })
        .await;
        let mut designs = b.local_designs().await;
        designs.sort();
        assert_eq!(designs, ["Order management", "Untitled design"]);
    });
}

// issue 12: the design list was a bare <select> with no dates, rename or duplicate.
#[test]
fn the_design_list_shows_dates_and_renames_and_duplicates() {
    app_test(async |b| {
        b.autosaved().await;
        b.click("[data-testid=design-switcher]").await;
        let meta = b.text("[data-testid=design-row] .design-meta").await;
        assert!(meta.chars().any(|c| c.is_ascii_digit()), "{meta:?}");

        b.click("[data-testid=design-duplicate]").await;
        eventually("the copy opens", || async {
            title_text(b).await == "Order management (copy)"
        })
        .await;

        b.click("[data-testid=design-switcher]").await;
        eventually("the list has both", || async {
            b.texts("[data-testid=design-name]").await.len() == 2
        })
        .await;
        // Rename the original (not the open one): the second row, newest first.
        b.js("document.querySelectorAll('[data-testid=design-rename]')[1].click(); return 0;")
            .await;
        b.type_into("[data-testid=design-rename-input]", "Orders, original")
            .await;
        eventually("the list shows the new name", || async {
            let mut names = b.texts("[data-testid=design-name]").await;
            names.sort();
            names == ["Order management (copy)", "Orders, original"]
        })
        .await;
        let mut designs = b.local_designs().await;
        designs.sort();
        assert_eq!(designs, ["Order management (copy)", "Orders, original"]);
    });
}

// issue 43: opening the same file again added another copy of it to the design list; the list
// had no search and deleted one design at a time, the open one.
#[test]
fn the_same_file_opened_again_is_one_design_and_the_list_searches_and_deletes_several() {
    app_test(async |b| {
        b.autosaved().await;
        let mut design = generated_design(3);
        design.name = "Twice shop".into();
        let text = keyplan_core::file::to_string(&design);
        b.offer_file_to_open("twice.keyplan.json", &text).await;
        b.click("[aria-label='Open a file']").await;
        eventually("the file opens", || async {
            title_text(b).await == "Twice shop"
        })
        .await;
        b.autosaved().await;

        // Back to the example, then the same file again: the design it already is opens.
        b.click("[data-testid=design-switcher]").await;
        b.js(
            "[...document.querySelectorAll('[data-testid=design-open]')]\
              .find(o => o.textContent.includes('Order management')).click(); return 0;",
        )
        .await;
        eventually("the example opens", || async {
            title_text(b).await == "Order management"
        })
        .await;
        b.autosaved().await;
        b.click("[aria-label='Open a file']").await;
        eventually("the file's design opens again", || async {
            title_text(b).await == "Twice shop"
        })
        .await;
        b.autosaved().await;
        let mut designs = b.local_designs().await;
        designs.sort();
        assert_eq!(designs, ["Order management", "Twice shop"]);

        // The list, searched.
        b.click("[data-testid=design-switcher]").await;
        b.type_into("[data-testid=design-search]", "TWICE").await;
        eventually("only the matching design is listed", || async {
            b.texts("[data-testid=design-name]").await == ["Twice shop"]
        })
        .await;
        b.js(
            "const s = document.querySelector('[data-testid=design-search]');\
              s.value = ''; s.dispatchEvent(new Event('input', { bubbles: true })); return 0;",
        )
        .await;
        eventually("every design is listed again", || async {
            b.texts("[data-testid=design-name]").await.len() == 2
        })
        .await;
        b.screenshot("design-list-search").await;

        // Both selected and deleted together, after a confirmation.
        b.js("document.querySelectorAll('[data-testid=design-select]').forEach(c => c.click()); return 0;")
            .await;
        b.click("[data-testid=delete-selected]").await;
        b.screenshot("design-list-delete-selected").await;
        b.click("[data-testid=confirm-delete-selected]").await;
        eventually("a blank design replaces them", || async {
            title_text(b).await == "Untitled design"
        })
        .await;
        b.autosaved().await;
        eventually("only the blank design is kept", || async {
            b.local_designs().await == ["Untitled design"]
        })
        .await;
    });
}

/// Where focus is: the element's label (its aria-label, else its text) and whether it is in
/// the open dialog.
async fn focus(b: &Browser) -> (String, bool) {
    let v = b
        .js("const a = document.activeElement;\
             return [a.getAttribute('aria-label') || a.innerText.trim(), a.closest('[role=dialog]') !== null];")
        .await;
    (
        v[0].as_str().unwrap_or_default().to_string(),
        v[1].as_bool().unwrap_or(false),
    )
}

// issue 12: dialogs neither took focus, nor kept Tab inside, nor gave it back.
#[test]
fn dialogs_take_focus_keep_tab_inside_and_give_it_back() {
    app_test(async |b| {
        let help = "[aria-label='Keyboard shortcuts (?)']";
        b.click(help).await;
        b.find("[data-testid=dialog]").await;
        eventually("the dialog takes focus", || async { focus(b).await.1 }).await;
        for _ in 0..4 {
            b.press(&[], '\u{E004}').await;
            assert!(focus(b).await.1, "Tab left the dialog");
        }
        b.press(&[SHIFT], '\u{E004}').await;
        assert!(focus(b).await.1, "Shift+Tab left the dialog");
        b.press(&[], ESCAPE).await;
        eventually("focus goes back to the help button", || async {
            focus(b).await.0 == "Keyboard shortcuts (?)"
        })
        .await;

        // The export dialog focuses its first control, the format.
        b.button("Export").await.click().await.expect("open export");
        eventually("the format has focus", || async {
            focus(b).await.0 == "Export format"
        })
        .await;
        b.press(&[SHIFT], '\u{E004}').await;
        assert!(
            focus(b).await.1,
            "Shift+Tab from the first control wraps inside"
        );
    });
}

// issue 12: entity cards and "+ Entity" showed no focus ring; every control must be reachable
// by Tab and show one.
#[test]
fn every_control_is_reachable_by_tab_and_shows_a_focus_ring() {
    app_test(async |b| {
        b.autosaved().await;
        // Record each element that takes focus, with whether a ring is drawn (an outline or the
        // focus box-shadow) at that moment.
        b.js("window.focusLog = [];\
          document.addEventListener('focusin', e => {\
            const s = getComputedStyle(e.target);\
            const ring = (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2) || s.boxShadow.includes('0px 0px 0px 3px');\
            window.focusLog.push({ el: e.target, ring });\
          });\
          document.activeElement.blur();\
          return 0;")
        .await;
        let controls = b
        .js("return Array.from(document.querySelectorAll('button, input, select, textarea, [tabindex]'))\
               .filter(e => !e.disabled && e.tabIndex >= 0 && e.getClientRects().length > 0).length;")
        .await
        .as_u64()
        .expect("a count");
        for _ in 0..controls + 5 {
            b.press(&[], '\u{E004}').await;
        }
        let report = b
        .js("const all = Array.from(document.querySelectorAll('button, input, select, textarea, [tabindex]'))\
               .filter(e => !e.disabled && e.tabIndex >= 0 && e.getClientRects().length > 0);\
             const name = e => e.getAttribute('aria-label') || e.getAttribute('data-testid') || e.innerText.trim().slice(0, 30) || e.tagName;\
             const reached = new Set(window.focusLog.map(f => f.el));\
             return {\
               unreached: all.filter(e => !reached.has(e)).map(name),\
               ringless: window.focusLog.filter(f => !f.ring).map(f => name(f.el)),\
               cards: window.focusLog.filter(f => f.el.classList.contains('card')).length,\
               addEntity: window.focusLog.some(f => f.el.dataset.testid === 'add-entity'),\
             };")
        .await;
        assert_eq!(report["unreached"], json!([]), "not reachable by Tab");
        assert_eq!(report["ringless"], json!([]), "focused without a ring");
        assert!(report["cards"].as_u64().unwrap_or(0) > 0, "{report}");
        assert_eq!(report["addEntity"], json!(true), "{report}");
    });
}

// The gallery's "Import from engine" card while the app looks for keyplan serve's engines, or
// cannot reach them, is as legible as the others: it was drawn at 85% opacity, 3.88:1 in the
// light scheme, which the test below saw only when the machine was busy enough for axe to run
// before the probe answered (scripts/stress-test). Here the probe never gets an answer.
#[tokio::test]
async fn the_engine_import_card_is_legible_while_the_engines_cannot_be_reached() {
    let Some(dist) = prerequisites() else { return };
    let server = start_server(&dist);
    let b = Browser::open().await;
    b.cdp("Network.enable", json!({})).await;
    b.cdp(
        "Network.setBlockedURLs",
        json!({ "urls": ["*/api/engines*"] }),
    )
    .await;
    b.visit(&server.url).await;
    if !b.inject_axe().await {
        return b.close().await;
    }
    let mut found = Vec::new();
    for scheme in ["light", "dark"] {
        b.prefer_color_scheme(scheme).await;
        b.click_button("New").await;
        // Why, in the browser's words: a JavaScript error was shown as its JSON, "{}". The card
        // says "Looking for the keyplan server…" until the blocked probe fails; wait for that.
        let card = "[data-testid=dialog] [data-testid=engine-import-unavailable]";
        eventually(
            "the card to say why the engines cannot be reached",
            || async { !b.text(card).await.contains("Looking for") },
        )
        .await;
        let why = b.text(card).await;
        assert!(
            why.contains("could not be reached (Failed to fetch)"),
            "{why}"
        );
        found.extend(b.axe(&format!("{scheme} gallery, no engines")).await);
        b.screenshot(&format!("gallery-no-engines-{scheme}")).await;
        b.click("[data-testid=dialog-close]").await;
    }
    b.close().await;
    assert!(found.is_empty(), "{}", found.join("\n"));
}

// issue 12: axe-core on every main view and dialog reports no serious or critical violation.
#[test]
fn axe_finds_no_serious_violation_in_any_view_or_dialog() {
    app_test(async |b| {
        if !b.inject_axe().await {
            return;
        }
        let mut found = Vec::new();
        for scheme in ["light", "dark"] {
            b.prefer_color_scheme(scheme).await;
            for (tab, view) in [
                ("Canvas", "canvas"),
                ("Data", "data"),
                ("Cost", "cost"),
                ("Run", "run"),
                ("Migrate", "migrate"),
            ] {
                b.button(tab).await.click().await.expect("switch view");
                b.autosaved().await;
                found.extend(b.axe(&format!("{scheme} {view}")).await);
            }
            b.click_button("Canvas").await;
            // The inspector of a selected entity and of a selected pattern.
            b.click(".card").await;
            found.extend(b.axe(&format!("{scheme} entity inspector")).await);
            b.click("[data-testid=pattern-row]").await;
            found.extend(b.axe(&format!("{scheme} pattern inspector")).await);
            b.click("[data-testid=findings-tab]").await;
            b.find("[data-testid=finding-row]").await;
            found.extend(b.axe(&format!("{scheme} findings")).await);
            b.click("[data-testid=patterns-tab]").await;
            b.press(&[], ESCAPE).await;
            for (open, dialog) in [
                ("[data-testid=design-switcher]", "design list"),
                ("[data-testid=delete-this-design]", "delete confirmation"),
                ("[data-testid=share]", "share"),
                ("[aria-label='Keyboard shortcuts (?)']", "help"),
            ] {
                b.click(open).await;
                b.find("[data-testid=dialog]").await;
                found.extend(b.axe(&format!("{scheme} {dialog} dialog")).await);
                b.click("[data-testid=dialog-close]").await;
            }
            for (button, dialog) in [("New", "gallery"), ("Export", "export")] {
                b.click_button(button).await;
                b.find("[data-testid=dialog]").await;
                found.extend(b.axe(&format!("{scheme} {dialog} dialog")).await);
                b.click("[data-testid=dialog-close]").await;
            }
            // The import from an engine (issue 17), opened from the design list, once the
            // embedded engine's (empty) list of tables is shown.
            b.click("[data-testid=design-switcher]").await;
            b.click("[data-testid=engine-import-open]").await;
            b.find("[data-testid=engine-import-empty]").await;
            found.extend(b.axe(&format!("{scheme} import from engine dialog")).await);
            b.click("[data-testid=dialog-close]").await;
        }
        assert!(found.is_empty(), "{}", found.join("\n"));
    });
}
