//! Live rooms in the app (issue 38): the room this tab is in, where its connection stands and
//! who else is there ([`Live`], provided once), the `#room=<id>&key=<token>` link that joins
//! one, the teammates' selections the canvas and the pattern list outline, and this tab's
//! client id.
//!
//! The client that takes part in a room is split off the first load, in a module of its own
//! fetched only when this tab joins one (a room link, or "Share live"): the room's WebSocket
//! (`/api/rooms/<room>/socket`), the messages and their JSON, sending the user's edits and
//! selection, reconnecting with backoff, and the room in the top bar ([`client`]). This
//! module holds what the first paint needs and calls the client through [`Client`], which the
//! entry point provides ([`provide_client`]): a page opened without a room link never
//! fetches it.
//!
//! The design itself is the store's (`store.rs` holds the room's replica and routes the user's
//! edits through it); neither module holds an editing rule. The dialog that creates a room is
//! the share dialog's (deferred, `dialogs/share_live.rs`).

use std::cell::Cell;
use std::future::Future;
use std::pin::Pin;

use keyplan_core::collab::ClientId;
use keyplan_core::collab::protocol::Peer;
use keyplan_core::edit::Element;
use leptos::prelude::*;
use leptos::reactive::owner::WeakOwner;

use crate::deferred::Hook;
use crate::library::Library;
use crate::session::Session;
use crate::store::Store;

pub mod client;
pub mod presence;
pub mod words;

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

/// The live client's entry points, in the module split off the first load
/// ([`client::CLIENT`]).
#[derive(Debug, Clone, Copy)]
pub struct Client {
    /// Joins a room (leaving any other).
    pub join: fn(Live, RoomLink),
    /// The room in the top bar: the connection, who is there, "Close room".
    pub presence: fn() -> AnyView,
}

/// The live client, its module fetched first: an error says why it could not be.
pub type ClientFetch = Pin<Box<dyn Future<Output = Result<Client, String>>>>;

thread_local! {
    /// Fetches the live client ([`client::CLIENT`], in the module that holds it).
    static CLIENT: Hook<fn() -> ClientFetch> = const { Cell::new(None) };
}

/// Says how this page fetches the live client; before the app is mounted.
pub fn provide_client(fetch: fn() -> ClientFetch) {
    CLIENT.set(Some(fetch));
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
    /// The live client, once its module is fetched (this tab joined a room).
    pub client: RwSignal<Option<Client>>,
    store: Store,
    session: Session,
    library: Library,
    /// The editor's owner: the client's effects live as long as the editor, not as long as
    /// the dialog or the event that joined.
    owner: StoredValue<Option<WeakOwner>>,
    /// The client's own state: its socket and timers.
    connection: client::Connection,
}

impl Live {
    /// Makes the live context: a room link in the address is joined, now or when one is
    /// pasted into the address bar.
    pub fn provide(store: Store, session: Session, library: Library) -> Live {
        let live = Live {
            room: RwSignal::new(None),
            status: RwSignal::new(Status::Off),
            peers: RwSignal::new(Vec::new()),
            links: RwSignal::new(None),
            client: RwSignal::new(None),
            store,
            session,
            library,
            owner: StoredValue::new(Owner::current().map(|o| o.downgrade())),
            connection: client::Connection::new(),
        };
        provide_context(live);
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

    /// Joins `link`'s room (leaving any other), the live client fetched first.
    pub fn join(&self, link: RoomLink) {
        let live = *self;
        if let Some(client) = live.client.get_untracked() {
            return (client.join)(live, link);
        }
        live.status.set(Status::Connecting);
        leptos::task::spawn_local(async move {
            let fetched = match crate::deferred::provided(&CLIENT) {
                Ok(fetch) => fetch().await,
                Err(why) => Err(why),
            };
            match fetched {
                Ok(client) => {
                    live.client.set(Some(client));
                    (client.join)(live, link);
                }
                Err(why) => {
                    live.status.set(Status::Off);
                    live.session.refuse(format!(
                        "The live room was not joined: {why}. Your design is untouched; reload the page to try again."
                    ));
                }
            }
        });
    }

    /// Runs `f` under the editor's owner (the client's effects).
    fn under_editor<R>(&self, f: impl FnOnce() -> R) -> R {
        match self
            .owner
            .with_value(|o| o.as_ref().and_then(WeakOwner::upgrade))
        {
            Some(owner) => owner.with(f),
            None => f(),
        }
    }

    /// The first teammate (not this client) who has `name` selected: their colour and name.
    pub fn focused_by(&self, element: Element, name: &str) -> Option<(&'static str, String)> {
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
                .map(|p| (words::colour(&p.client), p.name.clone()))
        })
    }
}

/// The room in the top bar, once the live client is fetched (this tab joined a room).
#[component]
pub fn LivePresence() -> impl IntoView {
    let Some(live) = use_live() else {
        return ().into_any();
    };
    (move || live.client.get().map(|client| (client.presence)())).into_any()
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
