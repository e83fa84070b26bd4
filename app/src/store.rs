//! The document store: the one design being edited and its undo history, provided once as
//! context. Every change goes through [`Store::dispatch`] as a core [`Edit`]; the analysis is
//! derived with a [`Memo`]. The store keeps nothing itself: an effect (in `app.rs`) saves every
//! change at the browser's next idle moment into its IndexedDB, through the design library
//! (`library.rs`, `storage.rs`), and a save still pending when the page goes away into a
//! localStorage journal read back on the next start.
//!
//! In a live room (issue 38) the document also holds the room's [`Replica`]: the user's edits
//! go through [`Replica::local`] (the history keeps the inverses of those only, so undo never
//! touches a teammate's edit), what the room sends comes in through [`Store::receive`], and the
//! design shown is the replica's view. The socket is the live client's business
//! (`live/client.rs`).
//!
//! Card moves do not bump the analysis revision: no verdict depends on where a card sits, so a
//! drag repaints cards and lines without re-analysing the design.

use keyplan_core::Design;
use keyplan_core::analysis::{Analyzed, Statements};
use keyplan_core::collab::protocol::{Access, ClientMessage, ServerMessage};
use keyplan_core::collab::{Notice, Replica};
use keyplan_core::edit::{Edit, EditError};
use keyplan_core::findings::Measured;
use keyplan_core::history::History;
use leptos::prelude::*;

/// The design and its history, changed together.
#[derive(Debug, Clone)]
pub struct Document {
    pub design: Design,
    pub history: History,
    /// The live room this design is in, if any: its replica's view is `design`.
    pub live: Option<Replica>,
}

/// What the user is told when they try to edit through a view-only link.
pub const VIEW_ONLY: &str = "This link is view-only: you can look, not edit";

/// The document store, `Copy` so closures can capture it.
#[derive(Debug, Clone, Copy)]
pub struct Store {
    doc: RwSignal<Document>,
    /// Bumped by every change a verdict or finding could depend on.
    revision: RwSignal<u64>,
    /// Bumped with `revision`, but not by an edit of entities' contents alone
    /// ([`Edit::only_changes_entity_contents`]): what is made from the tables and the
    /// patterns tracks this (and the analysis), not every keystroke in an entity.
    frame: RwSignal<u64>,
    /// Bumped by every change of the document, card moves included.
    version: RwSignal<u64>,
    /// What core says about the design, recomputed once per revision, and again when the
    /// worker has measured the design's filtered reads and partition loads on the sample.
    pub analysis: Memo<Analyzed>,
    /// What the worker measured on the sample (KP024's and KP014's input), and the revision
    /// it is for.
    measured: RwSignal<Option<(u64, Measured)>>,
    /// The worker's verdicts of the reads given as PartiQL statements (issue 40), for the last
    /// revision it answered: the analysis takes them in place of this thread's, which has no
    /// parser, before counting the coverage and the findings (`analysis::statements`).
    partiql: RwSignal<Statements>,
    /// The message of the last refused edit, for the toast.
    pub refusal: RwSignal<Option<String>>,
    /// What this client may do in the live room the design is in; `None` outside a room.
    pub access: RwSignal<Option<Access>>,
}

impl Store {
    pub fn new(design: Design) -> Store {
        let doc = RwSignal::new(Document {
            design,
            history: History::new(),
            live: None,
        });
        let revision = RwSignal::new(0u64);
        let measured = RwSignal::new(None::<(u64, Measured)>);
        let partiql = RwSignal::new(Statements::default());
        // KP024 and KP014, the findings that read sample data (and KP029 where no volume gives
        // an item size), are judged on what the worker measures (`measure`): this thread never
        // generates a sample (issue 19). Until it comes for this revision, the analysis has
        // none of that.
        // Each revision is analysed again from the last (`Analyzed::again`): the verdicts of the
        // patterns an edit cannot reach are kept, moved rather than copied (the memo owns the
        // last analysis while it works out the next), so a keystroke judges the few patterns it
        // can change. The reads given as PartiQL statements are judged as the worker last
        // judged them (`Store::partiql_judged`): the same answer `keyplan check` gives.
        let analysis = Memo::new_owning(move |last: Option<Analyzed>| {
            let rev = revision.get();
            measured.with(|m| {
                let nothing = Measured::default();
                let measured = match m {
                    Some((at, measured)) if *at == rev => measured,
                    _ => &nothing,
                };
                partiql.with(|statements| {
                    doc.with_untracked(|d| match last {
                        Some(last) => last.again(&d.design, Some(measured), Some(statements)),
                        None => (
                            Analyzed::new(&d.design, Some(measured), Some(statements)),
                            true,
                        ),
                    })
                })
            })
        });
        Store {
            doc,
            measured,
            revision,
            frame: RwSignal::new(0),
            version: RwSignal::new(0),
            analysis,
            partiql,
            refusal: RwSignal::new(None),
            access: RwSignal::new(None),
        }
    }

    /// Takes the worker's measurement of revision `rev` on the sample; one for a revision the
    /// design has left is dropped.
    pub fn measured(&self, rev: u64, measured: Measured) {
        if rev == self.revision.get_untracked() {
            self.measured.set(Some((rev, measured)));
        }
    }

