//! Migration code (issue 18): a [`MigrationPlan`] as a program in TypeScript on
//! `@aws-sdk/client-dynamodb` or Python on boto3, which moves the data itself.
//!
//! The program is two parts. The first is data written here from the plan and the two
//! designs: each data step (a backfill, a re-key, a rebuild's copy, a dropped entity's
//! deletion) with the table it scans, the entity templates that identify an item (OLD's, and
//! NEW's to recognise an item already migrated), and for every entity the [`ItemRules`] that
//! [`migrated_item`](super::migrated_item) applies, so the program renders the very templates
//! core renders. The second is a runtime, the same for every design (`code/runtime.ts`,
//! `code/runtime.py`), which scans each source table in parallel segments, rewrites each item
//! by the rules, and writes only with conditions that make a rerun a no-op: an item whose key
//! stays is updated (SET and REMOVE of what differs, only while it exists), an item whose key
//! changes is put at its new key only where nothing is there yet and its old key deleted only
//! after that. Writes are rate-limited by a token bucket, each segment's place is kept in a
//! checkpoint file to resume from, `--dry-run` prints the writes instead.
//!
//! Tables come from `--table ROLE=NAME` or the role's variable ([`env_var`]): a role is a
//! design table's name (`orders`), or `orders@new` for the table a rebuild copies into; the
//! program refuses to start without every role it writes, or while a variable two roles
//! share (they differ only by case) is set, and each write checks its table is one its step
//! was given. Steps that change table definitions (GSIs created or deleted, tables created or
//! dropped) are printed as instructions for the infrastructure code, never executed; the one
//! step left to the application (no longer writing an attribute) is said, not done.
//!
//! The text is a pure function of its inputs: nothing here reads a clock or a file. Design text
//! (names, templates, the plan's steps) is written only as string literals escaped by
//! `export::names` (`ts_str`, `py_str`) or as one-line comments of printable characters
//! (`names::one_line`): no design ends a comment or a literal of the program (issue 41).

use std::collections::BTreeSet;

use serde_json::{Value, json};

use super::{ItemRules, MigrationPlan, Phase, Step, StepKind, item_rules};
use crate::export::names;
use crate::model::{Design, KeyType};
use crate::template::{KeyTemplate, Part};

/// The language of the generated program.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Language {
    TypeScript,
    Python,
}

impl Language {
    /// `typescript` or `python`, as `--to` takes it.
    pub fn parse(name: &str) -> Option<Language> {
        match name.to_ascii_lowercase().as_str() {
            "typescript" | "ts" => Some(Language::TypeScript),
            "python" | "py" => Some(Language::Python),
            _ => None,
        }
    }

    /// The file extension of a program in this language.
    pub fn extension(self) -> &'static str {
        match self {
            Language::TypeScript => "ts",
            Language::Python => "py",
        }
    }

    fn comment(self) -> &'static str {
        match self {
            Language::TypeScript => "//",
            Language::Python => "#",
        }
    }

    fn runtime(self) -> &'static str {
        match self {
            Language::TypeScript => include_str!("code/runtime.ts"),
            Language::Python => include_str!("code/runtime.py"),
        }
    }
}

/// The role of the table a rebuild copies `table` into.
pub fn rebuilt_role(table: &str) -> String {
    format!("{table}@new")
}

