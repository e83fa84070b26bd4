//! End to end, in a real browser: the real `keyplan` binary serves the built app (`dist/`),
//! headless Chromium opens it through chromedriver, and what core computes for the built-in
//! example must be on screen.
//!
//! Needs `dist/` (trunk build), /usr/bin/chromium and /usr/bin/chromedriver. When one is
//! missing the test fails if `KEYPLAN_REQUIRE_TOOLS=1` (as `make test` sets), else it prints
//! why it skipped and passes. A screenshot of the page goes to `test-output/`.

use std::io::{BufRead, BufReader};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .expect("the workspace root exists")
}

/// `Some(reason)` when a prerequisite is missing; fails instead when tools are required.
fn missing_prerequisite(dist: &Path) -> Option<String> {
    let missing = [
        (dist.join("index.html"), "the built app (dist/index.html)"),
        (PathBuf::from(CHROMIUM), "chromium"),
        (PathBuf::from(CHROMEDRIVER), "chromedriver"),
    ]
    .into_iter()
    .find(|(path, _)| !path.exists())
    .map(|(path, what)| format!("{what} missing at {}, run `make test`", path.display()))?;
    if std::env::var("KEYPLAN_REQUIRE_TOOLS").as_deref() == Ok("1") {
        panic!("{missing} (KEYPLAN_REQUIRE_TOOLS=1)");
    }
    Some(missing)
}

/// A child process killed when the test ends, pass or fail.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `keyplan serve` on a port it picks, and returns the process and its URL.
fn start_server(dist: &Path) -> (Running, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_keyplan"))
        .args(["serve", "--host", "127.0.0.1", "--port", "0", "--dist"])
        .arg(dist)
        .stdout(Stdio::piped())
        .spawn()
        .expect("the keyplan binary starts");
    let stdout = child.stdout.take().expect("piped stdout");
    let server = Running(child);
    // The first line is "keyplan serving <dist> on http://<address>".
    let mut line = String::new();
    BufReader::new(stdout)
        .read_line(&mut line)
        .expect("read the server's first line");
    let url = line
        .trim()
        .rsplit_once(" on ")
        .map(|(_, url)| url.to_string())
        .unwrap_or_else(|| panic!("unexpected first line from keyplan serve: {line:?}"));
    (server, url)
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("a free port")
        .port()
}

fn start_chromedriver() -> (Running, String) {
    let port = free_port();
    let child = Command::new(CHROMEDRIVER)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver starts");
    let driver = Running(child);
    let deadline = Instant::now() + Duration::from_secs(20);
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            Instant::now() < deadline,
            "chromedriver did not listen on {port}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    (driver, format!("http://127.0.0.1:{port}"))
}

async fn open_browser(driver_url: &str, profile: &Path) -> Client {
    let args = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1280,800",
    ]
    .iter()
    .map(|a| a.to_string())
    .chain([format!("--user-data-dir={}", profile.display())])
    .collect::<Vec<_>>();
    let mut capabilities = serde_json::Map::new();
    capabilities.insert(
        "goog:chromeOptions".to_string(),
        serde_json::json!({ "binary": CHROMIUM, "args": args }),
    );
    ClientBuilder::native()
        .capabilities(capabilities)
        .connect(driver_url)
        .await
        .expect("a chromium session")
}

async fn texts(client: &Client, css: &str) -> Vec<String> {
    let mut texts = Vec::new();
    for element in client.find_all(Locator::Css(css)).await.expect("find") {
        texts.push(element.text().await.expect("element text"));
    }
    texts
}

#[tokio::test]
async fn a_first_visit_shows_the_order_example_and_its_coverage() {
    let dist = workspace().join("dist");
    if let Some(reason) = missing_prerequisite(&dist) {
        eprintln!("skipped: {reason}");
        return;
    }
    let design = keyplan_core::examples::first();
    let expected_names: Vec<String> = design.entities.iter().map(|e| e.name.clone()).collect();
    let (covered, reads) = keyplan_core::analyze(&design).coverage();
    let expected_summary = format!("{covered} of {reads} read patterns covered");

    let (_server, url) = start_server(&dist);
    let (_driver, driver_url) = start_chromedriver();
    let profile = tempfile::tempdir().expect("a fresh chromium profile");
    let client = open_browser(&driver_url, profile.path()).await;

    client.goto(&url).await.expect("open the app");
    let appeared = client
        .wait()
        .at_most(Duration::from_secs(15))
        .for_element(Locator::Css("[data-testid=coverage-summary]"))
        .await;
    let names = texts(&client, "[data-testid=entity-name]").await;
    let summaries = texts(&client, "[data-testid=coverage-summary]").await;

    let screenshots = workspace().join("test-output");
    let screenshot = client.screenshot().await.expect("a screenshot");
    std::fs::create_dir_all(&screenshots).expect("create test-output/");
    std::fs::write(screenshots.join("e2e-first-visit.png"), screenshot).expect("save screenshot");
    client.close().await.expect("close the browser");

    assert!(
        appeared.is_ok(),
        "the app never showed a coverage summary at {url} (blank page?); see test-output/e2e-first-visit.png"
    );
    assert_eq!(names, expected_names);
    assert_eq!(summaries, vec![expected_summary]);
}
