use expect_test::{Expect, expect};

use super::*;

/// Runs one case written `KIND P:T.. | S:T.. => READ [consistent] P.. | S.. [; ATTR OP VALUES]`:
/// the index's kind and keys, then the read, the attributes given equalities and the condition.
fn check(case: &str, expect: Expect) {
    let (schema, read) = case.split_once("=>").expect("a case has `=>`");
    let mut words = schema.split_whitespace();
    let kind = match words.next().expect("a kind") {
        "table" => IndexKind::Table,
        "gsi" => IndexKind::Gsi,
        "lsi" => IndexKind::Lsi,
        other => panic!("unknown kind {other}"),
    };
    let keys = |text: &str| -> Vec<KeyAttribute> {
        text.split_whitespace()
            .map(|k| {
                let (name, ty) = k.split_once(':').expect("NAME:TYPE");
                let ty = match ty {
                    "S" => KeyType::S,
                    "N" => KeyType::N,
                    _ => KeyType::B,
                };
                KeyAttribute::new(name, ty)
            })
            .collect()
    };
    let rest: Vec<&str> = words.collect();
    let rest = rest.join(" ");
    let (pk, sk) = rest.split_once('|').unwrap_or((&rest, ""));
    let (partition_key, sort_key) = (keys(pk), keys(sk));
    let schema = Schema {
        kind,
        partition_key: &partition_key,
        sort_key: &sort_key,
    };
    let (read, test) = read.split_once(';').unwrap_or((read, ""));
    let mut words = read.split_whitespace().peekable();
    let read = match words.next().expect("a read") {
        "get" => Read::GetItem,
        _ => Read::Query,
    };
    let consistent = words.next_if_eq(&"consistent").is_some();
    let rest: Vec<&str> = words.collect();
    let rest = rest.join(" ");
    let (partition, sort_equal) = rest.split_once('|').unwrap_or((&rest, ""));
    let test: Vec<&str> = test.split_whitespace().collect();
    let test = match test.as_slice() {
        [] => None,
        [attribute, op, values] => Some(Test {
            attribute,
            op: op.parse().expect("an operator"),
            values: values.parse().expect("a count"),
        }),
        other => panic!("a test is ATTR OP VALUES, not {other:?}"),
    };
    let answer = key_condition(
        schema,
        read,
        consistent,
        partition.split_whitespace(),
        sort_equal.split_whitespace(),
        test,
    );
    let shown = match answer {
        Ok(()) => "accepted".to_string(),
        Err(refusal) => format!("refused: {refusal}"),
    };
    expect.assert_eq(&shown);
}

#[test]
fn a_query_gives_the_whole_partition_key_by_equality() {
    check("table PK:S | SK:S => query PK", expect!["accepted"]);
    check(
        "table PK:S | SK:S => query SK",
        expect!["refused: `SK` is not a key attribute of the index queried, or is given twice"],
    );
    check(
        "table PK:S | SK:S => query",
        expect!["refused: the key condition gives no value for `PK`, a partition key attribute"],
    );
    check(
        "table PK:S => query PK PK",
        expect!["refused: `PK` is not a key attribute of the index queried, or is given twice"],
    );
    // A multi-attribute GSI partition key: every attribute, in any order.
    check(
        "gsi tenant:S region:S | at:N => query region tenant",
        expect!["accepted"],
    );
    check(
        "gsi tenant:S region:S | at:N => query tenant",
        expect![
            "refused: the key condition gives no value for `region`, a partition key attribute"
        ],
    );
}

#[test]
fn sort_key_attributes_are_matched_left_to_right_with_one_condition_last() {
    check(
        "gsi P:S | a:S b:N c:S => query P | a b ; c begins_with 1",
        expect!["accepted"],
    );
    check(
        "gsi P:S | a:S b:N c:S => query P | a ; b between 2",
        expect!["accepted"],
    );
    check(
        "gsi P:S | a:S b:N c:S => query P | a c",
        expect![
            "refused: `c` is used without `b`, which comes before it in the key: key attributes are matched left to right"
        ],
    );
    check(
        "gsi P:S | a:S b:N c:S => query P ; b > 1",
        expect![
            "refused: `b` is used without `a`, which comes before it in the key: key attributes are matched left to right"
        ],
    );
    check(
        "table P:S | SK:S => query P | SK ; SK = 1",
        expect!["refused: the condition on `SK` has no sort-key attribute left to apply to"],
    );
    check(
        "table P:S | SK:S => query P ; other = 1",
        expect!["refused: `other` is not a key attribute of the index queried, or is given twice"],
    );
    check(
        "table P:S => query P ; SK = 1",
        expect!["refused: `SK` is not a key attribute of the index queried, or is given twice"],
    );
}

#[test]
fn operators_take_their_values_and_begins_with_a_string_or_binary_key() {
    check(
        "table P:S | SK:S => query P ; SK between 1",
        expect!["refused: `SK`: between takes 2 value(s), not 1"],
    );
    check(
        "table P:S | SK:S => query P ; SK >= 2",
        expect!["refused: `SK`: >= takes 1 value(s), not 2"],
    );
    check(
        "table P:S | SK:N => query P ; SK begins_with 1",
        expect!["refused: begins_with needs a string or binary sort key; `SK` is a number"],
    );
    check(
        "table P:S | SK:B => query P ; SK begins_with 1",
        expect!["accepted"],
    );
    check(
        "table P:S | SK:N => query P ; SK between 2",
        expect!["accepted"],
    );
}

#[test]
fn a_gsi_reads_eventually_and_get_item_reads_the_whole_table_key() {
    check(
        "gsi G:S => query consistent G",
        expect!["refused: consistent reads are not supported on global secondary indexes"],
    );
    check(
        "lsi P:S | L:S => query consistent P ; L > 1",
        expect!["accepted"],
    );
    check(
        "table P:S | SK:S => get consistent P | SK",
        expect!["accepted"],
    );
    check(
        "table P:S | SK:S => get P",
        expect!["refused: GetItem needs the whole primary key by equality; `SK` has no value"],
    );
    check(
        "table P:S | SK:S => get P ; SK begins_with 1",
        expect![
            "refused: GetItem takes no condition on `SK`: it needs the whole primary key by equality"
        ],
    );
    check(
        "gsi G:S => get G",
        expect!["refused: GetItem reads the table's primary key, not an index"],
    );
}
