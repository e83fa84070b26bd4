//! End to end, in a real browser: the real `keyplan` binary serves the built app (`dist/`),
//! headless Chromium opens it through chromedriver, and what core computes for the built-in
//! example must be on screen.
//!
//! Needs `dist/` (trunk build), /usr/bin/chromium and /usr/bin/chromedriver. When one is
//! missing the test fails if `KEYPLAN_REQUIRE_TOOLS=1` (as `make test` sets), else it prints
//! why it skipped and passes. A screenshot of the page goes to `test-output/`.

mod browser;

use browser::{Browser, PATIENCE, prerequisites, start_server};
use fantoccini::Locator;

#[tokio::test]
async fn a_first_visit_shows_the_order_example_and_its_coverage() {
    let Some(dist) = prerequisites() else { return };
    let design = keyplan_core::examples::first();
    let expected_names = browser::entity_names_of(&design);
    let (covered, reads) = keyplan_core::analyze(&design).coverage();
    let expected_summary = format!("{covered} of {reads} read patterns covered");

    let server = start_server(&dist);
    let b = Browser::open().await;
    b.client.goto(&server.url).await.expect("open the app");
    // Wait without panicking, so the screenshot of a blank page is saved before the assertion.
    let appeared = b
        .client
        .wait()
        .at_most(PATIENCE)
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

/// issue 20: a test that panicked before `close()` left its Chromium running, orphaned (killing
/// chromedriver alone does not end the browser it started). A test body that panics with a
/// browser open, run as a task: once it has failed, no process of that browser's profile is
/// left and the profile is gone.
#[tokio::test]
async fn a_test_that_panics_with_a_browser_open_leaves_no_chromium_behind() {
    if prerequisites().is_none() {
        return;
    }
    let (profile_tx, profile_rx) = std::sync::mpsc::channel();
    let failing = tokio::spawn(async move {
        let b = Browser::open().await;
        b.client.goto("about:blank").await.expect("a page");
        let profile = b.profile().to_path_buf();
        assert!(
            !browser::processes_with_argument(&profile.display().to_string()).is_empty(),
            "the browser runs with its profile"
        );
        profile_tx.send(profile).expect("hand the profile over");
        panic!("a browser test fails before close()");
    });
    let failed = failing.await.expect_err("the test body panicked");
    assert!(failed.is_panic());
    let profile = profile_rx.recv().expect("the profile");
    let left = browser::processes_with_argument(&profile.display().to_string());
    assert!(
        left.is_empty(),
        "processes of {} left: {left:?}",
        profile.display()
    );
    assert!(
        !profile.exists(),
        "the profile {} is removed",
        profile.display()
    );
}
