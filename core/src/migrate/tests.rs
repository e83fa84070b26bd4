use expect_test::{Expect, expect};

use super::{PlanConfig, parse_rate, plan};
use crate::coverage::testing::design;

/// Prints the plan from `old` to `new` with `items` per entity.
fn check(old: &str, new: &str, items: &[(&str, u64)], expect: Expect) {
    let config = PlanConfig {
        items: items.iter().map(|(e, n)| (e.to_string(), *n)).collect(),
        ..PlanConfig::default()
    };
    expect.assert_eq(&plan(&design(old), &design(new), &config).text());
}

const ORDERS: &str = "
    table orders PK SK
    gsi GSI1 GSI1PK GSI1SK
    entity Customer customerId name | PK=CUSTOMER#{customerId} SK=PROFILE
    entity Order orderId customerId status createdAt | PK=CUSTOMER#{customerId} SK=ORDER#{orderId} GSI1PK=STATUS#{status} GSI1SK={createdAt}#{orderId}
";

#[test]
fn the_same_design_needs_no_migration() {
    check(
        ORDERS,
        ORDERS,
        &[],
        expect![[r#"
            Nothing to migrate: the data already has the new design's shape.
        "#]],
    );
}

// issue 18: the order example gaining a GSI for "Get order by ID": no order carries its key.
#[test]
fn a_gsi_on_a_template_the_items_lack_is_created_then_backfilled() {
    let new = ORDERS
        .replace(
            "gsi GSI1 GSI1PK GSI1SK",
            "gsi GSI1 GSI1PK GSI1SK\n    gsi GSI2 GSI2PK",
        )
        .replace(
            "GSI1SK={createdAt}#{orderId}",
            "GSI1SK={createdAt}#{orderId} GSI2PK=ORDER#{orderId}",
        );
    check(
        ORDERS,
        &new,
        &[("Order", 100_000), ("Customer", 10_000)],
        expect![[r#"
            1. [expand, online] Create GSI GSI2
               why: the new design adds it; no existing item carries its keys yet
               items: 0, 0 RRU, 0 WRU, $0.0000, 0 s
            2. [migrate, backfill] Write GSI2PK = ORDER#{orderId} onto every Order item
               why: Order items must carry GSI2's keys to be in it
               items: 100,000, 2,906 RRU, 300,000 WRU, $0.1879, 5 min 0 s
               units: Scan 100,000 x 238 B = 2,906 RRU; 100,000 items x (1 WRU + 2 GSI writes) = 300,000 WRU
            Total: 2,906 RRU, 300,000 WRU, $0.1879 on demand, 5 min 0 s at 1,000 WCU/s
        "#]],
    );
}

/// One entity keyed by `{userId}`, which the re-key tests change to `USER#{userId}`.
const USERS: &str = "
        table app PK SK
        entity User userId | PK={userId} SK=PROFILE
    ";

// issue 18: an entity re-keyed from `{id}` to `TYPE#{id}`.
#[test]
fn a_changed_table_key_template_is_a_re_key() {
    check(
        USERS,
        &USERS.replace("PK={userId}", "PK=USER#{userId}"),
        &[("User", 5_000)],
        expect![[r#"
            1. [migrate, re-key] Copy every User item to its new key (PK = USER#{userId}), then delete the old one; the application writes both meanwhile
               why: its table key template changes (PK was {userId}, now USER#{userId})
               items: 5,000, 29.5 RRU, 10,000 WRU, $0.0063, 10 s
               units: Scan 5,000 x 48 B = 29.5 RRU; 5,000 items x (2 WRU + 0 GSI writes) = 10,000 WRU
            Total: 29.5 RRU, 10,000 WRU, $0.0063 on demand, 10 s at 1,000 WCU/s
        "#]],
    );
}

// issue 18: a GSI removed, and an entity dropped.
#[test]
fn a_removed_gsi_and_entity_are_contract_steps() {
    let new = "
        table orders PK SK
        entity Customer customerId name | PK=CUSTOMER#{customerId} SK=PROFILE
    ";
    check(
        ORDERS,
        new,
        &[("Order", 2_000), ("Customer", 100)],
        expect![[r#"
            1. [contract, contract] Delete the old GSI GSI1
               why: the new design has no such index; no pattern reads it
               items: 0, 0 RRU, 0 WRU, $0.0000, 0 s
            2. [contract, contract] Delete every Order item
               why: the new design has no such entity
               items: 2,000, 52 RRU, 4,000 WRU, $0.0025, 4 s
               units: Scan 2,000 x 212 B = 52 RRU; 2,000 items x (1 WRU + 1 GSI writes) = 4,000 WRU
            Total: 52 RRU, 4,000 WRU, $0.0025 on demand, 4 s at 1,000 WCU/s
        "#]],
    );
}

// issue 18: an LSI added: DynamoDB cannot add one to a table that exists.
#[test]
fn an_added_lsi_rebuilds_the_table() {
    let new = ORDERS.replace(
        "gsi GSI1 GSI1PK GSI1SK",
        "gsi GSI1 GSI1PK GSI1SK\n    lsi LSI1 createdAt",
    );
    check(
        ORDERS,
        &new,
        &[("Order", 1_000), ("Customer", 100)],
        expect![[r#"
            1. [migrate, rebuild] Create table orders anew in its new shape, copy every item into it at its new keys, switch over, delete the old table
               why: its local secondary indexes change, which DynamoDB cannot change on an existing table
               items: 1,100, 27 RRU, 3,200 WRU, $0.0020, 4 s
               units: Scan 100 x 80 B = 1 RRU; 100 items x (2 WRU + 0 GSI writes) = 200 WRU; Scan 1,000 x 212 B = 26 RRU; 1,000 items x (2 WRU + 1 GSI writes) = 3,000 WRU
            Total: 27 RRU, 3,200 WRU, $0.0020 on demand, 4 s at 1,000 WCU/s
        "#]],
    );
}

// issue 18: a composite GSI sort key replaced by a multi-attribute key: every order already
// carries createdAt and orderId, so DynamoDB backfills the new index itself.
#[test]
fn a_multi_attribute_key_on_attributes_the_items_carry_is_online() {
    let new = ORDERS.replace(
        "gsi GSI1 GSI1PK GSI1SK",
        "gsi GSI1 GSI1PK GSI1SK\n    gsi GSI2 status createdAt,orderId",
    );
    check(
        ORDERS,
        &new,
        &[("Order", 100_000), ("Customer", 10_000)],
        expect![[r#"
            1. [expand, online] Create GSI GSI2
               why: the new design adds it; the items of Order already carry its keys, so DynamoDB backfills it
               items: 100,000, 0 RRU, 100,000 WRU, $0.0625, 1 min 40 s
               units: Order backfill: 100000 x 1 WRU = 100000 WRU
            Total: 0 RRU, 100,000 WRU, $0.0625 on demand, 1 min 40 s at 1,000 WCU/s
        "#]],
    );
}

#[test]
fn a_step_without_a_volume_says_it_is_unknown() {
    check(
        USERS,
        &USERS.replace("PK={userId}", "PK=USER#{userId}"),
        &[],
        expect![[r#"
            1. [migrate, re-key] Copy every User item to its new key (PK = USER#{userId}), then delete the old one; the application writes both meanwhile
               why: its table key template changes (PK was {userId}, now USER#{userId})
               items: unknown, 0 RRU, 0 WRU, $0.0000, 0 s
               units: volume unknown: give --items ENTITY=N
            Total: 0 RRU, 0 WRU, $0.0000 on demand, 0 s at 1,000 WCU/s
            Volumes unknown for User: give --items ENTITY=N to count their steps.
        "#]],
    );
}

// issue 18: the volumes a live import records are the plan's, without --items.
#[test]
fn recorded_volumes_count_without_items() {
    let old = design(
        "
        table app PK SK
        entity User userId | PK={userId} SK=PROFILE
    ",
    );
    let mut new = old.clone();
    new.entities[0]
        .keys
        .insert("PK".to_string(), crate::KeyTemplate::parse("USER#{userId}"));
    let mut old = old;
    old.entities[0].volume = Some(crate::model::Volume {
        items: 1_200_000,
        item_bytes: Some(2_500),
        sampled: 1_000,
    });
    let p = plan(&old, &new, &PlanConfig::default());
    expect![[r#"
        1. [migrate, re-key] Copy every User item to its new key (PK = USER#{userId}), then delete the old one; the application writes both meanwhile
           why: its table key template changes (PK was {userId}, now USER#{userId})
           items: 1,200,000, 366,211 RRU, 7,200,000 WRU, $4.5458, 2 h 0 min
           units: Scan 1,200,000 x 2500 B = 366,211 RRU; 1,200,000 items x (6 WRU + 0 GSI writes) = 7,200,000 WRU
        Total: 366,211 RRU, 7,200,000 WRU, $4.5458 on demand, 2 h 0 min at 1,000 WCU/s
    "#]]
    .assert_eq(&p.text());
}

// issue 43 item 5: the count a person gives the open design's entity is the plan's, over the
// one the deployed design recorded; the entities the steps count are named, known or not.
#[test]
fn the_new_designs_volume_counts_over_the_deployed_one() {
    let old = design(
        "
        table app PK SK
        entity User userId | PK={userId} SK=PROFILE
        entity Team teamId | PK=TEAM#{teamId} SK=TEAM
    ",
    );
    let mut new = old.clone();
    new.entities[0]
        .keys
        .insert("PK".to_string(), crate::KeyTemplate::parse("USER#{userId}"));
    let mut old = old;
    old.entities[0].volume = Some(crate::model::Volume::items(1_200_000));
    new.entities[0].volume = Some(crate::model::Volume::items(30_000));
    let p = plan(&old, &new, &PlanConfig::default());
    assert_eq!(p.steps[0].items, Some(30_000), "{}", p.text());
    assert_eq!(p.counted, ["User"]);
    new.entities[0].volume = None;
    let p = plan(&old, &new, &PlanConfig::default());
    assert_eq!(p.steps[0].items, Some(1_200_000), "{}", p.text());
}

// issue 18: an entity that starts filling a GSI the table already has (the online shop's
// step 12 to 13) gets its keys written, not "rewritten".
#[test]
fn an_entity_joining_an_existing_gsi_is_a_backfill() {
    let old = "
        table shop PK SK
        gsi GSI2 GSI2PK GSI2SK
        entity Invoice invoiceId customerId date | PK=i#{invoiceId} SK=i#{invoiceId}
    ";
    let new = old.replace(
        "SK=i#{invoiceId}",
        "SK=i#{invoiceId} GSI2PK=c#{customerId} GSI2SK=i#{date}",
    );
    check(
        old,
        &new,
        &[("Invoice", 40_000)],
        expect![[r#"
            1. [migrate, backfill] Write GSI2PK = c#{customerId}, GSI2SK = i#{date} onto every Invoice item
               why: Invoice items join GSI2, whose keys they do not carry yet
               items: 40,000, 728 RRU, 80,000 WRU, $0.0501, 1 min 20 s
               units: Scan 40,000 x 149 B = 728 RRU; 40,000 items x (1 WRU + 1 GSI writes) = 80,000 WRU
            Total: 728 RRU, 80,000 WRU, $0.0501 on demand, 1 min 20 s at 1,000 WCU/s
        "#]],
    );
}

/// An order of customer c1 in ORDERS' shape.
fn order(id: &str) -> crate::Item {
    [
        ("PK", "CUSTOMER#c1".to_string()),
        ("SK", format!("ORDER#{id}")),
        ("GSI1PK", "STATUS#NEW".to_string()),
        ("GSI1SK", format!("2026-01-01#{id}")),
        ("orderId", id.to_string()),
        ("customerId", "c1".to_string()),
        ("status", "NEW".to_string()),
        ("createdAt", "2026-01-01".to_string()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), crate::AttributeValue::S(v)))
    .collect()
}

// issue 18: what the runner writes for an item: old key attributes gone, new ones rendered.
#[test]
fn a_migrated_item_has_the_new_keys_and_not_the_old() {
    let old = design(ORDERS);
    let new = design(&ORDERS.replace(
        "PK=CUSTOMER#{customerId} SK=ORDER#{orderId} GSI1PK=STATUS#{status} GSI1SK={createdAt}#{orderId}",
        "PK=ORDER#{orderId} SK=ORDER GSI1PK=STATUS#{status}#{shard:4}",
    ));
    let item = order("o1");
    let migrated = super::migrated_item(&old, &new, "Order", &item)
        .expect("renders")
        .expect("Order is kept");
    let shown: Vec<String> = migrated
        .iter()
        .map(|(k, v)| format!("{k}={}", v.as_key_text().unwrap_or_default()))
        .collect();
    expect![[r#"
        GSI1PK=STATUS#NEW#2
        PK=ORDER#o1
        SK=ORDER
        createdAt=2026-01-01
        customerId=c1
        orderId=o1
        status=NEW"#]]
    .assert_eq(&shown.join("\n"));
    assert_eq!(
        super::migrated_item(&old, &new, "Order", &item),
        super::migrated_item(&old, &new, "Order", &item),
        "the same item migrates the same way twice"
    );
    let mut lacking = item.clone();
    lacking.remove("orderId");
    expect!["an item of Order has no value for every variable of PK's template ORDER#{orderId}"]
        .assert_eq(&super::migrated_item(&old, &new, "Order", &lacking).expect_err("no orderId"));
    let dropped = design(&ORDERS.replace("entity Order", "entity Gone"));
    assert_eq!(
        super::migrated_item(&old, &dropped, "Order", &item),
        Ok(None)
    );
}

// issue 18: a migrated item migrates to itself, write shard included, so a migration script
// run twice changes nothing the second time (the shard was hashed from the item's keys too).
#[test]
fn a_migrated_item_is_a_fixed_point_of_its_migration() {
    let old = design(ORDERS);
    let new = design(&ORDERS.replace(
        "GSI1PK=STATUS#{status} GSI1SK={createdAt}#{orderId}",
        "GSI1PK=STATUS#{status}#{shard:16} GSI1SK={createdAt}#{orderId}",
    ));
    for n in 0..40 {
        let item = order(&format!("o{n}"));
        let once = super::migrated_item(&old, &new, "Order", &item)
            .expect("renders")
            .expect("kept");
        let twice = super::migrated_item(&old, &new, "Order", &once)
            .expect("renders")
            .expect("kept");
        assert_eq!(once, twice, "order o{n}");
    }
}

// issue 41: `--items` near u64::MAX panicked in a debug build ("attempt to multiply with
// overflow") and wrapped around to small figures in a release one.
#[test]
fn items_too_large_to_count_are_said_too_large() {
    check(
        ORDERS,
        &ORDERS.replace("SK=ORDER#{orderId}", "SK=ORDER#{createdAt}#{orderId}"),
        &[("Order", u64::MAX), ("Customer", 10)],
        expect![[r#"
            1. [migrate, re-key] Copy every Order item to its new key (SK = ORDER#{createdAt}#{orderId}), then delete the old one; the application writes both meanwhile
               why: its table key template changes (SK was ORDER#{orderId}, now ORDER#{createdAt}#{orderId})
               items: too large, 0 RRU, 0 WRU, $0.0000, 0 s
               units: too large to count (Order: 18,446,744,073,709,551,615 items of 233 B, past the 18,446,744,073,709,551,615 bytes or write units keyplan counts)
            Total: 0 RRU, 0 WRU, $0.0000 on demand, 0 s at 1,000 WCU/s
            Too large to count: Order: 18,446,744,073,709,551,615 items of 233 B, past the 18,446,744,073,709,551,615 bytes or write units keyplan counts; give --items ENTITY=N a smaller N.
        "#]],
    );
}

/// A u64 at or near its extremes, or anywhere.
fn extreme() -> impl proptest::strategy::Strategy<Value = u64> {
    use proptest::prelude::*;
    prop_oneof![
        Just(0),
        Just(1),
        Just(u64::MAX),
        Just(u64::MAX / 2 + 1),
        (u64::MAX - 1_000)..=u64::MAX,
        any::<u64>(),
        0..10_000_000_000u64,
    ]
}

proptest::proptest! {
    // issue 41: every figure of a plan is counted or said too large, whatever the volumes.
    #[test]
    fn a_plan_counts_or_says_too_large_whatever_the_volumes(
        order in extreme(),
        customer in extreme(),
        bytes in proptest::option::of(extreme()),
        given in proptest::option::of(extreme()),
    ) {
        let mut old = design(ORDERS);
        for (entity, items) in old.entities.iter_mut().zip([customer, order]) {
            entity.volume = Some(crate::model::Volume { items, item_bytes: bytes, sampled: 0 });
        }
        let new = design(
            &ORDERS
                .replace("SK=ORDER#{orderId}", "SK=ORDER#{createdAt}#{orderId}")
                .replace("gsi GSI1 GSI1PK GSI1SK", "gsi GSI1 GSI1PK GSI1SK\n    gsi GSI2 GSI2PK")
                .replace("entity Customer customerId name |", "entity Customer customerId name | GSI2PK=C#{customerId}"),
        );
        let config = PlanConfig {
            items: given.map(|n| ("Order".to_string(), n)).into_iter().collect(),
            ..PlanConfig::default()
        };
        let p = plan(&old, &new, &config);
        let text = p.text();
        for step in &p.steps {
            proptest::prop_assert!(step.read_units.is_finite() && step.write_units.is_finite());
            proptest::prop_assert!(step.cost.is_finite() && step.seconds.is_finite());
            if step.units.starts_with("too large") {
                proptest::prop_assert_eq!(step.items, None);
            }
        }
        proptest::prop_assert_eq!(p.too_large.is_empty(), !text.contains("Too large to count"));
        // Whatever is counted, the totals are the steps' sums.
        let sum: f64 = p.steps.iter().map(|s| s.write_units).sum();
        proptest::prop_assert_eq!(p.write_units, sum);
    }
}

// issue 43 item 5: the Migrate tab's write rate is read as `--max-wcu` is, by one rule.
#[test]
fn a_write_rate_is_at_least_one_unit_a_second() {
    assert_eq!(parse_rate(" 1,000 "), Ok(1000.0));
    assert_eq!(parse_rate("2.5"), Ok(2.5));
    for refused in ["0", "0.5", "-3", "fast", "", "inf", "NaN"] {
        let e = parse_rate(refused).expect_err(refused);
        assert!(
            e.ends_with("is not a rate of at least 1 write unit per second"),
            "{refused}: {e}"
        );
    }
}

/// A catalog whose products carry an embedding and whose articles do not, before any vector
/// index (issue 40).
const CATALOG: &str = "
    table catalog PK SK
    entity Product productId embedding:L | PK=PRODUCT#{productId} SK=PRODUCT
    entity Article articleId | PK=ARTICLE#{articleId} SK=ARTICLE
";

// issue 40: a vector index added to a table that holds data is planned as a GSI is: an
// UpdateTable DynamoDB backfills, its vectors counted and not priced.
#[test]
fn a_vector_index_added_is_backfilled_by_dynamodb_and_its_vectors_counted_not_priced() {
    let new = CATALOG
        .replace(
            "table catalog PK SK",
            "table catalog PK SK\n    vector ByEmbedding embedding 1024 COSINE",
        )
        .replace("articleId |", "articleId embedding:L |");
    check(
        CATALOG,
        &new,
        &[("Product", 50_000), ("Article", 2_000)],
        expect![[r#"
            1. [expand, online] Create vector index ByEmbedding (embedding, 1024 dimensions, COSINE)
               why: the new design adds it; the items of Product already carry embedding, so DynamoDB backfills it (SearchVectors fails until the backfill ends, however few the items); Article items enter it once the application writes embedding on them (an embedding it computes: no step of this plan writes one)
               items: 50,000, not priced: no published price; its time follows the index's construction, not the items
               units: Product backfill: 50,000 vectors x 4,096 B = 204,800,000 vector write bytes, not priced: no published price
            Total: 0 RRU, 0 WRU, $0.0000 on demand, 0 s at 1,000 WCU/s
            Not in the total: what the vector indexes' backfill replicates (vector write bytes, not priced: no published price).
        "#]],
    );
    let plan = plan(&design(CATALOG), &design(&new), &PlanConfig::default());
    assert!(plan.steps.iter().all(|s| s.vector), "{plan:?}");
}

// issue 40: one dropped is an UpdateTable once nothing searches it; one whose settings change
// is deleted and created again, as DynamoDB has no update of a vector index.
#[test]
fn a_vector_index_dropped_or_changed_is_deleted_and_a_changed_one_created_anew() {
    let with = |index: &str| {
        CATALOG.replace(
            "table catalog PK SK",
            &format!("table catalog PK SK\n    {index}"),
        )
    };
    check(
        &with("vector ByEmbedding embedding 1024 COSINE"),
        CATALOG,
        &[("Product", 50_000), ("Article", 2_000)],
        expect![[r#"
            1. [contract, contract] Delete the old vector index ByEmbedding
               why: the new design has no such vector index; delete it once nothing searches it
               items: 0, 0 RRU, 0 WRU, $0.0000, 0 s
            Total: 0 RRU, 0 WRU, $0.0000 on demand, 0 s at 1,000 WCU/s
        "#]],
    );
    check(
        &with("vector ByEmbedding embedding 1024 COSINE"),
        &with("vector ByEmbedding embedding 1024 DOT_PRODUCT"),
        &[("Product", 50_000), ("Article", 2_000)],
        expect![[r#"
            1. [expand, online] Create vector index ByEmbedding (embedding, 1024 dimensions, DOT_PRODUCT)
               why: its settings change, which DynamoDB cannot change on a vector index: delete the old ByEmbedding first (or give the new one another name)
               items: 50,000, not priced: no published price; its time follows the index's construction, not the items
               units: Product backfill: 50,000 vectors x 4,096 B = 204,800,000 vector write bytes, not priced: no published price
            2. [contract, contract] Delete the old vector index ByEmbedding
               why: it is replaced by one with other settings
               items: 0, 0 RRU, 0 WRU, $0.0000, 0 s
            Total: 0 RRU, 0 WRU, $0.0000 on demand, 0 s at 1,000 WCU/s
            Not in the total: what the vector indexes' backfill replicates (vector write bytes, not priced: no published price).
        "#]],
    );
}
