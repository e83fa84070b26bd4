//! Statements on the ecommerce example, each with the verdict keyplan gives it: one line of
//! operation, index and key condition, then the reasons, then what each `?` is bound to.

use expect_test::{Expect, expect};

use crate::model::AccessPattern;

/// The verdict of a read of `entities` given as `statement` on the ecommerce example.
fn verdict(statement: &str, entities: &[&str]) -> String {
    let mut design = crate::examples::get("ecommerce-orders").expect("the example");
    let mut pattern = AccessPattern::read("statement", entities, &[]);
    pattern.partiql = Some(statement.to_string());
    design.patterns = vec![pattern];
    let analysis = crate::analyze(&design);
    let v = &analysis.verdicts[0];
    let mut out = format!(
        "{} on {}",
        v.operation.as_str(),
        v.index.as_deref().unwrap_or("the table")
    );
    if let Some(k) = &v.key_condition {
        out.push_str(&format!(": {}", k.expression));
    }
    if let Some(f) = &v.filter {
        out.push_str(&format!(" filter {}", f.expression));
    }
    out.push('\n');
    for r in &v.reasons {
        out.push_str(&format!("  {r}\n"));
    }
    if let Some(p) = &v.partiql {
        for (i, t) in p.parameters.iter().enumerate() {
            out.push_str(&format!("  ?{} = {t}\n", i + 1));
        }
    }
    out
}

#[track_caller]
fn check(statement: &str, entities: &[&str], expect: Expect) {
    expect.assert_eq(&verdict(statement, entities));
}

