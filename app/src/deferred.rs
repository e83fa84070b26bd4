//! The parts of the app the first paint does not need, each in a WebAssembly module of its
//! own (issue 19): the views it does not show (the Data, Cost, Run and Migrate tabs, the
//! dialogs and the inspector's editors of what is selected), the share-link reader (only a
//! page opened from a link needs it), the reader of the worker's answers (needed once the
//! worker, itself loaded after the first paint, answers) and what opens a file. The app's entry
//! point (main.rs) makes each a split point and `provide`s them; scripts/split-wasm.py splits
//! them off. The views' modules, the reader and the file opener are fetched in the first idle
//! moment after the first paint, or when one is wanted if that is sooner, a view with a
//! placeholder until it has arrived and a retry if it could not be fetched. The worker's module
//! and the tests, which are not split, never link the split points (the tests use
//! `Parts::DIRECT`).

use std::cell::{Cell, RefCell};
use std::collections::HashSet;
use std::future::Future;
use std::pin::Pin;

use keyplan_core::Design;
use leptos::prelude::*;

use crate::dialogs::{designs, engine_import, export, gallery, help, share};
use crate::jobs::Reply;
use crate::opening::Opening;

/// A view the first paint does not show.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Deferred {
    Data,
    Cost,
    Run,
    Migrate,
    Gallery,
    Export,
    Share,
    Help,
    Designs,
    EngineImport,
    /// The inspector's editor of what is selected.
    Editor,
}

impl Deferred {
    /// In the order they are fetched: the editor first, the one most likely wanted first.
    pub const ALL: &[Deferred] = &[
        Deferred::Editor,
        Deferred::Data,
        Deferred::Cost,
        Deferred::Run,
        Deferred::Migrate,
        Deferred::Gallery,
        Deferred::Export,
        Deferred::Share,
        Deferred::Help,
        Deferred::Designs,
        Deferred::EngineImport,
    ];
}

/// Each deferred view, built in whichever module holds it (main.rs calls each from its split
/// point, so that each lands in that point's module).
pub fn data_view() -> AnyView {
    view! { <crate::panels::DataView/> }.into_any()
}

pub fn cost_view() -> AnyView {
    view! { <crate::panels::CostView/> }.into_any()
}

pub fn run_view() -> AnyView {
    view! { <crate::run::RunView/> }.into_any()
}

pub fn migrate_view() -> AnyView {
    view! { <crate::panels::MigrateView/> }.into_any()
}

pub fn gallery_dialog() -> AnyView {
    view! { <gallery::Gallery/> }.into_any()
}

pub fn export_dialog() -> AnyView {
    view! { <export::Export/> }.into_any()
}

pub fn share_dialog() -> AnyView {
    view! { <share::Share/> }.into_any()
}

pub fn help_dialog() -> AnyView {
    view! { <help::Help/> }.into_any()
}

pub fn designs_dialog() -> AnyView {
    view! { <designs::Designs/> }.into_any()
}

pub fn engine_import_dialog() -> AnyView {
    view! { <engine_import::EngineImport/> }.into_any()
}

/// A fetch of a deferred view's module: an error says why it failed.
pub type Fetch = Pin<Box<dyn Future<Output = Result<(), String>>>>;

/// A share link's design read (its reader's module fetched first), or why it was not.
pub type LinkRead = Pin<Box<dyn Future<Output = Result<Design, String>>>>;

/// A worker's reply read (its reader's module fetched first), or why it was not.
pub type ReplyRead = Pin<Box<dyn Future<Output = Result<Reply, String>>>>;

/// The parts of the app split off its first load: how the deferred views are fetched and
/// built, the share-link reader (only a page opened from a link needs it), the reader of the
/// worker's answers and what opens a file.
#[derive(Clone, Copy, Debug)]
pub struct Parts {
    /// Fetches and instantiates `what`'s module.
    pub fetch: fn(Deferred) -> Fetch,
    /// `what`'s view, its module fetched.
    pub build: fn(Deferred) -> AnyView,
    /// Reads the design in a link's `#d=` payload.
    pub read_link: fn(String) -> LinkRead,
    /// Reads a worker's reply ([`crate::jobs::read_reply`]).
    pub read_reply: fn(String) -> ReplyRead,
    /// Opens a file ([`crate::opening::open_now`]); an error says why it could not be.
    pub open_file: fn(Opening) -> Fetch,
    /// Fetches and instantiates the modules of `read_reply` and `open_file`.
    pub fetch_helpers: fn() -> Fetch,
}

impl Parts {
    /// Every part in the module that uses them, nothing to fetch (a build that is not split).
    pub const DIRECT: Parts = Parts {
        fetch: |_| Box::pin(async { Ok(()) }),
        read_link: |payload| Box::pin(async move { crate::share::decode(&payload) }),
        read_reply: |text| Box::pin(async move { crate::jobs::read_reply(&text) }),
        open_file: |opening| {
            crate::opening::open_now(opening);
            Box::pin(async { Ok(()) })
        },
        fetch_helpers: || Box::pin(async { Ok(()) }),
        build: |what| match what {
            Deferred::Data => data_view(),
            Deferred::Cost => cost_view(),
            Deferred::Run => run_view(),
            Deferred::Migrate => migrate_view(),
            Deferred::Gallery => gallery_dialog(),
            Deferred::Export => export_dialog(),
            Deferred::Share => share_dialog(),
            Deferred::Help => help_dialog(),
            Deferred::Designs => designs_dialog(),
            Deferred::EngineImport => engine_import_dialog(),
            Deferred::Editor => crate::inspector::selection_editor(),
        },
    };
}

