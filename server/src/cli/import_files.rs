//! `keyplan import A.ts B.ts ...` and `keyplan import FOLDER`: the JavaScript and TypeScript
//! modules of one application read together, so that a model importing its enums, attributes
//! or table name from a sibling file reads them, and a service combining entities of several
//! files is one design (issue 36; core's `import::several` reads them).
//!
//! A folder gives every `.ts`, `.mts`, `.cts`, `.js`, `.mjs` and `.cjs` file under it, sorted,
//! without `node_modules` and hidden folders. What is read is bounded before any file is:
//! at most `folder::MAX_FILES` (256) files of at most `folder::MAX_TOTAL_BYTES` (4 MB)
//! together, counted from their sizes, and at most `folder::MAX_ENTRIES` folder entries
//! looked at; past either the import is refused with what was found and what to do. Which
//! entries a folder gives, and those bounds, are core's `import::folder` (a folder dropped on
//! the app follows them too).

use std::path::{Path, PathBuf};

use keyplan_core::import::folder::{self, Step, Walk, check_total};
use keyplan_core::import::{Format, Imported, import_files};

use crate::design_io::{Unreadable, read_text, why_unreadable};

/// Whether `paths` are read together: several, or a folder.
pub fn several(paths: &[PathBuf]) -> bool {
    paths.len() > 1 || paths.iter().any(|p| p.is_dir())
}

/// Reads the files and folders given as one design; says which format it was and, in words,
/// what was read ("3 files under models/").
pub fn read(paths: &[PathBuf]) -> Result<(Format, Imported, String), Unreadable> {
    let files = module_files(paths)?;
    let sizes: Vec<usize> = files
        .iter()
        .map(|f| {
            std::fs::metadata(f)
                .map(|m| usize::try_from(m.len()).unwrap_or(usize::MAX))
                .map_err(|e| {
                    Unreadable(format!(
                        "{}: cannot read: {}",
                        f.display(),
                        why_unreadable(&e)
                    ))
                })
        })
        .collect::<Result<_, _>>()?;
    let label = match paths {
        [folder] => format!("{} files under {}", files.len(), folder.display()),
        _ => format!("{} files", files.len()),
    };
    check_total(sizes.into_iter()).map_err(|e| match e {
        keyplan_core::import::ImportError::Invalid { message, .. } => {
            Unreadable(format!("{label}: {message}"))
        }
        other => Unreadable(format!("{label}: {other}")),
    })?;
    let mut texts = Vec::with_capacity(files.len());
    for file in &files {
        texts.push((file.display().to_string(), read_text(file)?));
    }
    let pairs: Vec<(&str, &str)> = texts
        .iter()
        .map(|(name, text)| (name.as_str(), text.as_str()))
        .collect();
    let (format, imported) =
        import_files(&pairs).map_err(|e| Unreadable(format!("{label}: {e}")))?;
    Ok((format, imported, label))
}

/// The files `paths` name: each file as given, and each folder's modules.
fn module_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, Unreadable> {
    let mut files = Vec::new();
    let mut counted = Walk::default();
    for path in paths {
        if path.is_dir() {
            let mut found = Vec::new();
            walk(path, &mut found, &mut counted)?;
            if found.is_empty() {
                return Err(Unreadable(folder::no_modules(&path.display().to_string())));
            }
            found.sort();
            files.extend(found);
        } else {
            counted.file().map_err(Unreadable)?;
            files.push(path.clone());
        }
    }
    Ok(files)
}

/// Every module file under `folder`, as core's [`Walk`] says.
fn walk(folder: &Path, out: &mut Vec<PathBuf>, counted: &mut Walk) -> Result<(), Unreadable> {
    let entries = std::fs::read_dir(folder).map_err(|e| {
        Unreadable(format!(
            "{}: cannot read: {}",
            folder.display(),
            why_unreadable(&e)
        ))
    })?;
    for entry in entries {
        let Ok(entry) = entry else { continue };
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        let name = entry.file_name().to_string_lossy().to_string();
        let step = counted
            .entry(&name, kind.is_dir())
            .map_err(|why| Unreadable(format!("{}: {why}", folder.display())))?;
        match step {
            Step::Enter => walk(&entry.path(), out, counted)?,
            Step::Keep if kind.is_file() => out.push(entry.path()),
            Step::Keep | Step::Skip => {}
        }
    }
    Ok(())
}
