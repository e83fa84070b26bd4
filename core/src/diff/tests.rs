use expect_test::{Expect, expect};

use crate::coverage::testing::design;

/// Prints the text form of the difference between two designs in the tests' compact form.
fn check(old: &str, new: &str, expect: Expect) {
    let d = super::diff(&design(old), &design(new));
    expect.assert_eq(&d.text());
}

const ORDERS: &str = "
    table orders PK SK
    entity Customer customerId name email | PK=CUSTOMER#{customerId} SK=PROFILE
    entity Order orderId customerId status=NEW|DONE createdAt | PK=CUSTOMER#{customerId} SK=ORDER#{orderId}
    read customer_orders Order by customerId
    read order_by_id Order by orderId
";

/// [`ORDERS`] with an order keyed by its id alone (`customer_orders` is no longer served), and
/// its difference from [`ORDERS`].
fn orders_keyed_by_order_id() -> (String, super::DesignDiff) {
    let new = ORDERS.replace(
        "PK=CUSTOMER#{customerId} SK=ORDER#{orderId}",
        "PK=ORDER#{orderId} SK=ORDER",
    );
    let d = super::diff(&design(ORDERS), &design(&new));
    (new, d)
}

#[test]
fn the_same_design_has_no_differences() {
    check(
        ORDERS,
        ORDERS,
        expect![[r#"
        No differences.
    "#]],
    );
}

// issue 18: the order example gaining a GSI for "Get order by ID": a Scan that became a Query.
#[test]
fn a_new_gsi_is_an_index_change_and_the_scan_it_fixes_a_better_verdict() {
    let new = ORDERS
        .replace(
            "SK=ORDER#{orderId}\n",
            "SK=ORDER#{orderId} GSI1PK=ORDER#{orderId} GSI1SK=ORDER\n",
        )
        .replace(
            "table orders PK SK\n",
            "table orders PK SK\n    gsi GSI1 GSI1PK GSI1SK\n",
        );
    check(
        ORDERS,
        &new,
        expect![[r#"
            Table orders
              + index GSI1: added ({partition key: GSI1PK (S), projection: {type: ALL}, sort key: GSI1SK (S)})
              + Order key GSI1PK: added (ORDER#{orderId})
              + Order key GSI1SK: added (ORDER)
            Verdicts
              ~ order_by_id: Scan, not covered -> Query on GSI1 (GSI1PK = :pk AND GSI1SK = :sk)
            3 changes; 1 verdict changed, 0 regressions.
        "#]],
    );
}

// issue 18: a Query that became a Scan is a regression.
#[test]
fn a_key_template_that_no_longer_serves_a_pattern_is_a_regression() {
    let (new, d) = orders_keyed_by_order_id();
    assert_eq!(d.regressions().count(), 1);
    check(
        ORDERS,
        &new,
        expect![[r#"
            Table orders
              ~ Order key PK: CUSTOMER#{customerId} -> ORDER#{orderId}
              ~ Order key SK: ORDER#{orderId} -> ORDER
            Verdicts
              ! customer_orders: Query (PK = :pk AND begins_with(SK, :sk)) -> Scan, not covered  (regression)
              ~ order_by_id: Scan, not covered -> GetItem (PK = :pk AND SK = :sk)
            2 changes; 2 verdicts changed, 1 regression.
        "#]],
    );
}

#[test]
fn entities_attributes_and_patterns_added_removed_and_changed_are_each_a_line() {
    let new = "
        table orders PK SK
        entity Customer customerId name:N | PK=CUSTOMER#{customerId} SK=PROFILE
        entity Invoice invoiceId customerId | PK=CUSTOMER#{customerId} SK=INVOICE#{invoiceId}
        read customer_orders Invoice by customerId
        read customer_invoices Invoice by customerId desc
    ";
    check(
        ORDERS,
        new,
        expect![[r#"
            Table orders
              ~ Customer.name: type S -> N
              - Customer.email: removed ({required: yes, type: S})
              + entity Invoice: added (PK=CUSTOMER#{customerId}, SK=INVOICE#{invoiceId})
              - entity Order: removed (PK=CUSTOMER#{customerId}, SK=ORDER#{orderId})
            Patterns
              ~ pattern customer_orders: entities Order -> Invoice
              + pattern customer_invoices: added ({entities: Invoice, inputs: customerId, order: desc, rate: 1.0})
              - pattern order_by_id: removed ({entities: Order, inputs: orderId, rate: 1.0})
            Verdicts
              + customer_invoices: Query (PK = :pk AND begins_with(SK, :sk))
              - order_by_id: was Scan, not covered
            7 changes; 2 verdicts changed, 0 regressions.
        "#]],
    );
}

#[test]
fn table_keys_billing_and_removed_tables_are_changes_of_the_table() {
    let new = "
        table orders PK SK:N
        lsi LSI1 LSI1SK
        table audit PK
    ";
    let old = "
        table orders PK SK
        table archive PK
    ";
    check(
        old,
        new,
        expect![[r#"
            Table orders
              ~ table orders: sort key SK (S) -> SK (N)
              + index LSI1: added ({projection: {type: ALL}, sort key: LSI1SK (S)})
            Table audit
              + table audit: added ({billing: {mode: on_demand}, partition key: PK (S)})
            Table archive
              - table archive: removed ({billing: {mode: on_demand}, partition key: PK (S)})
            4 changes; 0 verdicts changed, 0 regressions.
        "#]],
    );
}

#[test]
fn the_markdown_has_a_table_per_section_and_marks_regressions() {
    let (_, d) = orders_keyed_by_order_id();
    expect![[r#"
        ## Design changes

        2 changes; 2 verdicts changed, 1 regression.

        ### Table `orders`

        | | What | Change |
        |---|---|---|
        | ~ | Order key PK | CUSTOMER#{customerId} -> ORDER#{orderId} |
        | ~ | Order key SK | ORDER#{orderId} -> ORDER |

        ### Verdicts

        | | Pattern | Before | After |
        |---|---|---|---|
        | **regression** | customer_orders | Query (PK = :pk AND begins_with(SK, :sk)) | Scan, not covered |
        |  | order_by_id | Scan, not covered | GetItem (PK = :pk AND SK = :sk) |

    "#]]
    .assert_eq(&d.markdown());
}

#[test]
fn the_json_form_names_each_subject_and_change() {
    let new = ORDERS.replace("status=NEW|DONE", "status=NEW|DONE|CANCELLED");
    let d = super::diff(&design(ORDERS), &design(&new));
    expect![[r#"
        {
          "tables": [
            {
              "table": "orders",
              "entities": [
                {
                  "subject": {
                    "kind": "attribute",
                    "entity": "Order",
                    "attribute": "status"
                  },
                  "change": {
                    "change": "changed",
                    "field": "values",
                    "before": "NEW, DONE",
                    "after": "NEW, DONE, CANCELLED"
                  }
                }
              ]
            }
          ],
          "patterns": [],
          "verdicts": []
        }"#]]
    .assert_eq(&serde_json::to_string_pretty(&d).expect("serialises"));
}

// issue 40: a vector index is an index of its table, compared by name like a GSI, and a vector
// search that an index begins to serve is a better verdict.
#[test]
fn a_new_vector_index_is_an_index_change_and_the_search_it_serves_a_better_verdict() {
    let old = "
        table products PK SK
        entity Product productId embedding:L | PK=PRODUCT#{productId} SK=PRODUCT
        near similar Product embedding 10
    ";
    let new = old.replace(
        "table products PK SK",
        "table products PK SK\nvector ByEmbedding embedding 1536",
    );
    check(
        old,
        &new,
        expect![[r#"
            Table products
              + index ByEmbedding: added ({attribute: embedding, dimensions: 1536, distance: COSINE, projection: {type: KEYS_ONLY}})
            Verdicts
              ~ similar: Scan, not covered -> SearchVectors on ByEmbedding
            1 change; 1 verdict changed, 0 regressions.
        "#]],
    );
}
