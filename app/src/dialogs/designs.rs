//! The design list (every local design with the date it last changed: search, open, rename,
//! duplicate, delete, several selected and deleted together), the confirmation before a delete, and the notices that must not be
//! missed: a design the browser would not keep (with Save and "drop the imported sample
//! items") and a delete that can still be undone.

use keyplan_core::edit::Edit;
use leptos::prelude::*;
use leptos::wasm_bindgen::JsValue;

use crate::library::use_library;
use crate::session::{Dialog, use_session};
use crate::storage::LocalDesign;
use crate::store::use_store;

/// "1 Dec 2026, 10:42" in the user's locale.
fn when(modified: f64) -> String {
    let date = js_sys::Date::new(&JsValue::from_f64(modified));
    let options = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&options, &"dateStyle".into(), &"medium".into());
    let _ = js_sys::Reflect::set(&options, &"timeStyle".into(), &"short".into());
    date.to_locale_string("default", &options).into()
}

/// The list of local designs, in a dialog.
#[component]
pub fn Designs() -> impl IntoView {
    let library = use_library();
    let session = use_session();
    let store = use_store();
    let renaming = RwSignal::new(None::<String>);
    let query = RwSignal::new(String::new());
    // The designs ticked for deleting together, and whether the delete is being confirmed.
    let selected = RwSignal::new(Vec::<String>::new());
    let confirming = RwSignal::new(false);
    let row = move |d: LocalDesign| {
        let id = d.id.clone();
        let ticked = {
            let id = id.clone();
            move || selected.with(|s| s.contains(&id))
        };
        let tick = {
            let id = id.clone();
            move |ev: web_sys::Event| {
                let on = event_target_checked(&ev);
                confirming.set(false);
                selected.update(|s| {
                    s.retain(|x| *x != id);
                    if on {
                        s.push(id.clone());
                    }
                });
            }
        };
        let select_label = format!("Select {}", d.name);
        let is_open = {
            let id = id.clone();
            move || library.current.get() == id
        };
        let open = {
            let id = id.clone();
            move |_| {
                if library.current.get_untracked() != id {
                    library.switch(store, session, id.clone());
                }
                session.dialog.set(None);
            }
        };
        let editing = {
            let id = id.clone();
            move || renaming.get().as_deref() == Some(id.as_str())
        };
        let (rename_id, duplicate_id) = (id.clone(), id.clone());
        let name = d.name.clone();
        let label = format!("Rename {}", d.name);
        let file = d.file_name.clone().map(|f| format!(" · {f}"));
        view! {
            <li class="design-row" class:open=is_open.clone() data-testid="design-row">
                <input type="checkbox" class="design-select" data-testid="design-select" aria-label=select_label
                    prop:checked=ticked on:change=tick/>
                <Show
                    when=editing
                    fallback={
                        let name = name.clone();
                        let open = open.clone();
                        move || view! {
                            <button class="design-open" data-testid="design-open" on:click=open.clone()>
                                <span class="design-name" data-testid="design-name">{name.clone()}</span>
                            </button>
                        }
                    }
                >
                    <input
                        class="input"
                        aria-label=label.clone()
                        data-testid="design-rename-input"
                        value=name.clone()
                        autofocus
                        on:keydown={
                            let id = rename_id.clone();
                            move |ev: web_sys::KeyboardEvent| {
                                if ev.key() == "Enter" {
                                    library.rename(store, session, id.clone(), event_target_value(&ev));
                                    renaming.set(None);
                                } else if ev.key() == "Escape" {
                                    ev.stop_propagation();
                                    renaming.set(None);
                                }
                            }
                        }
                    />
                </Show>
                <span class="hint design-meta">{when(d.modified)}{file.clone()}</span>
                <span class="design-actions">
                    <button class="button small" data-testid="design-rename" on:click={
                        let id = id.clone();
                        move |_| renaming.set(Some(id.clone()))
                    }>"Rename"</button>
                    <button class="button small" data-testid="design-duplicate" on:click={
                        let id = duplicate_id.clone();
                        move |_| {
                            library.duplicate(store, session, id.clone());
                            session.dialog.set(None);
                        }
                    }>"Duplicate"</button>
                </span>
            </li>
        }
    };
    view! {
        <div class="designs">
            <p class="hint">"Designs kept in this browser, the most recently changed first. Save (Ctrl+S) writes the open one to a file."</p>
            <input class="input design-search" type="search" placeholder="Search designs" aria-label="Search designs"
                data-testid="design-search" on:input=move |ev| query.set(event_target_value(&ev))/>
            <ul class="plain-list design-list" aria-label="Local designs">
                <For
                    each=move || {
                        let query = query.get();
                        library.designs.with(|list| {
                            list.iter().filter(|d| crate::library::matches(d, &query)).cloned().collect::<Vec<_>>()
                        })
                    }
                    key=|d| (d.id.clone(), d.name.clone(), d.modified.to_bits(), d.file_name.clone())
                    children=row
                />
            </ul>
            {move || {
                let query = query.get();
                (!query.trim().is_empty()
                    && !library.designs.with(|list| list.iter().any(|d| crate::library::matches(d, &query))))
                .then(|| view! { <p class="hint">{format!("No design matches \u{201c}{}\u{201d}", query.trim())}</p> })
            }}
            {move || {
                let n = selected.with(Vec::len);
                let designs = crate::text::plural(n, "design");
                (n > 0).then(|| if confirming.get() {
                    view! {
                        <div class="dialog-actions confirm-selected">
                            <span>{format!("Delete {designs} from this browser? Their files, if you saved them, stay where they are.")}</span>
                            <button class="button" on:click=move |_| confirming.set(false)>"Keep them"</button>
                            <button class="button danger" data-testid="confirm-delete-selected" on:click=move |_| {
                                let ids = selected.get_untracked();
                                selected.set(Vec::new());
                                confirming.set(false);
                                session.dialog.set(None);
                                library.delete_many(store, session, ids);
                            }>"Delete"</button>
                        </div>
                    }.into_any()
                } else {
                    view! {
                        <div class="dialog-actions">
                            <button class="button danger" data-testid="delete-selected" on:click=move |_| confirming.set(true)>
                                {format!("Delete {designs} selected…")}
                            </button>
                        </div>
                    }.into_any()
                })
            }}
            <div class="dialog-actions">
                <super::EngineImportEntry card=false/>
                <button class="button danger" data-testid="delete-design" on:click=move |_| session.dialog.set(Some(Dialog::ConfirmDelete))>
                    "Delete the open design…"
                </button>
                <button class="button" on:click=move |_| {
                    session.dialog.set(None);
                    crate::save::save(library, store, session, true);
                }>"Save as…"</button>
            </div>
        </div>
    }
}

