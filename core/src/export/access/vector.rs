//! The access code of a vector search (issue 40): SearchVectors on the vector index coverage
//! chose, with the caller's query vector as the function's one parameter and the pattern's
//! `TopK`, returning each item as the index projects it with its `Score`, best first
//! (<https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_SearchVectors.html>).
//!
//! Nothing else is sent: coverage makes a search SearchVectors only when the pattern states
//! no filter, sort or narrowing input (SearchVectors filters only on the index's
//! `SearchSchema`, which keyplan does not model), so such a pattern is a Scan with that reason
//! and its code is the Scan's. The SDKs the code is written for all have the operation:
//! `@aws-sdk/lib-dynamodb` 3.1162's `SearchVectorsCommand`, botocore 1.44's `search_vectors`,
//! aws-sdk-dynamodb 1.136's `search_vectors`.

use crate::analysis::Verdict;
use crate::model::{AccessPattern, Projection, Table};

use super::CallKind;

/// A SearchVectors call: the table and vector index, the query input and `TopK`.
#[derive(Debug, Clone)]
pub(super) struct Search {
    pub table: String,
    pub index: String,
    /// The input carrying the query vector (the pattern's `vector.query`).
    pub query: String,
    pub top_k: u32,
    /// How many numbers the query vector must hold (the index's dimensions).
    pub dimensions: u32,
    /// The index's distance function (`COSINE`, ...), for the function's comment.
    pub distance: &'static str,
    /// Whether the index projects every attribute (otherwise each result is part of an item).
    pub whole_items: bool,
}

/// The call of a read coverage serves with SearchVectors on `table`.
pub(super) fn search_call(table: &Table, pattern: &AccessPattern, verdict: &Verdict) -> CallKind {
    let (Some(search), Some(index)) = (
        &pattern.vector,
        verdict.index.as_deref().and_then(|i| table.vector_index(i)),
    ) else {
        return CallKind::Skip(format!(
            "the vector index the verdict names is not in `{}`",
            table.name
        ));
    };
    CallKind::Vector(Search {
        table: table.name.clone(),
        index: index.name.clone(),
        query: search.query.clone(),
        top_k: search.top_k,
        dimensions: index.dimensions,
        distance: index.distance.as_str(),
        whole_items: matches!(index.projection, Projection::All),
    })
}

impl Search {
    /// The comment over the call, in every language.
    pub fn note(&self) -> String {
        format!(
            "The {} items nearest `{}` ({} numbers) by {} distance, best first: each as the index projects it, with its Score.",
            self.top_k, self.query, self.dimensions, self.distance
        )
    }
}

#[cfg(test)]
mod tests;
