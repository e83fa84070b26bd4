//! The server's side of a room: the design as the order has made it, the clients' last
//! acknowledged edits, the recent entries that conflicts are judged against, and a bound on
//! the design's size that an edit updates by its own size ([`super::size`]), not the design's.

use std::collections::{BTreeMap, VecDeque};

use crate::collab::size::growth_bound;
use crate::collab::{ClientId, Entry, Field, Limits, MAX_CLIENT_ID, Replaced, Revision, fields};
use crate::edit::{Edit, apply};
use crate::file::byte_len;
use crate::model::Design;

/// A room's design and what it needs to order the next edit.
#[derive(Debug, Clone)]
pub struct Room {
    design: Design,
    revision: Revision,
    /// Each client's highest applied `seq`: an edit at or below it was applied already.
    seen: BTreeMap<ClientId, u64>,
    /// The last [`Limits::conflict_window`] entries' authors and fields, oldest first.
    recent: VecDeque<(Revision, ClientId, Vec<Field>)>,
    limits: Limits,
    /// At least the design file's length in bytes: measured when the room opens and at each
    /// [`Room::design_file`] (a snapshot), then grown by each committed edit's
    /// [`growth_bound`], and measured again only when that bound would pass the limit.
    bytes: usize,
}

/// What [`Room::propose`] makes of an edit.
#[derive(Debug, Clone, PartialEq)]
pub enum Proposed {
    /// A new entry, to be stored at its revision and then [`Room::commit`]ted.
    New(Box<Entry>),
    /// The client's edit `seq` was applied already (it resent it after a reconnect): nothing
    /// to store; the client is told it is acknowledged.
    Duplicate { seq: u64 },
}

/// Why a room refused an edit. The room is unchanged; the text is the client's to show.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// The edit does not apply to the design as it is now (a teammate removed what it names).
    #[error("the edit no longer applies: {0}")]
    Conflict(String),
    #[error(
        "the design would be {bytes} bytes, over this room's limit of {limit} bytes: remove \
         something or split the design"
    )]
    TooLarge { bytes: usize, limit: usize },
    #[error("client id `{0}` is not 1 to {MAX_CLIENT_ID} characters")]
    BadClient(String),
    #[error("edit made on revision {base}, but the room is only at {now}")]
    FutureBase { base: Revision, now: Revision },
    /// [`Room::commit`] was given an entry for a revision other than the next.
    #[error("entry for revision {got} does not follow {now}")]
    OutOfOrder { got: Revision, now: Revision },
}

impl Room {
    /// A room opened on `design`, at revision 0.
    pub fn new(design: Design, limits: Limits) -> Room {
        Room::restore(design, Revision(0), BTreeMap::new(), limits)
    }

    /// A room as a snapshot left it: its design at `revision` and each client's last applied
    /// edit. Conflicts with edits before the snapshot are not reported.
    pub fn restore(
        design: Design,
        revision: Revision,
        seen: BTreeMap<ClientId, u64>,
        limits: Limits,
    ) -> Room {
        Room {
            bytes: byte_len(&design),
            design,
            revision,
            seen,
            recent: VecDeque::new(),
            limits,
        }
    }

    pub fn design(&self) -> &Design {
        &self.design
    }

    /// The design as a file (for a snapshot); the room's size bound is exact again after it.
    pub fn design_file(&mut self) -> String {
        let file = crate::file::to_string(&self.design);
        self.bytes = file.len();
        file
    }

    /// The bounds the room keeps (a room loaded again keeps them).
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// What the room knows of its design file's length: never less than it is.
    pub fn size_bound(&self) -> usize {
        self.bytes
    }

    pub fn revision(&self) -> Revision {
        self.revision
    }

    /// Each client's highest applied edit number (for a snapshot).
    pub fn seen(&self) -> &BTreeMap<ClientId, u64> {
        &self.seen
    }

    /// The highest edit number of `client` the room has applied (0 for none).
    pub fn last_seq(&self, client: &ClientId) -> u64 {
        self.seen.get(client).copied().unwrap_or(0)
    }

