//! Labelled form fields wired to the store's undo groups: focus opens a group, blur closes
//! it, so everything typed into one field undoes in one step.

use leptos::prelude::*;

use crate::session::{NameField, use_session};
use crate::store::use_store;

/// Puts the caret in `input` (its text selected, so typing replaces the made-up name; the
/// browser scrolls a focused field into view) once the session asks for `field`, and takes
/// the request, so it is answered once (issue 43: a new item is named where the user types).
pub fn caret_when_asked(field: NameField, input: NodeRef<leptos::html::Input>) {
    let session = use_session();
    Effect::new(move |_| {
        let asked = session.focus_name.with(|f| f.as_ref() == Some(&field));
        if asked && let Some(el) = input.get() {
            let _ = el.focus();
            el.select();
            session.focus_name.set(None);
        }
    });
}

/// A labelled text field. `on_input` runs on every keystroke (live analysis); `on_change`, if
/// given instead, only when the user commits the value (Enter or leaving the field), for
/// renames that move the selection.
#[component]
pub fn TextField(
    /// The visible label (also the accessible name).
    #[prop(into)]
    label: String,
    /// The current value, from the design.
    #[prop(into)]
    value: Signal<String>,
    /// Called with the text on every keystroke.
    #[prop(optional, into)]
    on_input: Option<Callback<String>>,
    /// Called with the text when the value is committed.
    #[prop(optional, into)]
    on_change: Option<Callback<String>>,
    /// A `data-testid` for browser tests.
    #[prop(optional)]
    testid: &'static str,
    /// Monospace, for key names and templates.
    #[prop(optional)]
    mono: bool,
    /// Placeholder text.
    #[prop(optional, into)]
    placeholder: String,
    /// The Name field this is, to take the caret when the session asks for it.
    #[prop(optional)]
    name_of: Option<NameField>,
) -> impl IntoView {
    let store = use_store();
    let input: NodeRef<leptos::html::Input> = NodeRef::new();
    if let Some(field) = name_of {
        caret_when_asked(field, input);
    }
    view! {
        <label class="field">
            <span class="field-label">{label.clone()}</span>
            <input
                node_ref=input
                class="input"
                class:mono=mono
                type="text"
                spellcheck="false"
                autocomplete="off"
                placeholder=placeholder
                data-testid=testid
                prop:value=move || value.get()
                on:focus=move |_| store.begin()
                on:blur=move |_| store.commit()
                on:input=move |ev| {
                    if let Some(f) = on_input {
                        f.run(event_target_value(&ev));
                    }
                }
                on:change=move |ev| {
                    if let Some(f) = on_change {
                        f.run(event_target_value(&ev));
                        // issue 12: a refused rename leaves the design as it was, so the
                        // value signal does not change: show what the design kept.
                        show_kept(&ev, value.get_untracked());
                    }
                }
                on:keydown=move |ev| {
                    if ev.key() == "Enter" {
                        let _ = ev.target().map(|t| {
                            use leptos::wasm_bindgen::JsCast;
                            t.unchecked_into::<web_sys::HtmlElement>().blur()
                        });
                    }
                }
            />
        </label>
    }
}

/// Puts `kept` (what the design holds after a commit) into the field the event came from: a
/// refused or normalised value must not stay on screen as if it had been taken.
pub fn show_kept(ev: &leptos::ev::Event, kept: String) {
    use leptos::wasm_bindgen::JsCast;
    if let Some(input) = ev
        .target()
        .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
        && input.value() != kept
    {
        input.set_value(&kept);
    }
}

/// The options of a `<select>`: value and label. The `<select>` itself takes
/// `prop:value` of the same signal: an option's `selected` attribute only picks the first
/// choice, and no longer moves the selection once the user has picked one (issue 12).
pub fn options(items: &[(&'static str, &'static str)], current: Signal<String>) -> impl IntoView {
    items
        .iter()
        .map(|(value, label)| {
            let value = *value;
            view! { <option value=value selected=move || current.get() == value>{*label}</option> }
        })
        .collect_view()
}
