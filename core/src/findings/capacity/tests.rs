use expect_test::expect;

use crate::coverage::testing::design;
use crate::model::Design;

/// Each KP014 of `d` with its fix's label, and the shards the cost report asks for each hot
/// partition.
fn hot(d: &Design) -> String {
    let analysis = crate::analysis::analyze(d);
    let mut out: String = analysis
        .findings
        .iter()
        .filter(|f| f.code == "KP014")
        .map(|f| {
            let fix = f.fix.as_ref().map(|fix| fix.label()).unwrap_or_default();
            format!("{}: {fix}\n", f.place)
        })
        .collect();
    let report = crate::cost::estimate_sampled(d, &Default::default(), &Default::default());
    for load in report.partitions.iter().filter(|l| l.hot) {
        out.push_str(&format!(
            "cost: {} needs {}\n",
            load.template, load.shards_needed
        ));
    }
    out
}

/// `d` after applying every KP014 fix.
fn fixed(d: &Design) -> Design {
    let mut after = d.clone();
    for finding in crate::analysis::analyze(d).findings {
        if let (Some(fix), "KP014") = (finding.fix, finding.code) {
            let edit = fix.edit(&after).expect("an edit");
            crate::edit::apply(&mut after, edit).expect("applies");
        }
    }
    after
}

const HOT: &str = "
    table app PK SK
    gsi ByStatus SPK SSK
    entity Counter day count:N | PK=COUNTERS SK=DAY#{day}
    entity Tally day count:N | PK=COUNTERS SK=TALLY#{day}
    entity Job jobId status=NEW|DONE createdAt | PK=JOB#{jobId} SK=JOB SPK=S#{status}#{shard:2} SSK={createdAt}
    read counters Counter
    read job Job by jobId
    read jobs_by_status Job by status
    update bump Counter rate 1500
    put add_job Job rate 5000
";

// issue 43: KP014 said how many shards and left the typing to the user; its Apply writes the
// count the cost report gives into the template.
#[test]
fn a_write_hot_partition_key_is_sharded_by_its_apply_into_the_cost_reports_count() {
    let d = design(HOT);
    expect![[r#"
        entities/Counter/keys/PK: Write-shard PK `COUNTERS` into 2 shards (`COUNTERS#SHARD{shard:2}`)
        entities/Job/keys/SPK: Write-shard SPK `S#{status}#{shard:2}` into 5 shards (`S#{status}#{shard:5}`)
        cost: COUNTERS needs 2
        cost: S#{status}#{shard:2} needs 5
    "#]]
    .assert_eq(&hot(&d));
    let after = fixed(&d);
    let shown: Vec<String> = [("Counter", "PK"), ("Tally", "PK"), ("Job", "SPK")]
        .iter()
        .map(|(entity, key)| {
            let e = after.entity(entity).expect("entity");
            format!("{entity}.{key} = {}", e.keys[*key].source())
        })
        .collect();
    expect![[r#"
        [
            "Counter.PK = COUNTERS#SHARD{shard:2}",
            "Tally.PK = COUNTERS#SHARD{shard:2}",
            "Job.SPK = S#{status}#{shard:5}",
        ]
    "#]]
    .assert_debug_eq(&shown);
    expect![[""]].assert_eq(&hot(&after));
}

#[test]
fn a_read_hot_partition_gets_no_shard_apply() {
    let d = design(
        "
        table app PK SK
        gsi ByStatus GPK GSK
        entity Order orderId status=NEW|PAID createdAt | PK=ORDER#{orderId} SK=ORDER GPK=STATUS#{status} GSK={createdAt}
        read order Order by orderId
        read by_status Order by status page 100 rate 3000
        ",
    );
    expect![[r#"
        entities/Order/keys/GPK: 
        cost: STATUS#{status} needs 1
    "#]]
    .assert_eq(&hot(&d));
}
