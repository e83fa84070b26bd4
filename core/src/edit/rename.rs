//! Renames that carry references along: a table renamed takes its entities and samples, a key
//! attribute renamed takes every entity's template for it, an entity renamed takes the patterns
//! and the canvas layout that name it, and an attribute renamed in a template takes the
//! variables that name it; with the edit a rename offers next ([`follow_attribute_rename`]).
//! Each returns its exact inverse, as `apply` does.

use super::{Edit, EditError, Element, check_name, entity_at, table_at, taken};
use crate::model::{Design, Table};
use crate::template::{KeyTemplate, Part};

pub(super) fn set_table(
    design: &mut Design,
    name: String,
    table: Table,
) -> Result<Edit, EditError> {
    check_name(Element::Table, &table.name)?;
    let at = table_at(design, &name)?;
    let to = table.name.clone();
    let renames = renamed_keys(&design.tables[at], &table);
    if to == name {
        let old = std::mem::replace(&mut design.tables[at], table);
        let undo = Edit::SetTable {
            name: name.clone(),
            table: old,
        };
        return Ok(with_entities(
            undo,
            carry_key_templates(design, &name, &renames),
        ));
    }
    if design.table(&to).is_some() {
        return Err(taken(Element::Table, &to));
    }
    // Renaming carries entities and samples along. If something already referred to the new
    // name (a dangling reference), the exact inverse is the previous design.
    let dangling =
        design.entities.iter().any(|e| e.table == to) || design.samples.contains_key(&to);
    let before = dangling.then(|| design.clone());
    let old = std::mem::replace(&mut design.tables[at], table);
    for entity in design.entities.iter_mut().filter(|e| e.table == name) {
        entity.table = to.clone();
    }
    if let Some(items) = design.samples.remove(&name) {
        design.samples.insert(to.clone(), items);
    }
    let restore = carry_key_templates(design, &to, &renames);
    Ok(match before {
        Some(before) => Edit::ReplaceDesign(Box::new(before)),
        None => with_entities(
            Edit::SetTable {
                name: to,
                table: old,
            },
            restore,
        ),
    })
}

/// The key attributes renamed from `old` to `new` (the same place in the same index: the
/// table's keys, a GSI's or an LSI's, paired by position when the index lists are as long, else
/// by name), each as (old name, new name), when no index of `new` still uses the old name.
pub(super) fn renamed_keys(old: &Table, new: &Table) -> Vec<(String, String)> {
    let old_indexes = old.indexes();
    let new_indexes = new.indexes();
    let same_shape = old.gsis.len() == new.gsis.len() && old.lsis.len() == new.lsis.len();
    let still_used: Vec<&str> = new
        .key_attributes()
        .iter()
        .map(|k| k.name.as_str())
        .collect();
    let mut out: Vec<(String, String)> = Vec::new();
    for (i, before) in old_indexes.iter().enumerate() {
        let after = if same_shape {
            new_indexes.get(i)
        } else {
            new_indexes
                .iter()
                .find(|n| n.kind == before.kind && n.name == before.name)
        };
        let Some(after) = after else { continue };
        let pairs = before
            .partition_key
            .iter()
            .zip(after.partition_key)
            .chain(before.sort_key.iter().zip(after.sort_key));
        for (from, to) in pairs {
            if from.name != to.name
                && !still_used.contains(&from.name.as_str())
                && !out.iter().any(|(f, _)| *f == from.name)
            {
                out.push((from.name.clone(), to.name.clone()));
            }
        }
    }
    out
}

/// Moves every template of the entities in `table` from a renamed key attribute to its new
/// name (an entity that already has a template for the new name keeps both as they are).
/// Returns the edits that put the changed entities back, exactly.
pub(super) fn carry_key_templates(
    design: &mut Design,
    table: &str,
    renames: &[(String, String)],
) -> Vec<Edit> {
    let mut restore = Vec::new();
    if renames.is_empty() {
        return restore;
    }
    for entity in design.entities.iter_mut().filter(|e| e.table == table) {
        let before = entity.clone();
        for (from, to) in renames {
            if entity.keys.contains_key(to) {
                continue;
            }
            if let Some(template) = entity.keys.remove(from) {
                entity.keys.insert(to.clone(), template);
            }
        }
        if *entity != before {
            restore.push(Edit::SetEntity {
                name: before.name.clone(),
                entity: before,
            });
        }
    }
    restore
}

