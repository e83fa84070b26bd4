//! What keyplan takes from an engine, whatever it sends (issue 41, item 4): one answer of at
//! most [`MAX_ANSWER_BYTES`], counted as it arrives, before the SDK buffers it; a paged
//! conversation (a table listing, a scan, a query) of a stated number of pages that never hands
//! back the key it was sent ([`Paging`]); and a whole import of a table, run, verification or
//! listing within the engine's [`Timing::conversation`](super::Timing) ([`within`]). Each
//! bound ends the conversation with an error that names it; none is ever met by DynamoDB
//! answering as documented.

use std::error::Error;
use std::future::Future;

use aws_sdk_dynamodb::config::interceptors::BeforeDeserializationInterceptorContextMut;
use aws_sdk_dynamodb::config::retry::{ClassifyRetry, RetryAction};
use aws_sdk_dynamodb::config::{ConfigBag, Intercept, RuntimeComponents};
use aws_smithy_runtime_api::box_error::BoxError;
use aws_smithy_runtime_api::client::interceptors::context::InterceptorContext;
use aws_smithy_runtime_api::client::retries::classifiers::RetryClassifierPriority;
use aws_smithy_types::body::SdkBody;
use http_body_util::BodyExt;

use super::Engine;
use crate::runner::RunError;

/// The largest answer keyplan reads. DynamoDB's largest are a Query or Scan page (at most
/// 1 MB of items, a few times that as JSON when strings are escaped) and a BatchWriteItem's
/// unprocessed items (at most its 16 MB request; keyplan's batches are 25 items).
pub const MAX_ANSWER_BYTES: u64 = 32 * 1024 * 1024;
/// Pages without an item, each with a key to go on from, that one scan or query takes before
/// it stops: DynamoDB sends one only when a filter discards a whole page, or rarely in a
/// parallel scan.
pub const MAX_EMPTY_PAGES: u64 = 100;
/// ListTables pages one listing reads: 100,000 tables, DynamoDB's default quota is 2,500 a
/// Region.
pub const MAX_TABLE_PAGES: u64 = 1_000;

/// An answer past [`MAX_ANSWER_BYTES`].
#[derive(Debug, Clone, Copy, thiserror::Error)]
#[error(
    "its answer is larger than {} MiB, the most keyplan reads of one answer (a DynamoDB page holds at most 1 MB of items)",
    MAX_ANSWER_BYTES >> 20
)]
pub struct AnswerTooLarge;

/// Whether `err`, or an error it was caused by, is [`AnswerTooLarge`].
pub fn too_large(err: &(dyn Error + 'static)) -> bool {
    let mut next = Some(err);
    while let Some(e) = next {
        if e.is::<AnswerTooLarge>() {
            return true;
        }
        next = e.source();
    }
    false
}

/// An SDK client's configuration with the answer limit: every answer's body read through
/// [`MAX_ANSWER_BYTES`] (an announced `Content-Length` past it refused before a byte is
/// read), and an answer that passed it never asked for again.
pub fn bounded(builder: aws_sdk_dynamodb::config::Builder) -> aws_sdk_dynamodb::config::Builder {
    builder
        .interceptor(AnswerLimit)
        .retry_classifier(NoRetryOfTooLarge)
}

#[derive(Debug)]
struct AnswerLimit;

impl Intercept for AnswerLimit {
    fn name(&self) -> &'static str {
        "keyplan answer limit"
    }

    fn modify_before_deserialization(
        &self,
        context: &mut BeforeDeserializationInterceptorContextMut<'_>,
        _components: &RuntimeComponents,
        _cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let response = context.response_mut();
        let announced = response
            .headers()
            .get("content-length")
            .and_then(|n| n.trim().parse::<u64>().ok());
        if announced.is_some_and(|n| n > MAX_ANSWER_BYTES) {
            return Err(Box::new(AnswerTooLarge));
        }
        let limit = usize::try_from(MAX_ANSWER_BYTES).unwrap_or(usize::MAX);
        let body = http_body_util::Limited::new(response.take_body(), limit).map_err(
            |e: BoxError| -> BoxError {
                if e.is::<http_body_util::LengthLimitError>() {
                    Box::new(AnswerTooLarge)
                } else {
                    e
                }
            },
        );
        *response.body_mut() = SdkBody::from_body_1_x(body);
        Ok(())
    }
}

