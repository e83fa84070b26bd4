//! The HTTP app without a socket: each test sends one request through `oneshot`.

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use http_body_util::BodyExt;
use tower::ServiceExt;

use crate::{AppState, Dist, DistError, app};

const INDEX: &str = "<!doctype html><title>keyplan test</title>";

fn built_app() -> (tempfile::TempDir, AppState) {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("index.html"), INDEX).expect("write index");
    std::fs::write(dir.path().join("app.js"), "x".repeat(4096)).expect("write js");
    let dist = Dist::locate(Some(dir.path().to_path_buf())).expect("dist has index.html");
    (dir, AppState::new(dist))
}

async fn get(
    state: AppState,
    uri: &str,
    headers: &[(&str, &str)],
) -> (StatusCode, header::HeaderMap, String) {
    let mut request = Request::get(uri);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = app(state)
        .oneshot(request.body(Body::empty()).expect("request"))
        .await
        .expect("the app always answers");
    let status = response.status();
    let headers = response.headers().clone();
    let bytes = response
        .into_body()
        .collect()
        .await
        .expect("body")
        .to_bytes();
    (
        status,
        headers,
        String::from_utf8_lossy(&bytes).into_owned(),
    )
}

#[tokio::test]
async fn health_answers_json_with_the_version() {
    let (_dir, state) = built_app();
    let (status, headers, body) = get(state, "/api/health", &[]).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers[header::CONTENT_TYPE], "application/json");
    let json: serde_json::Value = serde_json::from_str(&body).expect("json");
    assert_eq!(json["status"], "ok");
    assert_eq!(json["version"], env!("CARGO_PKG_VERSION"));
}

#[tokio::test]
async fn the_root_serves_the_built_index() {
    answers_with_the_index("/").await;
}

#[tokio::test]
async fn an_unknown_app_path_falls_back_to_the_index() {
    answers_with_the_index("/designs/orders/entities").await;
}

/// A GET of `uri` answers 200 with the built index.
async fn answers_with_the_index(uri: &str) {
    let (_dir, state) = built_app();
    let (status, _, body) = get(state, uri, &[]).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body, INDEX);
}

#[tokio::test]
async fn an_unknown_api_path_is_a_json_404_not_the_index() {
    let (_dir, state) = built_app();
    let (status, _, body) = get(state, "/api/nope", &[]).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let json: serde_json::Value = serde_json::from_str(&body).expect("json");
    assert_eq!(json["error"], "no such API endpoint");
}

#[tokio::test]
async fn static_files_are_gzipped_when_the_client_accepts_it() {
    let (_dir, state) = built_app();
    let (status, headers, _) = get(state, "/app.js", &[("accept-encoding", "gzip")]).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers[header::CONTENT_ENCODING], "gzip");
}

// scripts/build.sh leaves `.br` and `.gz` copies beside the app's files: they are sent as they
// are (these stand-ins are not real compressed data, so only the file itself can answer with
// them), in the encoding the browser prefers, and a file without them is still compressed.
#[tokio::test]
async fn precompressed_copies_are_served_as_they_are() {
    let (dir, state) = built_app();
    std::fs::write(dir.path().join("app.js.br"), "brotli copy").expect("write .br");
    std::fs::write(dir.path().join("app.js.gz"), "gzip copy").expect("write .gz");
    for (accepts, encoding, body) in [
        ("gzip, deflate, br, zstd", "br", "brotli copy"),
        ("gzip", "gzip", "gzip copy"),
    ] {
        let (status, headers, sent) =
            get(state.clone(), "/app.js", &[("accept-encoding", accepts)]).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(headers[header::CONTENT_ENCODING], encoding, "{accepts}");
        assert_eq!(
            headers[header::CONTENT_TYPE],
            "text/javascript",
            "{accepts}"
        );
        assert_eq!(sent, body, "{accepts}");
    }
    // Without the copies, the layer compresses on the fly.
    std::fs::remove_file(dir.path().join("app.js.br")).expect("remove .br");
    let (_, headers, sent) = get(state, "/app.js", &[("accept-encoding", "br")]).await;
    assert_eq!(headers[header::CONTENT_ENCODING], "br");
    assert_ne!(sent, "brotli copy");
}

#[test]
fn a_missing_dist_names_the_command_that_builds_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let error = Dist::locate(Some(dir.path().join("dist"))).expect_err("no index.html");
    assert!(matches!(error, DistError::Missing(_)));
    let message = error.to_string();
    assert!(message.contains("make run"), "{message}");
    assert!(message.contains("trunk build --release"), "{message}");
}

// issue 19: a file named after its content's hash is kept a year; index.html, the worker's
// files (named the same in every build) and a hashed name answered with index.html (a file of
// an older build, gone) are checked again before each use.
#[tokio::test]
async fn hashed_files_are_kept_and_the_rest_checked_again() {
    let (dir, state) = built_app();
    for name in [
        "keyplan-app-81438e4e0ca14a8b_bg.wasm",
        "keyplan-app-81438e4e0ca14a8b_split_data_view.wasm",
        "keyplan-worker_loader.js",
    ] {
        std::fs::write(dir.path().join(name), "x").expect("write a file");
    }
    for (uri, expected) in [
        (
            "/keyplan-app-81438e4e0ca14a8b_bg.wasm",
            "public, max-age=31536000, immutable",
        ),
        (
            "/keyplan-app-81438e4e0ca14a8b_split_data_view.wasm",
            "public, max-age=31536000, immutable",
        ),
        ("/", "no-cache"),
        ("/index.html", "no-cache"),
        ("/keyplan-worker_loader.js", "no-cache"),
        ("/app.js", "no-cache"),
        ("/keyplan-app-0123456789abcdef_bg.wasm", "no-cache"),
    ] {
        let (status, headers, _) = get(state.clone(), uri, &[]).await;
        assert_eq!(status, StatusCode::OK, "{uri}");
        assert_eq!(headers[header::CACHE_CONTROL], expected, "{uri}");
    }
    // issue 41: and the API's answers are never stored.
    let (_, headers, _) = get(state, "/api/health", &[]).await;
    assert_eq!(headers[header::CACHE_CONTROL], "no-store");
}
