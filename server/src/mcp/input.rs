//! What the MCP tools read, and how they say it is wrong: a design given inline as `design`
//! (the design file's JSON, or as a string the text of any format keyplan reads) or, over
//! stdio only, named by `path`; each refused past [`MAX_DESIGN_BYTES`] before it is parsed.
//!
//! A design that does not read is a [`ToolError`] saying what is wrong and where: the JSON path
//! in the argument (`design.entities[1].name`) when the design was given as JSON, the line and
//! column when it was given as text or a file. Nothing here reads a file over HTTP: a `path`
//! there is refused, so a client of `keyplan serve` can never make it read the server's disk.

use keyplan_core::import::{Format, ImportError, Imported};
use keyplan_core::model::Design;
use schemars::JsonSchema;
use serde::Deserialize;

use crate::design_io::{self, import_as, import_error, why_unreadable};

/// The most bytes a design (inline or a file) may hold: what the HTTP API reads in a body.
pub const MAX_DESIGN_BYTES: usize = crate::api::extract::BODY_LIMIT;

/// Whether the tools may read files a `path` names: over stdio (the user's own process), not
/// over HTTP.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Files {
    Readable,
    Refused,
}

/// A tool's answer when its input is wrong: what, and where (an argument, a JSON path in it,
/// a pattern's name). The client sees it as a tool result with `isError`, so an agent can
/// correct its call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolError {
    pub message: String,
    pub at: Option<String>,
}

impl ToolError {
    pub fn new(message: impl Into<String>, at: impl Into<String>) -> ToolError {
        ToolError {
            message: message.into(),
            at: Some(at.into()),
        }
    }

    /// An error that is about the whole call rather than one place in it.
    pub fn general(message: impl Into<String>) -> ToolError {
        ToolError {
            message: message.into(),
            at: None,
        }
    }
}

impl From<crate::ApiError> for ToolError {
    fn from(error: crate::ApiError) -> ToolError {
        ToolError::general(error.to_string())
    }
}

/// A design argument: `design` inline or, over stdio, `path`.
// Not `deny_unknown_fields`: each tool's arguments flatten it in, which serde does not allow
// with it.
#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct DesignSource {
    /// The design: a keyplan design file's JSON object (`*.keyplan.json`), or, as a string,
    /// the text of any format keyplan reads (NoSQL Workbench, awslabs/mcp schema.json,
    /// CloudFormation, Terraform, OneTable, ElectroDB).
    #[serde(default)]
    pub design: Option<serde_json::Value>,
    /// Over stdio only: a design file to read instead of `design` (relative to the server's
    /// working directory).
    #[serde(default)]
    pub path: Option<String>,
}

/// A design that was read: its design, the format it was read as, and the label errors and
/// reports name it by (the file, or the argument).
#[derive(Debug)]
pub struct Read {
    pub label: String,
    pub format: Format,
    pub imported: Imported,
}

impl Read {
    pub fn design(&self) -> &Design {
        &self.imported.design
    }
}

/// Reads the design `source` gives; `argument` names it in errors (`design`, `old`, `new`).
pub fn read(source: &DesignSource, argument: &str, files: Files) -> Result<Read, ToolError> {
    let path_argument = if argument == "design" {
        "path".to_string()
    } else {
        format!("{argument}_path")
    };
    match (&source.design, &source.path) {
        (Some(_), Some(_)) => Err(ToolError::new(
            format!("give either `{argument}` or `{path_argument}`, not both"),
            path_argument,
        )),
        (None, None) => Err(ToolError::new(
            format!("`{argument}` is missing: give the design file's JSON"),
            argument,
        )),
        (None, Some(path)) => read_file(path, &path_argument, files),
        (Some(value), None) => read_value(value, argument),
    }
}

