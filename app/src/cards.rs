//! What an entity card shows, computed from the design: plain data the card renders as is.
//! Each index of a table gets a colour slot (the table itself 0, then its GSIs, then its
//! LSIs), so a key row, a table-frame chip and a verdict badge of one index share a colour.

use keyplan_core::{AttrType, Design, IndexKind};

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

pub fn type_label(ty: AttrType) -> &'static str {
    ty.as_str()
}

/// The colour slot of `index` (None: the table) in `table`.
pub fn slot(design: &Design, table: &str, index: Option<&str>) -> usize {
    design
        .table(table)
        .and_then(|t| t.indexes().iter().position(|i| i.name == index))
        .unwrap_or(0)
        % N_COLOURS
}

/// The card of entity `name`, or `None` when there is no such entity.
pub fn card(design: &Design, name: &str) -> Option<CardData> {
    let entity = design.entity(name)?;
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
    if let Some(table) = design.table(&entity.table) {
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
    Some(CardData {
        name: entity.name.clone(),
        table: entity.table.clone(),
        attributes,
        keys,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
