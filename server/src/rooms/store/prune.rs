//! Deleting what a room no longer needs, off the path of its edits: the table's pruning task
//! ([`Pruner`]), what one prune deletes ([`Table::prune`]), and deletion by sort key, in
//! transactions on the embedded engine and batches on an endpoint ([`Table::delete_keys`]).
//!
//! Nothing here waits for a room's lock, and no room waits for it: a snapshot asks for its
//! prune and goes on. What a prune deletes is decided by its snapshot's revision alone, so a
//! late prune deletes what it would have deleted on time, and a dropped one is covered by the
//! room's next.

use std::collections::{BTreeMap, BTreeSet};

use aws_sdk_dynamodb::types::{Delete, DeleteRequest, TransactWriteItem, WriteRequest};
use keyplan_core::collab::Revision;
use tokio::sync::mpsc;

use super::{
    SNAPSHOT_EVERY, StoreError, Table, entry_sk, failed, pk, s, snapshot_head_sk, snapshot_parts,
};

/// The most keys one request deletes: BatchWriteItem's limit, and a transaction short enough
/// that an entry waiting behind it on the embedded engine waits a few milliseconds.
pub(super) const BATCH: usize = 25;

/// How many times a batch's unprocessed deletes are sent again before the store gives up.
const BATCH_ROUNDS: usize = 10;

/// How many prune requests wait for the pruning task; a request beyond them is dropped (the
/// room's next snapshot prunes what it would have).
const WAITING: usize = 256;

/// A room's prune request: the revision of the snapshot just written.
type Request = (String, Revision);

/// Where a table's snapshots ask for their prunes. Cheap to clone; the pruning task ends when
/// the last clone is dropped.
#[derive(Debug, Clone)]
pub(super) struct Pruner {
    requests: mpsc::Sender<Request>,
}

impl Pruner {
    /// Starts `table`'s pruning task (on the current tokio runtime).
    pub(super) fn start(table: Table) -> Pruner {
        let (requests, received) = mpsc::channel(WAITING);
        tokio::spawn(run(table, received));
        Pruner { requests }
    }

    /// Asks for room `id` to be pruned below its snapshot at `revision`, without waiting.
    pub(super) fn request(&self, id: &str, revision: Revision) {
        if self.requests.try_send((id.to_string(), revision)).is_err() {
            tracing::debug!("room {id}: prune at {revision} dropped, {WAITING} waiting");
        }
    }
}

/// The pruning task: takes every request waiting, keeps each room's newest, and prunes the
/// rooms one at a time until no request is left, then waits for the next.
async fn run(table: Table, mut received: mpsc::Receiver<Request>) {
    let mut due: BTreeMap<String, Revision> = BTreeMap::new();
    loop {
        if due.is_empty() {
            let Some((id, revision)) = received.recv().await else {
                return;
            };
            due.insert(id, revision);
        }
        while let Ok((id, revision)) = received.try_recv() {
            let newest = due.entry(id).or_insert(revision);
            *newest = (*newest).max(revision);
        }
        let Some((id, revision)) = due.pop_first() else {
            continue;
        };
        if let Err(e) = table.prune(&id, revision).await {
            tracing::warn!("room {id}: not pruned below {revision}: {e}");
        }
    }
}

/// The revision a snapshot part or head is of, from its sort key (`SNAP#<20 digits>#<part>`,
/// `SNAPHEAD#<20 digits>`).
fn revision_of(sk: &str) -> Result<Revision, StoreError> {
    sk.strip_prefix("SNAPHEAD#")
        .or_else(|| sk.strip_prefix("SNAP#"))
        .and_then(|rest| rest.get(..20))
        .and_then(|digits| digits.parse().ok())
        .map(Revision)
        .ok_or_else(|| StoreError::Failed(format!("a damaged snapshot key `{sk}`")))
}

impl Table {
    /// Deletes what the snapshot before the one at `latest` covers: the entries up to it and
    /// the snapshots before it, and below `latest` every snapshot part no head names (its
    /// head was never written: a failed write, a server killed mid-snapshot). Reads sort keys
    /// only.
    pub(super) async fn prune(&self, id: &str, latest: Revision) -> Result<(), StoreError> {
        let (Some(kept), Some(below)) = (
            latest.0.checked_sub(SNAPSHOT_EVERY),
            latest.0.checked_sub(1).map(Revision),
        ) else {
            return Ok(());
        };
        let mut keys = self
            .sort_keys(id, &entry_sk(Revision(0)), &entry_sk(Revision(kept)))
            .await?;
        let mut whole = BTreeSet::new();
        for head in self
            .sort_keys(id, "SNAPHEAD#", &snapshot_head_sk(below))
            .await?
        {
            let revision = revision_of(&head)?;
            if revision.0 < kept {
                keys.push(head);
            } else {
                whole.insert(revision);
            }
        }
        // A part's key is read with the part on DynamoDB (a query reads whole items): the
        // snapshot kept behind is read once per prune, a fraction of what writing it cost.
        let parts_below = format!("{}~", snapshot_parts(below));
        for part in self.sort_keys(id, "SNAP#", &parts_below).await? {
            if !whole.contains(&revision_of(&part)?) {
                keys.push(part);
            }
        }
        self.delete_keys(id, keys).await
    }

    /// Deletes a room's items by sort key, [`BATCH`] to a request, yielding between requests:
    /// on the embedded engine each request is one transaction, on an endpoint a BatchWriteItem.
    pub(super) async fn delete_keys(&self, id: &str, keys: Vec<String>) -> Result<(), StoreError> {
        for chunk in keys.chunks(BATCH) {
            if self.shared {
                self.delete_batch(id, chunk).await?;
            } else {
                self.delete_transaction(id, chunk).await?;
            }
            tokio::task::yield_now().await;
        }
        Ok(())
    }

    async fn delete_transaction(&self, id: &str, keys: &[String]) -> Result<(), StoreError> {
        let deletes = keys
            .iter()
            .map(|sk| {
                let delete = Delete::builder()
                    .table_name(&self.name)
                    .key("pk", pk(id))
                    .key("sk", s(sk.as_str()))
                    .build()
                    .map_err(|e| failed("deleting a room's items", e))?;
                Ok(TransactWriteItem::builder().delete(delete).build())
            })
            .collect::<Result<Vec<_>, StoreError>>()?;
        self.client
            .transact_write_items()
            .set_transact_items(Some(deletes))
            .send()
            .await
            .map_err(|e| failed("deleting a room's items", e))?;
        Ok(())
    }

    async fn delete_batch(&self, id: &str, keys: &[String]) -> Result<(), StoreError> {
        let mut requests = keys
            .iter()
            .map(|sk| {
                let delete = DeleteRequest::builder()
                    .key("pk", pk(id))
                    .key("sk", s(sk.as_str()))
                    .build()
                    .map_err(|e| failed("deleting a room's items", e))?;
                Ok(WriteRequest::builder().delete_request(delete).build())
            })
            .collect::<Result<Vec<_>, StoreError>>()?;
        for _ in 0..BATCH_ROUNDS {
            let written = self
                .client
                .batch_write_item()
                .request_items(&self.name, requests)
                .send()
                .await
                .map_err(|e| failed("deleting a room's items", e))?;
            requests = written
                .unprocessed_items
                .and_then(|mut left| left.remove(&self.name))
                .unwrap_or_default();
            if requests.is_empty() {
                return Ok(());
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        Err(StoreError::Failed(format!(
            "{} of a room's items were still not deleted after {BATCH_ROUNDS} tries",
            requests.len()
        )))
    }
}
