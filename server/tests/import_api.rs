//! `POST /api/import` through the router, without a socket (issue 15): the app hands the
//! server the OneTable and ElectroDB modules its own build cannot parse.

mod app_support;

use std::path::PathBuf;
use std::time::Duration;

use axum::http::StatusCode;
use keyplan_server::AppState;
use keyplan_server::api::import::child::{Child, Imports};
use keyplan_server::heavy::Pool;

/// `state` running each import as `keyplan serve` does: in a child process of the binary.
fn in_children(state: AppState) -> AppState {
    state.with_imports(Imports::Child(Child::new(PathBuf::from(env!(
        "CARGO_BIN_EXE_keyplan"
    )))))
}

async fn post(content_type: &str, body: String) -> (StatusCode, serde_json::Value) {
    let (_dir, state) = app_support::state();
    let state = in_children(state);
    let request = app_support::post("/api/import", content_type, body);
    let answer = app_support::send(&state, request).await;
    (answer.status, answer.json())
}

fn request(name: &str, text: &str) -> String {
    serde_json::json!({ "name": name, "text": text }).to_string()
}

#[tokio::test]
async fn an_electrodb_module_comes_back_as_a_design_file_with_its_notes() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/fixtures/electrodb/book.ts"
    ))
    .expect("the fixture");
    let (status, body) = post("application/json", request("book.ts", &text)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["format"], "electrodb");
    // What was read, as the app's toast says it, and the counts behind it (issue 15).
    assert_eq!(
        body["summary"], "an ElectroDB entity: 1 entity, 4 collections",
        "{body}"
    );
    assert_eq!(
        body["counts"],
        serde_json::json!({ "tables": 1, "entities": 1, "patterns": 8, "collections": 4 }),
        "{body}"
    );
    // The design is a design file that keyplan itself reads.
    let design = keyplan_core::file::parse(&body["design"].to_string()).expect("a design file");
    assert_eq!(design.entities[0].name, "book");
    assert_eq!(design.tables[0].gsis.len(), 3);
    let notes = body["notes"].as_array().expect("notes");
    assert!(
        notes
            .iter()
            .any(|n| n.as_str().is_some_and(|n| n.contains("4 collection(s)"))),
        "{body}"
    );
}

#[tokio::test]
async fn a_onetable_typescript_schema_imports_and_from_overrides_detection() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/fixtures/onetable/tenantSchema.ts"
    ))
    .expect("the fixture");
    let body = serde_json::json!({ "text": text, "from": "onetable" }).to_string();
    let (status, answer) = post("application/json", body).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["format"], "onetable");
    // Every format core reads can be named, CloudFormation and Terraform included.
    let body = serde_json::json!({ "text": "Resources: {}", "from": "cloudformation" }).to_string();
    let (status, answer) = post("application/json", body).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
    assert!(
        answer["error"]
            .as_str()
            .is_some_and(|e| e.starts_with("the file as cloudformation: ")),
        "{answer}"
    );
    let body = serde_json::json!({ "text": text, "from": "electrodb" }).to_string();
    let (status, answer) = post("application/json", body).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        answer["error"],
        "the file as electrodb: the module: no ElectroDB entity in it: expected `new Entity({ model, attributes, indexes })`"
    );
}

#[tokio::test]
async fn a_file_that_does_not_read_is_a_400_saying_where() {
    let (status, body) = post(
        "application/json",
        request("orders.ts", "const a = {\n  b: [1,\n};"),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    // Every format's reason, the module's with its line and column.
    let error = body["error"].as_str().unwrap_or_default();
    assert!(
        error.starts_with("orders.ts: not a format keyplan reads")
            && error.contains("(line 3, column 1: not JavaScript or TypeScript: Unexpected token)"),
        "{error}"
    );
    let (status, body) = post(
        "application/json",
        serde_json::json!({ "text": "{}", "from": "excel" }).to_string(),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        body["error"],
        "unknown format `excel`: use one of onetable, keyplan, nosql-workbench, mcp, cloudformation, terraform, electrodb, dynamodb-toolbox, dynamoose"
    );
    // Like every body the API reads: JSON only.
    let (status, body) = post("text/plain", "export const x = 1".to_string()).await;
    assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE, "{body}");
}

// Issue 41: an import's child is bounded in time like the heavy work it replaces; past the
// limit it is given up, and killed with the future that waited for it.
#[tokio::test]
async fn an_import_past_the_time_limit_is_a_503_naming_the_file() {
    let (_dir, state) = app_support::state();
    let state = in_children(state).with_heavy(Pool::new(1, 4, Duration::ZERO));
    let request = app_support::post(
        "/api/import",
        "application/json",
        request("slow.ts", "export const x = 1"),
    );
    let answer = app_support::send(&state, request).await;
    assert_eq!(answer.status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(
        answer.json()["error"],
        "the import of slow.ts took longer than the server's limit of 0 s and was given up"
    );
    assert_eq!(state.heavy.admitted(), 0);
}

// issue 36: the modules of one application, sent together, read as one design: what
// `issues.ts` imports from `types.ts` is read, and `index.ts`'s Service names the table.
#[tokio::test]
async fn several_modules_sent_together_read_as_one_design() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/fixtures/");
    let files: Vec<serde_json::Value> = ["index.ts", "issues.ts", "types.ts"]
        .iter()
        .map(|file| {
            let name = format!("electrodb/versioncontrol/{file}");
            let text = std::fs::read_to_string(format!("{root}{name}")).expect("the fixture");
            serde_json::json!({ "name": name, "text": text })
        })
        .collect();
    let body = serde_json::json!({ "files": files }).to_string();
    let (status, answer) = post("application/json", body).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["format"], "electrodb");
    assert_eq!(answer["assumed"], serde_json::json!([]), "{answer}");
    let design = keyplan_core::file::parse(&answer["design"].to_string()).expect("a design file");
    assert_eq!(design.tables[0].name, "electro");
    let issues = design.entity("issues").expect("issues");
    let ticket = issues.attribute("ticketType").expect("ticketType");
    assert_eq!(ticket.values, ["Issue", "PullRequest", ""]);
    // One file, or several: not both.
    let both = serde_json::json!({ "name": "a.ts", "text": "x", "files": files }).to_string();
    let (status, answer) = post("application/json", both).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
}
