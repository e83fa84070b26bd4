//! Tables that exist, read from an engine this server was started with (issue 17), read-only:
//!
//! - `GET /api/engines/{name}/tables` -> `{"engine": "moto", "tables": ["orders", ...],
//!   "items": {"orders": 1200, ...}}`: the item counts `DescribeTable` gives (DynamoDB refreshes
//!   them about every six hours), for the first [`COUNTED_TABLES`] tables, [`DESCRIBING_AT_ONCE`]
//!   requests at a time; a table that cannot be described (gone since it was listed) has none.
//! - `POST /api/import/engine` with `{"engine": "moto", "tables": ["orders"], "sample": 1000}`
//!   (or `"all": true` for every table; `sample` defaults to 1,000, at most 100,000) -> the
//!   answer of `POST /api/import` with `"format": "engine"`, plus `"tables"`: for each table
//!   `{"name", "items", "pages", "read_units"}` (what the scan read and cost). With
//!   `Accept: application/x-ndjson` the answer streams instead, one JSON object a line:
//!   `{"progress": {"table", "index", "tables", "read", "expected", "sample"}}` after every
//!   page of the scan (`expected`: the sample, or the table's item count when smaller), then
//!   `{"answer": ...}` (the answer above) or `{"error": "...", "status": 404}`. What is wrong
//!   with the request itself (the sample, the engine's name, more tables or items than one
//!   import reads (`keyplan_core::budget::import`), the runs' budget) is refused before the
//!   stream starts, with its status. A reader that goes away stops the scan.
//!
//! Every body above is a type of [`keyplan_core::api::live`].
//!
//! An engine is named, never addressed: the browser cannot make the server contact anything
//! it was not started with. A sample is admitted against the runs' budget of items in flight
//! before the first request, like a run's; inference runs in the heavy-work pool. An engine
//! that is not there or refuses answers 502 within the engine's 5-second preflight; a missing
//! table 404; both say which.

use axum::Router;
use axum::extract::{Path, State};
use axum::routing::{get, post};
use keyplan_core::api::live::{
    EngineImportAnswer, EngineImportEvent, EngineImportRequest, Progress as ProgressLine,
    TableList, TableScan,
};
use keyplan_core::import::live::{self, Options};

use crate::AppState;
use crate::api::extract::Json;
use crate::api::runs::MAX_ITEMS_PER_RUN;
use crate::api::stream;
use crate::error::ApiError;
use crate::live::{DEFAULT_SAMPLE, MAX_SAMPLE, Progress, list_tables, read_tables};
use crate::runner::error::RunError;
use crate::runner::paging::within;

/// The most tables whose item counts the list reads (one `DescribeTable` each).
pub const COUNTED_TABLES: usize = 100;
/// `DescribeTable` requests in flight at once while counting.
const DESCRIBING_AT_ONCE: usize = 8;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/engines/{name}/tables", get(tables))
        .route("/import/engine", post(import_engine))
}

fn engine_error(e: RunError) -> ApiError {
    match e {
        e @ RunError::NoTable { .. } => ApiError::NotFound(e.to_string()),
        e @ RunError::Data(_) => ApiError::BadRequest(e.to_string()),
        e => ApiError::BadGateway(e.to_string()),
    }
}

async fn tables(
    State(state): State<AppState>,
    Path(name): Path<String>,
) -> Result<axum::Json<TableList>, ApiError> {
    let engine = state
        .engines
        .get(Some(&name))
        .map_err(|e| ApiError::NotFound(e.to_string()))?;
    // The listing and the counts together within the engine's conversation limit.
    let listing = async {
        let tables = list_tables(engine).await?;
        let items = item_counts(engine, &tables).await;
        Ok((tables, items))
    };
    let (tables, items) = within(engine, "list tables", listing)
        .await
        .map_err(engine_error)?;
    Ok(axum::Json(TableList {
        engine: engine.name.clone(),
        items,
        tables,
    }))
}

/// The item count of each of the first [`COUNTED_TABLES`] of `tables` that the engine describes
/// (with a count of 0 or more: DynamoDB's are never negative).
async fn item_counts(
    engine: &crate::engine::Engine,
    tables: &[String],
) -> std::collections::BTreeMap<String, u64> {
    use futures_util::StreamExt;
    // Owned names and clients: a stream of futures that borrow is not `Send` for axum.
    let describe = |name: String| {
        let client = engine.client.clone();
        async move {
            let described = client
                .describe_table()
                .table_name(&name)
                .send()
                .await
                .ok()?;
            let count = described.table()?.item_count()?;
            Some((name, u64::try_from(count).ok()?))
        }
    };
    futures_util::stream::iter(tables.iter().take(COUNTED_TABLES).cloned())
        .map(describe)
        .buffer_unordered(DESCRIBING_AT_ONCE)
        .filter_map(std::future::ready)
        .collect()
        .await
}

