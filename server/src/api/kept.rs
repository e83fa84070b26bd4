//! Kept tables over HTTP (issue 43, item 6): the runs that kept their tables on an engine, and
//! the delete of one run's tables.
//!
//! - `GET /api/engines/{engine}/kept` -> `[{"run":"1a2b3c4d","design":"...","kept_at":
//!   1765000000,"tables":[{"table":"Orders","name":"keyplan-run-1a2b3c4d-Orders","state":
//!   "present"}]}]`, oldest first ([`KeptRun`]); `state` is `present`, `gone`, `replaced` or
//!   `unknown` (with `why`).
//! - `DELETE /api/engines/{engine}/kept/{run}` -> 200 [`DeletedKept`]: the run's tables the
//!   engine still holds as the run made them are deleted; nothing else is.
//!
//! Only what [`crate::runner::kept`] recorded is ever listed or deleted: the engine is named,
//! never given by address, the run id is checked before it names a file, and a server without
//! a data folder answers 400 saying runs cannot keep tables there.

use axum::extract::{Path, State};
use axum::routing::get;
use axum::{Json, Router};
use keyplan_core::api::runs::{DeletedKept, KeptRun};

use crate::AppState;
use crate::engine::Engine;
use crate::error::ApiError;
use crate::runner::RunId;
use crate::runner::kept::KeepError;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/engines/{engine}/kept", get(list))
        .route(
            "/engines/{engine}/kept/{run}",
            axum::routing::delete(delete),
        )
}

impl From<KeepError> for ApiError {
    fn from(e: KeepError) -> Self {
        let message = e.to_string();
        match e {
            KeepError::NotAllowed(_) => ApiError::BadRequest(message),
            KeepError::NoSuchRun { .. } => ApiError::NotFound(message),
            KeepError::Full(_) => ApiError::TooManyRequests(message),
            KeepError::Record { .. } => ApiError::Unavailable(message),
            KeepError::Engine(_) => ApiError::BadGateway(message),
        }
    }
}

fn engine(state: &AppState, name: &str) -> Result<Engine, ApiError> {
    state
        .engines
        .get(Some(name))
        .cloned()
        .map_err(|e| ApiError::NotFound(e.to_string()))
}

async fn list(
    State(state): State<AppState>,
    Path(name): Path<String>,
) -> Result<Json<Vec<KeptRun>>, ApiError> {
    let engine = engine(&state, &name)?;
    Ok(Json(state.keeper.list(&engine).await?))
}

async fn delete(
    State(state): State<AppState>,
    Path((name, run)): Path<(String, String)>,
) -> Result<Json<DeletedKept>, ApiError> {
    let engine = engine(&state, &name)?;
    let id = RunId::parse(&run).ok_or_else(|| {
        ApiError::NotFound(
            KeepError::NoSuchRun {
                run: run.clone(),
                engine: name.clone(),
            }
            .to_string(),
        )
    })?;
    Ok(Json(state.keeper.delete(&engine, &id).await?))
}
