//! `POST /api/migrate/verify`: a migration proven on one of the server's engines, from the
//! app's Migrate tab (issue 18), streamed: each of NEW's patterns as it is checked, the
//! cleanup, then what `keyplan migrate OLD NEW --verify` reports, as data and in its words.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::Line;
use super::runs::{Cleanup, PatternResult, Status};
use crate::counts::{plural, thousands};

/// The request: `{"engine": "embedded", "old": DESIGN, "new": DESIGN, "items": {"Order":
/// 30000}}`, the designs as their files' JSON.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VerifyRequest {
    /// An engine name from `GET /api/engines`; the default engine when absent or `null`.
    #[serde(default)]
    pub engine: Option<String>,
    pub old: serde_json::Value,
    pub new: serde_json::Value,
    /// Items per entity for the plan's figures (the verification loads OLD's sample).
    #[serde(default)]
    pub items: BTreeMap<String, u64>,
}

/// What a verification found. Fields in alphabetical order, the wire's.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Verified {
    /// Where the migrated data differs from core's prediction, by table; empty when it agrees.
    pub data_mismatches: Vec<String>,
    pub deleted: usize,
    /// Each step as executed, in order, with its time.
    pub executed: Vec<String>,
    /// Items read back from the migrated tables.
    pub items_after: usize,
    /// OLD's sample items loaded before the migration.
    pub items_before: usize,
    /// Tables the cleanup could not delete.
    pub left_behind: Vec<String>,
    /// Milliseconds the plan's steps took on the engine (scans, writes, index builds).
    pub migrate_ms: f64,
    /// Steps the engine could not execute, each with why (a vector index on an engine keyplan
    /// cannot make one on, issue 40): said, not failed.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_executed: Vec<String>,
    /// NEW's patterns run on the migrated data.
    #[serde(serialize_with = "super::sorted")]
    pub patterns: Vec<PatternResult>,
    /// Milliseconds of the whole verification, cleanup included.
    pub total_ms: f64,
    pub written: usize,
}

impl Verified {
    /// What the verification found, as `keyplan migrate --verify` prints it: the steps
    /// executed, the data check, each pattern.
    pub fn text(&self, engine: &str) -> String {
        let v = self;
        let mut out = format!(
            "\nVerified on {engine}: {} loaded, {} executed ({} written, {} deleted), {} read back\n",
            plural(v.items_before, "item"),
            plural(v.executed.len(), "step"),
            plural(v.written, "item"),
            thousands(v.deleted as u64),
            plural(v.items_after, "item")
        );
        if v.data_mismatches.is_empty() {
            out.push_str("  data: as core predicts, item for item\n");
        }
        for m in &v.data_mismatches {
            out.push_str(&format!("  data differs: {m}\n"));
        }
        for n in &v.not_executed {
            out.push_str(&format!("  not executed: {n}\n"));
        }
        for p in &v.patterns {
            let status = match p.status {
                Status::Pass => "pass",
                Status::Mismatch => "MISMATCH",
                Status::Error => "ERROR",
                Status::Skipped => "skipped",
            };
            let why = p
                .message
                .as_deref()
                .map(|m| format!(": {m}"))
                .unwrap_or_default();
            out.push_str(&format!("  {status:<8} {}{why}\n", p.pattern));
        }
        for t in &v.left_behind {
            out.push_str(&format!("  left behind: {t}\n"));
        }
        out.push_str(if v.ok() {
            "Verification passed.\n"
        } else {
            "Verification FAILED.\n"
        });
        out
    }

    /// The data is what core predicts and every pattern that ran matched.
    pub fn ok(&self) -> bool {
        self.data_mismatches.is_empty()
            && self.left_behind.is_empty()
            && self
                .patterns
                .iter()
                .all(|p| matches!(p.status, Status::Pass | Status::Skipped))
    }
}

/// The answer: whether it passed, the report in `keyplan migrate --verify`'s words, and what
/// it found. Fields in alphabetical order, the wire's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VerifyAnswer {
    pub ok: bool,
    pub text: String,
    #[serde(default)]
    pub verified: Verified,
}

/// What a verification sends before its answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VerifyEvent {
    /// `{"pattern": ...}`: one of NEW's patterns checked on the migrated data.
    Pattern(#[serde(serialize_with = "super::sorted")] PatternResult),
    /// `{"cleanup": ...}`: the verification's tables deleted, or not.
    Cleanup(Cleanup),
}

/// A line of `POST /api/migrate/verify`.
pub type VerifyLine = Line<VerifyEvent, VerifyAnswer>;
