//! Verdicts to queries: a coverage [`Verdict`] and input values (attribute name to text)
//! become the [`KeyQuery`]s a read pattern runs ([`plan`]), one per write shard, with its keys
//! rendered from their templates and its filter's values typed.

use std::collections::BTreeMap;

use serde::Serialize;

use super::filter::FilterTest;
use super::key::{encode_binary, typed_key_of};
use super::query::{KeyQuery, QueryError, SortTest};
use crate::answer::{Operation, QuerySpec, Verdict};
use crate::item::AttributeValue;
use crate::model::{AccessPattern, AttrType, Design, FilterOp, KeyType, Table};
use crate::number::Decimal;
use crate::template::{KeyTemplate, Part};

/// Why a verdict cannot be turned into queries.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    #[error("`{0}` is not served by GetItem or Query ({1}), so there is nothing to evaluate")]
    NotAKeyRead(String, &'static str),
    #[error("`{0}` is served by {1}, not by a Scan")]
    NotAScan(String, &'static str),
    #[error("`{0}` is served by {1}, not by a vector search")]
    NotAVectorSearch(String, &'static str),
    #[error("the search vector holds {given} numbers; vector index {index} holds {dimensions}")]
    VectorLength {
        given: usize,
        index: String,
        dimensions: u32,
    },
    #[error("the verdict for `{0}` names no table or key condition")]
    Incomplete(String),
    #[error("no value for `{0}`: give it with --input {0}=VALUE")]
    MissingInput(String),
    #[error("no sample item of {0} to take input values from")]
    NoSample(String),
    #[error(transparent)]
    Query(#[from] QueryError),
}

/// What a read pattern runs: its queries (one per shard for a scatter-gather) and operation.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ReadPlan {
    pub pattern: String,
    pub operation: Operation,
    pub queries: Vec<KeyQuery>,
}

/// The key attribute `name` of the verdict's table or index.
fn key_type(table: &Table, name: &str) -> KeyType {
    table.key_attribute(name).map_or(KeyType::S, |k| k.ty)
}

/// Turns a verdict and input values (attribute name to text) into the queries it runs. A
/// write-sharded partition key becomes one query per shard. The pattern's `page_size` is the
/// Limit; its `consistent` flag the ConsistentRead.
pub fn plan(
    design: &Design,
    verdict: &Verdict,
    pattern: &AccessPattern,
    inputs: &BTreeMap<String, String>,
) -> Result<ReadPlan, PlanError> {
    if !matches!(verdict.operation, Operation::GetItem | Operation::Query) {
        return Err(PlanError::NotAKeyRead(
            verdict.pattern.clone(),
            verdict.operation.as_str(),
        ));
    }
    let incomplete = || PlanError::Incomplete(verdict.pattern.clone());
    let (Some(table_name), Some(spec)) = (&verdict.table, &verdict.query) else {
        return Err(incomplete());
    };
    let table = design.table(table_name).ok_or_else(incomplete)?;
    let shards = verdict.shards.unwrap_or(1).max(1);
    let mut queries = Vec::with_capacity(shards as usize);
    for shard in 0..shards {
        queries.push(plan_one(
            design, table, verdict, pattern, spec, inputs, shard,
        )?);
    }
    Ok(ReadPlan {
        pattern: verdict.pattern.clone(),
        operation: verdict.operation,
        queries,
    })
}

fn plan_one(
    design: &Design,
    table: &Table,
    verdict: &Verdict,
    pattern: &AccessPattern,
    spec: &QuerySpec,
    inputs: &BTreeMap<String, String>,
    shard: u32,
) -> Result<KeyQuery, PlanError> {
    // What `render_key` makes of the inputs' text values (the shard's number for a shard
    // variable), written into one string instead of a copy of each value (issue 13).
    let shard_text = shard.to_string();
    fn piece<'a>(
        part: &'a Part,
        shard_text: &'a str,
        inputs: &'a BTreeMap<String, String>,
    ) -> Result<&'a str, PlanError> {
        match part {
            Part::Literal(literal) => Ok(literal),
            Part::Var(v) if v.shards.is_some() => Ok(shard_text),
            Part::Var(v) => inputs
                .get(&v.name)
                .map(String::as_str)
                .ok_or_else(|| PlanError::MissingInput(v.name.clone())),
        }
    }
    let render = |attribute: &str, template: &KeyTemplate| -> Result<AttributeValue, PlanError> {
        // Measured first, then written into a string of that size: grown by doubling, it was
        // reallocated twice a key (60,000 keys at 10,000 entities).
        let mut len = 0;
        for part in template.parts() {
            len += piece(part, &shard_text, inputs)?.len();
        }
        let mut text = String::with_capacity(len);
        for part in template.parts() {
            text.push_str(piece(part, &shard_text, inputs)?);
        }
        let ty = key_type(table, attribute);
        typed_key_of(text, ty).ok_or_else(|| {
            PlanError::Query(QueryError::BadKeyValue {
                attribute: attribute.to_string(),
                message: format!("`{template}` does not render to a valid {ty:?} value"),
            })
        })
    };
    let mut query = KeyQuery::new(&table.name, verdict.index.as_deref(), Vec::new());
    for part in &spec.partition {
        query.partition.push((
            part.attribute.clone(),
            render(&part.attribute, &part.template)?,
        ));
    }
    for part in &spec.sort_equal {
        query.sort_equal.push((
            part.attribute.clone(),
            render(&part.attribute, &part.template)?,
        ));
    }
    if let Some(condition) = &spec.sort_condition {
        let values = condition
            .values
            .iter()
            .map(|t| render(&condition.attribute, t))
            .collect::<Result<Vec<_>, _>>()?;
        query.sort_condition = Some(SortTest {
            attribute: condition.attribute.clone(),
            op: condition.op,
            values,
        });
    }
    query.filter = filter_tests(design, verdict, pattern, inputs)?;
    query.forward = verdict.scan_forward;
    // A Query sorted in memory reads every matching item; the page is taken after the sort
    // ([`super::sort_in_memory`]).
    query.limit = match verdict.sorted_in_memory {
        Some(_) => None,
        None => pattern.page_size,
    };
    query.consistent = pattern.consistent;
    Ok(query)
}

