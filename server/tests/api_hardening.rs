//! `keyplan serve` under hostile input (issue 13): forged Host and Origin headers, bodies that
//! are not JSON or too large, methods a path does not take, every error in one JSON shape, the
//! security headers, health answering while heavy exports are in flight, and runs admitted
//! before any work within the server's limits.
#![allow(clippy::unwrap_used)]

mod app_support;
mod browser;
mod run_support;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use keyplan_server::api::runs::Limits;
use keyplan_server::heavy::Pool;
use keyplan_server::security::Hosts;
use keyplan_server::{AppState, Dist};

/// The stand-in app starts with a module script, which the CSP must allow.
fn dist() -> (tempfile::TempDir, Dist) {
    app_support::dist_with("<!doctype html><script type=\"module\">start()</script>")
}

fn plain_state() -> (tempfile::TempDir, AppState) {
    let (dir, dist) = dist();
    (dir, AppState::new(dist))
}

async fn embedded_state() -> (tempfile::TempDir, AppState, keyplan_server::engine::Engine) {
    let (dir, dist) = dist();
    let (engines, engine) = run_support::embedded().await;
    (dir, AppState::new(dist).with_engines(engines), engine)
}

struct Answer {
    status: StatusCode,
    headers: header::HeaderMap,
    body: String,
}

impl Answer {
    /// The `error` of a JSON error body; fails when the body is not that shape.
    fn error(&self) -> String {
        assert_eq!(
            self.headers[header::CONTENT_TYPE],
            "application/json",
            "{} {}",
            self.status,
            self.body
        );
        let json: serde_json::Value = serde_json::from_str(&self.body).unwrap();
        assert_eq!(json.as_object().unwrap().len(), 1, "{}", self.body);
        json["error"].as_str().unwrap().to_string()
    }
}

async fn call(state: &AppState, request: Request<Body>) -> Answer {
    let answer = app_support::send(state, request).await;
    Answer {
        body: answer.text(),
        status: answer.status,
        headers: answer.headers,
    }
}

fn example_text() -> String {
    keyplan_core::examples::SOURCES[0].1.to_string()
}

fn post(uri: &str, content_type: Option<&str>, body: impl Into<Body>) -> Request<Body> {
    let mut request = Request::post(uri);
    if let Some(t) = content_type {
        request = request.header(header::CONTENT_TYPE, t);
    }
    request.body(body.into()).unwrap()
}

fn get(uri: &str, headers: &[(&str, &str)]) -> Request<Body> {
    let mut request = Request::get(uri);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    request.body(Body::empty()).unwrap()
}

// ---------------------------------------------------------------------------------------------
// One error shape (issue 13, items 8 and 13)

