//! What DynamoDB accepts as the key of a GetItem or the key condition of a Query: one
//! authority (issue 16) that coverage asks before it calls a pattern covered, the evaluator
//! asks before it answers a query, and the access-code exporter asks before it writes a call.
//! Before it, each of them knew a part of the rules, and `check` called covered a begins_with
//! on a number sort key that the evaluator refused and DynamoDB rejects.
//!
//! The rules, as DynamoDB's Query and GetItem references state them:
//! - the partition key is matched whole, by equality: every attribute of it (all of a
//!   multi-attribute GSI key), each once, and nothing that is not a key of the index;
//! - the sort key's attributes are matched left to right: equalities on a leading run of them,
//!   then at most one condition (`=`, `<`, `<=`, `>`, `>=`, `BETWEEN`, `begins_with`) on the next
//!   one, the last attribute the condition uses; a later attribute without the ones before it
//!   is refused;
//! - `BETWEEN` takes two values, every other operator one;
//! - `begins_with` takes a string (S) or binary (B) sort key only;
//! - a GSI is eventually consistent: ConsistentRead on it is refused;
//! - GetItem reads the table, never an index, and needs the whole primary key by equality;
//! - an LSI is queried with the table's partition key ([`crate::model::Table::indexes`] gives
//!   an LSI the table's partition key, so its key condition is checked against it).
//!
//! - in a FilterExpression, `begins_with` takes a string or binary operand, and the ordering
//!   comparisons (`<`, `<=`, `>`, `>=`, `BETWEEN`) a string, number or binary one: a filter on
//!   an attribute of another type is refused whatever the index ([`filter_condition`]).
//!
//! The values themselves (a number key given text, an empty string) are the evaluator's to
//! check, since only it has them; everything here is about the condition's shape, so it can be
//! asked of a verdict's key templates as well as of a query with values.

use crate::model::{AttrType, FilterOp, IndexKeys, IndexKind, KeyAttribute, KeyType, SortOp};

/// The keys of the table or index a read is sent to.
#[derive(Debug, Clone, Copy)]
pub struct Schema<'a> {
    pub kind: IndexKind,
    pub partition_key: &'a [KeyAttribute],
    pub sort_key: &'a [KeyAttribute],
}

impl<'a> From<&IndexKeys<'a>> for Schema<'a> {
    fn from(keys: &IndexKeys<'a>) -> Schema<'a> {
        Schema {
            kind: keys.kind,
            partition_key: keys.partition_key,
            sort_key: keys.sort_key,
        }
    }
}

/// The read a key condition belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Read {
    GetItem,
    Query,
}

/// The condition on the sort-key attribute after the equalities: its attribute, operator and
/// how many values it was given.
#[derive(Debug, Clone, Copy)]
pub struct Test<'a> {
    pub attribute: &'a str,
    pub op: SortOp,
    pub values: usize,
}

/// Why DynamoDB would refuse a read, in the words of its rules.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    #[error("the key condition gives no value for `{0}`, a partition key attribute")]
    MissingPartitionKey(String),
    #[error("`{0}` is not a key attribute of the index queried, or is given twice")]
    NotAKey(String),
    #[error(
        "`{attribute}` is used without `{before}`, which comes before it in the key: key attributes are matched left to right"
    )]
    OutOfOrder { attribute: String, before: String },
    #[error("the condition on `{0}` has no sort-key attribute left to apply to")]
    NoSortKeyLeft(String),
    #[error("begins_with needs a string or binary sort key; `{0}` is a number")]
    BeginsWithOnNumber(String),
    #[error("`{attribute}`: {op} takes {expected} value(s), not {found}")]
    Arity {
        attribute: String,
        op: &'static str,
        expected: usize,
        found: usize,
    },
    #[error("consistent reads are not supported on global secondary indexes")]
    ConsistentOnGsi,
    #[error("GetItem reads the table's primary key, not an index")]
    GetItemOnIndex,
    #[error("GetItem needs the whole primary key by equality; `{0}` has no value")]
    GetItemIncomplete(String),
    #[error("GetItem takes no condition on `{0}`: it needs the whole primary key by equality")]
    GetItemWithCondition(String),
    #[error("the filter's {op} takes {takes}; `{attribute}` is {ty}")]
    FilterOperand {
        attribute: String,
        op: &'static str,
        takes: &'static str,
        ty: &'static str,
    },
}

/// Whether DynamoDB takes `op` in a FilterExpression on `attribute`, of type `ty` (its values
/// are of that type): DynamoDB refuses the whole request otherwise ("Incorrect operand type
/// for operator or function").
pub fn filter_condition(attribute: &str, ty: AttrType, op: FilterOp) -> Result<(), Refusal> {
    let scalar = matches!(ty, AttrType::S | AttrType::N | AttrType::B);
    let (ok, takes) = match op {
        FilterOp::BeginsWith => (
            matches!(ty, AttrType::S | AttrType::B),
            "a string or binary value",
        ),
        FilterOp::Lt | FilterOp::Le | FilterOp::Gt | FilterOp::Ge | FilterOp::Between => {
            (scalar, "a string, number or binary value")
        }
        _ => (true, ""),
    };
    if ok {
        return Ok(());
    }
    Err(Refusal::FilterOperand {
        attribute: attribute.to_string(),
        op: op.as_str(),
        takes,
        ty: type_words(ty),
    })
}

