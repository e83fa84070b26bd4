//! The run protocol: the JSON the server and the browser app exchange about a run of a design
//! on a DynamoDB engine (`GET /api/engines`, `POST /api/runs`, and the server-sent events of
//! `GET /api/runs/{id}/events`), written in the order the types declare their fields.
//!
//! The invariant: this module is the one definition of that JSON. The server serialises these
//! types and the app deserialises them, so the two cannot drift apart. Every field a reader may
//! lack has a default, so an older or newer peer's events still parse; only [`StartRun`], the
//! request, refuses unknown fields, so a misspelt option is an error instead of being ignored.
//! Plain data: no IO.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// An engine as `GET /api/engines` lists it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct EngineInfo {
    pub name: String,
    /// `embedded`, `endpoint` or `aws`.
    pub kind: String,
    #[serde(default)]
    pub description: String,
    /// The engine runs when no engine is named.
    #[serde(default)]
    pub default: bool,
    /// Why a run on this engine cannot keep its tables; `None`: it can (`StartRun::keep`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cannot_keep: Option<String>,
}

/// The body of `POST /api/runs`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(
    deny_unknown_fields,
    expecting = "a run request: a JSON object with a `design` and optionally `engine`, `counts`, `seed` and `keep`"
)]
pub struct StartRun {
    /// The design document, as in a `*.keyplan.json` file.
    pub design: serde_json::Value,
    /// An engine name from `GET /api/engines`; the default engine when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<String>,
    /// Items per entity; the sample defaults when absent.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub counts: BTreeMap<String, u32>,
    /// The seed of the sample generator; the sample's default seed when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// Leave the tables and their items on the engine when the run finishes, for other tools
    /// to look at; listed by `GET /api/engines/{engine}/kept` until deleted there.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub keep: bool,
}

/// The answer to `POST /api/runs`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct Started {
    #[serde(default)]
    pub id: String,
    /// Where the events are.
    pub events: String,
}

/// Something that happened in a run, in order. Serialised with a `type` tag; the API streams
/// each as a server-sent event named after its type.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum RunEvent {
    /// The run began: what it will do.
    Started {
        /// The run's id (eight hex digits).
        #[serde(default)]
        id: String,
        engine: String,
        #[serde(default)]
        tables: Vec<String>,
        #[serde(default)]
        items: usize,
        #[serde(default)]
        patterns: usize,
    },
    /// A table exists and is ACTIVE: its design name and the run's name for it.
    TableCreated {
        table: String,
        #[serde(default)]
        name: String,
    },
    /// A new table is not ACTIVE yet: its status so far, how long the run has waited and how
    /// long it waits at most. Sent at the first answer that is not ACTIVE and every 5 s after.
    Waiting {
        table: String,
        #[serde(default)]
        name: String,
        #[serde(default)]
        status: String,
        #[serde(default)]
        waited_s: f64,
        #[serde(default)]
        deadline_s: f64,
    },
    /// Sample items acknowledged by the engine so far.
    ItemsWritten { written: usize, total: usize },
    /// One pattern's result: pass, mismatch (with a diff), error or skipped.
    Pattern(PatternResult),
    /// The run's tables were deleted (or could not be: `failed` names them).
    Cleanup(Cleanup),
    /// The run finished; `ok` is false on any mismatch or error.
    Done(Summary),
    /// The run stopped before finishing, with why. Cleanup has run.
    Failed {
        message: String,
        #[serde(default)]
        summary: Summary,
    },
}

/// Every event type, as [`RunEvent::name`] gives it: the app's `EventSource` listens to each.
pub const EVENT_NAMES: [&str; 8] = [
    "started",
    "table_created",
    "waiting",
    "items_written",
    "pattern",
    "cleanup",
    "done",
    "failed",
];

