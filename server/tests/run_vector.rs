//! `keyplan run` of a design with a vector index and a vector search (issue 40, item 3): the
//! embedded engine (dynoxide 3.2) makes the vector index with the table and answers
//! SearchVectors, which the run compares with core's exact nearest items; moto, which has no
//! vector indexes, gets the search reported not run, with the reason, and every other pattern
//! runs. A live import reads the vector index back from DescribeTable.
#![allow(clippy::unwrap_used)]

mod run_support;

use keyplan_core::model::{Distance, Projection, VectorIndex};
use keyplan_server::engine::Engine;
use keyplan_server::runner::build::plan;
use keyplan_server::runner::{PatternResult, RunEvent, Status};
use run_support::{collect, embedded, load_design, repo, report, start_moto};

fn design() -> keyplan_core::Design {
    let text = std::fs::read_to_string(repo().join("tests/export/vector-search.keyplan.json"))
        .expect("the fixture");
    keyplan_core::file::parse(&text).expect("the fixture parses")
}

/// Runs `design` on `engine` with 6 products: the vector search's line, the report, and the
/// summary's passed and failed counts.
async fn run_search(
    engine: &Engine,
    design: &keyplan_core::Design,
) -> (PatternResult, String, usize) {
    let plan = plan(design, &[("Product".to_string(), 6)].into()).unwrap();
    let (summary, events) = collect(engine, &plan).await;
    let lines = report(&events);
    let similar = events
        .iter()
        .find_map(|e| match e {
            RunEvent::Pattern(p) if p.pattern == "Similar products" => Some(p.clone()),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no line for the vector search:\n{lines}"));
    assert_eq!(similar.operation, "SearchVectors", "{lines}");
    assert_eq!(summary.mismatched + summary.errors, 0, "{lines}");
    (similar, lines, summary.passed)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_vector_search_runs_on_the_embedded_engine_and_matches_cores_exact_answer() {
    let (_engines, engine) = embedded().await;
    let (similar, lines, passed) = run_search(&engine, &design()).await;
    assert_eq!(similar.status, Status::Pass, "{lines}");
    assert_eq!(
        (similar.expected_items, similar.actual_items),
        (5, 5),
        "{lines}"
    );
    let message = similar.message.unwrap_or_default();
    assert!(
        message.contains("5 nearest by COSINE of 6 vector(s) of 8 number(s): recall 5 of 5"),
        "{message}"
    );
    assert_eq!(passed, 3, "{lines}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_distance_function_matches_on_the_embedded_engine() {
    let (_engines, engine) = embedded().await;
    for distance in [Distance::Euclidean, Distance::DotProduct] {
        let mut design = design();
        design.tables[0].vector_indexes[0].distance = distance;
        let (similar, lines, _) = run_search(&engine, &design).await;
        assert_eq!(similar.status, Status::Pass, "{distance:?}:\n{lines}");
        assert!(
            similar
                .message
                .unwrap_or_default()
                .contains(&format!("nearest by {}", distance.as_str())),
            "{lines}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_vector_search_is_reported_not_run_on_moto_and_the_run_goes_on() {
    let Some((_moto, engine)) = start_moto().await else {
        return;
    };
    let (similar, lines, passed) = run_search(&engine, &design()).await;
    assert_eq!(similar.status, Status::Skipped, "{lines}");
    let message = similar.message.unwrap_or_default();
    assert!(
        message.contains("has no vector index ByEmbedding")
            && message.contains("no vector indexes"),
        "{message}"
    );
    assert_eq!(passed, 2, "{lines}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_live_import_reads_the_vector_index_from_describe_table() {
    let (_engines, engine) = embedded().await;
    let design = design();
    let (guard, names) = load_design(&engine, &design, &[("Product".to_string(), 3)].into()).await;
    let read =
        keyplan_server::live::read_tables(&engine, &[names["catalog"].clone()], 100, &|_| {})
            .await
            .unwrap();
    assert_eq!(
        read[0].0.table.vector_indexes,
        [VectorIndex {
            name: "ByEmbedding".to_string(),
            attribute: "embedding".to_string(),
            dimensions: 8,
            distance: Distance::Cosine,
            projection: Projection::Include {
                attributes: vec!["title".to_string()]
            },
        }]
    );
    assert!(guard.cleanup().await.failed.is_empty());
}
