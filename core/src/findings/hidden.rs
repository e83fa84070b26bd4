//! KP030 (error): a name or key template that holds a [hidden character](crate::text::is_hidden),
//! a newline, a line separator (U+2028), a terminal escape, a direction mark (issue 41).
//!
//! Such a character ended a comment of the migration program keyplan writes, and what followed
//! it ran when the operator ran the program. The generators escape them all the same; the
//! finding says, before anything is generated, which name holds which character, so
//! `keyplan check` fails on the design and an imported one shows where to fix it. A design's
//! own name and the free-text descriptions are not names here: they may hold line breaks,
//! which every generator writes escaped.

use super::Findings;
use crate::answer::{Place, Severity};
use crate::model::{AccessPattern, Design, Entity};
use crate::text::{first_hidden, shown, visible};

/// KP030 for every name of `design` (tables, indexes, key attributes, entities, attributes and
/// their values, patterns and every name a pattern gives) and every key template.
pub(super) fn hidden_characters(design: &Design, out: &mut Findings) {
    in_tables(design, out);
    for entity in &design.entities {
        in_entity(entity, out);
    }
    for pattern in &design.patterns {
        in_pattern(pattern, out);
    }
}

/// KP030 for the names of `design`'s tables, their indexes and key attributes.
pub(super) fn in_tables(design: &Design, out: &mut Findings) {
    for table in &design.tables {
        let place = || Place::Table(table.name.clone());
        check(out, "table name", &table.name, place);
        for key in table.primary_key() {
            check(out, "key attribute name", &key.name, place);
        }
        if let Some(ttl) = &table.ttl_attribute {
            check(out, "TTL attribute name", ttl, place);
        }
        for gsi in &table.gsis {
            let place = || Place::gsi(&table.name, &gsi.name);
            check(out, "GSI name", &gsi.name, place);
            for key in gsi.partition_key.iter().chain(&gsi.sort_key) {
                check(out, "key attribute name", &key.name, place);
            }
        }
        for lsi in &table.lsis {
            let place = || Place::lsi(&table.name, &lsi.name);
            check(out, "LSI name", &lsi.name, place);
            check(out, "key attribute name", &lsi.sort_key.name, place);
        }
    }
}

/// KP030 for `entity`'s names, its attributes' names and values, and its key templates: what
/// it says depends on the entity alone.
pub(super) fn in_entity(entity: &Entity, out: &mut Findings) {
    let place = || Place::Entity(entity.name.clone());
    check(out, "entity name", &entity.name, place);
    for attribute in &entity.attributes {
        let place = || Place::Attribute {
            entity: entity.name.clone(),
            attribute: attribute.name.clone(),
        };
        check(out, "attribute name", &attribute.name, place);
        for value in &attribute.values {
            check(out, "attribute value", value, place);
        }
    }
    for (key, template) in &entity.keys {
        let place = || Place::key(&entity.name, key);
        check(out, "key attribute name", key, place);
        check(out, "key template", template.source(), place);
    }
}

/// KP030 for `pattern`'s name and every name it gives: what it says depends on the pattern
/// alone.
pub(super) fn in_pattern(pattern: &AccessPattern, out: &mut Findings) {
    let place = || Place::Pattern(pattern.name.clone());
    check(out, "pattern name", &pattern.name, place);
    let named = pattern
        .entities
        .iter()
        .chain(&pattern.inputs)
        .chain(&pattern.changes)
        .chain(pattern.order_by.iter())
        .chain(pattern.condition.iter())
        .chain(pattern.sort.iter().map(|s| &s.attribute))
        .chain(pattern.filter.iter().map(|f| &f.attribute));
    for name in named {
        check(out, "name in the pattern", name, place);
    }
    for write in &pattern.writes {
        let names = std::iter::once(&write.entity)
            .chain(&write.changes)
            .chain(write.condition.iter());
        for name in names {
            check(out, "name in the pattern's writes", name, place);
        }
    }
}

/// The message of `design`'s first KP030, if it has one: what an export that cannot escape a
/// hidden character refuses with.
pub(crate) fn first_hidden_character(design: &Design) -> Option<String> {
    let mut out = Findings(Vec::new());
    hidden_characters(design, &mut out);
    out.0.into_iter().next().map(|f| f.message)
}

/// A KP030 at `place` when `text` (a `what`) holds a hidden character.
fn check(out: &mut Findings, what: &str, text: &str, place: impl Fn() -> Place) {
    if let Some(c) = first_hidden(text) {
        out.push(
            "KP030",
            Severity::Error,
            place(),
            format!(
                "{what} `{}` holds {}, a character no name or key template may hold (a line break, control character or direction mark): remove it",
                visible(text),
                shown(c)
            ),
        );
    }
}
