//! Live rooms over real sockets (issue 38): `keyplan serve` processes and WebSocket clients.
//! The relay itself: clients converge, keys and origins are checked, bounds refuse.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod rooms_support;

use keyplan_core::collab::Revision;
use keyplan_core::collab::protocol::{Access, ClientMessage, ServerMessage};
use keyplan_core::edit::Edit;
use rooms_support::*;

#[tokio::test]
async fn two_clients_editing_one_room_converge_to_the_same_design_file() {
    let server = Server::start(&[]);
    let keys = create_room(&server.address, &example()).await;
    let mut ann = Client::join(&server.address, &keys.room, "ann", &keys.edit).await;
    let mut bob = Client::join(&server.address, &keys.room, "bob", &keys.edit).await;
    assert_eq!(ann.access, Access::Edit);
    for i in 0..10 {
        ann.edit(Edit::SetName(format!("ann's name {i}"))).await;
        bob.edit(Edit::SetDescription(format!("bob's description {i}")))
            .await;
    }
    ann.settle(20).await;
    bob.settle(20).await;
    assert_eq!(ann.replica.revision(), Revision(20));
    assert_eq!(ann.design_file(), bob.design_file());
    assert!(ann.design_file().contains("ann's name 9"));
    assert!(ann.design_file().contains("bob's description 9"));
}

#[tokio::test]
async fn a_view_only_clients_edit_is_refused_by_the_server() {
    let server = Server::start(&[]);
    let keys = create_room(&server.address, &example()).await;
    let mut viewer = Client::join(&server.address, &keys.room, "viewer", &keys.view).await;
    assert_eq!(viewer.access, Access::View);
    send(
        &mut viewer.socket,
        &ClientMessage::Edit {
            seq: 1,
            base: Revision(0),
            edit: Box::new(Edit::SetName("defaced".into())),
        },
    )
    .await;
    let answer = viewer
        .read_until("the view-only edit's refusal", |m, _| {
            !matches!(m, ServerMessage::Peers { .. })
        })
        .await;
    assert_eq!(
        answer,
        ServerMessage::Refused {
            seq: 1,
            reason: "this link is view-only".into()
        }
    );
    // The room is unchanged: a newcomer sees revision 0.
    let editor = Client::join(&server.address, &keys.room, "editor", &keys.edit).await;
    assert_eq!(editor.replica.revision(), Revision(0));
}

#[tokio::test]
async fn a_wrong_key_gets_an_error_and_the_socket_closes() {
    let server = Server::start(&[]);
    let keys = create_room(&server.address, &example()).await;
    let mut socket = connect(&server.address, &keys.room, None).await.unwrap();
    let id = keyplan_core::collab::ClientId("mallory".into());
    send(&mut socket, &hello(&id, &keys.owner)).await;
    let Some(ServerMessage::Error { message }) = next(&mut socket, "the wrong key's error").await
    else {
        panic!("an error");
    };
    assert!(message.contains("does not open this room"), "{message}");
    assert_eq!(next(&mut socket, "the socket's close").await, None);
}

#[tokio::test]
async fn a_socket_from_a_foreign_origin_is_refused_before_the_upgrade() {
    let server = Server::start(&[]);
    let keys = create_room(&server.address, &example()).await;
    let refused = connect(&server.address, &keys.room, Some("https://evil.example"))
        .await
        .expect_err("no upgrade");
    let tokio_tungstenite::tungstenite::Error::Http(response) = refused else {
        panic!("an HTTP refusal, not {refused:?}");
    };
    assert_eq!(response.status(), 403);
    let body = String::from_utf8_lossy(response.body().as_deref().unwrap_or_default()).into_owned();
    assert!(body.contains("evil.example"), "{body}");
}

