//! The worker's entry point (issue 19): the second WebAssembly module, started by the main
//! thread in a dedicated Web Worker (`crate::compute`). It says it is ready, then answers each
//! request with [`keyplan_app::jobs::Worker::answer_request`]; a panic posts its message first,
//! so the main thread can say why the worker stopped before it restarts it.

use keyplan_app::jobs::{Notice, Worker, notice_json};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

fn scope() -> DedicatedWorkerGlobalScope {
    js_sys::global().unchecked_into()
}

fn post(text: &str) {
    let _ = scope().post_message(&JsValue::from_str(text));
}

fn post_reply(reply: &keyplan_app::jobs::Reply) {
    let _ = scope().post_message(&reply.to_js());
}

/// The text of the file posted beside a request, read synchronously (this is the worker's
/// own thread), or why it could not be read (a file over the app's bound is not read at all).
fn read_file(file: &JsValue) -> Result<String, String> {
    let blob: &web_sys::Blob = file
        .dyn_ref()
        .ok_or_else(|| "what came with the request is not a file".to_string())?;
    // Bounded before it is read: the whole text would be in memory twice over.
    if let Some(why) = keyplan_app::jobs::file_too_large(blob.size()) {
        return Err(why);
    }
    let reader = web_sys::FileReaderSync::new().map_err(|e| keyplan_app::save::describe(&e))?;
    reader
        .read_as_text(blob)
        .map_err(|e| keyplan_app::save::describe(&e))
}

fn main() {
    std::panic::set_hook(Box::new(|info| {
        post(&notice_json(&Notice::Panicked(info.to_string())));
    }));
    let mut worker = Worker::default();
    // A long job's progress (a suggestion's search) goes out while it runs.
    worker.set_reporter(Box::new(post));
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
        let data = event.data();
        if let Some(text) = data.as_string() {
            return post_reply(&worker.answer_json(&text));
        }
        // A request with a file beside it, `[request, file]`: the file is read here.
        let parts = js_sys::Array::from(&data);
        let Some(text) = parts.get(0).as_string() else {
            return;
        };
        post_reply(&worker.answer_request(&text, Some(read_file(&parts.get(1)))));
    });
    scope().set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // The handler lives as long as the worker.
    on_message.forget();
    post(&notice_json(&Notice::Ready));
}