/// Asks before the open design is deleted from the browser; it can be restored afterwards.
#[component]
pub fn ConfirmDelete() -> impl IntoView {
    let library = use_library();
    let session = use_session();
    let store = use_store();
    let name = store.with_untracked(|d| d.name.clone());
    view! {
        <div class="confirm">
            <p>{format!("Delete \u{201c}{name}\u{201d} from this browser? Its file, if you saved one, stays where it is. You can undo the delete right after.")}</p>
            <div class="dialog-actions">
                <button class="button" data-testid="confirm-cancel" on:click=move |_| session.dialog.set(None)>"Keep it"</button>
                <button class="button danger" data-testid="confirm-delete" on:click=move |_| {
                    session.dialog.set(None);
                    library.delete_current(store, session);
                }>"Delete"</button>
            </div>
        </div>
    }
}

/// The storage problem, while it lasts, and the undo of a delete.
#[component]
pub fn StorageNotices() -> impl IntoView {
    let library = use_library();
    let session = use_session();
    let store = use_store();
    let has_samples = move || store.with(|d| d.samples.values().any(|items| !items.is_empty()));
    let drop_samples = move |_| {
        let mut design = store.design();
        design.samples.clear();
        store.dispatch(Edit::ReplaceDesign(Box::new(design)));
    };
    // The undo offer stays ten seconds, unless another delete replaces it.
    Effect::new(move |_| {
        if let Some(deleted) = library.deleted.get() {
            let id = deleted.entry.id;
            set_timeout(
                move || {
                    if library
                        .deleted
                        .get_untracked()
                        .is_some_and(|d| d.entry.id == id)
                    {
                        library.deleted.set(None);
                    }
                },
                std::time::Duration::from_secs(10),
            );
        }
    });
    view! {
        {move || library.problem.get().map(|message| view! {
            <div class="storage-problem" role="alert" data-testid="storage-problem">
                <p>{message}</p>
                <div class="dialog-actions">
                    <button class="button primary" data-testid="problem-save" on:click=move |_| crate::save::save(library, store, session, false)>"Save as a file"</button>
                    <Show when=has_samples>
                        <button class="button" data-testid="drop-samples" on:click=drop_samples>"Drop the imported sample items"</button>
                    </Show>
                </div>
            </div>
        })}
        {move || library.deleted.get().map(|deleted| view! {
            <div class="toast undo-toast" role="status" data-testid="undo-delete-toast">
                <span>{format!("Deleted \u{201c}{}\u{201d} from this browser", deleted.entry.name)}</span>
                <button class="button small" data-testid="undo-delete" on:click=move |_| library.undo_delete(store, session)>"Undo"</button>
            </div>
        })}
    }
}
