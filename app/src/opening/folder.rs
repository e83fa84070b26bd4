//! A folder dropped on the window (issue 36): its JavaScript and TypeScript modules found by
//! walking the browser's `FileSystemEntry` tree the way `keyplan import FOLDER` walks a disk
//! (core's `import::folder`: the same names, `node_modules` and hidden folders left out, at most
//! 256 modules and 100,000 entries looked at, 4 MB together refused before any file is read),
//! then sent to `POST /api/import` together, as several dropped modules are.
//!
//! The walk is written against [`Entry`], the part of the `FileSystemEntry` interface it uses,
//! so a unit test walks a tree it builds (a browser cannot be made to drop a folder by a
//! script: `DataTransfer` takes files, never directory entries); the browser's entries
//! implement it below.

use keyplan_core::import::folder::{Step, Walk, check_total, no_modules};
use leptos::wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// The part of the browser's `FileSystemEntry` interface (with `FileSystemDirectoryEntry`'s
/// reader and `FileSystemFileEntry`'s file) a walk uses.
pub(crate) trait Entry: Sized {
    /// What a file entry gives: the browser's `File`.
    type File;
    /// A folder's reader, whose batches of entries are read in turn.
    type Reader;
    fn name(&self) -> String;
    fn is_directory(&self) -> bool;
    /// The reader of a folder's entries (`createReader()`).
    fn reader(&self) -> Self::Reader;
    /// The next batch of a folder's entries (`readEntries()`): empty when all were given.
    async fn read_entries(reader: &Self::Reader) -> Result<Vec<Self>, String>;
    /// A file entry's file and its size in bytes (`file()`), its text not read.
    async fn file(&self) -> Result<(Self::File, usize), String>;
}

/// The modules a drop gives, each with its path from what was dropped (`models/task.ts`), and
/// what they are in words ("3 files under models").
#[derive(Debug)]
pub(crate) struct Found<F> {
    pub label: String,
    pub files: Vec<(String, F)>,
}

/// The modules under the entries dropped: each folder's, sorted by path, and each file dropped
/// beside them as it is; why the drop is not read instead (past a bound, a folder without a
/// module, a folder or file the browser would not give).
pub(crate) async fn modules<E: Entry>(dropped: Vec<E>) -> Result<Found<E::File>, String> {
    let mut counted = Walk::default();
    let mut files: Vec<(String, E::File, usize)> = Vec::new();
    let folders: Vec<String> = dropped
        .iter()
        .filter(|e| e.is_directory())
        .map(Entry::name)
        .collect();
    for entry in dropped {
        let name = entry.name();
        if !entry.is_directory() {
            counted.file()?;
            let (file, size) = entry.file().await?;
            files.push((name, file, size));
            continue;
        }
        let before = files.len();
        // Folders still to read, with their paths: a stack, not recursion, so a deep tree
        // costs no stack of futures.
        let mut pending = vec![(name.clone(), entry)];
        while let Some((path, folder)) = pending.pop() {
            let reader = folder.reader();
            loop {
                let batch = E::read_entries(&reader)
                    .await
                    .map_err(|why| format!("{path}: {why}"))?;
                if batch.is_empty() {
                    break;
                }
                for child in batch {
                    let child_name = child.name();
                    let child_path = format!("{path}/{child_name}");
                    match counted
                        .entry(&child_name, child.is_directory())
                        .map_err(|why| format!("{name}: {why}"))?
                    {
                        Step::Enter => pending.push((child_path, child)),
                        Step::Keep => {
                            let (file, size) = child
                                .file()
                                .await
                                .map_err(|why| format!("{child_path}: {why}"))?;
                            files.push((child_path, file, size));
                        }
                        Step::Skip => {}
                    }
                }
            }
        }
        if files.len() == before {
            return Err(no_modules(&name));
        }
        files[before..].sort_by(|a, b| a.0.cmp(&b.0));
    }
    let label = match folders.as_slice() {
        [folder] if files.iter().all(|f| f.0.starts_with(&format!("{folder}/"))) => {
            format!(
                "{} under {folder}",
                crate::text::plural(files.len(), "file")
            )
        }
        _ => crate::text::plural(files.len(), "file"),
    };
    check_total(files.iter().map(|f| f.2)).map_err(|e| match e {
        keyplan_core::import::ImportError::Invalid { message, .. } => format!("{label}: {message}"),
        other => format!("{label}: {other}"),
    })?;
    Ok(Found {
        label,
        files: files
            .into_iter()
            .map(|(path, file, _)| (path, file))
            .collect(),
    })
}

