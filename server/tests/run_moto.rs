//! Runs on a moto server the test starts itself (issue 8): the same checks as the embedded
//! engine, on an independent implementation. Tables stay small: moto scans a table per Query.
#![allow(clippy::unwrap_used)]

mod run_support;

use run_support::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moto_runs_every_example_isolated_and_leaves_nothing_behind() {
    let Some((_moto, engine)) = start_moto().await else {
        return;
    };
    check_engine(&engine, Some(4)).await;
}
