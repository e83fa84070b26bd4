//! Runs over HTTP: `POST /api/runs` starts one, `GET /api/runs/{id}/events` streams its
//! progress as server-sent events, `DELETE /api/runs/{id}` cancels it, and `GET /api/engines`
//! lists the engines a run may use.
//!
//! The browser names an engine; it can never send a URL for the server to call: engines are
//! only those the server was started with. A run cleans up after itself whatever happens: when
//! its last watcher disconnects before the end (a closed tab), it is cancelled, and a cancelled
//! run deletes its tables before its `failed` event.
//!
//! The wire format, for the app's Run panel:
//! - `GET /api/engines` -> `[{"name":"embedded","kind":"embedded","description":"...",
//!   "default":true}, ...]` (`kind`: `embedded`, `endpoint` or `aws`).
//! - `POST /api/runs` `{"design": <design document>, "engine": "embedded", "counts":
//!   {"Order": 100}, "seed": 7}` (`engine`, `counts` and `seed` optional: the default engine,
//!   the sample's default counts and seed) -> 202 `{"id":"1a2b3c4d","events":
//!   "/api/runs/1a2b3c4d/events"}`; 400 `{"error": "..."}` for an unknown engine, an unknown
//!   field, an invalid design or too many items, with nothing created.
//! - `GET /api/runs/{id}/events`: `text/event-stream`; each event has `id: N` (its position),
//!   `event: <type>` and `data: <json>` where the JSON carries the same `type`; see
//!   [`RunEvent`] for every type and field. The stream ends after `done` or `failed`: close the
//!   `EventSource` on either. Closing it earlier cancels the run.
//! - `DELETE /api/runs/{id}` cancels a run -> 202.
//!
//! Every body above is a type of [`keyplan_core::run`], the one definition of this protocol that
//! the app deserialises too.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use futures_util::Stream;
use keyplan_core::sample::SampleConfig;
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

use crate::AppState;
use crate::engine::EngineInfo;
use crate::error::ApiError;
use crate::runner::{self, RunEvent, RunId};
pub use keyplan_core::run::{StartRun, Started};

/// At most this many runs at once; another is refused until one ends.
pub const MAX_ACTIVE_RUNS: usize = 16;
/// At most this many items per run from the browser: the whole sample, every entity's.
pub const MAX_ITEMS_PER_RUN: u32 = keyplan_core::sample::MAX_SAMPLE_ITEMS as u32;
/// Finished runs kept for late watchers.
const KEPT_RUNS: usize = 64;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/engines", get(engines))
        .route("/runs", post(start))
        .route("/runs/{id}/events", get(events))
        .route("/runs/{id}", delete(cancel))
}

/// One run's event log, shared by the task running it and every watcher.
#[derive(Debug)]
struct RunRecord {
    events: Mutex<Vec<RunEvent>>,
    /// The number of events so far; watchers wait on it.
    count: watch::Sender<usize>,
    cancel: CancellationToken,
    watchers: AtomicUsize,
}

impl RunRecord {
    fn finished(&self) -> bool {
        self.events
            .lock()
            .map(|e| e.last().is_some_and(RunEvent::is_last))
            .unwrap_or(true)
    }
}

type Entry = (RunId, Arc<RunRecord>);

/// The runs of this server: the active ones and the last finished ones. Cheap to clone.
#[derive(Debug, Clone, Default)]
pub struct Runs {
    inner: Arc<Mutex<VecDeque<Entry>>>,
}

impl Runs {
    fn get(&self, id: &RunId) -> Option<Arc<RunRecord>> {
        let runs = self.inner.lock().ok()?;
        runs.iter()
            .find(|(r, _)| r == id)
            .map(|(_, rec)| rec.clone())
    }

    fn insert(&self, id: RunId, record: Arc<RunRecord>) -> Result<(), ApiError> {
        let mut runs = self
            .inner
            .lock()
            .map_err(|_| ApiError::Internal(anyhow::anyhow!("run registry poisoned")))?;
        let active = runs.iter().filter(|(_, r)| !r.finished()).count();
        if active >= MAX_ACTIVE_RUNS {
            return Err(ApiError::BadRequest(format!(
                "{active} runs are already going; wait for one to finish"
            )));
        }
        while runs.len() >= KEPT_RUNS {
            match runs.iter().position(|(_, r)| r.finished()) {
                Some(oldest) => {
                    runs.remove(oldest);
                }
                None => break,
            }
        }
        runs.push_back((id, record));
        Ok(())
    }

    /// Cancels every active run; each deletes its tables. For a server shutting down.
    pub fn cancel_all(&self) {
        if let Ok(runs) = self.inner.lock() {
            for (_, record) in runs.iter() {
                record.cancel.cancel();
            }
        }
    }

