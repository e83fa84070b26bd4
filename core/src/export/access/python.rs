//! The Python dialect: a function per pattern on a boto3 DynamoDB client (the low-level one:
//! items go through `TypeSerializer` and `TypeDeserializer`), and a `PATTERNS` table of every
//! function. Signatures are laid out as black would.

use std::fmt::Write as _;

use crate::export::names::{self, Lang, Scope, py_str};
use crate::model::{AttrType, Design};

use super::driver::{
    Dialect, Function, Idents, Layout, StepParam, Tables, Write, comments, enclosed, step_params,
};
use super::vector::Search;
use super::{
    Call, DeleteStep, Get, Input, PutStep, Read, STATEMENT_AS_WRITTEN, Scan, Statement,
    TemplatedKey, UpdateStep, gathers_shards, update_expression, writes_shards,
};

/// black's layout of a `def` longer than its line.
const LAYOUT: Layout = Layout {
    starts: "def ",
    first_param: "    client, ",
    width: 99,
};

/// Request parameters: (name, Python expression).
type Params = Vec<(String, String)>;

#[derive(Default)]
pub(super) struct Python {
    /// Each table's constant (`ORDERS_TABLE`).
    tables: Tables,
    idents: Idents,
}

impl Python {
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
            params.push_str(": ");
            params.push_str(input_type(i.ty));
        }
        params
    }

    fn table(&self, name: &str) -> String {
        self.tables.expr(name, "", py_str)
    }

    /// The function's signature line (`def name(client...) -> returns:`) and its docstring.
    fn signature(&self, out: &mut String, f: &Function<'_>, params: &str, returns: &str) {
        let sig = format!(
            "\n\ndef {}(client{params}) -> {returns}:\n    \"\"\"{}\"\"\"\n",
            f.name,
            doc(f)
        );
        LAYOUT.write(out, &sig);
    }

    /// The signature of a read returning one page: `limit` and `start_key` after the inputs.
    fn page_signature(&self, out: &mut String, f: &Function<'_>, limit: Option<u32>, more: &str) {
        let limit = match limit {
            Some(n) => format!("Optional[int] = {n}"),
            None => "Optional[int] = None".to_string(),
        };
        let sig = format!(
            "\n\ndef {}(\n    client{}, limit: {limit}, start_key: Optional[Item] = None\n) -> tuple[list[Item], Optional[Item]]:\n    \"\"\"{}{more}\"\"\"\n",
            f.name,
            self.params(&f.call.inputs),
            doc(f)
        );
        LAYOUT.write(out, &sig);
    }

    /// The request of a Put: the table, the item with its computed keys, the condition.
    fn put_request(&self, p: &PutStep, obj: &str) -> Params {
        let keys: Params = p
            .keys
            .iter()
            .map(|k| {
                let value = self.computed_value(k, &|v| item_value(obj, v));
                (k.attr.clone(), value)
            })
            .collect();
        let mut request = vec![
            ("TableName".to_string(), self.table(&p.table)),
            (
                "Item".to_string(),
                format!("_to_dynamo({{**{obj}, **{}}})", dict(&keys)),
            ),
        ];
        if let Some(c) = &p.condition {
            request.push(("ConditionExpression".to_string(), py_str(c)));
        }
        request
    }

    /// The `Key` parameter, each variable spelled by `var`.
    fn key_param(&self, key: &[TemplatedKey], var: &dyn Fn(&str) -> String) -> (String, String) {
        let key: Params = key
            .iter()
            .map(|k| (k.attr.clone(), self.value(k, var)))
            .collect();
        ("Key".to_string(), format!("_to_dynamo({})", dict(&key)))
    }

    /// The request of an Update: the table, the key, the SET expression and its values.
    fn update_request(&self, u: &UpdateStep, key_obj: &str, changes_obj: &str) -> Params {
        let (expr, attr_names, attr_values) = update_expression(u);
        let var = |v: &str| {
            let obj = if u.reads_from_key(v) {
                key_obj
            } else {
                changes_obj
            };
            item_value(obj, v)
        };
        let values: Params = attr_values
            .iter()
            .map(|(placeholder, attr)| {
                let value = match u.derived.iter().find(|d| &d.attr == attr) {
                    Some(d) => self.computed_value(d, &var),
                    None => format!("{changes_obj}[{}]", py_str(attr)),
                };
                (placeholder.clone(), value)
            })
            .collect();
        let mut request = vec![
            ("TableName".to_string(), self.table(&u.table)),
            self.key_param(&u.key, &|v| item_value(key_obj, v)),
            ("UpdateExpression".to_string(), py_str(&expr)),
        ];
        if let Some(c) = &u.condition {
            request.push(("ConditionExpression".to_string(), py_str(c)));
        }
        request.push((
            "ExpressionAttributeNames".to_string(),
            dict(&quoted_values(&attr_names)),
        ));
        request.push((
            "ExpressionAttributeValues".to_string(),
            format!("_to_dynamo({})", dict(&values)),
        ));
        request
    }

    /// A write: a function calling `method` with `request` as keyword arguments (its
    /// parameters after the client are `params`), or a transaction step appending `op`.
    fn write(
        &self,
        out: &mut String,
        to: &Write<'_>,
        params: &str,
        method: &str,
        op: &str,
        request: &Params,
    ) {
        match to {
            Write::Alone(f) => {
                self.signature(out, f, params, "None");
                let _ = write!(
                    out,
                    "    client.{method}(\n{}    )\n",
                    kwargs(request, "        ")
                );
            }
            Write::Step { indent, .. } => {
                let _ = writeln!(
                    out,
                    "{indent}transact_items.append({{{}: {}}})",
                    py_str(op),
                    dict_literal(request, indent)
                );
            }
        }
    }
}