    /// Checks `client`'s edit number `seq`, made on revision `base`, against the design as it
    /// is now, and makes the entry that would order it next. Changes nothing the room holds
    /// (at most it measures its design, to tighten its size bound): the caller stores the
    /// entry (a conditional write at its revision) and then commits it, or, when another
    /// server stored that revision first, commits theirs and proposes again.
    ///
    /// An edit costs what the edit holds, not what the design holds: it is tried on the design
    /// in place and undone by its inverse, and the design is measured only when the edit's
    /// [`growth_bound`] leaves the size limit in doubt (or the edit has none).
    pub fn propose(
        &mut self,
        client: &ClientId,
        seq: u64,
        base: Revision,
        edit: Edit,
    ) -> Result<Proposed, Refusal> {
        if client.0.is_empty() || client.0.chars().count() > MAX_CLIENT_ID {
            return Err(Refusal::BadClient(client.0.chars().take(80).collect()));
        }
        // A client numbers its edits upwards; numbers a refused edit used are not filled in.
        if seq <= self.last_seq(client) {
            return Ok(Proposed::Duplicate { seq });
        }
        if base > self.revision {
            return Err(Refusal::FutureBase {
                base,
                now: self.revision,
            });
        }
        let limit = self.limits.max_design_bytes;
        let measured = match growth_bound(&edit) {
            Some(growth) => {
                if self.bytes.saturating_add(growth) > limit {
                    // Near the limit the bound says too little: measure what the room holds.
                    self.bytes = byte_len(&self.design);
                }
                let inverse = apply(&mut self.design, edit.clone())
                    .map_err(|e| Refusal::Conflict(e.to_string()))?;
                let measured =
                    (self.bytes.saturating_add(growth) > limit).then(|| byte_len(&self.design));
                // A local edit's inverse puts back exactly what it replaced (core's
                // `every_edit_is_undone_exactly_by_its_inverse`, which Batch's rollback relies
                // on too).
                if let Err(e) = apply(&mut self.design, inverse) {
                    unreachable!("the inverse of an edit just applied applies: {e}");
                }
                measured
            }
            None => {
                let mut after = self.design.clone();
                apply(&mut after, edit.clone()).map_err(|e| Refusal::Conflict(e.to_string()))?;
                Some(byte_len(&after))
            }
        };
        if let Some(bytes) = measured.filter(|bytes| *bytes > limit) {
            return Err(Refusal::TooLarge { bytes, limit });
        }
        let replaced = self.replaced_by(client, base, &fields(&edit));
        Ok(Proposed::New(Box::new(Entry {
            revision: self.revision.next(),
            client: client.clone(),
            seq,
            base,
            edit,
            replaced,
        })))
    }

    /// Applies the entry ordered next, this server's or another's. An entry that does not
    /// apply was never stored by a correct server; it is refused and the room is unchanged.
    pub fn commit(&mut self, entry: &Entry) -> Result<(), Refusal> {
        if entry.revision != self.revision.next() {
            return Err(Refusal::OutOfOrder {
                got: entry.revision,
                now: self.revision,
            });
        }
        apply(&mut self.design, entry.edit.clone())
            .map_err(|e| Refusal::Conflict(e.to_string()))?;
        self.bytes = match growth_bound(&entry.edit) {
            Some(growth) => self.bytes.saturating_add(growth),
            None => byte_len(&self.design),
        };
        self.revision = entry.revision;
        let seen = self.seen.entry(entry.client.clone()).or_insert(0);
        *seen = (*seen).max(entry.seq);
        self.recent
            .push_back((entry.revision, entry.client.clone(), fields(&entry.edit)));
        while self.recent.len() > self.limits.conflict_window {
            self.recent.pop_front();
        }
        Ok(())
    }

    /// The values other clients set after `base` that an edit setting `set` would replace.
    fn replaced_by(&self, client: &ClientId, base: Revision, set: &[Field]) -> Vec<Replaced> {
        let mut out: Vec<Replaced> = Vec::new();
        for (revision, author, theirs) in &self.recent {
            if *revision <= base || author == client {
                continue;
            }
            for field in theirs {
                if set.iter().any(|mine| mine.overlaps(field))
                    && !out
                        .iter()
                        .any(|r| r.revision == *revision && r.field == *field)
                {
                    out.push(Replaced {
                        revision: *revision,
                        client: author.clone(),
                        field: field.clone(),
                    });
                }
            }
        }
        out
    }
}
