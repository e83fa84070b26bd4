//! ElectroDB entities and services, from the JavaScript or TypeScript module they are written
//! in (the `js` feature; without it the module is refused with a message saying where it can
//! be read). keyplan's own ElectroDB export reads back too.
//!
//! Every `new Entity(model, config)` in the module is an entity, and so is a schema exported
//! apart from one (`module.exports = { model, attributes, indexes }`): `model.entity`, `version` and
//! `service`, its `attributes` (types, enums, `required`, `field` renames) and its `indexes`.
//! The index without `index` is the table's; each other names a GSI (an LSI when it shares the
//! table's partition key field). A key with a `template` is that template; a key without one
//! has ElectroDB's own format (entity.js, `_makeKeyFixings` and `_makeKey`): the partition key
//! `$service#attr_value...`, the sort key `$entity_version#attr_value...` (or
//! `$collection#entity_version...` in a collection, with the entity part last on a clustered
//! index), each attribute written by its `label` or name, and the whole key lowercased unless
//! `casing` says `upper` or `none`. A key whose single composite attribute is the key field
//! itself is that attribute, as ElectroDB maps it. The table is the entity's `table` (or its
//! service's); `process.env.T ?? 'orders'` gives `orders`, with a note.
//!
//! Each index is an access pattern in ElectroDB (`Entity.query.byStatus({...})`), so each is a
//! read pattern here, by its partition key's composite attributes; every collection is a read
//! of all the entities that share it, by the partition key they share.

#[cfg(feature = "js")]
use std::collections::BTreeMap;

#[cfg(feature = "js")]
use serde_json::Value;

use super::{ImportError, Imported};

/// Reads ElectroDB entities and services from a module.
pub fn import(text: &str) -> Result<Imported, ImportError> {
    read(text)
}

#[cfg(not(feature = "js"))]
fn read(text: &str) -> Result<Imported, ImportError> {
    Err(super::module_without_js(text, "ElectroDB entities"))
}

#[cfg(feature = "js")]
fn read(text: &str) -> Result<Imported, ImportError> {
    let module = super::js::read(text)?;
    reader::from_modules(std::slice::from_ref(&module))
}

/// Reads the entities and services of modules read together: see `reader::from_modules`.
#[cfg(feature = "js")]
pub(crate) use reader::from_modules;

/// Whether `value` is an ElectroDB schema written apart from its `new Entity`: a `model`
/// naming its `entity`, and `indexes` (`module.exports = { model, attributes, indexes }`).
#[cfg(feature = "js")]
pub(crate) fn is_schema(value: &Value) -> bool {
    value.get("model").and_then(|m| m.get("entity")).is_some()
        && value.get("indexes").is_some_and(Value::is_object)
}

#[cfg(feature = "js")]
mod assume;

#[cfg(feature = "js")]
mod reader {
    use super::assume::{Assume, attribute_type, cased, casing, placeholder};
    use super::*;
    use crate::import::Assumption;
    use crate::import::js::{self, Module, NewCall};
    use crate::import::onetable::{dollar_template, literal_or_fallback, unread_note};
    use crate::import::{At, unique_name};
    use crate::model::{
        AccessPattern, AttrType, Attribute, Design, Entity, Gsi, KeyAttribute, KeyType, Lsi,
        Projection, Table,
    };
    use crate::template::KeyTemplate;

    /// A collection: its table, index and name.
    type CollectionKey = (String, String, String);

    /// One key of one index of an entity, as read.
    struct Key {
        field: String,
        template: Option<KeyTemplate>,
        ty: KeyType,
        /// The composite attributes, by their DynamoDB names.
        composite: Vec<String>,
    }

    struct Index {
        access_pattern: String,
        /// `None` for the table's own index.
        name: Option<String>,
        pk: Key,
        sk: Option<Key>,
        collections: Vec<String>,
        /// ElectroDB's `projection`: `"all"` (the default), `"keys_only"` or the attributes.
        projection: Projection,
    }

