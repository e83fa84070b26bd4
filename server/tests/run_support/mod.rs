//! Shared by the run tests: engines (the embedded one, a moto server the test starts itself),
//! collecting a run's events, and the checks every engine must pass.
#![allow(dead_code, clippy::unwrap_used)]

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::time::Duration;

use aws_sdk_dynamodb::types::{
    AttributeDefinition, AttributeValue, BillingMode, KeySchemaElement, KeyType,
    ScalarAttributeType,
};
use keyplan_core::Design;
use keyplan_server::engine::{Engine, Engines, EnginesConfig};
use keyplan_server::runner::build::{Counts, plan};
use keyplan_server::runner::{self, CheckKind, Plan, RunEvent, RunId, Status};
use tokio_util::sync::CancellationToken;

/// Serves `router` on a loopback port of this process, as a fake engine; returns its URL.
pub async fn serve_fake(router: axum::Router) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move {
        axum::serve(listener, router).await.unwrap();
    });
    url
}

/// An engine with the embedded dynoxide-rs, kept alive by the returned registry.
pub async fn embedded() -> (Engines, Engine) {
    let engines = Engines::start(&EnginesConfig {
        embedded: true,
        endpoints: Vec::new(),
        allow_aws: false,
        ..Default::default()
    })
    .await
    .unwrap();
    let engine = engines.get(None).unwrap().clone();
    (engines, engine)
}

/// dynoxide-rs's own HTTP server on a free loopback port, as another process's engine would
/// be (`keyplan serve`'s embedded engine has no port): an endpoint engine named `dynoxide`,
/// its URL, and the token that stops the server when cancelled or dropped.
pub async fn dynoxide_endpoint() -> (tokio_util::sync::DropGuard, Engine, String) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let db = dynoxide::Database::memory().unwrap();
    let stop = CancellationToken::new();
    let shutdown = stop.clone().cancelled_owned();
    tokio::spawn(dynoxide::server::serve_with_shutdown(
        listener, db, shutdown,
    ));
    (stop.drop_guard(), Engine::endpoint("dynoxide", &url), url)
}

/// A moto server on a free loopback port, killed on drop.
#[derive(Debug)]
pub struct Moto {
    child: Child,
    pub url: String,
}

impl Drop for Moto {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The repository's root.
pub fn repo() -> PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .expect("the repository exists")
}

