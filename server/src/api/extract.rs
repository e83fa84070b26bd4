//! Reading request bodies: JSON only, at most [`BODY_LIMIT`] bytes, and every refusal in the
//! API's `{"error": "..."}` shape with a message a user can act on.
//!
//! A body must come with `Content-Type: application/json` (a `+json` type and a charset are
//! fine): anything else is refused with 415 before a byte is read, so a cross-site form or
//! `text/plain` POST, which a browser sends without asking, never reaches a handler.

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::{HeaderMap, StatusCode, header};
use serde::de::DeserializeOwned;

use crate::error::ApiError;

/// The most a request body may hold.
pub const BODY_LIMIT: usize = 2 * 1024 * 1024;

/// A JSON body as text, for handlers that parse it themselves (a design file, whose parser
/// reports lines and columns).
#[derive(Debug)]
pub struct JsonText(pub String);

/// A JSON body parsed into `T`.
#[derive(Debug)]
pub struct Json<T>(pub T);

/// Refuses a body that is not declared as JSON.
pub fn require_json(headers: &HeaderMap) -> Result<(), ApiError> {
    let given = headers
        .get(header::CONTENT_TYPE)
        .map(|v| v.to_str().unwrap_or("?").to_string());
    let essence = given.as_deref().map(|t| {
        t.split(';')
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase()
    });
    match essence.as_deref() {
        Some(t) if t == "application/json" || (t.starts_with("application/") && t.ends_with("+json")) => {
            Ok(())
        }
        Some(_) => Err(ApiError::UnsupportedMediaType(format!(
            "the body must be JSON sent with `Content-Type: application/json`, not `{}`",
            given.unwrap_or_default().chars().take(80).collect::<String>()
        ))),
        None => Err(ApiError::UnsupportedMediaType(
            "the body must be JSON sent with `Content-Type: application/json`; the request has no Content-Type".to_string(),
        )),
    }
}

async fn read_body<S: Send + Sync>(request: Request, state: &S) -> Result<Bytes, ApiError> {
    require_json(request.headers())?;
    Bytes::from_request(request, state)
        .await
        .map_err(|rejection| {
            if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
                ApiError::PayloadTooLarge(format!(
                    "the body is larger than the {} MB the server reads",
                    BODY_LIMIT / (1024 * 1024)
                ))
            } else {
                ApiError::BadRequest(format!(
                    "the body could not be read: {}",
                    rejection.body_text()
                ))
            }
        })
}

fn utf8(bytes: Bytes) -> Result<String, ApiError> {
    String::from_utf8(bytes.to_vec()).map_err(|e| {
        ApiError::BadRequest(format!(
            "the body is not UTF-8 text (bad byte at offset {})",
            e.utf8_error().valid_up_to()
        ))
    })
}

impl<S: Send + Sync> FromRequest<S> for JsonText {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        Ok(JsonText(utf8(read_body(request, state).await?)?))
    }
}

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for Json<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        let bytes = read_body(request, state).await?;
        serde_json::from_slice(&bytes).map(Json).map_err(|e| {
            // serde_json's message ends with " at line L column C"; say it first.
            let full = e.to_string();
            let message = full
                .rfind(" at line ")
                .map_or(full.as_str(), |at| &full[..at]);
            ApiError::BadRequest(format!(
                "the request is not valid: line {}, column {}: {message}",
                e.line(),
                e.column()
            ))
        })
    }
}
