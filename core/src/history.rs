//! Undo and redo: the edits a user made, as steps that each undo in one go.
//!
//! A step is one [`Edit`] (a [`Edit::Batch`] for a group) that undoes what the user did. A
//! group opened with [`History::begin`] (pointer-down, focus on a field) and closed with
//! [`History::commit`] (pointer-up, blur) becomes ONE step however many edits it held, and the
//! card moves within it are merged as they come, so a drag of a thousand pointer moves costs
//! one small edit.
//!
//! Only document edits live here. Selection, viewport, open panels and hover are session state
//! and never enter the history, so they can never clear the redo stack; an edit that changes
//! nothing is not recorded and does not clear it either.

use crate::edit::{Edit, EditError, apply};
use crate::model::Design;

/// How many steps are kept by default; the oldest fall off.
pub const DEFAULT_LIMIT: usize = 500;

/// Undo and redo stacks, and the group being recorded.
#[derive(Debug, Clone)]
pub struct History {
    /// Each step undoes one user action; the last is undone first.
    undo: Vec<Edit>,
    /// Each step redoes one undone action; the last is redone first.
    redo: Vec<Edit>,
    /// The inverses recorded since [`History::begin`], in the order they were made.
    group: Option<Vec<Edit>>,
    limit: usize,
}

impl Default for History {
    fn default() -> Self {
        History::new()
    }
}

impl History {
    pub fn new() -> History {
        History::with_limit(DEFAULT_LIMIT)
    }

    /// A history that keeps at most `limit` undo steps (at least one).
    pub fn with_limit(limit: usize) -> History {
        History {
            undo: Vec::new(),
            redo: Vec::new(),
            group: None,
            limit: limit.max(1),
        }
    }

    /// Applies `edit` to `design` and records it. Returns whether the design changed; an edit
    /// that changes nothing is not recorded and leaves redo alone.
    pub fn apply(&mut self, design: &mut Design, edit: Edit) -> Result<bool, EditError> {
        self.apply_with(edit, |e| apply(design, e))
    }

    /// [`History::apply`] with the applying done by `applier`, which returns the inverse: a
    /// live room's replica applies and sends the user's edits (`Replica::local`), and the
    /// history keeps the inverses of those only, so that undo never touches a teammate's edit.
    pub fn apply_with(
        &mut self,
        edit: Edit,
        applier: impl FnOnce(Edit) -> Result<Edit, EditError>,
    ) -> Result<bool, EditError> {
        let probe = is_probe_cheap(&edit).then(|| edit.clone());
        let inverse = applier(edit)?;
        if probe.is_some_and(|forward| forward == inverse) {
            return Ok(false);
        }
        self.redo.clear();
        match &mut self.group {
            Some(group) => push_coalescing(group, inverse),
            None => self.push_undo(inverse),
        }
        Ok(true)
    }

    /// Opens a group: every edit until [`History::commit`] becomes one undo step. Opening a
    /// group while one is open keeps the open one.
    pub fn begin(&mut self) {
        if self.group.is_none() {
            self.group = Some(Vec::new());
        }
    }

    /// Closes the open group as one undo step (none if it recorded nothing).
    pub fn commit(&mut self) {
        if let Some(mut group) = self.group.take() {
            match group.len() {
                0 => {}
                1 => self.push_undo(group.remove(0)),
                _ => {
                    group.reverse();
                    self.push_undo(Edit::Batch(group));
                }
            }
        }
    }

    /// Abandons the open group, undoing its edits (Escape during a drag). Records nothing.
    pub fn cancel(&mut self, design: &mut Design) -> Result<(), EditError> {
        self.cancel_with(|e| apply(design, e))
    }

    /// [`History::cancel`] with the applying done by `applier` (see [`History::apply_with`]).
    pub fn cancel_with(
        &mut self,
        applier: impl FnOnce(Edit) -> Result<Edit, EditError>,
    ) -> Result<(), EditError> {
        if let Some(mut group) = self.group.take() {
            group.reverse();
            applier(Edit::Batch(group))?;
        }
        Ok(())
    }

    /// True while a group is open.
    pub fn is_recording(&self) -> bool {
        self.group.is_some()
    }

    /// Undoes the last step (closing an open group first). Returns whether there was one.
    pub fn undo(&mut self, design: &mut Design) -> Result<bool, EditError> {
        self.undo_with(|e| apply(design, e))
    }

    /// [`History::undo`] with the applying done by `applier`: in a live room the undo is sent
    /// as a new edit. A step that no longer applies (a teammate removed what it restores) stays
    /// on the stack and its error says why.
    pub fn undo_with(
        &mut self,
        applier: impl FnOnce(Edit) -> Result<Edit, EditError>,
    ) -> Result<bool, EditError> {
        self.commit();
        let Some(step) = self.undo.pop() else {
            return Ok(false);
        };
        match applier(step.clone()) {
            Ok(redo) => {
                self.redo.push(redo);
                Ok(true)
            }
            Err(e) => {
                self.undo.push(step);
                Err(e)
            }
        }
    }

    /// Redoes the last undone step. Returns whether there was one.
    pub fn redo(&mut self, design: &mut Design) -> Result<bool, EditError> {
        self.redo_with(|e| apply(design, e))
    }

    /// [`History::redo`] with the applying done by `applier` (see [`History::undo_with`]).
    pub fn redo_with(
        &mut self,
        applier: impl FnOnce(Edit) -> Result<Edit, EditError>,
    ) -> Result<bool, EditError> {
        self.commit();
        let Some(step) = self.redo.pop() else {
            return Ok(false);
        };
        match applier(step.clone()) {
            Ok(undo) => {
                self.undo.push(undo);
                Ok(true)
            }
            Err(e) => {
                self.redo.push(step);
                Err(e)
            }
        }
    }

    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty() || self.group.as_ref().is_some_and(|g| !g.is_empty())
    }

    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// How many steps can be undone.
    pub fn n_undo(&self) -> usize {
        self.undo.len() + usize::from(self.group.as_ref().is_some_and(|g| !g.is_empty()))
    }

    /// How many steps can be redone.
    pub fn n_redo(&self) -> usize {
        self.redo.len()
    }

    /// Forgets every step (a new document was opened outside the history).
    pub fn clear(&mut self) {
        self.undo.clear();
        self.redo.clear();
        self.group = None;
    }

    fn push_undo(&mut self, step: Edit) {
        self.undo.push(step);
        if self.undo.len() > self.limit {
            let excess = self.undo.len() - self.limit;
            self.undo.drain(..excess);
        }
    }
}

/// Whether comparing an edit with its inverse is cheap enough to detect a no-op. A whole
/// design is not worth comparing: replacing it is always recorded.
fn is_probe_cheap(edit: &Edit) -> bool {
    !matches!(edit, Edit::ReplaceDesign(_) | Edit::Batch(_))
}

/// Records `inverse` in a group, merging consecutive card moves into one.
fn push_coalescing(group: &mut Vec<Edit>, inverse: Edit) {
    if let (Some(Edit::MoveCards { positions: older }), Edit::MoveCards { positions: newer }) =
        (group.last_mut(), &inverse)
    {
        // Undoing both applies `newer` then `older`; one move with the older position of each
        // card does the same.
        let mut merged: Vec<_> = newer
            .iter()
            .filter(|(name, _)| !older.iter().any(|(n, _)| n == name))
            .cloned()
            .collect();
        merged.append(older);
        *older = merged;
        return;
    }
    group.push(inverse);
}

#[cfg(test)]
mod tests;
