//! Save and Save as: the open design as a `*.keyplan.json` file, exactly the bytes `keyplan`
//! writes for it (`keyplan_core::file::to_string`).
//!
//! Where the browser lets a page write files (the File System Access API, Chromium), Save writes
//! back to the file the design was opened from or last saved to, and Save as asks where with the
//! browser's save picker; elsewhere both download the file. The pickers (`showOpenFilePicker`,
//! `showSaveFilePicker`) are unstable in web-sys, so they are looked up on `window` at run time:
//! a browser without them simply downloads.

use leptos::prelude::*;
use leptos::wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use crate::library::Library;
use crate::session::Session;
use crate::store::Store;

/// Offers `text` as a file download named `file_name`.
pub fn download(file_name: &str, content_type: &str, text: &str) -> Result<(), JsValue> {
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(content_type);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob)?;
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or_else(|| JsValue::from_str("no document"))?;
    let a: web_sys::HtmlAnchorElement = document.create_element("a")?.unchecked_into();
    a.set_href(&url);
    a.set_download(file_name);
    a.click();
    // Revoked after the download has started, not before.
    let revoke = url.clone();
    set_timeout(
        move || {
            let _ = web_sys::Url::revoke_object_url(&revoke);
        },
        std::time::Duration::from_secs(60),
    );
    Ok(())
}

/// `window[name]` when it is a function (a File System Access picker).
fn picker(name: &str) -> Option<js_sys::Function> {
    let window = web_sys::window()?;
    js_sys::Reflect::get(&window, &JsValue::from_str(name))
        .ok()?
        .dyn_into::<js_sys::Function>()
        .ok()
}

/// The file types a picker offers, as (description, MIME type, extensions): Save writes a
/// keyplan design; Open reads every format core reads.
const SAVE_TYPES: &[(&str, &str, &[&str])] = &[("keyplan design", "application/json", &[".json"])];
const OPEN_TYPES: &[(&str, &str, &[&str])] = &[
    (
        "keyplan design, NoSQL Workbench model or mcp schema",
        "application/json",
        &[".json"],
    ),
    (
        "CloudFormation template",
        "application/yaml",
        &[".yaml", ".yml", ".template"],
    ),
    ("Terraform configuration", "text/plain", &[".tf"]),
    (
        "OneTable, ElectroDB, DynamoDB-Toolbox or Dynamoose module",
        "text/javascript",
        &[".js", ".mjs", ".cjs", ".ts", ".mts", ".cts"],
    ),
];

fn picker_options(offered: &[(&str, &str, &[&str])], suggested_name: Option<&str>) -> JsValue {
    let types = js_sys::Array::new();
    for (description, mime, extensions) in offered {
        let accept = js_sys::Object::new();
        let list: js_sys::Array = extensions.iter().map(|e| JsValue::from_str(e)).collect();
        let _ = js_sys::Reflect::set(&accept, &JsValue::from_str(mime), &list);
        let kind = js_sys::Object::new();
        let _ = js_sys::Reflect::set(
            &kind,
            &"description".into(),
            &JsValue::from_str(description),
        );
        let _ = js_sys::Reflect::set(&kind, &"accept".into(), &accept);
        types.push(&kind);
    }
    let options = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&options, &"types".into(), &types);
    if let Some(name) = suggested_name {
        let _ = js_sys::Reflect::set(&options, &"suggestedName".into(), &name.into());
    }
    options.into()
}

/// True when the user closed a picker without choosing (not an error to report).
fn is_abort(e: &JsValue) -> bool {
    js_sys::Reflect::get(e, &"name".into())
        .ok()
        .and_then(|n| n.as_string())
        .is_some_and(|n| n == "AbortError")
}

/// A JavaScript error in words: its message, or what was thrown when it is not an `Error`.
pub fn describe(e: &JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "the browser refused".to_string())
}

/// Calls `handle[method]({ mode: "readwrite" })` if the browser has it, awaiting the answer.
async fn permission(handle: &JsValue, method: &str) -> Option<String> {
    let f = js_sys::Reflect::get(handle, &method.into())
        .ok()?
        .dyn_into::<js_sys::Function>()
        .ok()?;
    let descriptor = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&descriptor, &"mode".into(), &"readwrite".into());
    let promise: js_sys::Promise = f.call1(handle, &descriptor).ok()?.dyn_into().ok()?;
    JsFuture::from(promise).await.ok()?.as_string()
}

