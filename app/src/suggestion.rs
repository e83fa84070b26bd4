//! Turning coverage's structured suggestion of a GSI into the edit that adds it, so one
//! click fixes a Scan: core's [`Suggestion::edit`], the one `keyplan check --fix` applies.

use keyplan_core::edit::Edit;
use keyplan_core::{Design, Suggestion};

/// The edit adding the suggested GSI to the table of the entities it names; `None` for another
/// kind of advice (an LSI, the table's key), which no edit of an existing table can follow.
pub fn apply_edit(design: &Design, suggestion: &Suggestion) -> Option<Edit> {
    suggestion.edit(design)
}

#[cfg(test)]
mod tests {
    use super::*;
    use keyplan_core::{AccessPattern, SuggestionKind, analyze};

    /// The suggestion core makes for a read of Customer by email, on the first example.
    fn by_email() -> (Design, Suggestion) {
        let mut design = keyplan_core::examples::first();
        design
            .patterns
            .push(AccessPattern::read("by email", &["Customer"], &["email"]));
        let suggestion = analyze(&design)
            .verdicts
            .into_iter()
            .find(|v| v.pattern == "by email")
            .and_then(|v| v.suggestions.into_iter().next())
            .expect("a Scan with a suggestion");
        (design, suggestion)
    }

    #[test]
    fn the_added_gsi_takes_the_next_free_number_and_serves_the_pattern() {
        let (design, mut suggestion) = by_email();
        assert_eq!(suggestion.kind, SuggestionKind::Gsi);
        // A new GSI, not the existing one core would overload first (issue 43).
        suggestion.index = None;
        let edit = apply_edit(&design, &suggestion).expect("an edit");
        let mut after = design.clone();
        keyplan_core::edit::apply(&mut after, edit).expect("applies");
        let table = after.table("orders").expect("table");
        assert!(table.gsi("GSI4").is_some());
        let customer = after.entity("Customer").expect("Customer");
        assert_eq!(
            Some(customer.keys["GSI4PK"].source()),
            suggestion.partition.as_deref()
        );
        let verdict = analyze(&after)
            .verdicts
            .into_iter()
            .find(|v| v.pattern == "by email")
            .expect("verdict");
        assert!(verdict.covered, "{verdict:?}");
        assert_eq!(verdict.index.as_deref(), Some("GSI4"));
    }

    #[test]
    fn a_gsi_the_entity_does_not_fill_is_used_before_a_new_one() {
        let (design, suggestion) = by_email();
        assert_eq!(suggestion.index.as_deref(), Some("GSI1"));
        assert_eq!(suggestion.action(), "Use GSI1");
        let edit = apply_edit(&design, &suggestion).expect("an edit");
        let mut after = design.clone();
        keyplan_core::edit::apply(&mut after, edit).expect("applies");
        assert_eq!(after.table("orders").expect("table").gsis.len(), 3);
        let verdict = analyze(&after)
            .verdicts
            .into_iter()
            .find(|v| v.pattern == "by email")
            .expect("verdict");
        assert_eq!(verdict.index.as_deref(), Some("GSI1"), "{verdict:?}");
    }

    #[test]
    fn an_lsi_or_table_key_suggestion_has_no_edit() {
        let (design, mut suggestion) = by_email();
        suggestion.kind = SuggestionKind::Lsi;
        assert_eq!(apply_edit(&design, &suggestion), None);
        suggestion.kind = SuggestionKind::TableKey;
        assert_eq!(apply_edit(&design, &suggestion), None);
    }
}
