//! DynamoDB-OneTable schemas: the JSON form, and (with the `js` feature) the JavaScript or
//! TypeScript module users write (`export const Schema = {...} as const`, `new Table({ name,
//! schema })`), keyplan's own OneTable export included.
//!
//! A schema is one table: `indexes.primary` gives its keys, every other index a GSI (an LSI
//! with `type: 'local'`) with its projection (`project`). Each model is an entity: a field
//! that is a key attribute and has a `value` template (`'CUSTOMER#${customerId}'`) is the
//! entity's key template for it, with `${_type}` (OneTable's type field) written as the model's
//! name; every other field is an attribute with its type, `required` and `enum`. OneTable
//! declares no access patterns, so the design has none; what the schema says that keyplan does
//! not hold (`default`, `generate`, `hidden`, a `value` on a plain attribute...) is listed in
//! the notes.

use std::collections::BTreeMap;

use serde_json::Value;

use super::{Assumption, At, ImportError, Imported, unique_name};
use crate::model::{
    AttrType, Attribute, Design, Entity, Gsi, KeyAttribute, KeyType, Lsi, Projection, Table,
};
use crate::template::KeyTemplate;

/// The largest schema read, JSON or module: 2 MB, far more than any schema (a module's own
/// bound, `js::MAX_BYTES`, is the same).
pub const MAX_BYTES: usize = 2 * 1024 * 1024;

/// Whether `value` has a OneTable schema's shape: `models` and `indexes` objects.
pub fn is_schema(value: &Value) -> bool {
    value.get("models").is_some_and(Value::is_object)
        && value.get("indexes").is_some_and(Value::is_object)
}

/// One schema found in the source and the table name it goes with.
struct Found<'v> {
    table: String,
    value: &'v Value,
    /// Where it is, for paths in errors: `` for a JSON file, `Schema` for a module's const.
    path: String,
    /// The file it is in, when several are read together; empty otherwise.
    file: String,
    /// Whether the `new Table({ isoDates: true })` that holds it stores dates as ISO strings.
    iso_dates: bool,
}

