//! Runs that keep their tables (issue 43, item 6): on the embedded engine and on moto, a kept
//! run's tables stay with their items, are listed, and the delete deletes exactly them; a
//! table keyplan did not record (another prefix, or its own prefix made by hand) is never
//! listed nor deleted, nor is a table made again under a kept name; a run that does not
//! finish deletes its tables though asked to keep them. Over HTTP: the engines say whether
//! runs may keep, `keep` in the start request, the list and the delete, their bounds.
#![allow(clippy::unwrap_used)]

mod app_support;
mod run_support;

use std::sync::Mutex;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use keyplan_core::api::runs::{Cleanup, KeptRun, KeptState};
use keyplan_server::engine::Engine;
use keyplan_server::runner::build::plan;
use keyplan_server::runner::kept::{self, Keeper};
use keyplan_server::runner::{self, RunEvent, RunId};
use run_support::*;
use tokio_util::sync::CancellationToken;

/// Runs the first example, two items an entity, on `engine` keeping its tables with `keeper`
/// (the caller gives the engine [`Keeper::engine_for`] gave), cancelled at the first event
/// named `cancel_at` if any; the run's id and its cleanup.
async fn kept_run(keeper: &Keeper, engine: &Engine, cancel_at: Option<&str>) -> (RunId, Cleanup) {
    let cancel = CancellationToken::new();
    let (_, design, counts) = examples(Some(2)).remove(0);
    let plan = plan(&design, &counts).unwrap();
    let id = RunId::random();
    let events = Mutex::new(Vec::new());
    let emit = |e: RunEvent| {
        if cancel_at == Some(e.name()) {
            cancel.cancel();
        }
        events.lock().unwrap().push(e)
    };
    let keep = runner::Keep {
        keeper,
        design: &design.name,
    };
    runner::run_keeping(engine, &plan, &id, &cancel, &emit, Some(keep)).await;
    let cleanup = events
        .into_inner()
        .unwrap()
        .into_iter()
        .find_map(|e| match e {
            RunEvent::Cleanup(c) => Some(c),
            _ => None,
        })
        .unwrap();
    (id, cleanup)
}

/// What `keyplan run ARGS --data-dir DATA` prints, in another process; it must succeed.
fn kept_cli(data: &std::path::Path, args: &[&str]) -> String {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_keyplan"))
        .arg("run")
        .args(args)
        .arg("--data-dir")
        .arg(data)
        .env_remove("KEYPLAN_ENGINE")
        .env_remove("KEYPLAN_ENDPOINT")
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(output.status.success(), "{said}");
    said
}

/// Each listed run as `run: name state, ...`.
fn shown(runs: &[KeptRun]) -> Vec<String> {
    runs.iter()
        .map(|r| {
            let tables: Vec<String> = r
                .tables
                .iter()
                .map(|t| format!("{} {:?}", t.name, t.state))
                .collect();
            format!("{} ({}): {}", r.run, r.design, tables.join(", "))
        })
        .collect()
}

