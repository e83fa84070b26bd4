//! The "Import from engine" dialog (issue 17): the engines `keyplan serve` names, the chosen
//! engine's tables, a sample size, then `POST /api/import/engine`; the design it answers opens
//! as a new local design (the open one is left as it is), with a toast saying what was read and
//! every note. Without `keyplan serve` (a static host) the dialog says why it cannot import.
//!
//! The decisions (URLs, the sample rule, the answers, the words) are in
//! [`crate::engine_import`]; this only wires them to the DOM and `fetch`.

use std::collections::BTreeSet;

use leptos::prelude::*;
use leptos::task::spawn_local;

use keyplan_core::api::Line;
use keyplan_core::api::live::EngineImportEvent;

use crate::engine_import::{
    DEFAULT_SAMPLE, Request, TableInfo, from_answer, from_server, parse_sample, progress_line,
    stream_line, tables_from_server, tables_url,
};
use crate::library::use_library;
use crate::run::state::Engines;
use crate::session::{Dialog, use_session};
use crate::store::use_store;
use crate::text::thousands;

/// The chosen engine's tables.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Listing {
    Loading,
    Listed(Vec<TableInfo>),
    Failed(String),
}

/// The import's state.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Import {
    Idle,
    /// The server is reading: what it reads, in words, and how much of it is read (in
    /// thousandths), once the server has said.
    Reading {
        line: String,
        permille: Option<u16>,
    },
    Failed(String),
}

/// Whether `keyplan serve` is there, asked once when the entry that opens the dialog shows.
fn probe() -> RwSignal<Engines> {
    let engines = RwSignal::new(Engines::Loading);
    spawn_local(async move {
        let _ = engines.try_set(crate::run::state::Engines::probe().await);
    });
    engines
}

/// The way into the dialog where designs are opened (the gallery, the design list): a button
/// when `keyplan serve` names engines, else the reason it cannot import here.
#[component]
pub fn EngineImportEntry(
    /// A card in the gallery, or a button among the design list's actions.
    card: bool,
) -> impl IntoView {
    let session = use_session();
    let engines = probe();
    let reason = move || engines.with(crate::engine_import::unavailable);
    let open = move |_| session.dialog.set(Some(Dialog::EngineImport));
    move || {
        match (card, reason()) {
        (true, None) => view! {
            <button class="gallery-card from-engine" data-testid="engine-import-open" on:click=open>
                <span class="gallery-title">"Import from engine"</span>
                <span class="gallery-text">"Infer a design from tables that exist, on an engine keyplan serve names. Read-only."</span>
            </button>
        }
        .into_any(),
        (true, Some(reason)) => view! {
            <div class="gallery-card from-engine unavailable" data-testid="engine-import-unavailable">
                <span class="gallery-title">"Import from engine"</span>
                <span class="gallery-text">{reason}</span>
            </div>
        }
        .into_any(),
        (false, None) => view! {
            <button class="button" data-testid="engine-import-open" on:click=open>"Import from engine…"</button>
        }
        .into_any(),
        (false, Some(reason)) => view! {
            <span class="hint engine-import-unavailable" data-testid="engine-import-unavailable">{format!("Import from engine: {reason}")}</span>
        }
        .into_any(),
    }
    }
}

