//! Share links in the app: the link for the open design at this page's address, and the one
//! reader of a link in the address bar (at start and when one is pasted into it). The codec and its limits are core's (`keyplan_core::share`).
//! The reader is in a module of its own, only fetched by a page opened from a link: the entry
//! point provides it ([`provide_reader`]).

use std::cell::Cell;
use std::future::Future;
use std::pin::Pin;

use keyplan_core::Design;

use crate::deferred::Hook;

/// A share link's design read (its reader's module fetched first), or why it was not.
pub type LinkRead = Pin<Box<dyn Future<Output = Result<Design, String>>>>;

thread_local! {
    /// Reads the design in a link's `#d=` payload: [`decode`], in the module that holds it.
    static READER: Hook<fn(String) -> LinkRead> = const { Cell::new(None) };
}

/// Says how this page reads a link's payload ([`decode`] in a module of its own); before the
/// app is mounted.
pub fn provide_reader(read: fn(String) -> LinkRead) {
    READER.set(Some(read));
}

/// The design in a `#d=` fragment's payload (or a whole link).
pub fn decode(payload: &str) -> Result<Design, String> {
    keyplan_core::share::decode(payload).map_err(|e| e.to_string())
}

/// The link to `design` at this page's address.
pub fn link(design: &Design) -> Result<String, String> {
    let location = web_sys::window()
        .map(|w| w.location())
        .ok_or("no page address")?;
    let base = format!(
        "{}{}",
        location.origin().unwrap_or_default(),
        location.pathname().unwrap_or_else(|_| "/".into())
    );
    keyplan_core::share::link(&base, design).map_err(|e| e.to_string())
}

/// The design a shared link in the address carries, if any (the fragment is cleared at
/// once). Its reader is fetched first, in a module of its own ([`provide_reader`]).
pub async fn linked_design() -> Option<Result<Design, String>> {
    let hash = web_sys::window().and_then(|w| w.location().hash().ok())?;
    let payload = hash.strip_prefix("#d=")?.to_string();
    clear_hash();
    Some(match crate::deferred::provided(&READER) {
        Ok(read) => read(payload).await,
        Err(why) => Err(why),
    })
}

/// What a user who opened a share link is told: it is their own copy.
pub(crate) fn shared_copy_notice(name: &str) -> String {
    format!(
        "Opened a shared copy of \u{201c}{name}\u{201d}: it is saved in this browser as a new design, and your changes do not reach whoever shared it"
    )
}

fn clear_hash() {
    if let Some(w) = web_sys::window()
        && let Ok(history) = w.history()
    {
        let path = w.location().pathname().unwrap_or_default();
        let _ =
            history.replace_state_with_url(&leptos::wasm_bindgen::JsValue::NULL, "", Some(&path));
    }
}
