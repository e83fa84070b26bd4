//! The run's tables: their names, their creation from the model, and their deletion.
//!
//! The runner only ever writes to or deletes a name it generated itself
//! (`keyplan-run-<id>-<table>`) and whose CreateTable did not report that the name was taken.
//! [`TableGuard`] holds those names from the moment CreateTable is sent and deletes them at the
//! end of the run; if the run is dropped before that (a cancelled task, a closed server), its
//! `Drop` still sends the deletes on the current runtime.
//!
//! A delete is verified (issue 13): after the DeleteTables the engine's tables are listed, and
//! any of the run's still there (a CreateTable that landed late, a table still DELETING) is
//! deleted again and listed again, until none remain or the engine's cleanup deadline passes.
//! [`Cleanup::deleted`] names only tables the engine no longer lists; every other one is in
//! [`Cleanup::failed`] with why.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio_util::sync::CancellationToken;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::{
    AttributeDefinition, BillingMode, GlobalSecondaryIndex, IndexStatus, KeySchemaElement,
    KeyType as SdkKeyType, LocalSecondaryIndex, Projection as SdkProjection, ProjectionType,
    ScalarAttributeType, TableStatus, VectorAttributeDefinition, VectorDistanceFunction,
    VectorIndex as SdkVectorIndex,
};
use keyplan_core::{Distance, KeyAttribute, KeyType, Projection, Table};

use super::error::{RunError, code, run_error};
use super::{Cleanup, RunEvent};
use crate::engine::{Engine, redact};
use crate::runner::paging::{MAX_TABLE_PAGES, Paging};

/// Every run table's name starts with this; nothing else is ever deleted.
pub const PREFIX: &str = "keyplan-run-";

/// A run's id: 8 lowercase hex digits, random.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub struct RunId(String);

impl RunId {
    pub fn random() -> RunId {
        use std::hash::{BuildHasher, Hasher};
        let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or_default();
        hasher.write_u128(nanos);
        RunId(format!("{:08x}", hasher.finish() as u32))
    }

    /// A run id from text: 1 to 32 of `a-z 0-9`.
    pub fn parse(text: &str) -> Option<RunId> {
        let ok = (1..=32).contains(&text.len())
            && text
                .chars()
                .all(|c| c.is_ascii_digit() || c.is_ascii_lowercase());
        ok.then(|| RunId(text.to_string()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The engine-side name of design table `table` in this run. Characters DynamoDB refuses
    /// become `-`; the result is cut to DynamoDB's 255.
    pub fn table_name(&self, table: &str) -> String {
        let safe: String = table
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.') {
                    c
                } else {
                    '-'
                }
            })
            .collect();
        let mut name = format!("{PREFIX}{}-{safe}", self.0);
        name.truncate(*keyplan_core::limits::TABLE_NAME_LEN.end());
        name
    }
}

impl std::fmt::Display for RunId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The names a run created (or may have: CreateTable sent, answer not seen), to delete at the
/// end.
#[derive(Debug)]
pub struct TableGuard {
    engine: Engine,
    names: Arc<Mutex<Vec<String>>>,
    done: bool,
}

impl TableGuard {
    pub fn new(engine: &Engine) -> TableGuard {
        TableGuard {
            engine: engine.clone(),
            names: Arc::new(Mutex::new(Vec::new())),
            done: false,
        }
    }

    fn hold(&self, name: &str) {
        debug_assert!(name.starts_with(PREFIX));
        if let Ok(mut names) = self.names.lock() {
            names.push(name.to_string());
        }
    }

    fn release(&self, name: &str) {
        if let Ok(mut names) = self.names.lock() {
            names.retain(|n| n != name);
        }
    }

    /// Leaves every held table on the engine: the run recorded them as kept.
    pub fn keep(mut self) {
        self.done = true;
    }

    /// Deletes every held table and checks that the engine no longer lists it.
    pub async fn cleanup(mut self) -> Cleanup {
        self.done = true;
        let names = std::mem::take(&mut *self.names.lock().unwrap_or_else(|p| p.into_inner()));
        delete_all(&self.engine, names).await
    }
}

impl Drop for TableGuard {
    fn drop(&mut self) {
        if self.done {
            return;
        }
        let names = std::mem::take(&mut *self.names.lock().unwrap_or_else(|p| p.into_inner()));
        if names.is_empty() {
            return;
        }
        match tokio::runtime::Handle::try_current() {
            Ok(handle) => {
                let engine = self.engine.clone();
                handle.spawn(async move {
                    let cleanup = delete_all(&engine, names).await;
                    if !cleanup.failed.is_empty() {
                        tracing::error!("run tables left behind: {:?}", cleanup.failed);
                    }
                });
            }
            Err(_) => tracing::error!("run tables left behind (no runtime): {names:?}"),
        }
    }
}

