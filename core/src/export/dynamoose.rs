//! Dynamoose in TypeScript: a `Schema` and a `model` per entity, and a `Table` per table that
//! holds its models (`create: false`: the table is the infrastructure's, not the model's).
//!
//! Each schema declares the table's key attributes (`hashKey`, `rangeKey`) and the entity's
//! attributes with their types, `required` and `enum`; the first model of a table carries its
//! indexes, each on its key attribute (`index: { name, type, rangeKey, project }`). Dynamoose
//! has no key templates: a key the design composes (`CUSTOMER#{customerId}`) is a string the
//! caller sets, and the template is a comment beside it; a multi-attribute GSI key is left out
//! with a comment. The table's TTL attribute is its `expires` attribute, its billing mode its
//! `throughput` (`'ON_DEMAND'`, or read and write units).

use std::fmt::Write;

use crate::export::electrodb::{dollar_template, model_attributes};
use crate::export::names::{self, Lang, Scope, ts_key, ts_str};
use crate::model::{AttrType, Design, Entity, IndexKind, KeyType, Projection, Table};

fn attribute_type(ty: AttrType) -> &'static str {
    match ty {
        AttrType::S => "String",
        AttrType::N => "Number",
        AttrType::Bool => "Boolean",
        AttrType::B => "Buffer",
        AttrType::M => "Object, schema: dynamoose.type.ANY",
        AttrType::L => "Array, schema: [dynamoose.type.ANY]",
        AttrType::SS => "Set, schema: [String]",
        AttrType::NS => "Set, schema: [Number]",
        AttrType::BS => "Set, schema: [Buffer]",
        AttrType::Null => "dynamoose.type.NULL",
    }
}

fn key_type(ty: KeyType) -> &'static str {
    match ty {
        KeyType::S => "String",
        KeyType::N => "Number",
        KeyType::B => "Buffer",
    }
}

fn schema(out: &mut String, table: &Table, entity: &Entity, var: &str, with_indexes: bool) {
    let _ = writeln!(out, "export const {var} = new dynamoose.Schema(\n  {{");
    // The settings of each key attribute: hashKey, rangeKey, and the indexes keyed by it.
    let mut written: Vec<String> = Vec::new();
    let key_settings = |name: &str| -> Vec<String> {
        let mut settings = Vec::new();
        if table.partition_key.name == name {
            settings.push("hashKey: true".to_string());
        }
        if table.sort_key.as_ref().is_some_and(|k| k.name == name) {
            settings.push("rangeKey: true".to_string());
        }
        if with_indexes {
            let mut indexes = Vec::new();
            for index in table.indexes().into_iter().skip(1) {
                let Some(index_name) = index.name else {
                    continue;
                };
                let (on, range) = match index.kind {
                    IndexKind::Lsi => (index.sort_key.first(), None),
                    _ => (index.partition_key.first(), index.sort_key.first()),
                };
                if index.partition_key.len() > 1 || index.sort_key.len() > 1 {
                    continue;
                }
                if on.is_none_or(|k| k.name != name) {
                    continue;
                }
                let mut index_settings = vec![
                    format!("name: {}", ts_str(index_name)),
                    format!(
                        "type: {}",
                        if index.kind == IndexKind::Lsi {
                            "'local'"
                        } else {
                            "'global'"
                        }
                    ),
                ];
                if let Some(range) = range {
                    index_settings.push(format!("rangeKey: {}", ts_str(&range.name)));
                }
                match index.projection {
                    Projection::All => {}
                    Projection::KeysOnly => index_settings.push("project: false".to_string()),
                    Projection::Include { attributes } => {
                        let list: Vec<String> = attributes.iter().map(|a| ts_str(a)).collect();
                        index_settings.push(format!("project: [{}]", list.join(", ")));
                    }
                }
                indexes.push(format!("{{ {} }}", index_settings.join(", ")));
            }
            match indexes.len() {
                0 => {}
                1 => settings.push(format!("index: {}", indexes[0])),
                _ => settings.push(format!("index: [{}]", indexes.join(", "))),
            }
        }
        settings
    };
    for key in table.key_attributes() {
        if entity.attribute(&key.name).is_some() {
            continue; // The attribute itself, written below with its settings.
        }
        let settings = key_settings(&key.name);
        let is_table_key = settings.iter().any(|s| s.ends_with("Key: true"));
        let template = entity.keys.get(&key.name);
        // The model that carries the indexes declares every key of them (Dynamoose looks an
        // index's rangeKey up in the schema); another model only the keys it fills.
        if template.is_none() && !is_table_key && !with_indexes {
            continue;
        }
        if let Some(template) = template {
            let _ = writeln!(
                out,
                "    // {} = {}: the caller composes it (Dynamoose has no key templates).",
                names::one_line(&key.name),
                names::one_line(&dollar_template(template))
            );
        }
        let mut all = vec![format!("type: {}", key_type(key.ty))];
        if is_table_key {
            all.push("required: true".to_string());
        }
        all.extend(settings);
        let _ = writeln!(out, "    {}: {{ {} }},", ts_key(&key.name), all.join(", "));
        written.push(key.name.clone());
    }
    for a in model_attributes(entity) {
        if written.contains(&a.name) {
            continue;
        }
        let mut all = vec![format!("type: {}", attribute_type(a.ty))];
        if a.required {
            all.push("required: true".to_string());
        }
        if !a.values.is_empty() && matches!(a.ty, AttrType::S | AttrType::N) {
            let list: Vec<String> = a
                .values
                .iter()
                .map(|v| match a.ty {
                    AttrType::N if v.parse::<f64>().is_ok() => v.clone(),
                    _ => ts_str(v),
                })
                .collect();
            all.push(format!("enum: [{}]", list.join(", ")));
        }
        all.extend(key_settings(&a.name));
        if let Some(n) = a.shards {
            let _ = writeln!(
                out,
                "    // {}: a write shard, a number below {n} the caller gives.",
                names::one_line(&a.name)
            );
        }
        let _ = writeln!(out, "    {}: {{ {} }},", ts_key(&a.name), all.join(", "));
    }
    out.push_str("  },\n  { saveUnknown: false, timestamps: false },\n);\n\n");
}

