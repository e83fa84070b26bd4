//! What an operator can rely on (issue 41, item 8): an engine's error text reaches the terminal
//! with its control characters shown by name; API answers are never stored by a browser or a proxy;
//! a server listening beyond this machine says the Host check is not access control; with
//! `--allow-aws` the Region comes from `--region` or the environment, never from the instance
//! metadata service; and no log level prints an access key id, secret or session token.
#![allow(clippy::unwrap_used)]

mod app_support;
mod run_support;

use std::io::{BufRead, BufReader, Read};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use axum::http::{HeaderMap, header};
use axum::response::IntoResponse;

const EXAMPLE: &str = "examples/order-management.keyplan.json";

fn keyplan() -> tokio::process::Command {
    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_keyplan"));
    command
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .env_remove("KEYPLAN_ENGINE")
        .env_remove("KEYPLAN_ENDPOINT")
        .env_remove("RUST_LOG");
    for name in [
        "AWS_REGION",
        "AWS_DEFAULT_REGION",
        "AWS_PROFILE",
        "AWS_ACCESS_KEY_ID",
        "AWS_SECRET_ACCESS_KEY",
        "AWS_SESSION_TOKEN",
        "AWS_ENDPOINT_URL",
    ] {
        command.env_remove(name);
    }
    command
}

/// A fake DynamoDB on a loopback port that answers ListTables with no table and every other
/// request with a ValidationException whose message is `message`; it counts the requests.
async fn fake_engine(message: &'static str) -> (String, Arc<AtomicUsize>) {
    let requests = Arc::new(AtomicUsize::new(0));
    let counted = requests.clone();
    let handler = move |headers: HeaderMap| {
        let counted = counted.clone();
        async move {
            counted.fetch_add(1, Ordering::SeqCst);
            let target = headers
                .get("x-amz-target")
                .and_then(|v| v.to_str().ok())
                .unwrap_or("");
            let (status, body) = if target.ends_with("ListTables") {
                (200, r#"{"TableNames":[]}"#.to_string())
            } else {
                let error = serde_json::json!({
                    "__type": "com.amazonaws.dynamodb.v20120810#ValidationException",
                    "message": message,
                });
                (400, error.to_string())
            };
            (
                axum::http::StatusCode::from_u16(status).unwrap(),
                [(header::CONTENT_TYPE, "application/x-amz-json-1.0")],
                body,
            )
                .into_response()
        }
    };
    let url = run_support::serve_fake(axum::Router::new().fallback(handler)).await;
    (url, requests)
}

// issue 41: an engine's error text was printed raw, so an engine could recolour the terminal,
// move its cursor or rewrite the lines above.
#[tokio::test]
async fn an_engines_error_text_is_printed_with_its_control_characters_escaped() {
    let (url, _) = fake_engine("\u{1b}[2J\u{1b}[31mbad\u{1b}[0m\r\nforged line\u{7}\u{202e}").await;
    let out = keyplan()
        .args(["run", EXAMPLE, "--endpoint", &url])
        .output()
        .await
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let printed = format!("{}{stderr}", String::from_utf8_lossy(&out.stdout));
    assert!(
        stderr.contains(
            r"ValidationException: U+001B[2JU+001B[31mbadU+001B[0m\r\nforged lineU+0007U+202E"
        ),
        "{stderr}"
    );
    for raw in ['\u{1b}', '\r', '\u{7}', '\u{202e}'] {
        assert!(!printed.contains(raw), "{raw:?} printed raw: {printed:?}");
    }
}

// issue 41: API answers carried no Cache-Control, so a shared cache could keep a design.
#[tokio::test]
async fn api_answers_are_never_stored_and_the_apps_files_keep_their_caching() {
    let (_dir, state) = app_support::state();
    for uri in ["/api/health", "/api/no-such-thing"] {
        let answer = app_support::send(&state, app_support::get(uri)).await;
        assert_eq!(answer.headers[header::CACHE_CONTROL], "no-store", "{uri}");
    }
    let refused =
        app_support::send(&state, app_support::post("/api/runs", "text/plain", "x")).await;
    assert_eq!(refused.headers[header::CACHE_CONTROL], "no-store");
    let index = app_support::send(&state, app_support::get("/")).await;
    assert_eq!(index.headers[header::CACHE_CONTROL], "no-cache");
}

/// What `keyplan serve --host HOST` says on stderr up to the line that says it is serving.
fn serve_warnings(host: &str) -> String {
    let dist = tempfile::tempdir().unwrap();
    std::fs::write(dist.path().join("index.html"), "<!doctype html>").unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_keyplan"))
        .args(["serve", "--host", host, "--port", "0", "--dist"])
        .arg(dist.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.starts_with("keyplan serving"), "{first}");
    // Stopped by its id; what it printed before serving is all in the pipe.
    child.kill().unwrap();
    child.wait().unwrap();
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    stderr
}

#[test]
fn serving_beyond_loopback_warns_that_the_host_check_is_not_access_control() {
    let warned = serve_warnings("0.0.0.0");
    assert!(
        warned.contains("warning: listening on 0.0.0.0, which other machines can reach: the Host check (421) only stops DNS rebinding, it is not access control"),
        "{warned}"
    );
    assert_eq!(serve_warnings("127.0.0.1"), "");
}

// issue 41: with no Region named, the SDK asked the instance metadata service for one.
#[tokio::test]
async fn aws_without_a_region_is_refused_before_any_request() {
    let (url, requests) = fake_engine("unused").await;
    let home = tempfile::tempdir().unwrap();
    let out = keyplan()
        .args(["run", EXAMPLE, "--endpoint", "aws", "--allow-aws"])
        .env("HOME", home.path())
        .env("AWS_ENDPOINT_URL", &url)
        // Were it asked, the metadata service would be this fake too, and counted.
        .env("AWS_EC2_METADATA_SERVICE_ENDPOINT", &url)
        .env("AWS_ACCESS_KEY_ID", "AKIAKEYPLANFAKE00041")
        .env("AWS_SECRET_ACCESS_KEY", "keyplan-fake-secret")
        .output()
        .await
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("`--endpoint aws` needs a Region: give `--region` (e.g. `--region us-east-1`) or set AWS_REGION"),
        "{stderr}"
    );
    assert_eq!(requests.load(Ordering::SeqCst), 0);
}

