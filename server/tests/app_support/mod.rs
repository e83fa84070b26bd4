//! The HTTP app without a socket, shared by the API tests: a state serving a stand-in `dist/`,
//! with or without engines, and one request sent through the router with its answer read
//! whole.
#![allow(dead_code, clippy::unwrap_used)]

use axum::body::{Body, Bytes};
use axum::http::{HeaderMap, Request, StatusCode, header};
use http_body_util::BodyExt;
use keyplan_server::engine::{Engine, Engines, EnginesConfig};
use keyplan_server::{AppState, Dist, app};
use tower::ServiceExt;

/// A temporary `dist/` whose index.html is `index`, in place of the built app.
pub fn dist_with(index: &str) -> (tempfile::TempDir, Dist) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("index.html"), index).unwrap();
    let dist = Dist::locate(Some(dir.path().to_path_buf())).unwrap();
    (dir, dist)
}

/// [`dist_with`] a bare index.
pub fn dist() -> (tempfile::TempDir, Dist) {
    dist_with("<!doctype html>")
}

/// The app on [`dist`], with no engines.
pub fn state() -> (tempfile::TempDir, AppState) {
    let (dir, dist) = dist();
    (dir, AppState::new(dist))
}

/// The app on [`dist`] with the embedded engine and the named `endpoints` (`NAME=URL`).
pub async fn state_with_engines(endpoints: Vec<String>) -> (tempfile::TempDir, AppState) {
    let (dir, dist) = dist();
    let engines = Engines::start(&EnginesConfig {
        embedded: true,
        endpoints,
        allow_aws: false,
        ..Default::default()
    })
    .await
    .unwrap();
    (dir, AppState::new(dist).with_engines(engines))
}

/// The app on [`dist`] with the embedded engine only, and that engine.
pub async fn embedded_state() -> (tempfile::TempDir, AppState, Engine) {
    let (dir, state) = state_with_engines(Vec::new()).await;
    let engine = state.engines.get(None).unwrap().clone();
    (dir, state, engine)
}

/// What the app answered, its body read whole.
pub struct Answer {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub bytes: Bytes,
}

impl Answer {
    /// The body as text (lossy: a test that wants UTF-8 checks [`Answer::bytes`]).
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.bytes).into_owned()
    }

    /// The body as JSON; fails, showing the body, when it is not.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.bytes)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.text()))
    }

    /// The body as UTF-8 lines of JSON (a stream's), each parsed.
    pub fn json_lines(&self) -> Vec<serde_json::Value> {
        std::str::from_utf8(&self.bytes)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
            .collect()
    }
}

/// Sends `request` through the app on `state`.
pub async fn send(state: &AppState, request: Request<Body>) -> Answer {
    let response = app(state.clone()).oneshot(request).await.unwrap();
    let status = response.status();
    let headers = response.headers().clone();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    Answer {
        status,
        headers,
        bytes,
    }
}

/// A POST of `body` declared as `content_type`.
pub fn post(uri: &str, content_type: &str, body: impl Into<Body>) -> Request<Body> {
    Request::post(uri)
        .header(header::CONTENT_TYPE, content_type)
        .body(body.into())
        .unwrap()
}

/// A POST of the JSON `body`.
pub fn post_json(uri: &str, body: &serde_json::Value) -> Request<Body> {
    post(uri, "application/json", body.to_string())
}

/// A GET of `uri`.
pub fn get(uri: &str) -> Request<Body> {
    Request::get(uri).body(Body::empty()).unwrap()
}
