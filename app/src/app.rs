//! The app shell: provides the store, the session and the library, wires the outside world
//! (autosave, shared links, keyboard shortcuts, files dropped on the window) and lays out the
//! panels. It holds no editing rules: shortcuts dispatch the same edits as the buttons.

use keyplan_core::edit::Edit;
use leptos::ev;
use leptos::prelude::*;
use leptos::wasm_bindgen::JsCast;

use crate::canvas::Canvas;
use crate::deferred::Deferred;
use crate::dialogs::Dialogs;
use crate::inspector::Inspector;
use crate::library::Library;
use crate::panels::LeftPanel;
use crate::session::{CenterView, Dialog, Selection, Session};
use crate::store::Store;
use crate::topbar::TopBar;

/// Runs `f` in the browser's first idle moment, at most half a second from now; after the next
/// frame where there is no `requestIdleCallback` (Safari).
fn when_idle(f: impl FnOnce() + 'static) {
    let Some(window) = web_sys::window() else {
        return;
    };
    if js_sys::Reflect::has(&window, &"requestIdleCallback".into()).unwrap_or(false) {
        let options = web_sys::IdleRequestOptions::new();
        options.set_timeout(500);
        let callback = wasm_bindgen::closure::Closure::once_into_js(f);
        let _ = window.request_idle_callback_with_options(callback.unchecked_ref(), &options);
    } else {
        // rAF runs before the frame is painted; the task it queues runs after.
        request_animation_frame(move || set_timeout(f, Default::default()));
    }
}