impl RunEvent {
    /// The event's name on the wire (its `type`).
    pub fn name(&self) -> &'static str {
        match self {
            RunEvent::Started { .. } => "started",
            RunEvent::TableCreated { .. } => "table_created",
            RunEvent::Waiting { .. } => "waiting",
            RunEvent::ItemsWritten { .. } => "items_written",
            RunEvent::Pattern(_) => "pattern",
            RunEvent::Cleanup(_) => "cleanup",
            RunEvent::Done(_) => "done",
            RunEvent::Failed { .. } => "failed",
        }
    }

    /// Whether this is the last event of a run.
    pub fn is_last(&self) -> bool {
        matches!(self, RunEvent::Done(_) | RunEvent::Failed { .. })
    }
}

/// How one pattern went.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct PatternResult {
    /// The pattern's position in the design.
    pub index: usize,
    pub pattern: String,
    /// `GetItem`, `Query`, `TransactWriteItems`... or `Scan` for a skipped read.
    pub operation: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index_name: Option<String>,
    pub status: Status,
    /// Items core predicted, and items the engine returned (reads).
    #[serde(default)]
    pub expected_items: usize,
    #[serde(default)]
    pub actual_items: usize,
    /// For a read with a filter: the items core predicts its key condition reads before the
    /// filter, and the engine's ScannedCount (issue 16).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected_scanned: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub actual_scanned: Option<usize>,
    /// Requests sent (Queries across shards and pages, or writes).
    #[serde(default)]
    pub requests: usize,
    /// Wall time of the pattern's requests, in milliseconds.
    #[serde(default)]
    pub latency_ms: f64,
    /// Capacity units the engine reported (0 when it reports none).
    #[serde(default)]
    pub consumed_capacity: f64,
    /// For a read: the read units core's cost model predicts for the same requests (engines
    /// other than AWS report capacity loosely; this is the figure to plan with).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub predicted_capacity: Option<f64>,
    /// The inputs the read was instantiated with.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub inputs: BTreeMap<String, String>,
    /// On a mismatch: a readable diff (`- expected`, `+ returned`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diff: Option<String>,
    /// On an error or a skip: why. Otherwise what the engine did its own way, unlike
    /// DynamoDB, that is no difference in the design (issue 41: its 1 MB page ends).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

impl PatternResult {
    /// A result with no figures yet, passing until told otherwise.
    pub fn new(
        index: usize,
        pattern: &str,
        operation: &str,
        index_name: Option<String>,
    ) -> PatternResult {
        PatternResult {
            index,
            pattern: pattern.to_string(),
            operation: operation.to_string(),
            index_name,
            status: Status::Pass,
            expected_items: 0,
            actual_items: 0,
            expected_scanned: None,
            actual_scanned: None,
            requests: 0,
            latency_ms: 0.0,
            consumed_capacity: 0.0,
            predicted_capacity: None,
            inputs: BTreeMap::new(),
            diff: None,
            message: None,
        }
    }
}

/// The outcome of one pattern.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Pass,
    Mismatch,
    Error,
    Skipped,
}

impl Status {
    /// The status as the wire and the UI name it.
    pub fn label(self) -> &'static str {
        match self {
            Status::Pass => "pass",
            Status::Mismatch => "mismatch",
            Status::Error => "error",
            Status::Skipped => "skipped",
        }
    }
}

/// What cleanup did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Cleanup {
    pub deleted: Vec<String>,
    /// Names that could not be deleted, with why: the user must delete them.
    pub failed: Vec<String>,
    /// Tables left on the engine because the run was asked to keep them (recorded, so they
    /// are listed with a delete button afterwards).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub kept: Vec<String>,
}

/// A run whose tables were kept, as `GET /api/engines/{engine}/kept` lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeptRun {
    /// The run's id: what `DELETE /api/engines/{engine}/kept/{run}` takes.
    pub run: String,
    /// The design's name.
    #[serde(default)]
    pub design: String,
    /// When the run ended, in seconds since 1970 (UTC).
    #[serde(default)]
    pub kept_at: u64,
    #[serde(default)]
    pub tables: Vec<KeptTable>,
}

