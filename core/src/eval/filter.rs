//! A FilterExpression applied to one item, with DynamoDB's semantics (issue 16): values of
//! different types are never equal (only `<>` holds), numbers compare as exact decimals,
//! binary by its decoded bytes, sets as sets, lists and maps deeply; a missing attribute meets
//! only `<>` and attribute_not_exists. `contains` finds a substring of a string, an element of
//! a set or a list; `begins_with` takes a string or binary. All conditions must hold (AND).

use std::cmp::Ordering;

use serde::Serialize;

use crate::item::{AttributeValue, Item, decode_binary};
use crate::model::FilterOp;
use crate::number::Decimal;

/// One filter condition with concrete values (none for attribute_exists, two for between).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FilterTest {
    pub attribute: String,
    pub op: FilterOp,
    pub values: Vec<AttributeValue>,
}

impl FilterTest {
    /// Whether `item` meets the condition.
    pub fn matches(&self, item: &Item) -> bool {
        let found = item.get(&self.attribute);
        let value = |i: usize| self.values.get(i);
        match self.op {
            FilterOp::Exists => found.is_some(),
            FilterOp::NotExists => found.is_none(),
            FilterOp::Ne => match (found, value(0)) {
                (Some(a), Some(b)) => !equal(a, b),
                _ => true,
            },
            _ => {
                let Some(a) = found else {
                    return false;
                };
                match self.op {
                    FilterOp::Eq => value(0).is_some_and(|b| equal(a, b)),
                    FilterOp::Lt => compare(a, value(0)).is_some_and(Ordering::is_lt),
                    FilterOp::Le => compare(a, value(0)).is_some_and(Ordering::is_le),
                    FilterOp::Gt => compare(a, value(0)).is_some_and(Ordering::is_gt),
                    FilterOp::Ge => compare(a, value(0)).is_some_and(Ordering::is_ge),
                    FilterOp::Between => {
                        compare(a, value(0)).is_some_and(Ordering::is_ge)
                            && compare(a, value(1)).is_some_and(Ordering::is_le)
                    }
                    FilterOp::In => self.values.iter().any(|b| equal(a, b)),
                    FilterOp::BeginsWith => match (a, value(0)) {
                        (AttributeValue::S(s), Some(AttributeValue::S(p))) => s.starts_with(p),
                        (AttributeValue::B(b), Some(AttributeValue::B(p))) => {
                            match (decode_binary(b), decode_binary(p)) {
                                (Some(b), Some(p)) => b.starts_with(&p),
                                _ => false,
                            }
                        }
                        _ => false,
                    },
                    FilterOp::Contains => value(0).is_some_and(|b| contains(a, b)),
                    FilterOp::Ne | FilterOp::Exists | FilterOp::NotExists => false,
                }
            }
        }
    }
}

/// Whether `item` meets every test.
pub fn matches_all(tests: &[FilterTest], item: &Item) -> bool {
    tests.iter().all(|t| t.matches(item))
}

/// The order of two scalars of one type (strings by UTF-8 bytes, numbers exactly, binary by
/// decoded bytes); `None` for other types or mismatched ones, which no ordering holds for.
fn compare(a: &AttributeValue, b: Option<&AttributeValue>) -> Option<Ordering> {
    match (a, b?) {
        (AttributeValue::S(a), AttributeValue::S(b)) => Some(a.as_bytes().cmp(b.as_bytes())),
        (AttributeValue::N(a), AttributeValue::N(b)) => {
            Some(Decimal::parse(a).ok()?.cmp(&Decimal::parse(b).ok()?))
        }
        (AttributeValue::B(a), AttributeValue::B(b)) => {
            Some(decode_binary(a)?.cmp(&decode_binary(b)?))
        }
        _ => None,
    }
}

fn same_number(a: &str, b: &str) -> bool {
    match (Decimal::parse(a), Decimal::parse(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// DynamoDB's equality: same type and same value, sets as sets, documents deeply.
fn equal(a: &AttributeValue, b: &AttributeValue) -> bool {
    use AttributeValue as V;
    match (a, b) {
        (V::S(_) | V::N(_) | V::B(_), _) => compare(a, Some(b)) == Some(Ordering::Equal),
        (V::Bool(a), V::Bool(b)) | (V::Null(a), V::Null(b)) => a == b,
        (V::SS(a), V::SS(b)) => sorted(a) == sorted(b),
        (V::NS(a), V::NS(b)) => {
            a.len() == b.len() && a.iter().all(|x| b.iter().any(|y| same_number(x, y)))
        }
        (V::BS(a), V::BS(b)) => {
            let decode = |set: &[String]| -> Option<Vec<Vec<u8>>> {
                let mut out: Vec<Vec<u8>> = set
                    .iter()
                    .map(|s| decode_binary(s))
                    .collect::<Option<_>>()?;
                out.sort();
                Some(out)
            };
            decode(a).is_some_and(|a| Some(a) == decode(b))
        }
        (V::L(a), V::L(b)) => a.len() == b.len() && a.iter().zip(b).all(|(x, y)| equal(x, y)),
        (V::M(a), V::M(b)) => {
            a.len() == b.len() && a.iter().all(|(k, x)| b.get(k).is_some_and(|y| equal(x, y)))
        }
        _ => false,
    }
}

fn sorted(set: &[String]) -> Vec<&str> {
    let mut out: Vec<&str> = set.iter().map(String::as_str).collect();
    out.sort_unstable();
    out
}

/// `contains(a, b)`: a substring of a string, a byte run of binary, an element of a set of
/// b's type, or an element of a list.
fn contains(a: &AttributeValue, b: &AttributeValue) -> bool {
    use AttributeValue as V;
    match (a, b) {
        (V::S(s), V::S(sub)) => s.contains(sub.as_str()),
        (V::B(bytes), V::B(sub)) => match (decode_binary(bytes), decode_binary(sub)) {
            (Some(bytes), Some(sub)) => {
                sub.is_empty() || bytes.windows(sub.len()).any(|w| w == sub.as_slice())
            }
            _ => false,
        },
        (V::SS(set), V::S(x)) => set.contains(x),
        (V::NS(set), V::N(x)) => set.iter().any(|m| same_number(m, x)),
        (V::BS(set), V::B(_)) => set.iter().any(|m| equal(&V::B(m.clone()), b)),
        (V::L(list), x) => list.iter().any(|m| equal(m, x)),
        _ => false,
    }
}
