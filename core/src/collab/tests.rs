#![allow(clippy::unwrap_used)] // a test that unwraps fails, naming the line

use std::collections::VecDeque;

use proptest::prelude::*;

use super::protocol::{Access, ClientMessage, ServerMessage};
use super::*;
use crate::edit::Edit;
use crate::model::{Design, Point};
use crate::template::KeyTemplate;

fn id(name: &str) -> ClientId {
    ClientId(name.to_string())
}

fn example() -> Design {
    crate::examples::first()
}

/// A room and its clients joined by in-memory queues, one in each direction per client, in
/// order (as a WebSocket delivers). A disconnect loses what is in flight both ways.
struct Net {
    room: Room,
    clients: Vec<Replica>,
    to_server: Vec<VecDeque<ClientMessage>>,
    to_client: Vec<VecDeque<ServerMessage>>,
    online: Vec<bool>,
    notices: Vec<Vec<Notice>>,
}

impl Net {
    fn new(design: Design, n: usize) -> Net {
        let clients = (0..n)
            .map(|i| Replica::new(id(&format!("c{i}")), design.clone(), Revision(0)))
            .collect();
        Net {
            room: Room::new(design, Limits::default()),
            clients,
            to_server: vec![VecDeque::new(); n],
            to_client: vec![VecDeque::new(); n],
            online: vec![true; n],
            notices: vec![Vec::new(); n],
        }
    }

    fn flush(&mut self, c: usize) {
        let out = self.clients[c].outbox();
        if self.online[c] {
            self.to_server[c].extend(out);
        }
    }

    /// The server takes client `c`'s oldest message. Returns false when there was none.
    fn serve(&mut self, c: usize) -> bool {
        let Some(message) = self.to_server[c].pop_front() else {
            return false;
        };
        let ClientMessage::Edit { seq, base, edit } = message else {
            return true;
        };
        let client = self.clients[c].client().clone();
        match self.room.propose(&client, seq, base, *edit) {
            Ok(Proposed::New(entry)) => {
                self.room.commit(&entry).expect("a proposed entry commits");
                for (to, online) in self.online.iter().enumerate() {
                    if *online {
                        self.to_client[to].push_back(ServerMessage::Applied {
                            entry: entry.clone(),
                        });
                    }
                }
            }
            Ok(Proposed::Duplicate { seq }) => {
                self.to_client[c].push_back(ServerMessage::Acknowledged { seq })
            }
            Err(refusal) => self.to_client[c].push_back(ServerMessage::Refused {
                seq,
                reason: refusal.to_string(),
            }),
        }
        true
    }

    /// Client `c` takes its oldest message from the server. Returns false when there was none.
    fn deliver(&mut self, c: usize) -> bool {
        let Some(message) = self.to_client[c].pop_front() else {
            return false;
        };
        let notices = self.clients[c]
            .receive(&message)
            .expect("messages arrive in order");
        self.notices[c].extend(notices);
        true
    }

    fn disconnect(&mut self, c: usize) {
        self.online[c] = false;
        self.to_server[c].clear();
        self.to_client[c].clear();
    }

    fn reconnect(&mut self, c: usize) {
        if self.online[c] {
            return;
        }
        self.online[c] = true;
        let client = self.clients[c].client().clone();
        self.to_client[c].push_back(ServerMessage::Welcome {
            revision: self.room.revision(),
            design: Box::new(self.room.design().clone()),
            access: Access::Edit,
            applied_seq: self.room.last_seq(&client),
            peers: Vec::new(),
        });
    }

    /// Everyone back online, every message sent and taken.
    fn settle(&mut self) {
        for c in 0..self.clients.len() {
            self.reconnect(c);
        }
        loop {
            let mut moved = false;
            for c in 0..self.clients.len() {
                self.flush(c);
                while self.serve(c) {
                    moved = true;
                }
            }
            for c in 0..self.clients.len() {
                while self.deliver(c) {
                    moved = true;
                }
            }
            if !moved {
                break;
            }
        }
    }
}

