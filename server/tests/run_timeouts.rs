//! Timeouts that say what happened (issue 13, item 10): an engine that answers ListTables and
//! then hangs fails the run with the operation and the limit named, not "cannot reach within
//! 5 s" after minutes; a table stuck in CREATING is reported while the run waits, and given up
//! at a stated deadline. The engine is a fake one in the test, on a loopback port.
#![allow(clippy::unwrap_used)]

mod run_support;

use std::time::Duration;

use axum::http::{HeaderMap, header};
use axum::response::IntoResponse;
use keyplan_server::engine::{Engine, Timing};
use keyplan_server::runner::RunEvent;
use run_support::*;

#[derive(Clone, Copy)]
enum Fake {
    /// Answers ListTables, never anything else.
    Hangs,
    /// Creates tables that stay CREATING.
    StuckCreating,
}

async fn fake_engine(fake: Fake) -> String {
    let handler = move |headers: HeaderMap| async move {
        let target = headers
            .get("x-amz-target")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .trim_start_matches("DynamoDB_20120810.")
            .to_string();
        let answer = match (fake, target.as_str()) {
            (_, "ListTables") => r#"{"TableNames":[]}"#,
            (Fake::Hangs, _) => std::future::pending().await,
            (Fake::StuckCreating, "CreateTable" | "DeleteTable") => {
                r#"{"TableDescription":{"TableName":"t","TableStatus":"CREATING"}}"#
            }
            (Fake::StuckCreating, "DescribeTable") => {
                r#"{"Table":{"TableName":"t","TableStatus":"CREATING"}}"#
            }
            _ => "{}",
        };
        (
            [(header::CONTENT_TYPE, "application/x-amz-json-1.0")],
            answer,
        )
            .into_response()
    };
    serve_fake(axum::Router::new().fallback(handler)).await
}

/// Short limits, so the test waits for the failure a user would see, sooner.
fn short(url: &str) -> Engine {
    Engine::endpoint("fake", url).with_timing(Timing {
        attempt: Duration::from_millis(300),
        request: Duration::from_millis(700),
        create: Duration::from_secs(1),
        cancel_grace: Duration::from_secs(1),
        cleanup: Duration::from_secs(2),
        conversation: Duration::from_secs(60),
    })
}

// issue 13: a hang after ListTables took 120 s and was reported as "cannot reach engine
// `x` within 5 s".
#[tokio::test]
async fn an_engine_that_hangs_after_answering_fails_with_the_operation_and_the_limit() {
    let engine = short(&fake_engine(Fake::Hangs).await);
    let (message, _) = failed_run(&engine).await;
    assert!(
        message.starts_with("engine `fake` did not answer while trying to create table `"),
        "{message}"
    );
    assert!(
        message.contains("no answer within 0.3 s (the limit of one attempt; 0.7 s with retries)"),
        "{message}"
    );
    assert!(!message.contains("cannot reach"), "{message}");
}

#[tokio::test]
async fn a_table_stuck_creating_is_reported_while_waiting_and_given_up_at_a_stated_deadline() {
    let engine = short(&fake_engine(Fake::StuckCreating).await);
    let (message, events) = failed_run(&engine).await;
    let waiting = events
        .iter()
        .find_map(|e| match e {
            RunEvent::Waiting {
                status, deadline_s, ..
            } => Some((status.clone(), *deadline_s)),
            _ => None,
        })
        .unwrap();
    assert_eq!(waiting, ("CREATING".to_string(), 1.0));
    assert!(
        message.contains(
            "the table was still CREATING after 1 s, this engine's deadline for a new table"
        ),
        "{message}"
    );
}
