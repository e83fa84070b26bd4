use expect_test::expect;

use crate::coverage::testing::design;
use crate::findings::tests::check_codes;

const CODES: &[&str] = &[
    "KP012", "KP016", "KP019", "KP017", "KP041", "KP042", "KP043", "KP044", "KP045",
];

#[test]
fn a_well_declared_and_searched_vector_index_has_no_finding() {
    check_codes(
        &design(
            "
            table products PK SK
            vector ByEmbedding embedding 1536 COSINE
            entity Product productId embedding:L | PK=PRODUCT#{productId} SK=PRODUCT
            near similar Product embedding 10
            ",
        ),
        CODES,
        expect![""],
    );
}

#[test]
fn dimensions_past_4096_an_attribute_not_a_list_and_a_key_as_vector_are_errors() {
    check_codes(
        &design(
            "
            table products PK SK
            vector Huge embedding 8192
            vector OnKey SK 8
            entity Product productId embedding:N | PK=PRODUCT#{productId} SK=PRODUCT
            near a Product embedding 10 index Huge
            near b Product SK 10
            ",
        ),
        CODES,
        expect![[r#"
            KP041 Error tables/products/vector_indexes/Huge
              vector index `Huge` has 8192 dimensions: DynamoDB takes 1 to 4096
            KP042 Error entities/Product/attributes/embedding
              Product's `embedding` is N, but vector index `Huge` takes a list (L) of 8192 numbers: DynamoDB rejects the write
            KP043 Error tables/products/vector_indexes/OnKey
              vector index `OnKey` is on `SK`, a key attribute of `products`: a key is a string, number or binary, a vector a list
            KP012 Warning tables/products/vector_indexes/OnKey
              no read pattern searches vector index `OnKey`: it costs vector writes and storage for nothing
        "#]],
    );
}

#[test]
fn a_provisioned_table_two_dimensions_on_one_attribute_bad_names_and_no_search_are_said() {
    check_codes(
        &design(
            "
            table products PK SK
            gsi GSI1 GSI1PK GSI1SK
            provisioned 5 5
            vector ByEmbedding embedding 1536
            vector Small embedding 384
            vector GSI1 embedding 1536
            vector ab embedding 1536
            entity Product productId embedding:L | PK=PRODUCT#{productId} SK=PRODUCT
            near similar Product embedding 10 index ByEmbedding
            ",
        ),
        CODES,
        expect![[r#"
            KP044 Error tables/products/vector_indexes/ByEmbedding
              vector index `ByEmbedding` on `products`, a provisioned table: vector indexes need an on-demand table
            KP044 Error tables/products/vector_indexes/Small
              vector index `Small` on `products`, a provisioned table: vector indexes need an on-demand table
            KP045 Error tables/products/vector_indexes/Small
              vector indexes `ByEmbedding` (1536 dimensions) and `Small` (384) are both on `embedding`: indexes on one attribute must have the same dimensions
            KP017 Error tables/products/vector_indexes/GSI1
              two indexes of `products` are named `GSI1`
            KP044 Error tables/products/vector_indexes/GSI1
              vector index `GSI1` on `products`, a provisioned table: vector indexes need an on-demand table
            KP016 Error tables/products/vector_indexes/ab
              vector index name `ab` breaks DynamoDB's rule: 3 to 255 characters of a-z A-Z 0-9 _ - .
            KP044 Error tables/products/vector_indexes/ab
              vector index `ab` on `products`, a provisioned table: vector indexes need an on-demand table
            KP012 Warning tables/products/gsis/GSI1
              no read pattern uses GSI1 of `products`: it costs writes and storage for nothing; drop it or add the pattern it is for
            KP012 Warning tables/products/vector_indexes/Small
              no read pattern searches vector index `Small`: it costs vector writes and storage for nothing
            KP012 Warning tables/products/vector_indexes/GSI1
              no read pattern searches vector index `GSI1`: it costs vector writes and storage for nothing
            KP012 Warning tables/products/vector_indexes/ab
              no read pattern searches vector index `ab`: it costs vector writes and storage for nothing
        "#]],
    );
}
