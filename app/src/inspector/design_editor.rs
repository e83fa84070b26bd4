//! With nothing selected: the design's name and description, its tables, and a short guide.

use keyplan_core::edit::Edit;
use leptos::prelude::*;

use super::field::TextField;
use crate::session::{Dialog, Selection, use_session};
use crate::store::use_store;
use crate::text::plural;

#[component]
pub fn DesignEditor() -> impl IntoView {
    let store = use_store();
    let session = use_session();
    let name = Signal::derive(move || store.with(|d| d.name.clone()));
    let description = Signal::derive(move || store.with(|d| d.description.clone()));
    let stats = move || {
        store.with(|d| {
            format!(
                "{} · {} · {}",
                plural(d.tables.len(), "table"),
                plural(d.entities.len(), "entity"),
                plural(d.patterns.len(), "access pattern")
            )
        })
    };
    let tables = move || {
        store.with(|d| {
            d.tables
                .iter()
                .map(|t| (t.name.clone(), t.gsis.len(), t.lsis.len()))
                .collect::<Vec<_>>()
        })
    };
    view! {
        <section class="inspector-section">
            <p class="inspector-kind">"Design"</p>
            <TextField label="Name" value=name testid="design-name-input"
                on_input=Callback::new(move |t: String| { store.dispatch(Edit::SetName(t)); })/>
            <label class="field">
                <span class="field-label">"Description"</span>
                <textarea
                    class="input"
                    rows="4"
                    aria-label="Description"
                    prop:value=move || description.get()
                    on:focus=move |_| store.begin()
                    on:blur=move |_| store.commit()
                    on:input=move |ev| { store.dispatch(Edit::SetDescription(event_target_value(&ev))); }
                ></textarea>
            </label>
            <p class="hint">{stats}</p>
        </section>
        <section class="inspector-section">
            <h3>"Tables"</h3>
            <ul class="plain-list links">
                {move || tables().into_iter().map(|(t, g, l)| {
                    let pick = t.clone();
                    view! {
                        <li>
                            <button class="link-button" on:click=move |_| session.select(Selection::Table(pick.clone()))>{t.clone()}</button>
                            <span class="hint">{format!(" {g} GSI · {l} LSI")}</span>
                        </li>
                    }
                }).collect_view()}
            </ul>
        </section>
        <section class="inspector-section guide">
            <h3>"Getting around"</h3>
            <ul class="plain-list">
                <li>"Click a card to edit the entity and its key templates."</li>
                <li>"Pick an access pattern on the left to see how it is served."</li>
                <li>"Drag the background to pan, scroll to zoom, F to fit."</li>
                <li>"Press ? for every shortcut."</li>
            </ul>
            <button class="button danger small" data-testid="delete-this-design" on:click=move |_| session.dialog.set(Some(Dialog::ConfirmDelete))>
                "Delete this design from the browser"
            </button>
        </section>
    }
}
