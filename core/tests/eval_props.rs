//! Property tests of the evaluator: for random tables, items and key conditions, a Query
//! returns exactly what a brute-force filter and sort over all the items returns, and reading
//! it page by page (Limit + ExclusiveStartKey) returns the same items as reading it at once.
//! The reference ordering here is written independently of the evaluator: numbers are kept as
//! integers of hundredths and printed in several textual forms (`1.5`, `1.50`, `15E-1`).
//! With a filter (issue 16) on a non-key attribute, the pages hold only the items that meet
//! it while the Limit counts the items read, and together they are the filtered brute force.

use std::cmp::Ordering;

use base64::Engine as _;
use keyplan_core::eval::{FilterTest, ItemStore, KeyQuery, LoadItem, SortTest};
use keyplan_core::model::{
    Design, FilterOp, Gsi, KeyAttribute, KeyType, Projection, SortOp, Table,
};
use keyplan_core::sample::{SampleConfig, generate};
use keyplan_core::{AttributeValue, Item};
use proptest::prelude::*;

/// A key value with its reference order.
#[derive(Debug, Clone)]
enum Value {
    S(String),
    /// Hundredths, and the text it is written as.
    N(i64, String),
    B(Vec<u8>),
}

impl Value {
    fn reference_cmp(&self, other: &Value) -> Ordering {
        match (self, other) {
            (Value::S(a), Value::S(b)) => a.as_bytes().cmp(b.as_bytes()),
            (Value::N(a, _), Value::N(b, _)) => a.cmp(b),
            (Value::B(a), Value::B(b)) => a.cmp(b),
            _ => Ordering::Equal,
        }
    }

    fn starts_with(&self, prefix: &Value) -> bool {
        match (self, prefix) {
            (Value::S(a), Value::S(b)) => a.as_bytes().starts_with(b.as_bytes()),
            (Value::B(a), Value::B(b)) => a.starts_with(b),
            _ => false,
        }
    }

    fn attribute(&self) -> AttributeValue {
        match self {
            Value::S(s) => AttributeValue::S(s.clone()),
            Value::N(_, text) => AttributeValue::N(text.clone()),
            Value::B(b) => AttributeValue::B(base64::engine::general_purpose::STANDARD.encode(b)),
        }
    }
}

fn number_text(hundredths: i64, form: u8) -> String {
    let sign = if hundredths < 0 { "-" } else { "" };
    let a = hundredths.unsigned_abs();
    match form % 3 {
        0 => format!("{sign}{}.{:02}", a / 100, a % 100),
        1 => format!("{sign}{a}E-2"),
        _ => {
            let plain = format!("{}.{:02}", a / 100, a % 100);
            let t = plain.trim_end_matches('0').trim_end_matches('.');
            format!("{sign}{t}")
        }
    }
}

fn value(ty: KeyType) -> BoxedStrategy<Value> {
    match ty {
        KeyType::S => proptest::collection::vec(
            prop_oneof![
                Just('a'),
                Just('b'),
                Just('A'),
                Just('#'),
                Just('é'),
                Just('~')
            ],
            1..4,
        )
        .prop_map(|cs| Value::S(cs.into_iter().collect()))
        .boxed(),
        KeyType::N => (-300i64..300, 0u8..3)
            .prop_map(|(h, f)| Value::N(h, number_text(h, f)))
            .boxed(),
        KeyType::B => proptest::collection::vec(
            prop_oneof![Just(0u8), Just(1), Just(127), Just(128), Just(255)],
            1..3,
        )
        .prop_map(Value::B)
        .boxed(),
    }
}

fn key_type() -> impl Strategy<Value = KeyType> {
    prop_oneof![Just(KeyType::S), Just(KeyType::N), Just(KeyType::B)]
}

/// A row: table partition key, sort key, and the GSI's keys if the item is in it.
type Row = (Value, Option<Value>, Option<(Value, Value)>);

