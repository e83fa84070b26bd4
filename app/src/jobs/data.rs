//! The data view's page, computed in the worker: core's sample items (`keyplan_core::sample`)
//! in core's evaluator, as the aggregate view (`keyplan_core::aggregate`) of the table and of
//! each index, partition by partition; and, with a pattern selected, the items that pattern
//! returns (a Scan's: what its filter keeps of the whole table). Only what the view shows crosses to the main thread: the index tabs with their
//! counts, the first items of the index shown, and the pattern's run, each item as its texts.

use keyplan_core::aggregate::{IndexView, aggregate};
use keyplan_core::answer::Operation;
use keyplan_core::eval::{run_pattern, scan_pattern, vector_pattern};
use keyplan_core::{AttributeValue, Design, Item};
use serde::{Deserialize, Serialize};

use super::Loaded;

/// A table or index the view can show, with how many items it holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Tab {
    pub table: String,
    pub index: Option<String>,
    pub count: usize,
}

/// One item as the view shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    pub entity: Option<String>,
    /// The sort key values, joined.
    pub sort_key: String,
    /// Every other attribute as `name: value`, in the order shown.
    pub attributes: Vec<String>,
    /// For an item of the table itself (not an index's projection), what editing it starts
    /// from; `None` in an index or a pattern's run.
    pub editable: Option<Editable>,
}

/// What editing a table's item by hand starts from: the item as DynamoDB JSON, and whether it
/// is a hand item already (its position in the design's hand items) or a generated one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Editable {
    pub table: String,
    /// The whole item, pretty DynamoDB JSON.
    pub json: String,
    /// Its position in [`Design::hand_items`] when it was written by hand.
    pub hand: Option<usize>,
    /// Its primary key attributes: what a hand item replacing it names.
    pub key: Item,
}

/// The index shown: its key names and its first items, partition by partition.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Shown {
    pub table: String,
    pub index: Option<String>,
    pub partition_key: String,
    pub sort_key: String,
    /// Each partition's key values, joined, with its items shown (the last may be cut).
    pub partitions: Vec<(String, Vec<Row>)>,
    pub total_items: usize,
    pub total_partitions: usize,
}

/// The selected pattern's run over the sample: its key conditions and the items it returns.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Run {
    pub pattern: String,
    pub conditions: Vec<String>,
    pub inputs: String,
    pub items: Vec<Row>,
    pub error: Option<String>,
    /// For a read with a filter (issue 16): its FilterExpression with the values written in,
    /// and how many items the key condition read before it.
    pub filter: Option<(String, usize)>,
}

/// Everything the data view shows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DataPage {
    /// Why there is no sample, when there is none.
    pub refused: Option<String>,
    pub tabs: Vec<Tab>,
    pub shown: Option<Shown>,
    pub run: Option<Run>,
    /// Each hand item that no longer fits its entity's key templates, said in words
    /// (`keyplan_core::sample::misfits`).
    pub misfits: Vec<String>,
}

/// A value as a short text.
fn show(value: &AttributeValue) -> String {
    match value {
        AttributeValue::S(s) => s.clone(),
        AttributeValue::N(n) => n.clone(),
        other => format!("{other:?}"),
    }
}

/// Values joined as the view writes a composite key: `a + b`.
fn joined(values: &[AttributeValue]) -> String {
    values.iter().map(show).collect::<Vec<_>>().join(" + ")
}

/// Every key attribute of every table, shown first in an item's attributes.
fn key_names(design: &Design) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for key in design.tables.iter().flat_map(|t| t.key_attributes()) {
        if !names.contains(&key.name) {
            names.push(key.name.clone());
        }
    }
    names
}

/// Each entity's attribute names in its order, for the order of an item's attributes.
fn declared(design: &Design, entity: Option<&str>) -> Vec<String> {
    entity
        .and_then(|n| design.entity(n))
        .map(|e| e.attributes.iter().map(|a| a.name.clone()).collect())
        .unwrap_or_default()
}