    struct Read {
        entity: Entity,
        table: Option<String>,
        service: String,
        indexes: Vec<Index>,
    }

    /// The properties whose value is assumed, and said so, when it is not literal.
    const ASSUMED: &[&str] = &[
        "type",
        "field",
        "label",
        "index",
        "collection",
        "template",
        "casing",
        "entity",
        "service",
        "table",
    ];

    /// The properties of an attribute keyplan reads; the others are listed in a note.
    const READ: &[&str] = &["type", "required", "field", "label", "items", "default"];

    /// An error inside `new Entity(...)`, with where the call is.
    fn locate(error: ImportError, call: &NewCall) -> ImportError {
        let at = |path: String| {
            format!(
                "new Entity at line {}, column {}: {path}",
                call.line, call.column
            )
        };
        match error {
            ImportError::Missing { path } => ImportError::Missing { path: at(path) },
            ImportError::Invalid { path, message } => ImportError::Invalid {
                path: at(path),
                message,
            },
            other => other,
        }
    }

    fn entity(
        call: &NewCall,
        assume: &mut Assume<'_>,
        notes: &mut Vec<String>,
        cased_keys: &mut Vec<String>,
        unread: &mut BTreeMap<String, Vec<String>>,
    ) -> Result<Read, ImportError> {
        let where_ = "model".to_string();
        let Some(model_value) = call.args.first() else {
            return Err(ImportError::Invalid {
                path: where_,
                message: "no model given".to_string(),
            });
        };
        let mut root = At::root(model_value);
        root.path.clone_from(&where_);
        if !model_value.is_object() {
            return Err(root.invalid("the model is not an object literal"));
        }
        // ElectroDB 1+: `model: { entity, version, service }`; before 1.0 they sat at the top.
        let meta = root.get("model").unwrap_or_else(|| At {
            value: model_value,
            path: where_.clone(),
        });
        let unnamed = call.var.clone().unwrap_or_else(|| "entity".to_string());
        let entity_name = match meta.get("entity") {
            Some(name) => assume.text(&name, "the entity's name", &unnamed),
            None => {
                assume.push(
                    &Value::Null,
                    "no `model.entity` (the entity's name)".to_string(),
                    format!("`{unnamed}`"),
                );
                unnamed
            }
        };
        root.path.clone_from(&entity_name);
        let service = match meta.get("service") {
            Some(s) => assume.text(&s, &format!("entity {entity_name}'s service"), ""),
            None => String::new(),
        };
        let version = match meta.get("version").map(|v| v.value().clone()) {
            Some(Value::String(s)) => s,
            Some(Value::Number(n)) => n.to_string(),
            _ => "1".to_string(),
        };
        let config_table = call.args.get(1).and_then(|c| c.get("table"));
        let table = match config_table.or_else(|| model_value.get("table")) {
            Some(t) => {
                let (name, note) = literal_or_fallback(t);
                notes.extend(note);
                if name.is_none() {
                    assume.push(
                        t,
                        format!("entity {entity_name}'s table `{}`", js::snippet_of(t)),
                        "its service's table".to_string(),
                    );
                }
                name
            }
            None => None,
        };

        // Attributes, by ElectroDB name, with their DynamoDB field name and label.
        let mut fields: BTreeMap<String, String> = BTreeMap::new();
        let mut labels: BTreeMap<String, String> = BTreeMap::new();
        let mut attributes = Vec::new();
        let mut shards: BTreeMap<String, u32> = BTreeMap::new();
        for (name, at) in root.require("attributes")?.members()? {
            if let Some(spread) = name.strip_prefix("...") {
                assume.push(
                    at.value(),
                    format!("{entity_name}: the attributes spread from `{spread}`"),
                    "none of them (read the file that defines it with this one)".to_string(),
                );
                continue;
            }
            if !at.value().is_object() || js::is_non_literal(at.value()) {
                assume.push(
                    at.value(),
                    format!(
                        "attribute {entity_name}.{name} `{}`",
                        js::snippet_of(at.value())
                    ),
                    "a string attribute".to_string(),
                );
                fields.insert(name.to_string(), name.to_string());
                attributes.push(Attribute::new(name, AttrType::S));
                continue;
            }
            for (property, _) in at.members()? {
                if !READ.contains(&property) {
                    unread
                        .entry(property.to_string())
                        .or_default()
                        .push(format!("{entity_name}.{name}"));
                }
            }
            let field = match at.get("field") {
                Some(f) => {
                    assume.text(&f, &format!("attribute {entity_name}.{name}'s field"), name)
                }
                None => name.to_string(),
            };
            if let Some(label) = at.get("label") {
                let label = assume.text(
                    &label,
                    &format!("attribute {entity_name}.{name}'s label"),
                    name,
                );
                labels.insert(name.to_string(), label);
            }
            let (ty, values) = attribute_type(&at, assume);
            if let Some(default) = at.get("default") {
                match default
                    .value()
                    .get(js::RANDOM_BELOW)
                    .and_then(Value::as_u64)
                {
                    Some(n) if (2..=1000).contains(&n) => {
                        #[expect(clippy::cast_possible_truncation, reason = "at most 1000")]
                        shards.insert(field.clone(), n as u32);
                    }
                    _ => unread
                        .entry("default".to_string())
                        .or_default()
                        .push(format!("{entity_name}.{name}")),
                }
            }
            let mut attribute = Attribute::new(&field, ty);
            attribute.values = values;
            attribute.required = at
                .get("required")
                .is_some_and(|r| r.bool().unwrap_or(false));
            // A write shard is a part of its key templates (`{shard:10}`), not an attribute
            // of the entity (keyplan's ElectroDB export writes it as one with a random default).
            let shard = shards.contains_key(&field);
            fields.insert(name.to_string(), field);
            if !shard {
                attributes.push(attribute);
            }
        }
        let field_of = |name: &str| {
            fields
                .get(name)
                .cloned()
                .unwrap_or_else(|| name.to_string())
        };
        let label_of = |name: &str| {
            labels
                .get(name)
                .cloned()
                .unwrap_or_else(|| name.to_string())
        };

        let mut indexes = Vec::new();
        for (access_pattern, at) in root.require("indexes")?.members()? {
            let name = at.get("index").map(|n| {
                let fallback = placeholder(n.value());
                assume.text(&n, &format!("index {}", n.path()), &fallback)
            });
            let clustered = at
                .get("type")
                .is_some_and(|t| t.value().as_str() == Some("clustered"));
            let collections: Vec<String> = match at.get("collection") {
                Some(c) => assume.texts(&c, &format!("collection {}", c.path())),
                None => Vec::new(),
            };
            let projection = match at.get("projection") {
                None => Projection::All,
                Some(p) => match p.value() {
                    Value::String(s) if s == "all" => Projection::All,
                    Value::String(s) if s == "keys_only" => Projection::KeysOnly,
                    Value::Array(_) => Projection::Include {
                        attributes: assume
                            .texts(&p, &format!("projection {}", p.path()))
                            .iter()
                            .map(|a| field_of(a))
                            .collect(),
                    },
                    other => {
                        assume.push(
                            other,
                            format!("projection {}", p.path()),
                            "all attributes projected".to_string(),
                        );
                        Projection::All
                    }
                },
            };
            let mut read_key = |key_at: &At<'_>,
                                is_pk: bool,
                                assume: &mut Assume<'_>|
             -> Result<Key, ImportError> {
                let field_at = key_at.require("field")?;
                // `options?.pk ?? 'pk'`: the name it falls back to, else one from its text.
                let fallback = match js::fallback(field_at.value()).and_then(Value::as_str) {
                    Some(name) => name.to_string(),
                    None => placeholder(field_at.value()),
                };
                let field = assume.text(
                    &field_at,
                    &format!("key field {}", field_at.path()),
                    &fallback,
                );
                let casing = casing(key_at, assume);
                let composite: Vec<String> = match key_at.get("composite") {
                    Some(c) => assume.texts(&c, &format!("composite attributes {}", c.path())),
                    None => Vec::new(),
                };
                let cast_number = key_at
                    .get("cast")
                    .is_some_and(|c| c.value().as_str() == Some("number"));
                let shard_of = |template: KeyTemplate| -> KeyTemplate {
                    if shards.is_empty() {
                        return template;
                    }
                    let source: String = template
                        .parts()
                        .iter()
                        .map(|p| match p {
                            crate::template::Part::Literal(s) => super::super::template_literal(s),
                            crate::template::Part::Var(v) => match shards.get(&v.name) {
                                Some(n) => format!("{{{}:{n}}}", v.name),
                                None => format!("{{{}}}", v.name),
                            },
                        })
                        .collect();
                    KeyTemplate::parse(&source)
                };
                let template = key_at.get("template").filter(|t| {
                    if t.value().is_string() {
                        return true;
                    }
                    assume.push(
                        t.value(),
                        format!("key template {} `{}`", t.path(), js::snippet_of(t.value())),
                        "ElectroDB's own key format".to_string(),
                    );
                    false
                });
                if let Some(template) = template {
                    let source = template.str()?;
                    // Literal text takes the key's casing; the values are the caller's.
                    let t = dollar_template(&cased_literals(source, casing), &|_| None);
                    let renamed = rename(&t, &field_of);
                    let composite = renamed.vars().map(|v| v.name.clone()).collect();
                    if casing != "none" {
                        cased_keys.push(format!("{} ({casing})", key_at.path()));
                    }
                    let single_number = renamed.vars().count() == 1
                        && renamed.literal_prefix().is_empty()
                        && renamed.parts().len() == 1
                        && attributes.iter().any(|a| {
                            renamed.vars().any(|v| v.name == a.name) && a.ty == AttrType::N
                        });
                    return Ok(Key {
                        field,
                        template: Some(shard_of(renamed)),
                        ty: if cast_number || single_number {
                            KeyType::N
                        } else {
                            KeyType::S
                        },
                        composite,
                    });
                }
                // The attribute is its own key when its one composite attribute is named like
                // the key field and some attribute is stored in that field (ElectroDB's
                // `_optimizeIndexKey`).
                let own_key = composite.len() == 1
                    && composite[0] == field
                    && fields.values().any(|f| *f == field);
                let composite: Vec<String> = composite.iter().map(|c| field_of(c)).collect();
                if own_key {
                    let ty = attributes
                        .iter()
                        .find(|a| a.name == field)
                        .and_then(|a| a.ty.as_key_type())
                        .unwrap_or(KeyType::S);
                    return Ok(Key {
                        field,
                        template: None,
                        ty,
                        composite,
                    });
                }
                // ElectroDB's own format.
                let entity_part = format!("{entity_name}_{version}");
                let collection_prefix = match collections.as_slice() {
                    [] => String::new(),
                    [first, rest @ ..] => {
                        let mut p = format!("${first}");
                        for c in rest {
                            p.push('#');
                            p.push_str(c);
                        }
                        p
                    }
                };
                let entity_keys = if collection_prefix.is_empty() {
                    format!("${entity_part}")
                } else {
                    format!("#{entity_part}")
                };
                let has_sk = at.get("sk").is_some();
                let (prefix, postfix) = if is_pk {
                    let mut p = format!("${service}");
                    if !has_sk {
                        p.push_str(&collection_prefix);
                        p.push_str(&entity_keys);
                    }
                    (p, String::new())
                } else if clustered {
                    (collection_prefix.clone(), entity_keys.clone())
                } else {
                    (format!("{collection_prefix}{entity_keys}"), String::new())
                };
                let mut source = super::super::template_literal(&cased(&prefix, casing));
                let original: Vec<String> = match key_at.get("composite") {
                    Some(c) => c
                        .value()
                        .as_array()
                        .map(|items| {
                            items
                                .iter()
                                .filter_map(|i| i.as_str().map(str::to_string))
                                .collect()
                        })
                        .or_else(|| c.value().as_str().map(|s| vec![s.to_string()]))
                        .unwrap_or_default(),
                    None => Vec::new(),
                };
                for name in &original {
                    source.push_str(&super::super::template_literal(&cased(
                        &format!("#{}_", label_of(name)),
                        casing,
                    )));
                    source.push('{');
                    source.push_str(&super::super::variable_name(&field_of(name)));
                    source.push('}');
                }
                source.push_str(&super::super::template_literal(&cased(&postfix, casing)));
                if casing != "none" && !original.is_empty() {
                    cased_keys.push(format!("{} ({casing})", key_at.path()));
                }
                Ok(Key {
                    field,
                    template: Some(shard_of(KeyTemplate::parse(&source))),
                    ty: if cast_number { KeyType::N } else { KeyType::S },
                    composite,
                })
            };
            let pk = read_key(&at.require("pk")?, true, assume)?;
            let sk = match at.get("sk") {
                Some(sk) => Some(read_key(&sk, false, assume)?),
                None => None,
            };
            indexes.push(Index {
                access_pattern: access_pattern.to_string(),
                name,
                pk,
                sk,
                collections,
                projection,
            });
        }
        // Composite attributes that are not attributes of the entity.
        for index in &indexes {
            for key in std::iter::once(&index.pk).chain(index.sk.as_ref()) {
                for c in &key.composite {
                    if !attributes.iter().any(|a| &a.name == c) {
                        notes.push(format!(
                            "{entity_name}.{}: the composite attribute `{c}` is not an attribute of the entity",
                            index.access_pattern
                        ));
                    }
                }
            }
        }
        let mut keys = BTreeMap::new();
        for index in &indexes {
            for key in std::iter::once(&index.pk).chain(index.sk.as_ref()) {
                if let Some(t) = &key.template {
                    keys.insert(key.field.clone(), t.clone());
                }
            }
        }
        Ok(Read {
            entity: Entity {
                name: entity_name,
                table: String::new(),
                description: String::new(),
                attributes,
                keys,
                volume: None,
            },
            table,
            service,
            indexes,
        })
    }