/// The entries a drop holds, taken while its event runs (the browser empties the
/// `DataTransfer` after it): one per file or folder dropped.
pub fn dropped_entries(data: &web_sys::DataTransfer) -> Vec<web_sys::FileSystemEntry> {
    let items = data.items();
    (0..items.length())
        .filter_map(|i| items.get(i))
        .filter(|item| item.kind() == "file")
        .filter_map(|item| item.webkit_get_as_entry().ok().flatten())
        .collect()
}

/// Calls `start(resolve, reject)` and waits for the callback it is given to be called.
async fn callback(
    start: impl Fn(&js_sys::Function, &js_sys::Function) -> Result<(), JsValue>,
) -> Result<JsValue, String> {
    let promise = js_sys::Promise::new(&mut |resolve, reject| {
        if let Err(e) = start(&resolve, &reject) {
            let _ = reject.call1(&JsValue::NULL, &e);
        }
    });
    JsFuture::from(promise)
        .await
        .map_err(|e| crate::save::describe(&e))
}

impl Entry for web_sys::FileSystemEntry {
    type File = web_sys::File;
    type Reader = web_sys::FileSystemDirectoryReader;

    fn name(&self) -> String {
        web_sys::FileSystemEntry::name(self)
    }

    fn is_directory(&self) -> bool {
        web_sys::FileSystemEntry::is_directory(self)
    }

    fn reader(&self) -> Self::Reader {
        self.unchecked_ref::<web_sys::FileSystemDirectoryEntry>()
            .create_reader()
    }

    async fn read_entries(reader: &Self::Reader) -> Result<Vec<Self>, String> {
        let batch = callback(|resolve, reject| {
            reader.read_entries_with_callback_and_callback(resolve, reject)
        })
        .await?;
        Ok(js_sys::Array::from(&batch)
            .iter()
            .map(JsCast::unchecked_into)
            .collect())
    }

