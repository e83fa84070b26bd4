//! The main thread's side of the worker (issue 19). Exports, imports, the sample and what is
//! evaluated on it, the cost model and the migration plan run in a second WebAssembly module in
//! a dedicated Web Worker ([`crate::jobs`], `src/bin/keyplan-worker.rs`), so the module the first
//! paint waits for holds none of them and no frame waits for them.
//!
//! The worker is started in the first idle moment after the first paint (or by the first
//! request, whichever comes first); requests made before it has loaded wait in a queue and are
//! sent when it says it is ready, so a view shows its placeholder meanwhile, never a frozen
//! page. Every request carries the revision of the design it was made for, and [`follow`]
//! drops an answer for an older request or an older revision. A worker that stops (a panic, an
//! out-of-memory trap) fails the requests it held, with why, and is started again; the
//! [`Status`] says so, and the views show it.
//!
//! Not gloo-worker: its bridge has no error event and panics when a worker cannot be created,
//! and both are what this module is for. The messages are JSON text (`serde_json`, already in
//! both modules): a [`crate::jobs::Request`] each way out; back, a [`crate::jobs::Notice`], or
//! a [`Reply`] whose id and revision come as numbers beside its answer's JSON, so this thread
//! finds the request without reading the answer, and the one who asked reads it once, as the
//! answer of its job ([`crate::jobs::read_answer`]). That reader is compiled where the job is
//! asked, so the readers of the views' answers are in the views' modules, split off the first
//! load (issue 42).

use std::cell::RefCell;
use std::collections::BTreeMap;

use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{ErrorEvent, MessageEvent};

use crate::jobs::{AnyJob, ImportFile, Imported, Job, Notice, Reply, Request, read_answer};
use crate::store::{Store, Tracks};

/// The worker's loader, written by trunk beside the app (`data-loader-shim`).
pub const LOADER: &str = "keyplan-worker_loader.js";

/// How the worker is doing, for the views' placeholders and notices.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    /// Not started yet.
    Idle,
    /// Started, its module still loading.
    Loading,
    Ready,
    /// It stopped (`reason`) and was started again; `times` in all.
    Restarted {
        times: u32,
        reason: String,
    },
    /// It could not be started or did not load; the next request tries again.
    Unavailable(String),
}

impl Status {
    /// One word for the status, the app's `data-worker` (for tests and benchmarks to wait on).
    pub fn name(&self) -> &'static str {
        match self {
            Status::Idle => "idle",
            Status::Loading => "loading",
            Status::Ready => "ready",
            Status::Restarted { .. } => "restarted",
            Status::Unavailable(_) => "unavailable",
        }
    }
}

type Callback = Box<dyn FnOnce(Result<Reply, String>)>;
/// What is told a request's progress, the JSON text of it.
type OnProgress = Box<dyn FnMut(String)>;

/// A request sent and not answered.
struct Pending {
    then: Callback,
    /// The message as posted, to post again to a worker started after a cancel.
    message: JsValue,
    on_progress: Option<OnProgress>,
}
type Handlers = (
    Closure<dyn FnMut(MessageEvent)>,
    Closure<dyn FnMut(ErrorEvent)>,
);

#[derive(Default)]
struct Bridge {
    worker: Option<web_sys::Worker>,
    ready: bool,
    /// Requests written before the worker said it was ready, as they will be posted.
    queue: Vec<JsValue>,
    /// Each request sent and not answered, by id. While the worker is not ready, `queue`
    /// holds their messages, in this order.
    pending: BTreeMap<u64, Pending>,
    next_id: u64,
    crashes: u32,
    /// The message of a panic the worker posted just before it stopped.
    panic: Option<String>,
    handlers: Option<Handlers>,
    /// Handlers of stopped workers. Kept, never dropped: a handler is what drops them, and a
    /// closure must not be dropped while it runs (a stop is rare, a pair is small).
    retired: Vec<Handlers>,
    status: Option<RwSignal<Status>>,
}

impl Bridge {
    /// Terminates the worker, if there is one, its handlers kept (see `retired`); whether it
    /// had loaded.
    fn end_worker(&mut self) -> bool {
        if let Some(worker) = self.worker.take() {
            worker.terminate();
            worker.set_onmessage(None);
            worker.set_onerror(None);
        }
        if let Some(handlers) = self.handlers.take() {
            self.retired.push(handlers);
        }
        std::mem::replace(&mut self.ready, false)
    }
}

