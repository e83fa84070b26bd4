//! The one error type of the HTTP API.
//!
//! Every handler returns `Result<_, ApiError>`; the client gets a status and a JSON body
//! `{"error": "..."}` with a message meant for it, never a stack trace or an internal path.
//! Answers that do not come from a handler (axum's own rejections, a 405, a 413) are brought
//! into the same shape by [`crate::api::json_errors`].

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// The request itself is wrong: bad JSON, an unknown format, an invalid design.
    #[error("{0}")]
    BadRequest(String),
    /// The request comes from a page or a name this server does not serve (a foreign Origin).
    #[error("{0}")]
    Forbidden(String),
    /// Nothing at this path or with this id.
    #[error("{0}")]
    NotFound(String),
    /// The body is larger than the server reads.
    #[error("{0}")]
    PayloadTooLarge(String),
    /// The body is not of the type the endpoint reads.
    #[error("{0}")]
    UnsupportedMediaType(String),
    /// The request names a host this server was not started for (DNS rebinding).
    #[error("{0}")]
    MisdirectedRequest(String),
    /// The server is at its limit (runs, items in flight, heavy work): try again later.
    #[error("{0}")]
    TooManyRequests(String),
    /// The work did not finish within the server's time limit, or no worker was free in time.
    #[error("{0}")]
    Unavailable(String),
    /// The engine the request named did not answer, or refused.
    #[error("{0}")]
    BadGateway(String),
    /// Something on our side failed; the detail goes to the log, not to the client.
    #[error("internal error")]
    Internal(#[source] anyhow::Error),
}

impl ApiError {
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::PayloadTooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::UnsupportedMediaType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiError::MisdirectedRequest(_) => StatusCode::MISDIRECTED_REQUEST,
            ApiError::TooManyRequests(_) => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::BadGateway(_) => StatusCode::BAD_GATEWAY,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl From<anyhow::Error> for ApiError {
    fn from(error: anyhow::Error) -> Self {
        ApiError::Internal(error)
    }
}

/// The API's error answer: `status` with `{"error": message}`.
pub fn json_error(status: StatusCode, message: &str) -> Response {
    let body = keyplan_core::api::ErrorBody {
        error: message.to_string(),
    };
    (status, Json(body)).into_response()
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        if let ApiError::Internal(error) = &self {
            tracing::error!("{error:#}");
        }
        json_error(self.status(), &self.to_string())
    }
}
