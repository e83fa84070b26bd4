use expect_test::{Expect, expect};

use crate::eval::ItemStore;
use crate::model::{AutoScaling, Billing, Capacity, Scaling};
use crate::sample::{SampleConfig, generate};

use super::super::{CostConfig, CostReport, estimate};

/// A table `t` keyed by order, a GSI on the order's status, and a read and a write of each
/// kind: 500 reads a second of one item, 400 puts (each landing in GSI1 too), 300 reads
/// through GSI1, all at twice their average.
const ORDERS: &str = "table t PK SK
     gsi GSI1 status
     entity Order orderId status | PK=ORDER#{orderId} SK=ORDER
     volume Order 1000000
     read get_order Order by orderId rate 500 peak 2
     read by_status Order by status rate 300 peak 2
     put add_order Order rate 400 peak 2";

/// The report of `text` with its table billed as `billing`.
fn report(text: &str, billing: Billing) -> CostReport {
    let mut design = crate::coverage::testing::design(text);
    design.tables[0].billing = billing;
    let data = generate(&design, &SampleConfig::default());
    let store = ItemStore::build(&design, data.load_items());
    let analysis = crate::analyze(&design);
    estimate(&design, &analysis.verdicts, &store, &CostConfig::default())
}

/// The as-given row of the first table (Standard, Standard-IA and why), then the throttles.
fn check(text: &str, billing: Billing, expect: Expect) {
    let report = report(text, billing);
    let table = &report.billing[0];
    let given = crate::cost::Mode::ProvisionedAsGiven;
    let mut out = format!(
        "{}: {} / {}\n",
        given.label(),
        table.cell(given, crate::cost::TableClass::Standard),
        table.cell(given, crate::cost::TableClass::StandardInfrequentAccess),
    );
    for note in table.notes(given) {
        out.push_str(&format!("    {note}\n"));
    }
    out.push_str(&report.throttles_text());
    expect.assert_eq(&out);
}

fn capacity(read: u64, write: u64) -> Capacity {
    Capacity {
        read,
        write,
        auto_scaling: None,
    }
}

// issue 40 item 2: a provisioned table was priced only as keyplan would size it, never at the
// capacity the design gives it, and nothing said when that capacity was too little.
#[test]
fn a_provisioned_table_is_priced_as_given_and_its_gsi_throttles_the_writes() {
    let mut billing = Billing::provisioned(1_000, 1_000);
    if let Billing::Provisioned { indexes, .. } = &mut billing {
        indexes.insert("GSI1".into(), capacity(100, 200));
    }
    check(
        ORDERS,
        billing,
        expect![[r#"
            provisioned as given: $664.64 / $826.59
                1100 RCU and 1200 WCU as the design gives them (table 1000 RCU / 1000 WCU; GSI1 100 RCU / 200 WCU) for 720 h; 0.3 GB at $0.25/GB
            throttled at the peak (the capacity given):
                t/GSI1 reads: 150.0 units/s at the peak, 50.0 over the 100 RCU given (1.5x): `by_status` 150.0
                t/GSI1 writes: 400.0 units/s at the peak, 200.0 over the 200 WCU given (2.0x): `add_order` 400.0
        "#]],
    );
}

#[test]
fn an_on_demand_table_has_no_capacity_as_given_nor_throttles() {
    check(
        ORDERS,
        Billing::OnDemand,
        expect![[r#"
            provisioned as given: - / -
        "#]],
    );
}

// With auto scaling the capacity follows the average over its target within its bounds, and
// the peak is judged against its maximum: here the table's writes scale up to 300 of the 400
// a second the peak asks, and GSI1 (the table's settings, not its own) likewise.
#[test]
fn auto_scaled_capacity_is_billed_at_the_average_and_judged_against_its_maximum() {
    let scaling = |min, max| Scaling {
        min,
        max,
        target: Some(50.0),
    };
    let billing = Billing::Provisioned {
        read: 10,
        write: 10,
        auto_scaling: Some(AutoScaling {
            read: Some(scaling(5, 10_000)),
            write: Some(scaling(5, 300)),
        }),
        indexes: Default::default(),
    };
    check(
        ORDERS,
        billing,
        expect![[r#"
            provisioned as given: $318.32 / $396.03
                400 RCU and 600 WCU as the design gives them (table 250 RCU (auto-scaled 5 to 10000 at 50%) / 300 WCU (auto-scaled 5 to 300 at 50%); GSI1 150 RCU (auto-scaled 5 to 10000 at 50%) / 300 WCU (auto-scaled 5 to 300 at 50%)) for 720 h; 0.3 GB at $0.25/GB
            throttled at the peak (the capacity given):
                t writes: 400.0 units/s at the peak, 100.0 over auto scaling's most, 300 WCU (1.3x): `add_order` 400.0
                t/GSI1 writes: 400.0 units/s at the peak, 100.0 over auto scaling's most, 300 WCU (1.3x): `add_order` 400.0
        "#]],
    );
}

// A partition serves at most 1,000 write units a second whatever the table is given: the
// daily counter's one partition takes every put, over that limit though the table has room.
#[test]
fn a_hot_partition_of_a_provisioned_table_throttles_whatever_its_capacity() {
    check(
        "table t PK SK
         entity Counter day count | PK=COUNTER SK=DAY#{day}
         volume Counter 1000
         put bump Counter rate 1500",
        Billing::provisioned(10, 5_000),
        expect![[r#"
            provisioned as given: $2,340.94 / $2,917.15
                10 RCU and 5000 WCU as the design gives them (table 10 RCU / 5000 WCU) for 720 h; 0 GB at $0.25/GB
            throttled at the peak (the capacity given):
                t partition COUNTER writes: 1,500.0 units/s at the peak, 500.0 over one partition's 1,000 WCU (1.5x): `bump`
        "#]],
    );
}
