use expect_test::expect;

use crate::coverage::testing::{check, design, show};
use crate::model::Design;

/// The design after applying the suggestion of `pattern`'s verdict, and that verdict again.
fn applied(d: &Design, pattern: &str) -> (Design, String) {
    let suggestion = crate::coverage::verdicts(d)
        .into_iter()
        .find(|v| v.pattern == pattern)
        .and_then(|v| v.suggestions.into_iter().next())
        .expect("a suggestion");
    let edit = suggestion.edit(d).expect("an edit");
    let mut after = d.clone();
    crate::edit::apply(&mut after, edit).expect("applies");
    let verdict = crate::coverage::verdicts(&after)
        .into_iter()
        .find(|v| v.pattern == pattern)
        .expect("the pattern");
    (after, show(&verdict))
}

const THREE_GSIS: &str = "
    table orders PK SK
    gsi GSI1 GSI1PK GSI1SK
    gsi GSI2 GSI2PK
    gsi GSI3 GSI3PK GSI3SK
    entity Order orderId customerId status createdAt fc | PK=CUSTOMER#{customerId} SK=ORDER#{orderId} GSI1PK=STATUS#{status} GSI1SK={createdAt} GSI2PK=FC#{fc}
    entity DailyOrderCount date status | PK=ANALYTICS SK=DATE#{date}#STATUS#{status} GSI3PK=DATE#{date} GSI3SK=STATUS#{status}
";

// issue 43: "Add this GSI" made GSI4 for `Get order by ID` though GSI3 held no Order (KP012
// calls it unused), and KP006 then warned of four GSIs.
#[test]
fn a_gsi_the_entity_does_not_use_is_offered_before_a_new_one_and_the_offer_names_it() {
    check(
        &format!("{THREE_GSIS}\nread get_order Order by orderId"),
        expect![[r#"
            get_order: Scan
              filter: #orderId = :orderId
                #orderId = orderId
                :orderId = {orderId}
              - the table: PK = `CUSTOMER#{customerId}` needs `customerId`, which is not an input
              - GSI1: GSI1PK = `STATUS#{status}` needs `status`, which is not an input
              - GSI2: GSI2PK = `FC#{fc}` needs `fc`, which is not an input
              - GSI3: Order is absent from GSI3: it has no template for GSI3PK
              suggestion: GSI3 holds no Order yet: give Order partition key `ORDER#{orderId}` and sort key `ORDER` on it to serve it, with no new index
        "#]],
    );
}

#[test]
fn applying_an_overload_fills_the_existing_gsi_and_adds_none() {
    let d = design(&format!("{THREE_GSIS}\nread get_order Order by orderId"));
    let (after, verdict) = applied(&d, "get_order");
    let table = after.table("orders").expect("table");
    assert_eq!(table.gsis.len(), 3, "no new GSI");
    expect![[r#"
        get_order: Query on GSI3
          GSI3PK = :pk AND GSI3SK = :sk
            :pk = ORDER#{orderId}
            :sk = ORDER
    "#]]
    .assert_eq(&verdict);
}

#[test]
fn a_gsi_whose_partitions_the_new_key_could_share_is_not_overloaded() {
    // GSI2's `{id}` can render `ORDER#1`: its items would be read with the orders.
    check(
        "
        table orders PK SK
        gsi GSI2 GSI2PK
        entity Order orderId customerId | PK=CUSTOMER#{customerId} SK=ORDER#{orderId}
        entity Thing id | PK=THING#{id} SK=THING GSI2PK={id}
        read get_order Order by orderId
        ",
        expect![[r#"
            get_order: Scan
              filter: #orderId = :orderId
                #orderId = orderId
                :orderId = {orderId}
              - the table: PK = `CUSTOMER#{customerId}` needs `customerId`, which is not an input
              - GSI2: Order is absent from GSI2: it has no template for GSI2PK
              suggestion: a GSI with partition key `ORDER#{orderId}` would serve it
        "#]],
    );
}

#[test]
fn a_keys_only_gsi_or_one_without_the_sort_key_the_read_needs_is_not_overloaded() {
    check(
        "
        table orders PK SK
        gsi Slim SlimPK SlimSK keys_only
        gsi Flat FlatPK
        entity Order orderId customerId status createdAt | PK=CUSTOMER#{customerId} SK=ORDER#{orderId}
        read by_status Order by status order createdAt
        ",
        expect![[r#"
            by_status: Scan
              filter: #status = :status
                #status = status
                :status = {status}
              - the table: PK = `CUSTOMER#{customerId}` needs `customerId`, which is not an input
              - Slim: Order is absent from Slim: it has no template for SlimPK
              - Flat: Order is absent from Flat: it has no template for FlatPK
              suggestion: a GSI with partition key `STATUS#{status}` and sort key `{createdAt}#{orderId}` would serve it
        "#]],
    );
}

#[test]
fn the_order_example_overloads_gsi3_for_get_order_by_id() {
    let d = crate::examples::first();
    let (after, verdict) = applied(&d, "Get order by ID");
    assert_eq!(after.table("orders").expect("table").gsis.len(), 3);
    assert!(
        verdict.starts_with("Get order by ID: Query on GSI3"),
        "{verdict}"
    );
}

// issue 43: `Get customer orders` ordered by `createdAt` while SK is `ORDER#{orderId}` was
// called a Scan; it is a Query on the table whose items are sorted after the read, and the
// suggestions re-key the sort key or name an index.
#[test]
fn an_order_the_key_does_not_sort_by_is_a_query_sorted_in_memory_with_a_re_key_beside_an_index() {
    check(
        "
        table orders PK SK
        entity Customer customerId name | PK=CUSTOMER#{customerId} SK=PROFILE
        entity Order orderId customerId createdAt | PK=CUSTOMER#{customerId} SK=ORDER#{orderId}
        read customer_orders Order by customerId order createdAt desc page 25
        ",
        expect![[r#"
            customer_orders: Query (descending)
              PK = :pk AND begins_with(SK, :sk)
                :pk = CUSTOMER#{customerId}
                :sk = ORDER#
              order: not in that order: every matching item is read and sorted by createdAt in memory, newest first (cannot be paged by createdAt)
              - the order by `createdAt` is not the order of SK: it sorts by `orderId` after `ORDER#`
              suggestion: re-key Order's SK as `ORDER#{createdAt}#{orderId}`: the Query then reads newest first a page at a time (the items already stored need rewriting: plan the migration)
              suggestion: a GSI with partition key `CUSTOMER#{customerId}` and sort key `{createdAt}#{orderId}` would serve it
        "#]],
    );
}

#[test]
fn applying_the_re_key_makes_the_query_read_in_order() {
    let d = design(
        "
        table orders PK SK
        entity Customer customerId name | PK=CUSTOMER#{customerId} SK=PROFILE
        entity Order orderId customerId createdAt | PK=CUSTOMER#{customerId} SK=ORDER#{orderId}
        read customer_orders Order by customerId order createdAt desc page 25
        read get_order Order by customerId,orderId
        ",
    );
    let (after, verdict) = applied(&d, "customer_orders");
    assert_eq!(
        after.entity("Order").expect("Order").keys["SK"].source(),
        "ORDER#{createdAt}#{orderId}"
    );
    expect![[r#"
        customer_orders: Query (descending)
          PK = :pk AND begins_with(SK, :sk)
            :pk = CUSTOMER#{customerId}
            :sk = ORDER#
          order: newest first by createdAt (ScanIndexForward=false on SK)
    "#]]
    .assert_eq(&verdict);
}
