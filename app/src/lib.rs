//! keyplan's browser app: Leptos, client-side rendered, compiled to WebAssembly by trunk.
//!
//! The app decides nothing about DynamoDB: it holds one design in a [`store::Store`], changes it
//! only by dispatching core [`keyplan_core::edit::Edit`]s, and shows what
//! [`keyplan_core::analyze`] says about it. Session state (selection, viewport, open dialogs)
//! lives apart in [`session::Session`] and never enters the undo history. It is a library so
//! tests can mount it; `main.rs` only calls [`mount`].
//!
//! Pure helpers (geometry, relationships, card contents, suggestions, storage formats) are
//! plain functions with native unit tests; components only wire them to the DOM.

pub mod api;
pub mod app;
pub mod canvas;
pub mod cards;
pub mod chart;
pub mod clipboard;
pub mod compute;
pub mod deferred;
pub mod dialogs;
pub mod engine_import;
pub mod fanout;
pub mod geometry;
pub mod import;
pub mod inspector;
pub mod jobs;
pub mod library;
pub mod live;
pub mod opening;
pub mod panels;
pub mod relations;
pub mod run;
pub mod save;
pub mod session;
pub mod share;
pub mod storage;
pub mod store;
pub mod suggestion;
pub mod text;
pub mod theme;
pub mod topbar;
pub mod views;
pub mod warm;

pub use app::App;

use keyplan_core::Analysis;

/// The coverage line shown in the top bar, e.g. "7 of 9 read patterns covered", with the
/// number of errors while any stands ("4 of 4 read patterns covered, 2 errors").
pub fn coverage_summary(analysis: &Analysis) -> String {
    analysis.summary()
}

/// Mounts the app on the page's body; panics are reported to the browser console.
pub fn mount() {
    console_error_panic_hook::set_once();
    theme::show(theme::remembered());
    leptos::mount::mount_to_body(App);
}
