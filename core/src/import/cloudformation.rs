//! CloudFormation templates (JSON or YAML), read into a keyplan design's tables.
//!
//! Every `AWS::DynamoDB::Table` and `AWS::DynamoDB::GlobalTable` resource becomes a table: its
//! key schema and attribute types, GSIs (a key schema with several HASH or RANGE elements is a
//! multi-attribute key), LSIs, projections, billing mode and capacity, and TTL. A template
//! says nothing of entities or access patterns, so the design has none; a note says so, and
//! others say what the template set that a design does not hold (streams, point-in-time
//! recovery, tags...).
//!
//! YAML templates use CloudFormation's short-form tags (`!Ref`, `!Sub`, `!GetAtt`); they read
//! as their long form (`{"Ref": ...}`, `{"Fn::Sub": ...}`). A table name built with `Fn::Sub`
//! keeps its literal text (`orders-${Environment}` is `orders`).

use serde_json::{Map, Number, Value};

use crate::model::{Billing, Design, Gsi, KeyAttribute, KeyType, Lsi, Projection, Table};

use super::{At, ImportError, Imported, Source};

mod yaml;

/// The most bytes of YAML read: AWS takes templates of up to 1 MB (from S3); a larger one is
/// refused before it is parsed.
pub const MAX_YAML_BYTES: usize = 1024 * 1024;

/// The deepest nesting of YAML read into values.
const MAX_DEPTH: usize = 128;

const TABLE: &str = "AWS::DynamoDB::Table";
const GLOBAL_TABLE: &str = "AWS::DynamoDB::GlobalTable";

/// Reads a CloudFormation template, JSON or YAML.
pub fn import(text: &str) -> Result<Imported, ImportError> {
    import_source(&Source::new(text))
}

/// The template as JSON values: JSON when it is JSON, else YAML.
fn template<'s>(source: &'s Source<'_>) -> Result<&'s Value, String> {
    match source.json() {
        Ok(value) => Ok(value),
        Err(json) => match source.yaml() {
            Ok(value) => Ok(value),
            Err(_) if source.text.trim_start().starts_with(['{', '[']) => {
                Err(format!("not JSON ({json})"))
            }
            Err(yaml) => Err(format!("not JSON or YAML ({yaml})")),
        },
    }
}

pub(crate) fn fits(source: &Source<'_>) -> Result<(), String> {
    let value = template(source)?;
    let Some(resources) = value.get("Resources").and_then(Value::as_object) else {
        return Err("no `Resources`".into());
    };
    if resources.values().any(|r| is_table(r).is_some()) {
        Ok(())
    } else {
        Err(format!(
            "no {TABLE} or {GLOBAL_TABLE} among its {} resource(s)",
            resources.len()
        ))
    }
}

/// `Some(true)` for a global table, `Some(false)` for a table, `None` for any other resource.
fn is_table(resource: &Value) -> Option<bool> {
    match resource.get("Type").and_then(Value::as_str) {
        Some(TABLE) => Some(false),
        Some(GLOBAL_TABLE) => Some(true),
        _ => None,
    }
}

pub(crate) fn import_source(source: &Source<'_>) -> Result<Imported, ImportError> {
    source.require_member("Resources")?;
    let value = match source.json() {
        Ok(value) => value,
        Err(_) => source.yaml()?,
    };
    let root = At::root(value);
    let mut notes = Vec::new();
    let mut tables = Vec::new();
    for (id, resource) in root.require("Resources")?.members()? {
        let Some(global) = is_table(resource.value()) else {
            continue;
        };
        let properties = resource.require("Properties")?;
        tables.push(read_table(id, global, &properties, &mut notes)?);
    }
    if tables.is_empty() {
        return Err(root.invalid(format!(
            "no {TABLE} or {GLOBAL_TABLE} among the template's resources"
        )));
    }
    Ok(tables_only(tables, "a CloudFormation template", notes))
}

/// A design of `tables` alone, read from `what`, with the note that says so first.
pub(crate) fn tables_only(tables: Vec<Table>, what: &str, mut notes: Vec<String>) -> Imported {
    let names: Vec<&str> = tables.iter().map(|t| t.name.as_str()).collect();
    let mut design = Design::new(names.join(", "));
    design.description = format!("Imported from {what}.");
    notes.insert(
        0,
        format!(
            "{what} holds tables and indexes but no entities or access patterns: the design opens with its {}; add entities and patterns to check it",
            match tables.len() {
                1 => "table".to_string(),
                n => format!("{n} tables"),
            }
        ),
    );
    design.tables = tables;
    let mut imported = Imported::new(design);
    imported.notes = notes;
    imported
}

