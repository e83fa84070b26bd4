//! Where the user's local designs live: the browser's IndexedDB (through the `idb` crate), big
//! enough for a real design (a 21 MB NoSQL Workbench model with 80,000 sample items).
//!
//! Database `keyplan`, three object stores keyed by a design's id: `meta` holds each design's
//! [`LocalDesign`] as JSON (what the design list shows, read without loading any design),
//! `files` its design file (`keyplan_core::file`, the same bytes `keyplan` writes), and
//! `handles` the file it was opened from or saved to (a File System Access handle, where the
//! browser has them), and `baselines` the design as last marked deployed (a [`Baseline`]: what
//! the Migrate tab plans from; issue 18). A design and its entry are written in one
//! transaction, so the list never names a design that is not there, and a failed write changes
//! nothing. Version 2 added `baselines`; a version-1 database gains it on open.
//!
//! Three small things stay in localStorage, because they must be read or written synchronously:
//! `keyplan.current` (the design open), `keyplan.theme` (read before the first paint), and
//! `keyplan.journal`, the open design's text written
//! when the page goes away with a save still pending. An IndexedDB transaction started then may
//! not finish before the tab dies; the journal is read back first on the next start. The old
//! localStorage layout (`keyplan.designs`, `keyplan.design.<id>`) is migrated into IndexedDB on
//! start and then removed. A design that no longer parses (written by a newer keyplan) is
//! reported, never silently replaced.

use std::cell::RefCell;
use std::rc::Rc;

use idb::{Database, Factory, ObjectStoreParams, TransactionMode, TransactionResult};
use keyplan_core::Design;
use leptos::wasm_bindgen::JsValue;

const DB_NAME: &str = "keyplan";
const DB_VERSION: u32 = 2;
const META: &str = "meta";
const FILES: &str = "files";
const HANDLES: &str = "handles";
const BASELINES: &str = "baselines";
const STORES: [&str; 4] = [META, FILES, HANDLES, BASELINES];

const CURRENT: &str = "keyplan.current";
const JOURNAL: &str = "keyplan.journal";
/// The theme chosen in the top bar (app/src/theme.rs), read before the first paint.
const THEME: &str = "keyplan.theme";
/// The localStorage layout before IndexedDB (migrated on start).
const OLD_LIST: &str = "keyplan.designs";
const OLD_DESIGN_PREFIX: &str = "keyplan.design.";

/// One local design in the design list.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct LocalDesign {
    pub id: String,
    pub name: String,
    /// When it was last changed, in milliseconds since 1970 (JavaScript time).
    #[serde(default)]
    pub modified: f64,
    /// The file it was opened from or last saved as, if any.
    #[serde(default, rename = "fileName", skip_serializing_if = "Option::is_none")]
    pub file_name: Option<String>,
    /// The hash of the design file as last written to (or read from) that file: the design has
    /// unsaved changes when its text hashes otherwise.
    #[serde(default, rename = "fileHash", skip_serializing_if = "Option::is_none")]
    pub file_hash: Option<u64>,
}

impl LocalDesign {
    pub fn new(id: &str, name: &str) -> LocalDesign {
        LocalDesign {
            id: id.to_string(),
            name: name.to_string(),
            modified: js_sys::Date::now(),
            file_name: None,
            file_hash: None,
        }
    }
}

