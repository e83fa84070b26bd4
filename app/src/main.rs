//! The browser entry point: mounts the app, with the parts the first paint does not need
//! (`keyplan_app::deferred`: the views it does not show, the share-link reader) each behind a
//! split point of its own, so that scripts/split-wasm.py can move each into a module fetched
//! after the first paint, or when it is wanted (issue 19).

use keyplan_app::deferred::{self, Deferred, Parts};
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

/// Why a share link's design was not read: the link itself, or its reader not fetched.
struct Unread(String);

impl From<SplitLoaderError> for Unread {
    fn from(e: SplitLoaderError) -> Self {
        Unread(format!(
            "the link reader could not be fetched from the server: {e}"
        ))
    }
}

/// The share-link reader, in a module of its own: its codec (the decompressor and the reader
/// of its format) is only needed by a page opened from a link.
#[wasm_split(link_reader, wasm_split_path = ::leptos::wasm_split, fallible)]
fn read_link_split(payload: String) -> Result<Design, Unread> {
    keyplan_app::share::decode(&payload).map_err(Unread)
}

async fn read_link(payload: String) -> Result<Design, String> {
    read_link_split(payload).await.map_err(|Unread(why)| why)
}

fn main() {
    deferred::provide(SPLIT);
    keyplan_app::mount();
}
