//! The user's local designs: which one is open, the list to switch between, opening a design
//! (an example, an import, a shared link) as a NEW local design so saved work is never
//! overwritten, and keeping the open design saved in the browser ([`crate::storage`]).
//!
//! Saving never loses work silently: a write the browser refuses (a design too big for its
//! storage) leaves the list as it was, keeps the design open, and raises a [`Library::problem`]
//! that says what happened and offers Save (to a file) and dropping the imported sample items.
//! A deleted design can be brought back ([`Library::undo_delete`]) until another is deleted.

use keyplan_core::Design;
use keyplan_core::edit::Edit;
use leptos::prelude::*;
use leptos::wasm_bindgen::JsValue;

use crate::session::{Selection, Session};
use crate::storage::{self, LocalDesign};
use crate::store::Store;

/// Where the open design's latest change is: shown to tests as `data-storage` on the app.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SaveState {
    /// A change waits for the browser's next idle moment.
    Pending,
    /// Written, the browser has not confirmed yet.
    Writing,
    Saved,
    /// The browser refused the last write; see [`Library::problem`].
    Failed,
}

impl SaveState {
    pub fn as_str(self) -> &'static str {
        match self {
            SaveState::Pending => "pending",
            SaveState::Writing => "writing",
            SaveState::Saved => "saved",
            SaveState::Failed => "failed",
        }
    }
}

/// A design just deleted, kept in memory so it can be restored.
#[derive(Debug, Clone)]
pub struct Deleted {
    pub entry: LocalDesign,
    pub text: String,
}

/// What the app opens with: read from storage before the editor is mounted.
#[derive(Debug, Clone)]
pub struct Start {
    pub entry: LocalDesign,
    pub design: Design,
    pub designs: Vec<LocalDesign>,
    pub handle: Option<JsValue>,
    /// Something the user should know (a link that failed, a design that no longer reads).
    pub message: Option<String>,
    /// What opened, when it needs saying: a shared link's design is the user's own copy.
    pub notice: Option<String>,
}

/// The local design that is the file `file_name` as it was last read or written (its text
/// hashing to `hash`): opening that file again opens it (issue 43).
pub fn same_file(designs: &[LocalDesign], file_name: &str, hash: u64) -> Option<String> {
    designs
        .iter()
        .find(|d| d.file_name.as_deref() == Some(file_name) && d.file_hash == Some(hash))
        .map(|d| d.id.clone())
}

/// Whether the design list's search `query` finds `design`: its name or file name holds it,
/// in any case; an empty query finds every design.
pub fn matches(design: &LocalDesign, query: &str) -> bool {
    let query = query.trim().to_lowercase();
    query.is_empty()
        || design.name.to_lowercase().contains(&query)
        || design
            .file_name
            .as_ref()
            .is_some_and(|f| f.to_lowercase().contains(&query))
}

/// The open design's entry, the list of local designs, and how saving goes.
#[derive(Debug, Clone, Copy)]
pub struct Library {
    /// The open design's id.
    pub current: RwSignal<String>,
    /// The open design's entry: its file name and the hash of that file's text.
    pub entry: RwSignal<LocalDesign>,
    /// True when the open design differs from the file it was opened from or saved to.
    pub edited: RwSignal<bool>,
    pub designs: RwSignal<Vec<LocalDesign>>,
    pub state: RwSignal<SaveState>,
    /// Why the open design is not kept in this browser, while that lasts.
    pub problem: RwSignal<Option<String>>,
    pub deleted: RwSignal<Option<Deleted>>,
    /// The open design's File System Access handle (the file Save writes back to).
    pub handle: StoredValue<Option<JsValue>, LocalStorage>,
    /// Writes started and not yet confirmed.
    writes: StoredValue<u32>,
}

