//! One open room: core's [`Room`] and the clients connected to it.
//!
//! Everything that changes a room happens under its one lock, so its edits are ordered one at
//! a time: an edit is proposed, stored at its revision, committed, and only then sent as
//! `Applied` to every client, so no client ever sees an edit the store could lose. Each client
//! has a bounded queue of messages (serialised once per message, shared by all); a client
//! whose queue is full is slow or gone and is dropped (its socket closes, it rejoins).

use std::collections::BTreeMap;
use std::sync::Arc;

use keyplan_core::collab::protocol::{Access, Focus, Peer, ServerMessage};
use keyplan_core::collab::{ClientId, Entry, Limits, Proposed, Revision, Room};
use keyplan_core::edit::Edit;
use keyplan_core::model::Design;
use tokio::sync::{Mutex, mpsc};

use super::store::{Appended, Loaded, MAX_ENTRY_BYTES, Store};
use super::tokens::Keys;

/// How many messages wait for a slow client before it is dropped.
pub const QUEUE: usize = 1024;

/// How many times an edit is proposed again after other servers took its revision.
const RACES: usize = 16;

/// A message for one client: its JSON text.
pub type Outgoing = Arc<str>;

/// An open room.
pub struct LiveRoom {
    id: String,
    keys: Keys,
    inner: Mutex<Inner>,
}

struct Inner {
    room: Room,
    conns: BTreeMap<u64, Conn>,
    next_conn: u64,
    /// Set when the room was closed or forgotten: a client that finds it so opens it again.
    gone: Option<&'static str>,
}

struct Conn {
    client: ClientId,
    name: String,
    access: Access,
    focus: Vec<Focus>,
    queue: mpsc::Sender<Outgoing>,
}

/// Why a client could not join.
#[derive(Debug, PartialEq, Eq)]
pub enum JoinRefusal {
    /// The room holds its most clients.
    Full(usize),
    /// The room was closed or forgotten after the client found it.
    Gone,
}

/// What a client is, as it joins.
#[derive(Debug)]
pub struct Joiner {
    pub client: ClientId,
    pub name: String,
    pub access: Access,
    pub queue: mpsc::Sender<Outgoing>,
}

fn text(message: &ServerMessage) -> Outgoing {
    // Every server message is plain data: it always serialises.
    serde_json::to_string(message)
        .unwrap_or_else(|e| unreachable!("a server message always serialises: {e}"))
        .into()
}

impl std::fmt::Debug for LiveRoom {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LiveRoom")
            .field("id", &self.id)
            .finish_non_exhaustive()
    }
}

impl LiveRoom {
    pub fn new(id: String, keys: Keys, design: Design, limits: Limits) -> LiveRoom {
        LiveRoom::restore(
            id,
            Loaded {
                keys,
                room: Room::new(design, limits),
            },
        )
    }

    pub fn restore(id: String, loaded: Loaded) -> LiveRoom {
        LiveRoom {
            id,
            keys: loaded.keys,
            inner: Mutex::new(Inner {
                room: loaded.room,
                conns: BTreeMap::new(),
                next_conn: 0,
                gone: None,
            }),
        }
    }

    pub fn id(&self) -> &str {
        &self.id
    }

    pub fn keys(&self) -> &Keys {
        &self.keys
    }

    /// The room's revision and design now.
    pub async fn state(&self) -> (Revision, Design) {
        let inner = self.inner.lock().await;
        (inner.room.revision(), inner.room.design().clone())
    }

    /// Adds a client: it is sent `Welcome`, everyone is sent the new `Peers`. A client id
    /// already connected (an old socket of the same tab) is replaced.
    pub async fn join(&self, joiner: Joiner, max_clients: usize) -> Result<u64, JoinRefusal> {
        let mut inner = self.inner.lock().await;
        if inner.gone.is_some() {
            return Err(JoinRefusal::Gone);
        }
        inner.conns.retain(|_, c| c.client != joiner.client);
        if inner.conns.len() >= max_clients {
            return Err(JoinRefusal::Full(max_clients));
        }
        let conn = inner.next_conn;
        inner.next_conn += 1;
        let welcome = inner.welcome(&joiner.client, joiner.access);
        // The queue is new and empty: the welcome always fits.
        if joiner.queue.try_send(welcome).is_err() {
            return Err(JoinRefusal::Gone);
        }
        inner.conns.insert(
            conn,
            Conn {
                client: joiner.client,
                name: joiner.name,
                access: joiner.access,
                focus: Vec::new(),
                queue: joiner.queue,
            },
        );
        inner.send_peers();
        Ok(conn)
    }

