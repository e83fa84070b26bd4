//! The gallery: the built-in examples and a blank design, each opened as a new local design,
//! and the way to import one from an engine's tables.

use keyplan_core::Design;
use leptos::prelude::*;

use crate::library::use_library;
use crate::session::use_session;
use crate::store::use_store;

#[component]
pub fn Gallery() -> impl IntoView {
    let store = use_store();
    let session = use_session();
    let library = use_library();
    let open = move |design: Design| {
        library.open_new(&store, &session, design);
        session.dialog.set(None);
    };
    let examples = keyplan_core::examples::all();
    view! {
        <div class="gallery">
            <button class="gallery-card blank" data-testid="gallery-blank" on:click=move |_| open(Design::new("Untitled design"))>
                <span class="gallery-title">"Blank design"</span>
                <span class="gallery-text">"Start from an empty canvas."</span>
            </button>
            <super::EngineImportEntry card=true/>
            {examples.into_iter().map(|(slug, design)| {
                let summary = format!(
                    "{} · {}",
                    crate::text::plural(design.entities.len(), "entity"),
                    crate::text::plural(design.patterns.len(), "access pattern")
                );
                let title = design.name.clone();
                let text = crate::text::excerpt(&design.description, 160);
                let full = design.description.clone();
                view! {
                    <button class="gallery-card" data-testid="gallery-example" data-slug=slug title=full on:click=move |_| open(design.clone())>
                        <span class="gallery-title">{title}</span>
                        <span class="gallery-text" data-testid="gallery-text">{text}</span>
                        <span class="gallery-meta">{summary}</span>
                    </button>
                }
            }).collect_view()}
        </div>
    }
}
