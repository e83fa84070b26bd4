//! How long a browser may keep the app's files (issue 19). Every file of a build whose name
//! holds the hash trunk gave it (the main module and its JavaScript, the CSS, and the modules
//! scripts/split-wasm.py split off, named after the main module's hash) never changes under
//! that name: it is kept a year without asking again, so a second visit fetches only
//! `index.html`. Everything else (`index.html`, which names this build's files, and the
//! worker's files, named the same in every build) is asked about again on each use
//! (`no-cache`: answered 304 when unchanged), so a new build is never mixed with an old one.
//!
//! What the API answers is never stored (`no-store`, issue 41): designs, an engine's tables and
//! their items are the user's data, and each answer is made for its request.

use axum::extract::Request;
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::Response;

/// A file named after its content's hash.
const IMMUTABLE: &str = "public, max-age=31536000, immutable";
/// Anything else: kept, but checked again before each use.
const REVALIDATE: &str = "no-cache";
/// An API answer: never kept.
const NO_STORE: &str = "no-store";

/// Sets `Cache-Control: no-store` on every API answer, errors included.
pub async fn no_store(request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static(NO_STORE));
    response
}

/// Sets `Cache-Control` on the app's files as answered (not on errors). A hashed name
/// answered with `index.html` (a file of another build, gone since) is not kept.
pub async fn cache_control(request: Request, next: Next) -> Response {
    let hashed = is_hashed(request.uri().path());
    let mut response = next.run(request).await;
    let status = response.status();
    if !(status.is_success() || status == StatusCode::NOT_MODIFIED) {
        return response;
    }
    let is_html = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|t| t.to_str().ok())
        .is_some_and(|t| t.starts_with("text/html"));
    let policy = if hashed && !is_html {
        IMMUTABLE
    } else {
        REVALIDATE
    };
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static(policy));
    response
}

/// Whether the last segment of `path` holds a trunk hash: a `-` then 8 to 16 hex digits, then
/// `.` or `_` (`keyplan-app-81438e4e0ca14a8b_bg.wasm`, `app-a9ac47fb416447bf.css`,
/// `keyplan-app-63d4da33cdae5a3_split_reply_reader.wasm`: trunk writes the hash without
/// leading zeros).
fn is_hashed(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or_default();
    name.split('-').skip(1).any(|part| {
        let hex = part
            .bytes()
            .take_while(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(b))
            .count();
        (8..=16).contains(&hex) && matches!(part.as_bytes().get(hex), Some(b'.' | b'_'))
    })
}

#[cfg(test)]
mod tests {
    use super::is_hashed;

    #[test]
    fn a_hashed_name_is_one_trunk_or_the_split_gave() {
        for hashed in [
            "/keyplan-app-81438e4e0ca14a8b_bg.wasm",
            "/keyplan-app-81438e4e0ca14a8b.js",
            "/keyplan-app-81438e4e0ca14a8b_split.js",
            "/keyplan-app-63d4da33cdae5a3_split_reply_reader.wasm",
            "/keyplan-app-63d4da33cdae5a3_chunk_15.wasm",
            "/app-a9ac47fb416447bf.css",
        ] {
            assert!(is_hashed(hashed), "{hashed}");
        }
        for plain in [
            "/",
            "/index.html",
            "/keyplan-worker.js",
            "/keyplan-worker_bg.wasm",
            "/keyplan-worker_loader.js",
            "/keyplan-app-81438e4e0ca14a8bx.js",
            "/keyplan-app-abc.js",
            "/keyplan-app-81438e4e0ca14a8b00.js",
            "/designs/orders-81438e4e0ca14a8b",
            "/favicon-ABCDEF0123456789.svg",
        ] {
            assert!(!is_hashed(plain), "{plain}");
        }
    }
}
