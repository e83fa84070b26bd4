//! The generated access code's vector search (issue 40), run: the vector-search fixture's
//! table made with its vector index on dynoxide's HTTP server (an engine with SearchVectors;
//! moto 5 has none), loaded with the run's sample, and the generated Python (boto3) and
//! TypeScript (`@aws-sdk/lib-dynamodb`, compiled by tsc) functions called with core's search
//! vector: each returns core's exact nearest items, best first, with core's scores. (The
//! generated Rust is compiled by tests/export-rust.)

mod corpus_support;
mod export_support;
mod run_support;

use std::process::Command;

use keyplan_core::export::{Target, export};
use keyplan_server::runner::plan::CheckKind;
use keyplan_server::runner::{build, load, tables};
use run_support::*;
use tokio_util::sync::CancellationToken;

/// What a generated function returned: each item's table key (`PK`, `SK` as DynamoDB JSON
/// strings) and its score.
type Hits = Vec<(String, String, f64)>;

/// The fixture on the engine at `url`, with core's search: its vector and expected hits;
/// its one table's name on the engine, which the generated modules read from `CATALOG_TABLE`.
async fn loaded_fixture() -> (
    tokio_util::sync::DropGuard,
    String,
    String,
    keyplan_core::eval::VectorRun,
) {
    let (stop, engine, url) = dynoxide_endpoint().await;
    let text = std::fs::read_to_string(repo().join("tests/export/vector-search.keyplan.json"))
        .expect("the fixture");
    let design = keyplan_core::file::parse(&text).expect("the fixture parses");
    let plan = build::plan(&design, &Default::default()).expect("the run's plan");
    let cancel = CancellationToken::new();
    let guard = tables::TableGuard::new(&engine);
    let name = keyplan_server::runner::RunId::random().table_name("catalog");
    let [table] = &plan.tables[..] else {
        panic!("the fixture has one table");
    };
    tables::create(&engine, &guard, table, &name, &cancel, &|_| {})
        .await
        .expect("the table and its vector index are made");
    guard.keep();
    let loads: Vec<(&str, &keyplan_core::Item)> = plan
        .items
        .values()
        .flat_map(|items| items.iter().map(|i| (name.as_str(), i)))
        .collect();
    load::load(&engine, &loads, &cancel, &|_, _| {})
        .await
        .expect("the sample loads");
    let search = plan
        .checks
        .iter()
        .find_map(|c| match &c.kind {
            CheckKind::Vector(v) => Some(v.search.clone()),
            _ => None,
        })
        .expect("the fixture's search is a vector check");
    (stop, url, name, search)
}

/// Each returned item is core's answer at its place: the same score (to a millionth, the
/// index's 32-bit floats), and the item is one core scores so (ties are interchangeable).
fn assert_core_answer(language: &str, got: &Hits, search: &keyplan_core::eval::VectorRun) {
    let want = search.answer();
    assert_eq!(got.len(), want.len(), "{language}: {got:?}");
    let text = |item: &keyplan_core::Item, key: &str| match item.get(key) {
        Some(keyplan_core::AttributeValue::S(s)) => s.clone(),
        other => panic!("{key} is {other:?}"),
    };
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-6 * a.abs().max(1.0);
    for (n, ((pk, sk, score), hit)) in got.iter().zip(want).enumerate() {
        assert!(
            close(*score, hit.score),
            "{language}: place {n} scores {score}, core's {}",
            hit.score
        );
        let core = search
            .ranked
            .iter()
            .find(|h| text(&h.key, "PK") == *pk && text(&h.key, "SK") == *sk)
            .unwrap_or_else(|| {
                panic!("{language}: returned {pk}/{sk}, which core has no vector of")
            });
        assert!(
            close(core.score, *score),
            "{language}: {pk} scored {score}, core's {}",
            core.score
        );
    }
}

/// The driver's one JSON line (node may warn on stderr, which follows).
fn parse_hits(output: &str) -> Hits {
    let line = output
        .lines()
        .find(|l| l.starts_with('['))
        .unwrap_or_default();
    serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {output}"))
}

const PYTHON: &str = r#"
import importlib.util, json, sys
import boto3
spec = importlib.util.spec_from_file_location("access", sys.argv[1])
access = importlib.util.module_from_spec(spec)
spec.loader.exec_module(access)
client = boto3.client("dynamodb", endpoint_url=sys.argv[2], region_name="us-east-1",
                      aws_access_key_id="test", aws_secret_access_key="test")
