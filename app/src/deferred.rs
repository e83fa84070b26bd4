//! The parts of the app the first paint does not need, fetched after it (issue 19): the views
//! it does not show (the Data, Cost, Run and Migrate tabs, the dialogs and the inspector's
//! editors of what is selected), what opens a file, and the share-link reader (only a page
//! opened from a link needs it). Here is how a view asks for one and waits for it: each
//! deferred view's name ([`Deferred`]), the loading state, the placeholder and the retry, and
//! the slots ([`provided`]) through which the app calls the parts it does not link.
//!
//! This module knows no view: the registry of views (`crate::views`) sits on top, and the
//! entry point (main.rs) makes each registered view a split point and [`provide`]s how to fetch
//! and build it, so that scripts/split-wasm.py moves them into modules fetched in the first
//! idle moment after the first paint, or when one is wanted if that is sooner (a placeholder
//! until it has arrived, a retry if it could not be fetched). The worker's module and the tests,
//! which are not split, never link the split points (the tests call `views::provide_unsplit`).

use std::cell::{Cell, RefCell};
use std::collections::HashSet;
use std::future::Future;
use std::pin::Pin;
use std::thread::LocalKey;

use leptos::prelude::*;

/// The views the first paint does not show, in the order they are fetched: the editor first,
/// the one most likely wanted first. `crate::views` says how each is built.
macro_rules! deferred {
    ($($(#[$doc:meta])* $what:ident,)*) => {
        /// A view the first paint does not show.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Deferred {
            $($(#[$doc])* $what,)*
        }

        impl Deferred {
            /// Every one, in the order they are fetched.
            pub const ALL: &[Deferred] = &[$(Deferred::$what,)*];
        }
    };
}

deferred! {
    /// The inspector's editor of what is selected.
    Editor,
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
    /// The Suggest keys dialog.
    Suggest,
}

/// A fetch of a split-off part's module: an error says why it failed.
pub type Fetch = Pin<Box<dyn Future<Output = Result<(), String>>>>;

/// How the deferred views are fetched and built, as the entry point (or, unsplit,
/// `crate::views::DIRECT`) provides them.
#[derive(Clone, Copy, Debug)]
pub struct Parts {
    /// Fetches and instantiates `what`'s module.
    pub fetch: fn(Deferred) -> Fetch,
    /// `what`'s view, its module fetched.
    pub build: fn(Deferred) -> AnyView,
}

/// What the app calls a part it does not link through (a function in a module of its own,
/// which the entry point provides): `None` until provided. Each is a `thread_local!` [`Slot`].
pub type Hook<F> = Cell<Option<F>>;

/// A [`Hook`] as a `thread_local!` declares it.
pub type Slot<F> = LocalKey<Hook<F>>;

/// What `slot` holds, or why there is nothing (a page built without its split-off parts).
pub fn provided<F: Copy + 'static>(slot: &'static Slot<F>) -> Result<F, String> {
    slot.get()
        .ok_or_else(|| "this page was built without its split-off parts".to_string())
}

thread_local! {
    /// This page's deferred views (`provide`).
    static PARTS: Cell<Option<Parts>> = const { Cell::new(None) };
    /// The deferred views whose modules are loaded.
    static LOADED: RefCell<HashSet<Deferred>> = RefCell::new(HashSet::new());
}

/// Says how this page's deferred views are fetched and built; before the app is mounted.
pub fn provide(parts: Parts) {
    PARTS.set(Some(parts));
}

fn parts() -> Result<Parts, String> {
    provided(&PARTS)
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

/// Fetches every deferred view's module, one after another, then tells `done` whether all
/// arrived. Called in the first idle moment after the first paint (what opens a file is in the
/// views' module, so a file dropped after it opens at once).
pub fn fetch_all(done: impl FnOnce(bool) + 'static) {
    leptos::task::spawn_local(async move {
        let mut all = true;
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
