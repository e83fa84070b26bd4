//! The `schema.json` of the DynamoDB data-modeling tool in awslabs/mcp, read into a keyplan
//! design.
//!
//! The format: `tables`, each a `table_config` (`table_name`, `partition_key`, `sort_key`), an
//! optional `gsi_list` (`name`, `partition_key`, `sort_key`, `projection`,
//! `included_attributes`) and `entities` by name, each with `entity_type`, `fields` (`name`,
//! `type`, `required`), `pk_template` and `sk_template` (`USER#{user_id}`), `gsi_mappings`
//! (`name`, `pk_template`, `sk_template`) and `access_patterns` (`name`, `operation`,
//! `parameters`, `index_name`, `range_condition`, `return_type`); and an optional
//! `cross_table_access_patterns` list of transactions. Its templates are keyplan's templates.
//!
//! An access pattern's parameters that are attributes become the pattern's inputs; with a
//! `range_condition`, the last one (two for `between`) are the range's values, and the
//! condition applies to the first variable of the sort-key template the inputs leave unbound
//! (`ORDER#{order_date}#{order_id}` with `>=` -> `order_date >=`). The declared `operation`
//! and `index_name` are not part of the design (keyplan decides those) and are returned beside
//! it in [`Imported::declared`] for comparison.

use crate::item::AttributeValue;
use crate::model::{
    AccessPattern, Action, AttrType, Attribute, Design, Entity, FilterCondition, FilterOp, Gsi,
    KeyAttribute, KeyType, Projection, SortCondition, SortOp, Table, WriteStep,
};
use crate::template::KeyTemplate;

use super::{At, Declared, ImportError, Imported, plain_value, unique_name};

/// Reads an awslabs/mcp `schema.json`.
pub fn import(text: &str) -> Result<Imported, ImportError> {
    crate::json_budget::check(text)?;
    let value: serde_json::Value = serde_json::from_str(text)?;
    import_value(&value)
}

/// One entity as the schema states it, before it becomes a keyplan entity.
struct McpEntity<'a> {
    name: String,
    table: String,
    at: At<'a>,
    fields: Vec<(String, &'static str)>,
    pk_template: String,
    sk_template: Option<String>,
    /// GSI name -> (partition templates, sort templates).
    gsi_mappings: Vec<(String, Vec<String>, Vec<String>)>,
}

impl McpEntity<'_> {
    fn has_field(&self, name: &str) -> bool {
        self.fields.iter().any(|(f, _)| f == name)
    }

    fn field_type(&self, name: &str) -> Option<&'static str> {
        self.fields.iter().find(|(f, _)| f == name).map(|(_, t)| *t)
    }

    /// The partition and sort templates of the table (`index` = `None`) or of a GSI.
    fn templates(&self, index: Option<&str>) -> Option<(Vec<String>, Vec<String>)> {
        match index {
            None => Some((
                vec![self.pk_template.clone()],
                self.sk_template.iter().cloned().collect(),
            )),
            Some(name) => self
                .gsi_mappings
                .iter()
                .find(|(g, _, _)| g == name)
                .map(|(_, pk, sk)| (pk.clone(), sk.clone())),
        }
    }
}

