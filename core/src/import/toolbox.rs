//! DynamoDB-Toolbox v2 tables and entities: the JavaScript or TypeScript module they are
//! written in (the `js` feature), and the JSON of the library's own `TableDTO` and `EntityDTO`
//! (`JSON.stringify(entity.build(EntityDTO))`), keyplan's own DynamoDB-Toolbox export included.
//!
//! A `new Table({ name, partitionKey, sortKey, indexes })` is a table: its keys, and each index
//! a GSI (`type: 'global'`, one key attribute or several, `partitionKeys`/`sortKeys`) or an
//! LSI (`type: 'local'`). DynamoDB-Toolbox says nothing of projections: each index projects
//! all. A `new Entity({ name, table, schema: item({...}), computeKey })` is an entity: each
//! attribute of its schema (`string()`, `number().optional()`, `string().enum('a', 'b')`...)
//! with its type, whether it is required (DynamoDB-Toolbox's default: it is) and its enum
//! values. Its keys: `computeKey`'s returned object (`{ pk: `USER#${id}` }`, each `${}` a
//! variable), an attribute saved as a key attribute (`string().key().savedAs('pk')`, with
//! `.transform(prefix('USER'))` its prefix), and `.link(({ a }) => `A#${a}`)` on an attribute
//! that is an index's key. In DTO JSON `computeKey` and `.link()` are functions the JSON does
//! not hold: a key they compute is assumed to be the value the caller gives, and said.
//!
//! The v0 and v1 shape reads too: `new Table({ partitionKey: 'pk', ... })` and
//! `new Entity({ name, attributes: { pk: { partitionKey: true }, ... }, table })`, an
//! attribute's `map` its stored name and a key attribute's `default: (data) => `A#${data.a}``
//! its template.
//!
//! Nothing here runs the module's code: what is not literal and cannot be read (a table name
//! from `process.env`, a table imported from another file) is assumed, the least that fits,
//! and listed with its line in [`Imported::assumed`]. The library's own attributes (the entity
//! name `_et`, the timestamps `_ct` and `_md`) are noted, not added.

use std::collections::BTreeMap;

use serde_json::Value;

use super::{Assumption, ImportError, Imported, unique_name};
use crate::model::{
    AttrType, Attribute, Design, Entity, Gsi, KeyAttribute, KeyType, Lsi, Projection, Table,
};
use crate::template::KeyTemplate;

/// The largest file read, JSON or module: 2 MB, as for the other libraries' schemas.
pub const MAX_BYTES: usize = 2 * 1024 * 1024;

/// Whether `value` is DynamoDB-Toolbox DTO JSON: an `EntityDTO` (`entityName`, `schema`,
/// `table`), a list of them, or a `TableDTO` (`partitionKey` and `entityAttributeSavedAs`).
pub fn is_dto(value: &Value) -> bool {
    let is_entity = |v: &Value| {
        v.get("entityName").is_some_and(Value::is_string)
            && v.get("schema").is_some_and(Value::is_object)
            && v.get("table").is_some_and(Value::is_object)
    };
    match value {
        Value::Array(items) => !items.is_empty() && items.iter().all(is_entity),
        other => {
            is_entity(other)
                || (other.get("partitionKey").is_some_and(Value::is_object)
                    && other.get("entityAttributeSavedAs").is_some())
        }
    }
}

/// A table as read, before it is put in the design.
#[derive(Debug, Clone, Default)]
struct TableDef {
    /// The variable it is assigned to, to find it from an entity's `table`.
    var: Option<String>,
    name: String,
    partition_key: Option<KeyAttribute>,
    sort_key: Option<KeyAttribute>,
    gsis: Vec<Gsi>,
    lsis: Vec<Lsi>,
    line: usize,
}