    /// Removes a client; returns true when the room has no client left and, since its store
    /// keeps it, is marked forgotten (the caller takes it out of the registry).
    pub async fn leave(&self, conn: u64, store: &Store) -> bool {
        let mut inner = self.inner.lock().await;
        if inner.conns.remove(&conn).is_some() {
            inner.send_peers();
        }
        if inner.conns.is_empty() && store.keeps_rooms() && inner.gone.is_none() {
            inner.gone = Some("forgotten");
            return true;
        }
        false
    }

    /// What a client has selected now.
    pub async fn focus(&self, conn: u64, focus: Vec<Focus>) {
        let mut inner = self.inner.lock().await;
        if let Some(c) = inner.conns.get_mut(&conn) {
            c.focus = focus;
            inner.send_peers();
        }
    }

    /// Sends one client one message.
    pub async fn tell(&self, conn: u64, message: &ServerMessage) {
        let mut inner = self.inner.lock().await;
        inner.deliver(conn, text(message));
    }

    /// Orders a client's edit: proposed, stored at its revision (after the entries other
    /// servers stored first), committed, then sent to every client. A refusal goes to the
    /// author alone. When the store fails, the author is told and dropped: it still holds its
    /// edit and resends it when it rejoins.
    pub async fn edit(&self, conn: u64, seq: u64, base: Revision, edit: Edit, store: &Store) {
        let mut inner = self.inner.lock().await;
        let Some(client) = inner.conns.get(&conn).map(|c| c.client.clone()) else {
            return;
        };
        for _ in 0..RACES {
            match inner.room.propose(&client, seq, base, edit.clone()) {
                Ok(Proposed::Duplicate { seq }) => {
                    inner.deliver(conn, text(&ServerMessage::Acknowledged { seq }));
                    return;
                }
                Err(refusal) => {
                    let reason = refusal.to_string();
                    inner.deliver(conn, text(&ServerMessage::Refused { seq, reason }));
                    return;
                }
                Ok(Proposed::New(entry)) => {
                    let bytes = serde_json::to_string(&entry).map_or(usize::MAX, |t| t.len());
                    if bytes > MAX_ENTRY_BYTES {
                        let reason = format!(
                            "this edit is {bytes} bytes stored; a room stores edits of at most \
                             {MAX_ENTRY_BYTES} bytes: make it in smaller steps"
                        );
                        inner.deliver(conn, text(&ServerMessage::Refused { seq, reason }));
                        return;
                    }
                    match store.append(&self.id, &entry).await {
                        Ok(Appended::Stored) => {
                            // Issue 38: a server far behind the others stored its entry in a
                            // revision they had used and pruned; it must not count as the
                            // room's. The author's edit, when not in the room loaded again, is
                            // resent after the new Welcome.
                            match inner.stored_in_pruned(&self.id, store, &entry).await {
                                Ok(false) => {}
                                Ok(true) => {
                                    let why =
                                        format!("stored {} in a pruned revision", entry.revision);
                                    if let Err(e) = inner.resync(&self.id, store, &why).await {
                                        inner.fail(conn, &e);
                                    }
                                    return;
                                }
                                Err(e) => {
                                    inner.fail(conn, &e);
                                    return;
                                }
                            }
                            inner.apply(&entry);
                            // A snapshot only shortens the next load: the entries are stored.
                            if let Err(e) = store.snapshot_if_due(&self.id, &mut inner.room).await {
                                tracing::warn!(
                                    "room {}: no snapshot at {}: {e}",
                                    self.id,
                                    entry.revision
                                );
                            }
                            return;
                        }
                        Ok(Appended::Lost) => {
                            if let Err(e) = inner.catch_up(&self.id, store).await {
                                inner.fail(conn, &e);
                                return;
                            }
                        }
                        Err(e) => {
                            inner.fail(conn, &e.to_string());
                            return;
                        }
                    }
                }
            }
        }
        inner.fail(
            conn,
            "other servers kept taking this edit's revision; resend it",
        );
    }

    /// Commits and sends the entries other servers stored after this room's revision.
    pub async fn catch_up(&self, store: &Store) -> Result<(), String> {
        let mut inner = self.inner.lock().await;
        if inner.gone.is_some() {
            return Ok(());
        }
        inner.catch_up(&self.id, store).await
    }

    /// Whether the room was closed or forgotten.
    pub async fn is_gone(&self) -> bool {
        self.inner.lock().await.gone.is_some()
    }

    /// Whether any client is connected.
    pub async fn has_clients(&self) -> bool {
        !self.inner.lock().await.conns.is_empty()
    }

    /// Tells every client the room is closed and lets them go.
    pub async fn close(&self, reason: &str) {
        let mut inner = self.inner.lock().await;
        inner.gone = Some("closed");
        let closed = text(&ServerMessage::Closed {
            reason: reason.to_string(),
        });
        for (_, c) in std::mem::take(&mut inner.conns) {
            let _ = c.queue.try_send(closed.clone());
        }
    }
}