pub(crate) fn import_value(value: &serde_json::Value) -> Result<Imported, ImportError> {
    let root = At::root(value);
    let tables_at = root.require("tables")?.array()?;
    let mut tables: Vec<Table> = Vec::new();
    let mut entities: Vec<McpEntity<'_>> = Vec::new();
    let mut notes: Vec<String> = Vec::new();
    for table_at in &tables_at {
        let config = table_at.require("table_config")?;
        let name = config.require("table_name")?.str()?.to_string();
        let partition = config.require("partition_key")?.str()?.to_string();
        let sort = config
            .get("sort_key")
            .map(|s| s.str().map(str::to_string))
            .transpose()?;
        let mut gsis = Vec::new();
        if let Some(list) = table_at.get("gsi_list").or_else(|| config.get("gsi_list")) {
            for gsi in list.array()? {
                gsis.push(read_gsi(&gsi)?);
            }
        }
        let table_entities = table_at.require("entities")?;
        for (entity_name, entity_at) in table_entities.members()? {
            entities.push(read_entity(entity_name, &name, entity_at, &gsis)?);
        }
        tables.push(Table {
            name,
            partition_key: KeyAttribute::new(partition, KeyType::S),
            sort_key: sort.map(|s| KeyAttribute::new(s, KeyType::S)),
            gsis,
            lsis: Vec::new(),
            billing: Default::default(),
            ttl_attribute: None,
            replicas: Vec::new(),
            vector_indexes: Vec::new(),
        });
    }
    // A key attribute is a number when every entity fills it with one numeric field.
    for table in &mut tables {
        let mine: Vec<&McpEntity<'_>> = entities.iter().filter(|e| e.table == table.name).collect();
        let number = |templates: Vec<Option<(&McpEntity<'_>, String)>>| {
            !templates.is_empty()
                && templates.iter().all(|t| {
                    t.as_ref().is_some_and(|(entity, source)| {
                        let template = KeyTemplate::parse(source);
                        let vars: Vec<_> = template.vars().collect();
                        template.parts().len() == 1
                            && vars.len() == 1
                            && matches!(
                                entity.field_type(&vars[0].name),
                                Some("integer" | "decimal")
                            )
                    })
                })
        };
        if number(
            mine.iter()
                .map(|e| Some((*e, e.pk_template.clone())))
                .collect(),
        ) {
            table.partition_key.ty = KeyType::N;
        }
        if let Some(sk) = &mut table.sort_key
            && number(
                mine.iter()
                    .map(|e| e.sk_template.clone().map(|s| (*e, s)))
                    .collect(),
            )
        {
            sk.ty = KeyType::N;
        }
        for gsi in &mut table.gsis {
            let name = gsi.name.clone();
            let sides = [(false, &mut gsi.partition_key), (true, &mut gsi.sort_key)];
            for (is_sort, keys) in sides {
                for (position, key) in keys.iter_mut().enumerate() {
                    let templates: Vec<_> = mine
                        .iter()
                        .filter_map(|e| {
                            e.templates(Some(&name)).map(|(pk, sk)| {
                                let side = if is_sort { sk } else { pk };
                                side.get(position).map(|t| (*e, t.clone()))
                            })
                        })
                        .collect();
                    if number(templates) {
                        key.ty = KeyType::N;
                    }
                }
            }
        }
    }

    let design_name = tables
        .iter()
        .map(|t| t.name.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    let mut design = Design::new(design_name);
    design.description = "Imported from an awslabs/mcp DynamoDB data-modeling schema.json.".into();
    for entity in &entities {
        design.entities.push(to_entity(entity, &tables, &mut notes));
    }
    design.tables = tables;
    let mut imported = Imported::new(design);
    imported.notes = notes;
    let mut pattern_names: Vec<String> = Vec::new();
    for entity in &entities {
        if let Some(list) = entity.at.get("access_patterns") {
            for pattern_at in list.array()? {
                read_pattern(
                    &pattern_at,
                    entity,
                    &entities,
                    &mut imported,
                    &mut pattern_names,
                )?;
            }
        }
    }
    if let Some(list) = root.get("cross_table_access_patterns") {
        for pattern_at in list.array()? {
            read_cross_table(&pattern_at, &entities, &mut imported, &mut pattern_names)?;
        }
    }
    let entity_types: Vec<&str> = entities
        .iter()
        .filter_map(|e| e.at.get("entity_type").and_then(|t| t.str().ok()))
        .collect();
    if !entity_types.is_empty() {
        imported.notes.push(format!(
            "entity_type values ({}) are not kept: keyplan tells entities apart by their key templates",
            entity_types.join(", ")
        ));
    }
    imported.notes.push(
        "pattern_id and return_type are not kept; each pattern's operation and index_name are keyplan's to decide (compare with `keyplan check`)"
            .to_string(),
    );
    Ok(imported)
}

/// Adds the items of an mcp usage-data file (`entities.<Entity>.sample_data` and
/// `access_pattern_data`, plain JSON) to the design's samples, each with its key attributes
/// rendered from the entity's templates. A key whose template needs a value the item lacks is
/// left out of that item.
pub fn add_usage_data(imported: &mut Imported, text: &str) -> Result<(), ImportError> {
    crate::json_budget::check(text)?;
    let value: serde_json::Value = serde_json::from_str(text)?;
    let root = At::root(&value);
    let mut added = 0;
    for (entity_name, entity_at) in root.require("entities")?.members()? {
        let Some(entity) = imported.design.entity(entity_name).cloned() else {
            return Err(entity_at.invalid(format!("no entity `{entity_name}` in the schema")));
        };
        for data in ["sample_data", "access_pattern_data"] {
            let Some(data_at) = entity_at.get(data) else {
                continue;
            };
            let mut item = crate::item::Item::new();
            for (name, value_at) in data_at.members()? {
                item.insert(name.to_string(), plain_value(value_at.value()));
            }
            for (key, template) in &entity.keys {
                let rendered = template.render(|var| {
                    item.get(&var.name).and_then(|v| match v {
                        AttributeValue::S(s) | AttributeValue::N(s) => Some(s.clone()),
                        _ => None,
                    })
                });
                let numeric = imported.design.table(&entity.table).is_some_and(|t| {
                    t.key_attributes()
                        .iter()
                        .any(|k| k.name == *key && k.ty == KeyType::N)
                });
                if let Some(rendered) = rendered {
                    let value = if numeric {
                        AttributeValue::N(rendered)
                    } else {
                        AttributeValue::S(rendered)
                    };
                    item.insert(key.clone(), value);
                }
            }
            imported
                .design
                .samples
                .entry(entity.table.clone())
                .or_default()
                .push(item);
            added += 1;
        }
    }
    imported
        .notes
        .push(format!("{added} sample items from the usage data"));
    Ok(())
}

fn read_gsi(at: &At<'_>) -> Result<Gsi, ImportError> {
    let name = at.require("name")?.str()?.to_string();
    let partition_key = at
        .require("partition_key")?
        .str_or_strs()?
        .into_iter()
        .map(|n| KeyAttribute::new(n, KeyType::S))
        .collect();
    let sort_key = match at.get("sort_key") {
        Some(s) => s
            .str_or_strs()?
            .into_iter()
            .map(|n| KeyAttribute::new(n, KeyType::S))
            .collect(),
        None => Vec::new(),
    };
    let projection = match at.get("projection") {
        None => Projection::All,
        Some(p) => match p.str()? {
            "ALL" => Projection::All,
            "KEYS_ONLY" => Projection::KeysOnly,
            "INCLUDE" => {
                let mut attributes = Vec::new();
                if let Some(list) = at.get("included_attributes") {
                    for a in list.array()? {
                        attributes.push(a.str()?.to_string());
                    }
                }
                Projection::Include { attributes }
            }
            other => {
                return Err(p.invalid(format!(
                    "projection `{other}`: expected ALL, KEYS_ONLY or INCLUDE"
                )));
            }
        },
    };
    Ok(Gsi {
        name,
        partition_key,
        sort_key,
        projection,
    })
}

fn read_entity<'a>(
    name: &str,
    table: &str,
    at: At<'a>,
    gsis: &[Gsi],
) -> Result<McpEntity<'a>, ImportError> {
    let mut fields = Vec::new();
    for field in at.require("fields")?.array()? {
        let field_name = field.require("name")?.str()?.to_string();
        let type_at = field.require("type")?;
        let ty = match type_at.str()? {
            "string" => "string",
            "uuid" => "uuid",
            "integer" => "integer",
            "decimal" => "decimal",
            "boolean" => "boolean",
            "array" => "array",
            "object" => "object",
            other => {
                return Err(type_at.invalid(format!(
                    "field type `{other}`: expected string, integer, decimal, boolean, array, object or uuid"
                )));
            }
        };
        fields.push((field_name, ty));
    }
    let pk_template = at.require("pk_template")?.str()?.to_string();
    let sk_template = at
        .get("sk_template")
        .map(|s| s.str().map(str::to_string))
        .transpose()?;
    let mut gsi_mappings = Vec::new();
    if let Some(list) = at.get("gsi_mappings") {
        for mapping in list.array()? {
            let name_at = mapping.require("name")?;
            let gsi_name = name_at.str()?.to_string();
            let Some(gsi) = gsis.iter().find(|g| g.name == gsi_name) else {
                return Err(name_at.invalid(format!("no GSI `{gsi_name}` in the table's gsi_list")));
            };
            let pk = key_templates(&mapping.require("pk_template")?, gsi, false)?;
            let sk = match mapping.get("sk_template") {
                Some(sk_at) => key_templates(&sk_at, gsi, true)?,
                None => Vec::new(),
            };
            gsi_mappings.push((gsi_name, pk, sk));
        }
    }
    Ok(McpEntity {
        name: name.to_string(),
        table: table.to_string(),
        at,
        fields,
        pk_template,
        sk_template,
        gsi_mappings,
    })
}