thread_local! {
    /// This page's split-off parts (`provide`).
    static PARTS: Cell<Option<Parts>> = const { Cell::new(None) };
    /// The deferred views whose modules are loaded.
    static LOADED: RefCell<HashSet<Deferred>> = RefCell::new(HashSet::new());
}

/// Says where this page's split-off parts are; before the app is mounted.
pub fn provide(parts: Parts) {
    PARTS.with(|p| p.set(Some(parts)));
}

fn parts() -> Result<Parts, String> {
    PARTS
        .with(Cell::get)
        .ok_or_else(|| "this page was built without its split-off parts".to_string())
}

/// The design in a share link's `#d=` payload, or why it could not be read.
pub async fn read_link(payload: String) -> Result<Design, String> {
    (parts()?.read_link)(payload).await
}

/// A worker's reply read from its JSON text, or why it could not be.
pub async fn read_reply(text: String) -> Result<Reply, String> {
    (parts()?.read_reply)(text).await
}

/// Opens a file ([`crate::opening::open_file`]), or says why it could not.
pub async fn open_file(opening: Opening) -> Result<(), String> {
    (parts()?.open_file)(opening).await
}

/// The result of a split point whose module is loaded: its wrapper then awaits nothing, so one
/// poll finishes it, and the view is built now, under the caller's reactive owner.
pub fn at_once<E>(call: impl Future<Output = Result<AnyView, E>>) -> AnyView {
    use std::task::{Context, Poll, Waker};
    let mut call = std::pin::pin!(call);
    match call.as_mut().poll(&mut Context::from_waker(Waker::noop())) {
        Poll::Ready(Ok(view)) => view,
        // Not reached: a view is built only once `load` has loaded its module.
        Poll::Ready(Err(_)) | Poll::Pending => {
            view! { <p class="empty-note">"This view could not be shown."</p> }.into_any()
        }
    }
}

fn is_loaded(what: Deferred) -> bool {
    LOADED.with(|loaded| loaded.borrow().contains(&what))
}

/// Fetches `what`'s module (once, however many ask for it at the same time).
async fn load(what: Deferred) -> Result<(), String> {
    if is_loaded(what) {
        return Ok(());
    }
    (parts()?.fetch)(what).await?;
    LOADED.with(|loaded| loaded.borrow_mut().insert(what));
    Ok(())
}

/// Fetches the worker's reply reader and the file opener, then every deferred view's module,
/// one after another, then tells `done` whether all arrived. Called in the first idle moment
/// after the first paint (the worker's module loads beside them, and its first answer needs
/// the reader).
pub fn fetch_all(done: impl FnOnce(bool) + 'static) {
    leptos::task::spawn_local(async move {
        // One that fails here is fetched again for the next answer, or the next file.
        let mut all = match parts() {
            Ok(parts) => (parts.fetch_helpers)().await.is_ok(),
            Err(_) => false,
        };
        for &what in Deferred::ALL {
            // A module that fails here is fetched again when its view is opened.
            all &= load(what).await.is_ok();
        }
        done(all);
    });
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum State {
    Fetching,
    Loaded,
    Failed(String),
}

/// Shows `what`: at once when its module is loaded, else a placeholder until it is, or, if
/// it cannot be fetched, what went wrong and a button to try again. `shown` runs in the frame
/// after a view that had to be fetched appears (a dialog focuses its first control then).
pub fn show(what: Deferred, shown: impl Fn() + Copy + Send + Sync + 'static) -> impl IntoView {
    let state = RwSignal::new(if is_loaded(what) {
        State::Loaded
    } else {
        State::Fetching
    });
    let fetch = move || {
        state.set(State::Fetching);
        leptos::task::spawn_local(async move {
            match load(what).await {
                Ok(()) => {
                    state.set(State::Loaded);
                    request_animation_frame(shown);
                }
                Err(why) => state.set(State::Failed(why)),
            }
        });
    };
    if state.get_untracked() == State::Fetching {
        fetch();
    }
    move || {
        match state.get() {
        State::Loaded => match parts() {
            Ok(parts) => (parts.build)(what),
            Err(why) => view! { <p class="empty-note">{why}</p> }.into_any(),
        },
        State::Fetching => view! {
            <p class="empty-note loading" role="status" data-testid="deferred-loading">"Loading…"</p>
        }
        .into_any(),
        State::Failed(why) => view! {
            <div class="empty-note deferred-failed" role="alert" data-testid="deferred-failed">
                <p>"This part of keyplan could not be fetched from the server (" {why} "). Your design is untouched. Try again, or reload the page if keyplan was updated meanwhile."</p>
                <button class="button" data-testid="deferred-retry" on:click=move |_| fetch()>"Try again"</button>
            </div>
        }
        .into_any(),
    }
    }
}
