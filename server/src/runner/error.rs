//! Why a run stopped, in words a user can act on, and how an SDK error maps onto them.
//!
//! An engine's answer is classified once, here: unreachable, bad credentials, a limit the
//! engine enforces, throttling, or anything else with the engine's own code and message,
//! its control characters and direction marks shown by name. No stack trace and no SDK debug dump ever reaches the user.

use aws_sdk_dynamodb::config::http::HttpResponse;
use aws_sdk_dynamodb::error::{ProvideErrorMetadata, SdkError};

use super::convert::BadBinary;
use crate::engine::bounds::{AnswerTooLarge, too_large};
use crate::engine::{Engine, EngineKind, redact};

/// Why a run stopped.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RunError {
    #[error("the design does not validate: {0}")]
    Design(String),
    #[error(
        "cannot reach engine `{engine}` ({target}) within 5 s: {detail}; is it running, and is the URL right?"
    )]
    Unreachable {
        engine: String,
        target: String,
        detail: String,
    },
    /// The engine answered before (the run's first request), then a connection failed.
    #[error("lost engine `{engine}` while trying to {what}: {detail}")]
    Lost {
        engine: String,
        what: String,
        detail: String,
    },
    /// The engine answered before, then did not answer one request in time.
    #[error("engine `{engine}` did not answer while trying to {what}: {detail}")]
    Timeout {
        engine: String,
        what: String,
        detail: String,
    },
    #[error("engine `{engine}` refused the credentials: {detail}")]
    Credentials { engine: String, detail: String },
    /// The engine knows the identity and does not allow it the action (IAM's AccessDenied).
    #[error("engine `{engine}` does not allow keyplan's identity to {what}: {detail}")]
    Denied {
        engine: String,
        what: String,
        detail: String,
    },
    #[error("engine `{engine}` refused to {what}: {detail}")]
    Refused {
        engine: String,
        what: String,
        detail: String,
    },
    #[error("engine `{engine}` failed to {what}: {detail}")]
    Engine {
        engine: String,
        what: String,
        detail: String,
    },
    /// The engine would page on forever (issue 41): the pages, or the items, passed their
    /// bound, or it handed back the key it was sent.
    #[error("engine `{engine}` would not stop paging while trying to {what}: {detail}")]
    Endless {
        engine: String,
        what: String,
        detail: String,
    },
    /// A whole conversation passed the engine's [`Timing::conversation`](crate::engine::Timing).
    #[error(
        "engine `{engine}` did not finish in time while trying to {what}: keyplan gives one import of a table, run, verification or listing {} s",
        limit.as_secs_f64()
    )]
    TooLong {
        engine: String,
        what: String,
        limit: std::time::Duration,
    },
    #[error("engine `{engine}` has no table `{table}`")]
    NoTable { engine: String, table: String },
    #[error("the run was cancelled")]
    Cancelled,
    #[error("{0}")]
    Data(String),
}

impl From<BadBinary> for RunError {
    fn from(e: BadBinary) -> Self {
        RunError::Data(e.to_string())
    }
}

impl From<aws_smithy_types::error::operation::BuildError> for RunError {
    fn from(e: aws_smithy_types::error::operation::BuildError) -> Self {
        RunError::Data(format!("could not build a request: {e}"))
    }
}

/// What kind of failure an SDK error is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Failure {
    Unreachable,
    Credentials,
    /// Known credentials without the permission (IAM's AccessDenied).
    Denied,
    /// The engine says no: a validation error or a limit.
    Refused,
    /// Slow down and retry.
    Throttled,
    /// Connected, sent, and no answer within the request's time limit.
    Timeout,
    Other,
}

/// The error code the engine sent, if any.
pub fn code<E, R>(err: &SdkError<E, R>) -> Option<&str>
where
    E: ProvideErrorMetadata,
{
    match err {
        SdkError::ServiceError(service) => service.err().code(),
        _ => None,
    }
}

/// What an engine's error code means for the user.
pub fn failure_of(code: &str) -> Failure {
    match code {
        "UnrecognizedClientException"
        | "InvalidSignatureException"
        | "MissingAuthenticationToken"
        | "MissingAuthenticationTokenException"
        | "IncompleteSignatureException"
        | "InvalidClientTokenId"
        | "ExpiredTokenException" => Failure::Credentials,
        "AccessDeniedException" | "AccessDenied" => Failure::Denied,
        "ProvisionedThroughputExceededException"
        | "ThrottlingException"
        | "RequestLimitExceeded" => Failure::Throttled,
        "ValidationException" | "LimitExceededException" | "ResourceInUseException" => {
            Failure::Refused
        }
        _ => Failure::Other,
    }
}

/// The most of an answer that is not DynamoDB's JSON [`classify`] quotes.
const QUOTED_BODY: usize = 400;

/// Classifies an SDK error and says it in one line: `Code: message`, or what went wrong on the
/// way to the engine, its control characters and direction marks shown by name
/// ([`keyplan_core::text::visible`]).
pub fn classify<E>(err: &SdkError<E, HttpResponse>) -> (Failure, String)
where
    E: ProvideErrorMetadata + std::error::Error + 'static,
{
    let (failure, text) = classify_raw(err);
    // issue 41: an engine's words, printed on a terminal or shown in the app, cannot move the
    // cursor, recolour or rewrite what is around them.
    (failure, keyplan_core::text::visible(&text))
}

