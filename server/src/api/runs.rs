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
//!   {"Order": 100}, "seed": 7, "keep": true}` (`engine`, `counts`, `seed` and `keep`
//!   optional: the default engine, the sample's default counts and seed, tables deleted; with
//!   `keep` they stay, listed by [`super::kept`]) -> 202 `{"id":"1a2b3c4d","events":
//!   "/api/runs/1a2b3c4d/events"}`; 400 `{"error": "..."}` for an unknown engine, an unknown
//!   field, an invalid design, too many items, tables or GSIs (`keyplan_core::budget`), with
//!   nothing created.
//! - `GET /api/runs/{id}/events`: `text/event-stream`; each event has `id: N` (its position),
//!   `event: <type>` and `data: <json>` where the JSON carries the same `type`; see
//!   [`RunEvent`] for every type and field. The stream ends after `done` or `failed`: close the
//!   `EventSource` on either. Closing it earlier cancels the run.
//! - `DELETE /api/runs/{id}` cancels a run -> 202.
//!
//! Every body above is a type of [`keyplan_core::api::runs`], the one definition of this protocol that
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
use crate::api::extract::Json as JsonBody;
use crate::engine::EngineInfo;
use crate::error::ApiError;
use crate::runner::{self, RunEvent, RunId};
pub use keyplan_core::api::runs::{StartRun, Started};

/// At most this many runs at once; another is refused with 429 until one ends.
pub const MAX_ACTIVE_RUNS: usize = 16;
/// At most this many items per run from the browser: the whole sample, every entity's.
pub const MAX_ITEMS_PER_RUN: u32 = keyplan_core::sample::MAX_SAMPLE_ITEMS as u32;
/// At most this many sample items held by all runs together (planned, loading or checking),
/// by default: about four maximal runs. A run reserves [`MAX_ITEMS_PER_RUN`] before it is
/// planned and its real count once it is; a run that does not fit is refused with 429.
pub const MAX_ITEMS_IN_FLIGHT: usize = 400_000;
/// Finished runs kept for late watchers.
const KEPT_RUNS: usize = 64;

/// The server's limits on runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub max_active_runs: usize,
    pub max_items_in_flight: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_active_runs: MAX_ACTIVE_RUNS,
            max_items_in_flight: MAX_ITEMS_IN_FLIGHT,
        }
    }
}

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

#[derive(Debug, Default)]
struct Registry {
    /// The active runs and the last finished ones.
    runs: VecDeque<Entry>,
    /// Runs admitted and still being planned: they count as active.
    planning: usize,
    /// Sample items reserved by admitted runs, until each run's task has dropped its plan.
    items: usize,
}

/// The runs of this server: the active ones and the last finished ones, and what they hold of
/// the server's limits. Cheap to clone.
#[derive(Debug, Clone)]
pub struct Runs {
    inner: Arc<Mutex<Registry>>,
    limits: Limits,
    /// The items held, for whoever waits for them to be given back.
    items: Arc<watch::Sender<usize>>,
}

impl Default for Runs {
    fn default() -> Self {
        Runs::new(Limits::default())
    }
}

/// A run's share of the limits, from its admission (before any work) to the end of its task:
/// a place among the active runs and its items in the server-wide budget. Dropping it gives
/// both back.
#[derive(Debug)]
pub struct Admission {
    runs: Runs,
    items: usize,
    planning: bool,
}

impl Admission {
    /// The run's real item count, known once it is planned; refused if it no longer fits.
    fn resize(&mut self, items: usize) -> Result<(), ApiError> {
        let mut registry = self.runs.lock()?;
        let others = registry.items - self.items;
        if others + items > self.runs.limits.max_items_in_flight {
            return Err(over_budget(&self.runs.limits, others, items));
        }
        registry.items = others + items;
        self.items = items;
        self.runs.items.send_replace(registry.items);
        Ok(())
    }

    /// The planned run becomes an active run with its event log.
    fn register(&mut self, id: RunId, record: Arc<RunRecord>) -> Result<(), ApiError> {
        let mut registry = self.runs.lock()?;
        while registry.runs.len() >= KEPT_RUNS {
            match registry.runs.iter().position(|(_, r)| r.finished()) {
                Some(oldest) => {
                    registry.runs.remove(oldest);
                }
                None => break,
            }
        }
        registry.runs.push_back((id, record));
        if self.planning {
            self.planning = false;
            registry.planning -= 1;
        }
        Ok(())
    }
}

impl Drop for Admission {
    fn drop(&mut self) {
        let mut registry = self.runs.inner.lock().unwrap_or_else(|p| p.into_inner());
        registry.items -= self.items;
        if self.planning {
            registry.planning -= 1;
        }
        self.runs.items.send_replace(registry.items);
    }
}

fn over_budget(limits: &Limits, held: usize, items: usize) -> ApiError {
    ApiError::TooManyRequests(format!(
        "the server is at its limit of {} sample items across runs ({held} are held by runs going now, this run needs up to {items}); wait for a run to finish, or ask for fewer items",
        limits.max_items_in_flight
    ))
}

impl Runs {
    pub fn new(limits: Limits) -> Runs {
        Runs {
            inner: Arc::default(),
            limits,
            items: Arc::new(watch::channel(0).0),
        }
    }

    /// The items held by runs, as it changes.
    pub fn watch_items(&self) -> watch::Receiver<usize> {
        self.items.subscribe()
    }

