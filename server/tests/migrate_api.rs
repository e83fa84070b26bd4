//! `POST /api/migrate/verify` (issue 18 item 5): the Migrate tab's "Verify on engine". The
//! order example migrated to gain the GSI its "Get order by ID" Scan needs is proven on the
//! server's embedded engine: the patterns stream as they are checked, then the answer says it
//! passed in `keyplan migrate --verify`'s words, and no table is left.
#![allow(clippy::unwrap_used)]

mod app_support;
mod migrate_support;
mod run_support;

use axum::http::StatusCode;
use keyplan_server::AppState;

fn design_json(design: &keyplan_core::Design) -> serde_json::Value {
    serde_json::from_str(&keyplan_core::file::to_string(design)).unwrap()
}

/// The status and the lines of `POST /api/migrate/verify` with `body`.
async fn verify(state: &AppState, body: serde_json::Value) -> (StatusCode, Vec<serde_json::Value>) {
    let request = app_support::post_json("/api/migrate/verify", &body);
    let answer = app_support::send(state, request).await;
    (answer.status, answer.json_lines())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_migration_verified_from_the_app_streams_its_patterns_and_passes() {
    let (_dir, state) = app_support::state_with_engines(Vec::new()).await;
    let old = migrate_support::order_example();
    let (_, new) = migrate_support::migrations().remove(0);
    let (status, lines) = verify(
        &state,
        serde_json::json!({ "old": design_json(&old), "new": design_json(&new) }),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let (last, progress) = lines.split_last().unwrap();
    let patterns: Vec<&str> = progress
        .iter()
        .filter_map(|l| l["pattern"]["pattern"].as_str())
        .collect();
    assert!(patterns.contains(&"Get order by ID"), "{progress:?}");
    assert!(
        progress
            .iter()
            .any(|l| l["cleanup"]["failed"] == serde_json::json!([])),
        "{progress:?}"
    );
    let answer = &last["answer"];
    assert_eq!(answer["ok"], true, "{last}");
    let text = answer["text"].as_str().unwrap();
    assert!(
        text.contains("data: as core predicts, item for item"),
        "{text}"
    );
    assert!(text.contains("pass     Get order by ID"), "{text}");
    assert!(text.ends_with("Verification passed.\n"), "{text}");
    assert_eq!(state.runs.items_in_flight(), 0);
    let engine = state.engines.get(Some("embedded")).unwrap();
    assert!(
        run_support::run_tables(engine).await.is_empty(),
        "no table left"
    );

    // A design that does not read is refused before anything runs, with what is wrong.
    let (status, lines) = verify(
        &state,
        serde_json::json!({ "old": {}, "new": design_json(&new) }),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        lines[0]["error"]
            .as_str()
            .unwrap()
            .starts_with("the old design is not valid"),
        "{lines:?}"
    );
}