/// A too-large answer is an engine's choice, not a hiccup: sending the request again would
/// read it again.
#[derive(Debug)]
struct NoRetryOfTooLarge;

impl ClassifyRetry for NoRetryOfTooLarge {
    fn classify_retry(&self, ctx: &InterceptorContext) -> RetryAction {
        match ctx.output_or_error() {
            Some(Err(e)) if too_large(e) => RetryAction::RetryForbidden,
            _ => RetryAction::NoActionIndicated,
        }
    }

    fn name(&self) -> &'static str {
        "keyplan: no retry of a too-large answer"
    }

    fn priority(&self) -> RetryClassifierPriority {
        // First, so that its RetryForbidden ends the classification.
        RetryClassifierPriority::run_before(RetryClassifierPriority::http_status_code_classifier())
    }
}

/// The pages of one paged conversation so far, and the bounds that stop one that would never
/// end: at most `max_pages` pages, `max_empty` of them empty ([`MAX_EMPTY_PAGES`] unless
/// more are expected), `max_items` items, and never the key it was sent handed back as the key
/// to go on from.
#[derive(Debug)]
pub struct Paging<'a> {
    engine: &'a Engine,
    what: String,
    max_pages: u64,
    max_empty: u64,
    max_items: u64,
    pages: u64,
    empty: u64,
    items: u64,
}

impl<'a> Paging<'a> {
    /// Paging through `what` (said as "list tables", "scan t") on `engine`, at most
    /// `max_pages` pages.
    pub fn new(engine: &'a Engine, what: impl Into<String>, max_pages: u64) -> Paging<'a> {
        Paging {
            engine,
            what: what.into(),
            max_pages,
            max_empty: MAX_EMPTY_PAGES,
            max_items: u64::MAX,
            pages: 0,
            empty: 0,
            items: 0,
        }
    }

    /// At most `max_items` items over all pages.
    pub fn with_max_items(self, max_items: u64) -> Paging<'a> {
        Paging { max_items, ..self }
    }

    /// `expected` empty pages allowed beyond [`MAX_EMPTY_PAGES`] (a filtered query's pages
    /// that core predicts empty).
    pub fn with_empty_pages_expected(self, expected: u64) -> Paging<'a> {
        Paging {
            max_empty: MAX_EMPTY_PAGES.saturating_add(expected),
            ..self
        }
    }

    /// Counts a page of `items` items that was asked for from key `sent` and names `next` to
    /// go on from (`None`: the last page). An error when the conversation must stop.
    pub fn page<K: PartialEq>(
        &mut self,
        items: usize,
        sent: Option<&K>,
        next: Option<&K>,
    ) -> Result<(), RunError> {
        self.pages += 1;
        self.items = self.items.saturating_add(items as u64);
        if items == 0 {
            self.empty += 1;
        }
        let Some(next) = next else {
            return Ok(());
        };
        let detail = if sent == Some(next) {
            "it handed back the key it was sent as the key to go on from, so it would send that page forever".to_string()
        } else if self.items > self.max_items {
            format!(
                "it sent {} items, more than the {} keyplan reads here",
                self.items, self.max_items
            )
        } else if self.empty >= self.max_empty {
            format!(
                "it sent {} pages without an item, each with a key to go on from; keyplan stops at {}",
                self.empty, self.max_empty
            )
        } else if self.pages >= self.max_pages {
            format!(
                "it sent {} pages and named another; keyplan reads at most {} here",
                self.pages, self.max_pages
            )
        } else {
            return Ok(());
        };
        Err(RunError::Endless {
            engine: self.engine.name.clone(),
            what: self.what.clone(),
            detail,
        })
    }
}

/// `work`, a whole conversation with `engine` (said as "read table t", "run the design"),
/// given up with a [`RunError::TooLong`] past the engine's conversation limit.
pub async fn within<T>(
    engine: &Engine,
    what: &str,
    work: impl Future<Output = Result<T, RunError>>,
) -> Result<T, RunError> {
    let limit = engine.timing.conversation;
    tokio::time::timeout(limit, work)
        .await
        .unwrap_or_else(|_| Err(too_long(engine, what)))
}

/// The error of a conversation with `engine` that passed its limit while doing `what`.
pub fn too_long(engine: &Engine, what: &str) -> RunError {
    RunError::TooLong {
        engine: engine.name.clone(),
        what: what.to_string(),
        limit: engine.timing.conversation,
    }
}
