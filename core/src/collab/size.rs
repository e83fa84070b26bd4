//! How much one edit can grow a room's design file, judged from the edit alone, so that a room
//! keeps its size bound ([`crate::collab::Limits::max_design_bytes`]) without writing its whole
//! design for every edit (issue 38: at a few edits a second per client, writing a large design
//! per edit was most of a room's work).
//!
//! A *local* edit puts into the design only values its own text carries (a name, a
//! description, a whole entity or pattern, a card's position) and replaces or removes others;
//! nothing else in the design changes. Each value it puts in is written in the design file as
//! in the edit's pretty JSON (the edit carries the model's own types, with the same serde
//! forms), except that:
//! - it may sit deeper in the file than in the edit: at most [`SHIFT`] levels (an index is
//!   `tables[i].gsis[j]`, four levels down in the file and two in `AddGsi`), so each of its
//!   lines gains at most `2 * SHIFT` spaces;
//! - going into a list or a map costs a comma, a line break and its indentation, and a list
//!   that was empty gains two line breaks: at most [`PER_VALUE`] bytes per value, and every
//!   value takes at least one line of the edit's text;
//! - an entity's name is written twice (the entity, and its card's key in `layout`), so the
//!   sum is doubled.
//!
//! Edits whose effect reaches beyond what they carry (a rename that follows references, an
//! index or attribute rename that carries key templates along) have no such bound: the room
//! measures the design they make instead. They are rare. The property test in `tests.rs`
//! checks the bound against the measured growth of random edits.

use crate::edit::Edit;
use crate::file::Counted;

/// How many levels deeper a value of a local edit can sit in the design file than in the
/// edit's text (3 at most in the model today; one level of margin).
const SHIFT: usize = 4;

/// What putting one value into a list or map of the design file can cost beyond the value:
/// `",\n"` and the indentation of the deepest list (5 levels), or the two line breaks and
/// indentations of a list that was empty.
const PER_VALUE: usize = 24;

/// At most how many bytes applying `edit` can add to a design file, whatever the design; `None`
/// for an edit whose growth depends on the design (renames that follow references).
pub(crate) fn growth_bound(edit: &Edit) -> Option<usize> {
    if !is_local(edit) {
        return None;
    }
    let mut counted = Counted::default();
    serde_json::to_writer_pretty(&mut counted, edit)
        .unwrap_or_else(|e| unreachable!("an edit always serialises: {e}"));
    let lines = counted.newlines + 1;
    Some(2 * (counted.bytes + lines * (2 * SHIFT + PER_VALUE)))
}

/// Whether `edit` changes only what it names, with values it carries (see the module's doc).
fn is_local(edit: &Edit) -> bool {
    match edit {
        Edit::SetTable { .. }
        | Edit::SetGsi { .. }
        | Edit::SetLsi { .. }
        | Edit::RenameEntity { .. }
        | Edit::SetAttribute { .. }
        | Edit::RenamePatternAttribute { .. } => false,
        Edit::Batch(edits) => edits.iter().all(is_local),
        Edit::SetName(_)
        | Edit::SetDescription(_)
        | Edit::AddTable { .. }
        | Edit::RemoveTable { .. }
        | Edit::AddGsi { .. }
        | Edit::RemoveGsi { .. }
        | Edit::AddLsi { .. }
        | Edit::RemoveLsi { .. }
        | Edit::AddEntity { .. }
        | Edit::RemoveEntity { .. }
        | Edit::SetEntity { .. }
        | Edit::SetEntityTable { .. }
        | Edit::SetEntityDescription { .. }
        | Edit::SetEntityVolume { .. }
        | Edit::SetAttributes { .. }
        | Edit::SetKeyTemplate { .. }
        | Edit::AddPattern { .. }
        | Edit::RemovePattern { .. }
        | Edit::SetPattern { .. }
        | Edit::MoveCards { .. }
        | Edit::SetHandItems { .. }
        | Edit::ReplaceDesign(_) => true,
    }
}
