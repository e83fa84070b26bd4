//! What the Run panel says about keeping a run's tables (issue 43, item 6), built from the run
//! protocol's types: whether the engine lets a run keep them and what kept tables survive
//! there, the list of runs that kept tables (`GET /api/engines/{engine}/kept`) and what a
//! delete did. Plain functions, so every sentence is a native unit test.

pub use keyplan_core::api::runs::{DeletedKept, KeptRun, KeptState, KeptTable};

use super::state::Engine;
use crate::text::plural;

/// The note under "Keep the tables": why it is off on `engine`, or what kept tables survive
/// there once it is on.
pub fn keep_note(engine: &Engine, keep: bool) -> Option<String> {
    if let Some(why) = &engine.cannot_keep {
        return Some(format!("Cannot keep the tables here: {why}."));
    }
    if !keep {
        return None;
    }
    Some(match engine.kind.as_str() {
        "embedded" => "The tables stay in kept-tables.db in keyplan's data folder, so they outlive this server; to look at them with the AWS CLI or NoSQL Workbench, serve that file with `dynoxide --db-path`.".to_string(),
        "aws" => "The tables stay in your AWS account, billed for their storage, until you delete them below.".to_string(),
        _ => format!("The tables stay on {} for as long as it keeps tables (one started in memory forgets them when it stops).", engine.name),
    })
}

/// Where the runs that kept tables on `engine` are listed, and deleted from.
pub fn list_url(engine: &str) -> String {
    format!("/api/engines/{engine}/kept")
}

/// The delete of run `run`'s kept tables on `engine`.
pub fn delete_url(engine: &str, run: &str) -> String {
    format!("/api/engines/{engine}/kept/{run}")
}

/// The server's error message in an answer, or a sentence with its status.
fn error_of(status: u16, body: &str, what: &str) -> String {
    serde_json::from_str::<keyplan_core::api::ErrorBody>(body)
        .map(|e| e.error)
        .unwrap_or_else(|_| format!("{what} failed (HTTP {status})"))
}

/// Reads the answer to the list.
pub fn parse_list(status: u16, body: &str) -> Result<Vec<KeptRun>, String> {
    if !(200..300).contains(&status) {
        return Err(error_of(status, body, "listing the kept tables"));
    }
    serde_json::from_str(body).map_err(|e| format!("the server's list was not understood: {e}"))
}

/// A kept run's heading, e.g. "Run 1a2b3c4d · Order management · kept 2026-12-06T01:40:00Z".
pub fn run_heading(run: &KeptRun) -> String {
    let at = i64::try_from(run.kept_at).unwrap_or(i64::MAX);
    format!(
        "Run {} · {} · kept {}",
        run.run,
        run.design,
        keyplan_core::sample::iso_datetime(at)
    )
}

/// A kept table's line, e.g. "orders as keyplan-run-1a2b3c4d-orders".
pub fn table_line(table: &KeptTable) -> String {
    format!("{} as {}", table.table, table.name)
}

/// A kept table's state as its badge says it.
pub fn state_label(state: &KeptState) -> String {
    match state {
        KeptState::Present => "on the engine".to_string(),
        KeptState::Gone => "gone".to_string(),
        KeptState::Replaced => "replaced by another table: never deleted".to_string(),
        KeptState::Unknown { why } => format!("unknown: {why}"),
    }
}