/// Every attribute of `item` but those in `skip` (the columns already show them), as
/// `name: value`: the key attributes of the tables and their indexes first, in `keys` order,
/// then the entity's attributes in the order it declares them (`declared`), then any other by
/// name. Every one: a view that silently dropped all but six hid `status` (issue 12).
pub fn attribute_texts(
    item: &Item,
    skip: &[String],
    keys: &[String],
    declared: &[String],
) -> Vec<String> {
    let text = |(k, v): (&String, &AttributeValue)| format!("{k}: {}", show(v));
    let first = keys
        .iter()
        .chain(declared.iter().filter(|d| !keys.contains(d)));
    let listed = first
        .filter(|k| !skip.contains(k))
        .filter_map(|k| item.get_key_value(k));
    let rest = item
        .iter()
        .filter(|(k, _)| !skip.contains(k) && !keys.contains(k) && !declared.contains(k));
    listed.chain(rest).map(text).collect()
}

/// The page for `pattern` (selected, if any), the index `index` (the first when `None` or
/// gone) and its first `shown` items.
pub fn page(
    loaded: &Loaded,
    pattern: Option<&str>,
    index: Option<(String, Option<String>)>,
    shown: usize,
) -> DataPage {
    let design = &loaded.design;
    let keys = key_names(design);
    let view = aggregate(&loaded.store);
    let tabs = view
        .tables
        .iter()
        .flat_map(|t| {
            t.indexes.iter().map(move |i| Tab {
                table: t.table.clone(),
                index: i.index.clone(),
                count: i.item_count,
            })
        })
        .collect();
    let mut all = view
        .tables
        .into_iter()
        .flat_map(|t| {
            let table = t.table;
            t.indexes.into_iter().map(move |i| (table.clone(), i))
        })
        .collect::<Vec<(String, IndexView)>>();
    let position = index
        .and_then(|(table, index)| {
            all.iter()
                .position(|(t, i)| *t == table && i.index == index)
        })
        .unwrap_or(0);
    let shown = (position < all.len())
        .then(|| all.swap_remove(position))
        .map(|(table, index)| shown_index(design, &keys, table, index, shown));
    DataPage {
        refused: loaded.refused.clone(),
        tabs,
        shown,
        run: pattern.map(|name| run(loaded, &keys, name)),
        misfits: keyplan_core::sample::misfits(design)
            .into_iter()
            .map(|m| {
                let entity = design
                    .hand_items
                    .get(m.at)
                    .map_or("", |h| h.entity.as_str());
                format!("Hand-written {entity} item {}: {}", m.at + 1, m.message)
            })
            .collect(),
    }
}

/// The primary key attributes of `item` in `table`.
fn primary_key_of(design: &Design, table: &str, item: &Item) -> Item {
    design
        .table(table)
        .into_iter()
        .flat_map(|t| t.primary_key())
        .filter_map(|k| Some((k.name.clone(), item.get(&k.name)?.clone())))
        .collect()
}

/// What editing `item`, an item of `table` itself, starts from.
fn editable(design: &Design, table: &str, item: &Item) -> Editable {
    let key = primary_key_of(design, table, item);
    let hand = design
        .hand_items
        .iter()
        .rposition(|h| h.table == table && primary_key_of(design, table, &h.item) == key);
    Editable {
        table: table.to_string(),
        json: serde_json::to_string_pretty(item).unwrap_or_default(),
        hand,
        key,
    }
}

