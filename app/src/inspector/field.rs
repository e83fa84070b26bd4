//! Labelled form fields wired to the store's undo groups: focus opens a group, blur closes
//! it, so everything typed into one field undoes in one step.

use leptos::prelude::*;

use crate::store::use_store;

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
) -> impl IntoView {
    let store = use_store();
    view! {
        <label class="field">
            <span class="field-label">{label.clone()}</span>
            <input
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

/// The options of a `<select>`: value and label.
pub fn options(items: &[(&'static str, &'static str)], current: Signal<String>) -> impl IntoView {
    items
        .iter()
        .map(|(value, label)| {
            let value = *value;
            view! { <option value=value selected=move || current.get() == value>{*label}</option> }
        })
        .collect_view()
}
