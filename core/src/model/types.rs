//! The types of attributes: the scalar types a key can have ([`KeyType`]) and every DynamoDB
//! attribute type ([`AttrType`]), with the names the design file gives them.

use serde::{Deserialize, Serialize};

/// The scalar types a key attribute can have.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize,
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum KeyType {
    #[default]
    S,
    N,
    B,
}

/// Every DynamoDB attribute type.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize,
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum AttrType {
    #[default]
    S,
    N,
    B,
    #[serde(rename = "BOOL")]
    Bool,
    #[serde(rename = "NULL")]
    Null,
    M,
    L,
    SS,
    NS,
    BS,
}

impl AttrType {
    /// Every attribute type, in DynamoDB's documentation order.
    /// A share link codes each by its position here (share::v1): append only, never reorder.
    pub const ALL: [AttrType; 10] = [
        AttrType::S,
        AttrType::N,
        AttrType::B,
        AttrType::Bool,
        AttrType::Null,
        AttrType::M,
        AttrType::L,
        AttrType::SS,
        AttrType::NS,
        AttrType::BS,
    ];

    /// DynamoDB's name of the type: `S`, `BOOL`, `SS`.
    pub fn as_str(self) -> &'static str {
        match self {
            AttrType::S => "S",
            AttrType::N => "N",
            AttrType::B => "B",
            AttrType::Bool => "BOOL",
            AttrType::Null => "NULL",
            AttrType::M => "M",
            AttrType::L => "L",
            AttrType::SS => "SS",
            AttrType::NS => "NS",
            AttrType::BS => "BS",
        }
    }

    /// The key type this attribute type can serve as, if any.
    pub fn as_key_type(self) -> Option<KeyType> {
        match self {
            AttrType::S => Some(KeyType::S),
            AttrType::N => Some(KeyType::N),
            AttrType::B => Some(KeyType::B),
            _ => None,
        }
    }
}

impl From<KeyType> for AttrType {
    /// The attribute type of a key of type `ty`.
    fn from(ty: KeyType) -> AttrType {
        match ty {
            KeyType::S => AttrType::S,
            KeyType::N => AttrType::N,
            KeyType::B => AttrType::B,
        }
    }
}

impl AttrType {
    /// The type of `value`.
    pub fn of(value: &crate::item::AttributeValue) -> AttrType {
        use crate::item::AttributeValue as V;
        match value {
            V::S(_) => AttrType::S,
            V::N(_) => AttrType::N,
            V::B(_) => AttrType::B,
            V::Bool(_) => AttrType::Bool,
            V::Null(_) => AttrType::Null,
            V::M(_) => AttrType::M,
            V::L(_) => AttrType::L,
            V::SS(_) => AttrType::SS,
            V::NS(_) => AttrType::NS,
            V::BS(_) => AttrType::BS,
        }
    }
}