thread_local! {
    static BRIDGE: RefCell<Bridge> = RefCell::new(Bridge::default());
}

/// Sets the signal [`Status`] is shown from (the app's, once).
pub fn init(status: RwSignal<Status>) {
    BRIDGE.with_borrow_mut(|b| b.status = Some(status));
}

fn set_status(status: Status) {
    if let Some(signal) = BRIDGE.with_borrow(|b| b.status) {
        let _ = signal.try_set(status);
    }
}

/// Starts the worker unless it is started.
pub fn start() {
    if BRIDGE.with_borrow(|b| b.worker.is_some()) {
        return;
    }
    let created = web_sys::Worker::new(LOADER);
    let worker = match created {
        Ok(w) => w,
        Err(e) => {
            let reason = format!(
                "the worker could not be started: {}",
                crate::save::describe(&e)
            );
            fail_pending(&reason);
            set_status(Status::Unavailable(reason));
            return;
        }
    };
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(|event: MessageEvent| {
        received(event.data());
    });
    let on_error = Closure::<dyn FnMut(ErrorEvent)>::new(|event: ErrorEvent| {
        event.prevent_default();
        stopped(event.message());
    });
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    BRIDGE.with_borrow_mut(|b| {
        b.worker = Some(worker);
        b.ready = false;
        b.panic = None;
        b.handlers = Some((on_message, on_error));
    });
    // After a stop, the status keeps saying so while the new worker loads.
    if BRIDGE.with_borrow(|b| b.crashes == 0) {
        set_status(Status::Loading);
    }
}

/// A message from the worker: a [`Notice`] (JSON text), or a [`Reply`] handed, its answer
/// unread, to whoever asked.
fn received(data: JsValue) {
    let notice = match data.as_string() {
        Some(text) => match serde_json::from_str::<Notice>(&text) {
            Ok(notice) => notice,
            Err(e) => return stopped(format!("the worker's message did not read: {e}")),
        },
        None => {
            let Some(reply) = Reply::from_js(&data) else {
                return stopped("the worker's message is not a reply".to_string());
            };
            let pending = BRIDGE.with_borrow_mut(|b| b.pending.remove(&reply.id));
            if let Some(pending) = pending {
                (pending.then)(Ok(reply));
            }
            return;
        }
    };
    match notice {
        Notice::Ready => {
            let (worker, queue) = BRIDGE.with_borrow_mut(|b| {
                b.ready = true;
                (b.worker.clone(), std::mem::take(&mut b.queue))
            });
            if let Some(worker) = worker {
                for request in queue {
                    let _ = worker.post_message(&request);
                }
            }
            let restarted = BRIDGE.with_borrow(|b| b.crashes > 0);
            if !restarted {
                set_status(Status::Ready);
            }
        }
        Notice::Panicked(message) => BRIDGE.with_borrow_mut(|b| b.panic = Some(message)),
        Notice::Progress { id, progress } => {
            // Taken out while it runs: it may ask the bridge for something (a cancel).
            let on_progress = BRIDGE
                .with_borrow_mut(|b| b.pending.get_mut(&id).and_then(|p| p.on_progress.take()));
            if let Some(mut on_progress) = on_progress {
                on_progress(progress);
                BRIDGE.with_borrow_mut(|b| {
                    if let Some(p) = b.pending.get_mut(&id) {
                        p.on_progress = Some(on_progress);
                    }
                });
            }
        }
    }
}

/// The worker stopped, or never loaded: its requests fail with why; a worker that had loaded
/// is started again.
fn stopped(message: String) {
    let (had_loaded, panic, times) = BRIDGE.with_borrow_mut(|b| {
        let had_loaded = b.end_worker();
        if had_loaded {
            b.crashes += 1;
        }
        (had_loaded, b.panic.take(), b.crashes)
    });
    let reason = panic.unwrap_or(message);
    if had_loaded {
        fail_pending(&format!(
            "the worker stopped while computing this ({reason}); it has been restarted"
        ));
        set_status(Status::Restarted { times, reason });
        start();
    } else {
        let reason = format!("the worker did not load ({reason})");
        fail_pending(&reason);
        set_status(Status::Unavailable(reason));
    }
}

