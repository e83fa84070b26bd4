//! The generated migration programs (issue 18, item 3): for issue 18's five migrations of the
//! order example, the TypeScript passes `tsc --strict`, and both programs, run on moto against
//! OLD's sample loaded there, leave exactly the items core predicts (`migrated_item` over the
//! sample, as `--verify` predicts them); a second run changes nothing and reports no write; a
//! run stopped after a checkpoint resumes and writes nothing twice; `--dry-run` writes nothing;
//! a program refuses to start without every table it writes, and leaves other tables alone.
//!
//! A missing tool (tsc, node, the venv's Python and moto) fails the test under
//! `KEYPLAN_REQUIRE_TOOLS=1` (the README's test command) and skips it otherwise.

mod migrate_support;
mod run_support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use keyplan_core::Item;
use keyplan_core::migrate::code::{Language, generate, rebuilt_role, roles};
use keyplan_core::migrate::{MigrationPlan, PlanConfig, StepKind, plan};
use keyplan_core::model::Design;
use keyplan_server::engine::Engine;
use keyplan_server::runner::build::{Counts, plan as sample_plan};
use keyplan_server::runner::convert::{canonical_item, item_from_sdk};
use keyplan_server::runner::migrate::predict;
use keyplan_server::runner::tables::{TableGuard, create};
use keyplan_server::runner::{RunEvent, RunId};
use migrate_support::{migrations, order_example};
use run_support::{Moto, create_bystander, load_design, repo, scan_all, start_moto, tool};
use tokio_util::sync::CancellationToken;

/// A generated program ready to run: `node FILE.js` or `python FILE.py`.
struct Program {
    command: PathBuf,
    file: PathBuf,
    dir: PathBuf,
}

/// What one run of a program printed and did.
#[derive(Debug)]
struct Ran {
    code: i32,
    output: String,
    /// The last line's summary: writes, unchanged items...
    summary: serde_json::Value,
}

impl Program {
    fn run(&self, moto: &Moto, tables: &BTreeMap<String, String>, extra: &[&str]) -> Ran {
        let Output {
            status,
            stdout,
            stderr,
        } = self
            .command(moto, tables, extra)
            .output()
            .expect("the program starts");
        let stdout = String::from_utf8_lossy(&stdout).to_string();
        let output = format!("{stdout}{}", String::from_utf8_lossy(&stderr));
        let summary = stdout
            .lines()
            .last()
            .and_then(|l| serde_json::from_str(l).ok())
            .unwrap_or(serde_json::Value::Null);
        Ran {
            code: status.code().unwrap_or(-1),
            output,
            summary,
        }
    }

    fn command(&self, moto: &Moto, tables: &BTreeMap<String, String>, extra: &[&str]) -> Command {
        let mut command = Command::new(&self.command);
        command
            .current_dir(&self.dir)
            .arg(&self.file)
            .args(["--endpoint", &moto.url])
            .env("AWS_ACCESS_KEY_ID", "test")
            .env("AWS_SECRET_ACCESS_KEY", "test")
            .env("AWS_REGION", "us-east-1")
            .args(extra);
        for (role, name) in tables {
            command.arg("--table").arg(format!("{role}={name}"));
        }
        command
    }
}

impl Ran {
    fn writes(&self) -> u64 {
        self.summary["writes"]
            .as_u64()
            .unwrap_or_else(|| panic!("no summary line:\n{}", self.output))
    }

    fn succeeded(&self, what: &str) {
        assert_eq!(self.code, 0, "{what}:\n{}", self.output);
        assert_eq!(self.summary["done"], true, "{what}:\n{}", self.output);
    }
}

/// Writes each migration's program in `language` into `dir` (named by its index), compiling
/// the TypeScript with `tsc --strict`; `None` when a tool is missing.
fn programs(
    language: Language,
    dir: &Path,
    cases: &[(&str, Design, MigrationPlan)],
) -> Option<Vec<Program>> {
    programs_from(language, dir, &order_example(), cases, |text| text)
}

