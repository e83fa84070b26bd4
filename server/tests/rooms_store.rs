//! Live rooms kept in a DynamoDB table (issue 38): a server killed and restarted on its data
//! folder loses no acknowledged edit, though what its snapshots cover was pruned; a closed
//! room leaves nothing behind; two servers on one rooms table converge.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod rooms_support;
#[path = "run_support/mod.rs"]
#[allow(unused_imports)]
mod run_support;

use std::path::Path;

use keyplan_core::collab::Revision;
use keyplan_core::collab::protocol::ServerMessage;
use keyplan_core::edit::Edit;
use rooms_support::*;

const FAST: [&str; 4] = [
    "--room-edits-per-second",
    "10000",
    "--room-edit-burst",
    "10000",
];

/// A data folder for servers to keep their rooms file in, removed when dropped.
struct DataDir(tempfile::TempDir);

impl DataDir {
    fn new() -> DataDir {
        DataDir(tempfile::tempdir().unwrap())
    }

    fn path(&self) -> &Path {
        self.0.path()
    }

    /// A server keeping its rooms here, the rate bounds lifted.
    fn start(&self) -> Server {
        let dir = self.path().to_string_lossy().into_owned();
        let mut args = vec!["--data-dir", &dir];
        args.extend(FAST);
        Server::start(&args)
    }
}

/// Two servers sharing the rooms table at an endpoint, a room made through the first, ann in
/// it through the first and bob through the second.
struct Shared {
    one: Server,
    two: Server,
    keys: Keys,
    ann: Client,
    bob: Client,
}

impl Shared {
    async fn start(endpoint: &str) -> Shared {
        let mut args = vec!["--rooms-endpoint", endpoint];
        args.extend(FAST);
        let one = Server::start(&args);
        let two = Server::start(&args);
        let keys = create_room(&one.address, &example()).await;
        let ann = Client::join(&one.address, &keys.room, "ann", &keys.edit).await;
        let bob = Client::join(&two.address, &keys.room, "bob", &keys.edit).await;
        Shared {
            one,
            two,
            keys,
            ann,
            bob,
        }
    }
}

/// The rooms file under `data`, opened beside the server that may be using it (SQLite's WAL
/// lets two processes share a file).
fn rooms_file(data: &Path) -> aws_sdk_dynamodb::Client {
    let engine =
        keyplan_server::engine::EmbeddedEngine::open(&data.join("rooms.db")).expect("rooms.db");
    keyplan_server::engine::Engine::embedded(&engine).client
}

/// The sort keys room `room` holds in the rooms file under `data`.
async fn stored_keys(data: &Path, room: &str) -> Vec<String> {
    keys_of(&rooms_file(data), room).await
}

/// The sort keys room `room` holds in the rooms table `client` reaches.
async fn keys_of(client: &aws_sdk_dynamodb::Client, room: &str) -> Vec<String> {
    let mut keys = Vec::new();
    let mut start = None;
    loop {
        let page = client
            .query()
            .table_name("keyplan-rooms")
            .key_condition_expression("pk = :pk")
            .expression_attribute_values(
                ":pk",
                aws_sdk_dynamodb::types::AttributeValue::S(format!("ROOM#{room}")),
            )
            .consistent_read(true)
            .set_exclusive_start_key(start)
            .send()
            .await
            .unwrap();
        for item in page.items.unwrap_or_default() {
            keys.push(item["sk"].as_s().unwrap().clone());
        }
        start = page.last_evaluated_key;
        if start.is_none() {
            return keys;
        }
    }
}

