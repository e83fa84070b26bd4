//! Where a room's entries are kept as they are ordered.

use keyplan_core::collab::{Entry, Limits, Room};
use keyplan_core::model::Design;

use super::tokens::Keys;

/// A room as its store holds it: its keys, and its design at the last stored revision.
#[derive(Debug)]
pub struct Loaded {
    pub keys: Keys,
    pub room: Room,
}

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("{0}")]
    Failed(String),
}

/// What storing an entry came to.
#[derive(Debug, PartialEq, Eq)]
pub enum Appended {
    /// The entry is stored at its revision.
    Stored,
    /// Another server stored an entry at that revision first.
    Lost,
}

/// Where rooms are kept.
#[derive(Debug, Clone)]
pub enum Store {
    /// Nowhere: rooms live as long as this process (tests of the relay alone).
    Memory,
}

impl Store {
    /// Whether a room this server forgets can be loaded again.
    pub fn keeps_rooms(&self) -> bool {
        !matches!(self, Store::Memory)
    }

    pub async fn create(
        &self,
        _id: &str,
        _keys: &Keys,
        _design: &Design,
    ) -> Result<(), StoreError> {
        match self {
            Store::Memory => Ok(()),
        }
    }

    pub async fn load(&self, _id: &str, _limits: Limits) -> Result<Option<Loaded>, StoreError> {
        match self {
            Store::Memory => Ok(None),
        }
    }

    pub async fn append(&self, _id: &str, _entry: &Entry) -> Result<Appended, StoreError> {
        match self {
            Store::Memory => Ok(Appended::Stored),
        }
    }

    /// The entries stored after `after`, oldest first (at most a page of them).
    pub async fn entries_after(
        &self,
        _id: &str,
        _after: keyplan_core::collab::Revision,
    ) -> Result<Vec<Entry>, StoreError> {
        match self {
            Store::Memory => Ok(Vec::new()),
        }
    }

    pub async fn delete(&self, _id: &str) -> Result<(), StoreError> {
        match self {
            Store::Memory => Ok(()),
        }
    }
}
