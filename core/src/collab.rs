//! Live co-editing: one design that several people edit at once, converging by construction.
//!
//! A *room* holds one design on a server. The server is the authority: it orders every edit
//! the room receives, one revision per edit, and sends the ordered edits to every client
//! (Figma's and tldraw's model). What makes the copies converge is that nothing but the order
//! matters: every copy applies the same [`Edit`]s in the same order with the same
//! deterministic [`crate::edit::apply`], so every copy that has seen revision *r* holds the same
//! design. No operational transform is needed because edits address things by name, not by
//! position in a text.
//!
//! - [`Room`] is the server's side: it checks an edit against the design as it is now
//!   ([`Room::propose`]), and applies what the order settled on ([`Room::commit`]), its own or
//!   another server's (several servers share a room through a store that orders the entries by
//!   conditional writes; the store is the server's business, the entries are core's).
//! - [`Replica`] is a client's side: it applies its own edits at once (optimistically), keeps
//!   those the server has not acknowledged, and rebases them onto each edit the server sends,
//!   by replaying them on the server's newer design. Offline, it keeps editing and sends the
//!   edits when it is back ([`Replica::rejoin`]).
//! - Conflicts resolve last-writer-wins per field ([`Field`]): the edit the server orders later
//!   wins, and the writer whose concurrent value it replaced is told ([`Replaced`]), naming the
//!   field and who replaced it.
//! - [`protocol`] is what travels between them (JSON over a WebSocket).
//!
//! Undo stays per client: a client's history holds the inverses of its own edits only, and
//! undoing one sends that inverse as a new edit, which leaves teammates' edits alone.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::edit::Edit;

mod fields;
pub mod protocol;
mod replica;
mod room;
mod size;

pub use fields::fields;
pub use replica::{Notice, Replica};
pub use room::{Proposed, Refusal, Room};

/// A room's revision: how many edits its design has had since the room opened (0 when it
/// opens). The edit ordered at revision `r` is the `r`-th; a client that has applied every
/// edit up to `r` holds the room's design at `r`.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct Revision(pub u64);

impl Revision {
    pub fn next(self) -> Revision {
        Revision(self.0 + 1)
    }
}

impl fmt::Display for Revision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{}", self.0)
    }
}

/// Who made an edit: an id a client picks at random once (the app keeps it for the tab's
/// session), so that a client that reconnects is known again and an edit it resends is not
/// applied twice. At most [`MAX_CLIENT_ID`] characters.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ClientId(pub String);

/// The longest [`ClientId`] a room accepts.
pub const MAX_CLIENT_ID: usize = 64;

impl fmt::Display for ClientId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// One part of a design that an edit sets, as a path: `entity / Order / attribute / 2`,
/// `pattern / Orders by customer`, `card / Order`. Two fields *overlap* when one is the other
/// or lies inside it (`entity / Order` holds `entity / Order / volume`); the empty path is the
/// whole design.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Field(pub Vec<String>);

impl Field {
    /// True when setting one of the two fields changes the other.
    pub fn overlaps(&self, other: &Field) -> bool {
        let n = self.0.len().min(other.0.len());
        self.0[..n] == other.0[..n]
    }
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return f.write_str("the whole design");
        }
        f.write_str(&self.0.join(" › "))
    }
}

/// An edit in a room's order: what was applied at `revision`, by whom, and which concurrent
/// values it replaced. This is what a room's store keeps, and what the server sends to every
/// client.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    pub revision: Revision,
    pub client: ClientId,
    /// The client's own number for the edit (1, 2, 3, ...), so the client knows its edit was
    /// acknowledged and a resent edit is applied once.
    pub seq: u64,
    /// The revision the client had applied when it made the edit.
    pub base: Revision,
    pub edit: Edit,
    /// The values this edit replaced that another client had set concurrently (after `base`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub replaced: Vec<Replaced>,
}

/// A value set by `client` at `revision` that a later, concurrent edit replaced: the loser of
/// a last-writer-wins conflict on `field`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Replaced {
    pub revision: Revision,
    pub client: ClientId,
    pub field: Field,
}

/// The bounds a room keeps, decided before anything is allocated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The largest design a room holds, as its design file's bytes.
    pub max_design_bytes: usize,
    /// How many recent entries a room remembers to find conflicts; an edit made on an older
    /// revision is judged against all of them.
    pub conflict_window: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_design_bytes: 4 << 20,
            conflict_window: 1024,
        }
    }
}

#[cfg(test)]
mod tests;
