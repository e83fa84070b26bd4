//! Opening files in the app: the bytes of a file picked or dropped (or of the modules under a
//! dropped folder, found by [`folder`]), handed to
//! [`crate::import`]'s decisions (or to `keyplan serve`'s `POST /api/import` for a JavaScript
//! module), and the design that comes back opened as a new local design with a toast saying
//! what was read. Out of `app.rs` so the top bar and the dialogs that open designs do not
//! import the app back (issue 14).

mod folder;

use std::cell::Cell;

use leptos::wasm_bindgen::JsValue;

use crate::deferred::{Fetch, Hook};
use crate::library::Library;
use crate::session::Session;
use crate::store::Store;

pub use folder::dropped_entries;

/// What to open, and where it opens.
#[derive(Debug)]
pub struct Opening {
    pub library: Library,
    pub store: Store,
    pub session: Session,
    pub what: What,
}

/// What is opened.
#[derive(Debug)]
pub enum What {
    /// A file picked or dropped.
    File {
        file: web_sys::File,
        /// The browser's handle of the file, where it gave one: Save writes back to it.
        handle: Option<JsValue>,
    },
    /// A drop holding a folder: its modules, and the files dropped beside it, read together.
    Dropped(Vec<web_sys::FileSystemEntry>),
}

thread_local! {
    /// Opens a file: [`open_now`], in the module that holds it.
    static OPENER: Hook<fn(Opening) -> Fetch> = const { Cell::new(None) };
}

/// Says how this page opens a file ([`open_now`] in a module split off the first load, fetched
/// first); an error says why it could not be. Before the app is mounted.
pub fn provide_opener(open: fn(Opening) -> Fetch) {
    OPENER.set(Some(open));
}

/// Opens a file as a new local design: a keyplan design file, or anything
/// `keyplan_core::import` recognises (NoSQL Workbench, the mcp schema.json, CloudFormation,
/// Terraform, OneTable JSON), read by the worker from the `File` itself, so this thread never
/// copies its text (a 17.7 MB model cost it a 300 ms task: issue 19). A JavaScript or
/// TypeScript module (OneTable, ElectroDB) goes to the keyplan server's `POST /api/import`
/// when the app is served by it. A keyplan design file stays linked to its file (`handle`,
/// where the browser gave one): Save writes back to it.
///
/// What opens it ([`open_now`]) is in a module split off the first load (issue 19), fetched
/// after the first paint or by the first file opened; a file it could not be fetched for is
/// not opened, and the toast says why.
pub fn open_file(
    library: &Library,
    store: &Store,
    session: &Session,
    file: web_sys::File,
    handle: Option<JsValue>,
) {
    let name = file.name();
    open(library, store, session, What::File { file, handle }, name);
}

/// Opens a drop that holds a folder (issue 36): the JavaScript and TypeScript modules under
/// it, found as `keyplan import FOLDER` finds them, with any file dropped beside it, sent to
/// the keyplan server together and opened as one design.
pub fn open_dropped(
    library: &Library,
    store: &Store,
    session: &Session,
    entries: Vec<web_sys::FileSystemEntry>,
) {
    open(
        library,
        store,
        session,
        What::Dropped(entries),
        "The folder".to_string(),
    );
}

/// Opens `what` by the module that opens files, once fetched; says why `label` could not be.
fn open(library: &Library, store: &Store, session: &Session, what: What, label: String) {
    let session = *session;
    let opening = Opening {
        library: *library,
        store: *store,
        session,
        what,
    };
    leptos::task::spawn_local(async move {
        let opened = match crate::deferred::provided(&OPENER) {
            Ok(open) => open(opening).await,
            Err(why) => Err(why),
        };
        if let Err(why) = opened {
            session.refuse(crate::import::not_opened(&label, &why));
        }
    });
}

/// [`open_file`] and [`open_dropped`] in the module that opens files.
pub fn open_now(opening: Opening) {
    let Opening {
        library,
        store,
        session,
        what,
    } = opening;
    let (file, handle) = match what {
        What::File { file, handle } => (file, handle),
        What::Dropped(entries) => return send_dropped(library, store, session, entries),
    };
    let name = file.name();
    if crate::import::is_module_name(&name) {
        return send_module(library, store, session, file);
    }
    let sent = file.clone();
    crate::compute::import_file(&sent, move |answer| {
        match crate::import::from_worker(answer) {
            Ok(opened_file) => {
                show_opened(&library, &store, &session, &name, opened_file, handle);
            }
            Err(crate::import::NotRead::Error(e)) => {
                session.refuse(crate::import::not_opened(&name, &e));
            }
            // Core's word that it is a module though its name does not say so.
            Err(crate::import::NotRead::Module) => send_module(library, store, session, file),
        }
    });
}