    /// Takes the worker's verdicts of the statements of revision `rev`, into the analysis
    /// (every verdict, the coverage and the findings); those for a revision the design has
    /// left are dropped.
    pub fn partiql_judged(&self, rev: u64, judged: Statements) {
        let news = !judged.reads.is_empty() || self.partiql.with_untracked(|j| !j.reads.is_empty());
        if rev == self.revision.get_untracked() && news {
            self.partiql.set(judged);
        }
    }

    /// The verdict shown for pattern `name`: the analysis's, which is the worker's for a read
    /// given as a statement.
    pub fn verdict(&self, name: &str) -> Option<keyplan_core::Verdict> {
        self.analysis
            .with(|a| a.verdicts.iter().find(|v| v.pattern == name).cloned())
    }

    /// Whether the worker has judged pattern `name`'s statement.
    pub fn judged_in_worker(&self, name: &str) -> bool {
        self.partiql.with(|j| j.judged(name))
    }

    /// Reads the design, tracking it.
    pub fn with<R>(&self, f: impl FnOnce(&Design) -> R) -> R {
        self.doc.with(|d| f(&d.design))
    }

    /// Reads the design without tracking (event handlers).
    pub fn with_untracked<R>(&self, f: impl FnOnce(&Design) -> R) -> R {
        self.doc.with_untracked(|d| f(&d.design))
    }

    /// A copy of the design, untracked.
    pub fn design(&self) -> Design {
        self.with_untracked(Design::clone)
    }

    /// Applies an edit and records it for undo. A refused edit changes nothing and its reason
    /// is shown; returns whether the design changed.
    pub fn dispatch(&self, edit: Edit) -> bool {
        let semantic = !edit.only_moves_cards();
        let contents_only = edit.only_changes_entity_contents();
        if self.access.get_untracked() == Some(Access::View) {
            self.refusal.set(Some(VIEW_ONLY.to_string()));
            return false;
        }
        let mut outcome = Ok(false);
        self.version.update(|v| *v += 1);
        self.doc.update(|d| {
            let Document {
                design,
                history,
                live,
            } = d;
            outcome = match live {
                Some(replica) => history.apply_with(edit, |e| through(replica, design, e)),
                None => history.apply(design, edit),
            };
        });
        match outcome {
            Ok(changed) => {
                if changed && semantic {
                    self.changed_semantics(!contents_only);
                }
                changed
            }
            Err(e) => {
                self.refusal.set(Some(e.to_string()));
                false
            }
        }
    }

    /// Opens an undo group (pointer-down on a card, focus on a field).
    pub fn begin(&self) {
        self.doc.update_untracked(|d| d.history.begin());
    }

    /// Closes the undo group as one step.
    pub fn commit(&self) {
        self.version.update(|v| *v += 1);
        self.doc.update(|d| d.history.commit());
    }

    /// Abandons the undo group, putting things back (Escape during a drag).
    pub fn cancel(&self) {
        self.version.update(|v| *v += 1);
        self.doc.update(|d| {
            let Document {
                design,
                history,
                live,
            } = d;
            let _ = match live {
                Some(replica) => history.cancel_with(|e| through(replica, design, e)),
                None => history.cancel(design),
            };
        });
    }

    pub fn undo(&self) {
        self.step("undo", |h, a| h.undo_with(a));
    }

    pub fn redo(&self) {
        self.step("redo", |h, a| h.redo_with(a));
    }

    /// Undoes or redoes a step of this user's: in a live room it goes to the room as a new edit,
    /// and one that no longer applies (a teammate changed what it restores) says why.
    fn step(&self, what: &str, f: fn(&mut History, &mut Applier) -> Result<bool, EditError>) {
        if self.access.get_untracked() == Some(Access::View) {
            self.refusal.set(Some(VIEW_ONLY.to_string()));
            return;
        }
        let mut outcome = Ok(false);
        let mut in_room = false;
        self.version.update(|v| *v += 1);
        self.doc.update(|d| {
            let Document {
                design,
                history,
                live,
            } = d;
            in_room = live.is_some();
            outcome = match live {
                Some(replica) => f(history, &mut |e| through(replica, design, e)),
                None => f(history, &mut |e| keyplan_core::edit::apply(design, e)),
            };
        });
        match outcome {
            Ok(true) => self.changed_semantics(true),
            Ok(false) => {}
            Err(e) if in_room => self.refusal.set(Some(format!(
                "This {what} no longer applies: {e} (a teammate changed it since)"
            ))),
            Err(e) => self.refusal.set(Some(e.to_string())),
        }
    }

    /// Puts the design in a live room: from now on it is `replica`'s view, and the user's
    /// edits go through it. The history starts afresh (its steps were made outside the room).
    pub fn go_live(&self, replica: Replica, access: Access) {
        self.version.update(|v| *v += 1);
        self.doc.update(|d| {
            d.design = replica.view().clone();
            d.history = History::new();
            d.live = Some(replica);
        });
        self.access.set(Some(access));
        self.changed_semantics(true);
    }

