//! Live rooms (issue 38): the rooms this server holds open, the bounds they keep, and where
//! their entries are stored.
//!
//! A room is one design several clients edit at once over WebSockets. [`Rooms`] is the
//! server's registry: it makes a room from a design (`POST /api/rooms`), opens one a client
//! asks for (from memory, else from the [`store`]), and closes one for its owner. Each open
//! room is a [`live::LiveRoom`]: core's [`keyplan_core::collab::Room`] plus its connected
//! clients. The HTTP and WebSocket side is `api/rooms.rs`; this module knows nothing of axum.
//!
//! Every bound is decided before anything is allocated for it ([`Bounds`]): rooms per server,
//! clients per room, edits per second per client, a message's size, a name's length, and the
//! design's size (core's [`keyplan_core::collab::Limits`]). A room's keys are never kept, only
//! their digests ([`tokens`]).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use keyplan_core::collab::Limits;
use keyplan_core::model::Design;

pub mod live;
pub mod store;
pub mod tokens;

use live::LiveRoom;
use store::Store;
use tokens::NewKeys;

/// How often a room with clients reads the entries other servers stored, when they share its
/// store.
pub const POLL: std::time::Duration = std::time::Duration::from_millis(200);

/// The bounds every room of a server keeps.
#[derive(Debug, Clone, Copy)]
pub struct Bounds {
    /// The most rooms this server holds open at once.
    pub max_rooms: usize,
    /// The most clients one room takes at once.
    pub max_clients: usize,
    /// Edits a client may send per second, on average.
    pub edits_per_second: u32,
    /// Edits a client may send at once before the rate applies.
    pub edit_burst: u32,
    /// The largest message a client may send, in bytes.
    pub max_message_bytes: usize,
    /// The longest name a client may give, in characters.
    pub max_name_chars: usize,
    /// The most things a client may say it has selected.
    pub max_focus: usize,
    /// The design's size and the conflict window (core's).
    pub room: Limits,
}

impl Default for Bounds {
    fn default() -> Self {
        Bounds {
            max_rooms: 256,
            max_clients: 32,
            edits_per_second: 30,
            edit_burst: 60,
            max_message_bytes: crate::api::extract::BODY_LIMIT,
            max_name_chars: 64,
            max_focus: 64,
            room: Limits::default(),
        }
    }
}

/// Why a room could not be made, opened or closed; each says what the client can do.
#[derive(Debug, thiserror::Error)]
pub enum RoomError {
    #[error("no room `{0}` on this server: it was closed, or the link is mistyped")]
    NotFound(String),
    #[error("this server holds {0} rooms, its limit: close a room or try again later")]
    TooManyRooms(usize),
    #[error("the owner key does not match this room's: only the link's creator can close it")]
    NotOwner,
    #[error("{0}")]
    BadDesign(String),
    #[error("the room store failed: {0}")]
    Store(#[from] store::StoreError),
    #[error("the operating system's random number generator failed: {0}")]
    Random(getrandom::Error),
}

/// What the creator of a room is given, once.
#[derive(Debug, serde::Serialize)]
pub struct Created {
    pub room: String,
    pub edit: String,
    pub view: String,
    pub owner: String,
}

/// The rooms a server holds open. Cheap to clone.
#[derive(Clone)]
pub struct Rooms {
    shared: Arc<Shared>,
}

struct Shared {
    bounds: Bounds,
    store: Store,
    open: Mutex<HashMap<String, Arc<LiveRoom>>>,
}

impl std::fmt::Debug for Rooms {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Rooms")
            .field("bounds", &self.shared.bounds)
            .finish_non_exhaustive()
    }
}

impl Default for Rooms {
    /// Rooms held in memory only, with the default bounds (tests without a store).
    fn default() -> Self {
        Rooms::new(Bounds::default(), Store::Memory)
    }
}

impl Rooms {
    pub fn new(bounds: Bounds, store: Store) -> Rooms {
        Rooms {
            shared: Arc::new(Shared {
                bounds,
                store,
                open: Mutex::new(HashMap::new()),
            }),
        }
    }

    pub fn bounds(&self) -> &Bounds {
        &self.shared.bounds
    }

    pub fn store(&self) -> &Store {
        &self.shared.store
    }

