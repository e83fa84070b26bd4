//! Where a room's entries are kept as they are ordered: a DynamoDB table, on the embedded
//! engine (a file under the data directory) or on any endpoint several servers share.
//!
//! The table's design is `server/rooms.keyplan.json` (checked by `keyplan check`). One
//! partition per room, `pk = ROOM#<id>`, holding:
//! - `META`: the digests of the room's three keys;
//! - `ENTRY#<revision>` (20 digits): one entry, written only if absent
//!   (`attribute_not_exists(sk)`), so of two servers ordering the same revision one wins and
//!   the other reads what it missed and proposes again;
//! - `SNAP#<revision>#<part>` then `SNAPHEAD#<revision>`: the design at a revision in parts
//!   under DynamoDB's item size, the head written last, so a room loads from its latest whole
//!   snapshot plus the entries after it instead of its whole history.
//!
//! Once a snapshot is written, what the one before it covers is deleted ([`Table::prune`]):
//! the entries up to that earlier snapshot, the snapshots before it, and the parts of any
//! snapshot below the new one whose head was never written (a failed write, a crash). One
//! snapshot and the entries after it are kept behind the latest, so a server that has just read
//! the earlier head (loading the room, or catching up from a little behind) still finds what it
//! reads next. A room's partition so holds at most two snapshots and about `2 * SNAPSHOT_EVERY`
//! entries, whatever its age, once pruning has caught up.
//!
//! Pruning never holds a room up: each table has one pruning task ([`Pruner`]) that takes the
//! requests in the background, one room at a time, a room's requests coalesced into its newest
//! (a prune deletes everything below its snapshot, so an older one adds nothing), deleting
//! 25 items a request and yielding between them. On the embedded engine the deletes of a
//! request are one transaction: its SQLite waits for the disk once per commit, and a
//! BatchWriteItem commits each delete on its own (a debug build: 5-6 ms a delete batched, 0.3-0.4
//! ms in a transaction). An endpoint gets BatchWriteItem, half a transaction's price on DynamoDB.
//!
//! A server sharing the table that falls [`SNAPSHOT_EVERY`] revisions behind the latest snapshot
//! may find the entries it needs pruned, or store an entry in a revision pruned before it
//! ([`Store::pruned_through`] tells it so): it loads the room again from the latest snapshot.
//!
//! An entry is stored before it is committed and sent, so a server killed at any moment has
//! lost no edit a client saw applied.

use std::collections::{BTreeMap, HashMap};

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::operation::query::builders::QueryFluentBuilder;
use aws_sdk_dynamodb::types::{
    AttributeDefinition, AttributeValue, BillingMode, KeySchemaElement, KeyType,
    ScalarAttributeType,
};
use keyplan_core::collab::{ClientId, Entry, Limits, Revision, Room};
use keyplan_core::model::Design;

use super::tokens::{Digest, Keys};

mod prune;

use prune::Pruner;

/// The largest entry a room stores, as JSON: under DynamoDB's 400 KB item.
pub const MAX_ENTRY_BYTES: usize = 350 * 1024;

/// A snapshot's parts are at most this many bytes of the design file each.
const PART_BYTES: usize = 300 * 1024;

/// A snapshot is written every this many revisions.
pub const SNAPSHOT_EVERY: u64 = 100;

/// The most entries one read returns.
const PAGE: i32 = 100;

/// How many times a load starts again when what it reads is pruned under it.
const LOAD_TRIES: usize = 4;

/// The table's name when none is given.
pub const DEFAULT_TABLE: &str = "keyplan-rooms";

/// A room as its store holds it: its keys, and its design at the last stored revision.
#[derive(Debug)]
pub struct Loaded {
    pub keys: Keys,
    pub room: Room,
}

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("{0}")]
    Failed(String),
}

fn failed(what: &str, error: impl std::error::Error) -> StoreError {
    // The SDK's own text of a failure is "service error"; the context holds what it was.
    let shown = aws_smithy_types::error::display::DisplayErrorContext(&error).to_string();
    StoreError::Failed(format!("{what}: {}", crate::engine::redact(&shown)))
}

/// What storing an entry came to.
#[derive(Debug, PartialEq, Eq)]
pub enum Appended {
    /// The entry is stored at its revision.
    Stored,
    /// Another server stored an entry at that revision first.
    Lost,
}