/// FNV-1a over the design file's bytes: enough to tell "changed since the file was saved".
pub fn text_hash(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

// ---- localStorage: the current id, the journal, the old layout ----

fn local() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

fn get(key: &str) -> Option<String> {
    local()?.get_item(key).ok().flatten()
}

pub fn current() -> Option<String> {
    get(CURRENT)
}

pub fn set_current(id: &str) {
    if let Some(s) = local() {
        let _ = s.set_item(CURRENT, id);
    }
}

/// The theme chosen, if one was.
pub fn theme() -> Option<String> {
    get(THEME)
}

/// Remembers the theme chosen; the system's is remembered as a choice too.
pub fn set_theme(name: &str) {
    if let Some(s) = local() {
        let _ = s.set_item(THEME, name);
    }
}

/// Writes the open design's text synchronously, for a page that is going away with a save
/// pending. False when localStorage refuses it (too big): the IndexedDB write started beside it
/// is then the only copy.
pub fn write_journal(id: &str, text: &str) -> bool {
    local().is_some_and(|s| s.set_item(JOURNAL, &format!("{id}\n{text}")).is_ok())
}

/// The journal left by a page that went away: the design id and its text.
pub fn read_journal() -> Option<(String, String)> {
    parse_journal(&get(JOURNAL)?)
}

pub fn parse_journal(text: &str) -> Option<(String, String)> {
    let (id, design) = text.split_once('\n')?;
    (!id.is_empty()).then(|| (id.to_string(), design.to_string()))
}

/// Forgets the journal once IndexedDB holds what it held (or newer).
pub fn clear_journal() {
    if let Some(s) = local() {
        let _ = s.remove_item(JOURNAL);
    }
}

/// Parses the old localStorage list of designs (one `id<TAB>name` per line); lines that do not
/// read are skipped.
pub fn parse_old_list(text: &str) -> Vec<(String, String)> {
    text.lines()
        .filter_map(|line| line.split_once('\t'))
        .filter(|(id, _)| !id.is_empty())
        .map(|(id, name)| (id.to_string(), name.to_string()))
        .collect()
}

// ---- IndexedDB ----

thread_local! {
    static DB: RefCell<Option<Rc<Database>>> = const { RefCell::new(None) };
}

/// Why IndexedDB refused, in words for the user.
fn refused(what: &str, e: impl std::fmt::Display) -> String {
    format!("the browser's storage refused to {what} ({e})")
}

async fn db() -> Result<Rc<Database>, String> {
    if let Some(db) = DB.with(|cell| cell.borrow().clone()) {
        return Ok(db);
    }
    let factory = Factory::new().map_err(|e| refused("open", e))?;
    let mut request = factory
        .open(DB_NAME, Some(DB_VERSION))
        .map_err(|e| refused("open", e))?;
    request.on_upgrade_needed(|event| {
        let Ok(database) = idb::DatabaseEvent::database(&event) else {
            return;
        };
        for name in STORES {
            if !database.store_names().iter().any(|n| n == name) {
                let _ = database.create_object_store(name, ObjectStoreParams::new());
            }
        }
    });
    let database = Rc::new(request.await.map_err(|e| refused("open", e))?);
    DB.with(|cell| *cell.borrow_mut() = Some(database.clone()));
    Ok(database)
}

/// Every local design, most recently changed first.
pub async fn list() -> Result<Vec<LocalDesign>, String> {
    let db = db().await?;
    let transaction = db
        .transaction(&[META], TransactionMode::ReadOnly)
        .map_err(|e| refused("read the design list", e))?;
    let store = transaction
        .object_store(META)
        .map_err(|e| refused("read the design list", e))?;
    let values = store
        .get_all(None, None)
        .map_err(|e| refused("read the design list", e))?
        .await
        .map_err(|e| refused("read the design list", e))?;
    let mut list: Vec<LocalDesign> = values
        .iter()
        .filter_map(|v| v.as_string())
        .filter_map(|text| serde_json::from_str(&text).ok())
        .collect();
    list.sort_by(|a, b| b.modified.total_cmp(&a.modified));
    Ok(list)
}

async fn get_value(store_name: &str, id: &str) -> Result<Option<JsValue>, String> {
    let db = db().await?;
    let transaction = db
        .transaction(&[store_name], TransactionMode::ReadOnly)
        .map_err(|e| refused("read", e))?;
    let store = transaction
        .object_store(store_name)
        .map_err(|e| refused("read", e))?;
    store
        .get(JsValue::from_str(id))
        .map_err(|e| refused("read", e))?
        .await
        .map_err(|e| refused("read", e))
}

/// A design's entry in the list.
pub async fn meta(id: &str) -> Option<LocalDesign> {
    let text = get_value(META, id).await.ok()??.as_string()?;
    serde_json::from_str(&text).ok()
}

/// A saved design's file text.
pub async fn load_text(id: &str) -> Result<Option<String>, String> {
    Ok(get_value(FILES, id).await?.and_then(|v| v.as_string()))
}

/// Loads a saved design: `None` if there is none, `Err` if it no longer reads.
pub async fn load(id: &str) -> Option<Result<Design, String>> {
    match load_text(id).await {
        Ok(Some(text)) => Some(keyplan_core::file::parse(&text).map_err(|e| e.to_string())),
        Ok(None) => None,
        Err(e) => Some(Err(e)),
    }
}

/// The file handle a design was opened from or saved to, if the browser kept it.
pub async fn handle(id: &str) -> Option<JsValue> {
    get_value(HANDLES, id)
        .await
        .ok()
        .flatten()
        .filter(|v| !v.is_undefined() && !v.is_null())
}

/// Writes a design's entry and, when given, its file text, in one transaction; waits until the
/// browser has committed it. On failure nothing changed and the message says why (a full
/// storage names `QuotaExceededError`).
pub async fn save(meta: &LocalDesign, text: Option<&str>) -> Result<(), String> {
    let db = db().await?;
    let transaction = db
        .transaction(&[META, FILES], TransactionMode::ReadWrite)
        .map_err(|e| refused("save", e))?;
    let entry = serde_json::to_string(meta).map_err(|e| refused("save", e))?;
    let key = JsValue::from_str(&meta.id);
    let put = |store_name: &str, value: &str| -> Result<(), String> {
        let store = transaction
            .object_store(store_name)
            .map_err(|e| refused("save", e))?;
        // The request's own result is the transaction's: awaited below.
        let _request = store
            .put(&JsValue::from_str(value), Some(&key))
            .map_err(|e| refused("save", e))?;
        Ok(())
    };
    put(META, &entry)?;
    if let Some(text) = text {
        put(FILES, text)?;
    }
    finish(transaction).await
}

async fn finish(transaction: idb::Transaction) -> Result<(), String> {
    // Keep a second reference to the transaction for its error: the future consumes it.
    let raw = web_sys::IdbTransaction::from(transaction);
    let error = raw.clone();
    match idb::Transaction::from(raw).await {
        Ok(TransactionResult::Committed) => Ok(()),
        Ok(TransactionResult::Aborted) | Err(_) => Err(error
            .error()
            .map(|e| format!("{}: {}", e.name(), e.message()))
            .unwrap_or_else(|| "the browser aborted the write".to_string())),
    }
}

/// A design as it was when the user marked it deployed: the data in its tables has this shape.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Baseline {
    /// The design file's text.
    pub text: String,
    /// When it was marked, in milliseconds since 1970.
    pub marked: f64,
}

