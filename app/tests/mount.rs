//! The app mounted in a real browser (headless Chromium via `wasm-bindgen-test-runner`):
//! user-level checks of what is on screen. Logic is tested in core.
#![cfg(target_arch = "wasm32")]

use keyplan_app::{App, coverage_summary};
use leptos::wasm_bindgen::JsCast;
use leptos::web_sys::{HtmlElement, window};
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

#[wasm_bindgen_test]
fn a_first_visit_shows_every_entity_of_the_order_example() {
    let root = mounted();
    let design = keyplan_core::examples::first();
    let expected: Vec<String> = design.entities.iter().map(|e| e.name.clone()).collect();
    assert!(!expected.is_empty());
    assert_eq!(texts(&root, "[data-testid=entity-name]"), expected);
}

#[wasm_bindgen_test]
fn the_coverage_summary_is_core_s_coverage_of_the_example() {
    let root = mounted();
    let analysis = keyplan_core::analyze(&keyplan_core::examples::first());
    assert_eq!(
        texts(&root, "[data-testid=coverage-summary]"),
        vec![coverage_summary(&analysis)]
    );
}
