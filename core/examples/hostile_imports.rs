//! Hostile files against every importer (issue 15): deep nesting, a 50 MB file, a
//! JavaScript module of 100,000 tokens and bombs (issue 41: doubling template literals,
//! spreads and nested constants, a YAML alias bomb, 32 MB of JSON values, 4 MB of HCL
//! blocks), each given to detection and to every format's reader by name, as
//! `keyplan import [--from FORMAT]` and `POST /api/import` do.
//! Prints one row per file and reader: the time it took (dropping what it made included) on
//! the clock and on a CPU (the clock's figure on a busy machine is mostly other programs'
//! turns), the process's peak resident memory meanwhile (Linux's VmHWM, reset before each
//! row; the file's own text included), what came out (a design or the error's first words)
//! and `ok` when the clock said under 1 s. A panic is caught and printed as `PANIC`; a stack overflow
//! would end the run, so each file is read on a thread with Rust's default 2 MiB stack (the
//! smallest any of keyplan's readers gets).
//!
//! Run (a release build: the figures mean nothing in debug): `scripts/hostile-imports`, or
//! `cargo run --release -p keyplan-core --features js --example hostile_imports`; with words
//! (`scripts/hostile-imports Workbench`), only the files whose name holds one of them, and with
//! readers' names (`scripts/hostile-imports "32 MB" detect mcp`), only those readers.

use std::time::{Duration, Instant};

use keyplan_core::import::{self, Format, Imported};

/// The allocator of the `keyplan` binary (server/src/main.rs), whose `import` and `check` read
/// files as the rows do: what glibc's malloc made of an item-heavy model's millions of small
/// allocations was not what a user waits for.
#[cfg(not(target_env = "msvc"))]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// One way of reading a file: detection, or one format's reader.
type Read = Box<dyn Fn(&str) -> Result<Imported, import::ImportError> + Sync>;

/// A file's name in the table and how to make its text (`None`: it cannot be made here). The
/// text is made only for the files a run times: building every one of them took longer than
/// timing one (`scripts/hostile-imports "32 MB"`).
struct Case {
    name: &'static str,
    text: Box<dyn FnOnce() -> Option<String>>,
}

/// A case whose text can always be made.
fn case(name: &'static str, text: impl FnOnce() -> String + 'static) -> Case {
    Case {
        name,
        text: Box::new(move || Some(text())),
    }
}

fn repeat(open: &str, n: usize, close: &str) -> String {
    let mut out = String::with_capacity((open.len() + close.len()) * n);
    for _ in 0..n {
        out.push_str(open);
    }
    for _ in 0..n {
        out.push_str(close);
    }
    out
}

const MB: usize = 1024 * 1024;

/// `head`, the lines `line` makes of 0 to 9,999, and `tail`.
fn ten_thousand_lines(head: &str, line: impl Fn(usize) -> String, tail: &str) -> String {
    let mut out = String::from(head);
    for i in 0..10_000 {
        out.push_str(&line(i));
    }
    out.push_str(tail);
    out
}

