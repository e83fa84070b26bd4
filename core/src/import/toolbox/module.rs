//! DynamoDB-Toolbox v2 in a JavaScript or TypeScript module: each `new Table({...})` with
//! `partitionKey`, each `new Entity({...})` with `schema`, read from js.rs's values (a builder
//! call such as `string().key().savedAs('pk')` is its call chain, `computeKey` the object its
//! arrow function returns).

use std::collections::BTreeMap;

use serde_json::Value;

use super::{
    AttrDef, EntityDef, TableDef, TableRef, attr_type, build, enum_values, table_keys, template_of,
};
use crate::import::assumed::line_after;
use crate::import::js::{self, Module, NewCall};
use crate::import::onetable::literal_or_fallback;
use crate::import::{Assumption, ImportError, Imported};
use crate::model::AttrType;

/// Whether a `new Table(...)` is DynamoDB-Toolbox's: its options have `partitionKey`.
pub(crate) fn is_table(call: &NewCall) -> bool {
    call.class == "Table"
        && call
            .args
            .first()
            .is_some_and(|o| o.get("partitionKey").is_some())
}

/// Whether a `new Entity(...)` is DynamoDB-Toolbox's: its options have `schema` (v2), or a
/// `name` and `attributes` without ElectroDB's `model` and `indexes` (v0 and v1).
pub(crate) fn is_entity(call: &NewCall) -> bool {
    call.class == "Entity"
        && call.args.first().is_some_and(|o| {
            (o.get("schema").is_some() && o.get("attributes").is_none())
                || (o.get("name").is_some()
                    && o.get("attributes").is_some_and(Value::is_object)
                    && o.get("model").is_none()
                    && o.get("indexes").is_none())
        })
}

/// The calls of a builder chain: (name's last segment, arguments).
fn chain(value: &Value) -> Option<Vec<(&str, &[Value])>> {
    let links = value.get(js::CALL_CHAIN)?.as_array()?;
    Some(
        links
            .iter()
            .map(|link| {
                let name = link.get("name").and_then(Value::as_str).unwrap_or("");
                let name = name.rsplit('.').next().unwrap_or(name);
                let args = link
                    .get("args")
                    .and_then(Value::as_array)
                    .map_or(&[][..], Vec::as_slice);
                (name, args)
            })
            .collect(),
    )
}

/// Reads the tables and entities of the modules `(file, text, module)` read together (one
/// alone, with no file name): an entity's `table` names a table of any of them.
pub(crate) fn import(files: &[(&str, &str, &Module)]) -> Result<Imported, ImportError> {
    let mut notes = Vec::new();
    let mut assumed: Vec<Assumption> = Vec::new();
    let mut tables = Vec::new();
    let mut entities = Vec::new();
    let mut non_literal = Vec::new();
    for &(file, text, module) in files {
        let first = assumed.len();
        for call in module.news.iter().filter(|c| is_table(c)) {
            let options = call.args.first().unwrap_or(&Value::Null);
            let fallback = call.var.clone().unwrap_or_else(|| "table".to_string());
            let name = match options.get("name") {
                Some(name) => {
                    let (literal, note) = literal_or_fallback(name);
                    notes.extend(note);
                    match literal {
                        Some(literal) => literal,
                        None => {
                            assumed.push(Assumption::at(
                                line_after(text, call.line, "name"),
                                format!("table name `{}`", js::snippet_of(name)),
                                format!("the table is called `{fallback}` (its variable)"),
                            ));
                            fallback
                        }
                    }
                }
                None => {
                    assumed.push(Assumption::at(
                        call.line,
                        "a table without `name` (given to each command)",
                        format!("the table is called `{fallback}` (its variable)"),
                    ));
                    fallback
                }
            };
            let mut def = TableDef {
                var: call.var.clone(),
                name,
                line: call.line,
                ..TableDef::default()
            };
            table_keys(&mut def, options, &mut notes);
            if def.partition_key.is_none() {
                assumed.push(Assumption::at(
                    line_after(text, call.line, "partitionKey"),
                    format!(
                        "table {}: partitionKey `{}`",
                        def.name,
                        options
                            .get("partitionKey")
                            .map(js::snippet_of)
                            .unwrap_or_default()
                    ),
                    "a string partition key `pk`",
                ));
            }
            tables.push(def);
        }
        for call in module.news.iter().filter(|c| is_entity(c)) {
            entities.push(entity(text, call, &mut notes, &mut assumed));
        }
        for call in module.news.iter().filter(|c| is_table(c)) {
            if let Some(options) = call.args.first() {
                for member in ["partitionKey", "sortKey", "indexes"] {
                    if let Some(v) = options.get(member) {
                        js::non_literals(v, member, &mut non_literal);
                    }
                }
            }
        }
        for assumption in &mut assumed[first..] {
            if !file.is_empty() && assumption.file.is_none() {
                assumption.file = Some(file.to_string());
            }
        }
    }
    notes.extend(js::non_literal_note(&non_literal));
    notes.insert(
        0,
        format!(
            "read {} DynamoDB-Toolbox table(s) and {} entity(ies)",
            tables.len(),
            entities.len()
        ),
    );
    build("DynamoDB-Toolbox", tables, entities, notes, assumed)
}