    /// Leaves the live room (closed, or another design opened): the design stays as it is.
    pub fn leave_live(&self) {
        self.doc.update_untracked(|d| d.live = None);
        self.access.set(None);
    }

    /// Takes a message from the room: the design becomes the replica's view again, with the
    /// user's unacknowledged edits on top; the selection and the viewport are session state and
    /// stay. Returns what to tell the user, or `Err` when the message was out of step (the
    /// caller reconnects).
    pub fn receive(&self, message: &ServerMessage) -> Result<Vec<Notice>, String> {
        let semantic = match message {
            ServerMessage::Applied { entry } => !entry.edit.only_moves_cards(),
            _ => true,
        };
        let mut outcome = Ok(Vec::new());
        self.version.update(|v| *v += 1);
        self.doc.update(|d| {
            if let Some(replica) = &mut d.live {
                outcome = replica.receive(message).map_err(|e| e.to_string());
                if *replica.view() != d.design {
                    d.design = replica.view().clone();
                }
            }
        });
        if let ServerMessage::Welcome { access, .. } = message {
            self.access.set(Some(*access));
        }
        if semantic {
            self.changed_semantics(true);
        }
        outcome
    }

    /// The user's edits not sent to the room yet, as messages (they count as sent from now).
    pub fn outbox(&self) -> Vec<ClientMessage> {
        let mut out = Vec::new();
        self.doc.update_untracked(|d| {
            if let Some(replica) = &mut d.live {
                out = replica.outbox();
            }
        });
        out
    }

    /// How many of the user's edits the room has not acknowledged yet, tracked.
    pub fn unacknowledged(&self) -> usize {
        self.doc
            .with(|d| d.live.as_ref().map_or(0, Replica::pending))
    }

    /// True while the design is in a live room, untracked.
    pub fn is_live(&self) -> bool {
        self.doc.with_untracked(|d| d.live.is_some())
    }

    /// True while an undo group is open (a drag, typing in a field).
    pub fn is_recording(&self) -> bool {
        self.doc.with_untracked(|d| d.history.is_recording())
    }

    pub fn can_undo(&self) -> bool {
        self.doc.with(|d| d.history.can_undo())
    }

    pub fn can_redo(&self) -> bool {
        self.doc.with(|d| d.history.can_redo())
    }

    /// Opens another design: a fresh history, since its edits belong to another document.
    pub fn open(&self, design: Design) {
        self.version.update(|v| *v += 1);
        self.doc.set(Document {
            design,
            history: History::new(),
            live: None,
        });
        self.access.set(None);
        // Another design's statements are not this one's.
        if self.partiql.with_untracked(|j| !j.reads.is_empty()) {
            self.partiql.set(Statements::default());
        }
        self.changed_semantics(true);
    }

    /// Tracks the changes a verdict, a card's content or a relationship could depend on: every
    /// change but card moves.
    pub fn track_semantic(&self) {
        self.revision.track();
    }

    /// Tracks the changes of the tables, the patterns, and the entities' names, order and
    /// tables: every change [`Store::track_semantic`] tracks but an edit of entities' contents.
    pub fn track_frame(&self) {
        self.frame.track();
    }

    /// Counts a change a verdict could depend on; `frame`: one of more than entities' contents.
    fn changed_semantics(&self, frame: bool) {
        if frame {
            self.frame.update(|f| *f += 1);
        }
        self.revision.update(|r| *r += 1);
    }

    /// The design's revision as `tracks` counts changes, tracked: what a request to the worker
    /// carries (issue 19).
    pub fn revision(&self, tracks: Tracks) -> u64 {
        match tracks {
            Tracks::Semantics => self.revision.get(),
            Tracks::Everything => self.version.get(),
        }
    }

    /// [`Store::revision`], untracked: what an answer's revision is compared with.
    pub fn revision_untracked(&self, tracks: Tracks) -> u64 {
        match tracks {
            Tracks::Semantics => self.revision.get_untracked(),
            Tracks::Everything => self.version.get_untracked(),
        }
    }

    /// Tracks every change of the document (for autosave).
    pub fn track(&self) {
        self.doc.track();
    }
}

/// What applies an edit and returns its inverse: core's `apply` on the design, or the room's
/// replica.
type Applier<'a> = dyn FnMut(Edit) -> Result<Edit, EditError> + 'a;

/// Applies the user's `edit` in a live room: to the replica (which queues it for the room and
/// returns its inverse) and to the design shown, which is the replica's view.
fn through(replica: &mut Replica, design: &mut Design, edit: Edit) -> Result<Edit, EditError> {
    let inverse = replica.local(edit.clone())?;
    // The same deterministic edit on the same design: the two stay equal without a copy.
    if keyplan_core::edit::apply(design, edit).is_err() {
        *design = replica.view().clone();
    }
    Ok(inverse)
}

/// Which changes a revision counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tracks {
    /// Every change a verdict, a sample or a cost could depend on: all but card moves.
    Semantics,
    /// Every change, card moves included (an export writes where the cards are).
    Everything,
}

/// The store provided by [`crate::App`].
pub fn use_store() -> Store {
    expect_context::<Store>()
}
