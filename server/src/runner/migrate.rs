//! `keyplan migrate OLD NEW --verify`: a migration plan proven on an engine (issue 18).
//!
//! OLD's tables are created under run-scoped names and loaded with OLD's sample; then every
//! step of core's plan is executed as its data says: tables and GSIs created (DynamoDB
//! backfills a GSI itself), items rewritten in NEW's shape (`keyplan_core::migrate::
//! migrated_item`, read from the engine by a Scan and written back by PutItem, the old key
//! deleted when it changed), tables rebuilt into a new run-scoped table, indexes and entities
//! dropped; vector indexes added and dropped by UpdateTable's `VectorIndexUpdates` ([`vector`]). Then every table is read back whole, and:
//! - the data must be what core predicts: OLD's sample migrated item by item, nothing else,
//!   nothing left in OLD's shape;
//! - every read pattern of NEW is run on the migrated data and compared item for item with
//!   core's evaluation of NEW over the items read back (the runner's usual comparison).
//!
//! Like a run, a verification deletes every table it created, whatever happens, and stops at
//! the engine's conversation limit.

use std::collections::BTreeMap;

use aws_sdk_dynamodb::operation::update_table::builders::UpdateTableFluentBuilder;
use aws_sdk_dynamodb::types::{
    AttributeDefinition, CreateGlobalSecondaryIndexAction, DeleteGlobalSecondaryIndexAction,
    GlobalSecondaryIndexUpdate,
};
use keyplan_core::api::migrate::Verified;
use keyplan_core::api::runs::{PatternResult, RunEvent, Status};
use keyplan_core::eval::LoadItem;
use keyplan_core::migrate::{MigrationPlan, Phase, Step, StepKind, migrated_item};
use keyplan_core::model::{Design, Table};
use keyplan_core::{Item, analyze};
use tokio_util::sync::CancellationToken;

use super::build::Counts;
use super::convert::canonical_item;
use super::error::{RunError, run_error};
use super::load::{Write, write_all};
use super::plan::CheckKind;
use super::tables::{self, RunId, TableGuard};
use crate::engine::Engine;
use crate::runner::paging::within;

mod vector;

/// Verifies `plan` (from `old` to `new`) on `engine`; always cleans up.
#[allow(clippy::too_many_arguments)]
pub async fn verify(
    engine: &Engine,
    old: &Design,
    new: &Design,
    plan: &MigrationPlan,
    counts: &Counts,
    id: &RunId,
    cancel: &CancellationToken,
    emit: &(dyn Fn(RunEvent) + Send + Sync),
) -> Result<Verified, RunError> {
    let started = std::time::Instant::now();
    let guard = TableGuard::new(engine);
    let mut verified = Verified::default();
    let outcome = within(
        engine,
        "verify the migration",
        body(
            engine,
            old,
            new,
            plan,
            counts,
            id,
            &guard,
            cancel,
            emit,
            &mut verified,
        ),
    )
    .await;
    let cleanup = guard.cleanup().await;
    verified.left_behind = cleanup.failed.clone();
    verified.total_ms = started.elapsed().as_secs_f64() * 1000.0;
    emit(RunEvent::Cleanup(cleanup));
    outcome.map(|()| verified)
}

/// The engine names of the tables, by design table name: OLD's, and where NEW's live.
struct Names {
    old: BTreeMap<String, String>,
    new: BTreeMap<String, String>,
}

impl Names {
    fn of(old: &Design, new: &Design, plan: &MigrationPlan, id: &RunId) -> Names {
        let rebuilt = |t: &str| {
            plan.steps
                .iter()
                .any(|s| s.kind == StepKind::Rebuild && s.table == t)
        };
        Names {
            old: old
                .tables
                .iter()
                .map(|t| (t.name.clone(), id.table_name(&t.name)))
                .collect(),
            new: new
                .tables
                .iter()
                .map(|t| {
                    let name = if rebuilt(&t.name) {
                        id.table_name(&format!("{}-v2", t.name))
                    } else {
                        id.table_name(&t.name)
                    };
                    (t.name.clone(), name)
                })
                .collect(),
        }
    }

