//! The share dialog: the link carrying the whole design (core's share codec), copied to the
//! clipboard at once; where the browser refuses the clipboard, the link stays selected in the
//! field to copy by hand. Nothing is uploaded: the design travels in the URL fragment.

use leptos::prelude::*;

use crate::clipboard::copy_text;
use crate::session::use_session;
use crate::store::use_store;

#[component]
pub fn Share() -> impl IntoView {
    let store = use_store();
    let session = use_session();
    let link = store.with_untracked(crate::share::link);
    let status = RwSignal::new(String::new());
    let field: NodeRef<leptos::html::Input> = NodeRef::new();
    let copy = {
        let link = link.clone();
        move || {
            if let Ok(text) = link.clone() {
                copy_text(text, move |ok| {
                    status.set(if ok {
                        "Copied to the clipboard.".to_string()
                    } else {
                        "The browser refused the clipboard: the link is selected, copy it with Ctrl+C.".to_string()
                    });
                    if !ok && let Some(input) = field.get_untracked() {
                        input.select();
                    }
                });
            }
        }
    };
    copy();
    match link {
        Ok(text) => {
            let chars = text.len();
            view! {
                <div class="share">
                    <p class="hint">"Anyone with this link opens a copy of this design. It never reaches a server: the design is in the part after #."</p>
                    <div class="share-row">
                        <input
                            class="input mono"
                            node_ref=field
                            readonly=true
                            aria-label="Share link"
                            data-testid="share-link"
                            value=text
                            on:focus=move |ev| {
                                let el: web_sys::HtmlInputElement = event_target(&ev);
                                el.select();
                            }
                        />
                        <button class="button primary" data-testid="share-copy" on:click=move |_| copy()>"Copy"</button>
                    </div>
                    <p class="hint" role="status">{move || status.get()} " " {format!("{}.", crate::text::plural(chars, "character"))}</p>
                    <super::share_live::ShareLive/>
                </div>
            }
            .into_any()
        }
        Err(e) => {
            let library = crate::library::use_library();
            view! {
                <p class="diagnostic error">{format!("This design cannot be shared as a link: {e}.")}</p>
                <button class="button primary" data-testid="share-save" on:click=move |_| {
                    session.dialog.set(None);
                    crate::save::save(library, store, session, false);
                }>"Save the design file"</button>
            }
            .into_any()
        }
    }
}
