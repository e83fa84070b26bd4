use expect_test::expect;

use crate::coverage::testing::check;

const PRODUCTS: &str = "
    table products PK SK
    vector ByEmbedding embedding 1536 COSINE
    entity Product productId name embedding:L | PK=PRODUCT#{productId} SK=PRODUCT
";

#[test]
fn a_vector_search_on_an_indexed_attribute_is_search_vectors_on_that_index() {
    check(
        &format!("{PRODUCTS}\nnear similar Product embedding 10 dims 1536"),
        expect![[r#"
            similar: SearchVectors on ByEmbedding
              order: the 10 nearest to `queryVector` by COSINE distance on `embedding`
        "#]],
    );
}

#[test]
fn a_vector_search_without_an_index_on_its_attribute_is_a_scan_that_says_so() {
    check(
        "
        table products PK SK
        entity Product productId embedding:L | PK=PRODUCT#{productId} SK=PRODUCT
        near similar Product embedding 5 dims 768
        ",
        expect![[r#"
            similar: Scan
              - table `products` has no vector index on `embedding`: add one (768 dimensions, the embedding model's distance function)
        "#]],
    );
}

#[test]
fn a_query_vector_of_other_dimensions_than_the_index_is_not_served() {
    check(
        &format!("{PRODUCTS}\nnear similar Product embedding 10 dims 1024"),
        expect![[r#"
            similar: Scan
              - the query vector has 1024 dimensions and `ByEmbedding` holds 1536: they must agree
        "#]],
    );
}

#[test]
fn an_entity_without_the_vector_attribute_is_not_in_the_index() {
    check(
        "
        table products PK SK
        vector ByEmbedding embedding 1536
        entity Review reviewId text | PK=REVIEW#{reviewId} SK=REVIEW
        near similar Review embedding 10
        ",
        expect![[r#"
            similar: Scan
              - Review has no attribute `embedding`: its items are not in a vector index on it
        "#]],
    );
}

#[test]
fn a_named_index_that_is_missing_or_on_another_attribute_is_said() {
    check(
        &format!(
            "{PRODUCTS}
            near missing Product embedding 10 index ByTitle
            vector ByName name 8
            near other Product embedding 10 index ByName"
        ),
        expect![[r#"
            missing: Scan
              - table `products` has no vector index `ByTitle`
            other: Scan
              - vector index `ByName` is on `name`, not `embedding`
        "#]],
    );
}

#[test]
fn top_k_past_100_narrowing_inputs_and_consistency_are_what_search_vectors_cannot_do() {
    check(
        &format!("{PRODUCTS}\nnear similar Product embedding 101 by productId consistent"),
        expect![[r#"
            similar: Scan
              - SearchVectors takes a TopK of 1 to 100, not 101
              - SearchVectors narrows only by the index's SearchSchema, which keyplan does not model: inputs `productId` cannot narrow it
              - SearchVectors has no strongly consistent read
        "#]],
    );
}