    fn new_table(&self, table: &str) -> Result<&str, RunError> {
        self.new
            .get(table)
            .map(String::as_str)
            .ok_or_else(|| RunError::Design(format!("the new design has no table {table}")))
    }
}

#[allow(clippy::too_many_arguments)]
async fn body(
    engine: &Engine,
    old: &Design,
    new: &Design,
    plan: &MigrationPlan,
    counts: &Counts,
    id: &RunId,
    guard: &TableGuard,
    cancel: &CancellationToken,
    emit: &(dyn Fn(RunEvent) + Send + Sync),
    verified: &mut Verified,
) -> Result<(), RunError> {
    super::preflight(engine).await?;
    let before = super::build::plan(old, counts)?;
    let names = Names::of(old, new, plan, id);
    for table in &old.tables {
        tables::create(engine, guard, table, &names.old[&table.name], cancel, emit).await?;
    }
    let loads: Vec<(&str, &Item)> = before
        .items
        .iter()
        .flat_map(|(table, items)| {
            let name = names.old.get(table).map_or("", String::as_str);
            items.iter().map(move |i| (name, i))
        })
        .collect();
    verified.items_before = loads.len();
    super::load::load(engine, &loads, cancel, &|_, _| {}).await?;

    let migrating = std::time::Instant::now();
    for step in &plan.steps {
        super::go_on(cancel)?;
        let started = std::time::Instant::now();
        let detail = execute(
            engine, old, new, &names, step, guard, cancel, emit, verified,
        )
        .await?;
        verified.executed.push(format!(
            "{:?} {:?}: {} ({:.0} ms{})",
            step.phase,
            step.kind,
            step.action,
            started.elapsed().as_secs_f64() * 1000.0,
            detail.map(|d| format!(": {d}")).unwrap_or_default()
        ));
    }

    verified.migrate_ms = migrating.elapsed().as_secs_f64() * 1000.0;

    // The migrated data, read back whole.
    let mut after: BTreeMap<String, Vec<Item>> = BTreeMap::new();
    for table in &new.tables {
        let items = scan_all(engine, names.new_table(&table.name)?, verified.items_before).await?;
        verified.items_after += items.len();
        after.insert(table.name.clone(), items);
    }

    let predicted = predict(old, new, &before.items)?;
    for table in &new.tables {
        let keys: Vec<String> = table.primary_key().map(|k| k.name.clone()).collect();
        let sorted = |items: Option<&Vec<Item>>| {
            let mut items: Vec<Item> = items
                .map(|v| v.iter().map(canonical_item).collect())
                .unwrap_or_default();
            items.sort_by(|a, b| super::exec::compare_keys(a, b, &keys));
            items
        };
        let (expected, actual) = (
            sorted(predicted.get(&table.name)),
            sorted(after.get(&table.name)),
        );
        if let Some(difference) = super::diff::diff(&expected, &actual, &keys) {
            verified
                .data_mismatches
                .push(format!("table {}: {difference}", table.name));
        }
    }

    // NEW's patterns on the migrated data, against core's evaluation of the same items.
    let loads: Vec<LoadItem> = after
        .iter()
        .flat_map(|(table, items)| {
            items.iter().map(move |item| LoadItem {
                table: table.clone(),
                entity: keyplan_core::sample::identify(new, table, item),
                item: item.clone(),
            })
        })
        .collect();
    let checks = super::build::plan_loads(new, &analyze(new), loads)?;
    let table_name = |t: &str| names.new.get(t).cloned().unwrap_or_default();
    for check in &checks.checks {
        super::go_on(cancel)?;
        let result = match &check.kind {
            CheckKind::Read(read) => {
                super::exec::read(engine, &table_name, check.index, read).await
            }
            CheckKind::Vector(search) => {
                super::vector::search(engine, &table_name, check.index, search).await
            }
            CheckKind::Write(_) => skipped(
                check,
                "a verification runs the reads; writes would change the migrated data",
            ),
            CheckKind::Skip(reason) => skipped(check, reason),
        };
        emit(RunEvent::Pattern(result.clone()));
        verified.patterns.push(result);
    }
    Ok(())
}