#[derive(Debug, Clone)]
struct Case {
    pk: KeyType,
    sk: Option<KeyType>,
    gpk: KeyType,
    gsk: KeyType,
    /// (pk, sk, gsi pk and sk if the item is in the GSI)
    rows: Vec<Row>,
    use_gsi: bool,
    /// Which row's partition to query.
    anchor: usize,
    op: Option<SortOp>,
    /// Which rows' sort values the condition uses.
    operands: (usize, usize),
    forward: bool,
    limit: u32,
    /// A filter `F <> k` on the item's non-key attribute `F` (see [`f_of`]).
    filter: Option<i64>,
}

fn case() -> impl Strategy<Value = Case> {
    (
        key_type(),
        proptest::option::of(key_type()),
        key_type(),
        key_type(),
    )
        .prop_flat_map(|(pk, sk, gpk, gsk)| {
            let pk_values = proptest::collection::vec(value(pk), 1..3);
            let gpk_values = proptest::collection::vec(value(gpk), 1..3);
            let row = (
                any::<prop::sample::Index>(),
                match sk {
                    Some(t) => proptest::option::of(value(t)).prop_map(|v| v).boxed(),
                    None => Just(None).boxed(),
                },
                any::<prop::sample::Index>(),
                value(gsk),
                any::<bool>(),
            );
            (
                Just((pk, sk, gpk, gsk)),
                pk_values,
                gpk_values,
                proptest::collection::vec(row, 0..24),
                any::<bool>(),
                any::<prop::sample::Index>(),
                proptest::option::of(prop_oneof![
                    Just(SortOp::Eq),
                    Just(SortOp::Lt),
                    Just(SortOp::Le),
                    Just(SortOp::Gt),
                    Just(SortOp::Ge),
                    Just(SortOp::Between),
                    Just(SortOp::BeginsWith),
                ]),
                (any::<prop::sample::Index>(), any::<prop::sample::Index>()),
                any::<bool>(),
                1u32..6,
                proptest::option::of(0i64..3),
            )
        })
        .prop_map(
            |(
                (pk, sk, gpk, gsk),
                pks,
                gpks,
                rows,
                use_gsi,
                anchor,
                op,
                (a, b),
                forward,
                limit,
                filter,
            )| {
                let rows: Vec<Row> = rows
                    .into_iter()
                    .filter(|(_, s, _, _, _)| sk.is_none() || s.is_some())
                    .map(|(p, s, g, gs, in_gsi)| {
                        (
                            pks[p.index(pks.len())].clone(),
                            s,
                            in_gsi.then(|| (gpks[g.index(gpks.len())].clone(), gs)),
                        )
                    })
                    .collect();
                let n = rows.len().max(1);
                Case {
                    pk,
                    sk,
                    gpk,
                    gsk,
                    rows,
                    use_gsi,
                    anchor: anchor.index(n),
                    op,
                    operands: (a.index(n), b.index(n)),
                    forward,
                    limit,
                    filter,
                }
            },
        )
}

fn design(case: &Case) -> Design {
    let mut design = Design::new("props");
    design.tables.push(Table {
        name: "t".into(),
        partition_key: KeyAttribute::new("PK", case.pk),
        sort_key: case.sk.map(|t| KeyAttribute::new("SK", t)),
        gsis: vec![Gsi {
            name: "G".into(),
            partition_key: vec![KeyAttribute::new("GPK", case.gpk)],
            sort_key: vec![KeyAttribute::new("GSK", case.gsk)],
            projection: Projection::KeysOnly,
        }],
        lsis: vec![],
        billing: Default::default(),
        ttl_attribute: None,
        replicas: Vec::new(),
        vector_indexes: Vec::new(),
    });
    design
}

fn same_key(a: &Row, b: &Row) -> bool {
    a.0.reference_cmp(&b.0) == Ordering::Equal
        && match (&a.1, &b.1) {
            (Some(x), Some(y)) => x.reference_cmp(y) == Ordering::Equal,
            (None, None) => true,
            _ => false,
        }
}

