//! The rooms API (issue 38): `POST /api/rooms` makes a room of a design, `GET
//! /api/rooms/<room>/socket` joins it over a WebSocket ([`socket`]), `DELETE /api/rooms/<room>`
//! closes it for its owner. The Host and Origin checks of every `/api` path run before any of
//! these, so a page from a foreign origin never gets as far as an upgrade.

use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::{Path, State, WebSocketUpgrade};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use axum::{Json, Router};

use crate::AppState;
use crate::api::extract::JsonText;
use crate::error::ApiError;
use crate::rooms::RoomError;

mod socket;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/rooms", post(create))
        .route("/rooms/{room}", delete(close))
        .route("/rooms/{room}/socket", get(open_socket))
}

impl From<RoomError> for ApiError {
    fn from(error: RoomError) -> Self {
        let message = error.to_string();
        match error {
            RoomError::NotFound(_) => ApiError::NotFound(message),
            RoomError::TooManyRooms(_) => ApiError::TooManyRequests(message),
            RoomError::NotOwner => ApiError::Forbidden(message),
            RoomError::BadDesign(_) => ApiError::BadRequest(message),
            RoomError::Store(_) => ApiError::Unavailable(message),
            RoomError::Random(e) => ApiError::Internal(anyhow::anyhow!("{e}")),
        }
    }
}

async fn create(
    State(state): State<AppState>,
    JsonText(body): JsonText,
) -> Result<Response, ApiError> {
    let design = state
        .heavy
        .run("reading the design", move || {
            keyplan_core::file::parse(&body)
                .map_err(|e| ApiError::BadRequest(format!("the design is not valid: {e}")))
        })
        .await??;
    let created = state.rooms.create(design).await?;
    Ok((StatusCode::CREATED, Json(created)).into_response())
}

async fn close(
    State(state): State<AppState>,
    Path(room): Path<String>,
    headers: HeaderMap,
) -> Result<StatusCode, ApiError> {
    let owner = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .ok_or_else(|| {
            ApiError::Forbidden(
                "closing a room takes its owner key: `Authorization: Bearer <owner key>`"
                    .to_string(),
            )
        })?;
    state.rooms.close(&room, owner.trim()).await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn open_socket(
    State(state): State<AppState>,
    Path(room): Path<String>,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let upgrade = upgrade.map_err(|e| {
        ApiError::BadRequest(format!(
            "`/api/rooms/<room>/socket` takes a WebSocket upgrade: {}",
            e.body_text()
        ))
    })?;
    // A room that does not exist is a 404 before the upgrade.
    state.rooms.get(&room).await?;
    let rooms = state.rooms.clone();
    let limit = rooms.bounds().max_message_bytes;
    Ok(upgrade
        .max_message_size(limit)
        .max_frame_size(limit)
        .on_upgrade(move |ws| socket::session(ws, rooms, room)))
}