#[tokio::test]
async fn an_oversize_message_is_refused_with_its_limit() {
    let server = Server::start(&[]);
    let keys = create_room(&server.address, &example()).await;
    let mut ann = Client::join(&server.address, &keys.room, "ann", &keys.edit).await;
    let huge = "x".repeat(3 * 1024 * 1024);
    send(
        &mut ann.socket,
        &ClientMessage::Edit {
            seq: 1,
            base: Revision(0),
            edit: Box::new(Edit::SetDescription(huge)),
        },
    )
    .await;
    let answer = ann
        .read_until("the oversize message's error", |m, _| {
            !matches!(m, ServerMessage::Peers { .. })
        })
        .await;
    let ServerMessage::Error { message } = answer else {
        panic!("an error, not {answer:?}");
    };
    assert!(message.contains("at most 2097152 bytes"), "{message}");
}

#[tokio::test]
async fn edits_past_the_rate_are_refused_and_the_rest_applied() {
    let server = Server::start(&["--room-edits-per-second", "1", "--room-edit-burst", "2"]);
    let keys = create_room(&server.address, &example()).await;
    let mut ann = Client::join(&server.address, &keys.room, "ann", &keys.edit).await;
    for i in 0..20 {
        ann.edit(Edit::SetDescription(format!("burst {i}"))).await;
    }
    let mut refused = Vec::new();
    ann.read_until("an answer to every edit of the burst", |m, r| {
        if let ServerMessage::Refused { reason, .. } = m {
            refused.push(reason.clone());
        }
        r.pending() == 0
    })
    .await;
    assert!(!refused.is_empty());
    assert!(
        refused[0].starts_with("too many edits: at most 1 a second (2 at once)"),
        "{refused:?}"
    );
    assert!(
        ann.replica.revision().0 >= 2,
        "{:?}",
        ann.replica.revision()
    );
}

#[tokio::test]
async fn the_owner_closes_the_room_the_others_are_told_and_it_is_gone() {
    let server = Server::start(&[]);
    let keys = create_room(&server.address, &example()).await;
    let mut ann = Client::join(&server.address, &keys.room, "ann", &keys.edit).await;
    let wrong = close_room(&server.address, &keys.room, &keys.edit).await;
    assert_eq!(wrong.status, 403, "{}", wrong.body);
    let closed = close_room(&server.address, &keys.room, &keys.owner).await;
    assert_eq!(closed.status, 204, "{}", closed.body);
    let message = ann
        .read_until("Closed", |m, _| !matches!(m, ServerMessage::Peers { .. }))
        .await;
    assert!(
        matches!(message, ServerMessage::Closed { .. }),
        "{message:?}"
    );
    assert_eq!(next(&mut ann.socket, "the socket's close").await, None);
    let again = connect(&server.address, &keys.room, None)
        .await
        .expect_err("gone");
    let tokio_tungstenite::tungstenite::Error::Http(response) = again else {
        panic!("{again:?}");
    };
    assert_eq!(response.status(), 404);
}

#[tokio::test]
async fn a_client_offline_then_back_resends_its_edits_and_converges() {
    let server = Server::start(&[]);
    let keys = create_room(&server.address, &example()).await;
    let mut ann = Client::join(&server.address, &keys.room, "ann", &keys.edit).await;
    let mut bob = Client::join(&server.address, &keys.room, "bob", &keys.edit).await;
    ann.edit(Edit::SetName("online".into())).await;
    ann.settle(1).await;
    // Ann's socket drops; she keeps editing while bob edits too.
    let _ = ann.socket.close(None).await;
    ann.edit_offline(Edit::SetDescription("written offline".into()));
    bob.edit(Edit::SetName("bob's while ann was away".into()))
        .await;
    bob.settle(2).await;
    ann.rejoin(&server.address, &keys.room, &keys.edit).await;
    ann.settle(3).await;
    bob.settle(3).await;
    assert_eq!(ann.design_file(), bob.design_file());
    assert!(bob.design_file().contains("written offline"));
}