hits = access.similar_products(client, json.loads(sys.argv[3]))
print(json.dumps([[item["PK"], item["SK"], score] for item, score in hits]))
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_generated_python_vector_search_returns_cores_nearest_items() {
    let Some(python) = tool(".tools/venv/bin/python") else {
        return;
    };
    let (_stop, url, table, search) = loaded_fixture().await;
    let dir = tempfile::tempdir().expect("temp dir");
    let design = fixture_design();
    let module = dir.path().join("vector_access.py");
    std::fs::write(&module, export(&design, Target::Python).expect("exports")).expect("write");
    let driver = dir.path().join("driver.py");
    std::fs::write(&driver, PYTHON).expect("write");
    let query = serde_json::to_string(&search.query).expect("JSON");
    let (ok, output) = export_support::run(
        Command::new(python)
            .env("CATALOG_TABLE", &table)
            .arg(&driver)
            .arg(&module)
            .arg(&url)
            .arg(&query),
    );
    assert!(ok, "the generated Python failed:\n{output}");
    assert_core_answer("Python", &parse_hits(&output), &search);
}

const NODE: &str = r#"
const { DynamoDBClient } = require('@aws-sdk/client-dynamodb');
const access = require(process.argv[1]);
const client = access.documentClient(new DynamoDBClient({
  endpoint: process.argv[2], region: 'us-east-1',
  credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
}));
access.similarProducts(client, { queryVector: JSON.parse(process.argv[3]) }).then((hits) => {
  console.log(JSON.stringify(hits.map((h) => [h.item.PK, h.item.SK, h.score])));
}, (e) => { console.error(e); process.exit(1); });
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_generated_typescript_vector_search_returns_cores_nearest_items() {
    let Some(tsc) = tool(".tools/node_modules/.bin/tsc") else {
        return;
    };
    let (_stop, url, table, search) = loaded_fixture().await;
    // Inside .tools, so module resolution finds .tools/node_modules.
    let dir = tempfile::Builder::new()
        .prefix("tsvector-")
        .tempdir_in(repo().join(".tools"))
        .expect("temp dir in .tools");
    let design = fixture_design();
    std::fs::write(
        dir.path().join("vector.access.ts"),
        export(&design, Target::TypeScript).expect("exports"),
    )
    .expect("write");
    export_support::write_tsconfig(dir.path());
    let (ok, output) = export_support::run(
        Command::new(tsc)
            .arg("-p")
            .arg(dir.path().join("tsconfig.json")),
    );
    assert!(ok, "tsc --strict:\n{output}");
    let compiled = dir.path().join("out/vector.access.js");
    let (ok, output) = export_support::run(
        Command::new("node")
            .current_dir(dir.path())
            .env("CATALOG_TABLE", &table)
            .arg("-e")
            .arg(NODE)
            .arg(&compiled)
            .arg(&url)
            .arg(serde_json::to_string(&search.query).expect("JSON")),
    );
    assert!(ok, "the generated TypeScript failed:\n{output}");
    assert_core_answer("TypeScript", &parse_hits(&output), &search);
}

fn fixture_design() -> keyplan_core::Design {
    let text = std::fs::read_to_string(repo().join("tests/export/vector-search.keyplan.json"))
        .expect("the fixture");
    keyplan_core::file::parse(&text).expect("the fixture parses")
}

// issue 40: `keyplan export --to nosql-workbench` says on stderr what the Workbench model
// cannot hold (the vector index) instead of dropping it without a word; the model is written.
#[test]
fn the_workbench_export_says_it_leaves_the_vector_index_out() {
    let (code, stdout, stderr) = keyplan(&[
        "export",
        "tests/export/vector-search.keyplan.json",
        "--to",
        "nosql-workbench",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("\"DataModel\""), "{stdout}");
    assert!(
        stderr.contains("warning: table `catalog`: vector index `ByEmbedding`")
            && stderr.contains("NoSQL Workbench's model has no vector indexes"),
        "{stderr}"
    );
    let (code, _, stderr) = keyplan(&[
        "export",
        "tests/export/vector-search.keyplan.json",
        "--to",
        "cloudformation-json",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(!stderr.contains("warning"), "{stderr}");
}
