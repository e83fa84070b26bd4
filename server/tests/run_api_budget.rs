//! The sample budget of `POST /api/runs` (issue 13): the whole sample a run would write,
//! defaults and children included, is counted before anything is planned, and a run over
//! 100,000 items is refused at once with a JSON error naming the entity. A 3.3 KB request used
//! to plan millions of items until the server died.
#![allow(clippy::unwrap_used)]

mod app_support;
mod budget_support;

use axum::http::StatusCode;
use budget_support::{design_file, grown};

async fn refusal(design: serde_json::Value, counts: serde_json::Value) -> (StatusCode, String) {
    let (_dir, state, _) = app_support::embedded_state().await;
    let body = serde_json::json!({"design": design, "counts": counts});
    let answer = app_support::send(&state, app_support::post_json("/api/runs", &body)).await;
    (answer.status, answer.text())
}

#[tokio::test]
async fn a_sixteen_level_chain_with_no_counts_is_refused_before_planning() {
    let (status, body) = refusal(
        design_file("tests/fixtures/chain-16.keyplan.json"),
        serde_json::json!({}),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert_eq!(
        body,
        r#"{"error":"the sample would have 215,233,600 items, more than the 100,000 allowed: entity `E15` alone would take 143,489,070 (3 for each item of `E14`)"}"#
    );
}

#[tokio::test]
async fn a_root_count_whose_children_multiply_past_the_budget_is_refused() {
    let (status, body) = refusal(
        design_file("examples/order-management.keyplan.json"),
        serde_json::json!({"Customer": 100000}),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert_eq!(
        body,
        r#"{"error":"the sample would have 2,200,010 items, more than the 100,000 allowed: entity `OrderItem` alone would take 900,000 (3 for each item of `Order`)"}"#
    );
}

/// What `uri` answers `body`, and the tables the engine holds afterwards.
async fn answer_and_tables(
    uri: &str,
    body: serde_json::Value,
) -> (StatusCode, String, Vec<String>) {
    let (_dir, state, engine) = app_support::embedded_state().await;
    let answer = app_support::send(&state, app_support::post_json(uri, &body)).await;
    let listed = engine.client.list_tables().send().await.unwrap();
    (answer.status, answer.text(), listed.table_names().to_vec())
}

#[tokio::test]
async fn a_run_of_too_many_tables_or_gsis_is_refused_with_nothing_created() {
    // issue 41: one 211 KB request created 2,002 tables.
    let (status, body, tables) =
        answer_and_tables("/api/runs", serde_json::json!({"design": grown(2_002, 0)})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert_eq!(
        body,
        r#"{"error":"the run would create 2,002 tables, more than the 25 keyplan creates at once: a run creates every table of the design; split it into designs of fewer tables"}"#
    );
    assert_eq!(tables, Vec::<String>::new());
    // issue 41: 202 tables of 25 GSIs each stalled the embedded engine.
    let (status, body, tables) =
        answer_and_tables("/api/runs", serde_json::json!({"design": grown(2, 25)})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(
        body.contains("table `orders` has 25 GSIs, more than the 20"),
        "{body}"
    );
    assert_eq!(tables, Vec::<String>::new());
}

#[tokio::test]
async fn a_verification_of_too_many_tables_is_refused_with_nothing_created() {
    let (status, body, tables) = answer_and_tables(
        "/api/migrate/verify",
        serde_json::json!({"old": grown(13, 0), "new": grown(13, 0)}),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(
        body.contains(
            "the verification would create 26 tables, more than the 25 keyplan creates at once"
        ),
        "{body}"
    );
    assert_eq!(tables, Vec::<String>::new());
}

#[tokio::test]
async fn an_engine_import_of_too_many_tables_is_refused_before_reading() {
    let names: Vec<String> = (0..26).map(|i| format!("table{i}")).collect();
    let (status, body, _) = answer_and_tables(
        "/api/import/engine",
        serde_json::json!({"engine": "embedded", "tables": names}),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(
        body.contains("the import would read 26 tables, more than the 25 keyplan reads at once"),
        "{body}"
    );
}
