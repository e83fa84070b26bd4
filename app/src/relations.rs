//! Relationships the canvas draws as lines, implied by shared key variables: an Order's
//! `customerId` points at the Customer whose primary key is built from `customerId`.
//!
//! An entity's identity is the last variable of its primary key (Customer: `customerId`;
//! Order: `orderId`). Another entity that carries that variable, in a key template or as an
//! id-like attribute, refers to it. Nothing is stored: lines are recomputed from the design.

use keyplan_core::{Design, Entity};

/// A line on the canvas: `from` refers to `to` through variable `via`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Relation {
    pub from: String,
    pub to: String,
    pub via: String,
}

/// The entity's identity ([`Entity::identity`]): the last attribute variable of its primary key.
pub fn identity(design: &Design, entity: &Entity) -> Option<String> {
    entity.identity(design.table(&entity.table)?)
}

fn id_like(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower.ends_with("id") || lower.ends_with("key")
}

fn uses_in_keys(entity: &Entity, var: &str) -> bool {
    entity
        .keys
        .values()
        .any(|t| t.attribute_vars().any(|v| v.name == var))
}

/// Every relationship, in design order, each pair at most once.
pub fn relations(design: &Design) -> Vec<Relation> {
    let identities: Vec<(usize, String)> = design
        .entities
        .iter()
        .enumerate()
        .filter_map(|(i, e)| identity(design, e).map(|id| (i, id)))
        .collect();
    let mut out: Vec<Relation> = Vec::new();
    for (i, from) in design.entities.iter().enumerate() {
        for (j, via) in &identities {
            if i == *j {
                continue;
            }
            let to = &design.entities[*j];
            // Both carry the variable, and it is an id or a key variable of the referrer.
            let carries = from.attribute(via).is_some() || uses_in_keys(from, via);
            if !carries || !(id_like(via) || uses_in_keys(from, via)) {
                continue;
            }
            // An entity whose own identity is `via` too is a sibling, not a reference.
            let own = identities.iter().find(|(k, _)| *k == i).map(|(_, id)| id);
            if own == Some(via) {
                continue;
            }
            let pair_seen = out.iter().any(|r| {
                (r.from == to.name && r.to == from.name) || (r.from == from.name && r.to == to.name)
            });
            if !pair_seen {
                out.push(Relation {
                    from: from.name.clone(),
                    to: to.name.clone(),
                    via: via.clone(),
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_order_points_at_its_customer_and_items_at_their_order() {
        let design = keyplan_core::examples::first();
        let lines: Vec<String> = relations(&design)
            .iter()
            .map(|r| format!("{} -> {} via {}", r.from, r.to, r.via))
            .collect();
        assert!(
            lines.contains(&"Order -> Customer via customerId".to_string()),
            "{lines:?}"
        );
        assert!(
            lines.contains(&"OrderItem -> Order via orderId".to_string()),
            "{lines:?}"
        );
    }

    #[test]
    fn an_entity_never_relates_to_itself() {
        let design = keyplan_core::examples::first();
        assert!(relations(&design).iter().all(|r| r.from != r.to));
    }
}