/// Reads what the app opens with: migrates the old localStorage designs, replays the journal
/// of a page that went away mid-save, then takes the design a shared link carries (as a new
/// local design), else the open local design, else the built-in example.
pub async fn start(link: Option<Result<Design, String>>) -> Start {
    let mut messages: Vec<String> = Vec::new();
    if let Err(e) = storage::migrate_local_storage().await {
        messages.push(format!(
            "Some designs could not be moved into this browser's database ({e}); they stay where they were."
        ));
    }
    let journal = replay_journal().await;
    let designs = storage::list().await.unwrap_or_else(|e| {
        messages.push(format!("The design list could not be read: {e}"));
        Vec::new()
    });
    let fresh = |design: Design, message: Option<String>| Start {
        entry: LocalDesign::new(&storage::new_id(), &design.name),
        design,
        designs: designs.clone(),
        handle: None,
        message,
        notice: None,
    };
    let joined = |messages: Vec<String>| (!messages.is_empty()).then(|| messages.join(" "));
    match link {
        Some(Ok(design)) => {
            let notice = crate::share::shared_copy_notice(&design.name);
            return Start {
                notice: Some(notice),
                ..fresh(design, joined(messages))
            };
        }
        Some(Err(e)) => messages.push(format!(
            "This link could not be opened ({e}). Your saved designs are untouched."
        )),
        None => {}
    }
    if let Some(id) = storage::current() {
        let loaded = match &journal {
            Some((journal_id, design)) if *journal_id == id => Some(Ok(design.clone())),
            _ => storage::load(&id).await,
        };
        match loaded {
            Some(Ok(design)) => {
                let entry = storage::meta(&id)
                    .await
                    .unwrap_or_else(|| LocalDesign::new(&id, &design.name));
                return Start {
                    entry,
                    design,
                    designs: designs.clone(),
                    handle: storage::handle(&id).await,
                    message: joined(messages),
                    notice: None,
                };
            }
            Some(Err(e)) => messages.push(format!(
                "Your last design could not be read ({e}); it is kept in storage, and the example opened instead."
            )),
            None => {}
        }
    }
    fresh(keyplan_core::examples::first(), joined(messages))
}

/// Writes the journal's design into the database and forgets the journal; returns it, so the
/// start opens it even when the database refused it.
async fn replay_journal() -> Option<(String, Design)> {
    let (id, text) = storage::read_journal()?;
    let Ok(design) = keyplan_core::file::parse(&text) else {
        storage::clear_journal();
        return None;
    };
    let mut entry = storage::meta(&id)
        .await
        .unwrap_or_else(|| LocalDesign::new(&id, &design.name));
    entry.name = design.name.clone();
    entry.modified = js_sys::Date::now();
    if storage::save(&entry, Some(&text)).await.is_ok() {
        storage::clear_journal();
    }
    Some((id, design))
}

impl Library {
    pub fn new(start: &Start) -> Library {
        // The design the start opened is the one a reload opens, also on a first visit (a
        // fresh example or a shared link's copy): without this a reload opened a new example
        // and the saved design was out of reach.
        storage::set_current(&start.entry.id);
        Library {
            current: RwSignal::new(start.entry.id.clone()),
            entry: RwSignal::new(start.entry.clone()),
            edited: RwSignal::new(false),
            designs: RwSignal::new(start.designs.clone()),
            state: RwSignal::new(SaveState::Saved),
            problem: RwSignal::new(None),
            deleted: RwSignal::new(None),
            handle: StoredValue::new_local(start.handle.clone()),
            writes: StoredValue::new(0),
        }
    }

    /// Notes that a change waits to be saved.
    pub fn mark_pending(&self) {
        if self.state.get_untracked() != SaveState::Failed {
            self.state.set(SaveState::Pending);
        }
    }

    /// The open design's entry as it is about to be written, with `design`'s name and now as
    /// its date; also updates whether it differs from its file.
    fn entry_for(&self, design: &Design, text: &str) -> LocalDesign {
        let mut entry = self.entry.get_untracked();
        entry.id = self.current.get_untracked();
        entry.name = design.name.clone();
        entry.modified = js_sys::Date::now();
        // Hashed only when there is a file to compare with: a design imported from another
        // format has none, and hashing its text byte by byte was 135 ms of the autosave after
        // opening a 17.7 MB model (a CPU profile on the busy machine, issue 19).
        let edited = entry
            .file_hash
            .is_none_or(|hash| hash != storage::text_hash(text));
        if self.edited.get_untracked() != edited {
            self.edited.set(edited);
        }
        entry
    }

    /// Saves the open design in the browser (autosave). The write is asynchronous; its outcome
    /// lands in [`Library::state`] and, on failure, [`Library::problem`].
    pub fn save(&self, design: &Design) {
        let text = keyplan_core::file::to_string(design);
        let entry = self.entry_for(design, &text);
        self.write(entry, text, design);
    }