    async fn file(&self) -> Result<(Self::File, usize), String> {
        let entry = self.unchecked_ref::<web_sys::FileSystemFileEntry>();
        let file: web_sys::File = callback(|resolve, reject| {
            entry.file_with_callback_and_callback(resolve, reject);
            Ok(())
        })
        .await?
        .unchecked_into();
        // A size past usize (on wasm32, past 4 GB) counts as the most there is: refused.
        let size = file.size();
        let size = if size < usize::MAX as f64 {
            size as usize
        } else {
            usize::MAX
        };
        Ok((file, size))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::future::Future;
    use std::task::{Context, Poll, Waker};

    /// A folder or a file of a tree built by the test; a folder's entries come in batches of
    /// two, as a browser gives them in batches.
    #[derive(Debug, Clone)]
    enum Node {
        Folder(&'static str, Vec<Node>),
        Leaf(&'static str, usize),
    }

    impl Entry for Node {
        type File = &'static str;
        type Reader = std::cell::RefCell<Vec<Node>>;

        fn name(&self) -> String {
            match self {
                Node::Folder(name, _) | Node::Leaf(name, _) => name.to_string(),
            }
        }

        fn is_directory(&self) -> bool {
            matches!(self, Node::Folder(..))
        }

        fn reader(&self) -> Self::Reader {
            match self {
                Node::Folder(_, children) => std::cell::RefCell::new(children.clone()),
                Node::Leaf(..) => std::cell::RefCell::new(Vec::new()),
            }
        }

        async fn read_entries(reader: &Self::Reader) -> Result<Vec<Self>, String> {
            let mut left = reader.borrow_mut();
            let n = left.len().min(2);
            Ok(left.drain(..n).collect())
        }

        async fn file(&self) -> Result<(Self::File, usize), String> {
            match self {
                Node::Leaf(name, size) => Ok((name, *size)),
                Node::Folder(name, _) => Err(format!("{name} is a folder")),
            }
        }
    }

    /// Runs the walk, which never waits on a tree built here.
    fn walk(dropped: Vec<Node>) -> Result<Found<&'static str>, String> {
        let mut future = std::pin::pin!(modules(dropped));
        match future
            .as_mut()
            .poll(&mut Context::from_waker(Waker::noop()))
        {
            Poll::Ready(found) => found,
            Poll::Pending => panic!("a walk over a built tree waited"),
        }
    }

    fn paths<'a>(found: &'a Found<&'static str>) -> Vec<&'a str> {
        found.files.iter().map(|(path, _)| path.as_str()).collect()
    }

    fn app() -> Node {
        Node::Folder(
            "app",
            vec![
                Node::Leaf("README.md", 10),
                Node::Folder(
                    "models",
                    vec![
                        Node::Leaf("task.ts", 100),
                        Node::Leaf("Types.MTS", 100),
                        Node::Folder("deep", vec![Node::Leaf("user.js", 10)]),
                    ],
                ),
                Node::Folder("node_modules", vec![Node::Leaf("electrodb.js", 10)]),
                Node::Folder(".git", vec![Node::Leaf("hooks.js", 10)]),
                Node::Leaf("index.ts", 10),
                Node::Leaf("package.json", 10),
            ],
        )
    }

    #[test]
    fn a_dropped_folder_gives_its_modules_as_the_cli_does() {
        let found = walk(vec![app()]).expect("the folder reads");
        assert_eq!(found.label, "4 files under app");
        assert_eq!(
            paths(&found),
            [
                "app/index.ts",
                "app/models/Types.MTS",
                "app/models/deep/user.js",
                "app/models/task.ts"
            ]
        );
    }

    #[test]
    fn files_dropped_beside_a_folder_are_read_with_it() {
        let found = walk(vec![app(), Node::Leaf("extra.ts", 5)]).expect("the drop reads");
        assert_eq!(found.label, "5 files");
        assert_eq!(paths(&found)[..2], ["app/index.ts", "app/models/Types.MTS"]);
        assert_eq!(paths(&found)[4], "extra.ts");
    }

    #[test]
    fn a_folder_without_a_module_says_so() {
        let error = walk(vec![Node::Folder(
            "docs",
            vec![Node::Leaf("a.md", 1), Node::Folder("node_modules", vec![])],
        )])
        .expect_err("nothing to read");
        assert_eq!(
            error,
            "docs: no JavaScript or TypeScript module in it (.ts, .mts, .cts, .js, .mjs, .cjs)"
        );
    }

    #[test]
    fn a_folder_past_the_bounds_is_refused_before_a_file_is_read() {
        let many: Vec<Node> = (0..300).map(|_| Node::Leaf("m.ts", 1)).collect();
        let error = walk(vec![Node::Folder("big", many)]).expect_err("past 256");
        assert!(
            error.starts_with("big: more than 256 modules found"),
            "{error}"
        );
        let heavy = vec![
            Node::Leaf("a.ts", 3 * 1024 * 1024),
            Node::Leaf("b.ts", 2 * 1024 * 1024),
        ];
        let error = walk(vec![Node::Folder("heavy", heavy)]).expect_err("past 4 MB");
        assert!(
            error.starts_with("2 files under heavy: 2 files of 5242880 bytes together"),
            "{error}"
        );
    }
}