/// One attribute of an entity's schema, as read.
#[derive(Debug, Clone)]
struct AttrDef {
    name: String,
    /// The name it is stored under (`savedAs`), when it differs.
    saved_as: Option<String>,
    ty: AttrType,
    required: bool,
    values: Vec<String>,
    /// `.transform(prefix('USER'))`: the prefix and its delimiter.
    prefix: Option<(String, String)>,
    /// `.link(...)`: the template it computes, when it could be read; `Err` with its source
    /// when it could not.
    link: Option<Result<KeyTemplate, String>>,
}

impl AttrDef {
    fn stored(&self) -> &str {
        self.saved_as.as_deref().unwrap_or(&self.name)
    }
}

/// An entity as read.
#[derive(Debug, Clone)]
struct EntityDef {
    name: String,
    /// The table's variable, or its name (DTO).
    table: TableRef,
    attributes: Vec<AttrDef>,
    /// `computeKey`'s keys, by key attribute; `Err` with the source of a value not read.
    compute_key: Option<BTreeMap<String, Result<KeyTemplate, String>>>,
    /// `computeKey` is there but could not be read (a function the DTO does not hold).
    compute_key_unread: bool,
    unread: Vec<String>,
    line: usize,
}

#[derive(Debug, Clone)]
#[cfg_attr(
    not(feature = "js"),
    allow(dead_code, reason = "made by the module reader only")
)]
enum TableRef {
    Var(String),
    Def(Box<TableDef>),
    None,
}

/// Reads DynamoDB-Toolbox tables and entities, DTO JSON or module.
pub fn import(text: &str) -> Result<Imported, ImportError> {
    if text.len() > MAX_BYTES {
        return Err(ImportError::TooLarge {
            bytes: text.len(),
            limit: MAX_BYTES,
            what: "a DynamoDB-Toolbox file",
        });
    }
    crate::json_budget::check(text)?;
    match serde_json::from_str::<Value>(text) {
        Ok(value) => {
            if !is_dto(&value) {
                return Err(ImportError::Invalid {
                    path: "the document".to_string(),
                    message: "not DynamoDB-Toolbox DTO JSON: expected an EntityDTO (`entityName`, `schema`, `table`), a list of them or a TableDTO (`partitionKey`, `entityAttributeSavedAs`)".to_string(),
                });
            }
            dto::import(text, &value)
        }
        Err(json_error) => import_module(text, json_error.into()),
    }
}

#[cfg(not(feature = "js"))]
fn import_module(_text: &str, json_error: ImportError) -> Result<Imported, ImportError> {
    Err(super::needs_js(json_error))
}

#[cfg(feature = "js")]
fn import_module(text: &str, _json_error: ImportError) -> Result<Imported, ImportError> {
    let module = super::js::read(text)?;
    module::import(&[("", text, &module)])
}

/// A key attribute of a table or an index: `{ name, type }`.
fn key_attribute(value: &Value) -> Option<KeyAttribute> {
    // v0 and v1 name the attribute alone (`partitionKey: 'pk'`); its type is the entity's.
    if let Some(name) = value.as_str() {
        return Some(KeyAttribute::new(name, KeyType::S));
    }
    let name = value.get("name")?.as_str()?;
    let ty = match value.get("type").and_then(Value::as_str) {
        Some("number") => KeyType::N,
        Some("binary") => KeyType::B,
        _ => KeyType::S,
    };
    Some(KeyAttribute::new(name, ty))
}