/// A mapping's template, or list of templates, for each attribute of a GSI key.
fn key_templates(at: &At<'_>, gsi: &Gsi, sort: bool) -> Result<Vec<String>, ImportError> {
    let templates: Vec<String> = at.str_or_strs()?.into_iter().map(str::to_string).collect();
    let (keys, side) = if sort {
        (&gsi.sort_key, "sort")
    } else {
        (&gsi.partition_key, "partition")
    };
    if templates.len() != keys.len() {
        return Err(at.invalid(format!(
            "{} template(s) for the {} attribute(s) of GSI `{}`'s {side} key",
            templates.len(),
            keys.len(),
            gsi.name
        )));
    }
    Ok(templates)
}

fn attr_type(ty: &str) -> AttrType {
    match ty {
        "integer" | "decimal" => AttrType::N,
        "boolean" => AttrType::Bool,
        "array" => AttrType::L,
        "object" => AttrType::M,
        _ => AttrType::S,
    }
}

fn to_entity(entity: &McpEntity<'_>, tables: &[Table], notes: &mut Vec<String>) -> Entity {
    let mut attributes = Vec::new();
    for field in entity
        .at
        .get("fields")
        .map(|f| f.array())
        .transpose()
        .ok()
        .flatten()
        .unwrap_or_default()
    {
        let (Some(name), Some(ty)) = (
            field.get("name").and_then(|n| n.str().ok()),
            field.get("type").and_then(|t| t.str().ok()),
        ) else {
            continue;
        };
        let mut attribute = Attribute::new(name, attr_type(ty));
        attribute.required = field
            .get("required")
            .and_then(|r| r.bool().ok())
            .unwrap_or(false);
        attributes.push(attribute);
    }
    let mut keys = std::collections::BTreeMap::new();
    if let Some(table) = tables.iter().find(|t| t.name == entity.table) {
        keys.insert(
            table.partition_key.name.clone(),
            KeyTemplate::parse(&entity.pk_template),
        );
        match (&table.sort_key, &entity.sk_template) {
            (Some(sk), Some(template)) => {
                keys.insert(sk.name.clone(), KeyTemplate::parse(template));
            }
            (None, Some(template)) => notes.push(format!(
                "entity {}: sk_template `{template}` dropped, table {} has no sort key",
                entity.name, table.name
            )),
            _ => {}
        }
        for (gsi_name, pk, sk) in &entity.gsi_mappings {
            if let Some(gsi) = table.gsi(gsi_name) {
                let sides = gsi.partition_key.iter().zip(pk);
                for (key, template) in sides.chain(gsi.sort_key.iter().zip(sk)) {
                    add_gsi_template(&mut keys, entity, gsi_name, &key.name, template, notes);
                }
            }
        }
    }
    // `{region}` for the key attribute `region` is what the model means without a template.
    keys.retain(|key, template| template.source() != format!("{{{key}}}"));
    Entity {
        name: entity.name.clone(),
        table: entity.table.clone(),
        description: String::new(),
        attributes,
        keys,
        volume: None,
    }
}

