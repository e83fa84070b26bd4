//! DynamoDB items and attribute values, in DynamoDB's own JSON shape (`{"S": "abc"}`).
//!
//! Used for imported sample data, generated items and query results. Numbers keep their
//! decimal text as DynamoDB does; binary values are base64 text. No IO here.

use std::collections::BTreeMap;

use base64::Engine as _;
use serde::{Deserialize, Serialize};

/// An item: attribute names to values, in a stable order.
pub type Item = BTreeMap<String, AttributeValue>;

/// One DynamoDB attribute value, serialised exactly as DynamoDB JSON.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum AttributeValue {
    S(String),
    /// A number, as its decimal text.
    N(String),
    /// Binary, as base64 text.
    B(String),
    #[serde(rename = "BOOL")]
    Bool(bool),
    #[serde(rename = "NULL")]
    Null(bool),
    M(BTreeMap<String, AttributeValue>),
    L(Vec<AttributeValue>),
    SS(Vec<String>),
    NS(Vec<String>),
    BS(Vec<String>),
}

impl AttributeValue {
    /// The value as key text: a string's or number's text; `None` for other types.
    pub fn as_key_text(&self) -> Option<&str> {
        match self {
            AttributeValue::S(s) | AttributeValue::N(s) | AttributeValue::B(s) => Some(s),
            _ => None,
        }
    }
}

/// Decodes a binary attribute's base64 text (standard alphabet, padding optional).
pub fn decode_binary(text: &str) -> Option<Vec<u8>> {
    base64::engine::general_purpose::STANDARD
        .decode(text)
        .or_else(|_| base64::engine::general_purpose::STANDARD_NO_PAD.decode(text))
        .ok()
}