fn fail_pending(reason: &str) {
    let pending = BRIDGE.with_borrow_mut(|b| {
        b.queue.clear();
        std::mem::take(&mut b.pending)
    });
    for pending in pending.into_values() {
        (pending.then)(Err(reason.to_string()));
    }
}

/// A new request id.
pub fn next_id() -> u64 {
    BRIDGE.with_borrow_mut(|b| {
        b.next_id += 1;
        b.next_id
    })
}

/// Sends `job` (for design revision `rev`) as request `id`, with `file` posted beside it (an
/// [`ImportFile`]: the worker reads it, so this thread never copies its text, issue 19);
/// `then` gets the reply, its answer unread, or why there is none. Starts the worker when it
/// is not started.
fn ask(
    id: u64,
    rev: u64,
    job: AnyJob,
    file: Option<&web_sys::File>,
    on_progress: Option<OnProgress>,
    then: impl FnOnce(Result<Reply, String>) + 'static,
) {
    let text = match request_json(&Request { id, rev, job }) {
        Ok(t) => JsValue::from_str(&t),
        Err(e) => return then(Err(format!("the request could not be written: {e}"))),
    };
    let message: JsValue = match file {
        Some(file) => js_sys::Array::of2(&text, file).into(),
        None => text,
    };
    start();
    let worker = BRIDGE.with_borrow_mut(|b| {
        if b.worker.is_none() {
            return Err(());
        }
        b.pending.insert(
            id,
            Pending {
                then: Box::new(then),
                message: message.clone(),
                on_progress,
            },
        );
        if b.ready {
            Ok(b.worker.clone())
        } else {
            b.queue.push(message.clone());
            Ok(None)
        }
    });
    match worker {
        // `start` failed: it said why, and `then` was not kept.
        Err(()) => {}
        Ok(Some(worker)) => {
            if let Err(e) = worker.post_message(&message) {
                let pending = BRIDGE.with_borrow_mut(|b| b.pending.remove(&id));
                if let Some(pending) = pending {
                    (pending.then)(Err(format!("the request could not be sent: {e:?}")));
                }
            }
        }
        Ok(None) => {}
    }
}

/// A request as the JSON the worker reads, written by the same serde_json serializer as a
/// design file (`keyplan_core::file::to_string`), indented by nothing: one writer of a design
/// in the module the first paint waits for, not two (issue 19: 14 KB before wasm-opt).
fn request_json(request: &Request) -> Result<String, serde_json::Error> {
    use serde::Serialize;
    let mut out = Vec::with_capacity(128);
    let formatter = serde_json::ser::PrettyFormatter::with_indent(b"");
    request.serialize(&mut serde_json::Serializer::with_formatter(
        &mut out, formatter,
    ))?;
    // serde_json writes UTF-8 only.
    String::from_utf8(out).map_err(|e| serde::ser::Error::custom(e.utf8_error()))
}

/// What a view shows of the worker's answer to the job it follows: never an answer computed
/// for a design that has changed since (issue 19).
#[derive(Debug, Clone, PartialEq)]
pub enum Computed<T> {
    /// No job (the view asks for nothing).
    Off,
    /// A request is out; the answer before it is for a design that is no more.
    Waiting,
    Ready(T),
    /// Why the latest request has no answer.
    Failed(String),
}

impl<T: Clone> Computed<T> {
    /// The answer or why there is none; `None` while there is no answer yet.
    pub fn result(&self) -> Option<Result<T, String>> {
        match self {
            Computed::Ready(value) => Some(Ok(value.clone())),
            Computed::Failed(e) => Some(Err(e.clone())),
            Computed::Off | Computed::Waiting => None,
        }
    }
}