/// Writes `text` to the file behind `handle` (asking for permission when the browser wants it).
async fn write(handle: &JsValue, text: &str) -> Result<(), JsValue> {
    if permission(handle, "queryPermission").await.as_deref() == Some("prompt")
        && permission(handle, "requestPermission").await.as_deref() != Some("granted")
    {
        return Err(JsValue::from_str(
            "the browser did not allow writing to the file",
        ));
    }
    let file: web_sys::FileSystemFileHandle = handle.clone().dyn_into()?;
    let stream: web_sys::FileSystemWritableFileStream =
        JsFuture::from(file.create_writable()).await?.dyn_into()?;
    JsFuture::from(stream.write_with_str(text)?).await?;
    let close: js_sys::Function = js_sys::Reflect::get(&stream, &"close".into())?.dyn_into()?;
    JsFuture::from(close.call0(&stream)?.unchecked_into::<js_sys::Promise>()).await?;
    Ok(())
}

fn handle_name(handle: &JsValue) -> Option<String> {
    js_sys::Reflect::get(handle, &"name".into())
        .ok()?
        .as_string()
}

/// Saves the open design as a file: back to its own file (Save), or wherever the user says
/// (`save_as`, or a design that has no file yet).
pub fn save(library: Library, store: Store, session: Session, save_as: bool) {
    let design = store.design();
    let text = keyplan_core::file::to_string(&design);
    let name = library
        .entry
        .with_untracked(|e| e.file_name.clone())
        .unwrap_or_else(|| crate::storage::default_file_name(&design));
    let known = if save_as {
        None
    } else {
        library.handle.get_value()
    };
    leptos::task::spawn_local(async move {
        let handle = match known {
            Some(handle) => Some(handle),
            None => match picker("showSaveFilePicker") {
                Some(show) => {
                    let window = web_sys::window().map(JsValue::from).unwrap_or_default();
                    let chosen = match show.call1(&window, &picker_options(SAVE_TYPES, Some(&name)))
                    {
                        Ok(promise) => {
                            JsFuture::from(promise.unchecked_into::<js_sys::Promise>()).await
                        }
                        Err(e) => Err(e),
                    };
                    match chosen {
                        Ok(handle) => Some(handle),
                        Err(e) if is_abort(&e) => return,
                        // A picker that fails (no user gesture, a policy) leaves the download.
                        Err(_) => None,
                    }
                }
                None => None,
            },
        };
        match handle {
            Some(handle) => match write(&handle, &text).await {
                Ok(()) => {
                    let file = handle_name(&handle).unwrap_or(name);
                    session.say(format!("Saved {file}"));
                    library.saved_to_file(file, &text, Some(handle));
                }
                Err(e) => {
                    session.warn(format!(
                        "{name} could not be written ({}): it was downloaded instead",
                        describe(&e)
                    ));
                    downloaded(library, session, &name, &text);
                }
            },
            None => downloaded(library, session, &name, &text),
        }
    });
}

fn downloaded(library: Library, session: Session, name: &str, text: &str) {
    match download(name, "application/json", text) {
        Ok(()) => {
            session.say(format!("Downloaded {name}"));
            library.saved_to_file(name.to_string(), text, None);
        }
        Err(_) => session.warn("The browser refused the download"),
    }
}

/// A file chosen with the browser's open picker: its handle (Save writes back to it) and the
/// file (the worker reads its text). `None` when the browser has no picker (use the file
/// input) or the user cancelled (`Some(Err)` reports a file that could not be opened).
pub async fn pick_file() -> Option<Result<(JsValue, web_sys::File), String>> {
    let show = picker("showOpenFilePicker")?;
    let window = web_sys::window().map(JsValue::from).unwrap_or_default();
    let promise = show
        .call1(&window, &picker_options(OPEN_TYPES, None))
        .ok()?;
    let handles = match JsFuture::from(promise.unchecked_into::<js_sys::Promise>()).await {
        Ok(handles) => handles,
        Err(e) if is_abort(&e) => return Some(Err(String::new())),
        Err(_) => return None,
    };
    let handle = js_sys::Array::from(&handles).get(0);
    let file = async {
        let file: web_sys::FileSystemFileHandle = handle.clone().dyn_into()?;
        JsFuture::from(file.get_file())
            .await?
            .dyn_into::<web_sys::File>()
    };
    Some(match file.await {
        Ok(file) => Ok((handle, file)),
        Err(e) => Err(describe(&e)),
    })
}
