//! Adopting a proposal (issue 37, the app's Apply): the one [`Edit`] that gives the design being
//! edited a proposal's tables, indexes and entity keys, and nothing else of it, so undoing it
//! restores the design exactly and whatever the proposal does not decide (names, descriptions,
//! patterns, the cards' places) stays as the user has it.
//!
//! It is a [`Edit::Batch`] of the edits a user could make by hand: each table replaced or added,
//! each entity's table, attributes (a shard attribute the proposal added) and key templates set,
//! the tables no entity lives in any more removed. A table edit can carry key templates along
//! (a key attribute renamed), so the entity edits are worked out on the design as the table
//! edits leave it.

use crate::edit::{Edit, EditError, apply};
use crate::model::Design;

/// The edit that makes `current`'s tables and the keys of its entities those of `proposal`
/// (the proposal's entities are matched by name; one `current` lacks is left out: a proposal
/// adds no entity). Applying it leaves everything else of `current` as it was.
pub fn adopt(current: &Design, proposal: &Design) -> Result<Edit, EditError> {
    let mut scratch = current.clone();
    let mut edits = Vec::new();
    let mut push = |scratch: &mut Design, edit: Edit| -> Result<(), EditError> {
        apply(scratch, edit.clone())?;
        edits.push(edit);
        Ok(())
    };
    for table in &proposal.tables {
        match scratch.table(&table.name) {
            Some(now) if now == table => {}
            Some(_) => push(
                &mut scratch,
                Edit::SetTable {
                    name: table.name.clone(),
                    table: table.clone(),
                },
            )?,
            None => {
                let at = scratch.tables.len();
                push(
                    &mut scratch,
                    Edit::AddTable {
                        at,
                        table: table.clone(),
                    },
                )?;
            }
        }
    }
    for entity in &proposal.entities {
        let Some(now) = scratch.entity(&entity.name).cloned() else {
            continue;
        };
        if now.table != entity.table {
            push(
                &mut scratch,
                Edit::SetEntityTable {
                    entity: entity.name.clone(),
                    table: entity.table.clone(),
                },
            )?;
        }
        if now.attributes != entity.attributes {
            push(
                &mut scratch,
                Edit::SetAttributes {
                    entity: entity.name.clone(),
                    attributes: entity.attributes.clone(),
                },
            )?;
        }
        let keys: std::collections::BTreeSet<&String> =
            now.keys.keys().chain(entity.keys.keys()).collect();
        for key in keys {
            let wanted = entity.keys.get(key);
            if now.keys.get(key) != wanted {
                push(
                    &mut scratch,
                    Edit::SetKeyTemplate {
                        entity: entity.name.clone(),
                        key: key.clone(),
                        template: wanted.cloned(),
                    },
                )?;
            }
        }
    }
    let unused: Vec<String> = scratch
        .tables
        .iter()
        .filter(|t| proposal.table(&t.name).is_none())
        .filter(|t| !scratch.entities.iter().any(|e| e.table == t.name))
        .map(|t| t.name.clone())
        .collect();
    for name in unused {
        push(&mut scratch, Edit::RemoveTable { name })?;
    }
    Ok(Edit::Batch(edits))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Point;

    /// The first example with every key and index gone, as a user who has typed in the
    /// entities and patterns has it: one table keyed `id`, no templates.
    fn keyless() -> Design {
        let mut design = crate::examples::first();
        for table in &mut design.tables {
            table.gsis.clear();
            table.lsis.clear();
            table.partition_key.name = "id".into();
            table.sort_key = None;
        }
        for entity in &mut design.entities {
            entity.keys.clear();
        }
        design
    }

    #[test]
    fn adopting_a_proposal_gives_its_tables_and_keys_and_undo_restores_the_design_exactly() {
        let mut current = keyless();
        current.description = "typed in by hand".into();
        current
            .layout
            .insert(current.entities[0].name.clone(), Point { x: 40.0, y: 7.0 });
        let mut proposal = crate::examples::first();
        // A table of the current design the proposal does not use goes; one it adds comes.
        current.tables.push(crate::model::Table::new(
            "Leftover".into(),
            current.tables[0].partition_key.clone(),
            None,
        ));
        let mut audit = proposal.tables[0].clone();
        audit.name = "Audit".into();
        audit.gsis.clear();
        proposal.tables.push(audit);
        proposal.entities[1].table = "Audit".into();
        proposal.entities[1]
            .attributes
            .push(crate::model::Attribute::new(
                "shard",
                crate::model::AttrType::N,
            ));

        let edit = adopt(&current, &proposal).expect("the edit applies");
        let mut adopted = current.clone();
        let undo = apply(&mut adopted, edit).expect("it applies");
        assert_eq!(adopted.tables, proposal.tables);
        assert_eq!(adopted.entities, proposal.entities);
        // What a proposal does not decide is the user's.
        assert_eq!(adopted.description, "typed in by hand");
        assert_eq!(adopted.layout, current.layout);
        assert_eq!(adopted.patterns, current.patterns);

        apply(&mut adopted, undo).expect("the inverse applies");
        assert_eq!(adopted, current);
    }

    #[test]
    fn adopting_the_design_itself_changes_nothing() {
        let design = crate::examples::first();
        assert_eq!(adopt(&design, &design), Ok(Edit::Batch(Vec::new())));
    }
}
