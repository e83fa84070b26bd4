//! The worker (issue 19), in headless Chromium on `keyplan serve`: its module is fetched only
//! after the first paint, the views it computes for show its answers, and a worker that stops
//! while it computes is restarted and the view says so.

mod browser;

use browser::{Browser, app_test, app_test_with_server, eventually, prerequisites, start_server};

#[test]
fn the_worker_loads_after_the_first_paint_and_answers_the_heavy_views() {
    app_test(async |b| {
        b.find("[data-entity=Order]").await;
        // The first paint needs the main module only; the worker comes after it. (The page's
        // timeline has the worker's script; what the worker fetches is in the worker's.)
        let paint = b.first_paint().await;
        let loader = || async {
            b.fetched()
                .await
                .into_iter()
                .find(|(name, _)| name == "keyplan-worker_loader.js")
        };
        eventually("the worker is started", || async {
            loader().await.is_some()
        })
        .await;
        let (_, worker_start) = loader().await.expect("the worker's loader was fetched");
        assert!(
            worker_start > paint,
            "the worker was started at {worker_start} ms, before the first paint at {paint} ms"
        );
        b.find(".app[data-worker=ready]").await;
        let main_files = b.fetched().await;
        assert!(
            main_files
                .iter()
                .any(|(f, _)| f.starts_with("keyplan-app-") && f.ends_with("_bg.wasm")),
            "{main_files:?}"
        );

        // Each heavy view shows the worker's answer.
        b.click("[data-testid=tab-data]").await;
        b.find("[data-testid=item-attributes]").await;
        b.click("[data-testid=tab-cost]").await;
        let total = b.text("[data-testid=monthly-total]").await;
        assert!(total.starts_with('$'), "{total}");
        assert!(!b.has("[data-testid=worker-restarted]").await);
        assert!(!b.has("[data-testid=worker-unavailable]").await);
    });
}

#[test]
fn an_edit_is_shown_in_the_data_view_and_no_answer_for_the_old_design_stays() {
    app_test(async |b| {
        b.find("[data-entity=Order]").await;
        b.click("[data-testid=tab-data]").await;
        b.find("[data-testid=item-attributes]").await;
        let tags = b.texts(".data-view .entity-tag").await;
        assert!(tags.iter().any(|t| t == "Order"), "{tags:?}");
        // Rename the entity from the inspector: the data view asks again, and what it shows is
        // computed for the renamed design.
        b.click("[data-testid=tab-canvas]").await;
        b.click("[data-entity=Order] .card-head").await;
        b.type_into("[data-testid=entity-name-input]", "Purchase")
            .await;
        b.find("[data-entity=Purchase]").await;
        b.click("[data-testid=tab-data]").await;
        eventually("the data view shows the renamed entity", || async {
            let tags = b.texts(".data-view .entity-tag").await;
            tags.iter().any(|t| t == "Purchase") && !tags.iter().any(|t| t == "Order")
        })
        .await;
    });
}

/// A copy of the built app whose worker loader is `loader(the original loader)`.
fn dist_with_worker_loader(loader: impl FnOnce(&str) -> String) -> tempfile::TempDir {
    let dist = prerequisites().expect("the built app");
    let copy = tempfile::tempdir().expect("a temporary directory");
    for entry in std::fs::read_dir(&dist).expect("read dist") {
        let entry = entry.expect("an entry");
        if entry.file_type().expect("its type").is_file() {
            std::fs::copy(entry.path(), copy.path().join(entry.file_name())).expect("copy");
        }
    }
    let path = copy.path().join("keyplan-worker_loader.js");
    let original = std::fs::read_to_string(&path).expect("the loader");
    std::fs::write(&path, loader(&original)).expect("write the loader");
    // The build's precompressed copies of the loader would be served instead of the edit.
    for copied in ["keyplan-worker_loader.js.br", "keyplan-worker_loader.js.gz"] {
        let _ = std::fs::remove_file(copy.path().join(copied));
    }
    copy
}

