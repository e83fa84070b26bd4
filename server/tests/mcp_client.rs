//! keyplan's MCP server (issue 39) driven by a real MCP client, the official Python SDK's
//! (`mcp`, installed into .tools/venv by scripts/setup.sh): `keyplan mcp` over stdio and
//! `keyplan serve`'s `POST /mcp` over streamable HTTP. Each tool is called on the order
//! example and on broken input, and each answer compared with what the `keyplan` command of
//! the same name prints for the same input. The client is `mcp_support/client.py`; the calls
//! and every judgement are here.
#![allow(clippy::unwrap_used)]

mod run_support;

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use serde_json::{Value, json};

use run_support::{keyplan, repo, tool};

const ORDER: &str = "examples/order-management.keyplan.json";
const OTHER: &str = "examples/ecommerce-orders.keyplan.json";
const BROKEN: &str =
    r#"{"version": 1, "name": "broken", "tables": [], "entities": [{"name": 5}], "patterns": []}"#;

/// The venv's Python when it has the MCP SDK, or `None` after saying the test is skipped
/// (a failure under `KEYPLAN_REQUIRE_TOOLS=1`).
fn python() -> Option<PathBuf> {
    let python = tool(".tools/venv/bin/python")?;
    let has_sdk = Command::new(&python)
        .args(["-c", "import mcp"])
        .status()
        .is_ok_and(|s| s.success());
    if has_sdk {
        return Some(python);
    }
    assert!(
        std::env::var("KEYPLAN_REQUIRE_TOOLS").as_deref() != Ok("1"),
        "the Python package `mcp` is missing from .tools/venv: run scripts/setup.sh"
    );
    eprintln!("skipped: the Python package `mcp` is missing, run scripts/setup.sh");
    None
}

fn design(path: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(repo().join(path)).unwrap()).unwrap()
}

/// Runs the SDK's client over `transport` (`stdio` with the binary, `http` with a URL) with
/// these calls: the tools, the resources and each call's answer.
fn drive(python: &Path, transport: &str, target: &str, calls: &[Value]) -> Value {
    let mut child = Command::new(python)
        .arg(repo().join("server/tests/mcp_support/client.py"))
        .args([transport, target])
        .current_dir(repo())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(serde_json::to_string(calls).unwrap().as_bytes())
        .unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "the client failed: {stderr}");
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {stderr}"))
}

/// `keyplan ARGS`, which must exit `code`: its stdout.
fn cli(args: &[&str], code: i32) -> String {
    let (status, stdout, stderr) = keyplan(args);
    assert_eq!(status, code, "keyplan {args:?}: {stderr}");
    stdout
}

fn cli_json(args: &[&str], code: i32) -> Value {
    serde_json::from_str(&cli(args, code)).unwrap()
}

fn call(tool: &str, arguments: Value) -> Value {
    json!({ "tool": tool, "arguments": arguments })
}

/// The calls both transports get, inline designs only; and what the CLI says for each.
fn inline_calls() -> Vec<Value> {
    let order = design(ORDER);
    let other = design(OTHER);
    let task = std::fs::read_to_string(repo().join("tests/fixtures/electrodb/task.ts")).unwrap();
    vec![
        call("check", json!({ "design": order })),
        call(
            "explain_pattern",
            json!({ "design": order, "pattern": "Get order by ID" }),
        ),
        call(
            "cost",
            json!({ "design": order, "stored": { "Order": 1000000 } }),
        ),
        call(
            "export",
            json!({ "design": order, "format": "cloudformation-yaml" }),
        ),
        call("import", json!({ "text": task })),
        call("diff", json!({ "old": order, "new": other })),
        call(
            "migration_plan",
            json!({ "old": order, "new": other, "items": { "Order": 30000 } }),
        ),
        call("run", json!({ "design": order })),
        // Broken input: each answer says what is wrong and where.
        call(
            "check",
            json!({ "design": serde_json::from_str::<Value>(BROKEN).unwrap() }),
        ),
        call(
            "explain_pattern",
            json!({ "design": order, "pattern": "Get order by colour" }),
        ),
        call("export", json!({ "design": order, "format": "cobol" })),
        call("import", json!({ "text": "neither JSON nor a model" })),
        call(
            "cost",
            json!({ "design": order, "counts": { "Invoice": 3 } }),
        ),
        call("check", json!({})),
        // Arguments that do not fit the tool's schema, and a tool that does not exist: errors
        // of the protocol.
        call("explain_pattern", json!({ "design": order, "pattern": 5 })),
        call("frobnicate", json!({ "design": order })),
        // issue 37: the design's keys proposed and proven, as `keyplan design --json`.
        call("propose", json!({ "design": order })),
        call("propose", json!({ "design": order, "alternatives": 0 })),
    ]
}

