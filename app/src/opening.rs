//! Opening files in the app: the bytes of a file picked or dropped, handed to
//! [`crate::import`]'s decisions (or to `keyplan serve`'s `POST /api/import` for a JavaScript
//! module), and the design that comes back opened as a new local design with a toast saying
//! what was read. Out of `app.rs` so the top bar and the dialogs that open designs do not
//! import the app back (issue 14).

use crate::library::Library;
use crate::session::Session;
use crate::store::Store;

/// Opens a file's text as a new local design: a keyplan design file, or anything
/// `keyplan_core::import` recognises (NoSQL Workbench, the mcp schema.json, CloudFormation,
/// Terraform, OneTable JSON). A JavaScript or TypeScript module (OneTable, ElectroDB) goes to
/// the keyplan server's `POST /api/import` when the app is served by it. A keyplan design
/// file stays linked to its file (`handle`, where the browser gave one): Save writes back to it.
pub fn open_file_text(
    library: &Library,
    store: &Store,
    session: &Session,
    file_name: &str,
    text: &str,
    handle: Option<leptos::wasm_bindgen::JsValue>,
) {
    let (library, store, session) = (*library, *store, *session);
    let (name, kept) = (file_name.to_string(), text.to_string());
    crate::import::read(file_name, text, move |read| {
        opened_or_not(&library, &store, &session, &name, &kept, read, handle);
    });
}

/// Opens what [`crate::import::read`] read, says why not, or hands a module to the server.
fn opened_or_not(
    library: &Library,
    store: &Store,
    session: &Session,
    file_name: &str,
    text: &str,
    read: Result<crate::import::Opened, crate::import::NotRead>,
    handle: Option<leptos::wasm_bindgen::JsValue>,
) {
    match read {
        Ok(opened_file) => show_opened(library, store, session, file_name, opened_file, handle),
        Err(crate::import::NotRead::Error(e)) => {
            session.warn(crate::import::not_opened(file_name, &e));
        }
        Err(crate::import::NotRead::Module) => {
            let (library, store, session) = (*library, *store, *session);
            let (file_name, body) = (
                file_name.to_string(),
                crate::import::request_body(file_name, text),
            );
            leptos::task::spawn_local(async move {
                // The Run panel's probe: is this page served by `keyplan serve`?
                match crate::api::engines().await {
                    crate::run::state::Engines::Available(_) => {}
                    crate::run::state::Engines::Unreachable(message) => {
                        return session.warn(crate::import::not_opened(&file_name, &message));
                    }
                    _ => return session.warn(crate::import::needs_server(&file_name)),
                }
                let answer = match crate::api::fetch("POST", "/api/import", Some(&body)).await {
                    Ok((status, answer)) => crate::import::from_server(status, &answer),
                    Err(message) => Err(message),
                };
                match answer {
                    Ok(opened_file) => {
                        show_opened(&library, &store, &session, &file_name, opened_file, None);
                    }
                    Err(e) => session.warn(crate::import::not_opened(&file_name, &e)),
                }
            });
        }
    }
}

/// Opens what was read as a new local design and says what it was, with every note.
fn show_opened(
    library: &Library,
    store: &Store,
    session: &Session,
    file_name: &str,
    opened_file: crate::import::Opened,
    handle: Option<leptos::wasm_bindgen::JsValue>,
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
/// with notes stays until it is dismissed.
pub fn say_opened(session: &Session, message: String, notes: Vec<String>) {
    session.say_with_notes(
        match notes.len() {
            0 => message,
            n => format!("{message}, with {}:", crate::text::plural(n, "note")),
        },
        notes,
    );
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
                    open_file_text(&library, &store, &session, &name, &text, None);
                }
                Err(_) => session.warn(format!("{name} could not be read")),
            }
        });
    }
}
