// Tests may unwrap: a panic is the failure report.
#![allow(clippy::unwrap_used)]

use expect_test::{Expect, expect};

use super::*;
use crate::model::{Billing, Gsi, KeyAttribute, KeyType, Projection, Table};

/// Every format of every built-in example, pinned. Review a change with
/// `INSTA_UPDATE=always cargo test -p keyplan-core export` and `git diff`.
#[test]
fn every_format_of_every_example_is_pinned() {
    for (slug, design) in crate::examples::all() {
        for format in Target::ALL {
            let text =
                export(&design, format).unwrap_or_else(|e| panic!("{slug} as {format}: {e}"));
            insta::assert_snapshot!(format!("{slug}.{}", format.name()), text);
        }
    }
}

#[test]
fn format_names_round_trip_and_unknown_names_list_the_choices() {
    for format in Target::ALL {
        assert_eq!(format.name().parse::<Target>(), Ok(format));
    }
    expect!["unknown export format `yaml`: use one of cloudformation-json, cloudformation-yaml, terraform, create-table, cdk, nosql-workbench, electrodb, onetable, dynamodb-toolbox, dynamoose, typescript, python, rust, markdown, svg"]
        .assert_eq(&"yaml".parse::<Target>().unwrap_err().to_string());
}

#[test]
fn download_names_suit_each_language() {
    let design = Design::new("Order management");
    let names: Vec<String> = Target::ALL.iter().map(|f| f.file_name(&design)).collect();
    expect![[r#"
        order-management.template.json
        order-management.template.yaml
        order-management.tf
        order-management.create-table.json
        order-management.stack.ts
        order-management.workbench.json
        order-management.electrodb.ts
        order-management.onetable.ts
        order-management.toolbox.ts
        order-management.dynamoose.ts
        order-management.access.ts
        order_management_access.py
        order_management_access.rs
        order-management.md
        order-management.svg"#]]
    .assert_eq(&names.join("\n"));
}

// issue 43: Save wrote saas-multi-tenant.keyplan.json, Export saa-s-multi-tenant.template.json.
#[test]
fn an_export_is_named_with_the_slug_save_uses() {
    for (design, format, expected) in [
        (
            "SaaS multi-tenant",
            Target::CloudFormationJson,
            "saas-multi-tenant.template.json",
        ),
        (
            "SaaS multi-tenant",
            Target::Python,
            "saas_multi_tenant_access.py",
        ),
        ("  Shop: v2!  ", Target::Terraform, "shop-v2.tf"),
        ("Données clients", Target::Markdown, "données-clients.md"),
        ("Données clients", Target::Rust, "donnes_clients_access.rs"),
        ("???", Target::Svg, "design.svg"),
    ] {
        assert_eq!(format.file_name(&Design::new(design)), expected);
    }
}

#[test]
fn a_design_without_tables_exports_only_its_document() {
    let design = Design::new("empty");
    assert_eq!(
        export(&design, Target::Terraform),
        Err(ExportError::NoTables(Target::Terraform))
    );
    assert!(export(&design, Target::Markdown).is_ok());
    assert!(export(&design, Target::Svg).is_ok());
}

fn check_idents(input: &str, expect: Expect) {
    let out = format!(
        "{} {} {} {}",
        names::valid(&names::camel(input), names::Lang::TypeScript, "f"),
        names::valid(&names::snake(input), names::Lang::Python, "f"),
        names::valid(&names::snake(input), names::Lang::Rust, "f"),
        names::valid(&names::pascal(input), names::Lang::CloudFormation, "F"),
    );
    expect.assert_eq(&out);
}

#[test]
fn identifiers_from_pattern_names_are_valid_in_every_language() {
    check_idents(
        "Get order by ID",
        expect!["getOrderById get_order_by_id get_order_by_id GetOrderById"],
    );
    check_idents(
        "customerId",
        expect!["customerId customer_id customer_id CustomerId"],
    );
    check_idents(
        "3 latest orders",
        expect!["_3LatestOrders _3_latest_orders _3_latest_orders T3LatestOrders"],
    );
    check_idents("delete", expect!["delete_ delete delete Delete"]);
    check_idents("type", expect!["type type_ type_ Type"]);
    check_idents("über → ✓", expect!["ber ber ber Ber"]);
    check_idents("", expect!["f f f F"]);
    check_idents(
        "order-events",
        expect!["orderEvents order_events order_events OrderEvents"],
    );
}

fn check_md_cell(input: &str, expect: Expect) {
    expect.assert_eq(&names::md_cell(input));
}

// issue 13: md_cell copies the runs between the characters it replaces; every one of them,
// at either end, next to each other and beside multi-byte text, comes out as before.
#[test]
fn markdown_cells_escape_pipes_and_backslashes_and_flatten_line_breaks() {
    check_md_cell("plain text", expect!["plain text"]);
    check_md_cell("", expect![""]);
    check_md_cell("a|b", expect![[r"a\|b"]]);
    check_md_cell("|edge|", expect![[r"\|edge\|"]]);
    check_md_cell(r"back\slash", expect![[r"back\\slash"]]);
    check_md_cell("\\|", expect![[r"\\\|"]]);
    check_md_cell("two\r\nlines\n", expect!["two  lines "]);
    check_md_cell("ü|é\n✓", expect![[r"ü\|é ✓"]]);
}

fn multi_attribute_design() -> Design {
    let mut design = Design::new("tournament");
    design.tables.push(Table {
        name: "matches".into(),
        partition_key: KeyAttribute::new("matchId", KeyType::S),
        sort_key: None,
        gsis: vec![Gsi {
            name: "ByTournamentRegion".into(),
            partition_key: vec![
                KeyAttribute::new("tournamentId", KeyType::S),
                KeyAttribute::new("region", KeyType::S),
            ],
            sort_key: vec![
                KeyAttribute::new("round", KeyType::S),
                KeyAttribute::new("score", KeyType::N),
            ],
            projection: Projection::Include {
                attributes: vec!["winner".into()],
            },
        }],
        lsis: Vec::new(),
        billing: Billing::provisioned(5, 2),
        ttl_attribute: None,
        replicas: Vec::new(),
        vector_indexes: Vec::new(),
    });
    design
}

#[test]
fn multi_attribute_gsi_keys_list_every_attribute_in_order() {
    let text = export(&multi_attribute_design(), Target::CloudFormationJson).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let props = &json["Resources"]["MatchesTable"]["Properties"];
    expect![[r#"[{"AttributeName":"tournamentId","KeyType":"HASH"},{"AttributeName":"region","KeyType":"HASH"},{"AttributeName":"round","KeyType":"RANGE"},{"AttributeName":"score","KeyType":"RANGE"}]"#]]
        .assert_eq(&props["GlobalSecondaryIndexes"][0]["KeySchema"].to_string());
    expect![[r#"["matchId","tournamentId","region","round","score"]"#]].assert_eq(
        &serde_json::to_string(
            &props["AttributeDefinitions"]
                .as_array()
                .unwrap()
                .iter()
                .map(|a| a["AttributeName"].clone())
                .collect::<Vec<_>>(),
        )
        .unwrap(),
    );
    expect![[r#"{"ReadCapacityUnits":5,"WriteCapacityUnits":2}"#]]
        .assert_eq(&props["ProvisionedThroughput"].to_string());
    let cdk = export(&multi_attribute_design(), Target::Cdk).unwrap();
    assert!(
        cdk.contains("partitionKeys: [{ name: 'tournamentId'"),
        "{cdk}"
    );
}

// issue 16 item 7: the AWS provider takes multi-attribute GSI keys as `key_schema` blocks
// from 6.29.0 (hashicorp/terraform-provider-aws#45357, released 28 January 2026); the export
// writes them for such a GSI only, asks for that provider version, and says why.
#[test]
fn terraform_writes_a_multi_attribute_gsi_as_key_schema_blocks_and_asks_for_provider_6_29() {
    let tf = export(&multi_attribute_design(), Target::Terraform).unwrap();
    let gsi_start = tf.find("global_secondary_index").unwrap();
    let gsi_end = gsi_start + tf[gsi_start..].find("\n  }").unwrap();
    expect![[r#"
        global_secondary_index {
            name = "ByTournamentRegion"
            # A multi-attribute key (DynamoDB, November 2025): key_schema blocks, in order,
            # which the AWS provider takes from version 6.29.0.
            key_schema {
              attribute_name = "tournamentId"
              key_type       = "HASH"
            }
            key_schema {
              attribute_name = "region"
              key_type       = "HASH"
            }
            key_schema {
              attribute_name = "round"
              key_type       = "RANGE"
            }
            key_schema {
              attribute_name = "score"
              key_type       = "RANGE"
            }
            projection_type    = "INCLUDE"
            non_key_attributes = ["winner"]
            read_capacity      = 5
            write_capacity     = 2"#]]
    .assert_eq(&tf[gsi_start..gsi_end]);
    assert!(tf.contains("version = \">= 6.29.0\""), "{tf}");
    let single = export(
        &crate::examples::get("saas-multi-tenant").unwrap(),
        Target::Terraform,
    )
    .unwrap();
    assert!(single.contains("version = \">= 6.0\""), "{single}");
    assert!(!single.contains("key_schema"), "{single}");
}

#[test]
fn user_text_cannot_break_out_of_generated_strings() {
    let mut design = multi_attribute_design();
    design.name = "a\"b'c`${x}</svg>".into();
    design.tables[0].name = "t${x}%{y}".into();
    let tf = export(&design, Target::Terraform).unwrap();
    assert!(
        tf.contains(r#"name           = "t$${x}%%{y}-${var.environment}""#),
        "{tf}"
    );
    let svg = export(&design, Target::Svg).unwrap();
    assert!(
        !svg.contains("</svg>\"") && svg.contains("&lt;/svg&gt;"),
        "{svg}"
    );
}

// The NoSQL Workbench round trip (export, then import) of every example and corpus design is
// in server/tests/export_tools.rs, which reads the corpus.

// issue 13: the access-code and Workbench exports look entities up by name once for the
// whole design; with a name given twice they must still use the first, as `Design::entity`
// does: the second `Thing1` (its id a number) changes neither the types of `Get Thing1`'s
// inputs nor the interface it returns, and gets none of Thing1's sample items.
#[test]
fn exports_use_the_first_entity_of_a_name() {
    let mut design = crate::generated::design(2);
    let mut again = design.entity("Thing1").unwrap().clone();
    again.attributes[0].ty = crate::model::AttrType::N;
    again.description = "the second Thing1".into();
    design.entities.push(again);
    let mut lines = Vec::new();
    for format in [Target::TypeScript, Target::Python, Target::Rust] {
        let text = export(&design, format).unwrap();
        // The signature, down to the line that opens the body.
        let signature = text
            .lines()
            .skip_while(|l| !l.contains("get_thing1(") && !l.contains("getThing1("));
        let mut signature: Vec<&str> = signature.map(str::trim).collect();
        let end = signature
            .iter()
            .position(|l| l.ends_with('{') || l.ends_with(':'));
        signature.truncate(end.map_or(0, |e| e + 1));
        lines.push(format!("{format}: {}", signature.join(" ")));
    }
    let workbench: serde_json::Value =
        serde_json::from_str(&export(&design, Target::NosqlWorkbench).unwrap()).unwrap();
    for facet in workbench["DataModel"][0]["TableFacets"].as_array().unwrap() {
        lines.push(format!(
            "workbench: {} has {} items",
            facet["FacetName"],
            facet["TableData"].as_array().map_or(0, Vec::len)
        ));
    }
    expect![[r#"
        typescript: export async function getThing1( client: DynamoDBDocumentClient, input: { parentId: string; thing1Id: string }, ): Promise<Thing1 | undefined> {
        python: def get_thing1(client, parent_id: str, thing1_id: str) -> Optional[Item]:
        rust: pub async fn get_thing1( client: &Client, parent_id: &str, thing1_id: &str, ) -> Result<Option<Item>, Error> {
        workbench: "Thing0" has 5 items
        workbench: "Thing1" has 5 items
        workbench: "Thing1" has 0 items"#]]
    .assert_eq(&lines.join("\n"));
}

// issue 14: the fast path of `one_line` (text already on one line) must give what splitting at every
// whitespace character and joining with spaces gives.
#[test]
fn comment_text_keeps_its_words_on_one_line() {
    for text in [
        "",
        " ",
        "one",
        "two words",
        "  leading and trailing  ",
        " leading",
        "trailing ",
        "double  space",
        "tab\there",
        "line\nbreak",
        "carriage\rreturn",
        "vertical\u{b}tab",
        "form\u{c}feed",
        "no\u{a0}break space",
        "line\u{2028}separator",
        "ümlaut words",
    ] {
        let words: Vec<&str> = text.split_whitespace().collect();
        assert_eq!(names::one_line(text), words.join(" "), "{text:?}");
    }
}

/// Two tables replicated to other Regions: one provisioned with a GSI, one on demand.
fn global_design() -> Design {
    let mut design = multi_attribute_design();
    design.tables[0].replicas = vec!["eu-west-1".into(), "ap-south-1".into()];
    let mut players = Table::new(
        "players".into(),
        KeyAttribute::new("playerId", KeyType::S),
        Some(KeyAttribute::new("season", KeyType::N)),
    );
    players.billing = Billing::OnDemand;
    players.ttl_attribute = Some("expiresAt".into());
    players.replicas = vec!["us-west-2".into()];
    design.tables.push(players);
    design
}

/// Per table: its replicas, billing, TTL attribute and number of GSIs.
type GlobalShape = Vec<(Vec<String>, Billing, Option<String>, usize)>;

fn global_shape(design: &Design) -> GlobalShape {
    design
        .tables
        .iter()
        .map(|t| {
            let ttl = t.ttl_attribute.clone();
            (t.replicas.clone(), t.billing.clone(), ttl, t.gsis.len())
        })
        .collect()
}

// issue 36: a table's replicas, kept by the CloudFormation and Terraform imports, were not
// written by either export, so a round trip lost them.
#[test]
fn cloudformation_and_terraform_exports_keep_replicas_through_a_round_trip() {
    use crate::import::{Format, import};
    let design = global_design();
    for (target, format) in [
        (Target::CloudFormationJson, Format::CloudFormation),
        (Target::CloudFormationYaml, Format::CloudFormation),
        (Target::Terraform, Format::Terraform),
    ] {
        let text = export(&design, target).unwrap();
        let imported = import(format, &text).unwrap_or_else(|e| panic!("{target:?}: {e}"));
        assert_eq!(
            global_shape(&imported.design),
            global_shape(&design),
            "{target:?}:\n{text}"
        );
        // The table names' `${Environment}` suffix is assumed away, as for any table; the
        // Regions, the stack's own included, are read as written.
        let about_regions: Vec<_> = imported
            .assumed
            .iter()
            .filter(|a| a.what.to_lowercase().contains("region"))
            .collect();
        assert!(about_regions.is_empty(), "{target:?}: {about_regions:?}");
    }
}

/// The exports that write capacity and auto scaling, and the importers that read them back.
const CAPACITY_ROUND_TRIPS: [(Target, crate::import::Format); 3] = [
    (
        Target::CloudFormationJson,
        crate::import::Format::CloudFormation,
    ),
    (
        Target::CloudFormationYaml,
        crate::import::Format::CloudFormation,
    ),
    (Target::Terraform, crate::import::Format::Terraform),
];

// issue 40 item 2: the exports wrote the table's capacity to every GSI and no auto scaling;
// they write each GSI's own and the auto scaling, and CloudFormation's and Terraform's import
// back to the same billing.
#[test]
fn capacity_and_auto_scaling_of_a_table_and_its_gsi_export_and_import_back_the_same() {
    use crate::model::{AutoScaling, Capacity, Scaling};
    let mut design = multi_attribute_design();
    let scaling = |min, max, target| Scaling { min, max, target };
    design.tables[0].billing = Billing::Provisioned {
        read: 5,
        write: 2,
        auto_scaling: Some(AutoScaling {
            read: None,
            write: Some(scaling(2, 50, Some(60.0))),
        }),
        indexes: [(
            "ByTournamentRegion".to_string(),
            Capacity {
                read: 8,
                write: 3,
                auto_scaling: Some(AutoScaling {
                    read: Some(scaling(8, 80, None)),
                    write: None,
                }),
            },
        )]
        .into(),
    };
    let expected = design.tables[0].billing.clone();
    for (target, format) in CAPACITY_ROUND_TRIPS {
        let text = export(&design, target).unwrap();
        let imported = crate::import::import(format, &text)
            .unwrap_or_else(|e| panic!("{target:?} imports back: {e}\n{text}"));
        // Read back, a policy states AWS's default target the design left unsaid.
        let mut read_back = imported.design.tables[0].billing.clone();
        if let Billing::Provisioned { indexes, .. } = &mut read_back
            && let Some(scaling) = indexes
                .get_mut("ByTournamentRegion")
                .and_then(|c| c.auto_scaling.as_mut())
                .and_then(|a| a.read.as_mut())
        {
            assert_eq!(scaling.target, Some(Scaling::DEFAULT_TARGET), "{target:?}");
            scaling.target = None;
        }
        assert_eq!(read_back, expected, "{target:?}:\n{text}");
    }
    let cdk = export(&design, Target::Cdk).unwrap();
    for written in [
        "writeCapacity: Capacity.autoscaled({ minCapacity: 2, maxCapacity: 50, targetUtilizationPercent: 60 })",
        "readCapacity: Capacity.autoscaled({ minCapacity: 8, maxCapacity: 80, targetUtilizationPercent: 70 })",
        "writeCapacity: Capacity.autoscaled({ minCapacity: 3, maxCapacity: 3 })",
    ] {
        assert!(cdk.contains(written), "{written} in\n{cdk}");
    }
}

// issue 40: the corpus round trip listed Workbench's auto-scaled tables as "lost the billing
// mode" through CloudFormation and Terraform: a GSI that takes its table's capacity and auto
// scaling came back listed apart with the same figures (its scalable targets, read one by one,
// gave it a capacity of its own).
#[test]
fn a_gsi_that_takes_its_tables_auto_scaling_comes_back_not_listed_apart() {
    use crate::model::{AutoScaling, Scaling};
    let mut design = multi_attribute_design();
    let scaling = Scaling {
        min: 1,
        max: 10,
        target: Some(70.0),
    };
    design.tables[0].billing = Billing::Provisioned {
        read: 5,
        write: 5,
        auto_scaling: Some(AutoScaling {
            read: Some(scaling),
            write: Some(scaling),
        }),
        indexes: Default::default(),
    };
    for (target, format) in CAPACITY_ROUND_TRIPS {
        let text = export(&design, target).unwrap();
        let imported = crate::import::import(format, &text)
            .unwrap_or_else(|e| panic!("{target:?} imports back: {e}\n{text}"));
        assert_eq!(
            imported.design.tables[0].billing, design.tables[0].billing,
            "{target:?}:\n{text}"
        );
    }
}

// issue 40: the NoSQL Workbench model has no place for a vector index (nor an LSI, nor a
// multi-attribute key's later attributes): its export says what it leaves out instead of
// dropping it without a word; a format that keeps them says nothing.
#[test]
fn the_workbench_export_warns_of_what_it_leaves_out() {
    let design = crate::file::parse(include_str!(
        "../../../tests/export/vector-search.keyplan.json"
    ))
    .expect("the vector fixture parses");
    let said = warnings(&design, Target::NosqlWorkbench);
    assert!(
        said.iter()
            .any(|w| w.contains("vector index `ByEmbedding`")),
        "{said:?}"
    );
    expect!["table `catalog`: vector index `ByEmbedding` (embedding, 8 dimensions, COSINE) is left out: NoSQL Workbench's model has no vector indexes (the CloudFormation, CDK and CreateTable exports keep it)"].assert_eq(&said.join("\n"));
    assert!(warnings(&design, Target::CloudFormationJson).is_empty());
}