/// [`programs`] of migrations from `old`, each program's text passed through `edit` first.
fn programs_from(
    language: Language,
    dir: &Path,
    old: &Design,
    cases: &[(&str, Design, MigrationPlan)],
    edit: impl Fn(String) -> String,
) -> Option<Vec<Program>> {
    let old = old.clone();
    let mut sources = Vec::new();
    for (i, (what, new, plan)) in cases.iter().enumerate() {
        let text = generate(&old, new, plan, language).unwrap_or_else(|e| panic!("{what}: {e}"));
        let text = edit(text);
        let path = dir.join(format!("migrate{i}.{}", language.extension()));
        std::fs::write(&path, text).expect("write the program");
        sources.push(path);
    }
    match language {
        Language::TypeScript => {
            let tsc = tool(".tools/node_modules/.bin/tsc")?;
            let output = Command::new(tsc)
                .current_dir(dir)
                .args(["--strict", "--target", "es2022", "--module", "nodenext"])
                .args(["--moduleResolution", "nodenext", "--types", "node"])
                .args(["--skipLibCheck", "--outDir"])
                .arg(dir)
                .args(&sources)
                .output()
                .expect("tsc starts");
            assert!(
                output.status.success(),
                "tsc --strict:\n{}{}",
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
            );
            Some(
                sources
                    .iter()
                    .map(|s| Program {
                        command: PathBuf::from("node"),
                        file: s.with_extension("js"),
                        dir: dir.to_path_buf(),
                    })
                    .collect(),
            )
        }
        Language::Python => {
            let python = tool(".tools/venv/bin/python")?;
            Some(
                sources
                    .into_iter()
                    .map(|file| Program {
                        command: python.clone(),
                        file,
                        dir: dir.to_path_buf(),
                    })
                    .collect(),
            )
        }
    }
}

/// A temporary directory inside .tools, so node and tsc resolve the npm packages there.
fn work_dir() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("migcode-")
        .tempdir_in(repo().join(".tools"))
        .expect("temp dir in .tools")
}

/// Issue 18's five migrations with their plans, and two whose programs take paths those do
/// not: an entity dropped (its items deleted), and a GSI key re-sharded (the write shard
/// hashed by the program as core hashes it).
fn cases() -> Vec<(&'static str, Design, MigrationPlan)> {
    let old = order_example();
    let mut dropped = old.clone();
    dropped.entities.retain(|e| e.name != "DailyOrderCount");
    dropped.patterns.retain(|p| {
        !p.entities.iter().any(|e| e == "DailyOrderCount")
            && !p.writes.iter().any(|w| w.entity == "DailyOrderCount")
    });
    let mut resharded = old.clone();
    resharded
        .entities
        .iter_mut()
        .find(|e| e.name == "Order")
        .expect("Order")
        .keys
        .insert("GSI1PK".into(), "STATUS#{status}#{shard:4}".into());
    migrations()
        .into_iter()
        .chain([
            ("DailyOrderCount dropped", dropped),
            ("GSI1PK re-sharded 4 ways", resharded),
        ])
        .map(|(what, new)| {
            let plan = plan(&old, &new, &PlanConfig::default());
            (what, new, plan)
        })
        .collect()
}

/// The tables of one migration on the engine.
struct Tables {
    old: TableGuard,
    rebuilt: TableGuard,
    /// What the program is given: each of its roles' table.
    given: BTreeMap<String, String>,
    /// Every table, by design table name (OLD's) or role (a rebuild's copy).
    all: BTreeMap<String, String>,
}

