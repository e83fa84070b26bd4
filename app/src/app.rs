//! The app shell: provides the store, the session and the library, wires the outside world
//! (autosave, shared links, keyboard shortcuts, files dropped on the window) and lays out the
//! panels. It holds no editing rules: shortcuts dispatch the same edits as the buttons.

use keyplan_core::Design;
use keyplan_core::edit::Edit;
use leptos::ev;
use leptos::prelude::*;
use leptos::wasm_bindgen::JsCast;

use crate::canvas::Canvas;
use crate::dialogs::Dialogs;
use crate::inspector::Inspector;
use crate::library::Library;
use crate::panels::{DataView, LeftPanel};
use crate::session::{CenterView, Dialog, Selection, Session, Toast};
use crate::storage;
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

/// Shows `message` for one frame, then the children: a view that computes for a while on a
/// large design (the sample data, the cost model) lets the tab switch paint first instead of
/// freezing the click.
#[component]
fn AfterPaint(message: &'static str, children: ChildrenFn) -> impl IntoView {
    let ready = RwSignal::new(false);
    // rAF runs before the frame is painted; the task it queues runs after. The view may be
    // gone by then (another tab chosen): try_set does nothing on a disposed signal.
    request_animation_frame(move || {
        set_timeout(
            move || {
                ready.try_set(true);
            },
            Default::default(),
        )
    });
    view! {
        <Show when=move || ready.get() fallback=move || view! { <p class="empty-note loading">{message}</p> }>
            {children()}
        </Show>
    }
}

/// Where the app starts: the design a shared link carries (as a new local design), else the
/// open local design, else the built-in example. The message says that a link's design is a
/// copy (issue 12), or explains a link that failed.
fn startup() -> (String, Design, Option<Toast>) {
    let warn = |message: String| Toast {
        message,
        error: true,
        notes: Vec::new(),
    };
    let mut message = None;
    if let Some(hash) = web_sys::window().and_then(|w| w.location().hash().ok())
        && let Some(payload) = hash.strip_prefix("#d=")
    {
        clear_hash();
        match crate::share::decode(payload) {
            Ok(design) => {
                let notice = Toast {
                    message: shared_copy_notice(&design.name),
                    error: false,
                    notes: Vec::new(),
                };
                return (storage::new_id(), design, Some(notice));
            }
            Err(e) => {
                message = Some(warn(format!(
                    "This link could not be opened ({e}). Your saved designs are untouched."
                )))
            }
        }
    }
    if let Some(id) = storage::current()
        && let Some(loaded) = storage::load(&id)
    {
        match loaded {
            Ok(design) => return (id, design, message),
            Err(e) => {
                message = Some(warn(format!(
                    "Your last design could not be read ({e}); it is kept in storage, and the example opened instead."
                )))
            }
        }
    }
    (storage::new_id(), keyplan_core::examples::first(), message)
}

/// What a user who opened a share link is told: it is their own copy.
fn shared_copy_notice(name: &str) -> String {
    format!(
        "Opened a shared copy of \u{201c}{name}\u{201d}: it is saved in this browser as a new design, and your changes do not reach whoever shared it"
    )
}

