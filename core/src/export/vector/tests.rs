use expect_test::expect;

use crate::coverage::testing::design;
use crate::export::{Target, export};

/// A table with a vector index on an entity's embedding, searched by one pattern.
pub(crate) fn products() -> crate::model::Design {
    design(
        "
        table products PK SK
        vector ByEmbedding embedding 1536 DOT_PRODUCT
        entity Product productId embedding:L | PK=PRODUCT#{productId} SK=PRODUCT
        near similar Product embedding 10
        ",
    )
}

/// The lines of `text` from the first holding `from` to the first after it holding `to`, their
/// common indentation taken off (as `expect!` takes it off what it expects).
pub(crate) fn between(text: &str, from: &str, to: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let start = lines.iter().position(|l| l.contains(from)).expect("from");
    let end = start
        + lines[start..]
            .iter()
            .position(|l| l.contains(to))
            .expect("to");
    let lines = &lines[start..=end];
    let indent = lines
        .iter()
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    lines
        .iter()
        .map(|l| format!("{}\n", &l[indent..]))
        .collect()
}

#[test]
fn cloudformation_declares_the_vector_index_in_vector_indexes() {
    let text = export(&products(), Target::CloudFormationJson).expect("exports");
    expect![[r#"
                "VectorIndexes": [
                  {
                    "IndexName": "ByEmbedding",
                    "VectorAttribute": {
                      "AttributeName": "embedding"
                    },
                    "Dimensions": 1536,
                    "DistanceFunction": "DOT_PRODUCT",
                    "Projection": {
                      "ProjectionType": "KEYS_ONLY"
                    }
                  }
                ],
    "#]]
    .assert_eq(&between(&text, "\"VectorIndexes\"", "],"));
    let yaml = export(&products(), Target::CloudFormationYaml).expect("exports");
    assert!(yaml.contains("VectorIndexes:"), "{yaml}");
    let create = export(&products(), Target::CreateTable).expect("exports");
    assert!(create.contains("\"VectorIndexes\""), "{create}");
}

#[test]
fn the_cdk_overrides_the_global_table_and_terraform_says_it_left_it_out() {
    let cdk = export(&products(), Target::Cdk).expect("exports");
    expect![[r#"
            // Vector indexes (DynamoDB, August 2026): TableV2 has no property for them yet.
            (products.node.defaultChild as CfnGlobalTable).addPropertyOverride('VectorIndexes', [
              {
                "IndexName": "ByEmbedding",
                "VectorAttribute": {
                  "AttributeName": "embedding"
                },
                "Dimensions": 1536,
                "DistanceFunction": "DOT_PRODUCT",
                "Projection": {
                  "ProjectionType": "KEYS_ONLY"
                }
              }
            ]);
    "#]]
    .assert_eq(&between(&cdk, "// Vector indexes", "]);"));
    assert!(cdk.contains("CfnGlobalTable, ProjectionType"), "{cdk}");
    let terraform = export(&products(), Target::Terraform).expect("exports");
    expect![[r#"
          # Left out: vector index ByEmbedding (DOT_PRODUCT on embedding, 1536 dimensions, KEYS_ONLY); the AWS provider's
          # aws_dynamodb_table has no vector index block keyplan knows of: create it with
          # CloudFormation, the CDK or `aws dynamodb update-table`.
    "#]]
    .assert_eq(&between(&terraform, "# Left out", "update-table"));
}

/// `products` with a second vector index whose every setting differs from the first, so a
/// round trip that drops or defaults one shows.
fn products_with_two_indexes() -> crate::model::Design {
    let mut design = products();
    design.tables[0]
        .vector_indexes
        .push(crate::model::VectorIndex {
            name: "ByTitle".into(),
            attribute: "titleEmbedding".into(),
            dimensions: 384,
            distance: crate::model::Distance::Euclidean,
            projection: crate::model::Projection::Include {
                attributes: vec!["title".into()],
            },
        });
    design
}

#[test]
fn cloudformation_json_and_yaml_read_back_the_vector_indexes_they_wrote() {
    let design = products_with_two_indexes();
    for target in [Target::CloudFormationJson, Target::CloudFormationYaml] {
        let text = export(&design, target).expect("exports");
        let imported =
            crate::import::import(crate::import::Format::CloudFormation, &text).expect("imports");
        assert_eq!(
            imported.design.tables[0].vector_indexes, design.tables[0].vector_indexes,
            "{target:?}:\n{text}"
        );
        assert!(
            !imported.notes.iter().any(|n| n.contains("VectorIndexes")),
            "{target:?}: {:?}",
            imported.notes
        );
    }
}

/// A table with replicas goes out as an `AWS::DynamoDB::GlobalTable`, which takes
/// `VectorIndexes` too (the last session's export left them out without a word).
#[test]
fn a_replicated_table_keeps_its_vector_indexes_in_its_global_table_and_reads_them_back() {
    let mut design = products_with_two_indexes();
    design.tables[0].replicas = vec!["eu-west-1".into()];
    for target in [Target::CloudFormationJson, Target::CloudFormationYaml] {
        let text = export(&design, target).expect("exports");
        assert!(text.contains("AWS::DynamoDB::GlobalTable"), "{text}");
        let imported =
            crate::import::import(crate::import::Format::CloudFormation, &text).expect("imports");
        let table = &imported.design.tables[0];
        assert_eq!(table.replicas, design.tables[0].replicas, "{target:?}");
        assert_eq!(
            table.vector_indexes, design.tables[0].vector_indexes,
            "{target:?}:\n{text}"
        );
    }
}
