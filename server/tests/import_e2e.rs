//! Opening other tools' files in a real browser (issue 15): a CloudFormation template dropped
//! on the app and a NoSQL Workbench model chosen in the file picker each open as a new design,
//! and the toast says what was read. The picker offers every format core reads.
//!
//! What each format holds is tested in core (`import::tests`, the corpus round trips); this
//! checks what a user sees.

mod browser;

use browser::{Browser, app_test, eventually, open_app, prerequisites};
use keyplan_core::export::{Target as Export, export};

/// The example design in `to`, and what core reads back from it.
fn exported(to: Export) -> (String, keyplan_core::import::Imported) {
    let design = keyplan_core::examples::all()
        .into_iter()
        .find(|(slug, _)| *slug == "order-management")
        .expect("the order-management example")
        .1;
    let text = export(&design, to).expect("the example exports");
    let back = keyplan_core::import::detect_and_import(&text).expect("the export imports");
    (text, back)
}

/// The file picker offers every one of `extensions`.
async fn picker_accepts(b: &Browser, extensions: &[&str]) {
    let accept = b
        .js("return document.querySelector('[data-testid=file-input]').accept;")
        .await;
    let accept = accept.as_str().expect("the accept attribute");
    for extension in extensions {
        assert!(
            accept.split(',').any(|a| a == *extension),
            "{extension}: {accept}"
        );
    }
}

#[tokio::test]
async fn a_dropped_cloudformation_template_and_a_chosen_workbench_model_open_and_say_what_they_are()
{
    let Some((_server, b)) = open_app().await else {
        return;
    };

    // The picker offers the formats core reads, not only JSON.
    picker_accepts(&b, &[".json", ".yaml", ".yml", ".tf"]).await;

    let (template, imported) = exported(Export::CloudFormationYaml);
    b.drop_file("stack.yaml", &template).await;
    let toast = b.toast_containing("Opened stack.yaml").await;
    b.screenshot("import-cloudformation-toast").await;
    assert_eq!(
        toast.lines().next().unwrap_or_default(),
        format!(
            "Opened stack.yaml as a CloudFormation template: {} tables, no entities, with {} notes:",
            imported.design.tables.len(),
            // issue 36: what was assumed is listed after the notes.
            imported.notes.len() + imported.assumed.len()
        ),
        "{toast}"
    );
    assert!(toast.contains("no entities or access patterns"), "{toast}");
    eventually("the template's design has no entity cards", || async {
        b.entity_names().await.is_empty()
    })
    .await;

    let (model, imported) = exported(Export::NosqlWorkbench);
    let design = imported.design;
    let dir = tempfile::tempdir().expect("a temp dir");
    let file = dir.path().join("model.json");
    std::fs::write(&file, &model).expect("write the model");
    b.choose_file(&file).await;
    let toast = b.toast_containing("Opened model.json").await;
    assert!(
        toast.starts_with(&format!(
            "Opened model.json as a NoSQL Workbench model: {} tables, {} entities",
            design.tables.len(),
            design.entities.len()
        )),
        "{toast}"
    );
    let expected = browser::entity_names_of(&design);
    b.wait_for_entities("the model's entities are on the canvas", &expected)
        .await;
}

/// A service of four ElectroDB entities in three collections, as its author writes it.
const ORDERS_TS: &str = r#"import { Entity, Service } from "electrodb";

const table = "orders";

export const Customer = new Entity({
  model: { entity: "customer", version: "1", service: "shop" },
  attributes: {
    customerId: { type: "string", required: true },
    name: { type: "string" },
  },
  indexes: {
    byCustomer: {
      collection: "customerView",
      pk: { field: "pk", composite: ["customerId"] },
      sk: { field: "sk", composite: [] },
    },
  },
}, { table });

