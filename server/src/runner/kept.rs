//! Runs that keep their tables (issue 43, item 6): a run asked to keep leaves its tables and
//! their items on the engine for other tools to look at, records them, and they are listed with
//! a delete that deletes exactly those tables.
//!
//! The invariant: keyplan lists and deletes only tables it recorded itself, and only while the
//! engine still holds the very table it made. What a run kept is recorded in the data folder
//! (`<data dir>/kept-runs/<run id>.json`, one file per run, written whole then renamed), with
//! each table's name (always under [`PREFIX`]), its ARN, its `TableId` and its creation time as
//! the engine gave them. A name prefix or a tag alone would not do: anyone can create a table
//! named `keyplan-run-...` or tagged so (a colleague's keyplan on a shared account, a script),
//! and a table deleted by other tools may be made again under the same name by someone else.
//! A record needs no permission beyond the run's own (tagging needs two more) and works on
//! engines that do not keep tags. Before a delete, and in every listing, the engine's
//! DescribeTable is compared with the record: a table whose ARN, id or creation time differs is
//! "replaced" and never touched.
//!
//! Where kept tables live, and what they survive:
//! - the embedded engine: not the in-memory one ordinary runs use (it ends with its process),
//!   but dynoxide-rs's SQLite file `<data dir>/kept-tables.db`, opened when first needed. Kept
//!   tables there survive the run's end, the CLI exiting, the server restarting and a reboot;
//!   deleting the data folder deletes them. Other tools reach them by serving the file:
//!   `dynoxide --db-path <data dir>/kept-tables.db`, then the AWS CLI or NoSQL Workbench.
//! - an endpoint (DynamoDB Local, LocalStack, moto): for as long as that engine keeps tables;
//!   one started in memory forgets them when it stops, and the listing then says "gone".
//! - Amazon DynamoDB (`--endpoint aws`, which needs `--allow-aws` and a named Region, as every
//!   run there does): until deleted, billed for their storage meanwhile (on-demand tables cost
//!   nothing idle but storage).
//!
//! Keeping is refused, with why, when there is no data folder to record in, when the operator
//! said so (`keyplan serve --no-kept-tables`, for a server shared with others), and when
//! [`MAX_KEPT_RUNS`] runs already keep tables. Records are read within [`MAX_RECORD_BYTES`]
//! each; a file that is not a record is skipped, never trusted.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use keyplan_core::api::runs::{DeletedKept, KeptRun, KeptState, KeptTable};
use serde::{Deserialize, Serialize};

use super::error::{RunError, code, run_error};
use super::tables::{PREFIX, RunId, delete_all};
use crate::engine::{EmbeddedEngine, Engine, EngineKind};

/// The most runs whose tables are kept at once, per data folder: a run asking to keep more is
/// refused until some are deleted (at most 25 tables a run, so 500 tables at most).
pub const MAX_KEPT_RUNS: usize = 20;
/// The largest record file read: a run's 25 tables at 255-character names and their ARNs take
/// under 25 KiB.
pub const MAX_RECORD_BYTES: u64 = 64 * 1024;
/// The folder of records, under the data folder.
pub const RECORDS: &str = "kept-runs";
/// The embedded engine's file for kept tables, under the data folder.
pub const EMBEDDED_FILE: &str = "kept-tables.db";
/// The record file's format version.
const VERSION: u32 = 1;

/// A record file (format version 1): what one run kept, on which engine.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Record {
    version: u32,
    run: String,
    /// The engine's identity ([`identity`]): a record is listed only for the same engine.
    engine: String,
    design: String,
    kept_at: u64,
    tables: Vec<Recorded>,
}

/// One kept table as the engine described it when the run ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Recorded {
    table: String,
    name: String,
    #[serde(default)]
    made: Made,
}

/// What tells one table from another of the same name: its ARN (account, Region, name), its
/// `TableId` (new for every table AWS makes) and its creation time, as far as the engine
/// gives them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Made {
    arn: Option<String>,
    id: Option<String>,
    created_ms: Option<i64>,
}