    fn open_rooms(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<LiveRoom>>> {
        // A panic while holding this lock left only a map behind: it is still whole.
        self.shared
            .open
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// How many rooms are open on this server now.
    pub fn open_count(&self) -> usize {
        self.open_rooms().len()
    }

    /// Makes a room holding `design` and stores it; its keys are returned once.
    pub async fn create(&self, design: Design) -> Result<Created, RoomError> {
        let bytes = keyplan_core::file::to_string(&design).len();
        let limit = self.shared.bounds.room.max_design_bytes;
        if bytes > limit {
            return Err(RoomError::BadDesign(format!(
                "the design is {bytes} bytes, over a room's limit of {limit} bytes"
            )));
        }
        let max = self.shared.bounds.max_rooms;
        if self.open_count() >= max {
            return Err(RoomError::TooManyRooms(max));
        }
        let id = tokens::random().map_err(RoomError::Random)?;
        let keys = NewKeys::random().map_err(RoomError::Random)?;
        let digests = keys.digests();
        self.shared.store.create(&id, &digests, &design).await?;
        let room = LiveRoom::new(id.clone(), digests, design, self.shared.bounds.room);
        let inserted = {
            let mut open = self.open_rooms();
            let fits = open.len() < max;
            if fits {
                let room = Arc::new(room);
                self.watch(&room);
                open.insert(id.clone(), room);
            }
            fits
        };
        if !inserted {
            self.shared.store.delete(&id).await?;
            return Err(RoomError::TooManyRooms(max));
        }
        Ok(Created {
            room: id,
            edit: keys.edit,
            view: keys.view,
            owner: keys.owner,
        })
    }

    /// The open room `id`, loaded from the store when this server does not hold it.
    pub async fn get(&self, id: &str) -> Result<Arc<LiveRoom>, RoomError> {
        if !tokens::is_room_id(id) {
            return Err(RoomError::NotFound(id.chars().take(40).collect()));
        }
        let held = self.open_rooms().get(id).cloned();
        if let Some(room) = held {
            return Ok(room);
        }
        let max = self.shared.bounds.max_rooms;
        if self.open_count() >= max {
            return Err(RoomError::TooManyRooms(max));
        }
        let Some(loaded) = self.shared.store.load(id, self.shared.bounds.room).await? else {
            return Err(RoomError::NotFound(id.to_string()));
        };
        let mut open = self.open_rooms();
        // Another client may have loaded it meanwhile: theirs is the one kept.
        if let Some(room) = open.get(id) {
            return Ok(room.clone());
        }
        if open.len() >= max {
            return Err(RoomError::TooManyRooms(max));
        }
        let room = Arc::new(LiveRoom::restore(id.to_string(), loaded));
        self.watch(&room);
        open.insert(id.to_string(), room.clone());
        drop(open);
        Ok(room)
    }

    /// When other servers share the store, looks for their entries every [`POLL`] while the
    /// room has clients (and whether it was closed through one of them), until it is closed
    /// or forgotten: one task per open room, two reads per poll.
    fn watch(&self, room: &Arc<LiveRoom>) {
        if !self.shared.store.shared() {
            return;
        }
        let weak = Arc::downgrade(room);
        let rooms = self.clone();
        tokio::spawn(async move {
            let store = rooms.store();
            loop {
                tokio::time::sleep(POLL).await;
                let Some(room) = weak.upgrade() else { return };
                if room.is_gone().await {
                    return;
                }
                if !room.has_clients().await {
                    continue;
                }
                // Closed through another server: this one's clients are told too.
                if let Ok(false) = store.exists(room.id()).await {
                    room.close("the room's owner closed it").await;
                    rooms.evict(&room);
                    return;
                }
                if let Err(e) = room.catch_up(store).await {
                    tracing::warn!("room {}: {e}", room.id());
                }
            }
        });
    }

    /// Forgets `room` when it is the one open under its id (its last client left and its
    /// entries are all stored: it is loaded again when a client comes back).
    pub fn evict(&self, room: &Arc<LiveRoom>) {
        let mut open = self.open_rooms();
        if open.get(room.id()).is_some_and(|r| Arc::ptr_eq(r, room)) {
            open.remove(room.id());
        }
    }

    /// Closes room `id` for its owner: every client is told, the room and its entries are
    /// deleted.
    pub async fn close(&self, id: &str, owner_key: &str) -> Result<(), RoomError> {
        let room = self.get(id).await?;
        if !room.keys().owner.matches(owner_key) {
            return Err(RoomError::NotOwner);
        }
        room.close("the room's owner closed it").await;
        self.open_rooms().remove(id);
        self.shared.store.delete(id).await?;
        Ok(())
    }
}
