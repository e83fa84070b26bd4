//! The Migrate tab's page, computed in the worker: what changed from the deployed baseline to
//! the open design (`keyplan_core::diff`, `keyplan diff`'s words), every verdict that changed,
//! and core's migration plan (`keyplan_core::migrate`, `keyplan migrate`'s steps in expand /
//! migrate / contract order with their items, units, cost and duration); and the plan as a
//! program (`keyplan migrate --to typescript|python`).

use std::collections::BTreeMap;

use keyplan_core::Design;
use keyplan_core::diff::diff;
use keyplan_core::migrate::code::{Language, generate};
use keyplan_core::migrate::{PlanConfig, duration, plan, units};
use serde::{Deserialize, Serialize};

/// One step of the plan, in words and figures.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StepRow {
    pub phase: String,
    pub kind: String,
    pub action: String,
    pub why: String,
    pub items: String,
    pub read_units: String,
    pub write_units: String,
    pub cost: String,
    pub duration: String,
}

/// Everything the Migrate tab shows about the change since the baseline.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MigratePage {
    /// True when nothing changed since the baseline.
    pub unchanged: bool,
    pub summary: String,
    /// Each verdict that changed, and whether it is a regression.
    pub verdicts: Vec<(String, bool)>,
    /// Every change, `keyplan diff`'s text.
    pub changes: String,
    pub steps: Vec<StepRow>,
    pub totals: String,
    /// The entities whose volume is unknown, so their steps count nothing.
    pub unknown_volumes: Vec<String>,
}

fn config(items: BTreeMap<String, u64>) -> PlanConfig {
    PlanConfig {
        items,
        ..PlanConfig::default()
    }
}

/// The page for the change from `old` to `new`, with `items` per entity where given.
pub fn page(old: &Design, new: &Design, items: BTreeMap<String, u64>) -> MigratePage {
    let changed = diff(old, new);
    let plan = plan(old, new, &config(items));
    MigratePage {
        unchanged: changed.is_empty(),
        summary: changed.summary(),
        verdicts: changed
            .verdicts
            .iter()
            .map(|v| (v.line(), v.regression))
            .collect(),
        changes: changed.text(),
        totals: format!(
            "{} RRU, {} WRU, ${:.4} on demand, {} at {} WCU/s",
            units(plan.read_units),
            units(plan.write_units),
            plan.cost,
            duration(plan.seconds),
            units(plan.max_wcu)
        ),
        steps: plan
            .steps
            .into_iter()
            .map(|s| StepRow {
                items: s.items_text(),
                phase: s.phase.name().to_string(),
                kind: s.kind.name().to_string(),
                action: s.action,
                why: s.why,
                read_units: units(s.read_units),
                write_units: units(s.write_units),
                cost: format!("${:.4}", s.cost),
                duration: duration(s.seconds),
            })
            .collect(),
        unknown_volumes: plan.unknown_volumes,
    }
}

/// The plan from `old` to `new` as a program in `language` (`typescript` or `python`).
pub fn program(
    old: &Design,
    new: &Design,
    items: BTreeMap<String, u64>,
    language: &str,
) -> Result<String, String> {
    let language =
        Language::parse(language).ok_or_else(|| format!("no program language `{language}`"))?;
    let plan = plan(old, new, &config(items));
    generate(old, new, &plan, language)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jobs::{Migrate, Program, Worker};

    #[test]
    fn adding_the_suggested_gsi_is_planned_and_written_as_a_program() {
        let old = keyplan_core::examples::first();
        let mut new = old.clone();
        let suggested = keyplan_core::analyze(&new)
            .verdicts
            .iter()
            .find_map(|v| v.suggestions.first().cloned())
            .map(|s| keyplan_core::Suggestion { index: None, ..s })
            .expect("the example offers a GSI");
        let edit = suggested.edit(&new).expect("it fits");
        keyplan_core::history::History::new()
            .apply(&mut new, edit)
            .expect("the suggestion applies");
        let mut worker = Worker::default();
        let page = worker.answer(Migrate {
            old: old.clone(),
            new: new.clone(),
            items: BTreeMap::new(),
        });
        assert!(!page.unchanged);
        assert!(
            page.steps
                .iter()
                .any(|s| s.kind == "online" && s.action.starts_with("Create GSI")),
            "{:?}",
            page.steps
        );
        assert!(page.verdicts.iter().any(|(_, regression)| !regression));
        let expected = generate(
            &old,
            &new,
            &plan(&old, &new, &PlanConfig::default()),
            Language::Python,
        );
        assert_eq!(
            worker.answer(Program {
                old: old.clone(),
                new: new.clone(),
                items: BTreeMap::new(),
                language: "python".into()
            }),
            expected
        );
        assert!(matches!(
            worker.answer(Program { old, new, items: BTreeMap::new(), language: "cobol".into() }),
            Err(e) if e.contains("cobol")
        ));
    }

    #[test]
    fn no_change_is_said() {
        let old = keyplan_core::examples::first();
        let page = page(&old, &old, BTreeMap::new());
        assert!(page.unchanged);
        assert!(page.steps.is_empty());
    }

    // issue 41: items past what keyplan counts showed as "unknown" (and panicked before that).
    #[test]
    fn items_too_large_to_count_are_shown_too_large() {
        let old = keyplan_core::examples::first();
        let mut new = old.clone();
        let order = new
            .entities
            .iter_mut()
            .find(|e| e.name == "Order")
            .expect("the example has orders");
        order.keys.insert(
            "SK".to_string(),
            keyplan_core::KeyTemplate::parse("ORDER#{status}#{orderId}"),
        );
        let items = BTreeMap::from([("Order".to_string(), u64::MAX)]);
        let page = page(&old, &new, items);
        let rekey = page
            .steps
            .iter()
            .find(|s| s.kind == "re-key")
            .expect("the order is re-keyed");
        assert_eq!(rekey.items, "too large");
    }
}
