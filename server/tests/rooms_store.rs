//! Live rooms kept in a DynamoDB table (issue 38): a server killed and restarted on its data
//! folder loses no acknowledged edit; two servers on one rooms table converge.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod rooms_support;
#[path = "run_support/mod.rs"]
#[allow(unused_imports)]
mod run_support;

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

#[tokio::test]
async fn a_server_killed_mid_session_and_restarted_loses_no_acknowledged_edit() {
    let data = tempfile::tempdir().unwrap();
    let dir = data.path().to_string_lossy().into_owned();
    let mut args = vec!["--data-dir", &dir];
    args.extend(FAST);
    let server = Server::start(&args);
    let keys = create_room(&server.address, &example()).await;
    let mut ann = Client::join(&server.address, &keys.room, "ann", &keys.edit).await;
    // Past a snapshot (every 100 revisions), so the restart loads one and the entries after.
    for i in 0..130 {
        ann.edit(Edit::SetDescription(format!("edit {i}"))).await;
    }
    ann.settle(130).await;
    let acknowledged = ann.design_file();
    // More edits in flight as the server dies: those acknowledged must survive.
    for i in 130..160 {
        ann.edit(Edit::SetDescription(format!("edit {i}"))).await;
    }
    server.kill();
    let mut applied = Revision(130);
    while let Some(message) = next(&mut ann.socket, "the killed server's socket to close").await {
        let _ = ann.replica.receive(&message);
        if let ServerMessage::Applied { entry } = message {
            applied = entry.revision;
        }
    }
    let server = Server::start(&args);
    let mut bob = Client::join(&server.address, &keys.room, "bob", &keys.edit).await;
    assert!(
        bob.replica.revision() >= applied,
        "{:?} < {applied:?}",
        bob.replica.revision()
    );
    if applied == Revision(130) {
        assert_eq!(bob.replica.revision(), Revision(130));
        assert_eq!(bob.design_file(), acknowledged);
    }
    // Ann comes back and resends what was not acknowledged: all 160 land, once each.
    ann.rejoin(&server.address, &keys.room, &keys.edit).await;
    ann.settle(160).await;
    bob.settle(160).await;
    assert_eq!(ann.replica.revision(), Revision(160));
    assert_eq!(ann.design_file(), bob.design_file());
    assert!(bob.design_file().contains("edit 159"));
}

#[tokio::test]
async fn two_servers_on_one_rooms_table_converge() {
    let Some((moto, _engine)) = run_support::start_moto().await else {
        eprintln!("skipped: moto is not installed in .tools (scripts/setup.sh installs it)");
        return;
    };
    let mut args = vec!["--rooms-endpoint", &moto.url];
    args.extend(FAST);
    let one = Server::start(&args);
    let two = Server::start(&args);
    let keys = create_room(&one.address, &example()).await;
    let mut ann = Client::join(&one.address, &keys.room, "ann", &keys.edit).await;
    let mut bob = Client::join(&two.address, &keys.room, "bob", &keys.edit).await;
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
