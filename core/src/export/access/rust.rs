//! The Rust dialect: a `pub async fn` per pattern on aws-sdk-dynamodb's `Client`, items as
//! `HashMap<String, AttributeValue>`. Signatures are laid out as rustfmt would.

use std::fmt::Write as _;

use crate::export::names::{self, Lang, Scope, rs_str};
use crate::model::{AttrType, Design, KeyType};

use super::driver::{
    Dialect, Function, Idents, Layout, StepParam, Tables, Write, comments, step_params,
};
use super::vector::Search;
use super::{
    Call, CallKind, DeleteStep, Get, Input, PutStep, Read, STATEMENT_AS_WRITTEN, Scan, Statement,
    Step, TemplatedKey, UpdateStep, update_expression, writes_shards,
};

/// rustfmt's layout of a `pub async fn` longer than its line.
const LAYOUT: Layout = Layout {
    starts: "pub async fn ",
    first_param: "    client: &Client, ",
    width: 100,
};

#[derive(Default)]
pub(super) struct Rust {
    /// Each table's constant (`ORDERS_TABLE`).
    tables: Tables,
    idents: Idents,
}

impl Rust {
    /// A variable's identifier (`customer_id`), worked out once in a module.
    fn ident(&self, attr: &str) -> String {
        self.idents.get(attr, make_ident)
    }

    fn params(&self, inputs: &[Input]) -> String {
        // Pushed into one string, not a formatted string per parameter collected (issue 13).
        let mut params = String::new();
        for i in inputs {
            params.push_str(", ");
            params.push_str(&self.ident(&i.attr));
            params.push_str(if i.ty == AttrType::N {
                ": f64"
            } else {
                ": &str"
            });
        }
        params
    }

    /// Statements binding each variable a key needs, read from an item (`text(&item, "x")?`);
    /// returns the variables bound.
    fn bind_from_item(
        &self,
        out: &mut String,
        keys: &[TemplatedKey],
        obj: &str,
        ind: &str,
        skip: &[String],
    ) -> Vec<String> {
        let mut bound = Vec::new();
        for k in keys {
            for v in k.template.attribute_vars() {
                if bound.contains(&v.name) || skip.contains(&v.name) {
                    continue;
                }
                let _ = writeln!(
                    out,
                    "{ind}let {} = text(&{obj}, {})?;",
                    self.ident(&v.name),
                    rs_str(&v.name)
                );
                bound.push(v.name.clone());
            }
        }
        bound
    }

    fn table(&self, name: &str) -> String {
        self.tables.expr(name, "", rs_str)
    }

    /// The function's doc comment and signature: `params` after the client, `returns` in
    /// `Result<.., Error>`.
    fn signature(&self, out: &mut String, f: &Function<'_>, params: &str, returns: &str) {
        let sig = format!(
            "\n/// {}\npub async fn {}(client: &Client{params}) -> Result<{returns}, Error> {{\n",
            f.doc, f.name
        );
        LAYOUT.write(out, &sig);
    }

    /// The signature of a read returning one page: `limit` and `start_key` after the inputs.
    fn page_signature(&self, out: &mut String, f: &Function<'_>, more: &str) {
        let sig = format!(
            "\n/// {}{more}\npub async fn {}(\n    client: &Client{},\n    limit: Option<i32>,\n    start_key: Option<Item>,\n) -> Result<(Vec<Item>, Option<Item>), Error> {{\n",
            f.doc,
            f.name,
            self.params(&f.call.inputs)
        );
        LAYOUT.write(out, &sig);
    }

    /// The `.key(..)` calls of a builder, one per line at indent `ind`.
    fn key_calls(&self, out: &mut String, key: &[TemplatedKey], ind: &str) {
        for k in key {
            let _ = writeln!(
                out,
                "{ind}.key({}, {})",
                rs_str(&k.attr),
                self.value(k, &|v| self.ident(v))
            );
        }
    }

