//! What an entity card shows, computed from the design: plain data the card renders as is.
//! Each index of a table gets a colour slot (the table itself 0, then its GSIs, then its
//! LSIs), so a key row, a table-frame chip and a verdict badge of one index share a colour.

use std::collections::HashMap;

use keyplan_core::{AttrType, Design, Entity, IndexKind, Table};

/// How many index colours the stylesheet defines (`--index-0` ..).
pub const N_COLOURS: usize = 8;

/// One attribute row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttrRow {
    pub name: String,
    pub ty: &'static str,
    pub required: bool,
    /// Known values, joined for a tooltip.
    pub values: String,
}

/// One key row: the template filling a key attribute of an index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyRow {
    /// The index's colour slot.
    pub slot: usize,
    /// `None` for the table's own key.
    pub index: Option<String>,
    pub key: String,
    pub template: String,
    /// True when the template comes from an attribute of the key's name (no template given).
    pub implicit: bool,
    pub valid: bool,
}

/// A card's content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CardData {
    pub name: String,
    pub table: String,
    pub attributes: Vec<AttrRow>,
    pub keys: Vec<KeyRow>,
}

/// What a card shows where the canvas is zoomed out too far for its rows to be read
/// ([`crate::geometry::Viewport::overview`]): its name, a bar in the colour of each index it
/// has keys on, and whether one of its templates is invalid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Glance {
    pub name: String,
    pub table: String,
    /// Each index the entity has a key on, once, in colour order: its slot and name (`None`:
    /// the table's own key).
    pub indexes: Vec<(usize, Option<String>)>,
    pub invalid: bool,
}

impl CardData {
    /// The card as seen zoomed out.
    pub fn glance(&self) -> Glance {
        let mut indexes: Vec<(usize, Option<String>)> = Vec::new();
        for key in &self.keys {
            if !indexes.iter().any(|(_, index)| *index == key.index) {
                indexes.push((key.slot, key.index.clone()));
            }
        }
        Glance {
            name: self.name.clone(),
            table: self.table.clone(),
            indexes,
            invalid: self.keys.iter().any(|k| !k.valid),
        }
    }
}

pub fn type_label(ty: AttrType) -> &'static str {
    ty.as_str()
}

/// The colour slot of `index` (None: the table) in `table`.
pub fn slot(design: &Design, table: &str, index: Option<&str>) -> usize {
    Slots::of(design).slot(table, index)
}

/// The colour slot of every index of a design, worked out once for many lookups (the pattern
/// list's 400 badges).
#[derive(Debug)]
pub struct Slots<'a>(Vec<(&'a str, Option<&'a str>, usize)>);