/// Why a keep, a listing or a delete of kept tables cannot be done.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KeepError {
    /// Keeping is not possible here (the message says why and what to do).
    #[error("{0}")]
    NotAllowed(String),
    #[error("run `{run}` kept no tables on engine `{engine}`")]
    NoSuchRun { run: String, engine: String },
    #[error(
        "{0} runs already keep their tables, the most keyplan keeps; delete some first (the Run panel's list of kept tables, or `keyplan run --delete-kept RUN`)"
    )]
    Full(usize),
    #[error("the record of kept tables in {path}: {detail}")]
    Record { path: String, detail: String },
    #[error(transparent)]
    Engine(#[from] RunError),
}

/// Where runs keep their tables: the data folder of records and the embedded engine's file.
/// Cheap to clone. [`Keeper::default`] has no data folder and refuses to keep.
#[derive(Debug, Clone, Default)]
pub struct Keeper {
    dir: Option<PathBuf>,
    /// Why keeping is refused though there may be a data folder (the operator's choice).
    refused: Option<String>,
    /// The embedded engine on [`EMBEDDED_FILE`], once opened.
    embedded: Arc<Mutex<Option<Engine>>>,
}

/// The engine a record belongs to: the embedded engine (its file is in the same data folder as
/// the records), an endpoint by its URL (without any user and password), or Amazon DynamoDB by
/// Region.
fn identity(engine: &Engine) -> String {
    match &engine.kind {
        EngineKind::Embedded => "embedded".to_string(),
        EngineKind::Endpoint { .. } => format!("endpoint {}", engine.kind.describe()),
        EngineKind::Aws => format!(
            "aws {}",
            engine
                .client
                .config()
                .region()
                .map(ToString::to_string)
                .unwrap_or_default()
        ),
    }
}

fn now_s() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

impl Keeper {
    /// Runs keep their records (and the embedded engine's kept tables) in `dir`.
    pub fn in_dir(dir: impl Into<PathBuf>) -> Keeper {
        Keeper {
            dir: Some(dir.into()),
            refused: None,
            embedded: Arc::default(),
        }
    }

    /// Refuses every keep, saying `why`; lists and deletes nothing.
    pub fn refusing(why: impl Into<String>) -> Keeper {
        Keeper {
            refused: Some(why.into()),
            ..Keeper::default()
        }
    }

    /// Why a run cannot keep its tables; `None` when it can. Every engine can keep tables
    /// once there is a data folder to record them in (Amazon DynamoDB only ever with
    /// `--allow-aws`, as for any run there).
    pub fn refusal(&self) -> Option<String> {
        self.dir().err().map(|e| e.to_string())
    }

    fn dir(&self) -> Result<&Path, KeepError> {
        if let Some(why) = &self.refused {
            return Err(KeepError::NotAllowed(why.clone()));
        }
        self.dir.as_deref().ok_or_else(|| {
            KeepError::NotAllowed(
                "this keyplan has no data folder to record kept tables in, so every run deletes its tables".to_string(),
            )
        })
    }

    /// The engine a run that keeps its tables uses instead of `engine`, and the one its kept
    /// tables are listed and deleted on: the embedded engine's file for the embedded engine,
    /// `engine` itself otherwise. Refused when keeping is.
    pub fn engine_for(&self, engine: &Engine) -> Result<Engine, KeepError> {
        let dir = self.dir()?;
        if engine.kind != EngineKind::Embedded {
            return Ok(engine.clone());
        }
        let mut opened = self.embedded.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(kept) = opened.as_ref() {
            return Ok(kept.clone());
        }
        let record = |detail: String| KeepError::Record {
            path: dir.display().to_string(),
            detail,
        };
        std::fs::create_dir_all(dir).map_err(|e| record(e.to_string()))?;
        let file =
            EmbeddedEngine::open(&dir.join(EMBEDDED_FILE)).map_err(|e| record(e.to_string()))?;
        file.commit_without_sync()
            .map_err(|e| record(e.to_string()))?;
        let kept = Engine::embedded(&file).with_timing(engine.timing);
        *opened = Some(kept.clone());
        Ok(kept)
    }

