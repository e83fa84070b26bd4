//! The export dialog: every format core writes (`keyplan_core::export`), computed in the
//! browser from the open design, to copy or download. The text is exactly what
//! `keyplan export` prints.

use keyplan_core::export::{Format, export};
use leptos::prelude::*;
use leptos::wasm_bindgen::{JsCast, JsValue};

use crate::session::use_session;
use crate::store::use_store;
use crate::topbar::copy_text;

/// Offers `text` as a file download named `file_name`.
fn download(file_name: &str, content_type: &str, text: &str) -> Result<(), JsValue> {
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(content_type);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob)?;
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or_else(|| JsValue::from_str("no document"))?;
    let a: web_sys::HtmlAnchorElement = document.create_element("a")?.unchecked_into();
    a.set_href(&url);
    a.set_download(file_name);
    a.click();
    web_sys::Url::revoke_object_url(&url)?;
    Ok(())
}

#[component]
pub fn Export() -> impl IntoView {
    let store = use_store();
    let session = use_session();
    let format = RwSignal::new(Format::CloudFormationJson);
    let output = Memo::new(move |_| {
        let f = format.get();
        store.with(|d| export(d, f).map_err(|e| e.to_string()))
    });
    let file_name = move || store.with(|d| format.get().file_name(d));
    let copy = move |_| {
        if let Ok(text) = output.get_untracked() {
            copy_text(text, move |ok| {
                if ok {
                    session.say("Copied to the clipboard");
                }
            });
        }
    };
    let save = move |_| {
        if let Ok(text) = output.get_untracked() {
            let f = format.get_untracked();
            let name = store.with_untracked(|d| f.file_name(d));
            if download(&name, f.content_type(), &text).is_err() {
                session.warn("The browser refused the download: copy the text instead");
            }
        }
    };
    view! {
        <div class="export">
            <div class="export-toolbar">
                <label class="field inline">
                    <span class="field-label">"Format"</span>
                    <select
                        class="input"
                        aria-label="Export format"
                        data-testid="export-format"
                        on:change=move |ev| {
                            if let Ok(f) = event_target_value(&ev).parse::<Format>() {
                                format.set(f);
                            }
                        }
                    >
                        {Format::ALL.iter().map(|f| {
                            let f = *f;
                            view! { <option value=f.name() title=format!("keyplan export --to {}", f.name()) selected=move || format.get() == f>{f.title()}</option> }
                        }).collect_view()}
                    </select>
                </label>
                <span class="hint file-name">{file_name}</span>
                <button class="button" data-testid="export-copy" on:click=copy>"Copy"</button>
                <button class="button primary" data-testid="export-download" on:click=save>"Download"</button>
            </div>
            {move || match output.get() {
                Ok(text) => view! { <pre class="export-preview" data-testid="export-preview">{text}</pre> }.into_any(),
                Err(e) => view! { <p class="diagnostic error">{e}</p> }.into_any(),
            }}
        </div>
    }
}