/// Follows `job` (nothing while it is `None`): every time what it reads changes, and the
/// design's revision as `tracks` counts it, the job is sent again. An answer is kept only when
/// it is for the latest request and for the revision the design has now; any other is dropped.
/// While a new answer is computed the view shows that it waits, unless `keep` and the answer
/// shown was computed for the design as it is (the data view's next page of the same sample:
/// the page stays, and so does the scroll position). The answer is `J`'s, read as such. The
/// [`Trigger`] returned sends the job again ([`NoAnswer`]'s "Try again").
pub fn follow<J>(
    store: Store,
    tracks: Tracks,
    job: impl Fn() -> Option<J> + 'static,
    keep: bool,
) -> (RwSignal<Computed<J::Answer>>, Trigger)
where
    J: Job,
    J::Answer: Clone + Send + Sync,
{
    let state = RwSignal::new(Computed::<J::Answer>::Off);
    let again = Trigger::new();
    let latest = StoredValue::new(0u64);
    // The revision the answer shown was computed for.
    let shown_rev = StoredValue::new(None::<u64>);
    Effect::new(move |_| {
        again.track();
        let rev = store.revision(tracks);
        let Some(job) = job() else {
            latest.set_value(0);
            state.set(Computed::Off);
            return;
        };
        let id = next_id();
        latest.set_value(id);
        let still_current = keep
            && shown_rev.get_value() == Some(rev)
            && state.with_untracked(|s| matches!(s, Computed::Ready(_)));
        if !still_current {
            shown_rev.set_value(None);
            state.set(Computed::Waiting);
        }
        ask(id, rev, job.into(), None, None, move |reply| {
            let answered_rev = reply.as_ref().ok().map(|r| r.rev);
            let now = store.revision_untracked(tracks);
            if !is_current(latest.try_get_value(), id, answered_rev, now) {
                return;
            }
            let _ = state.try_set(match reply.and_then(|r| read_answer::<J>(&r.answer)) {
                Ok(value) => {
                    shown_rev.try_set_value(answered_rev);
                    Computed::Ready(value)
                }
                Err(e) => {
                    shown_rev.try_set_value(None);
                    Computed::Failed(e)
                }
            });
        });
    });
    (state, again)
}

/// Whether the answer to request `id`, computed for revision `answered` (`None`: no answer,
/// only why), is the one to show: the view's latest request is `latest` (`None` once the view
/// is gone) and the design is at revision `now`. A result for an older request or an older
/// design is dropped (issue 19).
pub fn is_current(latest: Option<u64>, id: u64, answered: Option<u64>, now: u64) -> bool {
    latest == Some(id) && answered.is_none_or(|rev| rev == now)
}

/// Asks once: `then` gets the answer, or why there is none (a request of a user's, such as an
/// import or a download, whose answer is wanted whatever the design does meanwhile).
pub fn once<J: Job>(rev: u64, job: J, then: impl FnOnce(Result<J::Answer, String>) + 'static) {
    ask(next_id(), rev, job.into(), None, None, move |reply| {
        then(reply.and_then(|r| read_answer::<J>(&r.answer)));
    });
}

/// Asks once, as [`once`], and tells `on_progress` each progress the worker posts for it
/// (read as `P`; one that does not read is skipped) until the answer comes. Returns the
/// request's id, for [`cancel`].
pub fn with_progress<J: Job, P: serde::de::DeserializeOwned + 'static>(
    rev: u64,
    job: J,
    mut on_progress: impl FnMut(P) + 'static,
    then: impl FnOnce(Result<J::Answer, String>) + 'static,
) -> u64 {
    let id = next_id();
    let on_progress: OnProgress = Box::new(move |text: String| {
        if let Ok(progress) = serde_json::from_str::<P>(&text) {
            on_progress(progress);
        }
    });
    ask(id, rev, job.into(), None, Some(on_progress), move |reply| {
        then(reply.and_then(|r| read_answer::<J>(&r.answer)));
    });
    id
}

/// Cancels request `id`: it is never answered. The worker is one thread and reads no message
/// while it computes (a Stop could only reach it through shared memory, which needs the page
/// cross-origin isolated), so a request it may be computing ends with the worker: it is
/// terminated and a new one started, and the other requests it held are posted to the new one
/// when it is ready. A request still queued is only dropped.
pub fn cancel(id: u64) {
    let restart = BRIDGE.with_borrow_mut(|b| {
        if b.pending.remove(&id).is_none() {
            return false;
        }
        let sent = b.ready;
        if sent {
            b.end_worker();
        }
        // Not ready: every pending request waits in the queue, in id order.
        b.queue = b.pending.values().map(|p| p.message.clone()).collect();
        sent
    });
    if restart {
        start();
    }
}

