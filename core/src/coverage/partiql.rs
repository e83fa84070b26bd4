//! The verdict of a read given as a PartiQL statement (issue 40): the statement mapped onto
//! the structured pattern it is equivalent to, judged on the table or index it names as that
//! pattern is, each `?` bound to the template of its value.
//!
//! DynamoDB runs a `SELECT` as a Query only when its WHERE gives the partition key of what it
//! reads by equality (or IN); anything else (no WHERE, a range or a function on the key, an OR
//! that lets an item match without it) reads every item: a Scan, said with the reason and the
//! statement an index of the design would serve
//! (<https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ql-reference.select.html>).
//! A statement keyplan cannot map is a Scan whose first reason says why and where; finding
//! KP033 says the same.

use super::prepared::{Prepared, index_label};
use super::read::{read_verdict, read_verdict_on};
use super::{Words, empty_verdict, filter};
use crate::answer::{Operation, PartiqlStatement, Verdict};
use crate::model::{AccessPattern, FilterCondition, FilterOp, Order, SortCondition, SortOp};
use crate::partiql::{Clause, Condition, Statement, Term, Unmapped, Value};
use crate::template::KeyTemplate;

/// What a `?` stands for, before the verdict gives its template.
#[derive(Debug, Clone)]
enum Bound {
    /// The whole value of a key attribute (`GSI1PK = ?`), and its template.
    Key(String, String),
    /// The n-th value of the sort condition.
    Sort(usize),
    /// The n-th value of the filter condition on this attribute.
    Filter(String, usize),
}

/// A statement mapped onto a pattern.
#[derive(Debug)]
struct Mapped {
    pattern: AccessPattern,
    /// The index the statement reads (`None`: the table).
    index: Option<String>,
    /// The operator the statement's WHERE puts on the sort key, if any.
    sort_stated: Option<FilterOp>,
    /// Why DynamoDB scans it, if it does.
    scan: Option<String>,
    bound: Vec<(usize, Bound)>,
}

/// Why keyplan cannot map `pattern`'s statement, and where, if it cannot (KP033). `None`
/// too in a build that reads no PartiQL, which judges the pattern by its structured fields.
pub(crate) fn unmapped(prepared: &Prepared<'_>, pattern: &AccessPattern) -> Option<String> {
    let text = pattern.partiql.as_deref()?;
    if !crate::partiql::READS_PARTIQL || !pattern.is_read() {
        return None;
    }
    let mapped = crate::partiql::parse(text).and_then(|s| map(prepared, pattern, &s));
    mapped.err().map(|u| u.describe(text))
}

/// The verdict of `pattern`, whose `partiql` is `text`.
pub(super) fn verdict(
    prepared: &Prepared<'_>,
    pattern: &AccessPattern,
    text: &str,
    words: Words,
) -> Verdict {
    // The browser app leaves the parser out: the pattern's structured fields decide there.
    if !crate::partiql::READS_PARTIQL {
        let mut verdict = read_verdict(prepared, pattern, words);
        verdict.reasons.push(
            "judged by the pattern's structured fields: this build of keyplan reads no PartiQL (`keyplan check` judges the statement)"
                .to_string(),
        );
        return verdict;
    }
    let mapped = crate::partiql::parse(text).and_then(|s| map(prepared, pattern, &s));
    let mapped = match mapped {
        Ok(mapped) => mapped,
        Err(unmapped) => {
            let mut verdict = empty_verdict(pattern, Operation::Scan);
            verdict.reasons.push(format!(
                "keyplan cannot map the PartiQL statement {}",
                unmapped.describe(text)
            ));
            return verdict;
        }
    };
    let mut verdict = match &mapped.scan {
        None => read_verdict_on(
            prepared,
            &mapped.pattern,
            words,
            Some(mapped.index.as_deref()),
        ),
        Some(why) => scan(prepared, &mapped, why, words),
    };
    verdict.pattern = pattern.name.clone();
    if let (Some(stated), Some(served)) = (
        mapped.sort_stated,
        verdict
            .query
            .as_ref()
            .and_then(|q| q.sort_condition.as_ref()),
    ) && served.op == SortOp::Between
        && stated != FilterOp::Between
        && words == Words::Written
    {
        verdict.reasons.push(format!(
            "the statement's `{} {} ?` also reads past the returned entities' sort-key prefix (other entity types): keyplan's key condition, `{}`, keeps to them",
            served.attribute,
            stated.as_str(),
            verdict.key_condition.as_ref().map_or("", |k| k.expression.as_str())
        ));
    }
    verdict.partiql = Some(PartiqlStatement {
        statement: text.to_string(),
        parameters: parameters(&mapped, &verdict),
    });
    verdict
}

