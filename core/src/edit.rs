//! Edits: every change a user can make to a [`Design`], as a value.
//!
//! The canvas, the inspector, keyboard shortcuts, imports and undo all change the document the
//! same way: they build an [`Edit`] and hand it to [`apply`], which changes the design and
//! returns the edit that undoes it. Nothing else mutates a design in the app, so undo and redo
//! are exact by construction and the app's views hold no editing rules of their own.
//!
//! An edit either applies whole or not at all: on error the design is left as it was. Edits
//! address things by name (names are the design's identities); an edit never creates a second
//! entity, table, index or pattern with a name already taken, and renaming an entity or a table
//! carries every reference along (patterns' entities and write steps, the canvas layout,
//! entities' table, imported samples). Renaming a key attribute of a table or an index carries
//! every entity's template for it along, as renaming an entity's attribute carries its key
//! templates. Nothing here knows about pointers, signals or storage.
//!
//! A finding's quick fix ([`Fix`](crate::answer::Fix)) becomes an edit in `fix`
//! ([`Fix::edit`](crate::answer::Fix::edit)), and [`follow_attribute_rename`] (in `rename`,
//! with the renames that carry references along) is the edit a rename offers next: the
//! patterns that named the old attribute, renamed too.

use crate::model::{
    AccessPattern, Attribute, Design, Entity, Gsi, HandItem, Lsi, Point, Table, Volume,
};
use crate::template::KeyTemplate;

mod fix;
mod rename;

pub use rename::follow_attribute_rename;
use rename::{
    carry_key_templates, rename_entity, rename_var, renamed_keys, set_table, with_entities,
};

/// One change to a design. [`apply`] performs it and returns its inverse.
///
/// Serialised (externally tagged, the model's own forms inside) for live co-editing, where
/// edits travel between the app and `keyplan serve` and are stored in a room's log
/// ([`crate::collab`]).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Edit {
    /// Renames the design.
    SetName(String),
    SetDescription(String),

    /// Inserts a table at position `at` (0..=number of tables).
    AddTable {
        at: usize,
        table: Table,
    },
    /// Removes a table. Entities that live in it keep naming it (the findings flag them).
    RemoveTable {
        name: String,
    },
    /// Replaces a table: its keys, indexes, billing and TTL. When `table.name` differs from
    /// `name`, the table is renamed and entities and imported samples follow it.
    SetTable {
        name: String,
        table: Table,
    },

    /// Inserts a global secondary index into `table` at position `at`.
    AddGsi {
        table: String,
        at: usize,
        gsi: Gsi,
    },
    RemoveGsi {
        table: String,
        name: String,
    },
    /// Replaces a GSI (its name, keys and projection).
    SetGsi {
        table: String,
        name: String,
        gsi: Gsi,
    },
    /// Inserts a local secondary index into `table` at position `at`.
    AddLsi {
        table: String,
        at: usize,
        lsi: Lsi,
    },
    RemoveLsi {
        table: String,
        name: String,
    },
    /// Replaces an LSI (its name, sort key and projection).
    SetLsi {
        table: String,
        name: String,
        lsi: Lsi,
    },

    /// Inserts an entity at position `at`, with its card at `position` if given.
    AddEntity {
        at: usize,
        entity: Entity,
        position: Option<Point>,
    },
    /// Removes an entity and its card. Patterns that return it keep naming it.
    RemoveEntity {
        name: String,
    },
    /// Renames an entity and every reference to it.
    RenameEntity {
        from: String,
        to: String,
    },
    /// Replaces everything about an entity but its name (which [`Edit::RenameEntity`] changes).
    SetEntity {
        name: String,
        entity: Entity,
    },
    /// Moves an entity to another table.
    SetEntityTable {
        entity: String,
        table: String,
    },
    SetEntityDescription {
        entity: String,
        description: String,
    },
    /// Sets (or, with `None`, removes) the items an entity holds in production and their size
    /// ([`Volume::with_items`] makes one from a count typed).
    SetEntityVolume {
        entity: String,
        volume: Option<Volume>,
    },
    /// Replaces an entity's whole attribute list.
    SetAttributes {
        entity: String,
        attributes: Vec<Attribute>,
    },
    /// Replaces the attribute at position `at`. A new name carries along the entity's key
    /// templates that use the old one (`{custId}` becomes `{customerId}`).
    SetAttribute {
        entity: String,
        at: usize,
        attribute: Attribute,
    },
    /// Sets (or, with `None`, removes) the template that fills key attribute `key`.
    SetKeyTemplate {
        entity: String,
        key: String,
        template: Option<KeyTemplate>,
    },

    /// Inserts an access pattern at position `at`.
    AddPattern {
        at: usize,
        pattern: AccessPattern,
    },
    RemovePattern {
        name: String,
    },
    /// Replaces a pattern: any of its fields, its name included.
    SetPattern {
        name: String,
        pattern: AccessPattern,
    },
    /// Renames attribute `from` to `to` wherever pattern `pattern` names it: its inputs, its
    /// sort condition, its order and the attributes it changes.
    RenamePatternAttribute {
        pattern: String,
        from: String,
        to: String,
    },

    /// Places cards on the canvas, several at once (a multi-select drag). `None` removes a
    /// card's position, leaving the app to place it automatically.
    MoveCards {
        positions: Vec<(String, Option<Point>)>,
    },

    /// Replaces the sample items written by hand (the Data view's edits and added items).
    SetHandItems {
        items: Vec<HandItem>,
    },

    /// Replaces the whole design (open, import, load an example).
    ReplaceDesign(Box<Design>),
    /// Several edits as one: applied in order, all or none.
    Batch(Vec<Edit>),
}

