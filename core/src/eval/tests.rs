use std::cmp::Ordering;

use expect_test::{Expect, expect};

use super::query::show_value;
use super::store::permute;
use super::*;
use crate::item::AttributeValue;
use crate::model::{Design, FilterOp, Gsi, KeyAttribute, KeyType, Lsi, Projection, SortOp, Table};

fn s(v: &str) -> AttributeValue {
    AttributeValue::S(v.to_string())
}

fn n(v: &str) -> AttributeValue {
    AttributeValue::N(v.to_string())
}

/// A table `t` (PK S, SK S) with a GSI `byScore` (G S, score N, KEYS_ONLY), a GSI `byBlob`
/// (G S, blob B, INCLUDE note) and an LSI `byName` on `name`.
fn design() -> Design {
    let mut design = Design::new("eval");
    design.tables.push(Table {
        name: "t".into(),
        partition_key: KeyAttribute::new("PK", KeyType::S),
        sort_key: Some(KeyAttribute::new("SK", KeyType::S)),
        gsis: vec![
            Gsi {
                name: "byScore".into(),
                partition_key: vec![KeyAttribute::new("G", KeyType::S)],
                sort_key: vec![KeyAttribute::new("score", KeyType::N)],
                projection: Projection::KeysOnly,
            },
            Gsi {
                name: "byBlob".into(),
                partition_key: vec![KeyAttribute::new("G", KeyType::S)],
                sort_key: vec![KeyAttribute::new("blob", KeyType::B)],
                projection: Projection::Include {
                    attributes: vec!["note".into()],
                },
            },
        ],
        lsis: vec![Lsi {
            name: "byName".into(),
            sort_key: KeyAttribute::new("name", KeyType::S),
            projection: Projection::All,
        }],
        billing: Default::default(),
        ttl_attribute: None,
        replicas: Vec::new(),
        vector_indexes: Vec::new(),
    });
    design
}

fn item(pairs: &[(&str, AttributeValue)]) -> LoadItem {
    LoadItem {
        table: "t".into(),
        entity: Some("E".into()),
        item: pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect(),
    }
}

fn store() -> ItemStore {
    let blob = |bytes: &[u8]| AttributeValue::B(encode_binary(bytes));
    ItemStore::build(
        &design(),
        vec![
            item(&[
                ("PK", s("A")),
                ("SK", s("ORDER#2")),
                ("G", s("g")),
                ("score", n("10")),
                ("blob", blob(&[0x80])),
                ("note", s("x")),
                ("name", s("b")),
            ]),
            item(&[
                ("PK", s("A")),
                ("SK", s("ORDER#10")),
                ("G", s("g")),
                ("score", n("9.5")),
                ("blob", blob(&[0x7f, 0xff])),
                ("name", s("a")),
            ]),
            item(&[
                ("PK", s("A")),
                ("SK", s("ORDER#1")),
                ("G", s("g")),
                ("score", n("-3")),
                ("name", s("é")),
            ]),
            item(&[("PK", s("A")), ("SK", s("PROFILE")), ("score", n("100"))]),
            item(&[
                ("PK", s("A")),
                ("SK", s("Order#3")),
                ("G", s("g")),
                ("score", n("10")),
                ("name", s("Z")),
            ]),
            item(&[
                ("PK", s("B")),
                ("SK", s("ORDER#1")),
                ("G", s("h")),
                ("score", n("1e2")),
            ]),
            // Replaces the first item: same primary key.
            item(&[
                ("PK", s("A")),
                ("SK", s("ORDER#2")),
                ("G", s("g")),
                ("score", n("10.0")),
                ("blob", blob(&[0x80])),
                ("note", s("y")),
                ("name", s("b")),
            ]),
            // Refused: no sort key.
            item(&[("PK", s("C"))]),
            // Not in byScore: its score is not a number.
            item(&[
                ("PK", s("D")),
                ("SK", s("x")),
                ("G", s("g")),
                ("score", s("high")),
            ]),
        ],
    )
}

