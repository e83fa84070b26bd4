//! The rooms soak (issue 38), run by `scripts/rooms-soak`, not by `cargo test`: 8 rooms x 4
//! clients editing for ROOMS_SOAK_MINUTES (default 10) against a real `keyplan serve`,
//! printing the edits sent, applied and lost, the relay latency (an edit from its author to
//! another client, p50/p95), the server's RSS at the start, at its peak and after the rooms
//! close, and at the start and the end what its heap holds: allocated by the program,
//! jemalloc's own, the embedded engine's SQLite.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod rooms_support;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use keyplan_core::collab::protocol::ServerMessage;
use keyplan_core::edit::Edit;
use rooms_support::*;

const ROOMS: usize = 8;
const CLIENTS: usize = 4;
/// Edits each client makes a second (the default rate allows 30).
const EDITS_PER_SECOND: u64 = 2;

/// Twice jemalloc's decay time: freed pages are back with the system by then.
const DECAY: Duration = Duration::from_secs(20);

/// The server's resident memory, from /proc (Linux).
#[derive(Debug, Clone, Copy, Default)]
struct Rss {
    /// All of it, in KiB (VmRSS).
    total: u64,
    /// Its anonymous part (RssAnon): the heap, stacks. The rest is mostly the binary's own
    /// pages (RssFile), read in as code runs for the first time and kept mapped: a debug
    /// binary's grow by tens of MiB as the rooms' code paths first run.
    anon: u64,
}

impl Rss {
    fn of(pid: u32) -> Rss {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
        let field = |name: &str| {
            status
                .lines()
                .find_map(|l| l.strip_prefix(name))
                .and_then(|v| v.split_whitespace().next()?.parse().ok())
                .unwrap_or(0)
        };
        Rss {
            total: field("VmRSS:"),
            anon: field("RssAnon:"),
        }
    }

    fn max(self, other: Rss) -> Rss {
        Rss {
            total: self.total.max(other.total),
            anon: self.anon.max(other.anon),
        }
    }
}

/// What the server's heap holds, read through gdb (when installed) after jemalloc was made to
/// give back every page it holds unused now (`mallctl("arena.4096.purge")`, 4096 being all
/// arenas): the RSS left is in use, not the allocator's to give back later.
#[derive(Debug, Clone, Copy)]
struct Heap {
    rss: Rss,
    /// Bytes the program holds allocated (jemalloc's `stats.allocated`).
    allocated: u64,
    /// Bytes of jemalloc's own bookkeeping (`stats.metadata`).
    metadata: u64,
    /// Bytes jemalloc holds resident: allocated, metadata, and pages not yet purged or
    /// fragmented (`stats.resident`).
    resident: u64,
    /// Bytes the embedded engine's SQLite holds (`sqlite3_memory_used`: its page caches).
    sqlite: u64,
}

impl Heap {
    fn of(pid: u32) -> Option<Heap> {
        let mut commands = vec![
            r#"call (int)mallctl("arena.4096.purge", 0, 0, 0, 0)"#.to_string(),
            "set $v = (unsigned long *)malloc(8)".into(),
            "set $n = (unsigned long *)malloc(8)".into(),
            "set *$v = 1".into(),
            "set *$n = 8".into(),
            // Stats are read as of the last epoch: move it on first.
            r#"call (int)mallctl("epoch", 0, 0, $v, 8)"#.into(),
        ];
        for stat in ["allocated", "metadata", "resident"] {
            commands.push(format!(
                r#"call (int)mallctl("stats.{stat}", $v, $n, 0, 0)"#
            ));
            commands.push(format!("printf \"{stat} %lu\\n\", *$v"));
        }
        commands.push("printf \"sqlite %lld\\n\", (long long)sqlite3_memory_used()".into());
        let mut gdb = std::process::Command::new("gdb");
        gdb.args(["-p", &pid.to_string(), "-batch"]);
        for command in &commands {
            gdb.args(["-ex", command]);
        }
        let out = gdb.output().ok()?;
        let out = String::from_utf8_lossy(&out.stdout);
        let value = |name: &str| {
            out.lines()
                .find_map(|l| l.strip_prefix(&format!("{name} ")))
                .and_then(|v| v.trim().parse::<u64>().ok())
        };
        Some(Heap {
            rss: Rss::of(pid),
            allocated: value("allocated")?,
            metadata: value("metadata")?,
            resident: value("resident")?,
            sqlite: value("sqlite").unwrap_or(0),
        })
    }
}

impl std::fmt::Display for Heap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mib = |b: u64| b as f64 / 1048576.0;
        write!(
            f,
            "RSS {}; jemalloc allocated {:.1} MiB, metadata {:.1}, resident {:.1}; SQLite {:.1} MiB",
            self.rss,
            mib(self.allocated),
            mib(self.metadata),
            mib(self.resident),
            mib(self.sqlite)
        )
    }
}

impl std::fmt::Display for Rss {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} MiB ({} anonymous)",
            self.total / 1024,
            self.anon / 1024
        )
    }
}

#[derive(Default)]
struct Counts {
    sent: u64,
    applied: u64,
    refused: u64,
    lost: u64,
}

type Sent = Arc<Mutex<HashMap<(String, u64), Instant>>>;