/// Adds a GSI mapping's template for `key` to the entity's key templates. A GSI keyed on an
/// attribute the entity already fills (an inverted index on the table's sort key) names that
/// attribute as `{key}`: the template already there stays. Two different templates for one
/// attribute cannot both hold: the first stays and a note says so.
fn add_gsi_template(
    keys: &mut std::collections::BTreeMap<String, KeyTemplate>,
    entity: &McpEntity<'_>,
    gsi_name: &str,
    key: &str,
    template: &str,
    notes: &mut Vec<String>,
) {
    match keys.get(key) {
        None => {
            keys.insert(key.to_string(), KeyTemplate::parse(template));
        }
        Some(_) if template == format!("{{{key}}}") => {}
        Some(existing) if existing.source() != template => notes.push(format!(
            "entity {}: GSI {gsi_name} fills `{key}` with `{template}`, but `{key}` is already `{}`; the first is kept",
            entity.name,
            existing.source()
        )),
        Some(_) => {}
    }
}

/// A parameter of an access pattern.
struct Parameter {
    name: String,
    /// `Some(entity)` for a parameter of type `entity`.
    entity: Option<String>,
}

fn read_parameters(at: &At<'_>) -> Result<Vec<Parameter>, ImportError> {
    let mut out = Vec::new();
    if let Some(list) = at.get("parameters") {
        for p in list.array()? {
            let name = p.require("name")?.str()?.to_string();
            let ty = p.require("type")?.str()?;
            let entity = if ty == "entity" {
                Some(p.require("entity_type")?.str()?.to_string())
            } else {
                None
            };
            out.push(Parameter { name, entity });
        }
    }
    Ok(out)
}

