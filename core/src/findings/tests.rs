use expect_test::{Expect, expect};

use crate::coverage::testing::{design, typed_keys};

/// Prints every finding of the design: code, severity, path and message.
fn check(text: &str, expect: Expect) {
    check_design(&design(text), expect);
}

/// [`check`] of a design already built.
fn check_design(d: &crate::model::Design, expect: Expect) {
    check_codes(d, &[], expect);
}

/// [`check_design`] of the findings with these codes only (all of them when `codes` is empty).
pub(super) fn check_codes(d: &crate::model::Design, codes: &[&str], expect: Expect) {
    let analysis = crate::analysis::analyze(d);
    let out: String = analysis
        .findings
        .iter()
        .filter(|f| codes.is_empty() || codes.contains(&f.code))
        .map(|f| {
            let fix = f
                .fix
                .as_ref()
                .map(|fix| format!("  fix: {}\n", fix.label()))
                .unwrap_or_default();
            format!(
                "{} {:?} {}\n  {}\n{fix}",
                f.code, f.severity, f.place, f.message
            )
        })
        .collect();
    expect.assert_eq(&out);
}

#[test]
fn a_clean_design_has_no_findings() {
    check(
        "
        table shop PK SK
        entity Customer customerId | PK=CUSTOMER#{customerId} SK=PROFILE
        entity Order orderId customerId | PK=CUSTOMER#{customerId} SK=ORDER#{orderId}
        read customer Customer,Order by customerId
        ",
        expect![""],
    );
}