    /// Refuses a keep before anything is made when [`MAX_KEPT_RUNS`] runs already keep tables.
    pub fn check_room(&self) -> Result<(), KeepError> {
        let n = self.records()?.len();
        if n >= MAX_KEPT_RUNS {
            return Err(KeepError::Full(n));
        }
        Ok(())
    }

    fn folder(&self) -> Result<PathBuf, KeepError> {
        Ok(self.dir()?.join(RECORDS))
    }

    /// Every record in the folder, within the bounds: files named `<run id>.json`, each read
    /// within [`MAX_RECORD_BYTES`]; any other file, and one that is not a record, is skipped.
    fn records(&self) -> Result<Vec<Record>, KeepError> {
        let folder = self.folder()?;
        let entries = match std::fs::read_dir(&folder) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => {
                return Err(KeepError::Record {
                    path: folder.display().to_string(),
                    detail: e.to_string(),
                });
            }
        };
        let mut records = Vec::new();
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let Some(run) = name.strip_suffix(".json").and_then(RunId::parse) else {
                continue;
            };
            if let Some(record) = read_record(&entry.path()).filter(|r| r.run == run.as_str()) {
                records.push(record);
            }
            // More than a full folder's worth means files not written by keyplan: stop there.
            if records.len() > MAX_KEPT_RUNS * 2 {
                break;
            }
        }
        records.sort_by(|a, b| (a.kept_at, &a.run).cmp(&(b.kept_at, &b.run)));
        Ok(records)
    }

    fn path_of(&self, run: &str) -> Result<PathBuf, KeepError> {
        Ok(self.folder()?.join(format!("{run}.json")))
    }

    fn write(&self, record: &Record) -> Result<(), KeepError> {
        let folder = self.folder()?;
        let failed = |detail: String| KeepError::Record {
            path: folder.display().to_string(),
            detail,
        };
        std::fs::create_dir_all(&folder).map_err(|e| failed(e.to_string()))?;
        let text = serde_json::to_string_pretty(record).map_err(|e| failed(e.to_string()))?;
        let path = self.path_of(&record.run)?;
        let partial = path.with_extension("json.partial");
        std::fs::write(&partial, text).map_err(|e| failed(e.to_string()))?;
        std::fs::rename(&partial, &path).map_err(|e| failed(e.to_string()))
    }

    fn forget(&self, run: &str) -> Result<(), KeepError> {
        let path = self.path_of(run)?;
        match std::fs::remove_file(&path) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(KeepError::Record {
                path: path.display().to_string(),
                detail: e.to_string(),
            }),
        }
    }

    /// Records that run `id` on `engine` kept `tables` (design name, engine name), each as the
    /// engine describes it now. The caller deletes the tables when this fails.
    pub async fn record(
        &self,
        engine: &Engine,
        id: &RunId,
        design: &str,
        tables: &[(String, String)],
    ) -> Result<Vec<String>, KeepError> {
        self.check_room()?;
        let mut recorded = Vec::new();
        for (table, name) in tables {
            let made = made(engine, name).await?.ok_or_else(|| RunError::NoTable {
                engine: engine.name.clone(),
                table: name.clone(),
            })?;
            recorded.push(Recorded {
                table: table.clone(),
                name: name.clone(),
                made,
            });
        }
        let record = Record {
            version: VERSION,
            run: id.to_string(),
            engine: identity(engine),
            design: design.to_string(),
            kept_at: now_s(),
            tables: recorded,
        };
        self.write(&record)?;
        Ok(tables.iter().map(|(_, name)| name.clone()).collect())
    }

    /// The runs that kept tables on `engine` (the one [`Keeper::engine_for`] gives), oldest
    /// first, each table with where it is now.
    pub async fn list(&self, engine: &Engine) -> Result<Vec<KeptRun>, KeepError> {
        // The records first: a listing with none opens no file and asks no engine.
        let records: Vec<Record> = self
            .records()?
            .into_iter()
            .filter(|r| r.engine == identity(engine))
            .collect();
        if records.is_empty() {
            return Ok(Vec::new());
        }
        let engine = &self.engine_for(engine)?;
        super::preflight(engine).await?;
        let mut runs = Vec::new();
        for record in records {
            let states = record.tables.iter().map(|t| state(engine, t));
            let states = futures_util::future::join_all(states).await;
            runs.push(KeptRun {
                run: record.run,
                design: record.design,
                kept_at: record.kept_at,
                tables: record
                    .tables
                    .into_iter()
                    .zip(states)
                    .map(|(t, state)| KeptTable {
                        table: t.table,
                        name: t.name,
                        state,
                    })
                    .collect(),
            });
        }
        Ok(runs)
    }

    /// Deletes the tables run `run` kept on `engine` that the engine still holds as the run
    /// made them, and forgets the run once none is left to delete. Tables of the same name that
    /// are not the run's are left alone.
    pub async fn delete(&self, engine: &Engine, run: &RunId) -> Result<DeletedKept, KeepError> {
        let no_such = || KeepError::NoSuchRun {
            run: run.to_string(),
            engine: engine.name.clone(),
        };
        let path = self.path_of(run.as_str())?;
        let mut record = read_record(&path)
            .filter(|r| r.run == run.as_str() && r.engine == identity(engine))
            .ok_or_else(no_such)?;
        let engine = &self.engine_for(engine)?;
        super::preflight(engine).await?;
        let mut answer = DeletedKept::default();
        let mut ours = Vec::new();
        for table in &record.tables {
            match state(engine, table).await {
                KeptState::Present => ours.push(table.name.clone()),
                KeptState::Gone => answer.gone.push(table.name.clone()),
                KeptState::Replaced => answer.left_alone.push(table.name.clone()),
                KeptState::Unknown { why } => answer.failed.push(format!("{}: {why}", table.name)),
            }
        }
        let cleanup = delete_all(engine, ours).await;
        answer.deleted = cleanup.deleted;
        answer.failed.extend(cleanup.failed);
        // What could not be deleted (or asked about) stays recorded, so it stays listed.
        let settled = |name: &String| {
            [&answer.deleted, &answer.gone, &answer.left_alone]
                .iter()
                .any(|names| names.contains(name))
        };
        record.tables.retain(|t| !settled(&t.name));
        if record.tables.is_empty() {
            self.forget(run.as_str())?;
        } else {
            self.write(&record)?;
        }
        Ok(answer)
    }
}

