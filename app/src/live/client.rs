//! The live client (issue 38), split off the first load: the entry point makes [`CLIENT`] a
//! split point of its own (module `live`), fetched when this tab joins a room and never by a
//! page that does not. It opens the room's WebSocket (`/api/rooms/<room>/socket`), sends the
//! user's edits (at most every [`FLUSH_EVERY_MS`]) and selection, takes the room's messages
//! into the store, reconnects with backoff after the connection drops (the edits made
//! meanwhile wait in the replica, counted on the badge), and shows the room in the top bar
//! (`presence.rs`). It holds no editing rule: the store and core's replica do.

use std::time::Duration;

use keyplan_core::collab::Replica;
use keyplan_core::collab::protocol::{Access, ClientMessage, Focus, ServerMessage};
use keyplan_core::edit::Element;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use web_sys::{MessageEvent, WebSocket};

use super::{Client, Live, RoomLink, Status, client_id, local_storage, words};
use crate::session::Selection;

/// The shortest time between two sends of the user's edits: a drag is a few messages a second,
/// not one per pointer move (the replica merges the moves in between).
const FLUSH_EVERY_MS: f64 = 50.0;
/// The longest wait before trying to reconnect.
const MAX_BACKOFF_MS: u32 = 8_000;

/// The live client's entry points, as the entry point's split point hands them over.
pub const CLIENT: Client = Client {
    join: |live, link| {
        live.start();
        live.enter(link);
    },
    presence: || view! { <super::presence::Presence/> }.into_any(),
};

/// An open socket and the handlers it calls (dropped with it).
pub struct Socket {
    ws: WebSocket,
    _handlers: Vec<Closure<dyn FnMut(web_sys::Event)>>,
}

impl std::fmt::Debug for Socket {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Socket")
            .field("ready_state", &self.ws.ready_state())
            .finish()
    }
}

/// The client's state, `Copy` (held by [`Live`], made with it, used only here).
#[derive(Debug, Clone, Copy)]
pub struct Connection {
    socket: StoredValue<Option<Socket>, LocalStorage>,
    /// When the user's edits were last sent (ms since the epoch), and whether a send waits.
    last_flush: StoredValue<f64>,
    flush_due: StoredValue<bool>,
    /// Failed connections in a row (the backoff's exponent).
    attempts: StoredValue<u32>,
    /// Bumped by each connection, so that an old socket's late events are ignored.
    generation: StoredValue<u64>,
    /// Whether the client's effects are made (on the first join).
    started: StoredValue<bool>,
}

impl Connection {
    pub fn new() -> Connection {
        Connection {
            socket: StoredValue::new_local(None),
            last_flush: StoredValue::new(0.0),
            flush_due: StoredValue::new(false),
            attempts: StoredValue::new(0),
            generation: StoredValue::new(0),
            started: StoredValue::new(false),
        }
    }
}

impl Default for Connection {
    fn default() -> Self {
        Connection::new()
    }
}

impl Live {
    /// Makes the client's effects, once, under the editor's owner: edits are sent as they are
    /// made, the selection as it changes, and another design opened leaves the room.
    fn start(&self) {
        if self.connection.started.get_value() {
            return;
        }
        self.connection.started.set_value(true);
        let live = *self;
        let (store, session) = (self.store, self.session);
        self.under_editor(move || {
            // Every change of the document may have queued an edit of the user's.
            Effect::new(move |_| {
                store.track();
                if live.status.get_untracked() == Status::Online {
                    live.schedule_flush();
                }
            });
            // The user's selection, for the others' outlines.
            Effect::new(move |_| {
                let focus = focus_of(&session.selection.get());
                if live.status.get() == Status::Online {
                    live.send(&ClientMessage::Focus { focus });
                }
            });
            // Another design opened (the store left the room while this tab was in it, online
            // or offline): this tab leaves the room, or a reconnect would put the room's design
            // back.
            Effect::new(move |_| {
                if store.access.get().is_none()
                    && matches!(
                        live.status.get_untracked(),
                        Status::Online | Status::Offline
                    )
                {
                    live.leave();
                }
            });
        });
    }

    /// Joins `link`'s room (leaving any other).
    fn enter(&self, link: RoomLink) {
        self.disconnect();
        self.store.leave_live();
        self.peers.set(Vec::new());
        self.room.set(Some(link));
        self.connection.attempts.set_value(0);
        self.status.set(Status::Connecting);
        self.connect();
    }

