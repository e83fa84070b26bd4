//! What keyplan takes from an engine that misbehaves (issue 41, item 4): a Scan answer of
//! hundreds of MB, empty pages that name a next page forever, a page that hands back the key
//! it was sent, a ListTables that never ends, a Query that pages on, an answer that drips.
//! Import (the library, `keyplan import --endpoint`, `POST /api/import/engine`), a run, a
//! verification and a table listing each end with an error that names the bound.
//!
//! The engine is a fake one in the test, on a loopback port: it answers as dynoxide-rs does
//! (through the embedded engine's dispatch) except for the one thing it does wrong. A real
//! engine cannot misbehave on demand.
#![allow(clippy::unwrap_used)]

mod app_support;
mod run_support;

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use futures_util::StreamExt;
use keyplan_server::engine::bounds::MAX_ANSWER_BYTES;
use keyplan_server::engine::embedded::dispatch;
use keyplan_server::engine::{Engine, Timing};
use keyplan_server::live::{list_tables, read_tables};
use keyplan_server::runner::RunId;
use keyplan_server::runner::paging::{MAX_EMPTY_PAGES, MAX_TABLE_PAGES};
use keyplan_server::runner::scan::SEGMENTS;
use run_support::*;
use tokio_util::sync::CancellationToken;

/// What the fake engine does wrong; everything else it answers as dynoxide-rs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fake {
    /// A Scan answer of 512 MiB, streamed without a length.
    HugeScan,
    /// Scan pages without items, each naming a new page to go on from.
    EmptyScanPages,
    /// Scan pages that name the key they were sent as the next one.
    SameKey,
    /// ListTables pages that never end, a new name on each.
    EndlessTables,
    /// Query pages without items, each naming a new page to go on from.
    EndlessQuery,
    /// Scan and Query answers that drip one byte every 10 ms and never end.
    Drip,
}

struct FakeEngine {
    fake: Fake,
    db: dynoxide::Database,
    /// Scan requests received.
    scans: AtomicU64,
    /// Pages sent the wrong way, numbered for their keys.
    pages: AtomicU64,
}

fn json(body: String) -> Response {
    ([(header::CONTENT_TYPE, "application/x-amz-json-1.0")], body).into_response()
}

/// A body made of `head` and then `n` times `chunk` (until the reader goes away), each after
/// `pause`.
fn streamed(head: &'static str, chunk: Bytes, n: usize, pause: Option<Duration>) -> Response {
    let chunks = futures_util::stream::repeat(chunk)
        .take(n)
        .then(move |chunk| async move {
            if let Some(pause) = pause {
                tokio::time::sleep(pause).await;
            }
            Ok::<_, std::io::Error>(chunk)
        });
    let head = futures_util::stream::once(async move {
        Ok::<_, std::io::Error>(Bytes::from_static(head.as_bytes()))
    });
    (
        [(header::CONTENT_TYPE, "application/x-amz-json-1.0")],
        Body::from_stream(head.chain(chunks)),
    )
        .into_response()
}

async fn answer(
    State(engine): State<Arc<FakeEngine>>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let target = headers
        .get("x-amz-target")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    let operation = target.trim_start_matches("DynamoDB_20120810.");
    if operation == "Scan" {
        engine.scans.fetch_add(1, Ordering::SeqCst);
    }
    let page = || engine.pages.fetch_add(1, Ordering::SeqCst);
    let empty_page = |n: u64| {
        format!(
            r#"{{"Items":[],"Count":0,"ScannedCount":0,"LastEvaluatedKey":{{"pk":{{"S":"k{n}"}}}}}}"#
        )
    };
    match (engine.fake, operation) {
        // 512 MiB, far past the limit: the reader goes away long before.
        (Fake::HugeScan, "Scan") => streamed(
            r#"{"Items":[{"pk":{"S":""#,
            Bytes::from(vec![b'x'; 1 << 20]),
            512,
            None,
        ),
        (Fake::EmptyScanPages, "Scan") | (Fake::EndlessQuery, "Query") => json(empty_page(page())),
        (Fake::SameKey, "Scan") => json(empty_page(0)),
        (Fake::EndlessTables, "ListTables") => {
            let n = page();
            json(format!(
                r#"{{"TableNames":["t{n}"],"LastEvaluatedTableName":"t{n}"}}"#
            ))
        }
        (Fake::Drip, "Scan" | "Query") => streamed(
            r#"{"Items":["#,
            Bytes::from_static(b" "),
            usize::MAX,
            Some(Duration::from_millis(10)),
        ),
        _ => {
            let (status, answer) = dispatch(&engine.db, &target, &body);
            let mut response = json(answer);
            *response.status_mut() = StatusCode::from_u16(status).unwrap();
            response
        }
    }
}

