//! The Run panel: runs the current design on one of the engines `keyplan serve` was started
//! with (picked by name, never by URL) and shows the run as it happens: a progress bar, a pass
//! or fail row per pattern with latency and consumed capacity, a diff on a mismatch, cleanup.
//!
//! All decisions live in [`state`] (plain Rust, unit-tested); this module only wires `fetch`
//! and an `EventSource` to it. Leaving the panel closes the stream, which cancels a run that is
//! still going (the server then deletes its tables). "Keep the tables" leaves a finished run's
//! tables on the engine; [`kept`] lists them with a delete button.

pub mod kept;
pub mod kept_state;
pub mod state;

use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{EventSource, MessageEvent};

use crate::store::use_store;
use state::{EVENT_NAMES, Engines, Phase, RunState, SampleChoice, Status};

/// The open stream and the listeners it calls; dropping them closes the stream.
struct Stream {
    source: EventSource,
    _listeners: Vec<Closure<dyn FnMut(MessageEvent)>>,
    _on_error: Closure<dyn FnMut(web_sys::Event)>,
}

impl Drop for Stream {
    fn drop(&mut self) {
        self.source.close();
    }
}

fn open_stream(
    url: &str,
    run: RwSignal<RunState>,
    stream: StoredValue<Option<Stream>, LocalStorage>,
) -> Result<Stream, String> {
    let source =
        EventSource::new(url).map_err(|_| format!("could not open the event stream {url}"))?;
    let close = move || stream.update_value(|s| *s = None);
    let mut listeners = Vec::new();
    for name in EVENT_NAMES {
        let listener = Closure::<dyn FnMut(MessageEvent)>::new(move |ev: MessageEvent| {
            let data = ev.data().as_string().unwrap_or_default();
            run.update(|s| match state::parse_event(&data) {
                Ok(event) => s.apply(event),
                Err(message) => s.fail(message),
            });
            if run.with_untracked(RunState::finished) {
                close();
            }
        });
        source
            .add_event_listener_with_callback(name, listener.as_ref().unchecked_ref())
            .map_err(|_| "could not listen to the event stream".to_string())?;
        listeners.push(listener);
    }
    let on_error = Closure::<dyn FnMut(web_sys::Event)>::new(move |_| {
        if !run.with_untracked(RunState::finished) {
            run.update(|s| {
                s.fail("the connection to the keyplan server was lost before the run finished")
            });
        }
        close();
    });
    source.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    Ok(Stream {
        source,
        _listeners: listeners,
        _on_error: on_error,
    })
}

/// A labelled text field for a number, typed freely and checked by [`SampleChoice::parse`].
fn number_field(
    label: &'static str,
    placeholder: &'static str,
    testid: &'static str,
    text: RwSignal<String>,
) -> impl IntoView {
    view! {
        <label class="field run-field">
            <span class="field-label">{label}</span>
            <input
                class="input"
                type="text"
                inputmode="numeric"
                autocomplete="off"
                placeholder=placeholder
                data-testid=testid
                prop:value=move || text.get()
                on:input=move |ev| text.set(event_target_value(&ev))
            />
        </label>
    }
}

