//! What the Run panel knows about one run, built only from the run protocol's types in
//! [`keyplan_core::api::runs`] (the one definition the server serialises too): the engine list, the
//! body of `POST /api/runs`, and the server-sent events folded into one [`RunState`]. Plain data and plain functions, so
//! every rule is a native unit test; the component only moves bytes between the network and
//! these functions.
//!
//! Invariant: a [`RunState`] is finished ([`RunState::finished`]) exactly when a `done` or
//! `failed` event arrived, or the connection was lost before one; nothing after that changes it.

use std::collections::BTreeMap;

pub use keyplan_core::api::runs::{
    Cleanup, EVENT_NAMES, EngineInfo as Engine, PatternResult, RunEvent, StartRun, Started, Status,
    Summary,
};
use keyplan_core::sample::MAX_SAMPLE_ITEMS;

use crate::text::plural;

/// What the panel learned from `GET /api/engines`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Engines {
    Loading,
    /// The server runs designs on these engines (the default first).
    Available(Vec<Engine>),
    /// The app is served without the API (a static host): runs need `keyplan serve`.
    NoApi,
    /// The request never got an answer.
    Unreachable(String),
}

impl Engines {
    /// Reads the answer to `GET /api/engines`. Anything but a JSON list of engines (a static
    /// host's 404 or its `index.html` fallback) means there is no API here.
    pub fn from_response(status: u16, body: &str) -> Engines {
        if !(200..300).contains(&status) {
            return Engines::NoApi;
        }
        match serde_json::from_str::<Vec<Engine>>(body) {
            Ok(mut engines) if !engines.is_empty() => {
                engines.sort_by_key(|e| !e.default);
                Engines::Available(engines)
            }
            _ => Engines::NoApi,
        }
    }

    /// Whether the app is served by `keyplan serve`, and with which engines:
    /// `GET /api/engines` (the file import asks too before it hands the server a module the app
    /// cannot read). A static host answers it with a 404 or its `index.html` ([`Engines::NoApi`]).
    pub async fn probe() -> Engines {
        match crate::api::fetch("GET", "/api/engines", None).await {
            Ok((status, body)) => Engines::from_response(status, &body),
            Err(message) => Engines::Unreachable(message),
        }
    }
}

/// The body of `POST /api/runs` for `design_text` (a design file) on engine `engine`, with
/// `counts` items per entity (empty: the sample's defaults), the sample's `seed` (`None`:
/// the default seed), and whether the run keeps its tables.
pub fn start_body(
    design_text: &str,
    engine: &str,
    counts: BTreeMap<String, u32>,
    seed: Option<u64>,
    keep: bool,
) -> Result<String, String> {
    let design: serde_json::Value = serde_json::from_str(design_text)
        .map_err(|e| format!("the design could not be sent: {e}"))?;
    let request = StartRun {
        design,
        engine: Some(engine.to_string()),
        counts,
        seed,
        keep,
    };
    serde_json::to_string(&request).map_err(|e| format!("the design could not be sent: {e}"))
}

/// The answer to `POST /api/runs`: where the events are, or the server's error message.
pub fn started(status: u16, body: &str) -> Result<String, String> {
    if (200..300).contains(&status) {
        serde_json::from_str::<Started>(body)
            .map(|s| s.events)
            .map_err(|e| format!("the server's answer was not understood: {e}"))
    } else {
        Err(serde_json::from_str::<keyplan_core::api::ErrorBody>(body)
            .map(|e| e.error)
            .unwrap_or_else(|_| format!("the server refused the run (HTTP {status})")))
    }
}

/// The most items per entity the Run panel asks for.
pub const MAX_ITEMS_PER_ENTITY: u32 = 10_000;

/// What the Run panel's sample fields say, read once: items per entity (`None`: the sample's
/// defaults) and the seed (`None`: the default seed).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SampleChoice {
    pub items_per_entity: Option<u32>,
    pub seed: Option<u64>,
}

impl SampleChoice {
    /// Reads the two fields' text; an empty field means the default. `Err` says what is wrong,
    /// for the message under the fields (the Run button is off meanwhile).
    pub fn parse(items_per_entity: &str, seed: &str) -> Result<SampleChoice, String> {
        let items_per_entity = match items_per_entity.trim() {
            "" => None,
            text => match text.parse::<u32>() {
                Ok(n) if (1..=MAX_ITEMS_PER_ENTITY).contains(&n) => Some(n),
                _ => {
                    return Err(format!(
                        "Items per entity must be a whole number from 1 to {MAX_ITEMS_PER_ENTITY}, not `{text}`."
                    ));
                }
            },
        };
        let seed = match seed.trim() {
            "" => None,
            text => Some(text.parse::<u64>().map_err(|_| {
                format!(
                    "The seed must be a whole number from 0 to {}, not `{text}`.",
                    u64::MAX
                )
            })?),
        };
        Ok(SampleChoice {
            items_per_entity,
            seed,
        })
    }