/// The checks every engine passes: a kept run's tables stay with their items and are listed;
/// tables keyplan did not record are not; the delete deletes exactly the run's; a table made
/// again under a kept name is left alone.
async fn check_keeping(keeper: &Keeper, engine: &Engine) {
    let bystander = create_bystander(engine, "bystander-orders").await;
    // A table under keyplan's own prefix that no run recorded (made by hand, or by another
    // user's keyplan): never listed, never deleted.
    let forged = "keyplan-run-ffffffff-orders";
    let forged_items = create_bystander(engine, forged).await;

    let (id, cleanup) = kept_run(keeper, engine, None).await;
    assert_eq!(cleanup.deleted, Vec::<String>::new(), "{cleanup:?}");
    assert_eq!(
        cleanup.kept,
        [id.table_name("orders"), id.table_name("order-events")]
    );
    for name in &cleanup.kept {
        assert!(item_count(engine, name).await > 0, "{name} kept no items");
    }
    let listed = keeper.list(engine).await.unwrap();
    assert_eq!(
        shown(&listed),
        [format!(
            "{id} (Order management): {} Present, {} Present",
            id.table_name("orders"),
            id.table_name("order-events")
        )]
    );

    // A second kept run, one of whose tables is then deleted by other tools and made again
    // under the same name: that table is "replaced" and the delete leaves it alone.
    let (other, _) = kept_run(keeper, engine, None).await;
    let remade = other.table_name("order-events");
    engine
        .client
        .delete_table()
        .table_name(&remade)
        .send()
        .await
        .unwrap();
    while run_tables(engine).await.contains(&remade) {
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    // An engine that gives no TableId (moto) tells a table made again by its creation time
    // alone, which an engine may give to the second: the new one is made in a later second.
    let second = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    while std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
        == second
    {
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let remade_items = create_bystander(engine, &remade).await;
    let listed = shown(&keeper.list(engine).await.unwrap());
    let other_line = format!(
        "{other} (Order management): {} Present, {remade} Replaced",
        other.table_name("orders")
    );
    assert!(listed.contains(&other_line), "{listed:#?}");

    let deleted = keeper.delete(engine, &id).await.unwrap();
    assert_eq!(deleted.deleted, cleanup.kept);
    assert!(
        deleted.failed.is_empty() && deleted.left_alone.is_empty(),
        "{deleted:?}"
    );
    let deleted = keeper.delete(engine, &other).await.unwrap();
    assert_eq!(deleted.deleted, [other.table_name("orders")]);
    assert_eq!(deleted.left_alone, std::slice::from_ref(&remade));
    assert_eq!(keeper.list(engine).await.unwrap(), Vec::<KeptRun>::new());
    let again = keeper.delete(engine, &id).await.unwrap_err().to_string();
    assert_eq!(
        again,
        format!("run `{id}` kept no tables on engine `{}`", engine.name)
    );

    let mut left = run_tables(engine).await;
    left.sort();
    let mut expected = vec![forged.to_string(), remade.clone()];
    expected.sort();
    assert_eq!(left, expected);
    assert_eq!(scan_all(engine, "bystander-orders").await, bystander);
    assert_eq!(scan_all(engine, forged).await, forged_items);
    assert_eq!(scan_all(engine, &remade).await, remade_items);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_embedded_engine_keeps_a_runs_tables_in_the_data_folder_lists_them_and_deletes_only_them()
 {
    let data = tempfile::tempdir().unwrap();
    let keeper = Keeper::in_dir(data.path());
    let (_engines, memory) = embedded().await;
    let engine = keeper.engine_for(&memory).unwrap();
    check_keeping(&keeper, &engine).await;
    // The in-memory engine ordinary runs use was never written to.
    assert_eq!(run_tables(&memory).await, Vec::<String>::new());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tables_kept_on_the_embedded_engine_outlive_the_process_that_kept_them() {
    let data = tempfile::tempdir().unwrap();
    let (kept_id, names) = {
        let keeper = Keeper::in_dir(data.path());
        let (_engines, memory) = embedded().await;
        let engine = keeper.engine_for(&memory).unwrap();
        let (id, cleanup) = kept_run(&keeper, &engine, None).await;
        (id, cleanup.kept)
    };
    // Another keyplan (the CLI after the server, or a restarted server) opens the folder.
    let listing = kept_cli(data.path(), &["--list-kept"]);
    for name in &names {
        assert!(listing.contains(&format!("{name}  ")), "{listing}");
    }
    assert!(
        listing.contains(&format!("run {kept_id} (Order management), kept 20")),
        "{listing}"
    );
    let said = kept_cli(data.path(), &["--delete-kept", kept_id.as_str()]);
    assert_eq!(
        said.lines().collect::<Vec<_>>(),
        names
            .iter()
            .map(|n| format!("deleted {n}"))
            .collect::<Vec<_>>()
    );
    assert!(
        std::fs::read_dir(data.path().join(kept::RECORDS))
            .unwrap()
            .next()
            .is_none(),
        "the record is gone with the tables"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moto_keeps_a_runs_tables_lists_them_and_deletes_only_them() {
    let Some((_moto, engine)) = start_moto().await else {
        return;
    };
    let data = tempfile::tempdir().unwrap();
    let keeper = Keeper::in_dir(data.path());
    let engine = keeper.engine_for(&engine).unwrap();
    check_keeping(&keeper, &engine).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_that_does_not_finish_deletes_its_tables_though_asked_to_keep_them() {
    let data = tempfile::tempdir().unwrap();
    let keeper = Keeper::in_dir(data.path());
    let (_engines, memory) = embedded().await;
    let engine = keeper.engine_for(&memory).unwrap();
    // Cancelled once its tables are made, as the load begins.
    let (id, cleanup) = kept_run(&keeper, &engine, Some("items_written")).await;
    assert_eq!(cleanup.kept, Vec::<String>::new());
    assert_eq!(
        cleanup.deleted,
        [id.table_name("orders"), id.table_name("order-events")]
    );
    assert_eq!(run_tables(&engine).await, Vec::<String>::new());
    assert_eq!(keeper.list(&engine).await.unwrap(), Vec::<KeptRun>::new());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn keeping_is_refused_without_a_data_folder_and_past_the_most_kept_runs() {
    let (_engines, memory) = embedded().await;
    let nowhere = Keeper::default();
    expect_test::expect![
        "this keyplan has no data folder to record kept tables in, so every run deletes its tables"
    ]
    .assert_eq(&nowhere.refusal().unwrap());
    assert!(nowhere.engine_for(&memory).is_err());

    let data = tempfile::tempdir().unwrap();
    let keeper = Keeper::in_dir(data.path());
    assert_eq!(keeper.refusal(), None);
    let engine = keeper.engine_for(&memory).unwrap();
    let (id, _) = kept_run(&keeper, &engine, None).await;
    // The folder filled up with records of other runs (copies of this one's).
    let folder = data.path().join(kept::RECORDS);
    let record = std::fs::read_to_string(folder.join(format!("{id}.json"))).unwrap();
    for n in 1..kept::MAX_KEPT_RUNS {
        let other = format!("{n:08x}");
        std::fs::write(
            folder.join(format!("{other}.json")),
            record.replace(id.as_str(), &other),
        )
        .unwrap();
    }
    // Files that are not records are not counted, nor trusted.
    std::fs::write(folder.join("notes.txt"), "mine").unwrap();
    std::fs::write(
        folder.join("abcdef12.json"),
        "{\"version\": 1, \"run\": \"abcdef12\"",
    )
    .unwrap();
    std::fs::write(folder.join("abcdef13.json"), "x".repeat(100_000)).unwrap();
    expect_test::expect!["20 runs already keep their tables, the most keyplan keeps; delete some first (the Run panel's list of kept tables, or `keyplan run --delete-kept RUN`)"]
        .assert_eq(&keeper.check_room().unwrap_err().to_string());
    let (_, cleanup) = kept_run(&keeper, &engine, None).await;
    assert_eq!(cleanup.kept, Vec::<String>::new());
    assert_eq!(cleanup.deleted.len(), 2, "{cleanup:?}");
}

// ---------------------------------------------------------------------------------------------
// Over HTTP

async fn call(state: &keyplan_server::AppState, request: Request<Body>) -> (StatusCode, String) {
    let answer = app_support::send(state, request).await;
    (answer.status, answer.text())
}

fn delete(uri: &str) -> Request<Body> {
    Request::delete(uri).body(Body::empty()).unwrap()
}

/// Starts a run of the first example with `keep` and reads its events to the end: the start's
/// status and body, and the events.
async fn start(state: &keyplan_server::AppState, keep: bool) -> (StatusCode, String, String) {
    let design = serde_json::to_value(keyplan_core::examples::first()).unwrap();
    let body = serde_json::json!({"design": design, "keep": keep, "counts": {"Customer": 2}});
    let (status, body) = call(state, app_support::post_json("/api/runs", &body)).await;
    if status != StatusCode::ACCEPTED {
        return (status, body, String::new());
    }
    let id = serde_json::from_str::<serde_json::Value>(&body).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let (_, events) = call(state, app_support::get(&format!("/api/runs/{id}/events"))).await;
    (status, id, events)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_api_keeps_lists_and_deletes_a_runs_tables_and_says_where_it_cannot() {
    let (_dir, plain, _) = app_support::embedded_state().await;
    let (_, engines) = call(&plain, app_support::get("/api/engines")).await;
    expect_test::expect![[r#"[{"name":"embedded","kind":"embedded","description":"dynoxide-rs (embedded)","default":true,"cannot_keep":"this keyplan has no data folder to record kept tables in, so every run deletes its tables"}]"#]]
        .assert_eq(&engines);
    let (status, body, _) = start(&plain, true).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    expect_test::expect![[r#"{"error":"this keyplan has no data folder to record kept tables in, so every run deletes its tables"}"#]]
        .assert_eq(&body);

    let data = tempfile::tempdir().unwrap();
    let state = plain.clone().with_keeper(Keeper::in_dir(data.path()));
    let (_, engines) = call(&state, app_support::get("/api/engines")).await;
    assert!(!engines.contains("cannot_keep"), "{engines}");
    let (status, id, events) = start(&state, true).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{id}");
    let cleanup = events
        .lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .find(|l| l.contains("\"type\":\"cleanup\""))
        .unwrap();
    assert_eq!(
        cleanup,
        format!(
            r#"{{"type":"cleanup","deleted":[],"failed":[],"kept":["keyplan-run-{id}-orders","keyplan-run-{id}-order-events"]}}"#
        )
    );
    // A run without keep still deletes its tables.
    let (_, _, plain_events) = start(&state, false).await;
    assert!(
        plain_events.contains(r#""type":"cleanup","deleted":["keyplan-run-"#),
        "{plain_events}"
    );

    let (status, listed) = call(&state, app_support::get("/api/engines/embedded/kept")).await;
    assert_eq!(status, StatusCode::OK, "{listed}");
    let listed: Vec<KeptRun> = serde_json::from_str(&listed).unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].run, id);
    assert!(
        listed[0]
            .tables
            .iter()
            .all(|t| t.state == KeptState::Present)
    );

    let cases = [
        ("unknown engine", app_support::get("/api/engines/moto/kept")),
        (
            "bad run id",
            delete("/api/engines/embedded/kept/..%2F..%2Fetc"),
        ),
        (
            "long run id",
            delete(&format!("/api/engines/embedded/kept/{}", "a".repeat(33))),
        ),
        ("unknown run", delete("/api/engines/embedded/kept/ffffffff")),
        (
            "POST on the list",
            app_support::post_json("/api/engines/embedded/kept", &serde_json::json!({})),
        ),
        (
            "no data folder",
            app_support::get("/api/engines/embedded/kept"),
        ),
    ];
    let mut out = Vec::new();
    for (what, request) in cases {
        let on = if what == "no data folder" {
            &plain
        } else {
            &state
        };
        let (status, body) = call(on, request).await;
        out.push(format!("{what}: {} {body}", status.as_u16()));
    }
    expect_test::expect![[r#"
        unknown engine: 404 {"error":"no engine named `moto`; the engines are: embedded"}
        bad run id: 404 {"error":"run `../../etc` kept no tables on engine `embedded`"}
        long run id: 404 {"error":"run `aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa` kept no tables on engine `embedded`"}
        unknown run: 404 {"error":"run `ffffffff` kept no tables on engine `embedded`"}
        POST on the list: 405 {"error":"`/api/engines/embedded/kept` does not take POST; it takes GET,HEAD"}
        no data folder: 400 {"error":"this keyplan has no data folder to record kept tables in, so every run deletes its tables"}"#]]
    .assert_eq(&out.join("\n"));

    let (status, deleted) = call(&state, delete(&format!("/api/engines/embedded/kept/{id}"))).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        deleted,
        format!(
            r#"{{"deleted":["keyplan-run-{id}-orders","keyplan-run-{id}-order-events"],"gone":[],"left_alone":[],"failed":[]}}"#
        )
    );
    let (_, listed) = call(&state, app_support::get("/api/engines/embedded/kept")).await;
    assert_eq!(listed, "[]");
}
