//! Bombs of every format keyplan reads (issue 41), given to the real binary under a memory
//! cap: small files that ask for far more memory than they hold (a 1.6 KB module of doubling
//! template literals asked for ~8 GB and one `POST /api/import` of it killed `keyplan serve`).
//! `keyplan import` refuses each with a message saying what is wrong, its peak resident memory
//! under [`PEAK_MB`]; `keyplan serve` answers a `POST /api/import` of each with a 400 and then
//! answers the next request. Each process runs under `prlimit --as` ([`ADDRESS_SPACE_MB`]), so
//! a bomb that gets through fails its test (the allocation fails, the process aborts) instead
//! of taking the machine's memory; GNU `time` reads the peak.
#![allow(clippy::unwrap_used)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};

/// The address space a `keyplan` process may map: its code, its threads' stacks and
/// jemalloc's reservations take a few hundred MB of it before it reads anything.
const ADDRESS_SPACE_MB: u64 = 2048;
/// The most resident memory `keyplan import` may reach refusing a bomb.
const PEAK_MB: u64 = 256;

/// `first` in a constant, then `count` constants each `step` of the one before (`{p}` in
/// `step` is its name).
fn doubling(name: &str, first: &str, count: usize, step: &str) -> String {
    let mut out = format!("const {name}0 = {first};\n");
    for i in 1..=count {
        let previous = format!("{name}{}", i - 1);
        out += &format!("const {name}{i} = {};\n", step.replace("{p}", &previous));
    }
    out
}

/// `repeated` `n` times between `open` and `close`.
fn nested(open: &str, n: usize, close: &str) -> String {
    format!("{}{}", open.repeat(n), close.repeat(n))
}

/// A bomb: its file name (the extension says what it is), its text and what the refusal says.
struct Bomb {
    file: &'static str,
    text: String,
    says: &'static str,
}

fn bombs() -> Vec<Bomb> {
    let sixty_four_kb = format!("'{}'", "x".repeat(64 * 1024));
    vec![
        // The bomb: an ElectroDB key template doubled forty times (16 TB).
        Bomb {
            file: "templates.ts",
            text: format!(
                "import {{ Entity }} from 'electrodb';\n{}export const E = new Entity({{\n  model: {{ entity: 'e', version: '1', service: 's' }},\n  attributes: {{ id: {{ type: 'string' }} }},\n  indexes: {{ byId: {{ pk: {{ field: 'pk', composite: ['id'], template: t40 }} }} }},\n}}, {{ table: 't' }});\n",
                doubling("t", "'abcdefghijklmnop'", 40, "`${{p}}${{p}}`")
            ),
            says: "MB of text here; keyplan reads schemas, not data",
        },
        Bomb {
            file: "spreads.js",
            text: format!(
                "{}export default {{ indexes: {{ primary: {{ hash: 'pk' }} }}, models: {{ M: {{ pk: {{ type: String, enum: s30 }} }} }} }};\n",
                doubling("s", &format!("[{sixty_four_kb}]"), 30, "[...{p}, ...{p}]")
            ),
            says: "MB of text here; keyplan reads schemas, not data",
        },
        Bomb {
            file: "objects.ts",
            text: format!(
                "{}export const Schema = {{ indexes: {{ primary: {{ hash: 'pk' }} }}, models: {{ M: {{ pk: {{ type: String, enum: [o30] }} }} }} }};\n",
                doubling(
                    "o",
                    &format!("{{ v: {sixty_four_kb} }}"),
                    30,
                    "{ l: {p}, r: {p} }"
                )
            ),
            says: "keyplan reads schemas, not data",
        },
        Bomb {
            file: "deep.ts",
            text: format!(
                "export const Schema = {{ models: {} }};",
                nested("[", 100_000, "]")
            ),
            says: "nested more than 200 levels deep",
        },
        // One list of 80,000 scalars named 200,000 times: 16 billion values from 760 KB.
        Bomb {
            file: "aliases.yaml",
            text: format!(
                "Resources:\n  A: &a [{}x]\n  B: [{}*a]\n",
                "x,".repeat(80_000),
                "*a,".repeat(200_000)
            ),
            says: "aliases repeat what they name",
        },
        Bomb {
            file: "deep.yaml",
            text: format!("Resources: {}", nested("[", 400_000, "]")),
            says: "brackets nested more than 128 deep",
        },
        Bomb {
            file: "deep.tf",
            text: format!("locals {{ x = {} }}", nested("(", 100_000, ")")),
            says: "invalid nesting depth",
        },
        // 4 MB of HCL took 374 MB as a list of ones, 354 MB as empty blocks (issue 41).
        Bomb {
            file: "ones.tf",
            text: format!("x = [{}1]", "1,".repeat((4 << 20) / 2 - 4)),
            says: "tokens by here; keyplan reads schemas, not data",
        },
        Bomb {
            file: "blocks.tf",
            text: "a {}\n".repeat((4 << 20) / 5),
            says: "tokens by here; keyplan reads schemas, not data",
        },
        Bomb {
            file: "deep.json",
            text: nested("[", 1_000_000, "]"),
            says: "recursion limit exceeded",
        },
        // 32 MB of empty objects took 2 GB as a tree, of zeros 588 MB (issue 41).
        Bomb {
            file: "objects.json",
            text: format!("[{}{{}}]", "{},".repeat((32 << 20) / 3 - 1)),
            says: "values by here (an object or list counts",
        },
        Bomb {
            file: "zeros.json",
            text: format!("[{}0]", "0,".repeat((32 << 20) / 2 - 2)),
            says: "values by here (an object or list counts",
        },
        Bomb {
            file: "number.json",
            text: format!(
                "{{\"ModelName\": \"m\", \"DataModel\": 1{}}}",
                "0".repeat(30 << 20)
            ),
            says: "number.json",
        },
    ]
}

