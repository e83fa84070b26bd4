//! A real browser for end-to-end tests: the real `keyplan serve` on the built app (`dist/`),
//! headless Chromium through chromedriver, and small user-level helpers (wait for, type into,
//! drag, press keys, screenshot). Each browser gets a fresh profile, so the browser's storage
//! starts empty unless a test reuses a profile on purpose.
//!
//! A browser leaves nothing running when it goes, pass or fail: chromedriver runs in a process
//! group of its own with the Chromium it starts, and dropping the [`Browser`] (a panicking test
//! unwinds through it) kills that group and waits until every process in it is gone. At most
//! [`browsers_at_once`] browsers run at once in a checkout, across the test threads of one
//! binary and across test binaries, so a small machine is not a crowd of browsers fighting for
//! the CPU (issue 20).
//!
//! Waits are for events (an element, a text, the autosave), bounded by [`PATIENCE`]: a bound
//! that only decides when a test gives up, never a time a test needs.
//!
//! Needs `dist/` (trunk build), /usr/bin/chromium and /usr/bin/chromedriver; see
//! [`prerequisites`] for what happens when one is missing.
#![allow(dead_code)]

mod axe;
mod chrome;
mod files;
mod relay;
mod run;

#[allow(unused_imports)]
pub use files::downloads;
#[allow(unused_imports)]
pub use relay::Relay;

use std::cell::Cell;
use std::fs::{File, OpenOptions};
use std::future::Future;
use std::io::{BufRead, BufReader};
use std::net::{TcpListener, TcpStream};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::actions::{
    Actions, InputSource, KeyAction, KeyActions, MouseActions, PointerAction, WheelAction,
    WheelActions,
};
use fantoccini::elements::Element;
use fantoccini::wd::TimeoutConfiguration;
use fantoccini::{Client, ClientBuilder, Locator};
use keyplan_core::{
    AccessPattern, AttrType, Attribute, Design, Entity, Gsi, KeyAttribute, KeyTemplate, KeyType,
    Point, Projection, SortCondition, SortOp, Table,
};

pub const CHROMIUM: &str = "/usr/bin/chromium";
pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
/// WebDriver key codes.
pub const CONTROL: char = '\u{E009}';
pub const SHIFT: char = '\u{E008}';
pub const ENTER: char = '\u{E007}';
pub const ESCAPE: char = '\u{E00C}';
/// Releases the modifier keys in a `send_keys` string.
pub const RELEASE: char = '\u{E000}';

/// How long a wait for the app (an element, a text, a save, a run) may take before the test
/// fails. Generous, so a busy machine makes a test slow rather than red; a test never needs
/// any of it to pass.
pub const PATIENCE: Duration = Duration::from_secs(60);

pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .expect("the workspace root exists")
}

/// The built app's directory, or `None` (and the reason printed) when a prerequisite is
/// missing. With `KEYPLAN_REQUIRE_TOOLS=1` a missing prerequisite fails the test instead.
pub fn prerequisites() -> Option<PathBuf> {
    let dist = workspace().join("dist");
    let missing = [
        (dist.join("index.html"), "the built app (dist/index.html)"),
        (PathBuf::from(CHROMIUM), "chromium"),
        (PathBuf::from(CHROMEDRIVER), "chromedriver"),
    ]
    .into_iter()
    .find(|(path, _)| !path.exists())
    .map(|(path, what)| format!("{what} missing at {}, run `make test`", path.display()));
    match missing {
        None => Some(dist),
        Some(reason) => {
            if std::env::var("KEYPLAN_REQUIRE_TOOLS").as_deref() == Ok("1") {
                panic!("{reason} (KEYPLAN_REQUIRE_TOOLS=1)");
            }
            eprintln!("skipped: {reason}");
            None
        }
    }
}

/// A child process killed when dropped, pass or fail.
pub struct Running(pub Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `keyplan serve` on a port it picks.
pub struct Server {
    _process: Running,
    pub url: String,
}

pub fn start_server(dist: &Path) -> Server {
    start_server_with(dist, &[])
}

/// `keyplan serve` with more arguments (`--endpoint NAME=URL`).
pub fn start_server_with(dist: &Path, args: &[&str]) -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_keyplan"))
        .args(["serve", "--host", "127.0.0.1", "--port", "0", "--dist"])
        .arg(dist)
        .args(args)
        .stdout(Stdio::piped())
        .spawn()
        .expect("the keyplan binary starts");
    let stdout = child.stdout.take().expect("piped stdout");
    let process = Running(child);
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
    Server {
        _process: process,
        url,
    }
}

/// The app served by a fresh `keyplan serve`, opened in a fresh browser that waited for it;
/// `None` (the test skips) when the prerequisites are missing.
pub async fn open_app() -> Option<(Server, Browser)> {
    let dist = prerequisites()?;
    let server = start_server(&dist);
    let b = Browser::open().await;
    b.visit(&server.url).await;
    Some((server, b))
}