/// Asks the worker to import `file`, which it reads itself; `then` gets what it read.
pub fn import_file(file: &web_sys::File, then: impl FnOnce(Result<Imported, String>) + 'static) {
    // An import opens a new design whatever the open one does meanwhile: no revision to match.
    ask(
        next_id(),
        0,
        ImportFile.into(),
        Some(file),
        None,
        move |reply| {
            then(reply.and_then(|r| read_answer::<ImportFile>(&r.answer)));
        },
    );
}

/// The worker's status, provided by the app.
pub fn use_status() -> RwSignal<Status> {
    expect_context::<WorkerStatus>().0
}

/// The worker's status as context.
#[derive(Debug, Clone, Copy)]
pub struct WorkerStatus(pub RwSignal<Status>);

/// A line under a view that waits for the worker, or shows that it stopped: nothing while all
/// is well.
#[component]
pub fn WorkerNotice() -> impl IntoView {
    let status = use_status();
    move || {
        match status.get() {
        Status::Restarted { times, reason } => Some(view! {
            <p class="diagnostic warning" role="status" data-testid="worker-restarted">
                {format!(
                    "The background worker stopped ({reason}) and was restarted{}: what it was computing is computed again when asked.",
                    if times > 1 { format!(", {times} times so far") } else { String::new() }
                )}
            </p>
        }.into_any()),
        Status::Unavailable(reason) => Some(view! {
            <p class="diagnostic error" role="alert" data-testid="worker-unavailable">
                {format!("The background worker is not available: {reason}. Exports, imports, the data and cost views need it; reload the page to try again.")}
            </p>
        }.into_any()),
        _ => None,
    }
    }
}

/// Why a view has no answer (`what`: "No cost estimate"), and a button that asks again
/// ([`follow`]'s trigger): for a failure that may pass (the worker restarted, a module that
/// could not be fetched).
#[component]
pub fn NoAnswer(what: &'static str, why: String, again: Trigger) -> impl IntoView {
    view! {
        <div class="no-answer" role="alert">
            <p class="diagnostic error">{format!("{what}: {why}")}</p>
            <button class="button small" data-testid="ask-again" on:click=move |_| again.notify()>"Try again"</button>
        </div>
    }
}

/// The placeholder of a view whose first answer has not come yet.
#[component]
pub fn Computing(
    /// What is being computed, in words: "the sample".
    what: &'static str,
) -> impl IntoView {
    let status = use_status();
    let text = move || match status.get() {
        Status::Idle | Status::Loading => {
            format!("Loading the background worker, then computing {what}…")
        }
        _ => format!("Computing {what}…"),
    };
    view! { <p class="hint computing" role="status" data-testid="computing">{text}</p> }
}

#[cfg(test)]
mod tests {
    use super::{is_current, request_json};
    use crate::jobs::{Cost, Request, Worker, read_answer};

    // issue 42: a request written here is read by the worker, and its answer read here as the
    // answer of the job asked.
    #[test]
    fn a_request_written_here_is_answered_as_its_job() {
        let request = Request {
            id: 12,
            rev: 3,
            job: Cost {
                design: keyplan_core::examples::first(),
                region: "us-east-1".into(),
            }
            .into(),
        };
        let sent = request_json(&request).expect("writes");
        assert_eq!(
            serde_json::from_str::<Request>(&sent).ok(),
            Some(request.clone())
        );
        let reply = Worker::default().answer_json(&sent);
        assert_eq!((reply.id, reply.rev), (12, 3));
        let page = read_answer::<Cost>(&reply.answer).expect("a cost page");
        assert!(page.total.starts_with('$'), "{}", page.total);
    }

    #[test]
    fn only_the_latest_requests_answer_for_the_design_as_it_is_is_shown() {
        assert!(is_current(Some(4), 4, Some(10), 10));
        // A newer request is out: the older answer is dropped, whatever its revision.
        assert!(!is_current(Some(5), 4, Some(10), 10));
        // The design changed after the request: dropped.
        assert!(!is_current(Some(4), 4, Some(10), 11));
        // The view is gone.
        assert!(!is_current(None, 4, Some(10), 10));
        // No answer (the worker stopped): the reason is shown for the latest request.
        assert!(is_current(Some(4), 4, None, 10));
        assert!(!is_current(Some(5), 4, None, 10));
    }
}
