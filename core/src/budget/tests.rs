use super::*;
use crate::sample::MAX_SAMPLE_ITEMS as MAX;

/// The order-management example with `n_tables` tables (copies of its first, renamed) and
/// `n_gsis` GSIs on its first table (copies of its first GSI, renamed).
fn design(n_tables: usize, n_gsis: usize) -> Design {
    let mut design = crate::examples::first();
    let table = design.tables[0].clone();
    while design.tables.len() < n_tables {
        let mut copy = table.clone();
        copy.name = format!("copy{}", design.tables.len());
        design.tables.push(copy);
    }
    design.tables.truncate(n_tables.max(1));
    let gsi = design.tables[0].gsis[0].clone();
    while design.tables[0].gsis.len() < n_gsis {
        let mut copy = gsi.clone();
        copy.name = format!("extra{}", design.tables[0].gsis.len());
        design.tables[0].gsis.push(copy);
    }
    design
}

fn said<T>(result: Result<T, OverBudget>) -> String {
    match result {
        Ok(_) => "ok".to_string(),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_run_is_refused_past_its_tables_gsis_or_items() {
    let sample = SampleConfig::default();
    let cases = [
        ("2 tables", said(run(&design(2, 0), &sample, MAX))),
        ("25 tables", said(run(&design(25, 0), &sample, MAX))),
        // issue 41: one 211 KB request created 2,002 tables.
        ("2,002 tables", said(run(&design(2_002, 0), &sample, MAX))),
        ("20 GSIs", said(run(&design(1, 20), &sample, MAX))),
        // issue 41: 202 tables of 25 GSIs each stalled the embedded engine.
        ("25 GSIs", said(run(&design(1, 25), &sample, MAX))),
        ("229 items", said(run(&design(2, 0), &sample, 229))),
    ];
    let out: Vec<String> = cases.iter().map(|(c, s)| format!("{c}: {s}")).collect();
    expect_test::expect![[r#"
        2 tables: ok
        25 tables: ok
        2,002 tables: the run would create 2,002 tables, more than the 25 keyplan creates at once: a run creates every table of the design; split it into designs of fewer tables
        20 GSIs: ok
        25 GSIs: table `orders` has 25 GSIs, more than the 20 DynamoDB allows a table by default: a run creates none past it
        229 items: the sample would have 230 items, more than the 229 allowed: entity `OrderItem` alone would take 90 (3 for each item of `Order`)"#]].assert_eq(&out.join("\n"));
}

#[test]
fn a_verification_counts_both_designs_tables_and_the_old_ones_sample() {
    let sample = SampleConfig::default();
    let chain: Design = crate::file::parse(include_str!(
        "../../../tests/fixtures/chain-16.keyplan.json"
    ))
    .expect("the chain fixture is a design");
    let cases = [
        (
            "12 + 13 tables",
            said(verify(&design(12, 0), &design(13, 0), &sample, MAX)),
        ),
        (
            "13 + 13 tables",
            said(verify(&design(13, 0), &design(13, 0), &sample, MAX)),
        ),
        (
            "new has 21 GSIs",
            said(verify(&design(1, 0), &design(1, 21), &sample, MAX)),
        ),
        // issue 41: a 3.3 KB design aborted `keyplan migrate --verify` at 3.7 GB.
        (
            "old is a 16-level chain",
            said(verify(&chain, &design(1, 0), &sample, MAX)),
        ),
        (
            "new is a 16-level chain",
            said(verify(&design(1, 0), &chain, &sample, MAX)),
        ),
    ];
    let out: Vec<String> = cases.iter().map(|(c, s)| format!("{c}: {s}")).collect();
    expect_test::expect![[r#"
        12 + 13 tables: ok
        13 + 13 tables: the verification would create 26 tables, more than the 25 keyplan creates at once: a verification creates the old design's tables and may create each of the new one's; verify the change of fewer tables at a time
        new has 21 GSIs: the new design's table `orders` has 21 GSIs, more than the 20 DynamoDB allows a table by default: a run creates none past it
        old is a 16-level chain: the sample would have 215,233,600 items, more than the 100,000 allowed: entity `E15` alone would take 143,489,070 (3 for each item of `E14`)
        new is a 16-level chain: ok"#]].assert_eq(&out.join("\n"));
}

#[test]
fn an_import_is_refused_past_its_tables_or_items() {
    let cases = [
        ("25 x 1,000", said(import(25, 1_000, MAX))),
        ("26 x 1", said(import(26, 1, MAX))),
        ("2 x 100,000", said(import(2, 100_000, MAX))),
        ("1 x 100,000", said(import(1, 100_000, MAX))),
        (
            "usize::MAX x u64::MAX",
            said(import(usize::MAX, u64::MAX, MAX)),
        ),
    ];
    let out: Vec<String> = cases.iter().map(|(c, s)| format!("{c}: {s}")).collect();
    expect_test::expect![[r#"
        25 x 1,000: ok
        26 x 1: the import would read 26 tables, more than the 25 keyplan reads at once: name fewer tables to import
        2 x 100,000: reading up to 100,000 items from each of 2 tables could hold 200,000 items, more than the 100,000 allowed: read fewer tables or a smaller sample
        1 x 100,000: ok
        usize::MAX x u64::MAX: the import would read 18,446,744,073,709,551,615 tables, more than the 25 keyplan reads at once: name fewer tables to import"#]].assert_eq(&out.join("\n"));
}
