//! The TypeScript dialect: an `export async function` per pattern on `@aws-sdk/lib-dynamodb`'s
//! document client, an interface per entity, and a `PATTERNS` table of every function.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::export::electrodb::{ModelAttribute, model_attributes};
use crate::export::names::{self, Lang, Scope, ts_key, ts_str, ts_template_text};
use crate::model::{AttrType, Design};

use super::driver::{Dialect, Function, StepParam, Tables, Write, comments, enclosed};
use super::vector::Search;
use super::{
    Call, CallKind, DeleteStep, Get, Input, PutStep, Read, STATEMENT_AS_WRITTEN, Scan, Statement,
    Step, TemplatedKey, UpdateStep, gathers_shards, update_expression,
};

#[derive(Default)]
pub(super) struct TypeScript {
    /// By entity name (the first of a name): its interface.
    interfaces: BTreeMap<String, String>,
    /// Each table's key in `TABLES`.
    tables: Tables,
}

impl TypeScript {
    fn interface(&self, entity: &str) -> String {
        self.interfaces
            .get(entity)
            .cloned()
            .unwrap_or_else(|| "Record<string, unknown>".to_string())
    }

    fn table(&self, table: &str) -> String {
        self.tables.expr(table, "TABLES.", ts_str)
    }

    fn items_type(&self, entities: &[String]) -> String {
        let types: Vec<String> = entities.iter().map(|e| self.interface(e)).collect();
        match types.as_slice() {
            [] => "Record<string, unknown>".to_string(),
            [one] => one.clone(),
            // Parenthesised, so `T[]` and `T | undefined` read as meant.
            many => format!("({})", many.join(" | ")),
        }
    }

    fn put_item(&self, p: &PutStep, obj: &str, ind: &str) -> String {
        let mut out = String::from("{\n");
        for k in &p.keys {
            let value = self.computed_value(k, &|v| access(obj, v));
            let _ = writeln!(out, "{ind}  {}: {value},", ts_key(&k.attr));
        }
        let _ = writeln!(out, "{ind}  ...{obj},");
        let _ = write!(out, "{ind}}}");
        out
    }

    fn key_object(&self, key: &[TemplatedKey], obj: &str, ind: &str) -> String {
        let mut out = String::from("{\n");
        for k in key {
            let _ = writeln!(
                out,
                "{ind}  {}: {},",
                ts_key(&k.attr),
                self.value(k, &|v| access(obj, v))
            );
        }
        let _ = write!(out, "{ind}}}");
        out
    }

    fn query_params(&self, out: &mut String, r: &Read, ind: &str, var: &dyn Fn(&str) -> String) {
        let _ = writeln!(out, "{ind}TableName: {},", self.table(&r.table));
        if let Some(i) = &r.index {
            let _ = writeln!(out, "{ind}IndexName: {},", ts_str(i));
        }
        let _ = writeln!(
            out,
            "{ind}KeyConditionExpression: {},",
            ts_str(&r.key_condition)
        );
        if let Some(filter) = &r.filter {
            let _ = writeln!(out, "{ind}FilterExpression: {},", ts_str(filter));
        }
        let _ = writeln!(
            out,
            "{ind}ExpressionAttributeNames: {},",
            names_record(&r.names)
        );
        let _ = writeln!(out, "{ind}ExpressionAttributeValues: {{");
        for p in &r.values {
            let _ = writeln!(
                out,
                "{ind}  {}: {},",
                ts_str(&p.name),
                self.value(&p.value, var)
            );
        }
        let _ = writeln!(out, "{ind}}},");
        if !r.forward {
            let _ = writeln!(out, "{ind}ScanIndexForward: false,");
        }
        if r.consistent {
            let _ = writeln!(out, "{ind}ConsistentRead: true,");
        }
    }

    /// Opens a write: a function sending `command` (its parameters after the client are
    /// `params`), or a transaction step's `op` entry. Returns the indentation of the
    /// request's fields.
    fn open_write(
        &self,
        out: &mut String,
        to: &Write<'_>,
        params: &str,
        command: &str,
        op: &str,
    ) -> String {
        match to {
            Write::Alone(f) => {
                let _ = writeln!(
                    out,
                    "export async function {}({params}): Promise<void> {{",
                    f.name
                );
                let _ = writeln!(out, "  await client.send(\n    new {command}({{");
                "      ".to_string()
            }
            Write::Step { indent, .. } => {
                let _ = writeln!(out, "{indent}{op}: {{");
                format!("{indent}  ")
            }
        }
    }

