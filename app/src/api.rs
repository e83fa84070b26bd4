//! The keyplan server's API, seen from the app: one way to send a request, and one probe of
//! whether the app is served by `keyplan serve` at all (the Run panel's engine list, which the
//! file import asks too before it hands the server a module the app cannot read).

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use web_sys::{Request, RequestInit, Response};

use crate::run::state::Engines;

/// Sends a request; `Err` when no answer came (server down, network).
pub async fn fetch(method: &str, url: &str, body: Option<&str>) -> Result<(u16, String), String> {
    let unreachable = |e: JsValue| {
        format!(
            "the keyplan server could not be reached ({})",
            e.as_string()
                .or_else(|| js_sys::JSON::stringify(&e).ok().and_then(|s| s.as_string()))
                .unwrap_or_default()
        )
    };
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
    let response: Response = JsFuture::from(window.fetch_with_request(&request))
        .await
        .map_err(unreachable)?
        .unchecked_into();
    let text = JsFuture::from(response.text().map_err(unreachable)?)
        .await
        .map_err(unreachable)?
        .as_string()
        .unwrap_or_default();
    Ok((response.status(), text))
}

/// The error message of an API answer: its `{"error": ...}` (every route answers errors so),
/// else its status.
pub fn error_message(status: u16, body: &str) -> String {
    #[derive(serde::Deserialize)]
    struct ErrorAnswer {
        error: String,
    }
    match serde_json::from_str::<ErrorAnswer>(body) {
        Ok(answer) => answer.error,
        Err(_) => format!("the keyplan server answered {status}"),
    }
}

/// Whether the app is served by `keyplan serve`, and with which engines: `GET /api/engines`.
/// A static host answers it with a 404 or its `index.html` ([`Engines::NoApi`]).
pub async fn engines() -> Engines {
    match fetch("GET", "/api/engines", None).await {
        Ok((status, body)) => Engines::from_response(status, &body),
        Err(message) => Engines::Unreachable(message),
    }
}