    /// `t` with each variable renamed by `field_of` (ElectroDB names to DynamoDB field names).
    fn rename(t: &KeyTemplate, field_of: &dyn Fn(&str) -> String) -> KeyTemplate {
        let source: String = t
            .parts()
            .iter()
            .map(|p| match p {
                crate::template::Part::Literal(s) => super::super::template_literal(s),
                crate::template::Part::Var(v) => format!("{{{}}}", field_of(&v.name)),
            })
            .collect();
        KeyTemplate::parse(&source)
    }

    /// A `${...}` template with its literal text (outside `${}`) in `casing`.
    fn cased_literals(source: &str, casing: &str) -> String {
        let mut out = String::new();
        let mut rest = source;
        while let Some(start) = rest.find("${") {
            out.push_str(&cased(&rest[..start], casing));
            match rest[start..].find('}') {
                Some(end) => {
                    out.push_str(&rest[start..start + end + 1]);
                    rest = &rest[start + end + 1..];
                }
                None => {
                    out.push_str(&rest[start..]);
                    rest = "";
                }
            }
        }
        out.push_str(&cased(rest, casing));
        out
    }

    /// The schemas modules export apart from any `new Entity` (`module.exports = { model,
    /// attributes, indexes }` in ElectroDB's taskapp example, `export const schema = {...}`),
    /// read as the `new Entity(schema)` the application makes of them elsewhere: those that no
    /// `new Entity` of the modules read takes already.
    fn exported_schemas(modules: &[Module]) -> Vec<(&str, NewCall)> {
        let taken: Vec<&Value> = modules
            .iter()
            .flat_map(|m| &m.news)
            .filter(|n| n.class == "Entity")
            .filter_map(|n| n.args.first())
            .collect();
        let mut found = Vec::new();
        for module in modules {
            let named = module.consts.iter().map(|(n, v)| (Some(n.as_str()), v));
            let default = module.default_export.iter().map(|v| (None, v));
            for (name, value) in named.chain(default) {
                if !super::is_schema(value) || taken.contains(&value) {
                    continue;
                }
                let line = module.lines.get(name.unwrap_or("default")).copied();
                found.push((
                    module.name.as_str(),
                    NewCall {
                        class: "Entity".to_string(),
                        args: vec![value.clone()],
                        var: name.map(str::to_string),
                        line: line.unwrap_or(1),
                        column: 1,
                    },
                ));
            }
        }
        found
    }

