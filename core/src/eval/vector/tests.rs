//! The vector search over the sample: ranked by each distance function, ties in table key
//! order, the answer projected without the vector, misfits counted (issue 40).

use super::*;
use crate::eval::LoadItem;

/// A `catalog` table (PK S) with the 2-number vector index `ByEmbedding` on `embedding`
/// projecting `title`, and a search for the 2 nearest.
fn design(distance: &str) -> Design {
    let text = format!(
        r#"{{"version": 1, "name": "v",
  "tables": [{{"name": "catalog", "partition_key": {{"name": "PK", "type": "S"}},
    "vector_indexes": [{{"name": "ByEmbedding", "attribute": "embedding", "dimensions": 2,
      "distance": "{distance}", "projection": {{"type": "INCLUDE", "attributes": ["title"]}}}}]}}],
  "entities": [{{"name": "Product", "table": "catalog",
    "attributes": [{{"name": "id", "type": "S", "required": true}},
      {{"name": "title", "type": "S"}}, {{"name": "note", "type": "S"}},
      {{"name": "embedding", "type": "L"}}],
    "keys": {{"PK": "P#{{id}}"}}}}],
  "patterns": [{{"name": "Similar", "entities": ["Product"], "inputs": ["queryVector"],
    "vector": {{"attribute": "embedding", "top_k": 2}}}}]}}"#
    );
    crate::file::parse(&text).expect("the design parses")
}

fn product(id: &str, embedding: Option<&[&str]>) -> LoadItem {
    let mut item = Item::new();
    item.insert("PK".into(), AttributeValue::S(format!("P#{id}")));
    item.insert("title".into(), AttributeValue::S(format!("title {id}")));
    item.insert("note".into(), AttributeValue::S("not projected".into()));
    if let Some(numbers) = embedding {
        let list = numbers
            .iter()
            .map(|n| AttributeValue::N(n.to_string()))
            .collect();
        item.insert("embedding".into(), AttributeValue::L(list));
    }
    LoadItem {
        table: "catalog".into(),
        entity: Some("Product".into()),
        item,
    }
}

/// The sample: stored in an order that is not the table's key order, so ties show the key
/// order; `e` has no vector (not in the index) and `f` a vector of the wrong length.
fn items() -> Vec<LoadItem> {
    vec![
        product("c", Some(&["1", "1"])),
        product("a", Some(&["1", "0"])),
        product("d", Some(&["-1", "0"])),
        product("b", Some(&["0", "1"])),
        product("e", None),
        product("f", Some(&["1", "0", "0"])),
    ]
}

/// The keys of the ranking and their scores, rounded to 4 places.
fn ranking(distance: &str, query: Option<Vec<f32>>) -> (Vec<String>, VectorRun) {
    let design = design(distance);
    let store = ItemStore::build(&design, items());
    let analysis = crate::analyze(&design);
    let run = vector_pattern(&design, &store, &analysis.verdicts[0], query).expect("it runs");
    let keys = run
        .ranked
        .iter()
        .map(|hit| {
            let AttributeValue::S(pk) = &hit.key["PK"] else {
                panic!("a string key");
            };
            format!("{pk} {:.4}", hit.score)
        })
        .collect();
    (keys, run)
}

#[test]
fn cosine_ranks_the_smallest_distance_first() {
    let (keys, run) = ranking("COSINE", Some(vec![1.0, 0.0]));
    assert_eq!(
        keys,
        ["P#a 0.0000", "P#c 0.2929", "P#b 1.0000", "P#d 2.0000"]
    );
    assert_eq!(
        run.misfits, 1,
        "f's three numbers are not a 2-number vector"
    );
    assert_eq!(run.run.result.items.len(), 2, "TopK 2");
}

#[test]
fn euclidean_ranks_the_nearest_first() {
    let (keys, _) = ranking("EUCLIDEAN", Some(vec![1.0, 0.0]));
    assert_eq!(
        keys,
        ["P#a 0.0000", "P#c 1.0000", "P#b 1.4142", "P#d 2.0000"]
    );
}

#[test]
fn dot_product_ranks_the_highest_first_and_ties_go_in_table_key_order() {
    // a and c both score 1: a's key sorts first, though c was stored first.
    let (keys, run) = ranking("DOT_PRODUCT", Some(vec![1.0, 0.0]));
    assert_eq!(
        keys,
        ["P#a 1.0000", "P#c 1.0000", "P#b 0.0000", "P#d -1.0000"]
    );
    assert_eq!(run.threshold(), Some(1.0));
}

#[test]
fn without_a_query_the_first_candidates_own_vector_is_searched() {
    let (keys, run) = ranking("COSINE", None);
    assert_eq!(keys[0], "P#a 0.0000");
    assert_eq!(run.query, vec![1.0, 0.0]);
    assert_eq!(
        run.run.inputs["queryVector"],
        "the embedding of PK = \"P#a\""
    );
}

#[test]
fn a_result_is_the_projected_item_without_its_vector() {
    let (_, run) = ranking("COSINE", Some(vec![1.0, 0.0]));
    let first = &run.run.result.items[0];
    assert_eq!(
        first.keys().map(String::as_str).collect::<Vec<_>>(),
        ["PK", "title"]
    );
}

#[test]
fn a_search_vector_of_another_length_is_refused_with_the_lengths() {
    let design = design("COSINE");
    let store = ItemStore::build(&design, items());
    let analysis = crate::analyze(&design);
    let error = vector_pattern(&design, &store, &analysis.verdicts[0], Some(vec![1.0]))
        .expect_err("one number is not two");
    assert_eq!(
        error.to_string(),
        "the search vector holds 1 numbers; vector index ByEmbedding holds 2"
    );
}

#[test]
fn a_zero_vector_scores_one_by_cosine() {
    assert_eq!(score(Distance::Cosine, &[0.0, 0.0], &[1.0, 2.0]), 1.0);
}
