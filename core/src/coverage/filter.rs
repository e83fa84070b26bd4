//! A read's FilterExpression (issue 16): the pattern's filter conditions, the inputs its key
//! does not use (matched after the read, as before) and, for a Scan, the inputs and the sort
//! condition, written as DynamoDB takes them (`#status = :status`), with the rule that a
//! Query's filter cannot name a key attribute of the index it queries.
//!
//! Only the filter lives here; which index serves the read is coverage's, and nothing here
//! changes a key condition.

use std::collections::BTreeSet;

use crate::answer::{FilterExpression, FilterSource, FilterTerm, KeyCondition};
use crate::model::{AccessPattern, FilterOp, IndexKeys};

/// The terms of a Query's FilterExpression: each input its key leaves unused (`=`), then the
/// pattern's filter conditions.
pub(crate) fn query_terms(pattern: &AccessPattern, unused_inputs: &[String]) -> Vec<FilterTerm> {
    let inputs = unused_inputs.iter().map(|input| FilterTerm {
        attribute: input.clone(),
        op: FilterOp::Eq,
        inputs: vec![input.clone()],
        source: FilterSource::Input,
    });
    inputs.chain(filter_terms(pattern)).collect()
}

/// The terms of a Scan's FilterExpression: every input (`=`), the sort condition, then the
/// pattern's filter conditions. A Scan reads the whole table; this is what it keeps.
pub(crate) fn scan_terms(pattern: &AccessPattern) -> Vec<FilterTerm> {
    let mut terms = query_terms(pattern, &pattern.inputs);
    if let Some(sort) = &pattern.sort {
        let op = FilterOp::from(sort.op);
        let inputs = match op {
            FilterOp::Between => vec![sort.attribute.clone(), format!("{}_to", sort.attribute)],
            _ => vec![sort.attribute.clone()],
        };
        terms.insert(
            pattern.inputs.len(),
            FilterTerm {
                attribute: sort.attribute.clone(),
                op,
                inputs,
                source: FilterSource::Sort,
            },
        );
    }
    terms
}

fn filter_terms(pattern: &AccessPattern) -> impl Iterator<Item = FilterTerm> + '_ {
    pattern.filter.iter().map(|condition| FilterTerm {
        attribute: condition.attribute.clone(),
        op: condition.op,
        inputs: condition.value_names(),
        source: FilterSource::Filter,
    })
}

/// The first attribute of `terms` that is a key attribute of the index `keys` describes: a
/// Query with it in its FilterExpression is refused ("Filter Expression can only contain
/// non-primary key attributes"; the Developer Guide: "A filter expression cannot contain
/// partition key or sort key attributes").
pub(crate) fn key_attribute_filtered<'t>(
    keys: &IndexKeys<'_>,
    terms: &'t [FilterTerm],
) -> Option<&'t str> {
    terms.iter().map(|t| t.attribute.as_str()).find(|a| {
        keys.partition_key
            .iter()
            .chain(keys.sort_key)
            .any(|k| k.name == *a)
    })
}

/// The FilterExpression of `terms`, with placeholders that do not collide with the key
/// condition's; `None` when there are no terms.
pub(crate) fn expression(
    terms: Vec<FilterTerm>,
    key_condition: Option<&KeyCondition>,
) -> Option<FilterExpression> {
    if terms.is_empty() {
        return None;
    }
    // The names and placeholders taken so far: an ordered set, not a hashed one (a HashSet,
    // its hasher seeded per call, was half of a one-term expression's work; every Scan has
    // one, 10,000 at 10,000 entities, issue 13), and not a list, which a pattern of thousands
    // of filter terms would search quadratically.
    let mut taken: BTreeSet<String> = key_condition
        .into_iter()
        .flat_map(|kc| kc.values.iter().map(|(name, _)| name.clone()))
        .collect();
    let mut names: Vec<(String, String)> = Vec::new();
    let mut values: Vec<(String, String)> = Vec::new();
    let mut clauses = Vec::with_capacity(terms.len());
    for term in &terms {
        let name = match names.iter().find(|(_, a)| *a == term.attribute) {
            Some((name, _)) => name.clone(),
            None => {
                let name = unique(&mut taken, '#', &term.attribute);
                names.push((name.clone(), term.attribute.clone()));
                name
            }
        };
        let placeholders: Vec<String> = term
            .inputs
            .iter()
            .map(|input| {
                let mut template = String::with_capacity(input.len() + 2);
                template.push('{');
                template.push_str(input);
                template.push('}');
                match values.iter().find(|(_, t)| *t == template) {
                    Some((placeholder, _)) => placeholder.clone(),
                    None => {
                        let placeholder = unique(&mut taken, ':', input);
                        values.push((placeholder.clone(), template));
                        placeholder
                    }
                }
            })
            .collect();
        clauses.push(clause(term.op, &name, &placeholders));
    }
    Some(FilterExpression {
        expression: clauses.join(" AND "),
        names,
        values,
        terms,
    })
}