#[component]
pub fn EngineImport() -> impl IntoView {
    let store = use_store();
    let session = use_session();
    let library = use_library();
    let engines = RwSignal::new(Engines::Loading);
    let engine = RwSignal::new(String::new());
    let listing = RwSignal::new(Listing::Loading);
    let picked = RwSignal::new(BTreeSet::<String>::new());
    let all = RwSignal::new(false);
    let sample_text = RwSignal::new(thousands(DEFAULT_SAMPLE));
    let sample = Memo::new(move |_| parse_sample(&sample_text.get()));
    let import = RwSignal::new(Import::Idle);
    let engine_select: NodeRef<leptos::html::Select> = NodeRef::new();

    // The dialog may be closed before an answer comes: its signals are gone then, hence
    // `try_` everywhere an answer lands.
    let list_tables = move |name: String| {
        listing.set(Listing::Loading);
        picked.set(BTreeSet::new());
        all.set(false);
        import.set(Import::Idle);
        spawn_local(async move {
            let answer = match crate::api::fetch("GET", &tables_url(&name), None).await {
                Ok((status, body)) => tables_from_server(status, &body),
                Err(message) => Err(message),
            };
            // Another engine chosen meanwhile: its own list is on the way.
            if engine.try_get_untracked().as_deref() != Some(name.as_str()) {
                return;
            }
            listing.try_set(match answer {
                Ok(tables) => Listing::Listed(tables),
                Err(message) => Listing::Failed(message),
            });
        });
    };
    spawn_local(async move {
        let found = crate::run::state::Engines::probe().await;
        let first = match &found {
            Engines::Available(list) => list.first().map(|e| e.name.clone()),
            _ => None,
        };
        if engines.try_set(found).is_some() {
            return;
        }
        if let Some(name) = first {
            engine.set(name.clone());
            list_tables(name);
            // While it waited the dialog focused what it had (Cancel, or Close): the first
            // choice now, unless the user has moved on.
            request_animation_frame(move || {
                let waiting = web_sys::window()
                    .and_then(|w| w.document())
                    .and_then(|d| d.active_element())
                    .is_none_or(|a| {
                        a.tag_name() == "BODY"
                            || matches!(
                                a.get_attribute("data-testid").as_deref(),
                                Some("dialog-close" | "engine-import-cancel")
                            )
                    });
                if let Some(select) = engine_select.get_untracked().filter(|_| waiting) {
                    let _ = select.focus();
                }
            });
        }
    });

    let tables = move || match listing.get() {
        Listing::Listed(tables) => tables,
        _ => Vec::new(),
    };
    let request = move || -> Option<Request> {
        let sample = sample.get().ok()?;
        let all = all.get();
        let tables: Vec<String> = if all {
            tables().into_iter().map(|t| t.name).collect()
        } else {
            picked.get().into_iter().collect()
        };
        (!tables.is_empty()).then(|| Request {
            engine: engine.get(),
            tables,
            all,
            sample,
        })
    };
    let reading = move || matches!(import.get(), Import::Reading { .. });

    let start = move |_| {
        let Some(request) = request() else {
            return;
        };
        import.set(Import::Reading {
            line: request.reading(),
            permille: None,
        });
        spawn_local(async move {
            // The answer streams: a line after every page of the scan, then the design.
            let mut streamed: Option<Result<_, String>> = None;
            let sent = crate::api::post_lines("/api/import/engine", &request.body(), |line| {
                match stream_line(line) {
                    Some(Line::Progress(EngineImportEvent::Progress(p))) => {
                        let _ = import.try_set(Import::Reading {
                            line: progress_line(&p, &request.engine),
                            permille: Some((p.fraction() * 1000.0).round() as u16),
                        });
                    }
                    Some(Line::Answer { answer }) => {
                        streamed = Some(from_answer(&request, answer));
                    }
                    Some(Line::Failed { error, .. }) => streamed = Some(Err(error)),
                    None => {}
                }
            })
            .await;
            let answer = match sent {
                Ok((status, Some(body))) => from_server(&request, status, &body),
                Ok((_, None)) => streamed.unwrap_or_else(|| {
                    Err("the keyplan server's answer ended before the design came".to_string())
                }),
                Err(message) => Err(message),
            };
            match answer {
                Ok(imported) => {
                    // Opened even when the dialog was closed meanwhile: what was read is not
                    // thrown away. Another dialog the user opened since stays open.
                    // The tables hold data in this shape: the design starts deployed, so the
                    // Migrate tab plans every change from it (issue 18).
                    let deployed = imported.design.clone();
                    library.open_new(&store, &session, imported.design);
                    crate::panels::mark_deployed(
                        library.current.get_untracked(),
                        &deployed,
                        move |stored| {
                            if let Err(e) = stored {
                                session.warn(format!(
                                    "The imported design is open, but not marked as deployed: {e}"
                                ));
                            }
                        },
                    );
                    if session.dialog.get_untracked() == Some(Dialog::EngineImport) {
                        session.dialog.set(None);
                    }
                    crate::opening::say_opened(&session, imported.message, imported.notes);
                }
                Err(message) => {
                    if import.try_set(Import::Failed(message.clone())).is_some() {
                        session.refuse(format!("The import from the engine failed: {message}"));
                    }
                }
            }
        });
    };

    let engine_list = move |list: Vec<crate::run::state::Engine>| {
        view! {
            <label class="field engine-import-engine">
                <span class="field-label">"Engine"</span>
                <select
                    class="input"
                    data-testid="engine-import-engine"
                    node_ref=engine_select
                    disabled=reading
                    prop:value=move || engine.get()
                    on:change=move |ev| {
                        let name = event_target_value(&ev);
                        engine.set(name.clone());
                        list_tables(name);
                    }
                >
                    {list.into_iter().map(|e| {
                        // "embedded (embedded)" said the same thing twice.
                        let label = if e.name == e.kind { e.name.clone() } else { format!("{} ({})", e.name, e.kind) };
                        view! { <option value=e.name.clone()>{label}</option> }
                    }).collect_view()}
                </select>
            </label>
        }
    };

    let table_list = move || {
        match listing.get() {
        Listing::Loading => view! {
            <p class="hint engine-import-wait" role="status">{move || format!("Listing the tables of {}…", engine.get())}</p>
        }
        .into_any(),
        Listing::Failed(message) => view! {
            <div class="engine-import-problem">
                <p class="diagnostic error" role="alert" data-testid="engine-import-error">{format!("The tables could not be listed: {message}")}</p>
                <button class="button small" on:click=move |_| list_tables(engine.get_untracked())>"Try again"</button>
            </div>
        }
        .into_any(),
        Listing::Listed(tables) if tables.is_empty() => view! {
            <p class="hint" data-testid="engine-import-empty">{move || crate::engine_import::no_tables(&engine.get())}</p>
        }
        .into_any(),
        Listing::Listed(tables) => view! {
            <fieldset class="field engine-import-tables">
                <legend class="field-label">{move || format!("Tables on {}", engine.get())}</legend>
                <label class="check all-tables">
                    <input
                        type="checkbox"
                        data-testid="engine-import-all"
                        disabled=reading
                        prop:checked=move || all.get()
                        on:change=move |ev| all.set(event_target_checked(&ev))
                    />
                    {format!("All tables ({})", tables.len())}
                </label>
                <ul class="plain-list table-choices" aria-label="Tables">
                    {tables.into_iter().map(|table| {
                        let name = table.name.clone();
                        let (checked_name, toggled_name) = (name.clone(), name.clone());
                        view! {
                            <li>
                                <label class="check">
                                    <input
                                        type="checkbox"
                                        data-testid="engine-import-table"
                                        value=name.clone()
                                        disabled=move || reading() || all.get()
                                        prop:checked=move || all.get() || picked.with(|p| p.contains(&checked_name))
                                        on:change=move |ev| {
                                            let on = event_target_checked(&ev);
                                            picked.update(|p| {
                                                if on {
                                                    p.insert(toggled_name.clone());
                                                } else {
                                                    p.remove(&toggled_name);
                                                }
                                            });
                                        }
                                    />
                                    <span class="table-choice-name">{table.label()}</span>
                                </label>
                            </li>
                        }
                    }).collect_view()}
                </ul>
            </fieldset>
        }
        .into_any(),
    }
    };

    let controls = move || {
        match engines.get() {
        Engines::Loading => view! { <p class="hint" role="status">"Looking for the keyplan server…"</p> }.into_any(),
        Engines::NoApi => view! {
            <p class="run-note warning" data-testid="engine-import-needs-serve">
                "Importing a table needs the keyplan server: the browser cannot reach a DynamoDB engine by itself. Start "
                <code>"keyplan serve --endpoint NAME=URL"</code>
                " (or with the embedded engine) and open the address it prints, or run "
                <code>"keyplan import --endpoint URL --table TABLE -o design.keyplan.json"</code>
                " and open that file."
            </p>
        }
        .into_any(),
        Engines::Unreachable(message) => view! {
            <p class="diagnostic error" role="alert" data-testid="engine-import-error">{format!("Cannot import: {message}.")}</p>
        }
        .into_any(),
        Engines::Available(list) => view! {
            <div class="engine-import-form">
                {engine_list(list)}
                {table_list}
                <label class="field engine-import-sample">
                    <span class="field-label">"Sample size (items read per table)"</span>
                    <input
                        class="input"
                        type="text"
                        inputmode="numeric"
                        autocomplete="off"
                        data-testid="engine-import-sample"
                        disabled=reading
                        aria-describedby="engine-import-sample-hint"
                        prop:value=move || sample_text.get()
                        on:input=move |ev| sample_text.set(event_target_value(&ev))
                    />
                    <span class="hint" id="engine-import-sample-hint">
                        {format!("1 to {}. The more items, the surer the entities and their shares; each item read costs read capacity.", thousands(crate::engine_import::MAX_SAMPLE))}
                    </span>
                </label>
                {move || sample.get().err().map(|message| view! {
                    <p class="diagnostic error" role="alert" data-testid="engine-import-sample-error">{message}</p>
                })}
            </div>
        }
        .into_any(),
    }
    };

    let status = move || {
        match import.get() {
        Import::Idle => None,
        Import::Reading { line, permille: None } => Some(view! {
            <div class="engine-import-status">
                <div class="run-progress busy" role="progressbar" aria-label="Importing from the engine"><div class="run-progress-bar"></div></div>
                <p class="hint" data-testid="engine-import-reading">{line}</p>
            </div>
        }.into_any()),
        Import::Reading { line, permille: Some(permille) } => Some(view! {
            <div class="engine-import-status">
                <div class="run-progress" role="progressbar" aria-label="Importing from the engine" data-testid="engine-import-progress"
                    aria-valuemin="0" aria-valuemax="100" aria-valuenow=format!("{:.0}", f64::from(permille) / 10.0)>
                    <div class="run-progress-bar" style:width=format!("{:.1}%", f64::from(permille) / 10.0)></div>
                </div>
                <p class="hint" data-testid="engine-import-reading">{line}</p>
            </div>
        }.into_any()),
        Import::Failed(message) => Some(view! {
            <p class="diagnostic error" role="alert" data-testid="engine-import-error">{format!("The import failed: {message}")}</p>
        }.into_any()),
    }
    };

    view! {
        <div class="engine-import" data-testid="engine-import" aria-busy=move || reading().to_string()>
            <p class="hint">"Reads tables that exist and infers a design from them: keys, indexes, billing and time to live from DescribeTable, entities and key templates from a sample Scan. Nothing is written to the engine, and the sampled items are not kept. The design opens as a new local design; the open one stays as it is."</p>
            {controls}
            <div class="engine-import-live" aria-live="polite">{status}</div>
            <div class="dialog-actions">
                <button class="button" data-testid="engine-import-cancel" on:click=move |_| session.dialog.set(None)>"Cancel"</button>
                <button
                    class="button primary"
                    data-testid="engine-import-start"
                    disabled=move || reading() || request().is_none()
                    on:click=start
                >
                    {move || if reading() { "Importing…" } else { "Import" }}
                </button>
            </div>
        </div>
    }
}