/// Stores `baseline` as design `id`'s deployed baseline, replacing any before.
pub async fn save_baseline(id: &str, baseline: &Baseline) -> Result<(), String> {
    let db = db().await?;
    let transaction = db
        .transaction(&[BASELINES], TransactionMode::ReadWrite)
        .map_err(|e| refused("save the baseline", e))?;
    let store = transaction
        .object_store(BASELINES)
        .map_err(|e| refused("save the baseline", e))?;
    let value = serde_json::to_string(baseline).map_err(|e| refused("save the baseline", e))?;
    let _request = store
        .put(&JsValue::from_str(&value), Some(&JsValue::from_str(id)))
        .map_err(|e| refused("save the baseline", e))?;
    finish(transaction).await
}

/// Design `id`'s deployed baseline, if it has one.
pub async fn baseline(id: &str) -> Result<Option<Baseline>, String> {
    let Some(value) = get_value(BASELINES, id).await?.and_then(|v| v.as_string()) else {
        return Ok(None);
    };
    serde_json::from_str(&value)
        .map(Some)
        .map_err(|e| format!("the stored baseline does not read ({e})"))
}

/// Remembers the file a design belongs to (a File System Access handle).
pub async fn save_handle(id: &str, handle: &JsValue) -> Result<(), String> {
    let db = db().await?;
    let transaction = db
        .transaction(&[HANDLES], TransactionMode::ReadWrite)
        .map_err(|e| refused("save", e))?;
    let store = transaction
        .object_store(HANDLES)
        .map_err(|e| refused("save", e))?;
    let _request = store
        .put(handle, Some(&JsValue::from_str(id)))
        .map_err(|e| refused("save", e))?;
    finish(transaction).await
}

/// Forgets a local design: its entry, its file and its handle.
pub async fn remove(id: &str) -> Result<(), String> {
    let db = db().await?;
    let transaction = db
        .transaction(&STORES, TransactionMode::ReadWrite)
        .map_err(|e| refused("delete", e))?;
    for name in STORES {
        let store = transaction
            .object_store(name)
            .map_err(|e| refused("delete", e))?;
        let _request = store
            .delete(JsValue::from_str(id))
            .map_err(|e| refused("delete", e))?;
    }
    finish(transaction).await
}

