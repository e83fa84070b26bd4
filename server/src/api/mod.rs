//! The HTTP API under `/api`: one router per feature, merged here.
//!
//! Paths here are relative to `/api`. An unknown `/api/...` path, `/api` and `/api/` included,
//! answers a JSON 404 rather than falling through to the app's `index.html`.
//!
//! Every error the API answers has one shape: the status and a JSON body
//! `{"error": "<a message for the user>"}`, whatever produced it: a handler's [`ApiError`], a
//! body that is not JSON (415), too large (413, over [`extract::BODY_LIMIT`]) or invalid (400),
//! a method the path does not take (405, with `Allow`), a refused Host (421) or Origin (403),
//! a limit reached (429), work over its time limit (503). [`json_errors`] rewrites any answer
//! that slipped through in another shape, so a client only ever parses one.

use axum::Router;
use axum::extract::Request;
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::Response;
use axum::routing::any;

use crate::AppState;
use crate::error::{ApiError, json_error};

pub mod export;
pub mod extract;
pub mod health;
pub mod import;
pub mod kept;
pub mod live;
pub mod migrate;
pub mod rooms;
pub mod runs;
pub mod stream;

/// Every API route. To add a feature, write `api/<feature>.rs` with
/// `pub fn router() -> Router<AppState>` and merge it below.
pub fn router() -> Router<AppState> {
    Router::new()
        .merge(health::router())
        .merge(export::router())
        .merge(import::router())
        .merge(kept::router())
        .merge(live::router())
        .merge(migrate::router())
        .merge(rooms::router())
        .merge(runs::router())
        .route("/", any(not_found))
        .fallback(not_found)
        .layer(axum::extract::DefaultBodyLimit::max(extract::BODY_LIMIT))
}

pub async fn not_found() -> ApiError {
    ApiError::NotFound("no such API endpoint".to_string())
}

fn is_json(response: &Response) -> bool {
    response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| t.starts_with("application/json"))
}

/// Brings every error answer of the API into the `{"error": "..."}` shape: a 405 says which
/// methods the path takes, a short text message is kept, anything else gets the status's
/// reason.
pub async fn json_errors(request: Request, next: Next) -> Response {
    let method = request.method().clone();
    let path = request
        .extensions()
        .get::<axum::extract::OriginalUri>()
        .map_or_else(
            || request.uri().path().to_string(),
            |u| u.path().to_string(),
        );
    let response = next.run(request).await;
    let status = response.status();
    if !(status.is_client_error() || status.is_server_error()) || is_json(&response) {
        return response;
    }
    let allow = response.headers().get(header::ALLOW).cloned();
    let (parts, body) = response.into_parts();
    let text = axum::body::to_bytes(body, 4096)
        .await
        .map(|b| String::from_utf8_lossy(&b).trim().to_string())
        .unwrap_or_default();
    let message = match status {
        StatusCode::METHOD_NOT_ALLOWED => {
            let allowed = allow
                .as_ref()
                .and_then(|a| a.to_str().ok())
                .unwrap_or("another method")
                .to_string();
            format!("`{path}` does not take {method}; it takes {allowed}")
        }
        StatusCode::PAYLOAD_TOO_LARGE => format!(
            "the body is larger than the {} MB the server reads",
            extract::BODY_LIMIT / (1024 * 1024)
        ),
        _ if !text.is_empty() && text.len() <= 300 => text,
        _ => status
            .canonical_reason()
            .unwrap_or("the request failed")
            .to_lowercase(),
    };
    let mut out = json_error(status, &message);
    if let Some(allow) = allow {
        out.headers_mut().insert(header::ALLOW, allow);
    }
    for (name, value) in parts.headers.iter() {
        if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
            out.headers_mut()
                .entry(name)
                .or_insert_with(|| value.clone());
        }
    }
    out
}
