//! Key values: a key attribute's value typed so that its order is DynamoDB's ([`KeyValue`]),
//! the values of a key as the store keeps them (`Keys`), read from an item and summarised for
//! sorting, and a key rendered from its template ([`render_key`]). Nothing here knows of a
//! table, an index or a query.

use std::borrow::Cow;
use std::cmp::Ordering;

use base64::Engine as _;

use crate::item::{AttributeValue, Item, decode_binary};
use crate::model::{KeyAttribute, KeyType};
use crate::number::Decimal;
use crate::template::{KeyTemplate, Part};

/// A key attribute's value, typed so that the derived order is DynamoDB's order.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum KeyValue {
    /// Compared by UTF-8 bytes, which is `String`'s own order.
    S(String),
    N(Decimal),
    /// Compared by the decoded bytes.
    B(Vec<u8>),
}

impl KeyValue {
    /// The typed key value of `value` for a key of type `ty`.
    pub fn from_attribute(value: &AttributeValue, ty: KeyType) -> Result<KeyValue, String> {
        match (ty, value) {
            (KeyType::S, AttributeValue::S(s)) if !s.is_empty() => Ok(KeyValue::S(s.clone())),
            (KeyType::N, AttributeValue::N(n)) => Decimal::parse(n)
                .map(KeyValue::N)
                .map_err(|e| e.to_string()),
            (KeyType::B, AttributeValue::B(b)) => match decode_binary(b) {
                Some(bytes) if !bytes.is_empty() => Ok(KeyValue::B(bytes)),
                Some(_) => Err("an empty binary value cannot be a key".to_string()),
                None => Err(format!("`{b}` is not base64")),
            },
            (_, AttributeValue::S(s)) if s.is_empty() => {
                Err("an empty string cannot be a key".to_string())
            }
            (ty, other) => Err(format!("a {ty:?} key cannot hold {}", type_name(other))),
        }
    }
}

/// Encodes bytes as a binary attribute's base64 text.
pub fn encode_binary(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

fn type_name(value: &AttributeValue) -> &'static str {
    match value {
        AttributeValue::S(_) => "a string",
        AttributeValue::N(_) => "a number",
        AttributeValue::B(_) => "binary",
        AttributeValue::Bool(_) => "a boolean",
        AttributeValue::Null(_) => "null",
        AttributeValue::M(_) => "a map",
        AttributeValue::L(_) => "a list",
        AttributeValue::SS(_) => "a string set",
        AttributeValue::NS(_) => "a number set",
        AttributeValue::BS(_) => "a binary set",
    }
}

/// The values of a key (its attributes' in order), a one-attribute key's held in place: every
/// key but a multi-attribute one. A vector each was two more allocations per entry and a
/// pointer further from every comparison of the store's sorts and searches (200,000 entries at
/// 10,000 entities, issue 13). Compared, ordered and hashed as the slice of its values.
#[derive(Debug, Clone, Default)]
pub(super) enum Keys {
    #[default]
    Empty,
    One(KeyValue),
    Many(Vec<KeyValue>),
}

impl Keys {
    pub(super) fn as_slice(&self) -> &[KeyValue] {
        match self {
            Keys::Empty => &[],
            Keys::One(value) => std::slice::from_ref(value),
            Keys::Many(values) => values,
        }
    }
}

impl std::ops::Deref for Keys {
    type Target = [KeyValue];

    fn deref(&self) -> &[KeyValue] {
        self.as_slice()
    }
}

impl PartialEq for Keys {
    fn eq(&self, other: &Keys) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for Keys {}

impl PartialOrd for Keys {
    fn partial_cmp(&self, other: &Keys) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Keys {
    fn cmp(&self, other: &Keys) -> Ordering {
        self.as_slice().cmp(other.as_slice())
    }
}

/// The values of `item`'s key `keys`, or the first key attribute it lacks (with why its value
/// cannot be a key, when it has one).
pub(super) fn key_values<'k>(
    item: &Item,
    keys: &'k [KeyAttribute],
) -> Result<Keys, (&'k str, Option<String>)> {
    let value = |k: &'k KeyAttribute| match item.get(&k.name) {
        None => Err((k.name.as_str(), None)),
        Some(v) => KeyValue::from_attribute(v, k.ty).map_err(|e| (k.name.as_str(), Some(e))),
    };
    let [first, rest @ ..] = keys else {
        return Ok(Keys::Empty);
    };
    let first = value(first)?;
    if rest.is_empty() {
        return Ok(Keys::One(first));
    }
    // A plain loop into an exact-size vector: this runs for every item and index on a load,
    // and most items are not in most indexes, so nothing is allocated before a key is found.
    let mut out = Vec::with_capacity(keys.len());
    out.push(first);
    for k in rest {
        out.push(value(k)?);
    }
    Ok(Keys::Many(out))
}

