//! One client's WebSocket to a room: `Hello` first (the key decides edit or view), then the
//! client's edits and focus in, the room's messages out.
//!
//! The socket's reader is this task; its writer is a second task draining the client's
//! bounded queue ([`crate::rooms::live::QUEUE`]), so a slow client never holds the room up.
//! Messages over [`crate::rooms::Bounds::max_message_bytes`] are refused by the WebSocket
//! layer before they are read whole; edits beyond the client's rate are refused one by one.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::ws::{Message, WebSocket};
use futures_util::{SinkExt as _, StreamExt as _};
use keyplan_core::collab::protocol::{Access, ClientMessage, ServerMessage};
use keyplan_core::collab::{ClientId, MAX_CLIENT_ID};
use tokio::sync::mpsc;

use crate::rooms::live::{JoinRefusal, Joiner, LiveRoom, Outgoing, QUEUE};
use crate::rooms::{Bounds, Rooms};

/// How long a socket may stay open without saying `Hello`.
const HELLO_WAIT: Duration = Duration::from_secs(30);

/// How many times a client looks a room up again when it was forgotten as it joined.
const REOPENS: usize = 4;

/// The edits a client may still send now: `burst` at most, refilled at `rate` a second.
struct Bucket {
    tokens: f64,
    burst: f64,
    rate: f64,
    last: Instant,
}

impl Bucket {
    fn new(bounds: &Bounds) -> Bucket {
        Bucket {
            tokens: f64::from(bounds.edit_burst),
            burst: f64::from(bounds.edit_burst),
            rate: f64::from(bounds.edits_per_second),
            last: Instant::now(),
        }
    }

