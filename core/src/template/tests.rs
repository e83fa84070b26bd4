use expect_test::{Expect, expect};

use super::*;

/// Prints the parts and diagnostics of a template, one per line.
fn check(source: &str, expect: Expect) {
    let t = KeyTemplate::parse(source);
    let mut out = String::new();
    for part in t.parts() {
        match part {
            Part::Literal(s) => out.push_str(&format!("lit {s:?}\n")),
            Part::Var(v) => match v.shards {
                Some(n) => out.push_str(&format!(
                    "shard {} x{n} @{}..{}\n",
                    v.name, v.span.start, v.span.end
                )),
                None => out.push_str(&format!(
                    "var {} @{}..{}\n",
                    v.name, v.span.start, v.span.end
                )),
            },
        }
    }
    for d in t.diagnostics() {
        out.push_str(&format!(
            "error @{}..{}: {}\n",
            d.span.start, d.span.end, d.message
        ));
    }
    expect.assert_eq(&out);
}

#[test]
fn prefixed_variable() {
    check(
        "CUSTOMER#{customerId}",
        expect![[r##"
            lit "CUSTOMER#"
            var customerId @9..21
        "##]],
    );
}

#[test]
fn composite_sort_key() {
    check(
        "{createdAt}#{orderId}",
        expect![[r##"
            var createdAt @0..11
            lit "#"
            var orderId @12..21
        "##]],
    );
}

#[test]
fn constant() {
    check(
        "PROFILE",
        expect![[r##"
            lit "PROFILE"
        "##]],
    );
}

#[test]
fn write_shard() {
    check(
        "STATUS#{status}#SHARD{shard:10}",
        expect![[r##"
            lit "STATUS#"
            var status @7..15
            lit "#SHARD"
            shard shard x10 @21..31
        "##]],
    );
}

#[test]
fn escaped_braces_are_literal() {
    check(
        "A{{B}}#{x}",
        expect![[r##"
            lit "A{B}#"
            var x @7..10
        "##]],
    );
}

#[test]
fn unclosed_variable_is_a_diagnostic_not_a_panic() {
    check(
        "ORDER#{orderId",
        expect![[r##"
            lit "ORDER#{orderId"
            error @6..14: unclosed `{`: a variable ends with `}`
        "##]],
    );
}

#[test]
fn brace_inside_variable_is_reported() {
    check(
        "A#{x{y}",
        expect![[r##"
            lit "A#{x"
            var y @4..7
            error @2..4: unclosed `{`: a variable ends with `}`
        "##]],
    );
}

#[test]
fn stray_closing_brace() {
    check(
        "A}B",
        expect![[r##"
            lit "A}B"
            error @1..2: unmatched `}`: write `}}` for a literal brace
        "##]],
    );
}

#[test]
fn empty_template_and_empty_variable() {
    check(
        "",
        expect![[r##"
            error @0..0: a key template cannot be empty: DynamoDB key values need at least one byte
        "##]],
    );
    check(
        "X#{}",
        expect![[r##"
            lit "X#"
            error @2..4: empty variable: name an attribute, as in `{customerId}`
        "##]],
    );
}

#[test]
fn bad_shard_counts() {
    check(
        "S{shard:1}",
        expect![[r##"
            lit "S"
            error @8..9: a shard count must be from 2 to 10000, not 1
        "##]],
    );
    check(
        "S{shard:ten}",
        expect![[r##"
            lit "S"
            error @8..11: `ten` is not a shard count: write `{shard:10}` for 10 shards
        "##]],
    );
    check(
        "{a:2}{b:3}",
        expect![[r##"
            shard a x2 @0..5
            shard b x3 @5..10
            error @5..10: two shard variables next to each other
            error @5..10: a key template can have at most one shard variable
        "##]],
    );
}

#[test]
fn multibyte_text_keeps_byte_spans() {
    check(
        "Ünï#{ß}",
        expect![[r##"
            lit "Ünï#"
            var ß @6..10
        "##]],
    );
}

#[test]
fn render_and_prefix() {
    let t = KeyTemplate::parse("ORDER#{orderId}#ITEM#{itemId}");
    let full = t.render(|v| Some(format!("<{}>", v.name)));
    assert_eq!(full.as_deref(), Some("ORDER#<orderId>#ITEM#<itemId>"));
    let (prefix, whole) = t.render_prefix(|v| (v.name == "orderId").then(|| "o1".to_string()));
    assert_eq!((prefix.as_str(), whole), ("ORDER#o1#ITEM#", false));
    assert_eq!(t.render(|v| (v.name == "orderId").then(String::new)), None);
    assert_eq!(t.literal_prefix(), "ORDER#");
}

#[test]
fn serde_round_trips_the_source_even_when_invalid() {
    let t: KeyTemplate = serde_json::from_str(r#""A#{x""#).expect("any string is a template");
    assert!(!t.is_valid());
    assert_eq!(serde_json::to_string(&t).expect("serialises"), r#""A#{x""#);
}