/// A test of the app in a browser, on a current-thread runtime as `#[tokio::test]` runs one:
/// [`open_app`], `test` on its browser, then the browser closed. The test skips, running
/// nothing, when the prerequisites are missing.
pub fn app_test(test: impl AsyncFnOnce(&Browser)) {
    app_test_with_server(async |_, b| test(b).await);
}

/// [`app_test`] for a test that needs the server too (to visit it again).
pub fn app_test_with_server(test: impl AsyncFnOnce(&Server, &Browser)) {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime for the test")
        .block_on(async {
            let Some((server, b)) = open_app().await else {
                return;
            };
            test(&server, &b).await;
            b.close().await;
        });
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("a free port")
        .port()
}

/// How many browsers may run at once in this checkout: `KEYPLAN_BROWSERS`, else the number of
/// cores.
pub fn browsers_at_once() -> usize {
    std::env::var("KEYPLAN_BROWSERS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1)
}

thread_local! {
    /// The browsers open on this thread (one test): a test's second browser never waits for a
    /// slot, or two tests that each hold one and want another would wait for each other.
    static BROWSERS_ON_THIS_THREAD: Cell<usize> = const { Cell::new(0) };
}

/// The right to run one browser: a lock on one of [`browsers_at_once`] files under the
/// target directory, released when dropped or when the process dies, however it dies.
struct Slot(Option<File>);

impl Slot {
    async fn take() -> Slot {
        let nested = BROWSERS_ON_THIS_THREAD.get() > 0;
        BROWSERS_ON_THIS_THREAD.set(BROWSERS_ON_THIS_THREAD.get() + 1);
        if nested {
            return Slot(None);
        }
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser-slots");
        std::fs::create_dir_all(&dir).expect("create the browser slot directory");
        let files: Vec<File> = (0..browsers_at_once())
            .map(|i| {
                OpenOptions::new()
                    .create(true)
                    .truncate(false)
                    .write(true)
                    .open(dir.join(format!("{i}.lock")))
                    .expect("open a browser slot file")
            })
            .collect();
        // A whole suite may be ahead in the queue: the bound only catches a slot never freed.
        let deadline = Instant::now() + 10 * PATIENCE;
        loop {
            for file in &files {
                // File locks are in std since 1.89; the tests build with the pinned toolchain.
                #[allow(clippy::incompatible_msrv)]
                if file.try_lock().is_ok() {
                    let file = file.try_clone().expect("keep the locked slot file");
                    return Slot(Some(file));
                }
            }
            assert!(
                Instant::now() < deadline,
                "no browser slot came free in {} s ({} in {})",
                (10 * PATIENCE).as_secs(),
                browsers_at_once(),
                dir.display()
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        BROWSERS_ON_THIS_THREAD.set(BROWSERS_ON_THIS_THREAD.get().saturating_sub(1));
    }
}

/// The processes (not zombies) whose command line has an argument containing `needle`: a
/// profile directory's path finds every Chromium process of that profile.
pub fn processes_with_argument(needle: &str) -> Vec<u32> {
    processes_where(|pid| {
        std::fs::read(format!("/proc/{pid}/cmdline")).is_ok_and(|cmdline| {
            cmdline
                .split(|b| *b == 0)
                .any(|arg| String::from_utf8_lossy(arg).contains(needle))
        })
    })
}

/// The live processes (zombies excluded) of process group `group`.
fn processes_in_group(group: u32) -> Vec<u32> {
    processes_where(|pid| {
        // `pid (comm) state ppid pgrp ...`; comm may hold spaces and parentheses.
        std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
            let fields: Vec<&str> = stat
                .rsplit_once(')')
                .map(|(_, rest)| rest.split_whitespace().collect())
                .unwrap_or_default();
            fields.first() != Some(&"Z") && fields.get(2) == Some(&group.to_string().as_str())
        })
    })
}

/// The PIDs under /proc for which `keep` holds (none when /proc cannot be read).
fn processes_where(keep: impl Fn(&u32) -> bool) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(keep)
        .collect()
}

/// chromedriver, leader of a process group of its own that holds the Chromium it starts (and
/// Chromium's helpers). Dropped, it kills the whole group and waits until it is empty: killing
/// chromedriver alone would leave its Chromium running, orphaned.
struct Driver(Child);

