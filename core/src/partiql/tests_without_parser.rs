//! A build without the `partiql` feature (the browser app) judges a pattern given as a
//! statement by its structured fields, and says so.

use crate::model::AccessPattern;

#[test]
fn without_the_parser_a_statement_s_pattern_is_judged_by_its_structured_fields() {
    let mut design = crate::examples::get("ecommerce-orders").expect("the example");
    let mut pattern = AccessPattern::read("customer", &["Customer"], &["customerId"]);
    pattern.partiql = Some(r#"SELECT * FROM "shop" WHERE PK = ? AND SK = 'PROFILE'"#.to_string());
    design.patterns = vec![pattern];
    let analysis = crate::analyze(&design);
    let v = &analysis.verdicts[0];
    assert_eq!(v.operation, crate::answer::Operation::GetItem);
    assert!(
        v.reasons.iter().any(|r| r.contains("reads no PartiQL")),
        "{:?}",
        v.reasons
    );
    assert!(analysis.findings.iter().all(|f| f.code != "KP033"));
}