/// Where rooms are kept.
#[derive(Debug, Clone)]
pub enum Store {
    /// Nowhere: rooms live as long as this process (tests of the relay alone).
    Memory,
    /// A DynamoDB table.
    Table(Table),
}

/// A rooms table and the client that reaches it.
#[derive(Clone)]
pub struct Table {
    client: Client,
    name: String,
    /// Whether other servers write to it too (an endpoint), so open rooms look for their
    /// entries; the embedded engine's table is this server's alone.
    pub shared: bool,
    /// Where its snapshots ask for their prunes; `None` in the pruning task's own copy.
    pruner: Option<Pruner>,
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table")
            .field("name", &self.name)
            .field("shared", &self.shared)
            .finish_non_exhaustive()
    }
}

fn pk(id: &str) -> AttributeValue {
    AttributeValue::S(format!("ROOM#{id}"))
}

fn s(text: impl Into<String>) -> AttributeValue {
    AttributeValue::S(text.into())
}

fn entry_sk(revision: Revision) -> String {
    format!("ENTRY#{:020}", revision.0)
}

/// What the sort keys of a snapshot's parts start with.
fn snapshot_parts(revision: Revision) -> String {
    format!("SNAP#{:020}#", revision.0)
}

fn snapshot_part_sk(revision: Revision, part: usize) -> String {
    format!("{}{part:05}", snapshot_parts(revision))
}

fn snapshot_head_sk(revision: Revision) -> String {
    format!("SNAPHEAD#{:020}", revision.0)
}

/// The revision a snapshot head is of, from its sort key.
fn head_revision(head: &HashMap<String, AttributeValue>) -> Result<Revision, StoreError> {
    let sk = text_of(head, "sk")?;
    sk.strip_prefix("SNAPHEAD#")
        .and_then(|r| r.parse().ok())
        .map(Revision)
        .ok_or_else(|| StoreError::Failed(format!("a damaged snapshot `{sk}`")))
}

/// How many parts a snapshot head says its snapshot has.
fn head_parts(head: &HashMap<String, AttributeValue>) -> Option<usize> {
    match head.get("parts") {
        Some(AttributeValue::N(n)) => n.parse().ok(),
        _ => None,
    }
}

fn text_of(item: &HashMap<String, AttributeValue>, name: &str) -> Result<String, StoreError> {
    match item.get(name) {
        Some(AttributeValue::S(text)) => Ok(text.clone()),
        _ => Err(StoreError::Failed(format!(
            "a stored room item has no text `{name}`"
        ))),
    }
}

impl Table {
    /// The table `name` through `client`, made when it does not exist yet.
    pub async fn open(client: Client, name: &str, shared: bool) -> Result<Table, StoreError> {
        let mut table = Table {
            client,
            name: name.to_string(),
            shared,
            pruner: None,
        };
        table.ensure().await?;
        table.pruner = Some(Pruner::start(table.clone()));
        Ok(table)
    }

    async fn ensure(&self) -> Result<(), StoreError> {
        if self
            .client
            .describe_table()
            .table_name(&self.name)
            .send()
            .await
            .is_ok()
        {
            return self.wait_active().await;
        }
        let key = |name: &str, kind| {
            KeySchemaElement::builder()
                .attribute_name(name)
                .key_type(kind)
                .build()
                .map_err(|e| failed("the rooms table's key", e))
        };
        let attribute = |name: &str| {
            AttributeDefinition::builder()
                .attribute_name(name)
                .attribute_type(ScalarAttributeType::S)
                .build()
                .map_err(|e| failed("the rooms table's key", e))
        };
        let created = self
            .client
            .create_table()
            .table_name(&self.name)
            .billing_mode(BillingMode::PayPerRequest)
            .key_schema(key("pk", KeyType::Hash)?)
            .key_schema(key("sk", KeyType::Range)?)
            .attribute_definitions(attribute("pk")?)
            .attribute_definitions(attribute("sk")?)
            .send()
            .await;
        if let Err(e) = created {
            // Another server may have made it at the same moment.
            let service = e
                .as_service_error()
                .map(|s| s.is_resource_in_use_exception());
            if service != Some(true) {
                return Err(failed(&format!("creating table `{}`", self.name), e));
            }
        }
        self.wait_active().await
    }