/// The statement scans: the reason, the filter DynamoDB applies to every item, and the
/// statement the structured pattern's own index would serve it with.
fn scan(prepared: &Prepared<'_>, mapped: &Mapped, why: &str, words: Words) -> Verdict {
    let served = read_verdict(prepared, &mapped.pattern, words);
    let mut verdict = empty_verdict(&mapped.pattern, Operation::Scan);
    verdict.table = served.table.clone();
    verdict.filter = filter::expression(filter::scan_terms(&mapped.pattern), None);
    if words == Words::Left {
        return verdict;
    }
    verdict.reasons.push(why.to_string());
    if served.covered {
        let design = prepared.design;
        if let Some(statement) = crate::partiql::render(&served, design) {
            verdict.reasons.push(format!(
                "{} on {} serves the same read: {}",
                served.operation.as_str(),
                served.index.as_deref().unwrap_or("the table"),
                statement.statement
            ));
        }
    } else {
        verdict.suggestions = served.suggestions;
    }
    verdict
}

/// The template each `?` is bound to, in order: the key attribute's template, the sort
/// condition's value, or the filter's input (`{status}`).
fn parameters(mapped: &Mapped, verdict: &Verdict) -> Vec<String> {
    let mut out = vec![String::new(); mapped.bound.len()];
    for (n, (_, bound)) in mapped.bound.iter().enumerate() {
        let query = verdict.query.as_ref();
        let template = match bound {
            Bound::Key(attribute, template) => query
                .and_then(|q| {
                    q.partition
                        .iter()
                        .chain(&q.sort_equal)
                        .find(|p| p.attribute == *attribute)
                        .map(|p| p.template.source().to_string())
                })
                .or_else(|| Some(template.clone())),
            Bound::Sort(i) => query
                .and_then(|q| q.sort_condition.as_ref())
                .and_then(|c| c.values.get(*i))
                .map(|t| t.source().to_string()),
            Bound::Filter(attribute, i) => mapped
                .pattern
                .filter
                .iter()
                .find(|f| f.attribute == *attribute)
                .and_then(|f| f.value_names().get(*i).map(|v| format!("{{{v}}}"))),
        };
        out[n] = template.unwrap_or_else(|| match bound {
            Bound::Key(a, _) | Bound::Filter(a, _) => format!("{{{a}}}"),
            Bound::Sort(_) => mapped
                .pattern
                .sort
                .as_ref()
                .map_or_else(String::new, |s| format!("{{{}}}", s.attribute)),
        });
    }
    out
}

