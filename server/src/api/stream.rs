//! Answers streamed as JSON lines (`application/x-ndjson`): what a long request has done so
//! far, a line at a time, then its answer. Used where the page shows progress: an engine
//! import's scan, a migration's verification.
//!
//! The lines are `{"<kind>": ...}` objects the endpoint chooses, then exactly one last line,
//! `{"answer": ...}` or `{"error": "...", "status": N}` (the status the request would have
//! answered with). The response is not compressed (see `crate::app`): an encoder would hold
//! the lines back until the end.

use std::future::Future;

use axum::response::{IntoResponse, Response};
use tokio::sync::mpsc;

use crate::error::ApiError;

/// The media type of a streamed answer.
pub const NDJSON: &str = "application/x-ndjson";

/// Lines a stream may queue before a slow reader makes it skip some (the last line is always
/// sent).
const QUEUE: usize = 16;

/// Where an endpoint sends its progress lines.
#[derive(Debug, Clone)]
pub struct Lines {
    tx: mpsc::Sender<String>,
}

impl Lines {
    /// Sends `{"<kind>": value}`, unless the reader is behind (a progress line may be skipped).
    pub fn send(&self, kind: &str, value: serde_json::Value) {
        let mut line = serde_json::json!({ kind: value }).to_string();
        line.push('\n');
        let _ = self.tx.try_send(line);
    }

    /// Resolves when the reader has gone away (the page closed, the request was dropped).
    pub async fn closed(&self) {
        self.tx.closed().await;
    }
}

/// Whether the request asks for a streamed answer.
pub fn wanted(headers: &axum::http::HeaderMap) -> bool {
    headers
        .get_all(axum::http::header::ACCEPT)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .any(|v| v.contains(NDJSON))
}

/// Streams what `work` sends to its [`Lines`], then its answer or error as the last line.
/// `work` runs in its own task, so it ends as it decides (cleaning up) when the reader goes.
pub fn respond<F, W>(work: W) -> Response
where
    W: FnOnce(Lines) -> F,
    F: Future<Output = Result<serde_json::Value, ApiError>> + Send + 'static,
{
    let (tx, mut rx) = mpsc::channel::<String>(QUEUE);
    let lines = Lines { tx: tx.clone() };
    let work = work(lines);
    tokio::spawn(async move {
        let last = match work.await {
            Ok(answer) => serde_json::json!({ "answer": answer }),
            Err(e) => {
                if let ApiError::Internal(error) = &e {
                    tracing::error!("{error:#}");
                }
                serde_json::json!({ "error": e.to_string(), "status": e.status().as_u16() })
            }
        };
        let _ = tx.send(format!("{last}\n")).await;
    });
    // A channel stays ended once ended: the compression layer may poll after the end.
    let lines = futures_util::stream::poll_fn(move |cx| {
        rx.poll_recv(cx)
            .map(|line| line.map(Ok::<_, std::convert::Infallible>))
    });
    (
        [(axum::http::header::CONTENT_TYPE, NDJSON)],
        axum::body::Body::from_stream(lines),
    )
        .into_response()
}
