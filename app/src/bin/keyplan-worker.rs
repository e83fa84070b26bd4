//! The worker's entry point (issue 19): the second WebAssembly module, started by the main
//! thread in a dedicated Web Worker (`crate::compute`). It says it is ready, then answers each
//! request with [`keyplan_app::jobs::Worker::answer_json`]; a panic posts its message first,
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

fn main() {
    std::panic::set_hook(Box::new(|info| {
        post(&notice_json(&Notice::Panicked(info.to_string())));
    }));
    let mut worker = Worker::default();
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
        let Some(text) = event.data().as_string() else {
            return;
        };
        post(&worker.answer_json(&text));
    });
    scope().set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // The handler lives as long as the worker.
    on_message.forget();
    post(&notice_json(&Notice::Ready));
}