    fn write(&self, entry: LocalDesign, text: String, design: &Design) {
        let library = *self;
        let size = text.len();
        let samples: usize = design.samples.values().map(Vec::len).sum();
        self.state.set(SaveState::Writing);
        self.writes.update_value(|n| *n += 1);
        leptos::task::spawn_local(async move {
            let outcome = storage::save(&entry, Some(&text)).await;
            library.writes.update_value(|n| *n = n.saturating_sub(1));
            let last = library.writes.get_value() == 0;
            match outcome {
                Ok(()) => {
                    if storage::read_journal().is_some_and(|(id, _)| id == entry.id) {
                        storage::clear_journal();
                    }
                    library.remember(&entry);
                    if library.problem.get_untracked().is_some() {
                        library.problem.set(None);
                    }
                    if last {
                        library.state.set(SaveState::Saved);
                    }
                }
                Err(e) => {
                    library
                        .problem
                        .set(Some(too_big_message(&entry.name, size, samples, &e)));
                    library.state.set(SaveState::Failed);
                }
            }
        });
    }

    /// Writes the open design now, synchronously into the journal and asynchronously into the
    /// database: the page is going away (`pagehide`) with a save pending.
    pub fn flush(&self, design: &Design) {
        let text = keyplan_core::file::to_string(design);
        let entry = self.entry_for(design, &text);
        storage::write_journal(&entry.id, &text);
        self.write(entry, text, design);
    }

    /// Puts `entry` in the list in place of its old self, newest first.
    fn remember(&self, entry: &LocalDesign) {
        if self.entry.with_untracked(|e| e.id == entry.id) {
            self.entry.set(entry.clone());
        }
        self.designs.update(|list| {
            list.retain(|d| d.id != entry.id);
            list.insert(0, entry.clone());
        });
    }

    /// Opens `design` as a new local design beside the others.
    pub fn open_new(&self, store: &Store, session: &Session, design: Design) {
        self.open_new_from(store, session, design, None, None);
    }

    /// Saves the open design before another replaces it: its autosave may still be waiting for
    /// an idle moment, and once another design is open that save would write the other one.
    /// issue 20: a file opened before the example's first autosave (the browser's first idle
    /// moment, late on a busy machine) was the only design left.
    fn leave(&self, store: &Store) {
        if self.state.get_untracked() == SaveState::Pending {
            store.with_untracked(|design| self.save(design));
        }
    }

    /// Forgets the open design's pending autosave, so [`Library::leave`] does not write it: it
    /// was deleted.
    fn drop_pending(&self) {
        if self.state.get_untracked() == SaveState::Pending {
            self.state.set(SaveState::Saved);
        }
    }

    /// Opens `design` as a new local design; `file_name` and `handle` are the design file it
    /// was read from, when it is one (Save writes back to it).
    pub fn open_new_from(
        &self,
        store: &Store,
        session: &Session,
        design: Design,
        file_name: Option<String>,
        handle: Option<JsValue>,
    ) {
        let file_hash = file_name
            .as_ref()
            .map(|_| storage::text_hash(&keyplan_core::file::to_string(&design)));
        if let (Some(name), Some(hash)) = (&file_name, file_hash)
            && let Some(id) = self
                .designs
                .with_untracked(|list| same_file(list, name, hash))
        {
            // issue 43: the same file opened again is the local design it already is.
            if id != self.current.get_untracked() {
                self.switch(*store, *session, id);
            }
            return;
        }
        self.leave(store);
        let id = storage::new_id();
        let mut entry = LocalDesign::new(&id, &design.name);
        entry.file_name = file_name;
        entry.file_hash = file_hash;
        self.show(store, session, entry, design, handle.clone());
        if let Some(handle) = handle {
            leptos::task::spawn_local(async move {
                let _ = storage::save_handle(&id, &handle).await;
            });
        }
    }

    /// Makes `entry` the open design; the autosave that follows `store.open` writes it.
    fn show(
        &self,
        store: &Store,
        session: &Session,
        entry: LocalDesign,
        design: Design,
        handle: Option<JsValue>,
    ) {
        storage::set_current(&entry.id);
        self.current.set(entry.id.clone());
        self.edited.set(false);
        self.entry.set(entry);
        self.handle.set_value(handle);
        self.problem.set(None);
        if self.state.get_untracked() == SaveState::Failed {
            self.state.set(SaveState::Pending);
        }
        session.select(Selection::None);
        store.open(design);
        session.fit();
    }