impl Inner {
    fn peers(&self) -> Vec<Peer> {
        self.conns
            .values()
            .map(|c| Peer {
                client: c.client.clone(),
                name: c.name.clone(),
                access: c.access,
                focus: c.focus.clone(),
            })
            .collect()
    }

    fn send_peers(&mut self) {
        let peers = text(&ServerMessage::Peers {
            peers: self.peers(),
        });
        self.broadcast(peers);
    }

    /// Sends every client `message`; those whose queue is full or closed are dropped, and the
    /// others told who is left.
    fn broadcast(&mut self, message: Outgoing) {
        let before = self.conns.len();
        self.conns
            .retain(|_, c| c.queue.try_send(message.clone()).is_ok());
        if self.conns.len() < before {
            self.send_peers();
        }
    }

    fn deliver(&mut self, conn: u64, message: Outgoing) {
        let dropped = self
            .conns
            .get(&conn)
            .is_some_and(|c| c.queue.try_send(message).is_err());
        if dropped {
            self.conns.remove(&conn);
            self.send_peers();
        }
    }

    /// Tells a client its edit could not be stored and drops it.
    fn fail(&mut self, conn: u64, why: &str) {
        let message = text(&ServerMessage::Error {
            message: format!("the room could not store the edit ({why}); reconnecting resends it"),
        });
        if let Some(c) = self.conns.remove(&conn) {
            let _ = c.queue.try_send(message);
        }
        self.send_peers();
    }

    /// Commits a stored entry and sends it to every client.
    fn apply(&mut self, entry: &Entry) {
        if let Err(refusal) = self.room.commit(entry) {
            // A stored entry that does not follow or apply was never written by a correct
            // server; the room stays as it is and the next catch-up reads on from here.
            tracing::error!("room entry {} not committed: {refusal}", entry.revision);
            return;
        }
        let applied = text(&ServerMessage::Applied {
            entry: Box::new(entry.clone()),
        });
        self.broadcast(applied);
    }

    async fn catch_up(&mut self, id: &str, store: &Store) -> Result<(), String> {
        loop {
            let entries = store
                .entries_after(id, self.room.revision())
                .await
                .map_err(|e| e.to_string())?;
            if entries.is_empty() {
                return Ok(());
            }
            // Issue 38: fallen behind what other servers pruned, the room reads on from their
            // latest snapshot instead.
            let pruned = store.pruned_through(id).await.map_err(|e| e.to_string())?;
            if self.room.revision() < pruned {
                let why = format!("entries up to {pruned} pruned");
                return self.resync(id, store, &why).await;
            }
            let before = self.room.revision();
            for entry in &entries {
                if entry.revision == self.room.revision().next() {
                    self.apply(entry);
                }
            }
            if self.room.revision() == before {
                return Err(format!(
                    "the stored entry after {before} does not apply to the room"
                ));
            }
        }
    }

    /// A `Welcome` for `client`: the room's revision and design, and its last applied edit.
    fn welcome(&self, client: &ClientId, access: Access) -> Outgoing {
        text(&ServerMessage::Welcome {
            revision: self.room.revision(),
            design: Box::new(self.room.design().clone()),
            access,
            applied_seq: self.room.last_seq(client),
            peers: Vec::new(),
        })
    }

    /// Whether `entry`, just stored, lies at or below what other servers may have pruned: then
    /// its revision may have been used before (only a server sharing the table can tell).
    async fn stored_in_pruned(
        &self,
        id: &str,
        store: &Store,
        entry: &Entry,
    ) -> Result<bool, String> {
        if !store.shared() {
            return Ok(false);
        }
        let pruned = store.pruned_through(id).await.map_err(|e| e.to_string())?;
        Ok(entry.revision <= pruned)
    }

    /// Loads the room again from the store's latest snapshot and the entries after it, and
    /// sends every client a new `Welcome`: each drops the edits it sees applied and resends
    /// the others.
    async fn resync(&mut self, id: &str, store: &Store, why: &str) -> Result<(), String> {
        let loaded = store
            .load(id, self.room.limits())
            .await
            .map_err(|e| e.to_string())?
            .ok_or_else(|| "the room is no longer stored".to_string())?;
        tracing::info!(
            "room {id}: fell behind at {} ({why}), loaded again at {}",
            self.room.revision(),
            loaded.room.revision()
        );
        self.room = loaded.room;
        let welcomes: Vec<(u64, Outgoing)> = self
            .conns
            .iter()
            .map(|(conn, c)| (*conn, self.welcome(&c.client, c.access)))
            .collect();
        for (conn, welcome) in welcomes {
            self.deliver(conn, welcome);
        }
        // A Welcome's peers are empty (a joiner is sent them next): so here too.
        self.send_peers();
        Ok(())
    }
}
