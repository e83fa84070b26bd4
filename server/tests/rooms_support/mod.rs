//! Real parts for the rooms tests: `keyplan serve` processes, HTTP requests over a plain TCP
//! socket, and WebSocket clients (tokio-tungstenite) that keep a core `Replica` of the room.
//!
//! Every read from the server is bounded ([`READ_WAIT`]) and says what it waited for, so a
//! broken server fails the tests instead of hanging them. The bound guards against hangs; it
//! times nothing (the tests wait for events).
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use futures_util::{SinkExt as _, StreamExt as _};
use keyplan_core::collab::protocol::{ClientMessage, ServerMessage};
use keyplan_core::collab::{ClientId, Replica};
use keyplan_core::edit::Edit;
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio_tungstenite::tungstenite::client::IntoClientRequest as _;
use tokio_tungstenite::tungstenite::http::HeaderValue;

/// How long a test waits for the server's next message or answer before it fails.
pub const READ_WAIT: Duration = Duration::from_secs(30);

/// `future`, or a failure naming what did not come within [`READ_WAIT`].
pub async fn within<T>(waiting_for: &str, future: impl std::future::Future<Output = T>) -> T {
    tokio::time::timeout(READ_WAIT, future)
        .await
        .unwrap_or_else(|_| {
            panic!(
                "waited {} s for {waiting_for}: nothing came",
                READ_WAIT.as_secs()
            )
        })
}

pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The example design every room test starts from.
pub fn example() -> String {
    std::fs::read_to_string(workspace().join("examples/order-management.keyplan.json")).unwrap()
}

/// A `keyplan serve` process, killed when dropped.
pub struct Server {
    child: Child,
    pub address: String,
    _dist: tempfile::TempDir,
    _data: Option<tempfile::TempDir>,
}

impl Server {
    /// Starts `keyplan serve` on a free port with `args` after it, keeping its rooms in a
    /// data folder of its own unless `args` say where.
    pub fn start(args: &[&str]) -> Server {
        let given = args
            .iter()
            .any(|a| *a == "--data-dir" || *a == "--rooms-endpoint");
        let data = (!given).then(|| tempfile::tempdir().unwrap());
        let mut args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        if let Some(data) = &data {
            args.push("--data-dir".into());
            args.push(data.path().to_string_lossy().into_owned());
        }
        let dist = tempfile::tempdir().unwrap();
        std::fs::write(dist.path().join("index.html"), "<!doctype html>").unwrap();
        let mut child = Command::new(env!("CARGO_BIN_EXE_keyplan"))
            .args(["serve", "--host", "127.0.0.1", "--port", "0", "--dist"])
            .arg(dist.path())
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the keyplan binary starts");
        // The first line, "keyplan serving <dist> on http://<address>", comes once it listens.
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let address = line
            .trim()
            .rsplit_once("http://")
            .map(|(_, a)| a.to_string())
            .unwrap_or_else(|| panic!("no address in {line:?}"));
        Server {
            child,
            address,
            _dist: dist,
            _data: data,
        }
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// SIGSTOP: the server stops where it is, its sockets open, until [`Server::resume`].
    pub fn pause(&self) {
        self.signal("-STOP");
    }

    /// SIGCONT after [`Server::pause`].
    pub fn resume(&self) {
        self.signal("-CONT");
    }

    fn signal(&self, signal: &str) {
        let status = Command::new("kill")
            .args([signal, &self.pid().to_string()])
            .status()
            .expect("kill runs");
        assert!(status.success(), "kill {signal} {}", self.pid());
    }

    /// SIGKILL: the server gets no chance to tidy up.
    pub fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An HTTP answer: status and body.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub body: String,
}

/// Sends one HTTP/1.1 request and reads the whole answer.
pub async fn http(
    address: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> Answer {
    let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
    let mut request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("\r\n");
    request.push_str(body);
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    within(
        &format!("answer to {method} {path}"),
        stream.read_to_end(&mut raw),
    )
    .await
    .unwrap();
    let raw = String::from_utf8_lossy(&raw).into_owned();
    let status = raw[9..12].parse().unwrap();
    let (head, rest) = raw.split_once("\r\n\r\n").unwrap_or((&raw, ""));
    let body = if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        dechunk(rest)
    } else {
        rest.to_string()
    };
    Answer { status, body }
}

fn dechunk(mut rest: &str) -> String {
    let mut out = String::new();
    while let Some((size, after)) = rest.split_once("\r\n") {
        let size = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if size == 0 {
            break;
        }
        out.push_str(&after[..size]);
        rest = &after[size + 2..];
    }
    out
}

/// The keys of a room made by `POST /api/rooms`.
#[derive(Debug, Clone, serde::Deserialize)]
pub struct Keys {
    pub room: String,
    pub edit: String,
    pub view: String,
    pub owner: String,
}

pub async fn create_room(address: &str, design: &str) -> Keys {
    let answer = http(
        address,
        "POST",
        "/api/rooms",
        &[("Content-Type", "application/json")],
        design,
    )
    .await;
    assert_eq!(answer.status, 201, "{}", answer.body);
    serde_json::from_str(&answer.body).unwrap()
}

pub async fn close_room(address: &str, room: &str, owner: &str) -> Answer {
    let bearer = format!("Bearer {owner}");
    http(
        address,
        "DELETE",
        &format!("/api/rooms/{room}"),
        &[("Authorization", &bearer)],
        "",
    )
    .await
}

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Opens a room's socket with the server's own Origin, or `origin`.
pub async fn connect(
    address: &str,
    room: &str,
    origin: Option<&str>,
) -> Result<Socket, tokio_tungstenite::tungstenite::Error> {
    let mut request = format!("ws://{address}/api/rooms/{room}/socket")
        .into_client_request()
        .unwrap();
    let origin = origin.map_or_else(|| format!("http://{address}"), str::to_string);
    request
        .headers_mut()
        .insert("Origin", HeaderValue::from_str(&origin).unwrap());
    tokio_tungstenite::connect_async(request)
        .await
        .map(|(socket, _)| socket)
}

pub async fn send(socket: &mut Socket, message: &ClientMessage) {
    let text = serde_json::to_string(message).unwrap();
    socket.send(text.into()).await.unwrap();
}

/// The next server message, or `None` when the socket closed; fails the test when none comes
/// within [`READ_WAIT`], naming `waiting_for`.
pub async fn next(socket: &mut Socket, waiting_for: &str) -> Option<ServerMessage> {
    within(waiting_for, next_message(socket)).await
}

async fn next_message(socket: &mut Socket) -> Option<ServerMessage> {
    loop {
        match socket.next().await? {
            Ok(tokio_tungstenite::tungstenite::Message::Text(text)) => {
                return Some(serde_json::from_str(&text).unwrap());
            }
            Ok(tokio_tungstenite::tungstenite::Message::Close(_)) => return None,
            Ok(_) => continue,
            Err(_) => return None,
        }
    }
}

/// A client of a room: its socket and its replica.
pub struct Client {
    pub socket: Socket,
    pub replica: Replica,
    pub id: ClientId,
    pub access: keyplan_core::collab::protocol::Access,
}

impl Client {
    /// Connects, says hello with `key`, and waits for the welcome. Panics on anything else.
    pub async fn join(address: &str, room: &str, id: &str, key: &str) -> Client {
        let id = ClientId(id.to_string());
        let mut socket = connect(address, room, None).await.unwrap();
        let replica = Replica::new(
            id.clone(),
            keyplan_core::file::parse(&example()).unwrap(),
            Default::default(),
        );
        send(&mut socket, &hello(&id, key)).await;
        let mut client = Client {
            socket,
            replica,
            id,
            access: keyplan_core::collab::protocol::Access::View,
        };
        client.welcome().await;
        client
    }