/// OLD's tables created on moto and loaded with its sample, and the tables a rebuild copies
/// into created in NEW's shape.
async fn tables_for(engine: &Engine, new: &Design, plan: &MigrationPlan) -> Tables {
    let old = order_example();
    let (guard, mut names) = load_design(engine, &old, &Counts::default()).await;
    let rebuilt = TableGuard::new(engine);
    let id = RunId::random();
    for step in plan.steps.iter().filter(|s| s.kind == StepKind::Rebuild) {
        let table = new.table(&step.table).expect("the rebuilt table");
        let name = id.table_name(&format!("{}-v2", table.name));
        create(
            engine,
            &rebuilt,
            table,
            &name,
            &CancellationToken::new(),
            &|_: RunEvent| {},
        )
        .await
        .expect("the new table");
        names.insert(rebuilt_role(&table.name), name);
    }
    let wanted = roles(&old, new, plan).expect("roles");
    let given: BTreeMap<String, String> = names
        .iter()
        .filter(|(role, _)| wanted.contains(role))
        .map(|(r, n)| (r.clone(), n.clone()))
        .collect();
    Tables {
        old: guard,
        rebuilt,
        given,
        all: names,
    }
}

impl Tables {
    async fn cleanup(self) {
        self.rebuilt.cleanup().await;
        self.old.cleanup().await;
    }
}

/// Every item of each of `design`'s tables as it stands on the engine (a rebuilt table's
/// copy when there is one), canonical and sorted.
async fn data(
    engine: &Engine,
    design: &Design,
    tables: &BTreeMap<String, String>,
) -> BTreeMap<String, Vec<String>> {
    let mut out = BTreeMap::new();
    for table in &design.tables {
        let name = tables
            .get(&rebuilt_role(&table.name))
            .or_else(|| tables.get(&table.name))
            .expect("a real table for every table of the design");
        out.insert(table.name.clone(), read_table(engine, name).await);
    }
    out
}

/// Every item of a table, each as canonical JSON, sorted.
async fn read_table(engine: &Engine, name: &str) -> Vec<String> {
    let mut items = Vec::new();
    let mut start = None;
    loop {
        let page = engine
            .client
            .scan()
            .table_name(name)
            .set_exclusive_start_key(start.take())
            .send()
            .await
            .expect("scan");
        items.extend(page.items().iter().map(|i| shown(&item_from_sdk(i))));
        match page.last_evaluated_key() {
            Some(key) if !key.is_empty() => start = Some(key.clone()),
            _ => break,
        }
    }
    items.sort();
    items
}

fn shown(item: &Item) -> String {
    serde_json::to_string(&canonical_item(item)).expect("JSON")
}

/// Core's prediction for NEW's tables: OLD's sample migrated item by item.
fn predicted(new: &Design) -> BTreeMap<String, Vec<String>> {
    let old = order_example();
    let sample = sample_plan(&old, &Counts::default()).expect("the sample");
    let predicted = predict(&old, new, &sample.items).expect("core predicts");
    new.tables
        .iter()
        .map(|t| {
            let mut items: Vec<String> = predicted
                .get(&t.name)
                .map(|items| items.iter().map(shown).collect())
                .unwrap_or_default();
            items.sort();
            (t.name.clone(), items)
        })
        .collect()
}

