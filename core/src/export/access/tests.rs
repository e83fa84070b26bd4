//! The access code of reads given as PartiQL statements (issue 40): ExecuteStatement with the
//! pattern's own statement and each `?`'s value, in every language.

use expect_test::{Expect, expect};

use crate::model::Design;

/// The order-management example with `statement` as the PartiQL of pattern `pattern`.
fn stated(pattern: &str, statement: &str) -> Design {
    let mut design = crate::examples::get("order-management").expect("the example");
    let p = design
        .patterns
        .iter_mut()
        .find(|p| p.name == pattern)
        .expect("the example has the pattern");
    p.partiql = Some(statement.to_string());
    design
}

fn check(code: String, from: &str, to: &str, expect: Expect) {
    expect.assert_eq(&crate::export::vector::tests::between(&code, from, to));
}

#[test]
fn a_stated_statement_is_sent_with_execute_statement_in_every_language() {
    let design = stated(
        "Get customer orders",
        r#"SELECT * FROM "orders" WHERE PK = ? AND begins_with(SK, 'ORDER#') ORDER BY SK DESC"#,
    );
    check(
        super::typescript(&design),
        "Get customer orders: Query",
        "nextToken: result.NextToken",
        expect![[r#"
            /** Get customer orders: Query on the table. Newest first, 25 a page. */
            export async function getCustomerOrders(
              client: DynamoDBDocumentClient,
              input: { customerId: string },
              options: { limit?: number; nextToken?: string } = {},
            ): Promise<StatementPage<Order>> {
              // The pattern's PartiQL statement, sent as written: it names its table itself.
              const result = await client.send(
                new ExecuteStatementCommand({
                  Statement: 'SELECT * FROM "orders" WHERE PK = ? AND begins_with(SK, \'ORDER#\') ORDER BY SK DESC',
                  Parameters: [`CUSTOMER#${input.customerId}`],
                  Limit: options.limit ?? 25,
                  NextToken: options.nextToken,
                }),
              );
              return { items: (result.Items ?? []) as Order[], nextToken: result.NextToken };
        "#]],
    );
    check(
        super::python(&design),
        "def get_customer_orders",
        "return items, response",
        expect![[r#"
            def get_customer_orders(
                client, customer_id: str, limit: Optional[int] = 25, next_token: Optional[str] = None
            ) -> tuple[list[Item], Optional[str]]:
                """Get customer orders: Query on the table. Newest first, 25 a page.

                Returns one page of items and the token to pass as `next_token` for the next, if any.
                """
                # The pattern's PartiQL statement, sent as written: it names its table itself.
                request: dict[str, Any] = {
                    "Statement": "SELECT * FROM \"orders\" WHERE PK = ? AND begins_with(SK, 'ORDER#') ORDER BY SK DESC",
                    "Parameters": [_serializer.serialize(value) for value in [f"CUSTOMER#{customer_id}"]],
                }
                if limit is not None:
                    request["Limit"] = limit
                if next_token is not None:
                    request["NextToken"] = next_token
                response = client.execute_statement(**request)
                items = [_from_dynamo(item) for item in response.get("Items", [])]
                return items, response.get("NextToken")
        "#]],
    );
    check(
        super::rust(&design),
        "/// Get customer orders",
        "Ok((output.items.unwrap_or_default(), output.next_token))",
        expect![[r#"
            /// Get customer orders: Query on the table. Newest first, 25 a page.
            ///
            /// Returns one page and the token to pass as `next_token` for the next, if any.
            pub async fn get_customer_orders(
                client: &Client,
                customer_id: &str,
                limit: Option<i32>,
                next_token: Option<String>,
            ) -> Result<(Vec<Item>, Option<String>), Error> {
                // The pattern's PartiQL statement, sent as written: it names its table itself.
                let output = client
                    .execute_statement()
                    .statement("SELECT * FROM \"orders\" WHERE PK = ? AND begins_with(SK, 'ORDER#') ORDER BY SK DESC")
                    .parameters(AttributeValue::S(format!("CUSTOMER#{}", customer_id)))
                    .set_limit(limit.or(Some(25)))
                    .set_next_token(next_token)
                    .send()
                    .await?;
                Ok((output.items.unwrap_or_default(), output.next_token))
        "#]],
    );
}

#[test]
fn a_statement_that_scans_is_sent_as_written_with_the_reasons_it_scans() {
    let design = stated(
        "Get order items",
        r#"SELECT * FROM "orders" WHERE itemId = ?"#,
    );
    check(
        super::typescript(&design),
        "Get order items: Scan",
        "new ExecuteStatementCommand",
        expect![[r#"
            /** Get order items: Scan on the table. */
            // the WHERE does not give the partition key `PK` of the table with `=` or IN: DynamoDB reads every item (a Scan)
            export async function getOrderItems(
              client: DynamoDBDocumentClient,
              input: { itemId: string },
              options: { limit?: number; nextToken?: string } = {},
            ): Promise<StatementPage<OrderItem>> {
              // The pattern's PartiQL statement, sent as written: it names its table itself.
              const result = await client.send(
                new ExecuteStatementCommand({
        "#]],
    );
}

#[test]
fn a_statement_keyplan_cannot_map_is_not_generated_and_says_why() {
    let design = stated("Get order items", r#"SELECT * FROM "nowhere" WHERE PK = ?"#);
    check(
        super::python(&design),
        "get_order_items",
        "get_order_items",
        expect![[r#"
            # get_order_items: not generated: its PartiQL statement is not sent: keyplan cannot map the PartiQL statement in FROM at line 1, column 15: the design has no table `nowhere`.
        "#]],
    );
}