/// The environment variable the program reads `role`'s table from: `KEYPLAN_TABLE_` and the
/// role with each ASCII letter in upper case, digits as they are, `_` as `__`, `-` as
/// `_DASH_`, `.` as `_DOT_`, `@` as `_AT_`, anything else as `_U` and its code point in hex
/// and `_`: `orders@new` reads `KEYPLAN_TABLE_ORDERS_AT_NEW`, `orders-new`
/// `KEYPLAN_TABLE_ORDERS_DASH_NEW`, `Orders` `KEYPLAN_TABLE_ORDERS`.
///
/// Two roles that differ by more than the case of a letter never read one variable (issue 41:
/// `events-new` and `events@new` both read `KEYPLAN_TABLE_EVENTS_NEW`, and a dry run copied a
/// rebuild into the live table): after the prefix, each `_` starts either `__` or a word closed
/// by the next `_`, and no two characters have one word, so the role can be read back from the
/// name up to case. Case is folded because a variable is an operator's to type (and Windows
/// compares them ignoring case); two roles that differ only by case (`Orders` and `orders`)
/// share a variable, and the program reads neither from it: it refuses to start while that
/// variable is set, and takes both from `--table`.
pub fn env_var(role: &str) -> String {
    let mut out = String::from("KEYPLAN_TABLE_");
    for c in role.chars() {
        match c {
            'a'..='z' | 'A'..='Z' => out.push(c.to_ascii_uppercase()),
            '0'..='9' => out.push(c),
            '_' => out.push_str("__"),
            '-' => out.push_str("_DASH_"),
            '.' => out.push_str("_DOT_"),
            '@' => out.push_str("_AT_"),
            c => out.push_str(&format!("_U{:X}_", c as u32)),
        }
    }
    out
}

/// The migration program for `plan` (from `old` to `new`) in `language`; `Err` names an entity
/// whose items cannot be migrated (its table is missing from NEW).
pub fn generate(
    old: &Design,
    new: &Design,
    plan: &MigrationPlan,
    language: Language,
) -> Result<String, String> {
    let data = data(old, new, plan)?;
    let mut out = String::new();
    header(&mut out, language, plan, &data);
    out.push_str(&render_data(language, &data.value));
    out.push_str(language.runtime());
    Ok(out)
}

/// The table roles the program for `plan` must be given (`--table ROLE=NAME`), sorted.
pub fn roles(old: &Design, new: &Design, plan: &MigrationPlan) -> Result<Vec<String>, String> {
    Ok(data(old, new, plan)?.roles)
}

/// What the program is given as data, and what its header says.
struct Data {
    value: Value,
    /// Per step of the plan: what the program does with it.
    handling: Vec<String>,
    roles: Vec<String>,
}