/// A NoSQL Workbench model whose sample items fill about `bytes`, in the table's `TableData`
/// or (`in_facet`) in a facet's, as format 3.0 writes them.
fn workbench_items(bytes: usize, in_facet: bool) -> String {
    let mut items = String::with_capacity(bytes + 1000);
    items.push_str(
        r#"{"ModelName":"big","ModelMetadata":{"Version":"3.0"},"DataModel":[{"TableName":"t","KeyAttributes":{"PartitionKey":{"AttributeName":"pk","AttributeType":"S"},"SortKey":{"AttributeName":"sk","AttributeType":"S"}},"NonKeyAttributes":[],"#,
    );
    if in_facet {
        items.push_str(
            r#""TableFacets":[{"FacetName":"User","KeyAttributeAlias":{"PartitionKeyAlias":"UserId","SortKeyAlias":"Profile"},"NonKeyAttributes":["name"],"TableData":["#,
        );
    } else {
        items.push_str(r#""TableFacets":[],"TableData":["#);
    }
    let mut i = 0usize;
    while items.len() < bytes - 200 {
        if i > 0 {
            items.push(',');
        }
        items.push_str(&format!(
            r#"{{"pk":{{"S":"USER#{i}"}},"sk":{{"S":"PROFILE#{i}"}},"name":{{"S":"someone {i}"}}}}"#
        ));
        i += 1;
    }
    items.push_str(if in_facet { "]}]}]}" } else { "]}]}" });
    items
}

/// Issue 12's storage test model: the corpus's online shop (nine entities, two GSIs) with its
/// 19 items repeated to 80,000, each copy's keys made unique, compact JSON (about 18 MB); built
/// as `big_workbench_model` in server/tests/save_e2e.rs does. `None` without the corpus beside
/// the checkout.
fn online_shop_80_000() -> Option<String> {
    use serde_json::{Value, json};
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let name = "nosql-workbench/amazon-dynamodb-design-patterns/an-online-shop__json__AnOnlineShop_14.json";
    let text = ["../shared/corpus", "../../shared/corpus"]
        .iter()
        .find_map(|dir| std::fs::read_to_string(root.join(dir).join(name)).ok())?;
    let mut model: Value = serde_json::from_str(&text).ok()?;
    let table = &mut model["DataModel"][0];
    let items = table["TableData"].as_array()?.clone();
    let copies: Vec<Value> = (0..80_000)
        .map(|i| {
            let mut item = items[i % items.len()].clone();
            for key in ["PK", "SK"] {
                if let Some(s) = item[key]["S"].as_str() {
                    item[key]["S"] = json!(format!("{s}-{i}"));
                }
            }
            item
        })
        .collect();
    table["TableData"] = Value::Array(copies);
    serde_json::to_string(&model).ok()
}

fn cases() -> Vec<Case> {
    vec![
        // Deep nesting, in each syntax.
        case("JSON, 1M brackets deep", || repeat("[", MB, "]")),
        case("JSON object, 100k deep", || {
            format!(
                "{{\"version\": 1, \"x\": {}}}",
                repeat("{\"a\":", 100_000, "}")
            )
        }),
        case("YAML flow, 1M brackets deep", || {
            format!("Resources: {}", repeat("[", MB, "]"))
        }),
        case("YAML block mappings, 1000 deep", || {
            let mut block = String::from("Resources:\n");
            for depth in 1..1000 {
                block.push_str(&" ".repeat(depth));
                block.push_str("a:\n");
            }
            block
        }),
        case("HCL list, 1M brackets deep", || {
            format!("x = {}", repeat("[", MB, "]"))
        }),
        case("HCL blocks, 100k deep", || {
            repeat("resource \"aws_dynamodb_table\" \"t\" {\n", 100_000, "}\n")
        }),
        case("HCL expression, 100k parentheses", || {
            format!("locals {{ x = {} }}", repeat("(", 100_000, ")"))
        }),
        case("JS brackets, 1M deep", || {
            format!("export const x = {};", repeat("[", MB, "]"))
        }),
        case("JS prefix operators, 1M", || {
            format!("export const x = {}1;", "!".repeat(MB))
        }),
        case("JS arrows, 100k", || {
            format!("export const x = {}1;", "() => ".repeat(100_000))
        }),
        case("JS new Entity, 100k deep", || {
            format!(
                "import {{ Entity }} from 'electrodb';\nexport const e = new Entity({});",
                repeat("{ model: ", 100_000, " }")
            )
        }),
        // 50 MB files.
        case("Workbench model, 32 MB (the limit)", || {
            workbench_items(import::MAX_IMPORT_BYTES - 64, false)
        }),
        case("Workbench facet items, 32 MB", || {
            workbench_items(import::MAX_IMPORT_BYTES - 64, true)
        }),
        Case {
            name: "Workbench online shop, 80k items",
            text: Box::new(|| {
                let text = online_shop_80_000();
                if text.is_none() {
                    eprintln!(
                        "skipped the 80,000-item online shop: the corpus is not beside the checkout"
                    );
                }
                text
            }),
        },
        case("Workbench model, 50 MB of items", || {
            workbench_items(50 * MB, false)
        }),
        case("JSON, one 50 MB string", || {
            format!("{{\"version\": 1, \"name\": \"{}\"}}", "x".repeat(50 * MB))
        }),
        case("CloudFormation YAML, 50 MB", || {
            let mut yaml = String::from(
                "Resources:\n  T:\n    Type: AWS::DynamoDB::Table\n    Properties:\n      TableName: t\n      Tags:\n",
            );
            while yaml.len() < 50 * MB {
                yaml.push_str("        - Key: k\n          Value: v\n");
            }
            yaml
        }),
        case("Terraform, 50 MB", || {
            let mut hcl = String::new();
            let mut n = 0;
            while hcl.len() < 50 * MB {
                hcl.push_str(&format!(
                    "resource \"aws_dynamodb_table\" \"t{n}\" {{\n  name = \"t{n}\"\n  hash_key = \"pk\"\n  attribute {{\n    name = \"pk\"\n    type = \"S\"\n  }}\n}}\n"
                ));
                n += 1;
            }
            hcl
        }),
        case("JS module, 50 MB", || {
            let mut module = String::from("export const x = [");
            while module.len() < 50 * MB {
                module.push_str("1, ");
            }
            module.push_str("];");
            module
        }),
        // JavaScript of 100,000 tokens: an ElectroDB entity with 10,000 attributes (10 tokens
        // each), a OneTable schema with 10,000 fields, a flat array of 50,000 numbers.
        case("ElectroDB entity, 100k tokens", || {
            ten_thousand_lines(
                "import { Entity } from 'electrodb';\nexport const E = new Entity({\n  model: { entity: 'e', version: '1', service: 's' },\n  attributes: {\n",
                |i| format!("    a{i}: {{ type: 'string' }},\n"),
                "  },\n  indexes: { byId: { pk: { field: 'pk', composite: ['a0'] }, sk: { field: 'sk', composite: ['a1'] } } },\n}, { table: 't' });\n",
            )
        }),
        case("OneTable schema, 100k tokens", || {
            ten_thousand_lines(
                "export const Schema = {\n  version: '0.1.0',\n  indexes: { primary: { hash: 'pk', sort: 'sk' } },\n  models: {\n    User: {\n      pk: { type: String, value: 'USER#${a0}' },\n      sk: { type: String, value: 'USER#' },\n",
                |i| format!("      a{i}: {{ type: String }},\n"),
                "    },\n  },\n} as const;\n",
            )
        }),
        case("JS array, 100k tokens", || {
            let numbers: Vec<String> = (0..50_000).map(|i| i.to_string()).collect();
            format!("export const x = [{}];", numbers.join(", "))
        }),
        // Bombs (issue 41): a few KB that ask for gigabytes, each where a schema reaches it.
        case("JS template doubling, 40 times", || {
            onetable_bomb("'abcdefghijklmnop'", "`${{p}}${{p}}`", "value: b40")
        }),
        case("JS array spread doubling", || {
            let first = format!("['{}']", "x".repeat(64 * 1024));
            onetable_bomb(&first, "[...{p}, ...{p}]", "enum: b40")
        }),
        case("JS nested arrays of 1 MB", || {
            let first = format!("'{}'", "x".repeat(MB));
            onetable_bomb(
                &first,
                "[{p}, {p}, {p}, {p}, {p}, {p}, {p}, {p}]",
                "enum: b40",
            )
        }),
        case("YAML aliases, 16 billion values", || {
            format!(
                "Resources:\n  A: &a [{}x]\n  B: [{}*a]\n",
                "x,".repeat(80_000),
                "*a,".repeat(200_000)
            )
        }),
        case("JSON, 32 MB of empty objects", || {
            format!("[{}{{}}]", "{},".repeat(import::MAX_IMPORT_BYTES / 3 - 1))
        }),
        case("JSON, 32 MB of zeros", || {
            format!("[{}0]", "0,".repeat(import::MAX_IMPORT_BYTES / 2 - 2))
        }),
        case("HCL, 4 MB of empty blocks", || "a {}\n".repeat(4 * MB / 5)),
    ]
}

/// A OneTable schema whose field `pk` has `field` (`value: b40`), after constants `b0` (its
/// value `first`) to `b40`, each `step` of the one before (`{p}` in `step`).
fn onetable_bomb(first: &str, step: &str, field: &str) -> String {
    let mut out = format!("const b0 = {first};\n");
    for i in 1..=40 {
        let previous = format!("b{}", i - 1);
        out += &format!("const b{i} = {};\n", step.replace("{p}", &previous));
    }
    out + &format!(
        "export const Schema = {{ indexes: {{ primary: {{ hash: 'pk' }} }}, models: {{ M: {{ pk: {{ type: String, {field} }} }} }} }};\n"
    )
}

/// What a reader made of a file, in a few words.
fn outcome(result: &Result<Imported, import::ImportError>) -> String {
    match result {
        Ok(imported) => format!(
            "design: {} tables, {} entities",
            imported.design.tables.len(),
            imported.design.entities.len()
        ),
        Err(e) => {
            let text = e.to_string().replace('\n', " ");
            let short: String = text.chars().take(90).collect();
            format!("error: {short}")
        }
    }
}

/// How long the current thread has run on a CPU (Linux's /proc/thread-self/schedstat), to
/// tell a reader's own time from a busy machine's; `None` elsewhere.
fn thread_cpu() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns = stat.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

/// What one reading took: on the clock, on a CPU, and the process's peak resident memory.
struct Took {
    wall: Duration,
    cpu: Option<Duration>,
    peak_mb: Option<u64>,
}

/// Starts the process's peak resident memory (VmHWM) again from what it holds now (Linux's
/// /proc/self/clear_refs); `false` elsewhere.
fn reset_peak() -> bool {
    std::fs::write("/proc/self/clear_refs", "5").is_ok()
}

/// The process's peak resident memory since [`reset_peak`], in MB (Linux); `None` elsewhere.
fn peak_mb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

/// Runs `read` on a thread with the default 2 MiB stack, timing it with the dropping of what it
/// made (the user's command waits for that too); a panic is caught.
fn timed(
    text: &str,
    read: impl FnOnce(&str) -> Result<Imported, import::ImportError> + Send,
) -> (Took, String) {
    std::thread::scope(|scope| {
        let handle = std::thread::Builder::new()
            .stack_size(2 * 1024 * 1024)
            .spawn_scoped(scope, move || {
                let reset = reset_peak();
                let cpu_start = thread_cpu();
                let start = Instant::now();
                let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| read(text)));
                let said = match &result {
                    Ok(result) => outcome(result),
                    Err(_) => "PANIC".to_string(),
                };
                drop(result);
                let wall = start.elapsed();
                let cpu = thread_cpu().zip(cpu_start).map(|(end, start)| end - start);
                let peak_mb = if reset { peak_mb() } else { None };
                (Took { wall, cpu, peak_mb }, said)
            })
            .expect("a thread starts");
        handle.join().expect("the thread ends")
    })
}

