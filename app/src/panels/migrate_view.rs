//! The Migrate tab (issue 18): the open design against the design its tables were deployed
//! with. "Mark as deployed" stores the open design as that baseline (a design imported from an
//! engine starts with one); the tab then shows what changed since (`keyplan diff`'s words), every
//! pattern whose verdict changed, and core's migration plan (`keyplan migrate`'s steps, in
//! expand / migrate / contract order, with their items, units, cost and duration). Nothing here
//! plans or compares: [`keyplan_core::diff`] and [`keyplan_core::migrate`] do, as for the CLI,
//! in the worker ([`crate::jobs::migrate`]).
//!
//! What the user types here is kept (issue 43 item 5): the items of an entity are its volume
//! (the inspector's "Items in production", an undoable edit saved with the design), and the
//! write rate (`--max-wcu`) is the session's. The steps are drawn as a timeline too.

use std::collections::BTreeMap;

use keyplan_core::Design;
use keyplan_core::api::Line;
use keyplan_core::api::migrate::{VerifyEvent, VerifyLine, VerifyRequest};
use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::chart::BarChart;
use crate::compute::{Computed, Computing, NoAnswer, WorkerNotice, follow};
use crate::jobs::migrate::MigratePage;
use crate::jobs::{Migrate, Program};
use crate::store::Tracks;

use keyplan_core::edit::Edit;
use keyplan_core::migrate::units;
use keyplan_core::model::Volume;

use crate::library::use_library;
use crate::run::state::Engines;
use crate::session::use_session;
use crate::storage::{Baseline, baseline, save_baseline};
use crate::store::use_store;
use crate::text::thousands;

/// The open design's baseline, as read from the browser's storage.
#[derive(Debug, Clone, PartialEq)]
enum Stored {
    Loading,
    None,
    /// The baseline, parsed, and when it was marked.
    Marked {
        design: Box<Design>,
        marked: f64,
    },
    Failed(String),
}

impl Stored {
    fn of(read: Result<Option<Baseline>, String>) -> Stored {
        match read {
            Ok(None) => Stored::None,
            Ok(Some(b)) => match keyplan_core::file::parse(&b.text) {
                Ok(design) => Stored::Marked {
                    design: Box::new(design),
                    marked: b.marked,
                },
                Err(e) => Stored::Failed(format!("the deployed baseline does not read: {e}")),
            },
            Err(e) => Stored::Failed(e),
        }
    }
}

/// The verification on an engine, as the stream tells it.
#[derive(Debug, Clone, PartialEq)]
enum Verification {
    Idle,
    /// Patterns checked so far.
    Running {
        checked: usize,
    },
    /// The server's report, in `keyplan migrate --verify`'s words.
    Done {
        ok: bool,
        text: String,
    },
    Failed(String),
}

/// One line of `POST /api/migrate/verify`'s stream: a pattern checked ([`Verification::Running`],
/// counted by the caller), the answer or the error.
fn verification_line(line: &str) -> Option<Verification> {
    match serde_json::from_str::<VerifyLine>(line).ok()? {
        Line::Progress(VerifyEvent::Pattern(_)) => Some(Verification::Running { checked: 1 }),
        Line::Progress(VerifyEvent::Cleanup(_)) => None,
        Line::Answer { answer } => Some(Verification::Done {
            ok: answer.ok,
            text: answer.text.trim().to_string(),
        }),
        Line::Failed { error, .. } => Some(Verification::Failed(error)),
    }
}

/// A design as the JSON value of its file.
fn design_value(design: &Design) -> serde_json::Value {
    serde_json::from_str(&keyplan_core::file::to_string(design)).unwrap_or_default()
}

/// Stores `design` as design `id`'s deployed baseline; the toast or the warning says how it
/// went. `then` gets the stored state.
pub fn mark_deployed(
    id: String,
    design: &Design,
    then: impl FnOnce(Result<f64, String>) + 'static,
) {
    let baseline = Baseline {
        text: keyplan_core::file::to_string(design),
        marked: js_sys::Date::now(),
    };
    spawn_local(async move {
        let marked = baseline.marked;
        then(save_baseline(&id, &baseline).await.map(|()| marked));
    });
}

