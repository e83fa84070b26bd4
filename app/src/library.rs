//! The user's local designs: which one is open, the list to switch between, and opening a
//! design (an example, an import, a shared link) as a NEW local design so autosaved work is
//! never overwritten.

use keyplan_core::Design;
use leptos::prelude::*;

use crate::session::{Selection, Session};
use crate::storage::{self, LocalDesign};
use crate::store::Store;

/// The open design's id and the list of local designs.
#[derive(Debug, Clone, Copy)]
pub struct Library {
    pub current: RwSignal<String>,
    pub designs: RwSignal<Vec<LocalDesign>>,
}

impl Library {
    pub fn new(current: String) -> Library {
        Library {
            current: RwSignal::new(current),
            designs: RwSignal::new(storage::list()),
        }
    }

    /// Saves the open design (autosave) and refreshes the list when a name changed.
    pub fn save(&self, design: &Design) -> Result<(), String> {
        let id = self.current.get_untracked();
        storage::save(&id, design)?;
        let stale = self
            .designs
            .with_untracked(|list| !list.iter().any(|d| d.id == id && d.name == design.name));
        if stale {
            self.designs.set(storage::list());
        }
        Ok(())
    }

    /// Saves the open design before another replaces it: its autosave may still be waiting for
    /// an idle moment, and once another design is open that save would write the other one.
    fn leave(&self, store: &Store, session: &Session) {
        if let Err(e) = store.with_untracked(|d| self.save(d)) {
            session.warn(e);
        }
    }

    /// Opens `design` as a new local design beside the others; the open one is saved first.
    pub fn open_new(&self, store: &Store, session: &Session, design: Design) {
        // issue 20: an import made before the first idle moment lost the design it replaced.
        self.leave(store, session);
        self.open_new_replacing(store, session, design);
    }

    /// Opens `design` as a new local design, dropping the open one unsaved (it was deleted).
    fn open_new_replacing(&self, store: &Store, session: &Session, design: Design) {
        let id = storage::new_id();
        // Save first so the new entry exists even if the tab dies right away.
        if let Err(e) = storage::save(&id, &design) {
            session.warn(e);
        }
        self.current.set(id);
        self.designs.set(storage::list());
        session.select(Selection::None);
        store.open(design);
        session.fit();
    }

    /// Switches to another local design; the open one is saved first.
    pub fn switch(&self, store: &Store, session: &Session, id: &str) {
        self.leave(store, session);
        self.switch_replacing(store, session, id);
    }

    /// Switches to another local design, dropping the open one unsaved (it was deleted).
    fn switch_replacing(&self, store: &Store, session: &Session, id: &str) {
        match storage::load(id) {
            Some(Ok(design)) => {
                self.current.set(id.to_string());
                session.select(Selection::None);
                store.open(design);
                session.fit();
            }
            Some(Err(e)) => session.warn(format!("that design no longer opens: {e}")),
            None => session.warn("that design is no longer saved in this browser"),
        }
    }

    /// Deletes the open design and opens another (or a blank one).
    pub fn delete_current(&self, store: &Store, session: &Session) {
        let id = self.current.get_untracked();
        storage::remove(&id);
        let rest = storage::list();
        self.designs.set(rest.clone());
        match rest.first() {
            Some(other) => self.switch_replacing(store, session, &other.id.clone()),
            None => self.open_new_replacing(store, session, Design::new("Untitled design")),
        }
    }
}

pub fn use_library() -> Library {
    expect_context::<Library>()
}
