//! The HTTP API under `/api`: one router per feature, merged here.
//!
//! Paths here are relative to `/api`. An unknown `/api/...` path answers a JSON 404 rather than
//! falling through to the app's `index.html`.

use axum::Router;

use crate::AppState;
use crate::error::ApiError;

pub mod export;
pub mod health;
pub mod runs;

/// Every API route. To add a feature, write `api/<feature>.rs` with
/// `pub fn router() -> Router<AppState>` and merge it below.
pub fn router() -> Router<AppState> {
    Router::new()
        .merge(health::router())
        .merge(export::router())
        .merge(runs::router())
        .fallback(|| async { ApiError::NotFound("no such API endpoint".to_string()) })
}