fn read_file(path: &str, argument: &str, files: Files) -> Result<Read, ToolError> {
    if files == Files::Refused {
        return Err(ToolError::new(
            format!(
                "`{argument}` is read only by `keyplan mcp` over stdio; over HTTP give the design itself"
            ),
            argument,
        ));
    }
    let size = std::fs::metadata(path)
        .map_err(|e| ToolError::new(format!("{path}: cannot read: {e}"), argument))?
        .len();
    if size > MAX_DESIGN_BYTES as u64 {
        return Err(too_large(path, size as usize, argument));
    }
    let text = std::fs::read_to_string(path).map_err(|e| {
        ToolError::new(
            format!("{path}: cannot read: {}", why_unreadable(&e)),
            argument,
        )
    })?;
    import_as(&text, design_io::From::default())
        .map(|(format, imported)| Read {
            label: path.to_string(),
            format,
            imported,
        })
        .map_err(|e| ToolError::new(import_error(path, design_io::From::default(), &e), argument))
}

fn too_large(label: &str, bytes: usize, argument: &str) -> ToolError {
    ToolError::new(
        format!(
            "{label} is {bytes} bytes, more than the {MAX_DESIGN_BYTES} bytes a design may have here"
        ),
        argument,
    )
}

fn read_value(value: &serde_json::Value, argument: &str) -> Result<Read, ToolError> {
    // A string is a file's text, whose own lines and columns the errors name; anything else
    // is the design's JSON, written out here, so a line and column are turned back into the
    // path in the argument.
    let (text, from_json) = match value {
        serde_json::Value::String(text) => (text.clone(), false),
        other => (
            serde_json::to_string_pretty(other)
                .map_err(|e| ToolError::new(e.to_string(), argument))?,
            true,
        ),
    };
    if text.len() > MAX_DESIGN_BYTES {
        return Err(too_large(&format!("`{argument}`"), text.len(), argument));
    }
    match import_as(&text, design_io::From::default()) {
        Ok((format, imported)) => Ok(Read {
            label: argument.to_string(),
            format,
            imported,
        }),
        Err(error) => {
            let at = match (&error, from_json) {
                (ImportError::Syntax { line, column, .. }, true)
                | (
                    ImportError::File(keyplan_core::file::FileError::Syntax {
                        line, column, ..
                    }),
                    true,
                ) => json_path_at(argument, &text, *line, *column),
                (ImportError::Missing { path } | ImportError::Invalid { path, .. }, _) => {
                    format!("{argument}.{path}")
                }
                _ => argument.to_string(),
            };
            let message = match (&error, from_json) {
                // The line and column are of the text written here, not the caller's: the
                // path says where instead.
                (
                    ImportError::File(keyplan_core::file::FileError::Syntax { message, .. })
                    | ImportError::Syntax { message, .. },
                    true,
                ) => format!("{at}: {message}"),
                _ => import_error(argument, design_io::From::default(), &error),
            };
            Err(ToolError::new(message, at))
        }
    }
}

/// A tool's arguments, read so that arguments that do not fit the tool's input schema say
/// where: `arguments.pattern: invalid type: integer `5`, expected a string`. Its schema is
/// `T`'s.
#[derive(Debug)]
pub struct Arguments<T>(pub T);

impl<'de, T: serde::de::DeserializeOwned> Deserialize<'de> for Arguments<T> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        use serde::de::Error as _;
        let value = serde_json::Value::deserialize(deserializer)?;
        let text = serde_json::to_string_pretty(&value).map_err(D::Error::custom)?;
        serde_json::from_str(&text).map(Arguments).map_err(|e| {
            let at = json_path_at("arguments", &text, e.line(), e.column());
            match keyplan_core::file::FileError::from(e) {
                keyplan_core::file::FileError::Syntax { message, .. } => {
                    D::Error::custom(format!("{at}: {message}"))
                }
                other => D::Error::custom(format!("{at}: {other}")),
            }
        })
    }
}

impl<T: JsonSchema> JsonSchema for Arguments<T> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        T::schema_name()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        T::json_schema(generator)
    }

    fn inline_schema() -> bool {
        T::inline_schema()
    }
}

