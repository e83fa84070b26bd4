//! Item sizes and capacity units by DynamoDB's published rules.
//!
//! An item's size is the UTF-8 bytes of every attribute name plus its value's size: strings
//! their UTF-8 bytes, binary its raw (decoded) bytes, numbers 1 byte per two significant digits
//! plus 1, booleans and nulls 1 byte, lists and maps 3 bytes plus 1 per element plus their
//! elements (names included for a map), sets the sum of their elements. Nothing here rounds
//! except the unit functions, which round up to DynamoDB's 4 KB read and 1 KB write units: the
//! one home of that rounding (issue 42). [`bytes_text`] is how keyplan writes a byte count, in
//! the 1,024-byte KB DynamoDB bills by.

use crate::item::{AttributeValue, Item, decode_binary};
use crate::limits::{READ_UNIT_BYTES, WRITE_UNIT_BYTES};
use crate::number::significant_digits;

/// How a read is made, which sets its price per 4 KB.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Consistency {
    /// Half a unit per 4 KB (DynamoDB's default).
    Eventual,
    /// One unit per 4 KB.
    Strong,
    /// Two units per 4 KB (TransactGetItems).
    Transactional,
}

impl Consistency {
    /// Read units per 4 KB.
    pub fn units_per_block(self) -> f64 {
        match self {
            Consistency::Eventual => 0.5,
            Consistency::Strong => 1.0,
            Consistency::Transactional => 2.0,
        }
    }
}

/// The size of an item in bytes.
pub fn item_size(item: &Item) -> usize {
    item.iter()
        .map(|(name, value)| attribute_size(name, value))
        .sum()
}

/// The size DynamoDB bills an item at in a table with `vector_indexes`: an attribute a vector
/// index reads, holding a list of that index's dimensions in numbers, costs its name and 4
/// bytes a dimension whatever its numbers (once however many indexes read it); the rest as
/// [`item_size`]. Not in AWS's pages keyplan found: the embedded engine's (dynoxide-rs 3.2.0,
/// `types::billed_item_size`), which says it captured it from DynamoDB in eu-west-2 and
/// us-east-1 on 2026-10-09 and 2026-10-23. The 400 KB limit still counts the numbers.
pub fn billed_item_size(item: &Item, vector_indexes: &[crate::model::VectorIndex]) -> usize {
    item.iter()
        .map(|(name, value)| {
            let vector = vector_indexes.iter().find(|v| {
                v.attribute == *name
                    && matches!(value, AttributeValue::L(list)
                        if list.len() == v.dimensions as usize
                            && list.iter().all(|n| matches!(n, AttributeValue::N(_))))
            });
            match vector {
                Some(v) => {
                    name.len() + v.dimensions as usize * crate::limits::VECTOR_BYTES_PER_DIMENSION
                }
                None => attribute_size(name, value),
            }
        })
        .sum()
}

/// The size of one attribute: its name's bytes plus its value's size.
pub fn attribute_size(name: &str, value: &AttributeValue) -> usize {
    name.len() + value_size(value)
}

/// The size of a value alone.
pub fn value_size(value: &AttributeValue) -> usize {
    match value {
        AttributeValue::S(s) => s.len(),
        AttributeValue::N(n) => number_size(n),
        AttributeValue::B(b) => binary_size(b),
        AttributeValue::Bool(_) | AttributeValue::Null(_) => 1,
        AttributeValue::M(map) => {
            3 + map
                .iter()
                .map(|(name, v)| name.len() + value_size(v) + 1)
                .sum::<usize>()
        }
        AttributeValue::L(list) => 3 + list.iter().map(|v| value_size(v) + 1).sum::<usize>(),
        AttributeValue::SS(set) => set.iter().map(String::len).sum(),
        AttributeValue::NS(set) => set.iter().map(|n| number_size(n)).sum(),
        AttributeValue::BS(set) => set.iter().map(|b| binary_size(b)).sum(),
    }
}

/// 1 byte per two significant digits, plus 1. Text that is not a number counts as its bytes.
pub fn number_size(text: &str) -> usize {
    match significant_digits(text) {
        Some(digits) => digits.div_ceil(2) + 1,
        None => text.len(),
    }
}

fn binary_size(base64: &str) -> usize {
    decode_binary(base64).map_or(base64.len() * 3 / 4, |bytes| bytes.len())
}

/// The mean size of `items` items of `total` bytes, rounded up (0 for none): an entity's item
/// size where its volume gives none, for every estimate (the cost report, the migration plan,
/// KP014 and KP029 through the cost report's sizes: issue 42, where KP029 guessed a size per
/// attribute type and the migration plan rounded down).
pub fn mean_item_bytes(total: u64, items: u64) -> u64 {
    if items == 0 { 0 } else { total.div_ceil(items) }
}

/// Read units for reading `bytes` in one request: rounded up to 4 KB blocks (at least one,
/// since a read that finds nothing still costs one block), times the consistency's rate.
pub fn read_units(bytes: usize, consistency: Consistency) -> f64 {
    let blocks = bytes.div_ceil(READ_UNIT_BYTES).max(1);
    blocks as f64 * consistency.units_per_block()
}

/// [`read_units`] of a byte count estimated as a float (a Scan of a whole table at its
/// volume, which may pass what a `usize` holds): the same rounding, in floats.
pub fn read_units_estimated(bytes: f64, consistency: Consistency) -> f64 {
    (bytes / READ_UNIT_BYTES as f64).ceil().max(1.0) * consistency.units_per_block()
}

/// Write units for writing an item of `bytes`: rounded up to 1 KB (at least one).
pub fn write_units(bytes: usize) -> u64 {
    bytes.div_ceil(WRITE_UNIT_BYTES).max(1) as u64
}

/// A byte count in the largest unit that keeps it at least 1: `812 B`, `4.1 TB` (binary units).
pub fn bytes_text(bytes: f64) -> String {
    const UNITS: [&str; 5] = ["B", "KB", "MB", "GB", "TB"];
    let mut value = bytes;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{value:.0} B")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}