fn data(old: &Design, new: &Design, plan: &MigrationPlan) -> Result<Data, String> {
    let rebuilt: BTreeSet<&str> = plan
        .steps
        .iter()
        .filter(|s| s.kind == StepKind::Rebuild)
        .map(|s| s.table.as_str())
        .collect();
    // Where NEW's table `t` is written: into the rebuilt copy, or in place.
    let role_of = |t: &str| {
        if rebuilt.contains(t) {
            rebuilt_role(t)
        } else {
            t.to_string()
        }
    };
    let mut steps = Vec::new();
    let mut instructions = Vec::new();
    let mut handling = Vec::new();
    let mut roles = BTreeSet::new();
    let mut sources = BTreeSet::new();
    for (i, step) in plan.steps.iter().enumerate() {
        let number = i + 1;
        let Some((source, entity)) = data_step(old, new, step) else {
            let line = format!(
                "{number}. [{}, {}] {} (table {}): {}",
                step.phase.name(),
                step.kind.name(),
                step.action,
                step.table,
                instruction(step)
            );
            handling.push(line.clone());
            instructions.push(json!({ "phase": step.phase.name(), "text": line }));
            continue;
        };
        let targets: BTreeSet<String> = old
            .entities_in(&source)
            .filter(|o| entity.as_ref().is_none_or(|e| *e == o.name))
            .filter_map(|o| new.entity(&o.name))
            .map(|e| role_of(&e.table))
            .chain(entity.is_none().then(|| role_of(&source)))
            .collect();
        // The old item is deleted where its table stays in place in NEW.
        let in_place = new.table(&source).is_some() && !rebuilt.contains(source.as_str());
        roles.insert(source.clone());
        roles.extend(targets.iter().cloned());
        sources.insert(source.clone());
        let first = if step.kind == StepKind::Rebuild {
            format!(
                " (create {} in the new design's shape first, e.g. from `keyplan export NEW --to cloudformation-json`; switching the application over and deleting the old table are yours)",
                role_of(&source)
            )
        } else {
            String::new()
        };
        handling.push(format!(
            "{number}. [{}, {}] {}: this program scans {source}{} and writes {}{first}",
            step.phase.name(),
            step.kind.name(),
            step.action,
            entity
                .as_ref()
                .map(|e| format!(" for {e} items"))
                .unwrap_or_default(),
            targets.iter().cloned().collect::<Vec<_>>().join(", ")
        ));
        steps.push(json!({
            "id": format!("{number}"),
            "kind": step.kind.name(),
            "action": step.action,
            "source": source,
            "entity": entity,
            "targets": targets.into_iter().collect::<Vec<_>>(),
            "unclaimed": entity.is_none().then(|| role_of(&source)),
            "inPlace": in_place,
        }));
    }
    // The entities of every table a step scans, by OLD's templates and by NEW's.
    let tables = |design: &Design, names: &BTreeSet<String>| -> Value {
        names
            .iter()
            .filter_map(|name| design.table(name))
            .map(|table| {
                let entities: Vec<Value> = design
                    .entities_in(&table.name)
                    .map(|e| {
                        let templates: Vec<Value> = table
                            .primary_key()
                            .filter_map(|k| {
                                let t = e.key_template(&k.name)?;
                                Some(json!([k.name, parts(&t)]))
                            })
                            .collect();
                        json!({ "name": e.name, "templates": templates })
                    })
                    .collect();
                let key: Vec<&str> = table.primary_key().map(|k| k.name.as_str()).collect();
                (
                    table.name.clone(),
                    json!({ "key": key, "entities": entities }),
                )
            })
            .collect::<serde_json::Map<_, _>>()
            .into()
    };
    let destination_tables: BTreeSet<String> = sources
        .iter()
        .flat_map(|s| old.entities_in(s))
        .filter_map(|o| new.entity(&o.name))
        .map(|e| e.table.clone())
        .chain(sources.iter().cloned())
        .collect();
    let mut rules = serde_json::Map::new();
    for source in &sources {
        for o in old.entities_in(source) {
            let value = match item_rules(old, new, &o.name)? {
                Some(r) => rules_value(&r, role_of(&r.table)),
                None => Value::Null,
            };
            rules.insert(o.name.clone(), value);
        }
    }
    // NEW's entities in the tables written, to recognise an item already migrated.
    for table in &destination_tables {
        for e in new.entities_in(table) {
            if !rules.contains_key(&e.name)
                && let Some(r) = item_rules(old, new, &e.name)?
            {
                rules.insert(e.name.clone(), rules_value(&r, role_of(&r.table)));
            }
        }
    }
    let new_keys: serde_json::Map<String, Value> = destination_tables
        .iter()
        .filter_map(|t| new.table(t))
        .map(|t| {
            let key: Vec<&str> = t.primary_key().map(|k| k.name.as_str()).collect();
            (t.name.clone(), json!(key))
        })
        .collect();
    let roles: Vec<String> = roles.into_iter().collect();
    let env: serde_json::Map<String, Value> = roles
        .iter()
        .map(|r| (r.clone(), json!(env_var(r))))
        .collect();
    let mut value = json!({
        "maxWcu": plan.max_wcu,
        "roles": roles,
        "env": env,
        "steps": steps,
        "instructions": instructions,
        "old": tables(old, &sources),
        "new": tables(new, &destination_tables),
        "newKeys": new_keys,
        "rules": rules,
    });
    let fingerprint = fnv(&value.to_string());
    if let Some(map) = value.as_object_mut() {
        map.insert("plan".to_string(), json!(format!("{fingerprint:016x}")));
    }
    Ok(Data {
        value,
        handling,
        roles,
    })
}

/// The table a data step scans and the entity whose items it takes (`None`: every item);
/// `None` for a step the program does not run.
fn data_step(old: &Design, new: &Design, step: &Step) -> Option<(String, Option<String>)> {
    match (step.phase, step.kind, &step.index, &step.entity) {
        (Phase::Migrate, StepKind::Backfill | StepKind::Rekey, _, Some(entity)) => {
            let from = old.entity(entity)?.table.clone();
            Some((from, Some(entity.clone())))
        }
        (Phase::Migrate, StepKind::Rebuild, _, _) => Some((step.table.clone(), None)),
        (Phase::Contract, StepKind::Contract, None, Some(entity))
            if new.entity(entity).is_none() =>
        {
            Some((step.table.clone(), Some(entity.clone())))
        }
        _ => None,
    }
}