/// The docstring's first line.
fn doc(f: &Function<'_>) -> String {
    f.doc.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The attribute `attr` of the dict `obj`, its key written by [`names::py_expr_str`]: it may
/// stand inside an f-string expression, which cannot hold a backslash before Python 3.12.
fn item_value(obj: &str, attr: &str) -> String {
    format!("{obj}[{}]", names::py_expr_str(attr))
}

/// An attribute's identifier in Python: snake case, valid.
fn make_ident(attr: &str) -> String {
    names::valid(&names::snake(attr), Lang::Python, "value")
}

fn input_type(ty: AttrType) -> &'static str {
    match ty {
        AttrType::N => "int | Decimal",
        _ => "str",
    }
}

fn dict(pairs: &[(String, String)]) -> String {
    enclosed(("{", ", ", "}"), pairs, |out, (k, v)| {
        let _ = write!(out, "{}: {v}", py_str(k));
    })
}

/// Placeholder and attribute-name pairs with the names as string literals.
fn quoted_values(pairs: &[(String, String)]) -> Params {
    pairs.iter().map(|(p, a)| (p.clone(), py_str(a))).collect()
}

fn kwargs(pairs: &[(String, String)], ind: &str) -> String {
    enclosed(("", "", ""), pairs, |out, (k, v)| {
        let _ = writeln!(out, "{ind}{k}={v},");
    })
}

/// A request dict literal, a key per line, closed at `ind`.
fn dict_literal(pairs: &[(String, String)], ind: &str) -> String {
    let mut out = String::from("{\n");
    for (k, v) in pairs {
        let _ = writeln!(out, "{ind}    {}: {v},", py_str(k));
    }
    let _ = write!(out, "{ind}}}");
    out
}

/// The end of a read returning one page: Limit and ExclusiveStartKey, the call, the page.
fn page_end(out: &mut String, request: &Params, method: &str) {
    let _ = writeln!(
        out,
        "    request: dict[str, Any] = {}",
        dict_literal(request, "    ")
    );
    out.push_str("    if limit is not None:\n        request[\"Limit\"] = limit\n");
    out.push_str("    if start_key is not None:\n        request[\"ExclusiveStartKey\"] = _to_dynamo(start_key)\n");
    let _ = writeln!(out, "    response = client.{method}(**request)");
    out.push_str("    next_key = response.get(\"LastEvaluatedKey\")\n");
    out.push_str("    items = [_from_dynamo(item) for item in response.get(\"Items\", [])]\n");
    out.push_str("    return items, (_from_dynamo(next_key) if next_key else None)\n");
}