/// The statement as the structured pattern it is equivalent to.
fn map(
    prepared: &Prepared<'_>,
    pattern: &AccessPattern,
    statement: &Statement,
) -> Result<Mapped, Unmapped> {
    let Some(table) = prepared
        .tables
        .iter()
        .find(|t| t.table.name == statement.table)
    else {
        return Err(Unmapped::new(
            Clause::From,
            statement.table_at,
            format!("the design has no table `{}`", statement.table),
        ));
    };
    let index = match &statement.index {
        None => &table.indexes[0],
        Some((name, at)) => table
            .indexes
            .iter()
            .find(|i| i.keys.name == Some(name.as_str()))
            .ok_or_else(|| {
                Unmapped::new(
                    Clause::From,
                    *at,
                    format!("table `{}` has no index `{name}`", table.table.name),
                )
            })?,
    };
    if let (Some((name, at)), Some(gsi)) = (
        &statement.index,
        statement
            .index
            .as_ref()
            .and_then(|(n, _)| table.table.gsi(n)),
    ) && crate::partiql::refuses_partiql(gsi)
    {
        return Err(Unmapped::new(
            Clause::From,
            *at,
            format!(
                "DynamoDB refuses a PartiQL read of `{name}`, whose key has more than one attribute: read it with a Query"
            ),
        ));
    }
    let label = index_label(&index.keys);
    // What it returns: the pattern's entities, else every entity the index holds.
    let entities: Vec<String> = if pattern.entities.is_empty() {
        index
            .members
            .iter()
            .map(|m| prepared.entity(m.entity).name.clone())
            .collect()
    } else {
        pattern.entities.clone()
    };
    // The templates of every key attribute of the table's indexes, for the first returned
    // entity that has one: `GSI1PK = ?` binds the variables of its template.
    let first = entities
        .iter()
        .filter_map(|e| prepared.entity_by_name.get(e.as_str()).copied())
        .collect::<Vec<_>>();
    let template_of = |attribute: &str| -> Option<KeyTemplate> {
        table.indexes.iter().find_map(|ix| {
            let keys = ix.keys.partition_key.iter().chain(ix.keys.sort_key);
            let position = keys.clone().position(|k| k.name == attribute)?;
            first.iter().find_map(|&e| {
                let member = prepared.member(ix, e)?;
                member
                    .partition
                    .iter()
                    .chain(&member.sort)
                    .nth(position)
                    .map(|t| t.as_ref().clone())
            })
        })
    };
    let partition: Vec<&str> = index
        .keys
        .partition_key
        .iter()
        .map(|k| k.name.as_str())
        .collect();
    let sort: Vec<&str> = index
        .keys
        .sort_key
        .iter()
        .map(|k| k.name.as_str())
        .collect();

    let mut structured = AccessPattern {
        entities,
        inputs: Vec::new(),
        sort: None,
        filter: Vec::new(),
        order: Order::Asc,
        order_by: None,
        partiql: None,
        ..pattern.clone()
    };
    let mut bound: Vec<(usize, Bound)> = Vec::new();
    let mut sort_stated = None;
    let mut scan: Option<String> = None;
    let mut pinned: Vec<&str> = Vec::new();
    let conjuncts = statement
        .condition
        .as_ref()
        .map(Condition::conjuncts)
        .unwrap_or_default();
    let mut add_input = |structured: &mut AccessPattern, name: &str| {
        if !structured.inputs.iter().any(|i| i == name) {
            structured.inputs.push(name.to_string());
        }
    };
    for conjunct in &conjuncts {
        let term = match conjunct {
            Condition::Term(term) => term,
            Condition::Or { branches, at } => {
                let on_partition = |c: &Condition| matches!(c, Condition::Term(t) if partition.contains(&t.attribute.as_str()) && matches!(t.op, FilterOp::Eq | FilterOp::In));
                if branches.iter().all(on_partition) {
                    return Err(Unmapped::new(
                        Clause::Where,
                        *at,
                        "an OR of partition key values reads several partitions, one Query each; a read pattern reads one: give each its own pattern",
                    ));
                }
                scan.get_or_insert_with(|| format!(
                    "the WHERE's OR lets an item match without the partition key of {label}: DynamoDB reads every item (a Scan)"
                ));
                continue;
            }
            Condition::Other {
                what,
                attributes,
                at,
            } => {
                if let Some(key) = attributes.iter().find(|a| partition.contains(&a.as_str())) {
                    scan.get_or_insert_with(|| format!(
                        "{what} on the partition key `{key}` of {label} is no key condition: DynamoDB reads every item (a Scan)"
                    ));
                    continue;
                }
                return Err(Unmapped::new(
                    Clause::Where,
                    *at,
                    format!(
                        "{what} is no condition a read pattern can state (a comparison, BETWEEN, IN, begins_with, contains, IS [NOT] MISSING)"
                    ),
                ));
            }
            Condition::And(_) => continue,
        };
        let attribute = term.attribute.as_str();
        let is_partition = partition.contains(&attribute);
        let is_sort = sort.contains(&attribute);
        let template = template_of(attribute);
        match (term.op, &template) {
            (FilterOp::In, _) if is_partition => {
                return Err(Unmapped::new(
                    Clause::Where,
                    term.at,
                    "an IN on the partition key reads several partitions, one Query each; a read pattern reads one: give each its own pattern",
                ));
            }
            // A key attribute of another index is a filter on the read's, unless its template
            // composes attributes (`GSI1PK = ?` binds `ORDER#{orderId}`'s `orderId`).
            (FilterOp::Eq, Some(template))
                if is_partition
                    || is_sort
                    || !(template.is_constant()
                        || template.source() == format!("{{{attribute}}}")) =>
            {
                key_equal(term, template, &mut structured, &mut bound, &mut add_input)?;
                if is_partition {
                    pinned.push(attribute);
                }
            }
            (op, Some(template)) if is_sort => {
                sort_range(term, op, template, pattern, &mut structured, &mut bound)?;
                sort_stated = Some(op);
            }
            (op, _) if is_partition => {
                scan.get_or_insert_with(|| format!(
                    "the partition key `{attribute}` of {label} is compared with `{}`, not `=` or IN: DynamoDB reads every item (a Scan)",
                    op.as_str()
                ));
                filter(term, &mut structured, &mut bound);
            }
            _ => filter(term, &mut structured, &mut bound),
        }
    }
    if scan.is_none()
        && let Some(missing) = partition.iter().find(|k| !pinned.contains(k))
    {
        scan = Some(match &statement.condition {
            None => {
                format!("the statement has no WHERE: DynamoDB reads every item of {label} (a Scan)")
            }
            Some(_) => format!(
                "the WHERE does not give the partition key `{missing}` of {label} with `=` or IN: DynamoDB reads every item (a Scan)"
            ),
        });
    }
    if let Some((attribute, desc, at)) = &statement.order_by {
        if sort.last() != Some(&attribute.as_str()) {
            return Err(Unmapped::new(
                Clause::OrderBy,
                *at,
                format!(
                    "DynamoDB orders a statement's results by the sort key of what it reads: `{attribute}` is not {label}'s"
                ),
            ));
        }
        if *desc {
            structured.order = Order::Desc;
        }
    }
    bound.sort_by_key(|(n, _)| *n);
    Ok(Mapped {
        pattern: structured,
        index: index.keys.name.map(str::to_string),
        sort_stated,
        scan,
        bound,
    })
}