async fn import_engine(
    State(state): State<AppState>,
    headers: axum::http::HeaderMap,
    Json(request): Json<EngineImportRequest>,
) -> Result<axum::response::Response, ApiError> {
    use axum::response::IntoResponse;
    let prepared = prepare(&state, request).await?;
    if !stream::wanted(&headers) {
        let answer = read_and_import(&state, prepared, &|_| {}).await?;
        return Ok(axum::Json(answer).into_response());
    }
    Ok(stream::respond(move |lines| async move {
        let (n_tables, sample) = (prepared.tables.len(), prepared.sample);
        let names = prepared.tables.clone();
        let sent = lines.clone();
        let progress = move |p: Progress<'_>| {
            let index = names.iter().position(|t| t == p.table).unwrap_or_default();
            sent.send(EngineImportEvent::Progress(ProgressLine {
                expected: p.expected,
                index,
                read: p.read,
                sample,
                table: p.table.to_string(),
                tables: n_tables,
            }));
        };
        tokio::select! {
            answer = read_and_import(&state, prepared, &progress) => answer,
            // The page went away: the scan stops with it (it only reads).
            () = lines.closed() => Err(ApiError::Unavailable("the page went away".to_string())),
        }
    }))
}

/// An engine import admitted: the engine, the tables and the sample, and the admission that
/// holds its items in the runs' budget until the design is made.
struct Prepared {
    engine: crate::engine::Engine,
    tables: Vec<String>,
    sample: u64,
    admission: crate::api::runs::Admission,
}

/// Checks the request, resolves the engine and its tables, and admits the sample, before any
/// item is read.
async fn prepare(state: &AppState, request: EngineImportRequest) -> Result<Prepared, ApiError> {
    let sample = request.sample.unwrap_or(DEFAULT_SAMPLE);
    if !(1..=MAX_SAMPLE).contains(&sample) {
        return Err(ApiError::BadRequest(format!(
            "`sample` is {sample}: it must be 1 to {MAX_SAMPLE} items per table"
        )));
    }
    if request.all != request.tables.is_empty() {
        return Err(ApiError::BadRequest(
            "name the tables to import in `tables`, or set `all`, not both".to_string(),
        ));
    }
    let engine = state.requested_engine(Some(&request.engine))?;
    let tables = if request.all {
        list_tables(&engine).await.map_err(engine_error)?
    } else {
        request.tables.clone()
    };
    if tables.is_empty() {
        return Err(ApiError::NotFound(format!(
            "engine `{}` has no tables",
            engine.name
        )));
    }
    // issue 41: the tables and the items one import may read, before the first is described.
    keyplan_core::budget::import(tables.len(), sample, u64::from(MAX_ITEMS_PER_RUN))
        .map_err(|e| ApiError::BadRequest(e.to_string()))?;
    // Every sampled item is held until the design is made: admitted before the first request.
    let items = usize::try_from(sample.saturating_mul(tables.len() as u64)).unwrap_or(usize::MAX);
    let admission = state.runs.admit(items)?;
    Ok(Prepared {
        engine,
        tables,
        sample,
        admission,
    })
}

/// Reads the admitted tables (telling `progress` the items read of each after every page) and
/// infers the design in the heavy-work pool: the answer of `POST /api/import/engine`.
async fn read_and_import(
    state: &AppState,
    prepared: Prepared,
    progress: &(dyn Fn(Progress<'_>) + Send + Sync),
) -> Result<EngineImportAnswer, ApiError> {
    let Prepared {
        engine,
        tables,
        sample,
        admission,
    } = prepared;
    let read = read_tables(&engine, &tables, sample, progress)
        .await
        .map_err(engine_error)?;
    let scans: Vec<TableScan> = read
        .iter()
        .map(|(table, stats)| TableScan {
            items: stats.items,
            name: table.table.name.clone(),
            pages: stats.pages,
            read_units: stats.read_units,
        })
        .collect();
    let name = match tables.as_slice() {
        [one] => one.clone(),
        _ => format!("tables of {}", engine.name),
    };
    let answer = state
        .heavy
        .run("the import", move || {
            let _admission = admission;
            let imported = live::import(
                &name,
                read.into_iter().map(|(t, _)| t).collect(),
                Options::default(),
            );
            let design: serde_json::Value =
                serde_json::from_str(&keyplan_core::file::to_string(&imported.design))
                    .map_err(|e| ApiError::Internal(e.into()))?;
            Ok::<_, ApiError>(EngineImportAnswer {
                design,
                format: "engine".to_string(),
                notes: imported.notes,
                tables: scans,
            })
        })
        .await??;
    Ok(answer)
}
