//! DynamoDB's prices, per AWS Region, each with its source and the date it is from: the one
//! place a price is written (change a number here only). Nothing else in core states a price.
//!
//! Sources (read through keyplan's search of stored public pages, 2 December 2026):
//! - on-demand, Standard: <https://aws.amazon.com/dynamodb/pricing/on-demand/>, prices since
//!   1 November 2024, when AWS halved on-demand throughput prices (the announcement "Amazon
//!   DynamoDB reduces prices for on-demand throughput by 50% and global tables by up to 67%",
//!   14 November 2024; quoted for us-east-1 by airbyte.com's "DynamoDB pricing", July 2025):
//!   $0.625 per million write request units, $0.125 per million read request units;
//! - provisioned and reserved capacity: <https://aws.amazon.com/dynamodb/pricing/provisioned/>
//!   (unchanged by the November 2024 cut): $0.00065 per WCU-hour, $0.00013 per RCU-hour;
//!   reserved capacity in blocks of 100 units, partial upfront, Standard table class only, not
//!   for replicated writes ("Reserved capacity", <https://aws.amazon.com/dynamodb/reserved-capacity/>);
//!   1-year and 3-year discounts of about 54% and 77% (docs.archera.ai's DynamoDB brief, March
//!   2026), which the upfront and hourly figures below reproduce;
//! - storage: $0.25 per GB-month Standard, $0.10 Standard-IA (the same pages);
//! - global tables: "Replicated write units (rWCUs and rWRUs) are priced the same as
//!   single-Region write units" since November 2024, charged in every Region the item is
//!   written to, GSI writes as local writes (the developer guide's "Understanding Amazon
//!   DynamoDB billing for global tables"); cross-Region data transfer is not counted here;
//! - Standard-IA throughput: 25% above Standard (provisioned $0.00081 per WCU-hour and
//!   $0.00016 per RCU-hour on the provisioned page; on-demand derived as 1.25 x the Standard
//!   price after the cut, NOT read from the page in this session).
//!
//! - vector indexes (issue 40), searched 5 December 2026: NOT PRICED. The developer guide meters
//!   them in two units apart from read and write units, vector search bytes
//!   (`VectorSearchRequestBytes`) and vector write bytes (`VectorWriteRequestBytes`), and stores
//!   an index's vectors as 32-bit floats plus its projection
//!   (<https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/VectorSearchMonitoring.html>,
//!   <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/VectorSearchStorage.html>),
//!   and for the prices points to <https://aws.amazon.com/dynamodb/pricing/>, whose stored copies
//!   hold no vector price: no figure is written here, and the cost report says
//!   [`VECTOR_NOT_PRICED`] where one would be, never $0.
//!
//! Regions other than us-east-1 are list prices remembered from the same pages and marked
//! `verified: false`; us-east-2 and us-west-2 price DynamoDB like us-east-1. The free tier (25
//! GB, 25 WCU and 25 RCU provisioned) is not deducted.

use serde::{Deserialize, Serialize};

/// What the cost report says for a vector index's storage, writes and searches: AWS's price
/// of them was not found published (see this module's sources).
pub const VECTOR_NOT_PRICED: &str = "not priced: no published price";

/// The prices of one table class in one Region, in US dollars.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ClassPrices {
    /// On-demand, per million write request units (replicated writes cost the same).
    pub per_million_write_units: f64,
    /// On-demand, per million read request units.
    pub per_million_read_units: f64,
    /// Storage, per GB-month.
    pub per_gb_month: f64,
    /// Provisioned, per write capacity unit and hour (replicated ones cost the same).
    pub per_wcu_hour: f64,
    /// Provisioned, per read capacity unit and hour.
    pub per_rcu_hour: f64,
}

/// Reserved capacity for one term, per block of 100 units, partial upfront.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ReservedPrices {
    pub months: u32,
    pub wcu_upfront: f64,
    pub wcu_hourly: f64,
    pub rcu_upfront: f64,
    pub rcu_hourly: f64,
}

/// Every price keyplan uses, for one Region.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Prices {
    /// The Region's code: `us-east-1`.
    pub region: String,
    /// Whether these figures were checked against their source in this build's sources.
    pub verified: bool,
    pub standard: ClassPrices,
    pub standard_ia: ClassPrices,
    /// `None` where the term is not offered.
    pub reserved_one_year: Option<ReservedPrices>,
    pub reserved_three_year: Option<ReservedPrices>,
}

