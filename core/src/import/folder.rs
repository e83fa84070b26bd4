//! What a folder of modules gives, and how much of it is read (issue 36): the `.ts`, `.mts`,
//! `.cts`, `.js`, `.mjs` and `.cjs` files under it, without `node_modules` and hidden folders;
//! at most [`MAX_ENTRIES`] entries looked at and [`MAX_FILES`] files kept, and at most
//! [`MAX_TOTAL_BYTES`] of them together, refused before any is read. One home for the rule that
//! `keyplan import FOLDER` and a folder dropped on the app both follow.
//!
//! Nothing here reads a folder (core does no IO): the caller walks it, asks a [`Walk`] about
//! each entry it meets, and hands the files' sizes to [`check_total`] before reading them.

use super::ImportError;

/// The extensions of JavaScript and TypeScript modules, the files a folder gives.
pub const MODULE_EXTENSIONS: [&str; 6] = ["ts", "mts", "cts", "js", "mjs", "cjs"];
/// The most files read together: far more than the models of any application.
pub const MAX_FILES: usize = 256;
/// The most bytes of the files read together: twice one module's bound (`js::MAX_BYTES`), so
/// a folder of models and the constants they share reads, and the server's body limit is
/// below it.
pub const MAX_TOTAL_BYTES: usize = 4 * 1024 * 1024;
/// The most entries (files and folders) looked at under the folders given: a folder that
/// holds more is not one application's models.
pub const MAX_ENTRIES: usize = 100_000;

/// Whether `file_name` is a JavaScript or TypeScript module by its extension (in any case).
pub fn is_module_name(file_name: &str) -> bool {
    file_name.rsplit_once('.').is_some_and(|(_, extension)| {
        MODULE_EXTENSIONS
            .iter()
            .any(|m| extension.eq_ignore_ascii_case(m))
    })
}

/// What a walk does with one entry of a folder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// A folder to walk into.
    Enter,
    /// A module: read it.
    Keep,
    /// Neither (`node_modules`, a hidden folder, a file that is no module).
    Skip,
}

/// The count of a walk over one or more folders, which refuses it past [`MAX_ENTRIES`] entries
/// or [`MAX_FILES`] modules, so a walk stops before it holds more.
#[derive(Debug, Default)]
pub struct Walk {
    n_entries: usize,
    n_files: usize,
}

impl Walk {
    /// What to do with the entry `name` (a folder when `is_folder`), met under a folder being
    /// walked; the reason the walk stops instead.
    pub fn entry(&mut self, name: &str, is_folder: bool) -> Result<Step, String> {
        self.n_entries += 1;
        if self.n_entries > MAX_ENTRIES {
            return Err(format!(
                "more than {MAX_ENTRIES} files and folders under the folders given; name the folder that holds the models"
            ));
        }
        if is_folder {
            return Ok(if name == "node_modules" || name.starts_with('.') {
                Step::Skip
            } else {
                Step::Enter
            });
        }
        if !is_module_name(name) {
            return Ok(Step::Skip);
        }
        self.file()?;
        Ok(Step::Keep)
    }

    /// Counts a file given by name rather than found in a folder (it is read whatever its
    /// extension); the reason the walk stops instead.
    pub fn file(&mut self) -> Result<(), String> {
        self.n_files += 1;
        if self.n_files > MAX_FILES {
            return Err(format!(
                "more than {MAX_FILES} modules found: keyplan reads at most {MAX_FILES} together; name the folder or the files that hold the models"
            ));
        }
        Ok(())
    }
}

/// Why a folder gives nothing to read.
pub fn no_modules(folder: &str) -> String {
    format!(
        "{folder}: no JavaScript or TypeScript module in it (.{})",
        MODULE_EXTENSIONS.join(", .")
    )
}

/// Refuses more than [`MAX_FILES`] files or [`MAX_TOTAL_BYTES`] together, before any is read.
pub fn check_total(sizes: impl ExactSizeIterator<Item = usize>) -> Result<(), ImportError> {
    let n_files = sizes.len();
    let total = sizes.fold(0usize, usize::saturating_add);
    if n_files > MAX_FILES || total > MAX_TOTAL_BYTES {
        return Err(ImportError::Invalid {
            path: "the files".to_string(),
            message: format!(
                "{n_files} files of {total} bytes together: keyplan reads at most {MAX_FILES} modules of at most {} MB together; name the files that hold the models",
                MAX_TOTAL_BYTES / (1024 * 1024)
            ),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_gives_its_modules_and_walks_past_dependencies_and_hidden_folders() {
        let mut walk = Walk::default();
        let steps: Vec<Step> = [
            ("models", true),
            ("node_modules", true),
            (".git", true),
            ("task.ts", false),
            ("Schema.MJS", false),
            ("README.md", false),
            ("package.json", false),
            ("ts", false),
        ]
        .iter()
        .map(|(name, is_folder)| walk.entry(name, *is_folder).expect("within bounds"))
        .collect();
        assert_eq!(
            steps,
            [
                Step::Enter,
                Step::Skip,
                Step::Skip,
                Step::Keep,
                Step::Keep,
                Step::Skip,
                Step::Skip,
                Step::Skip
            ]
        );
    }

    #[test]
    fn a_walk_stops_at_the_first_module_past_the_bound() {
        let mut walk = Walk::default();
        for i in 0..MAX_FILES {
            assert_eq!(walk.entry(&format!("m{i}.ts"), false), Ok(Step::Keep));
        }
        // Files that are not modules do not count against the modules' bound.
        assert_eq!(walk.entry("notes.txt", false), Ok(Step::Skip));
        let error = walk.entry("one-more.ts", false).expect_err("past 256");
        assert!(error.starts_with("more than 256 modules found"), "{error}");
    }

    #[test]
    fn a_walk_stops_past_the_entries_bound_whatever_they_are() {
        let mut walk = Walk::default();
        for _ in 0..MAX_ENTRIES {
            assert_eq!(walk.entry("a.txt", false), Ok(Step::Skip));
        }
        let error = walk.entry("b", true).expect_err("past the entries");
        assert!(
            error.starts_with("more than 100000 files and folders"),
            "{error}"
        );
    }

    #[test]
    fn the_total_is_refused_before_reading() {
        assert!(check_total([MAX_TOTAL_BYTES].into_iter()).is_ok());
        let error = check_total([MAX_TOTAL_BYTES, 1].into_iter()).expect_err("past 4 MB");
        assert!(
            error.to_string().contains("2 files of 4194305 bytes"),
            "{error}"
        );
        assert!(check_total([usize::MAX, usize::MAX].into_iter()).is_err());
    }
}
