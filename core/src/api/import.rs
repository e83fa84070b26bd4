//! `POST /api/import`: a file in another tool's format in, a keyplan design out (the server
//! reads the JavaScript and TypeScript modules the app's build cannot).

use serde::{Deserialize, Serialize};

use crate::import::Assumption;

/// The request: `{"name": "orders.ts", "text": "<the file>", "from": "electrodb"}`, or several
/// files of one application read together (OneTable or ElectroDB modules that import from each
/// other, issue 36): `{"files": [{"name": "models/task.ts", "text": "..."}, ...]}`. The server
/// hands the same to an import's child process on its stdin.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImportRequest {
    /// The file's name, only for messages.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The file's text (one file; see `files` for several).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub text: String,
    /// Several files read together, instead of `name` and `text`: the names are their paths,
    /// which resolve the modules' imports, and each assumption says its file.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub files: Vec<NamedFile>,
    /// The format, as `keyplan import --from` names it; detected when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
}

/// One of several files sent together: its path and its text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NamedFile {
    pub name: String,
    pub text: String,
}

impl ImportRequest {
    /// The file as the messages name it ("3 files" for several).
    pub fn file_name(&self) -> String {
        match self.files.len() {
            0 => self.name.as_deref().unwrap_or("the file").to_string(),
            n => format!("{n} files"),
        }
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