    fn query_calls(&self, out: &mut String, r: &Read, var: &dyn Fn(&str) -> String, ind: &str) {
        let _ = writeln!(out, "{ind}.table_name({})", self.table(&r.table));
        if let Some(i) = &r.index {
            let _ = writeln!(out, "{ind}.index_name({})", rs_str(i));
        }
        let _ = writeln!(
            out,
            "{ind}.key_condition_expression({})",
            rs_str(&r.key_condition)
        );
        if let Some(filter) = &r.filter {
            let _ = writeln!(out, "{ind}.filter_expression({})", rs_str(filter));
        }
        names_calls(out, &r.names, ind);
        for p in &r.values {
            let _ = writeln!(
                out,
                "{ind}.expression_attribute_values({}, {})",
                rs_str(&p.name),
                self.value(&p.value, var)
            );
        }
        if !r.forward {
            let _ = writeln!(out, "{ind}.scan_index_forward(false)");
        }
        if r.consistent {
            let _ = writeln!(out, "{ind}.consistent_read(true)");
        }
    }

    /// The builder of a write, up to its table: the client's `method()` for a function of its
    /// own, `let var = Ty::builder()` in a transaction; `ind` is the statement's indentation.
    fn open_builder(
        &self,
        out: &mut String,
        to: &Write<'_>,
        ind: &str,
        method: &str,
        var: &str,
        table: &str,
    ) {
        match to {
            Write::Alone(_) => {
                let _ = writeln!(out, "{ind}client\n{ind}    .{method}()");
            }
            Write::Step { .. } => {
                let ty = capitalised(var);
                let _ = writeln!(out, "{ind}let {var} = {ty}::builder()");
            }
        }
        let _ = writeln!(out, "{ind}    .table_name({})", self.table(table));
    }
}

/// `put` to `Put`.
fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(first) => first.to_ascii_uppercase().to_string() + chars.as_str(),
        None => String::new(),
    }
}

/// Sends a write's builder (a function's), or builds it and adds it to the transaction.
fn close_builder(out: &mut String, to: &Write<'_>, ind: &str, var: &str) {
    match to {
        Write::Alone(_) => {
            let _ = writeln!(out, "{ind}    .send()\n{ind}    .await?;\n{ind}Ok(())\n}}");
        }
        Write::Step { .. } => {
            let _ = writeln!(
                out,
                "{ind}    .build()?;\n{ind}transact_items.push(TransactWriteItem::builder().{var}({var}).build());"
            );
        }
    }
}

/// The indentation of a write's statements: a function's body, or the step's.
fn indent<'a>(to: &Write<'a>) -> &'a str {
    match to {
        Write::Alone(_) => "    ",
        Write::Step { indent, .. } => indent,
    }
}

/// An attribute's identifier in Rust: snake case, valid.
fn make_ident(attr: &str) -> String {
    names::valid(&names::snake(attr), Lang::Rust, "value")
}

fn names_calls(out: &mut String, names: &[(String, String)], ind: &str) {
    for (p, a) in names {
        let _ = writeln!(
            out,
            "{ind}.expression_attribute_names({}, {})",
            rs_str(p),
            rs_str(a)
        );
    }
}

/// A page's limit: the caller's, else the pattern's page size.
fn limit_expr(limit: Option<u32>) -> String {
    match limit {
        Some(n) => format!("limit.or(Some({n}))"),
        None => "limit".to_string(),
    }
}

/// The end of a read returning one page: its limit and start key, the call, the page.
fn page_end(out: &mut String, limit: Option<u32>) {
    let _ = writeln!(
        out,
        "        .set_limit({})\n        .set_exclusive_start_key(start_key)\n        .send()\n        .await?;",
        limit_expr(limit)
    );
    out.push_str("    Ok((output.items.unwrap_or_default(), output.last_evaluated_key))\n}\n");
}