impl<'a> Slots<'a> {
    pub fn of(design: &'a Design) -> Slots<'a> {
        Slots(
            design
                .tables
                .iter()
                .flat_map(|t| {
                    let indexes = t.indexes().into_iter().enumerate();
                    indexes.map(move |(at, i)| (t.name.as_str(), i.name, at % N_COLOURS))
                })
                .collect(),
        )
    }

    /// The slot of `index` (None: the table's own key) of `table`; 0 for one not found.
    pub fn slot(&self, table: &str, index: Option<&str>) -> usize {
        self.0
            .iter()
            .find(|(t, i, _)| *t == table && *i == index)
            .map_or(0, |(_, _, slot)| *slot)
    }
}

/// Every card's content with what it was worked out from: each entity, and the tables, the only
/// parts of the design a card shows.
#[derive(Debug, Default)]
pub struct Cards {
    /// Each entity's card, by name, with the entity it was worked out from.
    by_entity: HashMap<String, (Entity, CardData)>,
    /// The tables the cards were worked out with.
    tables: Vec<Table>,
}

impl Cards {
    /// Works the cards of `design` out again and tells `changed` each card that differs from
    /// before (`None`: its entity is gone). A card is worked out again only when its entity or
    /// the tables changed (issue 19: a keystroke in one key template worked out every card of
    /// the canvas again, 100 on the benchmark design, to find 99 of them the same; issue 43:
    /// then each card compared its table and looked its entity up by name, 100 times each).
    pub fn again(&mut self, design: &Design, mut changed: impl FnMut(&str, Option<&CardData>)) {
        let tables_changed = self.tables != design.tables;
        if tables_changed {
            self.tables.clone_from(&design.tables);
        }
        let mut added = false;
        for entity in &design.entities {
            let kept = self.by_entity.get_mut(&entity.name);
            if let Some((source, _)) = &kept
                && !tables_changed
                && source == entity
            {
                continue;
            }
            let card = card_of(entity, design.table(&entity.table));
            match kept {
                Some((source, data)) => {
                    source.clone_from(entity);
                    if *data != card {
                        *data = card;
                        changed(&entity.name, Some(data));
                    }
                }
                None => {
                    added = true;
                    changed(&entity.name, Some(&card));
                    self.by_entity
                        .insert(entity.name.clone(), (entity.clone(), card));
                }
            }
        }
        // Every entity has its card now: any other card's entity is gone.
        if added || self.by_entity.len() > design.entities.len() {
            self.by_entity.retain(|name, _| {
                let kept = design.entity(name).is_some();
                if !kept {
                    changed(name, None);
                }
                kept
            });
        }
    }
}

/// The card of `entity`, which lives in `table` (`None`: a table the design does not have).
fn card_of(entity: &Entity, table: Option<&Table>) -> CardData {
    let attributes = entity
        .attributes
        .iter()
        .map(|a| AttrRow {
            name: a.name.clone(),
            ty: type_label(a.ty),
            required: a.required,
            values: a.values.join(", "),
        })
        .collect();
    let mut keys = Vec::new();
    if let Some(table) = table {
        let mut seen: Vec<&str> = Vec::new();
        for (slot, index) in table.indexes().iter().enumerate() {
            for key in index.partition_key.iter().chain(index.sort_key) {
                if seen.contains(&key.name.as_str()) {
                    continue;
                }
                // LSIs share the table's partition key: listed once, with the table.
                if index.kind == IndexKind::Lsi && key.name == table.partition_key.name {
                    continue;
                }
                seen.push(&key.name);
                if let Some(template) = entity.key_template(&key.name) {
                    keys.push(KeyRow {
                        slot: slot % N_COLOURS,
                        index: index.name.map(str::to_string),
                        key: key.name.clone(),
                        template: template.source().to_string(),
                        implicit: !entity.keys.contains_key(&key.name),
                        valid: template.is_valid(),
                    });
                }
            }
        }
    } else {
        for (key, template) in &entity.keys {
            keys.push(KeyRow {
                slot: 0,
                index: None,
                key: key.clone(),
                template: template.source().to_string(),
                implicit: false,
                valid: template.is_valid(),
            });
        }
    }
    CardData {
        name: entity.name.clone(),
        table: entity.table.clone(),
        attributes,
        keys,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Gives entity `entity` of `design` the template `template` for key `key`.
    fn set_template(design: &mut Design, entity: &str, key: &str, template: &str) {
        let entity = design.entities.iter_mut().find(|e| e.name == entity);
        let entity = entity.expect("the entity");
        entity
            .keys
            .insert(key.into(), keyplan_core::KeyTemplate::parse(template));
    }

    /// The card of entity `name`, worked out from nothing.
    fn card(design: &Design, name: &str) -> Option<CardData> {
        let entity = design.entity(name)?;
        Some(card_of(entity, design.table(&entity.table)))
    }

    /// The cards `cards` tells changed when worked out again for `design`, by name.
    fn again(cards: &mut Cards, design: &Design) -> Vec<(String, Option<CardData>)> {
        let mut changed = Vec::new();
        cards.again(design, |name, card| {
            changed.push((name.to_string(), card.cloned()))
        });
        changed
    }

    // issue 19: a card is worked out again when its entity or its table changed, and only then;
    // what it says is always the card of the design as it is.
    #[test]
    fn a_card_is_worked_out_again_when_its_entity_or_table_changed() {
        let mut design = keyplan_core::examples::first();
        let mut cards = Cards::default();
        let first = again(&mut cards, &design);
        assert_eq!(first.len(), design.entities.len());
        let order = |changed: &[(String, Option<CardData>)]| {
            changed
                .iter()
                .find(|(name, _)| name == "Order")
                .map(|(_, card)| card.clone())
        };
        assert_eq!(order(&first), Some(card(&design, "Order")));
        assert_eq!(again(&mut cards, &design), [], "nothing changed");

        // Another entity's key template: not this card's.
        set_template(&mut design, "Customer", "PK", "C#{customerId}");
        let changed = again(&mut cards, &design);
        assert_eq!(
            changed,
            [("Customer".to_string(), card(&design, "Customer"))]
        );

        // Its own key template, then its table.
        set_template(&mut design, "Order", "SK", "O#{orderId}");
        let changed = again(&mut cards, &design);
        assert_eq!(changed, [("Order".to_string(), card(&design, "Order"))]);
        design.tables[0].gsis.remove(1);
        let changed = again(&mut cards, &design);
        assert_eq!(
            order(&changed),
            Some(card(&design, "Order")),
            "GSI2 gone: its key rows are gone"
        );

        // Gone.
        design.entities.retain(|e| e.name != "Order");
        assert_eq!(again(&mut cards, &design), [("Order".to_string(), None)]);
    }

    #[test]
    fn an_orders_card_lists_its_keys_by_index_in_colour_order() {
        let design = keyplan_core::examples::first();
        let card = card(&design, "Order").expect("Order");
        let keys: Vec<String> = card
            .keys
            .iter()
            .map(|k| format!("{} {} {}", k.slot, k.key, k.template))
            .collect();
        assert_eq!(
            keys,
            [
                "0 PK CUSTOMER#{customerId}",
                "0 SK ORDER#{orderId}",
                "1 GSI1PK STATUS#{status}#SHARD{shard:10}",
                "1 GSI1SK {createdAt}#{orderId}",
                "2 GSI2PK FC#{fulfillmentCenter}",
                "2 GSI2SK {priority}#{orderId}",
            ]
        );
        assert_eq!(
            card.keys.len(),
            crate::geometry::key_rows(&design, design.entity("Order").expect("e"))
        );
    }

    // Zoomed out, a card shows a bar per index it has keys on (the table's key, GSI1, GSI2 for
    // an order), once each, and says when one of its templates is invalid.
    #[test]
    fn a_card_at_a_glance_has_a_bar_per_index_and_says_when_a_template_is_invalid() {
        let mut design = keyplan_core::examples::first();
        let glance = card(&design, "Order").expect("Order").glance();
        assert_eq!(glance.name, "Order");
        assert_eq!(
            glance.indexes,
            [
                (0, None),
                (1, Some("GSI1".to_string())),
                (2, Some("GSI2".to_string()))
            ]
        );
        assert!(!glance.invalid);
        set_template(&mut design, "Order", "GSI2SK", "{priority#");
        assert!(card(&design, "Order").expect("Order").glance().invalid);
    }
}