pub fn dynamoose(design: &Design) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "// Dynamoose models of {} (exported by keyplan).",
        names::one_line(&design.name)
    );
    out.push_str("import * as dynamoose from 'dynamoose';\n\n");
    let mut vars = Scope::with_taken(&["dynamoose"]);
    for table in &design.tables {
        let entities = design.entities_in(&table.name);
        for index in table.indexes().into_iter().skip(1) {
            if index.partition_key.len() > 1 || index.sort_key.len() > 1 {
                let _ = writeln!(
                    out,
                    "// {}: a multi-attribute key, which Dynamoose does not model.",
                    names::one_line(index.name.unwrap_or("index"))
                );
            }
        }
        let mut models = Vec::new();
        for (i, entity) in entities.enumerate() {
            let base = names::pascal(&entity.name);
            let schema_var = vars.unique(names::valid(
                &format!("{base}Schema"),
                Lang::TypeScript,
                "Schema",
            ));
            schema(&mut out, table, entity, &schema_var, i == 0);
            let model_var = vars.unique(names::valid(&base, Lang::TypeScript, "Model"));
            let _ = writeln!(
                out,
                "export const {model_var} = dynamoose.model({}, {schema_var}, {{ create: false, waitForActive: false }});\n",
                ts_str(&entity.name)
            );
            models.push(model_var);
        }
        if models.is_empty() {
            let _ = writeln!(
                out,
                "// Table {}: no entity, so no Dynamoose model.\n",
                names::one_line(&table.name)
            );
            continue;
        }
        let table_var = vars.unique(names::valid(
            &format!("{}Table", names::pascal(&table.name)),
            Lang::TypeScript,
            "Table",
        ));
        let mut options = vec![
            "create: false".to_string(),
            "waitForActive: false".to_string(),
        ];
        options.push(match table.billing {
            crate::model::Billing::OnDemand => "throughput: 'ON_DEMAND'".to_string(),
            crate::model::Billing::Provisioned { read, write, .. } => {
                format!("throughput: {{ read: {read}, write: {write} }}")
            }
        });
        if let Some(ttl) = &table.ttl_attribute {
            // No `ttl`: Dynamoose then gives the attribute no default, the caller sets it.
            options.push(format!("expires: {{ attribute: {} }}", ts_str(ttl)));
        }
        let _ = writeln!(
            out,
            "export const {table_var} = new dynamoose.Table({}, [{}], {{ {} }});\n",
            ts_str(&table.name),
            models.join(", "),
            options.join(", ")
        );
    }
    out
}