/// True when the key event comes from a text field (typing there is not a shortcut).
fn typing_in_field(ev: &web_sys::KeyboardEvent) -> bool {
    ev.target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .is_some_and(|el| {
            matches!(el.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT")
                || el.has_attribute("contenteditable")
        })
}

/// Deletes what is selected: entities, or a pattern. One undo step.
fn delete_selection(store: &Store, session: &Session) {
    let edit = match session.selection.get_untracked() {
        Selection::Entities(names) => Edit::Batch(
            names
                .into_iter()
                .map(|name| Edit::RemoveEntity { name })
                .collect(),
        ),
        Selection::Pattern(name) => Edit::RemovePattern { name },
        _ => return,
    };
    if store.dispatch(edit) {
        session.select(Selection::None);
    }
}

/// The whole app: reads the local designs (an asynchronous database), then shows the editor.
/// On a first visit it shows the built-in order-management example.
#[component]
pub fn App() -> impl IntoView {
    let started = RwSignal::new_local(None::<crate::library::Start>);
    leptos::task::spawn_local(async move {
        let link = crate::share::linked_design().await;
        started.set(Some(crate::library::start(link).await));
    });
    move || match started.get() {
        Some(start) => view! { <Editor start=start/> }.into_any(),
        None => view! { <p class="empty-note loading app-loading">"Opening your designs…"</p> }
            .into_any(),
    }
}

/// The editor around the design `start` opened.
#[component]
fn Editor(
    /// What storage held when the app started.
    start: crate::library::Start,
) -> impl IntoView {
    let store = Store::new(start.design.clone());
    let session = Session::new();
    let library = Library::new(&start);
    let message = start.message;
    provide_context(store);
    provide_context(session);
    // The worker (issue 19) loads in the first idle moment after the first paint, so neither
    // the paint nor the first export or data view waits for it.
    let worker_status = RwSignal::new(crate::compute::Status::Idle);
    crate::compute::init(worker_status);
    provide_context(crate::compute::WorkerStatus(worker_status));
    // The views split off the first load (`deferred`), fetched then too, so that opening one
    // does not wait for them: "fetching", then "fetched" or "incomplete" (one failed; it is
    // fetched again when it is opened).
    let deferred = RwSignal::new("fetching");
    request_animation_frame(move || {
        when_idle(move || {
            crate::compute::start();
            crate::warm::warm_up();
            crate::deferred::fetch_all(move |all| {
                deferred.set(if all { "fetched" } else { "incomplete" })
            });
        })
    });
    // KP024's reads on the sample, measured by the worker for each revision of a design with a
    // filtered read (`Store::measured` drops those for a revision the design has left).
    Effect::new(move |_| {
        let rev = store.revision(crate::store::Tracks::Semantics);
        let job = store.with_untracked(|d| {
            keyplan_core::findings::measures_anything(d)
                .then(|| crate::jobs::Measure { design: d.clone() })
        });
        let Some(job) = job else { return };
        let ask = move || {
            crate::compute::once(rev, job, move |answer| {
                if let Ok(measured) = answer {
                    store.measured(rev, measured);
                }
            });
        };
        // Not before the first paint: the worker is started after it, not by this.
        if worker_status.get_untracked() == crate::compute::Status::Idle {
            request_animation_frame(move || when_idle(ask));
        } else {
            ask();
        }
    });
    // The reads given as PartiQL statements, judged by the worker (issue 40: this module has no
    // parser) for each revision of a design that has one, at the first idle moment after the
    // paint: a keystroke is shown at once and judged behind it; the answer goes into the
    // analysis (verdicts, coverage, findings), one for a revision the design has left dropped
    // (`Store::partiql_judged`).
    Effect::new(move |_| {
        let rev = store.revision(crate::store::Tracks::Semantics);
        if !store.with_untracked(keyplan_core::analysis::statements::states_any) {
            store.partiql_judged(rev, Default::default());
            return;
        }
        request_animation_frame(move || {
            when_idle(move || {
                // Typed on since: the next revision's effect asks for it.
                if store.revision_untracked(crate::store::Tracks::Semantics) != rev {
                    return;
                }
                let design = store.design();
                crate::compute::once(rev, crate::jobs::Partiql { design }, move |answer| {
                    if let Ok(Some(judged)) = answer {
                        store.partiql_judged(rev, judged);
                    }
                });
            })
        });
    });
    provide_context(library);
    // A live room (issue 38): joined here when the address holds a room link.
    let live = crate::live::Live::provide(store, session, library);
    if let Some(message) = message {
        session.warn(message);
    }
    if let Some(notice) = start.notice.clone() {
        session.say(notice);
    }

    // Autosave: every change, into the browser's database (`storage`), so a reload or a crash
    // loses nothing. A change is saved in the
    // browser's first idle moment after it (within half a second), so serialising the design
    // never delays the frame that shows the change; changes in between are saved once. During
    // a drag or while typing in a field (an open undo group) saves are spaced by 400 ms;
    // closing the group saves at the next idle moment. A save still pending when the page
    // goes away (reload, tab closed) happens then, into a synchronous journal beside the
    // database's asynchronous write (see `storage`). A write the browser refuses raises the
    // library's problem banner, once, not a toast per edit.
    let save_pending = StoredValue::new(false);
    let save = move || {
        save_pending.set_value(false);
        store.with_untracked(|d| library.save(d));
    };
    let save_if_pending = move || {
        if save_pending.get_value() {
            save();
        }
    };
    Effect::new(move |_| {
        store.track();
        let already_pending = save_pending.get_value();
        save_pending.set_value(true);
        library.mark_pending();
        if !store.is_recording() {
            when_idle(save_if_pending);
        } else if !already_pending {
            set_timeout(save_if_pending, std::time::Duration::from_millis(400));
        }
    });
    let pagehide =
        window_event_listener(ev::Custom::<web_sys::Event>::new("pagehide"), move |_| {
            if save_pending.get_value() {
                save_pending.set_value(false);
                store.with_untracked(|d| library.flush(d));
            }
        });
    on_cleanup(move || pagehide.remove());
    // A refused edit explains itself.
    Effect::new(move |_| {
        if let Some(reason) = store.refusal.get() {
            session.warn(reason);
        }
    });

    let keys = window_event_listener(ev::keydown, move |ev| {
        let command = ev.ctrl_key() || ev.meta_key();
        let key = ev.key();
        if command && (key == "z" || key == "Z") {
            ev.prevent_default();
            if ev.shift_key() {
                store.redo();
            } else {
                store.undo();
            }
            return;
        }
        if command && (key == "s" || key == "S") {
            ev.prevent_default();
            crate::save::save(library, store, session, ev.shift_key());
            return;
        }
        if command && (key == "y" || key == "Y") {
            ev.prevent_default();
            store.redo();
            return;
        }
        if key == "Escape" {
            if session.card_drag.get_value().is_some() {
                // Abandon the drag: every card goes back to where it started, and there is
                // nothing to undo.
                session.card_drag.set_value(None);
                store.cancel();
            } else if session.dialog.get_untracked().is_some() {
                session.dialog.set(None);
            } else if !typing_in_field(&ev) {
                session.select(Selection::None);
            }
            return;
        }
        if typing_in_field(&ev) || command || ev.alt_key() {
            return;
        }
        match key.as_str() {
            "?" => session.dialog.set(Some(Dialog::Help)),
            "f" | "F" => session.fit(),
            "Delete" | "Backspace" => delete_selection(&store, &session),
            "n" | "N" => crate::canvas::add_entity(&store, &session),
            "p" | "P" => crate::panels::add_pattern(&store, &session),
            "1" => session.center.set(CenterView::Canvas),
            "2" => session.center.set(CenterView::Data),
            "3" => session.center.set(CenterView::Cost),
            "4" => session.center.set(CenterView::Run),
            "5" => session.center.set(CenterView::Migrate),
            _ => {}
        }
    });
    on_cleanup(move || keys.remove());

    // A link pasted into this tab's address bar opens like a fresh visit would.
    let links = window_event_listener_untyped("hashchange", move |_| {
        leptos::task::spawn_local(async move {
            let Some(linked) = crate::share::linked_design().await else {
                return;
            };
            match linked {
                Ok(design) => {
                    let notice = crate::share::shared_copy_notice(&design.name);
                    library.open_new(&store, &session, design);
                    session.say(notice);
                }
                Err(e) => session.warn(format!(
                    "This link could not be opened ({e}). Your saved designs are untouched."
                )),
            }
        });
    });
    on_cleanup(move || links.remove());

    let dragging_file = RwSignal::new(false);
    let on_drop = move |ev: web_sys::DragEvent| {
        ev.prevent_default();
        dragging_file.set(false);
        let Some(data) = ev.data_transfer() else {
            return;
        };
        // A folder is walked (issue 36); files alone open as picked files do.
        let entries = crate::opening::dropped_entries(&data);
        if entries.iter().any(web_sys::FileSystemEntry::is_directory) {
            crate::opening::open_dropped(&library, &store, &session, entries);
        } else if let Some(files) = data.files() {
            crate::opening::open_files(library, store, session, files);
        }
    };
    let on_dragover = move |ev: web_sys::DragEvent| {
        let has_files = ev
            .data_transfer()
            .is_some_and(|dt| dt.types().includes(&"Files".into(), 0));
        if has_files {
            ev.prevent_default();
            dragging_file.set(true);
        }
    };

    // The canvas is drawn once and kept (stowed, canvas.rs) behind the other views: drawing its
    // cards again on every return to it was a long task (72-148 ms, 100 entities, issue 19), and
    // the view the user had (zoom, pan) was fitted anew.
    let center = move || match session.center.get() {
        CenterView::Canvas => ().into_any(),
        CenterView::Data => crate::deferred::show(Deferred::Data, || ()).into_any(),
        CenterView::Cost => crate::deferred::show(Deferred::Cost, || ()).into_any(),
        CenterView::Run => crate::deferred::show(Deferred::Run, || ()).into_any(),
        CenterView::Migrate => crate::deferred::show(Deferred::Migrate, || ()).into_any(),
    };

    view! {
        <div
            class="app"
            data-storage=move || library.state.get().as_str()
            data-worker=move || worker_status.with(crate::compute::Status::name)
            data-deferred=move || deferred.get()
            data-access=move || match store.access.get() {
                Some(keyplan_core::collab::protocol::Access::View) => "view",
                Some(keyplan_core::collab::protocol::Access::Edit) => "edit",
                None => "local",
            }
            data-live=move || live.status.get().as_str()
            data-live-pending=move || store.unacknowledged()
            on:dragover=on_dragover
            on:dragleave=move |_| dragging_file.set(false)
            on:drop=on_drop
        >
            <TopBar/>
            <div class="main">
                <LeftPanel/>
                <main class="center" aria-label="Design">
                    <crate::panels::CenterTabs/>
                    <Canvas/>
                    {center}
                </main>
                <Inspector/>
            </div>
            <Dialogs/>
            <crate::dialogs::designs::StorageNotices/>
            <crate::dialogs::ToastView/>
            <Show when=move || dragging_file.get()>
                <div class="drop-overlay" aria-hidden="true">
                    <div class="drop-message">"Drop a keyplan design, a NoSQL Workbench model, an mcp schema, a OneTable, ElectroDB, DynamoDB-Toolbox or Dynamoose module, a CloudFormation template or Terraform file to open it"</div>
                </div>
            </Show>
        </div>
    }
}
