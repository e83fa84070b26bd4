//! The access code of a vector search (issue 40): SearchVectors with the caller's query
//! vector, the index and TopK, in every language; a search coverage cannot serve is the
//! Scan it says, with its reason.

use expect_test::{Expect, expect};

use crate::model::Design;

/// The vector-search fixture (tests/export): table `catalog`, index `ByEmbedding` (8
/// dimensions, COSINE, title projected), pattern "Similar products" (TopK 5).
fn fixture() -> Design {
    crate::file::parse(include_str!(
        "../../../../../tests/export/vector-search.keyplan.json"
    ))
    .expect("the fixture parses")
}

fn check(code: String, from: &str, to: &str, expect: Expect) {
    expect.assert_eq(&crate::export::vector::tests::between(&code, from, to));
}

#[test]
fn a_vector_search_is_sent_with_search_vectors_in_every_language() {
    let design = fixture();
    let ts = super::super::typescript(&design);
    assert!(
        ts.contains("SearchVectorsCommand } from '@aws-sdk/lib-dynamodb'")
            || ts.contains(", SearchVectorsCommand"),
        "{ts}"
    );
    check(
        ts,
        "Similar products: SearchVectors",
        "score: hit.Score",
        expect![[r#"
            /** Similar products: SearchVectors on index ByEmbedding. */
            export async function similarProducts(
              client: DynamoDBDocumentClient,
              input: { queryVector: number[] },
            ): Promise<VectorHit<Partial<Product>>[]> {
              // The 5 items nearest `queryVector` (8 numbers) by COSINE distance, best first: each as the index projects it, with its Score.
              const result = await client.send(
                new SearchVectorsCommand({
                  TableName: TABLES.catalog,
                  IndexName: 'ByEmbedding',
                  SearchVector: input.queryVector,
                  TopK: 5,
                }),
              );
              return (result.SearchResults ?? []).map((hit) => ({
                item: (hit.Item ?? {}) as Partial<Product>,
                score: hit.Score ?? 0,
        "#]],
    );
    check(
        super::super::python(&design),
        "def similar_products",
        "for hit in response",
        expect![[r#"
            def similar_products(client, query_vector: list[float]) -> list[tuple[Item, float]]:
                """Similar products: SearchVectors on index ByEmbedding."""
                # The 5 items nearest `queryVector` (8 numbers) by COSINE distance, best first: each as the index projects it, with its Score.
                response = client.search_vectors(
                    TableName=CATALOG_TABLE,
                    IndexName="ByEmbedding",
                    SearchVector=[{"N": str(number)} for number in query_vector],
                    TopK=5,
                )
                return [
                    (_from_dynamo(hit.get("Item", {})), hit["Score"])
                    for hit in response.get("SearchResults", [])
        "#]],
    );
    check(
        super::super::rust(&design),
        "/// Similar products",
        ".map(|hit|",
        expect![[r#"
            /// Similar products: SearchVectors on index ByEmbedding.
            pub async fn similar_products(
                client: &Client,
                query_vector: &[f32],
            ) -> Result<Vec<(Item, f64)>, Error> {
                // The 5 items nearest `queryVector` (8 numbers) by COSINE distance, best first: each as the index projects it, with its Score.
                let output = client
                    .search_vectors()
                    .table_name(CATALOG_TABLE)
                    .index_name("ByEmbedding")
                    .set_search_vector(Some(
                        query_vector
                            .iter()
                            .map(|number| AttributeValue::N(number.to_string()))
                            .collect(),
                    ))
                    .top_k(5)
                    .send()
                    .await?;
                Ok(output
                    .search_results
                    .unwrap_or_default()
                    .into_iter()
                    .map(|hit| (hit.item.unwrap_or_default(), hit.score))
        "#]],
    );
}

#[test]
fn a_vector_search_with_a_filter_is_the_scan_coverage_says() {
    let mut design = fixture();
    let p = design
        .patterns
        .iter_mut()
        .find(|p| p.name == "Similar products")
        .expect("the fixture's search");
    p.filter = vec![crate::model::FilterCondition::new(
        "title",
        crate::model::FilterOp::Eq,
    )];
    let code = super::super::typescript(&design);
    assert!(!code.contains("SearchVectorsCommand"), "{code}");
    let scan =
        crate::export::vector::tests::between(&code, "Similar products: Scan", "new ScanCommand");
    assert!(
        scan.contains("// SearchVectors filters only on the index's SearchSchema attributes"),
        "{scan}"
    );
}