/// A random edit a user could make on `design`; some name things that are gone by the time
/// the server orders them, which is the point.
fn random_edit(design: &Design, rng: &mut oorandom::Rand64) -> Edit {
    let pick = |rng: &mut oorandom::Rand64, n: usize| rng.rand_range(0..n.max(1) as u64) as usize;
    let word = |rng: &mut oorandom::Rand64| format!("w{}", rng.rand_range(0..6));
    let entity = design.entities[pick(rng, design.entities.len())]
        .name
        .clone();
    match rng.rand_range(0..13) {
        0 => Edit::SetName(word(rng)),
        1 => Edit::SetEntityDescription {
            entity,
            description: word(rng),
        },
        2 => {
            let mut new = design.entities[pick(rng, design.entities.len())].clone();
            new.name = format!("E{}", rng.rand_range(0..5));
            let at = pick(rng, design.entities.len() + 1);
            Edit::AddEntity {
                at,
                entity: new,
                position: Some(Point {
                    x: rng.rand_range(0..500) as f64,
                    y: 10.0,
                }),
            }
        }
        3 => Edit::RemoveEntity { name: entity },
        4 => Edit::RenameEntity {
            from: entity,
            to: format!("E{}", rng.rand_range(0..5)),
        },
        5 => Edit::MoveCards {
            positions: vec![(
                entity,
                Some(Point {
                    x: rng.rand_range(0..900) as f64,
                    y: rng.rand_range(0..900) as f64,
                }),
            )],
        },
        6 => {
            let e = design.entity(&entity).expect("picked from the design");
            let at = pick(rng, e.attributes.len());
            match e.attributes.get(at) {
                Some(a) => {
                    let mut a = a.clone();
                    a.name = format!("{}{}", a.name, rng.rand_range(0..3));
                    Edit::SetAttribute {
                        entity,
                        at,
                        attribute: a,
                    }
                }
                None => Edit::SetName(word(rng)),
            }
        }
        7 => {
            let table = design
                .table(&design.entities[0].table)
                .or(design.tables.first());
            let key = table.map_or("PK".to_string(), |t| t.partition_key.name.clone());
            Edit::SetKeyTemplate {
                entity,
                key,
                template: Some(KeyTemplate::parse(&format!("{}#{{id}}", word(rng)))),
            }
        }
        8 if !design.patterns.is_empty() => {
            let mut p = design.patterns[pick(rng, design.patterns.len())].clone();
            let name = p.name.clone();
            p.name = format!("P{}", rng.rand_range(0..4));
            Edit::SetPattern { name, pattern: p }
        }
        9 if !design.patterns.is_empty() => Edit::RemovePattern {
            name: design.patterns[pick(rng, design.patterns.len())]
                .name
                .clone(),
        },
        10 if !design.patterns.is_empty() => {
            let mut p = design.patterns[pick(rng, design.patterns.len())].clone();
            p.name = format!("P{}", rng.rand_range(0..4));
            Edit::AddPattern {
                at: pick(rng, design.patterns.len() + 1),
                pattern: p,
            }
        }
        11 => Edit::Batch(vec![random_edit(design, rng), random_edit(design, rng)]),
        12 if rng.rand_range(0..8) == 0 => Edit::ReplaceDesign(Box::new(example())),
        _ => Edit::SetEntityVolume {
            entity,
            volume: crate::model::Volume::with_items(None, Some(rng.rand_range(1..1000))),
        },
    }
}

/// Runs `steps` random actions of `n` clients on one room, then lets everything settle.
fn simulate(seed: u64, n: usize, steps: usize) -> Net {
    let mut rng = oorandom::Rand64::new(seed as u128);
    let mut net = Net::new(example(), n);
    for _ in 0..steps {
        let c = rng.rand_range(0..n as u64) as usize;
        match rng.rand_range(0..20) {
            0..=6 => {
                if !net.clients[c].view().entities.is_empty() {
                    let edit = random_edit(net.clients[c].view(), &mut rng);
                    let _ = net.clients[c].local(edit);
                }
            }
            7..=9 => net.flush(c),
            10..=13 => {
                net.serve(c);
            }
            14..=17 => {
                net.deliver(c);
            }
            18 => net.disconnect(c),
            _ => net.reconnect(c),
        }
    }
    net.settle();
    net
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// Any interleaving of several clients' edits, sends, deliveries, disconnects and
    /// reconnects ends with every client holding the server's design, nothing pending.
    #[test]
    fn random_edit_streams_from_several_clients_converge_to_the_servers_design(
        seed in any::<u64>(),
        n in 2usize..6,
        steps in 20usize..300,
    ) {
        let net = simulate(seed, n, steps);
        let server = crate::file::to_string(net.room.design());
        for (c, client) in net.clients.iter().enumerate() {
            prop_assert_eq!(client.pending(), 0, "client {} still holds edits", c);
            prop_assert_eq!(client.revision(), net.room.revision());
            prop_assert_eq!(&crate::file::to_string(client.view()), &server, "client {}", c);
        }
    }
}

