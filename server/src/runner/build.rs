//! From a design to a [`Plan`]: core's sample items, core's coverage verdicts, and core's
//! in-memory evaluation of every covered read, turned into concrete requests with their
//! predicted answers; every write pattern turned into requests on fresh or existing sample
//! items with the state they leave behind.
//!
//! The reads are exactly the evaluator's: the inputs it picks ([`eval::pick_inputs`]), the
//! queries it plans ([`eval::plan`]), every page it returns. Nothing here talks to an engine.

use std::collections::BTreeMap;

use keyplan_core::eval::{self, LoadItem, Store};
use keyplan_core::model::{Action, Design, Entity, KeyType, WriteStep};
use keyplan_core::sample::SampleConfig;
use keyplan_core::{AttributeValue, Item, Operation, Severity, Verdict};

use super::error::RunError;
use super::plan::{
    Check, CheckKind, ExpectedPage, KeyQuery, Plan, ReadCheck, WriteCheck, WriteRequest,
};

/// How many items of each entity to generate; entities not named get the sample default.
pub type Counts = BTreeMap<String, u32>;

/// At most this many findings are listed in a refusal, each cut to [`MAX_FINDING_CHARS`].
pub const MAX_FINDINGS_SHOWN: usize = 10;
pub const MAX_FINDING_CHARS: usize = 300;

/// The first findings, each cut short, and how many more there are (issue 13: a template with
/// 10,000 unknown variables printed one 889 KB line).
pub fn summarise(findings: &[String]) -> String {
    let mut shown: Vec<String> = findings
        .iter()
        .take(MAX_FINDINGS_SHOWN)
        .map(|f| {
            if f.chars().count() > MAX_FINDING_CHARS {
                let cut: String = f.chars().take(MAX_FINDING_CHARS).collect();
                format!("{cut}… ({} characters in all)", f.chars().count())
            } else {
                f.clone()
            }
        })
        .collect();
    if findings.len() > MAX_FINDINGS_SHOWN {
        shown.push(format!(
            "and {} more",
            thousands(findings.len() - MAX_FINDINGS_SHOWN)
        ));
    }
    shown.join("; ")
}

/// 9990 as `9,990`.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Builds the plan of a run on the sample's default seed: see [`plan_sample`].
pub fn plan(design: &Design, counts: &Counts) -> Result<Plan, RunError> {
    plan_sample(design, &SampleConfig::new(counts.clone(), None))
}

/// Builds the plan of a run on the sample `sample` configures (its seed and counts): refuses
/// a design with error findings or an unknown entity in the counts.
pub fn plan_sample(design: &Design, sample: &SampleConfig) -> Result<Plan, RunError> {
    let counts = &sample.counts;
    let analysis = keyplan_core::analyze(design);
    let errors: Vec<String> = analysis
        .findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .map(|f| format!("{} ({}): {}", f.code, f.path, f.message))
        .collect();
    if !errors.is_empty() {
        return Err(RunError::Design(summarise(&errors)));
    }
    if design.tables.is_empty() {
        return Err(RunError::Design("it has no table".to_string()));
    }
    for entity in counts.keys() {
        if design.entity(entity).is_none() {
            return Err(RunError::Design(format!(
                "`--count {entity}=...` names no entity of the design"
            )));
        }
    }
    // The same sample the app shows for the same seed and counts.
    let loads: Vec<LoadItem> = keyplan_core::sample::generate(design, sample)
        .load_items()
        .collect();
    plan_loads(design, &analysis, loads)
}

/// Builds the plan of a run on `loads`, the items already in hand (a migration's result read
/// back from the engine): the tables, the items by table, and a check per pattern.
pub fn plan_loads(
    design: &Design,
    analysis: &keyplan_core::Analysis,
    loads: Vec<LoadItem>,
) -> Result<Plan, RunError> {
    let store = Store::build(design, loads.iter().cloned());
    if let Some(rejected) = store.rejected.iter().find(|r| r.index.is_none()) {
        return Err(RunError::Design(format!(
            "a sample item of table `{}` cannot be stored: {}",
            rejected.table, rejected.reason
        )));
    }
    let mut items: BTreeMap<String, Vec<Item>> = BTreeMap::new();
    for table in store.tables() {
        items.insert(
            table.name.clone(),
            table.items().iter().map(|s| s.item.clone()).collect(),
        );
    }
    let mut checks = Vec::new();
    for (index, (pattern, verdict)) in design.patterns.iter().zip(&analysis.verdicts).enumerate() {
        let kind = match verdict.operation {
            Operation::GetItem | Operation::Query => read_check(design, &store, verdict),
            Operation::Scan => CheckKind::Skip(format!(
                "not covered: no index serves it ({})",
                verdict.reasons.join("; ")
            )),
            _ => write_check(design, &store, pattern, verdict),
        };
        checks.push(Check {
            index,
            pattern: pattern.name.clone(),
            kind,
        });
    }
    Ok(Plan {
        tables: design.tables.clone(),
        items,
        checks,
    })
}