/// Whole partitions of `index` in order until `limit` items; the last one may be cut.
fn shown_index(
    design: &Design,
    keys: &[String],
    table: String,
    index: IndexView,
    limit: usize,
) -> Shown {
    let mut columns = index.partition_key.clone();
    columns.extend(index.sort_key.iter().cloned());
    let total_items = index.partitions.iter().map(|p| p.items.len()).sum();
    let total_partitions = index.partitions.len();
    let is_table = index.index.is_none();
    let mut left = limit;
    let partitions = index
        .partitions
        .into_iter()
        .map_while(|p| {
            (left > 0).then(|| {
                let take = p.items.len().min(left);
                left -= take;
                let rows = p
                    .items
                    .into_iter()
                    .take(take)
                    .map(|item| Row {
                        editable: is_table.then(|| editable(design, &table, &item.item)),
                        sort_key: joined(&item.sort_key),
                        attributes: attribute_texts(
                            &item.item,
                            &columns,
                            keys,
                            &declared(design, item.entity.as_deref()),
                        ),
                        entity: item.entity,
                    })
                    .collect();
                (joined(&p.key), rows)
            })
        })
        .collect();
    Shown {
        table,
        index: index.index,
        partition_key: index.partition_key.join(" + "),
        sort_key: index.sort_key.join(" + "),
        partitions,
        total_items,
        total_partitions,
    }
}

