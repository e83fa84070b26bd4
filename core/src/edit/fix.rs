//! The edits behind a finding's advice: the GSI a suggestion names ([`Suggestion::edit`]) and
//! each quick fix ([`Fix::edit`]), every one a single [`Edit`], one undo step.

use super::Edit;
use crate::answer::{Fix, Suggestion, SuggestionKind};
use crate::model::{Attribute, Design, Gsi, KeyAttribute, KeyType, Projection};
use crate::template::KeyTemplate;

impl Suggestion {
    /// The edit that adds the suggested GSI to the table of the entities it names (named
    /// `GSI<n>`, keyed on `GSI<n>PK` and `GSI<n>SK`, the next free number, with the key templates
    /// of every entity the suggestion names), or, when it names an existing GSI to overload,
    /// gives the entities that GSI's keys: one [`Edit::Batch`], one undo step. `None` for
    /// another kind of advice (an LSI, the table's key), which no edit of an existing table can
    /// follow. The app's "Add this GSI" and `keyplan check --fix` both apply it (issue 14).
    pub fn edit(&self, design: &Design) -> Option<Edit> {
        let suggestion = self;
        if suggestion.kind == SuggestionKind::SortKey {
            return self.re_key(design);
        }
        if suggestion.kind != SuggestionKind::Gsi {
            return None;
        }
        let partition = suggestion.partition.as_ref()?;
        let table = suggestion
            .entities
            .iter()
            .find_map(|e| design.entity(e))
            .map(|e| e.table.clone())?;
        let t = design.table(&table)?;
        let mut edits = Vec::new();
        let (pk, sk) = match &suggestion.index {
            // An existing GSI, overloaded: the entities fill its keys.
            Some(name) => {
                let gsi = t.gsi(name)?;
                let [pk] = gsi.partition_key.as_slice() else {
                    return None;
                };
                (
                    pk.name.clone(),
                    gsi.sort_key.first().map(|k| k.name.clone()),
                )
            }
            None => {
                let taken = |n: usize| {
                    let name = format!("GSI{n}");
                    t.gsi(&name).is_some()
                        || t.lsi(&name).is_some()
                        || t.key_attributes()
                            .iter()
                            .any(|k| k.name == format!("{name}PK") || k.name == format!("{name}SK"))
                };
                let n = (1..).find(|n| !taken(*n))?;
                let name = format!("GSI{n}");
                let pk = format!("{name}PK");
                let sk = suggestion.sort.as_ref().map(|_| format!("{name}SK"));
                edits.push(Edit::AddGsi {
                    table: table.clone(),
                    at: t.gsis.len(),
                    gsi: Gsi {
                        name,
                        partition_key: vec![KeyAttribute::new(&pk, KeyType::S)],
                        sort_key: sk
                            .iter()
                            .map(|sk| KeyAttribute::new(sk, KeyType::S))
                            .collect(),
                        projection: Projection::All,
                    },
                });
                (pk, sk)
            }
        };
        for entity in &suggestion.entities {
            if design.entity(entity).is_none() {
                continue;
            }
            edits.push(Edit::SetKeyTemplate {
                entity: entity.clone(),
                key: pk.clone(),
                template: Some(KeyTemplate::parse(partition)),
            });
            if let (Some(sort), Some(sk)) = (&suggestion.sort, &sk) {
                edits.push(Edit::SetKeyTemplate {
                    entity: entity.clone(),
                    key: sk.clone(),
                    template: Some(KeyTemplate::parse(sort)),
                });
            }
        }
        Some(Edit::Batch(edits))
    }
}

impl Suggestion {
    /// The edit behind a [`SuggestionKind::SortKey`]: each named entity's template for the
    /// sort key of the index (the table's when `index` is `None`) set to `sort`. `None` when
    /// the index is gone or its sort key is not one attribute.
    fn re_key(&self, design: &Design) -> Option<Edit> {
        let sort = self.sort.as_ref()?;
        let table = self
            .entities
            .iter()
            .find_map(|e| design.entity(e))
            .and_then(|e| design.table(&e.table))?;
        let key = match &self.index {
            None => table.sort_key.as_ref()?.name.clone(),
            Some(name) => match (table.gsi(name), table.lsi(name)) {
                (Some(gsi), _) => match gsi.sort_key.as_slice() {
                    [only] => only.name.clone(),
                    _ => return None,
                },
                (None, Some(lsi)) => lsi.sort_key.name.clone(),
                (None, None) => return None,
            },
        };
        let edits: Vec<Edit> = self
            .entities
            .iter()
            .filter(|e| design.entity(e).is_some())
            .map(|entity| Edit::SetKeyTemplate {
                entity: entity.clone(),
                key: key.clone(),
                template: Some(KeyTemplate::parse(sort)),
            })
            .collect();
        (!edits.is_empty()).then_some(Edit::Batch(edits))
    }
}