fn read_check(design: &Design, store: &Store, verdict: &Verdict) -> CheckKind {
    let Some(pattern) = design.pattern(&verdict.pattern) else {
        return CheckKind::Skip("the verdict names no pattern".to_string());
    };
    let inputs = match eval::pick_inputs(design, store, verdict, pattern) {
        Ok(inputs) => inputs,
        Err(e) => return CheckKind::Skip(e.to_string()),
    };
    let planned = match eval::plan(design, verdict, pattern, &inputs) {
        Ok(p) => p,
        Err(e) => return CheckKind::Skip(e.to_string()),
    };
    let (Some(table_name), Some(table)) = (
        verdict.table.clone(),
        verdict.table.as_deref().and_then(|t| design.table(t)),
    ) else {
        return CheckKind::Skip("the verdict names no table".to_string());
    };
    let index_keys = table
        .indexes()
        .into_iter()
        .find(|i| i.name == verdict.index.as_deref());
    let sort_key: Vec<String> = index_keys
        .map(|i| i.sort_key.iter().map(|k| k.name.clone()).collect())
        .unwrap_or_default();
    let table_key: Vec<String> = table.primary_key().map(|k| k.name.clone()).collect();
    let mut show_first: Vec<String> = index_keys
        .map(|i| i.partition_key.iter().map(|k| k.name.clone()).collect())
        .unwrap_or_default();
    for name in sort_key.iter().chain(&table_key) {
        if !show_first.contains(name) {
            show_first.push(name.clone());
        }
    }
    let mut queries = Vec::new();
    for query in &planned.queries {
        let pages = match expected_pages(store, query, planned.operation) {
            Ok(pages) => pages,
            Err(e) => return CheckKind::Skip(format!("core cannot evaluate it: {e}")),
        };
        queries.push((
            KeyQuery {
                partition: query.partition.clone(),
                sort_equal: query.sort_equal.clone(),
                sort_condition: query
                    .sort_condition
                    .as_ref()
                    .map(|s| (s.attribute.clone(), s.op, s.values.clone())),
                filter: query.filter.clone(),
            },
            pages,
        ));
    }
    // The merged first page of a scatter-gather, as the evaluator returns it.
    let merged = if planned.queries.len() > 1 {
        match store.scatter_gather(&planned.queries) {
            Ok(m) => Some(m.items),
            Err(e) => return CheckKind::Skip(format!("core cannot evaluate it: {e}")),
        }
    } else {
        None
    };
    let first = planned.queries.first();
    CheckKind::Read(ReadCheck {
        pattern: verdict.pattern.clone(),
        operation: planned.operation,
        table: table_name,
        index: verdict.index.clone(),
        queries,
        merged,
        scan_forward: first.is_none_or(|q| q.forward),
        consistent: first.is_some_and(|q| q.consistent),
        page_size: first.and_then(|q| q.limit),
        merge_order: sort_key.into_iter().chain(table_key).collect(),
        show_first,
        inputs,
    })
}