/// One kept table and whether the engine still holds it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeptTable {
    /// The design's table.
    pub table: String,
    /// Its name on the engine.
    pub name: String,
    /// `"state": "present"` and the like, beside the names.
    #[serde(flatten)]
    pub state: KeptState,
}

/// Where a kept table is now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum KeptState {
    /// The engine holds the very table the run made.
    Present,
    /// The engine holds no table of that name (deleted by other tools, or an engine that
    /// forgot it on restart).
    Gone,
    /// A table of that name is there but it is not the one the run made (another ARN, id or
    /// creation time): keyplan leaves it alone.
    Replaced,
    /// The engine could not be asked.
    Unknown {
        #[serde(default)]
        why: String,
    },
}

/// The answer to `DELETE /api/engines/{engine}/kept/{run}`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct DeletedKept {
    /// Deleted, and no longer listed by the engine.
    pub deleted: Vec<String>,
    /// Not there any more: nothing to delete.
    pub gone: Vec<String>,
    /// A table of that name that is not the one the run made: left alone.
    pub left_alone: Vec<String>,
    /// Could not be deleted, with why; they stay listed.
    pub failed: Vec<String>,
}

/// The figures of a run.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(default)]
pub struct Summary {
    pub passed: usize,
    pub mismatched: usize,
    pub errors: usize,
    pub skipped: usize,
    pub items_written: usize,
    /// BatchWriteItem requests sent (retries included).
    pub load_requests: usize,
    pub load_ms: f64,
    pub total_ms: f64,
    /// Tables the run could not delete; empty when cleanup succeeded.
    pub left_behind: Vec<String>,
    pub ok: bool,
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use expect_test::expect;

    fn every_event() -> Vec<RunEvent> {
        vec![
            RunEvent::Started {
                id: "1a2b3c4d".to_string(),
                engine: "embedded".to_string(),
                tables: vec!["T".to_string()],
                items: 4,
                patterns: 1,
            },
            RunEvent::TableCreated {
                table: "T".to_string(),
                name: "keyplan-run-1a2b3c4d-T".to_string(),
            },
            RunEvent::Waiting {
                table: "T".to_string(),
                name: "keyplan-run-1a2b3c4d-T".to_string(),
                status: "CREATING".to_string(),
                waited_s: 5.0,
                deadline_s: 60.0,
            },
            RunEvent::ItemsWritten {
                written: 4,
                total: 4,
            },
            RunEvent::Pattern(PatternResult::new(0, "Get order", "GetItem", None)),
            RunEvent::Cleanup(Cleanup::default()),
            RunEvent::Done(Summary::default()),
            RunEvent::Failed {
                message: "cancelled".to_string(),
                summary: Summary::default(),
            },
        ]
    }

    #[test]
    fn event_names_list_the_name_of_every_event_type_in_order() {
        let names: Vec<&str> = every_event().iter().map(RunEvent::name).collect();
        assert_eq!(names, EVENT_NAMES);
    }

    #[test]
    fn every_event_is_tagged_with_its_name_and_reads_back_the_same() {
        for event in every_event() {
            let json = serde_json::to_value(&event).unwrap();
            assert_eq!(json["type"], event.name());
            assert_eq!(serde_json::from_value::<RunEvent>(json).unwrap(), event);
        }
    }

