//! Answers streamed as JSON lines (`application/x-ndjson`): what a long request has done so
//! far, a line at a time, then its answer. Used where the page shows progress: an engine
//! import's scan, a migration's verification.
//!
//! The lines are [`keyplan_core::api::Line`]s: `{"<kind>": ...}` objects of the endpoint's
//! progress type, then exactly one last line, `{"answer": ...}` or `{"error": "...", "status":
//! N}` (the status the request would have answered with). The response is not compressed (see `crate::app`): an encoder would hold
//! the lines back until the end.

use std::future::Future;

use axum::response::{IntoResponse, Response};
use keyplan_core::api::Line;
use serde::Serialize;
use tokio::sync::mpsc;

use crate::error::ApiError;

/// The media type of a streamed answer.
pub const NDJSON: &str = "application/x-ndjson";

/// Lines a stream may queue before a slow reader makes it skip some (the last line is always
/// sent).
const QUEUE: usize = 16;

/// Where an endpoint sends its progress lines, of type `P`.
#[derive(Debug)]
pub struct Lines<P> {
    tx: mpsc::Sender<String>,
    progress: std::marker::PhantomData<fn(P)>,
}

impl<P> Clone for Lines<P> {
    fn clone(&self) -> Self {
        Lines {
            tx: self.tx.clone(),
            progress: std::marker::PhantomData,
        }
    }
}

/// `line` as the text of one line of the stream.
fn text<P: Serialize, A: Serialize>(line: &Line<P, A>) -> Result<String, serde_json::Error> {
    serde_json::to_string(line).map(|mut text| {
        text.push('\n');
        text
    })
}

impl<P: Serialize> Lines<P> {
    /// Sends `progress`, unless the reader is behind (a progress line may be skipped).
    pub fn send(&self, progress: P) {
        match text(&Line::<P, ()>::Progress(progress)) {
            Ok(line) => {
                let _ = self.tx.try_send(line);
            }
            Err(e) => tracing::error!("a progress line could not be written: {e}"),
        }
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
pub fn respond<P, A, F, W>(work: W) -> Response
where
    P: Serialize,
    A: Serialize,
    W: FnOnce(Lines<P>) -> F,
    F: Future<Output = Result<A, ApiError>> + Send + 'static,
{
    let (tx, mut rx) = mpsc::channel::<String>(QUEUE);
    let lines = Lines {
        tx: tx.clone(),
        progress: std::marker::PhantomData,
    };
    let work = work(lines);
    tokio::spawn(async move {
        let answered = work.await.and_then(|answer| {
            text(&Line::<(), A>::Answer { answer }).map_err(|e| ApiError::Internal(e.into()))
        });
        let last = answered.unwrap_or_else(|e| {
            if let ApiError::Internal(error) = &e {
                tracing::error!("{error:#}");
            }
            let failed = Line::<(), ()>::Failed {
                error: e.to_string(),
                status: e.status().as_u16(),
            };
            // A string and a number: nothing in it can fail to be written.
            text(&failed).unwrap_or_default()
        });
        let _ = tx.send(last).await;
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