    /// Waits for `Welcome` and takes it.
    async fn welcome(&mut self) {
        loop {
            let message = next(&mut self.socket, "Welcome").await.expect("a welcome");
            if let ServerMessage::Welcome { access, .. } = &message {
                self.access = *access;
                self.replica.receive(&message).unwrap();
                return;
            }
            assert!(
                matches!(message, ServerMessage::Peers { .. }),
                "{message:?}"
            );
        }
    }

    /// Joins again on a new socket (after going offline), resending what is pending.
    pub async fn rejoin(&mut self, address: &str, room: &str, key: &str) {
        self.socket = connect(address, room, None).await.unwrap();
        send(&mut self.socket, &hello(&self.id, key)).await;
        self.welcome().await;
        self.flush().await;
    }

    /// Makes an edit locally and sends it.
    pub async fn edit(&mut self, edit: Edit) {
        self.replica.local(edit).unwrap();
        self.flush().await;
    }

    /// Makes an edit locally without sending it (offline).
    pub fn edit_offline(&mut self, edit: Edit) {
        self.replica.local(edit).unwrap();
    }

    pub async fn flush(&mut self) {
        for message in self.replica.outbox() {
            send(&mut self.socket, &message).await;
        }
    }

    /// Reads messages into the replica until `until` says stop; returns the message that
    /// stopped it. `waiting_for` says what, for a failure.
    pub async fn read_until(
        &mut self,
        waiting_for: &str,
        mut until: impl FnMut(&ServerMessage, &Replica) -> bool,
    ) -> ServerMessage {
        loop {
            let message = next(&mut self.socket, waiting_for)
                .await
                .unwrap_or_else(|| panic!("the socket closed while waiting for {waiting_for}"));
            let _ = self.replica.receive(&message);
            // A Welcome mid-session (the server loaded the room again) leaves the edits it
            // did not apply to be sent again, as the app's client does.
            if matches!(message, ServerMessage::Welcome { .. }) {
                self.flush().await;
            }
            if until(&message, &self.replica) {
                return message;
            }
        }
    }

    /// Reads until the replica has nothing pending and is at `revision` or later.
    pub async fn settle(&mut self, revision: u64) {
        if self.replica.pending() == 0 && self.replica.revision().0 >= revision {
            return;
        }
        let waiting_for = format!(
            "Applied for revision {revision} (at {}, {} pending)",
            self.replica.revision(),
            self.replica.pending()
        );
        self.read_until(&waiting_for, |_, r| {
            r.pending() == 0 && r.revision().0 >= revision
        })
        .await;
    }

    /// The design file this client sees.
    pub fn design_file(&self) -> String {
        keyplan_core::file::to_string(self.replica.view())
    }
}

pub fn hello(id: &ClientId, key: &str) -> ClientMessage {
    ClientMessage::Hello {
        client: id.clone(),
        name: format!("tester {id}"),
        token: key.to_string(),
    }
}