fn show_page(page: &Page, keys: &[&str]) -> String {
    let mut out = String::new();
    for item in &page.items {
        let fields: Vec<String> = keys
            .iter()
            .filter_map(|k| item.get(*k).map(|v| format!("{k}={}", show_value(v))))
            .collect();
        out.push_str(&fields.join(" "));
        out.push('\n');
    }
    match &page.last_evaluated_key {
        Some(key) => {
            let fields: Vec<String> = key
                .iter()
                .map(|(k, v)| format!("{k}={}", show_value(v)))
                .collect();
            out.push_str(&format!("LEK {}\n", fields.join(" ")));
        }
        None => out.push_str("no LEK\n"),
    }
    out.push_str(&format!("{} B, {} RCU\n", page.bytes_read, page.read_units));
    out
}

fn check(query: KeyQuery, expect: Expect) {
    let actual = match store().query(&query) {
        Ok(page) => show_page(&page, &["PK", "SK", "score", "name", "note"]),
        Err(e) => format!("error: {e}\n"),
    };
    expect.assert_eq(&actual);
}

fn query(index: Option<&str>, pk: (&str, &str)) -> KeyQuery {
    KeyQuery::new("t", index, vec![(pk.0.to_string(), s(pk.1))])
}

fn with_sort(
    mut q: KeyQuery,
    attribute: &str,
    op: SortOp,
    values: Vec<AttributeValue>,
) -> KeyQuery {
    q.sort_condition = Some(SortTest {
        attribute: attribute.into(),
        op,
        values,
    });
    q
}