#[test]
fn the_simulation_makes_edits_and_conflicts_happen() {
    // The property above proves little if the random runs apply nothing or never conflict.
    let (mut applied, mut replaced, mut refused) = (0, 0, 0);
    for seed in 0..40 {
        let net = simulate(seed, 3, 200);
        applied += net.room.revision().0;
        for notices in &net.notices {
            for n in notices {
                match n {
                    Notice::Replaced { .. } => replaced += 1,
                    Notice::Refused { .. } => refused += 1,
                }
            }
        }
    }
    assert!(applied > 1000, "{applied} edits applied");
    assert!(replaced > 10, "{replaced} replaced values");
    assert!(refused > 10, "{refused} refused edits");
}

#[test]
fn the_later_of_two_concurrent_writes_wins_and_the_earlier_writer_is_told() {
    let mut net = Net::new(example(), 2);
    let entity = net.room.design().entities[0].name.clone();
    for (c, text) in [(0, "from A"), (1, "from B")] {
        net.clients[c]
            .local(Edit::SetEntityDescription {
                entity: entity.clone(),
                description: text.into(),
            })
            .unwrap();
        net.flush(c);
    }
    net.serve(0); // A's edit is ordered first...
    net.serve(1); // ...B's, made without seeing it, replaces it.
    net.settle();
    let design = net.room.design();
    assert_eq!(design.entity(&entity).unwrap().description, "from B");
    assert_eq!(
        net.notices[0],
        vec![Notice::Replaced {
            field: Field(vec!["entity".into(), entity.clone(), "description".into()]),
            by: id("c1"),
        }]
    );
    assert!(net.notices[1].is_empty(), "{:?}", net.notices[1]);
}

#[test]
fn edits_to_different_fields_of_one_entity_both_stay() {
    let mut net = Net::new(example(), 2);
    let entity = net.room.design().entities[0].name.clone();
    net.clients[0]
        .local(Edit::SetEntityDescription {
            entity: entity.clone(),
            description: "described".into(),
        })
        .unwrap();
    net.clients[1]
        .local(Edit::SetEntityVolume {
            entity: entity.clone(),
            volume: crate::model::Volume::with_items(None, Some(42)),
        })
        .unwrap();
    net.settle();
    let e = net.room.design().entity(&entity).unwrap();
    assert_eq!(e.description, "described");
    assert_eq!(e.volume.unwrap().items, 42);
    assert!(net.notices.iter().all(Vec::is_empty), "{:?}", net.notices);
}

#[test]
fn an_edit_resent_after_a_reconnect_is_applied_once() {
    let mut net = Net::new(example(), 1);
    net.clients[0].local(Edit::SetName("once".into())).unwrap();
    net.flush(0);
    net.serve(0); // applied, but the acknowledgement is lost with the connection
    net.disconnect(0);
    assert_eq!(net.clients[0].pending(), 1);
    net.settle();
    assert_eq!(net.room.revision(), Revision(1));
    assert_eq!(net.clients[0].pending(), 0);
    assert_eq!(net.clients[0].view().name, "once");
}

#[test]
fn an_offline_client_keeps_editing_and_sends_its_edits_when_back() {
    let mut net = Net::new(example(), 2);
    net.disconnect(0);
    for i in 0..5 {
        net.clients[0]
            .local(Edit::SetDescription(format!("offline {i}")))
            .unwrap();
        net.flush(0); // lost: nobody hears
    }
    net.clients[1]
        .local(Edit::SetName("meanwhile".into()))
        .unwrap();
    net.settle();
    assert_eq!(net.room.design().description, "offline 4");
    assert_eq!(net.room.design().name, "meanwhile");
    assert_eq!(net.clients[0].view(), net.room.design());
}

#[test]
fn an_edit_on_something_a_teammate_removed_is_refused_and_leaves_the_view() {
    let mut net = Net::new(example(), 2);
    let entity = net.room.design().entities[0].name.clone();
    net.clients[0]
        .local(Edit::RemoveEntity {
            name: entity.clone(),
        })
        .unwrap();
    net.flush(0);
    net.serve(0);
    net.clients[1]
        .local(Edit::SetEntityDescription {
            entity: entity.clone(),
            description: "too late".into(),
        })
        .unwrap();
    net.settle();
    assert!(net.room.design().entity(&entity).is_none());
    assert!(matches!(
        net.notices[1].as_slice(),
        [Notice::Refused { reason, .. }] if reason.contains(&entity)
    ));
    assert_eq!(net.clients[1].view(), net.room.design());
}

