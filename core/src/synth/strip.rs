//! A design with its keys taken out: what `keyplan design` starts from when nothing is fixed,
//! and the input of its benchmark (`scripts/design-bench`) and tests, which strip a hand design
//! and compare the proposal with it.
//!
//! Kept: the tables (by name, billing, TTL, replicas), the entities' attributes and volumes,
//! the patterns, the canvas layout. Removed: every entity's key templates, every GSI and LSI,
//! and the imported sample items (they carry the old keys' values; the sample generator makes
//! new ones from the attributes). Each table's key attributes are reset to the generic `PK` and
//! `SK`, strings: a natural key name (`customerId`) would stay filled by the entity attribute of
//! that name, so the key would not really be taken out. A name an entity of the table already
//! has as an attribute gets underscores until it is free (`PK_`), so no entity fills the key
//! by accident. Pure: no IO.

use crate::model::{Design, KeyAttribute, KeyType};

/// `design` with every key template, GSI, LSI and imported sample item removed, and each
/// table's key reset to `PK` (partition) and `SK` (sort), strings.
pub fn strip(design: &Design) -> Design {
    let mut out = design.clone();
    out.samples.clear();
    for entity in &mut out.entities {
        entity.keys.clear();
    }
    for table in &mut out.tables {
        let taken = |name: &str| {
            design
                .entities_in(&table.name)
                .any(|e| e.attribute(name).is_some())
        };
        table.partition_key = KeyAttribute::new(free_name("PK", &taken), KeyType::S);
        table.sort_key = Some(KeyAttribute::new(free_name("SK", &taken), KeyType::S));
        table.gsis.clear();
        table.lsis.clear();
    }
    out
}

/// `name`, or `name` with as many `_` appended as make it no attribute's.
fn free_name(name: &str, taken: &dyn Fn(&str) -> bool) -> String {
    let mut name = name.to_string();
    while taken(&name) {
        name.push('_');
    }
    name
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::model::{AttrType, Attribute};

    #[test]
    fn a_stripped_example_keeps_its_entities_and_patterns_and_loses_every_key_and_index() {
        for (slug, design) in crate::examples::all() {
            let stripped = strip(&design);
            assert_eq!(stripped.patterns, design.patterns, "{slug}");
            assert_eq!(stripped.entities.len(), design.entities.len(), "{slug}");
            for (before, after) in design.entities.iter().zip(&stripped.entities) {
                assert_eq!(after.attributes, before.attributes, "{slug}");
                assert_eq!(after.volume, before.volume, "{slug}");
                assert!(after.keys.is_empty(), "{slug}: {}", after.name);
            }
            for table in &stripped.tables {
                assert!(table.gsis.is_empty() && table.lsis.is_empty(), "{slug}");
                let keys: Vec<&str> = table.primary_key().map(|k| k.name.as_str()).collect();
                assert_eq!(keys, ["PK", "SK"], "{slug}");
                // No entity fills the key: the synthesis chooses it.
                assert!(
                    stripped
                        .entities_in(&table.name)
                        .all(|e| !e.fills("PK") && !e.fills("SK")),
                    "{slug}"
                );
            }
        }
    }

    #[test]
    fn a_key_name_an_entity_has_as_an_attribute_is_not_taken() {
        let mut design = crate::examples::first();
        let table = design.tables[0].name.clone();
        let entity = design
            .entities
            .iter_mut()
            .find(|e| e.table == table)
            .unwrap();
        entity.attributes.push(Attribute::new("PK", AttrType::S));
        let stripped = strip(&design);
        assert_eq!(stripped.tables[0].partition_key.name, "PK_");
        assert_eq!(stripped.tables[0].sort_key.as_ref().unwrap().name, "SK");
    }
}