    /// Waits until every run has sent its last event (after [`Runs::cancel_all`]).
    pub async fn wait_all(&self) {
        let records: Vec<Arc<RunRecord>> = match self.inner.lock() {
            Ok(runs) => runs.iter().map(|(_, r)| r.clone()).collect(),
            Err(_) => return,
        };
        for record in records {
            let mut rx = record.count.subscribe();
            while !record.finished() {
                if rx.changed().await.is_err() {
                    break;
                }
            }
        }
    }
}

async fn engines(State(state): State<AppState>) -> Json<Vec<EngineInfo>> {
    Json(state.engines.list())
}

async fn start(
    State(state): State<AppState>,
    Json(request): Json<StartRun>,
) -> Result<(StatusCode, Json<Started>), ApiError> {
    let engine = state
        .engines
        .get(request.engine.as_deref())
        .map_err(|e| ApiError::BadRequest(e.to_string()))?
        .clone();
    let text = request.design.to_string();
    let design = keyplan_core::file::parse(&text)
        .map_err(|e| ApiError::BadRequest(format!("the design is not valid: {e}")))?;
    let sample = SampleConfig::new(request.counts, request.seed);
    // issue 13: the whole sample, defaults and children included, counted before anything is
    // planned (the counts alone let a few bytes of request plan millions of items).
    keyplan_core::sample::plan(&design, &sample)
        .check(u64::from(MAX_ITEMS_PER_RUN))
        .map_err(|e| ApiError::BadRequest(e.to_string()))?;
    // Generating and evaluating up to 100,000 items is CPU work: off the async threads.
    let plan = tokio::task::spawn_blocking(move || runner::build::plan_sample(&design, &sample))
        .await
        .map_err(|e| ApiError::Internal(anyhow::anyhow!("planning the run panicked: {e}")))?
        .map_err(|e| ApiError::BadRequest(e.to_string()))?;
    let id = RunId::random();
    let (count, _) = watch::channel(0);
    let record = Arc::new(RunRecord {
        events: Mutex::new(Vec::new()),
        count,
        cancel: CancellationToken::new(),
        watchers: AtomicUsize::new(0),
    });
    state.runs.insert(id.clone(), record.clone())?;
    let run_id = id.clone();
    tokio::spawn(async move {
        let emit = |event: RunEvent| {
            if let Ok(mut events) = record.events.lock() {
                events.push(event);
                record.count.send_replace(events.len());
            }
        };
        runner::run(&engine, &plan, &run_id, &record.cancel, &emit).await;
    });
    Ok((
        StatusCode::ACCEPTED,
        Json(Started {
            events: format!("/api/runs/{id}/events"),
            id: id.to_string(),
        }),
    ))
}

fn find(state: &AppState, id: &str) -> Result<Arc<RunRecord>, ApiError> {
    RunId::parse(id)
        .and_then(|id| state.runs.get(&id))
        .ok_or_else(|| ApiError::NotFound(format!("no run `{id}`")))
}

async fn cancel(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    find(&state, &id)?.cancel.cancel();
    Ok(StatusCode::ACCEPTED)
}

/// Cancels the run when the last watcher goes away before the run ends.
#[derive(Debug)]
struct Watcher(Arc<RunRecord>);

impl Drop for Watcher {
    fn drop(&mut self) {
        let left = self.0.watchers.fetch_sub(1, Ordering::SeqCst) - 1;
        if left == 0 && !self.0.finished() {
            self.0.cancel.cancel();
        }
    }
}

/// The event stream. Each event's SSE id is its position in the run's log; a reconnecting
/// `EventSource` sends `Last-Event-ID` and resumes after it, so nothing is shown twice.
async fn events(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let record = find(&state, &id)?;
    let first = headers
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<usize>().ok())
        .map_or(0, |last| last + 1);
    record.watchers.fetch_add(1, Ordering::SeqCst);
    let rx = record.count.subscribe();
    let watcher = Watcher(record);
    // State: the next event to send, the change signal, and the watcher guard (dropped with
    // the stream, which is what a closed browser does).
    let stream = futures_util::stream::unfold(
        (first, rx, watcher, false),
        |(next, mut rx, watcher, ended)| async move {
            if ended {
                return None;
            }
            loop {
                let event = watcher
                    .0
                    .events
                    .lock()
                    .ok()
                    .and_then(|events| events.get(next).cloned());
                if let Some(event) = event {
                    let last = event.is_last();
                    let sse = Event::default()
                        .id(next.to_string())
                        .event(event.name())
                        .json_data(&event)
                        .unwrap_or_else(|_| Event::default().event("error").data("{}"));
                    return Some((Ok(sse), (next + 1, rx, watcher, last)));
                }
                if rx.changed().await.is_err() {
                    return None;
                }
            }
        },
    );
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()))
}