/// The TTL attribute a TTL setting names, when it is enabled (`enabled_key` absent means
/// `default_enabled`).
pub(crate) fn enabled_ttl(
    ttl: &At<'_>,
    enabled_key: &str,
    attribute_key: &str,
    default_enabled: bool,
) -> Result<Option<String>, ImportError> {
    let enabled = match ttl.get(enabled_key) {
        Some(e) => e.bool()?,
        None => default_enabled,
    };
    let attribute = ttl
        .get(attribute_key)
        .map(|a| a.str().map(str::to_string))
        .transpose()?;
    Ok(attribute.filter(|_| enabled))
}

/// The note for a table's stream, which a design does not hold.
pub(crate) fn note_stream(table: &str, view: Option<&str>, notes: &mut Vec<String>) {
    notes.push(format!(
        "table {table}: its stream ({}) is not kept; keyplan designs hold no stream settings",
        view.unwrap_or("enabled")
    ));
}

/// The note naming a table's settings outside `kept`, if it has any.
pub(crate) fn note_not_kept(
    table: &str,
    at: &At<'_>,
    kept: &[&str],
    notes: &mut Vec<String>,
) -> Result<(), ImportError> {
    let others: Vec<&str> = at
        .members()?
        .into_iter()
        .map(|(key, _)| key)
        .filter(|key| !kept.contains(key))
        .collect();
    if !others.is_empty() {
        notes.push(format!("table {table}: {} not kept", others.join(", ")));
    }
    Ok(())
}

/// The literal text of a name: a string, or `Fn::Sub`'s template with its substitutions
/// (`${Environment}`) and the separators beside them left out. `None` when nothing literal is
/// left (a `Ref`, a `Fn::Join`...).
pub(crate) fn literal_name(template: &str) -> Option<String> {
    let mut out = String::new();
    let mut rest = template;
    while let Some(start) = rest.find("${") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        if let Some(literal) = after.strip_prefix('!') {
            // `${!Literal}` is CloudFormation's escape for a literal `${Literal}`.
            out.push_str("${");
            rest = literal;
            continue;
        }
        match after.find('}') {
            Some(end) => rest = &after[end + 1..],
            None => {
                rest = "";
            }
        }
    }
    out.push_str(rest);
    let trimmed = out.trim_matches(|c: char| matches!(c, '-' | '_' | '.') || c.is_whitespace());
    (!trimmed.is_empty()).then(|| trimmed.to_string())
}

fn table_name(id: &str, properties: &At<'_>, notes: &mut Vec<String>) -> String {
    let Some(name) = properties.get("TableName") else {
        return id.to_string();
    };
    let literal = match name.value() {
        Value::String(s) => Some(s.clone()),
        Value::Object(o) => match o.get("Fn::Sub") {
            Some(Value::String(s)) => literal_name(s),
            Some(Value::Array(parts)) => {
                parts.first().and_then(Value::as_str).and_then(literal_name)
            }
            _ => None,
        },
        _ => None,
    };
    match literal {
        Some(literal) => {
            if !matches!(name.value(), Value::String(_)) {
                notes.push(format!(
                    "table {literal}: its TableName is computed ({}); read as `{literal}`",
                    compact(name.value())
                ));
            }
            literal
        }
        None => {
            notes.push(format!(
                "table {id}: its TableName ({}) has no literal text; named after the resource",
                compact(name.value())
            ));
            id.to_string()
        }
    }
}

/// A value in one line, cut at 80 characters, for notes.
fn compact(value: &Value) -> String {
    let text = value.to_string();
    match text.char_indices().nth(80) {
        Some((end, _)) => format!("{}...", &text[..end]),
        None => text,
    }
}

/// The attributes a table's keys may name, with their types: each member of `list` holds its
/// name in `name` and its type in `ty` (`AttributeName` and `AttributeType` in CloudFormation,
/// `name` and `type` in a Terraform `attribute` block).
pub(crate) fn attribute_definitions(
    list: &At<'_>,
    name: &str,
    ty: &str,
) -> Result<Vec<(String, KeyType)>, ImportError> {
    let mut definitions = Vec::new();
    for definition in list.array()? {
        definitions.push((
            definition.require(name)?.str()?.to_string(),
            key_type(&definition.require(ty)?, ty)?,
        ));
    }
    Ok(definitions)
}