/// Every page core's evaluation returns for `query`, following its LastEvaluatedKeys.
fn expected_pages(
    store: &Store,
    query: &eval::KeyQuery,
    operation: Operation,
) -> Result<Vec<ExpectedPage>, eval::QueryError> {
    if operation == Operation::GetItem {
        let page = store.get_item(query)?;
        return Ok(vec![ExpectedPage {
            items: page.items,
            read_units: page.read_units,
            scanned: page.scanned,
        }]);
    }
    let mut pages = Vec::new();
    let mut query = query.clone();
    loop {
        let page = store.query(&query)?;
        let next = page.last_evaluated_key.clone();
        pages.push(ExpectedPage {
            items: page.items,
            read_units: page.read_units,
            scanned: page.scanned,
        });
        match next {
            Some(key) if pages.len() < 100_000 => query.exclusive_start_key = Some(key),
            _ => return Ok(pages),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Writes

/// Sample items of one entity, in table order.
fn items_of<'a>(store: &'a Store, entity: &'a Entity) -> Vec<&'a Item> {
    store
        .table(&entity.table)
        .map(|t| {
            t.items()
                .iter()
                .filter(|s| s.entity.as_deref() == Some(entity.name.as_str()))
                .map(|s| &s.item)
                .collect()
        })
        .unwrap_or_default()
}

fn write_check(
    design: &Design,
    store: &Store,
    pattern: &keyplan_core::AccessPattern,
    verdict: &Verdict,
) -> CheckKind {
    let steps: Vec<WriteStep> = match pattern.action {
        Action::Transact => pattern.writes.clone(),
        Action::Read => return CheckKind::Skip("not a write".to_string()),
        action => pattern
            .entities
            .iter()
            .map(|e| WriteStep {
                action,
                entity: e.clone(),
                count: 1,
                condition: pattern.condition.clone(),
                changes: pattern.changes.clone(),
            })
            .collect(),
    };
    if steps.is_empty() {
        return CheckKind::Skip("the write names no entity".to_string());
    }
    let mut shared: BTreeMap<String, AttributeValue> = BTreeMap::new();
    let mut requests = Vec::new();
    let mut after = Vec::new();
    let mut repeat_fails = false;
    for (step_index, step) in steps.iter().enumerate() {
        let Some(entity) = design.entity(&step.entity) else {
            return CheckKind::Skip(format!("no entity `{}`", step.entity));
        };
        let Some(table) = design.table(&entity.table) else {
            return CheckKind::Skip(format!("no table `{}`", entity.table));
        };
        let existing = items_of(store, entity);
        let Some(base) = existing.last().copied() else {
            return CheckKind::Skip(format!("no sample item of {} to write from", entity.name));
        };
        let key_of = |item: &Item| -> Item {
            table
                .key_attributes()
                .into_iter()
                .take(1 + usize::from(table.sort_key.is_some()))
                .filter_map(|k| item.get(&k.name).map(|v| (k.name.clone(), v.clone())))
                .collect()
        };
        match step.action {
            Action::Put => {
                let mut introduced = BTreeMap::new();
                for copy in 0..step.count.max(1) {
                    let item = fresh_item(
                        design,
                        entity,
                        base,
                        &shared,
                        &mut introduced,
                        step_index,
                        copy,
                    );
                    if step
                        .condition
                        .as_deref()
                        .is_some_and(|c| c.contains("attribute_not_exists"))
                    {
                        repeat_fails = true;
                    }
                    after.push((table.name.clone(), key_of(&item), Some(item.clone())));
                    requests.push(WriteRequest::Put {
                        table: table.name.clone(),
                        item,
                        condition: step.condition.clone(),
                    });
                }
                for (k, v) in introduced {
                    shared.entry(k).or_insert(v);
                }
            }
            Action::Update => {
                let key = key_of(base);
                let mut updated = base.clone();
                let mut set = Vec::new();
                for change in &step.changes {
                    let value = changed_value(entity, change, base.get(change));
                    updated.insert(change.clone(), value.clone());
                    set.push((change.clone(), value));
                }
                // Index keys built from a changed attribute change with it (not the table's
                // own key, which an update cannot change).
                for (attribute, value) in rendered_keys(design, entity, &updated) {
                    if !key.contains_key(&attribute) && updated.get(&attribute) != Some(&value) {
                        updated.insert(attribute.clone(), value.clone());
                        set.push((attribute, value));
                    }
                }
                if set.is_empty() {
                    return CheckKind::Skip("the update changes no attribute".to_string());
                }
                after.push((table.name.clone(), key.clone(), Some(updated)));
                requests.push(WriteRequest::Update {
                    table: table.name.clone(),
                    key,
                    set,
                    condition: step.condition.clone(),
                });
            }
            Action::Delete => {
                let key = key_of(base);
                after.push((table.name.clone(), key.clone(), None));
                requests.push(WriteRequest::Delete {
                    table: table.name.clone(),
                    key,
                    condition: step.condition.clone(),
                });
            }
            Action::Read | Action::Transact => {
                return CheckKind::Skip(format!("a {:?} step cannot be written", step.action));
            }
        }
    }
    CheckKind::Write(WriteCheck {
        pattern: pattern.name.clone(),
        operation: verdict.operation,
        requests,
        after,
        repeat_fails,
    })
}

/// A new item of `entity` made from `base`: every variable of its table-key templates gets a
/// new value (the transaction's shared one if an earlier step chose it, so an order and its
/// lines agree on `orderId`), and every key template is rendered again.
fn fresh_item(
    design: &Design,
    entity: &Entity,
    base: &Item,
    shared: &BTreeMap<String, AttributeValue>,
    introduced: &mut BTreeMap<String, AttributeValue>,
    step: usize,
    copy: u32,
) -> Item {
    let mut item = base.clone();
    let Some(table) = design.table(&entity.table) else {
        return item;
    };
    let primary = table.primary_key();
    let mut vars = Vec::new();
    for key in primary {
        if let Some(template) = entity.key_template(&key.name) {
            for var in template.attribute_vars() {
                if !vars.contains(&var.name) {
                    vars.push(var.name.clone());
                }
            }
        }
    }
    for var in vars {
        let value = match shared.get(&var) {
            Some(v) => v.clone(),
            None => {
                let old = base
                    .get(&var)
                    .cloned()
                    .unwrap_or(AttributeValue::S(var.clone()));
                let new = renewed(&old, step, copy);
                if copy == 0 {
                    introduced.insert(var.clone(), new.clone());
                }
                new
            }
        };
        item.insert(var, value);
    }
    for (attribute, value) in rendered_keys(design, entity, &item) {
        item.insert(attribute, value);
    }
    item
}

/// A value no sample item has: `o-3` becomes `o-3-run1-0`, a number grows by a million.
fn renewed(old: &AttributeValue, step: usize, copy: u32) -> AttributeValue {
    match old {
        AttributeValue::N(n) => {
            let base: i64 = n.parse::<f64>().map(|f| f as i64).unwrap_or(0);
            AttributeValue::N(
                (base + 1_000_000 + (step as i64) * 1000 + i64::from(copy)).to_string(),
            )
        }
        AttributeValue::S(s) => AttributeValue::S(format!("{s}-run{step}-{copy}")),
        other => other.clone(),
    }
}

/// The value an update sets: the next of an enum's values, a number plus one, a string marked.
fn changed_value(entity: &Entity, attribute: &str, old: Option<&AttributeValue>) -> AttributeValue {
    let known = entity.attribute(attribute);
    if let Some(values) = known.map(|a| &a.values).filter(|v| !v.is_empty()) {
        let current = old.and_then(|o| o.as_key_text());
        let at = values.iter().position(|v| Some(v.as_str()) == current);
        let next = at.map_or(0, |i| (i + 1) % values.len());
        return AttributeValue::S(values[next].clone());
    }
    match old {
        Some(AttributeValue::N(n)) => {
            let value = n.parse::<f64>().unwrap_or(0.0) + 1.0;
            AttributeValue::N(format_number(value))
        }
        Some(AttributeValue::S(s)) => AttributeValue::S(format!("{s}-updated")),
        Some(AttributeValue::Bool(b)) => AttributeValue::Bool(!b),
        _ => match known.map(|a| a.ty) {
            Some(keyplan_core::AttrType::N) => AttributeValue::N("1".to_string()),
            _ => AttributeValue::S("updated".to_string()),
        },
    }
}

fn format_number(value: f64) -> String {
    if value.fract() == 0.0 && value.abs() < 1e15 {
        format!("{}", value as i64)
    } else {
        value.to_string()
    }
}

/// Every key attribute `entity` fills, rendered from `item`'s attributes (a shard variable
/// gets a shard chosen from the item's other values, stable for the same values).
fn rendered_keys(design: &Design, entity: &Entity, item: &Item) -> Vec<(String, AttributeValue)> {
    let Some(table) = design.table(&entity.table) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (attribute, template) in &entity.keys {
        let ty = table
            .key_attributes()
            .into_iter()
            .find(|k| &k.name == attribute)
            .map_or(KeyType::S, |k| k.ty);
        let seed: String = template
            .attribute_vars()
            .filter_map(|v| item.get(&v.name).and_then(|x| x.as_key_text()))
            .collect();
        let rendered = eval::render_key(template, ty, |var| match var.shards {
            Some(n) => Some(AttributeValue::S(
                (fnv(&seed) % u64::from(n.max(1))).to_string(),
            )),
            None => item.get(&var.name).cloned(),
        });
        if let Some(value) = rendered {
            out.push((attribute.clone(), value));
        }
    }
    out
}

fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    // issue 13: a refusal lists ten findings at most, each cut short.
    #[test]
    fn a_refusal_with_thousands_of_findings_is_one_short_line() {
        let findings: Vec<String> = (0..10_000)
            .map(|i| format!("unknown variable v{i}"))
            .collect();
        let text = summarise(&findings);
        assert!(text.ends_with("; and 9,990 more"), "{text}");
        assert!(text.len() < 400, "{}", text.len());
        let braces = vec![format!("bad template `{}`", "{".repeat(5_000))];
        let text = summarise(&braces);
        assert!(text.ends_with("… (5015 characters in all)"), "{text}");
        assert!(text.len() < 400, "{}", text.len());
    }
}