/// us-east-1, Standard: the defaults of every estimate.
const US_EAST_1_STANDARD: ClassPrices = ClassPrices {
    per_million_write_units: 0.625,
    per_million_read_units: 0.125,
    per_gb_month: 0.25,
    per_wcu_hour: 0.00065,
    per_rcu_hour: 0.00013,
};

const US_EAST_1_STANDARD_IA: ClassPrices = ClassPrices {
    per_million_write_units: 0.78125,
    per_million_read_units: 0.15625,
    per_gb_month: 0.10,
    per_wcu_hour: 0.00081,
    per_rcu_hour: 0.00016,
};

const US_EAST_1_ONE_YEAR: ReservedPrices = ReservedPrices {
    months: 12,
    wcu_upfront: 150.0,
    wcu_hourly: 0.0128,
    rcu_upfront: 30.0,
    rcu_hourly: 0.0025,
};

const US_EAST_1_THREE_YEAR: ReservedPrices = ReservedPrices {
    months: 36,
    wcu_upfront: 180.0,
    wcu_hourly: 0.0081,
    rcu_upfront: 36.0,
    rcu_hourly: 0.0016,
};

/// The Regions keyplan knows prices for: code, whether verified, Standard, Standard-IA,
/// 1-year and 3-year reserved.
type RegionRow = (
    &'static str,
    bool,
    ClassPrices,
    ClassPrices,
    Option<ReservedPrices>,
    Option<ReservedPrices>,
);

const REGIONS: [RegionRow; 4] = [
    (
        "us-east-1",
        true,
        US_EAST_1_STANDARD,
        US_EAST_1_STANDARD_IA,
        Some(US_EAST_1_ONE_YEAR),
        Some(US_EAST_1_THREE_YEAR),
    ),
    (
        "us-east-2",
        false,
        US_EAST_1_STANDARD,
        US_EAST_1_STANDARD_IA,
        Some(US_EAST_1_ONE_YEAR),
        Some(US_EAST_1_THREE_YEAR),
    ),
    (
        "us-west-2",
        false,
        US_EAST_1_STANDARD,
        US_EAST_1_STANDARD_IA,
        Some(US_EAST_1_ONE_YEAR),
        Some(US_EAST_1_THREE_YEAR),
    ),
    (
        // Europe (Ireland): about 13% above us-east-1 (on-demand halved in November 2024 like
        // every Region's); three-year reserved capacity is offered in few Regions.
        "eu-west-1",
        false,
        ClassPrices {
            per_million_write_units: 0.7065,
            per_million_read_units: 0.1415,
            per_gb_month: 0.283,
            per_wcu_hour: 0.000735,
            per_rcu_hour: 0.000147,
        },
        ClassPrices {
            per_million_write_units: 0.8831,
            per_million_read_units: 0.1769,
            per_gb_month: 0.1132,
            per_wcu_hour: 0.000919,
            per_rcu_hour: 0.000184,
        },
        Some(ReservedPrices {
            months: 12,
            wcu_upfront: 169.5,
            wcu_hourly: 0.0145,
            rcu_upfront: 33.9,
            rcu_hourly: 0.0028,
        }),
        None,
    ),
];

/// The Region every estimate defaults to.
pub const DEFAULT_REGION: &str = "us-east-1";

impl Prices {
    /// The prices of `region`, if keyplan knows them.
    pub fn region(region: &str) -> Option<Prices> {
        REGIONS
            .iter()
            .find(|(code, ..)| *code == region)
            .map(Prices::of_row)
    }

    fn of_row(&(code, verified, standard, standard_ia, one, three): &RegionRow) -> Prices {
        Prices {
            region: code.to_string(),
            verified,
            standard,
            standard_ia,
            reserved_one_year: one,
            reserved_three_year: three,
        }
    }

    /// The Regions [`Prices::region`] knows, in order.
    pub fn regions() -> impl Iterator<Item = &'static str> {
        REGIONS.iter().map(|(code, ..)| *code)
    }

    /// The prices of `region`, or an error naming the Regions keyplan knows.
    pub fn for_region(region: &str) -> Result<Prices, String> {
        Prices::region(region).ok_or_else(|| {
            let known: Vec<&str> = Prices::regions().collect();
            format!(
                "no prices for Region `{region}`: keyplan knows {} (give other prices with the price options)",
                known.join(", ")
            )
        })
    }
}

impl Default for Prices {
    /// us-east-1's ([`DEFAULT_REGION`], the first row).
    fn default() -> Prices {
        Prices::of_row(&REGIONS[0])
    }
}