impl Dialect for Rust {
    const LANG: Lang = Lang::Rust;
    const CASE: fn(&str) -> String = names::snake;
    const NOTE: &'static str = "\n// ";
    /// A `format!` call: its string, then its arguments.
    const QUOTES: [&'static str; 2] = ["format!(\"", "\", "];
    const HOLE: [&'static str; 2] = ["{", "}"];
    const TAKEN: &'static [&'static str] = &["text", "value", "shard", "Item", "Error"];

    /// Every key value is an `AttributeValue` of the key's type, built from the string.
    fn value(&self, k: &TemplatedKey, var: &dyn Fn(&str) -> String) -> String {
        let text = self.string(&k.template, var);
        // Joined, not formatted: a key value is written for every key of every call.
        match k.ty {
            KeyType::S => ["AttributeValue::S(", &text, ")"].concat(),
            KeyType::N => ["AttributeValue::N(", &text, ")"].concat(),
            KeyType::B => ["AttributeValue::B(Blob::new(", &text, "))"].concat(),
        }
    }

    fn literal(&self, text: &str) -> String {
        format!("{}.to_string()", rs_str(text))
    }

    /// The generated module's `shard`, which spreads by the clock.
    fn random_shard(&self, n: u32) -> String {
        format!("shard({n})")
    }

    /// A `format!` string: its text escaped as a string literal's, its braces doubled.
    fn text(&self, text: &mut String, s: &str) {
        names::push_rs_format_text(text, s);
    }

    fn hole(&self, text: &mut String, args: &mut Vec<String>, expr: String) {
        text.push_str("{}");
        args.push(expr);
    }

    fn interpolation(&self, text: &str, args: &[String]) -> String {
        let [open, close] = Self::QUOTES;
        let args_len: usize = args.iter().map(|a| a.len() + 2).sum();
        let mut out = String::with_capacity(open.len() + text.len() + close.len() + args_len + 1);
        out.push_str(open);
        out.push_str(text);
        out.push_str(close);
        for (i, arg) in args.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            out.push_str(arg);
        }
        out.push(')');
        out
    }

    fn preamble(&mut self, out: &mut String, design: &Design, calls: &[Call], _: &mut Scope) {
        let _ = writeln!(
            out,
            "//! Access code for {} (exported by keyplan): one function per access pattern, on\n//! aws-sdk-dynamodb.\n",
            names::one_line(&design.name)
        );
        let uses_transact = calls
            .iter()
            .any(|c| matches!(c.kind, CallKind::Transact(_)));
        let uses_blob = design
            .tables
            .iter()
            .any(|t| t.key_attributes().iter().any(|k| k.ty == KeyType::B));
        let mut types = vec!["AttributeValue"];
        let transact_steps: Vec<&Step> = calls
            .iter()
            .flat_map(|c| match &c.kind {
                CallKind::Transact(steps) => steps.iter().map(|(s, _)| s).collect(),
                _ => Vec::new(),
            })
            .collect();
        if transact_steps.iter().any(|s| matches!(s, Step::Delete(_))) {
            types.push("Delete");
        }
        if transact_steps.iter().any(|s| matches!(s, Step::Put(_))) {
            types.push("Put");
        }
        if uses_transact {
            types.push("TransactWriteItem");
        }
        if transact_steps.iter().any(|s| matches!(s, Step::Update(_))) {
            types.push("Update");
        }
        out.push_str("use std::collections::HashMap;\n\n");
        if calls.iter().any(|c| !matches!(c.kind, CallKind::Skip(_))) {
            out.push_str("use aws_sdk_dynamodb::Client;\n");
        }
        if uses_blob {
            out.push_str("use aws_sdk_dynamodb::primitives::Blob;\n");
        }
        let _ = writeln!(
            out,
            "use aws_sdk_dynamodb::types::{{{}}};\n",
            types.join(", ")
        );
        out.push_str("/// An item: attribute names to values.\npub type Item = HashMap<String, AttributeValue>;\n");
        out.push_str("/// Any failure: the SDK's, or a missing attribute in an item passed in.\npub type Error = Box<dyn std::error::Error + Send + Sync>;\n\n");
        self.tables = Tables::new(
            design,
            Lang::Rust,
            |t| format!("{}_TABLE", names::screaming(t)),
            "TABLE",
        );
        for (t, c) in self.tables.iter() {
            let _ = writeln!(out, "pub const {c}: &str = {};", rs_str(t));
        }
        out.push_str("\n/// The text of a string or number attribute of `item`, for a key template.\n#[allow(dead_code)]\nfn text(item: &Item, name: &str) -> Result<String, Error> {\n    match item.get(name) {\n        Some(AttributeValue::S(s)) | Some(AttributeValue::N(s)) => Ok(s.clone()),\n        _ => Err(format!(\"the item has no string or number attribute `{name}`\").into()),\n    }\n}\n");
        out.push_str("\n/// An attribute of `item`, which must be there.\n#[allow(dead_code)]\nfn value(item: &Item, name: &str) -> Result<AttributeValue, Error> {\n    item.get(name)\n        .cloned()\n        .ok_or_else(|| format!(\"the item has no attribute `{name}`\").into())\n}\n");
        if writes_shards(design) {
            out.push_str("\n/// A write shard, 0 to n-1, spread by the clock's nanoseconds (no rand dependency).\n#[allow(dead_code)]\nfn shard(n: u32) -> u32 {\n    let nanos = std::time::SystemTime::now()\n        .duration_since(std::time::UNIX_EPOCH)\n        .map(|d| d.subsec_nanos())\n        .unwrap_or(0);\n    nanos % n\n}\n");
        }
    }