/// What core predicts the migrated tables hold (by NEW's table name): `items` (by OLD's table
/// name) migrated item by item. The verification and the tests of the generated migration
/// programs compare the data with it.
pub fn predict(
    old: &Design,
    new: &Design,
    items: &BTreeMap<String, Vec<Item>>,
) -> Result<BTreeMap<String, Vec<Item>>, RunError> {
    let mut predicted: BTreeMap<String, Vec<Item>> = BTreeMap::new();
    for (table, items) in items {
        for item in items {
            let moved = migrate_one(old, new, table, item)?;
            if let Some(m) = moved.item {
                predicted.entry(moved.table).or_default().push(m);
            }
        }
    }
    Ok(predicted)
}

fn skipped(check: &super::plan::Check, reason: &str) -> PatternResult {
    let mut result = PatternResult::new(check.index, &check.pattern, "-", None);
    result.status = Status::Skipped;
    result.message = Some(reason.to_string());
    result
}

/// Executes one step of the plan on the engine.
#[allow(clippy::too_many_arguments)]
async fn execute(
    engine: &Engine,
    old: &Design,
    new: &Design,
    names: &Names,
    step: &Step,
    guard: &TableGuard,
    cancel: &CancellationToken,
    emit: &(dyn Fn(RunEvent) + Send + Sync),
    verified: &mut Verified,
) -> Result<Option<String>, RunError> {
    let new_table = new.table(&step.table);
    if step.vector {
        let name = names.new_table(&step.table)?;
        return vector::execute(engine, (old, new), name, step, cancel, emit, verified).await;
    }
    match (step.phase, step.kind, &step.index, &step.entity) {
        // A table the new design adds.
        (Phase::Expand, StepKind::Online, None, _) => {
            let table = new_table.ok_or_else(|| missing(&step.table))?;
            tables::create(
                engine,
                guard,
                table,
                names.new_table(&table.name)?,
                cancel,
                emit,
            )
            .await
            .map(|()| None)
        }
        (Phase::Expand, StepKind::Online, Some(index), _) => {
            let table = new_table.ok_or_else(|| missing(&step.table))?;
            let name = names.new_table(&table.name)?;
            // DynamoDB cannot change an index: one of the same name goes first.
            if old
                .table(&table.name)
                .is_some_and(|t| t.gsi(index).is_some())
            {
                delete_gsi(engine, table, name, index, cancel, emit).await?;
            }
            create_gsi(engine, table, name, index, cancel, emit)
                .await
                .map(|()| None)
        }
        (Phase::Migrate, StepKind::Backfill | StepKind::Rekey, _, Some(entity)) => {
            let from = old.entity(entity).map(|e| e.table.clone()).ok_or_else(|| {
                RunError::Design(format!("the old design has no entity {entity}"))
            })?;
            rewrite(
                engine,
                (old, new),
                names,
                &from,
                Some(entity),
                cancel,
                verified,
            )
            .await
            .map(Some)
        }
        (Phase::Migrate, StepKind::Rebuild, _, _) => {
            let table = new_table.ok_or_else(|| missing(&step.table))?;
            tables::create(
                engine,
                guard,
                table,
                names.new_table(&table.name)?,
                cancel,
                emit,
            )
            .await?;
            rewrite(
                engine,
                (old, new),
                names,
                &step.table,
                None,
                cancel,
                verified,
            )
            .await
            .map(Some)
        }
        (Phase::Contract, StepKind::Contract, Some(index), _) => {
            // A GSI replaced under its own name was deleted before it was created again.
            if new_table.is_some_and(|t| t.gsi(index).is_some()) {
                return Ok(None);
            }
            let table = old.table(&step.table).ok_or_else(|| missing(&step.table))?;
            delete_gsi(
                engine,
                table,
                names.new_table(&step.table)?,
                index,
                cancel,
                emit,
            )
            .await
            .map(|()| None)
        }
        (Phase::Contract, StepKind::Contract, None, Some(entity))
            if new.entity(entity).is_none() =>
        {
            rewrite(
                engine,
                (old, new),
                names,
                &step.table,
                Some(entity),
                cancel,
                verified,
            )
            .await
            .map(Some)
        }
        // Attributes no longer written, tables dropped (the cleanup deletes every table).
        _ => Ok(None),
    }
}