fn sort_op(at: &At<'_>) -> Result<SortOp, ImportError> {
    Ok(match at.str()? {
        "begins_with" => SortOp::BeginsWith,
        "between" => SortOp::Between,
        ">" => SortOp::Gt,
        "<" => SortOp::Lt,
        ">=" => SortOp::Ge,
        "<=" => SortOp::Le,
        "=" => SortOp::Eq,
        other => {
            return Err(at.invalid(format!(
                "range_condition `{other}`: expected begins_with, between, >, <, >= or <="
            )));
        }
    })
}

/// A `filter_expression` (`conditions` of `field` with `operator` or `function` and the
/// parameters `param`, `param2` or `params`, joined by `logical_operator`) in DynamoDB's
/// words, and the names of the parameters it uses.
/// A filter condition's `operator`, `function` and parameters, as [`filter_condition_parts`]
/// reads them.
type ConditionParts = (Option<String>, Option<String>, Vec<String>);

/// A filter condition's `operator`, `function` and parameters (`param`, `param2`, then
/// `params`), in order.
fn filter_condition_parts(condition: &At<'_>) -> Result<ConditionParts, ImportError> {
    let operator = condition
        .get("operator")
        .map(|o| o.str().map(str::to_string))
        .transpose()?;
    let function = condition
        .get("function")
        .map(|f| f.str().map(str::to_string))
        .transpose()?;
    let mut params = Vec::new();
    for key in ["param", "param2"] {
        if let Some(p) = condition.get(key) {
            params.push(p.str()?.to_string());
        }
    }
    if let Some(list) = condition.get("params") {
        for p in list.array()? {
            params.push(p.str()?.to_string());
        }
    }
    Ok((operator, function, params))
}

fn read_filter(at: &At<'_>) -> Result<(String, Vec<String>), ImportError> {
    let joiner = match at.get("logical_operator") {
        Some(op) => op.str()?.to_string(),
        None => "AND".to_string(),
    };
    let mut parts = Vec::new();
    let mut params = Vec::new();
    for condition in at.require("conditions")?.array()? {
        let field = condition.require("field")?.str()?;
        let (operator, function, mine) = filter_condition_parts(&condition)?;
        let named: Vec<String> = mine.iter().map(|p| format!(":{p}")).collect();
        params.extend(mine);
        let operand = match function.as_deref() {
            Some("size") => format!("size({field})"),
            _ => field.to_string(),
        };
        let text = match (function.as_deref(), operator.as_deref()) {
            (Some(f), _) if f != "size" => {
                let args: Vec<String> = std::iter::once(field.to_string()).chain(named).collect();
                format!("{f}({})", args.join(", "))
            }
            (_, Some("between")) => format!("{operand} BETWEEN {}", named.join(" AND ")),
            (_, Some("in")) => format!("{operand} IN ({})", named.join(", ")),
            (_, Some(op)) => format!("{operand} {op} {}", named.join(" ")),
            (_, None) => {
                return Err(condition.invalid("a condition needs an operator or a function"));
            }
        };
        parts.push(text);
    }
    Ok((parts.join(&format!(" {joiner} ")), params))
}

/// The filter conditions kept and the notes on renamed values, or why they do not fit.
type KeptFilter = Result<(Vec<FilterCondition>, Vec<String>), String>;

