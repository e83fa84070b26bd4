//! Every export checked by the real tool (issue 5): cfn-lint on the CloudFormation JSON and
//! YAML, `tsc --strict` on all TypeScript against the real npm packages (then node loads the
//! compiled ElectroDB and OneTable models, which validate themselves), python-hcl2 on the
//! Terraform (with its attributes checked against the keys), and the generated Python run
//! against a moto server, returning for each read pattern the items core's evaluation returns.
//! (The generated Rust is compiled by the `keyplan-export-check` crate in tests/export-rust.)
//!
//! Designs: every built-in example, the kitchen-sink fixture (tests/export), and every design
//! imported from ../shared/corpus when it is there. Each tool runs once over all files. A missing tool fails the test under
//! `KEYPLAN_REQUIRE_TOOLS=1` (the README's test command) and skips it otherwise.

use std::collections::BTreeMap;
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use keyplan_core::Design;
use keyplan_core::export::{Target, export};
use run_support::{repo, tool};

mod corpus_support;
mod export_support;
mod run_support;

use export_support::{designs, run, write_all, write_tsconfig};

/// What a run of generated code on moto needs: the tool at `relative`, the Python that starts
/// moto ([`run_support::moto_command`]) and the seed; `None` when a tool is missing (each says
/// so, see [`tool`]).
fn moto_run(relative: &str) -> Option<(std::path::PathBuf, std::path::PathBuf, Seed)> {
    match (tool(relative), run_support::moto_python()) {
        (Some(tool), Some(moto)) => Some((tool, moto, Seed::new())),
        _ => None,
    }
}

#[test]
fn cfn_lint_finds_no_error_or_warning_in_any_cloudformation_export() {
    let Some(cfn_lint) = tool(".tools/venv/bin/cfn-lint") else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let mut files = write_all(dir.path(), Target::CloudFormationJson, ".template.json");
    files.extend(write_all(
        dir.path(),
        Target::CloudFormationYaml,
        ".template.yaml",
    ));
    let (ok, output) = run(Command::new(cfn_lint)
        .args(["--format", "parseable"])
        .args(files.iter().map(|(_, _, p)| p)));
    assert!(ok && output.trim().is_empty(), "cfn-lint:\n{output}");
}

// issue 40: the scaling resources the CloudFormation export writes for auto scaling
// (AWS::ApplicationAutoScaling::ScalableTarget and ScalingPolicy, a GSI's own too) and a
// replicated table's GlobalTable with its VectorIndexes, through cfn-lint: no design above has
// either (the kitchen sink's provisioned table does not scale).
#[test]
fn cfn_lint_finds_no_error_or_warning_in_scaling_resources_nor_a_global_tables_vector_indexes() {
    let Some(cfn_lint) = tool(".tools/venv/bin/cfn-lint") else {
        return;
    };
    let fixture = repo().join("tests/export/capacity.keyplan.json");
    let text = std::fs::read_to_string(&fixture).expect("the capacity fixture");
    let design = keyplan_core::file::parse(&text).expect("the capacity fixture parses");
    let dir = tempfile::tempdir().expect("temp dir");
    let mut files = Vec::new();
    for (target, suffix) in [
        (Target::CloudFormationJson, "capacity.template.json"),
        (Target::CloudFormationYaml, "capacity.template.yaml"),
    ] {
        let template = export(&design, target).expect("exports");
        for written in [
            "AWS::ApplicationAutoScaling::ScalableTarget",
            "AWS::ApplicationAutoScaling::ScalingPolicy",
            "dynamodb:index:ReadCapacityUnits",
            "AWS::DynamoDB::GlobalTable",
            "VectorIndexes",
        ] {
            assert!(template.contains(written), "{written} in\n{template}");
        }
        let path = dir.path().join(suffix);
        std::fs::write(&path, template).expect("write the template");
        files.push(path);
    }
    let (ok, output) = run(Command::new(cfn_lint)
        .args(["--format", "parseable"])
        .args(&files));
    assert!(ok && output.trim().is_empty(), "cfn-lint:\n{output}");
}