    /// Switches to another local design.
    pub fn switch(&self, store: Store, session: Session, id: String) {
        self.leave(&store);
        let library = *self;
        leptos::task::spawn_local(async move {
            match storage::load(&id).await {
                Some(Ok(design)) => {
                    let entry = storage::meta(&id)
                        .await
                        .unwrap_or_else(|| LocalDesign::new(&id, &design.name));
                    let handle = storage::handle(&id).await;
                    library.show(&store, &session, entry, design, handle);
                }
                Some(Err(e)) => session.warn(format!("that design no longer opens: {e}")),
                None => session.warn("that design is no longer saved in this browser"),
            }
        });
    }

    /// Deletes the open design (the user confirmed) and opens the most recent other one, or a
    /// blank one; the deleted design is kept for [`Library::undo_delete`].
    pub fn delete_current(&self, store: Store, session: Session) {
        let library = *self;
        let entry = self.entry.get_untracked();
        let text = store.with_untracked(keyplan_core::file::to_string);
        leptos::task::spawn_local(async move {
            if let Err(e) = storage::remove(&entry.id).await {
                session.warn(format!("The design could not be deleted: {e}"));
                return;
            }
            library
                .designs
                .update(|list| list.retain(|d| d.id != entry.id));
            library.deleted.set(Some(Deleted { entry, text }));
            let next = library.designs.with_untracked(|list| list.first().cloned());
            library.drop_pending();
            match next {
                Some(other) => library.switch(store, session, other.id),
                None => library.open_new(&store, &session, Design::new("Untitled design")),
            }
        });
    }

    /// Deletes the local designs `ids` (the user confirmed); when the open one is among them,
    /// opens the most recent other one, or a blank one.
    pub fn delete_many(&self, store: Store, session: Session, ids: Vec<String>) {
        let library = *self;
        let current = self.current.get_untracked();
        if ids.contains(&current) {
            self.drop_pending();
        }
        leptos::task::spawn_local(async move {
            let mut n_deleted = 0;
            for id in &ids {
                if let Err(e) = storage::remove(id).await {
                    session.warn(format!("The design could not be deleted: {e}"));
                    break;
                }
                library.designs.update(|list| list.retain(|d| &d.id != id));
                n_deleted += 1;
            }
            if ids[..n_deleted].contains(&current) {
                match library.designs.with_untracked(|list| list.first().cloned()) {
                    Some(other) => library.switch(store, session, other.id),
                    None => library.open_new(&store, &session, Design::new("Untitled design")),
                }
            }
            if n_deleted == ids.len() {
                session.say(format!(
                    "Deleted {} from this browser",
                    crate::text::plural(n_deleted, "design")
                ));
            }
        });
    }

    /// Brings the last deleted design back and opens it.
    pub fn undo_delete(&self, store: Store, session: Session) {
        let Some(deleted) = self.deleted.get_untracked() else {
            return;
        };
        let library = *self;
        leptos::task::spawn_local(async move {
            match storage::save(&deleted.entry, Some(&deleted.text)).await {
                Ok(()) => {
                    library.deleted.set(None);
                    library.remember(&deleted.entry);
                    library.switch(store, session, deleted.entry.id.clone());
                    session.say(format!("Restored \u{201c}{}\u{201d}", deleted.entry.name));
                }
                Err(e) => session.warn(format!("The design could not be restored: {e}")),
            }
        });
    }

    /// Renames a local design: the open one through an edit (undoable), another in storage.
    pub fn rename(&self, store: Store, session: Session, id: String, name: String) {
        let name = name.trim().to_string();
        if name.is_empty() {
            return;
        }
        if id == self.current.get_untracked() {
            store.dispatch(Edit::SetName(name));
            return;
        }
        let library = *self;
        leptos::task::spawn_local(async move {
            let outcome = async {
                let text = storage::load_text(&id)
                    .await?
                    .ok_or("that design is no longer saved in this browser")?;
                let mut design = keyplan_core::file::parse(&text).map_err(|e| e.to_string())?;
                design.name = name.clone();
                let mut entry = storage::meta(&id)
                    .await
                    .unwrap_or_else(|| LocalDesign::new(&id, &name));
                entry.name = name;
                entry.modified = js_sys::Date::now();
                storage::save(&entry, Some(&keyplan_core::file::to_string(&design))).await?;
                Ok::<_, String>(entry)
            }
            .await;
            match outcome {
                Ok(entry) => library.remember(&entry),
                Err(e) => session.warn(format!("The design could not be renamed: {e}")),
            }
        });
    }

