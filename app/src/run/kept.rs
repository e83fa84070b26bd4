//! The Run panel's list of kept tables (issue 43, item 6): the runs that kept their tables on
//! the chosen engine, each with its tables and a delete button that deletes exactly those.
//! The sentences are [`super::kept_state`]'s; this only fetches and shows them.

use leptos::prelude::*;
use leptos::task::spawn_local;

use super::kept_state::{self, KeptRun};

/// What the list knows.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Listed {
    Loading,
    Runs(Vec<KeptRun>),
    Failed(String),
}

/// The kept tables of `engine`, fetched again when it changes and whenever `finished` turns
/// true (a run ended, perhaps keeping its tables).
#[component]
pub fn KeptTables(
    /// The engine whose kept tables are listed, by name.
    #[prop(into)]
    engine: Signal<String>,
    /// True once the current run has ended.
    #[prop(into)]
    finished: Signal<bool>,
) -> impl IntoView {
    let listed = RwSignal::new(Listed::Loading);
    // What the last delete did, for the status line under the list.
    let said = RwSignal::new(None::<String>);
    let busy = RwSignal::new(None::<String>);
    let reload = move |name: String| {
        spawn_local(async move {
            let answer = crate::api::fetch("GET", &kept_state::list_url(&name), None).await;
            let found = answer.and_then(|(status, body)| kept_state::parse_list(status, &body));
            // An answer for an engine no longer chosen is dropped.
            if engine.get_untracked() == name {
                listed.set(match found {
                    Ok(runs) => Listed::Runs(runs),
                    Err(message) => Listed::Failed(message),
                });
            }
        });
    };
    Effect::new(move |_| {
        let name = engine.get();
        // Read, not only tracked: a Memo nobody reads is never computed, so it would never
        // hear that the run ended.
        let _ = finished.get();
        if !name.is_empty() {
            reload(name);
        }
    });
    let delete = move |run: String| {
        let name = engine.get_untracked();
        busy.set(Some(run.clone()));
        spawn_local(async move {
            let line = match crate::api::fetch("DELETE", &kept_state::delete_url(&name, &run), None)
                .await
            {
                Ok((status, body)) => kept_state::deleted_line(&run, status, &body),
                Err(message) => format!("Run {run}'s tables were not deleted: {message}"),
            };
            said.set(Some(line));
            busy.set(None);
            reload(name);
        });
    };

    let rows = move || {
        match listed.get() {
        Listed::Loading => view! { <p class="run-note">"Looking for kept tables…"</p> }.into_any(),
        Listed::Failed(message) => view! {
            <p class="run-note error" data-testid="kept-error">{format!("Cannot list the kept tables: {message}")}</p>
        }
        .into_any(),
        Listed::Runs(runs) if runs.is_empty() => view! {
            <p class="run-note" data-testid="kept-none">"No run kept its tables on this engine."</p>
        }
        .into_any(),
        Listed::Runs(runs) => view! {
            <ul class="run-kept-list">
                {runs.into_iter().map(|run| {
                    let id = run.run.clone();
                    let label = format!("Delete the tables of run {id}");
                    let deleting = {
                        let id = id.clone();
                        move || busy.get().as_deref() == Some(id.as_str())
                    };
                    let deleting_label = deleting.clone();
                    let data_run = id.clone();
                    view! {
                        <li class="run-kept-run" data-testid="kept-run" data-run=data_run>
                            <div class="run-kept-head">
                                <span class="run-kept-title">{kept_state::run_heading(&run)}</span>
                                <button
                                    class="button danger"
                                    data-testid="kept-delete"
                                    aria-label=label
                                    disabled=deleting
                                    on:click=move |_| delete(id.clone())
                                >
                                    {move || if deleting_label() { "Deleting…" } else { "Delete" }}
                                </button>
                            </div>
                            <ul class="run-kept-tables">
                                {run.tables.iter().map(|table| view! {
                                    <li data-testid="kept-table">
                                        <span class="run-kept-name">{kept_state::table_line(table)}</span>
                                        <span class="run-kept-state">{kept_state::state_label(&table.state)}</span>
                                    </li>
                                }).collect_view()}
                            </ul>
                        </li>
                    }
                }).collect_view()}
            </ul>
        }
        .into_any(),
    }
    };

    view! {
        <section class="run-kept" data-testid="run-kept" aria-labelledby="run-kept-title">
            <h3 id="run-kept-title">"Kept tables"</h3>
            {rows}
            <p class="run-note" role="status" data-testid="kept-said">{move || said.get()}</p>
        </section>
    }
}