/// The surviving rows: a later row with the same primary key replaces an earlier one.
fn survivors(rows: &[Row]) -> Vec<Row> {
    let mut out: Vec<Row> = Vec::new();
    for row in rows {
        match out.iter().position(|r| same_key(r, row)) {
            Some(at) => out[at] = row.clone(),
            None => out.push(row.clone()),
        }
    }
    out
}

fn item(row: &Row) -> Item {
    let mut item = Item::new();
    item.insert("PK".into(), row.0.attribute());
    if let Some(s) = &row.1 {
        item.insert("SK".into(), s.attribute());
    }
    if let Some((g, gs)) = &row.2 {
        item.insert("GPK".into(), g.attribute());
        item.insert("GSK".into(), gs.attribute());
    }
    item
}

/// The non-key attribute `F` of a row's item: 0, 1 or 2, from its keys' text, so that a row
/// replacing another carries its own.
fn f_of(row: &Row) -> i64 {
    (identity(&item(row)).len() % 3) as i64
}

/// The item as loaded: its keys and `F` (in the GSI too, as KEYS_ONLY leaves it out there).
fn loaded(row: &Row) -> Item {
    let mut item = item(row);
    item.insert("F".into(), AttributeValue::N(f_of(row).to_string()));
    item
}

fn identity(item: &Item) -> String {
    format!("{:?}/{:?}", item.get("PK"), item.get("SK"))
}

fn cmp_opt(a: &Option<Value>, b: &Option<Value>) -> Ordering {
    match (a, b) {
        (Some(x), Some(y)) => x.reference_cmp(y),
        _ => Ordering::Equal,
    }
}

/// (partition, sort) of a row in the index queried, if it is in it.
fn index_key(case: &Case, row: &Row) -> Option<(Value, Option<Value>)> {
    if case.use_gsi {
        row.2.clone().map(|(g, s)| (g, Some(s)))
    } else {
        Some((row.0.clone(), row.1.clone()))
    }
}