/// "2 Dec 2026, 14:05" in the browser's locale and zone.
fn when(marked: f64) -> String {
    js_sys::Date::new(&wasm_bindgen::JsValue::from_f64(marked))
        .to_locale_string("default", &wasm_bindgen::JsValue::UNDEFINED)
        .as_string()
        .unwrap_or_default()
}

#[component]
pub fn MigrateView() -> impl IntoView {
    let store = use_store();
    let library = use_library();
    let session = use_session();
    let stored = RwSignal::new(Stored::Loading);
    // Read again whenever another design is opened.
    Effect::new(move |_| {
        let id = library.current.get();
        stored.set(Stored::Loading);
        spawn_local(async move {
            let read = baseline(&id).await;
            if library.current.get_untracked() == id {
                let _ = stored.try_set(Stored::of(read));
            }
        });
    });
    let mark = move |_| {
        let id = library.current.get_untracked();
        let design = store.with_untracked(Clone::clone);
        let kept = design.clone();
        mark_deployed(id, &design, move |result| match result {
            Ok(marked) => {
                let _ = stored.try_set(Stored::Marked {
                    design: Box::new(kept),
                    marked,
                });
                session.say("Marked as deployed: the Migrate tab plans every change from here");
            }
            Err(e) => session.warn(format!("Could not mark the design as deployed: {e}")),
        });
    };
    // What changed since the baseline, and the plan: recomputed by the worker on every edit,
    // and on every write rate asked.
    let (report, again) = follow(
        store,
        Tracks::Semantics,
        move || {
            let max_wcu = session.max_wcu.get();
            stored.with(|s| match s {
                Stored::Marked { design: old, .. } => Some(Migrate {
                    old: (**old).clone(),
                    new: store.with_untracked(Clone::clone),
                    max_wcu,
                }),
                _ => None,
            })
        },
        false,
    );
    let has_steps = move || report.with(|r| matches!(r, Computed::Ready(p) if !p.steps.is_empty()));

    // The plan as a program, written by core (in the worker) from the baseline and the open
    // design. `language` is `typescript` or `python`, `extension` its file's.
    let program = move |language: &'static str, extension: &'static str| {
        let Stored::Marked { design: old, .. } = stored.get_untracked() else {
            return;
        };
        let (new, name) = store.with_untracked(|new| {
            let name = format!(
                "migrate-{}.{extension}",
                crate::storage::default_file_name(new).trim_end_matches(".keyplan.json"),
            );
            (new.clone(), name)
        });
        let job = Program {
            old: *old,
            new,
            max_wcu: session.max_wcu.get_untracked(),
            language: language.to_string(),
        };
        crate::compute::once(
            store.revision_untracked(Tracks::Semantics),
            job,
            move |answer| match answer.and_then(|text| text) {
                Ok(text) => {
                    if crate::save::download(&name, "text/plain", &text).is_ok() {
                        session.say(format!("Downloaded {name}"));
                    } else {
                        session.warn("The browser refused the download");
                    }
                }
                Err(e) => session.warn(format!("No migration program: {e}")),
            },
        );
    };
    // "Verify on engine": the server proves the plan on one of its engines.
    let engines = RwSignal::new(Engines::Loading);
    spawn_local(async move {
        let _ = engines.try_set(crate::run::state::Engines::probe().await);
    });
    let engine = RwSignal::new(String::new());
    let verification = RwSignal::new(Verification::Idle);
    let verify = move |_| {
        let Stored::Marked { design: old, .. } = stored.get_untracked() else {
            return;
        };
        let name = engine.get_untracked();
        let body = store.with_untracked(|new| {
            let request = VerifyRequest {
                engine: (!name.is_empty()).then_some(name.clone()),
                old: design_value(&old),
                new: design_value(new),
                // The counts are the designs' volumes.
                items: BTreeMap::new(),
            };
            // Designs' JSON and numbers: nothing in them can fail to be written.
            keyplan_core::api::request_text(&request).unwrap_or_default()
        });
        verification.set(Verification::Running { checked: 0 });
        spawn_local(async move {
            let mut last: Option<Verification> = None;
            let sent =
                crate::api::post_lines(
                    "/api/migrate/verify",
                    &body,
                    |line| match verification_line(line) {
                        Some(Verification::Running { .. }) => {
                            let checked = match verification.get_untracked() {
                                Verification::Running { checked } => checked + 1,
                                _ => 1,
                            };
                            let _ = verification.try_set(Verification::Running { checked });
                        }
                        Some(done) => last = Some(done),
                        None => {}
                    },
                )
                .await;
            let done = match sent {
                Ok((status, Some(body))) => {
                    Verification::Failed(crate::api::error_message(status, &body))
                }
                Ok((_, None)) => last.unwrap_or_else(|| {
                    Verification::Failed("the server's answer ended before the result".to_string())
                }),
                Err(message) => Verification::Failed(message),
            };
            let _ = verification.try_set(done);
        });
    };
    let verify_controls = move || {
        let list = match engines.get() {
            Engines::Available(list) => list,
            Engines::Loading => return view! { <p class="hint" role="status">"Looking for the keyplan server…"</p> }.into_any(),
            _ => return view! {
                <p class="hint" data-testid="migrate-verify-needs-serve">"Verifying needs the keyplan server: start "<code>"keyplan serve"</code>" and open the address it prints, or run "<code>"keyplan migrate OLD NEW --verify"</code>"."</p>
            }.into_any(),
        };
        if engine.get_untracked().is_empty()
            && let Some(first) = list.first()
        {
            engine.set(first.name.clone());
        }
        view! {
            <div class="migrate-verify-row">
                <label class="field inline">
                    <span class="field-label">"Engine"</span>
                    <select class="input" data-testid="migrate-verify-engine"
                        prop:value=move || engine.get()
                        on:change=move |ev| engine.set(event_target_value(&ev))>
                        {list.into_iter().map(|e| view! { <option value=e.name.clone()>{e.name.clone()}</option> }).collect_view()}
                    </select>
                </label>
                <button class="button primary" data-testid="migrate-verify"
                    disabled=move || matches!(verification.get(), Verification::Running { .. })
                    on:click=verify>
                    "Verify on engine"
                </button>
            </div>
        }
        .into_any()
    };
    let verify_status = move || {
        match verification.get() {
        Verification::Idle => None,
        Verification::Running { checked } => Some(view! {
            <div class="engine-import-status">
                <div class="run-progress busy" role="progressbar" aria-label="Verifying the migration"><div class="run-progress-bar"></div></div>
                <p class="hint" data-testid="migrate-verifying">{format!("Loading the deployed design's sample, migrating it, then checking every pattern on it: {checked} checked…")}</p>
            </div>
        }.into_any()),
        Verification::Done { ok, text } => Some(view! {
            <pre class="migrate-verified" class:error=!ok data-testid="migrate-verified" tabindex="0" aria-label="Verification report">{text}</pre>
        }.into_any()),
        Verification::Failed(message) => Some(view! {
            <p class="diagnostic error" role="alert" data-testid="migrate-verify-error">{format!("The verification failed: {message}")}</p>
        }.into_any()),
    }
    };
    let header = move || {
        match stored.get() {
        Stored::Loading => view! { <p class="hint" role="status">"Reading the deployed baseline…"</p> }.into_any(),
        Stored::None => view! {
            <p class="hint" data-testid="migrate-no-baseline">
                "No deployed baseline yet. Mark the design as deployed when its tables hold data in this shape; every change after that is planned here as a migration: what changed, which verdicts, and the steps that take the data there, with their cost."
            </p>
        }
        .into_any(),
        Stored::Marked { marked, .. } => view! {
            <p class="hint" data-testid="migrate-baseline">{format!("Compared with the design marked deployed on {}.", when(marked))}</p>
        }
        .into_any(),
        Stored::Failed(message) => view! {
            <p class="diagnostic error" role="alert">{message}</p>
        }
        .into_any(),
    }
    };

    view! {
        <div class="migrate-view" data-testid="migrate-view" tabindex="0" aria-label="Migrate">
            <div class="migrate-head">
                <h2>"Migrate from the deployed design"</h2>
                <button
                    class="button"
                    data-testid="mark-deployed"
                    disabled=move || stored.with(|s| matches!(s, Stored::Loading))
                    on:click=mark
                >
                    "Mark as deployed"
                </button>
            </div>
            {header}
            <WorkerNotice/>
            {move || match report.get() {
                Computed::Ready(page) => Some(view! { <Report page=page/> }.into_any()),
                Computed::Failed(e) => Some(view! { <NoAnswer what="No migration plan" why=e again/> }.into_any()),
                Computed::Waiting => Some(view! { <Computing what="the migration plan"/> }.into_any()),
                Computed::Off => None,
            }}
            {move || has_steps().then(|| view! {
                <section class="migrate-program" aria-label="Migration program">
                    <h3>"Migration program"</h3>
                    <p class="hint">"The plan as a program on the AWS SDK: a parallel scan by segment, rate-limited, resumable from a checkpoint file, with conditional writes so a second run changes nothing; --dry-run prints what it would write. It is given the real table names and refuses any other."</p>
                    <div class="dialog-actions">
                        <button class="button" data-testid="migrate-download-typescript" on:click=move |_| program("typescript", "ts")>"Download TypeScript"</button>
                        <button class="button" data-testid="migrate-download-python" on:click=move |_| program("python", "py")>"Download Python"</button>
                    </div>
                </section>
                <section class="migrate-verify-box" aria-label="Verify on engine">
                    <h3>"Verify on engine"</h3>
                    <p class="hint">"Loads the deployed design's sample into fresh tables, runs the plan on them, compares the data item for item with keyplan's prediction and runs every pattern of the open design on it; the tables are deleted afterwards."</p>
                    {verify_controls}
                    <div aria-live="polite">{verify_status}</div>
                </section>
            })}
        </div>
    }
}

