//! What following a suggestion costs (issue 43: "each with its cost"): the design's monthly
//! bill with the suggestion applied against the bill now, both from [`crate::cost::estimate_sampled`]
//! on the same sample and prices; and, for a re-keyed sort key, which the items already stored
//! do not have, the one-time migration [`crate::migrate::plan`] plans (what `keyplan migrate`
//! and the Migrate tab show). Nothing here decides what a suggestion is: coverage does. Above both `cost` and `migrate`
//! (issue 42: no circle), which know nothing of each other.

use crate::answer::{Suggestion, SuggestionKind};
use crate::cost::{CostConfig, estimate_sampled};
use crate::model::Design;
use crate::pricing::dollars;
use crate::sample::SampleConfig;

/// The cost of one suggestion, against the design as it is.
#[derive(Debug, Clone, PartialEq)]
pub struct SuggestionCost {
    /// On-demand, Standard: the monthly bill now and with the suggestion applied.
    pub monthly_now: f64,
    pub monthly_after: f64,
    /// For a re-key: the migration of the stored items, `None` for an index (DynamoDB fills a
    /// new GSI itself, and its writes are in the monthly bill).
    pub migration: Option<MigrationCost>,
}

/// The one-time migration of a re-key.
#[derive(Debug, Clone, PartialEq)]
pub struct MigrationCost {
    pub cost: f64,
    pub seconds: f64,
    /// Entities whose volume is unknown: the plan counts nothing for them.
    pub unknown_volumes: Vec<String>,
}

/// What following `suggestion` costs on `design`; `None` when it has no edit (an LSI, the
/// table's key) or its edit does not apply.
pub fn suggestion_cost(
    design: &Design,
    suggestion: &Suggestion,
    sample: &SampleConfig,
    config: &CostConfig,
) -> Option<SuggestionCost> {
    let edit = suggestion.edit(design)?;
    let mut after = design.clone();
    crate::edit::apply(&mut after, edit).ok()?;
    let monthly_now = estimate_sampled(design, sample, config).monthly_total;
    let monthly_after = estimate_sampled(&after, sample, config).monthly_total;
    let migration = (suggestion.kind == SuggestionKind::SortKey).then(|| {
        let plan = crate::migrate::plan(design, &after, &Default::default());
        MigrationCost {
            cost: plan.cost,
            seconds: plan.seconds,
            // Only the re-keyed entities have items to rewrite.
            unknown_volumes: plan
                .unknown_volumes
                .into_iter()
                .filter(|e| suggestion.entities.contains(e))
                .collect(),
        }
    });
    Some(SuggestionCost {
        monthly_now,
        monthly_after,
        migration,
    })
}

impl std::fmt::Display for SuggestionCost {
    /// `$12.40 a month (now $10.00)`, then the migration's `, and a one-time migration of
    /// $3.20 over 2 min` when there is one.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} a month (now {})",
            dollars(self.monthly_after, 2),
            dollars(self.monthly_now, 2)
        )?;
        if let Some(m) = &self.migration {
            if m.unknown_volumes.is_empty() {
                write!(
                    f,
                    ", and a one-time migration of {} over {}",
                    dollars(m.cost, 2),
                    crate::migrate::duration(m.seconds)
                )?;
            } else {
                write!(
                    f,
                    ", and a one-time migration of the stored items (give {} a volume to price it)",
                    m.unknown_volumes.join(", ")
                )?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coverage::testing::design;

    // issue 43: the re-key and the index are offered each with its cost.
    #[test]
    fn a_re_key_costs_its_migration_and_an_index_its_writes_and_storage() {
        let d = design(
            "
            table orders PK SK
            entity Customer customerId | PK=CUSTOMER#{customerId} SK=PROFILE
            entity Order orderId customerId createdAt | PK=CUSTOMER#{customerId} SK=ORDER#{orderId}
            read customer_orders Order by customerId order createdAt desc page 25 rate 100
            put add_order Order rate 50
            volume Customer 1000000 200
            volume Order 200000000 400
            ",
        );
        let verdict = crate::coverage::verdicts(&d).remove(0);
        let shown: Vec<String> = verdict
            .suggestions
            .iter()
            .map(|s| {
                let cost = suggestion_cost(&d, s, &SampleConfig::default(), &CostConfig::default())
                    .map(|c| c.to_string())
                    .unwrap_or_default();
                format!("{:?}: {cost}", s.kind)
            })
            .collect();
        expect_test::expect![[r#"
            [
                "SortKey: $152.95 a month (now $428.35), and a one-time migration of $251.22 over 111 h 6 min",
                "Gsi: $257.24 a month (now $428.35)",
            ]
        "#]].assert_debug_eq(&shown);
    }
}