    /// Leaves the room: the design stays as it is, no longer shared.
    pub(crate) fn leave(&self) {
        self.disconnect();
        self.room.set(None);
        self.links.set(None);
        self.peers.set(Vec::new());
        self.store.leave_live();
        self.status.set(Status::Off);
    }

    fn disconnect(&self) {
        self.connection.generation.update_value(|g| *g += 1);
        if let Some(socket) = self
            .connection
            .socket
            .try_update_value(Option::take)
            .flatten()
        {
            let _ = socket.ws.close();
        }
    }

    fn connect(&self) {
        let Some(link) = self.room.get_untracked() else {
            return;
        };
        self.disconnect();
        let generation = self.connection.generation.get_value();
        // Offline, the badge keeps counting the edits waiting while it tries again.
        if self.status.get_untracked() != Status::Offline {
            self.status.set(Status::Connecting);
        }
        let ws = match WebSocket::new(&socket_url(&link.room)) {
            Ok(ws) => ws,
            Err(_) => return self.reconnect_later(generation),
        };
        let live = *self;
        let current = move || live.connection.generation.get_value() == generation;
        let on_open = {
            let link = link.clone();
            Closure::<dyn FnMut(web_sys::Event)>::new(move |_: web_sys::Event| {
                if current() {
                    live.send(&ClientMessage::Hello {
                        client: client_id(),
                        name: user_name(),
                        token: link.key.clone(),
                    });
                }
            })
        };
        let on_message = Closure::<dyn FnMut(web_sys::Event)>::new(move |ev: web_sys::Event| {
            let Some(text) = ev
                .dyn_ref::<MessageEvent>()
                .and_then(|m| m.data().as_string())
            else {
                return;
            };
            if current() {
                match serde_json::from_str::<ServerMessage>(&text) {
                    Ok(message) => live.take(message),
                    Err(e) => live
                        .session
                        .warn(format!("The room sent a message this app cannot read: {e}")),
                }
            }
        });
        let on_close = Closure::<dyn FnMut(web_sys::Event)>::new(move |_: web_sys::Event| {
            if current() && live.status.get_untracked() != Status::Closed {
                live.status.set(Status::Offline);
                live.reconnect_later(generation);
            }
        });
        ws.set_onopen(Some(on_open.as_ref().unchecked_ref()));
        ws.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        ws.set_onclose(Some(on_close.as_ref().unchecked_ref()));
        self.connection.socket.set_value(Some(Socket {
            ws,
            _handlers: vec![on_open, on_message, on_close],
        }));
    }

    /// Tries again after a wait that doubles with each failure (0.5 s, 1 s, ... 8 s).
    fn reconnect_later(&self, generation: u64) {
        let attempts = self.connection.attempts.get_value();
        self.connection
            .attempts
            .set_value(attempts.saturating_add(1));
        let wait = 500u32
            .saturating_mul(1 << attempts.min(5))
            .min(MAX_BACKOFF_MS);
        let live = *self;
        set_timeout(
            move || {
                if live.connection.generation.get_value() == generation
                    && live.room.get_untracked().is_some()
                {
                    live.connect();
                }
            },
            Duration::from_millis(u64::from(wait)),
        );
    }

    /// Takes a message from the room.
    fn take(&self, message: ServerMessage) {
        let (store, session) = (self.store, self.session);
        match &message {
            ServerMessage::Welcome {
                revision,
                design,
                access,
                peers,
                ..
            } => {
                self.connection.attempts.set_value(0);
                self.peers.set(peers.clone());
                if store.is_live() {
                    self.receive(&message);
                } else {
                    let own = self
                        .room
                        .with_untracked(|r| r.as_ref().is_some_and(|r| r.own));
                    if !own {
                        self.library.open_new(&store, &session, (**design).clone());
                        session.say(format!(
                            "Joined the live room of \u{201c}{}\u{201d}{}",
                            design.name,
                            if *access == Access::View {
                                ": view-only, you can look, not edit"
                            } else {
                                ": your edits reach everyone in it"
                            }
                        ));
                    }
                    let replica = Replica::new(client_id(), (**design).clone(), *revision);
                    store.go_live(replica, *access);
                }
                self.status.set(Status::Online);
                self.send(&ClientMessage::Focus {
                    focus: focus_of(&session.selection.get_untracked()),
                });
                self.flush();
            }
            ServerMessage::Applied { .. }
            | ServerMessage::Acknowledged { .. }
            | ServerMessage::Refused { .. } => self.receive(&message),
            ServerMessage::Peers { peers } => self.peers.set(peers.clone()),
            ServerMessage::Closed { reason } => {
                self.status.set(Status::Closed);
                self.disconnect();
                store.leave_live();
                self.links.set(None);
                session.refuse(format!(
                    "The live room was closed ({reason}). The design stays here; your edits no longer reach the others."
                ));
            }
            ServerMessage::Error { message } => {
                session.warn(format!("The room says: {message}"));
                if !store.is_live() {
                    // Refused at Hello (a bad or expired link): no point in trying again.
                    self.status.set(Status::Closed);
                    self.disconnect();
                }
            }
        }
    }