    /// Copies a local design under a new name and opens the copy.
    pub fn duplicate(&self, store: Store, session: Session, id: String) {
        let library = *self;
        leptos::task::spawn_local(async move {
            let design = if id == library.current.get_untracked() {
                Ok(store.design())
            } else {
                match storage::load(&id).await {
                    Some(loaded) => loaded,
                    None => Err("that design is no longer saved in this browser".to_string()),
                }
            };
            match design {
                Ok(mut design) => {
                    design.name = format!("{} (copy)", design.name);
                    library.open_new(&store, &session, design);
                }
                Err(e) => session.warn(format!("The design could not be copied: {e}")),
            }
        });
    }

    /// Notes that the open design was written to `file_name` with exactly `text`.
    pub fn saved_to_file(&self, file_name: String, text: &str, handle: Option<JsValue>) {
        let hash = storage::text_hash(text);
        self.entry.update(|e| {
            e.file_name = Some(file_name);
            e.file_hash = Some(hash);
        });
        self.edited.set(false);
        let entry = self.entry.get_untracked();
        let library = *self;
        if let Some(handle) = &handle {
            self.handle.set_value(Some(handle.clone()));
        }
        leptos::task::spawn_local(async move {
            // Only the entry: the design's text is autosaved on its own.
            if storage::save(&entry, None).await.is_ok() {
                library.remember(&entry);
            }
            if let Some(handle) = handle {
                let _ = storage::save_handle(&entry.id, &handle).await;
            }
        });
    }
}

/// What the user reads when the browser would not keep the design.
pub fn too_big_message(name: &str, bytes: usize, samples: usize, error: &str) -> String {
    // In the 1,024-byte KB of every size keyplan writes (issue 42: this said 1,000).
    let size = keyplan_core::size::bytes_text(bytes as f64);
    let samples = if samples > 0 {
        format!(
            ", or drop the {} imported sample items so it fits",
            crate::text::thousands(samples as u64)
        )
    } else {
        String::new()
    };
    format!(
        "\u{201c}{name}\u{201d} ({size}) could not be kept in this browser: {error}. It is still open in this tab, and your other designs are untouched. Save it as a file before you close the tab{samples}."
    )
}

pub fn use_library() -> Library {
    expect_context::<Library>()
}

/// Scrolls `element` back to its start whenever another design opens, so a list or the canvas
/// keeps no scroll of the design before (issue 43).
pub fn scroll_home_on_open(element: NodeRef<leptos::html::Div>) {
    let library = use_library();
    Effect::new(move |_| {
        library.current.track();
        if let Some(el) = element.get_untracked() {
            el.set_scroll_top(0);
            el.set_scroll_left(0);
        }
    });
}

#[cfg(test)]
mod tests {

    fn local(id: &str, name: &str, file: Option<(&str, u64)>) -> LocalDesign {
        LocalDesign {
            id: id.to_string(),
            name: name.to_string(),
            modified: 0.0,
            file_name: file.map(|(f, _)| f.to_string()),
            file_hash: file.map(|(_, h)| h),
        }
    }

    // issue 43: the same file opened again was listed twice.
    #[test]
    fn the_same_file_as_last_read_is_the_design_it_already_is() {
        let designs = [
            local("a", "Shop", Some(("shop.keyplan.json", 7))),
            local("b", "Other", None),
        ];
        assert_eq!(
            same_file(&designs, "shop.keyplan.json", 7),
            Some("a".to_string())
        );
        // Another file of that name, or that file changed since: a design of its own.
        assert_eq!(same_file(&designs, "shop.keyplan.json", 8), None);
        assert_eq!(same_file(&designs, "other.keyplan.json", 7), None);
    }

    #[test]
    fn the_search_finds_a_name_or_a_file_name_in_any_case() {
        let shop = local("a", "Shop", Some(("orders.keyplan.json", 7)));
        assert!(matches(&shop, ""));
        assert!(matches(&shop, " sHoP "));
        assert!(matches(&shop, "ORDERS"));
        assert!(!matches(&shop, "billing"));
    }

    use super::*;

    #[test]
    fn the_too_big_message_says_what_happened_and_what_to_do() {
        assert_eq!(
            too_big_message("Shop", 21_400_000, 80_000, "QuotaExceededError: full"),
            "\u{201c}Shop\u{201d} (20.4 MB) could not be kept in this browser: QuotaExceededError: full. It is still open in this tab, and your other designs are untouched. Save it as a file before you close the tab, or drop the 80,000 imported sample items so it fits."
        );
        assert!(too_big_message("Shop", 1500, 0, "x").contains("(1.5 KB)"));
        assert!(!too_big_message("Shop", 1500, 0, "x").contains("sample"));
    }
}