    fn get(&self, out: &mut String, f: &Function<'_>, g: &Get) {
        self.signature(out, f, &self.params(&f.call.inputs), "Option<Item>");
        let _ = writeln!(
            out,
            "    let output = client\n        .get_item()\n        .table_name({})",
            self.table(&g.table)
        );
        self.key_calls(out, &g.key, "        ");
        if g.consistent {
            out.push_str("        .consistent_read(true)\n");
        }
        out.push_str("        .send()\n        .await?;\n    Ok(output.item)\n}\n");
    }

    fn query(&self, out: &mut String, f: &Function<'_>, r: &Read) {
        let Some((shard_var, n)) = &r.shards else {
            self.page_signature(
                out,
                f,
                "\n///\n/// Returns one page and the key to pass as `start_key` for the next, if any.",
            );
            out.push_str("    let output = client\n        .query()\n");
            self.query_calls(out, r, &|v: &str| self.ident(v), "        ");
            page_end(out, r.limit);
            return;
        };
        let sig = format!("{}, limit: i32", self.params(&f.call.inputs));
        self.signature(out, f, &sig, "Vec<Item>");
        let _ = writeln!(
            out,
            "    // The partition is write-sharded {n} ways: query every shard, then merge."
        );
        let _ = writeln!(
            out,
            "    // Each shard is read page by page (a page ends at 1 MB) until it gave `limit` items.\n    let mut items: Vec<Item> = Vec::new();\n    for shard in 0..{n}u32 {{\n        let (mut taken, mut start_key) = (0, None);\n        while taken < limit {{\n            let output = client\n                .query()"
        );
        self.query_calls(
            out,
            r,
            &|v: &str| {
                if v == shard_var {
                    "shard".to_string()
                } else {
                    self.ident(v)
                }
            },
            "                ",
        );
        out.push_str("                .limit(limit - taken)\n                .set_exclusive_start_key(start_key)\n                .send()\n                .await?;\n            let page = output.items.unwrap_or_default();\n            taken += i32::try_from(page.len()).unwrap_or(i32::MAX);\n            items.extend(page);\n            start_key = output.last_evaluated_key;\n            if start_key.is_none() {\n                break;\n            }\n        }\n    }\n");
        if let Some((attr, ty)) = &r.merge_by {
            let key = match ty {
                KeyType::N => format!(
                    "item.get({}).and_then(|v| v.as_n().ok()).and_then(|n| n.parse::<f64>().ok()).unwrap_or(f64::NAN)",
                    rs_str(attr)
                ),
                _ => format!(
                    "item.get({}).and_then(|v| v.as_s().ok()).cloned().unwrap_or_default()",
                    rs_str(attr)
                ),
            };
            let (a, b) = if r.forward { ("a", "b") } else { ("b", "a") };
            let (cmp, ret) = match ty {
                KeyType::N => (format!("sort_key({a}).total_cmp(&sort_key({b}))"), "f64"),
                _ => (format!("sort_key({a}).cmp(&sort_key({b}))"), "String"),
            };
            let _ = writeln!(
                out,
                "    let sort_key = |item: &Item| -> {ret} {{ {key} }};\n    items.sort_by(|a, b| {cmp});"
            );
        }
        out.push_str(
            "    items.truncate(usize::try_from(limit).unwrap_or(0));\n    Ok(items)\n}\n",
        );
    }

