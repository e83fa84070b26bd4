//! The Run panel, end to end in a real browser (issue 8): the app served by the real
//! `keyplan serve` (embedded engine) runs the order-management example shown on a first visit
//! and every access pattern a key serves comes back `pass` (the uncovered one is `skipped`), with
//! cleanup reported; and a server that went away is reported as unreachable. The panel's rules
//! (event folding, progress, messages) are unit-tested in `app/src/run/state.rs`; this checks
//! only what a user sees. Saves `test-output/run-panel.png`.

mod browser;

use browser::{Browser, app_test, open_app};

/// Opens the Run tab and waits for its engine list.
async fn open_run_tab(b: &Browser) {
    b.click_button("Run").await;
    b.find("[data-testid=run-engine]").await;
}

#[test]
fn running_the_order_example_on_the_embedded_engine_passes_every_covered_pattern() {
    app_test(async |b| {
        let patterns = keyplan_core::examples::first().patterns.len();

        open_run_tab(b).await;
        let engine = b
            .js("return document.querySelector('[data-testid=run-engine]').value;")
            .await;
        assert_eq!(
            engine, "embedded",
            "the default engine is preselected by name"
        );
        b.click("[data-testid=run-start]").await;

        let status = [b.run_status_at_end().await];
        let results = b.texts("[data-testid=run-pattern-status]").await;
        b.screenshot("run-panel").await;
        assert!(
            status[0].starts_with("Passed"),
            "run status: {status:?}, patterns: {results:?}"
        );
        assert_eq!(results.len(), patterns, "one row per pattern: {results:?}");
        // The example keeps one read no index serves (a Scan): the run skips it, as its verdict says.
        let design = keyplan_core::examples::first();
        let (covered, reads) = keyplan_core::analyze(&design).coverage();
        let skipped = results
            .iter()
            .filter(|r| r.eq_ignore_ascii_case("skipped"))
            .count();
        let passed = results
            .iter()
            .filter(|r| r.eq_ignore_ascii_case("pass"))
            .count();
        assert_eq!(skipped, reads - covered, "{results:?}");
        assert_eq!(
            passed,
            patterns - skipped,
            "every other pattern passes: {results:?}"
        );
        let cleanup = b.texts("[data-testid=run-cleanup]").await;
        assert!(cleanup[0].starts_with("Cleanup: deleted"), "{cleanup:?}");
    });
}

/// The sample the panel asks for is the one the run writes: an invalid count keeps Run off
/// with a message; 3 items per entity (with seed 7) write exactly as many items as core
/// generates for those counts. That the seed reaches the generator is checked by the API test
/// (`run_api.rs`): the item count does not depend on it.
#[test]
fn items_per_entity_and_a_seed_choose_the_sample_the_run_writes() {
    app_test(async |b| {
        open_run_tab(b).await;

        b.find("[data-testid=run-items]")
            .await
            .send_keys("abc")
            .await
            .expect("type");
        assert!(
            b.text("[data-testid=run-sample-error]")
                .await
                .contains("`abc`"),
            "the message names the bad value"
        );
        assert!(
            b.is_disabled("[data-testid=run-start]").await,
            "Run is off while a field is invalid"
        );

        b.type_into("[data-testid=run-items]", "3").await;
        b.type_into("[data-testid=run-seed]", "7").await;
        b.click("[data-testid=run-start]").await;
        b.run_status_at_end().await;
        let design = keyplan_core::examples::first();
        let counts = design
            .entities
            .iter()
            .map(|e| (e.name.clone(), 3))
            .collect();
        let expected = keyplan_core::sample::generate(
            &design,
            &keyplan_core::sample::SampleConfig::new(counts, Some(7)),
        )
        .items
        .len();
        let status = b.texts("[data-testid=run-status]").await;
        assert!(
            status[0].starts_with("Passed") && status[0].contains(&format!(" {expected} items")),
            "expected {expected} items written: {status:?}"
        );
    });
}

// The server goes away while the page is open: the test owns it, to drop it (not app_test).
#[tokio::test]
async fn a_server_that_went_away_is_reported_instead_of_an_engine_list() {
    let Some((server, b)) = open_app().await else {
        return;
    };
    b.find("[data-testid=entity-name]").await;
    drop(server);

    b.click_button("Run").await;
    let message = b.text("[data-testid=run-unreachable]").await;
    assert!(
        message.starts_with("Cannot run: the keyplan server could not be reached"),
        "{message}"
    );
    b.close().await;
}