#[test]
fn card_moves_not_sent_yet_merge_into_one_edit() {
    let mut replica = Replica::new(id("a"), example(), Revision(0));
    let name = example().entities[0].name.clone();
    for x in 0..100 {
        replica
            .local(Edit::MoveCards {
                positions: vec![(
                    name.clone(),
                    Some(Point {
                        x: x as f64,
                        y: 0.0,
                    }),
                )],
            })
            .unwrap();
    }
    let out = replica.outbox();
    assert_eq!(out.len(), 1, "{out:?}");
    assert_eq!(replica.view().layout[&name].x, 99.0);
}

#[test]
fn a_room_refuses_a_design_over_its_size_limit_and_a_bad_client_id() {
    let limits = Limits {
        max_design_bytes: 2_000,
        ..Limits::default()
    };
    let mut room = Room::new(Design::new("small"), limits);
    let big = Edit::SetDescription("x".repeat(5_000));
    let refusal = room.propose(&id("a"), 1, Revision(0), big).unwrap_err();
    assert!(
        matches!(refusal, Refusal::TooLarge { limit: 2_000, .. }),
        "{refusal}"
    );
    let long = ClientId("c".repeat(MAX_CLIENT_ID + 1));
    let refusal = room
        .propose(&long, 1, Revision(0), Edit::SetName("n".into()))
        .unwrap_err();
    assert!(matches!(refusal, Refusal::BadClient(_)), "{refusal}");
    let refusal = room
        .propose(&id("a"), 1, Revision(3), Edit::SetName("n".into()))
        .unwrap_err();
    assert!(matches!(refusal, Refusal::FutureBase { .. }), "{refusal}");
}

// Issue 38: a room's size bound is kept per edit from the edit's own size, not by writing
// the design; many small edits that together pass the limit must still be refused.
#[test]
fn many_small_edits_are_refused_once_together_they_would_pass_the_size_limit() {
    let design = example();
    let limit = crate::file::byte_len(&design) + 3_000;
    let limits = Limits {
        max_design_bytes: limit,
        ..Limits::default()
    };
    let mut room = Room::new(design, limits);
    let pattern = room.design().patterns[0].clone();
    let client = id("a");
    for seq in 1..=100u64 {
        let mut copy = pattern.clone();
        copy.name = format!("copy {seq}");
        let edit = Edit::AddPattern {
            at: 0,
            pattern: copy,
        };
        match room.propose(&client, seq, room.revision(), edit.clone()) {
            Ok(Proposed::New(entry)) => {
                room.commit(&entry).unwrap();
                let bytes = crate::file::byte_len(room.design());
                assert!(bytes <= limit, "{bytes} bytes stored, over {limit}");
                assert!(room.size_bound() >= bytes, "the bound fell under the size");
            }
            Err(Refusal::TooLarge { bytes, .. }) => {
                // Refused exactly when it would not fit: the refusal's figure is the truth.
                let mut after = room.design().clone();
                crate::edit::apply(&mut after, edit).unwrap();
                assert_eq!(bytes, crate::file::byte_len(&after));
                assert!(bytes > limit);
                assert!(seq > 3, "refused after {seq} edits");
                return;
            }
            other => panic!("{other:?}"),
        }
    }
    panic!("100 patterns added, none refused: the size limit is not kept");
}

