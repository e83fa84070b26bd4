//! The Migrate tab's page, computed in the worker: what changed from the deployed baseline to
//! the open design (`keyplan_core::diff`, `keyplan diff`'s words), every verdict that changed,
//! and core's migration plan (`keyplan_core::migrate`, `keyplan migrate`'s steps in expand /
//! migrate / contract order with their items, units, cost and duration); and the plan as a
//! program (`keyplan migrate --to typescript|python`). The item counts are the entities'
//! volumes, the open design's before the deployed one's; the durations are at the write rate
//! asked (`--max-wcu`). The steps are drawn as a timeline ([`crate::chart`]).

use keyplan_core::Design;
use keyplan_core::diff::diff;
use keyplan_core::migrate::code::{Language, generate};
use keyplan_core::migrate::{MigrationPlan, PlanConfig, Step, duration, plan, units};
use keyplan_core::pricing::cents;
use serde::{Deserialize, Serialize};

use crate::chart::{Bar, Chart, Row};

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

impl StepRow {
    fn of(s: Step) -> StepRow {
        // A step whose items are not counted costs what they are: unknown (or too large),
        // never $0 or 0 s.
        let uncounted = s.items.is_none().then(|| s.items_text());
        StepRow {
            items: s.items_text(),
            phase: s.phase.name().to_string(),
            kind: s.kind.name().to_string(),
            read_units: uncounted.clone().unwrap_or_else(|| units(s.read_units)),
            write_units: uncounted.clone().unwrap_or_else(|| units(s.write_units)),
            // Nor is a vector index's backfill, which has no published price (issue 40).
            cost: (s.unpriced().map(str::to_string))
                .or_else(|| uncounted.clone())
                .unwrap_or_else(|| cents(s.cost)),
            duration: (s.unpriced().map(|_| "not estimated".to_string()))
                .or(uncounted)
                .unwrap_or_else(|| duration(s.seconds)),
            action: s.action,
            why: s.why,
        }
    }
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
    /// The entities whose items the steps count, known or not: a field each.
    pub counted: Vec<String>,
    /// The steps in order, each from where the one before ends, with its duration.
    pub timeline: Chart,
}

fn config(max_wcu: f64) -> PlanConfig {
    PlanConfig {
        max_wcu,
        ..PlanConfig::default()
    }
}

/// The steps of `plan` as a timeline: each bar starts where the one before ended and is as
/// long as the step takes at the plan's write rate; a step whose items are not counted has no
/// bar, and says why.
fn timeline(plan: &MigrationPlan, rows: &[StepRow]) -> Chart {
    let mut start = 0.0;
    let rows = plan
        .steps
        .iter()
        .zip(rows)
        .enumerate()
        .map(|(i, (step, row))| {
            let value = step.items.map(|_| step.seconds);
            let bar = Bar {
                start,
                value,
                text: row.duration.clone(),
            };
            start += value.unwrap_or(0.0);
            Row {
                label: format!("{}. {}", i + 1, step.action),
                bars: vec![bar],
                marked: false,
                note: None,
            }
        })
        .collect();
    Chart {
        title: format!(
            "The steps in order at {} WCU/s: {} in all",
            units(plan.max_wcu),
            counted_sum(plan, duration(plan.seconds))
        ),
        label_heading: "Step".to_string(),
        series: vec!["Duration".to_string()],
        rows,
        limit: None,
        more: None,
    }
}

/// A sum over `plan`'s steps, `sum` in words: as it is when every step's items are counted,
/// "unknown" when none is, and "at least" the counted steps' when some are not (issue 43: a
/// plan of uncounted steps totalled "$0.00" and "0 s").
fn counted_sum(plan: &MigrationPlan, sum: String) -> String {
    let uncounted = plan.steps.iter().filter(|s| s.items.is_none()).count();
    match uncounted {
        0 => sum,
        n if n == plan.steps.len() => "unknown".to_string(),
        _ => format!("at least {sum}"),
    }
}