export const Order = new Entity({
  model: { entity: "order", version: "1", service: "shop" },
  attributes: {
    customerId: { type: "string", required: true },
    orderId: { type: "string", required: true },
    status: { type: ["PENDING", "SHIPPED"] as const },
  },
  indexes: {
    byCustomer: {
      collection: "customerView",
      pk: { field: "pk", composite: ["customerId"] },
      sk: { field: "sk", composite: ["orderId"] },
    },
    byOrder: {
      index: "gsi1",
      collection: "orderView",
      pk: { field: "gsi1pk", composite: ["orderId"] },
      sk: { field: "gsi1sk", composite: [] },
    },
    byStatus: {
      index: "gsi2",
      collection: "tracking",
      pk: { field: "gsi2pk", composite: ["status"] },
      sk: { field: "gsi2sk", composite: ["orderId"] },
    },
  },
}, { table });

export const Item = new Entity({
  model: { entity: "item", version: "1", service: "shop" },
  attributes: {
    orderId: { type: "string", required: true },
    itemId: { type: "string", required: true },
    quantity: { type: "number" },
  },
  indexes: {
    byItem: {
      pk: { field: "pk", composite: ["itemId"] },
      sk: { field: "sk", composite: [] },
    },
    byOrder: {
      index: "gsi1",
      collection: "orderView",
      pk: { field: "gsi1pk", composite: ["orderId"] },
      sk: { field: "gsi1sk", composite: ["itemId"] },
    },
  },
}, { table });

export const Shipment = new Entity({
  model: { entity: "shipment", version: "1", service: "shop" },
  attributes: {
    shipmentId: { type: "string", required: true },
    orderId: { type: "string", required: true },
    status: { type: ["PENDING", "SHIPPED"] as const },
  },
  indexes: {
    byShipment: {
      pk: { field: "pk", composite: ["shipmentId"] },
      sk: { field: "sk", composite: [] },
    },
    byOrder: {
      index: "gsi1",
      collection: "orderView",
      pk: { field: "gsi1pk", composite: ["orderId"] },
      sk: { field: "gsi1sk", composite: ["shipmentId"] },
    },
    byStatus: {
      index: "gsi2",
      collection: "tracking",
      pk: { field: "gsi2pk", composite: ["status"] },
      sk: { field: "gsi2sk", composite: ["shipmentId"] },
    },
  },
}, { table });

export const Shop = new Service({ customer: Customer, order: Order, item: Item, shipment: Shipment }, { table });
"#;

/// The same service with a bracket left open: the module does not parse.
const BROKEN_TS: &str = "import { Entity } from \"electrodb\";\n\nexport const Customer = new Entity({\n  model: { entity: \"customer\", version: \"1\", service: \"shop\" ,\n  attributes: {},\n});\n";

fn fixture(path: &str) -> String {
    std::fs::read_to_string(browser::workspace().join("tests/fixtures").join(path))
        .unwrap_or_else(|e| panic!("{path}: {e}"))
}

// issue 15: the app's build has no JavaScript parser; served by `keyplan serve` it hands the
// modules to POST /api/import and says what came back, errors with their line and column.
#[test]
fn modules_dropped_or_chosen_open_through_the_server_and_say_what_was_read() {
    app_test(async |b| {
        picker_accepts(b, &[".js", ".mjs", ".cjs", ".ts"]).await;

        b.drop_file("orders.ts", ORDERS_TS).await;
        let toast = b.toast_containing("Opened orders.ts").await;
        b.screenshot("import-electrodb-toast").await;
        assert!(
            toast
                .starts_with("Opened orders.ts as an ElectroDB service: 4 entities, 3 collections"),
            "{toast}"
        );
        eventually("the service's entities are on the canvas", || async {
            let mut names = b.entity_names().await;
            names.sort();
            names == ["customer", "item", "order", "shipment"]
        })
        .await;

        // A OneTable schema written as a JavaScript module, chosen in the file picker.
        let text = fixture("onetable/overview-schema.js");
        let (format, expected) =
            keyplan_core::import::detect_and_import_as(&text).expect("the fixture imports");
        let dir = tempfile::tempdir().expect("a temp dir");
        let file = dir.path().join("overview-schema.js");
        std::fs::write(&file, &text).expect("write the schema");
        b.choose_file(&file).await;
        let toast = b.toast_containing("Opened overview-schema.js").await;
        b.screenshot("import-onetable-toast").await;
        assert!(
            toast.starts_with(&format!(
                "Opened overview-schema.js as a OneTable schema: {} entities",
                expected.design.entities.len()
            )),
            "{toast}"
        );
        assert_eq!(format, keyplan_core::import::Format::OneTable);
        let names = browser::entity_names_of(&expected.design);
        b.wait_for_entities("the schema's models are on the canvas", &names)
            .await;

        // A module that does not parse: the server's error, with its line and column.
        b.drop_file("broken.ts", BROKEN_TS).await;
        let toast = b.toast_containing("broken.ts could not be opened").await;
        b.screenshot("import-module-error").await;
        assert!(
            toast.starts_with("broken.ts could not be opened: line 6, column "),
            "{toast}"
        );
    });
}

