//! From a design to a [`Plan`]: core's sample items, core's coverage verdicts, and core's
//! in-memory evaluation of every covered read, turned into concrete requests with their
//! predicted answers; every write pattern turned into requests on fresh or existing sample
//! items with the state they leave behind.
//!
//! The reads are exactly the evaluator's: the inputs it picks ([`eval::pick_inputs`]), the
//! queries it plans ([`eval::plan`]), every page it returns. Nothing here talks to an engine.

use std::collections::BTreeMap;

use keyplan_core::eval::{self, ItemStore, LoadItem, PageEnd};
use keyplan_core::limits::MAX_PAGE_BYTES;
use keyplan_core::model::Design;
use keyplan_core::sample::SampleConfig;
use keyplan_core::simulate;
use keyplan_core::{AttributeValue, Item, Operation, Severity, Verdict};

use super::error::RunError;
use super::plan::{
    Check, CheckKind, ExpectedPage, InMemoryOrder, KeyQuery, OtherPaging, Plan, ReadCheck,
    RunStatement, VectorCheck, WriteCheck,
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
        .map(|f| format!("{} ({}): {}", f.code, f.place, f.message))
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
    let store = ItemStore::build(design, loads.iter().cloned());
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
    // The runner sends the writes in design order after every read: each is predicted on the
    // state the earlier ones left (issue 41).
    let mut simulation = simulate::Simulation::new(design, &store);
    for (index, (pattern, verdict)) in design.patterns.iter().zip(&analysis.verdicts).enumerate() {
        let kind = match verdict.operation {
            Operation::GetItem | Operation::Query => read_check(design, &store, verdict),
            Operation::Scan => CheckKind::Skip(format!(
                "not covered: no index serves it ({})",
                verdict.reasons.join("; ")
            )),
            // A vector search (issue 40): core's exact nearest items, which the run compares
            // with the engine's SearchVectors.
            Operation::SearchVectors => vector_check(design, &store, verdict),
            _ => write_check(&mut simulation, pattern, verdict),
        };
        checks.push(Check {
            index,
            pattern: pattern.name.clone(),
            operation: verdict.operation,
            kind,
        });
    }
    Ok(Plan {
        tables: design.tables.clone(),
        items,
        checks,
    })
}

fn vector_check(design: &Design, store: &ItemStore, verdict: &Verdict) -> CheckKind {
    let (Some(table_name), Some(table)) = (
        verdict.table.clone(),
        verdict.table.as_deref().and_then(|t| design.table(t)),
    ) else {
        return CheckKind::Skip("the verdict names no table".to_string());
    };
    match eval::vector_pattern(design, store, verdict, None) {
        Ok(search) => CheckKind::Vector(VectorCheck {
            pattern: verdict.pattern.clone(),
            table: table_name,
            table_key: table.primary_key().map(|k| k.name.clone()).collect(),
            search,
        }),
        Err(e) => CheckKind::Skip(format!("core cannot evaluate it: {e}")),
    }
}

fn read_check(design: &Design, store: &ItemStore, verdict: &Verdict) -> CheckKind {
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
        let (pages, other) = match expected_pages(store, query, planned.operation) {
            Ok(paged) => paged,
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
            other,
        ));
    }
    // The merged first page of a scatter-gather, or of a Query sorted in memory, as the
    // evaluator returns it.
    let merged = if verdict.sorted_in_memory.is_some() {
        match eval::run_pattern(design, store, verdict, Some(inputs.clone())) {
            Ok(run) => Some(run.result.items),
            Err(e) => return CheckKind::Skip(format!("core cannot evaluate it: {e}")),
        }
    } else if planned.queries.len() > 1 {
        match store.scatter_gather(&planned.queries) {
            Ok(m) => Some(m.items),
            Err(e) => return CheckKind::Skip(format!("core cannot evaluate it: {e}")),
        }
    } else {
        None
    };
    let statement = run_statement(design, verdict, &queries);
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
        sorted_in_memory: verdict
            .sorted_in_memory
            .clone()
            .map(|attribute| InMemoryOrder {
                attribute,
                page: pattern.page_size,
            }),
        merge_order: sort_key.into_iter().chain(table_key).collect(),
        show_first,
        inputs,
        statement,
    })
}

