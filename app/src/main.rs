//! The browser entry point: mounts the app, with the parts the first paint does not need
//! (`keyplan_app::deferred`: the views it does not show, the share-link reader, the reader of
//! the worker's answers, what opens a file) each behind a split point of its own, so that
//! scripts/split-wasm.py can move each into a module fetched after the first paint, or when it
//! is wanted (issue 19).

use keyplan_app::deferred::{self, Deferred, Parts};
use keyplan_app::jobs::Reply;
use keyplan_app::opening::Opening;
use keyplan_core::Design;
use leptos::prelude::AnyView;
use leptos::wasm_split::{SplitLoaderError, wasm_split};

/// A split point per deferred view (its module's one entry), and how to fetch and build them.
macro_rules! split_views {
    ($($what:ident: $split:ident, $preload:ident => $view:path;)*) => {
        $(
            #[wasm_split($split, wasm_split_path = ::leptos::wasm_split, fallible, preload($preload))]
            fn $split() -> Result<AnyView, SplitLoaderError> {
                Ok($view())
            }
        )*

        const SPLIT: Parts = Parts {
            fetch: |what| {
                Box::pin(async move {
                    let fetched = match what {
                        $(Deferred::$what => $preload().await,)*
                    };
                    fetched.map_err(|e| e.to_string())
                })
            },
            build: |what| match what {
                $(Deferred::$what => deferred::at_once($split()),)*
            },
            read_link: |payload| Box::pin(read_link(payload)),
            read_reply: |text| Box::pin(read_reply(text)),
            open_file: |opening| {
                Box::pin(async move {
                    open_file_split(opening).await.map_err(|e| {
                        format!("what opens files could not be fetched from the server ({e}). Your designs are untouched; open it again to try again")
                    })
                })
            },
            fetch_helpers: || {
                Box::pin(async {
                    let fetched = preload_reply_reader().await;
                    preload_file_opener().await.and(fetched).map_err(|e| e.to_string())
                })
            },
        };
    };
}

split_views! {
    Data: data_view, preload_data_view => deferred::data_view;
    Cost: cost_view, preload_cost_view => deferred::cost_view;
    Run: run_view, preload_run_view => deferred::run_view;
    Migrate: migrate_view, preload_migrate_view => deferred::migrate_view;
    Gallery: gallery_dialog, preload_gallery_dialog => deferred::gallery_dialog;
    Export: export_dialog, preload_export_dialog => deferred::export_dialog;
    Share: share_dialog, preload_share_dialog => deferred::share_dialog;
    Help: help_dialog, preload_help_dialog => deferred::help_dialog;
    Designs: designs_dialog, preload_designs_dialog => deferred::designs_dialog;
    EngineImport: engine_import_dialog, preload_engine_import_dialog => deferred::engine_import_dialog;
    Editor: selection_editor, preload_selection_editor => keyplan_app::inspector::selection_editor;
}

/// Why a split-off reader gave nothing: its module could not be fetched, or it refused what
/// it read (in its own words).
enum Unread {
    Unfetched(SplitLoaderError),
    Refused(String),
}

impl From<SplitLoaderError> for Unread {
    fn from(e: SplitLoaderError) -> Self {
        Unread::Unfetched(e)
    }
}

/// The share-link reader, in a module of its own: its codec (the decompressor and the reader
/// of its format) is only needed by a page opened from a link.
#[wasm_split(link_reader, wasm_split_path = ::leptos::wasm_split, fallible)]
fn read_link_split(payload: String) -> Result<Design, Unread> {
    keyplan_app::share::decode(&payload).map_err(Unread::Refused)
}

async fn read_link(payload: String) -> Result<Design, String> {
    read_link_split(payload).await.map_err(|e| match e {
        Unread::Unfetched(e) => {
            format!("the link reader could not be fetched from the server: {e}")
        }
        Unread::Refused(why) => why,
    })
}

/// The reader of the worker's answers, in a module of its own: the first paint waits for
/// none of them, and the worker answers after it has loaded.
#[wasm_split(reply_reader, wasm_split_path = ::leptos::wasm_split, fallible, preload(preload_reply_reader))]
fn read_reply_split(text: String) -> Result<Reply, Unread> {
    keyplan_app::jobs::read_reply(&text).map_err(Unread::Refused)
}

async fn read_reply(text: String) -> Result<Reply, String> {
    read_reply_split(text).await.map_err(|e| match e {
        Unread::Unfetched(e) => format!(
            "the reader of the worker's answers could not be fetched from the server ({e}). Your design is untouched."
        ),
        Unread::Refused(why) => why,
    })
}

/// What opens a file picked or dropped, in a module of its own.
#[wasm_split(file_opener, wasm_split_path = ::leptos::wasm_split, fallible, preload(preload_file_opener))]
fn open_file_split(opening: Opening) -> Result<(), SplitLoaderError> {
    keyplan_app::opening::open_now(opening);
    Ok(())
}

fn main() {
    deferred::provide(SPLIT);
    keyplan_app::mount();
}
