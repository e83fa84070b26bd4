//! Dynamoose schemas and models, from the JavaScript or TypeScript module they are written in
//! (the `js` feature; without it the module is refused with a message saying where it can be
//! read). keyplan's own Dynamoose export reads back too.
//!
//! Each `dynamoose.model(name, schema, options)` is an entity, its schema a
//! `new dynamoose.Schema({...})` (inline, or the constant holding it) or a plain object. Its
//! table is `options.tableName`, else the `new dynamoose.Table(name, [models])` that holds it,
//! else the model's name, with `prefix`/`suffix`. The table's partition key is the attribute
//! with `hashKey: true` (else, as Dynamoose does, the first attribute), its sort key the one
//! with `rangeKey: true`; an attribute's `index` (`true`, an object or a list of them) is a GSI
//! keyed by it (`type: 'global'`, Dynamoose's default since v3; `global: false` or
//! `type: 'local'` an LSI sorted by it), named `name` or `<attribute>GlobalIndex`, projecting
//! all unless `project` says `false` (keys only) or lists attributes. Types: `String`, `Number`,
//! `Boolean`, `Date` (a number, as Dynamoose stores it), `Object`, `Array`, `Buffer`, `Set`
//! (with its `schema: [String]`), `dynamoose.type.CONSTANT(x)` (an enum of one value) and
//! `dynamoose.type.COMBINE([a, b], sep)` (a key template `{a}sep{b}`). Keys are the attributes
//! themselves: Dynamoose has no key templates but COMBINE. `expires` is the table's TTL
//! attribute (`ttl` unless it says); `timestamps` adds `createdAt` and `updatedAt`.
//!
//! What is not literal is assumed, the least that fits (a string attribute, the model's
//! variable as its name), and listed with its line in [`Imported::assumed`].

use super::{ImportError, Imported};

/// Reads Dynamoose models from a module.
pub fn import(text: &str) -> Result<Imported, ImportError> {
    read(text)
}

#[cfg(not(feature = "js"))]
fn read(text: &str) -> Result<Imported, ImportError> {
    Err(super::module_without_js(text, "Dynamoose schemas"))
}

#[cfg(feature = "js")]
fn read(text: &str) -> Result<Imported, ImportError> {
    let module = super::js::read(text)?;
    reader::from_modules(&[("", text, &module)])
}

/// Reads the models of modules read together: see `reader::from_modules`.
#[cfg(feature = "js")]
pub(crate) use reader::from_modules;

#[cfg(feature = "js")]
mod reader {
    use std::collections::BTreeMap;

    use serde_json::Value;

    use super::{ImportError, Imported};
    use crate::import::assumed::line_after;
    use crate::import::js::{self, Module, NewCall};
    use crate::import::onetable::literal_or_fallback;
    use crate::import::{Assumption, unique_name};
    use crate::model::{
        AttrType, Attribute, Billing, Design, Entity, Gsi, KeyAttribute, KeyType, Lsi, Projection,
        Table,
    };
    use crate::template::KeyTemplate;

    /// The attribute settings read; the others are listed in a note.
    const READ: &[&str] = &[
        "type", "hashKey", "rangeKey", "required", "enum", "index", "schema",
    ];

    /// One model's schema, read.
    struct Model {
        entity: Entity,
        table: String,
        hash_key: KeyAttribute,
        range_key: Option<KeyAttribute>,
        gsis: Vec<Gsi>,
        lsis: Vec<Lsi>,
        ttl: Option<String>,
        /// `throughput`: `'ON_DEMAND'` or `{ read, write }`; `None` when not said.
        billing: Billing,
        billing_said: bool,
    }

