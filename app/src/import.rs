//! Opening files: a keyplan design file or any format core's importer reads (NoSQL Workbench,
//! an awslabs/mcp schema.json, CloudFormation, Terraform, a OneTable schema in JSON), told
//! apart by `keyplan_core::import`. OneTable and ElectroDB modules in JavaScript or TypeScript
//! need a parser the app's bundle leaves out (core's `js` feature): they are handed to
//! `keyplan serve`'s `POST /api/import` when the app is served by it. Core's importers run in
//! the worker ([`crate::jobs`]). Here are the plain decisions (which file goes where, what the
//! worker's or the server's answer means, what the toast says); `opening.rs` only moves the
//! bytes.

use keyplan_core::Design;
use keyplan_core::api::import::{ImportAnswer, ImportRequest};
use keyplan_core::import::Format;

use crate::jobs::Imported;

/// What the file picker and the drop zone offer: every extension a format core reads uses,
/// modules included (the server reads those).
pub const ACCEPT: &str =
    ".json,.yaml,.yml,.template,.tf,.js,.mjs,.cjs,.ts,.mts,.cts,application/json";

/// A file read into a design: its format, the design, what was read in words, and every note
/// on what the import could not keep (all of them: the toast used to show only the first,
/// issue 12).
#[derive(Debug)]
pub struct Opened {
    pub format: Format,
    pub design: Design,
    /// What was read, as core says it: "an ElectroDB service: 4 entities, 3 collections".
    pub summary: String,
    pub notes: Vec<String>,
}

impl Opened {
    /// True when the file is a keyplan design file (which Save may write back to), not
    /// another tool's model.
    pub fn is_design_file(&self) -> bool {
        self.format == Format::Keyplan
    }

    /// What was opened, for the toast: "Opened stack.yaml as a CloudFormation template: 2
    /// tables, no entities" (issue 15).
    pub fn message(&self, file_name: &str) -> String {
        if self.is_design_file() {
            return format!("Opened {file_name} as \u{201c}{}\u{201d}", self.design.name);
        }
        format!("Opened {file_name} as {}", self.summary)
    }
}

/// Why a file was not opened here.
#[derive(Debug, PartialEq, Eq)]
pub enum NotRead {
    /// A JavaScript or TypeScript module: the keyplan server reads it.
    Module,
    /// Not a file keyplan reads, in core's words (what was tried, with line and column).
    Error(String),
}

/// Whether `file_name` is a JavaScript or TypeScript module by its extension.
pub use keyplan_core::import::folder::is_module_name;

/// What the worker's answer to an import means.
pub fn from_worker(answer: Result<Imported, String>) -> Result<Opened, NotRead> {
    match answer.map_err(NotRead::Error)? {
        Imported::Opened {
            format,
            design,
            summary,
            notes,
        } => Ok(Opened {
            format: format.parse::<Format>().map_err(NotRead::Error)?,
            design: *design,
            summary,
            notes,
        }),
        Imported::Module => Err(NotRead::Module),
        Imported::Error(e) => Err(NotRead::Error(e)),
    }
}

/// The toast when a file could not be opened: the file's name once, then the reason (the
/// server's reasons start with the name too).
pub fn not_opened(file_name: &str, reason: &str) -> String {
    let rest = reason
        .strip_prefix(file_name)
        .filter(|rest| rest.starts_with(": ") || rest.starts_with(" as "))
        .map_or_else(|| format!(": {reason}"), str::to_string);
    format!("{file_name} could not be opened{rest}")
}

/// What a user is told when a module is opened and no keyplan server serves the app (a
/// static host).
pub fn needs_server(file_name: &str) -> String {
    format!(
        "{file_name} could not be opened: a JavaScript or TypeScript module (OneTable, ElectroDB, DynamoDB-Toolbox, Dynamoose) is read by the keyplan server, and this page is not served by it. Start it with `keyplan serve` and open the address it prints, or convert the file with `keyplan import {file_name} -o design.keyplan.json` and open that"
    )
}

/// The body of `POST /api/import` for the file `file_name` holding `text`.
pub fn request_body(file_name: &str, text: &str) -> String {
    let request = ImportRequest {
        name: Some(file_name.to_string()),
        text: text.to_string(),
        files: Vec::new(),
        from: None,
    };
    // A name and a text: nothing in them can fail to be written.
    keyplan_core::api::request_text(&request).unwrap_or_default()
}