/// One client: edits at its rate until `until`, then waits for every edit to be answered.
async fn client(
    address: String,
    keys: Keys,
    name: String,
    until: Instant,
    sent_at: Sent,
    latencies: Arc<Mutex<Vec<Duration>>>,
) -> (Counts, Client) {
    let mut me = Client::join(&address, &keys.room, &name, &keys.edit).await;
    let mut counts = Counts::default();
    let mut tick = tokio::time::interval(Duration::from_millis(1000 / EDITS_PER_SECOND));
    let mut n = 0u64;
    let mut seq = 0u64;
    let on_message = |message: &ServerMessage, counts: &mut Counts| match message {
        ServerMessage::Applied { entry } => {
            let key = (entry.client.0.clone(), entry.seq);
            if entry.client.0 == name {
                counts.applied += 1;
            } else if let Some(at) = sent_at.lock().unwrap().get(&key) {
                latencies.lock().unwrap().push(at.elapsed());
            }
        }
        ServerMessage::Refused { .. } => counts.refused += 1,
        _ => {}
    };
    while Instant::now() < until {
        tokio::select! {
            _ = tick.tick() => {
                n += 1;
                let edit = if n.is_multiple_of(2) {
                    Edit::SetDescription(format!("{name} {n}"))
                } else {
                    Edit::SetName(format!("{name} {n}"))
                };
                me.replica.local(edit).unwrap();
                for message in me.replica.outbox() {
                    seq += 1;
                    sent_at.lock().unwrap().insert((name.clone(), seq), Instant::now());
                    send(&mut me.socket, &message).await;
                    counts.sent += 1;
                }
            }
            message = next(&mut me.socket, "a message while editing") => {
                let message = message.expect("the socket stays open");
                let _ = me.replica.receive(&message);
                on_message(&message, &mut counts);
            }
        }
    }
    while me.replica.pending() > 0 {
        let waiting_for = format!("answers to {name}'s {} pending edits", me.replica.pending());
        let message = next(&mut me.socket, &waiting_for)
            .await
            .expect("the socket stays open");
        let _ = me.replica.receive(&message);
        on_message(&message, &mut counts);
    }
    counts.lost = counts.sent - counts.applied - counts.refused;
    (counts, me)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let at = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[at]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a soak of minutes: scripts/rooms-soak runs it"]
async fn rooms_soak() {
    let minutes: f64 = std::env::var("ROOMS_SOAK_MINUTES")
        .ok()
        .and_then(|m| m.parse().ok())
        .unwrap_or(10.0);
    let server = Server::start(&[]);
    let pid = server.pid();
    let start_rss = Rss::of(pid);
    let start_heap = Heap::of(pid);
    let mut rooms = Vec::new();
    for _ in 0..ROOMS {
        rooms.push(create_room(&server.address, &example()).await);
    }
    let until = Instant::now() + Duration::from_secs_f64(minutes * 60.0);
    let sent_at: Sent = Arc::default();
    let latencies: Arc<Mutex<Vec<Duration>>> = Arc::default();
    let peak = Arc::new(Mutex::new(start_rss));
    let sampler = {
        let peak = peak.clone();
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(Duration::from_millis(500)).await;
                let now = Rss::of(pid);
                let mut peak = peak.lock().unwrap();
                *peak = (*peak).max(now);
            }
        })
    };
    let mut tasks = Vec::new();
    for (r, keys) in rooms.iter().enumerate() {
        for c in 0..CLIENTS {
            tasks.push((
                r,
                tokio::spawn(client(
                    server.address.clone(),
                    keys.clone(),
                    format!("r{r}c{c}"),
                    until,
                    sent_at.clone(),
                    latencies.clone(),
                )),
            ));
        }
    }
    let mut total = Counts::default();
    let mut clients: Vec<Vec<Client>> = (0..ROOMS).map(|_| Vec::new()).collect();
    for (r, task) in tasks {
        let (counts, me) = task.await.unwrap();
        total.sent += counts.sent;
        total.applied += counts.applied;
        total.refused += counts.refused;
        total.lost += counts.lost;
        clients[r].push(me);
    }
    // Every client has its own edits answered; each now reads on to its room's last revision.
    let mut converged = true;
    for room in &mut clients {
        let last = room
            .iter()
            .map(|c| c.replica.revision().0)
            .max()
            .unwrap_or(0);
        for c in room.iter_mut() {
            c.settle(last).await;
        }
        converged &= room
            .iter()
            .all(|c| c.design_file() == room[0].design_file());
    }
    for keys in &rooms {
        let answer = close_room(&server.address, &keys.room, &keys.owner).await;
        assert_eq!(answer.status, 204, "{}", answer.body);
    }
    sampler.abort();
    // What the closed rooms held goes back to the allocator as their tasks end, and from
    // jemalloc to the system after its decay time (10 s, `Cargo.toml`): RSS is read before and
    // after it.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let after_rss = Rss::of(pid);
    tokio::time::sleep(DECAY).await;
    let decayed_rss = Rss::of(pid);
    let after_heap = Heap::of(pid);
    let mut sorted = latencies.lock().unwrap().clone();
    sorted.sort();
    println!(
        "rooms soak: {ROOMS} rooms x {CLIENTS} clients, {minutes} min, {EDITS_PER_SECOND} edits/s per client"
    );
    println!(
        "  edits sent {}, applied {}, refused {}, lost {}; every room's clients converged: {converged}",
        total.sent, total.applied, total.refused, total.lost
    );
    println!(
        "  relay latency (author to another client, loopback, {} samples): p50 {:.1} ms, p95 {:.1} ms",
        sorted.len(),
        percentile(&sorted, 0.5).as_secs_f64() * 1000.0,
        percentile(&sorted, 0.95).as_secs_f64() * 1000.0
    );
    println!(
        "  server RSS: start {start_rss}, peak {}, after the rooms closed {after_rss} (2 s), {decayed_rss} ({} s)",
        *peak.lock().unwrap(),
        2 + DECAY.as_secs()
    );
    if let (Some(start), Some(after)) = (start_heap, after_heap) {
        println!("  server heap at the start, purged (gdb): {start}");
        println!("  server heap after the rooms closed, purged (gdb): {after}");
    }
    assert_eq!(total.lost, 0);
    assert!(converged);
}