fn missing(table: &str) -> RunError {
    RunError::Design(format!(
        "the plan names table {table}, which neither design has"
    ))
}

/// Scans OLD's table `from` (of the designs `(old, new)`) and writes each item (of `entity`, or every item) in NEW's shape
/// where NEW keeps it: a PutItem at its new key, and a DeleteItem of the old key when the key
/// or the table changed. Items of an entity NEW drops are deleted. Returns what each part took
/// (the Scan, core's migration of the items, the puts, the deletes), for the step's line.
async fn rewrite(
    engine: &Engine,
    (old, new): (&Design, &Design),
    names: &Names,
    from: &str,
    entity: Option<&str>,
    cancel: &CancellationToken,
    verified: &mut Verified,
) -> Result<String, RunError> {
    let source = names.old.get(from).ok_or_else(|| missing(from))?.clone();
    let old_table = old.table(from).ok_or_else(|| missing(from))?;
    let mut clock = std::time::Instant::now();
    let mut lap = || {
        let seconds = clock.elapsed().as_secs_f64();
        clock = std::time::Instant::now();
        seconds
    };
    let scanned = scan_all(engine, &source, verified.items_before).await?;
    let scan_s = lap();
    // Puts first, then deletes: a migration stopped between the two leaves both copies, never
    // neither.
    let mut puts: Vec<(String, Item)> = Vec::new();
    let mut deletes: Vec<Item> = Vec::new();
    for item in &scanned {
        let moved = migrate_one(old, new, from, item)?;
        if entity.is_some() && moved.entity.as_deref() != entity {
            continue;
        }
        let mut keep_old = false;
        if let Some(m) = moved.item {
            let dest = names.new_table(&moved.table)?.to_string();
            keep_old = dest == source && same_key(old_table, item, &m);
            puts.push((dest, m));
        }
        if !keep_old && names.new.get(from) == Some(&source) {
            deletes.push(key_of(old_table, item));
        }
    }
    let migrate_s = lap();
    let writes: Vec<(&str, Write<'_>)> = puts
        .iter()
        .map(|(t, i)| (t.as_str(), Write::Put(i)))
        .collect();
    verified.written += write_all(engine, &writes, cancel, &|_, _| {}).await?.items;
    let put_s = lap();
    let writes: Vec<(&str, Write<'_>)> = deletes
        .iter()
        .map(|k| (source.as_str(), Write::Delete(k)))
        .collect();
    verified.deleted += write_all(engine, &writes, cancel, &|_, _| {}).await?.items;
    Ok(format!(
        "Scan of {} items {scan_s:.1} s, migrated in core {migrate_s:.1} s, {} puts {put_s:.1} s, {} deletes {:.1} s",
        scanned.len(),
        puts.len(),
        deletes.len(),
        lap()
    ))
}

/// Where an item of OLD's table `table` goes in NEW.
struct Moved {
    /// Its entity, by OLD's templates; `None` when none claims it.
    entity: Option<String>,
    /// NEW's table it lives in: its entity's, or `table` for an item no entity claims.
    table: String,
    /// The item in NEW's shape; `None` when NEW drops its entity. An item no entity claims
    /// stays as it is.
    item: Option<Item>,
}

/// An item of OLD's table `table` migrated: what the runner writes and the prediction expects.
fn migrate_one(old: &Design, new: &Design, table: &str, item: &Item) -> Result<Moved, RunError> {
    let entity = keyplan_core::sample::identify(old, table, item);
    let item = match &entity {
        Some(e) => migrated_item(old, new, e, item).map_err(RunError::Design)?,
        None => Some(item.clone()),
    };
    let table = entity
        .as_deref()
        .and_then(|e| new.entity(e))
        .map_or(table.to_string(), |e| e.table.clone());
    Ok(Moved {
        entity,
        table,
        item,
    })
}

fn same_key(table: &Table, a: &Item, b: &Item) -> bool {
    table
        .primary_key()
        .all(|k| a.get(&k.name) == b.get(&k.name))
}

/// The primary key of `item` in `table`.
fn key_of(table: &Table, item: &Item) -> Item {
    table
        .primary_key()
        .filter_map(|k| item.get(&k.name).map(|v| (k.name.clone(), v.clone())))
        .collect()
}

/// Every item of a run table: at most twice `expected` (and 1,000) of them, so a table that
/// grew past what the verification wrote shows as a difference instead of filling memory.
async fn scan_all(engine: &Engine, name: &str, expected: usize) -> Result<Vec<Item>, RunError> {
    let bound = (expected as u64).saturating_mul(2).max(1_000);
    let (items, _) = super::scan::scan(engine, name, bound, &|_| {}).await?;
    Ok(items)
}

/// Adds GSI `index` of `table` (NEW's) to the engine table `name` and waits until it is
/// active. Public for the migration benchmark, whose naive copy must end with the same index.
pub async fn create_gsi(
    engine: &Engine,
    table: &Table,
    name: &str,
    index: &str,
    cancel: &CancellationToken,
    emit: &(dyn Fn(RunEvent) + Send + Sync),
) -> Result<(), RunError> {
    let gsi = table
        .gsi(index)
        .ok_or_else(|| RunError::Design(format!("table {} has no GSI {index}", table.name)))?;
    let definitions = gsi
        .partition_key
        .iter()
        .chain(&gsi.sort_key)
        .map(|k| {
            Ok(AttributeDefinition::builder()
                .attribute_name(&k.name)
                .attribute_type(tables::scalar(k.ty))
                .build()?)
        })
        .collect::<Result<Vec<_>, RunError>>()?;
    let action = CreateGlobalSecondaryIndexAction::builder()
        .index_name(index)
        .set_key_schema(Some(tables::key_schema(&gsi.partition_key, &gsi.sort_key)?))
        .projection(tables::projection(&gsi.projection))
        .build()?;
    let what = format!("create GSI {index} on {}", table.name);
    update_table(engine, table, name, &what, cancel, emit, |update| {
        update
            .set_attribute_definitions(Some(definitions))
            .global_secondary_index_updates(
                GlobalSecondaryIndexUpdate::builder().create(action).build(),
            )
    })
    .await
}

async fn delete_gsi(
    engine: &Engine,
    table: &Table,
    name: &str,
    index: &str,
    cancel: &CancellationToken,
    emit: &(dyn Fn(RunEvent) + Send + Sync),
) -> Result<(), RunError> {
    let what = format!("delete GSI {index} of {}", table.name);
    let action = DeleteGlobalSecondaryIndexAction::builder()
        .index_name(index)
        .build()?;
    update_table(engine, table, name, &what, cancel, emit, |update| {
        update.global_secondary_index_updates(
            GlobalSecondaryIndexUpdate::builder().delete(action).build(),
        )
    })
    .await
}

/// Sends the UpdateTable `update` makes of the engine table `name` (design table `table`), and
/// waits until the table and its indexes are ACTIVE; `what` names the step in errors.
async fn update_table(
    engine: &Engine,
    table: &Table,
    name: &str,
    what: &str,
    cancel: &CancellationToken,
    emit: &(dyn Fn(RunEvent) + Send + Sync),
    update: impl FnOnce(UpdateTableFluentBuilder) -> UpdateTableFluentBuilder,
) -> Result<(), RunError> {
    update(engine.client.update_table().table_name(name))
        .send()
        .await
        .map_err(|e| run_error(engine, what, &e))?;
    tables::wait_active(engine, &table.name, name, what, cancel, emit).await
}
