//! `POST /api/export/{format}`: the body is a design file (JSON, sent as
//! `Content-Type: application/json`); the answer is the export as text, with its Content-Type
//! and a Content-Disposition download file name.
//!
//! A body that is not a valid design gets a 400 saying what is wrong and where (core's file
//! parser gives the line and column); an unknown format gets a 404 listing the formats. Parsing
//! and rendering run in the server's heavy-work pool ([`crate::heavy`]), never on the async
//! threads, and are given up with 503 past its time limit.

use axum::Router;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use keyplan_core::export::{Target, export};

use crate::AppState;
use crate::api::extract::JsonText;
use crate::error::ApiError;

pub fn router() -> Router<AppState> {
    Router::new().route("/export/{format}", post(export_design))
}

async fn export_design(
    State(state): State<AppState>,
    Path(format): Path<String>,
    JsonText(body): JsonText,
) -> Result<Response, ApiError> {
    let format: Target = format
        .parse()
        .map_err(|e: keyplan_core::export::UnknownFormat| ApiError::NotFound(e.to_string()))?;
    let (text, file_name) = state
        .heavy
        .run("the export", move || {
            let design = keyplan_core::file::parse(&body)
                .map_err(|e| ApiError::BadRequest(format!("the design is not valid: {e}")))?;
            let text = export(&design, format).map_err(|e| ApiError::BadRequest(e.to_string()))?;
            Ok::<_, ApiError>((text, format.file_name(&design)))
        })
        .await??;
    // The file name comes from the design's name through core's identifier rules: letters,
    // digits, `-`, `_` and `.` only, so it needs no quoting beyond the quotes.
    let disposition = format!("attachment; filename=\"{file_name}\"");
    Ok((
        [
            (header::CONTENT_TYPE, format.content_type().to_string()),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        text,
    )
        .into_response())
}