#[test]
fn every_typescript_export_passes_tsc_strict_against_the_real_packages() {
    let Some(tsc) = tool(".tools/node_modules/.bin/tsc") else {
        return;
    };
    // Inside .tools, so module resolution finds .tools/node_modules.
    let dir = tempfile::Builder::new()
        .prefix("tscheck-")
        .tempdir_in(repo().join(".tools"))
        .expect("temp dir in .tools");
    let mut n_files = 0;
    for (format, suffix) in [
        (Target::TypeScript, ".access.ts"),
        (Target::ElectroDb, ".electrodb.ts"),
        (Target::OneTable, ".onetable.ts"),
        (Target::Toolbox, ".toolbox.ts"),
        (Target::Dynamoose, ".dynamoose.ts"),
        (Target::Cdk, ".stack.ts"),
    ] {
        n_files += write_all(dir.path(), format, suffix).len();
    }
    write_tsconfig(dir.path());
    let (ok, output) = run(Command::new(tsc)
        .arg("-p")
        .arg(dir.path().join("tsconfig.json")));
    assert!(ok, "tsc --strict over {n_files} files:\n{output}");

    // ElectroDB, OneTable, DynamoDB-Toolbox and Dynamoose check a model when it is
    // constructed: load every compiled
    // schema and access module in node (the CDK app is left out: loading it synthesises).
    let compiled: Vec<PathBuf> = std::fs::read_dir(dir.path().join("out"))
        .expect("tsc wrote out/")
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            let name = p.to_string_lossy();
            name.ends_with(".electrodb.js")
                || name.ends_with(".onetable.js")
                || name.ends_with(".toolbox.js")
                || name.ends_with(".dynamoose.js")
                || name.ends_with(".access.js")
        })
        .collect();
    let (ok, output) = run(Command::new("node")
        .env("AWS_REGION", "us-east-1")
        .arg("--no-warnings")
        .arg("-e")
        // Each generated module is an application of its own: Dynamoose keeps its models in
        // one registry per instance, so each module gets a fresh instance.
        .arg(
            "for (const f of process.argv.slice(1)) { \
               for (const k of Object.keys(require.cache)) \
                 if (k.includes('/node_modules/dynamoose/')) delete require.cache[k]; \
               require(f); } console.log('loaded')",
        )
        .args(&compiled));
    assert!(
        ok && output.contains("loaded"),
        "node could not load the generated modules:\n{output}"
    );
}

#[test]
fn terraform_parses_with_python_hcl2_and_declares_exactly_the_key_attributes() {
    let Some(python) = tool(".tools/venv/bin/python") else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let files = write_all(dir.path(), Target::Terraform, ".tf");
    let (ok, output) = run(Command::new(python)
        .arg("-c")
        .arg(
            "import hcl2, json, sys\nprint(json.dumps([hcl2.load(open(f)) for f in sys.argv[1:]]))",
        )
        .args(files.iter().map(|(_, _, p)| p)));
    assert!(ok, "python-hcl2:\n{output}");
    let parsed: Vec<serde_json::Value> = serde_json::from_str(output.trim()).expect("hcl2 JSON");
    for ((name, design, _), doc) in files.iter().zip(&parsed) {
        // python-hcl2 keeps string literals and block labels with their quotes.
        let resources: Vec<&serde_json::Value> = doc["resource"]
            .as_array()
            .expect("resources")
            .iter()
            .filter_map(|r| r.get("\"aws_dynamodb_table\""))
            .flat_map(|r| r.as_object().expect("labelled").values())
            .collect();
        assert_eq!(resources.len(), design.tables.len(), "{name}");
        for (table, resource) in design.tables.iter().zip(resources) {
            let declared: Vec<(String, String)> = resource["attribute"]
                .as_array()
                .expect("attribute blocks")
                .iter()
                .map(|a| (unquote(&a["name"]), unquote(&a["type"])))
                .collect();
            let expected: Vec<(String, String)> = table
                .key_attributes()
                .iter()
                .map(|k| (k.name.clone(), format!("{:?}", k.ty)))
                .collect();
            assert_eq!(declared, expected, "{name}: {}", table.name);
            assert_eq!(
                unquote(&resource["hash_key"]),
                table.partition_key.name,
                "{name}"
            );
            assert_eq!(
                unquote(&resource["range_key"]),
                table
                    .sort_key
                    .as_ref()
                    .map(|k| k.name.clone())
                    .unwrap_or_default(),
                "{name}"
            );
        }
    }
}

