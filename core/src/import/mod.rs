//! Importers: designs written by other tools, read into keyplan designs.
//!
//! Formats besides keyplan's own: the model JSON that NoSQL Workbench exports (format
//! versions 1.0, 2.0 and 3.0; see [`nosql_workbench`]), the `schema.json` of the DynamoDB
//! data-modeling tool in awslabs/mcp (see [`mcp`]), OneTable schemas (see [`onetable`]) and
//! ElectroDB entities (see [`electrodb`]). [`detect`] tells them apart from their shape;
//! [`detect_and_import`] reads any of them. JavaScript and TypeScript modules are read with
//! oxc's parser behind the `js` feature (see `js`), which the browser app leaves out: there a
//! module is refused with [`ImportError::NeedsJs`], and a OneTable schema in JSON still reads.
//!
//! Importing is pure: text in, a [`Design`] out, with the notes of what the source said that
//! the keyplan model cannot hold. Nothing here reads files. Bad input is an [`ImportError`]
//! saying what is wrong and where (line and column for JSON syntax, a path such as
//! `DataModel[0].KeyAttributes.PartitionKey` for structure), never a panic.

use std::collections::BTreeMap;
use std::fmt;

use serde_json::Value;

use crate::file::FileError;
use crate::model::Design;

pub mod electrodb;
#[cfg(feature = "js")]
pub mod js;
pub mod mcp;
pub mod nosql_workbench;
pub mod onetable;

#[cfg(test)]
mod tests;

/// The formats keyplan reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// keyplan's own design file, `*.keyplan.json`.
    Keyplan,
    /// A NoSQL Workbench model export.
    NosqlWorkbench,
    /// The `schema.json` of awslabs/mcp's DynamoDB data-modeling tool.
    Mcp,
    /// A DynamoDB-OneTable schema, as JSON or as the JavaScript/TypeScript module it is
    /// written in.
    OneTable,
    /// ElectroDB entities and services in a JavaScript/TypeScript module.
    ElectroDb,
}

impl Format {
    /// The name used on the command line: `keyplan`, `nosql-workbench`, `mcp`.
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Keyplan => "keyplan",
            Format::NosqlWorkbench => "nosql-workbench",
            Format::Mcp => "mcp",
            Format::OneTable => "onetable",
            Format::ElectroDb => "electrodb",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What the source declared for one access pattern, for comparison with keyplan's verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Declared {
    /// The operation as the source wrote it: `GetItem`, `Query`, `Scan`, `TransactGet`...
    pub operation: String,
    /// The index the source named; `None` for the table itself.
    pub index: Option<String>,
}

/// A design read from another tool's format.
#[derive(Debug, Clone, PartialEq)]
pub struct Imported {
    pub design: Design,
    /// What the source said that the design cannot hold, or that was guessed, one sentence
    /// each, with where it was.
    pub notes: Vec<String>,
    /// What the source declared for each access pattern, by the pattern's name in the design.
    pub declared: BTreeMap<String, Declared>,
}

impl Imported {
    fn new(design: Design) -> Imported {
        Imported {
            design,
            notes: Vec::new(),
            declared: BTreeMap::new(),
        }
    }
}

/// Why a file could not be imported.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ImportError {
    /// Not JSON.
    #[error("line {line}, column {column}: {message}")]
    Syntax {
        line: usize,
        column: usize,
        message: String,
    },
    /// A required field is absent.
    #[error("{path} missing")]
    Missing { path: String },
    /// A field is present but wrong.
    #[error("{path}: {message}")]
    Invalid { path: String, message: String },
    /// A keyplan design file that does not read.
    #[error(transparent)]
    File(#[from] FileError),
    /// JSON, but none of the formats keyplan reads.
    #[error(
        "not a format keyplan reads: expected a keyplan design (`version` and `entities`), a NoSQL Workbench model (`ModelName` and `DataModel`), an awslabs/mcp schema.json (`tables` with `table_config` and `entities`), a OneTable schema (`indexes` and `models`) or a JavaScript/TypeScript module with ElectroDB entities (`new Entity(...)`) or a OneTable schema"
    )]
    Unrecognised,
    /// Not JSON, and this build cannot read JavaScript or TypeScript (the browser app's).
    #[error(
        "line {line}, column {column}: not JSON ({message}); a OneTable or ElectroDB module in JavaScript or TypeScript is read by the `keyplan` command line and by `keyplan serve` (POST /api/import), not by this build"
    )]
    NeedsJs {
        line: usize,
        column: usize,
        message: String,
    },
    /// The sample-data file of an mcp schema, given on its own.
    #[error(
        "this is the usage data of an awslabs/mcp schema (sample values per entity), not a design: import the schema.json it belongs to"
    )]
    McpUsageData,
}

