//! KP041 to KP045: vector indexes DynamoDB refuses, or whose items DynamoDB refuses (issue 40).
//!
//! - KP041 (error): dimensions outside 1 to 4,096.
//! - KP042 (error): an entity of the table declares the vector attribute with a type other than
//!   a list (`L`): DynamoDB takes a vector only as a list of numbers and rejects the write
//!   ("invalid type for parameter") of a string, a number, a number set or a binary.
//! - KP043 (error): the vector attribute is also a key attribute of the table or an index: a
//!   key is a scalar (S, N or B), a vector a list.
//! - KP044 (error): a vector index on a table with provisioned capacity: vector indexes are
//!   on-demand only, on on-demand tables.
//! - KP045 (error): two vector indexes on one attribute with different dimensions.
//!
//! KP016 and KP017 cover their names (3 to 255 characters of `a-z A-Z 0-9 _ - .`, unique in
//! the table among all its indexes) and KP012 a vector index no pattern searches.
//!
//! Sources, read 2026-12-05:
//! <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/VectorSearch.Requirements.html>
//! (on-demand only), <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/VectorSearchTroubleshooting.html>
//! (a list of numbers of the index's length, else the write is rejected),
//! <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_CreateVectorIndexAction.html>
//! (indexes on one attribute share their dimensions; the name unique within the table) and
//! CloudFormation's `VectorIndex` (dimensions at most 4,096).

use std::collections::HashSet;

use super::Findings;
use crate::answer::{Operation, Place, Severity, Verdict};
use crate::limits;
use crate::model::{AttrType, Billing, Design};

/// Every vector-index finding of `design`.
pub(super) fn vector_indexes(design: &Design, verdicts: &[Verdict], out: &mut Findings) {
    for table in &design.tables {
        let mut names: HashSet<&str> = table
            .gsis
            .iter()
            .map(|g| g.name.as_str())
            .chain(table.lsis.iter().map(|l| l.name.as_str()))
            .collect();
        for (i, index) in table.vector_indexes.iter().enumerate() {
            let place = || Place::vector_index(&table.name, &index.name);
            if !names.insert(&index.name) {
                out.push(
                    "KP017",
                    Severity::Error,
                    place(),
                    format!("two indexes of `{}` are named `{}`", table.name, index.name),
                );
            }
            if !limits::is_valid_table_name(&index.name) {
                out.push(
                    "KP016",
                    Severity::Error,
                    place(),
                    format!(
                        "vector index name `{}` breaks DynamoDB's rule: 3 to 255 characters of a-z A-Z 0-9 _ - .",
                        index.name
                    ),
                );
            }
            if !(1..=limits::VECTOR_DIMENSIONS_MAX).contains(&index.dimensions) {
                out.push(
                    "KP041",
                    Severity::Error,
                    place(),
                    format!(
                        "vector index `{}` has {} dimensions: DynamoDB takes 1 to {}",
                        index.name,
                        index.dimensions,
                        limits::VECTOR_DIMENSIONS_MAX
                    ),
                );
            }
            for entity in design.entities_in(&table.name) {
                if let Some(attribute) = entity.attribute(&index.attribute)
                    && attribute.ty != AttrType::L
                {
                    out.push(
                        "KP042",
                        Severity::Error,
                        Place::Attribute {
                            entity: entity.name.clone(),
                            attribute: attribute.name.clone(),
                        },
                        format!(
                            "{}'s `{}` is {}, but vector index `{}` takes a list (L) of {} numbers: DynamoDB rejects the write",
                            entity.name,
                            attribute.name,
                            attribute.ty.as_str(),
                            index.name,
                            index.dimensions
                        ),
                    );
                }
            }
            if table.key_attribute(&index.attribute).is_some() {
                out.push(
                    "KP043",
                    Severity::Error,
                    place(),
                    format!(
                        "vector index `{}` is on `{}`, a key attribute of `{}`: a key is a string, number or binary, a vector a list",
                        index.name, index.attribute, table.name
                    ),
                );
            }
            if let Billing::Provisioned { .. } = table.billing {
                out.push(
                    "KP044",
                    Severity::Error,
                    place(),
                    format!(
                        "vector index `{}` on `{}`, a provisioned table: vector indexes need an on-demand table",
                        index.name, table.name
                    ),
                );
            }
            // Against the first index on the attribute: each that disagrees with it, once.
            if let Some(other) = table.vector_indexes[..i]
                .iter()
                .find(|o| o.attribute == index.attribute)
                .filter(|o| o.dimensions != index.dimensions)
            {
                out.push(
                    "KP045",
                    Severity::Error,
                    place(),
                    format!(
                        "vector indexes `{}` ({} dimensions) and `{}` ({}) are both on `{}`: indexes on one attribute must have the same dimensions",
                        other.name, other.dimensions, index.name, index.dimensions, index.attribute
                    ),
                );
            }
            let searched = verdicts.iter().any(|v| {
                v.operation == Operation::SearchVectors
                    && v.table.as_deref() == Some(&table.name)
                    && v.index.as_deref() == Some(&index.name)
            });
            if !searched {
                out.push(
                    "KP012",
                    Severity::Warning,
                    place(),
                    format!(
                        "no read pattern searches vector index `{}`: it costs vector writes and storage for nothing",
                        index.name
                    ),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests;