/// Hands a JavaScript or TypeScript module to the keyplan server, which reads it (the app's
/// bundle leaves the JavaScript parser out), and opens what it read.
fn send_module(library: Library, store: Store, session: Session, file: web_sys::File) {
    leptos::task::spawn_local(async move {
        let file_name = file.name();
        let Some(text) = text_of(&file).await else {
            return session.refuse(format!("{file_name} could not be read"));
        };
        let body = crate::import::request_body(&file_name, &text);
        post_import(library, store, session, &file_name, body).await;
    });
}

/// Sends `body` to the keyplan server's `POST /api/import` and opens what it read, or says
/// why `label` (a file, "3 files") was not opened.
async fn post_import(library: Library, store: Store, session: Session, label: &str, body: String) {
    // The Run panel's probe: is this page served by `keyplan serve`?
    match crate::run::state::Engines::probe().await {
        crate::run::state::Engines::Available(_) => {}
        crate::run::state::Engines::Unreachable(message) => {
            return session.refuse(crate::import::not_opened(label, &message));
        }
        _ => return session.refuse(crate::import::needs_server(label)),
    }
    let answer = match crate::api::fetch("POST", "/api/import", Some(&body)).await {
        Ok((status, answer)) => crate::import::from_server(status, &answer),
        Err(message) => Err(message),
    };
    match answer {
        Ok(opened_file) => show_opened(&library, &store, &session, label, opened_file, None),
        Err(e) => session.refuse(crate::import::not_opened(label, &e)),
    }
}

/// Opens what was read as a new local design and says what it was, with every note.
fn show_opened(
    library: &Library,
    store: &Store,
    session: &Session,
    file_name: &str,
    opened_file: crate::import::Opened,
    handle: Option<JsValue>,
) {
    let opened = opened_file.message(file_name);
    let is_design_file = opened_file.is_design_file();
    let notes = opened_file.notes;
    if is_design_file {
        library.open_new_from(
            store,
            session,
            opened_file.design,
            Some(file_name.to_string()),
            handle,
        );
    } else {
        library.open_new(store, session, opened_file.design);
    }
    say_opened(session, opened, notes);
}

/// Says what was opened (`message`), listing every note the import left under it: a toast
/// with notes stays the time to read them (`Toast::lifetime`).
pub fn say_opened(session: &Session, message: String, notes: Vec<String>) {
    session.say_with_notes(
        match notes.len() {
            0 => message,
            n => format!("{message}, with {}:", crate::text::plural(n, "note")),
        },
        notes,
    );
}

/// Opens each file of a drop or a file picker. Several JavaScript or TypeScript modules
/// dropped or picked together are one application's (issue 36): they go to the server in one
/// request and open as one design, so what one imports from another is read.
pub fn open_files(library: Library, store: Store, session: Session, files: web_sys::FileList) {
    let all: Vec<web_sys::File> = (0..files.length()).filter_map(|i| files.item(i)).collect();
    let (modules, others): (Vec<_>, Vec<_>) = all
        .into_iter()
        .partition(|f| crate::import::is_module_name(&f.name()));
    for file in others {
        open_file(&library, &store, &session, file, None);
    }
    match modules.len() {
        0 => {}
        1 => {
            for file in modules {
                open_file(&library, &store, &session, file, None);
            }
        }
        _ => send_modules(library, store, session, modules),
    }
}

/// Hands several modules to the keyplan server in one request, which reads them together,
/// and opens the one design it read.
fn send_modules(library: Library, store: Store, session: Session, files: Vec<web_sys::File>) {
    leptos::task::spawn_local(async move {
        let label = format!("{} files", files.len());
        let named = files.into_iter().map(|f| (f.name(), f)).collect();
        send_texts(library, store, session, &label, named).await;
    });
}

/// Walks a drop that holds a folder and hands the modules found to the keyplan server in one
/// request, as [`send_modules`] does; a drop past the bounds is refused before a file is read.
fn send_dropped(
    library: Library,
    store: Store,
    session: Session,
    entries: Vec<web_sys::FileSystemEntry>,
) {
    leptos::task::spawn_local(async move {
        match folder::modules(entries).await {
            Ok(found) => send_texts(library, store, session, &found.label, found.files).await,
            Err(why) => session.refuse(crate::import::not_opened("The folder", &why)),
        }
    });
}

/// Reads the text of each file `(name, file)` and sends them together; says which could not
/// be read instead.
async fn send_texts(
    library: Library,
    store: Store,
    session: Session,
    label: &str,
    files: Vec<(String, web_sys::File)>,
) {
    let mut texts = Vec::with_capacity(files.len());
    for (name, file) in files {
        let Some(text) = text_of(&file).await else {
            return session.refuse(format!("{name} could not be read"));
        };
        texts.push((name, text));
    }
    let body = crate::import::request_body_files(&texts);
    post_import(library, store, session, label, body).await;
}

/// The text of `file`, or `None` when the browser would not read it.
async fn text_of(file: &web_sys::File) -> Option<String> {
    wasm_bindgen_futures::JsFuture::from(file.text())
        .await
        .ok()
        .and_then(|t| t.as_string())
}