impl From<serde_json::Error> for ImportError {
    fn from(e: serde_json::Error) -> Self {
        match FileError::from(e) {
            FileError::Syntax {
                line,
                column,
                message,
            } => ImportError::Syntax {
                line,
                column,
                message,
            },
            other => ImportError::File(other),
        }
    }
}

/// Which format `text` is in, from its shape. `Err` when it is none of them.
pub fn detect(text: &str) -> Result<Format, ImportError> {
    let value: Value = match serde_json::from_str(text) {
        Ok(value) => value,
        Err(e) => return detect_module(text, e.into()),
    };
    detect_value(&value)
}

/// A text that is not JSON: a OneTable or ElectroDB module, or the JSON error.
fn detect_module(text: &str, json_error: ImportError) -> Result<Format, ImportError> {
    let looks_like_json = text.trim_start().starts_with(['{', '[']);
    #[cfg(feature = "js")]
    let result = match js::read(text) {
        Ok(module) => js::looks_like(&module).ok_or(ImportError::Unrecognised),
        Err(_) if looks_like_json => Err(json_error),
        Err(js_error) => Err(js_error),
    };
    #[cfg(not(feature = "js"))]
    let result = Err(if looks_like_json {
        json_error
    } else {
        needs_js(json_error)
    });
    result
}

fn detect_value(value: &Value) -> Result<Format, ImportError> {
    let Some(object) = value.as_object() else {
        return Err(ImportError::Unrecognised);
    };
    if object.contains_key("ModelName") || object.contains_key("DataModel") {
        return Ok(Format::NosqlWorkbench);
    }
    if onetable::is_schema(value) {
        return Ok(Format::OneTable);
    }
    if object.contains_key("version") {
        return Ok(Format::Keyplan);
    }
    if let Some(tables) = object.get("tables").and_then(Value::as_array)
        && tables.iter().any(|t| {
            t.get("table_config").is_some() || t.get("entities").is_some_and(Value::is_object)
        })
    {
        return Ok(Format::Mcp);
    }
    if let Some(entities) = object.get("entities").and_then(Value::as_object)
        && entities
            .values()
            .any(|e| e.get("sample_data").is_some() || e.get("access_pattern_data").is_some())
    {
        return Err(ImportError::McpUsageData);
    }
    Err(ImportError::Unrecognised)
}

/// Reads `text` in whichever format it is in.
pub fn detect_and_import(text: &str) -> Result<Imported, ImportError> {
    let value: Value = match serde_json::from_str(text) {
        Ok(value) => value,
        Err(e) => return import(detect_module(text, e.into())?, text),
    };
    let format = detect_value(&value)?;
    import_value(format, text, &value)
}

/// Reads `text` as `format`.
pub fn import(format: Format, text: &str) -> Result<Imported, ImportError> {
    match format {
        Format::OneTable => return onetable::import(text),
        Format::ElectroDb => return electrodb::import(text),
        _ => {}
    }
    let value: Value = serde_json::from_str(text)?;
    import_value(format, text, &value)
}

fn import_value(format: Format, text: &str, value: &Value) -> Result<Imported, ImportError> {
    match format {
        Format::Keyplan => Ok(Imported::new(crate::file::parse(text)?)),
        Format::NosqlWorkbench => nosql_workbench::import_value(value),
        Format::Mcp => mcp::import_value(value),
        Format::OneTable => onetable::import(text),
        Format::ElectroDb => electrodb::import(text),
    }
}

/// The error for a text that is not JSON where a JavaScript module would need the `js` feature.
#[cfg_attr(feature = "js", allow(dead_code))]
pub(crate) fn needs_js(json_error: ImportError) -> ImportError {
    match json_error {
        ImportError::Syntax {
            line,
            column,
            message,
        } => ImportError::NeedsJs {
            line,
            column,
            message,
        },
        other => other,
    }
}

/// Whether a value read from a module stands for code that was not evaluated
/// (`{"$js": "..."}`, see `js`).
pub(crate) fn is_code(value: &Value) -> bool {
    value.get("$js").is_some()
}

/// A JSON value and the path that leads to it (`DataModel[0].KeyAttributes`), for errors that
/// say where.
#[derive(Debug)]
pub(crate) struct At<'a> {
    value: &'a Value,
    path: String,
}

impl<'a> At<'a> {
    pub(crate) fn root(value: &'a Value) -> At<'a> {
        At {
            value,
            path: String::new(),
        }
    }

    pub(crate) fn path(&self) -> &str {
        &self.path
    }

    pub(crate) fn value(&self) -> &'a Value {
        self.value
    }