/// Room `room`'s sort keys once `done` holds of them (its server prunes in the background,
/// after the snapshot that allows it, 25 items a request).
async fn stored_once(
    client: &aws_sdk_dynamodb::Client,
    room: &str,
    waiting_for: &str,
    done: impl Fn(&[String]) -> bool,
) -> Vec<String> {
    within(waiting_for, async {
        loop {
            let keys = keys_of(client, room).await;
            if done(&keys) {
                return keys;
            }
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
    })
    .await
}

/// Room `room`'s sort keys once its entries up to `through` and the snapshots below it are
/// pruned.
async fn pruned(client: &aws_sdk_dynamodb::Client, room: &str, through: u64) -> Vec<String> {
    let waiting_for = format!("the entries up to {through} and the snapshots below to be pruned");
    stored_once(client, room, &waiting_for, |keys| {
        revisions(keys, "ENTRY#").iter().all(|r| *r > through)
            && revisions(keys, "SNAP#").iter().all(|r| *r >= through)
            && revisions(keys, "SNAPHEAD#").iter().all(|r| *r >= through)
    })
    .await
}

/// The revisions of the stored items whose sort key starts with `prefix`.
fn revisions(keys: &[String], prefix: &str) -> Vec<u64> {
    keys.iter()
        .filter_map(|k| k.strip_prefix(prefix))
        .map(|rest| rest[..20].parse().unwrap())
        .collect()
}

#[tokio::test]
async fn a_server_killed_mid_session_and_restarted_loses_no_acknowledged_edit() {
    let data = DataDir::new();
    let server = data.start();
    let keys = create_room(&server.address, &example()).await;
    let mut ann = Client::join(&server.address, &keys.room, "ann", &keys.edit).await;
    // Past two snapshots (every 100 revisions), so the second pruned what the first covers and
    // the restart loads the latest and the entries after it.
    for i in 0..230 {
        ann.edit(Edit::SetDescription(format!("edit {i}"))).await;
    }
    ann.settle(230).await;
    pruned(&rooms_file(data.path()), &keys.room, 100).await;
    let acknowledged = ann.design_file();
    // More edits in flight as the server dies: those acknowledged must survive.
    for i in 230..260 {
        ann.edit(Edit::SetDescription(format!("edit {i}"))).await;
    }
    server.kill();
    let mut applied = Revision(230);
    while let Some(message) = next(&mut ann.socket, "the killed server's socket to close").await {
        let _ = ann.replica.receive(&message);
        if let ServerMessage::Applied { entry } = message {
            applied = entry.revision;
        }
    }
    // Issue 38: the snapshot at 200 pruned the entries up to 100 and the snapshot at 0; the
    // snapshot at 100 and the entries after it are kept one snapshot behind.
    let stored = stored_keys(data.path(), &keys.room).await;
    let entries = revisions(&stored, "ENTRY#");
    // Every entry from 101 on, and at least those ann saw applied (the server may have
    // stored one more before it died, unsent).
    let last = entries.iter().max().copied().unwrap_or(0);
    assert!(last >= applied.0, "{stored:?}");
    assert_eq!(entries, (101..=last).collect::<Vec<_>>(), "{stored:?}");
    assert_eq!(revisions(&stored, "SNAPHEAD#"), [100, 200], "{stored:?}");
    assert!(
        revisions(&stored, "SNAP#").iter().all(|r| *r >= 100),
        "{stored:?}"
    );
    let server = data.start();
    let mut bob = Client::join(&server.address, &keys.room, "bob", &keys.edit).await;
    assert!(
        bob.replica.revision() >= applied,
        "{:?} < {applied:?}",
        bob.replica.revision()
    );
    // The server may have stored an edit or more past what ann saw applied before it died.
    if bob.replica.revision() == Revision(230) {
        assert_eq!(bob.design_file(), acknowledged);
    }
    // Ann comes back and resends what was not acknowledged: all 260 land, once each.
    ann.rejoin(&server.address, &keys.room, &keys.edit).await;
    ann.settle(260).await;
    bob.settle(260).await;
    assert_eq!(ann.replica.revision(), Revision(260));
    assert_eq!(ann.design_file(), bob.design_file());
    assert!(bob.design_file().contains("edit 259"));
}

#[tokio::test]
async fn a_closed_room_leaves_nothing_in_the_table() {
    let data = DataDir::new();
    let server = data.start();
    let closed = create_room(&server.address, &example()).await;
    let kept = create_room(&server.address, &example()).await;
    let mut ann = Client::join(&server.address, &closed.room, "ann", &closed.edit).await;
    // Past snapshots and a pruning, so the room holds every kind of item.
    for i in 0..210 {
        ann.edit(Edit::SetDescription(format!("edit {i}"))).await;
    }
    ann.settle(210).await;
    let answer = close_room(&server.address, &closed.room, &closed.owner).await;
    assert_eq!(answer.status, 204, "{}", answer.body);
    server.kill();
    assert_eq!(
        stored_keys(data.path(), &closed.room).await,
        Vec::<String>::new()
    );
    let others = stored_keys(data.path(), &kept.room).await;
    assert_eq!(
        others,
        [
            "META",
            "SNAP#00000000000000000000#00000",
            "SNAPHEAD#00000000000000000000",
        ]
    );
}

#[tokio::test]
async fn two_servers_on_one_rooms_table_converge() {
    let Some((moto, _engine)) = run_support::start_moto().await else {
        eprintln!("skipped: moto is not installed in .tools (scripts/setup.sh installs it)");
        return;
    };
    let Shared {
        one,
        two,
        keys,
        mut ann,
        mut bob,
    } = Shared::start(&moto.url).await;
    for i in 0..15 {
        ann.edit(Edit::SetName(format!("ann {i}"))).await;
        bob.edit(Edit::SetName(format!("bob {i}"))).await;
    }
    ann.settle(30).await;
    bob.settle(30).await;
    assert_eq!(ann.replica.revision(), Revision(30));
    assert_eq!(ann.design_file(), bob.design_file());
    // The room closed through one server is closed for the clients of the other too.
    let closed = close_room(&two.address, &keys.room, &keys.owner).await;
    assert_eq!(closed.status, 204, "{}", closed.body);
    let message = ann
        .read_until("Closed through the other server", |m, _| {
            matches!(m, ServerMessage::Closed { .. })
        })
        .await;
    assert!(matches!(message, ServerMessage::Closed { .. }));
    let gone = connect(&one.address, &keys.room, None)
        .await
        .expect_err("gone");
    let tokio_tungstenite::tungstenite::Error::Http(response) = gone else {
        panic!("{gone:?}");
    };
    assert_eq!(response.status(), 404);
}

// Issue 38: a snapshot's parts whose head was never written (a failed write, a server killed
// between them) stayed in the table until the room was closed.
#[tokio::test]
async fn snapshot_parts_without_a_head_are_pruned_by_the_next_snapshot() {
    let data = DataDir::new();
    let server = data.start();
    let keys = create_room(&server.address, &example()).await;
    server.kill();
    // Two snapshots cut short: one below the snapshot kept behind, one between it and the next.
    let file = rooms_file(data.path());
    let headless = [
        "SNAP#00000000000000000050#00000",
        "SNAP#00000000000000000050#00001",
        "SNAP#00000000000000000150#00000",
    ];
    for sk in headless {
        file.put_item()
            .table_name("keyplan-rooms")
            .item("pk", s(&format!("ROOM#{}", keys.room)))
            .item("sk", s(sk))
            .item("data", s("{\"version\": 1, \"name\": \"cut sh"))
            .send()
            .await
            .unwrap();
    }
    let server = data.start();
    let mut ann = Client::join(&server.address, &keys.room, "ann", &keys.edit).await;
    for i in 0..200 {
        ann.edit(Edit::SetDescription(format!("edit {i}"))).await;
    }
    ann.settle(200).await;
    let mut expected: Vec<String> = (101..=200).map(|r| format!("ENTRY#{r:020}")).collect();
    expected.extend([
        "META".to_string(),
        "SNAP#00000000000000000100#00000".to_string(),
        "SNAP#00000000000000000200#00000".to_string(),
        "SNAPHEAD#00000000000000000100".to_string(),
        "SNAPHEAD#00000000000000000200".to_string(),
    ]);
    stored_once(&file, &keys.room, "the prune at 200", |keys| {
        keys == expected
    })
    .await;
    // The room loads whole from what is left.
    server.kill();
    let server = data.start();
    let bob = Client::join(&server.address, &keys.room, "bob", &keys.edit).await;
    assert_eq!(bob.replica.revision(), Revision(200));
    assert_eq!(bob.design_file(), ann.design_file());
}

// Issue 38: a server sharing the table that fell a snapshot behind found the entries it needed
// pruned (its catch-up failed until its clients reconnected), and stored its client's edit in
// a revision the others had used and pruned, applied for its own clients alone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_far_behind_on_a_shared_table_loads_the_latest_snapshot_and_its_clients_converge()
{
    let (_stop, engine, url) = run_support::dynoxide_endpoint().await;
    let Shared {
        one: _one,
        two,
        keys,
        mut ann,
        mut bob,
    } = Shared::start(&url).await;
    // Bob's server stops while ann makes 250 edits: the snapshot at 200 prunes the entries up
    // to 100, the ones bob's server needs next.
    two.pause();
    for i in 0..250 {
        ann.edit(Edit::SetDescription(format!("ann {i}"))).await;
    }
    ann.settle(250).await;
    pruned(&engine.client, &keys.room, 100).await;
    // Bob's edit waits in his socket: his server reads it when it resumes, before or after it
    // looks for the others' entries.
    bob.edit(Edit::SetName("bob's, sent to a server far behind".into()))
        .await;
    two.resume();
    bob.settle(251).await;
    ann.settle(251).await;
    assert_eq!(bob.replica.revision(), Revision(251));
    assert_eq!(ann.design_file(), bob.design_file());
    assert!(
        ann.design_file()
            .contains("bob's, sent to a server far behind")
    );
    assert!(ann.design_file().contains("ann 249"));
    // Both servers go on ordering the room's edits together.
    ann.edit(Edit::SetDescription("after".into())).await;
    bob.edit(Edit::SetName("bob again".into())).await;
    ann.settle(253).await;
    bob.settle(253).await;
    assert_eq!(ann.design_file(), bob.design_file());
}

fn s(text: &str) -> aws_sdk_dynamodb::types::AttributeValue {
    aws_sdk_dynamodb::types::AttributeValue::S(text.to_string())
}