fn type_words(ty: AttrType) -> &'static str {
    match ty {
        AttrType::S => "a string",
        AttrType::N => "a number",
        AttrType::B => "binary",
        AttrType::Bool => "a boolean",
        AttrType::Null => "null",
        AttrType::M => "a map",
        AttrType::L => "a list",
        AttrType::SS => "a string set",
        AttrType::NS => "a number set",
        AttrType::BS => "a binary set",
    }
}

/// Whether a strongly consistent read of this kind of index is accepted.
pub fn consistent_read(kind: IndexKind, consistent: bool) -> Result<(), Refusal> {
    if consistent && kind == IndexKind::Gsi {
        Err(Refusal::ConsistentOnGsi)
    } else {
        Ok(())
    }
}

/// Checks a read's key condition against DynamoDB's rules: the partition-key attributes given
/// equalities (in any order), the sort-key attributes given equalities (in the order given),
/// and the condition on the next sort-key attribute, if any.
pub fn key_condition<'n>(
    schema: Schema<'_>,
    read: Read,
    consistent: bool,
    partition: impl IntoIterator<Item = &'n str> + Clone,
    sort_equal: impl IntoIterator<Item = &'n str> + Clone,
    test: Option<Test<'_>>,
) -> Result<(), Refusal> {
    if read == Read::GetItem && schema.kind != IndexKind::Table {
        return Err(Refusal::GetItemOnIndex);
    }
    consistent_read(schema.kind, consistent)?;
    // The partition key, whole and by equality.
    for name in partition.clone() {
        let times = partition.clone().into_iter().filter(|n| *n == name).count();
        if times > 1 || !schema.partition_key.iter().any(|k| k.name == name) {
            return Err(Refusal::NotAKey(name.to_string()));
        }
    }
    if let Some(key) = schema
        .partition_key
        .iter()
        .find(|k| !partition.clone().into_iter().any(|n| n == k.name))
    {
        return Err(Refusal::MissingPartitionKey(key.name.clone()));
    }
    // The sort key's leading attributes, left to right.
    let mut used = 0;
    for name in sort_equal {
        match schema.sort_key.iter().position(|k| k.name == name) {
            Some(at) if at == used => used += 1,
            Some(at) if at > used => {
                return Err(Refusal::OutOfOrder {
                    attribute: name.to_string(),
                    before: schema.sort_key[used].name.clone(),
                });
            }
            // Given twice, or not a sort key of this index.
            _ => return Err(Refusal::NotAKey(name.to_string())),
        }
    }
    match test {
        None => {
            if read == Read::GetItem
                && let Some(key) = schema.sort_key.get(used)
            {
                return Err(Refusal::GetItemIncomplete(key.name.clone()));
            }
        }
        Some(test) => {
            if read == Read::GetItem {
                return Err(Refusal::GetItemWithCondition(test.attribute.to_string()));
            }
            let Some(next) = schema.sort_key.get(used) else {
                return Err(
                    if schema.sort_key.iter().any(|k| k.name == test.attribute) {
                        Refusal::NoSortKeyLeft(test.attribute.to_string())
                    } else {
                        Refusal::NotAKey(test.attribute.to_string())
                    },
                );
            };
            if next.name != test.attribute {
                let later = schema.sort_key[used..]
                    .iter()
                    .any(|k| k.name == test.attribute);
                return Err(if later {
                    Refusal::OutOfOrder {
                        attribute: test.attribute.to_string(),
                        before: next.name.clone(),
                    }
                } else {
                    Refusal::NotAKey(test.attribute.to_string())
                });
            }
            let expected = if test.op == SortOp::Between { 2 } else { 1 };
            if test.values != expected {
                return Err(Refusal::Arity {
                    attribute: test.attribute.to_string(),
                    op: test.op.as_str(),
                    expected,
                    found: test.values,
                });
            }
            if test.op == SortOp::BeginsWith && next.ty == KeyType::N {
                return Err(Refusal::BeginsWithOnNumber(next.name.clone()));
            }
        }
    }
    Ok(())
}

/// Checks a verdict's structured key condition: [`key_condition`] on its key parts.
pub fn query_spec(
    schema: Schema<'_>,
    read: Read,
    consistent: bool,
    spec: &crate::answer::QuerySpec,
) -> Result<(), Refusal> {
    key_condition(
        schema,
        read,
        consistent,
        spec.partition.iter().map(|p| p.attribute.as_str()),
        spec.sort_equal.iter().map(|p| p.attribute.as_str()),
        spec.sort_condition.as_ref().map(|c| Test {
            attribute: &c.attribute,
            op: c.op,
            values: c.values.len(),
        }),
    )
}

#[cfg(test)]
mod tests;
