//! Turning coverage's suggestion ("a GSI with partition key `STATUS#{status}` and sort key
//! `{createdAt}` would serve it") into the edit that adds that GSI, so one click fixes a Scan.
//!
//! The edit is a single [`Edit::Batch`]: the new index (named `GSI<n>`, keyed on `GSI<n>PK` and
//! `GSI<n>SK`, the next free number) and the key templates of every entity the pattern reads.

use keyplan_core::edit::Edit;
use keyplan_core::{AccessPattern, Design, Gsi, KeyAttribute, KeyTemplate, KeyType, Projection};

/// The key templates a GSI suggestion names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GsiSuggestion {
    pub partition: String,
    pub sort: Option<String>,
}

/// Reads a suggestion of a GSI; `None` for any other advice (an LSI, a table key).
pub fn parse(text: &str) -> Option<GsiSuggestion> {
    let rest = text.strip_prefix("a GSI with partition key `")?;
    let (partition, rest) = rest.split_once('`')?;
    let sort = rest
        .strip_prefix(" and sort key `")
        .and_then(|r| r.split_once('`'))
        .map(|(s, _)| s.to_string());
    Some(GsiSuggestion {
        partition: partition.to_string(),
        sort,
    })
}

/// The edit adding the suggested GSI to `table` for `pattern`'s entities.
pub fn apply_edit(
    design: &Design,
    table: &str,
    pattern: &AccessPattern,
    suggestion: &GsiSuggestion,
) -> Option<Edit> {
    let t = design.table(table)?;
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
    let sk = format!("{name}SK");
    let mut edits = vec![Edit::AddGsi {
        table: table.to_string(),
        at: t.gsis.len(),
        gsi: Gsi {
            name,
            partition_key: vec![KeyAttribute::new(&pk, KeyType::S)],
            sort_key: suggestion
                .sort
                .as_ref()
                .map(|_| vec![KeyAttribute::new(&sk, KeyType::S)])
                .unwrap_or_default(),
            projection: Projection::All,
        },
    }];
    for entity in &pattern.entities {
        if design.entity(entity).is_none() {
            continue;
        }
        edits.push(Edit::SetKeyTemplate {
            entity: entity.clone(),
            key: pk.clone(),
            template: Some(KeyTemplate::parse(&suggestion.partition)),
        });
        if let Some(sort) = &suggestion.sort {
            edits.push(Edit::SetKeyTemplate {
                entity: entity.clone(),
                key: sk.clone(),
                template: Some(KeyTemplate::parse(sort)),
            });
        }
    }
    Some(Edit::Batch(edits))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_gsi_suggestion_with_both_keys_is_read() {
        assert_eq!(
            parse(
                "a GSI with partition key `STATUS#{status}` and sort key `{createdAt}#{orderId}` would serve it"
            ),
            Some(GsiSuggestion {
                partition: "STATUS#{status}".into(),
                sort: Some("{createdAt}#{orderId}".into()),
            })
        );
        assert_eq!(
            parse("a GSI with partition key `EMAIL#{email}` would serve it").map(|s| s.sort),
            Some(None)
        );
        assert_eq!(parse("an LSI with sort key `{x}` would serve it"), None);
    }

    #[test]
    fn the_added_gsi_takes_the_next_free_number() {
        let design = keyplan_core::examples::first();
        let pattern = AccessPattern::read("by email", &["Customer"], &["email"]);
        let edit = apply_edit(
            &design,
            "orders",
            &pattern,
            &GsiSuggestion {
                partition: "EMAIL#{email}".into(),
                sort: None,
            },
        )
        .expect("an edit");
        let mut after = design.clone();
        keyplan_core::edit::apply(&mut after, edit).expect("applies");
        let table = after.table("orders").expect("table");
        assert!(table.gsi("GSI4").is_some());
        assert_eq!(
            after.entity("Customer").expect("Customer").keys["GSI4PK"].source(),
            "EMAIL#{email}"
        );
    }
}