/// A table's keys and indexes from its constructor's options or its TableDTO (the same shape).
fn table_keys(def: &mut TableDef, options: &Value, notes: &mut Vec<String>) {
    def.partition_key = options.get("partitionKey").and_then(key_attribute);
    def.sort_key = options.get("sortKey").and_then(key_attribute);
    let Some(indexes) = options.get("indexes").and_then(Value::as_object) else {
        return;
    };
    for (name, index) in indexes {
        let keys = |one: &str, many: &str| -> Vec<KeyAttribute> {
            match (index.get(one), index.get(many).and_then(Value::as_array)) {
                (Some(key), _) => key_attribute(key).into_iter().collect(),
                (None, Some(keys)) => keys.iter().filter_map(key_attribute).collect(),
                (None, None) => Vec::new(),
            }
        };
        // v0 and v1 say no `type`: an index with a sort key and no partition key is local.
        let local = match index.get("type").and_then(Value::as_str) {
            Some(ty) => ty == "local",
            None => index.get("partitionKey").is_none() && index.get("sortKey").is_some(),
        };
        let sort_key = keys("sortKey", "sortKeys");
        if local {
            match sort_key.into_iter().next() {
                Some(sort_key) => def.lsis.push(Lsi {
                    name: name.clone(),
                    sort_key,
                    projection: Projection::All,
                }),
                None => notes.push(format!(
                    "table {}: the local index `{name}` has no sort key and is left out",
                    def.name
                )),
            }
            continue;
        }
        let partition_key = keys("partitionKey", "partitionKeys");
        if partition_key.is_empty() {
            notes.push(format!(
                "table {}: the index `{name}` has no partition key and is left out",
                def.name
            ));
            continue;
        }
        def.gsis.push(Gsi {
            name: name.clone(),
            partition_key,
            sort_key,
            projection: Projection::All,
        });
    }
}

/// A `${...}` value read from a module as a key template: literal text, a template literal
/// whose parts are names (`` `USER#${id}` ``, `${key.id}`), a name, or `String(name)`.
/// `Err` with the source of what is none of these.
#[cfg_attr(not(feature = "js"), allow(dead_code))]
fn template_of(value: &Value) -> Result<KeyTemplate, String> {
    use super::{template_literal, variable_name};
    let source = |v: &Value| {
        v.get("$js")
            .and_then(Value::as_str)
            .map_or_else(|| v.to_string(), str::to_string)
    };
    /// A name (`id`, `key.id`, `String(id)`) as a variable.
    fn name_of(value: &Value) -> Option<String> {
        if let Some(chain) = value.get("$chain").and_then(Value::as_array)
            && let [link] = chain.as_slice()
            && link.get("name").and_then(Value::as_str) == Some("String")
            && let Some(Value::Array(args)) = link.get("args")
            && let [arg] = args.as_slice()
        {
            return name_of(arg);
        }
        if value.get("$chain").is_some() || value.get("$template").is_some() {
            return None;
        }
        let code = value.get("$js")?.as_str()?;
        let last = code.rsplit('.').next()?;
        let is_name = !last.is_empty()
            && last
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
            && code
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$' || c == '.');
        is_name.then(|| last.to_string())
    }
    match value {
        Value::String(s) => Ok(KeyTemplate::parse(&template_literal(s))),
        Value::Number(n) => Ok(KeyTemplate::parse(&n.to_string())),
        _ => {
            if let Some(Value::Array(parts)) = value.get("$template") {
                let mut out = String::new();
                for part in parts {
                    match part {
                        Value::String(s) => out.push_str(&template_literal(s)),
                        other => match name_of(other) {
                            Some(name) => {
                                out.push('{');
                                out.push_str(&variable_name(&name));
                                out.push('}');
                            }
                            None => return Err(source(value)),
                        },
                    }
                }
                return Ok(KeyTemplate::parse(&out));
            }
            match name_of(value) {
                Some(name) => Ok(KeyTemplate::parse(&format!("{{{}}}", variable_name(&name)))),
                None => Err(source(value)),
            }
        }
    }
}