#[test]
fn a_statement_that_pins_the_table_key_is_a_get_item() {
    check(
        r#"SELECT * FROM "shop" WHERE PK = ? AND SK = ?"#,
        &["Customer"],
        expect![[r#"
            GetItem on the table: PK = :pk AND SK = :sk
              ?1 = CUSTOMER#{customerId}
              ?2 = PROFILE
        "#]],
    );
}

#[test]
fn a_statement_on_a_gsi_with_begins_with_is_a_query_on_that_gsi() {
    check(
        r#"SELECT * FROM "shop"."GSI2" WHERE GSI2PK = ? AND begins_with(GSI2SK, ?)"#,
        &["Order"],
        expect![[r#"
            Query on GSI2: GSI2PK = :pk AND begins_with(GSI2SK, :sk)
              ?1 = STATUS#{status}
              ?2 = {createdAt}
        "#]],
    );
}

#[test]
fn a_range_on_the_sort_key_and_a_filter_bind_each_parameter() {
    check(
        r#"SELECT orderId, total FROM "shop" WHERE "PK" = ? AND SK >= ? AND total > ? ORDER BY SK DESC"#,
        &["Order"],
        expect![[r#"
            Query on the table: PK = :pk AND SK BETWEEN :sk1 AND :sk2 filter #total > :total
              the statement's `SK >= ?` also reads past the returned entities' sort-key prefix (other entity types): keyplan's key condition, `PK = :pk AND SK BETWEEN :sk1 AND :sk2`, keeps to them
              ?1 = CUSTOMER#{customerId}
              ?2 = ORDER#{createdAt}
              ?3 = {total}
        "#]],
    );
}

#[test]
fn a_where_without_the_partition_key_scans_and_names_the_index_that_would_serve_it() {
    check(
        r#"SELECT * FROM "shop" WHERE GSI1PK = ?"#,
        &["Order"],
        expect![[r#"
            Scan on the table filter #orderId = :orderId
              the WHERE does not give the partition key `PK` of the table with `=` or IN: DynamoDB reads every item (a Scan)
              Query on GSI1 serves the same read: SELECT * FROM "shop"."GSI1" WHERE "GSI1PK" = ? AND "GSI1SK" = '#ORDER'
              ?1 = ORDER#{orderId}
        "#]],
    );
}

#[test]
fn a_statement_without_where_scans() {
    check(
        r#"SELECT * FROM "shop""#,
        &["Order"],
        expect![[r#"
        Scan on the table
          the statement has no WHERE: DynamoDB reads every item of the table (a Scan)
    "#]],
    );
}

#[test]
fn a_range_on_the_partition_key_scans() {
    check(
        r#"SELECT * FROM "shop" WHERE PK > ?"#,
        &["Customer"],
        expect![[r#"
            Scan on the table filter #PK > :PK
              the partition key `PK` of the table is compared with `>`, not `=` or IN: DynamoDB reads every item (a Scan)
              ?1 = {PK}
        "#]],
    );
}

#[test]
fn an_or_with_another_attribute_scans() {
    check(
        r#"SELECT * FROM "shop" WHERE PK = ? OR email = ?"#,
        &["Customer"],
        expect![[r#"
            Scan on the table
              the WHERE's OR lets an item match without the partition key of the table: DynamoDB reads every item (a Scan)
        "#]],
    );
}

#[test]
fn a_function_on_the_partition_key_scans() {
    check(
        r#"SELECT * FROM "shop" WHERE begins_with(PK, ?) AND SK = ?"#,
        &["Customer"],
        expect![[r#"
            Scan on the table filter begins_with(#PK, :PK)
              the partition key `PK` of the table is compared with `begins_with`, not `=` or IN: DynamoDB reads every item (a Scan)
              ?1 = {PK}
              ?2 = PROFILE
        "#]],
    );
}

#[test]
fn statements_keyplan_cannot_map_say_why_and_where() {
    let cases = [
        r#"SELECT * FROM "shop" WHERE PK IN [?, ?]"#,
        r#"SELECT * FROM "shop" WHERE PK = ? OR PK = ?"#,
        r#"SELECT * FROM "nowhere" WHERE PK = ?"#,
        r#"SELECT * FROM "shop"."GSI9" WHERE PK = ?"#,
        "SELECT * FROM \"shop\"\nWHERE PK = ? AND size(email) > ?",
        r#"SELECT * FROM "shop" WHERE PK = ? ORDER BY email"#,
        r#"DELETE FROM "shop" WHERE PK = ?"#,
        r#"SELECT * FROM "shop" WHERE PK = = ?"#,
        r#"SELECT * FROM "shop" WHERE PK = 'CUSTOMER#1'"#,
        "",
    ];
    let out: String = cases.iter().map(|s| verdict(s, &["Customer"])).collect();
    expect![[r#"
        Scan on the table
          keyplan cannot map the PartiQL statement in WHERE at line 1, column 28: an IN on the partition key reads several partitions, one Query each; a read pattern reads one: give each its own pattern
        Scan on the table
          keyplan cannot map the PartiQL statement in WHERE at line 1, column 28: an OR of partition key values reads several partitions, one Query each; a read pattern reads one: give each its own pattern
        Scan on the table
          keyplan cannot map the PartiQL statement in FROM at line 1, column 15: the design has no table `nowhere`
        Scan on the table
          keyplan cannot map the PartiQL statement in FROM at line 1, column 22: table `shop` has no index `GSI9`
        Scan on the table
          keyplan cannot map the PartiQL statement in WHERE at line 2, column 18: the function size is no condition a read pattern can state (a comparison, BETWEEN, IN, begins_with, contains, IS [NOT] MISSING)
        Scan on the table
          keyplan cannot map the PartiQL statement in ORDER BY at line 1, column 44: DynamoDB orders a statement's results by the sort key of what it reads: `email` is not the table's
        Scan on the table
          keyplan cannot map the PartiQL statement in the statement at line 1, column 8: PartiQL does not expect `FROM` here
        Scan on the table
          keyplan cannot map the PartiQL statement in the statement at line 1, column 33: PartiQL does not expect `=` here
        Scan on the table
          keyplan cannot map the PartiQL statement in WHERE at line 1, column 28: `PK` is given a value keyplan cannot match to its template `CUSTOMER#{customerId}`: bind it with `?`
        Scan on the table
          keyplan cannot map the PartiQL statement in the statement at line 1, column 1: the statement is empty
    "#]].assert_eq(&out);
}

#[test]
fn a_statement_past_dynamodbs_length_or_nesting_is_refused_before_parsing() {
    let long = format!("SELECT * FROM \"shop\" WHERE PK = ?{}", " ".repeat(8_200));
    let deep = format!(
        "SELECT * FROM \"shop\" WHERE {}PK = ?{}",
        "(".repeat(1_000),
        ")".repeat(1_000)
    );
    let out = format!(
        "{}{}",
        verdict(&long, &["Customer"]),
        verdict(&deep, &["Customer"])
    );
    expect![[r#"
        Scan on the table
          keyplan cannot map the PartiQL statement in the statement at line 1, column 1: the statement is 8233 characters long; DynamoDB takes at most 8192
        Scan on the table
          keyplan cannot map the PartiQL statement in the statement at line 1, column 60: brackets nest deeper than 32
    "#]].assert_eq(&out);
}

#[test]
fn a_question_mark_inside_a_string_or_a_name_is_no_parameter() {
    check(
        r#"SELECT * FROM "shop" WHERE PK = ? AND "what?" = 'why?' AND SK = ?"#,
        &["Customer"],
        expect![[r#"
            Query on the table: PK = :pk AND SK = :sk filter #what_ = :what_
              GetItem takes no FilterExpression: a Query on the whole key reads the same item and applies the filter
              ?1 = CUSTOMER#{customerId}
              ?2 = PROFILE
        "#]],
    );
}

#[test]
fn every_structured_read_renders_a_statement_that_maps_back_to_its_verdict() {
    for (slug, design) in crate::examples::all() {
        let analysis = crate::analyze(&design);
        for (verdict, pattern) in analysis.verdicts.iter().zip(&design.patterns) {
            let Some(rendered) = super::render(verdict, &design) else {
                continue;
            };
            let mut given = pattern.clone();
            given.partiql = Some(rendered.statement.clone());
            let mut again = design.clone();
            again.patterns = vec![given];
            let back = &crate::analyze(&again).verdicts[0];
            assert_eq!(
                (back.operation, &back.index, &back.key_condition),
                (verdict.operation, &verdict.index, &verdict.key_condition),
                "{slug}: {}: {}\n{:?}",
                pattern.name,
                rendered.statement,
                back.reasons
            );
            assert_eq!(
                back.partiql.as_ref().map(|p| &p.parameters),
                Some(&rendered.parameters),
                "{slug}: {}: {}",
                pattern.name,
                rendered.statement
            );
        }
    }
}

#[test]
fn a_statement_keyplan_cannot_map_is_finding_kp033_at_its_pattern() {
    let mut design = crate::examples::get("ecommerce-orders").expect("the example");
    let mut pattern = AccessPattern::read("by email", &["Customer"], &[]);
    pattern.partiql = Some("SELECT * FROM \"shop\"\n  WHERE lower(email) = ?".to_string());
    design.patterns.push(pattern);
    let analysis = crate::analyze(&design);
    let found: Vec<String> = analysis
        .findings
        .iter()
        .filter(|f| f.code == "KP033")
        .map(|f| format!("{} {:?} {}: {}", f.code, f.severity, f.place, f.message))
        .collect();
    expect!["KP033 Error patterns/by email: `by email`'s PartiQL statement cannot be mapped onto a read pattern in WHERE at line 2, column 9: the function lower is no condition a read pattern can state (a comparison, BETWEEN, IN, begins_with, contains, IS [NOT] MISSING)"].assert_eq(&found.join("\n"));
}

#[test]
fn a_statement_on_a_multi_attribute_gsi_is_refused_as_dynamodb_refuses_it() {
    let mut design = crate::examples::get("ecommerce-orders").expect("the example");
    let table = &mut design.tables[0];
    table.gsis[1]
        .partition_key
        .push(crate::model::KeyAttribute::new(
            "region",
            crate::model::KeyType::S,
        ));
    let mut pattern = AccessPattern::read("by status", &["Order"], &[]);
    pattern.partiql = Some(r#"SELECT * FROM "shop"."GSI2" WHERE GSI2PK = ?"#.to_string());
    design.patterns = vec![pattern];
    let analysis = crate::analyze(&design);
    expect!["keyplan cannot map the PartiQL statement in FROM at line 1, column 22: DynamoDB refuses a PartiQL read of `GSI2`, whose key has more than one attribute: read it with a Query"].assert_eq(&analysis.verdicts[0].reasons.join("\n"));
}