/// A key attribute's type, `S`, `N` or `B`, at `at`, which the source calls `field`.
fn key_type(at: &At<'_>, field: &str) -> Result<KeyType, ImportError> {
    match at.str()? {
        "S" => Ok(KeyType::S),
        "N" => Ok(KeyType::N),
        "B" => Ok(KeyType::B),
        other => Err(at.invalid(format!("{field} `{other}`: expected S, N or B"))),
    }
}

/// The HASH and RANGE attributes of a KeySchema, in order, typed from the definitions.
fn key_schema(
    at: &At<'_>,
    definitions: &[(String, KeyType)],
) -> Result<(Vec<KeyAttribute>, Vec<KeyAttribute>), ImportError> {
    let mut hash = Vec::new();
    let mut range = Vec::new();
    for element in at.array()? {
        let name_at = element.require("AttributeName")?;
        let name = name_at.str()?;
        let Some((_, ty)) = definitions.iter().find(|(n, _)| n == name) else {
            return Err(name_at.invalid(format!("`{name}` is not in AttributeDefinitions")));
        };
        let key = KeyAttribute::new(name, *ty);
        let kind_at = element.require("KeyType")?;
        match kind_at.str()? {
            "HASH" => hash.push(key),
            "RANGE" => range.push(key),
            other => {
                return Err(kind_at.invalid(format!("KeyType `{other}`: expected HASH or RANGE")));
            }
        }
    }
    if hash.is_empty() {
        return Err(at.invalid("no HASH key"));
    }
    Ok((hash, range))
}

fn projection(at: Option<At<'_>>) -> Result<Projection, ImportError> {
    let Some(at) = at else {
        return Ok(Projection::All);
    };
    let Some(ty) = at.get("ProjectionType") else {
        // CloudFormation's default projection is KEYS_ONLY.
        return Ok(Projection::KeysOnly);
    };
    projection_of(&ty, at.get("NonKeyAttributes"))
}

/// A projection from its type (`ALL`, `KEYS_ONLY`, `INCLUDE`) and, for `INCLUDE`, the list of
/// non-key attributes; CloudFormation and Terraform name both the same way.
pub(crate) fn projection_of(
    ty: &At<'_>,
    non_key_attributes: Option<At<'_>>,
) -> Result<Projection, ImportError> {
    match ty.str()? {
        "ALL" => Ok(Projection::All),
        "KEYS_ONLY" => Ok(Projection::KeysOnly),
        "INCLUDE" => {
            let mut attributes = Vec::new();
            if let Some(list) = non_key_attributes {
                for a in list.array()? {
                    attributes.push(a.str()?.to_string());
                }
            }
            Ok(Projection::Include { attributes })
        }
        other => Err(ty.invalid(format!("`{other}`: expected ALL, KEYS_ONLY or INCLUDE"))),
    }
}

/// A capacity: a whole number, or text holding one (YAML templates often quote them).
fn capacity(at: &At<'_>) -> Result<u64, ImportError> {
    match at.value() {
        Value::String(s) => s
            .trim()
            .parse()
            .map_err(|_| at.invalid(format!("`{s}` is not a whole number"))),
        _ => at.u64(),
    }
}

const KEPT: &[&str] = &[
    "TableName",
    "AttributeDefinitions",
    "KeySchema",
    "GlobalSecondaryIndexes",
    "LocalSecondaryIndexes",
    "BillingMode",
    "ProvisionedThroughput",
    "TimeToLiveSpecification",
    "StreamSpecification",
    "WriteProvisionedThroughputSettings",
    "Replicas",
];