#[tokio::test]
async fn presence_follows_joins_focus_and_leaves() {
    let server = Server::start(&[]);
    let keys = create_room(&server.address, &example()).await;
    let mut ann = Client::join(&server.address, &keys.room, "ann", &keys.edit).await;
    let mut bob = Client::join(&server.address, &keys.room, "bob", &keys.view).await;
    let names = |m: &ServerMessage| match m {
        ServerMessage::Peers { peers } => Some(
            peers
                .iter()
                .map(|p| {
                    format!(
                        "{} {:?} {:?}",
                        p.client,
                        p.access,
                        p.focus.iter().map(|f| &f.name).collect::<Vec<_>>()
                    )
                })
                .collect::<Vec<_>>(),
        ),
        _ => None,
    };
    let seen = ann
        .read_until("Peers naming two", |m, _| {
            names(m).is_some_and(|n| n.len() == 2)
        })
        .await;
    assert_eq!(names(&seen).unwrap(), ["ann Edit []", "bob View []"]);
    send(
        &mut bob.socket,
        &ClientMessage::Focus {
            focus: vec![keyplan_core::collab::protocol::Focus {
                element: keyplan_core::edit::Element::Entity,
                name: "Order".into(),
            }],
        },
    )
    .await;
    let seen = ann
        .read_until("Peers with bob's focus on Order", |m, _| {
            names(m).is_some_and(|n| n.iter().any(|p| p.contains("Order")))
        })
        .await;
    assert_eq!(
        names(&seen).unwrap(),
        ["ann Edit []", "bob View [\"Order\"]"]
    );
    let _ = bob.socket.close(None).await;
    let seen = ann
        .read_until("Peers naming one", |m, _| {
            names(m).is_some_and(|n| n.len() == 1)
        })
        .await;
    assert_eq!(names(&seen).unwrap(), ["ann Edit []"]);
}

#[tokio::test]
async fn a_full_room_a_full_server_and_a_long_name_are_refused_with_their_limits() {
    let server = Server::start(&["--room-max-clients", "1", "--max-rooms", "1"]);
    let keys = create_room(&server.address, &example()).await;
    let second = http(
        &server.address,
        "POST",
        "/api/rooms",
        &[("Content-Type", "application/json")],
        &example(),
    )
    .await;
    assert_eq!(second.status, 429, "{}", second.body);
    assert!(
        second.body.contains("holds 1 rooms, its limit"),
        "{}",
        second.body
    );
    let _ann = Client::join(&server.address, &keys.room, "ann", &keys.edit).await;
    let mut socket = connect(&server.address, &keys.room, None).await.unwrap();
    send(
        &mut socket,
        &hello(&keyplan_core::collab::ClientId("bob".into()), &keys.edit),
    )
    .await;
    let full = next(&mut socket, "the full room's error").await;
    assert_eq!(
        full,
        Some(ServerMessage::Error {
            message: "the room has 1 clients, its limit: try again later".into()
        })
    );
    let mut socket = connect(&server.address, &keys.room, None).await.unwrap();
    send(
        &mut socket,
        &ClientMessage::Hello {
            client: keyplan_core::collab::ClientId("carol".into()),
            name: "c".repeat(65),
            token: keys.edit.clone(),
        },
    )
    .await;
    let long = next(&mut socket, "the long name's error").await;
    assert_eq!(
        long,
        Some(ServerMessage::Error {
            message: "the name is 65 characters; at most 64 are shown".into()
        })
    );
}

// Issue 38: a client that never answered the close kept its session, its connection and the
// room alive on the server after the room closed.
#[tokio::test]
async fn a_closed_rooms_server_hangs_up_on_a_client_that_never_answers_the_close() {
    use tokio::io::AsyncReadExt as _;
    let server = Server::start(&[]);
    let keys = create_room(&server.address, &example()).await;
    let mut ann = Client::join(&server.address, &keys.room, "ann", &keys.edit).await;
    let closed = close_room(&server.address, &keys.room, &keys.owner).await;
    assert_eq!(closed.status, 204, "{}", closed.body);
    ann.read_until("Closed", |m, _| matches!(m, ServerMessage::Closed { .. }))
        .await;
    // From here the bare connection is read, so nothing answers the server's close frame.
    let tokio_tungstenite::MaybeTlsStream::Plain(tcp) = ann.socket.get_mut() else {
        panic!("a plain TCP socket");
    };
    let mut buffer = [0u8; 1024];
    while let Ok(n @ 1..) = within("the server to hang up", tcp.read(&mut buffer)).await {
        assert!(n <= buffer.len());
    }
}