/// Every migration in `language` on moto: a dry run writes nothing; a run leaves what core
/// predicts; a second run (from no checkpoint) writes nothing and changes nothing.
async fn every_migration_leaves_what_core_predicts(language: Language) {
    let Some(python) = tool(".tools/venv/bin/python") else {
        return;
    };
    drop(python);
    let dir = work_dir();
    let cases = cases();
    let Some(programs) = programs(language, dir.path(), &cases) else {
        return;
    };
    let Some((moto, engine)) = start_moto().await else {
        return;
    };
    let bystander = create_bystander(&engine, "bystander-orders").await;
    let mut data_steps = 0;
    for ((what, new, plan), program) in cases.iter().zip(&programs) {
        let t = tables_for(&engine, new, plan).await;
        let tables = &t.given;
        let old_names: BTreeMap<String, String> = t
            .all
            .iter()
            .filter(|(r, _)| !r.ends_with("@new"))
            .map(|(r, n)| (r.clone(), n.clone()))
            .collect();
        // Both views: OLD's tables, and NEW's (a rebuild's copy empty so far).
        let before = (
            data(&engine, &order_example(), &old_names).await,
            data(&engine, new, &t.all).await,
        );

        let checkpoint = |name: &str| dir.path().join(format!("{name}.checkpoint.json"));
        let dry = program.run(
            &moto,
            tables,
            &[
                "--dry-run",
                "--checkpoint",
                &checkpoint("dry").to_string_lossy(),
            ],
        );
        dry.succeeded(&format!("{what}: the dry run"));
        let after_dry = (
            data(&engine, &order_example(), &old_names).await,
            data(&engine, new, &t.all).await,
        );
        assert_eq!(after_dry, before, "{what}: the dry run wrote");

        let first = program.run(
            &moto,
            tables,
            &[
                "--checkpoint",
                &checkpoint(&format!("{what}-1")).to_string_lossy(),
            ],
        );
        first.succeeded(what);
        let after = data(&engine, new, &t.all).await;
        assert_eq!(
            after,
            predicted(new),
            "{what}: the data is not what core predicts\n{}",
            first.output
        );
        let would = dry
            .output
            .lines()
            .filter(|l| l.starts_with("DRY RUN"))
            .count() as u64;
        assert_eq!(
            would,
            first.writes(),
            "{what}: the dry run printed {would} writes, the run made {}:\n{}",
            first.writes(),
            dry.output
        );
        if first.writes() > 0 {
            data_steps += 1;
        }

        let second = program.run(
            &moto,
            tables,
            &[
                "--checkpoint",
                &checkpoint(&format!("{what}-2")).to_string_lossy(),
            ],
        );
        second.succeeded(&format!("{what}: the second run"));
        assert_eq!(second.writes(), 0, "{what}: {}", second.output);
        assert_eq!(
            data(&engine, new, &t.all).await,
            after,
            "{what}: the second run changed the data"
        );
        t.cleanup().await;
    }
    // The GSI backfill, the re-key, the rebuild, the deletion and the re-sharding write; a GSI
    // removed and a multi-attribute key are DynamoDB's to build, so their programs have
    // nothing to write.
    assert_eq!(data_steps, 5, "migrations that wrote");
    assert_eq!(scan_all(&engine, "bystander-orders").await, bystander);
}

// issue 18: the TypeScript program of every migration of the order example, on moto.
#[tokio::test]
async fn every_typescript_migration_leaves_what_core_predicts_and_reruns_as_a_no_op() {
    every_migration_leaves_what_core_predicts(Language::TypeScript).await;
}

// issue 18: the Python program of every migration of the order example, on moto.
#[tokio::test]
async fn every_python_migration_leaves_what_core_predicts_and_reruns_as_a_no_op() {
    every_migration_leaves_what_core_predicts(Language::Python).await;
}

/// How many items of OLD's sample `entity` has in `table`.
fn sample_items_of(table: &str, entity: &str) -> u64 {
    let old = order_example();
    let sample = sample_plan(&old, &Counts::default()).expect("the sample");
    sample.items[table]
        .iter()
        .filter(|i| keyplan_core::sample::identify(&old, table, i).as_deref() == Some(entity))
        .count() as u64
}

/// The re-key of OrderItem and the rebuild in `language`: a program refuses to start without
/// its table or with one it does not know; a run stopped after its first checkpoint resumes
/// from it (not with other segments), ends where core predicts, and writes each item once over
/// both runs.
async fn a_stopped_run_resumes_without_writing_twice(language: Language) {
    let dir = work_dir();
    let cases: Vec<(&str, Design, MigrationPlan)> = cases()
        .into_iter()
        .filter(|(what, _, _)| what.contains("re-keyed") || what.contains("LSI"))
        .collect();
    assert_eq!(cases.len(), 2, "the re-key and the rebuild");
    let Some(programs) = programs(language, dir.path(), &cases) else {
        return;
    };
    let Some((moto, engine)) = start_moto().await else {
        return;
    };
    for ((what, new, plan), program) in cases.iter().zip(&programs) {
        stopped_and_resumed(&moto, &engine, dir.path(), what, new, plan, program).await;
    }
}