    /// Takes one edit's token, if there is one.
    fn take(&mut self) -> bool {
        let now = Instant::now();
        let refill = now.duration_since(self.last).as_secs_f64() * self.rate;
        self.tokens = (self.tokens + refill).min(self.burst);
        self.last = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

fn error_text(message: impl Into<String>) -> Message {
    let error = ServerMessage::Error {
        message: message.into(),
    };
    Message::Text(
        serde_json::to_string(&error)
            .unwrap_or_else(|e| unreachable!("a server message always serialises: {e}"))
            .into(),
    )
}

/// Says why, then closes the socket.
async fn refuse(mut ws: WebSocket, message: impl Into<String>) {
    let _ = ws.send(error_text(message)).await;
    let _ = ws.close().await;
}

fn too_large(bounds: &Bounds) -> String {
    format!(
        "a message may be at most {} bytes; this one was larger and was not read",
        bounds.max_message_bytes
    )
}

/// Reads the client's `Hello`: its id, its name and its key.
async fn hello(ws: &mut WebSocket, bounds: &Bounds) -> Result<(ClientId, String, String), String> {
    let first = match tokio::time::timeout(HELLO_WAIT, ws.next()).await {
        Err(_) => return Err(format!("no Hello within {} s", HELLO_WAIT.as_secs())),
        Ok(None) => return Err("the socket closed before Hello".to_string()),
        Ok(Some(Err(e))) => return Err(read_error(&e, bounds)),
        Ok(Some(Ok(message))) => message,
    };
    let Message::Text(text) = first else {
        return Err("the first message must be a JSON Hello in a text frame".to_string());
    };
    match serde_json::from_str::<ClientMessage>(&text) {
        Ok(ClientMessage::Hello {
            client,
            name,
            token,
        }) => {
            if client.0.is_empty() || client.0.chars().count() > MAX_CLIENT_ID {
                return Err(format!(
                    "the client id must be 1 to {MAX_CLIENT_ID} characters"
                ));
            }
            let chars = name.chars().count();
            if chars > bounds.max_name_chars {
                return Err(format!(
                    "the name is {chars} characters; at most {} are shown",
                    bounds.max_name_chars
                ));
            }
            Ok((client, name, token))
        }
        Ok(_) => Err("the first message must be Hello".to_string()),
        Err(e) => Err(format!("the first message is not a room message: {e}")),
    }
}

fn read_error(error: &axum::Error, bounds: &Bounds) -> String {
    let text = error.to_string();
    if text.contains("too long") || text.contains("too big") || text.contains("Space limit") {
        too_large(bounds)
    } else {
        format!("the socket failed: {text}")
    }
}

/// Runs one client's socket until it closes, the client goes, or the room closes.
pub async fn session(mut ws: WebSocket, rooms: Rooms, id: String) {
    let bounds = *rooms.bounds();
    let (client, name, key) = match hello(&mut ws, &bounds).await {
        Ok(hello) => hello,
        Err(why) => return refuse(ws, why).await,
    };
    let (queue, outgoing) = mpsc::channel::<Outgoing>(QUEUE);
    let mut joined = None;
    for _ in 0..REOPENS {
        let room = match rooms.get(&id).await {
            Ok(room) => room,
            Err(e) => return refuse(ws, e.to_string()).await,
        };
        let access = if room.keys().edit.matches(&key) {
            Access::Edit
        } else if room.keys().view.matches(&key) {
            Access::View
        } else {
            return refuse(
                ws,
                "the link's key does not open this room: ask for a new link",
            )
            .await;
        };
        let joiner = Joiner {
            client: client.clone(),
            name: name.clone(),
            access,
            queue: queue.clone(),
        };
        match room.join(joiner, bounds.max_clients).await {
            Ok(conn) => {
                joined = Some((room, conn, access));
                break;
            }
            Err(JoinRefusal::Full(max)) => {
                return refuse(
                    ws,
                    format!("the room has {max} clients, its limit: try again later"),
                )
                .await;
            }
            Err(JoinRefusal::Gone) => continue,
        }
    }
    drop(queue);
    let Some((room, conn, access)) = joined else {
        return refuse(ws, "the room kept closing as this client joined: reconnect").await;
    };
    let (mut sink, mut stream) = ws.split();
    let mut writer = tokio::spawn(async move {
        let mut outgoing = outgoing;
        while let Some(text) = outgoing.recv().await {
            if sink.send(Message::Text((*text).into())).await.is_err() {
                break;
            }
        }
        let _ = sink.close().await;
    });
    let mut bucket = Bucket::new(&bounds);
    let mut writer_ended = false;
    loop {
        let message = tokio::select! {
            message = stream.next() => message,
            // The room let this client go (it was closed or forgotten, or the client fell
            // behind) and its last messages are sent: the session ends here, rather than when
            // the client answers the close, so a client that never does keeps nothing alive.
            _ = &mut writer => {
                writer_ended = true;
                break;
            }
        };
        let Some(message) = message else { break };
        let text = match message {
            Ok(Message::Text(text)) => text,
            Ok(Message::Binary(_)) => {
                tell_error(&room, conn, "send JSON text frames, not binary ones").await;
                continue;
            }
            Ok(Message::Close(_)) => break,
            Ok(_) => continue,
            Err(e) => {
                tell_error(&room, conn, read_error(&e, &bounds)).await;
                break;
            }
        };
        match serde_json::from_str::<ClientMessage>(&text) {
            Err(e) => tell_error(&room, conn, format!("not a room message: {e}")).await,
            Ok(ClientMessage::Hello { .. }) => {
                tell_error(&room, conn, "Hello comes once, first").await;
            }
            Ok(ClientMessage::Edit { seq, base, edit }) => {
                let refusal = if access == Access::View {
                    Some("this link is view-only".to_string())
                } else if !bucket.take() {
                    Some(format!(
                        "too many edits: at most {} a second ({} at once); this one was not applied",
                        bounds.edits_per_second, bounds.edit_burst
                    ))
                } else {
                    None
                };
                match refusal {
                    Some(reason) => {
                        room.tell(conn, &ServerMessage::Refused { seq, reason })
                            .await;
                    }
                    None => room.edit(conn, seq, base, *edit, rooms.store()).await,
                }
            }
            Ok(ClientMessage::Focus { focus }) => {
                let long = focus
                    .iter()
                    .any(|f| f.name.chars().count() > keyplan_core::collab::MAX_CLIENT_ID * 4);
                if focus.len() > bounds.max_focus || long {
                    tell_error(
                        &room,
                        conn,
                        format!(
                            "a focus names at most {} things, each at most {} characters",
                            bounds.max_focus,
                            MAX_CLIENT_ID * 4
                        ),
                    )
                    .await;
                } else {
                    room.focus(conn, focus).await;
                }
            }
        }
    }
    if room.leave(conn, rooms.store()).await {
        rooms.evict(&room);
    }
    if !writer_ended {
        let _ = writer.await;
    }
}

async fn tell_error(room: &Arc<LiveRoom>, conn: u64, message: impl Into<String>) {
    room.tell(
        conn,
        &ServerMessage::Error {
            message: message.into(),
        },
    )
    .await;
}
