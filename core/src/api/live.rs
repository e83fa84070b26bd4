//! Tables that exist, read by the server from an engine it was started with (issue 17):
//! `GET /api/engines/{name}/tables` and `POST /api/import/engine`, plain or streamed.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::Line;

/// The answer of `GET /api/engines/{name}/tables`. Fields in alphabetical order, the wire's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableList {
    pub engine: String,
    /// Item counts by table, as `DescribeTable` gives them (refreshed about every six hours),
    /// for the tables the server counted.
    #[serde(default)]
    pub items: BTreeMap<String, u64>,
    pub tables: Vec<String>,
}

/// The request of `POST /api/import/engine`: `tables`, or `all` for every table the engine
/// has, and the items to sample from each (the server's default when absent).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EngineImportRequest {
    /// An engine name from `GET /api/engines`.
    pub engine: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tables: Vec<String>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub all: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sample: Option<u64>,
}

/// The answer of `POST /api/import/engine`. Fields in alphabetical order, the wire's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EngineImportAnswer {
    /// The design file's JSON (`keyplan_core::file` reads and writes it, with its version).
    pub design: serde_json::Value,
    /// Always `engine`.
    #[serde(default)]
    pub format: String,
    /// What the import guessed or could not keep, one sentence each.
    #[serde(default)]
    pub notes: Vec<String>,
    /// What the scan of each table read and cost, in the order asked.
    #[serde(default)]
    pub tables: Vec<TableScan>,
}

/// What the scan of one table read and cost.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TableScan {
    #[serde(default)]
    pub items: u64,
    pub name: String,
    /// Scan requests sent.
    #[serde(default)]
    pub pages: u64,
    /// Read units the engine reported; `null` when it reports none (local engines often).
    #[serde(default)]
    pub read_units: Option<f64>,
}

/// How far a streamed import has read: sent after each page of a table's scan. Fields in
/// alphabetical order, the wire's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    /// Items the server expects to read of this table: the sample, or the table's item count
    /// when smaller (an estimate, so `read` may pass it).
    pub expected: u64,
    /// The table's place among those read, from 0.
    pub index: usize,
    /// Items read of this table so far.
    pub read: u64,
    /// The items asked of each table.
    #[serde(default)]
    pub sample: u64,
    pub table: String,
    /// The tables read in all.
    pub tables: usize,
}

impl Progress {
    /// The share of the whole import read, 0 to 1: the tables done and this one's part.
    pub fn fraction(&self) -> f64 {
        let tables = self.tables.max(1) as f64;
        let this = (self.read as f64 / self.expected.max(1) as f64).min(1.0);
        ((self.index as f64 + this) / tables).min(1.0)
    }
}

/// What a streamed engine import sends before its answer: `{"progress": ...}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EngineImportEvent {
    Progress(Progress),
}

/// A line of `POST /api/import/engine` streamed.
pub type EngineImportLine = Line<EngineImportEvent, EngineImportAnswer>;
