//! `GET /api/health`: the server is up, and which keyplan it is
//! ([`keyplan_core::api::Health`], a stable shape: monitors and the app read it).

use axum::routing::get;
use axum::{Json, Router};
use keyplan_core::api::Health;

use crate::AppState;

pub fn router() -> Router<AppState> {
    Router::new().route("/health", get(health))
}

async fn health() -> Json<Health> {
    Json(Health {
        status: "ok".to_string(),
        version: env!("CARGO_PKG_VERSION").to_string(),
    })
}