    /// This choice, or why the sample it makes of `design` is more than a run from the browser
    /// may write ([`MAX_SAMPLE_ITEMS`]: every entity's items, defaults and children included),
    /// for the message under the fields before anything is sent (issue 13).
    pub fn within_budget(self, design: &keyplan_core::Design) -> Result<SampleChoice, String> {
        let config = keyplan_core::sample::SampleConfig::new(self.counts(design), self.seed);
        keyplan_core::sample::plan(design, &config)
            .check(MAX_SAMPLE_ITEMS)
            .map_err(|e| {
                let message = e.to_string();
                let mut chars = message.chars();
                let first = chars.next().map(|c| c.to_uppercase().to_string());
                format!(
                    "{}{}. Give every entity fewer items, in Items per entity.",
                    first.unwrap_or_default(),
                    chars.as_str()
                )
            })?;
        Ok(self)
    }

    /// The `counts` of the start request: the same number for every entity of `design`, or
    /// none (the sample's defaults).
    pub fn counts(&self, design: &keyplan_core::Design) -> BTreeMap<String, u32> {
        match self.items_per_entity {
            None => BTreeMap::new(),
            Some(n) => design
                .entities
                .iter()
                .map(|e| (e.name.clone(), n))
                .collect(),
        }
    }
}

/// Parses an event's `data`.
pub fn parse_event(data: &str) -> Result<RunEvent, String> {
    serde_json::from_str(data)
        .map_err(|e| format!("an event from the server was not understood: {e}"))
}

/// Where a run is.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Phase {
    #[default]
    Idle,
    /// `POST /api/runs` sent, no event yet.
    Starting,
    Running,
    Done(Summary),
    Failed(String),
}

/// Everything the panel shows about the current run.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RunState {
    pub phase: Phase,
    pub engine: String,
    pub tables: Vec<String>,
    pub tables_created: Vec<String>,
    pub items_written: usize,
    pub items_total: usize,
    pub patterns_total: usize,
    pub results: Vec<PatternResult>,
    pub cleanup: Option<Cleanup>,
    /// The last word on a table that is slow to become ACTIVE, until it is.
    pub waiting: Option<String>,
}

impl RunState {
    /// A run that was just asked for.
    pub fn starting(engine: &str) -> RunState {
        RunState {
            phase: Phase::Starting,
            engine: engine.to_string(),
            ..RunState::default()
        }
    }

    pub fn finished(&self) -> bool {
        matches!(self.phase, Phase::Done(_) | Phase::Failed(_))
    }

    pub fn busy(&self) -> bool {
        matches!(self.phase, Phase::Starting | Phase::Running)
    }

    /// Folds one event in; events after the end are ignored.
    pub fn apply(&mut self, event: RunEvent) {
        if self.finished() {
            return;
        }
        self.phase = Phase::Running;
        match event {
            RunEvent::Started {
                engine,
                tables,
                items,
                patterns,
                ..
            } => {
                self.engine = engine;
                self.tables = tables;
                self.items_total = items;
                self.patterns_total = patterns;
            }
            RunEvent::TableCreated { table, .. } => {
                self.waiting = None;
                self.tables_created.push(table);
            }
            RunEvent::Waiting {
                table,
                status,
                waited_s,
                deadline_s,
                ..
            } => {
                self.waiting = Some(format!(
                    "Table {table} is still {status} after {waited_s:.0} s (waiting at most {deadline_s:.0} s)"
                ))
            }
            RunEvent::ItemsWritten { written, total } => {
                self.items_written = written;
                self.items_total = total;
            }
            RunEvent::Pattern(result) => {
                self.results.push(result);
                self.results.sort_by_key(|r| r.index);
            }
            RunEvent::Cleanup(cleanup) => self.cleanup = Some(cleanup),
            RunEvent::Done(summary) => self.phase = Phase::Done(summary),
            RunEvent::Failed { message, .. } => self.phase = Phase::Failed(message),
        }
    }

    /// The run could not go on (no answer, a refused start, a lost stream, a bad event).
    pub fn fail(&mut self, message: impl Into<String>) {
        if !self.finished() {
            self.phase = Phase::Failed(message.into());
        }
    }