/// Reads a OneTable schema, JSON or module.
pub fn import(text: &str) -> Result<Imported, ImportError> {
    if text.len() > MAX_BYTES {
        return Err(ImportError::Invalid {
            path: "the document".to_string(),
            message: format!(
                "{} bytes: keyplan reads OneTable schemas of at most {} MB",
                text.len(),
                MAX_BYTES / (1024 * 1024)
            ),
        });
    }
    crate::json_budget::check(text)?;
    match serde_json::from_str::<Value>(text) {
        Ok(value) => {
            if !is_schema(&value) {
                return Err(ImportError::Invalid {
                    path: "the document".to_string(),
                    message: "not a OneTable schema: expected `indexes` and `models` objects"
                        .to_string(),
                });
            }
            let found = [Found {
                table: "table".to_string(),
                value: &value,
                path: String::new(),
                file: String::new(),
                iso_dates: false,
            }];
            let mut imported = import_schemas(&found)?;
            imported.notes.push(
                "a JSON schema names no table: the table is called `table` (rename it in keyplan)"
                    .to_string(),
            );
            Ok(imported)
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
    from_modules(std::slice::from_ref(&module))
}

/// Reads the OneTable schemas of modules read together: each module's constants and default
/// export that are schemas, and the schemas written inside `new Table({ schema })`, each
/// named by the `name` of the `new Table` that holds it (in any of the modules).
#[cfg(feature = "js")]
pub(crate) fn from_modules(modules: &[super::js::Module]) -> Result<Imported, ImportError> {
    use super::js;
    // Table names from `new Table({ name: ..., schema: ... })`, by the schema they hold.
    let mut names: Vec<(&Value, Option<String>, Option<String>, &Value)> = Vec::new();
    // Schemas whose `new Table({ isoDates: true, schema })` stores dates as ISO strings.
    let mut iso_tables: Vec<&Value> = Vec::new();
    let mut assumed = Vec::new();
    for module in modules {
        for call in module.news.iter().filter(|n| n.class == "Table") {
            let Some(config) = call.args.first() else {
                continue;
            };
            if let Some(schema) = config.get("schema")
                && config.get("isoDates") == Some(&Value::Bool(true))
            {
                iso_tables.push(schema);
            }
            let (Some(schema), Some(name)) = (config.get("schema"), config.get("name")) else {
                continue;
            };
            let (literal, note) = literal_or_fallback(name);
            names.push((schema, literal, note, name));
        }
    }
    let mut notes = Vec::new();
    let mut found = Vec::new();
    for module in modules {
        let mut candidates: Vec<(String, &Value)> =
            module.consts.iter().map(|(n, v)| (n.clone(), v)).collect();
        if let Some(default) = &module.default_export {
            candidates.push(("export default".to_string(), default));
        }
        // A schema written in place: `new Table({ name, schema: { indexes, models } })`.
        for call in module.news.iter().filter(|n| n.class == "Table") {
            if let Some(schema) = call.args.first().and_then(|c| c.get("schema"))
                && !candidates.iter().any(|(_, v)| *v == schema)
            {
                candidates.push(("new Table.schema".to_string(), schema));
            }
        }
        for (var, value) in candidates {
            if !is_schema(value) {
                continue;
            }
            let named = names.iter().find(|(schema, ..)| *schema == value);
            let fallback = if var == "export default" || var == "new Table.schema" {
                "table".to_string()
            } else {
                var.clone()
            };
            let table = match named {
                Some((_, Some(name), note, _)) => {
                    notes.extend(note.clone());
                    name.clone()
                }
                Some((_, None, _, name)) => {
                    let mut assumption = super::assumption_of(
                        name,
                        format!("the table's name `{}`", js::snippet_of(name)),
                        format!("`{fallback}`"),
                    );
                    if assumption.file.is_none() && !module.name.is_empty() {
                        assumption = assumption.in_file(&module.name);
                    }
                    assumed.push(assumption);
                    fallback
                }
                None if var == "export default" => {
                    notes.push(
                        "the schema is the module's default export and no `new Table({ name })` names its table: it is called `table` (rename it in keyplan)"
                            .to_string(),
                    );
                    fallback
                }
                None => fallback,
            };
            if let Some(via) = value.get(js::VIA).and_then(Value::as_str) {
                let mut assumption = super::assumption_of(
                    value,
                    format!("the schema {var} is what `{via}(...)` returns"),
                    "the schema it is given, as written",
                );
                if assumption.file.is_none() && !module.name.is_empty() {
                    assumption = assumption.in_file(&module.name);
                }
                assumed.push(assumption);
            }
            found.push(Found {
                table,
                value,
                path: var,
                file: module.name.clone(),
                iso_dates: iso_tables.contains(&value),
            });
        }
    }
    if found.is_empty() {
        return Err(ImportError::Invalid {
            path: "the module".to_string(),
            message: "no OneTable schema in it: expected a constant or `export default` holding an object with `indexes` and `models`".to_string(),
        });
    }
    let mut imported = import_schemas(&found)?;
    assumed.append(&mut imported.assumed);
    imported.assumed = assumed;
    let mut non_literal = Vec::new();
    for f in &found {
        js::non_literals(f.value, &f.path, &mut non_literal);
    }
    // `type: String` names a constructor, which is how OneTable types are written: read.
    non_literal.retain(|(path, code)| {
        !(path.ends_with(".type") && field_type(&At::root(&Value::String(code.clone()))).is_ok())
    });
    imported.notes.splice(0..0, notes);
    imported.notes.extend(js::non_literal_note(&non_literal));
    Ok(imported)
}

/// A text value, or the literal fallback of `process.env.X ?? 'name'` with a note saying so.
#[cfg(feature = "js")]
pub(crate) fn literal_or_fallback(value: &Value) -> (Option<String>, Option<String>) {
    use super::js;
    if let Some(s) = value.as_str() {
        return (Some(s.to_string()), None);
    }
    if let Some(s) = js::fallback(value).and_then(Value::as_str) {
        return (
            Some(s.to_string()),
            Some(format!(
                "table `{s}`: the name is `{}`, which is not literal; its fallback `{s}` is used",
                js::snippet_of(value)
            )),
        );
    }
    (None, None)
}

fn import_schemas(found: &[Found<'_>]) -> Result<Imported, ImportError> {
    let mut design = Design::new(
        found
            .first()
            .map_or("OneTable schema".to_string(), |f| f.table.clone()),
    );
    let mut notes = Vec::new();
    let mut assumed = Vec::new();
    let mut table_names = Vec::new();
    for f in found {
        let mut at = At::root(f.value);
        at.path = f.path.clone();
        let table_name = unique_name(&f.table, &mut table_names);
        let mut assume = Assume {
            file: &f.file,
            out: &mut assumed,
        };
        let schema = Schema {
            at: &at,
            table_name: &table_name,
            iso_dates: f.iso_dates,
        };
        read_schema(&schema, &mut design, &mut notes, &mut assume)?;
    }
    notes.push(
        "OneTable schemas declare no access patterns: add the reads and writes the application makes to see how each is served"
            .to_string(),
    );
    notes.push(
        "OneTable schemas hold no billing mode or capacity: each table is read as on-demand"
            .to_string(),
    );
    // issue 15: a write-shard part (`{shard:10}`) is a number the caller sets in OneTable,
    // which has no random default: the shard count is not in the schema.
    let numbered: Vec<String> = design
        .entities
        .iter()
        .flat_map(|e| {
            e.keys.iter().flat_map(move |(key, t)| {
                t.vars()
                    .filter(|v| e.attribute(&v.name).is_some_and(|a| a.ty == AttrType::N))
                    .map(move |v| format!("{}.{key} `{}`", e.name, v.name))
            })
        })
        .collect();
    if !numbered.is_empty() {
        notes.push(format!(
            "number attributes in key values are read as attributes the caller sets; if one is a write shard (a random number below N), OneTable does not say N: make it `{{name:N}}` in the key template ({})",
            numbered.join(", ")
        ));
    }
    let mut imported = Imported::new(design);
    imported.notes = notes;
    imported.assumed = assumed;
    Ok(imported)
}

/// What a schema's values that could not be read are assumed to be, said as [`Assumption`]s
/// placed at the value's line in its file.
struct Assume<'x> {
    file: &'x str,
    out: &'x mut Vec<Assumption>,
}

impl Assume<'_> {
    fn push(&mut self, value: &Value, what: String, assumed: &str) {
        let mut assumption = super::assumption_of(value, what, assumed);
        if assumption.file.is_none() && !self.file.is_empty() {
            assumption = assumption.in_file(self.file);
        }
        self.out.push(assumption);
    }
}

/// The name of a field's `type`: the constructor's (`Date`) or the text (`'date'`), lowercase.
fn type_name(at: &At<'_>) -> String {
    match at.value() {
        Value::String(s) => s.clone(),
        other => super_snippet(other),
    }
    .to_ascii_lowercase()
}

/// The DynamoDB type a field is stored as. A Date is stored as OneTable's
/// `Model.transformWriteDate` writes it: a `ttl` field as epoch seconds, else an ISO string
/// where `isoDates` is set (on the field, in the schema's `params` or on its `new Table`),
/// else epoch milliseconds (OneTable's default): a number.
fn stored_type(field: &At<'_>, ty: &At<'_>, iso_dates: bool) -> Result<AttrType, ImportError> {
    let stored = field_type(ty)?;
    if type_name(ty) != "date" {
        return Ok(stored);
    }
    let set = |property: &str| {
        field
            .get(property)
            .is_some_and(|v| v.value() == &Value::Bool(true))
    };
    Ok(if !set("ttl") && (iso_dates || set("isoDates")) {
        AttrType::S
    } else {
        AttrType::N
    })
}

/// OneTable's field types (the constructors, or their names as text) as DynamoDB's; a Date is
/// a string here, [`stored_type`] says when it is stored as a number.
fn field_type(at: &At<'_>) -> Result<AttrType, ImportError> {
    let name = type_name(at);
    Ok(match name.as_str() {
        "string" | "date" => AttrType::S,
        "number" => AttrType::N,
        "boolean" => AttrType::Bool,
        "array" => AttrType::L,
        "object" => AttrType::M,
        "buffer" | "binary" | "arraybuffer" => AttrType::B,
        "set" => AttrType::SS,
        _ => {
            return Err(at.invalid(format!(
                "type `{name}`: expected String, Number, Boolean, Date, Array, Object, Buffer, Binary or Set"
            )));
        }
    })
}

/// The source text of a non-literal value (`String` in `type: String`), or its JSON.
fn super_snippet(value: &Value) -> String {
    match value.get("$js").and_then(Value::as_str) {
        Some(s) => s.to_string(),
        None => value.to_string(),
    }
}

fn projection(at: Option<At<'_>>) -> Result<Projection, ImportError> {
    let Some(at) = at else {
        return Ok(Projection::All);
    };
    match at.value() {
        Value::String(s) if s == "all" => Ok(Projection::All),
        Value::String(s) if s == "keys" => Ok(Projection::KeysOnly),
        Value::Array(_) => Ok(Projection::Include {
            attributes: at
                .array()?
                .iter()
                .map(|a| a.str().map(str::to_string))
                .collect::<Result<_, _>>()?,
        }),
        _ => Err(at.invalid("expected 'all', 'keys' or a list of attribute names")),
    }
}

/// The properties of a field keyplan reads; the others are listed in a note.
const READ: &[&str] = &[
    "type", "value", "required", "enum", "ttl", "items", "schema", "map", "isoDates",
];

/// One schema read: where it is, its table's name, and whether its `new Table` stores dates
/// as ISO strings.
struct Schema<'s> {
    at: &'s At<'s>,
    table_name: &'s str,
    iso_dates: bool,
}