/// The fake engine doing `fake` wrong, holding table `tab` (key `pk`) with 50 items; its state
/// and URL.
async fn fake_engine(fake: Fake) -> (Arc<FakeEngine>, String) {
    let db = dynoxide::Database::memory().unwrap();
    let request = |target: &str, body: serde_json::Value| {
        let (status, answer) = dispatch(&db, target, body.to_string().as_bytes());
        assert_eq!(status, 200, "{answer}");
    };
    request(
        "DynamoDB_20120810.CreateTable",
        serde_json::json!({
            "TableName": "tab",
            "KeySchema": [{ "AttributeName": "pk", "KeyType": "HASH" }],
            "AttributeDefinitions": [{ "AttributeName": "pk", "AttributeType": "S" }],
            "BillingMode": "PAY_PER_REQUEST",
        }),
    );
    for i in 0..50 {
        request(
            "DynamoDB_20120810.PutItem",
            serde_json::json!({ "TableName": "tab", "Item": { "pk": { "S": format!("item-{i}") } } }),
        );
    }
    let engine = Arc::new(FakeEngine {
        fake,
        db,
        scans: AtomicU64::new(0),
        pages: AtomicU64::new(0),
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let app = axum::Router::new()
        .fallback(answer)
        .with_state(engine.clone());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (engine, url)
}

/// The fake engine as keyplan's endpoint `fake`, with the default limits but a conversation
/// limit of `conversation`.
fn endpoint(url: &str, conversation: Duration) -> Engine {
    let engine = Engine::endpoint("fake", url);
    let timing = Timing {
        conversation,
        ..engine.timing
    };
    engine.with_timing(timing)
}

/// The error of importing table `tab` from `engine`.
async fn import_error(engine: &Engine) -> String {
    read_tables(engine, &["tab".to_string()], 1_000, &|_| {})
        .await
        .unwrap_err()
        .to_string()
}

const HOUR: Duration = Duration::from_secs(3600);

// issue 41: a huge Scan answer killed the CLI in 4.5 s and the server in 2.1 s.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_huge_scan_answer_ends_the_import_at_the_answer_limit_without_a_retry() {
    let (fake, url) = fake_engine(Fake::HugeScan).await;
    let message = import_error(&endpoint(&url, HOUR)).await;
    assert_eq!(
        message,
        format!(
            "engine `fake` failed to scan tab: its answer is larger than {} MiB, the most keyplan reads of one answer (a DynamoDB page holds at most 1 MB of items)",
            MAX_ANSWER_BYTES >> 20
        )
    );
    // One request a segment: a too-large answer is never asked for again.
    assert_eq!(fake.scans.load(Ordering::SeqCst), SEGMENTS as u64);
}

// issue 41: a Scan of empty pages with a LastEvaluatedKey made an import run forever.
#[tokio::test]
async fn empty_scan_pages_that_never_end_stop_the_import() {
    let (_fake, url) = fake_engine(Fake::EmptyScanPages).await;
    let message = import_error(&endpoint(&url, HOUR)).await;
    assert_eq!(
        message,
        format!(
            "engine `fake` would not stop paging while trying to scan tab: it sent {MAX_EMPTY_PAGES} pages without an item, each with a key to go on from; keyplan stops at {MAX_EMPTY_PAGES}"
        )
    );
}

#[tokio::test]
async fn a_page_that_hands_back_the_key_it_was_sent_stops_the_import_at_once() {
    let (fake, url) = fake_engine(Fake::SameKey).await;
    let message = import_error(&endpoint(&url, HOUR)).await;
    assert_eq!(
        message,
        "engine `fake` would not stop paging while trying to scan tab: it handed back the key it was sent as the key to go on from, so it would send that page forever"
    );
    // The first page of each segment, and the second that repeats its key.
    assert_eq!(fake.scans.load(Ordering::SeqCst), 2 * SEGMENTS as u64);
}

// issue 41: a ListTables that never ends made an import of every table run forever.
#[tokio::test]
async fn a_table_listing_that_never_ends_stops_at_the_page_limit() {
    let (_fake, url) = fake_engine(Fake::EndlessTables).await;
    let message = list_tables(&endpoint(&url, HOUR))
        .await
        .unwrap_err()
        .to_string();
    assert_eq!(
        message,
        format!(
            "engine `fake` would not stop paging while trying to list tables: it sent {MAX_TABLE_PAGES} pages and named another; keyplan reads at most {MAX_TABLE_PAGES} here"
        )
    );
}

#[tokio::test]
async fn an_answer_that_drips_forever_ends_the_import_at_the_conversation_limit() {
    let (_fake, url) = fake_engine(Fake::Drip).await;
    let message = import_error(&endpoint(&url, Duration::from_secs(1))).await;
    assert_eq!(
        message,
        "engine `fake` did not finish in time while trying to read table tab: keyplan gives one import of a table, run, verification or listing 1 s"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_whose_query_pages_on_forever_reports_the_pattern_and_cleans_up() {
    let (fake, url) = fake_engine(Fake::EndlessQuery).await;
    let engine = endpoint(&url, HOUR);
    let (_, design, counts) = examples(Some(2)).remove(0);
    let plan = keyplan_server::runner::build::plan(&design, &counts).unwrap();
    let (summary, events) = collect(&engine, &plan).await;
    assert!(!summary.ok);
    let errors: Vec<String> = events
        .iter()
        .filter_map(|e| match e {
            keyplan_server::runner::RunEvent::Pattern(p) => p.message.clone(),
            _ => None,
        })
        .filter(|m| m.contains("would not stop paging"))
        .collect();
    assert!(!errors.is_empty(), "{}", report(&events));
    assert!(
        errors[0]
            .starts_with("engine `fake` would not stop paging while trying to run the Query `"),
        "{}",
        errors[0]
    );
    assert!(
        errors[0].ends_with(&format!("keyplan stops at {MAX_EMPTY_PAGES}")),
        "{}",
        errors[0]
    );
    assert!(fake.pages.load(Ordering::SeqCst) > 0);
    assert_eq!(run_tables(&engine).await, Vec::<String>::new());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_on_an_engine_that_drips_ends_at_the_conversation_limit_and_cleans_up() {
    let (_fake, url) = fake_engine(Fake::Drip).await;
    let engine = endpoint(&url, Duration::from_secs(5));
    let (message, _) = failed_run(&engine).await;
    assert_eq!(
        message,
        "engine `fake` did not finish in time while trying to run the design: keyplan gives one import of a table, run, verification or listing 5 s"
    );
    assert_eq!(run_tables(&engine).await, Vec::<String>::new());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_verification_on_an_engine_whose_scan_never_ends_stops_and_cleans_up() {
    let (_fake, url) = fake_engine(Fake::EmptyScanPages).await;
    let engine = endpoint(&url, HOUR);
    let (_, old, _) = examples(Some(2)).remove(0);
    let mut new = old.clone();
    new.tables[0].gsis.clear();
    let migration = keyplan_core::migrate::plan(&old, &new, &Default::default());
    let error = keyplan_server::runner::migrate::verify(
        &engine,
        &old,
        &new,
        &migration,
        &Default::default(),
        &RunId::random(),
        &CancellationToken::new(),
        &|_| {},
    )
    .await
    .unwrap_err()
    .to_string();
    assert!(
        error.starts_with("engine `fake` would not stop paging while trying to "),
        "{error}"
    );
    assert!(
        error.ends_with(&format!("keyplan stops at {MAX_EMPTY_PAGES}")),
        "{error}"
    );
    assert_eq!(run_tables(&engine).await, Vec::<String>::new());
}

/// `keyplan ARGS`, run off the runtime's threads so the fake engine keeps answering.
async fn keyplan_off_thread(args: Vec<String>) -> (i32, String, String) {
    tokio::task::spawn_blocking(move || {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        keyplan(&args)
    })
    .await
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn keyplan_import_from_an_endpoint_ends_with_the_bound_it_met() {
    let (_huge, huge_url) = fake_engine(Fake::HugeScan).await;
    let (code, _, stderr) = keyplan_off_thread(
        [
            "import",
            "--endpoint",
            &huge_url,
            "--table",
            "tab",
            "-o",
            "-",
        ]
        .map(String::from)
        .to_vec(),
    )
    .await;
    assert_ne!(code, 0);
    assert!(
        stderr.contains("engine `endpoint` failed to scan tab: its answer is larger than 32 MiB"),
        "{stderr}"
    );

    let (_endless, endless_url) = fake_engine(Fake::EndlessTables).await;
    let (code, _, stderr) = keyplan_off_thread(
        ["import", "--endpoint", &endless_url, "--all", "-o", "-"]
            .map(String::from)
            .to_vec(),
    )
    .await;
    assert_ne!(code, 0);
    assert!(
        stderr.contains(
            "engine `endpoint` would not stop paging while trying to list tables: it sent 1000 pages"
        ),
        "{stderr}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_api_answers_a_misbehaving_engine_with_a_502_that_says_why() {
    let (_huge, huge_url) = fake_engine(Fake::HugeScan).await;
    let (_endless, endless_url) = fake_engine(Fake::EndlessTables).await;
    let (_dir, state) = app_support::state_with_engines(vec![
        format!("huge={huge_url}"),
        format!("endless={endless_url}"),
    ])
    .await;

    let body = serde_json::json!({ "engine": "huge", "tables": ["tab"] });
    let answer =
        app_support::send(&state, app_support::post_json("/api/import/engine", &body)).await;
    assert_eq!(answer.status, StatusCode::BAD_GATEWAY);
    let error = answer.json()["error"].as_str().unwrap().to_string();
    assert!(
        error.starts_with("engine `huge` failed to scan tab: its answer is larger than 32 MiB"),
        "{error}"
    );

    let answer = app_support::send(&state, app_support::get("/api/engines/endless/tables")).await;
    assert_eq!(answer.status, StatusCode::BAD_GATEWAY);
    let error = answer.json()["error"].as_str().unwrap().to_string();
    assert!(
        error.starts_with(
            "engine `endless` would not stop paging while trying to list tables: it sent 1000 pages"
        ),
        "{error}"
    );

    let body = serde_json::json!({ "engine": "endless", "all": true });
    let answer =
        app_support::send(&state, app_support::post_json("/api/import/engine", &body)).await;
    assert_eq!(answer.status, StatusCode::BAD_GATEWAY);
}