/// A string as python-hcl2 gives it (`"\"PK\""`), unquoted; `""` for anything else.
fn unquote(value: &serde_json::Value) -> String {
    let text = value.as_str().unwrap_or_default();
    serde_json::from_str::<String>(text).unwrap_or_else(|_| text.to_string())
}

/// A moto server on a free loopback port, killed when dropped.
struct Moto {
    child: Child,
    port: u16,
}

impl Moto {
    fn start(moto_python: &Path) -> Moto {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let child = run_support::moto_command(moto_python, port)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("moto starts");
        let moto = Moto { child, port };
        let started = Instant::now();
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "moto did not listen on {port} within 30 s"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        moto
    }
}

impl Drop for Moto {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Numbers compared by value, so `5` and `5.0` agree.
fn normalise(value: &serde_json::Value) -> serde_json::Value {
    match value {
        serde_json::Value::Object(map) => {
            if let (1, Some(serde_json::Value::String(n))) = (map.len(), map.get("N")) {
                let number: f64 = n.parse().unwrap_or(f64::NAN);
                return serde_json::json!({ "N": format!("{number}") });
            }
            map.iter()
                .map(|(k, v)| (k.clone(), normalise(v)))
                .collect::<serde_json::Map<_, _>>()
                .into()
        }
        serde_json::Value::Array(items) => items.iter().map(normalise).collect(),
        other => other.clone(),
    }
}

const DRIVER: &str = r#"
import importlib.util, inspect, json, os, sys
from decimal import Decimal
import boto3
from boto3.dynamodb.types import TypeSerializer

module_path, tables_path, items_path, runs_path, writes_path, endpoint = sys.argv[1:7]
spec = importlib.util.spec_from_file_location("access", module_path)
access = importlib.util.module_from_spec(spec)
spec.loader.exec_module(access)
client = boto3.client("dynamodb", endpoint_url=endpoint, region_name="us-east-1",
                      aws_access_key_id="test", aws_secret_access_key="test")
tables = json.load(open(tables_path))
for table in (tables if isinstance(tables, list) else [tables]):
    client.create_table(**table)
for entry in json.load(open(items_path)):
    client.put_item(TableName=entry["table"], Item=entry["item"])
serializer = TypeSerializer()
results = {}
for run in json.load(open(runs_path)):
    fn = access.PATTERNS[run["pattern"]]
    by_norm = {name.replace("_", "").lower(): (value, kind) for name, (value, kind) in run["inputs"].items()}
    args = []
    for param in list(inspect.signature(fn).parameters)[1:]:
        key = param.rstrip("_").replace("_", "").lower()
        if key not in by_norm:
            continue
        value, kind = by_norm[key]
        args.append(Decimal(value) if kind == "N" else value)
    result = fn(client, *args)
    items = result[0] if isinstance(result, tuple) else result
    if isinstance(items, dict):
        items = [items]
    if items is None:
        items = []
    results[run["pattern"]] = [{k: serializer.serialize(v) for k, v in item.items()} for item in items]

# Writes, on fresh tables (the same definitions, names suffixed through the module's
# *_TABLE environment variables): each write pattern with sample items as its arguments.
from boto3.dynamodb.types import TypeDeserializer
deserializer = TypeDeserializer()
def plain(item):
    return {k: deserializer.deserialize(v) for k, v in item.items()}
for name in dir(access):
    if name.endswith("_TABLE") and isinstance(getattr(access, name), str):
        os.environ[name] = getattr(access, name) + "-w"
spec = importlib.util.spec_from_file_location("access_writes", module_path)
writes = importlib.util.module_from_spec(spec)
spec.loader.exec_module(writes)
for table in (tables if isinstance(tables, list) else [tables]):
    client.create_table(**dict(table, TableName=table["TableName"] + "-w"))
for call in json.load(open(writes_path)):
    args = [[plain(i) for i in a] if isinstance(a, list) else plain(a) for a in call["args"]]
    writes.PATTERNS[call["pattern"]](client, *args)
written = {}
for table in (tables if isinstance(tables, list) else [tables]):
    written[table["TableName"]] = client.scan(TableName=table["TableName"] + "-w")["Items"]
print(json.dumps({"reads": results, "writes": written}))
"#;

#[test]
fn generated_python_returns_on_moto_what_core_evaluation_returns_for_the_seed() {
    let Some((python, moto_python, seed)) = moto_run(".tools/venv/bin/python") else {
        return;
    };
    let (design, sample) = (&seed.design, &seed.sample);
    let dir = tempfile::tempdir().expect("temp dir");
    let write = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).expect("write");
        path
    };
    let code = export(design, Target::Python).expect("exports");
    // issue 40: the two reads the seed states in PartiQL are sent as their statements.
    assert_eq!(
        code.matches("client.execute_statement(").count(),
        2,
        "{code}"
    );
    let module = write("order_management_access.py", &code);
    let (tables, items, requests) = seed.write_inputs(dir.path());
    let runs_file = requests;
    // Writes: each put, update and transaction with sample items as its arguments (deletes
    // are left out); afterwards every item a put wrote must be in its table as the sample
    // generator rendered it, write-shard keys aside (their shard is drawn at write time).
    let entity_items = |entity: &str| -> Vec<&keyplan_core::Item> {
        sample
            .items
            .iter()
            .filter(|i| i.entity.as_deref() == Some(entity))
            .map(|i| &i.item)
            .collect()
    };
    let mut write_calls = Vec::new();
    let mut expected_puts: Vec<(String, keyplan_core::Item)> = Vec::new();
    for pattern in &design.patterns {
        let steps: Vec<(keyplan_core::Action, String, u32)> = match pattern.action {
            keyplan_core::Action::Transact => pattern
                .writes
                .iter()
                .map(|w| (w.action, w.entity.clone(), w.count))
                .collect(),
            keyplan_core::Action::Put | keyplan_core::Action::Update => pattern
                .entities
                .iter()
                .take(1)
                .map(|e| (pattern.action, e.clone(), 1))
                .collect(),
            _ => continue,
        };
        let mut args = Vec::new();
        for (action, entity, count) in steps {
            let items = entity_items(&entity);
            assert!(items.len() >= count as usize, "sample items of {entity}");
            let chosen: Vec<&keyplan_core::Item> = items.into_iter().take(count as usize).collect();
            if action == keyplan_core::Action::Put {
                let table = design.entity(&entity).expect("entity").table.clone();
                expected_puts.extend(chosen.iter().map(|i| (table.clone(), (*i).clone())));
            }
            match (action, pattern.action) {
                (_, keyplan_core::Action::Transact) if count > 1 => {
                    args.push(serde_json::to_value(&chosen).expect("JSON"))
                }
                // An update takes the key and the changes: the same item serves as both.
                (keyplan_core::Action::Update, keyplan_core::Action::Update) => {
                    args.push(serde_json::to_value(chosen[0]).expect("JSON"));
                    args.push(serde_json::to_value(chosen[0]).expect("JSON"));
                }
                _ => args.push(serde_json::to_value(chosen[0]).expect("JSON")),
            }
        }
        write_calls.push(serde_json::json!({ "pattern": pattern.name, "args": args }));
    }
    let writes_file = write(
        "writes.json",
        &serde_json::to_string(&write_calls).expect("JSON"),
    );
    let driver = write("driver.py", DRIVER);

    let moto = Moto::start(&moto_python);
    let (ok, output) = run(Command::new(python)
        .arg(driver)
        .arg(module)
        .arg(tables)
        .arg(items)
        .arg(runs_file)
        .arg(writes_file)
        .arg(format!("http://127.0.0.1:{}", moto.port)));
    drop(moto);
    assert!(ok, "the generated Python failed:\n{output}");
    let driver_output: serde_json::Value =
        serde_json::from_str(output.lines().last().unwrap_or_default()).expect("driver JSON");
    seed.assert_reads(&driver_output["reads"], "Python");
    let sharded: Vec<&String> = design
        .entities
        .iter()
        .flat_map(|e| e.keys.iter())
        .filter(|(_, t)| t.shard().is_some())
        .map(|(k, _)| k)
        .collect();
    let without_shards = |item: &serde_json::Value| -> serde_json::Value {
        let mut item = normalise(item);
        if let Some(map) = item.as_object_mut() {
            map.retain(|k, _| !sharded.contains(&k));
        }
        item
    };
    assert!(!expected_puts.is_empty(), "the seed has puts");
    for (table, item) in &expected_puts {
        let want = without_shards(&serde_json::to_value(item).expect("JSON"));
        let written: Vec<serde_json::Value> = driver_output["writes"][table]
            .as_array()
            .map(|items| items.iter().map(without_shards).collect())
            .unwrap_or_default();
        assert!(
            written.contains(&want),
            "the generated Python did not write {want} to {table}; it holds {written:?}"
        );
    }
}