    /// Work done over work to do, in 0..=1: tables, items and patterns each count one step.
    pub fn progress(&self) -> f64 {
        if let Phase::Done(_) = self.phase {
            return 1.0;
        }
        let total = self.tables.len() + self.items_total + self.patterns_total;
        if total == 0 {
            return 0.0;
        }
        let done = self.tables_created.len() + self.items_written + self.results.len();
        (done as f64 / total as f64).min(1.0)
    }

    /// One line saying where the run is, e.g. "Writing items: 120 of 400".
    pub fn status_line(&self) -> String {
        match &self.phase {
            Phase::Idle => "Not run yet".to_string(),
            Phase::Starting => "Starting the run…".to_string(),
            Phase::Running if self.waiting.is_some() => self.waiting.clone().unwrap_or_default(),
            Phase::Running if self.tables_created.len() < self.tables.len() => format!(
                "Creating tables: {} of {}",
                self.tables_created.len(),
                self.tables.len()
            ),
            Phase::Running if self.items_written < self.items_total => format!(
                "Writing items: {} of {}",
                self.items_written, self.items_total
            ),
            Phase::Running if self.cleanup.is_none() => format!(
                "Running patterns: {} of {}",
                self.results.len(),
                self.patterns_total
            ),
            Phase::Running => "Cleaning up…".to_string(),
            Phase::Done(s) if s.ok => format!(
                "Passed: {}{}, {} in {:.0} ms",
                plural(s.passed, "pattern"),
                match s.skipped {
                    0 => String::new(),
                    n => format!(" ({n} skipped: not served by a key)"),
                },
                plural(s.items_written, "item"),
                s.total_ms
            ),
            Phase::Done(s) => format!(
                "Finished with {} and {}",
                plural(s.mismatched, "mismatch"),
                plural(s.errors, "error")
            ),
            Phase::Failed(message) => format!("The run failed: {message}"),
        }
    }

    /// What cleanup did, once it ran.
    pub fn cleanup_line(&self) -> Option<String> {
        let c = self.cleanup.as_ref()?;
        Some(if !c.kept.is_empty() {
            format!(
                "Kept {}: {} (listed under Kept tables, with a delete button)",
                plural(c.kept.len(), "table"),
                c.kept.join(", ")
            )
        } else if c.failed.is_empty() {
            format!("Cleanup: deleted {}", plural(c.deleted.len(), "table"))
        } else {
            format!(
                "Cleanup: could not delete {}; delete them by hand",
                c.failed.join(", ")
            )
        })
    }
}

