//! A design with its keys taken out: what `keyplan design` starts from when nothing is pinned,
//! and the input of its benchmark (`scripts/design-bench`) and tests, which strip a hand design
//! and compare the proposal with it.
//!
//! Kept: the tables with their key attribute names and types (patterns' conditions name them,
//! `attribute_not_exists(PK)`, and the synthesis keeps what the input fixes), their billing,
//! TTL and replicas; the entities' attributes and volumes; the patterns; the canvas layout.
//! Removed: every entity's key templates, every GSI and LSI, and the imported sample items
//! (they carry the old keys' values; the sample generator makes new ones from the attributes).
//! A table key named as an entity's attribute (`customerId`) stays filled by that attribute, as
//! the design file's rules say. Pure: no IO.

use crate::model::Design;

/// `design` with every key template, GSI, LSI and imported sample item removed.
pub fn strip(design: &Design) -> Design {
    let mut out = design.clone();
    out.samples.clear();
    for entity in &mut out.entities {
        entity.keys.clear();
    }
    for table in &mut out.tables {
        table.gsis.clear();
        table.lsis.clear();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stripped_example_keeps_its_tables_entities_and_patterns_and_loses_every_template_and_index()
     {
        for (slug, design) in crate::examples::all() {
            let stripped = strip(&design);
            assert_eq!(stripped.patterns, design.patterns, "{slug}");
            assert_eq!(stripped.entities.len(), design.entities.len(), "{slug}");
            for (before, after) in design.entities.iter().zip(&stripped.entities) {
                assert_eq!(after.attributes, before.attributes, "{slug}");
                assert_eq!(after.volume, before.volume, "{slug}");
                assert!(after.keys.is_empty(), "{slug}: {}", after.name);
            }
            for (before, after) in design.tables.iter().zip(&stripped.tables) {
                assert!(after.gsis.is_empty() && after.lsis.is_empty(), "{slug}");
                assert_eq!(after.partition_key, before.partition_key, "{slug}");
                assert_eq!(after.sort_key, before.sort_key, "{slug}");
            }
            assert!(stripped.samples.is_empty(), "{slug}");
        }
    }
}