/// One condition in DynamoDB's syntax, on the attribute (or its placeholder) `name` with
/// the value placeholders `values`: `#status <> :status`, `attribute_exists(#a)`.
pub fn clause(op: FilterOp, name: &str, values: &[String]) -> String {
    let first = values.first().map_or("", String::as_str);
    match op {
        FilterOp::Exists => format!("attribute_exists({name})"),
        FilterOp::NotExists => format!("attribute_not_exists({name})"),
        FilterOp::BeginsWith => format!("begins_with({name}, {first})"),
        FilterOp::Contains => format!("contains({name}, {first})"),
        FilterOp::Between => format!(
            "{name} BETWEEN {first} AND {}",
            values.get(1).map_or("", String::as_str)
        ),
        FilterOp::In => format!("{name} IN ({})", values.join(", ")),
        op => format!("{name} {} {first}", op.as_str()),
    }
}

/// `sigil` and `text` made a valid placeholder (letters, digits and `_`; DynamoDB's rule for
/// attribute name and value placeholders), numbered when `taken` holds it already.
fn unique(taken: &mut BTreeSet<String>, sigil: char, text: &str) -> String {
    let mut base = String::with_capacity(text.len() + 1);
    base.push(sigil);
    base.extend(
        text.chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }),
    );
    if base.len() == 1 {
        base.push('v');
    }
    let mut name = base.clone();
    let mut n = 2;
    while !taken.insert(name.clone()) {
        name = format!("{base}{n}");
        n += 1;
    }
    name
}

/// What would read a filtered pattern without reading what its filter drops: an index that
/// serves it by key already, or the index to add.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Narrowing {
    /// An index of the design serves the pattern with the condition in its key.
    Existing { index: String },
    /// The index that would, as coverage suggests it for a Scan.
    Suggested(crate::answer::Suggestion),
}

/// For the first of `pattern`'s filter conditions a key can apply (`=`, or `in` as one Query
/// per value, as an input; a range, begins_with or attribute_exists as the sort condition,
/// when the pattern has none), the condition and what would serve the pattern with it in the
/// key instead of the filter. `<>`, contains and attribute_not_exists narrow no key, and are
/// passed over.
pub(crate) fn narrowing(
    prepared: &super::Prepared<'_>,
    pattern: &AccessPattern,
) -> Option<(crate::model::FilterCondition, Narrowing)> {
    use crate::model::{SortCondition, SortOp};
    for (at, condition) in pattern.filter.iter().enumerate() {
        let mut keyed = pattern.clone();
        keyed.filter.remove(at);
        let sort_op = match condition.op {
            // An `in` is one Query per value, each an equality.
            FilterOp::Eq | FilterOp::In => None,
            FilterOp::Lt => Some(SortOp::Lt),
            FilterOp::Le => Some(SortOp::Le),
            FilterOp::Gt => Some(SortOp::Gt),
            FilterOp::Ge => Some(SortOp::Ge),
            FilterOp::Between => Some(SortOp::Between),
            FilterOp::BeginsWith => Some(SortOp::BeginsWith),
            // A sort key on the attribute holds only the items that have it (a sparse index).
            FilterOp::Exists => Some(SortOp::Ge),
            FilterOp::Ne | FilterOp::Contains | FilterOp::NotExists => continue,
        };
        match sort_op {
            None => keyed.inputs.push(condition.attribute.clone()),
            Some(_) if keyed.sort.is_some() => continue,
            Some(op) => {
                keyed.sort = Some(SortCondition {
                    attribute: condition.attribute.clone(),
                    op,
                })
            }
        }
        let verdict = super::verdict_of(prepared, &keyed);
        let still_filtered = verdict
            .filter
            .as_ref()
            .is_some_and(|f| f.terms.iter().any(|t| t.attribute == condition.attribute));
        if verdict.covered && !still_filtered {
            let index = verdict.index.unwrap_or_else(|| "the table".to_string());
            return Some((condition.clone(), Narrowing::Existing { index }));
        }
        let returned: Vec<usize> = keyed
            .entities
            .iter()
            .filter_map(|name| prepared.entity_by_name.get(name.as_str()).copied())
            .collect();
        let (table, _) = (*prepared.homes.get(*returned.first()?)?)?;
        let ctx = super::ReadContext {
            prepared,
            pattern: &keyed,
            returned: &returned,
            explain: false,
        };
        if let Some(suggestion) = super::suggest::suggestion(&ctx, &prepared.tables[table]) {
            return Some((condition.clone(), Narrowing::Suggested(suggestion)));
        }
    }
    None
}