fn read_table(
    id: &str,
    global: bool,
    properties: &At<'_>,
    notes: &mut Vec<String>,
) -> Result<Table, ImportError> {
    let name = table_name(id, properties, notes);
    let definitions = attribute_definitions(
        &properties.require("AttributeDefinitions")?,
        "AttributeName",
        "AttributeType",
    )?;
    let schema_at = properties.require("KeySchema")?;
    let (mut hash, mut range) = key_schema(&schema_at, &definitions)?;
    if hash.len() > 1 || range.len() > 1 {
        return Err(schema_at.invalid("a table's key has one HASH and at most one RANGE element"));
    }
    let mut table = Table::new(name, hash.remove(0), range.pop());
    if let Some(list) = properties.get("GlobalSecondaryIndexes") {
        for index in list.array()? {
            let (partition_key, sort_key) = key_schema(&index.require("KeySchema")?, &definitions)?;
            table.gsis.push(Gsi {
                name: index.require("IndexName")?.str()?.to_string(),
                partition_key,
                sort_key,
                projection: projection(index.get("Projection"))?,
            });
        }
    }
    if let Some(list) = properties.get("LocalSecondaryIndexes") {
        for index in list.array()? {
            let schema = index.require("KeySchema")?;
            let (_, mut range) = key_schema(&schema, &definitions)?;
            let Some(sort_key) = range.pop() else {
                return Err(schema.invalid("an LSI needs a RANGE key"));
            };
            table.lsis.push(Lsi {
                name: index.require("IndexName")?.str()?.to_string(),
                sort_key,
                projection: projection(index.get("Projection"))?,
            });
        }
    }
    table.billing = billing(&table.name, global, properties, notes)?;
    if let Some(ttl) = properties.get("TimeToLiveSpecification") {
        table.ttl_attribute = enabled_ttl(&ttl, "Enabled", "AttributeName", true)?;
    }
    if let Some(stream) = properties.get("StreamSpecification") {
        let view = stream.get("StreamViewType").and_then(|v| v.str().ok());
        note_stream(&table.name, view, notes);
    }
    note_not_kept(&table.name, properties, KEPT, notes)?;
    Ok(table)
}

fn billing(
    name: &str,
    global: bool,
    properties: &At<'_>,
    notes: &mut Vec<String>,
) -> Result<Billing, ImportError> {
    let mode = properties
        .get("BillingMode")
        .map(|m| m.str().map(str::to_string))
        .transpose()?;
    // A table's default is PROVISIONED; a global table's is PROVISIONED as well, with its
    // capacity in WriteProvisionedThroughputSettings and per replica.
    let provisioned = match mode.as_deref() {
        Some("PAY_PER_REQUEST") => false,
        Some("PROVISIONED") | None => true,
        Some(other) => {
            return Err(properties.require("BillingMode")?.invalid(format!(
                "`{other}`: expected PAY_PER_REQUEST or PROVISIONED"
            )));
        }
    };
    if !provisioned {
        return Ok(Billing::OnDemand);
    }
    if !global {
        let throughput = properties.require("ProvisionedThroughput")?;
        return Ok(Billing::Provisioned {
            read: capacity(&throughput.require("ReadCapacityUnits")?)?,
            write: capacity(&throughput.require("WriteCapacityUnits")?)?,
        });
    }
    let write = properties
        .get("WriteProvisionedThroughputSettings")
        .and_then(|w| w.get("WriteCapacityAutoScalingSettings"))
        .and_then(|s| s.get("MinCapacity"))
        .map(|c| capacity(&c))
        .transpose()?;
    let read = properties
        .get("Replicas")
        .and_then(|r| r.array().ok())
        .and_then(|r| r.into_iter().next())
        .and_then(|r| r.get("ReadProvisionedThroughputSettings"))
        .and_then(|r| r.get("ReadCapacityUnits"))
        .map(|c| capacity(&c))
        .transpose()?;
    notes.push(format!(
        "table {name}: a global table's auto-scaled capacity is read as its minimum write capacity and the first replica's read capacity"
    ));
    Ok(Billing::Provisioned {
        read: read.unwrap_or(1),
        write: write.unwrap_or(1),
    })
}

/// Parses YAML into JSON values, CloudFormation's short-form tags into their long form, with
/// the line and column of a syntax error. Larger text than [`MAX_YAML_BYTES`] is refused first,
/// and aliases that expand past [`yaml::MAX_YAML_VALUES`] values are refused where they do.
pub(crate) fn parse_yaml(text: &str) -> Result<Value, ImportError> {
    use serde::de::DeserializeSeed;
    if text.len() > MAX_YAML_BYTES {
        return Err(ImportError::TooLarge {
            bytes: text.len(),
            limit: MAX_YAML_BYTES,
            what: "a YAML template",
        });
    }
    // The YAML scanner's time grows with the square of the flow nesting (`[[[[...`): 200 KB
    // of brackets took minutes. Deeper flow nesting than values may have is refused first.
    if let Some((line, column)) = flow_too_deep(text, MAX_DEPTH) {
        return Err(ImportError::Syntax {
            line,
            column,
            message: format!("brackets nested more than {MAX_DEPTH} deep"),
        });
    }
    let deserializer = serde_norway::Deserializer::from_str(text);
    let value = yaml::Budgeted(&mut yaml::Budget::default())
        .deserialize(deserializer)
        .map_err(|e| match e.location() {
            Some(at) => ImportError::Syntax {
                line: at.line(),
                column: at.column(),
                message: e.to_string(),
            },
            None => ImportError::Invalid {
                path: "the document".into(),
                message: e.to_string(),
            },
        })?;
    to_json(value, 0)
}