    fn scan(&self, out: &mut String, f: &Function<'_>, s: &Scan) {
        self.page_signature(out, f, "");
        comments(out, "    // ", &s.why);
        out.push_str("    // No index serves this pattern: this Scan reads the whole table.\n");
        let _ = writeln!(
            out,
            "    let output = client\n        .scan()\n        .table_name({})",
            s.table
                .as_deref()
                .map(|t| self.table(t))
                .unwrap_or_default()
        );
        if !s.filter.is_empty() {
            let _ = writeln!(out, "        .filter_expression({})", rs_str(&s.filter));
            names_calls(out, &s.names, "        ");
            for ((p, a), input) in s.values.iter().zip(&f.call.inputs) {
                let variant = if input.ty == AttrType::N { "N" } else { "S" };
                let _ = writeln!(
                    out,
                    "        .expression_attribute_values({}, AttributeValue::{variant}({}.to_string()))",
                    rs_str(p),
                    self.ident(a)
                );
            }
        }
        page_end(out, s.limit);
    }

    fn statement(&self, out: &mut String, f: &Function<'_>, s: &Statement) {
        let sig = format!(
            "\n/// {}\n///\n/// Returns one page and the token to pass as `next_token` for the next, if any.\npub async fn {}(\n    client: &Client{},\n    limit: Option<i32>,\n    next_token: Option<String>,\n) -> Result<(Vec<Item>, Option<String>), Error> {{\n",
            f.doc,
            f.name,
            self.params(&f.call.inputs)
        );
        LAYOUT.write(out, &sig);
        comments(out, "    // ", &s.why);
        comments(out, "    // ", &[STATEMENT_AS_WRITTEN.to_string()]);
        let _ = writeln!(
            out,
            "    let output = client\n        .execute_statement()\n        .statement({})",
            rs_str(&s.statement)
        );
        for p in &s.parameters {
            let _ = writeln!(
                out,
                "        .parameters({})",
                self.value(p, &|v| self.ident(v))
            );
        }
        if s.consistent {
            out.push_str("        .consistent_read(true)\n");
        }
        let _ = writeln!(
            out,
            "        .set_limit({})\n        .set_next_token(next_token)\n        .send()\n        .await?;",
            limit_expr(s.limit)
        );
        out.push_str("    Ok((output.items.unwrap_or_default(), output.next_token))\n}\n");
    }

    fn vector_search(&self, out: &mut String, f: &Function<'_>, v: &Search) {
        let query = self.ident(&v.query);
        self.signature(out, f, &format!(", {query}: &[f32]"), "Vec<(Item, f64)>");
        comments(out, "    // ", &[v.note()]);
        let _ = writeln!(
            out,
            "    let output = client\n        .search_vectors()\n        .table_name({})\n        .index_name({})",
            self.table(&v.table),
            rs_str(&v.index)
        );
        let _ = writeln!(
            out,
            "        .set_search_vector(Some(\n            {query}\n                .iter()\n                .map(|number| AttributeValue::N(number.to_string()))\n                .collect(),\n        ))\n        .top_k({})\n        .send()\n        .await?;",
            v.top_k
        );
        out.push_str("    Ok(output\n        .search_results\n        .unwrap_or_default()\n        .into_iter()\n        .map(|hit| (hit.item.unwrap_or_default(), hit.score))\n        .collect())\n}\n");
    }

