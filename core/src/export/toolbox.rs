//! DynamoDB-Toolbox v2 in TypeScript: a `Table` per table (its keys and indexes, a GSI's
//! multi-attribute keys as `partitionKeys`/`sortKeys`) and an `Entity` per entity, its schema
//! an `item({...})` of its attributes (`string()`, `number().optional()`,
//! `string().enum(...)`).
//!
//! Keys are computed from the design's key templates, as DynamoDB-Toolbox computes them: each
//! variable of a table key's template is a `.key()` attribute and `computeKey` returns the
//! templates as template literals; an index key the entity fills is an attribute `.link()`ed
//! to its template (in `.and()`, where the other attributes are known). An entity whose table
//! keys are its own attributes needs no `computeKey`. What the library cannot say is a comment:
//! a projection other than all (DynamoDB-Toolbox does not declare them), the TTL attribute, a
//! write shard's count (the caller gives the number). The library's own entity name and
//! timestamp attributes are off (`entityAttribute: false`, `timestamps: false`), so an item
//! holds what the design says.

use std::fmt::Write;

use crate::export::electrodb::model_attributes;
use crate::export::names::{self, Lang, Scope, ts_key, ts_str, ts_template_text};
use crate::model::{AttrType, Design, Entity, IndexKind, KeyAttribute, KeyType, Projection, Table};
use crate::template::{KeyTemplate, Part};

fn key_type(ty: KeyType) -> &'static str {
    match ty {
        KeyType::S => "'string'",
        KeyType::N => "'number'",
        KeyType::B => "'binary'",
    }
}

/// The schema builder of a key attribute's type.
fn key_builder(ty: KeyType) -> &'static str {
    match ty {
        KeyType::S => "string()",
        KeyType::N => "number()",
        KeyType::B => "binary()",
    }
}

fn key(k: &KeyAttribute) -> String {
    format!("{{ name: {}, type: {} }}", ts_str(&k.name), key_type(k.ty))
}

fn schema_type(ty: AttrType) -> &'static str {
    match ty {
        AttrType::S => "string()",
        AttrType::N => "number()",
        AttrType::Bool => "boolean()",
        AttrType::B => "binary()",
        AttrType::SS => "set(string())",
        AttrType::NS => "set(number())",
        AttrType::BS => "set(binary())",
        AttrType::L => "list(any())",
        AttrType::M => "record(string(), any())",
        AttrType::Null => "nul()",
    }
}

/// A key template as a TypeScript expression of the destructured variables: a template
/// literal, or the variable itself when the template is one variable (a number key stays a
/// number).
fn template_expression(template: &KeyTemplate) -> String {
    if let [Part::Var(v)] = template.parts() {
        return local(&v.name);
    }
    let mut out = String::from("`");
    for part in template.parts() {
        match part {
            Part::Literal(s) => out.push_str(&ts_template_text(s)),
            Part::Var(v) => {
                let _ = write!(out, "${{{}}}", local(&v.name));
            }
        }
    }
    out.push('`');
    out
}

/// The local variable an attribute is destructured into: its name, or a valid identifier.
fn local(name: &str) -> String {
    names::valid(name, Lang::TypeScript, "value")
}

/// An attribute destructured from the item: `{ customerId }`, or `{ 'order-id': order_id }`
/// for a name that is no identifier (or a reserved word).
fn binding(name: &str) -> String {
    let local = local(name);
    if local == name {
        local
    } else {
        format!("{}: {local}", ts_key(name))
    }
}