#[test]
fn a_partition_comes_back_sorted_by_the_utf8_bytes_of_its_sort_key() {
    check(
        query(None, ("PK", "A")),
        expect![[r#"
            PK="A" SK="ORDER#1" score=-3 name="é"
            PK="A" SK="ORDER#10" score=9.5 name="a"
            PK="A" SK="ORDER#2" score=10.0 name="b" note="y"
            PK="A" SK="Order#3" score=10 name="Z"
            PK="A" SK="PROFILE" score=100
            no LEK
            141 B, 0.5 RCU
        "#]],
    );
}

#[test]
fn begins_with_is_case_sensitive_and_scan_index_forward_false_reverses() {
    let mut q = with_sort(
        query(None, ("PK", "A")),
        "SK",
        SortOp::BeginsWith,
        vec![s("ORDER#")],
    );
    q.forward = false;
    check(
        q,
        expect![[r#"
            PK="A" SK="ORDER#2" score=10.0 name="b" note="y"
            PK="A" SK="ORDER#10" score=9.5 name="a"
            PK="A" SK="ORDER#1" score=-3 name="é"
            no LEK
            96 B, 0.5 RCU
        "#]],
    );
}

#[test]
fn between_is_inclusive_at_both_ends() {
    check(
        with_sort(
            query(None, ("PK", "A")),
            "SK",
            SortOp::Between,
            vec![s("ORDER#10"), s("Order#3")],
        ),
        expect![[r#"
            PK="A" SK="ORDER#10" score=9.5 name="a"
            PK="A" SK="ORDER#2" score=10.0 name="b" note="y"
            PK="A" SK="Order#3" score=10 name="Z"
            no LEK
            95 B, 0.5 RCU
        "#]],
    );
}

#[test]
fn numbers_sort_numerically_and_keys_only_projects_table_and_index_keys() {
    check(
        query(Some("byScore"), ("G", "g")),
        expect![[r#"
            PK="A" SK="ORDER#1" score=-3
            PK="A" SK="ORDER#10" score=9.5
            PK="A" SK="ORDER#2" score=10.0
            PK="A" SK="Order#3" score=10
            no LEK
            85 B, 0.5 RCU
        "#]],
    );
}

#[test]
fn a_number_condition_compares_decimals_exactly() {
    check(
        with_sort(
            query(Some("byScore"), ("G", "g")),
            "score",
            SortOp::Ge,
            vec![n("10.00")],
        ),
        expect![[r#"
            PK="A" SK="ORDER#2" score=10.0
            PK="A" SK="Order#3" score=10
            no LEK
            42 B, 0.5 RCU
        "#]],
    );
    check(
        with_sort(
            query(Some("byScore"), ("G", "h")),
            "score",
            SortOp::Eq,
            vec![n("100")],
        ),
        expect![[r#"
            PK="B" SK="ORDER#1" score=1e2
            no LEK
            21 B, 0.5 RCU
        "#]],
    );
}

#[test]
fn binary_sort_keys_compare_by_unsigned_bytes_and_include_projects_the_listed_attributes() {
    check(
        query(Some("byBlob"), ("G", "g")),
        expect![[r#"
            PK="A" SK="ORDER#10"
            PK="A" SK="ORDER#2" note="y"
            no LEK
            45 B, 0.5 RCU
        "#]],
    );
}

#[test]
fn a_limit_stops_the_page_and_returns_the_index_and_table_keys_to_continue() {
    let mut q = query(Some("byScore"), ("G", "g"));
    q.limit = Some(3);
    check(
        q.clone(),
        expect![[r#"
            PK="A" SK="ORDER#1" score=-3
            PK="A" SK="ORDER#10" score=9.5
            PK="A" SK="ORDER#2" score=10.0
            LEK G="g" PK="A" SK="ORDER#2" score=10.0
            64 B, 0.5 RCU
        "#]],
    );
    let first = store().query(&q).expect("query runs");
    q.exclusive_start_key = first.last_evaluated_key;
    check(
        q,
        expect![[r#"
            PK="A" SK="Order#3" score=10
            no LEK
            21 B, 0.5 RCU
        "#]],
    );
}

#[test]
fn a_page_that_reaches_the_limit_exactly_still_has_a_last_evaluated_key() {
    let mut q = query(None, ("PK", "B"));
    q.limit = Some(1);
    check(
        q,
        expect![[r#"
            PK="B" SK="ORDER#1" score=1e2
            LEK PK="B" SK="ORDER#1"
            21 B, 0.5 RCU
        "#]],
    );
}

#[test]
fn paging_backwards_continues_below_the_start_key() {
    let mut q = query(Some("byName"), ("PK", "A"));
    q.forward = false;
    q.limit = Some(2);
    let first = store().query(&q).expect("query runs");
    expect![[r#"
        PK="A" SK="ORDER#1" score=-3 name="é"
        PK="A" SK="ORDER#2" score=10.0 name="b" note="y"
        LEK PK="A" SK="ORDER#2" name="b"
        63 B, 0.5 RCU
    "#]]
    .assert_eq(&show_page(&first, &["PK", "SK", "score", "name", "note"]));
    q.exclusive_start_key = first.last_evaluated_key;
    check(
        q,
        expect![[r#"
            PK="A" SK="ORDER#10" score=9.5 name="a"
            PK="A" SK="Order#3" score=10 name="Z"
            LEK PK="A" SK="Order#3" name="Z"
            59 B, 0.5 RCU
        "#]],
    );
}

#[test]
fn consistent_reads_cost_a_unit_per_4_kb() {
    let mut q = query(None, ("PK", "A"));
    q.consistent = true;
    let page = store().query(&q).expect("query runs");
    assert_eq!(page.read_units, 1.0);
}

#[test]
fn bad_queries_are_refused_with_dynamodb_reasons() {
    check(
        with_sort(
            query(Some("byScore"), ("G", "g")),
            "score",
            SortOp::BeginsWith,
            vec![n("1")],
        ),
        expect![[r#"
            error: begins_with needs a string or binary sort key; `score` is a number
        "#]],
    );
    check(
        with_sort(
            query(None, ("PK", "A")),
            "SK",
            SortOp::Between,
            vec![s("b"), s("a")],
        ),
        expect![[r#"
            error: between's lower bound is greater than its upper bound
        "#]],
    );
    check(
        query(Some("nope"), ("G", "g")),
        expect![[r#"
            error: table `t` has no index `nope`
        "#]],
    );
    check(
        query(None, ("G", "g")),
        expect![[r#"
            error: `G` is not a key attribute of the index queried, or is given twice
        "#]],
    );
    let mut q = query(None, ("PK", "A"));
    q.exclusive_start_key = Some([("PK".to_string(), s("B")), ("SK".to_string(), s("x"))].into());
    check(
        q,
        expect![[r#"
            error: the exclusive start key is invalid: it is in another partition than the query's
        "#]],
    );
    let mut q = query(Some("byScore"), ("G", "g"));
    q.consistent = true;
    check(
        q,
        expect![[r#"
            error: consistent reads are not supported on global secondary indexes
        "#]],
    );
    let mut q = query(None, ("PK", "A"));
    q.limit = Some(0);
    check(
        q,
        expect![[r#"
            error: Limit must be at least 1
        "#]],
    );
}

#[test]
fn items_without_valid_keys_are_rejected_or_left_out_of_the_index() {
    let store = store();
    expect![[r#"
        [
            Rejected {
                table: "t",
                index: None,
                reason: "an item has no `SK`, a primary key attribute",
            },
            Rejected {
                table: "t",
                index: Some(
                    "byScore",
                ),
                reason: "`score`: a N key cannot hold a string",
            },
        ]
    "#]]
    .assert_debug_eq(&store.rejected);
}

// issue 13: a Query finds its partition by a hash of its key values, and a hash two
// partitions share is marked so that the partition is searched for instead. With every hash
// marked shared, every read must give what the lookup by hash gives.
#[test]
fn a_partition_whose_hash_another_shares_is_searched_for_with_the_same_result() {
    let by_hash = store();
    let mut searched = store();
    for table in &mut searched.tables {
        for index in &mut table.indexes {
            for range in index.partitions.values_mut() {
                *range = None;
            }
        }
    }
    let sort_begins = |q| with_sort(q, "SK", SortOp::BeginsWith, vec![s("ORDER#")]);
    let queries = [
        query(None, ("PK", "A")),
        query(None, ("PK", "B")),
        query(None, ("PK", "nothing here")),
        sort_begins(query(None, ("PK", "A"))),
        query(Some("byScore"), ("G", "g")),
        query(Some("byScore"), ("G", "h")),
        query(Some("byBlob"), ("G", "g")),
        query(Some("byName"), ("PK", "A")),
    ];
    for q in &queries {
        assert_eq!(searched.query(q), by_hash.query(q), "{q:?}");
        assert_eq!(searched.count(q), by_hash.count(q), "{q:?}");
    }
    let read = |q: &KeyQuery| by_hash.query(q).expect("the query runs").items.len();
    assert_eq!(read(&queries[0]), 5, "the table's partition A");
    assert_eq!(read(&queries[4]), 4, "byScore's partition g");
    for sort in ["PROFILE", "ORDER#1", "nothing"] {
        let mut get = query(None, ("PK", "A"));
        get.sort_equal = vec![("SK".into(), s(sort))];
        assert_eq!(searched.get_item(&get), by_hash.get_item(&get), "{sort}");
    }
}

#[test]
fn get_item_finds_the_exact_key_and_a_miss_still_costs_a_read() {
    let store = store();
    let mut q = query(None, ("PK", "A"));
    q.sort_equal = vec![("SK".into(), s("PROFILE"))];
    let hit = store.get_item(&q).expect("get runs");
    q.sort_equal = vec![("SK".into(), s("PROFILE2"))];
    let miss = store.get_item(&q).expect("get runs");
    assert_eq!((hit.items.len(), hit.read_units), (1, 0.5));
    assert_eq!((miss.items.len(), miss.read_units), (0, 0.5));
}

#[test]
fn scatter_gather_merges_shards_in_sort_order_then_keeps_the_page() {
    let mut queries = Vec::new();
    for g in ["g", "h"] {
        let mut q = query(Some("byScore"), ("G", g));
        q.limit = Some(3);
        q.forward = false;
        queries.push(q);
    }
    let merged = store().scatter_gather(&queries).expect("queries run");
    let scores: Vec<String> = merged
        .items
        .iter()
        .map(|i| show_value(&i["score"]))
        .collect();
    expect![[r#"
        [
            "1e2",
            "10",
            "10.0",
        ]
    "#]]
    .assert_debug_eq(&scores);
    assert_eq!(merged.read_units, 1.0);
}

#[test]
fn decimals_parse_compare_and_print_exactly() {
    let d = |t: &str| Decimal::parse(t).expect("a number");
    assert_eq!(
        d("0.10000000000000000001").cmp(&d("0.1")),
        Ordering::Greater
    );
    assert_eq!(d("-1").cmp(&d("-0.5")), Ordering::Less);
    assert_eq!(d("1e2"), d("100.000"));
    assert_eq!(d("-0"), Decimal::zero());
    let shown: Vec<String> = ["0.050", "-12.5e1", "1200", "+.5", "3E-3"]
        .iter()
        .map(|t| d(t).to_string())
        .collect();
    assert_eq!(shown, ["0.05", "-125", "1200", "0.5", "0.003"]);
    assert!(Decimal::parse("1.2.3").is_err());
    assert!(Decimal::parse("").is_err());
    assert!(Decimal::parse("1e999").is_err());
    assert!(Decimal::parse("123456789012345678901234567890123456789").is_err());
    for text in [
        "0.050", "-12.5e1", "1200", "+.5", "3E-3", "0", "-0.00120", "1.2.3", "", "x",
    ] {
        assert_eq!(
            number::significant_digits(text),
            Decimal::parse(text).ok().map(|d| d.significant_digits()),
            "{text}"
        );
    }
}

// issue 13: each index groups its entries by entity once, so that the cost of every entity
// and the inputs of every pattern read only that entity's items, and a table sums its items'
// sizes once for every Scan; the grouping must give
// exactly what filtering the whole index gives, in the same order, on a design of many
// entities (and nothing for items of no entity or of an entity the design does not have).
#[test]
fn an_entitys_items_in_an_index_are_the_index_filtered_by_that_entity() {
    let design = crate::generated::design(40);
    let mut loads: Vec<LoadItem> = crate::sample::generate(&design, &Default::default())
        .load_items()
        .collect();
    for (i, entity) in [None, Some("Stranger")].into_iter().enumerate() {
        let mut stray = loads[i].clone();
        stray.entity = entity.map(str::to_string);
        stray.item.insert("SK".into(), s(&format!("STRAY{i}")));
        loads.push(stray);
    }
    // A later item with the same key replaces the first: only the kept one counts.
    let mut replacing = loads[2].clone();
    replacing.item.insert("title".into(), s(&"x".repeat(500)));
    loads.push(replacing);
    let store = ItemStore::build(&design, loads);
    let table = store.table("app").expect("the table");
    let sizes: usize = table.items().iter().map(|s| s.size).sum();
    assert_eq!(table.bytes(), sizes);
    let mut compared = 0;
    for index in table.indexes() {
        for entity in design
            .entities
            .iter()
            .map(|e| e.name.as_str())
            .chain(["Stranger"])
        {
            let slow: Vec<&StoredItem> = table
                .partitions(index)
                .into_iter()
                .flat_map(|(_, items)| items)
                .filter(|s| s.entity.as_deref() == Some(entity))
                .collect();
            let fast: Vec<&StoredItem> = table.items_of(index, entity).collect();
            assert_eq!(fast.len(), slow.len(), "{entity} in {:?}", index.name);
            assert!(
                fast.iter().zip(&slow).all(|(a, b)| std::ptr::eq(*a, *b)),
                "{entity} in {:?}",
                index.name
            );
            compared += fast.len();
        }
    }
    // Every entry of every index but those of the item of no entity.
    let entries: usize = table.indexes().iter().map(IndexStore::len).sum();
    let of_none = table
        .indexes()
        .iter()
        .flat_map(|i| table.partitions(i))
        .flat_map(|(_, items)| items);
    assert_eq!(
        compared,
        entries - of_none.filter(|s| s.entity.is_none()).count()
    );
    assert_eq!(table.items_of(&table.indexes()[0], "Stranger").count(), 1);
}

// issue 13: the cost's entity sizes read each entry's projected size instead of projecting
// (copying) every item; both must give the same bytes for KEYS_ONLY, INCLUDE and ALL.
#[test]
fn an_entitys_projected_sizes_are_the_sizes_of_its_projected_items() {
    let store = store();
    let table = store.table("t").expect("the table");
    let mut compared = 0;
    for index in table.indexes() {
        let projected: Vec<usize> = table
            .items_of(index, "E")
            .map(|s| crate::cost::item_size(&table.project(index, &s.item)))
            .collect();
        let read: Vec<usize> = table.projected_sizes_of(index, "E").collect();
        assert_eq!(read, projected, "{:?}", index.name);
        compared += read.len();
    }
    assert!(compared > 10, "only {compared} sizes compared");
}

// issue 13: one query skips the merge (its page is already in order); the items must be those
// the merge gives, forwards and backwards, with and without a Limit.
#[test]
fn a_scatter_gather_of_one_query_returns_what_the_merge_of_it_returns() {
    let store = store();
    let mut compared = 0;
    for (index, g) in [(Some("byScore"), "g"), (Some("byBlob"), "g"), (None, "A")] {
        for forward in [true, false] {
            for limit in [None, Some(2)] {
                let key = if index.is_some() { "G" } else { "PK" };
                let mut one = query(index, (key, g));
                one.forward = forward;
                one.limit = limit;
                // A partition with no items: the merge runs, and adds nothing to the items.
                let mut empty = query(index, (key, "none"));
                empty.forward = forward;
                empty.limit = limit;
                let alone = store
                    .scatter_gather(&[one.clone()])
                    .expect("the query runs");
                let merged = store
                    .scatter_gather(&[one, empty])
                    .expect("the queries run");
                assert_eq!(alone.items, merged.items, "{index:?} {forward} {limit:?}");
                assert_eq!(alone.entities, merged.entities);
                assert_eq!(alone.bytes_read, merged.bytes_read);
                assert_eq!(alone.pages[0], merged.pages[0]);
                compared += alone.items.len();
            }
        }
    }
    assert!(compared > 10, "only {compared} items compared");
}

// issue 13: the cost estimate counts each read's items instead of copying them; the counts
// (and the refusals) must be what the queries themselves return, with a Limit, backwards,
// after a start key, and merged over shards.
#[test]
fn a_count_is_the_number_of_items_the_query_returns() {
    let store = store();
    let mut compared = 0;
    for (index, g) in [(Some("byScore"), "g"), (Some("byBlob"), "g"), (None, "A")] {
        let key = if index.is_some() { "G" } else { "PK" };
        for forward in [true, false] {
            for limit in [None, Some(1), Some(2), Some(0)] {
                let mut one = query(index, (key, g));
                one.forward = forward;
                one.limit = limit;
                let page = store.query(&one).map(|p| p.items.len());
                assert_eq!(store.count(&one), page, "{index:?} {forward} {limit:?}");
                if let Ok(Page {
                    last_evaluated_key: Some(start),
                    ..
                }) = store.query(&one)
                {
                    let mut after = one.clone();
                    after.exclusive_start_key = Some(start);
                    let page = store.query(&after).map(|p| p.items.len());
                    assert_eq!(store.count(&after), page, "after {index:?} {forward}");
                }
                let other = query(index, (key, "none"));
                let shards = [one.clone(), other, one];
                let merged = store.scatter_gather(&shards).map(|m| m.items.len());
                assert_eq!(store.count_scatter_gather(&shards), merged);
                compared += merged.unwrap_or_default();
            }
        }
    }
    assert!(compared > 10, "only {compared} items compared");
}

// issue 13: count_all is what the cost estimate reads in place of run_all; pattern for
// pattern, it must count the items run_all returns and refuse what run_all refuses.
#[test]
fn counting_every_pattern_gives_the_item_counts_of_running_them() {
    let mut designs = crate::examples::all();
    designs.push(("generated", crate::generated::design(30)));
    for (name, design) in designs {
        let store = ItemStore::build(
            &design,
            crate::sample::generate(&design, &Default::default()).into_load_items(),
        );
        let verdicts = crate::analysis::verdicts(&design);
        let runs: Vec<(String, Result<usize, PlanError>)> = run_all(&design, &store, &verdicts)
            .into_iter()
            .map(|(pattern, run)| (pattern, run.map(|r| r.result.items.len())))
            .collect();
        assert!(runs.iter().any(|(_, r)| r.is_ok()), "{name} runs nothing");
        assert_eq!(count_all(&design, &store, &verdicts), runs, "{name}");
    }
}

fn filtered(
    mut q: KeyQuery,
    attribute: &str,
    op: FilterOp,
    values: Vec<AttributeValue>,
) -> KeyQuery {
    q.filter.push(FilterTest {
        attribute: attribute.into(),
        op,
        values,
    });
    q
}

/// The page as [`show_page`] shows it, then how many items were read and returned.
fn check_filtered(query: KeyQuery, expect: Expect) {
    let actual = match store().query(&query) {
        Ok(page) => format!(
            "{}read {}, returned {}\n",
            show_page(&page, &["PK", "SK", "score", "name", "note"]),
            page.scanned,
            page.items.len()
        ),
        Err(e) => format!("error: {e}\n"),
    };
    expect.assert_eq(&actual);
}

// issue 16: a filter is applied after the key condition: the Limit counts the items read, so
// a page can come back empty with a LastEvaluatedKey, and the units are those of every item
// read.
#[test]
fn a_filter_drops_items_after_the_read_and_the_limit_counts_what_was_read() {
    let mut limited = filtered(query(None, ("PK", "A")), "name", FilterOp::Eq, vec![s("b")]);
    limited.limit = Some(2);
    check_filtered(
        limited,
        expect![[r#"
            LEK PK="A" SK="ORDER#10"
            60 B, 0.5 RCU
            read 2, returned 0
        "#]],
    );
    check_filtered(
        filtered(query(None, ("PK", "A")), "name", FilterOp::Eq, vec![s("b")]),
        expect![[r#"
            PK="A" SK="ORDER#2" score=10.0 name="b" note="y"
            no LEK
            141 B, 0.5 RCU
            read 5, returned 1
        "#]],
    );
    // A missing attribute meets only `<>` and attribute_not_exists.
    check_filtered(
        filtered(query(None, ("PK", "A")), "name", FilterOp::Ne, vec![s("b")]),
        expect![[r#"
            PK="A" SK="ORDER#1" score=-3 name="é"
            PK="A" SK="ORDER#10" score=9.5 name="a"
            PK="A" SK="Order#3" score=10 name="Z"
            PK="A" SK="PROFILE" score=100
            no LEK
            141 B, 0.5 RCU
            read 5, returned 4
        "#]],
    );
    check_filtered(
        filtered(
            query(None, ("PK", "A")),
            "note",
            FilterOp::NotExists,
            vec![],
        ),
        expect![[r#"
            PK="A" SK="ORDER#1" score=-3 name="é"
            PK="A" SK="ORDER#10" score=9.5 name="a"
            PK="A" SK="Order#3" score=10 name="Z"
            PK="A" SK="PROFILE" score=100
            no LEK
            141 B, 0.5 RCU
            read 5, returned 4
        "#]],
    );
    // Numbers compare exactly, whatever their spelling; a string never equals a number.
    check_filtered(
        filtered(
            filtered(
                query(None, ("PK", "A")),
                "score",
                FilterOp::Between,
                vec![n("9.5"), n("1e1")],
            ),
            "SK",
            FilterOp::BeginsWith,
            vec![s("ORDER#")],
        ),
        expect![[r#"
            PK="A" SK="ORDER#10" score=9.5 name="a"
            PK="A" SK="ORDER#2" score=10.0 name="b" note="y"
            no LEK
            141 B, 0.5 RCU
            read 5, returned 2
        "#]],
    );
    check_filtered(
        filtered(
            query(None, ("PK", "A")),
            "score",
            FilterOp::In,
            vec![s("10"), n("100.00")],
        ),
        expect![[r#"
            PK="A" SK="PROFILE" score=100
            no LEK
            141 B, 0.5 RCU
            read 5, returned 1
        "#]],
    );
}

#[test]
fn permute_puts_each_item_where_the_order_says_through_every_cycle() {
    // Cycles of one, two and three positions, and the whole list reversed.
    let orders: [&[usize]; 4] = [
        &[0, 1, 2, 3, 4],
        &[1, 0, 2, 3, 4],
        &[2, 0, 1, 4, 3],
        &[4, 3, 2, 1, 0],
    ];
    let shown: Vec<String> = orders
        .iter()
        .map(|order| {
            let mut items = vec!['a', 'b', 'c', 'd', 'e'];
            permute(&mut items, order.to_vec());
            items.into_iter().collect()
        })
        .collect();
    expect![[r#"["abcde", "bacde", "cabed", "edcba"]"#]].assert_eq(&format!("{shown:?}"));
}

// issue 43: a Query sorted in memory reads every page of its partition before it sorts. The
// best scorer here sits past the first 1 MB page; read from the first page alone, the sorted
// result missed it (the engine run, which reads every page, disagreed with core).
#[test]
fn a_query_sorted_in_memory_sorts_every_page_not_the_first() {
    let design = crate::coverage::testing::design(
        "
        table t PK SK
        entity E id score:N pad | PK=ALL SK=E#{id}
        read best E order score desc page 3
        ",
    );
    let pad = "x".repeat(50_000);
    // 30 items of ~50 KB: 1.5 MB in one partition, the highest scores first in key order, so
    // last for a descending read: past its first page.
    let loads: Vec<LoadItem> = (0..30)
        .map(|i| LoadItem {
            table: "t".into(),
            entity: Some("E".into()),
            item: [
                ("PK".to_string(), s("ALL")),
                ("SK".to_string(), s(&format!("E#{i:02}"))),
                ("id".to_string(), s(&format!("{i:02}"))),
                ("score".to_string(), n(&(100 - i).to_string())),
                ("pad".to_string(), s(&pad)),
            ]
            .into_iter()
            .collect(),
        })
        .collect();
    let store = ItemStore::build(&design, loads);
    let verdict = crate::coverage::verdicts(&design).remove(0);
    assert!(verdict.sorted_in_memory.is_some(), "{verdict:?}");
    let run = run_pattern(&design, &store, &verdict, Some(Default::default())).expect("runs");
    let scores: Vec<_> = run
        .result
        .items
        .iter()
        .map(|item| show_value(&item["score"]))
        .collect();
    assert_eq!(scores, ["100", "99", "98"]);
}
