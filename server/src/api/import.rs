//! `POST /api/import`: a file in another tool's format in, a keyplan design out. This is how
//! the browser app reads what its own build cannot: OneTable and ElectroDB modules in
//! JavaScript or TypeScript, whose parser (core's `js` feature) is left out of the app's
//! bundle.
//!
//! The body is JSON (`Content-Type: application/json`, like every body the API reads):
//! `{"name": "orders.ts", "text": "<the file>", "from": "electrodb"}`, where `name` (for the
//! messages) and `from` (a format name, as `keyplan import --from` takes it; detected when
//! absent) are optional ([`ImportRequest`]). Several files of one application (OneTable or
//! ElectroDB modules that import from each other, issue 36) are sent together as `{"files":
//! [{"name": "models/task.ts", "text": "..."}, ...]}` instead of `name` and `text`: the names
//! are their paths, which resolve the modules' imports, and each assumption says its file. The
//! answer ([`ImportAnswer`]) is `{"format": "electrodb", "summary": "an ElectroDB service: 4
//! entities, 3 collections", "counts": {"tables": 1, "entities": 4, "patterns": 9,
//! "collections": 3}, "design": <the design file>, "notes": ["..."], "assumed": [{"line": 7,
//! "what": "...", "assumed": "..."}]}` (what could not be read, see
//! `keyplan_core::import::assumed`), the summary being what
//! the app's toast says was read. A file that does not read is a 400 saying what is wrong and where (line
//! and column, or the path in the file). Under `keyplan serve` each import runs in a child
//! process of its own, with its own memory limit ([`child`]), so an import that
//! still finds a way to exhaust memory or its stack ends only itself; it holds a worker of the
//! heavy-work pool ([`crate::heavy`]) meanwhile, which bounds how many run at once and for how
//! long. Without a child (the library's default) the import runs in that pool.

use axum::Router;
use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
pub use keyplan_core::api::import::ImportRequest;
use keyplan_core::api::import::{ImportAnswer, ImportCounts};
use keyplan_core::import::{self, Format};

pub mod child;

use crate::AppState;
use crate::api::extract::Json;
use crate::error::ApiError;
use child::Imports;

pub fn router() -> Router<AppState> {
    Router::new().route("/import", post(import_file))
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

/// The import itself, the answer or the 400 saying what is wrong: what the handler answers,
/// run in the server's process or in an import's child ([`child`]).
pub fn answer(request: &ImportRequest) -> Result<ImportAnswer, ApiError> {
    let from = request.from.as_deref().map(format_named).transpose()?;
    let name = request.file_name();
    let (format, imported) = if request.files.is_empty() {
        let format = match from {
            Some(format) => format,
            None => import::detect(&request.text)
                .map_err(|e| ApiError::BadRequest(format!("{name}: {e}")))?,
        };
        let imported = import::import(format, &request.text)
            .map_err(|e| ApiError::BadRequest(format!("{name} as {format}: {e}")))?;
        (format, imported)
    } else {
        if !request.text.is_empty() || request.name.is_some() {
            return Err(ApiError::BadRequest(
                "give `name` and `text` for one file, or `files` for several, not both".to_string(),
            ));
        }
        let files: Vec<(&str, &str)> = request
            .files
            .iter()
            .map(|f| (f.name.as_str(), f.text.as_str()))
            .collect();
        let (format, imported) = import::import_files(&files)
            .map_err(|e| ApiError::BadRequest(format!("{name}: {e}")))?;
        if let Some(from) = from
            && from != format
        {
            return Err(ApiError::BadRequest(format!(
                "{name} read as {}, not {from}",
                format.described()
            )));
        }
        (format, imported)
    };
    let design: serde_json::Value =
        serde_json::from_str(&keyplan_core::file::to_string(&imported.design))
            .map_err(|e| ApiError::Internal(e.into()))?;
    let read = &imported.design;
    Ok(ImportAnswer {
        counts: ImportCounts {
            collections: imported.collections,
            entities: read.entities.len(),
            patterns: read.patterns.len(),
            tables: read.tables.len(),
        },
        design,
        format: format.as_str().to_string(),
        summary: imported.summary(format),
        notes: imported.notes,
        assumed: imported.assumed,
    })
}

async fn import_file(
    State(state): State<AppState>,
    Json(request): Json<ImportRequest>,
) -> Result<Response, ApiError> {
    // A wrong `from` is answered before any work is started.
    request.from.as_deref().map(format_named).transpose()?;
    let what = format!("the import of {}", request.file_name());
    match &state.imports {
        Imports::InProcess => {
            let answer = state.heavy.run(&what, move || answer(&request)).await??;
            Ok(axum::Json(answer).into_response())
        }
        Imports::Child(child) => {
            let answer = state
                .heavy
                .run_elsewhere(&what, child.import(&request))
                .await??;
            // The child wrote the answer's JSON: passed on as it is, not parsed again.
            Ok(([(header::CONTENT_TYPE, "application/json")], answer).into_response())
        }
    }
}
