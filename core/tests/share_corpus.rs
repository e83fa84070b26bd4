//! Every design of the shared corpus (`../shared/corpus` beside the checkout) travels whole in
//! a share link (issue 40): link version 5 carries what version 4 dropped, such as the auto
//! scaling of the NoSQL Workbench models, so the link opens as the design it was made from.

mod common;

use keyplan_core::import;
use keyplan_core::share::{decode, encode};

#[test]
fn every_corpus_design_opens_from_its_link_as_it_was() {
    let mut n_designs = 0;
    let mut n_scaled = 0;
    for (path, text) in common::corpus_files() {
        // Files that are not designs (a schema beside its mcp model) are corpus.rs's concern.
        let Ok(imported) = import::detect_and_import(&text) else {
            continue;
        };
        let design = imported.design;
        let payload = encode(&design).unwrap_or_else(|e| panic!("{path}: no link: {e}"));
        assert_eq!(decode(&payload).as_ref(), Ok(&design), "{path}");
        n_designs += 1;
        n_scaled += design
            .tables
            .iter()
            .filter(|t| {
                t.billing
                    .table_capacity()
                    .is_some_and(|c| c.auto_scaling.is_some())
            })
            .count();
    }
    assert!(n_designs >= 30, "only {n_designs} corpus designs imported");
    // The corpus has Workbench models with auto scaling: the test covers what version 4 dropped.
    assert!(n_scaled > 0, "no corpus table has auto scaling");
}