fn classify_raw<E>(err: &SdkError<E, HttpResponse>) -> (Failure, String)
where
    E: ProvideErrorMetadata + std::error::Error + 'static,
{
    if too_large(err) {
        return (Failure::Other, AnswerTooLarge.to_string());
    }
    match err {
        SdkError::ServiceError(service) => {
            let e = service.err();
            let Some(code) = e.code() else {
                return unparsed(service.raw());
            };
            let message = e.message().unwrap_or("").trim();
            let failure = failure_of(code);
            let text = if message.is_empty() {
                code.to_string()
            } else {
                format!("{code}: {message}")
            };
            (failure, text)
        }
        SdkError::DispatchFailure(dispatch) => {
            let detail = chain(err);
            if dispatch.is_io() || dispatch.is_timeout() {
                (Failure::Unreachable, detail)
            } else if detail.contains("timed out") || detail.contains("timeout") {
                (Failure::Timeout, detail)
            } else {
                (Failure::Other, detail)
            }
        }
        SdkError::TimeoutError(_) => (Failure::Timeout, "no answer in time".to_string()),
        SdkError::ConstructionFailure(_) => {
            let detail = chain(err);
            let failure = if detail.contains("credential") {
                Failure::Credentials
            } else {
                Failure::Other
            };
            (failure, detail)
        }
        SdkError::ResponseError(_) => (
            Failure::Other,
            format!("the answer is not DynamoDB's: {}", chain(err)),
        ),
        _ => (Failure::Other, chain(err)),
    }
}

/// An error answer without a DynamoDB error code (moto answers IAM refusals in XML, a proxy
/// in HTML): its HTTP status, what the status means, and the start of the body on one line.
fn unparsed(raw: &HttpResponse) -> (Failure, String) {
    let status = raw.status().as_u16();
    let failure = match status {
        401 | 403 => Failure::Denied,
        429 => Failure::Throttled,
        _ => Failure::Other,
    };
    let body = raw.body().bytes().unwrap_or_default();
    let quoted = String::from_utf8_lossy(&body[..body.len().min(QUOTED_BODY)])
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let meaning = match status {
        401 | 403 => " (credentials or permissions refused)",
        429 => " (too many requests)",
        _ => "",
    };
    let mut text = format!("HTTP {status}{meaning} without a DynamoDB error code");
    if !quoted.is_empty() {
        text.push_str(&format!(": {quoted}"));
        if body.len() > QUOTED_BODY {
            text.push_str(" ...");
        }
    }
    (failure, text)
}

/// The error and its sources on one line, without repeating the SDK's generic outer words.
fn chain(err: &dyn std::error::Error) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut source = err.source();
    while let Some(e) = source {
        let text = e.to_string();
        if !parts.iter().any(|p| p.contains(&text)) {
            parts.push(text);
        }
        source = e.source();
    }
    if parts.is_empty() {
        err.to_string()
    } else {
        parts.join(": ")
    }
}

/// Turns an SDK error while doing `what` on `engine` into a run error. Any URL credentials in
/// the engine's words are hidden.
pub fn run_error<E>(engine: &Engine, what: &str, err: &SdkError<E, HttpResponse>) -> RunError
where
    E: ProvideErrorMetadata + std::error::Error + 'static,
{
    let (failure, detail) = classify(err);
    let mut detail = redact(&detail);
    if matches!(failure, Failure::Credentials | Failure::Denied)
        && !matches!(engine.kind, EngineKind::Aws)
    {
        detail.push_str(
            " (keyplan signs requests to a local engine with the dummy access key `keyplan`, which an engine that checks credentials refuses)",
        );
    }
    let name = engine.name.clone();
    let what = what.to_string();
    match failure {
        Failure::Unreachable => RunError::Lost {
            engine: name,
            what,
            detail,
        },
        Failure::Timeout => RunError::Timeout {
            engine: name,
            what,
            detail: format!(
                "no answer within {} s (the limit of one attempt; {} s with retries); it answered earlier requests, so it may be stuck or overloaded",
                engine.timing.attempt.as_secs_f64(),
                engine.timing.request.as_secs_f64()
            ),
        },
        Failure::Credentials => RunError::Credentials {
            engine: name,
            detail,
        },
        Failure::Denied => RunError::Denied {
            engine: name,
            what,
            detail,
        },
        Failure::Refused => RunError::Refused {
            engine: name,
            what,
            detail,
        },
        Failure::Throttled | Failure::Other => RunError::Engine {
            engine: name,
            what,
            detail,
        },
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn error_codes_map_to_what_the_user_can_do() {
        let codes = [
            "UnrecognizedClientException",
            "ExpiredTokenException",
            "AccessDeniedException",
            "ThrottlingException",
            "ProvisionedThroughputExceededException",
            "LimitExceededException",
            "ValidationException",
            "InternalServerError",
        ];
        let out: Vec<String> = codes
            .iter()
            .map(|c| format!("{c}: {:?}", failure_of(c)))
            .collect();
        expect_test::expect![[r#"
            UnrecognizedClientException: Credentials
            ExpiredTokenException: Credentials
            AccessDeniedException: Denied
            ThrottlingException: Throttled
            ProvisionedThroughputExceededException: Throttled
            LimitExceededException: Refused
            ValidationException: Refused
            InternalServerError: Other"#]]
        .assert_eq(&out.join("\n"));
        let err = RunError::Credentials {
            engine: "aws".into(),
            detail: "UnrecognizedClientException: The security token included in the request is invalid.".into(),
        };
        assert_eq!(
            err.to_string(),
            "engine `aws` refused the credentials: UnrecognizedClientException: The security token included in the request is invalid."
        );
    }
}
