//! A table's `VectorIndexes` (issue 40), read from an `AWS::DynamoDB::Table` or
//! `AWS::DynamoDB::GlobalTable` (both take the property in the same shape: cfn-lint 1.58.0's
//! resource schemas of the two, and AWS's reference pages
//! <https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-properties-dynamodb-table-vectorindex.html>
//! and `aws-properties-dynamodb-globaltable-vectorindex.html` beside it, read 2026-12-06),
//! as the export writes them (`export::cloudformation::vector_indexes`).
//!
//! Each entry is an `IndexName`, a `VectorAttribute.AttributeName`, `Dimensions` (1 to 4,096),
//! a `DistanceFunction` (`COSINE`, `EUCLIDEAN`, `DOT_PRODUCT`) and a `Projection`. A value that
//! cannot be read is assumed as the other settings are (`lenient`): the least dimensions (1),
//! the default distance (`COSINE`), `KEYS_ONLY`. A `SearchSchema` (the index's own partition
//! key and inline filters) is not modelled by keyplan: a note says it was not kept.

use crate::limits::VECTOR_DIMENSIONS_MAX;
use crate::model::{Distance, VectorIndex};

use super::super::At;
use super::{Lenient, index_name, projection};

/// The vector indexes `properties` states for table `table`; none without `VectorIndexes`.
pub(super) fn vector_indexes(
    table: &str,
    properties: &At<'_>,
    out: &mut Lenient<'_>,
) -> Vec<VectorIndex> {
    let Some(list) = properties.get("VectorIndexes") else {
        return Vec::new();
    };
    let mut read: Vec<VectorIndex> = Vec::new();
    for (i, entry) in out.list(&list, "VectorIndexes").iter().enumerate() {
        let name = index_name(entry, "vector", i, out);
        let Some(attribute) = entry
            .get("VectorAttribute")
            .and_then(|v| v.get("AttributeName"))
        else {
            out.assume(
                entry,
                format!("vector index {name} without VectorAttribute.AttributeName"),
                "the index left out",
            );
            continue;
        };
        let attribute = out.text(
            &attribute,
            "VectorAttribute's AttributeName",
            "embedding".into(),
        );
        let dimensions = match entry.get("Dimensions") {
            Some(d) => dimensions(&d, &name, out),
            None => {
                out.assume(
                    entry,
                    format!("vector index {name} without Dimensions"),
                    "1",
                );
                1
            }
        };
        let distance = match entry.get("DistanceFunction") {
            Some(d) => distance(&d, &name, out),
            None => Distance::default(),
        };
        if entry.get("SearchSchema").is_some() {
            out.note(format!(
                "table {table}: vector index {name}'s SearchSchema (its partition key and inline filters) is not kept; keyplan designs hold none"
            ));
        }
        if read.iter().any(|v| v.name == name) {
            out.assume(
                entry,
                format!("a second vector index named {name}"),
                "the first kept",
            );
            continue;
        }
        read.push(VectorIndex {
            name,
            attribute,
            dimensions,
            distance,
            projection: projection(entry.get("Projection"), out),
        });
    }
    read
}

/// `Dimensions`: a whole number from 1 to 4,096 (a quoted one too); out of range, the nearest
/// bound, assumed.
fn dimensions(at: &At<'_>, index: &str, out: &mut Lenient<'_>) -> u32 {
    let slot = format!("vector index {index}'s Dimensions");
    let n = out.capacity(at, &slot);
    let kept = n.clamp(1, u64::from(VECTOR_DIMENSIONS_MAX));
    if kept != n {
        out.assume(
            at,
            format!("{slot} {n}, outside 1 to {VECTOR_DIMENSIONS_MAX}"),
            kept.to_string(),
        );
    }
    // Within 1..=4,096 by the clamp above.
    kept as u32
}

/// `DistanceFunction`, by the names DynamoDB takes; `COSINE` (the default) where it cannot be
/// read.
fn distance(at: &At<'_>, index: &str, out: &mut Lenient<'_>) -> Distance {
    let named = at
        .value()
        .as_str()
        .and_then(|s| Distance::ALL.into_iter().find(|d| d.as_str() == s));
    named.unwrap_or_else(|| {
        out.assume(
            at,
            format!(
                "vector index {index}'s DistanceFunction {}",
                super::lenient::shown(at.value())
            ),
            Distance::default().as_str(),
        );
        Distance::default()
    })
}