fn table(out: &mut String, table: &Table, var: &str) {
    let env = names::screaming(&table.name);
    let _ = writeln!(out, "export const {var} = new Table({{");
    let _ = writeln!(
        out,
        "  name: process.env.{}_TABLE ?? {},",
        if env.is_empty() { "DESIGN" } else { &env },
        ts_str(&table.name)
    );
    let _ = writeln!(out, "  partitionKey: {},", key(&table.partition_key));
    if let Some(sk) = &table.sort_key {
        let _ = writeln!(out, "  sortKey: {},", key(sk));
    }
    let indexes: Vec<_> = table.indexes().into_iter().skip(1).collect();
    if !indexes.is_empty() {
        out.push_str("  indexes: {\n");
        for index in indexes {
            let Some(name) = index.name else { continue };
            if *index.projection != Projection::All {
                let _ = writeln!(
                    out,
                    "    // {}: projects {}, which DynamoDB-Toolbox does not declare.",
                    names::one_line(name),
                    match index.projection {
                        Projection::KeysOnly => "keys only".to_string(),
                        Projection::Include { attributes } => attributes.join(", "),
                        Projection::All => String::new(),
                    }
                );
            }
            let keys = |one: &str, many: &str, list: &[KeyAttribute]| match list {
                [] => String::new(),
                [k] => format!(", {one}: {}", key(k)),
                keys => format!(
                    ", {many}: [{}]",
                    keys.iter().map(key).collect::<Vec<_>>().join(", ")
                ),
            };
            if index.kind == IndexKind::Lsi {
                let _ = writeln!(
                    out,
                    "    {}: {{ type: 'local'{} }},",
                    ts_key(name),
                    keys("sortKey", "sortKeys", index.sort_key)
                );
            } else {
                let _ = writeln!(
                    out,
                    "    {}: {{ type: 'global'{}{} }},",
                    ts_key(name),
                    keys("partitionKey", "partitionKeys", index.partition_key),
                    keys("sortKey", "sortKeys", index.sort_key)
                );
            }
        }
        out.push_str("  },\n");
    }
    out.push_str("  documentClient,\n});\n\n");
}

fn entity(out: &mut String, table: &Table, table_var: &str, entity: &Entity, var: &str) {
    let table_keys: Vec<&KeyAttribute> = std::iter::once(&table.partition_key)
        .chain(table.sort_key.as_ref())
        .collect();
    // computeKey is needed when a table key is a template, not the entity's own attribute.
    let computed: Vec<(&KeyAttribute, KeyTemplate)> = table_keys
        .iter()
        .filter(|k| entity.attribute(&k.name).is_none())
        .filter_map(|k| entity.keys.get(&k.name).map(|t| (*k, t.clone())))
        .collect();
    let key_vars: Vec<String> = computed
        .iter()
        .flat_map(|(_, t)| t.vars().map(|v| v.name.clone()).collect::<Vec<_>>())
        .collect();
    // Index keys the entity fills by a template: linked attributes.
    let linked: Vec<(&KeyAttribute, &KeyTemplate)> = table
        .key_attributes()
        .into_iter()
        .filter(|k| !table_keys.iter().any(|t| t.name == k.name))
        .filter(|k| entity.attribute(&k.name).is_none())
        .filter_map(|k| entity.keys.get(&k.name).map(|t| (k, t)))
        .collect();
    let _ = writeln!(out, "export const {var} = new Entity({{");
    let _ = writeln!(out, "  name: {},", ts_str(&entity.name));
    let _ = writeln!(out, "  table: {table_var},");
    out.push_str("  schema: item({\n");
    let table_key_names: Vec<&str> = table_keys.iter().map(|k| k.name.as_str()).collect();
    for a in model_attributes(entity) {
        if linked.iter().any(|(k, _)| k.name == a.name) {
            continue;
        }
        let mut builder = schema_type(a.ty).to_string();
        if !a.values.is_empty() {
            let values: Vec<String> = a
                .values
                .iter()
                .map(|v| match a.ty {
                    AttrType::N if v.parse::<f64>().is_ok() => v.clone(),
                    _ => ts_str(v),
                })
                .collect();
            if matches!(a.ty, AttrType::S | AttrType::N) {
                let _ = write!(builder, ".enum({})", values.join(", "));
            }
        }
        if key_vars.contains(&a.name) || table_key_names.contains(&a.name.as_str()) {
            builder.push_str(".key()");
        } else if !a.required {
            builder.push_str(".optional()");
        }
        if let Some(n) = a.shards {
            let _ = writeln!(
                out,
                "    // {}: a write shard, a number below {n} the caller gives.",
                names::one_line(&a.name)
            );
        }
        let _ = writeln!(out, "    {}: {builder},", ts_key(&a.name));
    }
    // A table key the entity neither holds nor templates: the value the caller gives.
    for k in &table_keys {
        if !entity.fills(&k.name) {
            let ty = key_builder(k.ty);
            let _ = writeln!(
                out,
                "    // {}: the design gives no template for this key; the caller gives it.",
                names::one_line(&k.name)
            );
            let _ = writeln!(out, "    {}: {ty}.key(),", ts_key(&k.name));
        }
    }
    out.push_str("  })");
    if !linked.is_empty() {
        out.push_str(".and(prev => ({\n");
        for (k, template) in &linked {
            let vars: Vec<String> = template.vars().map(|v| binding(&v.name)).collect();
            let ty = key_builder(k.ty);
            let _ = writeln!(
                out,
                "    {}: {ty}.link<typeof prev>(({{ {} }}) => {}),",
                ts_key(&k.name),
                vars.join(", "),
                template_expression(template)
            );
        }
        out.push_str("  }))");
    }
    out.push_str(",\n");
    if !computed.is_empty() {
        let mut vars: Vec<String> = Vec::new();
        for v in &key_vars {
            let b = binding(v);
            if !vars.contains(&b) {
                vars.push(b);
            }
        }
        // A table key that is the entity's own attribute is passed through.
        for k in &table_keys {
            if !entity.keys.contains_key(&k.name) && !vars.contains(&binding(&k.name)) {
                vars.push(binding(&k.name));
            }
        }
        let _ = writeln!(out, "  computeKey: ({{ {} }}) => ({{", vars.join(", "));
        for k in &table_keys {
            let expression = match computed.iter().find(|(c, _)| c.name == k.name) {
                Some((_, template)) => template_expression(template),
                None => local(&k.name),
            };
            let _ = writeln!(out, "    {}: {expression},", ts_key(&k.name));
        }
        out.push_str("  }),\n");
    }
    out.push_str("  entityAttribute: false,\n  timestamps: false,\n});\n\n");
}