    fn put(&self, out: &mut String, p: &PutStep, to: &Write<'_>) {
        // `mut` only when keys are computed into the item.
        let item = if p.keys.is_empty() {
            "item"
        } else {
            "mut item"
        };
        let ind = indent(to);
        let (obj, _) = to.objects("item", "item");
        if let Write::Alone(f) = to {
            self.signature(out, f, &format!(", {item}: Item"), "()");
        }
        self.bind_from_item(out, &p.keys, obj, ind, &[]);
        if let Write::Step { .. } = to {
            let _ = writeln!(out, "{ind}let {item} = {obj};");
        }
        for k in &p.keys {
            let _ = writeln!(
                out,
                "{ind}item.insert({}.to_string(), {});",
                rs_str(&k.attr),
                self.computed_value(k, &|v| self.ident(v))
            );
        }
        self.open_builder(out, to, ind, "put_item", "put", &p.table);
        let _ = writeln!(out, "{ind}    .set_item(Some(item))");
        if let Some(c) = &p.condition {
            let _ = writeln!(out, "{ind}    .condition_expression({})", rs_str(c));
        }
        close_builder(out, to, ind, "put");
    }

    fn update(&self, out: &mut String, u: &UpdateStep, to: &Write<'_>) {
        let ind = indent(to);
        let (key_obj, changes_obj) = to.objects("key", "changes");
        // A function borrows its `changes`; a step's are a reference to its item.
        let changes = match to {
            Write::Alone(f) => {
                self.signature(out, f, ", key: Item, changes: Item", "()");
                "&changes"
            }
            Write::Step { .. } => "changes",
        };
        let bound = self.bind_from_item(out, &u.key, key_obj, ind, &[]);
        self.bind_from_item(out, &u.derived, changes_obj, ind, &bound);
        if let Write::Step { .. } = to {
            let _ = writeln!(out, "{ind}let changes = &{changes_obj};");
        }
        self.open_builder(out, to, ind, "update_item", "update", &u.table);
        let calls = format!("{ind}    ");
        let (expr, attr_names, attr_values) = update_expression(u);
        self.key_calls(out, &u.key, &calls);
        let _ = writeln!(out, "{calls}.update_expression({})", rs_str(&expr));
        if let Some(c) = &u.condition {
            let _ = writeln!(out, "{calls}.condition_expression({})", rs_str(c));
        }
        names_calls(out, &attr_names, &calls);
        for (p, attr) in &attr_values {
            let value = match u.derived.iter().find(|d| &d.attr == attr) {
                Some(d) => self.computed_value(d, &|v| self.ident(v)),
                None => format!("value({changes}, {})?", rs_str(attr)),
            };
            let _ = writeln!(
                out,
                "{calls}.expression_attribute_values({}, {value})",
                rs_str(p)
            );
        }
        close_builder(out, to, ind, "update");
    }

    fn delete(&self, out: &mut String, d: &DeleteStep, to: &Write<'_>) {
        let ind = indent(to);
        let (key_obj, _) = to.objects("key", "key");
        if let Write::Alone(f) = to {
            self.signature(out, f, ", key: Item", "()");
        }
        self.bind_from_item(out, &d.key, key_obj, ind, &[]);
        self.open_builder(out, to, ind, "delete_item", "delete", &d.table);
        let calls = format!("{ind}    ");
        self.key_calls(out, &d.key, &calls);
        if let Some(c) = &d.condition {
            let _ = writeln!(out, "{calls}.condition_expression({})", rs_str(c));
        }
        close_builder(out, to, ind, "delete");
    }

    fn transaction(&self, out: &mut String, f: &Function<'_>, steps: &[StepParam<'_>]) {
        let params = step_params(steps, "Item", "Vec<Item>");
        self.signature(out, f, &params, "()");
        out.push_str("    let mut transact_items = Vec::new();\n");
    }

    /// A step is a block, or a loop over its items.
    fn step_start(&self, out: &mut String, step: &StepParam<'_>) -> (String, &'static str) {
        let item = if step.many {
            let _ = writeln!(out, "    for item in {} {{", step.name);
            "item".to_string()
        } else {
            out.push_str("    {\n");
            step.name.clone()
        };
        (item, "        ")
    }

    fn step_end(&self, out: &mut String, _: &StepParam<'_>) {
        out.push_str("    }\n");
    }

    fn transaction_end(&self, out: &mut String) {
        out.push_str("    client\n        .transact_write_items()\n        .set_transact_items(Some(transact_items))\n        .send()\n        .await?;\n    Ok(())\n}\n");
    }

    fn epilogue(&self, _out: &mut String, _registry: &[(String, String)]) {}
}
