//! The rooms throughput benchmark (issue 38), run by `scripts/bench-rooms`, not by `cargo
//! test`: how many edits a second one room orders, stores and sends back, on a real `keyplan
//! serve` keeping its rooms in the embedded engine. One client sends its edits as fast as the
//! socket takes them and reads every `Applied` back; the rate bounds are lifted. Printed for
//! the example design and for a design grown to ~1 MB, so a cost that grows with the design
//! shows as the two figures parting.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod rooms_support;

use std::time::Instant;

use keyplan_core::collab::protocol::{ClientMessage, ServerMessage};
use keyplan_core::collab::{ClientId, Revision};
use keyplan_core::edit::Edit;
use rooms_support::*;

/// Edits sent in each measure.
const EDITS: u64 = 400;

/// The example design with `copies` more copies of its entities (renamed), as a design file.
fn grown(copies: usize) -> String {
    let mut design = keyplan_core::file::parse(&example()).unwrap();
    let originals = design.entities.clone();
    for copy in 0..copies {
        for entity in &originals {
            let mut entity = entity.clone();
            entity.name = format!("{}Copy{copy}", entity.name);
            design.entities.push(entity);
        }
    }
    keyplan_core::file::to_string(&design)
}

/// Edits a second one room sustains for a design file `design`.
async fn edits_per_second(server: &Server, design: &str) -> f64 {
    let keys = create_room(&server.address, design).await;
    let mut socket = connect(&server.address, &keys.room, None).await.unwrap();
    let id = ClientId("bench".into());
    send(&mut socket, &hello(&id, &keys.edit)).await;
    loop {
        match next(&mut socket, "Welcome").await.expect("a welcome") {
            ServerMessage::Welcome { .. } => break,
            ServerMessage::Peers { .. } => continue,
            other => panic!("{other:?}"),
        }
    }
    let started = Instant::now();
    let writer = {
        let (mut sink, mut stream) = futures_util::StreamExt::split(socket);
        let writer = tokio::spawn(async move {
            for seq in 1..=EDITS {
                let edit = ClientMessage::Edit {
                    seq,
                    base: Revision(seq - 1),
                    edit: Box::new(Edit::SetDescription(format!("bench edit {seq}"))),
                };
                let text = serde_json::to_string(&edit).unwrap();
                futures_util::SinkExt::send(&mut sink, text.into())
                    .await
                    .unwrap();
            }
            sink
        });
        let mut applied = 0;
        while applied < EDITS {
            let waiting_for = format!("Applied for edit {}", applied + 1);
            let message = within(&waiting_for, futures_util::StreamExt::next(&mut stream))
                .await
                .expect("the socket stays open")
                .unwrap();
            let tokio_tungstenite::tungstenite::Message::Text(text) = message else {
                continue;
            };
            match serde_json::from_str::<ServerMessage>(&text).unwrap() {
                ServerMessage::Applied { entry } => {
                    assert_eq!(entry.seq, applied + 1);
                    applied += 1;
                }
                ServerMessage::Peers { .. } => {}
                other => panic!("{other:?}"),
            }
        }
        writer
    };
    let elapsed = started.elapsed();
    drop(writer.await.unwrap());
    let answer = close_room(&server.address, &keys.room, &keys.owner).await;
    assert_eq!(answer.status, 204, "{}", answer.body);
    EDITS as f64 / elapsed.as_secs_f64()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a benchmark: scripts/bench-rooms runs it"]
async fn rooms_throughput() {
    let server = Server::start(&[
        "--room-edits-per-second",
        "100000",
        "--room-edit-burst",
        "100000",
    ]);
    for (what, design) in [
        ("the example design", example()),
        ("a grown design", grown(400)),
    ] {
        let rate = edits_per_second(&server, &design).await;
        println!(
            "rooms throughput: {what} ({} KiB): {EDITS} edits in one room, {rate:.0} edits/s",
            design.len() / 1024
        );
    }
}