/// `keyplan ARGS` run from the repository's root, with no engine chosen by the environment:
/// its exit code, stdout and stderr.
pub fn keyplan(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_keyplan"))
        .args(args)
        .current_dir(repo())
        .env_remove("KEYPLAN_ENGINE")
        .env_remove("KEYPLAN_ENDPOINT")
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The tool at `relative` under the repository (installed by scripts/setup.sh), or `None`
/// after saying it is skipped; under `KEYPLAN_REQUIRE_TOOLS=1` a missing tool is a failure.
pub fn tool(relative: &str) -> Option<PathBuf> {
    let path = repo().join(relative);
    if path.exists() {
        return Some(path);
    }
    if std::env::var("KEYPLAN_REQUIRE_TOOLS").as_deref() == Ok("1") {
        panic!("{relative} is missing: run scripts/setup.sh");
    }
    eprintln!("skipped: {relative} missing, run `make test`");
    None
}

/// The venv's Python with moto installed, to start the tests' moto with ([`moto_command`]),
/// or `None` with the skip message ([`tool`]).
pub fn moto_python() -> Option<PathBuf> {
    tool(".tools/venv/bin/moto_server")?;
    tool(".tools/venv/bin/python")
}

/// The command that starts moto on `port` of 127.0.0.1, answering one request at a time:
/// `moto_server` serves requests on concurrent threads, and moto's models are not safe for that
/// (two concurrent writes into one new partition can lose acknowledged items; the reasons and
/// the evidence are in `serial_moto.py`).
pub fn moto_command(python: &std::path::Path, port: u16) -> Command {
    let mut command = Command::new(python);
    command
        .arg(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/run_support/serial_moto.py"),
        )
        .args(["-H", "127.0.0.1", "-p", &port.to_string()]);
    command
}

/// Starts moto and waits until a signed ListTables answers (polled every 50 ms).
pub async fn start_moto() -> Option<(Moto, Engine)> {
    let python = moto_python()?;
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let child = moto_command(&python, port)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let url = format!("http://127.0.0.1:{port}");
    let moto = Moto { child, url };
    let engine = Engine::endpoint("moto", &moto.url);
    for _ in 0..600 {
        if engine.client.list_tables().send().await.is_ok() {
            return Some((moto, engine));
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("moto did not answer within 30 s at {}", moto.url);
}

/// Runs `plan` and returns the summary and every event.
pub async fn collect(engine: &Engine, plan: &Plan) -> (runner::Summary, Vec<RunEvent>) {
    let events = Mutex::new(Vec::new());
    let emit = |e: RunEvent| events.lock().unwrap().push(e);
    let summary = runner::run(
        engine,
        plan,
        &RunId::random(),
        &CancellationToken::new(),
        &emit,
    )
    .await;
    (summary, events.into_inner().unwrap())
}

/// The pattern results of a run, one line each, with the diff of any mismatch.
pub fn report(events: &[RunEvent]) -> String {
    let mut out = Vec::new();
    for event in events {
        match event {
            RunEvent::Pattern(p) => {
                out.push(format!(
                    "{:?} {} ({} {:?}): {}/{} items{}",
                    p.status,
                    p.pattern,
                    p.operation,
                    p.index_name,
                    p.actual_items,
                    p.expected_items,
                    p.message
                        .as_deref()
                        .map(|m| format!(" -- {m}"))
                        .unwrap_or_default()
                ));
                if let Some(d) = &p.diff {
                    out.push(d.clone());
                }
            }
            RunEvent::Failed { message, .. } => out.push(format!("FAILED: {message}")),
            _ => {}
        }
    }
    out.join("\n")
}

/// The message of the run's `failed` event.
pub fn failure(events: &[RunEvent]) -> String {
    events
        .iter()
        .find_map(|e| match e {
            RunEvent::Failed { message, .. } => Some(message.clone()),
            _ => None,
        })
        .expect("the run failed")
}

/// Runs the first example, two items an entity, on `engine`, which must fail: the message of
/// its `failed` event, and every event.
pub async fn failed_run(engine: &Engine) -> (String, Vec<RunEvent>) {
    let (_, design, counts) = examples(Some(2)).remove(0);
    let (summary, events) = collect(engine, &plan(&design, &counts).unwrap()).await;
    assert!(!summary.ok);
    (failure(&events), events)
}

/// Every table whose name starts with the run prefix.
pub async fn run_tables(engine: &Engine) -> Vec<String> {
    let mut names = keyplan_server::live::list_tables(engine).await.unwrap();
    names.retain(|n| n.starts_with(runner::PREFIX));
    names
}

/// Every built-in example, then the exporters' kitchen-sink fixture (an LSI, a multi-attribute
/// GSI key, INCLUDE and KEYS_ONLY projections, a delete), with each entity's count set when
/// `per_entity` is given.
pub fn examples(per_entity: Option<u32>) -> Vec<(String, Design, Counts)> {
    let fixture =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/export/kitchen-sink.keyplan.json");
    let extra = std::fs::read_to_string(&fixture)
        .ok()
        .and_then(|text| keyplan_core::file::parse(&text).ok())
        .map(|design| ("kitchen-sink", design));
    keyplan_core::examples::all()
        .into_iter()
        .chain(extra)
        .map(|(slug, design)| {
            let counts: Counts = match per_entity {
                Some(n) => design
                    .entities
                    .iter()
                    .map(|e| (e.name.clone(), n))
                    .collect(),
                None => BTreeMap::new(),
            };
            (slug.to_string(), design, counts)
        })
        .collect()
}

/// A table the runs did not create, with three items, to prove they leave it alone.
pub async fn create_bystander(engine: &Engine, name: &str) -> Vec<BTreeMap<String, String>> {
    engine
        .client
        .create_table()
        .table_name(name)
        .attribute_definitions(
            AttributeDefinition::builder()
                .attribute_name("PK")
                .attribute_type(ScalarAttributeType::S)
                .build()
                .unwrap(),
        )
        .key_schema(
            KeySchemaElement::builder()
                .attribute_name("PK")
                .key_type(KeyType::Hash)
                .build()
                .unwrap(),
        )
        .billing_mode(BillingMode::PayPerRequest)
        .send()
        .await
        .unwrap();
    for i in 0..3 {
        engine
            .client
            .put_item()
            .table_name(name)
            .item("PK", AttributeValue::S(format!("keep#{i}")))
            .item("v", AttributeValue::N(i.to_string()))
            .send()
            .await
            .unwrap();
    }
    scan_all(engine, name).await
}

/// How many items `table` holds: the runner's own count after a load (a consistent, paged
/// `Select=COUNT` scan).
pub async fn item_count(engine: &Engine, table: &str) -> usize {
    keyplan_server::runner::load::count(engine, table, 10_000_000)
        .await
        .expect("count the table's items")
}

/// Every item of a table, as sorted text maps.
pub async fn scan_all(engine: &Engine, name: &str) -> Vec<BTreeMap<String, String>> {
    let out = engine.client.scan().table_name(name).send().await.unwrap();
    let mut items: Vec<BTreeMap<String, String>> = out
        .items()
        .iter()
        .map(|i| {
            i.iter()
                .map(|(k, v)| (k.clone(), format!("{v:?}")))
                .collect()
        })
        .collect();
    items.sort();
    items
}

/// A plan whose first read expects one item with an attribute the engine will not return.
pub fn with_wrong_expectation(mut plan: Plan) -> (Plan, String) {
    for check in &mut plan.checks {
        if let CheckKind::Read(read) = &mut check.kind
            && let Some((_, pages, _)) = read.queries.first_mut()
            && let Some(item) = pages.first_mut().and_then(|p| p.items.first_mut())
        {
            item.insert(
                "deliberatelyWrong".to_string(),
                keyplan_core::AttributeValue::S("yes".to_string()),
            );
            if let Some(merged) = read.merged.as_mut().and_then(|m| m.first_mut()) {
                merged.insert(
                    "deliberatelyWrong".to_string(),
                    keyplan_core::AttributeValue::S("yes".to_string()),
                );
            }
            let pattern = check.pattern.clone();
            return (plan, pattern);
        }
    }
    panic!("the plan has no read with a result to falsify");
}

/// The checks every engine must pass: every example with zero mismatches, a wrong expectation
/// reported as a mismatch, 8 concurrent runs isolated, no run table left, a bystander table
/// untouched.
pub async fn check_engine(engine: &Engine, per_entity: Option<u32>) {
    let bystander = "bystander-orders";
    let before = create_bystander(engine, bystander).await;

    for (slug, design, counts) in examples(per_entity) {
        let plan = plan(&design, &counts).unwrap();
        let n_reads = plan.reads().count();
        let (summary, events) = collect(engine, &plan).await;
        let report = report(&events);
        assert!(summary.ok, "{slug} on {}:\n{report}", engine.name);
        assert_eq!(summary.mismatched, 0, "{report}");
        assert!(n_reads > 0, "{slug}: no read ran:\n{report}");
        assert_eq!(
            summary.passed + summary.skipped,
            plan.checks.len(),
            "{report}"
        );
        assert!(
            events.iter().any(|e| matches!(e, RunEvent::ItemsWritten { written, total } if written == total && *total > 0)),
            "{slug}: no load finished"
        );
    }

    let (_, design, counts) = examples(per_entity).remove(0);
    let (wrong, pattern) = with_wrong_expectation(plan(&design, &counts).unwrap());
    let (summary, events) = collect(engine, &wrong).await;
    assert!(!summary.ok);
    assert_eq!(summary.mismatched, 1, "{}", report(&events));
    let mismatch = events
        .iter()
        .find_map(|e| match e {
            RunEvent::Pattern(p) if p.status == Status::Mismatch => Some(p.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!(mismatch.pattern, pattern);
    let diff = mismatch.diff.unwrap();
    assert!(diff.contains("deliberatelyWrong: \"yes\""), "{diff}");
    assert!(diff.lines().any(|l| l.starts_with("- {")), "{diff}");
    assert!(diff.lines().any(|l| l.starts_with("+ {")), "{diff}");

    let plan = plan(&design, &counts).unwrap();
    let runs = (0..8).map(|_| collect(engine, &plan));
    for (summary, events) in futures_util::future::join_all(runs).await {
        assert!(summary.ok, "a concurrent run failed:\n{}", report(&events));
    }

    assert_eq!(run_tables(engine).await, Vec::<String>::new());
    assert_eq!(scan_all(engine, bystander).await, before);
    engine
        .client
        .delete_table()
        .table_name(bystander)
        .send()
        .await
        .unwrap();
}

/// A TCP proxy in front of an engine that calls `on_match` with the count so far each time a
/// request for `target` (e.g. `TransactWriteItems`) passes through it, before forwarding it:
/// the call happens while that request is in flight. Stops when dropped.
pub struct Tap {
    pub url: String,
    _task: tokio::task::JoinHandle<()>,
}

impl Drop for Tap {
    fn drop(&mut self) {
        self._task.abort();
    }
}

pub async fn tap(
    upstream: &str,
    target: &str,
    on_match: impl Fn(usize) + Send + Sync + 'static,
) -> Tap {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let upstream = upstream
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_string();
    let needle = format!("DynamoDB_20120810.{target}").into_bytes();
    let on_match = Arc::new(on_match);
    let seen = Arc::new(AtomicUsize::new(0));
    let task = tokio::spawn(async move {
        while let Ok((client, _)) = listener.accept().await {
            let Ok(server) = tokio::net::TcpStream::connect(&upstream).await else {
                continue;
            };
            let (needle, on_match, seen) = (needle.clone(), on_match.clone(), seen.clone());
            tokio::spawn(async move {
                let (mut client_read, mut client_write) = client.into_split();
                let (mut server_read, mut server_write) = server.into_split();
                let up = async move {
                    let mut buffer = vec![0u8; 64 * 1024];
                    let mut tail: Vec<u8> = Vec::new();
                    loop {
                        let n = match client_read.read(&mut buffer).await {
                            Ok(0) | Err(_) => break,
                            Ok(n) => n,
                        };
                        let mut window = std::mem::take(&mut tail);
                        window.extend_from_slice(&buffer[..n]);
                        let hits = window
                            .windows(needle.len())
                            .filter(|w| *w == needle.as_slice())
                            .count();
                        for _ in 0..hits {
                            on_match(seen.fetch_add(1, Ordering::SeqCst) + 1);
                        }
                        let keep = window.len().min(needle.len() - 1);
                        tail = window[window.len() - keep..].to_vec();
                        if server_write.write_all(&buffer[..n]).await.is_err() {
                            break;
                        }
                    }
                    let _ = server_write.shutdown().await;
                };
                let down = async move {
                    let _ = tokio::io::copy(&mut server_read, &mut client_write).await;
                    let _ = client_write.shutdown().await;
                };
                tokio::join!(up, down);
            });
        }
    });
    Tap { url, _task: task }
}

/// Creates `design`'s tables on `engine` under run-style names (with its TTL attribute, which
/// run tables lack) and loads its sample with `counts`: a table that exists, for the live
/// import tests. Returns the guard that deletes them and each design table's name on the engine.
pub async fn load_design(
    engine: &Engine,
    design: &Design,
    counts: &Counts,
) -> (
    keyplan_server::runner::tables::TableGuard,
    BTreeMap<String, String>,
) {
    use aws_sdk_dynamodb::types::TimeToLiveSpecification;
    use keyplan_server::runner::tables::{TableGuard, create};
    let plan = plan(design, counts).unwrap();
    let cancel = CancellationToken::new();
    let guard = TableGuard::new(engine);
    let id = RunId::random();
    let mut names = BTreeMap::new();
    for table in &plan.tables {
        let name = id.table_name(&table.name);
        create(engine, &guard, table, &name, &cancel, &|_: RunEvent| {})
            .await
            .unwrap();
        if let Some(attribute) = &table.ttl_attribute {
            let spec = TimeToLiveSpecification::builder()
                .attribute_name(attribute)
                .enabled(true)
                .build()
                .unwrap();
            engine
                .client
                .update_time_to_live()
                .table_name(&name)
                .time_to_live_specification(spec)
                .send()
                .await
                .unwrap();
        }
        names.insert(table.name.clone(), name);
    }
    let names_ref = &names;
    let items: Vec<(&str, &keyplan_core::Item)> = plan
        .items
        .iter()
        .flat_map(|(table, items)| {
            let name = names_ref[table].as_str();
            items.iter().map(move |i| (name, i))
        })
        .collect();
    keyplan_server::runner::load::load(engine, &items, &cancel, &|_, _| {})
        .await
        .unwrap();
    (guard, names)
}

/// The order example with filters on four of its reads (issue 16), one of them paged two
/// items at a time so that pages come back short or empty: run on `engine`, every read must
/// match core's evaluation, items and ScannedCount alike, and some filter must drop items.
pub async fn check_filters(engine: &Engine) {
    use keyplan_core::model::{FilterCondition, FilterOp};
    let (_, mut design, counts) = examples(None).remove(0);
    let filters: [(&str, FilterCondition, Option<u32>); 4] = [
        (
            "Get order items",
            FilterCondition::new("price", FilterOp::Gt),
            None,
        ),
        (
            "Get customer orders",
            FilterCondition::new("status", FilterOp::Ne),
            Some(2),
        ),
        (
            "Get orders by status",
            FilterCondition {
                count: Some(2),
                ..FilterCondition::new("fulfillmentCenter", FilterOp::In)
            },
            None,
        ),
        (
            "Get order events",
            FilterCondition::new("expiresAt", FilterOp::NotExists),
            None,
        ),
    ];
    for (name, condition, page_size) in filters {
        let pattern = design
            .patterns
            .iter_mut()
            .find(|p| p.name == name)
            .unwrap_or_else(|| panic!("the example has `{name}`"));
        pattern.filter.push(condition);
        if page_size.is_some() {
            pattern.page_size = page_size;
        }
    }
    let plan = plan(&design, &counts).unwrap();
    let (summary, events) = collect(engine, &plan).await;
    let lines: Vec<String> = events
        .iter()
        .filter_map(|e| match e {
            RunEvent::Pattern(p) if p.expected_scanned.is_some() => Some(format!(
                "{}: read {:?} of {:?} predicted, returned {} of {}{}",
                p.pattern,
                p.actual_scanned,
                p.expected_scanned,
                p.actual_items,
                p.expected_items,
                p.diff
                    .as_deref()
                    .map(|d| format!("\n{d}"))
                    .unwrap_or_default()
            )),
            _ => None,
        })
        .collect();
    let report = format!("{}\n{}", report(&events), lines.join("\n"));
    assert!(summary.ok, "filters on {}:\n{report}", engine.name);
    assert_eq!(lines.len(), 4, "every filtered read ran:\n{report}");
    let dropped = events.iter().any(|e| {
        matches!(e, RunEvent::Pattern(p) if p.actual_scanned.is_some_and(|read| read > p.actual_items))
    });
    assert!(dropped, "no filter dropped an item:\n{report}");
    assert_eq!(run_tables(engine).await, Vec::<String>::new());
}
