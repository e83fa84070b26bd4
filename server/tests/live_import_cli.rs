//! `keyplan import --endpoint URL --table T` (issue 17) as a user runs it, on a moto server the
//! test starts and fills: the design file it writes, what it prints, a sample that never reads
//! more than `--sample`, and clear errors for a missing table and an engine that is not there.
#![allow(clippy::unwrap_used)]

mod run_support;

use std::process::Command;

use run_support::*;

/// `keyplan import --endpoint ENDPOINT --table TABLE` and `more` arguments: its exit code and
/// stderr.
fn import(endpoint: &str, table: &str, more: &[&str]) -> (i32, String) {
    let mut args = vec!["import", "--endpoint", endpoint, "--table", table];
    args.extend(more);
    let (code, _, stderr) = keyplan(&args);
    (code, stderr)
}

/// The order example's `orders` table on moto with 100 customers' items.
async fn orders_on(moto: &Moto) -> (keyplan_server::runner::tables::TableGuard, String) {
    let engine = keyplan_server::engine::Engine::endpoint("moto", &moto.url);
    let (_, mut design, _) = examples(None).remove(0);
    design.tables.retain(|t| t.name == "orders");
    design.entities.retain(|e| e.table == "orders");
    design.patterns.clear();
    let counts = [("Customer".to_string(), 100)].into_iter().collect();
    let (guard, names) = load_design(&engine, &design, &counts).await;
    (guard, names["orders"].clone())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_on_an_endpoint_imports_as_a_design_with_its_entities_and_volumes() {
    let Some((moto, _)) = start_moto().await else {
        return;
    };
    let (_guard, table) = orders_on(&moto).await;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("orders.keyplan.json");
    let (code, stderr) = import(
        &moto.url,
        &table,
        &["--sample", "50", "-o", out.to_str().unwrap()],
    );
    assert_eq!(code, 0, "{stderr}");
    // The scan stops at the sample, however big the table.
    assert!(
        stderr.contains(&format!(
            "read table {table} from engine `endpoint`: 50 items"
        )),
        "{stderr}"
    );
    assert!(stderr.contains("50 of its about"), "{stderr}");
    assert!(stderr.contains("wrote "), "{stderr}");
    let design = keyplan_core::file::parse(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(design.tables.len(), 1);
    assert_eq!(design.tables[0].gsis.len(), 3, "{:?}", design.tables[0]);
    let sampled: u64 = design
        .entities
        .iter()
        .filter_map(|e| e.volume.map(|v| v.sampled))
        .sum();
    assert!(sampled <= 50, "{sampled}");
    assert!(design.entities.len() >= 2, "{:?}", design.entities);
    // The items are someone's data: they stay out of the file unless asked for.
    assert!(design.samples.is_empty());
    // And the design checks: the file is a keyplan design like any other.
    let (code, stdout, stderr) = keyplan(&["check", out.to_str().unwrap()]);
    assert!(code == 0 || code == 1, "{stdout}\n{stderr}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_that_does_not_exist_and_an_engine_that_is_not_there_say_so() {
    let Some((moto, _)) = start_moto().await else {
        return;
    };
    let (code, stderr) = import(&moto.url, "nope", &["-o", "-"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("error: engine `endpoint` has no table `nope`"),
        "{stderr}"
    );
    let (code, stderr) = import("http://127.0.0.1:1", "orders", &["-o", "-"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("error: cannot reach engine `endpoint` (http://127.0.0.1:1) within 5 s"),
        "{stderr}"
    );
    // The embedded engine is empty in a new process: the message says where to look instead.
    let (code, _, stderr) = keyplan(&["import", "--table", "orders", "-o", "-"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("--endpoint URL"), "{stderr}");
    // A sample above the bound is refused before anything is read.
    let (code, stderr) = import(&moto.url, "t", &["--sample", "100001", "-o", "-"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("100001 is not in 1..=100000"), "{stderr}");
}

/// Makes moto check every request from now on, after creating an IAM user allowed only
/// `dynamodb:ListTables`; returns the user's access key id and secret. With boto3 from the
/// workspace's Python (scripts/setup.sh), like the export tools' runs.
fn enforce_iam_with_a_lister(moto: &Moto) -> (String, String) {
    let python =
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../.tools/venv/bin/python");
    let script = r#"
import json, sys, urllib.request
import boto3
url = sys.argv[1]
kw = dict(endpoint_url=url, region_name="us-east-1", aws_access_key_id="setup", aws_secret_access_key="setup")
iam = boto3.client("iam", **kw)
iam.create_user(UserName="lister")
iam.put_user_policy(UserName="lister", PolicyName="list-only", PolicyDocument=json.dumps({
    "Version": "2012-10-17",
    "Statement": [{"Effect": "Allow", "Action": ["dynamodb:ListTables"], "Resource": "*"}],
}))
key = iam.create_access_key(UserName="lister")["AccessKey"]
urllib.request.urlopen(urllib.request.Request(url + "/moto-api/reset-auth", data=b"0", method="POST", headers={"Content-Type": "application/json"}))
print(key["AccessKeyId"], key["SecretAccessKey"])
"#;
    let out = Command::new(python)
        .args(["-c", script, &moto.url])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let (id, secret) = text.trim().split_once(' ').unwrap();
    (id.to_string(), secret.to_string())
}

// issue 17: "missing permissions give a clear message" with IAM as moto enforces it: an
// identity allowed to list tables but not to describe one is told which action was refused,
// in the engine's own words; keyplan's dummy key on a checking engine is told that too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn missing_permissions_say_which_action_was_refused() {
    let Some((moto, _)) = start_moto().await else {
        return;
    };
    let (_guard, table) = orders_on(&moto).await;
    let (id, secret) = enforce_iam_with_a_lister(&moto);
    let out = Command::new(env!("CARGO_BIN_EXE_keyplan"))
        .args([
            "import",
            "--endpoint",
            "aws",
            "--allow-aws",
            "--table",
            &table,
            "-o",
            "-",
        ])
        .env_remove("KEYPLAN_ENGINE")
        .env_remove("KEYPLAN_ENDPOINT")
        .env_remove("AWS_PROFILE")
        // The SDK's standard chain sends "Amazon DynamoDB" to moto (AWS_ENDPOINT_URL).
        .env("AWS_ENDPOINT_URL", &moto.url)
        .env("AWS_ACCESS_KEY_ID", &id)
        .env("AWS_SECRET_ACCESS_KEY", &secret)
        .env("AWS_REGION", "us-east-1")
        .env("AWS_EC2_METADATA_DISABLED", "true")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "error: engine `aws` does not allow keyplan's identity to describe table {table}"
        )),
        "{stderr}"
    );
    assert!(
        stderr.contains("is not authorized to perform: dynamodb:DescribeTable"),
        "{stderr}"
    );
    let (code, stderr) = import(&moto.url, &table, &["-o", "-"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("InvalidClientTokenId"), "{stderr}");
    assert!(
        stderr.contains("the dummy access key `keyplan`"),
        "{stderr}"
    );
}