/// The body of `POST /api/import` for several modules of one application, `(name, text)`
/// each, read together (issue 36).
pub fn request_body_files(files: &[(String, String)]) -> String {
    let request = ImportRequest {
        name: None,
        text: String::new(),
        files: files
            .iter()
            .map(|(name, text)| keyplan_core::api::import::NamedFile {
                name: name.clone(),
                text: text.clone(),
            })
            .collect(),
        from: None,
    };
    keyplan_core::api::request_text(&request).unwrap_or_default()
}

/// Reads the server's answer to `POST /api/import`: the design, or the reason the file did not
/// read (the server's message, with line and column).
pub fn from_server(status: u16, body: &str) -> Result<Opened, String> {
    if !(200..300).contains(&status) {
        return Err(crate::api::error_message(status, body));
    }
    let answer: ImportAnswer = serde_json::from_str(body)
        .map_err(|e| format!("the keyplan server's answer did not read: {e}"))?;
    let format = answer
        .format
        .parse::<Format>()
        .map_err(|e| format!("the keyplan server's answer: {e}"))?;
    let design = keyplan_core::file::parse(&answer.design.to_string())
        .map_err(|e| format!("the keyplan server's design did not read: {e}"))?;
    Ok(Opened {
        format,
        design,
        summary: answer.summary,
        notes: keyplan_core::import::assumed::told(&answer.notes, &answer.assumed),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `read` gives for a file that is not a module by its name: the worker's answer.
    fn read_here(text: &str) -> Result<Opened, NotRead> {
        from_worker(Ok(crate::jobs::Worker::default().answer(
            crate::jobs::Import {
                text: text.to_string(),
            },
        )))
    }

    #[test]
    fn modules_are_told_apart_by_their_extension_or_by_core() {
        assert!(is_module_name("orders.ts"));
        assert!(is_module_name("Schema.MJS"));
        assert!(!is_module_name("orders.json"));
        // No module extension, but it imports: core says it needs the JavaScript parser (in a
        // build whose core reads modules, as `cargo test --workspace` unifies it, core reads it
        // instead).
        if !keyplan_core::import::READS_MODULES {
            assert_eq!(
                read_here("import { Entity } from 'electrodb';\nexport const a = 1;").err(),
                Some(NotRead::Module)
            );
        }
        assert!(matches!(
            read_here("hello"),
            Err(NotRead::Error(e)) if e.starts_with("not a format keyplan reads")
        ));
    }

    #[test]
    fn a_local_import_says_what_was_read() {
        let template = "Resources:\n  T:\n    Type: AWS::DynamoDB::Table\n    Properties:\n      TableName: t\n      BillingMode: PAY_PER_REQUEST\n      KeySchema: [{AttributeName: pk, KeyType: HASH}]\n      AttributeDefinitions: [{AttributeName: pk, AttributeType: S}]\n";
        let opened = read_here(template).expect("a template");
        assert_eq!(
            opened.message("stack.yaml"),
            "Opened stack.yaml as a CloudFormation template: 1 table, no entities"
        );
    }

    #[test]
    fn the_servers_answer_is_the_design_or_its_reason() {
        let design = keyplan_core::file::to_string(&keyplan_core::Design::new("Orders"));
        let body = format!(
            r#"{{"format":"electrodb","summary":"an ElectroDB service: 4 entities, 3 collections","design":{design},"notes":["n"]}}"#
        );
        let opened = from_server(200, &body).expect("the answer reads");
        assert_eq!(opened.format, Format::ElectroDb);
        assert_eq!(
            opened.message("orders.ts"),
            "Opened orders.ts as an ElectroDB service: 4 entities, 3 collections"
        );
        assert_eq!(opened.notes, ["n"]);
        let error =
            from_server(400, r#"{"error":"orders.ts: line 3, column 1: bad"}"#).expect_err("a 400");
        assert_eq!(
            not_opened("orders.ts", &error),
            "orders.ts could not be opened: line 3, column 1: bad"
        );
        assert_eq!(
            not_opened("a.ts", "a.ts as electrodb: x"),
            "a.ts could not be opened as electrodb: x"
        );
        assert_eq!(
            from_server(502, "<html>").expect_err("not the API"),
            "the keyplan server answered 502"
        );
    }

    #[test]
    fn several_modules_are_sent_in_one_body() {
        let body = request_body_files(&[
            (
                "models/task.ts".to_string(),
                "export const a = 1;".to_string(),
            ),
            (
                "models/types.ts".to_string(),
                "export const b = 2;".to_string(),
            ),
        ]);
        let value: serde_json::Value = serde_json::from_str(&body).expect("JSON");
        assert_eq!(value["files"][1]["name"], "models/types.ts");
        assert_eq!(value["files"][0]["text"], "export const a = 1;");
        assert!(value.get("text").is_none());
    }
}