#[component]
fn Report(page: MigratePage) -> impl IntoView {
    if page.unchanged {
        return view! {
            <p class="hint" data-testid="migrate-summary">"No changes since the deployed design: nothing to migrate."</p>
        }
        .into_any();
    }
    let verdicts = page.verdicts.clone();
    let changes = page.changes.clone();
    view! {
        <p class="hint" data-testid="migrate-summary">{page.summary.clone()}</p>
        {(!verdicts.is_empty()).then(|| view! {
            <section aria-label="Verdicts that changed">
                <h3>"Verdicts that changed"</h3>
                <ul class="migrate-verdicts">
                    {verdicts.into_iter().map(|(line, regression)| view! {
                        <li class:diagnostic=regression class:error=regression data-testid="migrate-verdict">{line}</li>
                    }).collect_view()}
                </ul>
            </section>
        })}
        <section aria-label="Migration plan">
            <h3>"Migration plan"</h3>
            <PlanTable page=page/>
        </section>
        <details class="migrate-changes">
            <summary>"What changed"</summary>
            <pre data-testid="migrate-changes" tabindex="0" aria-label="Every change since the deployed design">{changes}</pre>
        </details>
    }
    .into_any()
}

#[component]
fn PlanTable(page: MigratePage) -> impl IntoView {
    if page.steps.is_empty() {
        return view! {
            <p class="hint" data-testid="migrate-no-steps">"The data already has the new design's shape: nothing to rewrite."</p>
        }
        .into_any();
    }
    let totals = page.totals;
    view! {
        // At 1024 px the pane is under 40rem wide: each step is then a block, its figures in a
        // row under its words, each named (style/app.css, `.migrate-plan`); the table's roles
        // are given back for that layout.
        <table class="migrate-plan" data-testid="migrate-plan" role="table">
            <thead role="rowgroup">
                <tr role="row">
                    <th scope="col" role="columnheader">"Step"</th>
                    <th scope="col" role="columnheader" class="num">"Items"</th>
                    <th scope="col" role="columnheader" class="num">"Units"</th>
                    <th scope="col" role="columnheader" class="num">"Cost"</th>
                    <th scope="col" role="columnheader" class="num">"Duration"</th>
                </tr>
            </thead>
            <tbody role="rowgroup">
                {page.steps.into_iter().enumerate().map(|(i, s)| view! {
                    <tr role="row" data-testid="migrate-step">
                        <td role="cell" class="migrate-step">
                            <div class="migrate-step-tags">
                                <span class="migrate-step-number">{format!("Step {}", i + 1)}</span>
                                <span class="chip">{s.phase}</span>
                                <span class="chip" data-testid="migrate-step-kind">{s.kind}</span>
                            </div>
                            <div data-testid="migrate-step-action">{s.action}</div>
                            <div class="hint">{s.why}</div>
                        </td>
                        <td role="cell" class="num" data-label="Items">{s.items}</td>
                        <td role="cell" class="num" data-label="Units">
                            <div>{s.read_units}" RRU"</div>
                            <div>{s.write_units}" WRU"</div>
                        </td>
                        <td role="cell" class="num" data-label="Cost">{s.cost}</td>
                        <td role="cell" class="num" data-label="Duration" data-testid="migrate-step-duration">{s.duration}</td>
                    </tr>
                }).collect_view()}
            </tbody>
        </table>
        <p class="hint" data-testid="migrate-totals">{format!("Total: {totals}")}</p>
        <div class="migrate-inputs">
            <Volumes counted=page.counted/>
            <MaxWcu/>
        </div>
        <BarChart chart=page.timeline testid="chart-timeline"/>
    }
    .into_any()
}

