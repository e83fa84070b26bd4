//! What a run does, decided before it touches an engine: the tables to create, the items to
//! load, and for every pattern the concrete requests with the answer core predicts.
//!
//! A plan holds values, not templates: every key condition is already rendered with the inputs
//! core's evaluation chose, so the runner executes exactly the queries the evaluation answered
//! and compares the two. Building a plan does no IO; see [`super::build`].

use std::collections::BTreeMap;

use keyplan_core::eval::FilterTest;
use keyplan_core::{AttributeValue, Item, Operation, SortOp, Table};

/// Everything one run does.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The design's tables, created under run-scoped names.
    pub tables: Vec<Table>,
    /// The items to load, by design table name.
    pub items: BTreeMap<String, Vec<Item>>,
    /// One check per pattern, in design order.
    pub checks: Vec<Check>,
}

impl Plan {
    pub fn n_items(&self) -> usize {
        self.items.values().map(Vec::len).sum()
    }

    pub fn reads(&self) -> impl Iterator<Item = &ReadCheck> {
        self.checks.iter().filter_map(|c| match &c.kind {
            CheckKind::Read(r) => Some(r),
            _ => None,
        })
    }

    pub fn writes(&self) -> impl Iterator<Item = &WriteCheck> {
        self.checks.iter().filter_map(|c| match &c.kind {
            CheckKind::Write(w) => Some(w),
            _ => None,
        })
    }
}

/// One pattern's part of the run.
#[derive(Debug, Clone)]
pub struct Check {
    /// The pattern's position in the design.
    pub index: usize,
    pub pattern: String,
    /// The operation the pattern's verdict names (`Scan` for one no index serves).
    pub operation: Operation,
    pub kind: CheckKind,
}

#[derive(Debug, Clone)]
pub enum CheckKind {
    Read(ReadCheck),
    Write(WriteCheck),
    /// A vector search (issue 40): SearchVectors, compared with core's exact nearest items.
    Vector(VectorCheck),
    /// Not run, and why (a Scan: the design does not serve it; no sample item to read).
    Skip(String),
}

/// A vector search: the request core's evaluation answered and its whole ranking, by which
/// the engine's answer is judged ([`super::vector`]).
#[derive(Debug, Clone)]
pub struct VectorCheck {
    pub pattern: String,
    /// Design table name.
    pub table: String,
    /// The table's key attributes, by which an engine's item is matched to core's.
    pub table_key: Vec<String>,
    /// Core's search: the vector index, the search vector, `TopK` and every candidate ranked.
    pub search: keyplan_core::eval::VectorRun,
}

/// The order of a Query sorted in memory: the attribute every read item is sorted by
/// ([`keyplan_core::eval::sort_in_memory`]) and the pattern's page, taken after the sort (the
/// queries themselves have no Limit).
#[derive(Debug, Clone)]
pub struct InMemoryOrder {
    pub attribute: String,
    pub page: Option<u32>,
}

/// A read: one GetItem, one Query, or a Query per shard merged in sort-key order.
#[derive(Debug, Clone)]
pub struct ReadCheck {
    pub pattern: String,
    pub operation: Operation,
    /// Design table name.
    pub table: String,
    pub index: Option<String>,
    /// One per shard (a single one when the key is not write-sharded), each with every page
    /// core's evaluation returns for it, following LastEvaluatedKey to the end, and how an
    /// engine that ends a page before the item crossing 1 MB pages it where that differs.
    pub queries: Vec<(KeyQuery, Vec<ExpectedPage>, Option<OtherPaging>)>,
    /// For a scatter-gather: the evaluator's merged answer (each shard's first page, merged in
    /// index order, cut to the Limit), which is what the application reads.
    pub merged: Option<Vec<Item>>,
    /// For a Query sorted in memory (issue 43): how core sorts every item read; `merged` then
    /// holds core's first page so sorted, and the engine's items are sorted the same way
    /// before they are compared.
    pub sorted_in_memory: Option<InMemoryOrder>,
    pub scan_forward: bool,
    pub consistent: bool,
    /// The Limit of one page; the runner pages through every page.
    pub page_size: Option<u32>,
    /// The index's sort key, then the table's key: the order shards are merged in.
    pub merge_order: Vec<String>,
    /// Key attributes shown first in a diff.
    pub show_first: Vec<String>,
    /// The inputs the evaluation chose, shown with the result.
    pub inputs: BTreeMap<String, String>,
    /// For a read given as a PartiQL statement (issue 40): the statement keyplan maps it to,
    /// sent with ExecuteStatement as well and compared with the same prediction.
    pub statement: Option<Box<RunStatement>>,
}

/// A read's PartiQL statement as a run sends it: what follows `SELECT * FROM "<table>"`
/// (the run's table name goes before it) and the value of each `?`.
#[derive(Debug, Clone, PartialEq)]
pub struct RunStatement {
    pub after_table: String,
    pub parameters: Vec<AttributeValue>,
}

impl RunStatement {
    /// The statement on the run's table `table`.
    pub fn text(&self, table: &str) -> String {
        format!(
            "SELECT * FROM {}{}",
            keyplan_core::partiql::quoted_name(table),
            self.after_table
        )
    }
}