fn entity(
    text: &str,
    call: &NewCall,
    notes: &mut Vec<String>,
    assumed: &mut Vec<Assumption>,
) -> EntityDef {
    let options = call.args.first().unwrap_or(&Value::Null);
    let fallback = call.var.clone().unwrap_or_else(|| "entity".to_string());
    let name = match options.get("name").and_then(Value::as_str) {
        Some(name) => name.to_string(),
        None => {
            assumed.push(Assumption::at(
                line_after(text, call.line, "name"),
                format!(
                    "entity name `{}`",
                    options.get("name").map(js::snippet_of).unwrap_or_default()
                ),
                format!("the entity is called `{fallback}` (its variable)"),
            ));
            fallback
        }
    };
    let table = match options.get("table") {
        Some(table) => TableRef::Var(js::snippet_of(table)),
        None => TableRef::None,
    };
    // v0 and v1 declare `attributes`, v2 a `schema`.
    let v0_attributes = options.get("attributes").and_then(Value::as_object);
    let v0 = v0_attributes.is_some();
    notes.extend(super::library_attributes_note(
        &name,
        options.get(if v0 { "typeAlias" } else { "entityAttribute" }),
        options.get("timestamps"),
        if v0 { "entity" } else { "_et" },
    ));
    let mut attributes = Vec::new();
    let mut unread = Vec::new();
    let schema = options.get("schema").unwrap_or(&Value::Null);
    let mut members: Vec<(String, Value)> = Vec::new();
    if let Some(v0_attributes) = v0_attributes {
        members.extend(v0_attributes.clone());
    } else {
        match chain(schema) {
            Some(links) => {
                for (link, args) in links {
                    // `item({...})`, `schema({...})`, then `.and({...})` or `.and(prev => ({...}))`.
                    let object = match args.first() {
                        Some(Value::Object(o))
                            if !js::is_non_literal(&Value::Object(o.clone())) =>
                        {
                            Some(o.clone())
                        }
                        Some(other) => other.get(js::RETURNS).and_then(Value::as_object).cloned(),
                        None => None,
                    };
                    match (link, object) {
                        ("item" | "schema" | "and" | "map", Some(object)) => members.extend(object),
                        _ => unread.push(format!("`.{link}()` on the schema")),
                    }
                }
            }
            None => assumed.push(Assumption::at(
                line_after(text, call.line, "schema"),
                format!("{name}: schema `{}`", js::snippet_of(schema)),
                "no attributes (the schema is not written in this file)",
            )),
        }
    }
    for (attr_name, value) in members {
        let read = if v0 {
            v0_attribute(&attr_name, &value, &mut unread)
        } else {
            attribute(&attr_name, &value, &mut unread)
        };
        match read {
            Some(def) => attributes.push(def),
            None => {
                assumed.push(Assumption::at(
                    line_after(text, call.line, &attr_name),
                    format!("{name}.{attr_name}: `{}`", js::snippet_of(&value)),
                    "a required string attribute",
                ));
                attributes.push(AttrDef {
                    name: attr_name.clone(),
                    saved_as: None,
                    ty: AttrType::S,
                    required: true,
                    values: Vec::new(),
                    prefix: None,
                    link: None,
                });
            }
        }
    }
    let mut compute_key = None;
    let mut compute_key_unread = false;
    if let Some(compute) = options.get("computeKey") {
        match compute.get(js::RETURNS).and_then(Value::as_object) {
            Some(keys) => {
                compute_key = Some(
                    keys.iter()
                        .map(|(k, v)| (k.clone(), template_of(v)))
                        .collect::<BTreeMap<_, _>>(),
                );
            }
            None => {
                compute_key_unread = true;
                notes.push(format!(
                    "{name}: computeKey `{}` does not return an object literal, so it is not read",
                    js::snippet_of(compute)
                ));
            }
        }
    }
    EntityDef {
        name,
        table,
        attributes,
        compute_key,
        compute_key_unread,
        unread,
        line: call.line,
    }
}