#[test]
fn a_short_rename_that_lengthens_every_reference_is_refused_over_the_size_limit() {
    let design = example();
    let entity = design
        .entities
        .iter()
        .max_by_key(|e| {
            design
                .patterns
                .iter()
                .filter(|p| p.entities.contains(&e.name))
                .count()
        })
        .unwrap()
        .name
        .clone();
    let edit = Edit::RenameEntity {
        from: entity.clone(),
        to: format!("{entity}{}", "X".repeat(40)),
    };
    let mut after = design.clone();
    crate::edit::apply(&mut after, edit.clone()).unwrap();
    let grown = crate::file::byte_len(&after);
    let limits = Limits {
        max_design_bytes: grown - 1,
        ..Limits::default()
    };
    let mut room = Room::new(design, limits);
    let refusal = room.propose(&id("a"), 1, Revision(0), edit).unwrap_err();
    assert_eq!(
        refusal,
        Refusal::TooLarge {
            bytes: grown,
            limit: grown - 1
        }
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// The bound a room adds per edit is never less than what the edit adds to the file.
    #[test]
    fn an_edits_growth_bound_is_never_under_what_it_adds(seed in any::<u64>(), steps in 1usize..60) {
        let mut rng = oorandom::Rand64::new(seed as u128);
        let mut design = example();
        for _ in 0..steps {
            if design.entities.is_empty() {
                break;
            }
            let mut edit = random_edit(&design, &mut rng);
            // Long names too: an entity's name is written twice (its card's key).
            if let Edit::AddEntity { entity, .. } = &mut edit {
                entity.name = entity.name.repeat(1 + rng.rand_range(0..40) as usize);
            }
            let before = crate::file::byte_len(&design);
            let bound = super::size::growth_bound(&edit);
            if crate::edit::apply(&mut design, edit.clone()).is_err() {
                continue;
            }
            let after = crate::file::byte_len(&design);
            if let Some(bound) = bound {
                prop_assert!(after <= before + bound, "{:?}: {} > {} + {}", edit, after, before, bound);
            }
        }
    }
}

#[test]
fn messages_round_trip_as_json() {
    let message = ClientMessage::Edit {
        seq: 3,
        base: Revision(7),
        edit: Box::new(Edit::Batch(vec![
            Edit::SetName("n".into()),
            Edit::SetKeyTemplate {
                entity: "Order".into(),
                key: "PK".into(),
                template: Some(KeyTemplate::parse("ORDER#{orderId}")),
            },
        ])),
    };
    let text = serde_json::to_string(&message).unwrap();
    assert!(
        text.starts_with(r#"{"type":"edit","seq":3,"base":7,"#),
        "{text}"
    );
    let back: ClientMessage = serde_json::from_str(&text).unwrap();
    assert_eq!(back, message);
}

#[test]
fn fields_overlap_when_one_holds_the_other() {
    let f = |p: &[&str]| Field(p.iter().map(|s| s.to_string()).collect());
    assert!(f(&["entity", "A"]).overlaps(&f(&["entity", "A", "volume"])));
    assert!(f(&["entity", "A", "volume"]).overlaps(&f(&["entity", "A"])));
    assert!(f(&[]).overlaps(&f(&["card", "A"])));
    assert!(!f(&["entity", "A", "volume"]).overlaps(&f(&["entity", "A", "description"])));
    assert!(!f(&["entity", "A"]).overlaps(&f(&["card", "A"])));
}

// Issue 38: undo undoes only your own edits. The history keeps the inverses of this client's
// edits (applied through its replica), and an undo goes to the room as a new edit.
#[test]
fn undo_in_a_room_undoes_only_your_own_edits_and_says_why_when_it_no_longer_applies() {
    let mut net = Net::new(example(), 2);
    let mut history = crate::history::History::new();
    let entity = net.room.design().entities[0].name.clone();
    let before = net
        .room
        .design()
        .entity(&entity)
        .unwrap()
        .description
        .clone();
    history
        .apply_with(
            Edit::SetEntityDescription {
                entity: entity.clone(),
                description: "mine".into(),
            },
            |e| net.clients[0].local(e),
        )
        .unwrap();
    net.clients[1]
        .local(Edit::SetEntityVolume {
            entity: entity.clone(),
            volume: crate::model::Volume::with_items(None, Some(42)),
        })
        .unwrap();
    net.settle();
    assert!(history.undo_with(|e| net.clients[0].local(e)).unwrap());
    net.settle();
    let e = net.room.design().entity(&entity).unwrap();
    assert_eq!(e.description, before, "my edit is undone");
    assert_eq!(e.volume.unwrap().items, 42, "the teammate's edit stays");
    assert_eq!(net.clients[0].view(), net.room.design());

    // Redo, then a teammate removes the entity: the undo no longer applies, says why, and
    // stays to be tried again.
    assert!(history.redo_with(|e| net.clients[0].local(e)).unwrap());
    net.clients[1]
        .local(Edit::RemoveEntity {
            name: entity.clone(),
        })
        .unwrap();
    net.settle();
    let error = history
        .undo_with(|e| net.clients[0].local(e))
        .expect_err("the entity is gone");
    assert!(error.to_string().contains(&entity), "{error}");
    assert!(history.can_undo());
    assert_eq!(net.clients[0].pending(), 0, "nothing was sent");
}