fn main() {
    std::panic::set_hook(Box::new(|_| {}));
    let mut n_slow = 0;
    let mut n_panics = 0;
    let mut slowest = Duration::ZERO;
    println!(
        "{:<34} {:>9} {:<16} {:>9} {:>9} {:>7}  outcome",
        "file", "bytes", "reader", "ms", "cpu ms", "peak MB"
    );
    // `scripts/hostile-imports Workbench`: only the files whose name holds one of the words;
    // `scripts/hostile-imports "32 MB" mcp`: only the readers named (`detect` or a format), to
    // profile one row.
    let is_reader = |word: &str| word == "detect" || word.parse::<Format>().is_ok();
    let (only_readers, only): (Vec<String>, Vec<String>) =
        std::env::args().skip(1).partition(|word| is_reader(word));
    for case in cases() {
        if !only.is_empty() && !only.iter().any(|word| case.name.contains(word.as_str())) {
            continue;
        }
        let Some(text) = (case.text)() else {
            continue;
        };
        let mut readers: Vec<(String, Read)> = vec![(
            "detect".to_string(),
            Box::new(|text: &str| import::detect_and_import(text)),
        )];
        for format in Format::ALL {
            readers.push((
                format.as_str().to_string(),
                Box::new(move |text: &str| import::import(format, text)),
            ));
        }
        readers.retain(|(reader, _)| only_readers.is_empty() || only_readers.contains(reader));
        for (reader, read) in &readers {
            let (took, said) = timed(&text, |text| read(text));
            let elapsed = took.wall;
            slowest = slowest.max(elapsed);
            let ok = if said == "PANIC" {
                n_panics += 1;
                "PANIC"
            } else if elapsed >= Duration::from_secs(1) {
                n_slow += 1;
                "SLOW"
            } else {
                "ok"
            };
            let cpu = match took.cpu {
                Some(cpu) => format!("{:.1}", cpu.as_secs_f64() * 1000.0),
                None => "-".to_string(),
            };
            let peak = took
                .peak_mb
                .map_or_else(|| "-".to_string(), |mb| mb.to_string());
            println!(
                "{:<34} {:>9} {:<16} {:>9.1} {cpu:>9} {peak:>7}  {ok:<5} {said}",
                case.name,
                text.len(),
                reader,
                elapsed.as_secs_f64() * 1000.0
            );
        }
    }
    println!(
        "slowest {:.1} ms; {n_slow} over 1 s; {n_panics} panics",
        slowest.as_secs_f64() * 1000.0
    );
    if n_slow + n_panics > 0 {
        std::process::exit(1);
    }
}
