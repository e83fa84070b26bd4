//! The wire format of `keyplan serve`: every request and answer body of its HTTP API under
//! `/api`, as the types the server serialises and the browser app deserialises, so a change on
//! one side breaks the other's build instead of a user's page.
//!
//! One module per feature, as the server's `api/` has them: [`runs`] (the engines, a run and
//! its events), [`import`] (`POST /api/import`), [`live`] (an engine's tables and
//! `POST /api/import/engine`) and [`migrate`] (`POST /api/migrate/verify`). Here is what every
//! route shares: the error body, the health answer and the lines of a streamed answer.
//!
//! Key order is part of the wire: the bodies of `import`, `live` and `migrate` have their keys
//! in alphabetical order at every depth (they were first written as `serde_json::Value`, whose
//! map sorts its keys), so their types declare their fields alphabetically and write a nested
//! type of another order through [`sorted`]; the bodies of `runs` are in declaration order.
//! The tests ([`tests`]) read bodies the server answered back into these types and require the
//! same bytes out. A request type declares its fields in the order the server's message lists
//! them ("unknown field `x`, expected one of ..."); the app writes it with [`request_text`].
//!
//! Plain data: no IO, no HTTP; the server and the app do the sending.

use serde::{Deserialize, Serialize, Serializer};

pub mod import;
pub mod live;
pub mod migrate;
pub mod runs;

#[cfg(test)]
mod tests;

/// Every error the API answers: `{"error": "<a message for the user>"}`, with the status.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorBody {
    pub error: String,
}

/// The answer of `GET /api/health`: the server is up (`"ok"`), and which keyplan it is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Health {
    pub status: String,
    /// keyplan's version, as `keyplan --version` prints it.
    pub version: String,
}

/// One line of an answer streamed as JSON lines (`Accept: application/x-ndjson`): what a long
/// request has done so far, `P`, any number of times; then exactly one last line, its answer
/// `A` or the error it would have answered with its status.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Line<P, A> {
    /// Progress, an object of one key naming its kind: `{"progress": ...}`, `{"pattern": ...}`.
    Progress(P),
    /// `{"answer": ...}`: what the same request answers unstreamed.
    Answer { answer: A },
    /// `{"error": "...", "status": 404}`: the error, and the status it would have answered.
    Failed { error: String, status: u16 },
}

/// The text of a request body as the app sends it: its keys sorted at every depth, whatever
/// order its type declares (which is the order the server's messages list its fields in).
pub fn request_text<T: Serialize>(request: &T) -> Result<String, serde_json::Error> {
    serde_json::to_value(request).map(|value| value.to_string())
}

/// Writes `value` with its keys sorted at every depth: a field of a type whose own order is
/// another (a run's [`runs::PatternResult`]) inside a body of sorted keys.
pub(crate) fn sorted<T: Serialize, S: Serializer>(
    value: &T,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serde_json::to_value(value)
        .map_err(serde::ser::Error::custom)?
        .serialize(serializer)
}
