//! `POST /api/import`: a file in another tool's format in, a keyplan design out. This is how
//! the browser app reads what its own build cannot: OneTable and ElectroDB modules in
//! JavaScript or TypeScript, whose parser (core's `js` feature) is left out of the app's
//! bundle.
//!
//! The body is JSON (`Content-Type: application/json`, like every body the API reads):
//! `{"name": "orders.ts", "text": "<the file>", "from": "electrodb"}`, where `name` (for the
//! messages) and `from` (a format name, as `keyplan import --from` takes it; detected when
//! absent) are optional. The answer is `{"format": "electrodb", "summary": "an ElectroDB
//! service: 4 entities, 3 collections", "counts": {"tables": 1, "entities": 4, "patterns": 9,
//! "collections": 3}, "design": <the design file>, "notes": ["..."]}`, the summary being what
//! the app's toast says was read. A file that does not read is a 400 saying what is wrong and where (line
//! and column, or the path in the file). The work runs in the heavy-work pool
//! ([`crate::heavy`]).

use axum::Router;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use keyplan_core::import::{self, Format};
use serde::Deserialize;

use crate::AppState;
use crate::api::extract::Json;
use crate::error::ApiError;

pub fn router() -> Router<AppState> {
    Router::new().route("/import", post(import_file))
}

/// The request body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ImportRequest {
    /// The file's name, only for messages.
    #[serde(default)]
    name: Option<String>,
    /// The file's text.
    text: String,
    /// The format, as `keyplan import --from` names it; detected when absent.
    #[serde(default)]
    from: Option<String>,
}

/// The format named `name`, as `keyplan import --from` takes it: every format core reads.
fn format_named(name: &str) -> Result<Format, ApiError> {
    Format::ALL
        .into_iter()
        .find(|f| f.as_str() == name)
        .ok_or_else(|| {
            ApiError::BadRequest(format!(
                "unknown format `{name}`: use one of {}",
                Format::ALL.map(Format::as_str).join(", ")
            ))
        })
}

async fn import_file(
    State(state): State<AppState>,
    Json(request): Json<ImportRequest>,
) -> Result<Response, ApiError> {
    let from = request.from.as_deref().map(format_named).transpose()?;
    let answer = state
        .heavy
        .run("the import", move || {
            let name = request.name.as_deref().unwrap_or("the file");
            let format = match from {
                Some(format) => format,
                None => import::detect(&request.text)
                    .map_err(|e| ApiError::BadRequest(format!("{name}: {e}")))?,
            };
            let imported = import::import(format, &request.text)
                .map_err(|e| ApiError::BadRequest(format!("{name} as {format}: {e}")))?;
            let design: serde_json::Value =
                serde_json::from_str(&keyplan_core::file::to_string(&imported.design))
                    .map_err(|e| ApiError::Internal(e.into()))?;
            let read = &imported.design;
            Ok::<_, ApiError>(serde_json::json!({
                "format": format.as_str(),
                "summary": imported.summary(format),
                "counts": {
                    "tables": read.tables.len(),
                    "entities": read.entities.len(),
                    "patterns": read.patterns.len(),
                    "collections": imported.collections,
                },
                "design": design,
                "notes": imported.notes,
            }))
        })
        .await??;
    Ok(axum::Json(answer).into_response())
}