pub fn toolbox(design: &Design) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "// DynamoDB-Toolbox v2 tables and entities of {} (exported by keyplan).",
        names::one_line(&design.name)
    );
    out.push_str("import { DynamoDBClient } from '@aws-sdk/client-dynamodb';\n");
    out.push_str("import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';\n");
    out.push_str("import {\n  Entity,\n  Table,\n  any,\n  binary,\n  boolean,\n  item,\n  list,\n  nul,\n  number,\n  record,\n  set,\n  string,\n} from 'dynamodb-toolbox';\n\n");
    out.push_str(
        "export const documentClient = DynamoDBDocumentClient.from(new DynamoDBClient({}));\n\n",
    );
    let mut vars = Scope::with_taken(&[
        "documentClient",
        "DynamoDBClient",
        "DynamoDBDocumentClient",
        "Entity",
        "Table",
        "any",
        "binary",
        "boolean",
        "item",
        "list",
        "nul",
        "number",
        "record",
        "set",
        "string",
        "prev",
    ]);
    for t in &design.tables {
        let table_var = vars.unique(names::valid(
            &format!("{}Table", names::camel(&t.name)),
            Lang::TypeScript,
            "table",
        ));
        if let Some(ttl) = &t.ttl_attribute {
            let _ = writeln!(
                out,
                "// Table {}: its TTL attribute is `{}` (a table setting DynamoDB-Toolbox does not hold).",
                names::one_line(&t.name),
                names::one_line(ttl)
            );
        }
        table(&mut out, t, &table_var);
        for e in design.entities_in(&t.name) {
            let var = vars.unique(names::valid(
                &format!("{}Entity", names::pascal(&e.name)),
                Lang::TypeScript,
                "Entity",
            ));
            entity(&mut out, t, &table_var, e, &var);
        }
    }
    out
}
