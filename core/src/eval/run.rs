//! Read patterns run over the sample: planned (`plan`) with inputs given or picked
//! from the stored items (`inputs`), their queries run and their pages merged
//! ([`run_pattern`], [`run_all`]), or only counted, for the cost estimate ([`count_all`]).

use std::collections::BTreeMap;

use serde::Serialize;

use super::inputs::{EntityLookup, pick_inputs_by};
use super::plan::{PlanError, ReadPlan, plan};
use super::query::{KeyQuery, Merged};
use super::store::ItemStore;
use crate::answer::{Operation, Verdict};
use crate::model::{AccessPattern, ByName, Design};

/// The outcome of running one read pattern over the sample.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PatternRun {
    pub pattern: String,
    pub operation: Operation,
    pub inputs: BTreeMap<String, String>,
    /// Each query's key condition, written out.
    pub conditions: Vec<String>,
    /// The filter the queries share, written out (`status <> "DONE"`); `None` without one.
    pub filter: Option<String>,
    pub result: Merged,
}

/// Plans and runs one read pattern with `inputs` (or, when `None`, inputs picked from the
/// stored items).
pub fn run_pattern(
    design: &Design,
    store: &ItemStore,
    verdict: &Verdict,
    inputs: Option<BTreeMap<String, String>>,
) -> Result<PatternRun, PlanError> {
    let pattern = design
        .pattern(&verdict.pattern)
        .ok_or_else(|| PlanError::Incomplete(verdict.pattern.clone()))?;
    run_found(
        design,
        &|name| design.entity(name),
        store,
        verdict,
        pattern,
        inputs,
    )
}

/// [`run_pattern`] for the pattern `verdict` is of, found by the caller.
fn run_found(
    design: &Design,
    entity_named: EntityLookup<'_, '_>,
    store: &ItemStore,
    verdict: &Verdict,
    pattern: &AccessPattern,
    inputs: Option<BTreeMap<String, String>>,
) -> Result<PatternRun, PlanError> {
    let (inputs, plan) = inputs_and_plan(design, entity_named, store, verdict, pattern, inputs)?;
    let result = if plan.operation == Operation::GetItem {
        let mut merged = Merged {
            items: Vec::new(),
            entities: Vec::new(),
            pages: Vec::new(),
            bytes_read: 0,
            read_units: 0.0,
            scanned: 0,
        };
        for query in &plan.queries {
            let page = store.get_item(query)?;
            merged.scanned += page.scanned;
            merged.items.extend(page.items.iter().cloned());
            merged.entities.extend(page.entities.iter().cloned());
            merged.bytes_read += page.bytes_read;
            merged.read_units += page.read_units;
            merged.pages.push(page);
        }
        merged
    } else {
        let mut merged = if verdict.sorted_in_memory.is_some() {
            store.read_every_page(&plan.queries)?
        } else {
            store.scatter_gather(&plan.queries)?
        };
        if let Some(attribute) = &verdict.sorted_in_memory {
            let mut rows: Vec<_> = merged
                .items
                .drain(..)
                .zip(merged.entities.drain(..))
                .collect();
            super::sort_in_memory(
                &mut rows,
                |(item, _)| item,
                attribute,
                pattern.order == crate::model::Order::Desc,
                pattern.page_size,
            );
            (merged.items, merged.entities) = rows.into_iter().unzip();
        }
        merged
    };
    Ok(PatternRun {
        pattern: plan.pattern.clone(),
        operation: plan.operation,
        inputs,
        conditions: plan.queries.iter().map(KeyQuery::describe).collect(),
        filter: plan
            .queries
            .first()
            .map(KeyQuery::describe_filter)
            .filter(|f| !f.is_empty()),
        result,
    })
}

/// The checks of [`run_found`], the inputs (given, or picked from the stored items) and the
/// plan.
fn inputs_and_plan(
    design: &Design,
    entity_named: EntityLookup<'_, '_>,
    store: &ItemStore,
    verdict: &Verdict,
    pattern: &AccessPattern,
    inputs: Option<BTreeMap<String, String>>,
) -> Result<(BTreeMap<String, String>, ReadPlan), PlanError> {
    if !matches!(verdict.operation, Operation::GetItem | Operation::Query) {
        return Err(PlanError::NotAKeyRead(
            verdict.pattern.clone(),
            verdict.operation.as_str(),
        ));
    }
    let inputs = match inputs {
        Some(inputs) => inputs,
        None => pick_inputs_by(entity_named, store, verdict, pattern)?,
    };
    let plan = plan(design, verdict, pattern, &inputs)?;
    Ok((inputs, plan))
}

/// How many items [`run_all`]'s run of each covered read pattern returns, or why it cannot
/// run, without copying the items: the cost estimate reads only the count. Same order and
/// same errors as [`run_all`].
pub fn count_all(
    design: &Design,
    store: &ItemStore,
    verdicts: &[Verdict],
) -> Vec<(String, Result<usize, PlanError>)> {
    let by_name = ByName::new(design);
    verdicts
        .iter()
        .filter(|v| matches!(v.operation, Operation::GetItem | Operation::Query))
        .map(|v| (v.pattern.clone(), count_one(&by_name, design, store, v)))
        .collect()
}

/// How many items [`run_all`]'s run of the read pattern of `verdict` (a GetItem or a Query)
/// returns, or why it cannot run: one entry of [`count_all`], with the design's patterns and
/// entities looked up in `by_name`, which the caller has built already.
pub(crate) fn count_one(
    by_name: &ByName<'_>,
    design: &Design,
    store: &ItemStore,
    verdict: &Verdict,
) -> Result<usize, PlanError> {
    let entity_named = |name: &str| by_name.entity(name);
    let Some(pattern) = by_name.pattern(&verdict.pattern) else {
        return Err(PlanError::Incomplete(verdict.pattern.clone()));
    };
    let (_, plan) = inputs_and_plan(design, &entity_named, store, verdict, pattern, None)?;
    if plan.operation == Operation::GetItem {
        let mut items = 0;
        for query in &plan.queries {
            items += store.count_item(query)?;
        }
        Ok(items)
    } else if verdict.sorted_in_memory.is_some() {
        // Every page, as the run reads them before it sorts.
        Ok(store.read_every_page(&plan.queries)?.items.len())
    } else {
        Ok(store.count_scatter_gather(&plan.queries)?)
    }
}

/// Runs every covered read pattern (GetItem or Query) with inputs from the stored items, in
/// design order; other verdicts are skipped.
pub fn run_all(
    design: &Design,
    store: &ItemStore,
    verdicts: &[Verdict],
) -> Vec<(String, Result<PatternRun, PlanError>)> {
    let by_name = ByName::new(design);
    let entity_named = |name: &str| by_name.entity(name);
    verdicts
        .iter()
        .filter(|v| matches!(v.operation, Operation::GetItem | Operation::Query))
        .map(|v| {
            let run = match by_name.pattern(&v.pattern) {
                Some(pattern) => run_found(design, &entity_named, store, v, pattern, None),
                None => Err(PlanError::Incomplete(v.pattern.clone())),
            };
            (v.pattern.clone(), run)
        })
        .collect()
}