    async fn wait_active(&self) -> Result<(), StoreError> {
        for _ in 0..300 {
            let described = self
                .client
                .describe_table()
                .table_name(&self.name)
                .send()
                .await
                .map_err(|e| failed(&format!("describing table `{}`", self.name), e))?;
            let status = described.table().and_then(|t| t.table_status());
            if status.is_none_or(|s| *s == aws_sdk_dynamodb::types::TableStatus::Active) {
                return Ok(());
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        Err(StoreError::Failed(format!(
            "table `{}` did not become active within 30 s",
            self.name
        )))
    }

    async fn create(&self, id: &str, keys: &Keys, design: &Design) -> Result<(), StoreError> {
        self.client
            .put_item()
            .table_name(&self.name)
            .item("pk", pk(id))
            .item("sk", s("META"))
            .item("edit", s(keys.edit.to_base64()))
            .item("view", s(keys.view.to_base64()))
            .item("owner", s(keys.owner.to_base64()))
            .condition_expression("attribute_not_exists(sk)")
            .send()
            .await
            .map_err(|e| failed("storing the room", e))?;
        let file = keyplan_core::file::to_string(design);
        self.snapshot(id, Revision(0), &file, &BTreeMap::new())
            .await
    }

    /// Stores the design file at `revision`: its parts, then the head that makes it whole.
    pub async fn snapshot(
        &self,
        id: &str,
        revision: Revision,
        file: &str,
        seen: &BTreeMap<ClientId, u64>,
    ) -> Result<(), StoreError> {
        let mut parts = 0usize;
        let mut rest = file;
        while !rest.is_empty() {
            let mut cut = rest.len().min(PART_BYTES);
            while !rest.is_char_boundary(cut) {
                cut -= 1;
            }
            let (part, after) = rest.split_at(cut);
            self.client
                .put_item()
                .table_name(&self.name)
                .item("pk", pk(id))
                .item("sk", s(snapshot_part_sk(revision, parts)))
                .item("data", s(part))
                .send()
                .await
                .map_err(|e| failed("storing a snapshot", e))?;
            parts += 1;
            rest = after;
        }
        let seen = serde_json::to_string(seen).map_err(|e| failed("a snapshot's clients", e))?;
        self.client
            .put_item()
            .table_name(&self.name)
            .item("pk", pk(id))
            .item("sk", s(snapshot_head_sk(revision)))
            .item("parts", AttributeValue::N(parts.to_string()))
            .item("seen", s(seen))
            .send()
            .await
            .map_err(|e| failed("storing a snapshot", e))?;
        if let Some(pruner) = &self.pruner {
            pruner.request(id, revision);
        }
        Ok(())
    }

    /// A consistent query of a room's items whose sort key lies in `from..=to`.
    fn between(&self, id: &str, from: &str, to: &str) -> QueryFluentBuilder {
        self.client
            .query()
            .table_name(&self.name)
            .key_condition_expression("pk = :pk AND sk BETWEEN :from AND :to")
            .expression_attribute_values(":pk", pk(id))
            .expression_attribute_values(":from", s(from))
            .expression_attribute_values(":to", s(to))
            .consistent_read(true)
    }

    /// The items of a room whose sort key lies in `from..=to`, in order, `limit` at most (all
    /// when `None`).
    async fn range(
        &self,
        id: &str,
        from: &str,
        to: &str,
        forward: bool,
        limit: Option<i32>,
    ) -> Result<Vec<HashMap<String, AttributeValue>>, StoreError> {
        let mut items = Vec::new();
        let mut start = None;
        loop {
            let page = self
                .between(id, from, to)
                .scan_index_forward(forward)
                .set_limit(limit)
                .set_exclusive_start_key(start)
                .send()
                .await
                .map_err(|e| failed("reading a room", e))?;
            items.extend(page.items.unwrap_or_default());
            start = page.last_evaluated_key;
            if start.is_none() || limit.is_some() {
                return Ok(items);
            }
        }
    }

    async fn load(&self, id: &str, limits: Limits) -> Result<Option<Loaded>, StoreError> {
        let Some(meta) = self.meta(id).await? else {
            return Ok(None);
        };
        let digest = |name: &str| -> Result<Digest, StoreError> {
            Digest::from_base64(&text_of(&meta, name)?)
                .ok_or_else(|| StoreError::Failed(format!("a room's `{name}` key is damaged")))
        };
        let keys = Keys {
            edit: digest("edit")?,
            view: digest("view")?,
            owner: digest("owner")?,
        };
        // A load that finds what its snapshot names pruned as it reads (other servers wrote
        // two snapshots meanwhile) starts again from the newer one.
        for _ in 0..LOAD_TRIES {
            if let Some(room) = self.load_latest(id, limits).await? {
                return Ok(Some(Loaded { keys, room }));
            }
        }
        Err(StoreError::Failed(format!(
            "room `{id}` moved on faster than it could be read, {LOAD_TRIES} times"
        )))
    }

    /// The room from its latest snapshot and the entries after it, or `None` when some of
    /// them were pruned while they were read.
    async fn load_latest(&self, id: &str, limits: Limits) -> Result<Option<Room>, StoreError> {
        let heads = self
            .range(id, "SNAPHEAD#", "SNAPHEAD#~", false, Some(1))
            .await?;
        let Some(head) = heads.first() else {
            return Err(StoreError::Failed(format!("room `{id}` has no snapshot")));
        };
        let revision = head_revision(head)?;
        let seen: BTreeMap<ClientId, u64> = serde_json::from_str(&text_of(head, "seen")?)
            .map_err(|e| failed("a snapshot's clients", e))?;
        let prefix = snapshot_parts(revision);
        let parts = self
            .range(id, &prefix, &format!("{prefix}~"), true, None)
            .await?;
        if Some(parts.len()) != head_parts(head) {
            return Ok(None);
        }
        let mut file = String::new();
        for part in &parts {
            file.push_str(&text_of(part, "data")?);
        }
        let design = keyplan_core::file::parse(&file)
            .map_err(|e| failed(&format!("the snapshot at {revision}"), e))?;
        let mut room = Room::restore(design, revision, seen, limits);
        loop {
            let entries = self.entries_after(id, room.revision()).await?;
            if entries.is_empty() {
                return Ok(Some(room));
            }
            for entry in &entries {
                if entry.revision != room.revision().next() {
                    return Ok(None);
                }
                room.commit(entry)
                    .map_err(|e| failed(&format!("the stored entry {}", entry.revision), e))?;
            }
        }
    }

    /// The revision of the room's latest snapshot, read by its key alone.
    async fn latest_snapshot(&self, id: &str) -> Result<Option<Revision>, StoreError> {
        let page = self
            .between(id, "SNAPHEAD#", "SNAPHEAD#~")
            .scan_index_forward(false)
            .limit(1)
            .projection_expression("sk")
            .send()
            .await
            .map_err(|e| failed("reading a room", e))?;
        page.items
            .unwrap_or_default()
            .first()
            .map(head_revision)
            .transpose()
    }

    async fn exists(&self, id: &str) -> Result<bool, StoreError> {
        Ok(self.meta(id).await?.is_some())
    }

    /// The room's `META` item (its keys' digests), when the room is stored.
    async fn meta(&self, id: &str) -> Result<Option<HashMap<String, AttributeValue>>, StoreError> {
        let meta = self
            .client
            .get_item()
            .table_name(&self.name)
            .key("pk", pk(id))
            .key("sk", s("META"))
            .consistent_read(true)
            .send()
            .await
            .map_err(|e| failed("reading a room", e))?;
        Ok(meta.item)
    }

    async fn append(&self, id: &str, entry: &Entry) -> Result<Appended, StoreError> {
        let json = serde_json::to_string(entry).map_err(|e| failed("an entry", e))?;
        let put = self
            .client
            .put_item()
            .table_name(&self.name)
            .item("pk", pk(id))
            .item("sk", s(entry_sk(entry.revision)))
            .item("entry", s(json))
            .condition_expression("attribute_not_exists(sk)")
            .send()
            .await;
        match put {
            Ok(_) => Ok(Appended::Stored),
            Err(e)
                if e.as_service_error()
                    .is_some_and(|s| s.is_conditional_check_failed_exception()) =>
            {
                Ok(Appended::Lost)
            }
            Err(e) => Err(failed("storing an edit", e)),
        }
    }

    async fn entries_after(&self, id: &str, after: Revision) -> Result<Vec<Entry>, StoreError> {
        let items = self
            .range(
                id,
                &entry_sk(after.next()),
                &entry_sk(Revision(u64::MAX)),
                true,
                Some(PAGE),
            )
            .await?;
        items
            .iter()
            .map(|item| {
                serde_json::from_str(&text_of(item, "entry")?)
                    .map_err(|e| failed("a stored entry", e))
            })
            .collect()
    }

    async fn delete(&self, id: &str) -> Result<(), StoreError> {
        // Every sort key of a room starts with a capital letter.
        let keys = self.sort_keys(id, "A", "~").await?;
        self.delete_keys(id, keys).await
    }

    /// The sort keys of a room's items in `from..=to`, read without the items' values.
    async fn sort_keys(&self, id: &str, from: &str, to: &str) -> Result<Vec<String>, StoreError> {
        let mut keys = Vec::new();
        let mut start = None;
        loop {
            let page = self
                .between(id, from, to)
                .projection_expression("sk")
                .set_exclusive_start_key(start)
                .send()
                .await
                .map_err(|e| failed("reading a room's keys", e))?;
            for item in page.items.unwrap_or_default() {
                keys.push(text_of(&item, "sk")?);
            }
            start = page.last_evaluated_key;
            if start.is_none() {
                return Ok(keys);
            }
        }
    }
}

impl Store {
    /// Whether a room this server forgets can be loaded again.
    pub fn keeps_rooms(&self) -> bool {
        !matches!(self, Store::Memory)
    }

    /// Whether other servers may order entries of the same rooms.
    pub fn shared(&self) -> bool {
        matches!(self, Store::Table(t) if t.shared)
    }

    pub async fn create(&self, id: &str, keys: &Keys, design: &Design) -> Result<(), StoreError> {
        match self {
            Store::Memory => Ok(()),
            Store::Table(t) => t.create(id, keys, design).await,
        }
    }

    pub async fn load(&self, id: &str, limits: Limits) -> Result<Option<Loaded>, StoreError> {
        match self {
            Store::Memory => Ok(None),
            Store::Table(t) => t.load(id, limits).await,
        }
    }

    pub async fn append(&self, id: &str, entry: &Entry) -> Result<Appended, StoreError> {
        match self {
            Store::Memory => Ok(Appended::Stored),
            Store::Table(t) => t.append(id, entry).await,
        }
    }

    /// The entries stored after `after`, oldest first (at most a page of them).
    pub async fn entries_after(&self, id: &str, after: Revision) -> Result<Vec<Entry>, StoreError> {
        match self {
            Store::Memory => Ok(Vec::new()),
            Store::Table(t) => t.entries_after(id, after).await,
        }
    }

    /// Whether room `id` is still stored (another server's owner may have closed it).
    pub async fn exists(&self, id: &str) -> Result<bool, StoreError> {
        match self {
            Store::Memory => Ok(true),
            Store::Table(t) => t.exists(id).await,
        }
    }

    /// The highest revision whose entry may have been pruned, or stored again by a server far
    /// behind after it was (the latest snapshot's revision less [`SNAPSHOT_EVERY`]): a room at
    /// a revision below it cannot read on from its entries, and an entry stored at or below it
    /// may not be the room's. Read after the entries it judges.
    pub async fn pruned_through(&self, id: &str) -> Result<Revision, StoreError> {
        match self {
            Store::Memory => Ok(Revision(0)),
            Store::Table(t) => Ok(Revision(
                t.latest_snapshot(id)
                    .await?
                    .map_or(0, |r| r.0.saturating_sub(SNAPSHOT_EVERY)),
            )),
        }
    }

    /// Stores a snapshot when `revision` is due one (which also makes the room's size bound
    /// exact again).
    pub async fn snapshot_if_due(&self, id: &str, room: &mut Room) -> Result<(), StoreError> {
        match self {
            Store::Table(t) if room.revision().0.is_multiple_of(SNAPSHOT_EVERY) => {
                let file = room.design_file();
                t.snapshot(id, room.revision(), &file, room.seen()).await
            }
            _ => Ok(()),
        }
    }

    pub async fn delete(&self, id: &str) -> Result<(), StoreError> {
        match self {
            Store::Memory => Ok(()),
            Store::Table(t) => t.delete(id).await,
        }
    }
}