// issue 36: several modules dropped together, or the folder that holds them, are one
// application's, read together by the server (ElectroDB's versioncontrol example: `issues.ts`
// imports its enums from `types.ts`, `index.ts` names the table); a folder gives its modules as
// `keyplan import FOLDER` does, without `node_modules`. issue 43: the toast of an import with
// notes goes after the time to read them, where it used to stay until dismissed.
#[test]
fn several_dropped_modules_or_their_folder_open_as_one_design_and_the_toast_goes() {
    app_test(async |b| {
        let files: Vec<(String, String)> = ["index.ts", "issues.ts", "types.ts"]
            .iter()
            .map(|name| {
                (
                    name.to_string(),
                    fixture(&format!("electrodb/versioncontrol/{name}")),
                )
            })
            .collect();
        let pairs: Vec<(&str, &str)> = files
            .iter()
            .map(|(name, text)| (name.as_str(), text.as_str()))
            .collect();

        b.drop_files(&pairs).await;
        let toast = b.toast_containing("Opened 3 files").await;
        assert!(
            toast.starts_with("Opened 3 files as an ElectroDB service"),
            "{toast}"
        );
        eventually("the service's entities are on the canvas", || async {
            let mut names = b.entity_names().await;
            names.sort();
            names == ["issueComment", "issues"]
        })
        .await;

        let mut in_folder = pairs.clone();
        in_folder.push(("node_modules/electrodb/index.js", "module.exports = {};"));
        in_folder.push(("README.md", "# versioncontrol"));
        b.drop_folder("versioncontrol", &in_folder).await;
        let toast = b
            .toast_containing("Opened 3 files under versioncontrol")
            .await;
        b.screenshot("import-dropped-folder").await;
        assert!(
            toast.starts_with("Opened 3 files under versioncontrol as an ElectroDB service"),
            "{toast}"
        );

        // A folder without a module says so, and stays until dismissed.
        b.drop_folder("docs", &[("README.md", "# docs")]).await;
        let toast = b.toast_containing("The folder could not be opened").await;
        assert!(
            toast.contains("docs: no JavaScript or TypeScript module in it"),
            "{toast}"
        );
        // Dismissed by a script: a pointer left over the toast would hold the next one.
        b.js(
            "document.querySelector('[data-testid=toast] [aria-label=Dismiss]').click(); return 0;",
        )
        .await;

        // issues.ts alone: opened with the notes of what it assumed of its imports; the toast
        // goes by itself.
        b.drop_file("issues.ts", pairs[1].1).await;
        let toast = b.toast_containing("Opened issues.ts").await;
        assert!(toast.contains("assumed:"), "{toast}");
        eventually("the import's toast goes by itself", || async {
            b.js("return document.querySelector('[data-testid=toast]') === null;")
                .await
                == serde_json::Value::Bool(true)
        })
        .await;
    });
}

/// The built app served by a static web server (Python's), without keyplan's API.
struct StaticHost {
    _process: browser::Running,
    url: String,
}