    fn close_write(out: &mut String, to: &Write<'_>) {
        match to {
            Write::Alone(_) => out.push_str("    }),\n  );\n}\n"),
            Write::Step { indent, .. } => {
                let _ = writeln!(out, "{indent}}},");
            }
        }
    }

    /// A page-returning read's signature: `input`, then `limit` and `lastKey`.
    fn page_signature(&self, out: &mut String, f: &Function<'_>) {
        let _ = writeln!(
            out,
            "export async function {}(\n  client: DynamoDBDocumentClient,\n  input: {},\n  options: {{ limit?: number; lastKey?: Key }} = {{}},\n): Promise<Page<{}>> {{",
            f.name,
            object_type(&f.call.inputs),
            self.items_type(&f.call.entities)
        );
    }

    /// The end of a page-returning read: its Limit and ExclusiveStartKey, and the page.
    fn page_end(&self, out: &mut String, f: &Function<'_>, limit: Option<u32>) {
        let _ = writeln!(
            out,
            "      Limit: {},\n      ExclusiveStartKey: options.lastKey,\n    }}),\n  );",
            limit_expr(limit)
        );
        let _ = writeln!(
            out,
            "  return {{ items: (result.Items ?? []) as {}[], nextKey: result.LastEvaluatedKey }};\n}}",
            self.items_type(&f.call.entities)
        );
    }
}

/// A page's Limit: the caller's, else the pattern's page size.
fn limit_expr(limit: Option<u32>) -> String {
    match limit {
        Some(n) => format!("options.limit ?? {n}"),
        None => "options.limit".to_string(),
    }
}

fn access(obj: &str, attr: &str) -> String {
    let key = ts_key(attr);
    if key.starts_with('\'') {
        format!("{obj}[{key}]")
    } else {
        format!("{obj}.{key}")
    }
}

fn attr_type(a: &ModelAttribute) -> String {
    if a.ty == AttrType::S && !a.values.is_empty() {
        return a
            .values
            .iter()
            .map(|v| ts_str(v))
            .collect::<Vec<_>>()
            .join(" | ");
    }
    match a.ty {
        AttrType::S => "string",
        AttrType::N => "number",
        AttrType::B => "Uint8Array",
        AttrType::Bool => "boolean",
        AttrType::Null => "null",
        AttrType::M => "Record<string, unknown>",
        AttrType::L => "unknown[]",
        AttrType::SS => "Set<string>",
        AttrType::NS => "Set<number>",
        AttrType::BS => "Set<Uint8Array>",
    }
    .to_string()
}

fn input_type(ty: AttrType) -> &'static str {
    match ty {
        AttrType::N => "number",
        _ => "string",
    }
}

fn object_type(inputs: &[Input]) -> String {
    enclosed(("{ ", "; ", " }"), inputs, |out, i| {
        let _ = write!(out, "{}: {}", ts_key(&i.attr), input_type(i.ty));
    })
}

fn names_record(pairs: &[(String, String)]) -> String {
    enclosed(("{ ", ", ", " }"), pairs, |out, (k, v)| {
        let _ = write!(out, "{}: {}", ts_str(k), ts_str(v));
    })
}