impl Dialect for Python {
    const LANG: Lang = Lang::Python;
    const CASE: fn(&str) -> String = names::snake;
    const NOTE: &'static str = "\n\n# ";
    const QUOTES: [&'static str; 2] = ["f\"", "\""];
    const HOLE: [&'static str; 2] = ["{", "}"];
    const TAKEN: &'static [&'static str] = &[
        "Item", "Decimal", "Any", "Optional", "os", "random", "PATTERNS",
    ];

    fn literal(&self, text: &str) -> String {
        py_str(text)
    }

    fn random_shard(&self, n: u32) -> String {
        format!("random.randrange({n})")
    }

    /// Literal text is escaped; the expressions go in raw (they use single quotes, since an
    /// f-string expression cannot hold a backslash before Python 3.12).
    fn text(&self, text: &mut String, s: &str) {
        names::push_py_format_text(text, s);
    }

    fn preamble(&mut self, out: &mut String, design: &Design, calls: &[Call], _: &mut Scope) {
        let _ = writeln!(
            out,
            "\"\"\"Access code for {} (exported by keyplan): one function per access pattern, on boto3.\"\"\"\n",
            names::one_line(&design.name)
                .replace('\\', "\\\\")
                .replace("\"\"\"", "\\\"\\\"\\\"")
        );
        out.push_str("from __future__ import annotations\n\nimport os\n");
        if writes_shards(design) {
            out.push_str("import random\n");
        }
        out.push_str("from decimal import Decimal\nfrom typing import Any, Optional\n\nfrom boto3.dynamodb.types import TypeDeserializer, TypeSerializer\n\n");
        self.tables = Tables::new(
            design,
            Lang::Python,
            |t| format!("{}_TABLE", names::screaming(t)),
            "TABLE",
        );
        for (t, c) in self.tables.iter() {
            let _ = writeln!(out, "{c} = os.environ.get({}, {})", py_str(c), py_str(t));
        }
        out.push_str("\nItem = dict[str, Any]\n\n_serializer = TypeSerializer()\n_deserializer = TypeDeserializer()\n\n\n");
        out.push_str("def _to_dynamo(item: Item) -> dict[str, Any]:\n    return {name: _serializer.serialize(value) for name, value in item.items()}\n\n\n");
        out.push_str("def _from_dynamo(item: dict[str, Any]) -> Item:\n    return {name: _deserializer.deserialize(value) for name, value in item.items()}\n");
        if gathers_shards(calls) {
            out.push_str("\n\ndef _sort_key(value: Any) -> tuple[int, Any]:\n    \"\"\"DynamoDB's order of key values: numbers numerically, strings by code point.\"\"\"\n    return (0, value) if isinstance(value, (int, Decimal)) else (1, str(value))\n");
        }
    }

    fn get(&self, out: &mut String, f: &Function<'_>, g: &Get) {
        self.signature(out, f, &self.params(&f.call.inputs), "Optional[Item]");
        let mut request = vec![
            ("TableName".to_string(), self.table(&g.table)),
            self.key_param(&g.key, &|v| self.ident(v)),
        ];
        if g.consistent {
            request.push(("ConsistentRead".to_string(), "True".to_string()));
        }
        let _ = write!(
            out,
            "    response = client.get_item(\n{}    )\n",
            kwargs(&request, "        ")
        );
        out.push_str(
            "    item = response.get(\"Item\")\n    return _from_dynamo(item) if item else None\n",
        );
    }

    fn query(&self, out: &mut String, f: &Function<'_>, r: &Read) {
        let mut request = vec![("TableName".to_string(), self.table(&r.table))];
        if let Some(i) = &r.index {
            request.push(("IndexName".to_string(), py_str(i)));
        }
        request.push((
            "KeyConditionExpression".to_string(),
            py_str(&r.key_condition),
        ));
        if let Some(filter) = &r.filter {
            request.push(("FilterExpression".to_string(), py_str(filter)));
        }
        request.push((
            "ExpressionAttributeNames".to_string(),
            dict(&quoted_values(&r.names)),
        ));
        let values = |var: &dyn Fn(&str) -> String| -> (String, String) {
            let values: Params = r
                .values
                .iter()
                .map(|p| (p.name.clone(), self.value(&p.value, var)))
                .collect();
            (
                "ExpressionAttributeValues".to_string(),
                format!("_to_dynamo({})", dict(&values)),
            )
        };
        let Some((shard_var, n)) = &r.shards else {
            self.page_signature(
                out,
                f,
                r.limit,
                "\n\n    Returns one page of items and the key to pass as `start_key` for the next, if any.\n    ",
            );
            request.push(values(&|v| self.ident(v)));
            if !r.forward {
                request.push(("ScanIndexForward".to_string(), "False".to_string()));
            }
            if r.consistent {
                request.push(("ConsistentRead".to_string(), "True".to_string()));
            }
            page_end(out, &request, "query");
            return;
        };
        let limit = r.limit.unwrap_or(100);
        self.signature(
            out,
            f,
            &format!("{}, limit: int = {limit}", self.params(&f.call.inputs)),
            "list[Item]",
        );
        let _ = writeln!(
            out,
            "    # The partition is write-sharded {n} ways: query every shard, then merge."
        );
        out.push_str("    # Each shard is read page by page (a page ends at 1 MB) until it gave `limit` items.\n");
        out.push_str("    items: list[Item] = []\n");
        let _ = writeln!(out, "    for shard in range({n}):");
        out.push_str("        found: list[Item] = []\n        start: dict[str, Any] = {}\n        while len(found) < limit:\n");
        request.push(values(&|v| {
            if v == shard_var {
                "shard".to_string()
            } else {
                self.ident(v)
            }
        }));
        if !r.forward {
            request.push(("ScanIndexForward".to_string(), "False".to_string()));
        }
        request.push(("Limit".to_string(), "limit - len(found)".to_string()));
        let _ = write!(
            out,
            "            response = client.query(\n{}                **start,\n            )\n",
            kwargs(&request, "                ")
        );
        out.push_str("            found.extend(_from_dynamo(item) for item in response.get(\"Items\", []))\n");
        out.push_str("            if \"LastEvaluatedKey\" not in response:\n                break\n            start = {\"ExclusiveStartKey\": response[\"LastEvaluatedKey\"]}\n        items.extend(found)\n");
        if let Some((attr, _)) = &r.merge_by {
            let _ = writeln!(
                out,
                "    items.sort(key=lambda item: _sort_key(item.get({})){})",
                py_str(attr),
                if r.forward { "" } else { ", reverse=True" }
            );
        }
        out.push_str("    return items[:limit]\n");
    }

    fn scan(&self, out: &mut String, f: &Function<'_>, s: &Scan) {
        self.page_signature(out, f, s.limit, "");
        comments(out, "    # ", &s.why);
        out.push_str("    # No index serves this pattern: this Scan reads the whole table.\n");
        let mut request = vec![(
            "TableName".to_string(),
            s.table
                .as_deref()
                .map(|t| self.table(t))
                .unwrap_or_default(),
        )];
        if !s.filter.is_empty() {
            let values: Params = s
                .values
                .iter()
                .map(|(p, a)| (p.clone(), self.ident(a)))
                .collect();
            request.push(("FilterExpression".to_string(), py_str(&s.filter)));
            request.push((
                "ExpressionAttributeNames".to_string(),
                dict(&quoted_values(&s.names)),
            ));
            request.push((
                "ExpressionAttributeValues".to_string(),
                format!("_to_dynamo({})", dict(&values)),
            ));
        }
        page_end(out, &request, "scan");
    }

    fn statement(&self, out: &mut String, f: &Function<'_>, s: &Statement) {
        let limit = match s.limit {
            Some(n) => format!("Optional[int] = {n}"),
            None => "Optional[int] = None".to_string(),
        };
        let sig = format!(
            "\n\ndef {}(\n    client{}, limit: {limit}, next_token: Optional[str] = None\n) -> tuple[list[Item], Optional[str]]:\n    \"\"\"{}\n\n    Returns one page of items and the token to pass as `next_token` for the next, if any.\n    \"\"\"\n",
            f.name,
            self.params(&f.call.inputs),
            doc(f)
        );
        LAYOUT.write(out, &sig);
        comments(out, "    # ", &s.why);
        comments(out, "    # ", &[STATEMENT_AS_WRITTEN.to_string()]);
        let mut request = vec![("Statement".to_string(), py_str(&s.statement))];
        if !s.parameters.is_empty() {
            let values = enclosed(("[", ", ", "]"), &s.parameters, |out, p| {
                out.push_str(&self.value(p, &|v| self.ident(v)));
            });
            request.push((
                "Parameters".to_string(),
                format!("[_serializer.serialize(value) for value in {values}]"),
            ));
        }
        if s.consistent {
            request.push(("ConsistentRead".to_string(), "True".to_string()));
        }
        let _ = writeln!(
            out,
            "    request: dict[str, Any] = {}",
            dict_literal(&request, "    ")
        );
        out.push_str("    if limit is not None:\n        request[\"Limit\"] = limit\n");
        out.push_str(
            "    if next_token is not None:\n        request[\"NextToken\"] = next_token\n",
        );
        out.push_str("    response = client.execute_statement(**request)\n");
        out.push_str("    items = [_from_dynamo(item) for item in response.get(\"Items\", [])]\n");
        out.push_str("    return items, response.get(\"NextToken\")\n");
    }

    fn vector_search(&self, out: &mut String, f: &Function<'_>, v: &Search) {
        let query = self.ident(&v.query);
        self.signature(
            out,
            f,
            &format!(", {query}: list[float]"),
            "list[tuple[Item, float]]",
        );
        comments(out, "    # ", &[v.note()]);
        let request = vec![
            ("TableName".to_string(), self.table(&v.table)),
            ("IndexName".to_string(), py_str(&v.index)),
            (
                "SearchVector".to_string(),
                format!("[{{\"N\": str(number)}} for number in {query}]"),
            ),
            ("TopK".to_string(), v.top_k.to_string()),
        ];
        let _ = write!(
            out,
            "    response = client.search_vectors(\n{}    )\n",
            kwargs(&request, "        ")
        );
        out.push_str("    return [\n        (_from_dynamo(hit.get(\"Item\", {})), hit[\"Score\"])\n        for hit in response.get(\"SearchResults\", [])\n    ]\n");
    }

    fn put(&self, out: &mut String, p: &PutStep, to: &Write<'_>) {
        let (item, _) = to.objects("item", "item");
        let request = self.put_request(p, item);
        self.write(out, to, ", item: Item", "put_item", "Put", &request);
    }

    fn update(&self, out: &mut String, u: &UpdateStep, to: &Write<'_>) {
        let (key, changes) = to.objects("key", "changes");
        let request = self.update_request(u, key, changes);
        let params = ", key: Item, changes: Item";
        self.write(out, to, params, "update_item", "Update", &request);
    }

    fn delete(&self, out: &mut String, d: &DeleteStep, to: &Write<'_>) {
        let (key, _) = to.objects("key", "key");
        let mut request = vec![
            ("TableName".to_string(), self.table(&d.table)),
            self.key_param(&d.key, &|v| item_value(key, v)),
        ];
        if let Some(c) = &d.condition {
            request.push(("ConditionExpression".to_string(), py_str(c)));
        }
        self.write(out, to, ", key: Item", "delete_item", "Delete", &request);
    }

    fn transaction(&self, out: &mut String, f: &Function<'_>, steps: &[StepParam<'_>]) {
        let params = step_params(steps, "Item", "list[Item]");
        self.signature(out, f, &params, "None");
        out.push_str("    transact_items: list[dict[str, Any]] = []\n");
    }

    fn step_start(&self, out: &mut String, step: &StepParam<'_>) -> (String, &'static str) {
        if !step.many {
            return (step.name.clone(), "    ");
        }
        let _ = writeln!(out, "    for item in {}:", step.name);
        ("item".to_string(), "        ")
    }

    /// A step's loop ends where its indentation does.
    fn step_end(&self, _: &mut String, _: &StepParam<'_>) {}

    fn transaction_end(&self, out: &mut String) {
        out.push_str("    client.transact_write_items(TransactItems=transact_items)\n");
    }

    fn epilogue(&self, out: &mut String, registry: &[(String, String)]) {
        out.push_str(
            "\n\n# Every pattern's function, by the pattern's name in the design.\nPATTERNS = {\n",
        );
        for (pattern, fname) in registry {
            let _ = writeln!(out, "    {}: {fname},", py_str(pattern));
        }
        out.push_str("}\n");
    }
}