/// The plan's totals in a line: read and write units, on-demand cost, and the time it takes.
fn totals(plan: &MigrationPlan) -> String {
    format!(
        "{} RRU, {} WRU, {} on demand, {} at {} WCU/s",
        counted_sum(plan, units(plan.read_units)),
        counted_sum(plan, units(plan.write_units)),
        counted_sum(plan, cents(plan.cost)),
        counted_sum(plan, duration(plan.seconds)),
        units(plan.max_wcu)
    )
}

/// The page for the change from `old` to `new`, its durations at `max_wcu` write units a
/// second.
pub fn page(old: &Design, new: &Design, max_wcu: f64) -> MigratePage {
    let changed = diff(old, new);
    let plan = plan(old, new, &config(max_wcu));
    let steps: Vec<StepRow> = plan.steps.iter().cloned().map(StepRow::of).collect();
    MigratePage {
        unchanged: changed.is_empty(),
        summary: changed.summary(),
        verdicts: changed
            .verdicts
            .iter()
            .map(|v| (v.line(), v.regression))
            .collect(),
        changes: changed.text(),
        totals: totals(&plan),
        timeline: timeline(&plan, &steps),
        steps,
        counted: plan.counted,
    }
}

/// The plan from `old` to `new` as a program in `language` (`typescript` or `python`).
pub fn program(old: &Design, new: &Design, max_wcu: f64, language: &str) -> Result<String, String> {
    let language =
        Language::parse(language).ok_or_else(|| format!("no program language `{language}`"))?;
    let plan = plan(old, new, &config(max_wcu));
    generate(old, new, &plan, language)
}

