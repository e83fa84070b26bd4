//! Live rooms in the app (issue 38): joining a room from a `#room=<id>&key=<token>` link, the
//! room's WebSocket (`/api/rooms/<room>/socket`), sending the user's edits and selection, taking
//! the room's, presence, and reconnecting with backoff after the connection drops.
//!
//! The design itself is the store's (`store.rs` holds the room's replica and routes the user's
//! edits through it); this module only moves messages between the store and the socket and
//! tells the user what happened. It holds no editing rule. The dialog that creates a room is
//! the share dialog's (deferred, `dialogs/share_live.rs`).

use std::time::Duration;

use keyplan_core::collab::protocol::{Access, ClientMessage, Focus, Peer, ServerMessage};
use keyplan_core::collab::{ClientId, Replica};
use keyplan_core::edit::Element;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use web_sys::{MessageEvent, WebSocket};

use crate::library::Library;
use crate::session::{Selection, Session};
use crate::store::Store;

pub mod presence;
pub mod words;

/// The shortest time between two sends of the user's edits: a drag is a few messages a second,
/// not one per pointer move (the replica merges the moves in between).
const FLUSH_EVERY_MS: f64 = 50.0;
/// The longest wait before trying to reconnect.
const MAX_BACKOFF_MS: u32 = 8_000;

/// A room and the token that opens it, from a link (or made by "Share live").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoomLink {
    pub room: String,
    pub key: String,
    /// True when this browser created the room (its design is already the open one).
    pub own: bool,
}

/// Where the connection to the room stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Not in a room.
    Off,
    Connecting,
    Online,
    /// The connection dropped: edits are kept and sent when it is back.
    Offline,
    /// The room was closed or refused this client: the design stays, unconnected.
    Closed,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Off => "off",
            Status::Connecting => "connecting",
            Status::Online => "online",
            Status::Offline => "offline",
            Status::Closed => "closed",
        }
    }
}

/// An open socket and the handlers it calls (dropped with it).
struct Socket {
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

/// The live room this tab is in, `Copy` for closures; provided once by the app.
#[derive(Debug, Clone, Copy)]
pub struct Live {
    pub room: RwSignal<Option<RoomLink>>,
    pub status: RwSignal<Status>,
    /// Who is in the room (this client included), as the room last said.
    pub peers: RwSignal<Vec<Peer>>,
    /// The edit and view links of a room this browser created, for the share dialog.
    pub links: RwSignal<Option<(String, String)>>,
    store: Store,
    session: Session,
    library: Library,
    socket: StoredValue<Option<Socket>, LocalStorage>,
    /// When the user's edits were last sent (ms since the epoch), and whether a send waits.
    last_flush: StoredValue<f64>,
    flush_due: StoredValue<bool>,
    /// Failed connections in a row (the backoff's exponent).
    attempts: StoredValue<u32>,
    /// Bumped by each connection, so that an old socket's late events are ignored.
    generation: StoredValue<u64>,
}

impl Live {
    /// Makes the live context and its effects: edits are sent as they are made, the selection
    /// as it changes; a room link in the address is joined.
    pub fn provide(store: Store, session: Session, library: Library) -> Live {
        let live = Live {
            room: RwSignal::new(None),
            status: RwSignal::new(Status::Off),
            peers: RwSignal::new(Vec::new()),
            links: RwSignal::new(None),
            store,
            session,
            library,
            socket: StoredValue::new_local(None),
            last_flush: StoredValue::new(0.0),
            flush_due: StoredValue::new(false),
            attempts: StoredValue::new(0),
            generation: StoredValue::new(0),
        };
        provide_context(live);
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
        // Another design opened (the store left the room while this tab was in it, online or
        // offline): this tab leaves the room, or a reconnect would put the room's design back.
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
        if let Some(link) = linked_room() {
            live.join(link);
        }
        // A room link pasted into this tab's address bar joins that room.
        let links = window_event_listener_untyped("hashchange", move |_| {
            if let Some(link) = linked_room()
                && live.room.with_untracked(|r| {
                    r.as_ref()
                        .is_none_or(|r| (&r.room, &r.key) != (&link.room, &link.key))
                })
            {
                live.join(link);
            }
        });
        on_cleanup(move || links.remove());
        live
    }

    /// Joins `link`'s room (leaving any other).
    pub fn join(&self, link: RoomLink) {
        self.disconnect();
        self.store.leave_live();
        self.peers.set(Vec::new());
        self.room.set(Some(link));
        self.attempts.set_value(0);
        self.connect();
    }

    /// Leaves the room: the design stays as it is, no longer shared.
    pub fn leave(&self) {
        self.disconnect();
        self.room.set(None);
        self.links.set(None);
        self.peers.set(Vec::new());
        self.store.leave_live();
        self.status.set(Status::Off);
    }

    /// The colour of the first teammate (not this client) who has `name` selected.
    pub fn focus_colour(&self, element: Element, name: &str) -> Option<&'static str> {
        let me = client_id();
        self.peers.with(|peers| {
            peers
                .iter()
                .filter(|p| p.client != me)
                .find(|p| {
                    p.focus
                        .iter()
                        .any(|f| f.element == element && f.name == name)
                })
                .map(|p| words::colour(&p.client))
        })
    }

    fn disconnect(&self) {
        self.generation.update_value(|g| *g += 1);
        if let Some(socket) = self.socket.try_update_value(Option::take).flatten() {
            let _ = socket.ws.close();
        }
    }