    #[test]
    fn the_wire_json_of_an_event_is_stable() {
        let json: Vec<String> = every_event()
            .iter()
            .map(|e| serde_json::to_string(e).unwrap())
            .collect();
        expect![[r#"
            {"type":"started","id":"1a2b3c4d","engine":"embedded","tables":["T"],"items":4,"patterns":1}
            {"type":"table_created","table":"T","name":"keyplan-run-1a2b3c4d-T"}
            {"type":"waiting","table":"T","name":"keyplan-run-1a2b3c4d-T","status":"CREATING","waited_s":5.0,"deadline_s":60.0}
            {"type":"items_written","written":4,"total":4}
            {"type":"pattern","index":0,"pattern":"Get order","operation":"GetItem","status":"pass","expected_items":0,"actual_items":0,"requests":0,"latency_ms":0.0,"consumed_capacity":0.0}
            {"type":"cleanup","deleted":[],"failed":[]}
            {"type":"done","passed":0,"mismatched":0,"errors":0,"skipped":0,"items_written":0,"load_requests":0,"load_ms":0.0,"total_ms":0.0,"left_behind":[],"ok":false}
            {"type":"failed","message":"cancelled","summary":{"passed":0,"mismatched":0,"errors":0,"skipped":0,"items_written":0,"load_requests":0,"load_ms":0.0,"total_ms":0.0,"left_behind":[],"ok":false}}"#]]
        .assert_eq(&json.join("\n"));
    }

    #[test]
    fn an_older_peers_event_lacking_fields_still_parses_with_defaults() {
        let event: RunEvent =
            serde_json::from_str(r#"{"type":"done","passed":2,"ok":true}"#).unwrap();
        let RunEvent::Done(summary) = event else {
            panic!("a done event expected")
        };
        assert_eq!(
            (summary.passed, summary.ok, summary.load_ms),
            (2, true, 0.0)
        );
        let event: RunEvent =
            serde_json::from_str(r#"{"type":"table_created","table":"T"}"#).unwrap();
        assert_eq!(event.name(), "table_created");
    }

    #[test]
    fn a_start_request_takes_counts_and_a_seed_and_refuses_an_unknown_field() {
        let start: StartRun = serde_json::from_str(
            r#"{"design":{"name":"d"},"engine":"embedded","counts":{"Order":3},"seed":7}"#,
        )
        .unwrap();
        assert_eq!(start.counts.get("Order"), Some(&3));
        assert_eq!(start.seed, Some(7));
        let minimal: StartRun = serde_json::from_str(r#"{"design":{}}"#).unwrap();
        assert_eq!(
            (minimal.engine, minimal.seed, minimal.keep),
            (None, None, false)
        );
        let kept: StartRun = serde_json::from_str(r#"{"design":{},"keep":true}"#).unwrap();
        assert!(kept.keep);
        let unknown = serde_json::from_str::<StartRun>(r#"{"design":{},"sead":7}"#)
            .unwrap_err()
            .to_string();
        assert!(unknown.contains("unknown field `sead`"), "{unknown}");
    }

    #[test]
    fn kept_tables_read_back_the_same_and_an_older_cleanup_keeps_nothing() {
        let run = KeptRun {
            run: "1a2b3c4d".to_string(),
            design: "Orders".to_string(),
            kept_at: 1_765_000_000,
            tables: vec![
                KeptTable {
                    table: "T".to_string(),
                    name: "keyplan-run-1a2b3c4d-T".to_string(),
                    state: KeptState::Present,
                },
                KeptTable {
                    table: "U".to_string(),
                    name: "keyplan-run-1a2b3c4d-U".to_string(),
                    state: KeptState::Unknown {
                        why: "no answer".to_string(),
                    },
                },
            ],
        };
        let json = serde_json::to_string(&run).unwrap();
        expect![[r#"{"run":"1a2b3c4d","design":"Orders","kept_at":1765000000,"tables":[{"table":"T","name":"keyplan-run-1a2b3c4d-T","state":"present"},{"table":"U","name":"keyplan-run-1a2b3c4d-U","state":"unknown","why":"no answer"}]}"#]]
            .assert_eq(&json);
        assert_eq!(serde_json::from_str::<KeptRun>(&json).unwrap(), run);
        let older: Cleanup = serde_json::from_str(r#"{"deleted":["x"],"failed":[]}"#).unwrap();
        assert!(older.kept.is_empty());
    }
}
