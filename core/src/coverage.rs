//! Coverage: for every access pattern, the operation and index that serve it, or why none can.
//!
//! A read is decided per index of the table holding its entities: every returned entity must
//! be in the index (a template for each of its key attributes), the inputs must bind the
//! partition key (a shard variable means scatter-gather), and the sort key must narrow to the
//! returned entities and map the pattern's sort condition. Among the indexes that serve, the
//! cheapest wins (GetItem, then a Query on the table or an LSI, then a GSI; fewer shards; fewer
//! other entity types to skip). A read no index serves is a Scan, with a reason per index and a
//! suggested index.
//!
//! Coverage never sees values: it works on the parsed templates only, and every template is
//! looked up once per analysis ([`Prepared`]), because this runs on every keystroke.
//!
//! Its parts: `prepared` looks the design up once, `read` decides a read's verdict from each
//! index's `candidate`, `names` checks the attributes a pattern names, `shape` compares key
//! templates, `filter` writes a read's FilterExpression and `suggest` the index a Scan is
//! offered, `vector` a similarity search's; the key condition's text and a write's verdict are
//! here.

use std::borrow::Cow;

use crate::answer::{KeyCondition, KeyPart, Operation, QuerySpec, Verdict};
use crate::model::{AccessPattern, Action, Design, Order, SortOp};
use crate::template::KeyTemplate;

mod candidate;
pub(crate) mod filter;
mod names;
mod order;
mod partiql;
pub(crate) use partiql::unmapped as unmapped_statement;
mod prepared;
mod re_key;
mod read;
pub(crate) mod shape;
pub mod stated;
mod vector;

pub use filter::clause as filter_clause;
mod suggest;

pub(crate) use candidate::ReadContext;
pub(crate) use names::{contradictions, unknown_attributes};
pub(crate) use prepared::{
    KnownPeers, Member, Prepared, PreparedIndex, PreparedTable, index_label,
};
use read::read_verdict;

/// One verdict per pattern, in design order.
pub fn verdicts(design: &Design) -> Vec<Verdict> {
    verdicts_of(&Prepared::new(design))
}

/// [`verdicts`] without their words: every reason and suggested index left out, the rest
/// the same. A Scan's reasons (one per index of its table, 21 in the generated designs) and
/// its suggestion were more than a quarter of the verdicts' work (979M -> 693M instructions
/// at 10,000 entities) that the cost estimate, which reads only how each pattern is served,
/// threw away (issue 13).
pub fn verdicts_unexplained(design: &Design) -> Vec<Verdict> {
    let prepared = Prepared::new(design);
    crate::par::map(&design.patterns, |p| verdict_in(&prepared, p, Words::Left))
}

/// The verdict of one pattern of an already prepared design, as [`verdicts_of`] gives it.
pub(crate) fn verdict_of(prepared: &Prepared<'_>, pattern: &AccessPattern) -> Verdict {
    verdict(prepared, pattern)
}

/// [`verdicts`] of an already prepared design (the findings reuse the same [`Prepared`]).
pub(crate) fn verdicts_of(prepared: &Prepared<'_>) -> Vec<Verdict> {
    crate::par::map(&prepared.design.patterns, |p| verdict(prepared, p))
}

/// Whether a verdict says why: its reasons and suggested index written, or left out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Words {
    Written,
    Left,
}

fn verdict(prepared: &Prepared<'_>, pattern: &AccessPattern) -> Verdict {
    verdict_in(prepared, pattern, Words::Written)
}

fn verdict_in(prepared: &Prepared<'_>, pattern: &AccessPattern, words: Words) -> Verdict {
    let mut verdict = match (pattern.action, &pattern.partiql) {
        (Action::Read, _) if pattern.vector.is_some() => vector::vector_verdict(prepared, pattern),
        (Action::Read, Some(text)) => partiql::verdict(prepared, pattern, text, words),
        (Action::Read, None) => read_verdict(prepared, pattern, words),
        (_, _) => write_verdict(prepared, pattern),
    };
    // The few reasons written before a verdict is decided (an unknown entity) are dropped
    // here; the costly ones are never written.
    if words == Words::Left {
        verdict.reasons = Vec::new();
        verdict.suggestions = Vec::new();
    }
    verdict
}

fn empty_verdict(pattern: &AccessPattern, operation: Operation) -> Verdict {
    Verdict {
        pattern: pattern.name.clone(),
        operation,
        table: None,
        index: None,
        key_condition: None,
        query: None,
        filter: None,
        scan_forward: pattern.order == Order::Asc,
        order: None,
        shards: None,
        covered: operation != Operation::Scan,
        reasons: Vec::new(),
        suggestions: Vec::new(),
        sorted_in_memory: None,
        partiql: None,
    }
}