    fn connect(&self) {
        let Some(link) = self.room.get_untracked() else {
            return;
        };
        self.disconnect();
        let generation = self.generation.get_value();
        self.status.set(Status::Connecting);
        let ws = match WebSocket::new(&socket_url(&link.room)) {
            Ok(ws) => ws,
            Err(_) => return self.reconnect_later(generation),
        };
        let live = *self;
        let current = move || live.generation.get_value() == generation;
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
        self.socket.set_value(Some(Socket {
            ws,
            _handlers: vec![on_open, on_message, on_close],
        }));
    }

    /// Tries again after a wait that doubles with each failure (0.5 s, 1 s, ... 8 s).
    fn reconnect_later(&self, generation: u64) {
        let attempts = self.attempts.get_value();
        self.attempts.set_value(attempts.saturating_add(1));
        let wait = 500u32
            .saturating_mul(1 << attempts.min(5))
            .min(MAX_BACKOFF_MS);
        let live = *self;
        set_timeout(
            move || {
                if live.generation.get_value() == generation && live.room.get_untracked().is_some()
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
                self.attempts.set_value(0);
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
        if self.flush_due.get_value() {
            return;
        }
        let wait = self.last_flush.get_value() + FLUSH_EVERY_MS - js_sys::Date::now();
        if wait <= 0.0 {
            self.flush();
            return;
        }
        self.flush_due.set_value(true);
        let live = *self;
        set_timeout(
            move || live.flush(),
            Duration::from_millis(wait.ceil() as u64),
        );
    }

    fn flush(&self) {
        self.flush_due.set_value(false);
        let open = self.socket.with_value(|s| {
            s.as_ref()
                .is_some_and(|s| s.ws.ready_state() == WebSocket::OPEN)
        });
        if !open || self.status.get_untracked() != Status::Online {
            return; // kept by the replica, sent again on rejoin
        }
        self.last_flush.set_value(js_sys::Date::now());
        for message in self.store.outbox() {
            self.send(&message);
        }
    }

    fn send(&self, message: &ClientMessage) {
        let Ok(text) = serde_json::to_string(message) else {
            return;
        };
        self.socket.with_value(|s| {
            if let Some(s) = s {
                let _ = s.ws.send_with_str(&text);
            }
        });
    }
}

/// The live context, if the app provided one (tests that mount a view alone do not).
pub fn use_live() -> Option<Live> {
    use_context::<Live>()
}

/// The room a `#room=<id>&key=<token>` fragment names. The fragment stays in the address, so a
/// reload joins again; it never reaches a server.
pub fn linked_room() -> Option<RoomLink> {
    let hash = web_sys::window()?.location().hash().ok()?;
    parse_fragment(&hash)
}

/// A room link's fragment, read.
fn parse_fragment(hash: &str) -> Option<RoomLink> {
    let mut room = None;
    let mut key = None;
    for part in hash.strip_prefix('#')?.split('&') {
        match part.split_once('=') {
            Some(("room", v)) if !v.is_empty() => room = Some(v.to_string()),
            Some(("key", v)) if !v.is_empty() => key = Some(v.to_string()),
            _ => {}
        }
    }
    Some(RoomLink {
        room: room?,
        key: key?,
        own: false,
    })
}

/// The link to `room` with `key`, at this page's address.
pub fn room_link(room: &str, key: &str) -> String {
    let location = web_sys::window().map(|w| w.location());
    let origin = location
        .as_ref()
        .and_then(|l| l.origin().ok())
        .unwrap_or_default();
    let path = location
        .as_ref()
        .and_then(|l| l.pathname().ok())
        .unwrap_or_else(|| "/".into());
    format!("{origin}{path}#room={room}&key={key}")
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

fn local_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

/// This tab's client id: random once, kept for the tab's session (sessionStorage), so a
/// reconnect or a reload is the same client and a resent edit is applied once.
pub fn client_id() -> ClientId {
    const KEY: &str = "keyplan.live.client";
    let storage = web_sys::window().and_then(|w| w.session_storage().ok().flatten());
    if let Some(id) = storage
        .as_ref()
        .and_then(|s| s.get_item(KEY).ok().flatten())
    {
        return ClientId(id);
    }
    let id = format!("c-{}", random_hex(16));
    if let Some(s) = storage {
        let _ = s.set_item(KEY, &id);
    }
    ClientId(id)
}

fn random_hex(n: usize) -> String {
    let mut bytes = vec![0u8; n / 2];
    let filled = web_sys::window()
        .and_then(|w| w.crypto().ok())
        .is_some_and(|c| c.get_random_values_with_u8_array(&mut bytes).is_ok());
    if !filled {
        for b in &mut bytes {
            *b = (js_sys::Math::random() * 256.0) as u8;
        }
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
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

/// The owner token of a room this browser created (kept to close it), by room.
pub fn owner_token(room: &str) -> Option<String> {
    local_storage()?
        .get_item(&format!("keyplan.live.owner.{room}"))
        .ok()
        .flatten()
}

pub fn keep_owner_token(room: &str, token: &str) {
    if let Some(s) = local_storage() {
        let _ = s.set_item(&format!("keyplan.live.owner.{room}"), token);
    }
}

pub fn forget_owner_token(room: &str) {
    if let Some(s) = local_storage() {
        let _ = s.remove_item(&format!("keyplan.live.owner.{room}"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_room_link_needs_both_the_room_and_the_key() {
        assert_eq!(
            parse_fragment("#room=r1&key=k-2_x"),
            Some(RoomLink {
                room: "r1".into(),
                key: "k-2_x".into(),
                own: false
            })
        );
        assert_eq!(
            parse_fragment("#key=k&room=r"),
            parse_fragment("#room=r&key=k")
        );
        assert_eq!(parse_fragment("#room=r1"), None);
        assert_eq!(parse_fragment("#d=abc"), None);
        assert_eq!(parse_fragment(""), None);
    }
}
