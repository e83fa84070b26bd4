//! The design file, `*.keyplan.json`: reading with clear errors, writing with stable order.
//!
//! Reading checks the `version` first, so a file from a newer keyplan is refused by name rather
//! than misread, and an older one is migrated. Every error carries the line and column it is
//! about. Writing is pretty JSON whose field order follows the model, so diffs stay small.

use crate::model::{CURRENT_VERSION, Design};

/// Why a design file could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FileError {
    #[error("line {line}, column {column}: {message}")]
    Syntax {
        line: usize,
        column: usize,
        message: String,
    },
    #[error("the design file has no `version`: is this a keyplan design file?")]
    MissingVersion,
    #[error(
        "the design file has version {found}, newer than this keyplan understands ({CURRENT_VERSION}): upgrade keyplan"
    )]
    TooNew { found: u64 },
    #[error("`version` must be a whole number from 1 to {CURRENT_VERSION}, not {found}")]
    BadVersion { found: String },
}

impl From<serde_json::Error> for FileError {
    fn from(e: serde_json::Error) -> Self {
        // serde_json's message ends with " at line L column C"; keep the message alone.
        let full = e.to_string();
        let message = match full.rfind(" at line ") {
            Some(at) => full[..at].to_string(),
            None => full,
        };
        FileError::Syntax {
            line: e.line(),
            column: e.column(),
            message,
        }
    }
}

#[derive(serde::Deserialize)]
#[serde(expecting = "a keyplan design file: a JSON object with a `version`")]
struct VersionProbe {
    version: Option<serde_json::Value>,
}

/// The text as a design file of the current version, read in one pass, or `None` with nothing
/// more read (a text that is not a design stops at its first member a design does not have):
/// what [`parse`] tries first, for a reader with its own way of saying what else a text is
/// ([`crate::import::detect_and_import_as`]); [`parse`]'s probe would read all of it again.
pub(crate) fn parse_current(text: &str) -> Option<Design> {
    crate::json_budget::check(text).ok()?;
    serde_json::from_str::<Design>(text)
        .ok()
        .filter(|design| design.version == CURRENT_VERSION)
}

/// Reads a design file.
pub fn parse(text: &str) -> Result<Design, FileError> {
    // A file of the current version, the usual one, is read in one pass: the probe read all
    // of the text too, a quarter of reading a 23 MB design (issue 13). The probe runs when
    // the file is not a design of this version, so its errors come first, as they always did.
    // Its values are counted first, so millions of sample items are refused before any is made.
    crate::json_budget::check(text)?;
    let design = serde_json::from_str::<Design>(text);
    if let Ok(read) = &design
        && read.version == CURRENT_VERSION
    {
        return Ok(design?);
    }
    let probe: VersionProbe = serde_json::from_str(text)?;
    let version = probe.version.ok_or(FileError::MissingVersion)?;
    match version.as_u64() {
        Some(v) if v == u64::from(CURRENT_VERSION) => Ok(design?),
        Some(v) if v > u64::from(CURRENT_VERSION) => Err(FileError::TooNew { found: v }),
        // Version 1 is the first; a future version 2 migrates from here through
        // `serde_json::Value`.
        _ => Err(FileError::BadVersion {
            found: version.to_string(),
        }),
    }
}

/// Writes a design file: pretty JSON with a trailing newline.
pub fn to_string(design: &Design) -> String {
    let mut text = serde_json::to_string_pretty(design)
        .unwrap_or_else(|e| unreachable!("a design always serialises: {e}"));
    text.push('\n');
    text
}

/// The length in bytes of the file [`to_string`] writes, counted as it is written and never
/// held (what a live room measures its design by, `collab`).
pub fn byte_len(design: &Design) -> usize {
    let mut counted = Counted::default();
    serde_json::to_writer_pretty(&mut counted, design)
        .unwrap_or_else(|e| unreachable!("a design always serialises: {e}"));
    counted.bytes + 1
}

/// A writer that keeps only how many bytes and lines went through it.
#[derive(Debug, Default)]
pub(crate) struct Counted {
    pub bytes: usize,
    pub newlines: usize,
}

impl std::io::Write for Counted {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.bytes += buf.len();
        self.newlines += buf.iter().filter(|b| **b == b'\n').count();
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_a_design() {
        let mut d = Design::new("shop");
        d.description = "a test".into();
        let text = to_string(&d);
        assert_eq!(parse(&text).expect("a written design parses"), d);
    }

    #[test]
    fn syntax_errors_carry_line_and_column() {
        let err = parse("{\n  \"version\": 1,\n  \"name\": \"x\",\n  \"tabels\": []\n}")
            .expect_err("an error");
        assert_eq!(
            err.to_string(),
            "line 4, column 10: unknown field `tabels`, expected one of `version`, `name`, `description`, `tables`, `entities`, `patterns`, `layout`, `samples`, `hand_items`"
        );
        let err = parse("{\"version\": 1,").expect_err("an error");
        assert!(matches!(err, FileError::Syntax { line: 1, .. }), "{err}");
    }

    #[test]
    fn versions_are_checked_first() {
        assert_eq!(
            parse(r#"{"name":"x"}"#).expect_err("an error"),
            FileError::MissingVersion
        );
        assert_eq!(
            parse(r#"{"version":9,"name":"x"}"#).expect_err("an error"),
            FileError::TooNew { found: 9 }
        );
        assert!(matches!(
            parse(r#"{"version":"1"}"#).expect_err("an error"),
            FileError::BadVersion { .. }
        ));
    }
}
