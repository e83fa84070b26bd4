//! "Keep the tables" in the Run panel, end to end in a real browser (issue 43, item 6): on the
//! real `keyplan serve` (embedded engine, a data folder of the test's own), a run with the box
//! ticked leaves its two tables, the cleanup line names them, the list of kept tables shows
//! them, `keyplan run --list-kept` finds them in the same folder, and the list's Delete deletes
//! them; a server started with `--no-kept-tables` shows the box off with why. The sentences are
//! unit-tested in `app/src/run/kept_state.rs`; this checks what a user sees. Saves
//! `test-output/run-kept.png`, `run-kept-deleted.png` and `run-keep-refused.png`.

mod browser;

use browser::{Browser, eventually, prerequisites, start_server_with};

/// `keyplan serve` with `args`, the app open on its Run tab once the engines are listed.
async fn run_tab(args: &[&str]) -> Option<(browser::Server, Browser)> {
    let dist = prerequisites()?;
    let server = start_server_with(&dist, args);
    let b = Browser::open().await;
    b.visit(&server.url).await;
    b.click_button("Run").await;
    b.find("[data-testid=run-engine]").await;
    Some((server, b))
}

/// What `keyplan run --list-kept` prints for the data folder `data`.
fn listed_by_the_cli(data: &std::path::Path) -> String {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_keyplan"))
        .args(["run", "--list-kept", "--data-dir"])
        .arg(data)
        .env_remove("KEYPLAN_ENGINE")
        .env_remove("KEYPLAN_ENDPOINT")
        .output()
        .expect("keyplan runs");
    assert!(output.status.success(), "{output:?}");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Scrolls the list of kept tables into view and saves a screenshot.
async fn screenshot_list(b: &Browser, name: &str) {
    b.js("document.querySelector('[data-testid=run-kept]').scrollIntoView({block: 'end'}); return 0;")
        .await;
    b.screenshot(name).await;
}

#[tokio::test]
async fn a_run_that_keeps_its_tables_lists_them_and_the_delete_button_deletes_them() {
    let data = tempfile::tempdir().expect("a data folder");
    let folder = data.path().to_string_lossy().into_owned();
    let Some((_server, b)) = run_tab(&["--data-dir", &folder]).await else {
        return;
    };
    b.find("[data-testid=kept-none]").await;
    assert!(
        !b.is_disabled("[data-testid=run-keep]").await,
        "keeping is allowed here"
    );

    b.click("[data-testid=run-keep]").await;
    let note = b.text("[data-testid=run-keep-note]").await;
    assert!(note.contains("kept-tables.db"), "{note}");
    b.type_into("[data-testid=run-items]", "2").await;
    b.click("[data-testid=run-start]").await;
    let status = b.run_status_at_end().await;
    assert!(status.starts_with("Passed"), "{status}");
    let cleanup = b.text("[data-testid=run-cleanup]").await;
    assert!(
        cleanup.starts_with("Kept 2 tables: keyplan-run-"),
        "{cleanup}"
    );

    eventually("the kept run is listed", || async {
        b.texts("[data-testid=kept-table]").await.len() == 2
    })
    .await;
    let run = b
        .js("return document.querySelector('[data-testid=kept-run]').dataset.run;")
        .await;
    let run = run.as_str().expect("the run's id").to_string();
    let tables = b.texts("[data-testid=kept-table]").await;
    assert!(
        tables
            .iter()
            .all(|t| t.contains(&format!("keyplan-run-{run}-")) && t.contains("on the engine")),
        "{tables:?}"
    );
    screenshot_list(&b, "run-kept").await;
    // The tables are in the data folder, where the CLI (another process) finds them too.
    let listing = listed_by_the_cli(data.path());
    assert!(
        listing.contains(&format!("run {run} (Order management)")),
        "{listing}"
    );
    assert_eq!(listing.matches("  present").count(), 2, "{listing}");

    b.click("[data-testid=kept-delete]").await;
    eventually("the delete is reported", || async {
        b.text("[data-testid=kept-said]")
            .await
            .starts_with(&format!("Run {run}: deleted 2 tables"))
    })
    .await;
    b.find("[data-testid=kept-none]").await;
    screenshot_list(&b, "run-kept-deleted").await;
    assert_eq!(
        listed_by_the_cli(data.path()),
        "no run kept tables on embedded\n"
    );
    b.close().await;
}

#[tokio::test]
async fn a_server_that_refuses_kept_tables_shows_the_box_off_with_why() {
    let data = tempfile::tempdir().expect("a data folder");
    let folder = data.path().to_string_lossy().into_owned();
    let Some((_server, b)) = run_tab(&["--data-dir", &folder, "--no-kept-tables"]).await else {
        return;
    };
    assert!(b.is_disabled("[data-testid=run-keep]").await);
    let note = b.text("[data-testid=run-keep-note]").await;
    assert_eq!(
        note,
        "Cannot keep the tables here: this server was started with --no-kept-tables, so every run deletes its tables."
    );
    assert!(
        !b.has("[data-testid=run-kept]").await,
        "no list where nothing is kept"
    );
    b.screenshot("run-keep-refused").await;
    b.close().await;
}
