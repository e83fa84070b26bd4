//! Opening files: a keyplan design file, a NoSQL Workbench model or an awslabs/mcp
//! schema.json, told apart by core's importer (`keyplan_core::import`).

use keyplan_core::Design;

/// The design in a file's text, and every note on what the import could not keep (all of
/// them: the toast used to show only the first, issue 12).
pub fn read(text: &str) -> Result<(Design, Vec<String>), String> {
    let imported = keyplan_core::import::detect_and_import(text).map_err(|e| e.to_string())?;
    Ok((imported.design, imported.notes))
}

/// True when `text` is a keyplan design file (which Save may write back to), not another
/// tool's model.
pub fn is_design_file(text: &str) -> bool {
    matches!(
        keyplan_core::import::detect(text),
        Ok(keyplan_core::import::Format::Keyplan)
    )
}