/// The seed example with its sample data, and for every key read core's evaluation runs: the
/// inputs it picked (each with its type) and the items it returned.
struct Seed {
    design: Design,
    sample: keyplan_core::sample::SampleData,
    requests: Vec<serde_json::Value>,
    expected: BTreeMap<String, serde_json::Value>,
}

impl Seed {
    fn new() -> Seed {
        let mut design = keyplan_core::examples::get("order-management").expect("the seed example");
        // issue 16: the generated reads send their filters, whose values are inputs too; a
        // number compared, an `in` of two strings, and a paged read whose filter leaves pages
        // short.
        for (name, condition) in [
            (
                "Get order items",
                keyplan_core::model::FilterCondition::new(
                    "price",
                    keyplan_core::model::FilterOp::Gt,
                ),
            ),
            (
                "Get orders by status",
                keyplan_core::model::FilterCondition {
                    count: Some(2),
                    ..keyplan_core::model::FilterCondition::new(
                        "fulfillmentCenter",
                        keyplan_core::model::FilterOp::In,
                    )
                },
            ),
            (
                "Get customer orders",
                keyplan_core::model::FilterCondition::new(
                    "status",
                    keyplan_core::model::FilterOp::Ne,
                ),
            ),
        ] {
            let pattern = design
                .patterns
                .iter_mut()
                .find(|p| p.name == name)
                .expect("the seed has the pattern");
            pattern.filter.push(condition);
        }
        // issue 40: reads given as PartiQL statements are sent with ExecuteStatement, their
        // `?` values computed from the templates: a GetItem (a literal sort key, a consistent
        // read) and a Query of a table whose name needs quotes. Kept to what moto's PartiQL
        // gets right: moto 5 inverts `<>`, fails `>` on a number, and returns nothing for
        // begins_with with ORDER BY (the embedded engine's run covers those: dynamodb_rules.rs).
        for (name, statement) in [
            (
                "Get customer profile",
                r#"SELECT * FROM "orders" WHERE PK = ? AND SK = 'PROFILE'"#,
            ),
            (
                "Get order events",
                r#"SELECT * FROM "order-events" WHERE PK = ?"#,
            ),
        ] {
            let pattern = design
                .patterns
                .iter_mut()
                .find(|p| p.name == name)
                .expect("the seed has the pattern");
            pattern.partiql = Some(statement.to_string());
        }
        let analysis = keyplan_core::analyze(&design);
        let sample =
            keyplan_core::sample::generate(&design, &keyplan_core::sample::SampleConfig::default());
        let store = keyplan_core::eval::ItemStore::build(&design, sample.load_items());
        let runs = keyplan_core::eval::run_all(&design, &store, &analysis.verdicts);
        let mut expected = BTreeMap::new();
        let mut requests = Vec::new();
        for (pattern, run) in &runs {
            let Ok(run) = run else { continue };
            let entities = &design.pattern(pattern).expect("pattern").entities;
            let inputs: BTreeMap<&String, (String, &str)> = run
                .inputs
                .iter()
                .map(|(name, value)| {
                    let numeric = entities.iter().filter_map(|e| design.entity(e)).any(|e| {
                        e.attribute(name)
                            .is_some_and(|a| a.ty == keyplan_core::AttrType::N)
                    });
                    (name, (value.clone(), if numeric { "N" } else { "S" }))
                })
                .collect();
            requests.push(serde_json::json!({ "pattern": pattern, "inputs": inputs }));
            expected.insert(
                pattern.clone(),
                normalise(&serde_json::to_value(&run.result.items).expect("JSON")),
            );
        }
        let n_with_items = expected
            .values()
            .filter(|v| v.as_array().is_some_and(|items| !items.is_empty()))
            .count();
        assert!(
            n_with_items >= 5,
            "at least five of the seed's key reads return items: {expected:?}"
        );
        Seed {
            design,
            sample,
            requests,
            expected,
        }
    }