/// `undo`, then the edits that restore entities exactly, as one inverse (`undo` alone when
/// there are none).
pub(super) fn with_entities(undo: Edit, restore: Vec<Edit>) -> Edit {
    if restore.is_empty() {
        undo
    } else {
        let mut edits = Vec::with_capacity(1 + restore.len());
        edits.push(undo);
        edits.extend(restore);
        Edit::Batch(edits)
    }
}

/// What renaming attribute `from` of `entity` to `to` (already applied) offers next: the same
/// rename in every pattern that reads or writes `entity` and names `from` (an input, its sort
/// condition, its order, an attribute it changes) where none of its entities still has `from`.
/// `None` when no pattern needs it.
pub fn follow_attribute_rename(
    design: &Design,
    entity: &str,
    from: &str,
    to: &str,
) -> Option<Edit> {
    if from == to || from.is_empty() || to.is_empty() {
        return None;
    }
    let edits: Vec<Edit> = design
        .patterns
        .iter()
        .filter(|p| p.entities.iter().any(|e| e == entity))
        .filter(|p| {
            p.inputs.iter().any(|i| i == from)
                || p.changes.iter().any(|c| c == from)
                || p.sort.as_ref().is_some_and(|c| c.attribute == from)
                || p.order_by.as_deref() == Some(from)
        })
        .filter(|p| {
            !p.entities
                .iter()
                .filter_map(|e| design.entity(e))
                .any(|e| e.attribute(from).is_some())
        })
        .map(|p| Edit::RenamePatternAttribute {
            pattern: p.name.clone(),
            from: from.to_string(),
            to: to.to_string(),
        })
        .collect();
    match edits.len() {
        0 => None,
        1 => edits.into_iter().next(),
        _ => Some(Edit::Batch(edits)),
    }
}

pub(super) fn rename_entity(
    design: &mut Design,
    from: String,
    to: String,
) -> Result<Edit, EditError> {
    check_name(Element::Entity, &to)?;
    let at = entity_at(design, &from)?;
    if from == to {
        return Ok(Edit::RenameEntity { from, to });
    }
    if design.entity(&to).is_some() {
        return Err(taken(Element::Entity, &to));
    }
    let dangling = design.layout.contains_key(&to)
        || design
            .patterns
            .iter()
            .any(|p| p.entities.contains(&to) || p.writes.iter().any(|w| w.entity == to));
    let before = dangling.then(|| design.clone());
    design.entities[at].name = to.clone();
    for pattern in &mut design.patterns {
        for name in pattern.entities.iter_mut().filter(|n| **n == from) {
            *name = to.clone();
        }
        for step in pattern.writes.iter_mut().filter(|w| w.entity == from) {
            step.entity = to.clone();
        }
    }
    if let Some(p) = design.layout.remove(&from) {
        design.layout.insert(to.clone(), p);
    }
    Ok(match before {
        Some(before) => Edit::ReplaceDesign(Box::new(before)),
        None => Edit::RenameEntity { from: to, to: from },
    })
}

/// `template` with every variable named `from` renamed to `to`; `None` when it has no such
/// variable or has diagnostics (a broken template is left exactly as the user typed it).
pub(super) fn rename_var(template: &KeyTemplate, from: &str, to: &str) -> Option<KeyTemplate> {
    if !template.is_valid() || !template.attribute_vars().any(|v| v.name == from) {
        return None;
    }
    let mut source = String::new();
    for part in template.parts() {
        match part {
            Part::Literal(text) => source.push_str(&text.replace('{', "{{").replace('}', "}}")),
            Part::Var(var) => {
                let name = if var.shards.is_none() && var.name == from {
                    to
                } else {
                    &var.name
                };
                source.push('{');
                source.push_str(&name.replace('{', "{{").replace('}', "}}"));
                if let Some(n) = var.shards {
                    source.push(':');
                    source.push_str(&n.to_string());
                }
                source.push('}');
            }
        }
    }
    Some(KeyTemplate::parse(&source))
}