/// Deletes `names`, then lists the engine's tables until none of them is there (deleting again
/// any that is), for up to the engine's cleanup deadline.
pub(crate) async fn delete_all(engine: &Engine, names: Vec<String>) -> Cleanup {
    let (client, deadline) = (&engine.client, engine.timing.cleanup);
    let mut cleanup = Cleanup::default();
    if names.is_empty() {
        return cleanup;
    }
    let until = tokio::time::Instant::now() + deadline;
    let mut why: BTreeMap<String, String> = BTreeMap::new();
    let mut pending = names.clone();
    let mut wait = Duration::from_millis(50);
    loop {
        let deletes = pending
            .iter()
            .map(|name| async move { (name.clone(), delete_one(client, name, until).await) });
        for (name, result) in futures_util::future::join_all(deletes).await {
            if let Err(reason) = result {
                why.insert(name, reason);
            }
        }
        match list(engine).await {
            Ok(listed) => {
                pending.retain(|n| listed.contains(n));
                for name in &names {
                    if !pending.contains(name) {
                        why.remove(name);
                    }
                }
                if pending.is_empty() {
                    break;
                }
                for name in &pending {
                    why.entry(name.clone())
                        .or_insert_with(|| "still listed by the engine".to_string());
                }
            }
            Err(reason) => {
                for name in &pending {
                    why.insert(
                        name.clone(),
                        format!(
                            "cannot check that it is gone: listing the tables failed: {reason}"
                        ),
                    );
                }
            }
        }
        if tokio::time::Instant::now() + wait > until {
            break;
        }
        tokio::time::sleep(wait).await;
        wait = (wait * 2).min(Duration::from_secs(2));
    }
    for name in names {
        match why.remove(&name) {
            Some(reason) if pending.contains(&name) => cleanup.failed.push(format!(
                "{name}: {reason} (gave up after {} s)",
                deadline.as_secs_f64()
            )),
            _ => cleanup.deleted.push(name),
        }
    }
    cleanup
}

/// Every table name the engine lists, page by page, at most [`MAX_TABLE_PAGES`] pages.
pub async fn list(engine: &Engine) -> Result<Vec<String>, RunError> {
    let what = "list tables";
    let mut paging = Paging::new(engine, what, MAX_TABLE_PAGES);
    let mut names = Vec::new();
    let mut start: Option<String> = None;
    loop {
        let out = engine
            .client
            .list_tables()
            .set_exclusive_start_table_name(start.clone())
            .send()
            .await
            .map_err(|e| run_error(engine, what, &e))?;
        names.extend(out.table_names().iter().cloned());
        let next = out.last_evaluated_table_name().map(str::to_string);
        paging.page(out.table_names().len(), start.as_ref(), next.as_ref())?;
        match next {
            Some(next) => start = Some(next),
            None => return Ok(names),
        }
    }
}

/// One DeleteTable, retried while the table is busy (AWS refuses to delete a CREATING table)
/// until `until`; a table that is already gone counts as deleted (the listing checks it).
async fn delete_one(
    client: &Client,
    name: &str,
    until: tokio::time::Instant,
) -> Result<(), String> {
    if !name.starts_with(PREFIX) {
        return Err("not a run table; refused".to_string());
    }
    let mut wait = Duration::from_millis(100);
    loop {
        match client.delete_table().table_name(name).send().await {
            Ok(_) => return Ok(()),
            Err(err) => match code(&err) {
                Some("ResourceNotFoundException") => return Ok(()),
                Some("ResourceInUseException" | "LimitExceededException")
                    if tokio::time::Instant::now() + wait < until =>
                {
                    tokio::time::sleep(wait).await;
                    wait = (wait * 2).min(Duration::from_secs(5));
                }
                _ => return Err(redact(&super::error::classify(&err).1)),
            },
        }
    }
}

pub(crate) fn scalar(ty: KeyType) -> ScalarAttributeType {
    match ty {
        KeyType::S => ScalarAttributeType::S,
        KeyType::N => ScalarAttributeType::N,
        KeyType::B => ScalarAttributeType::B,
    }
}

