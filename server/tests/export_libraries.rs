//! The DynamoDB-Toolbox and Dynamoose exports run by the libraries themselves (issue 36, item
//! 4), on every design export_tools.rs checks: compiled with `tsc --strict`, then under node
//! DynamoDB-Toolbox computes each entity's keys from a sample item (`EntityParser`: its
//! `computeKey` and `.link()`s), which must be the design's key templates filled with the same
//! values, and its own `EntityDTO` JSON reads back into the design's tables, indexes and
//! attribute types; Dynamoose builds each table's CreateTable request
//! (`table.create({ return: 'request' })`), whose keys and indexes must be the design's.
//! A missing tool skips the test (fails it under `KEYPLAN_REQUIRE_TOOLS=1`), as in
//! export_tools.rs.

use std::path::PathBuf;
use std::process::Command;

use keyplan_core::Design;
use keyplan_core::export::Target;
use keyplan_core::import::{Format, import};
use keyplan_core::model::{IndexKind, KeyType, Projection};
use run_support::{repo, tool};
use serde_json::Value;

mod corpus_support;
mod export_support;
mod run_support;

use export_support::{run, write_all, write_tsconfig};

/// For each compiled module given: every exported Entity's EntityDTO, the sample item it was
/// given (a value per attribute the caller gives, the first enum value where there is one) and
/// the item and key DynamoDB-Toolbox computed from it.
const TOOLBOX_KEYS: &str = r#"
const { Entity, EntityDTO, EntityParser } = require('dynamodb-toolbox');
function sampleOf(attr, name) {
  if (attr.enum && attr.enum.length) return attr.enum[0];
  switch (attr.type) {
    case 'string': return name + '-1';
    case 'number': return 7;
    case 'boolean': return true;
    case 'binary': return new Uint8Array([1]);
    case 'set': return new Set([attr.elements.type === 'number' ? 1 : 'a']);
    case 'list': return [];
    case 'record': return {};
    case 'null': return null;
    default: return 'x';
  }
}
const out = {};
for (const f of process.argv.slice(2)) {
  const entities = [];
  for (const v of Object.values(require(f))) {
    if (!(v instanceof Entity)) continue;
    const dto = JSON.parse(JSON.stringify(v.build(EntityDTO)));
    const sample = {};
    for (const [name, attr] of Object.entries(dto.schema.attributes)) {
      // Hidden: the table keys computeKey gives; linked: computed from the others.
      if (attr.hidden || v.schema.attributes[name]?.props?.putLink) continue;
      sample[name] = sampleOf(attr, name);
    }
    const { item, key } = v.build(EntityParser).parse(sample);
    entities.push({ dto, sample, item, key });
  }
  out[f] = entities;
}
console.log(JSON.stringify(out));
"#;

/// For each compiled module given: the CreateTable request of every exported Dynamoose Table.
const DYNAMOOSE_TABLES: &str = r#"
const dynamoose = require('dynamoose');
(async () => {
  const out = {};
  for (const f of process.argv.slice(2)) {
    out[f] = {};
    for (const v of Object.values(require(f))) {
      if (v instanceof dynamoose.Table) out[f][v.name] = await v.create({ return: 'request' });
    }
  }
  console.log(JSON.stringify(out));
})().catch((e) => { console.error(e); process.exit(1); });
"#;

/// What a check script reported on the compiled exports.
struct Ran {
    /// Holds the files while they are read.
    _dir: tempfile::TempDir,
    /// (name, design, compiled module) for every design.
    files: Vec<(String, Design, PathBuf)>,
    /// The script's JSON output, by compiled module.
    out: Value,
}

/// Exports every design to `format` in a directory inside .tools (so node finds the
/// packages), compiles them with `tsc --strict` and runs `script` over the compiled modules.
/// `None` when a tool is missing.
fn compile_and_run(format: Target, suffix: &str, script: &str) -> Option<Ran> {
    let tsc = tool(".tools/node_modules/.bin/tsc")?;
    let dir = tempfile::Builder::new()
        .prefix("libcheck-")
        .tempdir_in(repo().join(".tools"))
        .expect("temp dir in .tools");
    let files = write_all(dir.path(), format, suffix);
    write_tsconfig(dir.path());
    let (ok, output) = run(Command::new(tsc)
        .arg("-p")
        .arg(dir.path().join("tsconfig.json")));
    assert!(ok, "tsc --strict over {} files:\n{output}", files.len());
    let script_path = dir.path().join("check.cjs");
    std::fs::write(&script_path, script).expect("write the check script");
    let compiled: Vec<(String, Design, PathBuf)> = files
        .into_iter()
        .map(|(name, design, path)| {
            let stem = path
                .file_name()
                .map(|n| n.to_string_lossy().replace(".ts", ".js"))
                .unwrap_or_default();
            (name, design, dir.path().join("out").join(stem))
        })
        .collect();
    let (ok, output) = run(Command::new("node")
        .env("AWS_REGION", "us-east-1")
        .arg("--no-warnings")
        .arg(&script_path)
        .args(compiled.iter().map(|(_, _, p)| p)));
    assert!(ok, "node could not run the exports:\n{output}");
    let json = output
        .lines()
        .rev()
        .find(|l| l.starts_with('{'))
        .unwrap_or_else(|| panic!("no JSON from node:\n{output}"));
    let value = serde_json::from_str(json).expect("node's JSON");
    Some(Ran {
        _dir: dir,
        files: compiled,
        out: value,
    })
}