async fn stopped_and_resumed(
    moto: &Moto,
    engine: &Engine,
    dir: &Path,
    what: &str,
    new: &Design,
    plan: &MigrationPlan,
    program: &Program,
) {
    let (moto, engine) = (moto, engine.clone());
    let t = tables_for(&engine, new, plan).await;
    let before = data(&engine, new, &t.all).await;
    let checkpoint = dir.join(format!("{what}.checkpoint.json"));
    let checkpoint = checkpoint.to_string_lossy();

    let refused = program.run(moto, &BTreeMap::new(), &[]);
    assert_eq!(refused.code, 2, "{}", refused.output);
    assert!(
        refused
            .output
            .contains("refusing to start: no table given for orders"),
        "{}",
        refused.output
    );
    let mut unknown = t.given.clone();
    unknown.insert("bystander".to_string(), "bystander-orders".to_string());
    let refused = program.run(moto, &unknown, &[]);
    assert_eq!(refused.code, 2, "{}", refused.output);
    assert!(
        refused
            .output
            .contains("this migration has no table bystander"),
        "{}",
        refused.output
    );
    assert_eq!(
        data(&engine, new, &t.all).await,
        before,
        "a refused run wrote"
    );

    let rebuild = plan.steps.iter().any(|s| s.kind == StepKind::Rebuild);
    if rebuild {
        // The table a rebuild copies into must exist: the program does not create tables.
        let mut absent = t.given.clone();
        absent.insert(rebuilt_role("orders"), "no-such-table".to_string());
        let refused = program.run(moto, &absent, &[]);
        assert_eq!(refused.code, 2, "{}", refused.output);
        assert!(
            refused
                .output
                .contains("no-such-table (orders@new) cannot be described"),
            "{}",
            refused.output
        );
    }
    let orders = read_table(&engine, &t.all["orders"]).await.len();
    let page = (orders / 2).to_string();
    let first = program.run(
        moto,
        &t.given,
        &[
            "--segments",
            "1",
            "--page-size",
            &page,
            "--max-pages",
            "1",
            "--checkpoint",
            &checkpoint,
        ],
    );
    assert_eq!(
        first.code, 3,
        "{what}: stopped after a page:\n{}",
        first.output
    );
    assert_eq!(first.summary["done"], false, "{}", first.output);
    let partial = data(&engine, new, &t.all).await;
    assert!(first.writes() > 0, "{}", first.output);
    assert_ne!(partial, predicted(new), "{what}: one page did it all");

    let other = program.run(
        moto,
        &t.given,
        &["--segments", "2", "--checkpoint", &checkpoint],
    );
    assert_eq!(other.code, 2, "{}", other.output);
    assert!(
        other.output.contains("was made with --segments 1"),
        "{}",
        other.output
    );

    let resumed = program.run(
        moto,
        &t.given,
        &["--segments", "1", "--checkpoint", &checkpoint],
    );
    resumed.succeeded(&format!("{what}: the resumed run"));
    assert_eq!(
        data(&engine, new, &t.all).await,
        predicted(new),
        "{what}: the resumed run did not finish the migration"
    );
    // Each OrderItem is put at its new key once and deleted at its old one once; a rebuild
    // puts every item once into the new table.
    let expected = if rebuild {
        orders as u64
    } else {
        2 * sample_items_of("orders", "OrderItem")
    };
    assert_eq!(
        first.writes() + resumed.writes(),
        expected,
        "{what}: written twice\n{}\n{}",
        first.output,
        resumed.output
    );
    if rebuild {
        // The source does not change under a rebuild: the resumed run reads on from the
        // checkpoint, not from the start.
        let scanned = |r: &Ran| r.summary["scanned"].as_u64().expect("scanned");
        assert_eq!(scanned(&first) + scanned(&resumed), orders as u64);
    }
    let again = program.run(
        moto,
        &t.given,
        &["--segments", "1", "--checkpoint", &checkpoint],
    );
    again.succeeded(&format!("{what}: a run after the last"));
    assert_eq!(again.summary["scanned"], 0, "{}", again.output);
    t.cleanup().await;
}