    /// Writes the CreateTable inputs, the sample items and the read requests into `dir`.
    fn write_inputs(&self, dir: &Path) -> (PathBuf, PathBuf, PathBuf) {
        let items: Vec<serde_json::Value> = self
            .sample
            .items
            .iter()
            .map(|i| serde_json::json!({ "table": i.table, "item": i.item }))
            .collect();
        let files = [
            (
                "tables.json",
                export(&self.design, Target::CreateTable).expect("exports"),
            ),
            ("items.json", serde_json::to_string(&items).expect("JSON")),
            (
                "runs.json",
                serde_json::to_string(&self.requests).expect("JSON"),
            ),
        ]
        .map(|(name, text)| {
            let path = dir.join(name);
            std::fs::write(&path, text).expect("write");
            path
        });
        let [tables, items, runs] = files;
        (tables, items, runs)
    }

    /// Asserts that `actual` (pattern to items in DynamoDB JSON) is what core evaluated.
    fn assert_reads(&self, actual: &serde_json::Value, language: &str) {
        for (pattern, want) in &self.expected {
            let got = normalise(&actual[pattern]);
            assert_eq!(
                &got, want,
                "pattern `{pattern}`: {language} on moto vs core's evaluation"
            );
        }
    }
}

const TS_DRIVER: &str = r#"
const fs = require('fs');
const { DynamoDBClient, CreateTableCommand, PutItemCommand } = require('@aws-sdk/client-dynamodb');
const { marshall } = require('@aws-sdk/util-dynamodb');
const [modulePath, tablesPath, itemsPath, runsPath, endpoint] = process.argv.slice(2);
const read = (path) => JSON.parse(fs.readFileSync(path, 'utf8'));
(async () => {
  const access = require(modulePath);
  const raw = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  });
  const client = access.documentClient(raw);
  const tables = read(tablesPath);
  for (const table of Array.isArray(tables) ? tables : [tables]) {
    await raw.send(new CreateTableCommand(table));
  }
  for (const entry of read(itemsPath)) {
    await raw.send(new PutItemCommand({ TableName: entry.table, Item: entry.item }));
  }
  const results = {};
  for (const run of read(runsPath)) {
    const input = {};
    for (const [name, [value, kind]] of Object.entries(run.inputs)) {
      input[name] = kind === 'N' ? Number(value) : value;
    }
    const out = await access.PATTERNS[run.pattern](client, input);
    const items = out === undefined ? [] : Array.isArray(out) ? out : Array.isArray(out.items) ? out.items : [out];
    results[run.pattern] = items.map((item) => marshall(item));
  }
  console.log(JSON.stringify(results));
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
"#;

