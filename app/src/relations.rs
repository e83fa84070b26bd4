//! Relationships the canvas draws as lines, implied by shared key variables: an Order's
//! `customerId` points at the Customer whose primary key is built from `customerId`.
//!
//! An entity's identity is the last variable of its primary key (Customer: `customerId`;
//! Order: `orderId`). Another entity that carries that variable, in a key template or as an
//! id-like attribute, refers to it. Nothing is stored: lines are recomputed from the design.

use std::collections::{HashMap, HashSet};

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

/// Every relationship, in design order, each pair at most once.
///
/// Worked out on every edit the canvas shows (issue 19), so each entity looks up only the
/// variables it carries among the identities, instead of every identity among its variables
/// (100 entities: 10,000 pairs, each a hash of the identity's name).
pub fn relations(design: &Design) -> Vec<Relation> {
    let identity_of: Vec<Option<String>> = design
        .entities
        .iter()
        .map(|e| identity(design, e))
        .collect();
    let identities: Vec<(usize, &str, bool)> = identity_of
        .iter()
        .enumerate()
        .filter_map(|(i, id)| id.as_deref().map(|id| (i, id, id_like(id))))
        .collect();
    // Which identities (positions in `identities`) each variable name is.
    let mut by_name: HashMap<&str, Vec<usize>> = HashMap::with_capacity(identities.len());
    for (k, &(_, via, _)) in identities.iter().enumerate() {
        by_name.entry(via).or_default().push(k);
    }
    // The pairs related so far, by name, each in one order: room for one per entity made at
    // once, where growing it rehashed every pair on most keystrokes.
    let mut pairs: HashSet<(&str, &str)> = HashSet::with_capacity(design.entities.len());
    let mut out: Vec<Relation> = Vec::new();
    // The identities the entity carries, in identity order, and whether in a key template.
    let mut carried: Vec<(usize, bool)> = Vec::new();
    for (i, from) in design.entities.iter().enumerate() {
        carried.clear();
        let key_vars = from
            .keys
            .values()
            .flat_map(|t| t.attribute_vars().map(|v| (v.name.as_str(), true)));
        let attributes = from.attributes.iter().map(|a| (a.name.as_str(), false));
        for (name, in_keys) in key_vars.chain(attributes) {
            if let Some(ks) = by_name.get(name) {
                carried.extend(ks.iter().map(|&k| (k, in_keys)));
            }
        }
        // In identity order, a key variable first where it is also an attribute.
        carried.sort_unstable_by_key(|&(k, in_keys)| (k, !in_keys));
        carried.dedup_by_key(|&mut (k, _)| k);
        // An entity whose own identity is `via` too is a sibling, not a reference.
        let own = identity_of[i].as_deref();
        for &(k, in_keys) in &carried {
            let (j, via, id_like) = identities[k];
            // It is an id, or a key variable of the referrer.
            if i == j || own == Some(via) || !(id_like || in_keys) {
                continue;
            }
            let to = &design.entities[j];
            let (a, b) = (from.name.as_str(), to.name.as_str());
            if pairs.insert(if a <= b { (a, b) } else { (b, a) }) {
                out.push(Relation {
                    from: from.name.clone(),
                    to: to.name.clone(),
                    via: via.to_string(),
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

    /// The relations as they were first written, pair by pair: what the faster
    /// [`relations`] must give.
    fn one_pair_at_a_time(design: &Design) -> Vec<Relation> {
        let uses_in_keys = |entity: &Entity, var: &str| {
            entity
                .keys
                .values()
                .any(|t| t.attribute_vars().any(|v| v.name == var))
        };
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
                let carries = from.attribute(via).is_some() || uses_in_keys(from, via);
                if !carries || !(id_like(via) || uses_in_keys(from, via)) {
                    continue;
                }
                let own = identities.iter().find(|(k, _)| *k == i).map(|(_, id)| id);
                if own == Some(via) {
                    continue;
                }
                let seen = out.iter().any(|r| {
                    (r.from == to.name && r.to == from.name)
                        || (r.from == from.name && r.to == to.name)
                });
                if !seen {
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

    #[test]
    fn the_relations_are_those_found_one_pair_at_a_time() {
        let mut designs: Vec<Design> = keyplan_core::examples::all()
            .into_iter()
            .map(|(_, d)| d)
            .collect();
        designs.push(keyplan_core::generated::design(60));
        // Two entities of one name, and one whose identity another carries as a key variable.
        let mut twins = keyplan_core::examples::first();
        let mut copy = twins.entities[1].clone();
        copy.keys.clear();
        twins.entities.push(copy);
        // An identity that is not id-like (`email`): carried as a key variable it relates, as
        // a plain attribute it does not.
        let table = twins.tables[0].name.clone();
        let entity = |name: &str, keys: &[(&str, &str)]| {
            let mut e = Entity {
                name: name.to_string(),
                table: table.clone(),
                description: String::new(),
                attributes: vec![keyplan_core::Attribute::new(
                    "email",
                    keyplan_core::AttrType::S,
                )],
                keys: Default::default(),
                volume: None,
            };
            for (key, template) in keys {
                e.keys
                    .insert(key.to_string(), keyplan_core::KeyTemplate::parse(template));
            }
            e
        };
        twins.entities.push(entity(
            "Account",
            &[("PK", "ACCOUNT#{email}"), ("SK", "ACCOUNT")],
        ));
        twins.entities.push(entity(
            "Login",
            &[("PK", "LOGIN#{loginId}"), ("SK", "LOGIN")],
        ));
        twins.entities.push(entity(
            "Session",
            &[("PK", "SESSION#{email}"), ("SK", "S#{sessionId}")],
        ));
        designs.push(twins);
        let mut related = 0;
        for design in designs {
            let expected = one_pair_at_a_time(&design);
            related += expected.len();
            assert_eq!(relations(&design), expected, "{}", design.name);
        }
        assert!(
            related > 10,
            "the designs have relations to compare: {related}"
        );
    }

    #[test]
    fn an_entity_never_relates_to_itself() {
        let design = keyplan_core::examples::first();
        assert!(relations(&design).iter().all(|r| r.from != r.to));
    }
}