fn read_schema(
    schema: &Schema<'_>,
    design: &mut Design,
    notes: &mut Vec<String>,
    assume: &mut Assume<'_>,
) -> Result<(), ImportError> {
    let (at, table_name) = (schema.at, schema.table_name);
    let iso_dates = schema.iso_dates
        || at
            .get("params")
            .and_then(|p| p.get("isoDates"))
            .is_some_and(|i| i.value() == &Value::Bool(true));
    let indexes = at.require("indexes")?;
    let primary = indexes.require("primary")?;
    let hash = primary.require("hash")?.str()?.to_string();
    let sort = match primary.get("sort") {
        Some(s) => Some(s.str()?.to_string()),
        None => None,
    };
    let type_field = match at.get("params").and_then(|p| p.get("typeField")) {
        Some(t) => t.str()?.to_string(),
        None => "_type".to_string(),
    };
    let models = at.require("models")?.members()?;

    // Key attribute types: from the first model field stored under that name.
    let key_type = |name: &str| -> KeyType {
        for (_, model) in &models {
            let stored_as = |(property, field): &(&str, At<'_>)| stored(property, field).0 == name;
            if let Ok(fields) = model.members()
                && let Some((_, field)) = fields.iter().find(|f| stored_as(f))
                && let Some(ty) = field.get("type")
                && let Ok(ty) = stored_type(field, &ty, iso_dates)
            {
                return ty.as_key_type().unwrap_or(KeyType::S);
            }
        }
        KeyType::S
    };
    let mut table = Table {
        name: table_name.to_string(),
        partition_key: KeyAttribute::new(&hash, key_type(&hash)),
        sort_key: sort.as_ref().map(|s| KeyAttribute::new(s, key_type(s))),
        gsis: Vec::new(),
        lsis: Vec::new(),
        billing: Default::default(),
        ttl_attribute: None,
        replicas: Vec::new(),
        vector_indexes: Vec::new(),
    };
    for (name, index) in indexes.members()? {
        if name == "primary" {
            continue;
        }
        let local = match index.get("type") {
            Some(t) => t.str()? == "local",
            None => false,
        };
        let projection = projection(index.get("project"))?;
        let sort = match index.get("sort") {
            Some(s) => Some(s.str()?.to_string()),
            None => None,
        };
        if local {
            let Some(sort) = sort else {
                return Err(index.invalid("a local index needs a `sort` attribute"));
            };
            if let Some(h) = index.get("hash")
                && h.str()? != hash
            {
                notes.push(format!(
                    "{}: a local index shares the table's partition key `{hash}`; its `hash` `{}` is not kept",
                    index.path(),
                    h.str()?
                ));
            }
            table.lsis.push(Lsi {
                name: name.to_string(),
                sort_key: KeyAttribute::new(&sort, key_type(&sort)),
                projection,
            });
        } else {
            let hash = index.require("hash")?.str()?.to_string();
            table.gsis.push(Gsi {
                name: name.to_string(),
                partition_key: vec![KeyAttribute::new(&hash, key_type(&hash))],
                sort_key: sort
                    .iter()
                    .map(|s| KeyAttribute::new(s, key_type(s)))
                    .collect(),
                projection,
            });
        }
    }
    let key_names: Vec<String> = table
        .key_attributes()
        .iter()
        .map(|k| k.name.clone())
        .collect();

    let mut unread: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut entity_names: Vec<String> = design.entities.iter().map(|e| e.name.clone()).collect();
    for (model_name, model) in &models {
        let mut entity = Entity {
            name: unique_name(model_name, &mut entity_names),
            table: table_name.to_string(),
            description: String::new(),
            attributes: Vec::new(),
            keys: BTreeMap::new(),
            volume: None,
        };
        let Ok(fields) = model.members() else {
            assume.push(
                model.value(),
                format!("model {model_name} `{}`", super_snippet(model.value())),
                "a model without fields",
            );
            design.entities.push(entity);
            continue;
        };
        // `map: 'nm'` stores a property under another attribute name; templates name the
        // properties, so their variables are renamed to what is stored.
        let renames: BTreeMap<&str, String> = fields
            .iter()
            .filter_map(|(property, field)| match stored(property, field) {
                (attribute, None) if attribute != *property => Some((*property, attribute)),
                _ => None,
            })
            .collect();
        let mut packed: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for (field_name, field) in &fields {
            let value = field.value();
            if !value.is_object() || super::is_code(value) {
                assume.push(
                    value,
                    format!("field {model_name}.{field_name} `{}`", super_snippet(value)),
                    "a string attribute",
                );
                entity
                    .attributes
                    .push(Attribute::new(*field_name, AttrType::S));
                continue;
            }
            for (property, _) in field.members()? {
                if !READ.contains(&property) {
                    unread
                        .entry(property.to_string())
                        .or_default()
                        .push(format!("{model_name}.{field_name}"));
                }
            }
            let (attribute_name, packed_as) = stored(field_name, field);
            if let Some(map) = field.get("map")
                && !map.value().is_string()
            {
                assume.push(
                    map.value(),
                    format!("{}: `{}`", map.path(), super_snippet(map.value())),
                    "the property's own name",
                );
            }
            let template = match field.get("value") {
                Some(v) => match v.value() {
                    Value::String(s) => Some(s.clone()),
                    other => {
                        assume.push(
                            other,
                            format!("{} `{}`", v.path(), super_snippet(other)),
                            "no value template",
                        );
                        None
                    }
                },
                None => None,
            };
            let ty = match field.get("type") {
                Some(t) => stored_type(field, &t, iso_dates).unwrap_or_else(|_| {
                    let written = match t.value() {
                        Value::String(s) => s.clone(),
                        other => super_snippet(other),
                    };
                    assume.push(t.value(), format!("{}: `{written}`", t.path()), "a string");
                    AttrType::S
                }),
                None => AttrType::S,
            };
            if let Some(sub) = packed_as {
                packed
                    .entry(attribute_name.clone())
                    .or_default()
                    .push(format!("{field_name} (`{attribute_name}.{sub}`)"));
                if entity.attribute(&attribute_name).is_none() {
                    entity
                        .attributes
                        .push(Attribute::new(&attribute_name, AttrType::M));
                }
                continue;
            }
            if key_names.contains(&attribute_name) {
                if let Some(template) = template {
                    let template = dollar_template(&template, &|v| {
                        if v == type_field {
                            Some(model_name.to_string())
                        } else {
                            None
                        }
                    });
                    let template = renamed(&template, &renames);
                    entity.keys.insert(attribute_name, template);
                    continue;
                }
            } else if template.is_some() {
                notes.push(format!(
                    "{}: a computed `value` on an attribute that is no key is not kept (the attribute is)",
                    field.path()
                ));
            }
            let mut attribute = Attribute::new(&attribute_name, ty);
            attribute.required = match field.get("required") {
                Some(r) => r.bool().unwrap_or(false),
                None => false,
            };
            if let Some(values) = field.get("enum") {
                match values.value() {
                    Value::Array(items) => {
                        for item in items {
                            match item {
                                Value::String(s) => attribute.values.push(s.clone()),
                                Value::Number(n) => attribute.values.push(n.to_string()),
                                other => assume.push(
                                    other,
                                    format!("{}: value `{}`", values.path(), super_snippet(other)),
                                    "it is left out",
                                ),
                            }
                        }
                    }
                    other => assume.push(
                        other,
                        format!("{} `{}`", values.path(), super_snippet(other)),
                        "any value",
                    ),
                }
            }
            if field.get("ttl").is_some_and(|t| t.bool().unwrap_or(false)) {
                table.ttl_attribute = Some(attribute_name.clone());
            }
            entity.attributes.push(attribute);
        }
        for (attribute, properties) in &packed {
            notes.push(format!(
                "{model_name}: {} are packed into the map attribute `{attribute}` (OneTable's `map`); keyplan keeps `{attribute}`, not what it packs",
                properties.join(", ")
            ));
        }
        // A template variable the model does not declare: a note, and the key keeps it.
        for (key, template) in &entity.keys {
            for var in template.vars() {
                if entity.attribute(&var.name).is_none() && !entity.keys.contains_key(&var.name) {
                    notes.push(format!(
                        "{model_name}.{key}: `${{{}}}` is not a field of the model",
                        var.name
                    ));
                }
            }
        }
        design.entities.push(entity);
    }
    notes.extend(unread_note(
        &format!("table {table_name}: field properties"),
        &unread,
    ));
    design.tables.push(table);
    Ok(())
}

/// The attribute a field is stored under, and the name inside it when `map: 'data.x'` packs
/// it into a map attribute: `map: 'nm'` gives `("nm", None)`, no `map` the field's own name.
fn stored(property: &str, field: &At<'_>) -> (String, Option<String>) {
    match field.get("map").map(|m| m.value()) {
        Some(Value::String(map)) => match map.split_once('.') {
            Some((attribute, inner)) => (attribute.to_string(), Some(inner.to_string())),
            None => (map.clone(), None),
        },
        _ => (property.to_string(), None),
    }
}

/// `template` with each variable that names a mapped property renamed to the attribute it is
/// stored under.
fn renamed(template: &KeyTemplate, renames: &BTreeMap<&str, String>) -> KeyTemplate {
    if renames.is_empty() {
        return template.clone();
    }
    let source: String = template
        .parts()
        .iter()
        .map(|part| match part {
            crate::template::Part::Literal(s) => super::template_literal(s),
            crate::template::Part::Var(v) => {
                let name = renames.get(v.name.as_str()).unwrap_or(&v.name);
                match v.shards {
                    Some(n) => format!("{{{name}:{n}}}"),
                    None => format!("{{{name}}}"),
                }
            }
        })
        .collect();
    KeyTemplate::parse(&source)
}

/// One note for the properties of fields or attributes that were not read, with (at most four
/// of) the fields that have each: "`generate` (User.id, Order.id)".
pub(crate) fn unread_note(what: &str, unread: &BTreeMap<String, Vec<String>>) -> Option<String> {
    if unread.is_empty() {
        return None;
    }
    let listed: Vec<String> = unread
        .iter()
        .map(|(property, fields)| {
            let mut shown: Vec<String> = fields.iter().take(4).cloned().collect();
            if fields.len() > 4 {
                shown.push(format!("{} more", fields.len() - 4));
            }
            format!("`{property}` ({})", shown.join(", "))
        })
        .collect();
    Some(format!(
        "{what} keyplan does not hold were left out: {}",
        listed.join("; ")
    ))
}

/// A `${name}` template (OneTable's and ElectroDB's) as a keyplan key template: literal text
/// is escaped, each `${name}` (or `${name:...}`) is the variable `{name}`. `constant` gives a
/// variable's fixed value, if it has one (OneTable's `${_type}` is the model's name).
pub(crate) fn dollar_template(
    source: &str,
    constant: &dyn Fn(&str) -> Option<String>,
) -> KeyTemplate {
    let mut out = String::new();
    let mut rest = source;
    while let Some(start) = rest.find("${") {
        out.push_str(&super::template_literal(&rest[..start]));
        let after = &rest[start + 2..];
        let Some(end) = after.find('}') else {
            // An unclosed `${`: literal text.
            out.push_str(&super::template_literal(&rest[start..]));
            rest = "";
            break;
        };
        let name = after[..end].split(':').next().unwrap_or("").trim();
        match constant(name) {
            Some(value) => out.push_str(&super::template_literal(&value)),
            None => {
                out.push('{');
                out.push_str(&super::variable_name(name));
                out.push('}');
            }
        }
        rest = &after[end + 1..];
    }
    out.push_str(&super::template_literal(rest));
    KeyTemplate::parse(&out)
}