/// `keyplan ARGS` under the address-space cap: its output and its peak resident memory in MB.
fn capped_keyplan(dir: &Path, args: &[&str]) -> (Output, u64) {
    let peak_file = dir.join("peak-kb");
    let output = Command::new("/usr/bin/time")
        .arg("-f")
        .arg("%M")
        .arg("-o")
        .arg(&peak_file)
        .args(["prlimit", &format!("--as={}", ADDRESS_SPACE_MB << 20), "--"])
        .arg(env!("CARGO_BIN_EXE_keyplan"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("GNU time and prlimit run keyplan");
    let peak_kb: u64 = std::fs::read_to_string(&peak_file)
        .ok()
        .and_then(|text| text.lines().last()?.trim().parse().ok())
        .unwrap_or_else(|| panic!("no peak memory from GNU time: {output:?}"));
    (output, peak_kb / 1024)
}

#[test]
fn keyplan_import_refuses_every_kind_of_bomb_within_bounded_memory() {
    let dir = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    for bomb in bombs() {
        let path = dir.path().join(bomb.file);
        std::fs::write(&path, &bomb.text).unwrap();
        let out = dir.path().join("out.keyplan.json");
        let (output, peak_mb) = capped_keyplan(
            dir.path(),
            &[
                "import",
                path.to_str().unwrap(),
                "-o",
                out.to_str().unwrap(),
            ],
        );
        let stderr = String::from_utf8_lossy(&output.stderr);
        println!(
            "{}: {} bytes, peak {peak_mb} MB, {:?}: {}",
            bomb.file,
            bomb.text.len(),
            output.status,
            stderr
                .lines()
                .last()
                .unwrap_or("")
                .chars()
                .take(160)
                .collect::<String>()
        );
        if output.status.code() != Some(2) || !stderr.contains(bomb.says) || peak_mb > PEAK_MB {
            failures.push(format!(
                "{}: {:?}, peak {peak_mb} MB (at most {PEAK_MB}), stderr: {}",
                bomb.file,
                output.status,
                stderr.chars().take(400).collect::<String>()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A child process killed when dropped, pass or fail.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// One HTTP/1.1 request to `address`: the status and the body.
fn request(address: &str, method: &str, path: &str, body: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(address)
        .unwrap_or_else(|e| panic!("{method} {path}: the server is gone: {e}"));
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut answer = String::new();
    stream
        .read_to_string(&mut answer)
        .unwrap_or_else(|e| panic!("{method} {path}: no answer: {e}"));
    let status = answer
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or_else(|| panic!("{method} {path}: no status in {answer:?}"));
    let body = answer
        .split_once("\r\n\r\n")
        .map_or("", |(_, body)| body)
        .to_string();
    (status, body)
}

/// `keyplan serve` under the address-space cap, with `envs`, on a port of its own: the
/// running server (with its stand-in dist folder) and its address.
fn capped_serve(envs: &[(&str, String)]) -> (Running, tempfile::TempDir, String) {
    let dist = tempfile::tempdir().unwrap();
    std::fs::write(dist.path().join("index.html"), "<!doctype html>").unwrap();
    let mut child = Command::new("prlimit")
        .arg(format!("--as={}", ADDRESS_SPACE_MB << 20))
        .arg("--")
        .arg(env!("CARGO_BIN_EXE_keyplan"))
        .args(["serve", "--host", "127.0.0.1", "--port", "0", "--dist"])
        .arg(dist.path())
        .envs(envs.iter().map(|(name, value)| (name, value)))
        .stdout(Stdio::piped())
        .spawn()
        .expect("prlimit runs keyplan serve");
    let stdout = child.stdout.take().unwrap();
    let server = Running(child);
    // The first line is "keyplan serving <dist> on http://<address>".
    let mut line = String::new();
    BufReader::new(stdout).read_line(&mut line).unwrap();
    let address = line
        .trim()
        .rsplit_once(" on http://")
        .map(|(_, address)| address.to_string())
        .unwrap_or_else(|| panic!("unexpected first line from keyplan serve: {line:?}"));
    (server, dist, address)
}

#[test]
fn keyplan_serve_answers_a_bomb_with_a_400_and_then_the_next_request() {
    let (server, _dist, address) = capped_serve(&[]);
    // The server takes bodies of at most 2 MB: the bombs that fit.
    for bomb in bombs().into_iter().filter(|b| b.text.len() < 1 << 20) {
        let body = serde_json::json!({ "name": bomb.file, "text": bomb.text }).to_string();
        let (status, answer) = request(&address, "POST", "/api/import", &body);
        println!(
            "{}: {status} {}",
            bomb.file,
            answer.chars().take(160).collect::<String>()
        );
        assert_eq!(status, 400, "{}: {answer}", bomb.file);
        assert!(answer.contains(bomb.says), "{}: {answer}", bomb.file);
        let (status, health) = request(&address, "GET", "/api/health", "");
        assert_eq!(status, 200, "after {}: {health}", bomb.file);
    }
    drop(server);
}

/// A NoSQL Workbench model of one table whose sample items fill `bytes` of text.
fn workbench_model(bytes: usize) -> String {
    let key = |name: &str| serde_json::json!({ "AttributeName": name, "AttributeType": "S" });
    let mut items = Vec::new();
    let mut text_len = 0;
    while text_len < bytes {
        let n = items.len();
        let item = serde_json::json!({ "PK": { "S": format!("C#{n}") }, "SK": { "S": format!("O#{n}") }, "total": { "N": "1" } });
        text_len += item.to_string().len() + 1;
        items.push(item);
    }
    serde_json::json!({
        "ModelName": "orders",
        "DataModel": [{
            "TableName": "orders",
            "KeyAttributes": { "PartitionKey": key("PK"), "SortKey": key("SK") },
            "NonKeyAttributes": [],
            "TableData": items,
        }],
    })
    .to_string()
}

// Issue 41, "no request may abort the server": the budgets let through a model as large as a
// body may be, whose import took 195 MB at its peak; given a child of 128 MiB it must end that child
// only, with a message saying so, and the server answers the next import.
#[test]
fn keyplan_serve_answers_an_import_that_exhausts_its_child_with_a_413_and_then_the_next_import() {
    let limit: u64 = 128 << 20;
    let (server, _dist, address) =
        capped_serve(&[("KEYPLAN_IMPORT_CHILD_MAX_BYTES", limit.to_string())]);
    let large = workbench_model(1_400_000);
    let body = serde_json::json!({ "name": "large.json", "text": large }).to_string();
    assert!(
        body.len() < 2 << 20,
        "{} bytes: over the body limit",
        body.len()
    );
    let (status, answer) = request(&address, "POST", "/api/import", &body);
    println!(
        "{} bytes: {status} {}",
        large.len(),
        answer.chars().take(200).collect::<String>()
    );
    assert_eq!(
        status,
        413,
        "{}",
        answer.chars().take(400).collect::<String>()
    );
    assert!(
        answer.contains("the import of large.json ran out of its 128.0 MB of memory"),
        "{answer}"
    );
    let small = workbench_model(2_000);
    let body = serde_json::json!({ "name": "small.json", "text": small }).to_string();
    let (status, answer) = request(&address, "POST", "/api/import", &body);
    assert_eq!(status, 200, "{answer}");
    assert!(answer.contains("a NoSQL Workbench model"), "{answer}");
    drop(server);
}

/// A design file of 32 MB of empty sample items: `keyplan check` took 463 MB to read it
/// (issue 41); design files have no size bound, so twice the file took twice that.
#[test]
fn keyplan_check_refuses_a_design_of_millions_of_sample_items_within_bounded_memory() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("items.keyplan.json");
    let n = (32 << 20) / 3;
    std::fs::write(
        &path,
        format!(
            "{{\"version\":1,\"name\":\"x\",\"samples\":{{\"t\":[{}{{}}]}}}}",
            "{},".repeat(n)
        ),
    )
    .unwrap();
    let (output, peak_mb) = capped_keyplan(dir.path(), &["check", path.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    println!("peak {peak_mb} MB, {:?}: {stderr}", output.status);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("values by here"), "{stderr}");
    assert!(peak_mb <= PEAK_MB, "peak {peak_mb} MB (at most {PEAK_MB})");
}

/// A share link of a sample item holding 3.5 million NULLs, a byte each on the wire: 5,846
/// characters that `keyplan link --decode` unpacked into 520 MB of values (issue 41).
#[test]
fn keyplan_link_decode_refuses_a_link_of_millions_of_values_within_bounded_memory() {
    use keyplan_core::item::AttributeValue;
    let mut design = keyplan_core::model::Design::new("nulls");
    let item = [(
        "nulls".to_string(),
        AttributeValue::L(vec![AttributeValue::Null(true); 3_500_000]),
    )]
    .into_iter()
    .collect();
    design.samples.insert("t".to_string(), vec![item]);
    let link = keyplan_core::share::encode(&design).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let (output, peak_mb) = capped_keyplan(dir.path(), &["link", "--decode", &link]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    println!(
        "{} characters, peak {peak_mb} MB, {:?}: {stderr}",
        link.len(),
        output.status
    );
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("values: refused"), "{stderr}");
    assert!(peak_mb <= PEAK_MB, "peak {peak_mb} MB (at most {PEAK_MB})");
}
