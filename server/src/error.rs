//! The one error type of the HTTP API.
//!
//! Every handler returns `Result<_, ApiError>`; the client gets a status and a JSON body
//! `{"error": "..."}` with a message meant for it, never a stack trace or an internal path.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// The request itself is wrong: bad JSON, an unknown format, an invalid design.
    #[error("{0}")]
    BadRequest(String),
    /// Nothing at this path or with this id.
    #[error("{0}")]
    NotFound(String),
    /// Something on our side failed; the detail goes to the log, not to the client.
    #[error("internal error")]
    Internal(#[source] anyhow::Error),
}

impl ApiError {
    fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl From<anyhow::Error> for ApiError {
    fn from(error: anyhow::Error) -> Self {
        ApiError::Internal(error)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        if let ApiError::Internal(error) = &self {
            tracing::error!("{error:#}");
        }
        let body = serde_json::json!({ "error": self.to_string() });
        (self.status(), Json(body)).into_response()
    }
}
