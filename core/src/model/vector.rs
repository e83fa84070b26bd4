//! Vector indexes (DynamoDB, generally available August 2026) and the vector search a read
//! pattern may be: what a table declares and what a pattern asks, in the words of DynamoDB's
//! CreateTable/UpdateTable and CloudFormation, with nothing derived.
//!
//! Sourced (read 2026-12-05):
//! - A vector index is an index name, a vector attribute, its dimensions, a distance function
//!   (`COSINE`, `EUCLIDEAN`, `DOT_PRODUCT`) and a projection: the API reference's
//!   `CreateVectorIndexAction`
//!   (<https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_CreateVectorIndexAction.html>)
//!   and CloudFormation's `AWS::DynamoDB::Table VectorIndex`
//!   (<https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-properties-dynamodb-table-vectorindex.html>,
//!   the table's property `VectorIndexes`, as cfn-lint 1.58.0's resource schema has it).
//! - A search is `SearchVectors` with the index, a search vector and `TopK`
//!   (<https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_SearchVectors.html>).
//!
//! Not modelled: a vector index's `SearchSchema` (its own partition key and inline filters);
//! a design that needs one states it in the infrastructure code.

use serde::{Deserialize, Serialize};

use super::Projection;

/// How a vector index measures similarity (`DistanceFunction`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Distance {
    #[default]
    Cosine,
    Euclidean,
    DotProduct,
}

impl Distance {
    pub const ALL: [Distance; 3] = [Distance::Cosine, Distance::Euclidean, Distance::DotProduct];

    /// The name DynamoDB and CloudFormation take: `COSINE`, `EUCLIDEAN`, `DOT_PRODUCT`.
    pub fn as_str(self) -> &'static str {
        match self {
            Distance::Cosine => "COSINE",
            Distance::Euclidean => "EUCLIDEAN",
            Distance::DotProduct => "DOT_PRODUCT",
        }
    }
}

/// A vector index of a table: the items holding `attribute` (a list of `dimensions` numbers)
/// searched by similarity with `SearchVectors`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct VectorIndex {
    pub name: String,
    /// The attribute holding each item's embedding (`VectorAttribute`).
    pub attribute: String,
    /// How many numbers each vector holds (1 to 4,096).
    pub dimensions: u32,
    #[serde(default)]
    pub distance: Distance,
    /// What the index copies from the table besides the keys; each result carries it.
    #[serde(default)]
    pub projection: Projection,
}

/// A read that is a similarity search: the `top_k` items nearest a query vector the caller
/// gives, by the table's vector index on `attribute`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct VectorSearch {
    /// The vector attribute searched.
    pub attribute: String,
    /// How many of the nearest items come back (`TopK`, 1 to 100).
    pub top_k: u32,
    /// The input carrying the query vector (`SearchVector`) at request time.
    #[serde(default = "default_query", skip_serializing_if = "is_default_query")]
    pub query: String,
    /// How many numbers the query vector holds (the embedding model's output); absent, the
    /// index's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dimensions: Option<u32>,
    /// The vector index to search, when the table has several on the attribute.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index: Option<String>,
}

impl VectorSearch {
    /// A search of the `top_k` items nearest the input `queryVector` on `attribute`.
    pub fn new(attribute: impl Into<String>, top_k: u32) -> VectorSearch {
        VectorSearch {
            attribute: attribute.into(),
            top_k,
            query: default_query(),
            dimensions: None,
            index: None,
        }
    }
}

fn default_query() -> String {
    "queryVector".to_string()
}

fn is_default_query(query: &String) -> bool {
    *query == default_query()
}
