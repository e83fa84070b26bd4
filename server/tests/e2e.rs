//! End to end, in a real browser: the real `keyplan` binary serves the built app (`dist/`),
//! headless Chromium opens it through chromedriver, and what core computes for the built-in
//! example must be on screen.
//!
//! Needs `dist/` (trunk build), /usr/bin/chromium and /usr/bin/chromedriver. When one is
//! missing the test fails if `KEYPLAN_REQUIRE_TOOLS=1` (as `make test` sets), else it prints
//! why it skipped and passes. A screenshot of the page goes to `test-output/`.

mod browser;

use std::time::Duration;

use browser::{Browser, prerequisites, start_server};
use fantoccini::Locator;

#[tokio::test]
async fn a_first_visit_shows_the_order_example_and_its_coverage() {
    let Some(dist) = prerequisites() else { return };
    let design = keyplan_core::examples::first();
    let expected_names: Vec<String> = design.entities.iter().map(|e| e.name.clone()).collect();
    let (covered, reads) = keyplan_core::analyze(&design).coverage();
    let expected_summary = format!("{covered} of {reads} read patterns covered");

    let server = start_server(&dist);
    let b = Browser::open().await;
    b.client.goto(&server.url).await.expect("open the app");
    // Wait without panicking, so the screenshot of a blank page is saved before the assertion.
    let appeared = b
        .client
        .wait()
        .at_most(Duration::from_secs(15))
        .for_element(Locator::Css("[data-testid=coverage-summary]"))
        .await;
    let names = b.texts("[data-testid=entity-name]").await;
    let summaries = b.texts("[data-testid=coverage-summary]").await;
    b.screenshot("e2e-first-visit").await;
    b.close().await;

    assert!(
        appeared.is_ok(),
        "the app never showed a coverage summary at {} (blank page?); see test-output/e2e-first-visit.png",
        server.url
    );
    assert_eq!(names, expected_names);
    assert_eq!(summaries, vec![expected_summary]);
}
