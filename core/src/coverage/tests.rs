use expect_test::{Expect, expect};

use super::testing::{check, design, show};

const ORDERS: &str = "
    table orders PK SK
    gsi GSI1 GSI1PK GSI1SK
    entity Customer customerId name email | PK=CUSTOMER#{customerId} SK=PROFILE
    entity Order orderId customerId status=NEW|DONE createdAt total:N | PK=CUSTOMER#{customerId} SK=ORDER#{orderId} GSI1PK=STATUS#{status}#SHARD{shard:10} GSI1SK={createdAt}#{orderId}
";

#[test]
fn full_primary_key_of_one_entity_is_a_get_item() {
    check(
        &format!("{ORDERS}\nread get_order Order by customerId,orderId"),
        expect![[r#"
            get_order: GetItem
              PK = :pk AND SK = :sk
                :pk = CUSTOMER#{customerId}
                :sk = ORDER#{orderId}
        "#]],
    );
}

#[test]
fn one_entity_among_others_in_a_partition_is_a_query_with_begins_with() {
    check(
        &format!("{ORDERS}\nread customer_orders Order by customerId desc"),
        expect![[r#"
            customer_orders: Query (descending)
              PK = :pk AND begins_with(SK, :sk)
                :pk = CUSTOMER#{customerId}
                :sk = ORDER#
              order: descending by orderId (ScanIndexForward=false on SK)
        "#]],
    );
}

// issue 43: a sort on a number inside a string key (KP021) was shown as a clean ascending order.
#[test]
fn an_order_by_a_number_in_a_string_key_says_it_sorts_as_text() {
    check(
        "
        table t PK SK
        entity Task listId taskId priority:N | PK=LIST#{listId} SK={priority}#{taskId}
        read by_priority Task by listId desc
        ",
        expect![[r#"
            by_priority: Query (descending)
              PK = :pk
                :pk = LIST#{listId}
              order: by priority as text, not as numbers (`10` before `2`: KP021), descending (ScanIndexForward=false on SK)
        "#]],
    );
}

#[test]
fn entities_sharing_a_partition_are_one_query() {
    check(
        &format!("{ORDERS}\nread customer_with_orders Customer,Order by customerId"),
        expect![[r#"
            customer_with_orders: Query
              PK = :pk
                :pk = CUSTOMER#{customerId}
        "#]],
    );
}

#[test]
fn a_sharded_gsi_is_a_scatter_gather_and_a_strict_range_skips_the_equal_keys() {
    check(
        &format!("{ORDERS}\nread orders_by_status Order by status where createdAt > rate 2000"),
        expect![[r#"
            orders_by_status: Query on GSI1 x10 shards
              GSI1PK = :pk AND GSI1SK >= :sk
                :pk = STATUS#{status}#SHARD{shard:10}
                :sk = {createdAt}$
              - the bound ends in `$`, the character after `#`: it sorts after every key that goes on `#...` past `createdAt`, so items whose `createdAt` equals the value are skipped, as `>` means
              - the partition key is write-sharded: scatter 10 Queries, one per shard, and merge
        "#]],
    );
}

#[test]
fn a_range_after_a_literal_prefix_is_closed_when_other_types_sort_outside_it() {
    check(
        "
        table t PK SK
        entity Account accountId | PK=USER#{userId} SK=ACCOUNT
        entity User userId | PK=USER#{userId} SK=PROFILE
        entity Login userId at | PK=USER#{userId} SK=LOGIN#{at}
        read after Login by userId where at >
        read since Login by userId where at >=
        read before Login by userId where at <
        read until Login by userId where at <=
        read within Login by userId where at between
        read month Login by userId where at begins_with
        read exactly Login by userId where at =
        ",
        expect![[r#"
            after: Query
              PK = :pk AND SK BETWEEN :sk1 AND :sk2
                :pk = USER#{userId}
                :sk1 = LOGIN#{at}
                :sk2 = LOGIN$
              - BETWEEN is inclusive: items whose `at` equals the lower bound are returned too; skip them
            since: Query
              PK = :pk AND SK BETWEEN :sk1 AND :sk2
                :pk = USER#{userId}
                :sk1 = LOGIN#{at}
                :sk2 = LOGIN$
            before: Query
              PK = :pk AND SK BETWEEN :sk1 AND :sk2
                :pk = USER#{userId}
                :sk1 = LOGIN#
                :sk2 = LOGIN#{at}
              - BETWEEN is inclusive: items whose `at` equals the upper bound are returned too; skip them
            until: Query
              PK = :pk AND SK BETWEEN :sk1 AND :sk2
                :pk = USER#{userId}
                :sk1 = LOGIN#
                :sk2 = LOGIN#{at}
            within: Query
              PK = :pk AND SK BETWEEN :sk1 AND :sk2
                :pk = USER#{userId}
                :sk1 = LOGIN#{at}
                :sk2 = LOGIN#{at}
            month: Query
              PK = :pk AND begins_with(SK, :sk)
                :pk = USER#{userId}
                :sk = LOGIN#{at}
            exactly: Query
              PK = :pk AND SK = :sk
                :pk = USER#{userId}
                :sk = LOGIN#{at}
        "#]],
    );
}

#[test]
fn a_range_with_nothing_else_in_the_partition_stays_one_sided() {
    check(
        "
        table t PK SK
        gsi G GPK GSK
        entity Order orderId status createdAt | PK=ORDER#{orderId} SK=ORDER GPK=STATUS#{status} GSK={createdAt}#{orderId}
        read after Order by status where createdAt >
        read before Order by status where createdAt <
        read until Order by status where createdAt <=
        read within Order by status where createdAt between
        read on Order by status where createdAt =
        ",
        expect![[r#"
            after: Query on G
              GPK = :pk AND GSK >= :sk
                :pk = STATUS#{status}
                :sk = {createdAt}$
              - the bound ends in `$`, the character after `#`: it sorts after every key that goes on `#...` past `createdAt`, so items whose `createdAt` equals the value are skipped, as `>` means
            before: Query on G
              GPK = :pk AND GSK < :sk
                :pk = STATUS#{status}
                :sk = {createdAt}
            until: Query on G
              GPK = :pk AND GSK < :sk
                :pk = STATUS#{status}
                :sk = {createdAt}$
              - the bound ends in `$`, the character after `#`: it sorts after every key that goes on `#...` past `createdAt`, so items whose `createdAt` equals the value are included, as `<=` means
            within: Query on G
              GPK = :pk AND GSK BETWEEN :sk1 AND :sk2
                :pk = STATUS#{status}
                :sk1 = {createdAt}
                :sk2 = {createdAt}$
              - the bound ends in `$`, the character after `#`: it sorts after every key that goes on `#...` past `createdAt`, so items whose `createdAt` equals the value are included at both ends
            on: Query on G
              GPK = :pk AND begins_with(GSK, :sk)
                :pk = STATUS#{status}
                :sk = {createdAt}#
        "#]],
    );
}

#[test]
fn a_condition_on_an_attribute_that_is_not_the_next_variable_cannot_use_that_index() {
    check(
        &format!("{ORDERS}\nread customer_orders_by_date Order by customerId where createdAt >="),
        expect![[r#"
            customer_orders_by_date: Scan
              filter: #customerId = :customerId AND #createdAt >= :createdAt
                #customerId = customerId
                #createdAt = createdAt
                :customerId = {customerId}
                :createdAt = {createdAt}
              - the table: the condition on `createdAt` does not map onto SK: in Order's `ORDER#{orderId}` after `ORDER#`, the next variable is `orderId`, not `createdAt`
              - GSI1: GSI1PK = `STATUS#{status}#SHARD{shard:10}` needs `status`, which is not an input
              suggestion: a GSI with partition key `CUSTOMER#{customerId}` and sort key `{createdAt}#{orderId}` would serve it
        "#]],
    );
}

#[test]
fn a_strongly_consistent_read_rejects_a_gsi() {
    check(
        &format!("{ORDERS}\nread orders_by_status Order by status consistent"),
        expect![[r#"
            orders_by_status: Scan
              filter: #status = :status
                #status = status
                :status = {status}
              - the table: PK = `CUSTOMER#{customerId}` needs `customerId`, which is not an input
              - GSI1: a GSI is eventually consistent, and the pattern needs strongly consistent reads
              suggestion: a strongly consistent read needs the table's own key (a GSI is eventually consistent): key the table by partition key `STATUS#{status}` and sort key `{orderId}`, or drop the consistency need and add a GSI with those keys
        "#]],
    );
}

#[test]
fn an_lsi_serves_a_consistent_range_read_on_the_tables_partition() {
    check(
        "
        table orders PK SK
        lsi ByDate LSI1SK
        entity Customer customerId | PK=CUSTOMER#{customerId} SK=PROFILE
        entity Order orderId customerId createdAt | PK=CUSTOMER#{customerId} SK=ORDER#{orderId} LSI1SK=ORDER#{createdAt}
        read recent_orders Order by customerId where createdAt >= consistent desc
        ",
        expect![[r#"
            recent_orders: Query on ByDate (descending)
              PK = :pk AND LSI1SK >= :sk
                :pk = CUSTOMER#{customerId}
                :sk = ORDER#{createdAt}
              order: newest first by createdAt (ScanIndexForward=false on LSI1SK)
        "#]],
    );
}

#[test]
fn a_multi_attribute_gsi_key_binds_leading_sort_attributes_by_equality() {
    check(
        "
        table t PK SK
        gsi ByRegion tenantId,region status,createdAt
        entity Ticket ticketId tenantId region status=OPEN|DONE createdAt | PK=TICKET#{ticketId} SK=TICKET
        read open_tickets Ticket by tenantId,region,status where createdAt >=
        read region_tickets Ticket by tenantId,region
        read tenant_tickets Ticket by tenantId
        ",
        expect![[r#"
            open_tickets: Query on ByRegion
              tenantId = :pk1 AND region = :pk2 AND status = :sk1 AND createdAt >= :sk2
                :pk1 = {tenantId}
                :pk2 = {region}
                :sk1 = {status}
                :sk2 = {createdAt}
            region_tickets: Query on ByRegion
              tenantId = :pk1 AND region = :pk2
                :pk1 = {tenantId}
                :pk2 = {region}
            tenant_tickets: Scan
              filter: #tenantId = :tenantId
                #tenantId = tenantId
                :tenantId = {tenantId}
              - the table: PK = `TICKET#{ticketId}` needs `ticketId`, which is not an input
              - ByRegion: region = `{region}` needs `region`, which is not an input
              suggestion: a GSI with partition key `TENANT#{tenantId}` and sort key `{ticketId}` would serve it
        "#]],
    );
}

#[test]
fn an_entity_without_the_index_keys_is_absent_from_a_sparse_index() {
    check(
        "
        table t PK SK
        gsi Flagged GSI1PK GSI1SK
        entity Post postId flagged | PK=POST#{postId} SK=POST GSI1PK=FLAGGED GSI1SK={postId}
        entity Comment commentId postId | PK=POST#{postId} SK=COMMENT#{commentId}
        read flagged_posts Post
        read flagged_comments Comment
        ",
        expect![[r#"
            flagged_posts: Query on Flagged
              GSI1PK = :pk
                :pk = FLAGGED
            flagged_comments: Scan
              - the pattern has no inputs yet: name the attributes the caller knows
              - the table: PK = `POST#{postId}` needs `postId`, which is not an input
              - Flagged: Comment is absent from Flagged: it has no template for GSI1PK
        "#]],
    );
}

#[test]
fn a_read_no_index_serves_is_a_scan_with_reasons_and_a_suggestion() {
    check(
        &format!(
            "{ORDERS}\nread get_order Order by orderId\nread recent_by_total Order by status where total >"
        ),
        expect![[r#"
            get_order: Scan
              filter: #orderId = :orderId
                #orderId = orderId
                :orderId = {orderId}
              - the table: PK = `CUSTOMER#{customerId}` needs `customerId`, which is not an input
              - GSI1: GSI1PK = `STATUS#{status}#SHARD{shard:10}` needs `status`, which is not an input
              suggestion: a GSI with partition key `ORDER#{orderId}` would serve it
            recent_by_total: Scan
              filter: #status = :status AND #total > :total
                #status = status
                #total = total
                :status = {status}
                :total = {total}
              - the table: PK = `CUSTOMER#{customerId}` needs `customerId`, which is not an input
              - GSI1: the condition on `total` does not map onto GSI1SK: in Order's `{createdAt}#{orderId}`, the next variable is `createdAt`, not `total`
              suggestion: a GSI with partition key `STATUS#{status}` and sort key `{total}#{orderId}` would serve it
        "#]],
    );
}

#[test]
fn the_cheapest_index_wins_and_says_why() {
    check(
        "
        table t PK SK
        gsi Sharded APK ASK
        gsi Plain BPK BSK
        gsi Copy CPK CSK
        entity Day date status count:N | PK=DAY#{date}#{status} SK=DAY APK=D#{date}#{shard:4} ASK={status} BPK=D#{date} BSK={status} CPK=DAY#{date} CSK=STATUS#{status}
        read day Day by date
        read day_status Day by date,status
        ",
        expect![[r#"
            day: Query on Plain
              BPK = :pk
                :pk = D#{date}
              - chose Plain over Copy, which also serves it: it comes first in the table's index order
              - chose Plain over Sharded, which also serves it: one Query instead of 4 (one per shard)
            day_status: GetItem
              PK = :pk AND SK = :sk
                :pk = DAY#{date}#{status}
                :sk = DAY
              - chose the table over Plain, which also serves it: a GetItem reads exactly one item by its full key
              - chose the table over Copy, which also serves it: a GetItem reads exactly one item by its full key
              - chose the table over Sharded, which also serves it: a GetItem reads exactly one item by its full key
        "#]],
    );
}

#[test]
fn other_entity_types_matching_the_prefix_are_skipped_and_ranked_lower() {
    check(
        "
        table t PK SK
        gsi ByCustomer GPK GSK
        entity Order orderId customerId | PK=CUSTOMER#{customerId} SK=ORDER#{orderId} GPK=C#{customerId} GSK={orderId}
        entity OrderItem orderId itemId customerId | PK=CUSTOMER#{customerId} SK=ORDER#{orderId}#ITEM#{itemId}
        read orders Order by customerId
        ",
        expect![[r#"
            orders: Query
              PK = :pk
                :pk = CUSTOMER#{customerId}
              - the Query on the table can also return OrderItem items: skip them by type
              - chose the table over ByCustomer, which also serves it: a Query on the table needs no index (no extra writes or storage) and can read consistently
        "#]],
    );
}

#[test]
fn entities_in_different_partitions_or_tables_cannot_be_read_together() {
    check(
        "
        table a PK SK
        entity User userId | PK=USER#{userId} SK=PROFILE
        entity Team teamId | PK=TEAM#{teamId} SK=PROFILE
        table b PK SK
        entity Event eventId userId | PK=USER#{userId} SK=EVENT#{eventId}
        read user_and_team User,Team by userId,teamId
        read user_and_events User,Event by userId
        read ghost Ghost by userId
        ",
        expect![[r#"
            user_and_team: Scan
              filter: #userId = :userId AND #teamId = :teamId
                #userId = userId
                #teamId = teamId
                :userId = {userId}
                :teamId = {teamId}
              - the table: User and Team keep different PK values (`USER#{userId}` and `TEAM#{teamId}`), so no one partition holds both
              suggestion: a GSI with partition key `USER#{userId}#TEAM#{teamId}` would serve it (each of User, Team filling both keys)
            user_and_events: Scan
              - User and Event live in different tables (`a` and `b`): one request cannot read both
            ghost: Scan
              - unknown entity `Ghost`
        "#]],
    );
}

#[test]
fn an_input_the_key_does_not_use_is_a_filter() {
    check(
        &format!("{ORDERS}\nread customer_orders_of_status Order by customerId,status"),
        expect![[r#"
            customer_orders_of_status: Query
              PK = :pk AND begins_with(SK, :sk)
                :pk = CUSTOMER#{customerId}
                :sk = ORDER#
              filter: #status = :status
                #status = status
                :status = {status}
              - `status` not in the table's key: filter after the read
              - chose the table over GSI1, which also serves it: a Query on the table needs no index (no extra writes or storage) and can read consistently
        "#]],
    );
}

#[test]
fn writes_address_the_primary_key() {
    check(
        &format!(
            "{ORDERS}\nput add_order Order\nupdate set_status Order\ndelete drop_customer Customer"
        ),
        expect![[r#"
            add_order: PutItem
              PK = :pk AND SK = :sk
                :pk = CUSTOMER#{customerId}
                :sk = ORDER#{orderId}
            set_status: UpdateItem
              PK = :pk AND SK = :sk
                :pk = CUSTOMER#{customerId}
                :sk = ORDER#{orderId}
            drop_customer: DeleteItem
              PK = :pk AND SK = :sk
                :pk = CUSTOMER#{customerId}
                :sk = PROFILE
        "#]],
    );
}

#[test]
fn a_table_without_sort_key_serves_get_item_by_partition_alone() {
    check(
        "
        table sessions id
        entity Session id userId
        read session Session by id
        read session_consistent Session by id consistent
        ",
        expect![[r#"
            session: GetItem
              id = :pk
                :pk = {id}
            session_consistent: GetItem
              id = :pk
                :pk = {id}
        "#]],
    );
}

/// Prints every built-in example's verdicts and findings.
fn check_example(slug: &str, expect: Expect) {
    let design = crate::examples::get(slug).expect("a built-in example");
    let analysis = crate::analysis::analyze(&design);
    let (covered, reads) = analysis.coverage();
    let mut out = format!("{covered}/{reads} reads covered\n");
    out.extend(analysis.verdicts.iter().map(show));
    for f in &analysis.findings {
        out.push_str(&format!(
            "{} {:?} {}: {}\n",
            f.code, f.severity, f.place, f.message
        ));
    }
    expect.assert_eq(&out);
}

#[test]
fn order_management_example_leaves_get_order_by_id_to_a_scan_as_the_seed_states_it() {
    check_example(
        "order-management",
        expect![[r#"
            7/8 reads covered
            Get order by ID: Scan
              filter: #orderId = :orderId
                #orderId = orderId
                :orderId = {orderId}
              - the table: PK = `CUSTOMER#{customerId}` needs `customerId`, which is not an input
              - GSI1: GSI1PK = `STATUS#{status}#SHARD{shard:10}` needs `status`, which is not an input
              - GSI2: GSI2PK = `FC#{fulfillmentCenter}` needs `fulfillmentCenter`, which is not an input
              - GSI3: Order is absent from GSI3: it has no template for GSI3PK
              suggestion: GSI3 holds no Order yet: give Order partition key `ORDER#{orderId}` and sort key `ORDER` on it to serve it, with no new index
            Get customer orders: Query (descending)
              PK = :pk AND begins_with(SK, :sk)
                :pk = CUSTOMER#{customerId}
                :sk = ORDER#
              order: descending by orderId (ScanIndexForward=false on SK)
            Get orders by status: Query on GSI1 x10 shards
              GSI1PK = :pk AND GSI1SK >= :sk
                :pk = STATUS#{status}#SHARD{shard:10}
                :sk = {createdAt}$
              - the bound ends in `$`, the character after `#`: it sorts after every key that goes on `#...` past `createdAt`, so items whose `createdAt` equals the value are skipped, as `>` means
              - the partition key is write-sharded: scatter 10 Queries, one per shard, and merge
            Get order items: Query
              PK = :pk
                :pk = ORDER#{orderId}
            Get customer profile: GetItem
              PK = :pk AND SK = :sk
                :pk = CUSTOMER#{customerId}
                :sk = PROFILE
            Get orders by fulfillment center: Query on GSI2
              GSI2PK = :pk
                :pk = FC#{fulfillmentCenter}
            Get daily order count by status: Query
              PK = :pk AND begins_with(SK, :sk)
                :pk = ANALYTICS
                :sk = DATE#{date}#STATUS#
              - chose the table over GSI3, which also serves it: a Query on the table needs no index (no extra writes or storage) and can read consistently
            Get order events: Query
              PK = :pk
                :pk = ORDER#{orderId}
            Create order: TransactWriteItems
            Update order status: UpdateItem
              PK = :pk AND SK = :sk
                :pk = CUSTOMER#{customerId}
                :sk = ORDER#{orderId}
            Record order event: PutItem
              PK = :pk AND SK = :sk
                :pk = ORDER#{orderId}
                :sk = EVENT#{occurredAt}#{eventId}
            KP021 Warning entities/Order/keys/GSI2SK: Order.GSI2SK `{priority}#{orderId}` puts the number `priority` in a string sort key, where it sorts as text (`10` before `2`): zero-pad it to a fixed width when writing (`priority` as `0002`)
            KP012 Warning tables/orders/gsis/GSI3: no read pattern uses GSI3 of `orders`: it costs writes and storage for nothing; drop it or add the pattern it is for
            KP014 Warning entities/Order/keys/GSI1PK: GSI1PK `STATUS#{status}#SHARD{shard:10}` takes few values (`status` has 4 known values): its busiest partition (`STATUS#PENDING#SHARD0`, one of 10 shards), loaded by `Get orders by status` and `Create order` and `Update order status`, takes about 8000 read units a second, over one partition's 3000: every scatter-gather request reads each shard: fewer shards or a smaller page per shard, or cache the reads (DAX)
            KP025 Info tables/orders/gsis/GSI1: GSI1 of `orders`: Order.GSI1SK `{createdAt}#{orderId}` joins 2 attributes into one string; a multi-attribute sort key (createdAt, orderId) keeps each attribute's own type (numbers sort as numbers, nothing is zero-padded) and DynamoDB indexes the attributes the items already have: no key to write, no backfill
            KP025 Info tables/orders/gsis/GSI2: GSI2 of `orders`: Order.GSI2SK `{priority}#{orderId}` joins 2 attributes into one string; a multi-attribute sort key (priority, orderId) keeps each attribute's own type (numbers sort as numbers, nothing is zero-padded) and DynamoDB indexes the attributes the items already have: no key to write, no backfill
        "#]],
    );
}

#[test]
fn saas_multi_tenant_example_covers_every_read() {
    check_example(
        "saas-multi-tenant",
        expect![[r#"
            9/9 reads covered
            Get tenant: GetItem
              pk = :pk AND sk = :sk
                :pk = TENANT#{tenantId}
                :sk = #METADATA
            Get tenant subscription: GetItem
              pk = :pk AND sk = :sk
                :pk = TENANT#{tenantId}
                :sk = #SUBSCRIPTION
            Get whole tenant: Query
              pk = :pk
                :pk = TENANT#{tenantId}
            List tenant users: Query
              pk = :pk AND begins_with(sk, :sk)
                :pk = TENANT#{tenantId}
                :sk = USER#
            Get user: GetItem
              pk = :pk AND sk = :sk
                :pk = TENANT#{tenantId}
                :sk = USER#{userId}
            Log in by email: Query on gsi1
              gsi1pk = :pk AND gsi1sk = :sk
                :pk = EMAIL#{email}
                :sk = USER
            List tenant projects, newest first: Query (descending)
              pk = :pk AND begins_with(sk, :sk)
                :pk = TENANT#{tenantId}
                :sk = PROJECT#
              order: descending by projectId (ScanIndexForward=false on sk)
            List tenant projects by status, recently updated: Query on gsi1 (descending)
              gsi1pk = :pk
                :pk = TENANT#{tenantId}#PROJECTS#{status}
              order: newest first by updatedAt (ScanIndexForward=false on gsi1sk)
              - chose gsi1 over the table, which also serves it: its key uses more of the inputs (0 left to filter instead of 1)
            List tenants on a plan since a date: Query on gsi1
              gsi1pk = :pk AND gsi1sk >= :sk
                :pk = PLAN#{plan}
                :sk = {createdAt}
            Create project: PutItem
              pk = :pk AND sk = :sk
                :pk = TENANT#{tenantId}
                :sk = PROJECT#{projectId}
            KP026 Warning tables/saas/gsis/gsi1: gsi1 of `saas`: its partition key does not hold `tenantId`, which 4 of the table's 4 entities keep in theirs, so one Query on gsi1 can return items of several tenants (User at `EMAIL#{email}`); put `{tenantId}` in its partition key, or check the tenant of every item it returns
            KP025 Info tables/saas/gsis/gsi1: gsi1 of `saas`: Tenant.gsi1sk `{createdAt}#{tenantId}` joins 2 attributes into one string; a multi-attribute sort key (createdAt, tenantId) keeps each attribute's own type (numbers sort as numbers, nothing is zero-padded) and DynamoDB indexes the attributes the items already have: no key to write, no backfill (no edit offered: Tenant and User fill gsi1pk differently (`PLAN#{plan}` and `EMAIL#{email}`), so the key also tells them apart)
        "#]],
    );
}

#[test]
fn ecommerce_orders_example_covers_every_read() {
    check_example(
        "ecommerce-orders",
        expect![[r#"
            7/7 reads covered
            Get customer: GetItem
              PK = :pk AND SK = :sk
                :pk = CUSTOMER#{customerId}
                :sk = PROFILE
            List customer orders, newest first: Query (descending)
              PK = :pk AND begins_with(SK, :sk)
                :pk = CUSTOMER#{customerId}
                :sk = ORDER#
              order: newest first by createdAt (ScanIndexForward=false on SK)
            List customer orders since a date: Query
              PK = :pk AND SK BETWEEN :sk1 AND :sk2
                :pk = CUSTOMER#{customerId}
                :sk1 = ORDER#{createdAt}
                :sk2 = ORDER$
            Get order by ID: Query on GSI1
              GSI1PK = :pk AND GSI1SK = :sk
                :pk = ORDER#{orderId}
                :sk = #ORDER
            Get order with items: Query on GSI1
              GSI1PK = :pk
                :pk = ORDER#{orderId}
            List order items: Query
              PK = :pk
                :pk = ORDER#{orderId}
              - chose the table over GSI1, which also serves it: a Query on the table needs no index (no extra writes or storage) and can read consistently
            List orders by status, oldest first: Query on GSI2
              GSI2PK = :pk AND GSI2SK >= :sk
                :pk = STATUS#{status}
                :sk = {createdAt}$
              - the bound ends in `$`, the character after `#`: it sorts after every key that goes on `#...` past `createdAt`, so items whose `createdAt` equals the value are skipped, as `>` means
            Place order: TransactWriteItems
            KP025 Info tables/shop/gsis/GSI2: GSI2 of `shop`: Order.GSI2SK `{createdAt}#{orderId}` joins 2 attributes into one string; a multi-attribute sort key (createdAt, orderId) keeps each attribute's own type (numbers sort as numbers, nothing is zero-padded) and DynamoDB indexes the attributes the items already have: no key to write, no backfill
        "#]],
    );
}

#[test]
fn an_input_no_returned_entity_has_gets_no_suggestion_and_says_what_was_meant() {
    // issue 12: after renaming `orderId` to `id`, a pattern still asking for `orderId` was
    // suggested a GSI keyed on `{orderId}`, a variable no Order has.
    check(
        "
        table orders PK SK
        entity Order id customerId createdAt | PK=CUSTOMER#{customerId} SK=ORDER#{id}
        read get_order Order by orderId
        read since Order by customerId where created >=
        ",
        expect![[r#"
            get_order: Scan
              filter: #orderId = :orderId
                #orderId = orderId
                :orderId = {orderId}
              - input `orderId` is not an attribute of Order: did you mean `id`?
              - the table: PK = `CUSTOMER#{customerId}` needs `customerId`, which is not an input
            since: Scan
              filter: #customerId = :customerId AND #created >= :created
                #customerId = customerId
                #created = created
                :customerId = {customerId}
                :created = {created}
              - sort attribute `created` is not an attribute of Order: did you mean `createdAt`?
              - the table: the condition on `created` does not map onto SK: in Order's `ORDER#{id}` after `ORDER#`, the next variable is `id`, not `created`
        "#]],
    );
}

#[test]
fn a_pattern_with_no_inputs_yet_gets_no_suggestion_and_a_constant_partition_comes_with_its_warning()
{
    // issue 12: a new pattern (no inputs) was a red Scan suggesting a GSI with a constant
    // partition key, all items in one partition, with no warning.
    check(
        "
        table orders PK SK
        entity Order orderId customerId createdAt | PK=CUSTOMER#{customerId} SK=ORDER#{orderId}
        read new_pattern Order
        read latest_orders Order desc order createdAt
        ",
        expect![[r#"
            new_pattern: Scan
              - the pattern has no inputs yet: name the attributes the caller knows
              - the table: PK = `CUSTOMER#{customerId}` needs `customerId`, which is not an input
            latest_orders: Scan (descending)
              - the table: PK = `CUSTOMER#{customerId}` needs `customerId`, which is not an input
              suggestion: a GSI with partition key `ORDER` and sort key `{createdAt}#{orderId}` would serve it (warning: a constant partition key puts every Order in one partition, which serves at most 3000 reads and 1000 writes a second: shard it (`ORDER#{shard:10}`) before traffic grows)
        "#]],
    );
}

#[test]
fn an_order_is_apart_from_the_range_condition_and_only_a_sort_key_that_sorts_by_it_serves() {
    // issue 12: "newest first" could not name the attribute it orders by without a range
    // condition, so an index whose sort key does not sort by time still read as served.
    check(
        "
        table orders PK SK
        gsi ByStatus GSI1PK GSI1SK
        gsi ByPriority GSI2PK GSI2SK
        entity Order orderId customerId status createdAt priority | PK=CUSTOMER#{customerId} SK=ORDER#{orderId} GSI1PK=STATUS#{status} GSI1SK={createdAt}#{orderId} GSI2PK=PRIO#{status} GSI2SK={priority}#{orderId}
        read newest_by_status Order by status desc order createdAt
        read oldest_by_status Order by status order createdAt
        read customer_orders_newest Order by customerId desc order createdAt
        read customer_orders Order by customerId desc
        read recent_by_status Order by status where createdAt >= order priority
        ",
        expect![[r#"
            newest_by_status: Query on ByStatus (descending)
              GSI1PK = :pk
                :pk = STATUS#{status}
              order: newest first by createdAt (ScanIndexForward=false on GSI1SK)
              - chose ByStatus over ByPriority, which also serves it: it reads in the pattern's order, a page at a time; the other sorts every matching item in memory
            oldest_by_status: Query on ByStatus
              GSI1PK = :pk
                :pk = STATUS#{status}
              order: oldest first by createdAt (ScanIndexForward=true on GSI1SK)
              - chose ByStatus over ByPriority, which also serves it: it reads in the pattern's order, a page at a time; the other sorts every matching item in memory
            customer_orders_newest: Query (descending)
              PK = :pk
                :pk = CUSTOMER#{customerId}
              order: not in that order: every matching item is read and sorted by createdAt in memory, newest first (cannot be paged by createdAt)
              - the order by `createdAt` is not the order of SK: it sorts by `orderId` after `ORDER#`
              suggestion: re-key Order's SK as `ORDER#{createdAt}#{orderId}`: the Query then reads newest first a page at a time (the items already stored need rewriting: plan the migration)
              suggestion: a GSI with partition key `CUSTOMER#{customerId}` and sort key `{createdAt}#{orderId}` would serve it
            customer_orders: Query (descending)
              PK = :pk
                :pk = CUSTOMER#{customerId}
              order: descending by orderId (ScanIndexForward=false on SK)
            recent_by_status: Query on ByStatus
              GSI1PK = :pk AND GSI1SK >= :sk
                :pk = STATUS#{status}
                :sk = {createdAt}
              order: not in that order: every matching item is read and sorted by priority in memory, ascending (cannot be paged by priority)
              - the order by `priority` is not the order of GSI1SK: it sorts by `createdAt`
        "#]],
    );
}

// issue 13: a partition's peers are found among the groups whose templates begin with a
// prefix of its beginning or with a longer beginning it starts, not by comparing every group
// (quadratic at 10,000 entities); they must be exactly the members every comparison finds,
// for beginnings nested in each other, multibyte ones and templates that begin with a
// variable.
#[test]
fn partition_peers_are_the_members_whose_partition_can_render_equal() {
    let pieces = ["A", "AB", "A#", "é", "éA#", "#", "{x}", "{y}", "B{x}"];
    let mut rng = oorandom::Rand64::new(13);
    let mut text = String::from("table t PK SK\n");
    for e in 0..300 {
        let template: String = (0..1 + rng.rand_range(0..3))
            .map(|_| pieces[rng.rand_range(0..pieces.len() as u64) as usize])
            .collect();
        text.push_str(&format!("entity E{e} x y | PK={template} SK=E{e}\n"));
    }
    let d = design(&text);
    let prepared = super::Prepared::new(&d);
    let index = &prepared.tables[0].indexes[0];
    let mut pairs = 0;
    for (m, member) in index.members.iter().enumerate() {
        let every: Vec<usize> = (0..index.members.len())
            .filter(|&other| {
                index.members[other]
                    .partition
                    .iter()
                    .zip(&member.partition)
                    .all(|(a, b)| super::shape::can_equal(a.parts(), b.parts()))
            })
            .collect();
        assert_eq!(index.partition_peers(m), every, "{}", member.partition[0]);
        pairs += every.len();
    }
    // Neither none nor all: the beginnings sort the members apart.
    assert!(pairs > 300 && pairs < 300 * 300, "{pairs}");
}

// issue 16: begins_with on a number sort key was "Query ... begins_with(SK, :sk)", which
// DynamoDB refuses (and a run skipped).
#[test]
fn begins_with_on_a_number_sort_key_is_not_a_query() {
    check(
        "
        table scores PK SK:N
        entity Score player score:N | PK=PLAYER#{player} SK={score}
        read by_prefix Score by player where score begins_with
        read from Score by player where score >=
        ",
        expect![[r#"
            by_prefix: Scan
              filter: #player = :player AND begins_with(#score, :score)
                #player = player
                #score = score
                :player = {player}
                :score = {score}
              - the table: begins_with needs a string or binary sort key; `SK` is a number
              suggestion: a GSI with partition key `PLAYER#{player}` and sort key `{score}` would serve it
            from: Query
              PK = :pk AND SK >= :sk
                :pk = PLAYER#{player}
                :sk = {score}
        "#]],
    );
}

// issue 16: the suggestion for a pattern whose sort attribute is also an input had that
// attribute in both keys.
#[test]
fn a_pattern_that_contradicts_itself_gets_no_suggestion() {
    check(
        &format!("{ORDERS}\nread since Order by status,createdAt where createdAt >="),
        expect![[r#"
            since: Scan
              filter: #status = :status AND #createdAt = :createdAt AND #createdAt >= :createdAt
                #status = status
                #createdAt = createdAt
                :status = {status}
                :createdAt = {createdAt}
              - the table: PK = `CUSTOMER#{customerId}` needs `customerId`, which is not an input
              - GSI1: the condition on `createdAt` does not map onto GSI1SK: in Order's `{createdAt}#{orderId}` after `{createdAt}#`, the next variable is `orderId`, not `createdAt`
        "#]],
    );
}

// issue 16: a pattern's filter conditions are its Query's FilterExpression, after the inputs
// its key leaves unused, with attribute-name placeholders (`status` is a reserved word).
#[test]
fn a_filter_is_the_querys_filter_expression_after_the_unused_inputs() {
    check(
        &format!(
            "{ORDERS}\nread open_orders Order by customerId,total filter status <> filter createdAt between filter status in 3"
        ),
        expect![[r#"
            open_orders: Query
              PK = :pk AND begins_with(SK, :sk)
                :pk = CUSTOMER#{customerId}
                :sk = ORDER#
              filter: #total = :total AND #status <> :status AND #createdAt BETWEEN :createdAt AND :createdAt_to AND #status IN (:status_1, :status_2, :status_3)
                #total = total
                #status = status
                #createdAt = createdAt
                :total = {total}
                :status = {status}
                :createdAt = {createdAt}
                :createdAt_to = {createdAt_to}
                :status_1 = {status_1}
                :status_2 = {status_2}
                :status_3 = {status_3}
              - `total` not in the table's key: filter after the read
        "#]],
    );
}

// issue 16: DynamoDB refuses a Query whose FilterExpression names a key attribute of the index
// it queries; an index keyed on the filtered attribute cannot serve it with that filter.
#[test]
fn a_filter_on_a_key_attribute_of_the_index_refuses_that_index() {
    check(
        "
        table t PK SK
        gsi ByStatus status createdAt
        entity Order orderId customerId status createdAt | PK=CUSTOMER#{customerId} SK=ORDER#{orderId}
        read by_status Order by status filter createdAt >=
        read mine Order by customerId filter status =
        ",
        expect![[r#"
            by_status: Scan
              filter: #status = :status AND #createdAt >= :createdAt
                #status = status
                #createdAt = createdAt
                :status = {status}
                :createdAt = {createdAt}
              - the table: PK = `CUSTOMER#{customerId}` needs `customerId`, which is not an input
              - ByStatus: `createdAt` is a key attribute of ByStatus, and a Query's FilterExpression cannot name one: make it an input or the sort condition
              suggestion: a GSI with partition key `STATUS#{status}` and sort key `{orderId}` would serve it
            mine: Query
              PK = :pk
                :pk = CUSTOMER#{customerId}
              filter: #status = :status
                #status = status
                :status = {status}
        "#]],
    );
}

// issue 16: GetItem takes no FilterExpression, so a filtered read of one item by its whole
// key is a Query on that key; a Scan shows everything it filters by.
#[test]
fn a_filtered_get_item_is_a_query_and_a_scan_filters_by_everything() {
    check(
        &format!(
            "{ORDERS}\nread get_open Order by customerId,orderId filter status attribute_exists\nread scan Order by total where createdAt > filter status ="
        ),
        expect![[r#"
            get_open: Query
              PK = :pk AND SK = :sk
                :pk = CUSTOMER#{customerId}
                :sk = ORDER#{orderId}
              filter: attribute_exists(#status)
                #status = status
              - GetItem takes no FilterExpression: a Query on the whole key reads the same item and applies the filter
            scan: Scan
              filter: #total = :total AND #createdAt > :createdAt AND #status = :status
                #total = total
                #createdAt = createdAt
                #status = status
                :total = {total}
                :createdAt = {createdAt}
                :status = {status}
              - the table: PK = `CUSTOMER#{customerId}` needs `customerId`, which is not an input
              - GSI1: GSI1PK = `STATUS#{status}#SHARD{shard:10}` needs `status`, which is not an input
              suggestion: a GSI with partition key `TOTAL#{total}` and sort key `{createdAt}#{orderId}` would serve it
        "#]],
    );
}

// issue 16: DynamoDB refuses a FilterExpression whose begins_with or ordering comparison takes
// a value of the wrong type, whatever the index: such a read is served by nothing (found by the
// property test of random designs on the embedded engine).
#[test]
fn a_filter_dynamodb_refuses_serves_no_read() {
    check(
        "
        table scores PK SK
        entity Score player score:N tags:M | PK=PLAYER#{player} SK=SCORE#{score}
        read prefix Score by player filter score begins_with
        read below Score by player filter tags <
        read above Score by player filter score >
        ",
        expect![[r#"
            prefix: Scan
              - DynamoDB refuses it: the filter's begins_with takes a string or binary value; `score` is a number
            below: Scan
              - DynamoDB refuses it: the filter's < takes a string, number or binary value; `tags` is a map
            above: Query
              PK = :pk
                :pk = PLAYER#{player}
              filter: #score > :score
                #score = score
                :score = {score}
        "#]],
    );
}