fn static_host(dist: &std::path::Path) -> StaticHost {
    use std::io::BufRead;
    let mut child = std::process::Command::new("python3")
        .args([
            "-u",
            "-m",
            "http.server",
            "0",
            "--bind",
            "127.0.0.1",
            "--directory",
        ])
        .arg(dist)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("python3 starts");
    let stdout = child.stdout.take().expect("piped stdout");
    let process = browser::Running(child);
    // "Serving HTTP on 127.0.0.1 port 41234 (http://127.0.0.1:41234/) ..."
    let mut line = String::new();
    std::io::BufReader::new(stdout)
        .read_line(&mut line)
        .expect("read the server's first line");
    let url = line
        .split_once("(http://")
        .and_then(|(_, rest)| rest.split_once(')'))
        .map(|(address, _)| format!("http://{address}"))
        .unwrap_or_else(|| panic!("unexpected first line from http.server: {line:?}"));
    StaticHost {
        _process: process,
        url,
    }
}

/// The built app on a static host, opened in a fresh browser; `None` (the test skips) when the
/// prerequisites are missing.
async fn open_on_a_static_host() -> Option<(StaticHost, Browser)> {
    let dist = prerequisites()?;
    let host = static_host(&dist);
    let b = Browser::open().await;
    b.visit(&host.url).await;
    Some((host, b))
}

// issue 15: on a static host there is no server to read a module; the toast says what to do.
#[tokio::test]
async fn a_module_opened_on_a_static_host_says_to_start_keyplan_serve() {
    let Some((_host, b)) = open_on_a_static_host().await else {
        return;
    };
    b.drop_file("orders.ts", ORDERS_TS).await;
    let toast = b.toast_containing("orders.ts could not be opened").await;
    b.screenshot("import-needs-server").await;
    assert!(
        toast.contains("keyplan serve")
            && toast.contains("keyplan import orders.ts -o design.keyplan.json"),
        "{toast}"
    );
}

// issue 17: importing from an engine needs keyplan serve; a static host says so where the
// import is offered (the gallery, the design list) instead of offering it.
#[tokio::test]
async fn on_a_static_host_import_from_engine_says_it_needs_keyplan_serve() {
    let Some((_host, b)) = open_on_a_static_host().await else {
        return;
    };
    b.click_button("New").await;
    // "Looking for the keyplan server…" shows until the probe of `/api/engines` answers.
    let reason = async |prefix: &str| {
        eventually("the reason import from engine is not offered", || async {
            b.texts("[data-testid=engine-import-unavailable]")
                .await
                .iter()
                .any(|t| t.starts_with(prefix) && t.contains("keyplan serve"))
        })
        .await;
    };
    reason("Import from engine\nNeeds the keyplan server").await;
    b.press(&[], browser::ESCAPE).await;
    b.click("[data-testid=design-switcher]").await;
    reason("Import from engine: Needs the keyplan server").await;
    assert!(!b.has("[data-testid=engine-import-open]").await);
    b.close().await;
}

// issue 19: the worker reads an imported file itself; the page never takes its text (a 17.7 MB
// model cost the page a 300 ms task copying it). Here the page cannot read files at all, and a
// dropped template still opens.
#[test]
fn a_dropped_file_is_read_by_the_worker_not_the_page() {
    app_test(async |b| {
        b.js(
            "Blob.prototype.text = () => Promise.reject(new Error('read by the page'));\
              Blob.prototype.arrayBuffer = () => Promise.reject(new Error('read by the page'));\
              return 0;",
        )
        .await;
        let (template, _) = exported(Export::CloudFormationYaml);
        b.drop_file("stack.yaml", &template).await;
        let toast = b.toast_containing("stack.yaml").await;
        assert!(
            toast.starts_with("Opened stack.yaml as a CloudFormation template"),
            "{toast}"
        );
    });
}