fn read_record(path: &Path) -> Option<Record> {
    use std::io::Read;
    let file = std::fs::File::open(path).ok()?;
    let mut text = String::new();
    file.take(MAX_RECORD_BYTES + 1)
        .read_to_string(&mut text)
        .ok()?;
    if text.len() as u64 > MAX_RECORD_BYTES {
        return None;
    }
    let record: Record = serde_json::from_str(&text).ok()?;
    let valid = record.version == VERSION
        && RunId::parse(&record.run).is_some()
        && record.tables.iter().all(|t| t.name.starts_with(PREFIX));
    valid.then_some(record)
}

/// How the engine describes table `name` now; `None` when it holds no such table.
async fn made(engine: &Engine, name: &str) -> Result<Option<Made>, RunError> {
    let what = format!("describe the kept table {name}");
    match engine.client.describe_table().table_name(name).send().await {
        Ok(answer) => Ok(answer.table().map(|t| Made {
            arn: t.table_arn().map(str::to_string),
            id: t.table_id().map(str::to_string),
            created_ms: t.creation_date_time().and_then(|d| d.to_millis().ok()),
        })),
        Err(err) if code(&err) == Some("ResourceNotFoundException") => Ok(None),
        Err(err) => Err(run_error(engine, &what, &err)),
    }
}

/// Whether the engine holds `table` as it was recorded.
async fn state(engine: &Engine, table: &Recorded) -> KeptState {
    match made(engine, &table.name).await {
        Ok(Some(made)) if made == table.made => KeptState::Present,
        Ok(Some(_)) => KeptState::Replaced,
        Ok(None) => KeptState::Gone,
        Err(e) => KeptState::Unknown { why: e.to_string() },
    }
}