fn to_json(value: serde_norway::Value, depth: usize) -> Result<Value, ImportError> {
    use serde_norway::Value as Yaml;
    if depth > MAX_DEPTH {
        return Err(ImportError::Invalid {
            path: "the document".into(),
            message: format!("nested more than {MAX_DEPTH} deep"),
        });
    }
    Ok(match value {
        Yaml::Null => Value::Null,
        Yaml::Bool(b) => Value::Bool(b),
        Yaml::Number(n) => {
            if let Some(u) = n.as_u64() {
                Value::Number(u.into())
            } else if let Some(i) = n.as_i64() {
                Value::Number(i.into())
            } else {
                n.as_f64()
                    .and_then(Number::from_f64)
                    .map_or(Value::Null, Value::Number)
            }
        }
        Yaml::String(s) => Value::String(s),
        Yaml::Sequence(items) => Value::Array(
            items
                .into_iter()
                .map(|v| to_json(v, depth + 1))
                .collect::<Result<_, _>>()?,
        ),
        Yaml::Mapping(mapping) => {
            let mut out = Map::new();
            for (key, value) in mapping {
                let key = match key {
                    Yaml::String(s) => s,
                    other => serde_norway::to_string(&other)
                        .map(|s| s.trim_end().to_string())
                        .unwrap_or_default(),
                };
                out.insert(key, to_json(value, depth + 1)?);
            }
            Value::Object(out)
        }
        Yaml::Tagged(tagged) => {
            let tag = tagged.tag.to_string();
            let name = tag.trim_start_matches('!');
            let inner = to_json(tagged.value, depth + 1)?;
            let key = if name == "Ref" || name == "Condition" {
                name.to_string()
            } else {
                format!("Fn::{name}")
            };
            // `!GetAtt Table.Arn` is the short form of `Fn::GetAtt: [Table, Arn]`.
            let inner = match (name, inner) {
                ("GetAtt", Value::String(s)) => match s.split_once('.') {
                    Some((resource, attribute)) => Value::Array(vec![
                        Value::String(resource.into()),
                        Value::String(attribute.into()),
                    ]),
                    None => Value::String(s),
                },
                (_, inner) => inner,
            };
            let mut out = Map::new();
            out.insert(key, inner);
            Value::Object(out)
        }
    })
}

/// Where YAML flow brackets (`[` and `{` outside quotes and comments) first nest deeper than
/// `max`, as a line and column; `None` when they never do. A bound taken before parsing, not
/// a parse: an unusual file it misjudges is refused with a clear message, never misread.
fn flow_too_deep(text: &str, max: usize) -> Option<(usize, usize)> {
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    let mut comment = false;
    let (mut line, mut column) = (1, 0);
    let mut previous = '\n';
    for c in text.chars() {
        column += 1;
        if c == '\n' {
            (line, column, comment) = (line + 1, 0, false);
            previous = c;
            continue;
        }
        match (quote, c) {
            _ if comment => {}
            (Some('"'), '\\') if previous == '\\' => {
                previous = ' ';
                continue;
            }
            (Some(q), _) if c == q && !(q == '"' && previous == '\\') => quote = None,
            (Some(_), _) => {}
            // A quote opens a quoted scalar only where a scalar can start (`it's` is plain).
            (None, '"' | '\'') if previous.is_whitespace() || "[{,:-".contains(previous) => {
                quote = Some(c)
            }
            (None, '#') if previous.is_whitespace() => comment = true,
            (None, '[' | '{') => {
                depth += 1;
                if depth > max {
                    return Some((line, column));
                }
            }
            (None, ']' | '}') => depth = depth.saturating_sub(1),
            _ => {}
        }
        previous = c;
    }
    None
}
