//! Opening files: a keyplan design file or any format core's importer reads (NoSQL Workbench,
//! an awslabs/mcp schema.json, CloudFormation, Terraform), told apart by
//! `keyplan_core::import`.

use keyplan_core::Design;
use keyplan_core::import::Format;

/// What the file picker and the drop zone offer: every extension a format core reads uses.
pub const ACCEPT: &str = ".json,.yaml,.yml,.template,.tf,application/json";

/// A file read into a design: its format, the design, and every note on what the import
/// could not keep (all of them: the toast used to show only the first, issue 12).
#[derive(Debug)]
pub struct Opened {
    pub format: Format,
    pub design: Design,
    pub notes: Vec<String>,
}

impl Opened {
    /// True when the file is a keyplan design file (which Save may write back to), not
    /// another tool's model.
    pub fn is_design_file(&self) -> bool {
        self.format == Format::Keyplan
    }

    /// What was read, for the toast: "Opened stack.yaml as a CloudFormation template: 2
    /// tables, no entities" (issue 15).
    pub fn summary(&self, file_name: &str) -> String {
        let design = &self.design;
        if self.is_design_file() {
            return format!("Opened {file_name} as \u{201c}{}\u{201d}", design.name);
        }
        let entities = match design.entities.len() {
            0 => "no entities".to_string(),
            n => crate::text::plural(n, "entity"),
        };
        format!(
            "Opened {file_name} as {}: {}, {entities}",
            self.format.described(),
            crate::text::plural(design.tables.len(), "table")
        )
    }
}

/// Reads a file's text in whichever format it is in.
pub fn read(text: &str) -> Result<Opened, String> {
    let (format, imported) =
        keyplan_core::import::detect_and_import_as(text).map_err(|e| e.to_string())?;
    Ok(Opened {
        format,
        design: imported.design,
        notes: imported.notes,
    })
}