/// Puts the tables and entities read into a design.
fn build(
    design_name: &str,
    tables: Vec<TableDef>,
    entities: Vec<EntityDef>,
    mut notes: Vec<String>,
    mut assumed: Vec<Assumption>,
) -> Result<Imported, ImportError> {
    if tables.is_empty() && entities.is_empty() {
        return Err(ImportError::Invalid {
            path: "the module".to_string(),
            message: "no DynamoDB-Toolbox table or entity in it: expected `new Table({ partitionKey, ... })` or `new Entity({ name, table, schema })`".to_string(),
        });
    }
    let mut design = Design::new(
        tables
            .first()
            .map_or_else(|| design_name.to_string(), |t| t.name.clone()),
    );
    let mut table_names = Vec::new();
    // Tables by their variable (module) or name (DTO), with their design name.
    let mut placed: Vec<(Option<String>, String)> = Vec::new();
    for def in &tables {
        put_table(
            def,
            &mut design,
            &mut assumed,
            None,
            None,
            &mut table_names,
            &mut placed,
        );
    }
    let mut entity_names = Vec::new();
    for entity in entities {
        let name = unique_name(&entity.name, &mut entity_names);
        // Its table: by variable, its DTO's own, or assumed from what it says of its keys.
        let table_name = match &entity.table {
            TableRef::Def(def) => match placed.iter().find(|(_, t)| t == &def.name) {
                Some((_, table)) => table.clone(),
                None => put_table(
                    def,
                    &mut design,
                    &mut assumed,
                    None,
                    None,
                    &mut table_names,
                    &mut placed,
                ),
            },
            TableRef::Var(var)
                if let Some((_, table)) = placed
                    .iter()
                    .find(|(v, _)| v.as_deref() == Some(var.as_str())) =>
            {
                table.clone()
            }
            // A table not defined here: assumed from the keys the entity computes.
            TableRef::Var(_) | TableRef::None => {
                let (var, what) = match &entity.table {
                    TableRef::Var(var) => (
                        Some(var.clone()),
                        format!("entity {name}: its table `{var}` is not defined in this file"),
                    ),
                    _ => (None, format!("entity {name}: no table")),
                };
                let table = var.clone().unwrap_or_else(|| "table".to_string());
                let (pk, sk) = keys_of_entity(&entity);
                assumed.push(Assumption::at(
                    entity.line,
                    what,
                    format!(
                        "a table `{table}` keyed by {}",
                        describe_keys(pk.as_ref(), sk.as_ref())
                    ),
                ));
                let def = TableDef {
                    var,
                    name: table,
                    line: entity.line,
                    ..TableDef::default()
                };
                put_table(
                    &def,
                    &mut design,
                    &mut assumed,
                    pk,
                    sk,
                    &mut table_names,
                    &mut placed,
                )
            }
        };
        let Some(table) = design.tables.iter().find(|t| t.name == table_name) else {
            continue;
        };
        let key_names: Vec<String> = table
            .key_attributes()
            .iter()
            .map(|k| k.name.clone())
            .collect();
        let mut out = Entity {
            name: name.clone(),
            table: table_name.clone(),
            description: String::new(),
            attributes: Vec::new(),
            keys: BTreeMap::new(),
            volume: None,
        };
        let mut computed: Vec<String> = Vec::new();
        for attribute in &entity.attributes {
            let stored = attribute.stored().to_string();
            if key_names.contains(&stored) {
                // An attribute saved as a key: the key is its value, with its prefix.
                if let Some(link) = &attribute.link {
                    match link {
                        Ok(template) => {
                            out.keys.insert(stored.clone(), template.clone());
                        }
                        Err(code) => assumed.push(Assumption::at(
                            entity.line,
                            format!("{name}.{}: `.link({code})` is not read", attribute.name),
                            format!("`{stored}` is the value the caller gives"),
                        )),
                    }
                    if attribute.name == stored {
                        continue;
                    }
                } else if attribute.name != stored || attribute.prefix.is_some() {
                    let prefix = attribute
                        .prefix
                        .as_ref()
                        .map(|(p, d)| super::template_literal(&format!("{p}{d}")))
                        .unwrap_or_default();
                    out.keys.insert(
                        stored.clone(),
                        KeyTemplate::parse(&format!(
                            "{prefix}{{{}}}",
                            super::variable_name(&attribute.name)
                        )),
                    );
                }
                let mut a = Attribute::new(&attribute.name, attribute.ty);
                // A table key is in every item; an index key only where the schema says.
                let table_key = table.partition_key.name == stored
                    || table.sort_key.as_ref().is_some_and(|k| k.name == stored);
                a.required = attribute.required || table_key;
                a.values = attribute.values.clone();
                out.attributes.push(a);
                continue;
            }
            if let Some(link) = &attribute.link {
                computed.push(attribute.name.clone());
                let _ = link;
            }
            let mut a = Attribute::new(&stored, attribute.ty);
            a.required = attribute.required;
            a.values = attribute.values.clone();
            if let Some((p, d)) = &attribute.prefix {
                notes.push(format!(
                    "{name}.{}: stored with the prefix `{p}{d}`, which keyplan keeps only on keys",
                    attribute.name
                ));
            }
            out.attributes.push(a);
        }
        if !computed.is_empty() {
            notes.push(format!(
                "{name}: the values `.link()` computes for {} are not kept (the attributes are)",
                computed.join(", ")
            ));
        }
        if let Some(keys) = &entity.compute_key {
            for (key, template) in keys {
                match template {
                    Ok(template) => {
                        out.keys.insert(key.clone(), template.clone());
                    }
                    Err(code) => {
                        assumed.push(Assumption::at(
                            entity.line,
                            format!("{name}: computeKey's `{key}: {code}` is not read"),
                            format!("`{key}` is the value the caller gives"),
                        ));
                        out.keys.insert(
                            key.clone(),
                            KeyTemplate::parse(&format!("{{{}}}", super::variable_name(key))),
                        );
                    }
                }
            }
        } else if entity.compute_key_unread {
            for key in [&table.partition_key.name]
                .into_iter()
                .chain(table.sort_key.as_ref().map(|k| &k.name))
            {
                if !out.keys.contains_key(key) && out.attribute(key).is_none() {
                    assumed.push(Assumption::at(
                        entity.line,
                        format!("{name}: `{key}` is computed by computeKey, a function the DTO does not hold"),
                        format!("`{key}` is the value the caller gives"),
                    ));
                }
            }
        }
        // A key template's variable the schema does not declare: a string the caller gives.
        let mut missing: Vec<String> = Vec::new();
        for template in out.keys.values() {
            for var in template.vars() {
                if out.attribute(&var.name).is_none() && !missing.contains(&var.name) {
                    missing.push(var.name.clone());
                }
            }
        }
        for var in missing {
            notes.push(format!(
                "{name}: the key variable `{var}` is not an attribute of the schema: a string attribute"
            ));
            let mut a = Attribute::new(&var, AttrType::S);
            a.required = true;
            out.attributes.push(a);
        }
        if !entity.unread.is_empty() {
            notes.push(format!(
                "{name}: what keyplan does not hold was left out: {}",
                entity.unread.join(", ")
            ));
        }
        design.entities.push(out);
    }
    notes.push(
        "DynamoDB-Toolbox declares no access patterns: add the reads and writes the application makes to see how each is served"
            .to_string(),
    );
    notes.push(
        "DynamoDB-Toolbox does not say what an index projects, nor the tables' billing mode or TTL: each index is read as projecting all attributes, each table as on-demand"
            .to_string(),
    );
    let mut imported = Imported::new(design);
    imported.notes = notes;
    imported.assumed = assumed;
    Ok(imported)
}