fn write_verdict(prepared: &Prepared<'_>, pattern: &AccessPattern) -> Verdict {
    let operation = match pattern.action {
        Action::Put => Operation::PutItem,
        Action::Update => Operation::UpdateItem,
        Action::Delete => Operation::DeleteItem,
        Action::Read | Action::Transact => Operation::TransactWriteItems,
    };
    let mut verdict = empty_verdict(pattern, operation);
    let entity_name = match pattern.action {
        Action::Transact => pattern.writes.first().map(|w| w.entity.as_str()),
        _ => pattern.entities.first().map(String::as_str),
    };
    let Some(entity_name) = entity_name else {
        verdict
            .reasons
            .push("the write names no entity".to_string());
        return verdict;
    };
    let Some(&idx) = prepared.entity_by_name.get(entity_name) else {
        verdict
            .reasons
            .push(format!("unknown entity `{entity_name}`"));
        return verdict;
    };
    let Some((table_idx, _)) = prepared.homes[idx] else {
        verdict.reasons.push(format!(
            "entity `{entity_name}` lives in unknown table `{}`",
            prepared.entity(idx).table
        ));
        return verdict;
    };
    let table = &prepared.tables[table_idx];
    verdict.table = Some(table.table.name.clone());
    if pattern.action == Action::Transact {
        return verdict;
    }
    let Some(member) = prepared.member(&table.indexes[0], idx) else {
        verdict.reasons.push(format!(
            "{entity_name} has no template for every primary key attribute of `{}`",
            table.table.name
        ));
        return verdict;
    };
    let keys = &table.indexes[0].keys;
    let query = QuerySpec {
        partition: key_parts(keys.partition_key, &member.partition),
        sort_equal: key_parts(keys.sort_key, &member.sort),
        sort_condition: None,
    };
    verdict.key_condition = Some(key_condition_text(&query));
    verdict.shards = shard_count(&member.partition);
    verdict.query = Some(query);
    verdict
}

fn key_parts(
    attrs: &[crate::model::KeyAttribute],
    templates: &[Cow<'_, KeyTemplate>],
) -> Vec<KeyPart> {
    attrs
        .iter()
        .zip(templates)
        .map(|(k, t)| KeyPart {
            attribute: k.name.clone(),
            template: t.as_ref().clone(),
        })
        .collect()
}

/// The product of the shard counts of these templates, if any is sharded.
fn shard_count(templates: &[Cow<'_, KeyTemplate>]) -> Option<u32> {
    templates
        .iter()
        .filter_map(|t| t.shard().and_then(|v| v.shards))
        .fold(None, |acc, n| Some(acc.unwrap_or(1).saturating_mul(n)))
}

/// A placeholder name: `:pk` when it is the only one of its kind, else `:pk1`, `:pk2`...
fn placeholder(stem: &str, i: usize, n: usize) -> String {
    let mut name = String::with_capacity(stem.len() + 3);
    name.push(':');
    name.push_str(stem);
    if n != 1 {
        name.push_str(&(i + 1).to_string());
    }
    name
}

/// The key condition expression and its placeholder values, from the structured query.
/// The clauses are written into the expression in place, not formatted one by one and
/// joined: every covered read has one (40,000 at 10,000 entities, issue 13).
fn key_condition_text(query: &QuerySpec) -> KeyCondition {
    // Sized up front (each clause's attribute and a few words besides): growing it by
    // doubling was most of this function's work.
    let attributes = query.partition.iter().chain(&query.sort_equal);
    let mut capacity: usize = attributes.map(|p| p.attribute.len() + 16).sum();
    capacity += query
        .sort_condition
        .as_ref()
        .map_or(0, |c| c.attribute.len() + 32);
    let mut expression = String::with_capacity(capacity);
    let mut values = Vec::with_capacity(
        query.partition.len()
            + query.sort_equal.len()
            + query.sort_condition.as_ref().map_or(0, |c| c.values.len()),
    );
    // Each clause is text, so an empty expression is one before the first clause.
    let and = |expression: &mut String| {
        if !expression.is_empty() {
            expression.push_str(" AND ");
        }
    };
    let equal = |expression: &mut String, part: &KeyPart, name: &str| {
        and(expression);
        expression.push_str(&part.attribute);
        expression.push_str(" = ");
        expression.push_str(name);
    };
    let n_pk = query.partition.len();
    for (i, part) in query.partition.iter().enumerate() {
        let name = placeholder("pk", i, n_pk);
        equal(&mut expression, part, &name);
        values.push((name, part.template.source().to_string()));
    }
    let n_sk = query.sort_equal.len() + query.sort_condition.as_ref().map_or(0, |c| c.values.len());
    let mut sk = (0..n_sk).map(|i| placeholder("sk", i, n_sk));
    for part in &query.sort_equal {
        let name = sk.next().unwrap_or_default();
        equal(&mut expression, part, &name);
        values.push((name, part.template.source().to_string()));
    }
    if let Some(cond) = &query.sort_condition {
        let names: Vec<String> = cond
            .values
            .iter()
            .map(|_| sk.next().unwrap_or_default())
            .collect();
        let attr = cond.attribute.as_str();
        and(&mut expression);
        let parts: &[&str] = match (cond.op, names.as_slice()) {
            (SortOp::BeginsWith, [a]) => &["begins_with(", attr, ", ", a, ")"],
            (SortOp::Between, [a, b]) => &[attr, " BETWEEN ", a, " AND ", b],
            (op, [a]) => &[attr, " ", op.as_str(), " ", a],
            (op, _) => &[attr, " ", op.as_str(), " ", &names.join(", ")],
        };
        parts.iter().for_each(|p| expression.push_str(p));
        for (name, t) in names.into_iter().zip(&cond.values) {
            values.push((name, t.source().to_string()));
        }
    }
    KeyCondition { expression, values }
}

#[cfg(test)]
pub(crate) mod testing;
#[cfg(test)]
mod tests;
