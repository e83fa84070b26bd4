//! Which fields of a design an edit sets: the unit of last-writer-wins.
//!
//! The paths are coarse where the edit is: replacing an entity sets the whole entity, renaming
//! one sets both names (and, through the references a rename carries along, more than the
//! paths say: a rename is rare and its notice names the entity). Adding or removing a thing
//! sets the thing. A card's position is its own field, so two people dragging different cards
//! never conflict.

use crate::collab::Field;
use crate::edit::Edit;

/// The fields `edit` sets, in no particular order, possibly repeated.
pub fn fields(edit: &Edit) -> Vec<Field> {
    let mut out = Vec::new();
    collect(edit, &mut out);
    out
}

fn path<const N: usize>(parts: [&str; N]) -> Field {
    Field(parts.iter().map(|p| p.to_string()).collect())
}

fn collect(edit: &Edit, out: &mut Vec<Field>) {
    match edit {
        Edit::SetName(_) => out.push(path(["name"])),
        Edit::SetDescription(_) => out.push(path(["description"])),
        Edit::AddTable { table, .. } => out.push(path(["table", &table.name])),
        Edit::RemoveTable { name } => out.push(path(["table", name])),
        Edit::SetTable { name, table } => {
            out.push(path(["table", name]));
            out.push(path(["table", &table.name]));
        }
        Edit::AddGsi { table, gsi, .. } => out.push(path(["table", table, "index", &gsi.name])),
        Edit::RemoveGsi { table, name } | Edit::RemoveLsi { table, name } => {
            out.push(path(["table", table, "index", name]))
        }
        Edit::SetGsi { table, name, gsi } => {
            out.push(path(["table", table, "index", name]));
            out.push(path(["table", table, "index", &gsi.name]));
        }
        Edit::AddLsi { table, lsi, .. } => out.push(path(["table", table, "index", &lsi.name])),
        Edit::SetLsi { table, name, lsi } => {
            out.push(path(["table", table, "index", name]));
            out.push(path(["table", table, "index", &lsi.name]));
        }
        Edit::AddEntity { entity, .. } => out.push(path(["entity", &entity.name])),
        Edit::RemoveEntity { name } => out.push(path(["entity", name])),
        Edit::RenameEntity { from, to } => {
            out.push(path(["entity", from]));
            out.push(path(["entity", to]));
        }
        Edit::SetEntity { name, .. } => out.push(path(["entity", name])),
        Edit::SetEntityTable { entity, .. } => out.push(path(["entity", entity, "table"])),
        Edit::SetEntityDescription { entity, .. } => {
            out.push(path(["entity", entity, "description"]))
        }
        Edit::SetEntityVolume { entity, .. } => out.push(path(["entity", entity, "volume"])),
        Edit::SetAttributes { entity, .. } => out.push(path(["entity", entity, "attributes"])),
        Edit::SetAttribute { entity, at, .. } => {
            out.push(path(["entity", entity, "attributes", &at.to_string()]))
        }
        Edit::SetKeyTemplate { entity, key, .. } => out.push(path(["entity", entity, "keys", key])),
        Edit::AddPattern { pattern, .. } => out.push(path(["pattern", &pattern.name])),
        Edit::RemovePattern { name } => out.push(path(["pattern", name])),
        Edit::SetPattern { name, pattern } => {
            out.push(path(["pattern", name]));
            out.push(path(["pattern", &pattern.name]));
        }
        Edit::RenamePatternAttribute { pattern, .. } => out.push(path(["pattern", pattern])),
        Edit::MoveCards { positions } => {
            out.extend(positions.iter().map(|(name, _)| path(["card", name])))
        }
        Edit::SetHandItems { .. } => out.push(path(["hand items"])),
        Edit::ReplaceDesign(_) => out.push(Field(Vec::new())),
        Edit::Batch(edits) => edits.iter().for_each(|e| collect(e, out)),
    }
}
