//! `POST /api/export/{format}` through the router, without a socket (issue 5).

mod app_support;

use axum::http::{StatusCode, header};

async fn post(uri: &str, body: String) -> (StatusCode, header::HeaderMap, String) {
    let (_dir, state) = app_support::state();
    let answer = app_support::send(&state, app_support::post(uri, "application/json", body)).await;
    let text = answer.text();
    (answer.status, answer.headers, text)
}

fn seed() -> String {
    keyplan_core::examples::SOURCES[0].1.to_string()
}

#[tokio::test]
async fn an_export_comes_with_its_content_type_and_a_download_name() {
    let (status, headers, body) = post("/api/export/cloudformation-yaml", seed()).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(
        headers[header::CONTENT_TYPE],
        "application/yaml; charset=utf-8"
    );
    assert_eq!(
        headers[header::CONTENT_DISPOSITION],
        "attachment; filename=\"order-management.template.yaml\""
    );
    assert!(body.contains("AWS::DynamoDB::Table"), "{body}");
}

#[tokio::test]
async fn every_format_exports_the_seed() {
    for format in keyplan_core::export::Target::ALL {
        let (status, headers, body) = post(&format!("/api/export/{format}"), seed()).await;
        assert_eq!(status, StatusCode::OK, "{format}: {body}");
        assert_eq!(
            headers[header::CONTENT_TYPE],
            format.content_type(),
            "{format}"
        );
        assert!(!body.is_empty(), "{format}");
    }
}

#[tokio::test]
async fn a_bad_design_is_a_400_saying_where() {
    let (status, _, body) = post(
        "/api/export/terraform",
        "{\n  \"version\": 1,\n  \"name\": \"x\",\n  \"tabels\": []\n}".to_string(),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(body.contains("line 4, column 10"), "{body}");
}

#[tokio::test]
async fn an_unknown_format_is_a_404_listing_the_formats() {
    let (status, _, body) = post("/api/export/excel", seed()).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(body.contains("cloudformation-json"), "{body}");
}

/// `keyplan export FILE --to FORMAT -o OUT`, through the real binary.
#[test]
fn the_cli_writes_an_export_and_names_the_formats_on_a_typo() {
    let dir = tempfile::tempdir().expect("temp dir");
    let design = dir.path().join("seed.keyplan.json");
    std::fs::write(&design, seed()).expect("write design");
    let design = design.to_str().expect("utf-8 path");
    let out = dir.path().join("seed.tf");
    let export = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_keyplan"))
            .args(["export", design])
            .args(args)
            .output()
            .expect("keyplan runs")
    };
    let output = export(&["--to", "terraform", "-o", out.to_str().expect("utf-8 path")]);
    assert!(output.status.success());
    let text = std::fs::read_to_string(&out).expect("the export was written");
    assert!(
        text.contains("resource \"aws_dynamodb_table\" \"orders\""),
        "{text}"
    );

    let output = export(&["--to", "yaml"]);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("cloudformation-yaml"), "{stderr}");
}