/// The items of each entity the steps count: its volume in the open design ("Items in
/// production"), changed by an edit like any other.
#[component]
fn Volumes(counted: Vec<String>) -> impl IntoView {
    let store = use_store();
    // Entities only the deployed design has keep the volume it recorded.
    let fields: Vec<String> = store.with_untracked(|d| {
        counted
            .into_iter()
            .filter(|name| d.entity(name).is_some())
            .collect()
    });
    (!fields.is_empty()).then(|| view! {
        <fieldset class="migrate-volumes" data-testid="migrate-volumes">
            <legend>"Items per entity in the deployed tables (each one's \u{201c}Items in production\u{201d})"</legend>
            {fields.into_iter().map(|entity| view! { <VolumeField entity/> }).collect_view()}
        </fieldset>
    })
}

/// One entity's items, as its volume.
#[component]
fn VolumeField(entity: String) -> impl IntoView {
    let store = use_store();
    let error: RwSignal<Option<String>> = RwSignal::new(None);
    let shown = {
        let name = entity.clone();
        move || {
            store
                .with(|d| d.entity(&name).and_then(|e| e.volume))
                .map(|v| thousands(v.items))
                .unwrap_or_default()
        }
    };
    let change = {
        let name = entity.clone();
        move |ev: leptos::ev::Event| match crate::text::count(&event_target_value(&ev)) {
            Ok(items) => {
                error.set(None);
                let previous = store.with_untracked(|d| d.entity(&name).and_then(|e| e.volume));
                store.dispatch(Edit::SetEntityVolume {
                    entity: name.clone(),
                    volume: Volume::with_items(previous, items),
                });
            }
            Err(message) => error.set(Some(message)),
        }
    };
    view! {
        <label class="field inline">
            <span class="field-label">{entity.clone()}</span>
            <input class="input" type="text" inputmode="numeric" autocomplete="off"
                data-testid="migrate-volume" placeholder="unknown"
                aria-label=format!("Items of {entity}")
                aria-invalid=move || error.with(Option::is_some).to_string()
                prop:value=shown
                on:change=change
            />
        </label>
        {move || error.get().map(|message| view! { <p class="diagnostic error" role="alert">{message}</p> })}
    }
}

/// The write rate the durations are at, as `keyplan migrate --max-wcu` takes it.
#[component]
fn MaxWcu() -> impl IntoView {
    let session = use_session();
    let error: RwSignal<Option<String>> = RwSignal::new(None);
    let change = move |ev: leptos::ev::Event| match keyplan_core::migrate::parse_rate(
        &event_target_value(&ev),
    ) {
        Ok(rate) => {
            error.set(None);
            session.max_wcu.set(rate);
        }
        Err(message) => error.set(Some(format!(
            "Max WCU/s: {message}; the plan stays at {} WCU/s",
            units(session.max_wcu.get_untracked())
        ))),
    };
    view! {
        <label class="field inline">
            <span class="field-label">"Max WCU/s"</span>
            <input class="input" type="text" inputmode="decimal" autocomplete="off"
                data-testid="migrate-max-wcu"
                aria-label="Write units per second the migration may use"
                aria-invalid=move || error.with(Option::is_some).to_string()
                prop:value=move || units(session.max_wcu.get())
                on:change=change
            />
        </label>
        {move || error.get().map(|message| view! { <p class="diagnostic error" role="alert" data-testid="migrate-max-wcu-error">{message}</p> })}
    }
}
