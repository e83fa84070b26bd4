//! Importing several files at once (issue 36): the modules of one application, whose models
//! import their enums, attributes and table names from sibling files and whose service
//! combines entities written in several files. They are read together (see `js`), so an
//! import of one from another reads the value it names, and make one design: the entities of
//! every file, and the services that combine them.
//!
//! One file is read as [`detect_and_import_as`] reads it, in any format. Several are read
//! together only as JavaScript or TypeScript modules (OneTable, ElectroDB, DynamoDB-Toolbox
//! and Dynamoose): a file among
//! them that does not parse as one is left out and said as an assumption; at most
//! `js::MAX_FILES` files of at most `js::MAX_TOTAL_BYTES` together are read, refused before
//! any is parsed. Nothing here reads a file: the caller gives `(name, text)` pairs, the names
//! being paths as the user gave them, which resolve the modules' imports.

use super::{Format, ImportError, Imported, detect_and_import_as};

/// Reads the files `(name, text)` as one design, and says which format they were in.
pub fn import_files(files: &[(&str, &str)]) -> Result<(Format, Imported), ImportError> {
    match files {
        [] => Err(ImportError::Invalid {
            path: "the files".to_string(),
            message: "no file given".to_string(),
        }),
        [(_, text)] => detect_and_import_as(text),
        several => read_modules(several),
    }
}

#[cfg(feature = "js")]
fn read_modules(files: &[(&str, &str)]) -> Result<(Format, Imported), ImportError> {
    use super::{dynamoose, electrodb, js, onetable, toolbox};
    let read = js::read_files(files)?;
    let holds = |format: Format| {
        read.modules
            .iter()
            .any(|module| super::module_format(module) == Some(format))
    };
    // Each module with the text it was read from, for the lines its readers place.
    let with_text = |format: Format| -> Vec<(&str, &str, &js::Module)> {
        read.modules
            .iter()
            .filter(|module| super::module_format(module) == Some(format))
            .filter_map(|module| {
                let (_, text) = files.iter().find(|(name, _)| *name == module.name)?;
                Some((module.name.as_str(), *text, module))
            })
            .collect()
    };
    let (format, imported) = if holds(Format::Toolbox) {
        // The modules that hold the library's calls; the others give the values imported.
        (
            Format::Toolbox,
            toolbox::from_modules(&with_text(Format::Toolbox)),
        )
    } else if holds(Format::Dynamoose) {
        (
            Format::Dynamoose,
            dynamoose::from_modules(&with_text(Format::Dynamoose)),
        )
    } else if holds(Format::ElectroDb) {
        (Format::ElectroDb, electrodb::from_modules(&read.modules))
    } else if holds(Format::OneTable) {
        (Format::OneTable, onetable::from_modules(&read.modules))
    } else {
        return Err(ImportError::Invalid {
            path: "the files".to_string(),
            message: format!(
                "none of the {} files holds ElectroDB entities (`new Entity(...)`), a OneTable schema (`indexes` and `models`), DynamoDB-Toolbox tables or entities or Dynamoose models; several files are read together as the JavaScript or TypeScript modules of one application",
                files.len()
            ),
        });
    };
    let mut imported = imported?;
    let mut assumed = read.unread;
    assumed.append(&mut imported.assumed);
    imported.assumed = assumed;
    Ok((format, imported))
}

#[cfg(not(feature = "js"))]
fn read_modules(files: &[(&str, &str)]) -> Result<(Format, Imported), ImportError> {
    Err(ImportError::Invalid {
        path: "the files".to_string(),
        message: format!(
            "{} files: several files are read together as JavaScript or TypeScript modules, which the `keyplan` command line and `keyplan serve` (POST /api/import) read, not this build",
            files.len()
        ),
    })
}
