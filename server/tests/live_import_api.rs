//! The live-import API (issue 17): `GET /api/engines/{name}/tables` and
//! `POST /api/import/engine` on a server started with a moto endpoint. Engines are names, never
//! addresses; a missing table is a 404, an engine that is not there a 502, both saying which.
#![allow(clippy::unwrap_used)]

mod app_support;
mod run_support;

use app_support::{get, state_with_engines as state};
use axum::body::Body;
use axum::http::{Request, StatusCode};
use keyplan_server::AppState;
use run_support::*;

async fn call(state: &AppState, request: Request<Body>) -> (StatusCode, serde_json::Value) {
    let answer = app_support::send(state, request).await;
    (answer.status, answer.json())
}

/// `request` is refused with `status`: the error it says.
async fn refused(state: &AppState, request: Request<Body>, status: StatusCode) -> String {
    let (got, body) = call(state, request).await;
    assert_eq!(got, status, "{body}");
    body["error"].as_str().expect("an error answer").to_string()
}

/// `POST /api/import/engine` with `body`.
fn import_request(body: &serde_json::Value) -> Request<Body> {
    app_support::post_json("/api/import/engine", body)
}

/// `POST /api/import/engine` with `body`: the status and the JSON answer.
async fn import(state: &AppState, body: serde_json::Value) -> (StatusCode, serde_json::Value) {
    call(state, import_request(&body)).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_named_engine_lists_its_tables_and_one_imports_as_a_design() {
    let Some((moto, engine)) = start_moto().await else {
        return;
    };
    let (_, design, _) = examples(None).remove(0);
    let (_guard, names) = load_design(&engine, &design, &Default::default()).await;
    let (_dir, state) = state(vec![format!("moto={}", moto.url)]).await;

    let (status, body) = call(&state, get("/api/engines/moto/tables")).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let listed: Vec<&str> = body["tables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap())
        .collect();
    for name in names.values() {
        assert!(listed.contains(&name.as_str()), "{body}");
    }
    // The list says how many items each table holds, as DescribeTable counts them.
    let orders = &names["orders"];
    assert_eq!(
        body["items"][orders.as_str()],
        scan_all(&engine, orders).await.len(),
        "{body}"
    );

    let (status, body) = import(
        &state,
        serde_json::json!({"engine": "moto", "tables": [orders], "sample": 20}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["format"], "engine");
    assert_eq!(body["tables"][0]["name"], orders.as_str());
    assert_eq!(body["tables"][0]["items"], 20, "{body}");
    let design = keyplan_core::file::parse(&body["design"].to_string()).unwrap();
    assert_eq!(design.tables[0].name, *orders);
    assert!(!design.entities.is_empty());
    assert!(
        body["notes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|n| n.as_str().unwrap().contains("20 of its about")),
        "{body}"
    );
    // Every admitted item is released once the design is made.
    assert_eq!(state.runs.items_in_flight(), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_engines_missing_tables_and_dead_endpoints_say_which() {
    // An endpoint nothing listens on: registered, but it never answers.
    let (_dir, state) = state(vec!["dead=http://127.0.0.1:1".to_string()]).await;

    assert_eq!(
        refused(
            &state,
            get("/api/engines/nope/tables"),
            StatusCode::NOT_FOUND
        )
        .await,
        "no engine named `nope`; the engines are: dead, embedded"
    );
    // A URL is not an engine: nothing is contacted.
    let url = serde_json::json!({"engine": "http://169.254.169.254", "tables": ["t"]});
    let error = refused(&state, import_request(&url), StatusCode::BAD_REQUEST).await;
    assert!(
        error.starts_with("no engine named `http://169.254.169.254`"),
        "{error}"
    );
    let missing = serde_json::json!({"engine": "embedded", "tables": ["nope"]});
    assert_eq!(
        refused(&state, import_request(&missing), StatusCode::NOT_FOUND).await,
        "engine `embedded` has no table `nope`"
    );
    let dead = refused(
        &state,
        get("/api/engines/dead/tables"),
        StatusCode::BAD_GATEWAY,
    )
    .await;
    assert!(
        dead.starts_with("cannot reach engine `dead` (http://127.0.0.1:1) within 5 s"),
        "{dead}"
    );
    for bad in [
        serde_json::json!({"engine": "embedded", "tables": ["t"], "sample": 0}),
        serde_json::json!({"engine": "embedded", "tables": ["t"], "sample": 100_001}),
        serde_json::json!({"engine": "embedded"}),
        serde_json::json!({"engine": "embedded", "tables": ["t"], "all": true}),
    ] {
        let (status, body) = import(&state, bad.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad} -> {body}");
    }
    assert_eq!(state.runs.items_in_flight(), 0);
}

/// `POST /api/import/engine` asking for the stream: the status and each line as JSON.
async fn streamed(
    state: &AppState,
    body: serde_json::Value,
) -> (StatusCode, Vec<serde_json::Value>) {
    let request = Request::post("/api/import/engine")
        .header("content-type", "application/json")
        .header("accept", "application/x-ndjson")
        .header("accept-encoding", "gzip, br")
        .body(Body::from(body.to_string()))
        .unwrap();
    let answer = app_support::send(state, request).await;
    // A compressing encoder would hold every line back until the end of the scan.
    assert_eq!(answer.headers.get("content-encoding"), None);
    (answer.status, answer.json_lines())
}

// issue 17 item 2: "shows progress": a streamed import says how many items of each table it
// has read after every page of the scan, then gives the same answer as the plain request; an
// error found once the stream has begun is its last line, with the status it would have had.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_streamed_import_reports_the_items_read_page_by_page_then_the_design() {
    let (_dir, state) = state(Vec::new()).await;
    let engine = state.engines.get(Some("embedded")).unwrap().clone();
    let (_, design, _) = examples(None).remove(0);
    let counts = [("Customer".to_string(), 300)].into_iter().collect();
    let (_guard, names) = load_design(&engine, &design, &counts).await;
    let orders = &names["orders"];
    // 2,000 items of the order example's items are more than one 1 MB page of a Scan.
    let (status, lines) = streamed(
        &state,
        serde_json::json!({"engine": "embedded", "tables": [orders], "sample": 2000}),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let (last, progress) = lines.split_last().unwrap();
    let read: Vec<u64> = progress
        .iter()
        .map(|l| {
            assert_eq!(l["progress"]["table"], orders.as_str(), "{l}");
            assert_eq!(l["progress"]["sample"], 2000, "{l}");
            assert_eq!(l["progress"]["expected"], 2000, "the table holds more: {l}");
            l["progress"]["read"].as_u64().unwrap()
        })
        .collect();
    assert!(read.len() >= 2, "one progress line a page: {read:?}");
    assert!(read.windows(2).all(|w| w[0] < w[1]), "{read:?}");
    assert_eq!(read.last(), Some(&2000));
    let answer = &last["answer"];
    assert_eq!(answer["format"], "engine", "{last}");
    assert_eq!(answer["tables"][0]["items"], 2000, "{last}");
    assert!(keyplan_core::file::parse(&answer["design"].to_string()).is_ok());
    assert_eq!(state.runs.items_in_flight(), 0);

    // A table that is not there is found once the stream has started: the last line says so.
    let (status, lines) = streamed(
        &state,
        serde_json::json!({"engine": "embedded", "tables": ["nope"]}),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        lines.last().unwrap(),
        &serde_json::json!({"error": "engine `embedded` has no table `nope`", "status": 404})
    );
    // What is wrong with the request itself is refused before the stream, with its status.
    let (status, body) = call(
        &state,
        Request::post("/api/import/engine")
            .header("content-type", "application/json")
            .header("accept", "application/x-ndjson")
            .body(Body::from(
                r#"{"engine":"embedded","tables":["t"],"sample":0}"#,
            ))
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
}