impl Edit {
    /// True when the edit only places cards: no verdict or finding can change, so the app
    /// need not analyse the design again.
    pub fn only_moves_cards(&self) -> bool {
        match self {
            Edit::MoveCards { .. } => true,
            Edit::Batch(edits) => edits.iter().all(Edit::only_moves_cards),
            _ => false,
        }
    }

    /// Whether the edit changes only what entities hold (their attributes, key templates,
    /// description, volume): no name, no order, no table, no pattern. What is made from the
    /// tables and the patterns alone (the pattern list's rows, beside the verdicts) need not be
    /// made again (issue 43: a keystroke in a key template).
    pub fn only_changes_entity_contents(&self) -> bool {
        match self {
            Edit::SetEntityDescription { .. }
            | Edit::SetEntityVolume { .. }
            | Edit::SetAttributes { .. }
            | Edit::SetAttribute { .. }
            | Edit::SetKeyTemplate { .. } => true,
            Edit::Batch(edits) => edits.iter().all(Edit::only_changes_entity_contents),
            _ => false,
        }
    }
}

/// What kind of thing a name belongs to, for error messages (and, in live co-editing, what a
/// teammate has selected).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Element {
    Table,
    Index,
    Entity,
    Attribute,
    Pattern,
}

impl std::fmt::Display for Element {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Element::Table => "table",
            Element::Index => "index",
            Element::Entity => "entity",
            Element::Attribute => "attribute",
            Element::Pattern => "access pattern",
        })
    }
}

/// Why an edit could not be applied. The design is unchanged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EditError {
    #[error("there is no {kind} named `{name}`")]
    NotFound { kind: Element, name: String },
    #[error("another {kind} is already named `{name}`: names must be unique")]
    NameTaken { kind: Element, name: String },
    #[error("every {kind} needs a name")]
    EmptyName { kind: Element },
    #[error("position {at} is past the end of the {kind} list ({len} long)")]
    OutOfRange {
        kind: Element,
        at: usize,
        len: usize,
    },
    #[error("SetEntity cannot rename `{name}` to `{to}`: use RenameEntity")]
    RenameThroughSet { name: String, to: String },
}

