//! Modal dialogs (gallery, export, share, help, the design list, the delete confirmation, the
//! import from an engine, Suggest keys) and
//! the toast that reports what just happened.
//!
//! A dialog takes focus when it opens (its body's first control, else its Close button), keeps
//! Tab and Shift+Tab inside it, and gives focus back to what had it when it closes. (The HTML
//! `autofocus` attribute does not do this: the browser ignores it once something has focus.)

pub mod designs;
pub(crate) mod engine_import;

pub use engine_import::EngineImportEntry;
pub(crate) mod export;
pub(crate) mod gallery;
pub(crate) mod help;
pub(crate) mod share;
pub(crate) mod share_live;
pub(crate) mod suggest;

use leptos::prelude::*;
use leptos::wasm_bindgen::JsCast;

use crate::deferred::Deferred;
use crate::session::{Dialog, use_session};

const FOCUSABLE: &str = "button:not([disabled]), [href], input:not([disabled]):not([type=hidden]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex='-1'])";

/// The controls inside `root` that Tab visits, in order.
fn focusables(root: &web_sys::Element) -> Vec<web_sys::HtmlElement> {
    let Ok(nodes) = root.query_selector_all(FOCUSABLE) else {
        return Vec::new();
    };
    (0..nodes.length())
        .filter_map(|i| nodes.item(i))
        .filter_map(|n| n.dyn_into::<web_sys::HtmlElement>().ok())
        .filter(|e| e.offset_parent().is_some() || e.get_bounding_client_rect().width() > 0.0)
        .collect()
}

fn active_element() -> Option<web_sys::HtmlElement> {
    web_sys::window()?
        .document()?
        .active_element()?
        .dyn_into()
        .ok()
}

/// Keeps Tab inside the dialog: past the last control it wraps to the first, and back.
fn trap_tab(ev: &web_sys::KeyboardEvent, dialog: &web_sys::Element) {
    if ev.key() != "Tab" {
        return;
    }
    let controls = focusables(dialog);
    let (Some(first), Some(last)) = (controls.first(), controls.last()) else {
        ev.prevent_default();
        return;
    };
    let active = active_element();
    let inside = active
        .as_ref()
        .is_some_and(|a| controls.iter().any(|c| c == a));
    if ev.shift_key() && (!inside || active.as_ref() == Some(first)) {
        ev.prevent_default();
        let _ = last.focus();
    } else if !ev.shift_key() && (!inside || active.as_ref() == Some(last)) {
        ev.prevent_default();
        let _ = first.focus();
    }
}

#[component]
pub fn Dialogs() -> impl IntoView {
    let session = use_session();
    let dialog_ref: NodeRef<leptos::html::Div> = NodeRef::new();
    // What had focus before the dialog opened, to give it back.
    let opener = StoredValue::new_local(None::<web_sys::HtmlElement>);
    Effect::new(move |was_open: Option<bool>| {
        let open = session.dialog.get().is_some();
        if open && was_open != Some(true) {
            opener.set_value(active_element());
        }
        if !open && was_open == Some(true) {
            let back = opener.get_value();
            opener.set_value(None);
            if let Some(element) = back.filter(|e| e.is_connected()) {
                let _ = element.focus();
            }
        }
        open
    });
    // Each dialog, once mounted, focuses its first control; one whose body arrives later (its
    // module fetched, `deferred`) focuses it then.
    let focus_first = move || {
        if let Some(dialog) = dialog_ref.get_untracked() {
            let body = dialog.query_selector(".dialog-body").ok().flatten();
            let target = body
                .and_then(|b| focusables(&b).into_iter().next())
                .or_else(|| focusables(&dialog).into_iter().next());
            if let Some(target) = target {
                let _ = target.focus();
            }
        }
    };
    Effect::new(move |_| {
        session.dialog.track();
        dialog_ref.track();
        focus_first();
    });
    move || {
        session.dialog.get().map(|dialog| {
            let (title, body) = match dialog {
                Dialog::Gallery => ("New design", crate::deferred::show(Deferred::Gallery, focus_first).into_any()),
                Dialog::Export => ("Export", crate::deferred::show(Deferred::Export, focus_first).into_any()),
                Dialog::Share => ("Share a link", crate::deferred::show(Deferred::Share, focus_first).into_any()),
                Dialog::Help => ("Keyboard shortcuts", crate::deferred::show(Deferred::Help, focus_first).into_any()),
                Dialog::Designs => ("Your designs", crate::deferred::show(Deferred::Designs, focus_first).into_any()),
                Dialog::ConfirmDelete => ("Delete this design?", view! { <designs::ConfirmDelete/> }.into_any()),
                Dialog::EngineImport => ("Import from engine", crate::deferred::show(Deferred::EngineImport, focus_first).into_any()),
                Dialog::Suggest => ("Suggest keys", crate::deferred::show(Deferred::Suggest, focus_first).into_any()),
            };
            view! {
                <div class="backdrop" on:click=move |_| session.dialog.set(None)>
                    <div
                        class="dialog"
                        role="dialog"
                        aria-modal="true"
                        aria-label=title
                        data-testid="dialog"
                        node_ref=dialog_ref
                        on:click=|ev| ev.stop_propagation()
                        on:keydown=move |ev| {
                            if let Some(dialog) = dialog_ref.get_untracked() {
                                trap_tab(&ev, &dialog);
                            }
                        }
                    >
                        <header class="dialog-head">
                            <h2>{title}</h2>
                            <button class="icon-button" aria-label="Close" data-testid="dialog-close" on:click=move |_| session.dialog.set(None)>"×"</button>
                        </header>
                        <div class="dialog-body">{body}</div>
                    </div>
                </div>
            }
        })
    }
}

#[component]
pub fn ToastView() -> impl IntoView {
    let session = use_session();
    // The pointer over the toast holds it: it goes once the pointer leaves.
    let hovered = RwSignal::new(false);
    let dismiss_later = move |toast: crate::session::Toast, after: std::time::Duration| {
        set_timeout(
            move || {
                if !hovered.get_untracked()
                    && session.toast.get_untracked().as_ref() == Some(&toast)
                {
                    session.toast.set(None);
                }
            },
            after,
        );
    };
    // Each toast stays its lifetime unless replaced (or until dismissed, an error that must be
    // seen).
    Effect::new(move |_| {
        if let Some(toast) = session.toast.get()
            && let Some(lifetime) = toast.lifetime()
        {
            dismiss_later(toast, lifetime);
        }
    });
    let on_leave = move |_| {
        hovered.set(false);
        if let Some(toast) = session.toast.get_untracked()
            && toast.lifetime().is_some()
        {
            dismiss_later(toast, std::time::Duration::from_secs(2));
        }
    };
    move || {
        session.toast.get().map(|t| {
            view! {
                <div class="toast" class:error=t.error role="status" aria-live="polite" data-testid="toast"
                    on:mouseenter=move |_| hovered.set(true) on:mouseleave=on_leave>
                    <div class="toast-text">
                        <span>{t.message}</span>
                        {(!t.notes.is_empty()).then(|| view! {
                            <ul class="toast-notes" data-testid="toast-notes">
                                {t.notes.into_iter().map(|n| view! { <li>{n}</li> }).collect_view()}
                            </ul>
                        })}
                    </div>
                    <button class="icon-button small" aria-label="Dismiss" on:click=move |_| session.toast.set(None)>"×"</button>
                </div>
            }
        })
    }
}