    /// The type named by a Dynamoose attribute's `type` (or the attribute itself):
    /// `Err` with its source when it is none keyplan knows.
    fn type_of(value: &Value) -> Result<(AttrType, Vec<String>, Option<KeyTemplate>), String> {
        let code = js::snippet_of(value);
        if let Some(links) = value.get(js::CALL_CHAIN).and_then(Value::as_array)
            && let [link] = links.as_slice()
        {
            let name = link.get("name").and_then(Value::as_str).unwrap_or("");
            let args = link
                .get("args")
                .and_then(Value::as_array)
                .map_or(&[][..], Vec::as_slice);
            match name.rsplit('.').next() {
                Some("CONSTANT") => {
                    let value = args.first().cloned().unwrap_or(Value::Null);
                    return Ok(match value {
                        Value::Number(n) => (AttrType::N, vec![n.to_string()], None),
                        Value::Bool(b) => (AttrType::Bool, vec![b.to_string()], None),
                        Value::String(s) => (AttrType::S, vec![s], None),
                        _ => return Err(code),
                    });
                }
                Some("COMBINE") => {
                    let names: Vec<&str> = args
                        .first()
                        .and_then(Value::as_array)
                        .map(|a| a.iter().filter_map(Value::as_str).collect())
                        .unwrap_or_default();
                    let separator = args.get(1).and_then(Value::as_str).unwrap_or(",");
                    let source: Vec<String> = names
                        .iter()
                        .map(|n| format!("{{{}}}", crate::import::variable_name(n)))
                        .collect();
                    let template = KeyTemplate::parse(
                        &source.join(&crate::import::template_literal(separator)),
                    );
                    return Ok((AttrType::S, Vec::new(), Some(template)));
                }
                _ => return Err(code),
            }
        }
        if let Value::String(name) = value {
            // `type: "string"` is not Dynamoose's, but its meaning is plain.
            return type_of(&serde_json::json!({ "$js": capitalised(name) }));
        }
        // `{ value: Date, settings: { storage: 'iso' } }`.
        if let Some(inner) = value.get("value") {
            let storage = value
                .get("settings")
                .and_then(|s| s.get("storage"))
                .and_then(Value::as_str);
            let (ty, values, template) = type_of(inner)?;
            return Ok(match storage {
                Some("iso") => (AttrType::S, values, template),
                _ => (ty, values, template),
            });
        }
        let ty = match code.rsplit('.').next().unwrap_or("") {
            "String" => AttrType::S,
            "Number" | "Date" => AttrType::N,
            "Boolean" => AttrType::Bool,
            "Object" | "THIS" => AttrType::M,
            "Array" => AttrType::L,
            "Buffer" => AttrType::B,
            "Set" => AttrType::SS,
            "NULL" => AttrType::Null,
            _ => return Err(code),
        };
        Ok((ty, Vec::new(), None))
    }

    fn capitalised(name: &str) -> String {
        let mut chars = name.chars();
        match chars.next() {
            Some(first) => first.to_uppercase().chain(chars).collect(),
            None => String::new(),
        }
    }

