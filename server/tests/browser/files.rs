//! Files in and out of the page: choosing a file in the file input, downloads into a folder,
//! and the File System Access API fed from the origin-private file system.
//!
//! Headless Chromium has no native file pickers a test can drive: the pickers are replaced by
//! functions that hand out a real file handle from the origin-private file system (the same
//! `FileSystemFileHandle` type the pickers return), so the app's write-back code really runs.

use std::path::{Path, PathBuf};

use serde_json::json;

use super::Browser;

impl Browser {
    /// Chooses the file at `path` in the app's file input, as a user picking it would.
    pub async fn choose_file(&self, path: &Path) {
        self.find("[data-testid=file-input]")
            .await
            .send_keys(&path.display().to_string())
            .await
            .expect("choose the file");
    }

    /// Drops a file named `name` holding `text` on the app, as a user dragging it from the
    /// desktop would: the `dragover` that shows the drop zone, then the `drop`.
    pub async fn drop_file(&self, name: &str, text: &str) {
        self.js_async(
            "const [name, text, done] = arguments;\
             const dt = new DataTransfer(); dt.items.add(new File([text], name));\
             const app = document.querySelector('.app');\
             app.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));\
             app.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));\
             done(0);",
            vec![json!(name), json!(text)],
        )
        .await;
    }

    /// Drops several files, `(name, text)` each, on the app together, as a user dragging a
    /// selection of them would.
    pub async fn drop_files(&self, files: &[(&str, &str)]) {
        self.js_async(
            "const [files, done] = arguments;\
             const dt = new DataTransfer();\
             for (const [name, text] of files) dt.items.add(new File([text], name));\
             const app = document.querySelector('.app');\
             app.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));\
             app.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));\
             done(0);",
            vec![json!(files)],
        )
        .await;
    }

    /// Drops a folder named `folder` holding the files `(path, text)` (paths under it, `a/b.ts`).
    /// A script cannot put a directory in a `DataTransfer`, so the drop holds one file and the
    /// browser's `DataTransferItem.webkitGetAsEntry` is made, for that drop only, to answer a
    /// folder entry built here: objects with the `FileSystemEntry` interface's `name`,
    /// `isDirectory`, `createReader().readEntries` (one batch, then none) and `file`, which
    /// answer on a later task as the browser does. What this cannot reach is the browser's
    /// own entries: their reading of a real disk.
    pub async fn drop_folder(&self, folder: &str, files: &[(&str, &str)]) {
        self.js_async(
            "const [folder, files, done] = arguments;\
             const node = name => ({ name, children: new Map() });\
             const tree = node(folder);\
             for (const [path, text] of files) {\
               const parts = path.split('/'); let at = tree;\
               for (const part of parts.slice(0, -1)) {\
                 if (!at.children.has(part)) at.children.set(part, node(part));\
                 at = at.children.get(part);\
               }\
               const name = parts[parts.length - 1];\
               at.children.set(name, { name, file: new File([text], name) });\
             }\
             const entry = n => n.file\
               ? { name: n.name, isFile: true, isDirectory: false,\
                   file(ok) { setTimeout(() => ok(n.file)); } }\
               : { name: n.name, isFile: false, isDirectory: true,\
                   createReader() { let given = false; return { readEntries(ok) {\
                     const batch = given ? [] : [...n.children.values()].map(entry);\
                     given = true; setTimeout(() => ok(batch)); } }; } };\
             const real = DataTransferItem.prototype.webkitGetAsEntry;\
             DataTransferItem.prototype.webkitGetAsEntry = function () { return entry(tree); };\
             const dt = new DataTransfer(); dt.items.add(new File([''], folder));\
             const app = document.querySelector('.app');\
             try {\
               app.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));\
               app.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));\
             } finally { DataTransferItem.prototype.webkitGetAsEntry = real; }\
             done(0);",
            vec![json!(folder), json!(files)],
        )
        .await;
    }

    /// Lets the browser download into `dir`.
    pub async fn download_into(&self, dir: &Path) {
        self.cdp(
            "Browser.setDownloadBehavior",
            json!({ "behavior": "allow", "downloadPath": dir.display().to_string() }),
        )
        .await;
    }

    /// Makes the page a browser without the File System Access API (Firefox, Safari).
    pub async fn without_file_pickers(&self) {
        self.js(
            "window.showOpenFilePicker = undefined; window.showSaveFilePicker = undefined; return 0;",
        )
        .await;
    }

    /// Writes `text` to the origin-private file `name` and hands out its handle as the file
    /// the browser's open picker returns (`window.showOpenFilePicker`).
    pub async fn offer_file_to_open(&self, name: &str, text: &str) {
        self.js_async(
            "const [name, text, done] = arguments;\
             (async () => {\
               const root = await navigator.storage.getDirectory();\
               const handle = await root.getFileHandle(name, { create: true });\
               const w = await handle.createWritable(); await w.write(text); await w.close();\
               window.showOpenFilePicker = async () => [handle];\
             })().then(() => done(0), e => done(String(e)));",
            vec![json!(name), json!(text)],
        )
        .await;
    }

    /// Hands out the origin-private file `name` as the file the save picker returns; the name
    /// the app suggested is kept in `window.suggestedName`.
    pub async fn offer_file_to_save(&self, name: &str) {
        self.js_async(
            "const [name, done] = arguments;\
             (async () => {\
               const root = await navigator.storage.getDirectory();\
               const handle = await root.getFileHandle(name, { create: true });\
               window.showSaveFilePicker = async (options) => { window.suggestedName = options.suggestedName; return handle; };\
             })().then(() => done(0), e => done(String(e)));",
            vec![json!(name)],
        )
        .await;
    }

    /// The text of the origin-private file `name` (`error: ...` when it cannot be read).
    pub async fn file_text(&self, name: &str) -> String {
        let v = self
            .js_async(
                "const [name, done] = arguments;\
                 (async () => {\
                   const root = await navigator.storage.getDirectory();\
                   const handle = await root.getFileHandle(name);\
                   return await (await handle.getFile()).text();\
                 })().then(done, e => done('error: ' + e));",
                vec![json!(name)],
            )
            .await;
        v.as_str().expect("the file's text").to_string()
    }
}

/// The finished downloads of design files (`*.json`) in `dir`, by name.
pub fn downloads(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "json"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}
