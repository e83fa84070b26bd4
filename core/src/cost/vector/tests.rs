use expect_test::expect;

use crate::cost::{CostConfig, estimate};
use crate::coverage::testing::design;
use crate::eval::ItemStore;
use crate::sample::{SampleConfig, generate};

/// The vector lines and the patterns' lines of the report of `text`, with `items` products.
fn report(text: &str, items: u64) -> String {
    let mut d = design(text);
    if let Some(p) = d.entities.iter_mut().find(|e| e.name == "Product") {
        p.volume = Some(crate::model::Volume::items(items));
    }
    let store = ItemStore::build(&d, generate(&d, &SampleConfig::default()).load_items());
    let analysis = crate::analyze(&d);
    let report = estimate(&d, &analysis.verdicts, &store, &CostConfig::default());
    let mut out = report.patterns_text();
    for line in report.vector_lines() {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

// issue 40: a vector index's storage, writes and searches are counted and said not priced, and
// an item's vector (a list of 1,536 numbers) is billed at 4 bytes a dimension: 7 write units a
// put (10 when sized by its numbers, as before the billed size).
#[test]
fn a_vector_index_counts_its_vectors_writes_and_searches_and_prices_none() {
    expect![[r#"
        pattern                              operation            peak/s    avg/s  RCU/req  WCU/req      $/month
        similar                              SearchVectors            20       20        0        0   not priced
            SearchVectors: metered in vector search bytes, not read units (not priced: no published price)
        add                                  PutItem                   2        2        0        7        22.68
            put Product in products: 7
            vector index ByEmbedding: at least 6144 B of vector write bytes a request (not priced: no published price)
        vector indexes (not priced: no published price; not in the totals; vectors alone, projections not counted):
            products/ByEmbedding                1000000 items     5.7 GB of vectors (6144 B each), 29.7 GB of vector writes and 51,840,000 searches a month
    "#]]
    .assert_eq(&report(
        "
        table products PK SK
        vector ByEmbedding embedding 1536 COSINE
        entity Product productId embedding:L | PK=PRODUCT#{productId} SK=PRODUCT
        near similar Product embedding 10 rate 20
        put add Product rate 2
        ",
        1_000_000,
    ));
}

// issue 40: vector indexes need an on-demand table, so no provisioned or reserved mode is
// offered for one (the report's `-`, with why).
#[test]
fn a_table_with_a_vector_index_is_offered_on_demand_alone() {
    let d = design(
        "
        table products PK SK
        vector ByEmbedding embedding 8
        entity Product productId embedding:L | PK=PRODUCT#{productId} SK=PRODUCT
        put add Product rate 2
        ",
    );
    let store = ItemStore::build(&d, generate(&d, &SampleConfig::default()).load_items());
    let analysis = crate::analyze(&d);
    let report = estimate(&d, &analysis.verdicts, &store, &CostConfig::default());
    let offered: Vec<String> = report.billing[0]
        .modes
        .iter()
        .filter(|m| m.class == crate::cost::TableClass::Standard)
        .map(|m| format!("{}: {}", m.mode.label(), m.monthly.is_some()))
        .collect();
    expect![[r#"
        on-demand: true
        provisioned, auto scaling: false
        provisioned at peak: false
        provisioned, 1-year reserved: false
        provisioned, 3-year reserved: false"#]]
    .assert_eq(&offered.join("\n"));
}