/// What a delete did, as one sentence.
pub fn deleted_line(run: &str, status: u16, body: &str) -> String {
    if !(200..300).contains(&status) {
        return format!(
            "Run {run}'s tables were not deleted: {}",
            error_of(status, body, "the delete")
        );
    }
    let Ok(answer) = serde_json::from_str::<DeletedKept>(body) else {
        return format!("Run {run}: the server's answer was not understood");
    };
    let mut parts = vec![format!(
        "Run {run}: deleted {}",
        plural(answer.deleted.len(), "table")
    )];
    if !answer.gone.is_empty() {
        parts.push(format!("{} already gone", answer.gone.len()));
    }
    if !answer.left_alone.is_empty() {
        parts.push(format!(
            "left alone {} (another table has that name now)",
            answer.left_alone.join(", ")
        ));
    }
    if !answer.failed.is_empty() {
        parts.push(format!("could not delete {}", answer.failed.join("; ")));
    }
    parts.join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use expect_test::expect;

    fn engine(kind: &str, cannot_keep: Option<&str>) -> Engine {
        Engine {
            name: if kind == "endpoint" { "local" } else { kind }.to_string(),
            kind: kind.to_string(),
            description: String::new(),
            default: false,
            cannot_keep: cannot_keep.map(str::to_string),
        }
    }

    #[test]
    fn the_keep_note_says_why_keeping_is_off_or_what_kept_tables_survive() {
        let notes: Vec<String> = [
            (
                engine("embedded", Some("this keyplan has no data folder")),
                false,
            ),
            (engine("embedded", None), false),
            (engine("embedded", None), true),
            (engine("endpoint", None), true),
            (engine("aws", None), true),
        ]
        .iter()
        .map(|(e, keep)| format!("{:?}", keep_note(e, *keep)))
        .collect();
        expect![[r#"
            Some("Cannot keep the tables here: this keyplan has no data folder.")
            None
            Some("The tables stay in kept-tables.db in keyplan's data folder, so they outlive this server; to look at them with the AWS CLI or NoSQL Workbench, serve that file with `dynoxide --db-path`.")
            Some("The tables stay on local for as long as it keeps tables (one started in memory forgets them when it stops).")
            Some("The tables stay in your AWS account, billed for their storage, until you delete them below.")"#]]
        .assert_eq(&notes.join("\n"));
    }

    #[test]
    fn the_list_reads_each_run_and_its_tables_and_says_why_it_could_not() {
        let body = r#"[{"run":"1a2b3c4d","design":"Order management","kept_at":1796521200,"tables":[{"table":"orders","name":"keyplan-run-1a2b3c4d-orders","state":"present"},{"table":"events","name":"keyplan-run-1a2b3c4d-events","state":"replaced"}]}]"#;
        let runs = parse_list(200, body).expect("a list");
        let lines: Vec<String> = runs
            .iter()
            .flat_map(|r| {
                std::iter::once(run_heading(r)).chain(
                    r.tables
                        .iter()
                        .map(|t| format!("  {} ({})", table_line(t), state_label(&t.state))),
                )
            })
            .collect();
        expect![[r#"
            Run 1a2b3c4d · Order management · kept 2026-12-06T01:40:00Z
              orders as keyplan-run-1a2b3c4d-orders (on the engine)
              events as keyplan-run-1a2b3c4d-events (replaced by another table: never deleted)"#]]
        .assert_eq(&lines.join("\n"));
        assert_eq!(
            parse_list(400, r#"{"error":"no data folder"}"#),
            Err("no data folder".to_string())
        );
        assert_eq!(
            parse_list(502, "Bad Gateway"),
            Err("listing the kept tables failed (HTTP 502)".to_string())
        );
    }

    #[test]
    fn a_delete_says_what_it_deleted_and_what_it_left_alone() {
        let cases = [
            deleted_line(
                "1a2b",
                200,
                r#"{"deleted":["a","b"],"gone":[],"left_alone":[],"failed":[]}"#,
            ),
            deleted_line(
                "1a2b",
                200,
                r#"{"deleted":["a"],"gone":["b"],"left_alone":["c"],"failed":["d: refused"]}"#,
            ),
            deleted_line("1a2b", 404, r#"{"error":"run `1a2b` kept no tables"}"#),
        ];
        expect![[r#"
            Run 1a2b: deleted 2 tables
            Run 1a2b: deleted 1 table; 1 already gone; left alone c (another table has that name now); could not delete d: refused
            Run 1a2b's tables were not deleted: run `1a2b` kept no tables"#]]
        .assert_eq(&cases.join("\n"));
    }
}