/// Puts a table in the design, under a name no other table has, and records where it went.
fn put_table(
    def: &TableDef,
    design: &mut Design,
    assumed: &mut Vec<Assumption>,
    fallback_pk: Option<KeyAttribute>,
    fallback_sk: Option<KeyAttribute>,
    table_names: &mut Vec<String>,
    placed: &mut Vec<(Option<String>, String)>,
) -> String {
    let name = unique_name(&def.name, table_names);
    let partition_key = match def.partition_key.clone().or(fallback_pk) {
        Some(k) => k,
        None => {
            assumed.push(Assumption::at(
                def.line,
                format!("table {name}: no partition key"),
                "a string partition key `pk`",
            ));
            KeyAttribute::new("pk", KeyType::S)
        }
    };
    design.tables.push(Table {
        name: name.clone(),
        partition_key,
        sort_key: def.sort_key.clone().or(fallback_sk),
        gsis: def.gsis.clone(),
        lsis: def.lsis.clone(),
        billing: Default::default(),
        ttl_attribute: None,
        replicas: Vec::new(),
        vector_indexes: Vec::new(),
    });
    placed.push((def.var.clone(), name.clone()));
    name
}

/// The table keys an entity whose table is not defined implies: computeKey's keys, or the
/// attributes saved as `pk`/`sk`... with `.key()`: the first a partition key, the second a
/// sort key.
fn keys_of_entity(entity: &EntityDef) -> (Option<KeyAttribute>, Option<KeyAttribute>) {
    let names: Vec<String> = match &entity.compute_key {
        Some(keys) => keys.keys().cloned().collect(),
        None => entity
            .attributes
            .iter()
            .filter(|a| a.required && a.saved_as.is_some())
            .map(|a| a.stored().to_string())
            .collect(),
    };
    // `pk`/`PK`-like names first: a partition key is named so more often than not.
    let mut names = names;
    names.sort_by_key(|n| {
        let lower = n.to_ascii_lowercase();
        !(lower == "pk" || lower.contains("partition") || lower.ends_with("pk"))
    });
    let mut keys = names.into_iter().map(|n| KeyAttribute::new(&n, KeyType::S));
    (keys.next(), keys.next())
}

