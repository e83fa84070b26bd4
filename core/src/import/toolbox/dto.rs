//! DynamoDB-Toolbox's DTO JSON: `TableDTO` (`tableName`, `partitionKey`, `sortKey`,
//! `indexes`, `entityAttributeSavedAs`) and `EntityDTO` (`entityName`, `schema` with its
//! `attributes`, `entityAttribute`, `timestamps` and its `table`'s TableDTO). A DTO holds no
//! function: a `computeKey` or `.link()` shows only as its key attributes (`key: true`,
//! `hidden: true`) or a `keyLink`/`putLink` of `linkerId: 'custom'`, and what it computes is
//! assumed, and said.

use serde_json::Value;

use super::{AttrDef, EntityDef, TableDef, TableRef, attr_type, build, enum_values, table_keys};
use crate::import::assumed::line_of;
use crate::import::{Assumption, ImportError, Imported};

/// Which properties of a DTO attribute are read; the others are noted.
const READ: &[&str] = &[
    "type",
    "required",
    "key",
    "savedAs",
    "enum",
    "transform",
    "elements",
    "attributes",
    "hidden",
    "keyLink",
    "putLink",
    "updateLink",
];

pub(super) fn import(text: &str, value: &Value) -> Result<Imported, ImportError> {
    let mut notes = Vec::new();
    let mut assumed = Vec::new();
    let mut tables = Vec::new();
    let mut entities = Vec::new();
    let items: Vec<&Value> = match value {
        Value::Array(items) => items.iter().collect(),
        other => vec![other],
    };
    for item in items {
        if item.get("entityName").is_some() {
            entities.push(entity(text, item, &mut notes, &mut assumed));
        } else {
            tables.push(table(text, item, &mut notes, &mut assumed));
        }
    }
    notes.insert(
        0,
        format!(
            "read {} table(s) and {} entity(ies) from DynamoDB-Toolbox DTO JSON",
            tables.len()
                + entities
                    .iter()
                    .filter(|e| matches!(e.table, TableRef::Def(_)))
                    .count(),
            entities.len()
        ),
    );
    build("DynamoDB-Toolbox", tables, entities, notes, assumed)
}

fn table(
    text: &str,
    value: &Value,
    notes: &mut Vec<String>,
    assumed: &mut Vec<Assumption>,
) -> TableDef {
    let line = line_of(text, &["partitionKey"]);
    let name = match value.get("tableName").and_then(Value::as_str) {
        Some(name) => name.to_string(),
        None => {
            assumed.push(Assumption::at(
                line,
                "the TableDTO has no `tableName`",
                "the table is called `table`",
            ));
            "table".to_string()
        }
    };
    let mut def = TableDef {
        name,
        line,
        ..TableDef::default()
    };
    table_keys(&mut def, value, notes);
    def
}

fn entity(
    text: &str,
    value: &Value,
    notes: &mut Vec<String>,
    assumed: &mut Vec<Assumption>,
) -> EntityDef {
    let name = value
        .get("entityName")
        .and_then(Value::as_str)
        .unwrap_or("entity")
        .to_string();
    let line = line_of(text, &["entityName"]);
    let table_value = value.get("table").unwrap_or(&Value::Null);
    let table_def = table(text, table_value, notes, assumed);
    let saved_as = table_value
        .get("entityAttributeSavedAs")
        .and_then(Value::as_str)
        .unwrap_or("_et");
    notes.extend(super::library_attributes_note(
        &name,
        value.get("entityAttribute"),
        value.get("timestamps"),
        saved_as,
    ));
    let key_names: Vec<String> = [&table_def.partition_key, &table_def.sort_key]
        .into_iter()
        .flatten()
        .map(|k| k.name.clone())
        .collect();
    let index_keys: Vec<String> = table_def
        .gsis
        .iter()
        .flat_map(|g| g.partition_key.iter().chain(&g.sort_key))
        .chain(table_def.lsis.iter().map(|l| &l.sort_key))
        .map(|k| k.name.clone())
        .collect();
    let mut attributes = Vec::new();
    let mut unread = Vec::new();
    let mut compute_key_unread = false;
    let members = value
        .get("schema")
        .and_then(|s| s.get("attributes"))
        .and_then(Value::as_object);
    for (attr_name, attr) in members.into_iter().flatten() {
        let stored = attr
            .get("savedAs")
            .and_then(Value::as_str)
            .unwrap_or(attr_name);
        // EntityDTO adds a hidden key attribute for a table key no attribute is saved as:
        // computeKey gives it, and a DTO holds no function.
        let hidden_key = attr.get("hidden").and_then(Value::as_bool) == Some(true)
            && attr.get("key").and_then(Value::as_bool) == Some(true)
            && key_names.iter().any(|k| k == stored);
        if hidden_key {
            compute_key_unread = true;
            continue;
        }
        if let Some(members) = attr.as_object() {
            for property in members.keys() {
                if !READ.contains(&property.as_str()) {
                    unread.push(format!("`{property}` ({attr_name})"));
                }
            }
        }
        let type_name = attr.get("type").and_then(Value::as_str).unwrap_or("any");
        let element = attr
            .get("elements")
            .and_then(|e| e.get("type"))
            .and_then(Value::as_str);
        let ty = match attr_type(type_name, element) {
            Some(ty) => ty,
            None => {
                assumed.push(Assumption::at(
                    line_of(text, &["entityName", attr_name]),
                    format!("{name}.{attr_name}: type `{type_name}`"),
                    "a string",
                ));
                crate::model::AttrType::S
            }
        };
        let required = match attr.get("required").and_then(Value::as_str) {
            Some("never") => false,
            Some(_) => true,
            // DynamoDB-Toolbox's default, `atLeastOnce`, is left out of the DTO.
            None => true,
        };
        let prefix = attr.get("transform").and_then(|t| {
            (t.get("transformerId").and_then(Value::as_str) == Some("prefix")).then(|| {
                (
                    t.get("prefix")
                        .and_then(Value::as_str)
                        .unwrap_or("")
                        .to_string(),
                    t.get("delimiter")
                        .and_then(Value::as_str)
                        .unwrap_or("#")
                        .to_string(),
                )
            })
        });
        let linked = ["keyLink", "putLink", "updateLink"]
            .iter()
            .any(|l| attr.get(l).is_some());
        // DynamoDB-Toolbox leaves `.link()` out of its DTO: an index key may be computed.
        if !linked && index_keys.iter().any(|k| k == stored) {
            assumed.push(Assumption::at(
                line_of(text, &["entityName", attr_name]),
                format!(
                    "{name}.{attr_name}: an index key, which `.link()` may compute; a DTO holds no `.link()`"
                ),
                format!("`{stored}` is the value the caller gives"),
            ));
        }
        attributes.push(AttrDef {
            name: attr_name.clone(),
            saved_as: (stored != attr_name).then(|| stored.to_string()),
            ty,
            required,
            values: attr
                .get("enum")
                .and_then(Value::as_array)
                .map(|v| enum_values(v))
                .unwrap_or_default(),
            prefix,
            link: linked.then(|| Err("a function the DTO does not hold".to_string())),
        });
    }
    EntityDef {
        name,
        table: TableRef::Def(Box::new(table_def)),
        attributes,
        compute_key: None,
        compute_key_unread,
        unread,
        line,
    }
}