/// Applies `edit` to `design` and returns the edit that undoes it. On error, `design` is
/// unchanged.
pub fn apply(design: &mut Design, edit: Edit) -> Result<Edit, EditError> {
    match edit {
        Edit::SetName(name) => Ok(Edit::SetName(std::mem::replace(&mut design.name, name))),
        Edit::SetDescription(text) => Ok(Edit::SetDescription(std::mem::replace(
            &mut design.description,
            text,
        ))),

        Edit::AddTable { at, table } => {
            check_name(Element::Table, &table.name)?;
            if design.table(&table.name).is_some() {
                return Err(taken(Element::Table, &table.name));
            }
            check_at(Element::Table, at, design.tables.len())?;
            let name = table.name.clone();
            design.tables.insert(at, table);
            Ok(Edit::RemoveTable { name })
        }
        Edit::RemoveTable { name } => {
            let at = table_at(design, &name)?;
            let table = design.tables.remove(at);
            Ok(Edit::AddTable { at, table })
        }
        Edit::SetTable { name, table } => set_table(design, name, table),

        Edit::AddGsi { table, at, gsi } => {
            check_name(Element::Index, &gsi.name)?;
            let t = table_mut(design, &table)?;
            if has_index(t, &gsi.name) {
                return Err(taken(Element::Index, &gsi.name));
            }
            check_at(Element::Index, at, t.gsis.len())?;
            let name = gsi.name.clone();
            t.gsis.insert(at, gsi);
            Ok(Edit::RemoveGsi { table, name })
        }
        Edit::RemoveGsi { table, name } => {
            let t = table_mut(design, &table)?;
            let at = position(&t.gsis, |g| g.name == name).ok_or_else(|| missing_index(&name))?;
            let gsi = t.gsis.remove(at);
            Ok(Edit::AddGsi { table, at, gsi })
        }
        Edit::SetGsi { table, name, gsi } => {
            check_name(Element::Index, &gsi.name)?;
            let t = table_mut(design, &table)?;
            let at = position(&t.gsis, |g| g.name == name).ok_or_else(|| missing_index(&name))?;
            if gsi.name != name && has_index(t, &gsi.name) {
                return Err(taken(Element::Index, &gsi.name));
            }
            let new_name = gsi.name.clone();
            let before = t.clone();
            let old = std::mem::replace(&mut t.gsis[at], gsi);
            let renames = renamed_keys(&before, t);
            let undo = Edit::SetGsi {
                table: table.clone(),
                name: new_name,
                gsi: old,
            };
            Ok(with_entities(
                undo,
                carry_key_templates(design, &table, &renames),
            ))
        }
        Edit::AddLsi { table, at, lsi } => {
            check_name(Element::Index, &lsi.name)?;
            let t = table_mut(design, &table)?;
            if has_index(t, &lsi.name) {
                return Err(taken(Element::Index, &lsi.name));
            }
            check_at(Element::Index, at, t.lsis.len())?;
            let name = lsi.name.clone();
            t.lsis.insert(at, lsi);
            Ok(Edit::RemoveLsi { table, name })
        }
        Edit::RemoveLsi { table, name } => {
            let t = table_mut(design, &table)?;
            let at = position(&t.lsis, |l| l.name == name).ok_or_else(|| missing_index(&name))?;
            let lsi = t.lsis.remove(at);
            Ok(Edit::AddLsi { table, at, lsi })
        }
        Edit::SetLsi { table, name, lsi } => {
            check_name(Element::Index, &lsi.name)?;
            let t = table_mut(design, &table)?;
            let at = position(&t.lsis, |l| l.name == name).ok_or_else(|| missing_index(&name))?;
            if lsi.name != name && has_index(t, &lsi.name) {
                return Err(taken(Element::Index, &lsi.name));
            }
            let new_name = lsi.name.clone();
            let before = t.clone();
            let old = std::mem::replace(&mut t.lsis[at], lsi);
            let renames = renamed_keys(&before, t);
            let undo = Edit::SetLsi {
                table: table.clone(),
                name: new_name,
                lsi: old,
            };
            Ok(with_entities(
                undo,
                carry_key_templates(design, &table, &renames),
            ))
        }

        Edit::AddEntity {
            at,
            entity,
            position,
        } => {
            check_name(Element::Entity, &entity.name)?;
            if design.entity(&entity.name).is_some() {
                return Err(taken(Element::Entity, &entity.name));
            }
            check_at(Element::Entity, at, design.entities.len())?;
            let name = entity.name.clone();
            // A position already stored under the new name (a dangling reference) would be
            // dropped by the inverse's RemoveEntity: the inverse puts it back.
            let stale = design.layout.get(&name).copied();
            if let Some(p) = position {
                design.layout.insert(name.clone(), p);
            }
            design.entities.insert(at, entity);
            let remove = Edit::RemoveEntity { name: name.clone() };
            Ok(match stale {
                None => remove,
                Some(p) => Edit::Batch(vec![
                    remove,
                    Edit::MoveCards {
                        positions: vec![(name, Some(p))],
                    },
                ]),
            })
        }
        Edit::RemoveEntity { name } => {
            let at = entity_at(design, &name)?;
            let entity = design.entities.remove(at);
            let position = design.layout.remove(&name);
            Ok(Edit::AddEntity {
                at,
                entity,
                position,
            })
        }
        Edit::RenameEntity { from, to } => rename_entity(design, from, to),
        Edit::SetEntity { name, entity } => {
            if entity.name != name {
                return Err(EditError::RenameThroughSet {
                    name,
                    to: entity.name,
                });
            }
            let at = entity_at(design, &name)?;
            let old = std::mem::replace(&mut design.entities[at], entity);
            Ok(Edit::SetEntity { name, entity: old })
        }
        Edit::SetEntityTable { entity, table } => {
            let e = entity_mut(design, &entity)?;
            let old = std::mem::replace(&mut e.table, table);
            Ok(Edit::SetEntityTable { entity, table: old })
        }
        Edit::SetEntityDescription {
            entity,
            description,
        } => {
            let e = entity_mut(design, &entity)?;
            let old = std::mem::replace(&mut e.description, description);
            Ok(Edit::SetEntityDescription {
                entity,
                description: old,
            })
        }
        Edit::SetEntityVolume { entity, volume } => {
            let e = entity_mut(design, &entity)?;
            let old = std::mem::replace(&mut e.volume, volume);
            Ok(Edit::SetEntityVolume {
                entity,
                volume: old,
            })
        }
        Edit::SetHandItems { items } => Ok(Edit::SetHandItems {
            items: std::mem::replace(&mut design.hand_items, items),
        }),
        Edit::SetAttributes { entity, attributes } => {
            let e = entity_mut(design, &entity)?;
            let old = std::mem::replace(&mut e.attributes, attributes);
            Ok(Edit::SetAttributes {
                entity,
                attributes: old,
            })
        }
        Edit::SetAttribute {
            entity,
            at,
            attribute,
        } => {
            let e = entity_mut(design, &entity)?;
            let len = e.attributes.len();
            let slot = e.attributes.get_mut(at).ok_or(EditError::OutOfRange {
                kind: Element::Attribute,
                at,
                len,
            })?;
            let old_name = slot.name.clone();
            let new_name = attribute.name.clone();
            let old = std::mem::replace(slot, attribute);
            if old_name == new_name || old_name.is_empty() || new_name.is_empty() {
                return Ok(Edit::SetAttribute {
                    entity,
                    at,
                    attribute: old,
                });
            }
            // A rename carries the entity's key templates along; the inverse restores the
            // whole entity so a template that already used the new name comes back exactly.
            let before = {
                let mut snapshot = e.clone();
                snapshot.attributes[at] = old;
                snapshot
            };
            for template in e.keys.values_mut() {
                if let Some(renamed) = rename_var(template, &old_name, &new_name) {
                    *template = renamed;
                }
            }
            Ok(Edit::SetEntity {
                name: entity,
                entity: before,
            })
        }
        Edit::SetKeyTemplate {
            entity,
            key,
            template,
        } => {
            let e = entity_mut(design, &entity)?;
            let old = match template {
                Some(t) => e.keys.insert(key.clone(), t),
                None => e.keys.remove(&key),
            };
            Ok(Edit::SetKeyTemplate {
                entity,
                key,
                template: old,
            })
        }

        Edit::AddPattern { at, pattern } => {
            check_name(Element::Pattern, &pattern.name)?;
            if design.pattern(&pattern.name).is_some() {
                return Err(taken(Element::Pattern, &pattern.name));
            }
            check_at(Element::Pattern, at, design.patterns.len())?;
            let name = pattern.name.clone();
            design.patterns.insert(at, pattern);
            Ok(Edit::RemovePattern { name })
        }
        Edit::RemovePattern { name } => {
            let at = pattern_at(design, &name)?;
            let pattern = design.patterns.remove(at);
            Ok(Edit::AddPattern { at, pattern })
        }
        Edit::SetPattern { name, pattern } => {
            check_name(Element::Pattern, &pattern.name)?;
            let at = pattern_at(design, &name)?;
            if pattern.name != name && design.pattern(&pattern.name).is_some() {
                return Err(taken(Element::Pattern, &pattern.name));
            }
            let new_name = pattern.name.clone();
            let old = std::mem::replace(&mut design.patterns[at], pattern);
            Ok(Edit::SetPattern {
                name: new_name,
                pattern: old,
            })
        }

        Edit::RenamePatternAttribute { pattern, from, to } => {
            check_name(Element::Attribute, &to)?;
            let at = pattern_at(design, &pattern)?;
            let p = &mut design.patterns[at];
            let old = p.clone();
            let rename = |name: &mut String| {
                if *name == from {
                    name.clone_from(&to);
                }
            };
            p.inputs.iter_mut().for_each(rename);
            p.changes.iter_mut().for_each(rename);
            if let Some(cond) = &mut p.sort {
                rename(&mut cond.attribute);
            }
            if let Some(order) = &mut p.order_by {
                rename(order);
            }
            // An input renamed onto one already there is one input.
            let mut seen = Vec::with_capacity(p.inputs.len());
            p.inputs.retain(|i| {
                let first = !seen.contains(i);
                seen.push(i.clone());
                first
            });
            Ok(Edit::SetPattern {
                name: pattern,
                pattern: old,
            })
        }

        Edit::MoveCards { positions } => {
            let mut old = Vec::with_capacity(positions.len());
            for (name, point) in positions {
                let previous = match point {
                    Some(p) => design.layout.insert(name.clone(), p),
                    None => design.layout.remove(&name),
                };
                old.push((name, previous));
            }
            // Undo in reverse, so a card listed twice ends where it started.
            old.reverse();
            Ok(Edit::MoveCards { positions: old })
        }

        Edit::ReplaceDesign(new) => Ok(Edit::ReplaceDesign(Box::new(std::mem::replace(
            design, *new,
        )))),
        Edit::Batch(edits) => {
            let mut inverses = Vec::with_capacity(edits.len());
            for edit in edits {
                match apply(design, edit) {
                    Ok(inverse) => inverses.push(inverse),
                    Err(e) => {
                        // All or nothing: roll back what this batch already did.
                        for inverse in inverses.into_iter().rev() {
                            let _ = apply(design, inverse);
                        }
                        return Err(e);
                    }
                }
            }
            inverses.reverse();
            Ok(Edit::Batch(inverses))
        }
    }
}