pub(crate) fn key_schema(
    partition: &[KeyAttribute],
    sort: &[KeyAttribute],
) -> Result<Vec<KeySchemaElement>, RunError> {
    let hash = partition.iter().map(|k| (k, SdkKeyType::Hash));
    let range = sort.iter().map(|k| (k, SdkKeyType::Range));
    hash.chain(range)
        .map(|(k, ty)| {
            Ok(KeySchemaElement::builder()
                .attribute_name(&k.name)
                .key_type(ty)
                .build()?)
        })
        .collect()
}

pub(crate) fn projection(p: &Projection) -> SdkProjection {
    match p {
        Projection::All => SdkProjection::builder()
            .projection_type(ProjectionType::All)
            .build(),
        Projection::KeysOnly => SdkProjection::builder()
            .projection_type(ProjectionType::KeysOnly)
            .build(),
        Projection::Include { attributes } => SdkProjection::builder()
            .projection_type(ProjectionType::Include)
            .set_non_key_attributes(Some(attributes.clone()))
            .build(),
    }
}

/// CreateTable's vector index (issue 40), as AWS's `VectorIndex` states it
/// (<https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_CreateTable.html>): the
/// index name, the vector attribute, its dimensions, the distance function and the projection.
/// An engine without vector indexes (moto 5) takes the request and makes the table without it,
/// which the run's vector search finds in DescribeTable and says.
pub(crate) fn vector_index(index: &keyplan_core::VectorIndex) -> Result<SdkVectorIndex, RunError> {
    Ok(SdkVectorIndex::builder()
        .index_name(&index.name)
        .vector_attribute(
            VectorAttributeDefinition::builder()
                .attribute_name(&index.attribute)
                .build()?,
        )
        .dimensions(i64::from(index.dimensions))
        .distance_function(match index.distance {
            Distance::Cosine => VectorDistanceFunction::Cosine,
            Distance::Euclidean => VectorDistanceFunction::Euclidean,
            Distance::DotProduct => VectorDistanceFunction::DotProduct,
        })
        .projection(projection(&index.projection))
        .build()?)
}

/// Creates design table `table` as `name` and waits until it and its indexes are ACTIVE.
/// Run tables are always on-demand, whatever the design's billing: a run must not be throttled
/// by the design's provisioned capacity, and on-demand costs nothing while idle.
pub async fn create(
    engine: &Engine,
    guard: &TableGuard,
    table: &Table,
    name: &str,
    cancel: &CancellationToken,
    emit: &(dyn Fn(RunEvent) + Send + Sync),
) -> Result<(), RunError> {
    let client = &engine.client;
    let definitions = table
        .key_attributes()
        .into_iter()
        .map(|k| {
            Ok(AttributeDefinition::builder()
                .attribute_name(&k.name)
                .attribute_type(scalar(k.ty))
                .build()?)
        })
        .collect::<Result<Vec<_>, RunError>>()?;
    let gsis = table
        .gsis
        .iter()
        .map(|g| {
            Ok(GlobalSecondaryIndex::builder()
                .index_name(&g.name)
                .set_key_schema(Some(key_schema(&g.partition_key, &g.sort_key)?))
                .projection(projection(&g.projection))
                .build()?)
        })
        .collect::<Result<Vec<_>, RunError>>()?;
    let lsis = table
        .lsis
        .iter()
        .map(|l| {
            Ok(LocalSecondaryIndex::builder()
                .index_name(&l.name)
                .set_key_schema(Some(key_schema(
                    std::slice::from_ref(&table.partition_key),
                    std::slice::from_ref(&l.sort_key),
                )?))
                .projection(projection(&l.projection))
                .build()?)
        })
        .collect::<Result<Vec<_>, RunError>>()?;
    let vector_indexes = table
        .vector_indexes
        .iter()
        .map(vector_index)
        .collect::<Result<Vec<_>, RunError>>()?;
    let request = client
        .create_table()
        .table_name(name)
        .set_attribute_definitions(Some(definitions))
        .set_key_schema(Some(key_schema(
            std::slice::from_ref(&table.partition_key),
            table.sort_key.as_slice(),
        )?))
        .billing_mode(BillingMode::PayPerRequest)
        .set_global_secondary_indexes((!gsis.is_empty()).then_some(gsis))
        .set_local_secondary_indexes((!lsis.is_empty()).then_some(lsis))
        .set_vector_indexes((!vector_indexes.is_empty()).then_some(vector_indexes));
    let what = format!("create table `{}` (as {name})", table.name);
    guard.hold(name);
    if let Err(err) = request.send().await {
        if code(&err) == Some("ResourceInUseException") {
            // Someone else's table has this name: never touch it.
            guard.release(name);
            return Err(RunError::Refused {
                engine: engine.name.clone(),
                what,
                detail: format!("a table named {name} already exists and is not this run's"),
            });
        }
        if err.as_service_error().is_some() {
            // A definite answer: the table was not created.
            guard.release(name);
        }
        return Err(run_error(engine, &what, &err));
    }
    wait_active(engine, &table.name, name, &what, cancel, emit).await
}