fn clear_hash() {
    if let Some(w) = web_sys::window()
        && let Ok(history) = w.history()
    {
        let path = w.location().pathname().unwrap_or_default();
        let _ =
            history.replace_state_with_url(&leptos::wasm_bindgen::JsValue::NULL, "", Some(&path));
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

/// Opens a file's text as a new local design: a keyplan design file, or anything
/// `keyplan_core::import` recognises (NoSQL Workbench, the mcp schema.json).
pub fn open_file_text(
    library: &Library,
    store: &Store,
    session: &Session,
    file_name: &str,
    text: &str,
) {
    match crate::import::read(text) {
        Ok((design, notes)) => {
            let name = design.name.clone();
            library.open_new(store, session, design);
            let opened = format!("Opened {file_name} as \u{201c}{name}\u{201d}");
            session.say_with_notes(
                match notes.len() {
                    0 => opened,
                    n => format!("{opened}, with {}:", crate::text::plural(n, "note")),
                },
                notes,
            );
        }
        Err(e) => session.warn(format!("{file_name} could not be opened: {e}")),
    }
}

/// Reads the files of a drop or a file picker and opens each.
pub fn open_files(library: Library, store: Store, session: Session, files: web_sys::FileList) {
    for i in 0..files.length() {
        let Some(file) = files.item(i) else { continue };
        leptos::task::spawn_local(async move {
            let name = file.name();
            match wasm_bindgen_futures::JsFuture::from(file.text()).await {
                Ok(value) => {
                    let text = value.as_string().unwrap_or_default();
                    open_file_text(&library, &store, &session, &name, &text);
                }
                Err(_) => session.warn(format!("{name} could not be read")),
            }
        });
    }
}

/// The whole app. On a first visit it shows the built-in order-management example.
#[component]
pub fn App() -> impl IntoView {
    let (id, design, message) = startup();
    let store = Store::new(design);
    let session = Session::new();
    let library = Library::new(id);
    provide_context(store);
    provide_context(crate::panels::SampleCache::new(store));
    provide_context(session);
    provide_context(library);
    if let Some(message) = message {
        session.toast.set(Some(message));
    }

    // Autosave: every change, so a reload or a crash loses nothing. A change is saved in the
    // browser's first idle moment after it (within half a second), so serialising the design
    // never delays the frame that shows the change; changes in between are saved once. During
    // a drag or while typing in a field (an open undo group) saves are spaced by 400 ms;
    // closing the group saves at the next idle moment. A save still pending when the page
    // goes away (reload, tab closed) happens then.
    let save_pending = StoredValue::new(false);
    let save = move || {
        save_pending.set_value(false);
        if let Err(e) = store.with_untracked(|d| library.save(d)) {
            session.warn(e);
        }
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
        if !store.is_recording() {
            when_idle(save_if_pending);
        } else if !already_pending {
            set_timeout(save_if_pending, std::time::Duration::from_millis(400));
        }
    });
    let pagehide =
        window_event_listener(ev::Custom::<web_sys::Event>::new("pagehide"), move |_| {
            save_if_pending()
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
            _ => {}
        }
    });
    on_cleanup(move || keys.remove());

    // A link pasted into this tab's address bar opens like a fresh visit would.
    let links = window_event_listener_untyped("hashchange", move |_| {
        let Some(hash) = web_sys::window().and_then(|w| w.location().hash().ok()) else {
            return;
        };
        let Some(payload) = hash.strip_prefix("#d=") else {
            return;
        };
        clear_hash();
        match crate::share::decode(payload) {
            Ok(design) => {
                let notice = shared_copy_notice(&design.name);
                library.open_new(&store, &session, design);
                session.say(notice);
            }
            Err(e) => session.warn(format!(
                "This link could not be opened ({e}). Your saved designs are untouched."
            )),
        }
    });
    on_cleanup(move || links.remove());

    let dragging_file = RwSignal::new(false);
    let on_drop = move |ev: web_sys::DragEvent| {
        ev.prevent_default();
        dragging_file.set(false);
        if let Some(files) = ev.data_transfer().and_then(|dt| dt.files()) {
            open_files(library, store, session, files);
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

    let center = move || {
        match session.center.get() {
        CenterView::Canvas => view! { <Canvas/> }.into_any(),
        CenterView::Data => view! {
            <AfterPaint message="Generating the sample data…"><DataView/></AfterPaint>
        }
        .into_any(),
        CenterView::Cost => view! {
            <AfterPaint message="Estimating the cost over the sample data…"><crate::panels::CostView/></AfterPaint>
        }
        .into_any(),
        CenterView::Run => view! { <crate::run::RunView/> }.into_any(),
    }
    };

    view! {
        <div
            class="app"
            on:dragover=on_dragover
            on:dragleave=move |_| dragging_file.set(false)
            on:drop=on_drop
        >
            <TopBar/>
            <div class="main">
                <LeftPanel/>
                <main class="center" aria-label="Design">
                    <crate::panels::CenterTabs/>
                    {center}
                </main>
                <Inspector/>
            </div>
            <Dialogs/>
            <crate::dialogs::ToastView/>
            <Show when=move || dragging_file.get()>
                <div class="drop-overlay" aria-hidden="true">
                    <div class="drop-message">"Drop a keyplan, NoSQL Workbench or mcp schema file to open it"</div>
                </div>
            </Show>
        </div>
    }
}