#[test]
fn generated_typescript_returns_on_moto_what_core_evaluation_returns_for_the_seed() {
    let Some((tsc, moto_python, seed)) = moto_run(".tools/node_modules/.bin/tsc") else {
        return;
    };
    // Inside .tools, so node and tsc resolve the npm packages there.
    let dir = tempfile::Builder::new()
        .prefix("tsmoto-")
        .tempdir_in(repo().join(".tools"))
        .expect("temp dir in .tools");
    let source = dir.path().join("access.ts");
    let code = export(&seed.design, Target::TypeScript).expect("exports");
    // issue 40: the two reads the seed states in PartiQL are sent as their statements.
    assert_eq!(
        code.matches("new ExecuteStatementCommand(").count(),
        2,
        "{code}"
    );
    std::fs::write(&source, code).expect("write");
    let (ok, output) = run(Command::new(tsc)
        .current_dir(dir.path())
        .args(["--strict", "--target", "es2022", "--module", "nodenext"])
        .args([
            "--moduleResolution",
            "nodenext",
            "--types",
            "node",
            "--skipLibCheck",
        ])
        .arg("--outDir")
        .arg(dir.path())
        .arg(&source));
    assert!(ok, "tsc:\n{output}");
    let driver = dir.path().join("driver.js");
    std::fs::write(&driver, TS_DRIVER).expect("write driver");
    let (tables, items, runs) = seed.write_inputs(dir.path());

    let moto = Moto::start(&moto_python);
    let (ok, output) = run(Command::new("node")
        .arg("--no-warnings")
        .arg(&driver)
        .arg(dir.path().join("access.js"))
        .args([&tables, &items, &runs])
        .arg(format!("http://127.0.0.1:{}", moto.port)));
    drop(moto);
    assert!(ok, "the generated TypeScript failed:\n{output}");
    let actual: serde_json::Value =
        serde_json::from_str(output.lines().last().unwrap_or_default()).expect("driver JSON");
    seed.assert_reads(&actual, "TypeScript");
}