/// A `filter_expression`'s conditions as keyplan filter conditions (issue 16), or why they do
/// not fit: keyplan's filter is a conjunction of conditions on an attribute of the entity, so
/// `OR`, `size(...)` and `attribute_type` are not kept, nor a condition on a field the entity
/// lacks. The values' parameters are renamed to keyplan's inputs (`min_total` is `total`).
fn filter_conditions(at: &At<'_>, entity: &McpEntity<'_>) -> Result<KeptFilter, ImportError> {
    if let Some(op) = at.get("logical_operator")
        && !op.str()?.eq_ignore_ascii_case("AND")
    {
        return Ok(Err(format!(
            "joins its conditions with {}, and keyplan's filter is all of its conditions (AND)",
            op.str()?
        )));
    }
    let mut conditions = Vec::new();
    let mut renamed = Vec::new();
    for condition in at.require("conditions")?.array()? {
        let field = condition.require("field")?.str()?;
        let (operator, function, params) = filter_condition_parts(&condition)?;
        let op = match (function.as_deref(), operator.as_deref()) {
            (Some("begins_with"), _) => FilterOp::BeginsWith,
            (Some("contains"), _) => FilterOp::Contains,
            (Some("attribute_exists"), _) => FilterOp::Exists,
            (Some("attribute_not_exists"), _) => FilterOp::NotExists,
            (Some(other), _) => {
                return Ok(Err(format!(
                    "uses {other}({field}), which keyplan's filter conditions do not hold"
                )));
            }
            (None, Some(op)) => match op.to_ascii_lowercase().parse::<FilterOp>() {
                Ok(op) => op,
                Err(_) => return Ok(Err(format!("compares `{field}` with `{op}`"))),
            },
            (None, None) => {
                return Err(condition.invalid("a condition needs an operator or a function"));
            }
        };
        if !entity.has_field(field) {
            return Ok(Err(format!(
                "filters on `{field}`, which is not a field of {}",
                entity.name
            )));
        }
        let mut kept = FilterCondition::new(field, op);
        if op == FilterOp::In {
            let n = u32::try_from(params.len()).unwrap_or(u32::MAX);
            if !(1..=FilterCondition::MAX_IN_VALUES).contains(&n) {
                return Ok(Err(format!(
                    "has an `in` of {n} values, and DynamoDB takes 1 to {}",
                    FilterCondition::MAX_IN_VALUES
                )));
            }
            kept.count = Some(n);
        }
        for (param, input) in params.iter().zip(kept.value_names()) {
            if *param != input {
                renamed.push(format!("`{param}` is `{input}`"));
            }
        }
        conditions.push(kept);
    }
    Ok(Ok((conditions, renamed)))
}