/// `KEY = ?` (or a literal): the template's variables become inputs, the `?` its value.
fn key_equal(
    term: &Term,
    template: &KeyTemplate,
    structured: &mut AccessPattern,
    bound: &mut Vec<(usize, Bound)>,
    add_input: &mut impl FnMut(&mut AccessPattern, &str),
) -> Result<(), Unmapped> {
    match &term.values[..] {
        [Value::Parameter(n)] => {
            for var in template.attribute_vars() {
                add_input(structured, &var.name);
            }
            bound.push((
                *n,
                Bound::Key(term.attribute.clone(), template.source().to_string()),
            ));
            Ok(())
        }
        [Value::Literal(text)] if template.is_constant() && template.source() == text => Ok(()),
        _ => Err(Unmapped::new(
            Clause::Where,
            term.at,
            format!(
                "`{}` is given a value keyplan cannot match to its template `{}`: bind it with `?`",
                term.attribute,
                template.source()
            ),
        )),
    }
}

/// A range or begins_with on the sort key: the pattern's sort condition, on the template's
/// first variable the inputs leave free; a literal begins_with that only narrows to the
/// template's own prefix (`begins_with(SK, 'ORDER#')`) is the entity's type, which the
/// template already says. What the pattern itself declares decides what a `?` holds: its
/// inputs bind the template's leading variables (`begins_with(SK, ?)` with `date` an input is
/// the prefix `DATE#{date}#STATUS#`), its sort condition names the variable ranged over.
fn sort_range(
    term: &Term,
    op: FilterOp,
    template: &KeyTemplate,
    declared: &AccessPattern,
    structured: &mut AccessPattern,
    bound: &mut Vec<(usize, Bound)>,
) -> Result<(), Unmapped> {
    let cannot = |why: String| Unmapped::new(Clause::Where, term.at, why);
    if let (FilterOp::BeginsWith, [Value::Literal(prefix)]) = (op, &term.values[..])
        && template.literal_prefix().starts_with(prefix.as_str())
    {
        return Ok(());
    }
    // A BETWEEN with one end a literal bounds only the other way: the literal is the end of
    // the entity's prefix, as keyplan's own key condition writes a range (`BETWEEN ? AND
    // 'ORDER$'` is `>=`).
    let op = match (op, &term.values[..]) {
        (FilterOp::Between, [Value::Parameter(_), Value::Literal(_)]) => FilterOp::Ge,
        (FilterOp::Between, [Value::Literal(_), Value::Parameter(_)]) => FilterOp::Le,
        (op, _) => op,
    };
    let sort_op = match op {
        FilterOp::Eq => SortOp::Eq,
        FilterOp::Lt => SortOp::Lt,
        FilterOp::Le => SortOp::Le,
        FilterOp::Gt => SortOp::Gt,
        FilterOp::Ge => SortOp::Ge,
        FilterOp::Between => SortOp::Between,
        FilterOp::BeginsWith => SortOp::BeginsWith,
        other => {
            return Err(cannot(format!(
                "`{}` on the sort key `{}` is no key condition keyplan maps",
                other.as_str(),
                term.attribute
            )));
        }
    };
    if structured.sort.is_some() {
        return Err(cannot(format!(
            "a second condition on the sort key `{}`: a key condition has one",
            term.attribute
        )));
    }
    let literals = term
        .values
        .iter()
        .filter(|v| matches!(v, Value::Literal(_)))
        .count();
    if literals == term.values.len() {
        return Err(cannot(format!(
            "a literal value on the sort key `{}` keyplan cannot map to its template `{}`: bind it with `?`",
            term.attribute,
            template.source()
        )));
    }
    for (i, value) in term.values.iter().enumerate() {
        if let Value::Parameter(n) = value {
            bound.push((*n, Bound::Sort(i)));
        }
    }
    let free: Vec<String> = template
        .attribute_vars()
        .filter(|v| !structured.inputs.contains(&v.name))
        .map(|v| v.name.clone())
        .collect();
    let mut free = free.into_iter().peekable();
    // The leading variables the pattern declares as inputs are part of the prefix.
    while let Some(var) = free.next_if(|v| {
        declared.inputs.contains(v) && declared.sort.as_ref().is_none_or(|s| s.attribute != *v)
    }) {
        structured.inputs.push(var);
    }
    let ranged = match (&declared.sort, free.peek()) {
        (Some(sort), _) if template.attribute_vars().any(|v| v.name == sort.attribute) => {
            Some(sort.attribute.clone())
        }
        // Every variable up to here is an input: a begins_with on that prefix.
        (_, _)
            if sort_op == SortOp::BeginsWith
                && !structured.inputs.is_empty()
                && declared
                    .inputs
                    .iter()
                    .any(|i| template.attribute_vars().any(|v| v.name == *i)) =>
        {
            None
        }
        (_, Some(var)) => Some(var.clone()),
        (_, None) => {
            return Err(cannot(format!(
                "the sort key `{}`'s template `{}` has no variable left to range over",
                term.attribute,
                template.source()
            )));
        }
    };
    // A sort condition the pattern declares on that variable keeps its operator: `> ?` is
    // sent as `>= ?` with the value past it (`{createdAt}$`), as keyplan writes it.
    let op = match &declared.sort {
        Some(sort) if Some(&sort.attribute) == ranged.as_ref() => sort.op,
        _ => sort_op,
    };
    structured.sort = ranged.map(|attribute| SortCondition { attribute, op });
    Ok(())
}

/// Any other condition: a filter on its attribute, each `?` one of its values.
fn filter(term: &Term, structured: &mut AccessPattern, bound: &mut Vec<(usize, Bound)>) {
    let mut condition = FilterCondition::new(term.attribute.clone(), term.op);
    if term.op == FilterOp::In {
        condition.count = u32::try_from(term.values.len()).ok();
    }
    for (i, value) in term.values.iter().enumerate() {
        if let Value::Parameter(n) = value {
            bound.push((*n, Bound::Filter(term.attribute.clone(), i)));
        }
    }
    structured.filter.push(condition);
}