    fn child_path(&self, key: &str) -> String {
        if self.path.is_empty() {
            key.to_string()
        } else {
            format!("{}.{key}", self.path)
        }
    }

    /// The field `key`, or `None` when absent or null.
    pub(crate) fn get(&self, key: &str) -> Option<At<'a>> {
        match self.value.get(key) {
            None | Some(Value::Null) => None,
            Some(value) => Some(At {
                value,
                path: self.child_path(key),
            }),
        }
    }

    /// The field `key`, which must be there.
    pub(crate) fn require(&self, key: &str) -> Result<At<'a>, ImportError> {
        self.get(key).ok_or_else(|| ImportError::Missing {
            path: self.child_path(key),
        })
    }

    pub(crate) fn invalid(&self, message: impl Into<String>) -> ImportError {
        ImportError::Invalid {
            path: if self.path.is_empty() {
                "the document".to_string()
            } else {
                self.path.clone()
            },
            message: message.into(),
        }
    }

    pub(crate) fn str(&self) -> Result<&'a str, ImportError> {
        self.value
            .as_str()
            .ok_or_else(|| self.invalid(format!("expected text, found {}", kind(self.value))))
    }

    pub(crate) fn bool(&self) -> Result<bool, ImportError> {
        self.value.as_bool().ok_or_else(|| {
            self.invalid(format!(
                "expected true or false, found {}",
                kind(self.value)
            ))
        })
    }

    pub(crate) fn u64(&self) -> Result<u64, ImportError> {
        self.value.as_u64().ok_or_else(|| {
            self.invalid(format!(
                "expected a whole number, found {}",
                kind(self.value)
            ))
        })
    }

    /// The elements of an array, each with its `[i]` path.
    pub(crate) fn array(&self) -> Result<Vec<At<'a>>, ImportError> {
        let items = self
            .value
            .as_array()
            .ok_or_else(|| self.invalid(format!("expected a list, found {}", kind(self.value))))?;
        Ok(items
            .iter()
            .enumerate()
            .map(|(i, value)| At {
                value,
                path: format!("{}[{i}]", self.path),
            })
            .collect())
    }

    /// The members of an object, in the document's key order, each with its path.
    pub(crate) fn members(&self) -> Result<Vec<(&'a str, At<'a>)>, ImportError> {
        let object = self.value.as_object().ok_or_else(|| {
            self.invalid(format!("expected an object, found {}", kind(self.value)))
        })?;
        Ok(object
            .iter()
            .map(|(key, value)| {
                (
                    key.as_str(),
                    At {
                        value,
                        path: self.child_path(key),
                    },
                )
            })
            .collect())
    }

    /// Text, or a list of texts (one attribute or several).
    pub(crate) fn str_or_strs(&self) -> Result<Vec<&'a str>, ImportError> {
        match self.value {
            Value::Array(_) => self.array()?.iter().map(At::str).collect(),
            _ => Ok(vec![self.str()?]),
        }
    }
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "true or false",
        Value::Number(_) => "a number",
        Value::String(_) => "text",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// Escapes literal text for a key template: braces are doubled.
pub(crate) fn template_literal(text: &str) -> String {
    text.replace('{', "{{").replace('}', "}}")
}

/// A name usable as a template variable: no braces, colons or white space.
pub(crate) fn variable_name(name: &str) -> String {
    let cleaned: String = name
        .chars()
        .map(|c| {
            if c == '{' || c == '}' || c == ':' || c.is_whitespace() {
                '_'
            } else {
                c
            }
        })
        .collect();
    if cleaned.is_empty() {
        "value".to_string()
    } else {
        cleaned
    }
}

/// Makes `name` unique among `taken` by appending 2, 3... and records it.
pub(crate) fn unique_name(name: &str, taken: &mut Vec<String>) -> String {
    let mut candidate = name.to_string();
    let mut n = 2;
    while taken.iter().any(|t| t == &candidate) {
        candidate = format!("{name}{n}");
        n += 1;
    }
    taken.push(candidate.clone());
    candidate
}

/// Plain JSON as a DynamoDB value: text S, number N, true/false BOOL, null NULL, object M,
/// list L.
pub(crate) fn plain_value(value: &Value) -> crate::item::AttributeValue {
    use crate::item::AttributeValue;
    match value {
        Value::Null => AttributeValue::Null(true),
        Value::Bool(b) => AttributeValue::Bool(*b),
        Value::Number(n) => AttributeValue::N(n.to_string()),
        Value::String(s) => AttributeValue::S(s.clone()),
        Value::Array(list) => AttributeValue::L(list.iter().map(plain_value).collect()),
        Value::Object(members) => AttributeValue::M(
            members
                .iter()
                .map(|(k, v)| (k.clone(), plain_value(v)))
                .collect(),
        ),
    }
}
