//! Importers: designs written by other tools, read into keyplan designs.
//!
//! Besides keyplan's own: the model JSON that NoSQL Workbench exports (format versions 1.0,
//! 2.0 and 3.0; see [`nosql_workbench`]), the `schema.json` of the DynamoDB data-modeling tool
//! in awslabs/mcp (see [`mcp`]), CloudFormation templates (see [`cloudformation`]) and
//! Terraform configuration (see [`terraform`]), OneTable schemas (see [`onetable`]),
//! ElectroDB entities (see [`electrodb`]), DynamoDB-Toolbox tables and entities (see
//! [`toolbox`]) and Dynamoose models (see [`dynamoose`]). Each format is one entry of a list of readers,
//! each saying whether a text has its shape and how to read it; [`detect`] tries them in
//! order, and when none fits it says why each did not; [`detect_and_import`] reads any of them.
//! JavaScript and TypeScript modules are read with oxc's parser behind the `js` feature (see
//! `js`), which the browser app leaves out: there a module is refused with
//! [`ImportError::NeedsJs`], and a OneTable schema in JSON still reads.
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

pub use assumed::Assumption;
pub use several::import_files;

pub mod assumed;
pub mod cloudformation;
pub mod dynamoose;
pub mod electrodb;
pub mod folder;
#[cfg(feature = "js")]
pub mod js;
pub mod live;
pub mod mcp;
pub mod nosql_workbench;
pub mod onetable;
pub mod several;
pub mod terraform;
pub mod toolbox;

mod json_keys;
mod scaling;
use json_keys::{Values, top_level_keys};

#[cfg(test)]
mod bomb_tests;
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
    /// A CloudFormation template (JSON or YAML) with `AWS::DynamoDB::Table` or
    /// `AWS::DynamoDB::GlobalTable` resources.
    CloudFormation,
    /// Terraform configuration (HCL) with `aws_dynamodb_table` resources.
    Terraform,
    /// A DynamoDB-OneTable schema, as JSON or as the JavaScript/TypeScript module it is
    /// written in.
    OneTable,
    /// ElectroDB entities and services in a JavaScript/TypeScript module.
    ElectroDb,
    /// DynamoDB-Toolbox v2 tables and entities, in a JavaScript/TypeScript module or as the
    /// library's TableDTO/EntityDTO JSON.
    Toolbox,
    /// Dynamoose schemas and models in a JavaScript/TypeScript module.
    Dynamoose,
}

impl Format {
    /// Every format, in the order detection tries them.
    pub const ALL: [Format; 9] = [
        Format::OneTable,
        Format::Keyplan,
        Format::NosqlWorkbench,
        Format::Mcp,
        Format::CloudFormation,
        Format::Terraform,
        Format::ElectroDb,
        Format::Toolbox,
        Format::Dynamoose,
    ];