// issue 41: at debug and trace level the SDK's crates printed the signed request and the
// credentials it resolved.
#[tokio::test]
async fn no_log_level_prints_the_credentials() {
    let (_stop, _engine, url) = run_support::dynoxide_endpoint().await;
    let home = tempfile::tempdir().unwrap();
    let secrets = [
        "AKIAKEYPLANFAKE00041",
        "keyplanFakeSecretAccessKey0041",
        "FwoKeyplanFakeSessionToken0041",
    ];
    let out = keyplan()
        .args([
            "import",
            "--all",
            "--endpoint",
            "aws",
            "--allow-aws",
            "-o",
            "-",
        ])
        .env("HOME", home.path())
        .env("AWS_CONFIG_FILE", home.path().join("config"))
        .env(
            "AWS_SHARED_CREDENTIALS_FILE",
            home.path().join("credentials"),
        )
        .env("AWS_REGION", "us-east-1")
        .env("AWS_ENDPOINT_URL", &url)
        .env("AWS_ACCESS_KEY_ID", secrets[0])
        .env("AWS_SECRET_ACCESS_KEY", secrets[1])
        .env("AWS_SESSION_TOKEN", secrets[2])
        .env("RUST_LOG", "trace")
        .output()
        .await
        .unwrap();
    let printed = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    // The import reached the engine, which has no table, and the log is at trace level.
    assert!(printed.contains("engine `aws` has no tables"), "{printed}");
    assert!(printed.contains("TRACE"), "{printed}");
    for secret in secrets {
        assert!(!printed.contains(secret), "{secret} is in the log");
    }
}