impl Dialect for TypeScript {
    const LANG: Lang = Lang::TypeScript;
    const CASE: fn(&str) -> String = names::camel;
    const NOTE: &'static str = "// ";
    const QUOTES: [&'static str; 2] = ["`", "`"];
    const HOLE: [&'static str; 2] = ["${", "}"];
    const TAKEN: &'static [&'static str] = &[
        "DynamoDBClient",
        "DynamoDBDocumentClient",
        "TABLES",
        "Key",
        "Page",
        "documentClient",
        "compareKeys",
        "PATTERNS",
        "StatementPage",
    ];

    fn literal(&self, text: &str) -> String {
        ts_str(text)
    }

    fn random_shard(&self, n: u32) -> String {
        format!("Math.floor(Math.random() * {n})")
    }

    fn text(&self, text: &mut String, s: &str) {
        text.push_str(&ts_template_text(s));
    }

    fn preamble(&mut self, out: &mut String, design: &Design, calls: &[Call], scope: &mut Scope) {
        let _ = writeln!(
            out,
            "// Access code for {} (exported by keyplan): one function per access pattern.",
            names::one_line(&design.name)
        );
        let mut commands = vec!["DynamoDBDocumentClient"];
        let uses = |f: &dyn Fn(&CallKind) -> bool| calls.iter().any(|c| f(&c.kind));
        let any_step = |want: fn(&Step) -> bool| {
            uses(&|k| match k {
                CallKind::Write(s) => want(s),
                _ => false,
            })
        };
        if any_step(|s| matches!(s, Step::Delete(_))) {
            commands.push("DeleteCommand");
        }
        if uses(&|k| matches!(k, CallKind::Get(_))) {
            commands.push("GetCommand");
        }
        if any_step(|s| matches!(s, Step::Put(_))) {
            commands.push("PutCommand");
        }
        if uses(&|k| matches!(k, CallKind::Query(_))) {
            commands.push("QueryCommand");
        }
        if uses(&|k| matches!(k, CallKind::Scan(_))) {
            commands.push("ScanCommand");
        }
        let uses_statements = uses(&|k| matches!(k, CallKind::Statement(_)));
        if uses_statements {
            commands.push("ExecuteStatementCommand");
        }
        let uses_vectors = uses(&|k| matches!(k, CallKind::Vector(_)));
        if uses_vectors {
            commands.push("SearchVectorsCommand");
        }
        if uses(&|k| matches!(k, CallKind::Transact(_))) {
            commands.push("TransactWriteCommand");
        }
        if any_step(|s| matches!(s, Step::Update(_))) {
            commands.push("UpdateCommand");
        }
        commands.sort_unstable();
        out.push_str("import { DynamoDBClient } from '@aws-sdk/client-dynamodb';\n");
        let _ = writeln!(
            out,
            "import {{ {} }} from '@aws-sdk/lib-dynamodb';\n",
            commands.join(", ")
        );

        self.tables = Tables::new(design, Lang::TypeScript, names::camel, "table");
        out.push_str("/** Table names; each can be overridden by an environment variable. */\n");
        out.push_str("export const TABLES = {\n");
        for (table, key) in self.tables.iter() {
            let env = names::screaming(table);
            let _ = writeln!(
                out,
                "  {key}: process.env.{}_TABLE ?? {},",
                if env.is_empty() {
                    "DESIGN".to_string()
                } else {
                    env
                },
                ts_str(table)
            );
        }
        out.push_str("} as const;\n\n");
        out.push_str("/** A primary key, as DynamoDB returns it in LastEvaluatedKey. */\n");
        out.push_str("export type Key = Record<string, unknown>;\n\n");
        out.push_str(
            "/** One page of a Query: the items and the key to continue from, if any. */\n",
        );
        out.push_str("export interface Page<T> {\n  items: T[];\n  nextKey?: Key;\n}\n\n");
        if uses_statements {
            out.push_str("/** One page of a PartiQL statement's items and the token to continue from, if any. */\n");
            out.push_str(
                "export interface StatementPage<T> {\n  items: T[];\n  nextToken?: string;\n}\n\n",
            );
        }
        if uses_vectors {
            out.push_str(
                "/** An item of a vector search, as its index projects it, and its Score. */\n",
            );
            out.push_str("export interface VectorHit<T> {\n  item: T;\n  score: number;\n}\n\n");
        }
        out.push_str("/** A document client over a DynamoDB client (the default one reads the environment). */\n");
        out.push_str("export function documentClient(client: DynamoDBClient = new DynamoDBClient({})): DynamoDBDocumentClient {\n  return DynamoDBDocumentClient.from(client);\n}\n");

        for entity in &design.entities {
            let name = scope.unique(names::valid(
                &names::pascal(&entity.name),
                Lang::TypeScript,
                "Entity",
            ));
            let key_vars: Vec<String> = entity
                .keys
                .values()
                .flat_map(|t| t.attribute_vars().map(|v| v.name.clone()))
                .collect();
            let _ = writeln!(out, "\nexport interface {name} {{");
            for a in model_attributes(entity) {
                if a.shards.is_some() {
                    continue;
                }
                let optional = !a.required && !key_vars.contains(&a.name);
                let _ = writeln!(
                    out,
                    "  {}{}: {};",
                    ts_key(&a.name),
                    if optional { "?" } else { "" },
                    attr_type(&a)
                );
            }
            out.push_str("}\n");
            self.interfaces.entry(entity.name.clone()).or_insert(name);
        }

        if gathers_shards(calls) {
            out.push_str(
                "\n/** DynamoDB's order of key values: numbers numerically, strings by code unit. */\n",
            );
            out.push_str("function compareKeys(a: unknown, b: unknown): number {\n");
            out.push_str("  if (typeof a === 'number' && typeof b === 'number') return a - b;\n");
            out.push_str("  const x = String(a);\n  const y = String(b);\n  return x < y ? -1 : x > y ? 1 : 0;\n}\n");
        }
    }

    fn before(&self, out: &mut String, f: &Function<'_>) {
        let _ = writeln!(out, "\n/** {} */", f.doc.replace("*/", "* /"));
    }

    fn get(&self, out: &mut String, f: &Function<'_>, g: &Get) {
        let item = self.items_type(&f.call.entities);
        let _ = writeln!(
            out,
            "export async function {}(\n  client: DynamoDBDocumentClient,\n  input: {},\n): Promise<{item} | undefined> {{",
            f.name,
            object_type(&f.call.inputs)
        );
        out.push_str("  const result = await client.send(\n    new GetCommand({\n");
        let _ = writeln!(out, "      TableName: {},", self.table(&g.table));
        let _ = writeln!(
            out,
            "      Key: {},",
            self.key_object(&g.key, "input", "      ")
        );
        if g.consistent {
            out.push_str("      ConsistentRead: true,\n");
        }
        let _ = writeln!(
            out,
            "    }}),\n  );\n  return result.Item as {item} | undefined;\n}}"
        );
    }

    fn query(&self, out: &mut String, f: &Function<'_>, r: &Read) {
        let var = |v: &str| access("input", v);
        let Some((shard_var, n)) = &r.shards else {
            self.page_signature(out, f);
            out.push_str("  const result = await client.send(\n    new QueryCommand({\n");
            self.query_params(out, r, "      ", &var);
            self.page_end(out, f, r.limit);
            return;
        };
        let item = self.items_type(&f.call.entities);
        let limit = r.limit.unwrap_or(100);
        let _ = writeln!(
            out,
            "export async function {}(\n  client: DynamoDBDocumentClient,\n  input: {},\n  limit = {limit},\n): Promise<{item}[]> {{",
            f.name,
            object_type(&f.call.inputs)
        );
        let _ = writeln!(
            out,
            "  // The partition is write-sharded {n} ways: query every shard at once, then merge.\n  // Each shard is read page by page (a page ends at 1 MB) until it gave `limit` items."
        );
        let _ = writeln!(
            out,
            "  const shards = await Promise.all(\n    Array.from({{ length: {n} }}, async (_, shard) => {{\n      const found: Record<string, any>[] = [];\n      let lastKey: Key | undefined;\n      while (found.length < limit) {{\n        const page = await client.send(\n          new QueryCommand({{"
        );
        self.query_params(out, r, "            ", &|v: &str| {
            if v == shard_var {
                "shard".to_string()
            } else {
                var(v)
            }
        });
        out.push_str("            Limit: limit - found.length,\n            ExclusiveStartKey: lastKey,\n          }),\n        );\n");
        out.push_str("        found.push(...(page.Items ?? []));\n        lastKey = page.LastEvaluatedKey;\n        if (!lastKey) break;\n      }\n      return found;\n    }),\n  );\n");
        out.push_str("  const items = shards.flat();\n");
        if let Some((attr, _)) = &r.merge_by {
            let (a, b) = if r.forward { ("a", "b") } else { ("b", "a") };
            let _ = writeln!(
                out,
                "  items.sort((a, b) => compareKeys({a}[{k}], {b}[{k}]));",
                k = ts_str(attr)
            );
        }
        let _ = writeln!(out, "  return items.slice(0, limit) as {item}[];\n}}");
    }

    fn scan(&self, out: &mut String, f: &Function<'_>, s: &Scan) {
        comments(out, "// ", &s.why);
        self.page_signature(out, f);
        out.push_str("  // No index serves this pattern: this Scan reads the whole table.\n");
        out.push_str("  const result = await client.send(\n    new ScanCommand({\n");
        let table = s
            .table
            .as_deref()
            .map(|t| self.table(t))
            .unwrap_or_default();
        let _ = writeln!(out, "      TableName: {table},");
        if !s.filter.is_empty() {
            let _ = writeln!(out, "      FilterExpression: {},", ts_str(&s.filter));
            let _ = writeln!(
                out,
                "      ExpressionAttributeNames: {},",
                names_record(&s.names)
            );
            let values: Vec<String> = s
                .values
                .iter()
                .map(|(p, a)| format!("{}: {}", ts_str(p), access("input", a)))
                .collect();
            let _ = writeln!(
                out,
                "      ExpressionAttributeValues: {{ {} }},",
                values.join(", ")
            );
        }
        self.page_end(out, f, s.limit);
    }

    fn statement(&self, out: &mut String, f: &Function<'_>, s: &Statement) {
        comments(out, "// ", &s.why);
        let item = self.items_type(&f.call.entities);
        let _ = writeln!(
            out,
            "export async function {}(\n  client: DynamoDBDocumentClient,\n  input: {},\n  options: {{ limit?: number; nextToken?: string }} = {{}},\n): Promise<StatementPage<{item}>> {{",
            f.name,
            object_type(&f.call.inputs)
        );
        comments(out, "  // ", &[STATEMENT_AS_WRITTEN.to_string()]);
        out.push_str("  const result = await client.send(\n    new ExecuteStatementCommand({\n");
        let _ = writeln!(out, "      Statement: {},", ts_str(&s.statement));
        if !s.parameters.is_empty() {
            let values = enclosed(("[", ", ", "]"), &s.parameters, |out, p| {
                out.push_str(&self.value(p, &|v| access("input", v)));
            });
            let _ = writeln!(out, "      Parameters: {values},");
        }
        if s.consistent {
            out.push_str("      ConsistentRead: true,\n");
        }
        let _ = writeln!(
            out,
            "      Limit: {},\n      NextToken: options.nextToken,\n    }}),\n  );",
            limit_expr(s.limit)
        );
        let _ = writeln!(
            out,
            "  return {{ items: (result.Items ?? []) as {item}[], nextToken: result.NextToken }};\n}}"
        );
    }

    fn vector_search(&self, out: &mut String, f: &Function<'_>, v: &Search) {
        let item = self.items_type(&f.call.entities);
        let item = if v.whole_items {
            item
        } else {
            format!("Partial<{item}>")
        };
        let query = ts_key(&v.query);
        let _ = writeln!(
            out,
            "export async function {}(\n  client: DynamoDBDocumentClient,\n  input: {{ {query}: number[] }},\n): Promise<VectorHit<{item}>[]> {{",
            f.name
        );
        comments(out, "  // ", &[v.note()]);
        out.push_str("  const result = await client.send(\n    new SearchVectorsCommand({\n");
        let _ = writeln!(out, "      TableName: {},", self.table(&v.table));
        let _ = writeln!(out, "      IndexName: {},", ts_str(&v.index));
        let _ = writeln!(out, "      SearchVector: {},", access("input", &v.query));
        let _ = writeln!(out, "      TopK: {},\n    }}),\n  );", v.top_k);
        let _ = writeln!(
            out,
            "  return (result.SearchResults ?? []).map((hit) => ({{\n    item: (hit.Item ?? {{}}) as {item},\n    score: hit.Score ?? 0,\n  }}));\n}}"
        );
    }

    fn put(&self, out: &mut String, p: &PutStep, to: &Write<'_>) {
        let params = format!(
            "client: DynamoDBDocumentClient, item: {}",
            self.interface(&p.entity)
        );
        let ind = self.open_write(out, to, &params, "PutCommand", "Put");
        let (item, _) = to.objects("item", "item");
        let _ = writeln!(out, "{ind}TableName: {},", self.table(&p.table));
        let _ = writeln!(out, "{ind}Item: {},", self.put_item(p, item, &ind));
        if let Some(c) = &p.condition {
            let _ = writeln!(out, "{ind}ConditionExpression: {},", ts_str(c));
        }
        Self::close_write(out, to);
    }

    fn update(&self, out: &mut String, u: &UpdateStep, to: &Write<'_>) {
        let params = format!(
            "\n  client: DynamoDBDocumentClient,\n  key: {},\n  changes: {},\n",
            object_type(&u.key_inputs),
            object_type(&u.change_inputs)
        );
        let ind = self.open_write(out, to, &params, "UpdateCommand", "Update");
        let (key_obj, changes_obj) = to.objects("key", "changes");
        let (expr, attr_names, attr_values) = update_expression(u);
        let _ = writeln!(out, "{ind}TableName: {},", self.table(&u.table));
        let _ = writeln!(out, "{ind}Key: {},", self.key_object(&u.key, key_obj, &ind));
        let _ = writeln!(out, "{ind}UpdateExpression: {},", ts_str(&expr));
        if let Some(c) = &u.condition {
            let _ = writeln!(out, "{ind}ConditionExpression: {},", ts_str(c));
        }
        let _ = writeln!(
            out,
            "{ind}ExpressionAttributeNames: {},",
            names_record(&attr_names)
        );
        let _ = writeln!(out, "{ind}ExpressionAttributeValues: {{");
        let var = |v: &str| {
            access(
                if u.reads_from_key(v) {
                    key_obj
                } else {
                    changes_obj
                },
                v,
            )
        };
        for (placeholder, attr) in &attr_values {
            let value = match u.derived.iter().find(|d| &d.attr == attr) {
                Some(d) => self.computed_value(d, &var),
                None => access(changes_obj, attr),
            };
            let _ = writeln!(out, "{ind}  {}: {value},", ts_str(placeholder));
        }
        let _ = writeln!(out, "{ind}}},");
        Self::close_write(out, to);
    }

    fn delete(&self, out: &mut String, d: &DeleteStep, to: &Write<'_>) {
        let params = format!(
            "client: DynamoDBDocumentClient, key: {}",
            object_type(&d.key_inputs)
        );
        let ind = self.open_write(out, to, &params, "DeleteCommand", "Delete");
        let (key_obj, _) = to.objects("key", "key");
        let _ = writeln!(out, "{ind}TableName: {},", self.table(&d.table));
        let _ = writeln!(out, "{ind}Key: {},", self.key_object(&d.key, key_obj, &ind));
        if let Some(c) = &d.condition {
            let _ = writeln!(out, "{ind}ConditionExpression: {},", ts_str(c));
        }
        Self::close_write(out, to);
    }

    fn transaction(&self, out: &mut String, f: &Function<'_>, steps: &[StepParam<'_>]) {
        let mut field_types = Vec::new();
        for step in steps {
            let ty = match step.step {
                Step::Put(p) => self.interface(&p.entity),
                Step::Update(u) => {
                    let mut inputs = u.key_inputs.clone();
                    for i in &u.change_inputs {
                        if !inputs.contains(i) {
                            inputs.push(i.clone());
                        }
                    }
                    object_type(&inputs)
                }
                Step::Delete(d) => object_type(&d.key_inputs),
            };
            let ty = if step.many {
                format!("Array<{ty}>")
            } else {
                ty
            };
            field_types.push(format!("{}: {ty}", step.name));
        }
        let _ = writeln!(
            out,
            "export async function {}(\n  client: DynamoDBDocumentClient,\n  input: {{ {} }},\n): Promise<void> {{",
            f.name,
            field_types.join("; ")
        );
        out.push_str(
            "  await client.send(\n    new TransactWriteCommand({\n      TransactItems: [\n",
        );
    }

    fn step_start(&self, out: &mut String, step: &StepParam<'_>) -> (String, &'static str) {
        let item = if step.many {
            let _ = writeln!(out, "        ...input.{}.map((item) => ({{", step.name);
            "item".to_string()
        } else {
            out.push_str("        {\n");
            format!("input.{}", step.name)
        };
        (item, "          ")
    }

    fn step_end(&self, out: &mut String, step: &StepParam<'_>) {
        out.push_str(if step.many {
            "        })),\n"
        } else {
            "        },\n"
        });
    }

    fn transaction_end(&self, out: &mut String) {
        out.push_str("      ],\n    }),\n  );\n}\n");
    }

    fn epilogue(&self, out: &mut String, registry: &[(String, String)]) {
        out.push_str("\n/** Every pattern's function, by the pattern's name in the design. */\nexport const PATTERNS = {\n");
        for (pattern, fname) in registry {
            let _ = writeln!(out, "  {}: {fname},", ts_str(pattern));
        }
        out.push_str("} as const;\n");
    }
}