// issue 18: a TypeScript run stopped after a checkpoint resumes where it was.
#[tokio::test]
async fn a_stopped_typescript_run_resumes_without_writing_twice() {
    a_stopped_run_resumes_without_writing_twice(Language::TypeScript).await;
}

// issue 18: a Python run stopped after a checkpoint resumes where it was.
#[tokio::test]
async fn a_stopped_python_run_resumes_without_writing_twice() {
    a_stopped_run_resumes_without_writing_twice(Language::Python).await;
}

/// The rebuild in `language`, killed (SIGKILL, as a crash stops it) once its first checkpoint
/// is on disk: the next run reads on from the checkpoint and leaves what core predicts.
async fn a_killed_run_resumes_from_its_checkpoint(language: Language) {
    let dir = work_dir();
    let cases: Vec<(&str, Design, MigrationPlan)> = cases()
        .into_iter()
        .filter(|(what, _, _)| what.contains("LSI"))
        .collect();
    let Some(programs) = programs(language, dir.path(), &cases) else {
        return;
    };
    let Some((moto, engine)) = start_moto().await else {
        return;
    };
    let (what, new, plan) = &cases[0];
    let t = tables_for(&engine, new, plan).await;
    let orders = read_table(&engine, &t.all["orders"]).await.len() as u64;
    let checkpoint = dir.path().join("killed.checkpoint.json");
    // One write unit a second: the run is still writing its second page when the first
    // page's checkpoint appears.
    let mut child = programs[0]
        .command(
            &moto,
            &t.given,
            &[
                "--segments",
                "1",
                "--page-size",
                "5",
                "--max-wcu",
                "1",
                "--checkpoint",
                &checkpoint.to_string_lossy(),
            ],
        )
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("the program starts");
    while !checkpoint.exists() {
        if let Some(status) = child.try_wait().expect("the program's status") {
            panic!("{what}: the run ended ({status}) before its first checkpoint");
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    child.kill().expect("kill the run");
    child.wait().expect("the run is gone");
    let copied = read_table(&engine, &t.given[&rebuilt_role("orders")])
        .await
        .len() as u64;
    assert!(copied < orders, "{what}: the killed run copied everything");

    let resumed = programs[0].run(
        &moto,
        &t.given,
        &[
            "--segments",
            "1",
            "--checkpoint",
            &checkpoint.to_string_lossy(),
        ],
    );
    resumed.succeeded(&format!("{what}: the run after the kill"));
    assert_eq!(data(&engine, new, &t.all).await, predicted(new), "{what}");
    let scanned = resumed.summary["scanned"].as_u64().expect("scanned");
    assert!(
        scanned < orders,
        "{what}: the run after the kill read {scanned} of {orders} items: it started over"
    );
    t.cleanup().await;
}

// issue 18: a TypeScript run killed after a checkpoint resumes from it.
#[tokio::test]
async fn a_killed_typescript_run_resumes_from_its_checkpoint() {
    a_killed_run_resumes_from_its_checkpoint(Language::TypeScript).await;
}

// issue 18: a Python run killed after a checkpoint resumes from it.
#[tokio::test]
async fn a_killed_python_run_resumes_from_its_checkpoint() {
    a_killed_run_resumes_from_its_checkpoint(Language::Python).await;
}

/// `keyplan migrate OLD NEW --to LANGUAGE -o FILE` writes core's program; an unknown language
/// is refused with the ones there are.
#[test]
fn the_cli_writes_the_migration_program() {
    let dir = tempfile::tempdir().expect("temp dir");
    let old = order_example();
    let (_, new) = migrations().remove(1);
    let old_file = dir.path().join("old.keyplan.json");
    let new_file = dir.path().join("new.keyplan.json");
    std::fs::write(&old_file, keyplan_core::file::to_string(&old)).expect("write");
    std::fs::write(&new_file, keyplan_core::file::to_string(&new)).expect("write");
    let out = dir.path().join("migrate.py");
    let keyplan = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_keyplan"))
            .arg("migrate")
            .arg(&old_file)
            .arg(&new_file)
            .args(args)
            .output()
            .expect("keyplan runs")
    };
    let written = keyplan(&["--to", "python", "-o", &out.to_string_lossy()]);
    assert!(written.status.success(), "{written:?}");
    let (old, new) = (
        keyplan_core::file::parse(&std::fs::read_to_string(&old_file).expect("read")).expect("old"),
        keyplan_core::file::parse(&std::fs::read_to_string(&new_file).expect("read")).expect("new"),
    );
    let plan = plan(&old, &new, &PlanConfig::default());
    assert_eq!(
        std::fs::read_to_string(&out).expect("the program"),
        generate(&old, &new, &plan, Language::Python).expect("generates")
    );
    let refused = keyplan(&["--to", "cobol"]);
    assert_eq!(refused.status.code(), Some(2), "{refused:?}");
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("typescript or python"),
        "{refused:?}"
    );
}