    /// The schema of a model: its attributes object and options, and the line it is on.
    fn schema_of<'m>(
        value: &'m Value,
        module: &'m Module,
        call: &NewCall,
    ) -> Option<(&'m Value, Option<&'m Value>, usize)> {
        let as_schema = |schema: &'m NewCall| {
            schema
                .args
                .first()
                .map(|a| (a, schema.args.get(1), schema.line))
        };
        let schemas = module.news.iter().filter(|n| n.class == "Schema");
        if let Some(at) = value.get(js::NEW_AT).and_then(Value::as_array) {
            let at: Vec<usize> = at
                .iter()
                .filter_map(Value::as_u64)
                .filter_map(|n| usize::try_from(n).ok())
                .collect();
            return schemas
                .clone()
                .find(|s| [s.line, s.column] == at.as_slice())
                .and_then(as_schema);
        }
        if js::is_non_literal(value) {
            let var = js::snippet_of(value);
            return schemas
                .clone()
                .find(|s| s.var.as_deref() == Some(var.as_str()))
                .and_then(as_schema);
        }
        value.is_object().then_some((value, None, call.line))
    }

    /// Reads the models of the modules `(file, text, module)` read together (one alone, with
    /// no file name): a `new Table(name, [models])` of any of them holds its models.
    pub(crate) fn from_modules(files: &[(&str, &str, &Module)]) -> Result<Imported, ImportError> {
        let mut notes = Vec::new();
        let mut assumed: Vec<Assumption> = Vec::new();
        let mut unread: BTreeMap<String, Vec<String>> = BTreeMap::new();
        // Tables that hold models: `new dynamoose.Table(name, [A, B], options)`.
        let mut held: BTreeMap<String, (String, Option<&Value>)> = BTreeMap::new();
        let tables = files.iter().flat_map(|(_, _, module)| &module.news);
        for table in tables.filter(|n| n.class == "Table") {
            let (Some(Value::String(name)), Some(Value::Array(models))) =
                (table.args.first(), table.args.get(1))
            else {
                continue;
            };
            for model in models {
                held.insert(js::snippet_of(model), (name.clone(), table.args.get(2)));
            }
        }
        let mut models = Vec::new();
        let mut entity_names = Vec::new();
        for &(file, text, module) in files {
            let first = assumed.len();
            for call in module.calls.iter().filter(|c| c.class == "model") {
                let fallback = call.var.clone().unwrap_or_else(|| "model".to_string());
                let name = match call.args.first() {
                    Some(name) => match literal_or_fallback(name) {
                        (Some(name), note) => {
                            notes.extend(note);
                            name
                        }
                        (None, _) => {
                            assumed.push(Assumption::at(
                                call.line,
                                format!("model name `{}`", js::snippet_of(name)),
                                format!("the model is called `{fallback}` (its variable)"),
                            ));
                            fallback.clone()
                        }
                    },
                    None => continue,
                };
                let name = unique_name(&name, &mut entity_names);
                let mut schema_value = call.args.get(1).unwrap_or(&Value::Null);
                if let Value::Array(schemas) = schema_value
                    && let Some(first) = schemas.first()
                {
                    if schemas.len() > 1 {
                        notes.push(format!(
                            "model {name}: of its {} schemas only the first is read",
                            schemas.len()
                        ));
                    }
                    schema_value = first;
                }
                let Some((attributes, options, schema_line)) =
                    schema_of(schema_value, module, call)
                else {
                    assumed.push(Assumption::at(
                        call.line,
                        format!(
                            "model {name}: schema `{}` is not in this file",
                            js::snippet_of(schema_value)
                        ),
                        "a table keyed by a string `id`",
                    ));
                    let mut entity = Entity {
                        name: name.clone(),
                        table: name.clone(),
                        description: String::new(),
                        attributes: vec![Attribute::new("id", AttrType::S)],
                        keys: BTreeMap::new(),
                        volume: None,
                    };
                    entity.attributes[0].required = true;
                    models.push(Model {
                        entity,
                        table: name,
                        hash_key: KeyAttribute::new("id", KeyType::S),
                        range_key: None,
                        gsis: Vec::new(),
                        lsis: Vec::new(),
                        ttl: None,
                        billing: Billing::OnDemand,
                        billing_said: false,
                    });
                    continue;
                };
                let model_options = call.args.get(2);
                let (table, table_options) = match held.get(&fallback) {
                    Some((table, options)) => (table.clone(), *options),
                    None => (
                        model_options
                            .and_then(|o| o.get("tableName"))
                            .and_then(Value::as_str)
                            .map_or_else(|| name.clone(), str::to_string),
                        model_options,
                    ),
                };
                let affix = |key: &str| {
                    table_options
                        .and_then(|o| o.get(key))
                        .and_then(Value::as_str)
                        .unwrap_or("")
                        .to_string()
                };
                let table = format!("{}{table}{}", affix("prefix"), affix("suffix"));
                let model = read_model(
                    text,
                    &name,
                    &table,
                    attributes,
                    options,
                    table_options,
                    schema_line,
                    &mut notes,
                    &mut assumed,
                    &mut unread,
                );
                models.push(model);
            }
            for assumption in &mut assumed[first..] {
                if !file.is_empty() && assumption.file.is_none() {
                    assumption.file = Some(file.to_string());
                }
            }
        }
        if models.is_empty() {
            return Err(ImportError::Invalid {
                path: "the module".to_string(),
                message: "no Dynamoose model in it: expected `dynamoose.model(name, schema)`"
                    .to_string(),
            });
        }
        let billing_said_by_all = models.iter().all(|m| m.billing_said);
        let mut design = Design::new(models[0].entity.name.clone());
        for model in models {
            match design.tables.iter_mut().find(|t| t.name == model.table) {
                Some(table) => {
                    if table.partition_key.name != model.hash_key.name {
                        notes.push(format!(
                            "model {}: its hashKey `{}` differs from `{}`, which another model of table {} gives; the first is kept",
                            model.entity.name, model.hash_key.name, table.partition_key.name, table.name
                        ));
                    }
                    for gsi in model.gsis {
                        if table.gsi(&gsi.name).is_none() {
                            table.gsis.push(gsi);
                        }
                    }
                    for lsi in model.lsis {
                        if table.lsi(&lsi.name).is_none() {
                            table.lsis.push(lsi);
                        }
                    }
                    if table.ttl_attribute.is_none() {
                        table.ttl_attribute = model.ttl;
                    }
                }
                None => design.tables.push(Table {
                    name: model.table.clone(),
                    partition_key: model.hash_key,
                    sort_key: model.range_key,
                    gsis: model.gsis,
                    lsis: model.lsis,
                    billing: model.billing,
                    ttl_attribute: model.ttl,
                    replicas: Vec::new(),
                    vector_indexes: Vec::new(),
                }),
            }
            design.entities.push(model.entity);
        }
        notes.extend(crate::import::onetable::unread_note(
            "attribute settings",
            &unread,
        ));
        notes.push(
            "Dynamoose schemas declare no access patterns: add the reads and writes the application makes to see how each is served"
                .to_string(),
        );
        if !billing_said_by_all {
            notes.push(
                "Dynamoose creates tables with 1 read and 1 write unit unless `throughput` says otherwise; a table whose models do not say is read as on-demand"
                    .to_string(),
            );
        }
        let mut imported = Imported::new(design);
        imported.notes = notes;
        imported.assumed = assumed;
        Ok(imported)
    }

    #[expect(
        clippy::too_many_arguments,
        reason = "one model's parts and the reports"
    )]
    fn read_model(
        text: &str,
        name: &str,
        table: &str,
        attributes: &Value,
        options: Option<&Value>,
        table_options: Option<&Value>,
        line: usize,
        notes: &mut Vec<String>,
        assumed: &mut Vec<Assumption>,
        unread: &mut BTreeMap<String, Vec<String>>,
    ) -> Model {
        let mut entity = Entity {
            name: name.to_string(),
            table: table.to_string(),
            description: String::new(),
            attributes: Vec::new(),
            keys: BTreeMap::new(),
            volume: None,
        };
        let mut hash_key: Option<String> = None;
        let mut range_key: Option<String> = None;
        // (attribute, index settings) for each `index`.
        let mut indexes: Vec<(String, Value)> = Vec::new();
        let members = attributes.as_object().cloned().unwrap_or_default();
        if members.is_empty() {
            assumed.push(Assumption::at(
                line,
                format!(
                    "model {name}: schema `{}` holds no attributes",
                    js::snippet_of(attributes)
                ),
                "a string partition key `id`",
            ));
        }
        for (attr_name, setting) in &members {
            let settings = setting.is_object() && !js::is_non_literal(setting);
            let type_value = if settings {
                setting.get("type").cloned().unwrap_or(Value::Null)
            } else {
                setting.clone()
            };
            let (mut ty, mut values, template) = match &type_value {
                Value::Null => (AttrType::S, Vec::new(), None),
                Value::Array(types) => {
                    notes.push(format!(
                        "{name}.{attr_name}: one of several types; the first is kept"
                    ));
                    type_of(types.first().unwrap_or(&Value::Null)).unwrap_or((
                        AttrType::S,
                        Vec::new(),
                        None,
                    ))
                }
                other => match type_of(other) {
                    Ok(read) => read,
                    Err(code) => {
                        assumed.push(Assumption::at(
                            line_after(text, line, attr_name),
                            format!("{name}.{attr_name}: type `{code}`"),
                            "a string",
                        ));
                        (AttrType::S, Vec::new(), None)
                    }
                },
            };
            let mut required = false;
            if settings {
                for property in setting.as_object().into_iter().flatten().map(|(k, _)| k) {
                    if !READ.contains(&property.as_str()) {
                        unread
                            .entry(property.clone())
                            .or_default()
                            .push(format!("{name}.{attr_name}"));
                    }
                }
                required = setting.get("required").and_then(Value::as_bool) == Some(true);
                if let Some(list) = setting.get("enum").and_then(Value::as_array) {
                    values = list
                        .iter()
                        .filter_map(|v| match v {
                            Value::String(s) => Some(s.clone()),
                            Value::Number(n) => Some(n.to_string()),
                            _ => None,
                        })
                        .collect();
                }
                if ty == AttrType::SS
                    && let Some(element) = setting
                        .get("schema")
                        .and_then(Value::as_array)
                        .and_then(|s| s.first())
                {
                    let element = element.get("type").unwrap_or(element);
                    if let Ok((AttrType::N, _, _)) = type_of(element) {
                        ty = AttrType::NS;
                    } else if let Ok((AttrType::B, _, _)) = type_of(element) {
                        ty = AttrType::BS;
                    }
                }
                if setting.get("hashKey").and_then(Value::as_bool) == Some(true) {
                    hash_key = Some(attr_name.clone());
                }
                if setting.get("rangeKey").and_then(Value::as_bool) == Some(true) {
                    range_key = Some(attr_name.clone());
                }
                match setting.get("index") {
                    Some(Value::Array(list)) => {
                        indexes.extend(list.iter().map(|i| (attr_name.clone(), i.clone())))
                    }
                    Some(Value::Bool(true)) => {
                        indexes.push((attr_name.clone(), Value::Object(Default::default())))
                    }
                    Some(index @ Value::Object(_)) => {
                        indexes.push((attr_name.clone(), index.clone()))
                    }
                    _ => {}
                }
            }
            if let Some(template) = template {
                entity.keys.insert(attr_name.clone(), template);
            } else {
                let mut attribute = Attribute::new(attr_name, ty);
                attribute.required = required;
                attribute.values = std::mem::take(&mut values);
                entity.attributes.push(attribute);
            }
        }
        // `timestamps: true` (or names): Dynamoose stores the dates as numbers.
        if let Some(timestamps) = options.and_then(|o| o.get("timestamps")) {
            let names: Vec<String> = match timestamps {
                Value::Bool(true) => vec!["createdAt".into(), "updatedAt".into()],
                Value::Object(names) => ["createdAt", "updatedAt"]
                    .iter()
                    .filter_map(|k| match names.get(*k) {
                        Some(Value::String(s)) => Some(s.clone()),
                        Some(Value::Array(list)) => {
                            list.first().and_then(Value::as_str).map(str::to_string)
                        }
                        None => Some((*k).to_string()),
                        _ => None,
                    })
                    .collect(),
                _ => Vec::new(),
            };
            for timestamp in names {
                if entity.attribute(&timestamp).is_none() {
                    entity
                        .attributes
                        .push(Attribute::new(&timestamp, AttrType::N));
                }
            }
        }
        // Dynamoose's hashKey when none is marked: the first attribute, in the source's
        // order (the values read keep their names sorted).
        let hash_key = hash_key
            .or_else(|| {
                members
                    .keys()
                    .min_by_key(|name| line_after(text, line, name))
                    .cloned()
            })
            .unwrap_or_else(|| "id".to_string());
        let key_type = |attr: &str| -> KeyType {
            entity
                .attribute(attr)
                .and_then(|a| a.ty.as_key_type())
                .unwrap_or(KeyType::S)
        };
        let mut gsis = Vec::new();
        let mut lsis = Vec::new();
        for (attr, index) in &indexes {
            let local = index.get("type").and_then(Value::as_str) == Some("local")
                || index.get("global").and_then(Value::as_bool) == Some(false);
            let index_name = index.get("name").and_then(Value::as_str).map_or_else(
                || format!("{attr}{}", if local { "LocalIndex" } else { "GlobalIndex" }),
                str::to_string,
            );
            let projection = match index.get("project") {
                Some(Value::Bool(false)) => Projection::KeysOnly,
                Some(Value::Array(list)) => Projection::Include {
                    attributes: list
                        .iter()
                        .filter_map(Value::as_str)
                        .map(str::to_string)
                        .collect(),
                },
                _ => Projection::All,
            };
            if local {
                lsis.push(Lsi {
                    name: index_name,
                    sort_key: KeyAttribute::new(attr, key_type(attr)),
                    projection,
                });
            } else {
                let range = index.get("rangeKey").and_then(Value::as_str);
                gsis.push(Gsi {
                    name: index_name,
                    partition_key: vec![KeyAttribute::new(attr, key_type(attr))],
                    sort_key: range
                        .map(|r| KeyAttribute::new(r, key_type(r)))
                        .into_iter()
                        .collect(),
                    projection,
                });
            }
        }
        let ttl = match table_options.and_then(|o| o.get("expires")) {
            Some(Value::Number(_)) => Some("ttl".to_string()),
            Some(expires @ Value::Object(_)) => Some(
                expires
                    .get("attribute")
                    .and_then(Value::as_str)
                    .unwrap_or("ttl")
                    .to_string(),
            ),
            _ => None,
        };
        let range_key = range_key.map(|r| KeyAttribute::new(&r, key_type(&r)));
        let throughput = table_options.and_then(|o| o.get("throughput"));
        let billing = match throughput {
            Some(t) => match (
                t.get("read").and_then(Value::as_u64),
                t.get("write").and_then(Value::as_u64),
                t.as_u64(),
            ) {
                (Some(read), Some(write), _) => Billing::provisioned(read, write),
                (_, _, Some(units)) => Billing::provisioned(units, units),
                _ => Billing::OnDemand,
            },
            None => Billing::OnDemand,
        };
        Model {
            billing,
            billing_said: throughput.is_some(),
            hash_key: KeyAttribute::new(&hash_key, key_type(&hash_key)),
            range_key,
            entity,
            table: table.to_string(),
            gsis,
            lsis,
            ttl,
        }
    }
}