/// An order-keeping summary of key values: the first value's variant, then the first 31 bytes
/// of its text (a string's or binary's; none of a number), zero-padded. Where two summaries
/// differ the values compare as they do (a zero pad is below any byte, and the variants are in
/// [`KeyValue`]'s order), so that a sort follows the values' pointers only on a tie: it
/// compared the full keys of 100,000 items, a cache miss each (issue 13). 31 bytes, not 15:
/// keys share long beginnings (`PARENT123#parent_`, `CUSTOMER#cust_`), and 15 bytes left most
/// of a table's comparisons to the full keys.
pub(super) fn key_summary(values: &[KeyValue]) -> (u128, u128) {
    let (variant, text): (u8, &[u8]) = match values.first() {
        None => return (0, 0),
        Some(KeyValue::S(s)) => (1, s.as_bytes()),
        Some(KeyValue::N(_)) => (2, &[]),
        Some(KeyValue::B(b)) => (3, b),
    };
    let mut head = [0u8; 32];
    head[0] = variant;
    let n = text.len().min(31);
    head[1..=n].copy_from_slice(&text[..n]);
    let (high, low) = head.split_at(16);
    (
        u128::from_be_bytes(high.try_into().unwrap_or_default()),
        u128::from_be_bytes(low.try_into().unwrap_or_default()),
    )
}

/// A key attribute's value rendered from `template`, typed for `ty`: a number's text for N
/// (`None` if the text is not a number), base64 of the text for B (a template that is just one
/// binary attribute keeps its value). `None` when a variable has no value or the text is empty.
pub fn render_key(
    template: &KeyTemplate,
    ty: KeyType,
    mut value: impl FnMut(&crate::template::Var) -> Option<AttributeValue>,
) -> Option<AttributeValue> {
    render_key_cow(template, ty, |v| value(v).map(Cow::Owned))
}

/// [`render_key`] with values that may be borrowed, which saves a copy per variable.
pub fn render_key_cow<'a>(
    template: &KeyTemplate,
    ty: KeyType,
    value: impl FnMut(&crate::template::Var) -> Option<Cow<'a, AttributeValue>>,
) -> Option<AttributeValue> {
    render_key_in(template, ty, value, &mut String::new())
}

/// [`render_key_cow`] writing the text into `buffer` (cleared first): a caller rendering many
/// keys grows one buffer, and each key's string is allocated once at its exact length.
pub(crate) fn render_key_in<'a>(
    template: &KeyTemplate,
    ty: KeyType,
    mut value: impl FnMut(&crate::template::Var) -> Option<Cow<'a, AttributeValue>>,
    buffer: &mut String,
) -> Option<AttributeValue> {
    let parts = template.parts();
    if ty == KeyType::B
        && let [Part::Var(var)] = parts
        && let Some(found) = value(var)
        && let AttributeValue::B(b) = found.as_ref()
    {
        return Some(AttributeValue::B(b.clone()));
    }
    buffer.clear();
    for part in parts {
        match part {
            Part::Literal(s) => buffer.push_str(s),
            Part::Var(var) => buffer.push_str(value(var)?.as_key_text()?),
        }
    }
    typed_key(buffer, ty)
}

/// A rendered key's text as a value of type `ty`, as [`render_key`] gives it: `None` when the
/// text is empty or not a number for N.
fn typed_key(text: &str, ty: KeyType) -> Option<AttributeValue> {
    if text.is_empty() {
        return None;
    }
    match ty {
        KeyType::S => Some(AttributeValue::S(text.to_owned())),
        KeyType::N => Decimal::parse(text)
            .ok()
            .map(|d| AttributeValue::N(d.to_string())),
        KeyType::B => Some(AttributeValue::B(encode_binary(text.as_bytes()))),
    }
}

/// [`typed_key`] of a text the caller no longer needs: a string key keeps it, not a copy.
pub(super) fn typed_key_of(text: String, ty: KeyType) -> Option<AttributeValue> {
    match ty {
        KeyType::S if !text.is_empty() => Some(AttributeValue::S(text)),
        _ => typed_key(&text, ty),
    }
}
