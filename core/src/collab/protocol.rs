//! The messages of a room, between the app and `keyplan serve`: JSON text, one message per
//! WebSocket frame, tagged by `"type"`. The server bounds a frame's size before reading it.
//!
//! A client opens the room's socket, then sends [`ClientMessage::Hello`] with the room's token
//! (edit or view); the server answers [`ServerMessage::Welcome`] with the design at its revision. From then on
//! the server sends every entry it orders to every client of the room, the author included
//! (that is the author's acknowledgement), and presence whenever someone joins, leaves or
//! selects something.

use serde::{Deserialize, Serialize};

use crate::collab::{ClientId, Entry, Revision};
use crate::edit::{Edit, Element};
use crate::model::Design;

/// What a client may do in a room, decided by the token it came with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Access {
    Edit,
    View,
}

/// Something a teammate has selected: an entity, a pattern, a table, an index or an
/// attribute (named `entity.attribute`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Focus {
    pub element: Element,
    pub name: String,
}

/// Someone in a room, as the others see them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Peer {
    pub client: ClientId,
    /// The name they gave (bounded by the server), for presence.
    pub name: String,
    pub access: Access,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub focus: Vec<Focus>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClientMessage {
    /// The first message: who this is, and the room's edit or view token from the link (sent
    /// here, not in the socket's URL, so that no access log keeps it). `name` is shown to the
    /// others.
    Hello {
        client: ClientId,
        name: String,
        token: String,
    },
    /// An edit, the client's `seq`-th, made on the design at `base`.
    Edit {
        seq: u64,
        base: Revision,
        edit: Box<Edit>,
    },
    /// What this client has selected now (replaces what it said before).
    Focus { focus: Vec<Focus> },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMessage {
    /// The answer to `Hello` (and to every reconnect): the design at `revision`, what this
    /// client may do, and its highest edit number the room has applied, so that it drops the
    /// acknowledged ones it still holds and resends the rest.
    Welcome {
        revision: Revision,
        design: Box<Design>,
        access: Access,
        applied_seq: u64,
        peers: Vec<Peer>,
    },
    /// An edit the room ordered (sent to every client, its author included).
    Applied { entry: Box<Entry> },
    /// The client's edit `seq` was applied already (a resend): nothing changes.
    Acknowledged { seq: u64 },
    /// The client's edit `seq` was refused, and why; the room is unchanged.
    Refused { seq: u64, reason: String },
    /// Who is in the room now, and what each has selected.
    Peers { peers: Vec<Peer> },
    /// The room was closed by its owner (or is gone); the design stays with the client.
    Closed { reason: String },
    /// A message the server could not take (malformed, too large, too many), and why. The
    /// connection may be closed after it.
    Error { message: String },
}
