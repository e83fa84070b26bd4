//! A client's side of a room: the design as the server last confirmed it, the client's own
//! edits the server has not acknowledged yet, and the view the user sees (the first with the
//! second replayed on top).

use std::collections::VecDeque;

use crate::collab::protocol::{ClientMessage, ServerMessage};
use crate::collab::{ClientId, Entry, Field, Revision};
use crate::edit::{Edit, EditError, apply};
use crate::model::Design;

/// A client's copy of a room's design.
#[derive(Debug, Clone)]
pub struct Replica {
    client: ClientId,
    /// The room's design at `revision`, as the server ordered it.
    confirmed: Design,
    revision: Revision,
    /// `confirmed` with `pending` replayed on it (those that still apply).
    view: Design,
    pending: VecDeque<Pending>,
    next_seq: u64,
}

#[derive(Debug, Clone)]
struct Pending {
    seq: u64,
    base: Revision,
    edit: Edit,
    sent: bool,
}

/// What a client should tell its user after a message from the server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Notice {
    /// A value this client set was replaced by `by`'s concurrent edit (last writer wins).
    Replaced { field: Field, by: ClientId },
    /// The server refused this client's edit `seq`; the view no longer has it.
    Refused { seq: u64, reason: String },
}

/// The server sent an entry that does not follow the revision this replica holds (a message
/// was lost): the client reconnects and rejoins from the server's design.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the room sent revision {got} while this copy is at {have}: reconnecting")]
pub struct OutOfStep {
    pub got: Revision,
    pub have: Revision,
}

impl Replica {
    /// A replica of a room whose design at `revision` is `design`.
    pub fn new(client: ClientId, design: Design, revision: Revision) -> Replica {
        Replica {
            client,
            view: design.clone(),
            confirmed: design,
            revision,
            pending: VecDeque::new(),
            next_seq: 1,
        }
    }

    pub fn client(&self) -> &ClientId {
        &self.client
    }

    /// The design the user sees: the server's, with this client's unacknowledged edits on it.
    pub fn view(&self) -> &Design {
        &self.view
    }

    /// The last revision the server confirmed to this replica.
    pub fn revision(&self) -> Revision {
        self.revision
    }

    /// How many of this client's edits the server has not acknowledged yet.
    pub fn pending(&self) -> usize {
        self.pending.len()
    }

    /// Applies the user's edit to the view at once and queues it for the server. Returns the
    /// edit that undoes it (for the client's own history). Consecutive card moves not sent yet
    /// merge into one, so a drag sends one edit per flush, not one per pointer move.
    pub fn local(&mut self, edit: Edit) -> Result<Edit, EditError> {
        let inverse = apply(&mut self.view, edit.clone())?;
        if let (
            Some(Pending {
                edit: Edit::MoveCards { positions: older },
                sent: false,
                ..
            }),
            Edit::MoveCards { positions: newer },
        ) = (self.pending.back_mut(), &edit)
        {
            older.retain(|(name, _)| !newer.iter().any(|(n, _)| n == name));
            older.extend(newer.iter().cloned());
            return Ok(inverse);
        }
        self.pending.push_back(Pending {
            seq: self.next_seq,
            base: self.revision,
            edit,
            sent: false,
        });
        self.next_seq += 1;
        Ok(inverse)
    }

    /// The edits not sent yet, as messages, in order; they count as sent from now on.
    pub fn outbox(&mut self) -> Vec<ClientMessage> {
        self.pending
            .iter_mut()
            .filter(|p| !p.sent)
            .map(|p| {
                p.sent = true;
                ClientMessage::Edit {
                    seq: p.seq,
                    base: p.base,
                    edit: Box::new(p.edit.clone()),
                }
            })
            .collect()
    }

    /// Takes a message from the server. Presence, closing and errors are the caller's to
    /// show; this keeps the design.
    pub fn receive(&mut self, message: &ServerMessage) -> Result<Vec<Notice>, OutOfStep> {
        match message {
            ServerMessage::Welcome {
                revision,
                design,
                applied_seq,
                ..
            } => {
                self.rejoin((**design).clone(), *revision, *applied_seq);
                Ok(Vec::new())
            }
            ServerMessage::Applied { entry } => self.applied(entry),
            ServerMessage::Acknowledged { seq } => {
                self.pending.retain(|p| p.seq != *seq);
                self.rebase();
                Ok(Vec::new())
            }
            ServerMessage::Refused { seq, reason } => {
                let before = self.pending.len();
                self.pending.retain(|p| p.seq != *seq);
                if self.pending.len() == before {
                    return Ok(Vec::new());
                }
                self.rebase();
                Ok(vec![Notice::Refused {
                    seq: *seq,
                    reason: reason.clone(),
                }])
            }
            ServerMessage::Peers { .. }
            | ServerMessage::Closed { .. }
            | ServerMessage::Error { .. } => Ok(Vec::new()),
        }
    }

    /// Starts again from the server's design at `revision` (after a reconnect): the edits it
    /// applied (numbers up to `applied_seq`) are dropped, the others are replayed and sent
    /// again.
    pub fn rejoin(&mut self, design: Design, revision: Revision, applied_seq: u64) {
        self.confirmed = design;
        self.revision = revision;
        self.pending.retain(|p| p.seq > applied_seq);
        for p in &mut self.pending {
            p.sent = false;
        }
        self.next_seq = self.next_seq.max(applied_seq + 1);
        self.rebase();
    }

    fn applied(&mut self, entry: &Entry) -> Result<Vec<Notice>, OutOfStep> {
        if entry.revision <= self.revision {
            return Ok(Vec::new()); // seen already (sent again after a rejoin)
        }
        if entry.revision != self.revision.next() {
            return Err(OutOfStep {
                got: entry.revision,
                have: self.revision,
            });
        }
        // The server applied it to the design this replica confirms, so it applies here.
        apply(&mut self.confirmed, entry.edit.clone()).map_err(|_| OutOfStep {
            got: entry.revision,
            have: self.revision,
        })?;
        self.revision = entry.revision;
        let mine = entry.client == self.client;
        if mine && self.pending.front().is_some_and(|p| p.seq == entry.seq) {
            // The view was `confirmed` + pending; it is still the new `confirmed` + the rest.
            self.pending.pop_front();
        } else if mine {
            self.pending.retain(|p| p.seq != entry.seq);
            self.rebase();
        } else if self.pending.is_empty() {
            // Nothing of ours on top: the view is `confirmed` as it was, and takes the edit too.
            let _ = apply(&mut self.view, entry.edit.clone());
        } else {
            self.rebase();
        }
        Ok(entry
            .replaced
            .iter()
            .filter(|r| r.client == self.client && !mine)
            .map(|r| Notice::Replaced {
                field: r.field.clone(),
                by: entry.client.clone(),
            })
            .collect())
    }

    /// The view again: the confirmed design with the pending edits replayed, skipping those
    /// that no longer apply (the server will refuse them, and say so).
    fn rebase(&mut self) {
        let mut view = self.confirmed.clone();
        for p in &self.pending {
            let _ = apply(&mut view, p.edit.clone());
        }
        self.view = view;
    }
}