impl Driver {
    /// A chromedriver on a free port, once it says it is ready for sessions: its own `/status`
    /// answer, not merely something listening there. The port is free when chosen but may be
    /// taken before chromedriver binds it (by another test's server, or a connection's own
    /// port); that chromedriver exits and another is started on another port, so that the
    /// session is never asked of whatever holds the port (a `NotW3C("")` answer, once).
    /// chromedriver's log goes to `log`, which [`Browser::open_with`] quotes if a session
    /// cannot be had.
    async fn start(log: &Path) -> (Driver, u16) {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let port = free_port();
            let mut driver = Driver(
                Command::new(CHROMEDRIVER)
                    .arg(format!("--port={port}"))
                    .arg(format!("--log-path={}", log.display()))
                    .process_group(0)
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .spawn()
                    .expect("chromedriver starts"),
            );
            loop {
                assert!(
                    Instant::now() < deadline,
                    "chromedriver was not ready for sessions within {PATIENCE:?}; its log:\n{}",
                    log_tail(log)
                );
                if driver.0.try_wait().ok().flatten().is_some() {
                    // Exited: most likely the port was taken meanwhile. Another port.
                    break;
                }
                if driver_ready(port) {
                    return (driver, port);
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
    }
}

/// The most of a `/status` answer read (chromedriver's is about 400 bytes): whatever else holds
/// the port is not read without end.
const STATUS_BYTES: usize = 64 * 1024;

/// Whether chromedriver on `port` answers `GET /status` with `"ready": true`. Read until the
/// body is whole JSON: chromedriver keeps the connection open after answering.
fn driver_ready(port: u16) -> bool {
    use std::io::{Read, Write};
    let Ok(mut stream) = TcpStream::connect(("127.0.0.1", port)) else {
        return false;
    };
    let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
    if stream
        .write_all(b"GET /status HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        .is_err()
    {
        return false;
    }
    let mut answer = Vec::new();
    let mut chunk = [0u8; 4096];
    while answer.len() < STATUS_BYTES
        && let Ok(read @ 1..) = stream.read(&mut chunk)
    {
        answer.extend_from_slice(&chunk[..read]);
        let body = answer
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .map(|end| &answer[end + 4..]);
        if let Some(status) = body.and_then(|b| serde_json::from_slice::<serde_json::Value>(b).ok())
        {
            return status["value"]["ready"] == true;
        }
    }
    false
}

/// The last lines of chromedriver's log, for a failure message.
fn log_tail(log: &Path) -> String {
    let text = std::fs::read_to_string(log).unwrap_or_else(|e| format!("(no log: {e})"));
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(30)..].join("\n")
}

impl Drop for Driver {
    fn drop(&mut self) {
        let group = self.0.id();
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{group}")])
            .stderr(Stdio::null())
            .status();
        let _ = self.0.kill();
        let _ = self.0.wait();
        let deadline = Instant::now() + PATIENCE;
        loop {
            let left = processes_in_group(group);
            if left.is_empty() {
                return;
            }
            if Instant::now() > deadline {
                // No panic in a drop (it may run while a failed test unwinds): say it loudly.
                eprintln!("chromedriver's process group {group} outlived SIGKILL: {left:?}");
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// A headless Chromium with its own chromedriver and profile. Dropped (after [`Browser::close`]
/// or in a panicking test), it ends chromedriver and every Chromium process, then removes the
/// profile.
pub struct Browser {
    pub client: Client,
    // Dropped in this order: the processes, then their profile, then the slot.
    _driver: Driver,
    _driver_log: tempfile::NamedTempFile,
    _profile: tempfile::TempDir,
    _slot: Slot,
}

impl Browser {
    pub async fn open() -> Browser {
        Browser::open_with(&[]).await
    }

    /// Like [`Browser::open`], with more Chromium switches (the canvas benchmark's).
    pub async fn open_with(extra_args: &[&str]) -> Browser {
        let slot = Slot::take().await;
        let profile = tempfile::tempdir().expect("a fresh chromium profile");
        let log = tempfile::NamedTempFile::new().expect("a file for chromedriver's log");
        let (driver, port) = Driver::start(log.path()).await;
        let args: Vec<String> = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--window-size=1440,900",
        ]
        .iter()
        .chain(extra_args)
        .map(|a| a.to_string())
        .chain([format!("--user-data-dir={}", profile.path().display())])
        .collect();
        let mut capabilities = serde_json::Map::new();
        capabilities.insert(
            "goog:chromeOptions".to_string(),
            serde_json::json!({ "binary": CHROMIUM, "args": args }),
        );
        // Keep the console, for [`Browser::console_errors`].
        capabilities.insert(
            "goog:loggingPrefs".to_string(),
            serde_json::json!({ "browser": "ALL" }),
        );
        let client = ClientBuilder::native()
            .capabilities(capabilities)
            .connect(&format!("http://127.0.0.1:{port}"))
            .await
            .unwrap_or_else(|e| {
                panic!(
                    "no chromium session: {e:?}; chromedriver's log:\n{}",
                    log_tail(log.path())
                )
            });
        client
            .update_timeouts(TimeoutConfiguration::new(
                Some(2 * PATIENCE),
                Some(2 * PATIENCE),
                Some(Duration::ZERO),
            ))
            .await
            .expect("set the session's timeouts");
        Browser {
            client,
            _driver: driver,
            _driver_log: log,
            _profile: profile,
            _slot: slot,
        }
    }

    /// The browser's profile directory (every Chromium process of this browser has it on its
    /// command line).
    pub fn profile(&self) -> &Path {
        self._profile.path()
    }

    /// Opens the app at `url` and waits until it is shown and has fetched (or tried to fetch) the
    /// modules of the views split off its first load, as a page open for a moment has;
    /// deferred_e2e.rs opens views before they arrive.
    pub async fn visit(&self, url: &str) {
        self.client.goto(url).await.expect("open the app");
        self.find("[data-testid=coverage-summary]").await;
        self.find(".app:not([data-deferred=fetching])").await;
        self.toasts().await;
    }

    /// The first element matching `css`, waiting for it.
    pub async fn find(&self, css: &str) -> Element {
        self.client
            .wait()
            .at_most(PATIENCE)
            .for_element(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("no element {css} appeared: {e}"))
    }

    /// The first button whose text is `text`.
    pub async fn button(&self, text: &str) -> Element {
        self.client
            .wait()
            .at_most(PATIENCE)
            .for_element(Locator::XPath(&format!(
                "//button[normalize-space()='{text}']"
            )))
            .await
            .unwrap_or_else(|e| panic!("no button {text:?}: {e}"))
    }

    pub async fn click(&self, css: &str) {
        self.find(css).await.click().await.expect("click");
    }

    /// Clicks the first button whose text is `text`, waiting for it.
    pub async fn click_button(&self, text: &str) {
        self.button(text)
            .await
            .click()
            .await
            .unwrap_or_else(|e| panic!("cannot click the button {text:?}: {e}"));
    }

    /// Chooses the option whose value is `value` in the first select matching `css`.
    pub async fn select(&self, css: &str, value: &str) {
        self.find(css)
            .await
            .select_by_value(value)
            .await
            .unwrap_or_else(|e| panic!("cannot choose {value:?} in {css}: {e}"));
    }

    /// A real mouse click (move, press, release) on the first element matching `css`: what a
    /// user does, with every pointer event the page listens to on the way, landing on whatever
    /// is on top at that point (WebDriver's element click refuses a covered element instead).
    pub async fn mouse_click(&self, css: &str) {
        let element = self.find(css).await;
        self.mouse_click_on(element).await;
    }

    /// A real mouse click on `element`'s centre.
    pub async fn mouse_click_on(&self, element: Element) {
        let mouse = press_on(element)
            .pause(Duration::from_millis(30))
            .then(PointerAction::Up { button: 0 });
        self.client.perform_actions(mouse).await.expect("click");
        self.client.release_actions().await.expect("release mouse");
    }

    /// Clicks a field with the mouse, then types `text` over its content and presses Enter.
    pub async fn click_and_type(&self, css: &str, text: &str) {
        self.mouse_click(css).await;
        self.type_into(css, text).await;
    }

    /// The `value` property of the first element matching `css` (what a field shows).
    pub async fn value(&self, css: &str) -> String {
        self.find(css).await;
        self.js_on(css, "return document.querySelector(arguments[0]).value;")
            .await
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    /// Whether the first element matching `css` is disabled (`disabled="true"`), waiting for
    /// it.
    pub async fn is_disabled(&self, css: &str) -> bool {
        let element = self.find(css).await;
        element.attr("disabled").await.expect("attr").as_deref() == Some("true")
    }

    /// Whether an element matches `css` now (no wait).
    pub async fn has(&self, css: &str) -> bool {
        self.js(&format!("return document.querySelector({css:?}) !== null;"))
            .await
            .as_bool()
            .unwrap_or(false)
    }

    /// The rectangle of the first element matching `css`: [left, top, right, bottom].
    pub async fn rect(&self, css: &str) -> [f64; 4] {
        self.find(css).await;
        let v = self
            .js_on(
                css,
                "const r = document.querySelector(arguments[0]).getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom];",
            )
            .await;
        [0, 1, 2, 3].map(|i| v[i].as_f64().expect("a number"))
    }

    /// The link the open Share dialog shows.
    pub async fn share_link(&self) -> String {
        self.find("[data-testid=share-link]")
            .await
            .prop("value")
            .await
            .expect("value")
            .expect("a link")
    }

    /// Adds a read pattern of `entity` by mouse, from its card and "+ Access pattern", with
    /// `inputs` typed in; `listed` patterns were listed before.
    pub async fn add_pattern_from_card(&self, entity: &str, listed: usize, inputs: &str) {
        self.mouse_click(&format!("[data-entity={entity}] .card-head"))
            .await;
        self.mouse_click("[data-testid=add-pattern]").await;
        eventually("the pattern is added", || async {
            self.texts("[data-testid=pattern-row]").await.len() == listed + 1
        })
        .await;
        self.click_and_type("[data-testid=pattern-inputs]", inputs)
            .await;
    }

    /// Opens the gallery and a blank design, by mouse.
    pub async fn new_blank_design(&self) {
        self.mouse_click_on(self.button("New").await).await;
        self.mouse_click("[data-testid=gallery-blank]").await;
        self.find(".canvas-empty").await;
    }

    /// On a blank design, adds the first entity (by mouse on "+ Entity") and names it.
    pub async fn add_first_entity(&self, name: &str) {
        self.mouse_click("[data-testid=add-entity]").await;
        self.type_into("[data-testid=entity-name-input]", name)
            .await;
        self.wait_for_entities("the card is renamed", &[name]).await;
    }

    /// The names on the canvas's entity cards, in document order.
    pub async fn entity_names(&self) -> Vec<String> {
        self.texts("[data-testid=entity-name]").await
    }

    /// Waits (see [`eventually`]) until the canvas's entity cards are `names`, in order; `what`
    /// says what is awaited when the wait fails.
    pub async fn wait_for_entities<T>(&self, what: &str, names: &[T])
    where
        String: PartialEq<T>,
    {
        eventually(what, || async { self.entity_names().await == names }).await;
    }

    /// The rendered text of the first element matching `css`, waiting for it to appear.
    pub async fn text(&self, css: &str) -> String {
        self.find(css).await;
        self.texts(css).await.into_iter().next().unwrap_or_default()
    }

    /// The rendered text of every element matching `css`, in document order, read in one
    /// script: element by element over WebDriver, a re-render in between left a stale handle.
    pub async fn texts(&self, css: &str) -> Vec<String> {
        let value = self
            .js_on(
                css,
                "return Array.from(document.querySelectorAll(arguments[0]), e => e.innerText.trim());",
            )
            .await;
        strings(&value)
    }

    /// Replaces a field's text as a user would (select all, type) and presses Enter.
    pub async fn type_into(&self, css: &str, text: &str) {
        let field = self.find(css).await;
        field
            .send_keys(&format!("{CONTROL}a{RELEASE}{text}{ENTER}"))
            .await
            .expect("type");
    }

    /// Presses keys with modifiers held: `press(&[CONTROL], 'z')`.
    pub async fn press(&self, modifiers: &[char], key: char) {
        let mut keys = KeyActions::new("keyboard".into());
        for m in modifiers {
            keys = keys.then(KeyAction::Down { value: *m });
        }
        keys = keys
            .then(KeyAction::Down { value: key })
            .then(KeyAction::Up { value: key });
        for m in modifiers.iter().rev() {
            keys = keys.then(KeyAction::Up { value: *m });
        }
        self.client.perform_actions(keys).await.expect("keys");
        self.client.release_actions().await.expect("release keys");
    }

    /// Drags from the centre of the element matching `css` by (`dx`, `dy`) in steps.
    pub async fn drag(&self, css: &str, dx: f64, dy: f64) {
        let element = self.find(css).await;
        let mut mouse = press_on(element);
        for _ in 0..4 {
            mouse = mouse.then(PointerAction::MoveBy {
                duration: Some(Duration::from_millis(30)),
                x: dx / 4.0,
                y: dy / 4.0,
            });
        }
        mouse = mouse.then(PointerAction::Up { button: 0 });
        self.client.perform_actions(mouse).await.expect("drag");
        self.client.release_actions().await.expect("release mouse");
    }

    /// Drags the element matching `css` by (`dx`, `dy`), presses Escape before letting go, then
    /// lets go.
    pub async fn drag_then_escape(&self, css: &str, dx: f64, dy: f64) {
        let element = self.find(css).await;
        let step = Duration::from_millis(30);
        let mouse = press_on(element)
            .then(PointerAction::MoveBy {
                duration: Some(step),
                x: dx / 2.0,
                y: dy / 2.0,
            })
            .then(PointerAction::MoveBy {
                duration: Some(step),
                x: dx / 2.0,
                y: dy / 2.0,
            })
            .pause(step)
            .pause(step)
            .then(PointerAction::Up { button: 0 });
        let keys = KeyActions::new("keyboard".into())
            .pause(step)
            .pause(step)
            .pause(step)
            .pause(step)
            .then(KeyAction::Down { value: ESCAPE })
            .then(KeyAction::Up { value: ESCAPE })
            .pause(step);
        self.client
            .perform_actions(Actions::from(mouse).and(keys))
            .await
            .expect("drag, Escape, release");
        self.client.release_actions().await.expect("release");
    }

    /// Clicks the element matching `css` with Shift held.
    pub async fn shift_click(&self, css: &str) {
        let element = self.find(css).await;
        let pause = Duration::from_millis(20);
        let keys = KeyActions::new("keyboard".into())
            .then(KeyAction::Down { value: SHIFT })
            .pause(pause)
            .pause(pause)
            .then(KeyAction::Up { value: SHIFT });
        let mouse = press_on(element)
            .then(PointerAction::Up { button: 0 })
            .pause(pause);
        self.client
            .perform_actions(Actions::from(keys).and(mouse))
            .await
            .expect("shift+click");
        self.client.release_actions().await.expect("release");
    }

    /// Turns the mouse wheel by `delta_y` pixels over the viewport point (`x`, `y`).
    pub async fn wheel(&self, x: f64, y: f64, delta_y: i64) {
        let wheel = WheelActions::new("wheel".into()).then(WheelAction::Scroll {
            duration: None,
            x: x.round() as i64,
            y: y.round() as i64,
            delta_x: 0,
            delta_y,
        });
        self.client.perform_actions(wheel).await.expect("wheel");
    }

    /// The centre of the element matching `css`, on screen.
    pub async fn centre(&self, css: &str) -> (f64, f64) {
        let v = self
            .js(&format!(
                "const r = document.querySelector({css:?}).getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2];"
            ))
            .await;
        (v[0].as_f64().expect("x"), v[1].as_f64().expect("y"))
    }

    /// Runs a script and returns its value.
    pub async fn js(&self, script: &str) -> serde_json::Value {
        self.client
            .execute(script, Vec::new())
            .await
            .unwrap_or_else(|e| panic!("script failed: {e}\n{script}"))
    }

    /// Runs `script` with the selector `css` as `arguments[0]` and returns its value.
    pub async fn js_on(&self, css: &str, script: &str) -> serde_json::Value {
        self.client
            .execute(script, vec![serde_json::Value::String(css.to_string())])
            .await
            .unwrap_or_else(|e| panic!("script on {css} failed: {e}\n{script}"))
    }

    /// Runs an async script (its last argument is the callback) and returns its value.
    pub async fn js_async(&self, script: &str, args: Vec<serde_json::Value>) -> serde_json::Value {
        self.client
            .execute_async(script, args)
            .await
            .unwrap_or_else(|e| panic!("script failed: {e}\n{script}"))
    }

    /// The files the page has fetched so far (their names, without the path), each with the
    /// time its fetch started (ms since the navigation), from the page's resource timeline.
    pub async fn fetched(&self) -> Vec<(String, f64)> {
        let entries = self
            .js("return performance.getEntriesByType('resource').map(e => [e.name.split('/').pop(), e.startTime]);")
            .await;
        entries
            .as_array()
            .expect("a list")
            .iter()
            .map(|e| {
                (
                    e[0].as_str().expect("a name").to_string(),
                    e[1].as_f64().expect("a time"),
                )
            })
            .collect()
    }

    /// When the page first painted (ms since the navigation).
    pub async fn first_paint(&self) -> f64 {
        self.js("const p = performance.getEntriesByName('first-paint')[0]; return p ? p.startTime : null;")
            .await
            .as_f64()
            .expect("the page has painted")
    }

    /// The element's position on screen: (left, top).
    pub async fn position(&self, css: &str) -> (f64, f64) {
        let v = self
            .js(&format!(
                "const r = document.querySelector({css:?}).getBoundingClientRect(); return [r.left, r.top];"
            ))
            .await;
        (v[0].as_f64().expect("left"), v[1].as_f64().expect("top"))
    }

    /// The design as autosave left it in the browser's database (IndexedDB, issue 12).
    /// Autosave runs in the browser's first idle moment after a change, so this first waits
    /// for that save to be written.
    pub async fn saved_design(&self) -> keyplan_core::Design {
        self.autosaved().await;
        let text = self
            .client
            .execute_async(
                "const done = arguments[arguments.length - 1];\
                 const id = localStorage.getItem('keyplan.current');\
                 if (id === null) { done(null); return; }\
                 const open = indexedDB.open('keyplan');\
                 open.onerror = () => done(null);\
                 open.onsuccess = () => {\
                   const db = open.result;\
                   const get = db.transaction('files').objectStore('files').get(id);\
                   get.onsuccess = () => { db.close(); done(get.result ?? null); };\
                   get.onerror = () => { db.close(); done(null); };\
                 };",
                Vec::new(),
            )
            .await
            .expect("read the saved design");
        keyplan_core::file::parse(text.as_str().expect("a saved design"))
            .expect("the saved design parses")
    }

    /// The designs kept in this browser (their files), least recently changed first.
    pub async fn local_design_files(&self) -> Vec<keyplan_core::Design> {
        self.autosaved().await;
        let list = self
            .client
            .execute_async(
                "const done = arguments[arguments.length - 1];\
                 const open = indexedDB.open('keyplan');\
                 open.onerror = () => done([]);\
                 open.onsuccess = () => {\
                   const db = open.result;\
                   const tx = db.transaction(['meta', 'files']);\
                   const all = tx.objectStore('meta').getAll();\
                   all.onsuccess = () => {\
                     const entries = all.result.map(t => JSON.parse(t));\
                     entries.sort((a, b) => a.modified - b.modified);\
                     const files = [];\
                     let left = entries.length;\
                     if (left === 0) { db.close(); done([]); return; }\
                     entries.forEach((e, i) => {\
                       const get = tx.objectStore('files').get(e.id);\
                       get.onsuccess = () => { files[i] = get.result ?? null; if (--left === 0) { db.close(); done(files); } };\
                       get.onerror = () => { files[i] = null; if (--left === 0) { db.close(); done(files); } };\
                     });\
                   };\
                   all.onerror = () => { db.close(); done([]); };\
                 };",
                Vec::new(),
            )
            .await
            .expect("read the designs");
        list.as_array()
            .expect("a list")
            .iter()
            .map(|file| {
                keyplan_core::file::parse(file.as_str().expect("a saved design"))
                    .expect("the saved design parses")
            })
            .collect()
    }

    /// The names of the designs kept in this browser, most recently changed first.
    pub async fn local_designs(&self) -> Vec<String> {
        let files = self.local_design_files().await;
        files.into_iter().rev().map(|design| design.name).collect()
    }

    /// Waits for the pending autosave, if any: it starts in the page's first idle moment, and
    /// the app marks itself `data-storage="saved"` (or `"failed"`) once the browser has
    /// written it.
    pub async fn autosaved(&self) {
        self.client
            .execute_async(
                "const done = arguments[arguments.length - 1];\
                 const settled = () => ['saved', 'failed'].includes(document.querySelector('[data-storage]')?.dataset.storage);\
                 const check = () => settled() ? done(0) : setTimeout(check, 20);\
                 requestAnimationFrame(() => requestIdleCallback(check, { timeout: 1000 }));",
                Vec::new(),
            )
            .await
            .expect("wait for the pending autosave");
    }

    /// Opens the app at `url` on `design` (see [`Browser::store_as_open_design`]) and waits
    /// for the card of its last entity.
    pub async fn open_design(&self, url: &str, design: &Design) {
        self.store_as_open_design(&keyplan_core::file::to_string(design))
            .await;
        self.visit(url).await;
        if let Some(last) = design.entities.last() {
            self.find(&format!("[data-entity={}] .card-head", last.name))
                .await;
        }
    }

    /// Stores the design file `file` as the open local design in the layout keyplan used before
    /// IndexedDB (localStorage); the next visit migrates and opens it. The open page's pending autosave runs first, so it cannot
    /// overwrite this when the page goes.
    pub async fn store_as_open_design(&self, file: &str) {
        self.autosaved().await;
        self.client
            .execute(
                "localStorage.setItem('keyplan.design.bench', arguments[0]);\
                 localStorage.setItem('keyplan.designs', 'bench\\tbenchmark\\n');\
                 localStorage.setItem('keyplan.current', 'bench');",
                vec![serde_json::Value::String(file.to_string())],
            )
            .await
            .expect("store the design");
    }

    /// Every toast shown since the page was opened with [`Browser::visit`] (or since the first
    /// call on this page), in order: a toast goes away on a timer, so a test that looks for one
    /// after a slow step would otherwise find it gone.
    pub async fn toasts(&self) -> Vec<String> {
        let value = self
            .js("if (!window.__keyplanToasts) {\
                   const seen = window.__keyplanToasts = [];\
                   const shown = new WeakMap();\
                   const note = () => document.querySelectorAll('[data-testid=toast]').forEach(t => {\
                     const text = t.innerText.trim();\
                     if (shown.get(t) !== text) { shown.set(t, text); seen.push(text); }\
                   });\
                   new MutationObserver(note).observe(document.body,\
                     { childList: true, subtree: true, characterData: true });\
                   note();\
                 }\
                 return window.__keyplanToasts;")
            .await;
        strings(&value)
    }

    /// Waits for a toast containing `text` (one that came and went counts) and returns it.
    pub async fn toast_containing(&self, text: &str) -> String {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let toasts = self.toasts().await;
            if let Some(toast) = toasts.iter().find(|t| t.contains(text)) {
                return toast.clone();
            }
            assert!(
                Instant::now() < deadline,
                "no toast containing {text:?} came; the toasts shown: {toasts:?}"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Saves a screenshot to `test-output/<name>.png`.
    pub async fn screenshot(&self, name: &str) {
        let png = self.client.screenshot().await.expect("a screenshot");
        let dir = workspace().join("test-output");
        std::fs::create_dir_all(&dir).expect("create test-output/");
        std::fs::write(dir.join(format!("{name}.png")), png).expect("save screenshot");
    }

    pub async fn close(self) {
        let _ = self.client.close().await;
    }
}

/// The names of `design`'s entities, in order: the cards the canvas shows of it.
pub fn entity_names_of(design: &Design) -> Vec<String> {
    design.entities.iter().map(|e| e.name.clone()).collect()
}

/// The strings of a script's list (a member that is not a string reads as empty).
pub fn strings(value: &serde_json::Value) -> Vec<String> {
    value
        .as_array()
        .expect("a list")
        .iter()
        .map(|v| v.as_str().unwrap_or_default().to_string())
        .collect()
}

/// Polls `check` every 50 ms until it returns true; fails after [`PATIENCE`].
pub async fn eventually<F, Fut>(what: &str, mut check: F)
where
    F: FnMut() -> Fut,
    Fut: Future<Output = bool>,
{
    let deadline = Instant::now() + PATIENCE;
    loop {
        if check().await {
            return;
        }
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A mouse that moves to `element`'s centre and presses its button: how every drag and click
/// of the harness begins.
fn press_on(element: Element) -> MouseActions {
    MouseActions::new("mouse".into())
        .then(PointerAction::MoveToElement {
            element,
            duration: None,
            x: 0.0,
            y: 0.0,
        })
        .then(PointerAction::Down { button: 0 })
}

/// `n` entities in one table with 5 GSIs, 4 patterns each (GetItem, Query, Query on a GSI, and
/// a read no index serves), laid out in a grid. Entity `i`'s parent is entity `i / 4`, so the
/// sample data grows threefold at each level of that tree.
pub fn generated_design(n: usize) -> Design {
    let mut design = Design::new(format!("Benchmark: {n} entities, {} patterns", 4 * n));
    design.tables.push(Table {
        name: "app".into(),
        partition_key: KeyAttribute::new("PK", KeyType::S),
        sort_key: Some(KeyAttribute::new("SK", KeyType::S)),
        gsis: (1..=5)
            .map(|n| Gsi {
                name: format!("GSI{n}"),
                partition_key: vec![KeyAttribute::new(format!("GSI{n}PK"), KeyType::S)],
                sort_key: vec![KeyAttribute::new(format!("GSI{n}SK"), KeyType::S)],
                projection: Projection::All,
            })
            .collect(),
        lsis: Vec::new(),
        billing: Default::default(),
        ttl_attribute: None,
        replicas: Vec::new(),
        vector_indexes: Vec::new(),
    });
    for i in 0..n {
        let name = format!("Entity{i:03}");
        let id = format!("entity{i:03}Id");
        let parent = format!("entity{:03}Id", i / 4);
        let gsi = 1 + i % 5;
        let mut entity = Entity {
            name: name.clone(),
            table: "app".into(),
            description: String::new(),
            attributes: vec![
                Attribute {
                    required: true,
                    ..Attribute::new(&id, AttrType::S)
                },
                Attribute::new(&parent, AttrType::S),
                Attribute::new("status", AttrType::S),
                Attribute::new("createdAt", AttrType::S),
                Attribute::new("total", AttrType::N),
            ],
            keys: Default::default(),
            volume: None,
        };
        let upper = name.to_uppercase();
        let mut key = |k: &str, t: String| {
            entity.keys.insert(k.to_string(), KeyTemplate::parse(&t));
        };
        key("PK", format!("{upper}#{{{id}}}"));
        key("SK", "META".into());
        key(&format!("GSI{gsi}PK"), format!("PARENT#{{{parent}}}"));
        key(
            &format!("GSI{gsi}SK"),
            format!("{upper}#{{createdAt}}#{{{id}}}"),
        );
        design.entities.push(entity);
        design.layout.insert(
            name.clone(),
            Point {
                x: (i % 10) as f64 * 330.0,
                y: (i / 10) as f64 * 300.0,
            },
        );
        let mut get = AccessPattern::read(format!("Get {name}"), &[&name], &[&id]);
        get.rate = 50.0;
        let mut by_parent = AccessPattern::read(format!("{name} by parent"), &[&name], &[&parent]);
        by_parent.sort = Some(SortCondition {
            attribute: "createdAt".into(),
            op: SortOp::Ge,
        });
        let by_id_range = AccessPattern::read(format!("{name} items"), &[&name], &[&id]);
        let by_status = AccessPattern::read(format!("{name} by status"), &[&name], &["status"]);
        design
            .patterns
            .extend([get, by_parent, by_id_range, by_status]);
    }
    design
}