// A file over the app's bound (256 MB) is refused by its size before the worker reads a byte of
// it, and says so; the open design stays.
#[test]
fn a_file_too_large_to_open_is_refused_by_its_size() {
    app_test(async |b| {
        b.js_async(
            "const done = arguments[0];\
             const dt = new DataTransfer();\
             dt.items.add(new File([new Uint8Array(300 * 1000 * 1000)], 'huge.json'));\
             const app = document.querySelector('.app');\
             app.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));\
             app.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));\
             done(0);",
            Vec::new(),
        )
        .await;
        let toast = b.toast_containing("huge.json").await;
        assert_eq!(
            toast.lines().next().unwrap_or_default(),
            "huge.json could not be opened: the file could not be read: it is 300 MB; the app opens files up to 256 MB",
            "{toast}"
        );
        assert_eq!(
            b.text("[data-testid=design-title]").await,
            "Order management"
        );
    });
}

// issue 36: an import's cards were laid out in one grid in the order of the entities, so a
// table's frame reached over another table's cards, and Fit could not show 100 of them.
#[tokio::test]
async fn a_hundred_entity_import_lands_table_by_table_and_fit_shows_it_whole() {
    let Some((_server, b)) = open_app().await else {
        return;
    };
    let design = keyplan_core::generated::across_tables(4, 25);
    let model = export(&design, Export::NosqlWorkbench).expect("the design exports");
    b.drop_file("large.json", &model).await;
    b.toast_containing("Opened large.json").await;
    // A long list of notes scrolls inside the toast, which stays on the screen (looked at as
    // soon as it shows: it goes after the time to read it, issue 43).
    let box_of = b
        .js("const t = document.querySelector('[data-testid=toast]');
             const n = document.querySelector('[data-testid=toast-notes]');
             const r = t ? t.getBoundingClientRect() : null;
             return { onScreen: !!r && r.top >= 0 && r.bottom <= innerHeight,
                      scrolls: !n || getComputedStyle(n).overflowY === 'auto' };")
        .await;
    assert_eq!(box_of["onScreen"], true, "{box_of}");
    assert_eq!(box_of["scrolls"], true, "{box_of}");
    eventually("the hundred cards are drawn", || async {
        b.texts("[data-testid=entity-name]").await.len() == 100
    })
    .await;
    b.click_button("Fit").await;
    // Every card and every frame inside the canvas, and no card under another table's frame.
    let seen = || async {
        b.js(
            "const canvas = document.querySelector('[data-testid=canvas]').getBoundingClientRect();
             const inside = r => r.left >= canvas.left - 1 && r.top >= canvas.top - 1
                 && r.right <= canvas.right + 1 && r.bottom <= canvas.bottom + 1;
             const frames = [...document.querySelectorAll('.table-frame')].map(f => ({
                 table: f.querySelector('.table-name').textContent,
                 rect: f.getBoundingClientRect() }));
             // E{t}x{n} is an entity of table-{t} (a card zoomed out shows only its name).
             const cards = [...document.querySelectorAll('.card')].map(c => ({
                 table: 'table-' + c.querySelector('[data-testid=entity-name]').textContent.slice(1).split('x')[0],
                 rect: c.getBoundingClientRect() }));
             const meets = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
             return {
                 outside: cards.filter(c => !inside(c.rect)).length + frames.filter(f => !inside(f.rect)).length,
                 under: cards.filter(c => frames.some(f => f.table !== c.table && meets(f.rect, c.rect))).length,
                 frames: frames.length, cards: cards.length,
                 canvas: [canvas.width, canvas.height],
                 outsideRects: cards.filter(c => !inside(c.rect)).map(c => [c.rect.left, c.rect.top, c.rect.right, c.rect.bottom]).concat(frames.filter(f => !inside(f.rect)).map(f => [f.table, f.rect.left, f.rect.top, f.rect.right, f.rect.bottom])).slice(0, 6) };",
        )
        .await
    };
    eventually(
        "Fit shows every card and frame, none under another table's frame",
        || async {
            let s = seen().await;
            eprintln!("{s}");
            s["outside"] == 0 && s["under"] == 0 && s["frames"] == 4 && s["cards"] == 100
        },
    )
    .await;
    b.screenshot("import-hundred-entities-fit").await;
}
