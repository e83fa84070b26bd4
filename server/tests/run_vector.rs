//! `keyplan run` of a design with a vector index and a vector search (issue 40, item 3): no
//! engine keyplan drives runs SearchVectors yet, so the run says so on that pattern's line and
//! runs every other pattern, on the embedded engine and on moto, instead of failing.
#![allow(clippy::unwrap_used)]

mod run_support;

use keyplan_server::engine::Engine;
use keyplan_server::runner::build::plan;
use keyplan_server::runner::{RunEvent, Status};
use run_support::{collect, embedded, repo, report, start_moto};

fn design() -> keyplan_core::Design {
    let text = std::fs::read_to_string(repo().join("tests/export/vector-search.keyplan.json"))
        .expect("the fixture");
    keyplan_core::file::parse(&text).expect("the fixture parses")
}

/// Runs the fixture on `engine`: the vector search is skipped with the reason, the rest pass.
async fn runs_around_the_vector_search(engine: &Engine) {
    let design = design();
    let plan = plan(&design, &[("Product".to_string(), 6)].into()).unwrap();
    let (summary, events) = collect(engine, &plan).await;
    let lines = report(&events);
    let similar = events
        .iter()
        .find_map(|e| match e {
            RunEvent::Pattern(p) if p.pattern == "Similar products" => Some(p),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no line for the vector search:\n{lines}"));
    assert_eq!(similar.status, Status::Skipped, "{lines}");
    assert_eq!(similar.operation, "SearchVectors", "{lines}");
    let message = similar.message.clone().unwrap_or_default();
    assert!(
        message.contains("not run: a vector search on ByEmbedding"),
        "{message}"
    );
    assert_eq!(summary.mismatched + summary.errors, 0, "{lines}");
    assert_eq!(summary.passed, 2, "{lines}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_vector_search_is_reported_not_run_on_the_embedded_engine_and_the_run_goes_on() {
    let (_engines, engine) = embedded().await;
    runs_around_the_vector_search(&engine).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_vector_search_is_reported_not_run_on_moto_and_the_run_goes_on() {
    let Some((_moto, engine)) = start_moto().await else {
        return;
    };
    runs_around_the_vector_search(&engine).await;
}
