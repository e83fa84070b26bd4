//! A read's verdict written as the PartiQL `SELECT` that does the same read with
//! ExecuteStatement: its table or index, the key condition and the filter as one WHERE, `?`
//! for each value, and ORDER BY ... DESC for a descending read. The generated access code and
//! `keyplan run` send it; a Scan of a statement is offered the one its pattern's index serves.

use crate::answer::{Operation, PartiqlStatement, Verdict};
use crate::model::{Design, FilterOp, SortOp};

/// A name as PartiQL quotes it: in double quotes, a `"` doubled.
fn quoted(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// A string as a PartiQL literal: in single quotes, a `'` doubled.
fn literal(text: &str) -> String {
    format!("'{}'", text.replace('\'', "''"))
}

/// The value of a key template: a literal when it is a constant (`'PROFILE'`, the `'ORDER#'`
/// that narrows a Query to orders), else a `?` bound to the template.
fn value(
    template: &crate::template::KeyTemplate,
    inline: bool,
    parameters: &mut Vec<String>,
) -> String {
    if inline && template.is_constant() {
        literal(template.source())
    } else {
        parameters.push(template.source().to_string());
        "?".to_string()
    }
}

/// The statement of a GetItem, Query or Scan verdict; `None` for a write, a read of an unknown
/// table, or a write-sharded read (several statements, one per shard).
pub fn render(verdict: &Verdict, design: &Design) -> Option<PartiqlStatement> {
    render_with(verdict, design, true)
}

/// [`render`] with every value a `?`, constants too, in the order of the verdict's key
/// condition (partition, sort equalities, sort condition) then its filter's terms: the order
/// a run's request holds its values in, which `keyplan run` binds.
pub fn render_bound(verdict: &Verdict, design: &Design) -> Option<PartiqlStatement> {
    render_with(verdict, design, false)
}

/// A name as the statement quotes it (`"orders"`).
pub fn quoted_name(name: &str) -> String {
    quoted(name)
}

fn render_with(verdict: &Verdict, design: &Design, inline: bool) -> Option<PartiqlStatement> {
    if !matches!(
        verdict.operation,
        Operation::GetItem | Operation::Query | Operation::Scan
    ) || verdict.shards.is_some()
    {
        return None;
    }
    let table = design.table(verdict.table.as_deref()?)?;
    if verdict
        .index
        .as_deref()
        .and_then(|name| table.gsi(name))
        .is_some_and(refuses_partiql)
    {
        return None;
    }
    let mut statement = format!("SELECT * FROM {}", quoted(&table.name));
    if let Some(index) = &verdict.index {
        statement.push('.');
        statement.push_str(&quoted(index));
    }
    let mut conditions: Vec<String> = Vec::new();
    let mut parameters: Vec<String> = Vec::new();
    if let Some(query) = &verdict.query {
        for part in query.partition.iter().chain(&query.sort_equal) {
            let value = value(&part.template, inline, &mut parameters);
            conditions.push(format!("{} = {value}", quoted(&part.attribute)));
        }
        if let Some(cond) = &query.sort_condition {
            let attribute = quoted(&cond.attribute);
            let values: Vec<String> = cond
                .values
                .iter()
                .map(|t| value(t, inline, &mut parameters))
                .collect();
            conditions.push(match (cond.op, values.as_slice()) {
                (SortOp::BeginsWith, [v]) => format!("begins_with({attribute}, {v})"),
                (SortOp::Between, [low, high]) => format!("{attribute} BETWEEN {low} AND {high}"),
                (op, values) => format!("{attribute} {} {}", op.as_str(), values.join(", ")),
            });
        }
    }
    if let Some(filter) = &verdict.filter {
        for term in &filter.terms {
            let attribute = quoted(&term.attribute);
            let values = term.inputs.iter().map(|i| format!("{{{i}}}"));
            conditions.push(match term.op {
                FilterOp::Exists => format!("{attribute} IS NOT MISSING"),
                FilterOp::NotExists => format!("{attribute} IS MISSING"),
                FilterOp::BeginsWith => format!("begins_with({attribute}, ?)"),
                FilterOp::Contains => format!("contains({attribute}, ?)"),
                FilterOp::Between => format!("{attribute} BETWEEN ? AND ?"),
                FilterOp::In => format!(
                    "{attribute} IN [{}]",
                    vec!["?"; term.inputs.len()].join(", ")
                ),
                op => format!("{attribute} {} ?", op.as_str()),
            });
            parameters.extend(values);
        }
    }
    if !conditions.is_empty() {
        statement.push_str(" WHERE ");
        statement.push_str(&conditions.join(" AND "));
    }
    // DynamoDB orders a statement's results by the sort key only when asked to.
    if !verdict.scan_forward && verdict.operation == Operation::Query {
        let keys = table.indexes();
        let keys = keys.iter().find(|k| k.name == verdict.index.as_deref())?;
        let sort = keys.sort_key.last()?;
        statement.push_str(&format!(" ORDER BY {} DESC", quoted(&sort.name)));
    }
    Some(PartiqlStatement {
        statement,
        parameters,
    })
}

/// DynamoDB refuses a PartiQL read of a GSI whose key has more than one attribute on either
/// side ("PartiQL statements cannot be executed on tables with multi-attribute HASH keys or
/// multi-attribute RANGE keys"; the table and its other indexes stay readable), as the
/// embedded engine does after AWS (dynoxide 3.2.0, captured in eu-west-2 and us-east-1).
pub fn refuses_partiql(gsi: &crate::model::Gsi) -> bool {
    gsi.partition_key.len() > 1 || gsi.sort_key.len() > 1
}