/// The statement a read given as PartiQL is also run as (issue 40): the one keyplan maps it to,
/// every value a `?` bound in the key condition's then the filter's order. Not for a
/// scatter-gather nor a Query sorted in memory, which one statement does not do.
fn run_statement(
    design: &Design,
    verdict: &Verdict,
    queries: &[(KeyQuery, Vec<ExpectedPage>, Option<OtherPaging>)],
) -> Option<Box<RunStatement>> {
    verdict.partiql.as_ref()?;
    let [(query, _, _)] = queries else {
        return None;
    };
    if verdict.sorted_in_memory.is_some() {
        return None;
    }
    let rendered = keyplan_core::partiql::render_bound(verdict, design)?;
    let table = verdict.table.as_deref()?;
    let head = format!(
        "SELECT * FROM {}",
        keyplan_core::partiql::quoted_name(table)
    );
    let after_table = rendered.statement.strip_prefix(&head)?.to_string();
    let parameters: Vec<AttributeValue> = query
        .partition
        .iter()
        .chain(&query.sort_equal)
        .map(|(_, v)| v.clone())
        .chain(query.sort_condition.iter().flat_map(|(_, _, v)| v.clone()))
        .chain(query.filter.iter().flat_map(|f| f.values.clone()))
        .collect();
    (parameters.len() == rendered.parameters.len()).then(|| {
        Box::new(RunStatement {
            after_table,
            parameters,
        })
    })
}

/// Every page core's evaluation returns for `query`, following its LastEvaluatedKeys; and,
/// when a page reads past 1 MB, how the embedded engine's page ends page it instead.
fn expected_pages(
    store: &ItemStore,
    query: &eval::KeyQuery,
    operation: Operation,
) -> Result<(Vec<ExpectedPage>, Option<OtherPaging>), eval::QueryError> {
    if operation == Operation::GetItem {
        let page = store.get_item(query)?;
        let page = ExpectedPage {
            items: page.items,
            read_units: page.read_units,
            scanned: page.scanned,
        };
        return Ok((vec![page], None));
    }
    let mut crossed = false;
    let pages = every_page(store, query, PageEnd::AfterCrossing, |page| {
        crossed |= page.bytes_read > MAX_PAGE_BYTES;
        ExpectedPage {
            items: page.items,
            read_units: page.read_units,
            scanned: page.scanned,
        }
    })?;
    // Both rules page alike unless a page read past 1 MB.
    let other = if crossed {
        let pages = every_page(store, query, PageEnd::BeforeCrossing, |page| {
            (page.items.len(), page.scanned)
        })?;
        Some(OtherPaging {
            page_items: pages.iter().map(|(items, _)| *items).collect(),
            scanned: pages.iter().map(|(_, scanned)| scanned).sum(),
        })
    } else {
        None
    };
    Ok((pages, other))
}

/// Every page of `query` with pages ended by `end`, each as `keep` keeps it, following the
/// LastEvaluatedKeys (at most 100,000 pages).
fn every_page<T>(
    store: &ItemStore,
    query: &eval::KeyQuery,
    end: PageEnd,
    mut keep: impl FnMut(eval::Page) -> T,
) -> Result<Vec<T>, eval::QueryError> {
    let mut pages = Vec::new();
    let mut query = query.clone();
    loop {
        let page = store.query_ending(&query, end)?;
        let next = page.last_evaluated_key.clone();
        pages.push(keep(page));
        match next {
            Some(key) if pages.len() < 100_000 => query.exclusive_start_key = Some(key),
            _ => return Ok(pages),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Writes

/// A write pattern's requests and what they leave, on the state the earlier writes left.
fn write_check(
    simulation: &mut simulate::Simulation<'_>,
    pattern: &keyplan_core::AccessPattern,
    verdict: &Verdict,
) -> CheckKind {
    match simulation.write(pattern) {
        Ok(s) => CheckKind::Write(WriteCheck {
            pattern: pattern.name.clone(),
            operation: verdict.operation,
            requests: s.requests,
            after: s.after,
            repeat_fails: s.repeat_fails,
        }),
        Err(why) => CheckKind::Skip(why),
    }
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