    /// The name used on the command line: `keyplan`, `nosql-workbench`, `mcp`...
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Keyplan => "keyplan",
            Format::NosqlWorkbench => "nosql-workbench",
            Format::Mcp => "mcp",
            Format::CloudFormation => "cloudformation",
            Format::Terraform => "terraform",
            Format::OneTable => "onetable",
            Format::ElectroDb => "electrodb",
            Format::Toolbox => "dynamodb-toolbox",
            Format::Dynamoose => "dynamoose",
        }
    }

    /// The format in words, with its article: "a NoSQL Workbench model".
    pub fn described(self) -> &'static str {
        match self {
            Format::Keyplan => "a keyplan design",
            Format::NosqlWorkbench => "a NoSQL Workbench model",
            Format::Mcp => "an awslabs/mcp schema.json",
            Format::CloudFormation => "a CloudFormation template",
            Format::Terraform => "a Terraform configuration",
            Format::OneTable => "a OneTable schema",
            Format::ElectroDb => "an ElectroDB module",
            Format::Toolbox => "a DynamoDB-Toolbox module or DTO",
            Format::Dynamoose => "a Dynamoose module",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for Format {
    type Err = String;
    fn from_str(name: &str) -> Result<Format, String> {
        Format::ALL
            .into_iter()
            .find(|f| f.as_str() == name)
            .ok_or_else(|| {
                let names: Vec<&str> = Format::ALL.iter().map(|f| f.as_str()).collect();
                format!("unknown format `{name}`: expected {}", names.join(", "))
            })
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
    /// What the source states that could not be read, with where, and what was assumed in its
    /// place (see [`assumed`]).
    pub assumed: Vec<Assumption>,
    /// What the source declared for each access pattern, by the pattern's name in the design.
    pub declared: BTreeMap<String, Declared>,
    /// What the file held, in words, where the format's name does not say it ("an ElectroDB
    /// service"); `None`: [`Format::described`].
    pub held: Option<String>,
    /// How many collections (ElectroDB's reads of several entities) were read; each is a
    /// pattern of the design.
    pub collections: usize,
}

impl Imported {
    fn new(design: Design) -> Imported {
        Imported {
            design,
            notes: Vec::new(),
            assumed: Vec::new(),
            declared: BTreeMap::new(),
            held: None,
            collections: 0,
        }
    }

    /// What was read, in words, for the message that says what a file was opened as: "an
    /// ElectroDB service: 4 entities, 3 collections", "a CloudFormation template: 2 tables, no
    /// entities" (issue 15). The formats of code (OneTable, ElectroDB) count what their
    /// authors wrote, entities and collections; the others count tables first.
    pub fn summary(&self, format: Format) -> String {
        let design = &self.design;
        let plural = |n: usize, one: &str, many: &str| match n {
            1 => format!("1 {one}"),
            n => format!("{n} {many}"),
        };
        let tables = plural(design.tables.len(), "table", "tables");
        let entities = match design.entities.len() {
            0 => "no entities".to_string(),
            n => plural(n, "entity", "entities"),
        };
        let mut counts = match format {
            Format::OneTable | Format::ElectroDb | Format::Toolbox | Format::Dynamoose
                if design.tables.len() <= 1 =>
            {
                vec![entities]
            }
            _ => vec![tables, entities],
        };
        if self.collections > 0 {
            counts.push(plural(self.collections, "collection", "collections"));
        }
        format!(
            "{}: {}",
            self.held.as_deref().unwrap_or(format.described()),
            counts.join(", ")
        )
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
    /// None of the formats keyplan reads: why each did not fit, and what the file looks like
    /// when it is a format keyplan knows but does not read.
    #[error("{}", unrecognised(tried, looks_like.as_deref()))]
    Unrecognised {
        /// Each format tried, and why it did not fit (with line and column where the text
        /// did not parse).
        tried: Vec<(Format, String)>,
        looks_like: Option<String>,
    },
    /// Larger than a reader takes, refused before it is parsed.
    #[error("{bytes} bytes is more than the {limit} bytes {what} can be here")]
    TooLarge {
        bytes: usize,
        limit: usize,
        what: &'static str,
    },
    /// Not JSON, and this build cannot read JavaScript or TypeScript (the browser app's).
    #[error(
        "line {line}, column {column}: not JSON ({message}); a OneTable, ElectroDB, DynamoDB-Toolbox or Dynamoose module in JavaScript or TypeScript is read by the `keyplan` command line and by `keyplan serve` (POST /api/import), not by this build"
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

/// The message of [`ImportError::Unrecognised`].
fn unrecognised(tried: &[(Format, String)], looks_like: Option<&str>) -> String {
    let mut out = String::from("not a format keyplan reads");
    if let Some(looks_like) = looks_like {
        out += &format!(": it looks like {looks_like}, which keyplan does not read yet");
    }
    let formats: Vec<String> = Format::ALL
        .iter()
        .map(|f| match f {
            Format::CloudFormation => format!("{} (JSON or YAML)", f.described()),
            Format::Terraform => format!("{} (HCL)", f.described()),
            Format::OneTable => format!("{} (JSON or JavaScript/TypeScript)", f.described()),
            Format::ElectroDb | Format::Dynamoose => {
                format!("{} (JavaScript/TypeScript)", f.described())
            }
            Format::Toolbox => format!("{} (JavaScript/TypeScript or JSON)", f.described()),
            _ => f.described().to_string(),
        })
        .collect();
    if let Some((last, rest)) = formats.split_last() {
        out += &format!(". keyplan reads {} or {last}", rest.join(", "));
    }
    // Formats that failed for the same reason (not JSON, say) share one line.
    let mut lines: Vec<(Vec<&str>, &str)> = Vec::new();
    for (format, why) in tried {
        match lines.iter_mut().find(|(_, w)| *w == why.as_str()) {
            Some((formats, _)) => formats.push(format.described()),
            None => lines.push((vec![format.described()], why)),
        }
    }
    for (formats, why) in lines {
        let names = match formats.split_last() {
            Some((last, [])) => last.to_string(),
            Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
            None => continue,
        };
        out += &format!("\n  not {names}: {why}");
    }
    out
}

/// The largest file in another tool's JSON format read (NoSQL Workbench, mcp, OneTable,
/// CloudFormation JSON): 32 MB. Real Workbench models carry their sample items, and one of
/// 80,000 items (the editor's storage test, issue 12) is 20 MB, so the bound sits above that; a
/// larger file (the 50 MB hostile file of `scripts/hostile-imports`) is refused before it is
/// parsed. `POST /api/import` takes at most 2 MB, its body limit. keyplan's own design files
/// have no such bound.
/// 1-based line and column of a byte offset.
pub fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

/// Whether this build reads JavaScript and TypeScript modules itself (core's `js` feature; the
/// browser app's build does not).
pub const READS_MODULES: bool = cfg!(feature = "js");

pub const MAX_IMPORT_BYTES: usize = 32 * 1024 * 1024;

fn too_large(text: &str) -> ImportError {
    ImportError::TooLarge {
        bytes: text.len(),
        limit: MAX_IMPORT_BYTES,
        what: "a file in another tool's format",
    }
}

/// A file's text and its parses, each made once, when a reader first asks for it, for
/// detection and then the reader it chose: the reader takes the source, and with it what was
/// parsed (a NoSQL Workbench model's items, read beside its JSON tree, move into the design).
pub(crate) struct Source<'a> {
    pub(crate) text: &'a str,
    json: std::cell::OnceCell<Result<nosql_workbench::Json, ImportError>>,
    yaml: std::cell::OnceCell<Result<Value, ImportError>>,
    hcl: std::cell::OnceCell<Result<hcl::Body, ImportError>>,
    /// What the text is as a JavaScript/TypeScript module: OneTable, ElectroDB or neither.
    #[cfg(feature = "js")]
    module: std::cell::OnceCell<Result<Option<Format>, ImportError>>,
}

impl<'a> Source<'a> {
    pub(crate) fn new(text: &'a str) -> Source<'a> {
        Source {
            text,
            json: Default::default(),
            yaml: Default::default(),
            hcl: Default::default(),
            #[cfg(feature = "js")]
            module: Default::default(),
        }
    }

    /// The text as JSON, when it is at most [`MAX_IMPORT_BYTES`] long: the tree, without a
    /// NoSQL Workbench model's items (see [`Source::into_json`]).
    pub(crate) fn json(&self) -> Result<&Value, ImportError> {
        self.json
            .get_or_init(|| parse_json(self.text))
            .as_ref()
            .map(|json| &json.value)
            .map_err(Clone::clone)
    }

    /// The text as JSON, with a NoSQL Workbench model's items read beside the tree, parsed
    /// now unless detection did already.
    fn into_json(self) -> Result<nosql_workbench::Json, ImportError> {
        match self.json.into_inner() {
            Some(json) => json,
            None => parse_json(self.text),
        }
    }

    /// `Err(Missing)` when the text, not parsed yet, is a JSON object without the member
    /// `name`: a reader asked for a file by name answers that its top-level member is missing,
    /// as parsing the file would, without building the tree. `mcp` and `cloudformation` took
    /// 300 ms to say so of a 32 MB NoSQL Workbench model (issue 15); the names are read in
    /// one pass that takes exactly the text the parse takes, so a syntax error or nesting too
    /// deep is still the parse's to report (`Ok`). A file that has the member is read twice,
    /// the pass costing a fraction of the parse.
    pub(crate) fn require_member(&self, name: &str) -> Result<(), ImportError> {
        let lacks = self.json.get().is_none()
            && self.text.len() <= MAX_IMPORT_BYTES
            && top_level_keys(self.text, Values::Checked)
                .is_some_and(|keys| !keys.iter().any(|key| key == name));
        if lacks {
            return Err(ImportError::Missing { path: name.into() });
        }
        Ok(())
    }

    /// The text as YAML, read into JSON values (CloudFormation's short-form tags become their
    /// long form: `!Ref x` is `{"Ref": "x"}`).
    pub(crate) fn yaml(&self) -> Result<&Value, ImportError> {
        self.yaml
            .get_or_init(|| cloudformation::parse_yaml(self.text))
            .as_ref()
            .map_err(Clone::clone)
    }

    /// The text as HCL.
    pub(crate) fn hcl(&self) -> Result<&hcl::Body, ImportError> {
        self.hcl
            .get_or_init(|| terraform::parse_hcl(self.text))
            .as_ref()
            .map_err(Clone::clone)
    }

    /// Whether the text, as a JavaScript/TypeScript module, holds `format`'s models: `Ok` when
    /// it does, else why not. Without the `js` feature a module cannot be read here.
    fn module_is(&self, format: Format) -> Result<(), String> {
        if self.json().is_ok() {
            return Err("it is JSON, not a JavaScript or TypeScript module".into());
        }
        #[cfg(feature = "js")]
        {
            let found = self
                .module
                .get_or_init(|| js::read(self.text).map(|m| module_format(&m)));
            match found {
                Ok(Some(f)) if *f == format => Ok(()),
                Ok(_) => Err(format!("a module without {}", format.described())),
                Err(e) => Err(format!("not a JavaScript or TypeScript module ({e})")),
            }
        }
        #[cfg(not(feature = "js"))]
        {
            let _ = format;
            Err("modules are read by the `keyplan` command line and `keyplan serve`, not by this build".into())
        }
    }

    /// The JSON object, or why the text is not one.
    fn json_object(&self) -> Result<&serde_json::Map<String, Value>, String> {
        match self.json() {
            Ok(Value::Object(object)) => Ok(object),
            Ok(other) => Err(format!("the JSON is {}, not an object", kind(other))),
            Err(e) => Err(format!("not JSON ({e})")),
        }
    }
}

/// Which library's models a JavaScript/TypeScript module holds, for detection: DynamoDB-Toolbox
/// tables or entities, a Dynamoose schema or model, ElectroDB entities or services, or a OneTable
/// schema. Here, above the readers, so the value reader (`js`) knows none of them.
#[cfg(feature = "js")]
pub(crate) fn module_format(module: &js::Module) -> Option<Format> {
    if module
        .news
        .iter()
        .any(|n| toolbox::module_is_table(n) || toolbox::module_is_entity(n))
    {
        return Some(Format::Toolbox);
    }
    if module.news.iter().any(|n| n.class == "Schema") || !module.calls.is_empty() {
        return Some(Format::Dynamoose);
    }
    if module
        .news
        .iter()
        .any(|n| n.class == "Entity" || n.class == "Service")
        || module.consts.iter().any(|(_, v)| electrodb::is_schema(v))
        || module
            .default_export
            .as_ref()
            .is_some_and(electrodb::is_schema)
    {
        return Some(Format::ElectroDb);
    }
    let is_schema = |v: &Value| v.get("models").is_some_and(Value::is_object);
    if module.consts.iter().any(|(_, v)| is_schema(v))
        || module.default_export.as_ref().is_some_and(is_schema)
        || module.news.iter().any(|n| {
            n.class == "Table"
                && n.args
                    .first()
                    .and_then(|a| a.get("schema"))
                    .is_some_and(is_schema)
        })
    {
        return Some(Format::OneTable);
    }
    None
}

/// [`Source::json`]'s parse: JSON of at most [`MAX_IMPORT_BYTES`].
fn parse_json(text: &str) -> Result<nosql_workbench::Json, ImportError> {
    if text.len() > MAX_IMPORT_BYTES {
        return Err(too_large(text));
    }
    nosql_workbench::parse_json(text)
}

/// One format's reader: whether a text is in the format, and how to read it. Detection tries
/// [`READERS`] in order; a new format is one more entry.
struct Reader {
    format: Format,
    /// `Ok` when the text has this format's shape, else why not, in words.
    fits: fn(&Source<'_>) -> Result<(), String>,
    read: fn(Source<'_>) -> Result<Imported, ImportError>,
}

const READERS: &[Reader] = &[
    // Before keyplan's own: a OneTable schema has a `version` too.
    Reader {
        format: Format::OneTable,
        fits: |source| match source.json() {
            Ok(value) if onetable::is_schema(value) => Ok(()),
            Ok(_) => Err("no `models` and `indexes` objects".into()),
            Err(_) => source.module_is(Format::OneTable),
        },
        read: |source| onetable::import(source.text),
    },
    Reader {
        format: Format::Keyplan,
        fits: |source| match source.json_object()?.get("version") {
            Some(Value::Number(_)) => Ok(()),
            Some(other) => Err(format!(
                "`version` is {}; a keyplan design's is a number",
                kind(other)
            )),
            None => Err("no `version`".into()),
        },
        read: |source| Ok(Imported::new(crate::file::parse(source.text)?)),
    },
    Reader {
        format: Format::NosqlWorkbench,
        fits: |source| {
            let object = source.json_object()?;
            if object.contains_key("ModelName") || object.contains_key("DataModel") {
                Ok(())
            } else {
                Err("no `ModelName` or `DataModel`".into())
            }
        },
        read: |source| {
            let text = source.text;
            nosql_workbench::import_json(source.into_json()?, text)
        },
    },
    Reader {
        format: Format::Mcp,
        fits: |source| {
            let tables = source
                .json_object()?
                .get("tables")
                .and_then(Value::as_array);
            match tables {
                Some(tables)
                    if tables.iter().any(|t| {
                        t.get("table_config").is_some()
                            || t.get("entities").is_some_and(Value::is_object)
                    }) =>
                {
                    Ok(())
                }
                Some(_) => Err("no table in `tables` has a `table_config` or `entities`".into()),
                None => Err("no `tables` list".into()),
            }
        },
        read: |source| {
            source.require_member("tables")?;
            mcp::import_value(source.json()?)
        },
    },
    Reader {
        format: Format::CloudFormation,
        fits: cloudformation::fits,
        read: |source| cloudformation::import_source(&source),
    },
    Reader {
        format: Format::Terraform,
        fits: terraform::fits,
        read: |source| terraform::import_source(&source),
    },
    Reader {
        format: Format::ElectroDb,
        fits: |source| source.module_is(Format::ElectroDb),
        read: |source| electrodb::import(source.text),
    },
    Reader {
        format: Format::Toolbox,
        fits: |source| match source.json() {
            Ok(value) if toolbox::is_dto(value) => Ok(()),
            Ok(_) => Err("no EntityDTO (`entityName`, `schema`, `table`) or TableDTO".into()),
            Err(_) => source.module_is(Format::Toolbox),
        },
        read: |source| toolbox::import(source.text),
    },
    Reader {
        format: Format::Dynamoose,
        // `model(...)` and `new Schema(...)` are Mongoose's words too: the module names
        // Dynamoose.
        fits: |source| {
            source.module_is(Format::Dynamoose)?;
            if source.text.contains("dynamoose") {
                Ok(())
            } else {
                Err("a module that does not name dynamoose".into())
            }
        },
        read: |source| dynamoose::import(source.text),
    },
];

/// Shapes of formats keyplan knows but does not read, for the message when nothing fits: the
/// JSON members that give each away. A format that gains a reader leaves this list (OneTable
/// and ElectroDB did).
const KNOWN_UNREAD: &[(&str, &[&str])] = &[];

fn reader(format: Format) -> &'static Reader {
    READERS
        .iter()
        .find(|r| r.format == format)
        .unwrap_or_else(|| unreachable!("every format has a reader: {format}"))
}

/// Which format `text` is in, from its shape. `Err` when it is none of them, saying why each
/// did not fit.
pub fn detect(text: &str) -> Result<Format, ImportError> {
    detect_source(&Source::new(text))
}

fn detect_source(source: &Source<'_>) -> Result<Format, ImportError> {
    // Larger than another tool's file is read: a keyplan design file (its top-level names say
    // so, read without building the values), or refused before anything is parsed.
    if source.text.len() > MAX_IMPORT_BYTES {
        let keys = top_level_keys(source.text, Values::Skipped).unwrap_or_default();
        let has = |name: &str| keys.iter().any(|k| k == name);
        if has("version") && !(has("models") && has("indexes")) {
            return Ok(Format::Keyplan);
        }
        return Err(too_large(source.text));
    }
    // Text that opens like JSON and is not: its syntax error, with line and column, is the
    // answer (every format that takes JSON would say the same).
    if let Err(e @ ImportError::Syntax { .. }) = source.json()
        && source.text.trim_start().starts_with(['{', '['])
    {
        return Err(e);
    }
    let mut tried = Vec::new();
    for reader in READERS {
        match (reader.fits)(source) {
            Ok(()) => return Ok(reader.format),
            Err(why) => tried.push((reader.format, why)),
        }
    }
    if let Ok(Value::Object(object)) = source.json() {
        if let Some(entities) = object.get("entities").and_then(Value::as_object)
            && entities
                .values()
                .any(|e| e.get("sample_data").is_some() || e.get("access_pattern_data").is_some())
        {
            return Err(ImportError::McpUsageData);
        }
        let looks_like = KNOWN_UNREAD
            .iter()
            .find(|(_, members)| members.iter().all(|m| object.contains_key(*m)))
            .map(|(what, _)| what.to_string());
        return Err(ImportError::Unrecognised { tried, looks_like });
    }
    // Not JSON, no reader took it, and it reads like a JavaScript module (it imports or
    // exports): its syntax error, with line and column, is the answer (the other formats'
    // reasons say nothing to its author); where modules cannot be read, say where one would
    // be, at the JSON error's place.
    if let Err(json_error @ ImportError::Syntax { .. }) = source.json()
        && ["import ", "export ", "require("]
            .iter()
            .any(|word| source.text.contains(word))
    {
        #[cfg(feature = "js")]
        if let Some(Err(e @ ImportError::Syntax { .. })) = source.module.get() {
            let _ = json_error;
            return Err(e.clone());
        }
        #[cfg(not(feature = "js"))]
        return Err(needs_js(json_error));
    }
    Err(ImportError::Unrecognised {
        tried,
        looks_like: None,
    })
}

/// Why a build without the `js` feature does not read a module of `models` (ElectroDB
/// entities, Dynamoose schemas): JSON is not such a module, and anything else needs the
/// JavaScript reader ([`ImportError::NeedsJs`]).
#[cfg(not(feature = "js"))]
pub(crate) fn module_without_js(text: &str, models: &str) -> ImportError {
    match serde_json::from_str::<serde_json::Value>(text) {
        Ok(_) => ImportError::Invalid {
            path: "the document".to_string(),
            message: format!("{models} are JavaScript or TypeScript, not JSON"),
        },
        Err(e) => needs_js(e.into()),
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

/// The key under which a value read from a module keeps the line of code that was not
/// evaluated, and its file's (see `js`).
pub(crate) const CODE_LINE: &str = "$line";
pub(crate) const CODE_FILE: &str = "$file";

/// An [`Assumption`] about `value`, which could not be read: placed at the line (and file) of
/// the code it stands for, when it is such a value (line 0 otherwise).
pub(crate) fn assumption_of(
    value: &Value,
    what: impl Into<String>,
    assumed: impl Into<String>,
) -> Assumption {
    let line = value.get(CODE_LINE).and_then(Value::as_u64).unwrap_or(0);
    let assumption = Assumption::at(usize::try_from(line).unwrap_or(0), what, assumed);
    match value.get(CODE_FILE).and_then(Value::as_str) {
        Some(file) => assumption.in_file(file),
        None => assumption,
    }
}

/// Reads `text` in whichever format it is in.
pub fn detect_and_import(text: &str) -> Result<Imported, ImportError> {
    detect_and_import_as(text).map(|(_, imported)| imported)
}

/// Reads `text` in whichever format it is in, and says which that was.
pub fn detect_and_import_as(text: &str) -> Result<(Format, Imported), ImportError> {
    // A keyplan design of this version, what keyplan's own commands read most, in one parse:
    // detection built its whole JSON tree first, then the reader parsed the text again (an
    // 18 MB design of 10,000 entities, issue 13). The answer is the same: a design has no
    // member it does not know, so no OneTable schema (the one reader tried before keyplan's)
    // parses as one, and a text that is not a design stops at its first unknown member. When
    // it does not parse, detection says why, as before. Not `file::parse`, whose version probe
    // would read all of any other text once more before detection (a 40 MB text that is no
    // format at all took 143 ms to refuse for its size instead of 71).
    if let Some(design) = crate::file::parse_current(text) {
        return Ok((Format::Keyplan, Imported::new(design)));
    }
    let source = Source::new(text);
    let format = detect_source(&source)?;
    Ok((format, (reader(format).read)(source)?))
}

/// Reads `text` as `format`.
pub fn import(format: Format, text: &str) -> Result<Imported, ImportError> {
    (reader(format).read)(Source::new(text))
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

pub(crate) fn kind(value: &Value) -> &'static str {
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
