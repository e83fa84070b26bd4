//! What an entity card shows, computed from the design: plain data the card renders as is.
//! Each index of a table gets a colour slot (the table itself 0, then its GSIs, then its
//! LSIs), so a key row, a table-frame chip and a verdict badge of one index share a colour.

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

/// A card's content with what it was worked out from: the entity and its table, the only parts
/// of the design a card shows.
#[derive(Debug, PartialEq)]
pub struct Card {
    source: Option<(Entity, Option<Table>)>,
    pub data: Option<CardData>,
}

impl Card {
    /// The card of entity `name` in `design`, and whether it differs from `last`: worked out
    /// again only when the entity or its table changed (issue 19: a keystroke in one key
    /// template worked out every card of the canvas again, 100 on the benchmark design, to
    /// find 99 of them the same).
    pub fn again(last: Option<Card>, design: &Design, name: &str) -> (Card, bool) {
        let entity = design.entity(name);
        let table = entity.and_then(|e| design.table(&e.table));
        let unchanged = last
            .as_ref()
            .is_some_and(|last| match (&last.source, entity) {
                (Some((e, t)), Some(entity)) => e == entity && t.as_ref() == table,
                (None, None) => true,
                _ => false,
            });
        match last {
            Some(last) if unchanged => (last, false),
            last => {
                let card = Card {
                    source: entity.map(|e| (e.clone(), table.cloned())),
                    data: entity.map(|e| card_of(e, table)),
                };
                let changed = last.is_none_or(|last| last.data != card.data);
                (card, changed)
            }
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

    // issue 19: a card is worked out again when its entity or its table changed, and only then;
    // what it says is always the card of the design as it is.
    #[test]
    fn a_card_is_worked_out_again_when_its_entity_or_table_changed() {
        let mut design = keyplan_core::examples::first();
        let (order, changed) = Card::again(None, &design, "Order");
        assert!(changed);
        assert_eq!(order.data, card(&design, "Order"));
        let (order, changed) = Card::again(Some(order), &design, "Order");
        assert!(!changed, "nothing changed");

        // Another entity's key template: not this card's.
        set_template(&mut design, "Customer", "PK", "C#{customerId}");
        let (order, changed) = Card::again(Some(order), &design, "Order");
        assert!(!changed);
        assert_eq!(order.data, card(&design, "Order"));

        // Its own key template, then its table.
        set_template(&mut design, "Order", "SK", "O#{orderId}");
        let (order, changed) = Card::again(Some(order), &design, "Order");
        assert!(changed);
        assert_eq!(order.data, card(&design, "Order"));
        design.tables[0].gsis.remove(1);
        let (order, changed) = Card::again(Some(order), &design, "Order");
        assert!(changed, "GSI2 gone: its key rows are gone");
        assert_eq!(order.data, card(&design, "Order"));

        // Gone.
        design.entities.retain(|e| e.name != "Order");
        let (order, changed) = Card::again(Some(order), &design, "Order");
        assert!(changed);
        assert_eq!(order.data, None);
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