fn matches(op: SortOp, v: &Value, a: &Value, b: &Value) -> bool {
    let c = v.reference_cmp(a);
    match op {
        SortOp::Eq => c == Ordering::Equal,
        SortOp::Lt => c == Ordering::Less,
        SortOp::Le => c != Ordering::Greater,
        SortOp::Gt => c == Ordering::Greater,
        SortOp::Ge => c != Ordering::Less,
        SortOp::Between => c != Ordering::Less && v.reference_cmp(b) != Ordering::Greater,
        SortOp::BeginsWith => v.starts_with(a),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn a_query_returns_what_a_brute_force_filter_and_sort_returns(case in case()) {
        let design = design(&case);
        let rows = survivors(&case.rows);
        let store = ItemStore::build(
            &design,
            case.rows.iter().map(|r| LoadItem { table: "t".into(), entity: None, item: loaded(r) }),
        );
        prop_assert!(store.rejected.is_empty(), "{:?}", store.rejected);
        let keyed: Vec<(&Row, (Value, Option<Value>))> =
            rows.iter().filter_map(|r| index_key(&case, r).map(|k| (r, k))).collect();
        let Some((_, (partition, _))) = keyed.get(case.anchor % keyed.len().max(1)).cloned() else {
            return Ok(());
        };
        let sort_type = if case.use_gsi { Some(case.gsk) } else { case.sk };
        let mut query = KeyQuery::new(
            "t",
            case.use_gsi.then_some("G"),
            vec![(if case.use_gsi { "GPK" } else { "PK" }.to_string(), partition.attribute())],
        );
        query.forward = case.forward;
        // The condition's operands are sort values of existing rows, so they hit.
        let operand = |i: usize| keyed.get(i % keyed.len()).and_then(|(_, (_, s))| s.clone());
        let condition = match (case.op, sort_type, operand(case.operands.0), operand(case.operands.1)) {
            (Some(SortOp::BeginsWith), Some(KeyType::N), _, _) => None,
            (Some(op), Some(_), Some(a), Some(b)) => {
                let (a, b) = if a.reference_cmp(&b) == Ordering::Greater { (b, a) } else { (a, b) };
                // A prefix: the first character or byte of the operand.
                let a = match (op, a) {
                    (SortOp::BeginsWith, Value::S(s)) => Value::S(s.chars().take(1).collect()),
                    (SortOp::BeginsWith, Value::B(v)) => Value::B(v[..1].to_vec()),
                    (_, a) => a,
                };
                Some((op, a, b))
            }
            _ => None,
        };
        if let Some((op, a, b)) = &condition {
            let values = if *op == SortOp::Between { vec![a.attribute(), b.attribute()] } else { vec![a.attribute()] };
            query.sort_condition = Some(SortTest {
                attribute: if case.use_gsi { "GSK" } else { "SK" }.to_string(),
                op: *op,
                values,
            });
        }

        // The filter `F <> k`. The GSI projects KEYS_ONLY, so `F` is missing there and every
        // item meets `<>`, as in DynamoDB.
        if let Some(k) = case.filter {
            query.filter.push(FilterTest {
                attribute: "F".into(),
                op: FilterOp::Ne,
                values: vec![AttributeValue::N(k.to_string())],
            });
        }
        let kept = |row: &Row| case.use_gsi || case.filter.is_none_or(|k| f_of(row) != k);

        // The brute force: filter every row, then sort by the index key and the table key.
        let mut expected: Vec<(&Row, (Value, Option<Value>))> = keyed
            .iter()
            .filter(|(_, (p, _))| p.reference_cmp(&partition) == Ordering::Equal)
            .filter(|(_, (_, s))| match (&condition, s) {
                (Some((op, a, b)), Some(v)) => matches(*op, v, a, b),
                _ => true,
            })
            .cloned()
            .collect();
        expected.sort_by(|(ra, (_, sa)), (rb, (_, sb))| {
            cmp_opt(sa, sb)
                .then_with(|| ra.0.reference_cmp(&rb.0))
                .then_with(|| cmp_opt(&ra.1, &rb.1))
        });
        if !case.forward {
            expected.reverse();
        }
        let read = expected.len();
        let expected: Vec<String> =
            expected.iter().filter(|(r, _)| kept(r)).map(|(r, _)| identity(&item(r))).collect();

        let all = store.query(&query).expect("the query is valid");
        let got: Vec<String> = all.items.iter().map(identity).collect();
        prop_assert_eq!(&got, &expected);
        prop_assert_eq!(all.scanned, read);
        prop_assert!(all.last_evaluated_key.is_none());

        // Page by page: the concatenated pages are the unpaged result.
        let mut paged = Vec::new();
        query.limit = Some(case.limit);
        for _ in 0..100 {
            let page = store.query(&query).expect("a page is valid");
            // The Limit counts the items read; the filter returns some of them.
            prop_assert!(page.scanned <= case.limit as usize);
            prop_assert!(page.items.len() <= page.scanned);
            paged.extend(page.items.iter().map(identity));
            match page.last_evaluated_key {
                Some(key) => query.exclusive_start_key = Some(key),
                None => break,
            }
        }
        prop_assert_eq!(paged, expected);
    }

}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn generation_is_deterministic_per_seed(seed in any::<u64>(), orders in 0u32..40) {
        let design = keyplan_core::file::parse(include_str!("../../examples/order-management.keyplan.json"))
            .expect("the example parses");
        let config = SampleConfig { seed, counts: [("Order".to_string(), orders)].into() };
        let a = generate(&design, &config);
        let b = generate(&design, &config);
        prop_assert_eq!(&a, &b);
        let store = ItemStore::build(&design, a.load_items());
        prop_assert!(store.rejected.is_empty(), "{:?}", store.rejected);
        prop_assert_eq!(a.count("Order"), orders as usize);
    }
}
