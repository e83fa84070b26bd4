//! What keyplan takes from an engine in one answer, whatever it sends (issue 41, item 4): at
//! most [`MAX_ANSWER_BYTES`], counted as it arrives, before the SDK buffers it, and never asked
//! for again. The bounds of a whole conversation (its pages and its time) are the runner's
//! ([`crate::runner::paging`]). No bound is ever met by DynamoDB answering as documented.

use std::error::Error;

use aws_sdk_dynamodb::config::interceptors::BeforeDeserializationInterceptorContextMut;
use aws_sdk_dynamodb::config::retry::{ClassifyRetry, RetryAction};
use aws_sdk_dynamodb::config::{ConfigBag, Intercept, RuntimeComponents};
use aws_smithy_runtime_api::box_error::BoxError;
use aws_smithy_runtime_api::client::interceptors::context::InterceptorContext;
use aws_smithy_runtime_api::client::retries::classifiers::RetryClassifierPriority;
use aws_smithy_types::body::SdkBody;
use http_body_util::BodyExt;

/// The largest answer keyplan reads. DynamoDB's largest are a Query or Scan page (at most
/// 1 MB of items, a few times that as JSON when strings are escaped) and a BatchWriteItem's
/// unprocessed items (at most its 16 MB request; keyplan's batches are 25 items).
pub const MAX_ANSWER_BYTES: u64 = 32 * 1024 * 1024;
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