/// The JSON path (`design.entities[1].name`) of what is at `line` and `column` (1-based) of
/// `text`, a JSON document, under the root name `root`: the member or element being read
/// there, as serde_json's errors point just past it.
pub fn json_path_at(root: &str, text: &str, line: usize, column: usize) -> String {
    enum Frame {
        Object { key: Option<String>, at_key: bool },
        Array { index: usize },
    }
    let mut frames: Vec<Frame> = Vec::new();
    let (mut at_line, mut at_column) = (1, 0);
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\n' {
            at_line += 1;
            at_column = 0;
        } else {
            at_column += 1;
        }
        if (at_line, at_column) > (line, column) {
            break;
        }
        match c {
            '{' => frames.push(Frame::Object {
                key: None,
                at_key: true,
            }),
            '[' => frames.push(Frame::Array { index: 0 }),
            '}' | ']' => {
                frames.pop();
            }
            ',' => match frames.last_mut() {
                Some(Frame::Object { at_key, .. }) => *at_key = true,
                Some(Frame::Array { index }) => *index += 1,
                None => {}
            },
            ':' => {
                if let Some(Frame::Object { at_key, .. }) = frames.last_mut() {
                    *at_key = false;
                }
            }
            '"' => {
                let mut string = String::new();
                let mut escaped = false;
                for s in chars.by_ref() {
                    at_column += 1;
                    match (escaped, s) {
                        (false, '\\') => escaped = true,
                        (false, '"') => break,
                        _ => {
                            escaped = false;
                            string.push(s);
                        }
                    }
                }
                if let Some(Frame::Object { key, at_key: true }) = frames.last_mut() {
                    *key = Some(string);
                }
            }
            _ => {}
        }
    }
    let mut path = root.to_string();
    for frame in &frames {
        match frame {
            Frame::Object { key: Some(key), .. } => {
                path.push('.');
                path.push_str(key);
            }
            Frame::Object { key: None, .. } => {}
            Frame::Array { index } => path.push_str(&format!("[{index}]")),
        }
    }
    path
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn path_of(text: &str) -> String {
        let error = serde_json::from_str::<Design>(text).unwrap_err();
        json_path_at("design", text, error.line(), error.column())
    }

    #[test]
    fn a_design_error_is_placed_by_its_json_path() {
        let cases = [
            serde_json::json!({"version": 1, "tabels": []}),
            serde_json::json!({
                "version": 1, "name": "x", "tables": [],
                "entities": [{"name": "A", "attributes": [{"name": "id", "type": 5}]}],
                "patterns": []
            }),
            // A member missing: the object it is missing from.
            serde_json::json!({
                "version": 1, "name": "x", "tables": [],
                "entities": [{"name": "A"}], "patterns": []
            }),
        ];
        let paths: Vec<String> = cases
            .iter()
            .map(|value| path_of(&serde_json::to_string_pretty(value).unwrap()))
            .collect();
        expect_test::expect![[r#"
            [
                "design.tabels",
                "design.entities[0].attributes[0].type",
                "design.entities[0]",
            ]
        "#]]
        .assert_debug_eq(&paths);
    }

    #[test]
    fn a_design_given_as_json_that_does_not_read_says_where() {
        let source = DesignSource {
            design: Some(serde_json::json!({
                "version": 1, "name": "x", "tables": [],
                "entities": [{"name": 5}], "patterns": []
            })),
            path: None,
        };
        let error = read(&source, "design", Files::Refused).unwrap_err();
        expect_test::expect![[r#"
            ToolError {
                message: "design.entities[0].name: invalid type: integer `5`, expected a string",
                at: Some(
                    "design.entities[0].name",
                ),
            }
        "#]]
        .assert_debug_eq(&error);
    }

    #[test]
    fn a_path_is_refused_over_http_and_a_large_design_before_it_is_parsed() {
        let source = DesignSource {
            design: None,
            path: Some("examples/order-management.keyplan.json".into()),
        };
        let error = read(&source, "design", Files::Refused).unwrap_err();
        assert_eq!(error.at.as_deref(), Some("path"), "{error:?}");
        let source = DesignSource {
            design: Some(serde_json::Value::String("x".repeat(MAX_DESIGN_BYTES + 1))),
            path: None,
        };
        let error = read(&source, "design", Files::Readable).unwrap_err();
        assert!(error.message.contains("more than the"), "{error:?}");
    }
}