fn describe_keys(pk: Option<&KeyAttribute>, sk: Option<&KeyAttribute>) -> String {
    match (pk, sk) {
        (Some(pk), Some(sk)) => format!("`{}` and `{}` (strings)", pk.name, sk.name),
        (Some(pk), None) => format!("`{}` (a string)", pk.name),
        _ => "`pk` (a string)".to_string(),
    }
}

/// The attribute type of a DynamoDB-Toolbox schema type name, with its set's element type.
fn attr_type(type_name: &str, element: Option<&str>) -> Option<AttrType> {
    Some(match type_name {
        "string" => AttrType::S,
        "number" => AttrType::N,
        "boolean" => AttrType::Bool,
        "binary" => AttrType::B,
        "null" | "nul" => AttrType::Null,
        "list" | "tuple" => AttrType::L,
        "map" | "record" | "item" => AttrType::M,
        "set" => match element {
            Some("number") => AttrType::NS,
            Some("binary") => AttrType::BS,
            _ => AttrType::SS,
        },
        // `any()` and `anyOf(...)` hold any value: the least is a string.
        "any" | "anyOf" => AttrType::S,
        _ => return None,
    })
}

/// The text values of an enum (`enum: [...]`, `.enum(...)`, `.const(x)`).
fn enum_values(values: &[Value]) -> Vec<String> {
    values
        .iter()
        .filter_map(|v| match v {
            Value::String(s) => Some(s.clone()),
            Value::Number(n) => Some(n.to_string()),
            Value::Bool(b) => Some(b.to_string()),
            _ => None,
        })
        .collect()
}

/// The library's own attributes, for the note that says they were not added.
fn library_attributes_note(
    entity: &str,
    entity_attribute: Option<&Value>,
    timestamps: Option<&Value>,
    saved_as: &str,
) -> Option<String> {
    let mut added = Vec::new();
    if entity_attribute.is_none_or(|v| v.as_bool() != Some(false)) {
        added.push(format!("the entity name `{saved_as}`"));
    }
    if timestamps.is_none_or(|v| v.as_bool() != Some(false)) {
        added.push(if saved_as == "entity" {
            // v0 and v1: `created` and `modified`, and the entity name in `entity`.
            "the timestamps `created` and `modified`".to_string()
        } else {
            "the timestamps `_ct` and `_md`".to_string()
        });
    }
    (!added.is_empty()).then(|| {
        format!(
            "{entity}: DynamoDB-Toolbox writes {} on every item; they are not added to the entity",
            added.join(" and ")
        )
    })
}

mod dto;
#[cfg(feature = "js")]
mod module;

#[cfg(feature = "js")]
pub(crate) use module::import as from_modules;
#[cfg(feature = "js")]
pub(crate) use module::{is_entity as module_is_entity, is_table as module_is_table};