/// One attribute of a schema from its builder chain; `None` when it is not one.
fn attribute(name: &str, value: &Value, unread: &mut Vec<String>) -> Option<AttrDef> {
    let links = chain(value)?;
    let (type_name, type_args) = links.first()?;
    let element = match (*type_name, type_args.first()) {
        ("set", Some(element)) => chain(element).and_then(|l| l.first().map(|(n, _)| *n)),
        _ => None,
    };
    let ty = attr_type(type_name, element)?;
    let mut def = AttrDef {
        name: name.to_string(),
        saved_as: None,
        ty,
        // DynamoDB-Toolbox's default: `atLeastOnce`.
        required: true,
        values: Vec::new(),
        prefix: None,
        link: None,
    };
    for (method, args) in links.iter().skip(1) {
        match *method {
            "key" => def.required = true,
            "optional" => def.required = false,
            "required" => {
                def.required = args.first().and_then(Value::as_str) != Some("never");
            }
            "savedAs" => def.saved_as = args.first().and_then(Value::as_str).map(str::to_string),
            "enum" => def.values = enum_values(args),
            "const" => def.values = enum_values(args),
            "transform" => {
                let prefix = args.first().and_then(chain).and_then(|links| {
                    let (name, args) = links.first()?;
                    if *name != "prefix" {
                        return None;
                    }
                    let prefix = args.first()?.as_str()?.to_string();
                    let delimiter = args
                        .get(1)
                        .and_then(|o| o.get("delimiter"))
                        .and_then(Value::as_str)
                        .unwrap_or("#")
                        .to_string();
                    Some((prefix, delimiter))
                });
                match prefix {
                    Some(prefix) => def.prefix = Some(prefix),
                    None => unread.push(format!("`.transform()` ({name})")),
                }
            }
            "link" | "putLink" | "keyLink" => {
                def.link = Some(match args.first().and_then(|f| f.get(js::RETURNS)) {
                    Some(returned) => template_of(returned),
                    None => Err(args.first().map(js::snippet_of).unwrap_or_default()),
                });
            }
            // Builders of what keyplan does not hold: defaults, validation, hiding.
            other => unread.push(format!("`.{other}()` ({name})")),
        }
    }
    Some(def)
}

/// A v0/v1 attribute: `'string'`, or `{ type, partitionKey, sortKey, map, required, default }`;
/// `None` when it is neither.
fn v0_attribute(name: &str, value: &Value, unread: &mut Vec<String>) -> Option<AttrDef> {
    let (type_name, settings) = match value {
        Value::String(ty) => (ty.as_str(), None),
        Value::Object(members) if !js::is_non_literal(value) => (
            value
                .get("type")
                .and_then(Value::as_str)
                .unwrap_or("string"),
            Some(members),
        ),
        _ => return None,
    };
    let element = value.get("setType").and_then(Value::as_str);
    let ty = match type_name {
        "list" => AttrType::L,
        "map" => AttrType::M,
        other => attr_type(other, element)?,
    };
    let mut def = AttrDef {
        name: name.to_string(),
        saved_as: value.get("map").and_then(Value::as_str).map(str::to_string),
        ty,
        required: false,
        values: Vec::new(),
        prefix: None,
        link: None,
    };
    for (setting, setting_value) in settings.into_iter().flatten() {
        match setting.as_str() {
            "type" | "map" | "setType" => {}
            "partitionKey" | "sortKey" => def.required = true,
            "required" => {
                def.required = def.required
                    || setting_value.as_bool() == Some(true)
                    || setting_value.as_str() == Some("always")
            }
            // A key computed from the others: `default: (data) => `A#${data.a}``.
            "default" if setting_value.get(js::RETURNS).is_some() => {
                def.link = setting_value.get(js::RETURNS).map(template_of);
            }
            other => unread.push(format!("`{other}` ({name})")),
        }
    }
    Some(def)
}