/// The tables, keys, indexes and entities of a design, as a comparable summary.
fn shape(design: &Design) -> String {
    let mut out = String::new();
    for t in &design.tables {
        out.push_str(&format!(
            "table {} pk {:?} sk {:?} billing {:?}\n",
            t.name, t.partition_key, t.sort_key, t.billing
        ));
        for g in &t.gsis {
            out.push_str(&format!(
                "  gsi {} {:?} {:?} {:?}\n",
                g.name, g.partition_key, g.sort_key, g.projection
            ));
        }
        for e in design.entities_in(&t.name) {
            out.push_str(&format!("  entity {}\n", e.name));
        }
    }
    out
}

#[test]
fn nosql_workbench_export_then_import_keeps_every_corpus_design() {
    // Workbench has no LSIs and no multi-attribute keys: designs with them cannot round-trip.
    let mut n_designs = 0;
    for (name, design) in designs() {
        let lossy = design.tables.iter().any(|t| {
            !t.lsis.is_empty()
                || t.gsis
                    .iter()
                    .any(|g| g.partition_key.len() > 1 || g.sort_key.len() > 1)
        });
        if lossy {
            continue;
        }
        let text = export(&design, Target::NosqlWorkbench).expect("exports");
        let imported = keyplan_core::import::detect_and_import(&text)
            .unwrap_or_else(|e| panic!("{name}: the Workbench export does not import: {e}"));
        assert_eq!(shape(&imported.design), shape(&design), "{name}");
        n_designs += 1;
    }
    assert!(n_designs >= 3, "only {n_designs} designs round-tripped");
}
