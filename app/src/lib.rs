//! keyplan's browser app: Leptos, client-side rendered, compiled to WebAssembly by trunk.
//!
//! The app decides nothing about DynamoDB: it holds one design, asks `keyplan_core` what the
//! design means (`analyze`), and shows the answer. It is a library so tests can mount it;
//! `main.rs` only calls [`mount`].

use keyplan_core::{Analysis, Design, analyze};
use leptos::prelude::*;

/// The one design being edited, provided once as context.
#[derive(Debug, Clone, Copy)]
pub struct DesignStore(pub RwSignal<Design>);

/// The coverage line shown under the design name, e.g. "7 of 9 read patterns covered".
pub fn coverage_summary(analysis: &Analysis) -> String {
    let (covered, reads) = analysis.coverage();
    format!("{covered} of {reads} read patterns covered")
}

/// The whole app. On a first visit it shows the built-in order-management example.
#[component]
pub fn App() -> impl IntoView {
    let store = DesignStore(RwSignal::new(keyplan_core::examples::first()));
    provide_context(store);
    let design = store.0;
    let name = move || design.with(|d| d.name.clone());
    let summary = Memo::new(move |_| design.with(|d| coverage_summary(&analyze(d))));
    let entities = move || {
        design.with(|d| {
            d.entities
                .iter()
                .map(|e| (e.name.clone(), e.table.clone()))
                .collect::<Vec<_>>()
        })
    };

    view! {
        <header class="topbar">
            <span class="brand">"keyplan"</span>
            <h1 class="design-name">{name}</h1>
            <p class="coverage" data-testid="coverage-summary">{summary}</p>
        </header>
        <main class="workspace">
            <ul class="entities">
                <For
                    each=entities
                    key=|(entity, _)| entity.clone()
                    children=|(entity, table)| {
                        view! {
                            <li class="entity-card">
                                <span class="entity-name" data-testid="entity-name">{entity}</span>
                                <span class="entity-table">{table}</span>
                            </li>
                        }
                    }
                />
            </ul>
        </main>
    }
}

/// Mounts the app on the page's body; panics are reported to the browser console.
pub fn mount() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(App);
}
