//! The top bar: the open design (its name, its file, whether it is edited since saved; a click
//! lists the local designs), the coverage summary, undo and redo, the file actions (new
//! from the gallery, open, save, save as, export, share), the theme and help.

use leptos::prelude::*;

use crate::coverage_summary;
use crate::library::use_library;
use crate::session::{Dialog, use_session};
use crate::store::use_store;

#[component]
pub fn TopBar() -> impl IntoView {
    let store = use_store();
    let session = use_session();
    let library = use_library();
    let summary = move || store.analysis.with(|a| coverage_summary(a));
    // Green only when every read is covered and no error finding stands (issue 12).
    let all_covered = move || store.analysis.with(|a| a.passes());
    let file_input: NodeRef<leptos::html::Input> = NodeRef::new();

    view! {
        <header class="topbar">
            <div class="brand">
                <svg class="brand-mark" viewBox="0 0 24 24" aria-hidden="true">
                    <rect x="2" y="4" width="9" height="7" rx="2"></rect>
                    <rect x="13" y="13" width="9" height="7" rx="2"></rect>
                    <path d="M11 7.5h3.5a2 2 0 0 1 2 2V13"></path>
                </svg>
                <span>"keyplan"</span>
            </div>
            <button
                class="switcher"
                data-testid="design-switcher"
                aria-label=move || format!(
                    "Your designs: {} open{}{}",
                    store.with(|d| d.name.clone()),
                    library.entry.with(|e| e.file_name.clone().map(|f| format!(", file {f}")).unwrap_or_default()),
                    if library.edited.get() { ", edited since saved" } else { "" },
                )
                title="Your designs: open, rename, duplicate, delete"
                on:click=move |_| session.dialog.set(Some(Dialog::Designs))
            >
                <span class="switcher-name" data-testid="design-title">{move || store.with(|d| d.name.clone())}</span>
                {move || library.entry.with(|e| e.file_name.clone()).map(|file| view! {
                    <span class="switcher-file" data-testid="file-name">{file}</span>
                })}
                <Show when=move || library.edited.get() && library.entry.with(|e| e.file_name.is_some())>
                    <span class="edited-dot" data-testid="edited" title="Edited since it was saved">"● edited"</span>
                </Show>
            </button>
            <p
                class="coverage"
                class:all-covered=all_covered
                data-testid="coverage-summary"
                title="Reads served by GetItem or Query, out of all reads"
            >
                {summary}
            </p>
            <crate::live::LivePresence/>
            <div class="toolbar" role="toolbar" aria-label="Edit">
                <button
                    class="icon-button"
                    aria-label="Undo (Ctrl+Z)"
                    title="Undo (Ctrl+Z)"
                    disabled=move || !store.can_undo()
                    on:click=move |_| store.undo()
                >
                    <svg viewBox="0 0 24 24" aria-hidden="true"><path d="M9 14 4 9l5-5"></path><path d="M4 9h10.5a5.5 5.5 0 0 1 0 11H11"></path></svg>
                </button>
                <button
                    class="icon-button"
                    aria-label="Redo (Shift+Ctrl+Z)"
                    title="Redo (Shift+Ctrl+Z)"
                    disabled=move || !store.can_redo()
                    on:click=move |_| store.redo()
                >
                    <svg viewBox="0 0 24 24" aria-hidden="true"><path d="m15 14 5-5-5-5"></path><path d="M20 9H9.5a5.5 5.5 0 0 0 0 11H13"></path></svg>
                </button>
            </div>
            <div class="toolbar actions" role="toolbar" aria-label="File">
                <button class="button" on:click=move |_| session.dialog.set(Some(Dialog::Gallery))>
                    "New"
                </button>
                <button
                    class="button"
                    aria-label="Open a file"
                    on:click=move |_| {
                        // The browser's picker where it has one (Save then writes back to the
                        // file), else the file input.
                        leptos::task::spawn_local(async move {
                            match crate::save::pick_file().await {
                                Some(Ok((handle, file))) => crate::opening::open_file(
                                    &library, &store, &session, file, Some(handle),
                                ),
                                Some(Err(e)) if e.is_empty() => {}
                                Some(Err(e)) => session.refuse(format!("The file could not be read: {e}")),
                                None => {
                                    if let Some(input) = file_input.get_untracked() {
                                        input.click();
                                    }
                                }
                            }
                        });
                    }
                >
                    "Open…"
                </button>
                <input
                    node_ref=file_input
                    type="file"
                    accept=crate::import::ACCEPT
                    multiple
                    class="visually-hidden"
                    data-testid="file-input"
                    aria-label="Design file to open"
                    tabindex="-1"
                    on:change=move |ev| {
                        let input = event_target::<web_sys::HtmlInputElement>(&ev);
                        if let Some(files) = input.files() {
                            crate::opening::open_files(library, store, session, files);
                        }
                        input.set_value("");
                    }
                />
                {[
                    (false, "save", "Save the design file (Ctrl+S)", "Save"),
                    (true, "save-as", "Save the design file under another name (Shift+Ctrl+S)", "Save as…"),
                ]
                    .map(|(save_as, testid, title, label)| view! {
                        <button
                            class="button"
                            data-testid=testid
                            title=title
                            on:click=move |_| crate::save::save(library, store, session, save_as)
                        >
                            {label}
                        </button>
                    })
                    .collect_view()}
                <button class="button" on:click=move |_| session.dialog.set(Some(Dialog::Export))>
                    "Export"
                </button>
                <button class="button primary" data-testid="share" on:click=move |_| session.dialog.set(Some(Dialog::Share))>
                    "Share"
                </button>
                <crate::theme::ThemeSwitch/>
                <button
                    class="icon-button"
                    aria-label="Keyboard shortcuts (?)"
                    title="Keyboard shortcuts (?)"
                    on:click=move |_| session.dialog.set(Some(Dialog::Help))
                >
                    "?"
                </button>
            </div>
        </header>
    }
}
