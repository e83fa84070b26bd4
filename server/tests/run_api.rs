//! The run API (issue 8): engines by name only, a run's server-sent events from start to
//! cleanup, and a closed event stream cancelling the run and deleting its tables.
#![allow(clippy::unwrap_used)]

mod app_support;
mod run_support;

use app_support::embedded_state as state;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use keyplan_server::{AppState, app};
use run_support::*;
use tower::ServiceExt;

async fn call(state: &AppState, request: Request<Body>) -> (StatusCode, String) {
    let answer = app_support::send(state, request).await;
    (answer.status, answer.text())
}

fn post_run(body: serde_json::Value) -> Request<Body> {
    app_support::post_json("/api/runs", &body)
}

fn example() -> serde_json::Value {
    serde_json::to_value(keyplan_core::examples::first()).unwrap()
}

#[tokio::test]
async fn engines_are_listed_by_name_and_a_url_is_not_an_engine() {
    let (_dir, state, _) = state().await;
    let (status, body) = call(&state, app_support::get("/api/engines")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        body,
        r#"[{"name":"embedded","kind":"embedded","description":"dynoxide-rs (embedded)","default":true,"cannot_keep":"this keyplan has no data folder to record kept tables in, so every run deletes its tables"}]"#
    );
    let (status, body) = call(
        &state,
        post_run(serde_json::json!({"design": example(), "engine": "http://169.254.169.254"})),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        body,
        r#"{"error":"no engine named `http://169.254.169.254`; the engines are: embedded"}"#
    );
}

#[tokio::test]
async fn a_design_that_does_not_validate_is_refused_with_the_reason() {
    let (_dir, state, _) = state().await;
    let (status, body) = call(
        &state,
        post_run(serde_json::json!({"design": {"version": 1, "name": "x"}})),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        body,
        r#"{"error":"the design does not validate: it has no table"}"#
    );
    let (status, body) = call(
        &state,
        post_run(serde_json::json!({"design": {"name": "x"}})),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(body.contains("has no `version`"), "{body}");
}

#[tokio::test]
async fn a_run_streams_its_events_from_start_to_cleanup() {
    let (_dir, state, engine) = state().await;
    let (status, body) = call(&state, post_run(serde_json::json!({"design": example()}))).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{body}");
    let started: serde_json::Value = serde_json::from_str(&body).unwrap();
    let id = started["id"].as_str().unwrap();
    assert_eq!(started["events"], format!("/api/runs/{id}/events"));
    let (status, stream) = call(&state, app_support::get(&format!("/api/runs/{id}/events"))).await;
    assert_eq!(status, StatusCode::OK);
    let names: Vec<&str> = stream
        .lines()
        .filter_map(|l| l.strip_prefix("event: "))
        .collect();
    let mut shape: Vec<&str> = names.clone();
    shape.dedup();
    assert_eq!(
        shape,
        [
            "started",
            "table_created",
            "items_written",
            "pattern",
            "cleanup",
            "done"
        ],
        "{stream}"
    );
    let done = stream
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix("data: "))
        .unwrap();
    let done: serde_json::Value = serde_json::from_str(done).unwrap();
    assert_eq!(done["type"], "done");
    assert_eq!(done["ok"], true, "{stream}");
    assert_eq!(done["mismatched"], 0);
    assert_eq!(run_tables(&engine).await, Vec::<String>::new());
    // A second watcher gets the whole log again; a reconnect resumes after the last id.
    let (_, again) = call(&state, app_support::get(&format!("/api/runs/{id}/events"))).await;
    assert_eq!(again, stream);
    let last_id = names.len() - 1;
    let (_, resumed) = call(
        &state,
        Request::get(format!("/api/runs/{id}/events"))
            .header("last-event-id", (last_id - 1).to_string())
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(
        resumed
            .lines()
            .filter(|l| l.starts_with("event: "))
            .collect::<Vec<_>>(),
        ["event: done"]
    );
    assert!(resumed.contains(&format!("id: {last_id}")), "{resumed}");
}

#[tokio::test]
async fn closing_the_event_stream_cancels_the_run_and_deletes_its_tables() {
    let (_dir, state, engine) = state().await;
    let counts = serde_json::json!({"Customer": 200});
    let (_, body) = call(
        &state,
        post_run(serde_json::json!({"design": example(), "counts": counts})),
    )
    .await;
    let id = serde_json::from_str::<serde_json::Value>(&body).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let response = app(state.clone())
        .oneshot(app_support::get(&format!("/api/runs/{id}/events")))
        .await
        .unwrap();
    let mut body = response.into_body();
    // Read until a table exists, then hang up like a closed tab.
    let mut seen = String::new();
    while !seen.contains("event: table_created") {
        let frame = body.frame().await.unwrap().unwrap();
        if let Ok(data) = frame.into_data() {
            seen.push_str(&String::from_utf8_lossy(&data));
        }
    }
    drop(body);
    // The run sees the cancel, deletes its tables and records its last event.
    for _ in 0..200 {
        let (_, log) = call(&state, app_support::get(&format!("/api/runs/{id}/events"))).await;
        if log.contains("event: failed") {
            assert!(log.contains("the run was cancelled"), "{log}");
            assert_eq!(run_tables(&engine).await, Vec::<String>::new());
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("the run did not stop after its watcher left");
}

/// The `data` of the first event named `name` in an event stream.
fn event_data(stream: &str, name: &str) -> serde_json::Value {
    let mut lines = stream.lines();
    lines
        .find(|l| *l == format!("event: {name}"))
        .unwrap_or_else(|| panic!("no `{name}` event in {stream}"));
    let data = lines.find_map(|l| l.strip_prefix("data: ")).unwrap();
    serde_json::from_str(data).unwrap()
}

#[tokio::test]
async fn a_run_with_counts_and_a_seed_writes_the_sample_they_imply() {
    let (_dir, state, _) = state().await;
    let design = keyplan_core::examples::first();
    let sample = keyplan_core::sample::SampleConfig {
        seed: 7,
        counts: design
            .entities
            .iter()
            .map(|e| (e.name.clone(), 3))
            .collect(),
    };
    let implied = keyplan_server::runner::build::plan_sample(&design, &sample)
        .unwrap()
        .n_items();
    let default = keyplan_server::runner::build::plan(&design, &Default::default())
        .unwrap()
        .n_items();
    assert_ne!(implied, default, "the counts must change the sample");
    let (status, body) = call(
        &state,
        post_run(serde_json::json!({
            "design": example(), "counts": sample.counts, "seed": sample.seed
        })),
    )
    .await;
    assert_eq!(status, StatusCode::ACCEPTED, "{body}");
    let started: keyplan_core::api::runs::Started = serde_json::from_str(&body).unwrap();
    let (_, stream) = call(&state, app_support::get(&started.events)).await;
    let event = event_data(&stream, "started");
    assert_eq!(event["id"], started.id.as_str());
    assert_eq!(event["items"], implied, "{stream}");
    assert_eq!(event_data(&stream, "done")["items_written"], implied);
}

#[tokio::test]
async fn a_start_request_with_an_unknown_field_is_refused() {
    let (_dir, state, _) = state().await;
    let (status, body) = call(
        &state,
        post_run(serde_json::json!({"design": example(), "sead": 7})),
    )
    .await;
    assert!(status.is_client_error(), "{status}");
    assert!(body.contains("unknown field `sead`"), "{body}");
}
