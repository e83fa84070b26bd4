//! Opening files: a keyplan design file, a NoSQL Workbench model or an awslabs/mcp
//! schema.json, told apart by core's importer (`keyplan_core::import`).

use keyplan_core::Design;

/// The design in a file's text, and a note on what the import could not keep.
pub fn read(file_name: &str, text: &str) -> Result<(Design, Option<String>), String> {
    let _ = file_name;
    let imported = keyplan_core::import::detect_and_import(text).map_err(|e| e.to_string())?;
    let note = match imported.notes.len() {
        0 => None,
        1 => Some(imported.notes[0].clone()),
        n => Some(format!("{n} notes, first: {}", imported.notes[0])),
    };
    Ok((imported.design, note))
}

/// True when `text` is a keyplan design file (which Save may write back to), not another
/// tool's model.
pub fn is_design_file(text: &str) -> bool {
    matches!(
        keyplan_core::import::detect(text),
        Ok(keyplan_core::import::Format::Keyplan)
    )
}