    /// Reads the entities and services of modules read together (one, or several whose
    /// services combine entities of the others): one design. An entity that cannot be read at
    /// all (no `indexes`, say) is left out and said, unless none can be.
    pub(crate) fn from_modules(modules: &[Module]) -> Result<Imported, ImportError> {
        let mut notes = Vec::new();
        let mut assumed = Vec::new();
        let mut unread: BTreeMap<String, Vec<String>> = BTreeMap::new();
        let mut reads: Vec<(Option<String>, Read)> = Vec::new();
        let mut non_literal = Vec::new();
        let mut cased_keys = Vec::new();
        let mut first_error = None;
        let calls = |class: &'static str| {
            modules.iter().flat_map(move |m| {
                m.news
                    .iter()
                    .filter(move |n| n.class == class)
                    .map(move |n| (m.name.as_str(), n))
            })
        };
        let entity_calls: Vec<(&str, NewCall)> = calls("Entity")
            .map(|(file, call)| (file, call.clone()))
            .chain(exported_schemas(modules))
            .collect();
        for (file, call) in &entity_calls {
            let (file, call) = (*file, call);
            let mut entity_assumed = Vec::new();
            let mut assume = Assume {
                file,
                line: call.line,
                out: &mut entity_assumed,
            };
            match entity(call, &mut assume, &mut notes, &mut cased_keys, &mut unread) {
                Ok(read) => {
                    assumed.append(&mut entity_assumed);
                    if let Some(model) = call.args.first() {
                        js::non_literals(model, &read.entity.name, &mut non_literal);
                    }
                    reads.push((call.var.clone(), read));
                }
                Err(error) => {
                    let error = locate(error, call);
                    let mut assumption = Assumption::at(
                        call.line,
                        format!("not read: {error}"),
                        "the entity is left out",
                    );
                    if !file.is_empty() {
                        assumption = assumption.in_file(file);
                    }
                    assumed.push(assumption);
                    first_error.get_or_insert(error);
                }
            }
        }
        if reads.is_empty() {
            return Err(first_error.unwrap_or_else(|| ImportError::Invalid {
                path: "the module".to_string(),
                message: "no ElectroDB entity in it: expected `new Entity({ model, attributes, indexes })`".to_string(),
            }));
        }
        // Services: their table, for the entities they hold (by variable or by entity name).
        let mut n_services = 0;
        for (_, call) in calls("Service") {
            n_services += 1;
            let Some(members) = call.args.first().and_then(Value::as_object) else {
                continue;
            };
            let table = call.args.get(1).and_then(|c| c.get("table")).and_then(|t| {
                let (name, note) = literal_or_fallback(t);
                notes.extend(note);
                name
            });
            let Some(table) = table else { continue };
            for member in members.values() {
                let var = js::snippet_of(member);
                for (entity_var, read) in reads.iter_mut() {
                    if entity_var.as_deref() == Some(var.as_str()) {
                        read.table = Some(table.clone());
                    }
                }
            }
        }
        let mut design = Design::new(
            reads
                .iter()
                .map(|(_, r)| r.service.clone())
                .find(|s| !s.is_empty())
                .unwrap_or_else(|| "ElectroDB service".to_string()),
        );
        let mut entity_names = Vec::new();
        let mut pattern_names = Vec::new();
        // Collections: (table, index, collection) -> entities and the partition key inputs.
        let mut collections: BTreeMap<CollectionKey, (Vec<String>, Vec<String>)> = BTreeMap::new();
        for (_, read) in reads.iter_mut().map(|(v, r)| (v, r)) {
            let table_name = match &read.table {
                Some(t) => t.clone(),
                None => {
                    let name = if read.service.is_empty() {
                        "table".to_string()
                    } else {
                        read.service.clone()
                    };
                    notes.push(format!(
                        "entity {}: no literal table name; it is put in table `{name}` (its service)",
                        read.entity.name
                    ));
                    name
                }
            };
            read.entity.name = unique_name(&read.entity.name, &mut entity_names);
            read.entity.table = table_name.clone();
            let Some(primary) = read.indexes.iter().find(|i| i.name.is_none()) else {
                return Err(ImportError::Invalid {
                    path: format!("{}.indexes", read.entity.name),
                    message: "no index for the table (one without `index`)".to_string(),
                });
            };
            let position = match design.tables.iter().position(|t| t.name == table_name) {
                Some(p) => p,
                None => {
                    design.tables.push(Table {
                        name: table_name.clone(),
                        partition_key: KeyAttribute::new(&primary.pk.field, primary.pk.ty),
                        sort_key: primary
                            .sk
                            .as_ref()
                            .map(|sk| KeyAttribute::new(&sk.field, sk.ty)),
                        gsis: Vec::new(),
                        lsis: Vec::new(),
                        billing: Default::default(),
                        ttl_attribute: None,
                        replicas: Vec::new(),
                        vector_indexes: Vec::new(),
                    });
                    design.tables.len() - 1
                }
            };
            let table = &mut design.tables[position];
            if table.partition_key.name != primary.pk.field {
                notes.push(format!(
                    "entity {}: its table key `{}` differs from `{}`, which another entity of table {table_name} gives; the first is kept",
                    read.entity.name, primary.pk.field, table.partition_key.name
                ));
            }
            for index in read.indexes.iter().filter(|i| i.name.is_some()) {
                let name = index.name.clone().unwrap_or_default();
                // An index several entities use: each entity's `projection` names its own
                // attributes, and the index holds them all.
                let known = table
                    .gsis
                    .iter_mut()
                    .find(|g| g.name == name)
                    .map(|g| &mut g.projection)
                    .or_else(|| {
                        table
                            .lsis
                            .iter_mut()
                            .find(|l| l.name == name)
                            .map(|l| &mut l.projection)
                    });
                if let Some(projection) = known {
                    merge_projection(projection, &index.projection);
                    continue;
                }
                let shares_pk = index.pk.field == table.partition_key.name;
                match (&index.sk, shares_pk) {
                    (Some(sk), true) => table.lsis.push(Lsi {
                        name: name.clone(),
                        sort_key: KeyAttribute::new(&sk.field, sk.ty),
                        projection: index.projection.clone(),
                    }),
                    _ => table.gsis.push(Gsi {
                        name: name.clone(),
                        partition_key: vec![KeyAttribute::new(&index.pk.field, index.pk.ty)],
                        sort_key: index
                            .sk
                            .iter()
                            .map(|sk| KeyAttribute::new(&sk.field, sk.ty))
                            .collect(),
                        projection: index.projection.clone(),
                    }),
                }
            }
            for index in &read.indexes {
                let pattern = AccessPattern::read(
                    unique_name(
                        &format!("{} {}", read.entity.name, index.access_pattern),
                        &mut pattern_names,
                    ),
                    &[read.entity.name.as_str()],
                    &[],
                );
                let mut pattern = pattern;
                pattern.inputs = index.pk.composite.clone();
                pattern.description = format!(
                    "ElectroDB access pattern `{}.query.{}`",
                    read.entity.name, index.access_pattern
                );
                design.patterns.push(pattern);
                for collection in &index.collections {
                    let entry = collections
                        .entry((
                            table_name.clone(),
                            index.name.clone().unwrap_or_default(),
                            collection.clone(),
                        ))
                        .or_insert_with(|| (Vec::new(), index.pk.composite.clone()));
                    entry.0.push(read.entity.name.clone());
                }
            }
        }
        let n_collections = collections.len();
        for ((_, _, collection), (entities, inputs)) in collections {
            let names: Vec<&str> = entities.iter().map(String::as_str).collect();
            let mut pattern = AccessPattern::read(
                unique_name(&format!("collection {collection}"), &mut pattern_names),
                &names,
                &[],
            );
            pattern.inputs = inputs;
            pattern.description = format!("ElectroDB collection `collections.{collection}`");
            design.patterns.push(pattern);
        }
        for (_, read) in reads {
            design.entities.push(read.entity);
        }
        let n_gsis: usize = design
            .tables
            .iter()
            .map(|t| t.gsis.len() + t.lsis.len())
            .sum();
        notes.insert(
            0,
            format!(
                "read {} entities ({}), {} service(s), {} secondary index(es) and {} collection(s); each index is a read pattern",
                design.entities.len(),
                design
                    .entities
                    .iter()
                    .map(|e| e.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
                n_services,
                n_gsis,
                n_collections
            ),
        );
        if !cased_keys.is_empty() {
            let mut shown: Vec<String> = cased_keys.iter().take(8).cloned().collect();
            if cased_keys.len() > 8 {
                shown.push(format!("and {} more", cased_keys.len() - 8));
            }
            notes.push(format!(
                "ElectroDB changes the case of these keys, values included, and keyplan keeps the values as given: {}",
                shown.join(", ")
            ));
        }
        if n_gsis > 0 {
            notes.push(
                "ElectroDB does not say what a secondary index projects: every one is read as projecting all attributes"
                    .to_string(),
            );
        }
        // issue 15: what is the table's, not the model's.
        notes.push(
            "ElectroDB models hold no billing mode, capacity or TTL (the table's settings): each table is read as on-demand, without a TTL attribute"
                .to_string(),
        );
        notes.extend(unread_note("attribute properties", &unread));
        // What an assumption already says (a type, a field name...) is not listed again.
        non_literal.retain(|(path, _)| {
            let last = path.rsplit('.').next().unwrap_or_default();
            !ASSUMED.contains(&last) && !path.contains(".composite")
        });
        notes.extend(js::non_literal_note(&non_literal));
        let n_entities = design.entities.len();
        let mut imported = Imported::new(design);
        imported.notes = notes;
        // In the order of the files and lines they are at (attributes are read by name).
        assumed.sort_by(|a, b| (&a.file, a.line).cmp(&(&b.file, b.line)));
        imported.assumed = assumed;
        imported.collections = n_collections;
        imported.held = Some(match (n_services, n_entities) {
            (0, 1) => "an ElectroDB entity".to_string(),
            (0, _) => "ElectroDB entities".to_string(),
            (1, _) => "an ElectroDB service".to_string(),
            (n, _) => format!("{n} ElectroDB services"),
        });
        Ok(imported)
    }

    /// The projection of an index two entities use, given `each`'s: all when either projects all,
    /// else the attributes of both (keys-only adds none).
    fn merge_projection(into: &mut Projection, each: &Projection) {
        match (&mut *into, each) {
            (Projection::All, _) | (_, Projection::KeysOnly) => {}
            (_, Projection::All) => *into = Projection::All,
            (Projection::KeysOnly, Projection::Include { .. }) => *into = each.clone(),
            (Projection::Include { attributes }, Projection::Include { attributes: more }) => {
                for a in more {
                    if !attributes.contains(a) {
                        attributes.push(a.clone());
                    }
                }
            }
        }
    }
}