/// What to do about a step the program does not run.
fn instruction(step: &Step) -> &'static str {
    match (step.kind, &step.index, &step.entity) {
        // The AWS provider's aws_dynamodb_table has no vector index block (export::vector).
        (StepKind::Online, Some(_), _) if step.vector => {
            "an UpdateTable with VectorIndexUpdates (CloudFormation's VectorIndexes, the CDK's property override, or `aws dynamodb update-table`; Terraform's AWS provider has no vector index block), done before this program runs; DynamoDB backfills the index. This program does not change table definitions."
        }
        (StepKind::Contract, Some(_), _) if step.vector => {
            "an UpdateTable with VectorIndexUpdates once nothing searches the index; this program does not change table definitions."
        }
        (StepKind::Online, Some(_), _) => {
            "an UpdateTable in your infrastructure code (CloudFormation, Terraform, CDK), done before this program runs; DynamoDB backfills the index. This program does not change table definitions."
        }
        (StepKind::Online, None, _) => {
            "create it in your infrastructure code before this program runs; this program does not create tables."
        }
        (StepKind::Contract, Some(_), _) => {
            "an UpdateTable in your infrastructure code once nothing reads the index; this program does not change table definitions."
        }
        (StepKind::Contract, None, Some(_)) => {
            "the application's part: stop writing it. This program leaves the attribute on existing items, as the plan's prediction does."
        }
        _ => {
            "delete it in your infrastructure code once nothing reads it; this program does not delete tables."
        }
    }
}

fn rules_value(r: &ItemRules, role: String) -> Value {
    let keys: Vec<Value> = r
        .keys
        .iter()
        .map(|k| {
            json!({
                "attribute": k.attribute,
                "type": match k.ty {
                    KeyType::S => "S",
                    KeyType::N => "N",
                    KeyType::B => "B",
                },
                "template": k.template.as_ref().map(parts),
                "unchanged": k.unchanged,
                "tableKey": k.table_key,
            })
        })
        .collect();
    json!({
        "table": r.table,
        "role": role,
        "keys": keys,
        "derived": r.derived.iter().collect::<Vec<_>>(),
    })
}

/// A template as data: a literal is a string, a variable `{"var": name}`, a write shard
/// `{"shard": n}`.
fn parts(template: &KeyTemplate) -> Value {
    template
        .parts()
        .iter()
        .map(|p| match p {
            Part::Literal(text) => json!(text),
            Part::Var(v) => match v.shards {
                Some(n) => json!({ "shard": n }),
                None => json!({ "var": v.name }),
            },
        })
        .collect()
}

