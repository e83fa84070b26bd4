//! The clipboard: the share and export dialogs copy through it (out of the top bar, which the
//! dialogs do not otherwise need; issue 14).

/// Copies `text` to the clipboard; `done` learns whether the browser allowed it (callers keep
/// the text on screen, selected, as the fallback).
pub fn copy_text(text: String, done: impl FnOnce(bool) + 'static) {
    let Some(window) = web_sys::window() else {
        return done(false);
    };
    let _ = &text;
    let clipboard = window.navigator().clipboard();
    let promise = clipboard.write_text(&text);
    leptos::task::spawn_local(async move {
        let ok = wasm_bindgen_futures::JsFuture::from(promise).await.is_ok();
        done(ok);
    });
}
