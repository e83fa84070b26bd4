//! The API's bodies byte for byte: each file in `tests/` is a body `keyplan serve` answered
//! (recorded from the server, through its router, before these types were its one
//! definition: issue 42), read into its type and written again, which must give the same bytes.
//! A field out of the wire's order, a `null` where a field was absent or the reverse, a
//! number written another way, all fail here. (The recorded times of 17 significant digits are
//! rounded to 6 decimals: serde_json, without its `float_roundtrip` feature, reads those back
//! one bit off.)
#![allow(clippy::unwrap_used)]

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::import::{ImportAnswer, ImportRequest};
use super::live::{EngineImportAnswer, EngineImportLine, EngineImportRequest, TableList};
use super::migrate::{VerifyLine, VerifyRequest};
use super::runs::{EngineInfo, RunEvent, Started};
use super::{ErrorBody, Health};

/// `body` (one JSON document) read as a `T` and written again gives `body`.
fn same_bytes<T: Serialize + DeserializeOwned>(body: &str) {
    let read: T = serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}"));
    assert_eq!(serde_json::to_string(&read).unwrap(), body);
}

/// Each line of `lines` read as a `T` and written again gives the line.
fn same_lines<T: Serialize + DeserializeOwned>(lines: &str) {
    assert!(!lines.is_empty());
    for line in lines.lines() {
        same_bytes::<T>(line);
    }
}

#[test]
fn an_import_answer_is_written_as_the_server_wrote_it() {
    same_bytes::<ImportAnswer>(include_str!("tests/import.json"));
}

#[test]
fn an_import_answers_assumptions_with_their_keys_sorted_as_json_wrote_them() {
    let mut answer: ImportAnswer = serde_json::from_str(include_str!("tests/import.json")).unwrap();
    answer.assumed = vec![crate::import::Assumption::at(
        7,
        "TableName `!Ref TableNameParam`",
        "the parameter's Default `orders`",
    )];
    let written = serde_json::to_string(&answer).unwrap();
    assert!(
        written.starts_with(r#"{"assumed":[{"assumed":"the parameter's Default `orders`","line":7,"what":"TableName `!Ref TableNameParam`"}],"counts":"#),
        "{written}"
    );
    assert_eq!(written, serde_json::to_value(&answer).unwrap().to_string());
}

#[test]
fn an_engine_import_answer_and_its_stream_are_written_as_the_server_wrote_them() {
    same_bytes::<EngineImportAnswer>(include_str!("tests/engine_import.json"));
    same_lines::<EngineImportLine>(include_str!("tests/engine_import_stream.jsonl"));
    same_lines::<EngineImportLine>(include_str!("tests/engine_import_stream_error.jsonl"));
}

#[test]
fn a_table_list_is_written_as_the_server_wrote_it() {
    same_bytes::<TableList>(include_str!("tests/tables.json"));
    same_bytes::<TableList>(include_str!("tests/tables_empty.json"));
}

#[test]
fn a_verification_stream_is_written_as_the_server_wrote_it() {
    same_lines::<VerifyLine>(include_str!("tests/verify.jsonl"));
}

#[test]
fn the_run_bodies_and_events_are_written_as_the_server_wrote_them() {
    same_bytes::<Vec<EngineInfo>>(include_str!("tests/engines.json"));
    same_bytes::<Started>(include_str!("tests/runs.json"));
    same_lines::<RunEvent>(include_str!("tests/run_events.jsonl"));
}

#[test]
fn the_error_and_health_bodies_are_written_as_the_server_wrote_them() {
    same_bytes::<ErrorBody>(include_str!("tests/error.json"));
    same_bytes::<Health>(include_str!("tests/health.json"));
}

#[test]
fn each_line_of_a_stream_reads_as_its_kind() {
    let lines: Vec<VerifyLine> = include_str!("tests/verify.jsonl")
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let kinds: Vec<&str> = lines
        .iter()
        .map(|line| match line {
            super::Line::Progress(super::migrate::VerifyEvent::Pattern(_)) => "pattern",
            super::Line::Progress(super::migrate::VerifyEvent::Cleanup(_)) => "cleanup",
            super::Line::Answer { .. } => "answer",
            super::Line::Failed { .. } => "failed",
        })
        .collect();
    assert_eq!(kinds.len(), 13);
    assert_eq!(kinds[10..], ["pattern", "cleanup", "answer"]);
    let super::Line::Answer { answer } = &lines[12] else {
        panic!("an answer last")
    };
    assert!(answer.ok);
    assert_eq!(answer.text, answer.verified.text("embedded"));
    let failed: EngineImportLine =
        serde_json::from_str(include_str!("tests/engine_import_stream_error.jsonl")).unwrap();
    assert_eq!(
        failed,
        super::Line::Failed {
            error: "engine `embedded` has no table `nope`".to_string(),
            status: 404
        }
    );
}

#[test]
fn requests_are_written_as_the_app_sent_them_and_refuse_unknown_fields_in_the_servers_order() {
    // What the app sent with `serde_json::json!`: keys sorted, absent fields left out.
    let bodies = [
        r#"{"name":"orders.ts","text":"export {}"}"#,
        r#"{"all":true,"engine":"moto","sample":1000}"#,
        r#"{"engine":"moto","sample":1000,"tables":["orders"]}"#,
        r#"{"engine":null,"items":{"Order":3},"new":{"name":"n"},"old":{"name":"o"}}"#,
    ];
    let sorted = |text: Result<String, serde_json::Error>| text.unwrap();
    let import: ImportRequest = serde_json::from_str(bodies[0]).unwrap();
    let all: EngineImportRequest = serde_json::from_str(bodies[1]).unwrap();
    let named: EngineImportRequest = serde_json::from_str(bodies[2]).unwrap();
    let verify: VerifyRequest = serde_json::from_str(bodies[3]).unwrap();
    assert_eq!(
        [
            sorted(super::request_text(&import)),
            sorted(super::request_text(&all)),
            sorted(super::request_text(&named)),
            sorted(super::request_text(&verify))
        ],
        bodies
    );
    let refused = |body: &str| match serde_json::from_str::<EngineImportRequest>(body) {
        Ok(_) => "read".to_string(),
        Err(e) => e.to_string(),
    };
    assert_eq!(
        refused(r#"{"engine":"moto","sampel":3}"#),
        "unknown field `sampel`, expected one of `engine`, `tables`, `all`, `sample` at line 1 column 25"
    );
}
