//! The keyplan server's API, seen from the app: one way to send a request (the probe of
//! whether the app is served by `keyplan serve` at all is the Run panel's engine list,
//! `run::state::Engines::probe`). It knows none of the views that use it. The bodies sent and
//! read are [`keyplan_core::api`]'s types, the server's too.

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use web_sys::{Request, RequestInit, Response};

/// The text of a failure to reach the server.
fn unreachable(e: JsValue) -> String {
    format!(
        "the keyplan server could not be reached ({})",
        crate::save::describe(&e)
    )
}

/// Sends a request with `headers` and waits for the answer's head.
async fn send(
    method: &str,
    url: &str,
    body: Option<&str>,
    headers: &[(&str, &str)],
) -> Result<Response, String> {
    let window = web_sys::window().ok_or("no window")?;
    let init = RequestInit::new();
    init.set_method(method);
    if let Some(body) = body {
        init.set_body(&JsValue::from_str(body));
    }
    let request = Request::new_with_str_and_init(url, &init).map_err(unreachable)?;
    if body.is_some() {
        request
            .headers()
            .set("content-type", "application/json")
            .map_err(unreachable)?;
    }
    for (name, value) in headers {
        request.headers().set(name, value).map_err(unreachable)?;
    }
    Ok(JsFuture::from(window.fetch_with_request(&request))
        .await
        .map_err(unreachable)?
        .unchecked_into())
}

/// Sends a request; `Err` when no answer came (server down, network).
pub async fn fetch(method: &str, url: &str, body: Option<&str>) -> Result<(u16, String), String> {
    fetch_with(method, url, body, &[]).await
}

/// [`fetch`] with request headers (a live room's owner token, `authorization`).
pub async fn fetch_with(
    method: &str,
    url: &str,
    body: Option<&str>,
    headers: &[(&str, &str)],
) -> Result<(u16, String), String> {
    let response = send(method, url, body, headers).await?;
    let text = JsFuture::from(response.text().map_err(unreachable)?)
        .await
        .map_err(unreachable)?
        .as_string()
        .unwrap_or_default();
    Ok((response.status(), text))
}

/// The media type of an answer streamed one JSON object a line.
const NDJSON: &str = "application/x-ndjson";

/// Posts `body` asking for an answer streamed as JSON lines, and calls `line` with each line
/// as it arrives. An answer that is not a stream (a request refused before the stream began)
/// is returned whole: `Ok((status, Some(body)))`; a streamed one gives `Ok((status, None))`.
pub async fn post_lines(
    url: &str,
    body: &str,
    mut line: impl FnMut(&str),
) -> Result<(u16, Option<String>), String> {
    let response = send("POST", url, Some(body), &[("accept", NDJSON)]).await?;
    let status = response.status();
    let streamed = response
        .headers()
        .get("content-type")
        .ok()
        .flatten()
        .is_some_and(|t| t.starts_with(NDJSON));
    let stream = response.body().filter(|_| streamed);
    let Some(stream) = stream else {
        let text = JsFuture::from(response.text().map_err(unreachable)?)
            .await
            .map_err(unreachable)?
            .as_string()
            .unwrap_or_default();
        return Ok((status, Some(text)));
    };
    let reader: web_sys::ReadableStreamDefaultReader = stream.get_reader().unchecked_into();
    let mut pending: Vec<u8> = Vec::new();
    loop {
        let chunk: web_sys::ReadableStreamReadResult = JsFuture::from(reader.read())
            .await
            .map_err(unreachable)?
            .unchecked_into();
        if chunk.get_done().unwrap_or(true) {
            break;
        }
        pending.extend(js_sys::Uint8Array::new(&chunk.get_value()).to_vec());
        while let Some(end) = pending.iter().position(|b| *b == b'\n') {
            let rest = pending.split_off(end + 1);
            line(String::from_utf8_lossy(&pending[..end]).trim());
            pending = rest;
        }
    }
    if !pending.is_empty() {
        line(String::from_utf8_lossy(&pending).trim());
    }
    Ok((status, None))
}

/// The error message of an API answer: its `{"error": ...}` (every route answers errors so),
/// else its status.
pub fn error_message(status: u16, body: &str) -> String {
    match serde_json::from_str::<keyplan_core::api::ErrorBody>(body) {
        Ok(answer) => answer.error,
        Err(_) => format!("the keyplan server answered {status}"),
    }
}