#[component]
pub fn RunView() -> impl IntoView {
    let store = use_store();
    let engines = RwSignal::new(Engines::Loading);
    let engine = RwSignal::new(String::new());
    let run = RwSignal::new(RunState::default());
    // The sample fields' text, as typed; read into a choice (or why not) on every keystroke.
    let items_text = RwSignal::new(String::new());
    let seed_text = RwSignal::new(String::new());
    let keep = RwSignal::new(false);
    // The chosen engine as listed, for whether it lets a run keep its tables.
    let chosen = Memo::new(move |_| match engines.get() {
        Engines::Available(list) => {
            let name = engine.get();
            list.into_iter().find(|e| e.name == name)
        }
        _ => None,
    });
    let can_keep =
        Memo::new(move |_| chosen.with(|e| e.as_ref().is_some_and(|e| e.cannot_keep.is_none())));
    let finished = Memo::new(move |_| run.with(RunState::finished));
    // Also refused before sending: a sample over the budget (the design's edits change it).
    let choice = Memo::new(move |_| {
        let choice = SampleChoice::parse(&items_text.get(), &seed_text.get())?;
        store.track_semantic();
        store.with_untracked(|design| choice.within_budget(design))
    });
    let stream = StoredValue::new_local(None::<Stream>);
    on_cleanup(move || stream.update_value(|s| *s = None));

    spawn_local(async move {
        let found = crate::run::state::Engines::probe().await;
        if let Engines::Available(list) = &found {
            engine.set(list[0].name.clone());
        }
        engines.set(found);
    });

    let start = move |_| {
        let name = engine.get_untracked();
        // The button is off while a field is invalid; a click that still comes does nothing.
        let Ok(choice) = choice.get_untracked() else {
            return;
        };
        let text = store.with_untracked(keyplan_core::file::to_string);
        let counts = store.with_untracked(|design| choice.counts(design));
        let keep = keep.get_untracked() && can_keep.get_untracked();
        run.set(RunState::starting(&name));
        stream.update_value(|s| *s = None);
        spawn_local(async move {
            let body = match state::start_body(&text, &name, counts, choice.seed, keep) {
                Ok(body) => body,
                Err(message) => return run.update(|s| s.fail(message)),
            };
            let events = match crate::api::fetch("POST", "/api/runs", Some(&body)).await {
                Ok((status, answer)) => state::started(status, &answer),
                Err(message) => Err(message),
            };
            match events.and_then(|url| open_stream(&url, run, stream)) {
                Ok(opened) => stream.update_value(|s| *s = Some(opened)),
                Err(message) => run.update(|s| s.fail(message)),
            }
        });
    };

    let controls = move || {
        match engines.get() {
        Engines::Loading => view! { <p class="run-note">"Looking for the keyplan server…"</p> }.into_any(),
        Engines::NoApi => view! {
            <p class="run-note warning" data-testid="run-needs-serve">
                "Running a design needs the keyplan server: start it with "
                <code>"keyplan serve"</code>
                " and open the address it prints."
            </p>
        }
        .into_any(),
        Engines::Unreachable(message) => view! {
            <p class="run-note error" data-testid="run-unreachable">{format!("Cannot run: {message}.")}</p>
        }
        .into_any(),
        Engines::Available(list) => view! {
            <div class="run-controls">
                <label class="field run-field run-engine">
                    <span class="field-label">"Engine"</span>
                    <select
                        class="input"
                        data-testid="run-engine"
                        prop:value=move || engine.get()
                        on:change=move |ev| engine.set(event_target_value(&ev))
                    >
                        {list.into_iter().map(|e| {
                            let title = e.description.clone();
                            // "embedded (embedded)" said the same thing twice.
                            let label = if e.name == e.kind { e.name.clone() } else { format!("{} ({})", e.name, e.kind) };
                            view! { <option value=e.name.clone() title=title>{label}</option> }
                        }).collect_view()}
                    </select>
                </label>
                {number_field("Items per entity", "sample default", "run-items", items_text)}
                {number_field("Seed", "default", "run-seed", seed_text)}
                <label class="run-keep">
                    <input
                        type="checkbox"
                        data-testid="run-keep"
                        aria-describedby="run-keep-note"
                        disabled=move || !can_keep.get()
                        prop:checked=move || keep.get() && can_keep.get()
                        on:change=move |ev| keep.set(event_target_checked(&ev))
                    />
                    "Keep the tables"
                </label>
                <button
                    class="button primary"
                    data-testid="run-start"
                    disabled=move || run.with(RunState::busy) || choice.with(Result::is_err)
                    on:click=start
                >
                    {move || if run.with(RunState::busy) { "Running…" } else { "Run" }}
                </button>
            </div>
            {move || choice.get().err().map(|message| view! {
                <p class="run-note error" data-testid="run-sample-error" role="alert">{message}</p>
            })}
            <p class="run-note" id="run-keep-note" data-testid="run-keep-note">
                {move || chosen.get().and_then(|e| kept_state::keep_note(&e, keep.get()))}
            </p>
        }
        .into_any(),
    }
    };

    let phase_class = move || match run.with(|s| s.phase.clone()) {
        Phase::Done(s) if s.ok => "run-status ok",
        Phase::Done(_) | Phase::Failed(_) => "run-status error",
        _ => "run-status",
    };

    view! {
        <div class="run-view" data-testid="run-view">
            <h2>"Run on a DynamoDB engine"</h2>
            <p class="run-note">"Creates the design's tables, writes the sample items, runs every access pattern and compares what the engine returns with keyplan's prediction; the tables are deleted afterwards unless you keep them."</p>
            {controls}
            <Show when=move || run.with(|s| s.phase != Phase::Idle)>
                <div class="run-progress" role="progressbar" aria-valuemin="0" aria-valuemax="100"
                    aria-valuenow=move || format!("{:.0}", run.with(RunState::progress) * 100.0)>
                    <div class="run-progress-bar" style:width=move || format!("{:.1}%", run.with(RunState::progress) * 100.0)></div>
                </div>
                <p class=phase_class data-testid="run-status">{move || run.with(RunState::status_line)}</p>
                <ul class="run-results">
                    {move || run.with(|s| s.results.clone()).into_iter().map(|r| {
                        let status = r.status;
                        view! {
                            <li class="run-pattern" data-testid="run-pattern" data-status=status.label()>
                                <div class="run-pattern-head">
                                    <span class=format!("run-badge {}", status.label()) data-testid="run-pattern-status">{status.label()}</span>
                                    <span class="run-pattern-name">{r.pattern.clone()}</span>
                                    <span class="run-figures">{state::figures(&r)}</span>
                                </div>
                                {r.message.clone().map(|m| view! { <p class="run-message">{m}</p> })}
                                {(status == Status::Mismatch).then(|| view! {
                                    <pre class="run-diff" data-testid="run-diff">{r.diff.clone().unwrap_or_default()}</pre>
                                })}
                            </li>
                        }
                    }).collect_view()}
                </ul>
                <p class="run-cleanup" data-testid="run-cleanup">{move || run.with(RunState::cleanup_line)}</p>
            </Show>
            <Show when=move || can_keep.get()>
                <kept::KeptTables engine=engine finished=finished />
            </Show>
        </div>
    }
}
