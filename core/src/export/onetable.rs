//! A DynamoDB-OneTable schema per table: its indexes, and a model per entity whose key
//! attributes carry the entity's key templates as OneTable `value` templates.
//!
//! OneTable computes a key attribute from `value: 'CUSTOMER#${customerId}'` on every write, so
//! the templates move across unchanged. A write-shard variable becomes a Number attribute the
//! caller sets (OneTable has no random default), so its shard count does not travel. The
//! table's TTL attribute is the field with `ttl: true`. The schema is `as const` so OneTable's
//! `Entity<>` type derives typed items from it.

use std::fmt::Write;

use crate::export::electrodb::{dollar_template, model_attributes};
use crate::export::names::{self, Lang, Scope, ts_key, ts_str};
use crate::model::{AttrType, Design, Projection, Table};

fn onetable_type(ty: AttrType) -> &'static str {
    match ty {
        AttrType::S => "String",
        AttrType::N => "Number",
        AttrType::Bool => "Boolean",
        AttrType::B | AttrType::BS => "Buffer",
        AttrType::M | AttrType::Null => "Object",
        AttrType::L => "Array",
        AttrType::SS | AttrType::NS => "Set",
    }
}

fn key_type(ty: crate::model::KeyType) -> &'static str {
    match ty {
        crate::model::KeyType::S => "String",
        crate::model::KeyType::N => "Number",
        crate::model::KeyType::B => "Buffer",
    }
}

fn schema(out: &mut String, design: &Design, table: &Table, schema_var: &str) {
    let _ = writeln!(out, "export const {schema_var} = {{");
    out.push_str("  format: 'onetable:1.1.0',\n  version: '0.0.1',\n  indexes: {\n");
    let _ = write!(
        out,
        "    primary: {{ hash: {}",
        ts_str(&table.partition_key.name)
    );
    if let Some(sk) = &table.sort_key {
        let _ = write!(out, ", sort: {}", ts_str(&sk.name));
    }
    out.push_str(" },\n");
    for index in table.indexes().iter().skip(1) {
        let Some(name) = index.name else { continue };
        if index.partition_key.len() > 1 || index.sort_key.len() > 1 {
            let _ = writeln!(
                out,
                "    // {}: a multi-attribute key, which OneTable does not model.",
                names::one_line(name)
            );
            continue;
        }
        let Some(hash) = index.partition_key.first() else {
            continue;
        };
        let _ = write!(out, "    {}: {{ hash: {}", ts_key(name), ts_str(&hash.name));
        if let Some(sort) = index.sort_key.first() {
            let _ = write!(out, ", sort: {}", ts_str(&sort.name));
        }
        if index.kind == crate::model::IndexKind::Lsi {
            out.push_str(", type: 'local'");
        }
        match index.projection {
            Projection::All => out.push_str(", project: 'all'"),
            Projection::KeysOnly => out.push_str(", project: 'keys'"),
            Projection::Include { attributes } => {
                let list: Vec<String> = attributes.iter().map(|a| ts_str(a)).collect();
                let _ = write!(out, ", project: [{}]", list.join(", "));
            }
        }
        out.push_str(" },\n");
    }
    out.push_str("  },\n  models: {\n");
    for entity in design.entities_in(&table.name) {
        let _ = writeln!(out, "    {}: {{", ts_key(&entity.name));
        let mut written: Vec<String> = Vec::new();
        for key in table.key_attributes() {
            if entity.attribute(&key.name).is_some() {
                continue; // The attribute itself, written below.
            }
            let Some(template) = entity.keys.get(&key.name) else {
                continue;
            };
            let _ = writeln!(
                out,
                "      {}: {{ type: {}, value: {} }},",
                ts_key(&key.name),
                key_type(key.ty),
                ts_str(&dollar_template(template))
            );
            written.push(key.name.clone());
        }
        for a in model_attributes(entity) {
            if written.contains(&a.name) {
                continue;
            }
            let mut props = format!("type: {}", onetable_type(a.ty));
            if a.required {
                props.push_str(", required: true");
            }
            if !a.values.is_empty() {
                let list: Vec<String> = a.values.iter().map(|v| ts_str(v)).collect();
                let _ = write!(props, ", enum: [{}]", list.join(", "));
            }
            // OneTable's TTL field: the table's TTL attribute, as an epoch in seconds.
            if table.ttl_attribute.as_deref() == Some(a.name.as_str()) {
                props.push_str(", ttl: true");
            }
            let _ = writeln!(out, "      {}: {{ {props} }},", ts_key(&a.name));
        }
        out.push_str("    },\n");
    }
    out.push_str("  },\n  params: { isoDates: true, timestamps: false },\n} as const;\n\n");
}

pub fn onetable(design: &Design) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "// DynamoDB-OneTable schemas of {} (exported by keyplan).",
        names::one_line(&design.name)
    );
    out.push_str("import { DynamoDBClient } from '@aws-sdk/client-dynamodb';\n");
    out.push_str("import { type Entity, Table } from 'dynamodb-onetable';\n\n");
    out.push_str("export const client = new DynamoDBClient({});\n\n");
    let mut vars = Scope::with_taken(&["client", "Entity", "Table", "DynamoDBClient"]);
    for table in &design.tables {
        let base = names::pascal(&table.name);
        let schema_var = vars.unique(names::valid(
            &format!("{base}Schema"),
            Lang::TypeScript,
            "Schema",
        ));
        schema(&mut out, design, table, &schema_var);
        let table_var = vars.unique(names::valid(
            &format!("{}Table", names::camel(&table.name)),
            Lang::TypeScript,
            "table",
        ));
        let env = names::screaming(&table.name);
        let _ = writeln!(
            out,
            "export const {table_var} = new Table({{\n  client,\n  name: process.env.{}_TABLE ?? {},\n  schema: {schema_var},\n  partial: false,\n}});\n",
            if env.is_empty() {
                "DESIGN".to_string()
            } else {
                env
            },
            ts_str(&table.name)
        );
        for entity in design.entities_in(&table.name) {
            let ty = vars.unique(names::valid(
                &names::pascal(&entity.name),
                Lang::TypeScript,
                "Model",
            ));
            let _ = writeln!(
                out,
                "export type {ty} = Entity<typeof {schema_var}.models[{}]>;",
                ts_str(&entity.name)
            );
            let model = vars.unique(format!("{ty}Model"));
            let _ = writeln!(
                out,
                "export const {model} = {table_var}.getModel<{ty}>({});\n",
                ts_str(&entity.name)
            );
        }
    }
    out
}