fn key_type_letter(ty: KeyType) -> &'static str {
    match ty {
        KeyType::S => "S",
        KeyType::N => "N",
        KeyType::B => "B",
    }
}

/// A sample value as the text a key template renders it into.
fn as_text(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

#[test]
fn dynamodb_toolbox_computes_every_key_the_design_templates_and_its_dto_reads_back() {
    let Some(Ran { _dir, files, out }) =
        compile_and_run(Target::Toolbox, ".toolbox.ts", TOOLBOX_KEYS)
    else {
        return;
    };
    let mut n_keys = 0;
    for (name, design, compiled) in &files {
        let entities = out[compiled.to_string_lossy().as_ref()]
            .as_array()
            .unwrap_or_else(|| panic!("{name}: no entities from node"));
        let in_tables = design
            .entities
            .iter()
            .filter(|e| design.table(&e.table).is_some())
            .count();
        assert_eq!(entities.len(), in_tables, "{name}: entities built");
        let mut dtos = Vec::new();
        for built in entities {
            let entity_name = built["dto"]["entityName"].as_str().unwrap_or_default();
            let entity = design
                .entities
                .iter()
                .find(|e| e.name == entity_name)
                .unwrap_or_else(|| panic!("{name}: no entity {entity_name} in the design"));
            let table = design.table(&entity.table).expect("its table");
            // Every table key is computed, and every key the design templates is the template
            // filled with the sample's values.
            for key in std::iter::once(&table.partition_key).chain(table.sort_key.as_ref()) {
                assert!(
                    built["key"].get(&key.name).is_some(),
                    "{name}: {entity_name} computes no {}: {}",
                    key.name,
                    built["key"]
                );
            }
            for key in table.key_attributes() {
                let Some(template) = entity.keys.get(&key.name) else {
                    continue;
                };
                let expected = template
                    .render(|var| built["sample"].get(&var.name).and_then(as_text))
                    .unwrap_or_else(|| panic!("{name}: {entity_name}.{} renders", key.name));
                let computed = built["item"].get(&key.name).and_then(as_text);
                assert_eq!(
                    computed.as_deref(),
                    Some(expected.as_str()),
                    "{name}: {entity_name}.{} as DynamoDB-Toolbox computes it",
                    key.name
                );
                n_keys += 1;
            }
            dtos.push(built["dto"].clone());
        }
        if dtos.is_empty() {
            continue;
        }
        // The library's own DTO JSON reads back: its tables, indexes and attribute types.
        let text = serde_json::to_string_pretty(&Value::Array(dtos)).expect("DTO JSON");
        let imported = import(Format::Toolbox, &text).unwrap_or_else(|e| panic!("{name}: {e}"));
        for table in design
            .tables
            .iter()
            .filter(|t| design.entities_in(&t.name).next().is_some())
        {
            let read = imported
                .design
                .table(&table.name)
                .unwrap_or_else(|| panic!("{name}: table {} read back", table.name));
            assert_eq!(read.partition_key, table.partition_key, "{name}");
            assert_eq!(read.sort_key, table.sort_key, "{name}");
            // By name: the DTO's indexes are a JSON object, read in its keys' order.
            let gsis = |t: &keyplan_core::model::Table| -> Vec<String> {
                let mut gsis: Vec<String> = t
                    .gsis
                    .iter()
                    .map(|g| format!("{}: {:?} / {:?}", g.name, g.partition_key, g.sort_key))
                    .collect();
                gsis.sort();
                gsis
            };
            assert_eq!(gsis(read), gsis(table), "{name}: GSIs of {}", table.name);
            let lsis = |t: &keyplan_core::model::Table| -> Vec<String> {
                let mut lsis: Vec<String> = t
                    .lsis
                    .iter()
                    .map(|l| format!("{}: {:?}", l.name, l.sort_key))
                    .collect();
                lsis.sort();
                lsis
            };
            assert_eq!(lsis(read), lsis(table), "{name}: LSIs of {}", table.name);
        }
        for entity in design
            .entities
            .iter()
            .filter(|e| design.table(&e.table).is_some())
        {
            let read = imported
                .design
                .entities
                .iter()
                .find(|e| e.name == entity.name)
                .unwrap_or_else(|| panic!("{name}: entity {} read back", entity.name));
            // What the DTO cannot hold is said: a computeKey's keys and a linked index key.
            let table = design.table(&entity.table).expect("its table");
            for key in table.key_attributes() {
                if entity.keys.contains_key(&key.name) {
                    assert!(
                        imported
                            .assumed
                            .iter()
                            .any(|a| a.what.contains(entity.name.as_str())
                                && a.what.contains(key.name.as_str())),
                        "{name}: {}.{} is computed, and the import does not say it assumed it: {:?}",
                        entity.name,
                        key.name,
                        imported.assumed
                    );
                }
            }
            for attribute in &entity.attributes {
                let back = read
                    .attribute(&attribute.name)
                    .unwrap_or_else(|| panic!("{name}: {}.{}", entity.name, attribute.name));
                assert_eq!(
                    back.ty, attribute.ty,
                    "{name}: {}.{}",
                    entity.name, attribute.name
                );
            }
        }
    }
    assert!(n_keys > 0, "no key template was checked");
}

#[test]
fn dynamoose_builds_every_table_with_the_design_keys_and_indexes() {
    let Some(Ran { _dir, files, out }) =
        compile_and_run(Target::Dynamoose, ".dynamoose.ts", DYNAMOOSE_TABLES)
    else {
        return;
    };
    let mut n_tables = 0;
    for (name, design, compiled) in &files {
        let requests = &out[compiled.to_string_lossy().as_ref()];
        for table in &design.tables {
            if design.entities_in(&table.name).next().is_none() {
                continue; // No entity, no model: the export says so in a comment.
            }
            let request = requests
                .get(&table.name)
                .unwrap_or_else(|| panic!("{name}: no Dynamoose table {}", table.name));
            let definitions: Vec<(String, String)> = request["AttributeDefinitions"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|d| {
                    (
                        d["AttributeName"].as_str().unwrap_or_default().to_string(),
                        d["AttributeType"].as_str().unwrap_or_default().to_string(),
                    )
                })
                .collect();
            let type_of = |attribute: &str| {
                definitions
                    .iter()
                    .find(|(n, _)| n == attribute)
                    .map(|(_, t)| t.clone())
            };
            let key_schema = |schema: &Value| -> Vec<String> {
                schema
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|k| {
                        let attribute = k["AttributeName"].as_str().unwrap_or_default();
                        format!(
                            "{attribute} {} {}",
                            k["KeyType"].as_str().unwrap_or_default(),
                            type_of(attribute).unwrap_or_default()
                        )
                    })
                    .collect()
            };
            let expected = |pk: &[keyplan_core::model::KeyAttribute],
                            sk: &[keyplan_core::model::KeyAttribute]|
             -> Vec<String> {
                pk.iter()
                    .map(|k| format!("{} HASH {}", k.name, key_type_letter(k.ty)))
                    .chain(
                        sk.iter()
                            .map(|k| format!("{} RANGE {}", k.name, key_type_letter(k.ty))),
                    )
                    .collect()
            };
            for index in table.indexes() {
                if index.partition_key.len() > 1 || index.sort_key.len() > 1 {
                    continue; // Dynamoose has no multi-attribute keys: a comment says so.
                }
                let (schema, projection) = match (index.kind, index.name) {
                    (IndexKind::Table, _) | (_, None) => (&request["KeySchema"], None),
                    (kind, Some(index_name)) => {
                        let list = if kind == IndexKind::Lsi {
                            "LocalSecondaryIndexes"
                        } else {
                            "GlobalSecondaryIndexes"
                        };
                        let found = request[list]
                            .as_array()
                            .into_iter()
                            .flatten()
                            .find(|i| i["IndexName"] == index_name)
                            .unwrap_or_else(|| {
                                panic!("{name}: {} has no index {index_name}", table.name)
                            });
                        (&found["KeySchema"], Some(&found["Projection"]))
                    }
                };
                assert_eq!(
                    key_schema(schema),
                    expected(index.partition_key, index.sort_key),
                    "{name}: {} {:?}",
                    table.name,
                    index.name
                );
                if let Some(projection) = projection {
                    let expected = match index.projection {
                        Projection::All => "ALL",
                        Projection::KeysOnly => "KEYS_ONLY",
                        Projection::Include { .. } => "INCLUDE",
                    };
                    assert_eq!(
                        projection["ProjectionType"], expected,
                        "{name}: {} {:?}",
                        table.name, index.name
                    );
                }
            }
            n_tables += 1;
        }
    }
    assert!(n_tables > 0, "no table was checked");
}