/// A copy of the built app whose worker throws, instead of answering, on any request for the
/// markdown export: a worker that stops while it computes, as a panic or an out-of-memory trap
/// stops it.
fn dist_with_a_worker_that_stops_on_markdown() -> tempfile::TempDir {
    // Registered before the module's own handler, so it runs first and keeps the message
    // from it.
    dist_with_worker_loader(|original| {
        format!(
            "self.addEventListener('message', e => {{ if (/\"target\":\\s*\"markdown\"/.test(String(e.data))) {{ e.stopImmediatePropagation(); throw new Error('stopped on purpose by the test'); }} }});\n{original}"
        )
    })
}

#[tokio::test]
async fn while_the_worker_has_not_arrived_the_views_wait_and_the_editor_works() {
    if prerequisites().is_none() {
        return;
    }
    // A worker whose module never arrives (as on a slow connection): it never says it is ready.
    let dist = dist_with_worker_loader(|_| "// the module never arrives\n".to_string());
    let server = start_server(dist.path());
    let b = Browser::open().await;
    b.visit(&server.url).await;
    b.find("[data-entity=Order]").await;
    b.button("Export").await.click().await.expect("open export");
    let waiting = b.text("[data-testid=computing]").await;
    assert_eq!(
        waiting,
        "Loading the background worker, then computing the export…"
    );
    b.press(&[], browser::ESCAPE).await;
    b.click("[data-testid=tab-data]").await;
    b.find("[data-testid=computing]").await;
    // The editor does not wait for it: an entity is selected and renamed, its verdicts follow.
    b.click("[data-testid=tab-canvas]").await;
    b.click("[data-entity=Order] .card-head").await;
    b.type_into("[data-testid=entity-name-input]", "Purchase")
        .await;
    b.find("[data-entity=Purchase]").await;
    assert!(!b.has("[data-testid=worker-unavailable]").await);
    b.close().await;
}

#[tokio::test]
async fn a_worker_that_stops_is_restarted_and_the_view_says_so() {
    if prerequisites().is_none() {
        return;
    }
    let dist = dist_with_a_worker_that_stops_on_markdown();
    let server = start_server(dist.path());
    let b = Browser::open().await;
    b.visit(&server.url).await;
    b.find("[data-entity=Order]").await;
    b.button("Export").await.click().await.expect("open export");
    b.find("[data-testid=export-preview]").await;
    b.select("[data-testid=export-format]", "markdown").await;
    let error = b.text(".export .diagnostic.error").await;
    assert!(
        error.contains("the worker stopped while computing this")
            && error.contains("stopped on purpose by the test"),
        "{error}"
    );
    let notice = b.text("[data-testid=worker-restarted]").await;
    assert!(notice.contains("was restarted"), "{notice}");
    b.screenshot("worker-restarted").await;
    // The restarted worker answers the next request.
    b.select("[data-testid=export-format]", "cloudformation-json")
        .await;
    eventually("the restarted worker's export", || async {
        b.has("[data-testid=export-preview]").await
            && b.text("[data-testid=export-preview]")
                .await
                .contains("AWS::DynamoDB::Table")
    })
    .await;
    b.close().await;
}

// issue 40: the NoSQL Workbench export leaves a table's vector indexes out (its model has no
// place for them); `keyplan export` said so on stderr, the Export dialog said nothing.
#[test]
fn the_export_dialog_says_what_a_format_leaves_out() {
    app_test_with_server(async |server, b| {
        let design = keyplan_core::file::parse(include_str!(
            "../../tests/export/vector-search.keyplan.json"
        ))
        .expect("the vector-search design");
        b.open_design(&server.url, &design).await;
        b.button("Export").await.click().await.expect("open export");
        b.find("[data-testid=export-preview]").await;
        assert!(!b.has("[data-testid=export-left-out]").await);
        b.select("[data-testid=export-format]", "nosql-workbench")
            .await;
        let said = b.text("[data-testid=export-left-out]").await;
        assert!(
            said.contains("vector index `ByEmbedding`") && said.contains("is left out"),
            "{said}"
        );
        b.screenshot("export-left-out").await;
    });
}