/// The pattern `name` run over the sample, or why it is not.
fn run(loaded: &Loaded, keys: &[String], name: &str) -> Run {
    let failed = |error: String| Run {
        pattern: name.to_string(),
        conditions: Vec::new(),
        inputs: String::new(),
        items: Vec::new(),
        error: Some(error),
        filter: None,
    };
    let Some(verdict) = loaded.verdicts.iter().find(|v| v.pattern == name) else {
        return failed(format!("no pattern named `{name}`"));
    };
    let operation = verdict.operation.as_str();
    let ran = match verdict.operation {
        Operation::GetItem | Operation::Query => {
            run_pattern(&loaded.design, &loaded.store, verdict, None)
        }
        // A Scan reads the whole table and returns what its filter keeps (issue 43).
        Operation::Scan if verdict.table.is_some() => {
            scan_pattern(&loaded.design, &loaded.store, verdict, None)
        }
        // A vector search: the exact nearest items to the first sample vector (issue 40).
        Operation::SearchVectors => {
            vector_pattern(&loaded.design, &loaded.store, verdict, None).map(|search| search.run)
        }
        _ => {
            return failed(format!(
                "{operation} is not a read of the sample: nothing to evaluate"
            ));
        }
    };
    match ran {
        Ok(r) => Run {
            pattern: name.to_string(),
            filter: r.filter.clone().map(|text| (text, r.result.scanned)),
            conditions: match (&verdict.operation, &verdict.table) {
                (Operation::Scan, Some(table)) => vec![format!("Scan of {table}: every item read")],
                _ => r.conditions.clone(),
            },
            inputs: r
                .inputs
                .iter()
                .map(|(k, v)| format!("{k} = {v}"))
                .collect::<Vec<_>>()
                .join(", "),
            items: r
                .result
                .items
                .iter()
                .zip(
                    r.result
                        .entities
                        .iter()
                        .cloned()
                        .chain(std::iter::repeat(None)),
                )
                .map(|(item, entity)| Row {
                    editable: None,
                    sort_key: String::new(),
                    attributes: attribute_texts(
                        item,
                        &[],
                        keys,
                        &declared(&loaded.design, entity.as_deref()),
                    ),
                    entity,
                })
                .collect(),
            error: None,
        },
        Err(e) => failed(e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jobs::{Data, Worker};

    fn data(
        worker: &mut Worker,
        design: &Design,
        pattern: Option<&str>,
        index: Option<(&str, Option<&str>)>,
        shown: usize,
    ) -> DataPage {
        worker.answer(Data {
            design: design.clone(),
            pattern: pattern.map(str::to_string),
            index: index.map(|(t, i)| (t.to_string(), i.map(str::to_string))),
            shown,
        })
    }

    #[test]
    fn the_page_holds_the_tabs_the_index_asked_for_and_no_more_items_than_shown() {
        let design = keyplan_core::examples::first();
        let mut worker = Worker::default();
        let page = data(&mut worker, &design, None, None, 5);
        assert!(page.refused.is_none());
        assert!(
            page.tabs.len() > 1,
            "the table and its indexes: {:?}",
            page.tabs
        );
        let first = page.shown.expect("the table is shown");
        assert_eq!(
            (first.table.as_str(), first.index.as_deref()),
            (page.tabs[0].table.as_str(), None)
        );
        let rows: usize = first.partitions.iter().map(|(_, rows)| rows.len()).sum();
        assert_eq!(rows, 5);
        assert_eq!(first.total_items, page.tabs[0].count);
        // Another index, by name: a GSI holds fewer items (sparse) or as many.
        let gsi = page
            .tabs
            .iter()
            .find(|t| t.index.is_some())
            .expect("a GSI")
            .clone();
        let other = data(
            &mut worker,
            &design,
            None,
            Some((&gsi.table, gsi.index.as_deref())),
            1000,
        )
        .shown
        .expect("shown");
        assert_eq!(other.index, gsi.index);
        assert_eq!(other.total_items, gsi.count);
        // An index that is gone falls back to the first.
        let gone = data(&mut worker, &design, None, Some(("nope", None)), 1)
            .shown
            .expect("shown");
        assert_eq!(gone.index, None);
    }

    #[test]
    fn a_selected_pattern_is_run_on_the_sample_or_says_why_not() {
        let design = keyplan_core::examples::first();
        let verdicts = keyplan_core::analysis::verdicts(&design);
        let mut worker = Worker::default();
        let query = verdicts
            .iter()
            .find(|v| v.covered && v.operation.as_str() == "Query")
            .expect("a Query");
        let run = data(&mut worker, &design, Some(&query.pattern), None, 1)
            .run
            .expect("a run");
        assert_eq!(run.error, None);
        assert!(!run.conditions.is_empty());
        assert!(!run.items.is_empty(), "{run:?}");
    }

    #[test]
    fn a_pattern_served_by_a_scan_shows_what_its_filter_keeps_of_all_it_read() {
        // The order example's `Get order by ID` is a Scan with `orderId = :orderId`.
        let design = keyplan_core::examples::first();
        let verdicts = keyplan_core::analysis::verdicts(&design);
        let scan = verdicts.iter().find(|v| !v.covered).expect("a Scan");
        assert!(scan.filter.is_some(), "{scan:?}");
        let mut worker = Worker::default();
        let page = data(&mut worker, &design, Some(&scan.pattern), None, 1);
        let run = page.run.expect("a run");
        assert_eq!(run.error, None);
        let (filter, read) = run.filter.expect("its filter");
        assert!(filter.starts_with("orderId = "), "{filter}");
        // The whole table read; returned, every item with that orderId, as DynamoDB's filter
        // keeps them: the order and its items.
        assert_eq!(read, page.tabs[0].count);
        let id = filter.trim_start_matches("orderId = ").trim_matches('"');
        assert!(run.items.len() < read, "{:?}", run.items);
        for row in &run.items {
            assert!(
                row.attributes.contains(&format!("orderId: {id}")),
                "{row:?}"
            );
        }
        let orders = run
            .items
            .iter()
            .filter(|r| r.entity.as_deref() == Some("Order"));
        assert_eq!(orders.count(), 1, "{:?}", run.items);
    }

    #[test]
    fn attributes_come_keys_first_then_declared_then_the_rest() {
        let item: Item = [
            ("zeta", AttributeValue::S("z".into())),
            ("PK", AttributeValue::S("P".into())),
            ("name", AttributeValue::S("n".into())),
            ("count", AttributeValue::N("3".into())),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
        assert_eq!(
            attribute_texts(&item, &[], &["PK".into()], &["name".into()]),
            ["PK: P", "name: n", "count: 3", "zeta: z"]
        );
        assert_eq!(
            attribute_texts(&item, &["PK".into()], &["PK".into()], &[]),
            ["count: 3", "name: n", "zeta: z"]
        );
    }
}