    fn receive(&self, message: &ServerMessage) {
        match self.store.receive(message) {
            Ok(notices) => {
                for notice in notices {
                    let text = self.peers.with_untracked(|p| words::notice(&notice, p));
                    self.session.warn(text);
                }
            }
            // A message was lost: start again from the room's design (Welcome), keeping the
            // edits not acknowledged.
            Err(_) => self.connect(),
        }
    }

    /// Sends the user's edits now, or within [`FLUSH_EVERY_MS`] of the last send.
    fn schedule_flush(&self) {
        if self.connection.flush_due.get_value() {
            return;
        }
        let wait = self.connection.last_flush.get_value() + FLUSH_EVERY_MS - js_sys::Date::now();
        if wait <= 0.0 {
            self.flush();
            return;
        }
        self.connection.flush_due.set_value(true);
        let live = *self;
        set_timeout(
            move || live.flush(),
            Duration::from_millis(wait.ceil() as u64),
        );
    }

    fn flush(&self) {
        self.connection.flush_due.set_value(false);
        let open = self.connection.socket.with_value(|s| {
            s.as_ref()
                .is_some_and(|s| s.ws.ready_state() == WebSocket::OPEN)
        });
        if !open || self.status.get_untracked() != Status::Online {
            return; // kept by the replica, sent again on rejoin
        }
        self.connection.last_flush.set_value(js_sys::Date::now());
        for message in self.store.outbox() {
            self.send(&message);
        }
    }

    fn send(&self, message: &ClientMessage) {
        let Ok(text) = serde_json::to_string(message) else {
            return;
        };
        self.connection.socket.with_value(|s| {
            if let Some(s) = s {
                let _ = s.ws.send_with_str(&text);
            }
        });
    }
}

/// The room's socket at the server this page came from.
fn socket_url(room: &str) -> String {
    let location = web_sys::window().map(|w| w.location());
    let secure = location
        .as_ref()
        .and_then(|l| l.protocol().ok())
        .is_some_and(|p| p == "https:");
    let host = location
        .as_ref()
        .and_then(|l| l.host().ok())
        .unwrap_or_default();
    let scheme = if secure { "wss" } else { "ws" };
    format!("{scheme}://{host}/api/rooms/{room}/socket")
}

/// What a selection shows the others.
fn focus_of(selection: &Selection) -> Vec<Focus> {
    let one = |element, name: &str| Focus {
        element,
        name: name.to_string(),
    };
    match selection {
        Selection::None => Vec::new(),
        Selection::Entities(names) => names.iter().map(|n| one(Element::Entity, n)).collect(),
        Selection::Table(table) => vec![one(Element::Table, table)],
        Selection::Index { index, .. } => vec![one(Element::Index, index)],
        Selection::Pattern(pattern) => vec![one(Element::Pattern, pattern)],
    }
}

/// The user's name for the others: asked once, remembered in this browser.
fn user_name() -> String {
    const KEY: &str = "keyplan.live.name";
    let storage = local_storage();
    if let Some(name) = storage
        .as_ref()
        .and_then(|s| s.get_item(KEY).ok().flatten())
        && !name.trim().is_empty()
    {
        return name;
    }
    let asked = web_sys::window()
        .and_then(|w| {
            w.prompt_with_message("Your name, shown to the others in this live room:")
                .ok()
                .flatten()
        })
        .map(|n| n.trim().chars().take(40).collect::<String>())
        .filter(|n| !n.is_empty());
    match asked {
        Some(name) => {
            if let Some(s) = storage {
                let _ = s.set_item(KEY, &name);
            }
            name
        }
        None => "Guest".to_string(),
    }
}