/// Moves the designs of the old localStorage layout into IndexedDB, then removes them from
/// localStorage; a design whose move failed stays where it was (and is tried again on the
/// next start). Returns how many moved.
pub async fn migrate_local_storage() -> Result<usize, String> {
    let Some(local) = local() else { return Ok(0) };
    let names = get(OLD_LIST)
        .map(|t| parse_old_list(&t))
        .unwrap_or_default();
    let mut ids: Vec<String> = names.iter().map(|(id, _)| id.clone()).collect();
    // A design stored without a list entry is moved too.
    for i in 0..local.length().unwrap_or(0) {
        if let Some(id) = local
            .key(i)
            .ok()
            .flatten()
            .and_then(|k| k.strip_prefix(OLD_DESIGN_PREFIX).map(str::to_string))
            && !ids.contains(&id)
        {
            ids.push(id);
        }
    }
    let mut moved = 0;
    let mut failure = None;
    for id in &ids {
        let key = format!("{OLD_DESIGN_PREFIX}{id}");
        let Some(text) = get(&key) else { continue };
        // The design's own name; the list's may be stale.
        let name = keyplan_core::file::parse(&text)
            .ok()
            .map(|d| d.name)
            .or_else(|| {
                names
                    .iter()
                    .find(|(n, _)| n == id)
                    .map(|(_, name)| name.clone())
            })
            .unwrap_or_else(|| "Recovered design".to_string());
        // Oldest first in the old list; keep that order in the modified dates.
        let mut entry = LocalDesign::new(id, &name);
        entry.modified -= (ids.len() - moved) as f64;
        match save(&entry, Some(&text)).await {
            Ok(()) => {
                let _ = local.remove_item(&key);
                moved += 1;
            }
            Err(e) => failure = Some(e),
        }
    }
    if failure.is_none() {
        let _ = local.remove_item(OLD_LIST);
    }
    match failure {
        Some(e) => Err(e),
        None => Ok(moved),
    }
}

/// A fresh id, unlikely to collide across tabs: the time in base 36 and a random suffix.
pub fn new_id() -> String {
    let now = js_sys::Date::now() as u64;
    let random = (js_sys::Math::random() * 36f64.powi(4)) as u64;
    format!("{}-{}", to_base36(now), to_base36(random))
}

fn to_base36(mut n: u64) -> String {
    const DIGITS: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut out = Vec::new();
    loop {
        out.push(DIGITS[(n % 36) as usize]);
        n /= 36;
        if n == 0 {
            break;
        }
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}

/// The file name a design is saved under when it has none: `order-management.keyplan.json`,
/// on the slug every export's name uses too.
pub fn default_file_name(design: &Design) -> String {
    format!(
        "{}.keyplan.json",
        keyplan_core::casing::file_stem(&design.name, '-')
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_old_design_list_parses_and_skips_junk() {
        let parsed = parse_old_list("a1\tOrders\nb2\ttab here\njunk line\n\tno id\n");
        assert_eq!(
            parsed,
            [
                ("a1".to_string(), "Orders".to_string()),
                ("b2".to_string(), "tab here".to_string())
            ]
        );
    }

    #[test]
    fn a_journal_is_its_id_then_the_design_text() {
        assert_eq!(
            parse_journal("abc\n{\n  \"version\": 1\n}\n"),
            Some(("abc".to_string(), "{\n  \"version\": 1\n}\n".to_string()))
        );
        assert_eq!(parse_journal("no newline"), None);
        assert_eq!(parse_journal("\n{}"), None);
    }

    #[test]
    fn ids_are_base36() {
        assert_eq!(to_base36(0), "0");
        assert_eq!(to_base36(36 * 36 + 35), "10z");
    }

    #[test]
    fn a_design_file_is_named_after_the_design() {
        let name = |n: &str| default_file_name(&Design::new(n));
        assert_eq!(name("Order management"), "order-management.keyplan.json");
        assert_eq!(name("  Shop: v2!  "), "shop-v2.keyplan.json");
        assert_eq!(name("???"), "design.keyplan.json");
    }

    #[test]
    fn the_hash_tells_texts_apart() {
        assert_eq!(text_hash("abc"), text_hash("abc"));
        assert_ne!(text_hash("abc"), text_hash("abd"));
    }
}