#[test]
fn a_broken_template_and_an_unknown_variable_are_errors() {
    check(
        "
        table app PK SK
        entity User userId | PK=USER#{userId SK=PROFILE#{nickname}
        read user User by userId
        ",
        expect![[r#"
            KP001 Error entities/User/keys/PK
              User.PK `USER#{userId` at 5..12: unclosed `{`: a variable ends with `}`
            KP002 Error entities/User/keys/SK
              `{nickname}` in User.SK is not an attribute of User
              fix: Add attribute `nickname` to User
        "#]],
    );
}

#[test]
fn two_entities_whose_primary_keys_can_render_equal_collide() {
    check(
        "
        table app PK SK
        entity User id | PK=USER#{id} SK=PROFILE
        entity Admin id | PK=USER#{id} SK=PROFILE
        entity Order id | PK=USER#{id} SK=ORDER#{id}
        read user User by id
        read admin Admin by id
        read order Order by id
        ",
        expect![[r#"
            KP004 Error entities/Admin/keys
              User (`USER#{id}` / `PROFILE`) and Admin (`USER#{id}` / `PROFILE`) can have the same primary key in `app` (both can be `USER#0` / `PROFILE`): one would overwrite the other; give each a distinct prefix
        "#]],
    );
}

/// Issue 43: `A` never holds a `#` and `{t}#{s}` always does, so these cannot collide;
/// typed variables (a number, a shard, an enum's values) take only their own values.
#[test]
fn keys_that_cannot_render_equal_do_not_collide() {
    check_codes(
        &design(
            "
        table app PK SK
        entity Meta p | PK={p} SK=A
        entity Pair p t s | PK={p} SK={t}#{s}
        entity Score p n:N | PK={p} SK=S{n}
        entity Flag p f=ON|OFF | PK={p} SK=S{f}
        read meta Meta by p
        read pairs Pair by p
        read scores Score by p
        read flags Flag by p
        ",
        ),
        &["KP004"],
        expect![[r#""#]],
    );
}

/// Issue 43: generic keys shared by many entities (the Hospital-style Workbench models) are
/// one finding naming the group, not one per pair.
#[test]
fn entities_sharing_generic_keys_are_one_collision_group() {
    check_codes(
        &design(
            "
        table hospital PK SK
        entity Patient PK SK | PK={PK} SK={SK}
        entity Doctor PK SK | PK={PK} SK={SK}
        entity Visit PK SK | PK={PK} SK={SK}
        entity Ward wardId | PK=WARD#{wardId} SK=WARD
        entity Bed wardId bed:N | PK=WARD#{wardId} SK=BED#{bed}
        read patient Patient by PK
        read doctor Doctor by PK
        read visit Visit by PK
        read ward Ward,Bed by wardId
        ",
        ),
        &["KP004"],
        expect![[r#"
            KP004 Error entities/Doctor/keys
              5 entities can have the same primary key in `hospital`, one overwriting another: Patient (`{PK}` / `{SK}`), Doctor (`{PK}` / `{SK}`), Visit (`{PK}` / `{SK}`), Ward (`WARD#{wardId}` / `WARD`), Bed (`WARD#{wardId}` / `BED#{bed}`) (Patient and Doctor: both can be `0` / `0`); give each a distinct prefix
        "#]],
    );
}

/// Issue 43: past the matcher's bound, KP004 says it could not rule a collision out.
#[test]
fn a_collision_past_the_matchers_bound_is_reported_as_possible() {
    let values: Vec<String> = (0..20_000)
        .map(|i| format!("V{i:06}X{}", i * 7919))
        .collect();
    let text = format!(
        "
        table app PK SK
        entity Code p c={} | PK={{p}} SK=C#{{c}}
        entity Other p x | PK={{p}} SK=C#{{x}}
        read codes Code by p
        read others Other by p
        ",
        values.join("|")
    );
    let analysis = crate::analysis::analyze(&design(&text));
    let kp004: Vec<&str> = analysis
        .findings
        .iter()
        .filter(|f| f.code == "KP004")
        .map(|f| f.message.as_str())
        .collect();
    assert_eq!(kp004.len(), 1, "{kp004:?}");
    assert!(kp004[0].contains("keyplan could not rule it out: the template's automaton is past"));
}

#[test]
fn a_sort_prefix_that_also_matches_another_type_names_both() {
    check(
        "
        table app PK SK
        entity Order orderId customerId | PK=CUSTOMER#{customerId} SK=ORDER#{orderId}
        entity OrderItem orderId itemId customerId | PK=CUSTOMER#{customerId} SK=ORDER#{orderId}#ITEM#{itemId}
        read orders Order by customerId
        read items OrderItem by customerId,orderId
        ",
        expect![[r#"
            KP005 Warning patterns/orders
              `orders` reads Order but its Query also returns OrderItem items: Order's `ORDER#{orderId}` and OrderItem's `ORDER#{orderId}#ITEM#{itemId}` share the prefix `ORDER#`; give each type its own sort-key prefix, or skip OrderItem by type
        "#]],
    );
}

#[test]
fn index_counts_and_shapes_past_dynamodb_limits() {
    check(
        "
        table nosort id
        lsi ByDate createdAt
        gsi GSI1 a
        gsi GSI2 b
        gsi GSI3 c
        gsi GSI4 a1,a2,a3,a4,a5
        entity Thing id createdAt a b c
        read thing Thing by id
        ",
        expect![[r#"
            KP009 Error tables/nosort/lsis/ByDate
              LSI `ByDate` needs a table with a sort key, and `nosort` has none
            KP011 Error tables/nosort/gsis/GSI4
              GSI `GSI4` has 5 partition key attributes; a multi-attribute key takes at most 4
            KP006 Warning tables/nosort
              `nosort` has 4 GSIs: each one adds a write, storage and replication lag to every item it holds; consider overloading one GSI for several patterns
            KP012 Warning tables/nosort/gsis/GSI1
              no read pattern uses GSI1 of `nosort`: it costs writes and storage for nothing; drop it or add the pattern it is for
            KP012 Warning tables/nosort/gsis/GSI2
              no read pattern uses GSI2 of `nosort`: it costs writes and storage for nothing; drop it or add the pattern it is for
            KP012 Warning tables/nosort/gsis/GSI3
              no read pattern uses GSI3 of `nosort`: it costs writes and storage for nothing; drop it or add the pattern it is for
            KP012 Warning tables/nosort/gsis/GSI4
              no read pattern uses GSI4 of `nosort`: it costs writes and storage for nothing; drop it or add the pattern it is for
            KP012 Warning tables/nosort/lsis/ByDate
              no read pattern uses ByDate of `nosort`: it costs writes and storage for nothing; drop it or add the pattern it is for
        "#]],
    );
}

#[test]
fn more_than_twenty_gsis_pass_the_default_quota() {
    let mut text = String::from("table big PK\n");
    for i in 0..21 {
        text.push_str(&format!("gsi GSI{i} K{i}\n"));
    }
    text.push_str("entity Thing id | PK={id}\nread thing Thing by id\n");
    let d = design(&text);
    let codes: Vec<&str> = crate::analysis::analyze(&d)
        .findings
        .iter()
        .map(|f| f.code)
        .filter(|c| *c != "KP012")
        .collect();
    expect![[r#"["KP007"]"#]].assert_eq(&format!("{codes:?}"));
}

#[test]
fn unused_indexes_and_unread_entities_are_reported() {
    check(
        "
        table app PK SK
        gsi Lonely GPK GSK
        entity User userId | PK=USER#{userId} SK=PROFILE GPK=ALL GSK={userId}
        entity Audit auditId | PK=AUDIT#{auditId} SK=AUDIT
        read user User by userId
        put audit Audit
        ",
        expect![[r#"
            KP012 Warning tables/app/gsis/Lonely
              no read pattern uses Lonely of `app`: it costs writes and storage for nothing; drop it or add the pattern it is for
            KP013 Info entities/Audit
              no read pattern reads Audit: add the patterns that read it, so coverage can check them
        "#]],
    );
}

#[test]
fn a_low_cardinality_partition_under_heavy_traffic_asks_for_shards() {
    check(
        "
        table app PK SK
        gsi ByStatus GPK GSK
        gsi ByShardedStatus SPK SSK
        entity Order orderId status=NEW|PAID|SENT createdAt | PK=ORDER#{orderId} SK=ORDER GPK=STATUS#{status} GSK={createdAt}
        entity Job jobId status=NEW|DONE createdAt | PK=JOB#{jobId} SK=JOB SPK=S#{status}#{shard:2} SSK={createdAt}
        entity Counter day count:N | PK=COUNTERS SK=DAY#{day}
        read by_status Order by status page 100 rate 3000
        read jobs_by_status Job by status page 100 rate 8000
        read order Order by orderId
        read job Job by jobId
        read counters Counter
        update bump Counter rate 1500
        ",
        expect![[r#"
            KP014 Warning entities/Counter/keys/PK
              PK `COUNTERS` takes few values (it is a constant): its busiest partition (`COUNTERS`), loaded by `counters` and `bump`, takes about 1500 write units a second, over one partition's 1000: write-shard it into 2 (`COUNTERS#SHARD{shard:2}`) and scatter-gather the reads
              fix: Write-shard PK `COUNTERS` into 2 shards (`COUNTERS#SHARD{shard:2}`)
            KP014 Warning entities/Job/keys/SPK
              SPK `S#{status}#{shard:2}` takes few values (`status` has 2 known values): its busiest partition (`S#NEW#0`, one of 2 shards), loaded by `jobs_by_status`, takes about 12000 read units a second, over one partition's 3000: every scatter-gather request reads each shard: fewer shards or a smaller page per shard, or cache the reads (DAX)
            KP014 Warning entities/Order/keys/GPK
              GPK `STATUS#{status}` takes few values (`status` has 3 known values): its busiest partition (`STATUS#NEW`), loaded by `by_status`, takes about 6000 read units a second, over one partition's 3000: every request reads this one partition: cache it (DAX) or keep copies in several partitions and read one at random
        "#]],
    );
}

#[test]
fn keys_that_can_outgrow_dynamodbs_limits() {
    check(
        "
        table app PK SK
        entity Doc docId title body | PK=DOC#{docId} SK=TITLE#{title}
        entity Pair docId title body | PK={title}#{body}#{title} SK=PAIR
        read doc Doc by docId
        read pair Pair by title,body
        ",
        expect![[r#"
            KP015 Warning entities/Doc/keys/SK
              Doc.SK `TITLE#{title}` can reach about 1030 bytes, over DynamoDB's 1024-byte sort key limit (`title` free text): bound or hash the long values
            KP015 Warning entities/Pair/keys/PK
              Pair.PK `{title}#{body}#{title}` can reach about 3074 bytes, over DynamoDB's 2048-byte partition key limit (`title`, `body`, `title` free text): bound or hash the long values
        "#]],
    );
}

#[test]
fn bad_names_duplicates_and_unknown_references() {
    check(
        "
        table t!x PK SK
        table t!x PK SK
        gsi X GPK
        entity User userId userId | PK=USER#{userId} SK=PROFILE GPK={userId}
        entity User userId | PK=USER#{userId} SK=ME
        entity Lost x | PK={x}
        read user User by userId,email where age >
        read ghost Ghost by id
        ",
        expect![[r#"
            KP016 Error tables/t!x
              table name `t!x` breaks DynamoDB's rule: 3 to 255 characters of a-z A-Z 0-9 _ - .
            KP017 Error tables/t!x
              two tables are named `t!x`
            KP016 Error tables/t!x
              table name `t!x` breaks DynamoDB's rule: 3 to 255 characters of a-z A-Z 0-9 _ - .
            KP016 Error tables/t!x/gsis/X
              index name `X` breaks DynamoDB's rule: 3 to 255 characters of a-z A-Z 0-9 _ - .
            KP017 Error entities/User/attributes/userId
              User has two attributes named `userId`
            KP017 Error entities/User
              two entities are named `User`
            KP003 Error entities/User/keys/GPK
              `GPK` is not a key attribute of `t!x` or its indexes: the template is never used
            KP019 Error patterns/user
              `user`: input `email` is not an attribute of User
            KP019 Error patterns/user
              `user`: sort attribute `age` is not an attribute of User
            KP018 Error patterns/ghost
              `ghost` names unknown entity `Ghost`
            KP012 Warning tables/t!x/gsis/X
              no read pattern uses X of `t!x`: it costs writes and storage for nothing; drop it or add the pattern it is for
            KP013 Info entities/Lost
              no read pattern reads Lost: add the patterns that read it, so coverage can check them
        "#]],
    );
}

#[test]
fn key_types_must_fit_the_key_attribute() {
    check(
        "
        table app PK SK:N
        entity Score playerId points:N name | PK=PLAYER#{playerId} SK=SCORE#{points}
        entity Named playerId name | PK=NAME#{playerId} SK={name}
        read score Score by playerId
        read named Named by playerId
        ",
        expect![[r#"
            KP020 Error entities/Score/keys/SK
              Score.SK: `SCORE#{points}` renders text, but `SK` is of type N: an N key takes one N attribute, as in `{amount}`
            KP020 Error entities/Named/keys/SK
              Named.SK: `name` is of type S, but `SK` is of type N
        "#]],
    );
}

#[test]
fn a_number_in_a_string_sort_key_sorts_as_text() {
    check(
        "
        table app PK SK
        entity Task listId priority:N taskId | PK=LIST#{listId} SK={priority}#{taskId}
        read tasks Task by listId
        ",
        expect![[r#"
            KP021 Warning entities/Task/keys/SK
              Task.SK `{priority}#{taskId}` puts the number `priority` in a string sort key, where it sorts as text (`10` before `2`): zero-pad it to a fixed width when writing (`priority` as `0002`)
        "#]],
    );
}

#[test]
fn a_template_for_a_key_no_index_has_is_never_used() {
    check(
        "
        table app PK SK
        entity User userId | PK=USER#{userId} SK=PROFILE GSI9PK=X
        read user User by userId
        ",
        expect![[r#"
            KP003 Error entities/User/keys/GSI9PK
              `GSI9PK` is not a key attribute of `app` or its indexes: the template is never used
        "#]],
    );
}

/// Entities are grouped by the text of their partition templates, so analysis compares
/// groups, not every pair of entities; groups whose different texts can render equal
/// (`USER#{userId}`, `USER#{ownerId}`) must still meet, for collisions and for the other types
/// a Query returns.
#[test]
fn partition_templates_that_differ_in_text_but_can_render_equal_still_collide_and_mix() {
    check(
        "
        table app PK SK
        entity User userId | PK=USER#{userId} SK=PROFILE
        entity Admin ownerId | PK=USER#{ownerId} SK=PROFILE
        entity Post postId userId | PK=USER#{userId} SK=POST#{postId}
        entity Note noteId ownerId | PK=USER#{ownerId} SK=POST#{noteId}
        read user User by userId
        read admin Admin by ownerId
        read posts Post by userId
        read notes Note by ownerId
        ",
        expect![[r#"
            KP004 Error entities/Admin/keys
              User (`USER#{userId}` / `PROFILE`) and Admin (`USER#{ownerId}` / `PROFILE`) can have the same primary key in `app` (both can be `USER#0` / `PROFILE`): one would overwrite the other; give each a distinct prefix
            KP004 Error entities/Note/keys
              Post (`USER#{userId}` / `POST#{postId}`) and Note (`USER#{ownerId}` / `POST#{noteId}`) can have the same primary key in `app` (both can be `USER#0` / `POST#0`): one would overwrite the other; give each a distinct prefix
            KP005 Warning patterns/posts
              `posts` reads Post but its Query also returns Note items: `POST#` also matches Note's `POST#{noteId}`; give each type its own sort-key prefix, or skip Note by type
            KP005 Warning patterns/notes
              `notes` reads Note but its Query also returns Post items: `POST#` also matches Post's `POST#{postId}`; give each type its own sort-key prefix, or skip Post by type
        "#]],
    );
}

#[test]
fn a_pattern_input_left_behind_by_a_rename_says_what_it_meant_and_offers_the_rename() {
    // issue 12: after renaming `orderId` to `id`, the pattern must say "did you mean `id`?".
    check(
        "
        table orders PK SK
        entity Order id customerId createdAt | PK=CUSTOMER#{customerId} SK=ORDER#{id}
        read get_order Order by customerId,orderId
        read latest Order by customerId desc order created
        read odd Order by customerId,wibble
        ",
        expect![[r#"
            KP019 Error patterns/get_order
              `get_order`: input `orderId` is not an attribute of Order: did you mean `id`?
              fix: Rename `orderId` to `id` in `get_order`
            KP019 Error patterns/latest
              `latest`: order attribute `created` is not an attribute of Order: did you mean `createdAt`?
              fix: Rename `created` to `createdAt` in `latest`
            KP019 Error patterns/odd
              `odd`: input `wibble` is not an attribute of Order
        "#]],
    );
}

// issue 16: an attribute both an input and the sort condition got a suggested GSI keyed on it
// twice; the pattern contradicts itself and must say so.
#[test]
fn a_pattern_whose_sort_or_order_attribute_is_also_an_input_contradicts_itself() {
    check(
        "
        table orders PK SK
        entity Order orderId customerId createdAt | PK=CUSTOMER#{customerId} SK=ORDER#{orderId}
        read since Order by customerId,createdAt where createdAt >=
        read sorted Order by customerId order customerId
        read fine Order by customerId where createdAt >=
        ",
        expect![[r#"
            KP023 Error patterns/since
              `since` contradicts itself: `createdAt` is an input, matched exactly, and also the attribute of its sort condition; drop one of them
            KP023 Error patterns/sorted
              `sorted` contradicts itself: `customerId` is an input, matched exactly, so every result has the same `customerId` and ordering by it orders nothing
        "#]],
    );
}

// issue 16: a filter that discards most of what its read reads costs the reads of all of it;
// KP024 says so on the sample and names the index that would read only what is returned.
#[test]
fn a_filter_that_discards_most_of_its_read_is_a_warning_with_the_index_that_would_not() {
    check(
        "
        table shop PK SK
        gsi GSI1 GSI1PK GSI1SK
        entity Customer customerId | PK=CUSTOMER#{customerId} SK=PROFILE
        entity Order orderId customerId email status=NEW|PAID|SHIPPED|DONE total:N | PK=CUSTOMER#{customerId} SK=ORDER#{orderId} GSI1PK=ORDERS GSI1SK={orderId}
        read customer Customer by customerId
        read one_order Order filter orderId =
        read by_email Order filter email =
        read listed Order filter orderId in 1
        read customers_orders Order filter customerId =
        read open Order filter status <>
        read unshipped Order filter orderId <>
        read without Order filter customerId attribute_not_exists
        read mine Order by customerId filter email =
        ",
        expect![[r#"
            KP024 Warning patterns/one_order
              on the sample, the filter of `one_order` discards 29 of the 30 items it reads (97%), and every read pays for all of them: with `orderId` in the key instead of the filter, GSI1 serves it reading only what it returns
            KP024 Warning patterns/by_email
              on the sample, the filter of `by_email` discards 29 of the 30 items it reads (97%), and every read pays for all of them: with `email` in the key instead of the filter, a GSI with partition key `EMAIL#{email}` and sort key `{orderId}` would serve it
            KP024 Warning patterns/listed
              on the sample, the filter of `listed` discards 29 of the 30 items it reads (97%), and every read pays for all of them: with `orderId` in the key instead of the filter (one Query per value of its `in`), GSI1 serves it reading only what it returns
            KP024 Warning patterns/without
              on the sample, the filter of `without` discards 30 of the 30 items it reads (100%), and every read pays for all of them: no key applies its conditions (<>, contains and attribute_not_exists narrow no key): model the items it keeps as their own entity or partition
        "#]],
    );
}

/// A shop whose table has an LSI, with `customers` customers and two billion 2 KB orders.
fn shop_with_an_lsi(customers: u64) -> String {
    format!(
        "
        table shop PK SK
        lsi ByDate createdAt
        entity Customer customerId name | PK=CUSTOMER#{{customerId}} SK=PROFILE
        entity Order orderId customerId createdAt | PK=CUSTOMER#{{customerId}} SK=ORDER#{{orderId}}
        volume Customer {customers}
        volume Order 2000000000 2000
        read orders Order by customerId
        read profile Customer by customerId
        "
    )
}

// issue 16: with an LSI, a partition-key value's items and their LSI entries may hold at most
// 10 GB. From the volumes: a customer's profile and orders share `CUSTOMER#{customerId}`, a
// 500 customers for two billion orders is 4 million orders each (over); a million
// customers keep each collection small; a status takes every order of its value.
#[test]
fn an_item_collection_past_10_gb_with_an_lsi_is_an_error() {
    check(
        &shop_with_an_lsi(500),
        expect![[r#"
            KP029 Error tables/shop/lsis/ByDate
              PK `CUSTOMER#{customerId}` in `shop` gathers `Customer` and `Order` into item collections of about 15.6 GB each (one per `Customer`: 500 of them), with LSI `ByDate`: over the 10 GB an item collection may hold in a table with an LSI: writes to it will fail (ItemCollectionSizeLimitExceededException); put the LSI's sort key in a GSI instead, or a more selective value in PK
            KP012 Warning tables/shop/lsis/ByDate
              no read pattern uses ByDate of `shop`: it costs writes and storage for nothing; drop it or add the pattern it is for
        "#]],
    );
    check(
        &shop_with_an_lsi(1000000),
        expect![[r#"
            KP012 Warning tables/shop/lsis/ByDate
              no read pattern uses ByDate of `shop`: it costs writes and storage for nothing; drop it or add the pattern it is for
        "#]],
    );
    check(
        "
        table queue PK SK
        lsi ByDate createdAt
        entity Job jobId status=NEW|DONE createdAt | PK=STATUS#{status} SK=JOB#{jobId}
        volume Job 5000000 1000
        read jobs Job by status
        ",
        expect![[r#"
            KP029 Error tables/queue/lsis/ByDate
              PK `STATUS#{status}` in `queue` gathers `Job` into item collections of about 10.2 GB each (`status` has 2 known values), with LSI `ByDate`: over the 10 GB an item collection may hold in a table with an LSI: writes to it will fail (ItemCollectionSizeLimitExceededException); put the LSI's sort key in a GSI instead, or a more selective value in PK
            KP012 Warning tables/queue/lsis/ByDate
              no read pattern uses ByDate of `queue`: it costs writes and storage for nothing; drop it or add the pattern it is for
        "#]],
    );
}

// issue 16: KP014 sized a read by a rough guess from the attribute names; a volume's item size
// is what the items weigh. 3 KB orders read 100 to a page take 37 units a request, not 1.
#[test]
fn a_hot_partition_is_judged_at_the_volumes_item_size() {
    check(
        "
        table app PK SK
        gsi ByStatus GPK GSK
        entity Order orderId status=NEW|PAID createdAt | PK=ORDER#{orderId} SK=ORDER GPK=STATUS#{status} GSK={createdAt}
        volume Order 1000000 3000
        read by_status Order by status page 100 rate 100
        read order Order by orderId
        ",
        expect![[r#"
            KP014 Warning entities/Order/keys/GPK
              GPK `STATUS#{status}` takes few values (`status` has 2 known values): its busiest partition (`STATUS#NEW`), loaded by `by_status`, takes about 3700 read units a second, over one partition's 3000: every request reads this one partition: cache it (DAX) or keep copies in several partitions and read one at random
        "#]],
    );
}

// issue 16 item 7: a GSI sort key that joins two attributes is offered as a multi-attribute
// key, and the offer is an edit; an overloaded GSI, whose templates tell entity types apart,
// gets the advice without the edit, saying why.
#[test]
fn a_gsi_key_that_joins_attributes_is_offered_a_multi_attribute_key() {
    check(
        "
        table shop PK SK
        gsi GSI1 GSI1PK GSI1SK
        entity Order orderId customerId status createdAt | PK=CUSTOMER#{customerId} SK=ORDER#{orderId} GSI1PK=STATUS#{status} GSI1SK={createdAt}#{orderId}
        read customer_orders Order by customerId
        read by_status Order by status where createdAt >=
        ",
        expect![[r#"
            KP025 Info tables/shop/gsis/GSI1
              GSI1 of `shop`: Order.GSI1SK `{createdAt}#{orderId}` joins 2 attributes into one string; a multi-attribute sort key (createdAt, orderId) keeps each attribute's own type (numbers sort as numbers, nothing is zero-padded) and DynamoDB indexes the attributes the items already have: no key to write, no backfill
              fix: Use a multi-attribute sort key (createdAt, orderId) on GSI1
        "#]],
    );
    check(
        "
        table app pk sk
        gsi gsi1 gsi1pk gsi1sk
        entity User userId email | pk=USER#{userId} sk=USER gsi1pk=EMAIL#{email} gsi1sk=USER
        entity Project projectId status updatedAt | pk=PROJECT#{projectId} sk=PROJECT gsi1pk=PROJECTS#{status} gsi1sk={updatedAt}#{projectId}
        read user User by userId
        read project Project by projectId
        read by_email User by email
        read by_status Project by status
        ",
        expect![[r#"
            KP025 Info tables/app/gsis/gsi1
              gsi1 of `app`: Project.gsi1sk `{updatedAt}#{projectId}` joins 2 attributes into one string; a multi-attribute sort key (updatedAt, projectId) keeps each attribute's own type (numbers sort as numbers, nothing is zero-padded) and DynamoDB indexes the attributes the items already have: no key to write, no backfill (no edit offered: User and Project fill gsi1sk differently (`USER` and `{updatedAt}#{projectId}`), so the key also tells them apart)
        "#]],
    );
}

// issue 16 item 7: the edit is not offered when natural keys would change who is in the
// index (another entity has the attributes and would join it) or a joined value is no key
// type.
#[test]
fn no_multi_attribute_edit_when_another_entity_would_join_or_a_type_cannot_be_a_key() {
    check(
        "
        table shop PK SK
        gsi GSI1 GSI1PK
        entity Order orderId status day | PK=ORDER#{orderId} SK=ORDER GSI1PK={status}#{day}
        entity Return returnId status day | PK=RETURN#{returnId} SK=RETURN
        read order Order by orderId
        read ret Return by returnId
        read by_day Order by status,day
        ",
        expect![[r#"
            KP025 Info tables/shop/gsis/GSI1
              GSI1 of `shop`: Order.GSI1PK `{status}#{day}` joins 2 attributes into one string; a multi-attribute partition key (status, day) keeps each attribute's own type (numbers sort as numbers, nothing is zero-padded) and DynamoDB indexes the attributes the items already have: no key to write, no backfill (no edit offered: Return has those attributes too, and would join GSI1)
        "#]],
    );
    check(
        "
        table shop PK SK
        gsi GSI1 GSI1PK
        entity Order orderId status meta:M | PK=ORDER#{orderId} SK=ORDER GSI1PK={status}#{meta}
        read order Order by orderId
        read odd Order by status,meta
        ",
        expect![[r#"
            KP015 Warning entities/Order/keys/GSI1PK
              Order.GSI1PK `{status}#{meta}` can reach about 2049 bytes, over DynamoDB's 2048-byte partition key limit (`status`, `meta` free text): bound or hash the long values
            KP025 Info tables/shop/gsis/GSI1
              GSI1 of `shop`: Order.GSI1PK `{status}#{meta}` joins 2 attributes into one string; a multi-attribute partition key (status, meta) keeps each attribute's own type (numbers sort as numbers, nothing is zero-padded) and DynamoDB indexes the attributes the items already have: no key to write, no backfill (no edit offered: Order.meta is of type M, and a key attribute is S, N or B)
        "#]],
    );
}

// issue 16 item 7: in a multi-tenant table (the tenant in most partition keys), a GSI whose
// partition key lacks the tenant can read across tenants; the tenant's own record is exempt,
// and a parent id in every key (`customerId`) is no tenant.
#[test]
fn a_gsi_without_the_tenant_in_a_multi_tenant_table_is_a_warning() {
    check(
        "
        table saas pk sk
        gsi gsi1 gsi1pk gsi1sk
        gsi gsi2 gsi2pk
        entity Tenant tenantId plan | pk=TENANT#{tenantId} sk=META gsi1pk=PLAN#{plan} gsi1sk=TENANT
        entity User tenantId userId email | pk=TENANT#{tenantId} sk=USER#{userId} gsi1pk=EMAIL#{email} gsi1sk=USER
        entity Project tenantId projectId status | pk=TENANT#{tenantId} sk=PROJECT#{projectId} gsi2pk=TENANT#{tenantId}#{status}
        read tenant Tenant by tenantId
        read users User by tenantId
        read on_plan Tenant by plan
        read login User by email
        read by_status Project by tenantId,status
        ",
        expect![[r#"
            KP026 Warning tables/saas/gsis/gsi1
              gsi1 of `saas`: its partition key does not hold `tenantId`, which 3 of the table's 3 entities keep in theirs, so one Query on gsi1 can return items of several tenants (User at `EMAIL#{email}`); put `{tenantId}` in its partition key, or check the tenant of every item it returns
            KP025 Info tables/saas/gsis/gsi2
              gsi2 of `saas`: Project.gsi2pk `TENANT#{tenantId}#{status}` joins 2 attributes into one string; a multi-attribute partition key (tenantId, status) keeps each attribute's own type (numbers sort as numbers, nothing is zero-padded) and DynamoDB indexes the attributes the items already have: no key to write, no backfill
              fix: Use a multi-attribute partition key (tenantId, status) on gsi2
        "#]],
    );
    check(
        "
        table shop PK SK
        gsi GSI1 GSI1PK
        entity Customer customerId email | PK=CUSTOMER#{customerId} SK=PROFILE GSI1PK=EMAIL#{email}
        entity Order customerId orderId | PK=CUSTOMER#{customerId} SK=ORDER#{orderId}
        read customer Customer,Order by customerId
        read login Customer by email
        ",
        expect![""],
    );
}

/// The design after applying the fix of the first finding with `code`, as each pattern's
/// verdict, with the GSI's keys and the templates left for them.
fn check_fixed(text: &str, code: &str, expect: Expect) {
    let mut d = design(text);
    let analysis = crate::analysis::analyze(&d);
    let fix = analysis
        .findings
        .iter()
        .find(|f| f.code == code)
        .and_then(|f| f.fix.clone())
        .expect("the finding offers a fix");
    let edit = fix.edit(&d).expect("the fix fits the design");
    let before = d.clone();
    let undo = crate::edit::apply(&mut d, edit).expect("the edit applies");
    assert_eq!(fix.edit(&d), None, "an applied fix is not offered again");
    // One undo step puts the design back exactly.
    let mut undone = d.clone();
    crate::edit::apply(&mut undone, undo).expect("the undo applies");
    assert_eq!(undone, before);
    let mut out = String::new();
    for table in &d.tables {
        for gsi in &table.gsis {
            out.push_str(&format!(
                "{} {} / {}\n",
                gsi.name,
                typed_keys(&gsi.partition_key, ","),
                typed_keys(&gsi.sort_key, ",")
            ));
        }
    }
    for entity in &d.entities {
        let keys: Vec<String> = entity
            .keys
            .iter()
            .map(|(k, t)| format!("{k}={t}"))
            .collect();
        out.push_str(&format!("{}: {}\n", entity.name, keys.join(" ")));
    }
    for verdict in crate::analysis::analyze(&d).verdicts {
        out.push_str(&crate::coverage::testing::show(&verdict));
    }
    expect.assert_eq(&out);
}

// issue 16 item 7: applying the multi-attribute offer keeps every pattern the GSI served
// served, now on the natural attributes, and drops the templates of the replaced key.
#[test]
fn the_multi_attribute_edit_keeps_every_pattern_of_the_gsi_served() {
    check_fixed(
        "
        table shop PK SK
        gsi GSI1 GSI1PK GSI1SK
        entity Order orderId customerId status createdAt:N | PK=CUSTOMER#{customerId} SK=ORDER#{orderId} GSI1PK=STATUS#{status} GSI1SK={createdAt}#{orderId}
        read customer_orders Order by customerId
        read by_status Order by status where createdAt >= desc
        read one Order by status,createdAt,orderId
        ",
        "KP025",
        expect![[r#"
            GSI1 GSI1PK:S / createdAt:N,orderId:S
            Order: GSI1PK=STATUS#{status} PK=CUSTOMER#{customerId} SK=ORDER#{orderId}
            customer_orders: Query
              PK = :pk
                :pk = CUSTOMER#{customerId}
            by_status: Query on GSI1 (descending)
              GSI1PK = :pk AND createdAt >= :sk
                :pk = STATUS#{status}
                :sk = {createdAt}
              order: newest first by createdAt (ScanIndexForward=false on createdAt)
            one: Query on GSI1
              GSI1PK = :pk AND createdAt = :sk1 AND orderId = :sk2
                :pk = STATUS#{status}
                :sk1 = {createdAt}
                :sk2 = {orderId}
        "#]],
    );
}

// issue 16 item 7: no edit when a pattern the GSI serves would lose its Query: begins_with
// on a number, which a string key took and a number key refuses.
#[test]
fn no_multi_attribute_edit_when_a_pattern_would_lose_its_query() {
    check(
        "
        table shop PK SK
        gsi GSI1 GSI1PK GSI1SK
        entity Order orderId status createdAt:N | PK=ORDER#{orderId} SK=ORDER GSI1PK=STATUS#{status} GSI1SK={createdAt}#{orderId}
        read order Order by orderId
        read by_status Order by status where createdAt begins_with
        ",
        expect![[r#"
            KP021 Warning entities/Order/keys/GSI1SK
              Order.GSI1SK `{createdAt}#{orderId}` puts the number `createdAt` in a string sort key, where it sorts as text (`10` before `2`): zero-pad it to a fixed width when writing (`createdAt` as `0002`)
            KP025 Info tables/shop/gsis/GSI1
              GSI1 of `shop`: Order.GSI1SK `{createdAt}#{orderId}` joins 2 attributes into one string; a multi-attribute sort key (createdAt, orderId) keeps each attribute's own type (numbers sort as numbers, nothing is zero-padded) and DynamoDB indexes the attributes the items already have: no key to write, no backfill (no edit offered: `by_status` would need a Scan after it (GSI1 would not serve it: begins_with needs a string or binary sort key; `createdAt` is a number))
        "#]],
    );
}

// issue 16 item 2: a read that asks an order its operation cannot give contradicts itself: a
// GetItem (one item), a Query on an index without a sort key, or one whose inputs bind its
// whole sort key. Each is an error naming the pattern and the order asked, with no suggestion.
#[test]
fn an_order_asked_of_an_index_without_a_sort_key_or_of_one_item_is_an_error() {
    check(
        "
        table shop PK SK
        gsi GSI1 GSI1PK
        gsi GSI2 GSI2PK GSI2SK
        entity Order orderId customerId status createdAt | PK=ORDER#{orderId} SK=ORDER GSI1PK=STATUS#{status} GSI2PK=CUSTOMER#{customerId} GSI2SK={createdAt}
        read one Order by orderId order createdAt
        read by_status Order by status desc
        read at Order by customerId,createdAt desc
        read recent Order by customerId desc
        ",
        expect![[r#"
            KP028 Error patterns/one
              `one` asks its results ordered by `createdAt`, but it reads one item (a GetItem on its full primary key), and one item has no order; drop the order, or the input that names the item
            KP028 Error patterns/by_status
              `by_status` asks its results in descending order, but GSI1, which serves it, has no sort key, so its Query returns a partition's items in no order; give GSI1 a sort key on the attribute to order by, or drop the order
            KP028 Error patterns/at
              `at` asks its results in descending order, but its inputs bind all of GSI2's sort key (`GSI2SK`), so the items it returns share one sort-key value and come back in no order; drop the order, or the input that binds the last sort-key attribute
        "#]],
    );
}

// issue 16 item 7: both keys joined (the tenant and a status; a date and an id) become one
// multi-attribute GSI, still serving its pattern, in one undoable edit.
#[test]
fn the_multi_attribute_edit_replaces_both_joined_keys_of_a_gsi() {
    check_fixed(
        "
        table saas pk sk
        gsi gsi2 gsi2pk gsi2sk
        entity Project tenantId projectId status updatedAt | pk=TENANT#{tenantId} sk=PROJECT#{projectId} gsi2pk=TENANT#{tenantId}#STATUS#{status} gsi2sk={updatedAt}#{projectId}
        read project Project by tenantId,projectId
        read by_status Project by tenantId,status desc
        ",
        "KP025",
        expect![[r#"
            gsi2 tenantId:S,status:S / updatedAt:S,projectId:S
            Project: pk=TENANT#{tenantId} sk=PROJECT#{projectId}
            project: GetItem
              pk = :pk AND sk = :sk
                :pk = TENANT#{tenantId}
                :sk = PROJECT#{projectId}
            by_status: Query on gsi2 (descending)
              tenantId = :pk1 AND status = :pk2
                :pk1 = {tenantId}
                :pk2 = {status}
              order: newest first by updatedAt (ScanIndexForward=false on updatedAt)
              - chose gsi2 over the table, which also serves it: its key uses more of the inputs (0 left to filter instead of 1)
        "#]],
    );
}

// issue 13: `findings_of` runs its checks in two halves at once with core's `parallel` (the
// server's, so the workspace's tests); its findings must be the checks' run one after the
// other, in order. The examples, with a design whose findings come from both halves.
#[test]
fn the_checks_run_at_once_give_the_findings_of_the_checks_in_order() {
    let mut designs: Vec<crate::model::Design> =
        crate::examples::all().into_iter().map(|(_, d)| d).collect();
    let mut generated = crate::generated::design(60);
    // A pattern naming an entity that does not exist (the patterns' half) next to the
    // generated design's hot partitions (the other half).
    generated.patterns[0].entities.push("Nobody".to_string());
    designs.push(generated);
    let mut both_halves = false;
    for design in designs {
        let prepared = crate::coverage::Prepared::new(&design);
        let verdicts = crate::coverage::verdicts_of(&prepared);
        let reads = super::measure(&design, &verdicts);
        let together = super::findings_of(&prepared, &verdicts, &reads, None);
        let elsewhere = super::Elsewhere {
            measured: &reads,
            statements: None,
        };
        let units = super::Units::new(&prepared, &verdicts, Default::default());
        let in_order =
            super::run_checks(&super::CHECKS, &prepared, &verdicts, &elsewhere, &units).0;
        assert_eq!(together, in_order, "{}", design.name);
        let first = super::run_checks(
            &super::CHECKS[..super::FIRST_HALF],
            &prepared,
            &verdicts,
            &elsewhere,
            &units,
        );
        both_halves |= !first.0.is_empty() && first.0.len() < in_order.len();
    }
    assert!(both_halves, "no design has findings from both halves");
}

// issue 41: a newline in a name or U+2028 in a key template closed a comment of the generated
// migration program; each is an error that says which name and which character.
#[test]
fn a_line_break_control_character_or_direction_mark_in_a_name_or_template_is_an_error() {
    let mut d = design(
        "
        table app PK SK
        entity User userId | PK=USER#{userId} SK=PROFILE
        read user User by userId
        ",
    );
    d.tables[0].name = "app\nimport os".into();
    d.entities[0].table = d.tables[0].name.clone();
    d.entities[0].attributes[0].name = "user\u{1b}[2JId".into();
    d.entities[0].keys.insert(
        "PK".into(),
        crate::template::KeyTemplate::parse("USER\u{2028}#{user\u{1b}[2JId}"),
    );
    d.entities[0].keys.insert(
        "SK".into(),
        crate::template::KeyTemplate::parse("PRO\u{202e}FILE"),
    );
    d.patterns[0].inputs = vec!["user\u{1b}[2JId".into()];
    check_design(
        &d,
        expect![[r#"
            KP016 Error tables/app
            import os
              table name `app\nimport os` breaks DynamoDB's rule: 3 to 255 characters of a-z A-Z 0-9 _ - .
            KP030 Error tables/app
            import os
              table name `app\nimport os` holds \n, a character no name or key template may hold (a line break, control character or direction mark): remove it
            KP030 Error entities/User/attributes/user[2JId
              attribute name `userU+001B[2JId` holds U+001B, a character no name or key template may hold (a line break, control character or direction mark): remove it
            KP030 Error entities/User/keys/PK
              key template `USERU+2028#{userU+001B[2JId}` holds U+2028, a character no name or key template may hold (a line break, control character or direction mark): remove it
            KP030 Error entities/User/keys/SK
              key template `PROU+202EFILE` holds U+202E, a character no name or key template may hold (a line break, control character or direction mark): remove it
            KP030 Error patterns/user
              name in the pattern `userU+001B[2JId` holds U+001B, a character no name or key template may hold (a line break, control character or direction mark): remove it
        "#]],
    );
}

// issue 41: an importer keeps a file whose names hold a line break or U+2028; the finding fires
// on the design it made.
#[test]
fn an_imported_name_with_a_line_break_is_kept_and_found() {
    let template = r#"{
  "Resources": {
    "T": {
      "Type": "AWS::DynamoDB::Table",
      "Properties": {
        "TableName": "orders\u2028pwned",
        "BillingMode": "PAY_PER_REQUEST",
        "AttributeDefinitions": [{"AttributeName": "PK\nimport os", "AttributeType": "S"}],
        "KeySchema": [{"AttributeName": "PK\nimport os", "KeyType": "HASH"}]
      }
    }
  }
}"#;
    let imported = crate::import::detect_and_import(template).expect("the template imports");
    let findings = crate::analysis::analyze(&imported.design).findings;
    let found: Vec<String> = findings
        .iter()
        .filter(|f| f.code == "KP030")
        .map(|f| format!("{:?} {}", f.severity, f.message))
        .collect();
    assert!(!found.is_empty(), "no KP030 on the imported design");
    expect![[r#"
        Error table name `ordersU+2028pwned` holds U+2028, a character no name or key template may hold (a line break, control character or direction mark): remove it
        Error key attribute name `PK\nimport os` holds \n, a character no name or key template may hold (a line break, control character or direction mark): remove it"#]].assert_eq(&found.join("\n"));
}

// issue 40 item 2: a provisioned table's capacity was never set against the patterns' peak.
// GSI1 is given 200 write units while every put lands in it (400 a second at the peak), and
// 100 read units for 150 a second of Queries; the table itself has enough.
#[test]
fn kp031_names_the_gsi_whose_capacity_the_peak_exceeds_and_the_patterns_that_do() {
    let mut d = design(
        "table t PK SK
         gsi GSI1 status
         entity Order orderId status | PK=ORDER#{orderId} SK=ORDER
         volume Order 1000000
         read get_order Order by orderId rate 500 peak 2
         read by_status Order by status rate 300 peak 2
         put add_order Order rate 400 peak 2",
    );
    let mut billing = crate::model::Billing::provisioned(1_000, 1_000);
    if let crate::model::Billing::Provisioned { indexes, .. } = &mut billing {
        let given = crate::model::Capacity {
            read: 100,
            write: 200,
            auto_scaling: None,
        };
        indexes.insert("GSI1".into(), given);
    }
    d.tables[0].billing = billing;
    check_codes(
        &d,
        &["KP031"],
        expect![[r#"
            KP031 Warning tables/t/gsis/GSI1
              GSI `GSI1` of table `t` has the 100 RCU given but the patterns read 150.0 units a second at their peak, 50.0 over (1.5x), from `by_status` 150.0: its Queries are throttled (the table's own reads are not); raise its capacity to at least 150 RCU, or bill the table on demand
            KP031 Warning tables/t/gsis/GSI1
              GSI `GSI1` of table `t` has the 200 WCU given but the patterns write 400.0 units a second at their peak, 200.0 over (2.0x), from `add_order` 400.0: the writes that land in it are throttled, and the table's writes with them: a GSI short of write capacity holds back its table; raise its capacity to at least 400 WCU, or bill the table on demand
        "#]],
    );
}