fn read_pattern(
    at: &At<'_>,
    entity: &McpEntity<'_>,
    entities: &[McpEntity<'_>],
    imported: &mut Imported,
    pattern_names: &mut Vec<String>,
) -> Result<(), ImportError> {
    let source_name = at.require("name")?.str()?.to_string();
    let name = unique_name(&source_name, pattern_names);
    let operation_at = at.require("operation")?;
    let operation = operation_at.str()?.to_string();
    let index = at
        .get("index_name")
        .map(|i| i.str().map(str::to_string))
        .transpose()?;
    let description = match at.get("description") {
        Some(d) => d.str()?.to_string(),
        None => String::new(),
    };
    let parameters = read_parameters(at)?;
    let action = match operation.as_str() {
        "GetItem" | "Query" | "Scan" | "BatchGetItem" | "TransactGetItems" | "TransactGet" => {
            Action::Read
        }
        "PutItem" => Action::Put,
        "UpdateItem" => Action::Update,
        "DeleteItem" => Action::Delete,
        "BatchWriteItem" => {
            imported.notes.push(format!(
                "pattern {name}: BatchWriteItem is imported as a put of {}",
                entity.name
            ));
            Action::Put
        }
        "TransactWriteItems" | "TransactWrite" => Action::Transact,
        other => {
            return Err(operation_at.invalid(format!(
                "operation `{other}`: expected GetItem, Query, Scan, PutItem, UpdateItem, DeleteItem, BatchGetItem or BatchWriteItem"
            )));
        }
    };
    let mut pattern = AccessPattern::read(&name, &[entity.name.as_str()], &[]);
    pattern.description = description;
    pattern.action = action;
    if let Some(consistent) = at.get("consistent_read") {
        pattern.consistent = consistent.bool()?;
    }
    // The parameters a filter expression compares with are neither key nor range values.
    let filter_params = match at.get("filter_expression") {
        Some(filter_at) => {
            let (text, params) = read_filter(&filter_at)?;
            match filter_conditions(&filter_at, entity)? {
                Ok((conditions, renamed)) => {
                    pattern.filter = conditions;
                    if !renamed.is_empty() {
                        imported.notes.push(format!(
                            "pattern {name}: filter_expression `{text}` is kept as its filter; its values are given as keyplan's inputs: {}",
                            renamed.join(", ")
                        ));
                    }
                }
                Err(why) => imported.notes.push(format!(
                    "pattern {name}: filter_expression `{text}` is not kept: it {why}; the read is judged by its key condition alone"
                )),
            }
            params
        }
        None => Vec::new(),
    };

    let values: Vec<&Parameter> = parameters
        .iter()
        .filter(|p| p.entity.is_none() && !filter_params.contains(&p.name))
        .collect();
    let mut dropped: Vec<&str> = Vec::new();
    match action {
        Action::Read => {
            let (key_params, range_params) = match at.get("range_condition") {
                Some(range_at) => {
                    let op = sort_op(&range_at)?;
                    let n_range = if op == SortOp::Between { 2 } else { 1 };
                    if values.len() > n_range {
                        let split = values.len() - n_range;
                        (&values[..split], Some(op))
                    } else {
                        // awslabs/mcp's RangeQueryValidator: "Range condition 'between'
                        // requires exactly 3 parameters (partition key + 2 range values)", and
                        // 2 (partition key + 1 range value) for the others.
                        imported.notes.push(format!(
                            "pattern {name}: range_condition `{}` with {} value parameter(s); awslabs/mcp's validator requires exactly {} (partition key + {n_range} range value{}): all are read as key values, and the range's value is left to the query",
                            op.as_str(),
                            values.len(),
                            n_range + 1,
                            if n_range == 1 { "" } else { "s" }
                        ));
                        (&values[..], Some(op))
                    }
                }
                None => (&values[..], None),
            };
            for p in key_params {
                if entity.has_field(&p.name) {
                    pattern.inputs.push(p.name.clone());
                } else {
                    dropped.push(&p.name);
                }
            }
            if let Some(op) = range_params {
                let sort_templates = entity
                    .templates(index.as_deref())
                    .map(|(_, sk)| sk)
                    .unwrap_or_default();
                let unbound = sort_templates.iter().find_map(|source| {
                    KeyTemplate::parse(source)
                        .attribute_vars()
                        .map(|v| v.name.clone())
                        .find(|v| !pattern.inputs.contains(v))
                });
                match unbound {
                    Some(attribute) => pattern.sort = Some(SortCondition { attribute, op }),
                    None => imported.notes.push(format!(
                        "pattern {name}: range_condition `{}` has no sort-key variable left to apply to; dropped",
                        op.as_str()
                    )),
                }
            }
            let returns_mixed = at
                .get("return_type")
                .and_then(|r| r.str().ok())
                .is_some_and(|r| r == "mixed_data");
            if returns_mixed && let Some((pk, _)) = entity.templates(index.as_deref()) {
                pattern.entities = entities
                    .iter()
                    .filter(|other| {
                        other.table == entity.table
                            && other
                                .templates(index.as_deref())
                                .is_some_and(|(p, _)| p == pk)
                    })
                    .map(|other| other.name.clone())
                    .collect();
            }
        }
        Action::Update => {
            let key_vars = key_variables(entity);
            for p in &values {
                if key_vars.contains(&p.name) {
                    pattern.inputs.push(p.name.clone());
                } else if entity.has_field(&p.name) {
                    pattern.changes.push(p.name.clone());
                } else {
                    dropped.push(&p.name);
                }
            }
        }
        Action::Delete => {
            for p in &values {
                if entity.has_field(&p.name) {
                    pattern.inputs.push(p.name.clone());
                } else {
                    dropped.push(&p.name);
                }
            }
        }
        Action::Put | Action::Transact => {
            if action == Action::Transact {
                pattern.writes.push(WriteStep {
                    action: Action::Put,
                    entity: entity.name.clone(),
                    count: 1,
                    condition: None,
                    changes: Vec::new(),
                });
            }
        }
    }
    let others: Vec<&str> = parameters
        .iter()
        .filter_map(|p| p.entity.as_deref())
        .filter(|e| *e != entity.name)
        .collect();
    if !others.is_empty() {
        imported.notes.push(format!(
            "pattern {name}: also takes {} as parameters; keyplan records only the entity written",
            others.join(", ")
        ));
    }
    if !dropped.is_empty() {
        imported.notes.push(format!(
            "pattern {name}: parameter(s) {} are not attributes of {}; dropped",
            dropped.join(", "),
            entity.name
        ));
    }
    imported
        .declared
        .insert(name, Declared { operation, index });
    imported.design.patterns.push(pattern);
    Ok(())
}

/// The attributes named in the entity's table key templates.
fn key_variables(entity: &McpEntity<'_>) -> Vec<String> {
    let mut out = Vec::new();
    for source in std::iter::once(&entity.pk_template).chain(&entity.sk_template) {
        for var in KeyTemplate::parse(source).attribute_vars() {
            if !out.contains(&var.name) {
                out.push(var.name.clone());
            }
        }
    }
    out
}

fn read_cross_table(
    at: &At<'_>,
    entities: &[McpEntity<'_>],
    imported: &mut Imported,
    pattern_names: &mut Vec<String>,
) -> Result<(), ImportError> {
    let source_name = at.require("name")?.str()?.to_string();
    let name = unique_name(&source_name, pattern_names);
    let operation_at = at.require("operation")?;
    let operation = operation_at.str()?.to_string();
    let parameters = read_parameters(at)?;
    let mut involved: Vec<(String, String, Option<String>)> = Vec::new();
    for step in at.require("entities_involved")?.array()? {
        let entity_at = step.require("entity")?;
        let entity = entity_at.str()?.to_string();
        if !entities.iter().any(|e| e.name == entity) {
            return Err(entity_at.invalid(format!("no entity `{entity}` in the schema")));
        }
        let action = step.require("action")?.str()?.to_string();
        let condition = step
            .get("condition")
            .map(|c| c.str().map(str::to_string))
            .transpose()?;
        involved.push((entity, action, condition));
    }
    let mut pattern = AccessPattern::read(&name, &[], &[]);
    if let Some(d) = at.get("description") {
        pattern.description = d.str()?.to_string();
    }
    match operation.as_str() {
        "TransactWrite" | "TransactWriteItems" => {
            pattern.action = Action::Transact;
            for (entity, action, condition) in &involved {
                let step_action = match action.as_str() {
                    "Put" => Action::Put,
                    "Update" => Action::Update,
                    "Delete" => Action::Delete,
                    other => {
                        imported.notes.push(format!(
                            "pattern {name}: the `{other}` step on {entity} is not kept (keyplan transactions hold puts, updates and deletes)"
                        ));
                        continue;
                    }
                };
                pattern.writes.push(WriteStep {
                    action: step_action,
                    entity: entity.clone(),
                    count: 1,
                    condition: condition.clone(),
                    changes: Vec::new(),
                });
            }
        }
        "TransactGet" | "TransactGetItems" | "BatchGetItem" => {
            // keyplan has no multi-item get: one read per entity, each judged on its own.
            pattern_names.retain(|n| *n != name);
            let names: Vec<&str> = involved.iter().map(|(e, _, _)| e.as_str()).collect();
            imported.notes.push(format!(
                "pattern {name}: {operation} of {} is imported as one read per entity; keyplan has no multi-item get",
                names.join(" and ")
            ));
            for entity_name in names {
                let Some(entity) = entities.iter().find(|e| e.name == entity_name) else {
                    continue;
                };
                let part = unique_name(&format!("{name} ({entity_name})"), pattern_names);
                let mut read = AccessPattern::read(&part, &[entity_name], &[]);
                read.description = pattern.description.clone();
                // A get names each item by its key: the parameters that fill this one's.
                let key_vars = key_variables(entity);
                read.inputs = parameters
                    .iter()
                    .filter(|p| p.entity.is_none() && key_vars.contains(&p.name))
                    .map(|p| p.name.clone())
                    .collect();
                imported.declared.insert(
                    part,
                    Declared {
                        operation: operation.clone(),
                        index: None,
                    },
                );
                imported.design.patterns.push(read);
            }
            return Ok(());
        }
        other => {
            return Err(operation_at.invalid(format!(
                "operation `{other}`: expected TransactWrite or TransactGet"
            )));
        }
    }
    for p in parameters.iter().filter(|p| p.entity.is_none()) {
        let known = involved.iter().any(|(e, _, _)| {
            entities
                .iter()
                .any(|entity| entity.name == *e && entity.has_field(&p.name))
        });
        if known && !pattern.inputs.contains(&p.name) {
            pattern.inputs.push(p.name.clone());
        }
    }
    imported.declared.insert(
        name,
        Declared {
            operation,
            index: None,
        },
    );
    imported.design.patterns.push(pattern);
    Ok(())
}