/// Issue 41's tables: `events`, rebuilt for an LSI (so the role `events@new`), and `events-new`,
/// whose entity is re-keyed in place: OLD, and NEW with its plan.
fn events_migration() -> (Design, Vec<(&'static str, Design, MigrationPlan)>) {
    use keyplan_core::model::{AttrType, Attribute, Entity, KeyAttribute, KeyType, Lsi, Table};
    let mut old = Design::new("events");
    for table in ["events", "events-new"] {
        old.tables.push(Table::new(
            table.into(),
            KeyAttribute::new("PK", KeyType::S),
            Some(KeyAttribute::new("SK", KeyType::S)),
        ));
    }
    for (entity, table, pk) in [
        ("Event", "events", "EVENT#{id}"),
        ("Archived", "events-new", "A#{id}"),
    ] {
        old.entities.push(Entity {
            name: entity.into(),
            table: table.into(),
            description: String::new(),
            attributes: vec![
                Attribute::new("id", AttrType::S),
                Attribute::new("at", AttrType::S),
            ],
            keys: [
                ("PK".to_string(), pk.into()),
                ("SK".to_string(), "META".into()),
            ]
            .into_iter()
            .collect(),
            volume: None,
        });
    }
    let mut new = old.clone();
    new.tables[0].lsis.push(Lsi {
        name: "ByTime".into(),
        sort_key: KeyAttribute::new("at", KeyType::S),
        projection: keyplan_core::model::Projection::All,
    });
    new.entities[1]
        .keys
        .insert("PK".into(), "ARCHIVED#{id}".into());
    let plan = plan(&old, &new, &PlanConfig::default());
    assert_eq!(
        roles(&old, &new, &plan).expect("roles"),
        ["events", "events-new", "events@new"]
    );
    (
        old,
        vec![("events rebuilt, events-new re-keyed", new, plan)],
    )
}

/// `program` run with only `variables` naming tables, against an endpoint nothing listens on.
fn run_with_variables(program: &Program, variables: &[(&str, &str)]) -> (i32, String) {
    let mut command = Command::new(&program.command);
    command
        .current_dir(&program.dir)
        .arg(&program.file)
        .args(["--endpoint", "http://127.0.0.1:9", "--dry-run"])
        .env("AWS_ACCESS_KEY_ID", "test")
        .env("AWS_SECRET_ACCESS_KEY", "test")
        .env("AWS_REGION", "us-east-1");
    for (name, _) in std::env::vars() {
        if name.starts_with("KEYPLAN_TABLE_") {
            command.env_remove(name);
        }
    }
    command.envs(variables.iter().copied());
    let output = command.output().expect("the program starts");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    (output.status.code().unwrap_or(-1), text)
}

/// Issue 41, item 6: `events-new` and `events@new` both read KEYPLAN_TABLE_EVENTS_NEW, so one
/// variable gave the live `events-new` table to the rebuild's copy too. Given that variable
/// alone, the program now refuses: neither role reads it.
fn two_roles_never_share_a_variable(language: Language) {
    let dir = work_dir();
    let (old, cases) = events_migration();
    let Some(programs) = programs_from(language, dir.path(), &old, &cases, |t| t) else {
        return;
    };
    let (code, output) = run_with_variables(
        &programs[0],
        &[
            ("KEYPLAN_TABLE_EVENTS", "events-live"),
            ("KEYPLAN_TABLE_EVENTS_NEW", "events-new"),
        ],
    );
    assert_eq!(code, 2, "{output}");
    assert!(
        output.contains(
            "refusing to start: no table given for events-new (--table events-new=NAME or KEYPLAN_TABLE_EVENTS_DASH_NEW), events@new (--table events@new=NAME or KEYPLAN_TABLE_EVENTS_AT_NEW)"
        ),
        "{output}"
    );
}

// issue 41: the Python program reads each role from a variable of its own.
#[test]
fn two_roles_never_share_a_variable_in_python() {
    two_roles_never_share_a_variable(Language::Python);
}

// issue 41: the TypeScript program reads each role from a variable of its own.
#[test]
fn two_roles_never_share_a_variable_in_typescript() {
    two_roles_never_share_a_variable(Language::TypeScript);
}

/// Issue 41, item 6: a program whose roles would share a variable (its data edited so that
/// `events@new` reads `events-new`'s) refuses to start, whatever the environment holds.
fn a_program_whose_roles_share_a_variable_refuses_to_start(language: Language) {
    let dir = work_dir();
    let (old, cases) = events_migration();
    let ambiguous = |text: String| {
        let at = text
            .find("'KEYPLAN_TABLE_EVENTS_AT_NEW'")
            .or_else(|| text.find("\"KEYPLAN_TABLE_EVENTS_AT_NEW\""));
        assert!(
            at.is_some(),
            "the program names no variable for events@new:\n{text}"
        );
        text.replace(
            "KEYPLAN_TABLE_EVENTS_AT_NEW",
            "KEYPLAN_TABLE_EVENTS_DASH_NEW",
        )
    };
    let Some(programs) = programs_from(language, dir.path(), &old, &cases, ambiguous) else {
        return;
    };
    let (code, output) = run_with_variables(
        &programs[0],
        &[
            ("KEYPLAN_TABLE_EVENTS", "events-live"),
            ("KEYPLAN_TABLE_EVENTS_DASH_NEW", "events-new"),
        ],
    );
    assert_eq!(code, 2, "{output}");
    assert!(
        output.contains(
            "refusing to start: the roles events-new and events@new both read KEYPLAN_TABLE_EVENTS_DASH_NEW"
        ),
        "{output}"
    );
}

// issue 41: the Python program checks its variables are one per role before anything else.
#[test]
fn a_python_program_whose_roles_share_a_variable_refuses_to_start() {
    a_program_whose_roles_share_a_variable_refuses_to_start(Language::Python);
}

// issue 41: the TypeScript program checks its variables are one per role before anything else.
#[test]
fn a_typescript_program_whose_roles_share_a_variable_refuses_to_start() {
    a_program_whose_roles_share_a_variable_refuses_to_start(Language::TypeScript);
}