/// A dollar amount as every report and view shows one: `decimals` places, thousands grouped
/// with commas (`$32,344.00`), so a large bill reads at a glance. A value that is not finite
/// is shown as Rust prints it, after the `$`.
pub fn dollars(x: f64, decimals: usize) -> String {
    let shown = grouped(x, decimals);
    match shown.strip_prefix('-') {
        Some(amount) => format!("-${amount}"),
        None => format!("${shown}"),
    }
}

/// A cost in dollars and cents ([`dollars`] to two places), where an amount too small to show
/// a cent is said to be under one rather than shown as `$0.00`: a migration of a few thousand
/// items costs a fraction of a cent, and nothing is not what it costs.
pub fn cents(x: f64) -> String {
    if x > 0.0 && x < 0.005 {
        "under $0.01".to_string()
    } else {
        dollars(x, 2)
    }
}

/// `x` to `decimals` places with its thousands grouped by commas (`32,344.00`), for a column
/// whose heading names the unit (`$/month`).
pub fn grouped(x: f64, decimals: usize) -> String {
    let text = format!("{:.*}", decimals, x.abs());
    if !x.is_finite() {
        return text;
    }
    let (whole, fraction) = text.split_at(text.find('.').unwrap_or(text.len()));
    let mut out = String::with_capacity(text.len() + whole.len() / 3 + 1);
    // `-0.00` is not a debt: the sign is kept only for what still shows as non-zero.
    if x < 0.0 && text.bytes().any(|b| matches!(b, b'1'..=b'9')) {
        out.push('-');
    }
    for (i, digit) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(digit);
    }
    out.push_str(fraction);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dollars_group_thousands_after_rounding() {
        for (x, decimals, shown) in [
            (0.0, 2, "$0.00"),
            (7.5, 2, "$7.50"),
            (999.995, 2, "$1,000.00"),
            (32_344.0, 2, "$32,344.00"),
            (32_344.4, 0, "$32,344"),
            (1_234_567.891, 2, "$1,234,567.89"),
            (100.0, 0, "$100"),
            (123_456.0, 0, "$123,456"),
            (-1_500.0, 2, "-$1,500.00"),
            (-0.001, 2, "$0.00"),
            (0.00012, 4, "$0.0001"),
            (f64::INFINITY, 2, "$inf"),
        ] {
            assert_eq!(dollars(x, decimals), shown, "{x} to {decimals} places");
            assert_eq!(
                format!("${}", grouped(x, decimals)),
                shown.replacen("-$", "$-", 1),
                "{x} to {decimals} places"
            );
        }
    }

    // issue 43 item 5: the Migrate tab showed `$0.0004`, and `$32344.0000` for a large one.
    #[test]
    fn cents_are_two_places_grouped_and_under_a_cent_says_so() {
        for (x, shown) in [
            (0.0, "$0.00"),
            (0.0004, "under $0.01"),
            (0.004_99, "under $0.01"),
            (0.005, "$0.01"),
            (4.545_8, "$4.55"),
            (32_344.0, "$32,344.00"),
        ] {
            assert_eq!(cents(x), shown, "{x}");
        }
    }

    // The 1- and 3-year figures reproduce AWS's stated discounts of about 54% and 77% over
    // standard provisioned capacity (100 units for a year: 8,760 hours).
    #[test]
    fn reserved_capacity_saves_what_aws_says_it_saves() {
        let prices = Prices::default();
        let hours_a_year = 8_760.0;
        let standard_wcu = 100.0 * prices.standard.per_wcu_hour * hours_a_year;
        for (reserved, saving) in [
            (prices.reserved_one_year, 0.54),
            (prices.reserved_three_year, 0.77),
        ] {
            let reserved = reserved.expect("us-east-1 offers both terms");
            let years = f64::from(reserved.months) / 12.0;
            let paid = reserved.wcu_upfront + reserved.wcu_hourly * hours_a_year * years;
            let saved = 1.0 - paid / (standard_wcu * years);
            assert!((saved - saving).abs() < 0.01, "{saved} against {saving}");
        }
    }

    #[test]
    fn an_unknown_region_is_refused_with_the_known_ones() {
        assert_eq!(
            Prices::for_region("mars-1"),
            Err("no prices for Region `mars-1`: keyplan knows us-east-1, us-east-2, us-west-2, eu-west-1 (give other prices with the price options)".to_string())
        );
        assert_eq!(Prices::for_region("us-east-1"), Ok(Prices::default()));
    }
}