/// The verdict's FilterExpression with the inputs' values typed: the conditions every item a
/// Query or a Scan returns meets (none without a filter).
pub(super) fn filter_tests(
    design: &Design,
    verdict: &Verdict,
    pattern: &AccessPattern,
    inputs: &BTreeMap<String, String>,
) -> Result<Vec<FilterTest>, PlanError> {
    let Some(expression) = &verdict.filter else {
        return Ok(Vec::new());
    };
    let mut tests = Vec::with_capacity(expression.terms.len());
    for term in &expression.terms {
        let ty = filter_value_type(design, pattern, &term.attribute, term.op);
        let values = term
            .inputs
            .iter()
            .map(|name| {
                let text = inputs
                    .get(name)
                    .ok_or_else(|| PlanError::MissingInput(name.clone()))?;
                typed_filter_value(text, ty).ok_or_else(|| {
                    PlanError::Query(QueryError::BadKeyValue {
                        attribute: term.attribute.clone(),
                        message: format!("`{text}` is not a valid {} value", ty.as_str()),
                    })
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        tests.push(FilterTest {
            attribute: term.attribute.clone(),
            op: term.op,
            values,
        });
    }
    Ok(tests)
}

/// The type of a filter value on `attribute`: the attribute's own type among the pattern's
/// entities, or its elements' for `contains` on a set (a string for a list, or unknown).
fn filter_value_type(
    design: &Design,
    pattern: &AccessPattern,
    attribute: &str,
    op: FilterOp,
) -> AttrType {
    let ty = pattern
        .entities
        .iter()
        .filter_map(|e| design.entity(e)?.attribute(attribute))
        .map(|a| a.ty)
        .next()
        .unwrap_or(AttrType::S);
    match (op, ty) {
        (FilterOp::Contains, AttrType::SS | AttrType::L | AttrType::M) => AttrType::S,
        (FilterOp::Contains, AttrType::NS) => AttrType::N,
        (FilterOp::Contains, AttrType::BS) => AttrType::B,
        (_, ty) => ty,
    }
}

/// An input's text as a filter value of type `ty`: a number must be one, binary is the
/// text's bytes (as a key renders it), a boolean `true` or `false`; other types are compared
/// as strings. `None` when the text is not of the type.
fn typed_filter_value(text: &str, ty: AttrType) -> Option<AttributeValue> {
    match ty {
        AttrType::N => Decimal::parse(text)
            .ok()
            .map(|d| AttributeValue::N(d.to_string())),
        AttrType::B => Some(AttributeValue::B(encode_binary(text.as_bytes()))),
        AttrType::Bool => match text {
            "true" => Some(AttributeValue::Bool(true)),
            "false" => Some(AttributeValue::Bool(false)),
            _ => None,
        },
        _ => Some(AttributeValue::S(text.to_string())),
    }
}
