//! The browser entry point: mounts the app, with the parts the first paint does not need
//! behind split points, so that scripts/split-wasm.py moves them into modules fetched after the
//! first paint, or when one is wanted (issue 19): every view of `keyplan_app::views`'s list and
//! what opens a file in one module, `views`, fetched in one go in the first idle moment (issue
//! 42: eleven modules and the ~80 chunks they shared were ~90 requests, each a round trip on a
//! slow link), the share-link reader in a module of its own, fetched only by a page opened
//! from a link, and the live client in another, fetched only by a page that joins a live room
//! (issue 38).

use keyplan_app::deferred::{self, Deferred, Fetch, Parts};
use keyplan_app::live::{Client, ClientFetch};
use keyplan_app::opening::Opening;
use keyplan_app::share::LinkRead;
use keyplan_core::Design;
use leptos::prelude::AnyView;
use leptos::wasm_split::{SplitLoaderError, wasm_split};

/// A split point per deferred view, all in the module `views`, and how to fetch and build them.
/// Each has a Rust module of its own for its `preload`: a split point's wrapper awaits its own
/// loader, which only its own `preload` drives, so a view is built at once
/// ([`deferred::at_once`]) only once its own `preload` has run (the module itself is fetched
/// once, by the first).
macro_rules! split_views {
    ($($what:ident: $split:ident => $view:path;)*) => {
        $(
            mod $split {
                use super::*;

                #[wasm_split(views, wasm_split_path = ::leptos::wasm_split, fallible, preload(preload))]
                pub fn $split() -> Result<AnyView, SplitLoaderError> {
                    Ok($view())
                }
            }
        )*

        const VIEWS: Parts = Parts {
            fetch: |what| {
                Box::pin(async move {
                    let fetched = match what {
                        $(Deferred::$what => $split::preload().await,)*
                    };
                    fetched.map_err(|e| e.to_string())
                })
            },
            build: |what| match what {
                $(Deferred::$what => deferred::at_once($split::$split()),)*
            },
        };
    };
}

keyplan_app::deferred_views!(split_views);

/// Why a split-off part gave nothing: its module could not be fetched, or it refused what it
/// read (in its own words).
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

fn read_link(payload: String) -> LinkRead {
    Box::pin(async move {
        read_link_split(payload).await.map_err(|e| match e {
            Unread::Unfetched(e) => {
                format!("the link reader could not be fetched from the server: {e}")
            }
            Unread::Refused(why) => why,
        })
    })
}

/// What opens a file picked or dropped, in the views' module (fetched with them).
#[wasm_split(views, wasm_split_path = ::leptos::wasm_split, fallible)]
fn open_file_split(opening: Opening) -> Result<(), SplitLoaderError> {
    keyplan_app::opening::open_now(opening);
    Ok(())
}

fn open_file(opening: Opening) -> Fetch {
    Box::pin(async move {
        open_file_split(opening).await.map_err(|e| {
            format!("what opens files could not be fetched from the server ({e}). Your designs are untouched; open it again to try again")
        })
    })
}

/// The live client (issue 38), in a module of its own: its socket, its messages' JSON and the
/// room in the top bar are needed only by a page that joins a room.
#[wasm_split(live, wasm_split_path = ::leptos::wasm_split, fallible)]
fn live_client_split() -> Result<Client, SplitLoaderError> {
    Ok(keyplan_app::live::client::CLIENT)
}

fn live_client() -> ClientFetch {
    Box::pin(async {
        live_client_split()
            .await
            .map_err(|e| format!("the live client could not be fetched from the server ({e})"))
    })
}

fn main() {
    deferred::provide(VIEWS);
    keyplan_app::share::provide_reader(read_link);
    keyplan_app::opening::provide_opener(open_file);
    keyplan_app::live::provide_client(live_client);
    keyplan_app::mount();
}
