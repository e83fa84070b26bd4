//! `GET /api/health`: the server is up, and which keyplan it is.

use axum::routing::get;
use axum::{Json, Router};
use serde::Serialize;

use crate::AppState;

/// The health answer. A stable shape: monitors and the app read it.
#[derive(Debug, Serialize)]
pub struct Health {
    pub status: &'static str,
    pub version: &'static str,
}

pub fn router() -> Router<AppState> {
    Router::new().route("/health", get(health))
}

async fn health() -> Json<Health> {
    Json(Health {
        status: "ok",
        version: env!("CARGO_PKG_VERSION"),
    })
}