impl ReadCheck {
    /// The read units core predicts over all queries and pages.
    pub fn predicted_units(&self) -> f64 {
        self.queries
            .iter()
            .flat_map(|(_, pages, _)| pages)
            .map(|p| p.read_units)
            .sum()
    }

    /// The items core predicts the key conditions read before any filter, over all queries
    /// and pages (the ScannedCounts summed).
    pub fn n_scanned(&self) -> usize {
        self.queries
            .iter()
            .flat_map(|(_, pages, _)| pages)
            .map(|p| p.scanned)
            .sum()
    }

    /// Every item core predicts over all queries and pages.
    pub fn n_expected(&self) -> usize {
        self.queries
            .iter()
            .flat_map(|(_, pages, _)| pages)
            .map(|p| p.items.len())
            .sum()
    }
}

/// One page of a query's predicted answer.
#[derive(Debug, Clone, PartialEq)]
pub struct ExpectedPage {
    pub items: Vec<Item>,
    /// The read units core's cost model charges for the page.
    pub read_units: f64,
    /// The items read for the page before the filter (its ScannedCount).
    pub scanned: usize,
}

/// The same query paged by [`PageEnd::BeforeCrossing`](keyplan_core::eval::PageEnd), the
/// embedded engine's rule: the same items in the same order, in other pages.
#[derive(Debug, Clone, PartialEq)]
pub struct OtherPaging {
    /// The items of each page.
    pub page_items: Vec<usize>,
    /// The ScannedCounts summed.
    pub scanned: usize,
}

/// A key condition's text, its `#name` placeholders and its `:value` placeholders.
pub type Expression = (String, Vec<(String, String)>, Vec<(String, AttributeValue)>);

/// A key condition with its values.
#[derive(Debug, Clone, PartialEq)]
pub struct KeyQuery {
    pub partition: Vec<(String, AttributeValue)>,
    pub sort_equal: Vec<(String, AttributeValue)>,
    pub sort_condition: Option<(String, SortOp, Vec<AttributeValue>)>,
    /// The FilterExpression's conditions (issue 16), applied after the key condition.
    pub filter: Vec<FilterTest>,
}

impl KeyQuery {
    /// The text of the key condition with `#n`/`:v` placeholders, the names and the values.
    pub fn expression(&self) -> Expression {
        let mut terms = Vec::new();
        let mut names = Vec::new();
        let mut values = Vec::new();
        for (i, (attr, value)) in self.partition.iter().chain(&self.sort_equal).enumerate() {
            names.push((format!("#k{i}"), attr.clone()));
            values.push((format!(":k{i}"), value.clone()));
            terms.push(format!("#k{i} = :k{i}"));
        }
        if let Some((attr, op, operands)) = &self.sort_condition {
            names.push(("#s".to_string(), attr.clone()));
            for (i, v) in operands.iter().enumerate() {
                values.push((format!(":s{i}"), v.clone()));
            }
            terms.push(match op {
                SortOp::Between => "#s BETWEEN :s0 AND :s1".to_string(),
                SortOp::BeginsWith => "begins_with(#s, :s0)".to_string(),
                op => format!("#s {} :s0", op.as_str()),
            });
        }
        (terms.join(" AND "), names, values)
    }

    /// The FilterExpression with `#f`/`:f` placeholders (apart from the key condition's), its
    /// names and its values; `None` without a filter.
    pub fn filter_expression(&self) -> Option<Expression> {
        if self.filter.is_empty() {
            return None;
        }
        let mut terms = Vec::new();
        let mut names = Vec::new();
        let mut values = Vec::new();
        for (i, test) in self.filter.iter().enumerate() {
            let name = format!("#f{i}");
            names.push((name.clone(), test.attribute.clone()));
            let placeholders: Vec<String> = test
                .values
                .iter()
                .enumerate()
                .map(|(j, v)| {
                    let placeholder = format!(":f{i}_{j}");
                    values.push((placeholder.clone(), v.clone()));
                    placeholder
                })
                .collect();
            terms.push(keyplan_core::coverage::filter_clause(
                test.op,
                &name,
                &placeholders,
            ));
        }
        Some((terms.join(" AND "), names, values))
    }

    /// Whether the read has a filter, so that its ScannedCount and Count differ.
    pub fn has_filter(&self) -> bool {
        !self.filter.is_empty()
    }

    /// The full primary key, for a GetItem.
    pub fn key(&self) -> Item {
        self.partition
            .iter()
            .chain(&self.sort_equal)
            .cloned()
            .collect()
    }
}

/// A write pattern: its requests and what the table holds after them.
#[derive(Debug, Clone)]
pub struct WriteCheck {
    pub pattern: String,
    pub operation: Operation,
    /// Several for TransactWriteItems, one otherwise.
    pub requests: Vec<WriteRequest>,
    /// Read back after the write (consistent GetItem) and compared: `None` where the key must
    /// be gone (a delete).
    pub after: Vec<(String, Item, Option<Item>)>,
    /// Sending the same requests again must fail on a condition (a conditional put of a new
    /// item): the run proves the condition holds.
    pub repeat_fails: bool,
}

/// One write, by design table name: core's write simulation makes them.
pub use keyplan_core::simulate::WriteRequest;
