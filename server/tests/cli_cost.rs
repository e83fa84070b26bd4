//! `keyplan cost` shows every table's bill under every billing mode (issue 16 item 5): as
//! text, Markdown and JSON, for the Region asked, with prices overridden one by one; a Region
//! keyplan has no prices for and a target utilisation out of range are refused, saying why.
#![allow(clippy::unwrap_used)]

mod cli_support;

use expect_test::expect;

/// The variables that would choose the Region and prices.
const PRICING: [&str; 4] = [
    "KEYPLAN_REGION",
    "KEYPLAN_PRICE_WRITE",
    "KEYPLAN_PRICE_READ",
    "KEYPLAN_PRICE_STORAGE",
];

/// `keyplan ARGS`, which must exit 0: its stdout.
fn succeeds(args: &[&str]) -> String {
    cli_support::succeeds(&PRICING, args)
}

const EXAMPLE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../examples/saas-multi-tenant.keyplan.json"
);

#[test]
fn the_markdown_report_puts_every_billing_mode_side_by_side_at_the_regions_prices() {
    let text = succeeds(&["cost", EXAMPLE, "--markdown", "--region", "eu-west-1"]);
    // The headings, and each mode's row without its explanation.
    let heads: Vec<String> = text
        .lines()
        .filter(|l| {
            l.starts_with('#') || l.starts_with("| on-demand") || l.starts_with("| provisioned")
        })
        .map(|l| l.split(" | ").take(3).collect::<Vec<_>>().join(" | "))
        .collect();
    expect![[r####"
        [
            "## Monthly cost (eu-west-1, 30-day month)",
            "### billing modes, table saas (the design's: on-demand; eu-west-1)",
            "| on-demand | $340.13 | $425.21",
            "| provisioned, auto scaling | $140.56 | $175.91",
            "| provisioned at peak | $140.56 | $175.91",
            "| provisioned, 1-year reserved | $77.38 | -",
            "| provisioned, 3-year reserved | - | -",
            "### Access patterns (on-demand, Standard)",
        ]
    "####]]
    .assert_debug_eq(&heads);
}

#[test]
fn the_json_report_has_each_table_under_five_modes_and_two_classes() {
    let text = succeeds(&["cost", EXAMPLE, "--json", "--price-write", "1.25"]);
    let report: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(report["prices"]["region"], "us-east-1");
    assert_eq!(
        report["prices"]["standard"]["per_million_write_units"],
        1.25
    );
    for table in report["billing"].as_array().unwrap() {
        let modes = table["modes"].as_array().unwrap();
        assert_eq!(modes.len(), 10, "{table}");
        assert!(modes.iter().any(|m| m["mode"] == "reserved_three_year"
            && m["class"] == "standard_infrequent_access"
            && m["monthly"].is_null()));
    }
}

#[test]
fn an_unknown_region_and_a_target_out_of_range_are_refused() {
    cli_support::fails(
        &PRICING,
        &["cost", EXAMPLE, "--region", "mars-1"],
        1,
        "no prices for Region `mars-1`: keyplan knows us-east-1, us-east-2, us-west-2, eu-west-1",
    );
    cli_support::fails(
        &PRICING,
        &["cost", EXAMPLE, "--target-utilization", "1.5"],
        2,
        "`1.5` is not a target utilisation",
    );
}