#[cfg(test)]
mod tests {
    use keyplan_core::migrate::DEFAULT_MAX_WCU;

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
            max_wcu: DEFAULT_MAX_WCU,
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
                max_wcu: DEFAULT_MAX_WCU,
                language: "python".into()
            }),
            expected
        );
        assert!(matches!(
            worker.answer(Program { old, new, max_wcu: DEFAULT_MAX_WCU, language: "cobol".into() }),
            Err(e) if e.contains("cobol")
        ));
    }

    #[test]
    fn no_change_is_said() {
        let old = keyplan_core::examples::first();
        let page = page(&old, &old, DEFAULT_MAX_WCU);
        assert!(page.unchanged);
        assert!(page.steps.is_empty());
    }

    // issue 41: items past what keyplan counts showed as "unknown" (and panicked before that).
    #[test]
    fn items_too_large_to_count_are_shown_too_large() {
        let (old, new) = rekeyed(Some(u64::MAX));
        let page = page(&old, &new, DEFAULT_MAX_WCU);
        let rekey = page
            .steps
            .iter()
            .find(|s| s.kind == "re-key")
            .expect("the order is re-keyed");
        assert_eq!(rekey.items, "too large");
    }

    // issue 40: a vector index's backfill is metered in vector write bytes, which have no
    // published price: its row says so instead of "$0.00" and "0 s".
    #[test]
    fn a_vector_index_added_is_a_step_not_priced_not_free() {
        let old = keyplan_core::examples::first();
        let mut new = old.clone();
        let table = &new.entities[0].table.clone();
        new.entities[0]
            .attributes
            .push(keyplan_core::model::Attribute::new(
                "embedding",
                keyplan_core::model::AttrType::L,
            ));
        let old = {
            let mut old = old;
            old.entities[0] = new.entities[0].clone();
            old
        };
        new.tables
            .iter_mut()
            .find(|t| &t.name == table)
            .expect("the entity's table")
            .vector_indexes
            .push(keyplan_core::model::VectorIndex {
                name: "ByEmbedding".into(),
                attribute: "embedding".into(),
                dimensions: 8,
                distance: Default::default(),
                projection: keyplan_core::model::Projection::KeysOnly,
            });
        let page = page(&old, &new, DEFAULT_MAX_WCU);
        let step = page
            .steps
            .iter()
            .find(|s| s.action.starts_with("Create vector index ByEmbedding"))
            .expect("the vector index is planned");
        assert_eq!(
            (step.cost.as_str(), step.duration.as_str()),
            ("not priced: no published price", "not estimated"),
            "{step:?}"
        );
    }

    /// The order example re-keyed by status, `orders` orders in the open design.
    fn rekeyed(orders: Option<u64>) -> (Design, Design) {
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
        order.volume = orders.map(keyplan_core::model::Volume::items);
        (old, new)
    }

    // issue 43 item 5: the tab counted only items typed into it, at one write rate, and showed
    // money to four places ("$4.5458") and an uncounted step as "$0.0000" and "0 s".
    #[test]
    fn the_open_designs_volumes_count_at_the_rate_asked_and_money_is_in_cents() {
        let (old, new) = rekeyed(None);
        let unknown = page(&old, &new, DEFAULT_MAX_WCU);
        let rekey = unknown
            .steps
            .iter()
            .find(|s| s.kind == "re-key")
            .expect("a re-key");
        assert_eq!(
            (
                rekey.items.as_str(),
                rekey.cost.as_str(),
                rekey.duration.as_str()
            ),
            ("unknown", "unknown", "unknown")
        );
        // Nor its units, nor the totals over it (issue 43, item 4).
        assert_eq!(
            (rekey.read_units.as_str(), rekey.write_units.as_str()),
            ("unknown", "unknown")
        );
        for text in [&unknown.totals, &unknown.timeline.title] {
            assert!(
                !text.contains("$0.00") && !text.contains(" 0 s") && !text.starts_with("0 "),
                "{text}"
            );
        }
        assert!(
            unknown.counted.iter().any(|e| e == "Order"),
            "{:?}",
            unknown.counted
        );

        let (old, new) = rekeyed(Some(3_000_000));
        let fast = page(&old, &new, DEFAULT_MAX_WCU);
        let slow = page(&old, &new, 100.0);
        let step = |p: &MigratePage| {
            p.steps
                .iter()
                .find(|s| s.kind == "re-key")
                .cloned()
                .expect("a re-key")
        };
        assert_eq!(step(&fast).items, "3,000,000");
        let expected = plan(&old, &new, &PlanConfig::default());
        let cost = expected
            .steps
            .iter()
            .find(|s| s.entity.as_deref() == Some("Order"))
            .expect("the re-key")
            .cost;
        assert_eq!(step(&fast).cost, keyplan_core::pricing::cents(cost));
        assert!(step(&fast).cost.contains(',') || cost < 1000.0);
        assert_eq!(
            step(&fast).cost.rsplit('.').next().map(str::len),
            Some(2),
            "{}",
            step(&fast).cost
        );
        assert_ne!(step(&fast).duration, step(&slow).duration);
        assert!(slow.totals.ends_with("at 100 WCU/s"), "{}", slow.totals);
    }

    // issue 43 item 7: the steps as a timeline, each from where the one before ended, as long
    // as it takes; an uncounted step draws no bar and says so.
    #[test]
    fn the_steps_are_a_timeline_of_their_durations() {
        let (old, mut new) = rekeyed(Some(3_000_000));
        // A second, uncounted step: the customers re-keyed too, their count unknown.
        let customer = new
            .entities
            .iter_mut()
            .find(|e| e.name == "Customer")
            .expect("customers");
        customer.keys.insert(
            "SK".to_string(),
            keyplan_core::KeyTemplate::parse("CUSTOMER#{customerId}"),
        );
        let page = page(&old, &new, 100.0);
        let plan = plan(&old, &new, &config(100.0));
        let chart = &page.timeline;
        assert_eq!(chart.rows.len(), plan.steps.len());
        let mut ends = 0.0;
        for ((row, step), shown) in chart.rows.iter().zip(&plan.steps).zip(&page.steps) {
            let bar = &row.bars[0];
            assert_eq!(bar.start, ends, "{}", row.label);
            assert_eq!(bar.text, shown.duration);
            assert!(row.label.ends_with(&step.action), "{}", row.label);
            match step.items {
                Some(_) => assert_eq!(bar.value, Some(step.seconds)),
                None => assert_eq!((bar.value, bar.text.as_str()), (None, "unknown")),
            }
            ends += bar.value.unwrap_or(0.0);
        }
        assert!(
            plan.steps.iter().any(|s| s.items.is_none()),
            "{}",
            plan.text()
        );
        assert!(
            chart
                .title
                .ends_with(&format!("{} in all", duration(plan.seconds))),
            "{}",
            chart.title
        );
    }
}