    fn lock(&self) -> Result<std::sync::MutexGuard<'_, Registry>, ApiError> {
        self.inner
            .lock()
            .map_err(|_| ApiError::Internal(anyhow::anyhow!("run registry poisoned")))
    }

    fn get(&self, id: &RunId) -> Option<Arc<RunRecord>> {
        let registry = self.inner.lock().ok()?;
        registry
            .runs
            .iter()
            .find(|(r, _)| r == id)
            .map(|(_, rec)| rec.clone())
    }

    /// Admits a run that may hold up to `items` items, before anything is planned: 429 when
    /// [`Limits::max_active_runs`] runs are going (or being planned), or when the items do not
    /// fit in what the other runs leave of [`Limits::max_items_in_flight`].
    pub fn admit(&self, items: usize) -> Result<Admission, ApiError> {
        let mut registry = self.lock()?;
        let active =
            registry.runs.iter().filter(|(_, r)| !r.finished()).count() + registry.planning;
        if active >= self.limits.max_active_runs {
            return Err(ApiError::TooManyRequests(format!(
                "{active} runs are already going, the most this server runs at once; wait for one to finish"
            )));
        }
        if registry.items + items > self.limits.max_items_in_flight {
            return Err(over_budget(&self.limits, registry.items, items));
        }
        registry.items += items;
        registry.planning += 1;
        self.items.send_replace(registry.items);
        Ok(Admission {
            runs: self.clone(),
            items,
            planning: true,
        })
    }

    /// Sample items held by runs now (reserved or planned, not yet released).
    pub fn items_in_flight(&self) -> usize {
        self.inner.lock().map(|r| r.items).unwrap_or(0)
    }

    /// Cancels every active run; each deletes its tables. For a server shutting down.
    pub fn cancel_all(&self) {
        if let Ok(registry) = self.inner.lock() {
            for (_, record) in registry.runs.iter() {
                record.cancel.cancel();
            }
        }
    }

    /// Waits until every run has sent its last event (after [`Runs::cancel_all`]).
    pub async fn wait_all(&self) {
        let records: Vec<Arc<RunRecord>> = match self.inner.lock() {
            Ok(registry) => registry.runs.iter().map(|(_, r)| r.clone()).collect(),
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
    let cannot_keep = state.keeper.refusal();
    let mut engines = state.engines.list();
    for engine in &mut engines {
        engine.cannot_keep = cannot_keep.clone();
    }
    Json(engines)
}

async fn start(
    State(state): State<AppState>,
    JsonBody(request): JsonBody<StartRun>,
) -> Result<(StatusCode, Json<Started>), ApiError> {
    let mut engine = state.requested_engine(request.engine.as_deref())?;
    let keep = request.keep;
    if keep {
        // Refused before any work, as a run over the budget is.
        state.keeper.check_room()?;
        engine = state.keeper.engine_for(&engine)?;
    }
    // Admission before any work: a refused run costs no parsing and no planning.
    let admission = state.runs.admit(MAX_ITEMS_PER_RUN as usize)?;
    let sample = SampleConfig::new(request.counts, request.seed);
    // Parsing, counting and planning up to 100,000 items is CPU work: in the heavy-work pool.
    // The admission travels with the job, so a job past the time limit keeps its items
    // reserved until it really ends.
    let (planned, mut admission) = state
        .heavy
        .run("planning the run", move || {
            let planned = keyplan_core::file::parse(&request.design.to_string())
                .map_err(|e| ApiError::BadRequest(format!("the design is not valid: {e}")))
                .and_then(|design| {
                    // issues 13 and 41: the whole sample, defaults and children included,
                    // the tables and their GSIs, counted before anything is planned (the
                    // counts alone let a few bytes of request plan millions of items).
                    keyplan_core::budget::run(&design, &sample, u64::from(MAX_ITEMS_PER_RUN))
                        .map_err(|e| ApiError::BadRequest(e.to_string()))?;
                    runner::build::plan_sample(&design, &sample)
                        .map(|plan| (plan, design.name))
                        .map_err(|e| ApiError::BadRequest(e.to_string()))
                });
            (planned, admission)
        })
        .await?;
    let (plan, design_name) = planned?;
    admission.resize(plan.n_items())?;
    let id = RunId::random();
    let (count, _) = watch::channel(0);
    let record = Arc::new(RunRecord {
        events: Mutex::new(Vec::new()),
        count,
        cancel: CancellationToken::new(),
        watchers: AtomicUsize::new(0),
    });
    admission.register(id.clone(), record.clone())?;
    let run_id = id.clone();
    let keeper = state.keeper.clone();
    tokio::spawn(async move {
        let emit = |event: RunEvent| {
            if let Ok(mut events) = record.events.lock() {
                events.push(event);
                record.count.send_replace(events.len());
            }
        };
        let keep = keep.then_some(runner::Keep {
            keeper: &keeper,
            design: &design_name,
        });
        runner::run_keeping(&engine, &plan, &run_id, &record.cancel, &emit, keep).await;
        // The items go back to the budget only once they are freed.
        drop(plan);
        drop(admission);
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
    // issue 13: a Last-Event-ID of u64::MAX must not overflow; one at or past the last event
    // of a finished run gets a stream that ends at once.
    let first = headers
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<usize>().ok())
        .map_or(0, |last| last.saturating_add(1));
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
                let (event, finished) = match watcher.0.events.lock() {
                    Ok(events) => (
                        events.get(next).cloned(),
                        events.last().is_some_and(RunEvent::is_last),
                    ),
                    Err(_) => return None,
                };
                if let Some(event) = event {
                    let last = event.is_last();
                    let sse = Event::default()
                        .id(next.to_string())
                        .event(event.name())
                        .json_data(&event)
                        .unwrap_or_else(|_| Event::default().event("error").data("{}"));
                    return Some((Ok(sse), (next.saturating_add(1), rx, watcher, last)));
                }
                if finished {
                    return None;
                }
                if rx.changed().await.is_err() {
                    return None;
                }
            }
        },
    );
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()))
}