fn header(out: &mut String, language: Language, plan: &MigrationPlan, data: &Data) {
    let c = language.comment();
    let file = format!("migrate.{}", language.extension());
    let run = match language {
        Language::TypeScript => {
            format!(
                "tsc --strict --target es2022 --module nodenext --types node {file} && node migrate.js"
            )
        }
        Language::Python => format!("python {file}"),
    };
    let tables: Vec<String> = data
        .roles
        .iter()
        .map(|r| format!("--table {r}=REAL_NAME"))
        .collect();
    let mut lines = vec![
        "Generated by `keyplan migrate OLD NEW --to ...` (issue 18). Do not edit: generate it again."
            .to_string(),
        String::new(),
        "Moves the data of a DynamoDB table from the old design's shape to the new one's, as".to_string(),
        "keyplan's migration plan says: a parallel Scan by segment, each item rewritten by the".to_string(),
        "new design's key templates, written with conditions that make a rerun change nothing,".to_string(),
        "at most --max-wcu write units per second, each segment's place kept in a checkpoint".to_string(),
        "file so a stopped run resumes where it was.".to_string(),
        String::new(),
        format!("Run: {run} {}", tables.join(" ")),
        "  [--endpoint URL] [--region R] [--segments N] [--page-size N] [--max-wcu N]".to_string(),
        "  [--checkpoint FILE] [--max-pages N] [--dry-run]".to_string(),
        "Each table may instead be given by its variable:".to_string(),
    ];
    lines.extend(
        data.roles
            .iter()
            .map(|r| format!("  {}=REAL_NAME for {r}", env_var(r))),
    );
    lines.extend([
        "It refuses to start without every one of those tables, or while a variable two of them"
            .to_string(),
        "share is set (give those with --table), and writes to no other.".to_string(),
        "--max-pages N stops after N scan pages; a rerun resumes from the checkpoint. The last line"
            .to_string(),
        "is a JSON summary (writes, unchanged, ...). Exit 0 done, 1 failed, 2 refused, 3 stopped."
            .to_string(),
        String::new(),
        "The plan's steps:".to_string(),
    ]);
    lines.extend(data.handling.iter().map(|h| format!("  {h}")));
    lines.push(format!(
        "Writes at most {} write units a second unless --max-wcu says otherwise.",
        plan.max_wcu
    ));
    for line in lines {
        out.push_str(c);
        if !line.is_empty() {
            // Leading spaces indent the steps; the rest is one line of printable text.
            let body = line.trim_start_matches(' ');
            out.push(' ');
            out.push_str(&line[..line.len() - body.len()]);
            names::push_one_line(out, body);
        }
        out.push('\n');
    }
    out.push('\n');
}

/// The data as a literal of `language`: `const MIGRATION: Migration = {...};` or
/// `MIGRATION = {...}`.
fn render_data(language: Language, value: &Value) -> String {
    let mut body = String::new();
    literal(language, value, 0, &mut body);
    match language {
        Language::TypeScript => format!("const MIGRATION: Migration = {body};\n\n"),
        Language::Python => format!("MIGRATION = {body}\n\n"),
    }
}

fn literal(language: Language, value: &Value, depth: usize, out: &mut String) {
    let indent = |d: usize| "    ".repeat(d);
    let compact = compact(language, value);
    if compact.len() + depth * 4 <= 96 {
        out.push_str(&compact);
        return;
    }
    match value {
        Value::Array(items) => {
            out.push_str("[\n");
            for v in items {
                out.push_str(&indent(depth + 1));
                literal(language, v, depth + 1, out);
                out.push_str(",\n");
            }
            out.push_str(&indent(depth));
            out.push(']');
        }
        Value::Object(map) => {
            out.push_str("{\n");
            for (k, v) in map {
                out.push_str(&indent(depth + 1));
                out.push_str(&key(language, k));
                out.push_str(": ");
                literal(language, v, depth + 1, out);
                out.push_str(",\n");
            }
            out.push_str(&indent(depth));
            out.push('}');
        }
        _ => out.push_str(&compact),
    }
}

/// The value on one line.
fn compact(language: Language, value: &Value) -> String {
    match value {
        Value::Null => match language {
            Language::TypeScript => "null",
            Language::Python => "None",
        }
        .to_string(),
        Value::Bool(b) => match (language, b) {
            (Language::TypeScript, true) => "true",
            (Language::TypeScript, false) => "false",
            (Language::Python, true) => "True",
            (Language::Python, false) => "False",
        }
        .to_string(),
        // A JSON number is a valid literal in both languages.
        Value::Number(_) => value.to_string(),
        Value::String(text) => match language {
            Language::TypeScript => names::ts_str(text),
            Language::Python => names::py_str(text),
        },
        Value::Array(items) => format!(
            "[{}]",
            items
                .iter()
                .map(|v| compact(language, v))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Value::Object(map) => format!(
            "{{{}}}",
            map.iter()
                .map(|(k, v)| format!("{}: {}", key(language, k), compact(language, v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// An object key: bare in TypeScript when it is an identifier, else a string literal.
fn key(language: Language, k: &str) -> String {
    match language {
        Language::TypeScript => names::ts_key(k),
        Language::Python => names::py_str(k),
    }
}

/// FNV-1a over `text`: the plan's fingerprint, which a checkpoint must carry to be resumed.
fn fnv(text: &str) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in text.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

#[cfg(test)]
mod tests;