/// Polls the table until it and its indexes are ACTIVE, saying so in a `waiting` event at the
/// first answer that is not and every 5 s after; fails past the engine's create deadline.
pub(crate) async fn wait_active(
    engine: &Engine,
    table: &str,
    name: &str,
    what: &str,
    cancel: &CancellationToken,
    emit: &(dyn Fn(RunEvent) + Send + Sync),
) -> Result<(), RunError> {
    let mut patience = Patience::new(engine, table, name, Duration::from_millis(20));
    loop {
        if cancel.is_cancelled() {
            return Err(RunError::Cancelled);
        }
        let answer = engine
            .client
            .describe_table()
            .table_name(name)
            .send()
            .await
            .map_err(|err| run_error(engine, what, &err))?;
        let status = answer
            .table()
            .and_then(|t| t.table_status())
            .map_or("no status", |s| s.as_str())
            .to_string();
        let active = answer.table().is_some_and(|t| {
            t.table_status() == Some(&TableStatus::Active)
                && t.global_secondary_indexes()
                    .iter()
                    .all(|g| g.index_status().is_none_or(|s| *s == IndexStatus::Active))
                && t.vector_indexes()
                    .iter()
                    .all(|v| v.index_status().is_none_or(|s| *s == IndexStatus::Active))
        });
        if active {
            return Ok(());
        }
        patience
            .again(what, &status, emit, |deadline| {
                format!("the table was still {status} after {deadline:.0} s, this engine's deadline for a new table")
            })
            .await?;
    }
}

/// What every wait for a table or an index to be ready shares: the engine's deadline for a new
/// table, a `waiting` event at the first answer that is not ready and every 5 s after, and a
/// pause that doubles up to 2 s.
pub(crate) struct Patience<'a> {
    engine: &'a Engine,
    table: &'a str,
    name: &'a str,
    started: tokio::time::Instant,
    next_note: tokio::time::Instant,
    wait: Duration,
}

impl<'a> Patience<'a> {
    /// Waiting for `table` (the engine table `name`), first pausing `first`.
    pub(crate) fn new(engine: &'a Engine, table: &'a str, name: &'a str, first: Duration) -> Self {
        let started = tokio::time::Instant::now();
        Patience {
            engine,
            table,
            name,
            started,
            next_note: started,
            wait: first,
        }
    }

    /// The seconds waited so far.
    pub(crate) fn waited_s(&self) -> f64 {
        self.started.elapsed().as_secs_f64()
    }

    /// After an answer that is not ready (`status`): past the deadline, the error `past` words
    /// (given the deadline in seconds); else the `waiting` event when one is due, and the pause.
    pub(crate) async fn again(
        &mut self,
        what: &str,
        status: &str,
        emit: &(dyn Fn(RunEvent) + Send + Sync),
        past: impl FnOnce(f64) -> String,
    ) -> Result<(), RunError> {
        let now = tokio::time::Instant::now();
        let deadline_s = self.engine.timing.create.as_secs_f64();
        if now > self.started + self.engine.timing.create {
            return Err(RunError::Engine {
                engine: self.engine.name.clone(),
                what: what.to_string(),
                detail: past(deadline_s),
            });
        }
        if now >= self.next_note {
            emit(RunEvent::Waiting {
                table: self.table.to_string(),
                name: self.name.to_string(),
                status: status.to_string(),
                waited_s: (now - self.started).as_secs_f64(),
                deadline_s,
            });
            self.next_note = now + Duration::from_secs(5);
        }
        tokio::time::sleep(self.wait).await;
        self.wait = (self.wait * 2).min(Duration::from_secs(2));
        Ok(())
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn run_table_names_are_prefixed_scoped_and_valid() {
        let id = RunId::parse("ab12cd34").unwrap();
        assert_eq!(id.table_name("orders"), "keyplan-run-ab12cd34-orders");
        assert_eq!(
            id.table_name("my orders/v2"),
            "keyplan-run-ab12cd34-my-orders-v2"
        );
        let long = id.table_name(&"x".repeat(400));
        assert_eq!(long.len(), 255);
        assert!(keyplan_core::limits::is_valid_table_name(&long));
        assert!(RunId::parse("../etc").is_none());
        assert!(RunId::parse("").is_none());
        assert_eq!(RunId::random().as_str().len(), 8);
    }
}