/// A pattern's figures, e.g. "Query on GSI1 · 3 of 3 items · 1.2 ms · 0.5 RCU".
pub fn figures(r: &PatternResult) -> String {
    let operation = match &r.index_name {
        Some(index) => format!("{} on {index}", r.operation),
        None => r.operation.clone(),
    };
    format!(
        "{operation} · {} of {} items · {:.1} ms · {:.1} capacity units",
        r.actual_items, r.expected_items, r.latency_ms, r.consumed_capacity
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use expect_test::{Expect, expect};

    fn run(events: &[&str]) -> RunState {
        let mut state = RunState::starting("embedded");
        for e in events {
            match parse_event(e) {
                Ok(event) => state.apply(event),
                Err(message) => state.fail(message),
            }
        }
        state
    }

    fn check(events: &[&str], expect: Expect) {
        let s = run(events);
        let rows: Vec<String> = s
            .results
            .iter()
            .map(|r| format!("{} {}: {}", r.status.label(), r.pattern, figures(r)))
            .collect();
        expect.assert_eq(&format!(
            "{} | {:.2} | {} | {}",
            s.status_line(),
            s.progress(),
            rows.join("; "),
            s.cleanup_line().unwrap_or_default()
        ));
    }

    const STARTED: &str = r#"{"type":"started","id":"1a2b","engine":"embedded","tables":["T"],"items":4,"patterns":2}"#;
    const TABLE: &str = r#"{"type":"table_created","table":"T","name":"keyplan-run-1a2b-T"}"#;
    const HALF: &str = r#"{"type":"items_written","written":2,"total":4}"#;
    const ALL: &str = r#"{"type":"items_written","written":4,"total":4}"#;
    const PASS: &str = r#"{"type":"pattern","index":1,"pattern":"Get order","operation":"GetItem","status":"pass","expected_items":1,"actual_items":1,"requests":1,"latency_ms":0.42,"consumed_capacity":0.5}"#;
    const MISMATCH: &str = r#"{"type":"pattern","index":0,"pattern":"Orders of customer","operation":"Query","index_name":"GSI1","status":"mismatch","expected_items":2,"actual_items":1,"requests":1,"latency_ms":1.0,"consumed_capacity":0.5,"diff":"- ORDER#2\n"}"#;
    const CLEANUP: &str = r#"{"type":"cleanup","deleted":["keyplan-run-1a2b-T"],"failed":[]}"#;
    const DONE: &str = r#"{"type":"done","passed":2,"mismatched":0,"errors":0,"skipped":0,"items_written":4,"load_requests":1,"load_ms":2.0,"total_ms":31.4,"left_behind":[],"ok":true}"#;

    #[test]
    fn a_run_reports_each_step_as_its_events_arrive() {
        check(&[], expect!["Starting the run… | 0.00 |  | "]);
        check(&[STARTED], expect!["Creating tables: 0 of 1 | 0.00 |  | "]);
        check(
            &[STARTED, TABLE, HALF],
            expect!["Writing items: 2 of 4 | 0.43 |  | "],
        );
        check(
            &[STARTED, TABLE, ALL, PASS],
            expect![
                "Running patterns: 1 of 2 | 0.86 | pass Get order: GetItem · 1 of 1 items · 0.4 ms · 0.5 capacity units | "
            ],
        );
    }

    #[test]
    fn a_finished_run_shows_every_pattern_in_design_order_and_its_cleanup() {
        let pass2 = PASS
            .replace("\"index\":1", "\"index\":0")
            .replace("Get order", "List");
        check(
            &[STARTED, TABLE, ALL, PASS, &pass2, CLEANUP, DONE],
            expect![
                "Passed: 2 patterns, 4 items in 31 ms | 1.00 | pass List: GetItem · 1 of 1 items · 0.4 ms · 0.5 capacity units; pass Get order: GetItem · 1 of 1 items · 0.4 ms · 0.5 capacity units | Cleanup: deleted 1 table"
            ],
        );
    }

    #[test]
    fn a_run_that_kept_its_tables_names_them_where_cleanup_would_say_deleted() {
        let kept = r#"{"type":"cleanup","deleted":[],"failed":[],"kept":["keyplan-run-1a2b-T","keyplan-run-1a2b-U"]}"#;
        check(
            &[STARTED, TABLE, ALL, PASS, kept],
            expect![
                "Cleaning up… | 0.86 | pass Get order: GetItem · 1 of 1 items · 0.4 ms · 0.5 capacity units | Kept 2 tables: keyplan-run-1a2b-T, keyplan-run-1a2b-U (listed under Kept tables, with a delete button)"
            ],
        );
    }

    #[test]
    fn a_mismatch_keeps_its_diff_and_names_its_index() {
        let s = run(&[STARTED, TABLE, ALL, MISMATCH]);
        assert_eq!(s.results[0].status, Status::Mismatch);
        assert_eq!(s.results[0].diff.as_deref(), Some("- ORDER#2\n"));
        assert!(figures(&s.results[0]).starts_with("Query on GSI1 · 1 of 2 items"));
    }

    #[test]
    fn a_failed_run_says_why_and_ignores_what_comes_after() {
        let failed = r#"{"type":"failed","message":"the endpoint did not answer within 5 s","summary":{"passed":0,"mismatched":0,"errors":0,"skipped":0,"items_written":0,"load_requests":0,"load_ms":0.0,"total_ms":5000.0,"left_behind":[],"ok":false}}"#;
        check(
            &[STARTED, failed, PASS],
            expect!["The run failed: the endpoint did not answer within 5 s | 0.00 |  | "],
        );
    }

    #[test]
    fn an_event_that_is_not_understood_fails_the_run_instead_of_panicking() {
        check(
            &[STARTED, "{not json"],
            expect![
                "The run failed: an event from the server was not understood: key must be a string at line 1 column 2 | 0.00 |  | "
            ],
        );
    }

    #[test]
    fn a_static_host_without_the_api_means_keyplan_serve_is_needed() {
        assert_eq!(Engines::from_response(404, "Not Found"), Engines::NoApi);
        assert_eq!(
            Engines::from_response(200, "<!DOCTYPE html><html>"),
            Engines::NoApi
        );
        assert_eq!(Engines::from_response(200, "[]"), Engines::NoApi);
        let body = r#"[{"name":"local","kind":"endpoint","description":"x","default":false},{"name":"embedded","kind":"embedded","description":"in-process","default":true}]"#;
        let Engines::Available(engines) = Engines::from_response(200, body) else {
            panic!("engines expected")
        };
        assert_eq!(
            engines[0].name, "embedded",
            "the default engine comes first"
        );
    }

    #[test]
    fn the_start_request_carries_the_design_and_the_engine_name_and_reads_the_answer() {
        let body = start_body(r#"{"name":"d"}"#, "embedded", BTreeMap::new(), None, false)
            .expect("a body");
        expect![[r#"{"design":{"name":"d"},"engine":"embedded"}"#]].assert_eq(&body);
        assert_eq!(
            start_body("{not json", "embedded", BTreeMap::new(), None, false),
            Err("the design could not be sent: key must be a string at line 1 column 2".into())
        );
        assert_eq!(
            started(202, r#"{"id":"1a2b","events":"/api/runs/1a2b/events"}"#),
            Ok("/api/runs/1a2b/events".to_string())
        );
        assert_eq!(
            started(400, r#"{"error":"unknown engine `x`"}"#),
            Err("unknown engine `x`".to_string())
        );
        assert_eq!(
            started(502, "Bad Gateway"),
            Err("the server refused the run (HTTP 502)".to_string())
        );
    }

    #[test]
    fn a_start_request_with_counts_and_a_seed_reads_back_as_the_servers_start_run() {
        let counts: BTreeMap<String, u32> = [("Customer".to_string(), 3), ("Order".to_string(), 3)]
            .into_iter()
            .collect();
        let body = start_body(r#"{"name":"d"}"#, "embedded", counts.clone(), Some(7), true)
            .expect("a body");
        expect![[r#"{"design":{"name":"d"},"engine":"embedded","counts":{"Customer":3,"Order":3},"seed":7,"keep":true}"#]]
            .assert_eq(&body);
        let request: StartRun = serde_json::from_str(&body).expect("the server's type reads it");
        assert_eq!(
            request,
            StartRun {
                design: serde_json::json!({"name": "d"}),
                engine: Some("embedded".to_string()),
                counts,
                seed: Some(7),
                keep: true,
            }
        );
    }

    fn check_choice(items: &str, seed: &str, expect: Expect) {
        expect.assert_eq(&format!("{:?}", SampleChoice::parse(items, seed)));
    }

    #[test]
    fn the_sample_fields_default_when_empty_and_explain_what_they_refuse() {
        check_choice(
            "",
            " ",
            expect!["Ok(SampleChoice { items_per_entity: None, seed: None })"],
        );
        check_choice(
            " 25 ",
            "7",
            expect!["Ok(SampleChoice { items_per_entity: Some(25), seed: Some(7) })"],
        );
        check_choice(
            "10000",
            "0",
            expect!["Ok(SampleChoice { items_per_entity: Some(10000), seed: Some(0) })"],
        );
        check_choice(
            "0",
            "",
            expect![[
                r#"Err("Items per entity must be a whole number from 1 to 10000, not `0`.")"#
            ]],
        );
        check_choice(
            "10001",
            "",
            expect![[
                r#"Err("Items per entity must be a whole number from 1 to 10000, not `10001`.")"#
            ]],
        );
        check_choice(
            "ten",
            "",
            expect![[
                r#"Err("Items per entity must be a whole number from 1 to 10000, not `ten`.")"#
            ]],
        );
        check_choice(
            "",
            "-1",
            expect![[
                r#"Err("The seed must be a whole number from 0 to 18446744073709551615, not `-1`.")"#
            ]],
        );
    }

    #[test]
    fn a_sample_over_the_budget_is_refused_before_sending_with_the_entity_it_would_take() {
        // issue 13: the panel sent these, and the server planned millions of items.
        let chain = keyplan_core::file::parse(include_str!(
            "../../../tests/fixtures/chain-16.keyplan.json"
        ))
        .expect("the fixture parses");
        expect![[r#"Err("The sample would have 215,233,600 items, more than the 100,000 allowed: entity `E15` alone would take 143,489,070 (3 for each item of `E14`). Give every entity fewer items, in Items per entity.")"#]]
        .assert_eq(&format!(
            "{:?}",
            SampleChoice::default().within_budget(&chain)
        ));
        let order = keyplan_core::examples::first();
        let ten_thousand = SampleChoice::parse("10000", "").expect("valid");
        assert_eq!(ten_thousand.within_budget(&order), Ok(ten_thousand));
        let mut wide = order.clone();
        for i in 0..6 {
            let mut extra = wide.entities[0].clone();
            extra.name = format!("Extra{i}");
            wide.entities.push(extra);
        }
        assert!(ten_thousand.within_budget(&wide).is_err());
    }

    #[test]
    fn items_per_entity_count_for_every_entity_of_the_design() {
        let design = keyplan_core::examples::first();
        let choice = SampleChoice::parse("3", "").expect("valid");
        let counts = choice.counts(&design);
        assert_eq!(counts.len(), design.entities.len());
        assert!(counts.values().all(|&n| n == 3));
        assert!(SampleChoice::default().counts(&design).is_empty());
    }
}
