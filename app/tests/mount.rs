//! The app mounted in a real browser (headless Chromium via `wasm-bindgen-test-runner`):
//! user-level checks of what is on screen. Logic is tested in core.
#![cfg(target_arch = "wasm32")]

use keyplan_app::{App, coverage_summary};
use leptos::wasm_bindgen::JsCast;
use leptos::web_sys::{HtmlElement, MutationObserver, MutationObserverInit, window};
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

/// Mounts the app in a fresh element and returns that element.
fn mounted() -> HtmlElement {
    let document = window().and_then(|w| w.document()).expect("a document");
    let root: HtmlElement = document
        .create_element("div")
        .expect("create div")
        .unchecked_into();
    document
        .body()
        .expect("a body")
        .append_child(&root)
        .expect("append root");
    // Not split: the tabs and dialogs are in this module (main.rs splits them off).
    keyplan_app::views::provide_unsplit();
    // The app stays mounted for the rest of the test page.
    leptos::mount::mount_to(root.clone(), App).forget();
    root
}

fn texts(root: &HtmlElement, selector: &str) -> Vec<String> {
    let nodes = root.query_selector_all(selector).expect("valid selector");
    (0..nodes.length())
        .filter_map(|i| nodes.item(i))
        .filter_map(|node| node.text_content())
        .collect()
}

/// The texts of `selector` under `root` once there are any: the app opens the design after
/// reading the browser's storage (IndexedDB, asynchronous), so the editor appears a few
/// turns of the event loop after mounting. Waits for the DOM to change, not for a time; the
/// test runner's timeout bounds the wait.
async fn shown(root: &HtmlElement, selector: &str) -> Vec<String> {
    loop {
        let found = texts(root, selector);
        if !found.is_empty() {
            return found;
        }
        let mut observer = None;
        let changed = js_sys::Promise::new(&mut |resolve, _reject| {
            let watching = MutationObserver::new(&resolve).expect("a MutationObserver");
            let options = MutationObserverInit::new();
            options.set_child_list(true);
            options.set_subtree(true);
            options.set_character_data(true);
            watching
                .observe_with_options(root, &options)
                .expect("observe the app's element");
            observer = Some(watching);
        });
        JsFuture::from(changed).await.expect("the DOM changed");
        if let Some(watching) = observer {
            watching.disconnect();
        }
    }
}

#[wasm_bindgen_test]
async fn a_first_visit_shows_every_entity_of_the_order_example() {
    let root = mounted();
    let design = keyplan_core::examples::first();
    let expected: Vec<String> = design.entities.iter().map(|e| e.name.clone()).collect();
    assert!(!expected.is_empty());
    assert_eq!(shown(&root, "[data-testid=entity-name]").await, expected);
}

#[wasm_bindgen_test]
async fn the_coverage_summary_is_core_s_coverage_of_the_example() {
    let root = mounted();
    let analysis = keyplan_core::analyze(&keyplan_core::examples::first());
    assert_eq!(
        shown(&root, "[data-testid=coverage-summary]").await,
        vec![coverage_summary(&analysis)]
    );
}
