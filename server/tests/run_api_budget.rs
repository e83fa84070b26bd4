//! The sample budget of `POST /api/runs` (issue 13): the whole sample a run would write,
//! defaults and children included, is counted before anything is planned, and a run over
//! 100,000 items is refused at once with a JSON error naming the entity. A 3.3 KB request used
//! to plan millions of items until the server died.
#![allow(clippy::unwrap_used)]

mod app_support;

use axum::http::StatusCode;

async fn refusal(design: serde_json::Value, counts: serde_json::Value) -> (StatusCode, String) {
    let (_dir, state, _) = app_support::embedded_state().await;
    let body = serde_json::json!({"design": design, "counts": counts});
    let answer = app_support::send(&state, app_support::post_json("/api/runs", &body)).await;
    (answer.status, answer.text())
}

fn design_file(path: &str) -> serde_json::Value {
    let text =
        std::fs::read_to_string(format!("{}/../{path}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    serde_json::from_str(&text).unwrap()
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
