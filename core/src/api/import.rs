//! `POST /api/import`: a file in another tool's format in, a keyplan design out (the server
//! reads the JavaScript and TypeScript modules the app's build cannot).

use serde::{Deserialize, Serialize};

use crate::import::Assumption;

/// The request: `{"name": "orders.ts", "text": "<the file>", "from": "electrodb"}`. The server
/// hands the same to an import's child process on its stdin.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImportRequest {
    /// The file's name, only for messages.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The file's text.
    pub text: String,
    /// The format, as `keyplan import --from` names it; detected when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
}

impl ImportRequest {
    /// The file as the messages name it.
    pub fn file_name(&self) -> &str {
        self.name.as_deref().unwrap_or("the file")
    }
}

/// The answer: the design and what was read. Fields in alphabetical order, the wire's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ImportAnswer {
    /// What could not be read and what was assumed in its place (issue 36), told after the
    /// notes; each written with its keys sorted, as the answer was first written.
    #[serde(default, serialize_with = "super::sorted")]
    pub assumed: Vec<Assumption>,
    /// What the design holds, and the collections the file had.
    #[serde(default)]
    pub counts: ImportCounts,
    /// The design file's JSON (`keyplan_core::file` reads and writes it, with its version).
    pub design: serde_json::Value,
    /// The format read, as `keyplan import --from` names it.
    pub format: String,
    /// What the import could not keep or had to guess, one sentence each.
    #[serde(default)]
    pub notes: Vec<String>,
    /// What was read, in the words of the app's toast: "an ElectroDB service: 4 entities, 3
    /// collections".
    pub summary: String,
}

/// The figures behind an import's summary.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ImportCounts {
    pub collections: usize,
    pub entities: usize,
    pub patterns: usize,
    pub tables: usize,
}