fn check_name(kind: Element, name: &str) -> Result<(), EditError> {
    if name.trim().is_empty() {
        Err(EditError::EmptyName { kind })
    } else {
        Ok(())
    }
}

fn check_at(kind: Element, at: usize, len: usize) -> Result<(), EditError> {
    if at > len {
        Err(EditError::OutOfRange { kind, at, len })
    } else {
        Ok(())
    }
}

fn taken(kind: Element, name: &str) -> EditError {
    EditError::NameTaken {
        kind,
        name: name.to_string(),
    }
}

fn not_found(kind: Element, name: &str) -> EditError {
    EditError::NotFound {
        kind,
        name: name.to_string(),
    }
}

fn missing_index(name: &str) -> EditError {
    not_found(Element::Index, name)
}

fn position<T>(items: &[T], pred: impl Fn(&T) -> bool) -> Option<usize> {
    items.iter().position(pred)
}

fn has_index(table: &Table, name: &str) -> bool {
    table.gsis.iter().any(|g| g.name == name) || table.lsis.iter().any(|l| l.name == name)
}

fn table_at(design: &Design, name: &str) -> Result<usize, EditError> {
    position(&design.tables, |t| t.name == name).ok_or_else(|| not_found(Element::Table, name))
}

fn table_mut<'a>(design: &'a mut Design, name: &str) -> Result<&'a mut Table, EditError> {
    let at = table_at(design, name)?;
    Ok(&mut design.tables[at])
}

fn entity_at(design: &Design, name: &str) -> Result<usize, EditError> {
    position(&design.entities, |e| e.name == name).ok_or_else(|| not_found(Element::Entity, name))
}

fn entity_mut<'a>(design: &'a mut Design, name: &str) -> Result<&'a mut Entity, EditError> {
    let at = entity_at(design, name)?;
    Ok(&mut design.entities[at])
}

fn pattern_at(design: &Design, name: &str) -> Result<usize, EditError> {
    position(&design.patterns, |p| p.name == name).ok_or_else(|| not_found(Element::Pattern, name))
}

#[cfg(test)]
mod tests;
