//! A real browser for end-to-end tests: the real `keyplan serve` on the built app (`dist/`),
//! headless Chromium through chromedriver, and small user-level helpers (wait for, type into,
//! drag, press keys, screenshot). Each browser gets a fresh profile, so the browser's storage
//! starts empty unless a test reuses a profile on purpose.
//!
//! Needs `dist/` (trunk build), /usr/bin/chromium and /usr/bin/chromedriver; see
//! [`prerequisites`] for what happens when one is missing.
#![allow(dead_code)]

use std::future::Future;
use std::io::{BufRead, BufReader};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::actions::{
    Actions, InputSource, KeyAction, KeyActions, MouseActions, PointerAction, WheelAction,
    WheelActions,
};
use fantoccini::elements::Element;
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
pub struct Running(Child);

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
    let mut child = Command::new(env!("CARGO_BIN_EXE_keyplan"))
        .args(["serve", "--host", "127.0.0.1", "--port", "0", "--dist"])
        .arg(dist)
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

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("a free port")
        .port()
}

/// A headless Chromium with its own chromedriver and profile.
pub struct Browser {
    pub client: Client,
    _driver: Running,
    _profile: tempfile::TempDir,
}

impl Browser {
    pub async fn open() -> Browser {
        Browser::open_with(&[]).await
    }

    /// Like [`Browser::open`], with more Chromium switches (the canvas benchmark's).
    pub async fn open_with(extra_args: &[&str]) -> Browser {
        let port = free_port();
        let driver = Running(
            Command::new(CHROMEDRIVER)
                .arg(format!("--port={port}"))
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("chromedriver starts"),
        );
        let deadline = Instant::now() + Duration::from_secs(20);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "chromedriver did not listen");
            std::thread::sleep(Duration::from_millis(50));
        }
        let profile = tempfile::tempdir().expect("a fresh chromium profile");
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
        let client = ClientBuilder::native()
            .capabilities(capabilities)
            .connect(&format!("http://127.0.0.1:{port}"))
            .await
            .expect("a chromium session");
        Browser {
            client,
            _driver: driver,
            _profile: profile,
        }
    }

    /// Opens `url` and waits for the app to show its coverage summary.
    pub async fn visit(&self, url: &str) {
        self.client.goto(url).await.expect("open the app");
        self.find("[data-testid=coverage-summary]").await;
    }

    /// The first element matching `css`, waiting up to ten seconds for it.
    pub async fn find(&self, css: &str) -> Element {
        self.client
            .wait()
            .at_most(Duration::from_secs(10))
            .for_element(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("no element {css} appeared: {e}"))
    }

    /// The first button whose text is `text`.
    pub async fn button(&self, text: &str) -> Element {
        self.client
            .wait()
            .at_most(Duration::from_secs(10))
            .for_element(Locator::XPath(&format!(
                "//button[normalize-space()='{text}']"
            )))
            .await
            .unwrap_or_else(|e| panic!("no button {text:?}: {e}"))
    }

    pub async fn click(&self, css: &str) {
        self.find(css).await.click().await.expect("click");
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
            .client
            .execute(
                "return Array.from(document.querySelectorAll(arguments[0]), e => e.innerText.trim());",
                vec![serde_json::Value::String(css.to_string())],
            )
            .await
            .expect("read the texts");
        value
            .as_array()
            .expect("a list")
            .iter()
            .map(|v| v.as_str().unwrap_or_default().to_string())
            .collect()
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

    /// The names of the designs kept in this browser, most recently changed first.
    pub async fn local_designs(&self) -> Vec<String> {
        self.autosaved().await;
        let list = self
            .client
            .execute_async(
                "const done = arguments[arguments.length - 1];\
                 const open = indexedDB.open('keyplan');\
                 open.onerror = () => done([]);\
                 open.onsuccess = () => {\
                   const db = open.result;\
                   const all = db.transaction('meta').objectStore('meta').getAll();\
                   all.onsuccess = () => {\
                     db.close();\
                     const entries = all.result.map(t => JSON.parse(t));\
                     entries.sort((a, b) => b.modified - a.modified);\
                     done(entries.map(e => e.name));\
                   };\
                   all.onerror = () => { db.close(); done([]); };\
                 };",
                Vec::new(),
            )
            .await
            .expect("read the design list");
        list.as_array()
            .expect("a list")
            .iter()
            .map(|v| v.as_str().unwrap_or_default().to_string())
            .collect()
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

/// Polls `check` every 50 ms until it returns true, for up to ten seconds.
pub async fn eventually<F, Fut>(what: &str, mut check: F)
where
    F: FnMut() -> Fut,
    Fut: Future<Output = bool>,
{
    let deadline = Instant::now() + Duration::from_secs(10);
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