/// The answers to [`inline_calls`], compared with the CLI's; `label` is what the reports name
/// an inline design by.
fn compare_with_the_cli(answers: &[Value], temp: &Path) {
    let ok = |i: usize| {
        let answer = &answers[i];
        assert_eq!(answer["is_error"], json!(false), "call {i}: {answer}");
        assert!(
            answer["text"].as_str().is_some_and(|t| !t.is_empty()),
            "{answer}"
        );
        answer["structured"].clone()
    };
    // check: `keyplan check --json`'s report of the design, the file named as the argument.
    let mut expected = cli_json(&["check", "--json", ORDER], 1)["designs"][0].clone();
    expected["file"] = json!("design");
    assert_eq!(ok(0), expected);
    // explain_pattern: check's row for the pattern, and the index that would serve it.
    let explained = ok(1);
    let row = expected["patterns"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "Get order by ID")
        .unwrap();
    assert_eq!(&explained["pattern"], row);
    assert_eq!(explained["pattern"]["operation"], "Scan");
    assert!(
        explained["suggestion"]["partition"]
            .as_str()
            .unwrap()
            .contains("{orderId}"),
        "{explained}"
    );
    // cost: `keyplan cost --json` with the same volume.
    assert_eq!(
        ok(2),
        cli_json(&["cost", "--json", ORDER, "--stored", "Order=1000000"], 0)
    );
    // export: `keyplan export --to`'s text.
    assert_eq!(
        ok(3)["text"],
        json!(cli(&["export", ORDER, "--to", "cloudformation-yaml"], 0))
    );
    // import: the design `keyplan import` writes.
    let imported = ok(4);
    let written = cli(
        &["import", "tests/fixtures/electrodb/task.ts", "-o", "-"],
        0,
    );
    assert_eq!(
        imported["design"],
        serde_json::from_str::<Value>(&written).unwrap()
    );
    assert_eq!(imported["format"], "electrodb");
    // diff and migration_plan: `keyplan diff --json` and `keyplan migrate --json`.
    assert_eq!(ok(5), cli_json(&["diff", "--json", ORDER, OTHER], 0));
    assert_eq!(
        ok(6),
        cli_json(
            &["migrate", "--json", ORDER, OTHER, "--items", "Order=30000"],
            0
        )
    );
    // run: the same pattern by pattern as `keyplan run --json` (ids, names and times differ).
    let ran = ok(7);
    let lines = cli(&["run", "--json", ORDER], 0);
    let outcome = |events: Vec<Value>| -> Vec<Value> {
        events
            .into_iter()
            .filter_map(|e| match e["type"].as_str() {
                Some("pattern") => Some(json!([e["pattern"], e["status"], e["actual_items"]])),
                Some("done") => Some(json!(["done", e["ok"], e["passed"], e["items_written"]])),
                _ => None,
            })
            .collect()
    };
    let from_cli: Vec<Value> = lines
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        outcome(ran["events"].as_array().unwrap().clone()),
        outcome(from_cli)
    );
    assert!(
        ran["events"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["type"] == "cleanup")
    );

    // Broken input: a tool result with isError, saying what and where.
    let error = |i: usize| {
        let answer = &answers[i];
        assert_eq!(answer["is_error"], json!(true), "call {i}: {answer}");
        (
            answer["structured"]["error"].as_str().unwrap().to_string(),
            answer["structured"]["where"].clone(),
        )
    };
    let (message, at) = error(8);
    assert_eq!(at, json!("design.entities[0].name"));
    let broken = temp.join("broken.keyplan.json");
    std::fs::write(&broken, BROKEN).unwrap();
    let (_, _, stderr) = keyplan(&["check", broken.to_str().unwrap()]);
    // The CLI names the file's line and column, the tool the JSON path; core's words are
    // the same.
    let words = stderr.rsplit(": ").next().unwrap().trim();
    assert!(message.ends_with(words), "{message} / {stderr}");
    let (message, at) = error(9);
    assert_eq!(at, json!("pattern"));
    assert!(message.contains("Get order by ID"), "{message}");
    let (message, at) = error(10);
    assert_eq!(at, json!("format"));
    assert!(message.contains("cloudformation-yaml"), "{message}");
    let (message, at) = error(11);
    assert_eq!(at, json!("text"));
    assert!(message.contains("not a format keyplan reads"), "{message}");
    let (message, _) = error(12);
    let (_, _, stderr) = keyplan(&["cost", ORDER, "--count", "Invoice=3"]);
    assert!(stderr.contains(&message), "{message} / {stderr}");
    let (message, at) = error(13);
    assert_eq!(at, json!("design"));
    assert!(message.contains("`design` is missing"), "{message}");
    // Arguments that do not fit the schema: a tool error (input validation errors go to the
    // model, so it can correct them, as the protocol now asks) naming the argument.
    assert_eq!(answers[14]["is_error"], json!(true), "{}", answers[14]);
    assert!(
        answers[14]["text"]
            .as_str()
            .unwrap()
            .contains("arguments.pattern: invalid type: integer `5`, expected a string"),
        "{}",
        answers[14]
    );
    // An unknown tool is an error of the protocol.
    assert!(answers[15]["error"]["code"].is_i64(), "{}", answers[15]);
    // propose: `keyplan design --json`, byte for byte (it holds no time).
    assert_eq!(ok(16), cli_json(&["design", "--json", ORDER], 0));
    let (message, at) = error(17);
    assert_eq!(at, json!("alternatives"));
    assert!(message.contains("0 is not in 1..=20"), "{message}");
}