#[tokio::test]
async fn a_body_that_is_not_declared_json_is_refused_with_415_before_it_is_read() {
    let (_dir, state) = plain_state();
    for content_type in [
        Some("text/plain"),
        Some("application/x-www-form-urlencoded"),
        None,
    ] {
        let answer = call(
            &state,
            post("/api/export/markdown", content_type, example_text()),
        )
        .await;
        assert_eq!(
            answer.status,
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "{content_type:?}"
        );
        assert!(
            answer.error().contains("`Content-Type: application/json`"),
            "{}",
            answer.body
        );
    }
    let answer = call(
        &state,
        post("/api/runs", Some("text/plain;charset=UTF-8"), "{}"),
    )
    .await;
    assert_eq!(answer.status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    assert_eq!(
        answer.error(),
        "the body must be JSON sent with `Content-Type: application/json`, not `text/plain;charset=UTF-8`"
    );
    let answer = call(
        &state,
        post(
            "/api/export/markdown",
            Some("application/json; charset=utf-8"),
            example_text(),
        ),
    )
    .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
}

#[tokio::test]
async fn every_api_error_is_one_json_shape_with_a_message_a_user_understands() {
    let (_dir, state, _engine) = embedded_state().await;
    let json = Some("application/json");
    let big = format!("{{\"pad\":\"{}\"}}", "x".repeat(3 * 1024 * 1024));
    let cases: Vec<(&str, Request<Body>)> = vec![
        ("export of []", post("/api/export/markdown", json, "[]")),
        ("run of []", post("/api/runs", json, "[]")),
        ("run of bad JSON", post("/api/runs", json, "{\"design\":")),
        ("run without design", post("/api/runs", json, "{}")),
        ("3 MB body", post("/api/runs", json, big.clone())),
        ("3 MB export", post("/api/export/markdown", json, big)),
        ("GET on a POST path", get("/api/export/markdown", &[])),
        (
            "PUT on runs",
            Request::put("/api/runs").body(Body::empty()).unwrap(),
        ),
        ("POST on health", post("/api/health", json, "{}")),
        ("unknown run", get("/api/runs/zzzz/events", &[])),
        ("bad run id", get("/api/runs/..%2F/events", &[])),
        ("/api", get("/api", &[])),
        ("/api/", get("/api/", &[])),
        ("/api/nope", get("/api/nope", &[])),
    ];
    let mut out = Vec::new();
    for (what, request) in cases {
        let answer = call(&state, request).await;
        let allow = answer
            .headers
            .get(header::ALLOW)
            .map(|a| format!(" [Allow: {}]", a.to_str().unwrap()))
            .unwrap_or_default();
        out.push(format!(
            "{what}: {}{allow} {}",
            answer.status.as_u16(),
            answer.error()
        ));
    }
    expect_test::expect![[r#"
        export of []: 400 the design is not valid: line 1, column 2: invalid length 0, expected a keyplan design file: a JSON object with a `version`
        run of []: 400 the request is not valid: line 1, column 2: invalid length 0, expected a run request: a JSON object with a `design` and optionally `engine`, `counts`, `seed` and `keep`
        run of bad JSON: 400 the request is not valid: line 1, column 10: EOF while parsing a value
        run without design: 400 the request is not valid: line 1, column 2: missing field `design`
        3 MB body: 413 the body is larger than the 2 MB the server reads
        3 MB export: 413 the body is larger than the 2 MB the server reads
        GET on a POST path: 405 [Allow: POST] `/api/export/markdown` does not take GET; it takes POST
        PUT on runs: 405 [Allow: POST] `/api/runs` does not take PUT; it takes POST
        POST on health: 405 [Allow: GET,HEAD] `/api/health` does not take POST; it takes GET,HEAD
        unknown run: 404 no run `zzzz`
        bad run id: 404 no run `../`
        /api: 404 no such API endpoint
        /api/: 404 no such API endpoint
        /api/nope: 404 no such API endpoint"#]]
    .assert_eq(&out.join("\n"));
}

#[tokio::test]
async fn every_answer_carries_the_security_headers_and_the_csp_allows_the_start_script() {
    let (_dir, state) = plain_state();
    for uri in ["/", "/api/health", "/api/nope"] {
        let answer = call(&state, get(uri, &[])).await;
        assert_eq!(answer.headers["x-content-type-options"], "nosniff", "{uri}");
        assert_eq!(answer.headers["x-frame-options"], "DENY", "{uri}");
        let csp = answer.headers["content-security-policy"].to_str().unwrap();
        assert!(csp.contains("frame-ancestors 'none'"), "{csp}");
        assert!(
            csp.contains("script-src 'self' 'wasm-unsafe-eval' 'sha256-"),
            "{csp}"
        );
        assert!(!csp.contains("'unsafe-eval'") && !csp.contains("script-src 'unsafe-inline'"));
    }
}

// ---------------------------------------------------------------------------------------------
// Host and Origin (issue 13, item 4)

#[tokio::test]
async fn a_forged_host_is_refused_with_421_and_a_foreign_origin_with_403() {
    let (_dir, state, _engine) = embedded_state().await;
    let state = state.with_hosts(Hosts::new(Some(8095), &["box.lan".to_string()]));
    let start = |host: &str, origin: &str| {
        let body = serde_json::json!({ "design": example_value() });
        Request::post("/api/runs")
            .header(header::CONTENT_TYPE, "application/json")
            .header("host", host)
            .header("origin", origin)
            .body(Body::from(body.to_string()))
            .unwrap()
    };
    let cases: Vec<(&str, Request<Body>)> = vec![
        (
            "rebound engines",
            get("/api/engines", &[("host", "evil.example:8095")]),
        ),
        ("rebound app", get("/", &[("host", "evil.example:8095")])),
        (
            "wrong port",
            get("/api/health", &[("host", "127.0.0.1:9999")]),
        ),
        (
            "rebound start",
            start("evil.example:8095", "http://evil.example:8095"),
        ),
        (
            "cross-site start",
            start("127.0.0.1:8095", "https://evil.example"),
        ),
        (
            "cross-site cancel",
            Request::delete("/api/runs/1a2b3c4d")
                .header("host", "localhost:8095")
                .header("origin", "null")
                .body(Body::empty())
                .unwrap(),
        ),
        (
            "cross-site events",
            get(
                "/api/runs/1a2b3c4d/events",
                &[
                    ("host", "127.0.0.1:8095"),
                    ("origin", "http://evil.example"),
                ],
            ),
        ),
        (
            "cross-site delete of kept tables",
            Request::delete("/api/engines/embedded/kept/1a2b3c4d")
                .header("host", "127.0.0.1:8095")
                .header("origin", "http://evil.example")
                .body(Body::empty())
                .unwrap(),
        ),
        (
            "rebound list of kept tables",
            get(
                "/api/engines/embedded/kept",
                &[("host", "evil.example:8095")],
            ),
        ),
        ("ours", get("/api/health", &[("host", "127.0.0.1:8095")])),
        (
            "ours by name",
            get("/api/health", &[("host", "localhost:8095")]),
        ),
        ("ours by v6", get("/api/health", &[("host", "[::1]:8095")])),
        (
            "allowed host",
            get("/api/health", &[("host", "box.lan:8095")]),
        ),
        ("no host", get("/api/health", &[])),
        (
            "trunk serve origin",
            get(
                "/api/engines",
                &[
                    ("host", "127.0.0.1:8095"),
                    ("origin", "http://127.0.0.1:8081"),
                ],
            ),
        ),
    ];
    let mut out = Vec::new();
    for (what, request) in cases {
        let answer = call(&state, request).await;
        let shown = if answer.status.is_success() {
            String::new()
        } else {
            format!(" {}", answer.error())
        };
        out.push(format!("{what}: {}{shown}", answer.status.as_u16()));
    }
    expect_test::expect![[r#"
        rebound engines: 421 this keyplan server answers to 127.0.0.1:8095, localhost:8095, [::1]:8095, box.lan:8095, not to the host `evil.example:8095`; to reach it under that name, start it with `--allowed-host evil.example`
        rebound app: 421 this keyplan server answers to 127.0.0.1:8095, localhost:8095, [::1]:8095, box.lan:8095, not to the host `evil.example:8095`; to reach it under that name, start it with `--allowed-host evil.example`
        wrong port: 421 this keyplan server answers to 127.0.0.1:8095, localhost:8095, [::1]:8095, box.lan:8095, not to the host `127.0.0.1:9999`; to reach it under that name, start it with `--allowed-host 127.0.0.1`
        rebound start: 421 this keyplan server answers to 127.0.0.1:8095, localhost:8095, [::1]:8095, box.lan:8095, not to the host `evil.example:8095`; to reach it under that name, start it with `--allowed-host evil.example`
        cross-site start: 403 requests from the page at `https://evil.example` are refused: only pages this keyplan server serves may use its API
        cross-site cancel: 403 requests from the page at `null` are refused: only pages this keyplan server serves may use its API
        cross-site events: 403 requests from the page at `http://evil.example` are refused: only pages this keyplan server serves may use its API
        cross-site delete of kept tables: 403 requests from the page at `http://evil.example` are refused: only pages this keyplan server serves may use its API
        rebound list of kept tables: 421 this keyplan server answers to 127.0.0.1:8095, localhost:8095, [::1]:8095, box.lan:8095, not to the host `evil.example:8095`; to reach it under that name, start it with `--allowed-host evil.example`
        ours: 200
        ours by name: 200
        ours by v6: 200
        allowed host: 200
        no host: 200
        trunk serve origin: 200"#]]
    .assert_eq(&out.join("\n"));
}

/// One raw HTTP/1.1 exchange on a socket: the status code and the body.
fn raw(port: u16, request: &str) -> (u16, String) {
    let mut socket = TcpStream::connect(("127.0.0.1", port)).unwrap();
    socket.write_all(request.as_bytes()).unwrap();
    let mut answer = String::new();
    socket.read_to_string(&mut answer).unwrap();
    let status = answer
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let body = answer
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_string())
        .unwrap_or_default();
    (status, body)
}

#[test]
fn the_real_server_refuses_a_rebound_host_and_a_foreign_origin_on_its_socket() {
    let (_dir, dist) = dist();
    let server = browser::start_server_with(dist.path(), &["--allowed-host", "box.lan"]);
    let port: u16 = server
        .url
        .rsplit_once(':')
        .and_then(|(_, p)| p.parse().ok())
        .expect("the server's port");
    let request = |host: &str, extra: &str, line: &str, body: &str| {
        format!(
            "{line} HTTP/1.1\r\nHost: {host}\r\n{extra}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
    };
    let (status, body) = raw(
        port,
        &request(&format!("evil.example:{port}"), "", "GET /api/engines", ""),
    );
    assert_eq!(status, 421, "{body}");
    assert!(
        body.contains("\"error\":\"this keyplan server answers to 127.0.0.1:"),
        "{body}"
    );
    assert!(!body.contains("embedded"), "{body}");
    let design = serde_json::json!({"design": serde_json::from_str::<serde_json::Value>(&example_text()).unwrap()}).to_string();
    let (status, body) = raw(
        port,
        &request(
            &format!("127.0.0.1:{port}"),
            "Origin: http://evil.example\r\nContent-Type: application/json\r\n",
            "POST /api/runs",
            &design,
        ),
    );
    assert_eq!(status, 403, "{body}");
    let (status, body) = raw(
        port,
        &request(&format!("box.lan:{port}"), "", "GET /api/health", ""),
    );
    assert_eq!(status, 200, "{body}");
    let (status, body) = raw(
        port,
        &request(&format!("localhost:{port}"), "", "GET /api/health", ""),
    );
    assert_eq!(status, 200, "{body}");
}

// ---------------------------------------------------------------------------------------------
// Heavy work off the async threads (issue 13, item 3)

#[tokio::test(flavor = "current_thread")]
async fn health_answers_while_eight_exports_are_in_flight() {
    // One async thread: if an export rendered on it, health could not answer until it ended.
    let (_dir, state) = plain_state();
    let pool = Pool::new(2, 16, Duration::from_secs(3600));
    let state = state.with_heavy(pool.clone());
    // Two jobs hold both workers until released, so the eight exports stay in flight: queued
    // in the pool, never on the async thread.
    let (release, gate) = std::sync::mpsc::channel::<()>();
    let gate = std::sync::Arc::new(std::sync::Mutex::new(gate));
    let mut holders = Vec::new();
    for _ in 0..2 {
        let (pool, gate) = (pool.clone(), gate.clone());
        holders.push(tokio::spawn(async move {
            pool.run("holding a worker", move || gate.lock().unwrap().recv().ok())
                .await
        }));
    }
    let mut exports = Vec::new();
    for _ in 0..8 {
        let state = state.clone();
        exports.push(tokio::spawn(async move {
            call(
                &state,
                post(
                    "/api/export/markdown",
                    Some("application/json"),
                    example_text(),
                ),
            )
            .await
        }));
    }
    while pool.admitted() < 10 {
        tokio::task::yield_now().await;
    }
    let health = call(&state, get("/api/health", &[])).await;
    assert_eq!(health.status, StatusCode::OK);
    assert_eq!(pool.admitted(), 10, "the exports were still in flight");
    for _ in 0..2 {
        release.send(()).unwrap();
    }
    for export in exports {
        let answer = export.await.unwrap();
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
        assert!(answer.body.contains("order-management") || !answer.body.is_empty());
    }
    for holder in holders {
        holder.await.unwrap().unwrap();
    }
}

#[tokio::test]
async fn an_export_past_the_time_limit_is_a_503_saying_so() {
    let (_dir, state) = plain_state();
    let state = state.with_heavy(Pool::new(1, 4, Duration::ZERO));
    let answer = call(
        &state,
        post(
            "/api/export/markdown",
            Some("application/json"),
            example_text(),
        ),
    )
    .await;
    assert_eq!(answer.status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(
        answer.error(),
        "the export took longer than the server's limit of 0 s and was given up"
    );
}

// ---------------------------------------------------------------------------------------------
// Runs admitted before work (issue 13, item 2), and their event streams (item 7)

fn start_body(design: serde_json::Value) -> Request<Body> {
    post(
        "/api/runs",
        Some("application/json"),
        serde_json::json!({ "design": design }).to_string(),
    )
}

fn example_value() -> serde_json::Value {
    serde_json::from_str(&example_text()).unwrap()
}

#[tokio::test]
async fn a_run_that_does_not_fit_the_item_budget_is_refused_with_429_before_it_is_parsed() {
    let (_dir, state, _engine) = embedded_state().await;
    let state = state.with_run_limits(Limits {
        max_active_runs: 16,
        max_items_in_flight: 50_000,
    });
    // Not even a design: admission comes first, so the answer is the budget, not the design.
    let answer = call(&state, start_body(serde_json::json!({"nonsense": true}))).await;
    assert_eq!(answer.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(
        answer.error(),
        "the server is at its limit of 50000 sample items across runs (0 are held by runs going now, this run needs up to 100000); wait for a run to finish, or ask for fewer items"
    );
    assert_eq!(state.runs.items_in_flight(), 0);
}

#[tokio::test]
async fn the_concurrency_limit_is_checked_before_planning() {
    let (_dir, state, _engine) = embedded_state().await;
    let pool = Pool::new(1, 4, Duration::from_secs(3600));
    let state = state.with_heavy(pool.clone()).with_run_limits(Limits {
        max_active_runs: 1,
        max_items_in_flight: 1_000_000,
    });
    // The only worker is held, so the first run is admitted and waits to be planned.
    let (release, gate) = std::sync::mpsc::channel::<()>();
    let holder = {
        let pool = pool.clone();
        tokio::spawn(async move { pool.run("holding", move || gate.recv().ok()).await })
    };
    while pool.working() == 0 {
        tokio::task::yield_now().await;
    }
    let first = {
        let state = state.clone();
        tokio::spawn(async move { call(&state, start_body(example_value())).await })
    };
    while pool.admitted() < 2 {
        tokio::task::yield_now().await;
    }
    assert_eq!(
        state.runs.items_in_flight(),
        100_000,
        "reserved before planning"
    );
    let second = call(&state, start_body(serde_json::json!({"not": "a design"}))).await;
    assert_eq!(second.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(
        second.error(),
        "1 runs are already going, the most this server runs at once; wait for one to finish"
    );
    release.send(()).unwrap();
    holder.await.unwrap().unwrap();
    let first = first.await.unwrap();
    assert_eq!(first.status, StatusCode::ACCEPTED, "{}", first.body);
    let started: keyplan_core::api::runs::Started = serde_json::from_str(&first.body).unwrap();
    let stream = call(&state, get(&started.events, &[])).await;
    assert!(stream.body.contains("event: done"), "{}", stream.body);
    // The finished run gives its items back once its task has dropped the plan.
    let mut items = state.runs.watch_items();
    items.wait_for(|n| *n == 0).await.unwrap();
}

#[tokio::test]
async fn a_last_event_id_at_or_past_the_end_of_a_finished_run_ends_the_stream_at_once() {
    let (_dir, state, _engine) = embedded_state().await;
    let answer = call(&state, start_body(example_value())).await;
    assert_eq!(answer.status, StatusCode::ACCEPTED, "{}", answer.body);
    let started: keyplan_core::api::runs::Started = serde_json::from_str(&answer.body).unwrap();
    let whole = call(&state, get(&started.events, &[])).await;
    let last_id = whole
        .body
        .lines()
        .filter_map(|l| l.strip_prefix("id: "))
        .next_back()
        .unwrap()
        .to_string();
    // issue 13: u64::MAX overflowed (a panic); the last id or past it never closed.
    for id in [
        last_id.as_str(),
        "999999",
        "18446744073709551615",
        "-1",
        "x",
    ] {
        let resumed = call(&state, get(&started.events, &[("last-event-id", id)])).await;
        assert_eq!(resumed.status, StatusCode::OK, "{id}");
        let events = resumed.body.matches("event: ").count();
        let expected = if id == "-1" || id == "x" {
            whole.body.matches("event: ").count()
        } else {
            0
        };
        assert_eq!(events, expected, "{id}: {}", resumed.body);
    }
}