impl Fix {
    /// The edit that applies this fix to `design`; `None` when it no longer fits (the entity
    /// or pattern is gone, the attribute is already there).
    pub fn edit(&self, design: &Design) -> Option<Edit> {
        match self {
            Fix::AddAttribute {
                entity,
                attribute,
                ty,
                replaces,
            } => {
                let e = design.entity(entity)?;
                if e.attribute(attribute).is_some() {
                    return None;
                }
                let mut attributes = e.attributes.clone();
                let added = Attribute {
                    required: true,
                    ..Attribute::new(attribute, *ty)
                };
                // The id the entity started with, if it is still unused, makes room.
                let replaced = replaces
                    .as_deref()
                    .filter(|r| e.starting_id_renamed(&design.entities, attribute) == Some(*r))
                    .and_then(|r| attributes.iter().position(|a| a.name == r));
                match replaced {
                    Some(at) => attributes[at] = added,
                    None => attributes.push(added),
                }
                Some(Edit::SetAttributes {
                    entity: entity.clone(),
                    attributes,
                })
            }
            Fix::RenamePatternAttribute { pattern, from, to } => {
                design.pattern(pattern)?;
                Some(Edit::RenamePatternAttribute {
                    pattern: pattern.clone(),
                    from: from.clone(),
                    to: to.clone(),
                })
            }
            Fix::UseMultiAttributeKey {
                table,
                gsi,
                partition,
                sort,
            } => multi_attribute_key(design, table, gsi, partition, sort),
            Fix::ShardPartitionKey {
                table,
                key,
                template,
                sharded,
                ..
            } => {
                let edits: Vec<Edit> = design
                    .entities_in(table)
                    .filter(|e| e.key_template(key).is_some_and(|t| t.source() == template))
                    .map(|e| Edit::SetKeyTemplate {
                        entity: e.name.clone(),
                        key: key.clone(),
                        template: Some(KeyTemplate::parse(sharded)),
                    })
                    .collect();
                (!edits.is_empty()).then_some(Edit::Batch(edits))
            }
        }
    }
}

/// The edit behind [`Fix::UseMultiAttributeKey`]: GSI `gsi` of `table` keyed on the
/// attributes `partition` and `sort` (an empty list keeps that key), as one batch. First each
/// entity's template for a replaced key attribute is removed (unless another index of the
/// table still uses that attribute), then the GSI is set: the templates go, rather than being
/// carried to the new key names, because the new keys are the entities' own attributes.
/// `None` when the GSI is gone or a key to replace is no longer one attribute (applied).
fn multi_attribute_key(
    design: &Design,
    table: &str,
    gsi: &str,
    partition: &[KeyAttribute],
    sort: &[KeyAttribute],
) -> Option<Edit> {
    let t = design.table(table)?;
    let old = t.gsi(gsi)?;
    let mut new = old.clone();
    let mut replaced: Vec<&str> = Vec::new();
    for (keys, old_keys, new_keys) in [
        (partition, &old.partition_key, &mut new.partition_key),
        (sort, &old.sort_key, &mut new.sort_key),
    ] {
        if keys.is_empty() {
            continue;
        }
        let [only] = old_keys.as_slice() else {
            return None;
        };
        replaced.push(&only.name);
        *new_keys = keys.to_vec();
    }
    if replaced.is_empty() {
        return None;
    }
    let mut after = t.clone();
    if let Some(at) = after.gsis.iter().position(|g| g.name == gsi) {
        after.gsis[at] = new.clone();
    }
    let still_used: Vec<&str> = after
        .key_attributes()
        .iter()
        .map(|k| k.name.as_str())
        .collect();
    let mut edits = Vec::new();
    for entity in design.entities_in(table) {
        for key in &replaced {
            if !still_used.contains(key) && entity.keys.contains_key(*key) {
                edits.push(Edit::SetKeyTemplate {
                    entity: entity.name.clone(),
                    key: key.to_string(),
                    template: None,
                });
            }
        }
    }
    edits.push(Edit::SetGsi {
        table: table.to_string(),
        name: gsi.to_string(),
        gsi: new,
    });
    Some(Edit::Batch(edits))
}