/// The tools and resources every transport lists.
fn compare_the_lists(answer: &Value) {
    let mut names: Vec<&str> = answer["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "check",
            "cost",
            "diff",
            "explain_pattern",
            "export",
            "import",
            "migration_plan",
            "propose",
            "run"
        ]
    );
    let resources = &answer["resources"];
    assert_eq!(
        resources["keyplan://schema/design"]["text"],
        json!(cli(&["schema"], 0))
    );
    assert_eq!(
        resources["keyplan://examples/order-management"]["text"],
        json!(std::fs::read_to_string(repo().join(ORDER)).unwrap())
    );
    let limits: Value =
        serde_json::from_str(resources["keyplan://limits"]["text"].as_str().unwrap()).unwrap();
    assert!(
        limits
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l["name"] == "MAX_GSIS" && l["value"] == json!(20.0)),
        "{limits}"
    );
}

#[test]
fn the_stdio_server_answers_as_the_cli_does() {
    let Some(python) = python() else { return };
    let temp = tempfile::tempdir().unwrap();
    let mut calls = inline_calls();
    // Over stdio a file may be named instead: the report names it as `keyplan check` does.
    calls.push(call("check", json!({ "path": ORDER })));
    let answer = drive(&python, "stdio", env!("CARGO_BIN_EXE_keyplan"), &calls);
    compare_the_lists(&answer);
    let answers = answer["calls"].as_array().unwrap();
    compare_with_the_cli(answers, temp.path());
    assert_eq!(
        answers[18]["structured"],
        cli_json(&["check", "--json", ORDER], 1)["designs"][0]
    );
}

/// `keyplan serve` on a free port with a stand-in app, killed on drop.
struct Served {
    child: Child,
    port: u16,
    _dist: tempfile::TempDir,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve() -> Served {
    let dist = tempfile::tempdir().unwrap();
    std::fs::write(dist.path().join("index.html"), "<html></html>").unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_keyplan"))
        .args(["serve", "--port", "0", "--dist"])
        .arg(dist.path())
        .current_dir(repo())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // The first line names the address (serve's documented form); read it as it comes.
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let port = line
        .trim()
        .rsplit(':')
        .next()
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("no address in {line:?}"));
    Served {
        child,
        port,
        _dist: dist,
    }
}

/// The status line of a raw request to the server.
fn status_of(port: u16, request: &str) -> String {
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    // A server that refuses early may close before the whole body is sent.
    let _ = stream.write_all(request.as_bytes());
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    answer.lines().next().unwrap_or_default().to_string()
}

#[test]
fn the_http_server_answers_as_the_cli_does_under_the_api_rules() {
    let Some(python) = python() else { return };
    let temp = tempfile::tempdir().unwrap();
    let served = serve();
    let mut calls = inline_calls();
    // Over HTTP no file is read: a path is refused, saying so.
    calls.push(call("check", json!({ "path": ORDER })));
    let url = format!("http://127.0.0.1:{}/mcp", served.port);
    let answer = drive(&python, "http", &url, &calls);
    compare_the_lists(&answer);
    let answers = answer["calls"].as_array().unwrap();
    compare_with_the_cli(answers, temp.path());
    assert_eq!(answers[18]["is_error"], json!(true), "{}", answers[18]);
    assert_eq!(answers[18]["structured"]["where"], json!("path"));

    // The API's rules: a foreign Host (DNS rebinding) and a foreign Origin are refused, and
    // a body past the API's limit.
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
    let post = |headers: &str, length: usize| {
        format!(
            "POST /mcp HTTP/1.1\r\n{headers}Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {length}\r\nConnection: close\r\n\r\n"
        )
    };
    let port = served.port;
    assert!(status_of(port, &(post("Host: evil.example\r\n", body.len()) + body)).contains("421"),);
    assert!(
        status_of(
            port,
            &(post(
                &format!("Host: 127.0.0.1:{port}\r\nOrigin: https://evil.example\r\n"),
                body.len()
            ) + body)
        )
        .contains("403"),
    );
    let limit = keyplan_server::api::extract::BODY_LIMIT + 1;
    let status = status_of(
        port,
        &(post(&format!("Host: 127.0.0.1:{port}\r\n"), limit) + &" ".repeat(limit)),
    );
    assert!(status.contains("413"), "{status}");
}
