//! CloudFormation templates (JSON or YAML), read into a keyplan design's tables: plain
//! templates, SAM templates and the `resources.Resources` of a Serverless Framework
//! `serverless.yml`.
//!
//! Every `AWS::DynamoDB::Table`, `AWS::DynamoDB::GlobalTable` and SAM
//! `AWS::Serverless::SimpleTable` resource becomes a table, and a `Fn::ForEach` loop (the
//! `AWS::LanguageExtensions` transform) one table per element of its collection: key schema and
//! attribute types, GSIs (a key schema with several HASH or RANGE elements is a multi-attribute
//! key), LSIs, projections, billing mode and capacity (a global table's stated auto-scaling
//! minimum), TTL, vector indexes (see `vector`), and a global table's replicas (the first read as
//! the stack's own Region).
//! A template says nothing of entities or access patterns, so the design has none; notes say
//! so, and what the template set that a design does not hold (streams, point-in-time
//! recovery, tags...).
//!
//! A file is never refused over one value (issue 36): intrinsic functions are evaluated as far
//! as the template allows (see `intrinsics`), and what still cannot be read is assumed, the
//! least, with its line (see `lenient`). Only a template without any table is refused.
//!
//! YAML templates use CloudFormation's short-form tags (`!Ref`, `!Sub`, `!GetAtt`); they read
//! as their long form (`{"Ref": ...}`, `{"Fn::Sub": ...}`).

use serde_json::{Map, Value};

use crate::model::{AutoScaling, Billing, Design, Gsi, KeyAttribute, KeyType, Lsi, Scaling, Table};

use super::assumed::line_of;
use super::{At, ImportError, Imported, Source};

use intrinsics::Scope;
pub(crate) use lenient::{Lenient, placeholder};

mod intrinsics;
pub(crate) mod lenient;
mod scaling;
#[cfg(test)]
mod tests;
mod vector;
mod yaml;

pub(crate) use yaml::parse_yaml;

/// The most bytes of YAML read: AWS takes templates of up to 1 MB (from S3); a larger one is
/// refused before it is parsed.
pub const MAX_YAML_BYTES: usize = 1024 * 1024;

/// The deepest nesting of YAML read into values.
const MAX_DEPTH: usize = 128;

/// The deepest `Fn::ForEach` loops nest (CloudFormation allows 5).
const MAX_LOOP_DEPTH: usize = 5;

const TABLE: &str = "AWS::DynamoDB::Table";
const GLOBAL_TABLE: &str = "AWS::DynamoDB::GlobalTable";
const SIMPLE_TABLE: &str = "AWS::Serverless::SimpleTable";
const FOR_EACH: &str = "Fn::ForEach::";

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

/// Where a file keeps its resources: a template's `Resources`, or a Serverless Framework
/// file's `resources.Resources`; with the path that leads there and whether it is the latter.
fn resources_of(root: &Value) -> Option<(&Map<String, Value>, &'static str, bool)> {
    if let Some(resources) = root.get("Resources").and_then(Value::as_object) {
        return Some((resources, "Resources", false));
    }
    let resources = root.get("resources")?.get("Resources")?.as_object()?;
    Some((resources, "resources.Resources", true))
}

pub(crate) fn fits(source: &Source<'_>) -> Result<(), String> {
    let value = template(source)?;
    let Some((resources, _, _)) = resources_of(value) else {
        return Err("no `Resources`".into());
    };
    if holds_table(resources, 0) {
        Ok(())
    } else {
        Err(format!(
            "no {TABLE}, {GLOBAL_TABLE} or {SIMPLE_TABLE} among its {} resource(s)",
            resources.len()
        ))
    }
}

/// Whether resources hold a table, in `Fn::ForEach` fragments too.
fn holds_table(resources: &Map<String, Value>, depth: usize) -> bool {
    resources.iter().any(|(key, resource)| {
        if key.starts_with(FOR_EACH) {
            depth < MAX_LOOP_DEPTH
                && resource
                    .get(2)
                    .and_then(Value::as_object)
                    .is_some_and(|fragment| holds_table(fragment, depth + 1))
        } else {
            kind_of(resource).is_some()
        }
    })
}

/// The kinds of table resource.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Table,
    Global,
    /// SAM's `AWS::Serverless::SimpleTable`: a partition key, and capacity or none.
    Simple,
}

fn kind_of(resource: &Value) -> Option<Kind> {
    match resource.get("Type").and_then(Value::as_str) {
        Some(TABLE) => Some(Kind::Table),
        Some(GLOBAL_TABLE) => Some(Kind::Global),
        Some(SIMPLE_TABLE) => Some(Kind::Simple),
        _ => None,
    }
}

/// The most resources visited, `Fn::ForEach` loops unrolled (five nested loops of a hundred
/// elements are ten billion): a bound decided before any is read.
const MAX_RESOURCE_VISITS: usize = 100_000;

/// The table resources found, and how many resources were visited to find them.
#[derive(Default)]
struct Found {
    instances: Vec<Instance>,
    visits: usize,
}

/// One table resource, its intrinsic functions evaluated.
struct Instance {
    /// Its logical ID, `Fn::ForEach` identifiers substituted.
    id: String,
    kind: Kind,
    properties: Value,
    /// Where its `Properties` are in the file, for lines.
    path: String,
}

pub(crate) fn import_source(source: &Source<'_>) -> Result<Imported, ImportError> {
    if let Err(missing) = source.require_member("Resources") {
        source.require_member("resources").map_err(|_| missing)?;
    }
    let value = match source.json() {
        Ok(value) => value,
        Err(_) => source.yaml()?,
    };
    let Some((resources, base, serverless)) = resources_of(value) else {
        return Err(At::root(value)
            .require("Resources")
            .err()
            .unwrap_or(ImportError::Missing {
                path: "Resources".into(),
            }));
    };
    let text = source.text;
    let mut out = Lenient::new(|path| line_of(text, &segments(path)));
    let scope = Scope {
        parameters: value.get("Parameters").and_then(Value::as_object),
        mappings: value.get("Mappings").and_then(Value::as_object),
        bindings: Vec::new(),
        skip_defaults: false,
        serverless: serverless.then_some(value),
    };
    let mut found = Found::default();
    expand(resources, base, &scope, 0, &mut found, &mut out);
    let instances = found.instances;
    if instances.is_empty() {
        return Err(At::root(value).invalid(format!(
            "no {TABLE}, {GLOBAL_TABLE} or {SIMPLE_TABLE} among the template's resources"
        )));
    }
    let mut tables: Vec<Table> = instances
        .iter()
        .map(|instance| {
            let at = At {
                value: &instance.properties,
                path: instance.path.clone(),
            };
            read_table(&instance.id, instance.kind, &at, &mut out)
        })
        .collect();
    let mut by_id: Vec<(&str, &mut Table)> = instances
        .iter()
        .map(|i| i.id.as_str())
        .zip(tables.iter_mut())
        .collect();
    scaling::apply(resources, base, &scope, &mut by_id, &mut out);
    let what = if serverless {
        "a Serverless Framework service"
    } else if value
        .get("Transform")
        .is_some_and(|t| t.to_string().contains("AWS::Serverless"))
    {
        "a SAM template"
    } else {
        "a CloudFormation template"
    };
    let mut imported = tables_only(tables, what, out.notes);
    imported.assumed = out.assumed;
    if what != "a CloudFormation template" {
        imported.held = Some(what.to_string());
    }
    Ok(imported)
}

/// The member names of a path (`Resources.T.Properties.KeySchema[0].AttributeName`) up to its
/// first list, whose elements [`line_of`] cannot tell apart: the line given is the list's.
fn segments(path: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for segment in path.split('.') {
        match segment.split_once('[') {
            Some((name, _)) => {
                out.push(name);
                break;
            }
            None => out.push(segment),
        }
    }
    out
}

/// The table resources of `resources` at `path`, each `Fn::ForEach` loop unrolled over its
/// collection (at most [`MAX_TABLES_PER_REGION`](crate::limits::MAX_TABLES_PER_REGION) tables
/// in all).
fn expand(
    resources: &Map<String, Value>,
    path: &str,
    scope: &Scope<'_>,
    depth: usize,
    found: &mut Found,
    out: &mut Lenient<'_>,
) {
    for (key, resource) in resources {
        found.visits += 1;
        if found.visits > MAX_RESOURCE_VISITS {
            out.note(format!(
                "more than {MAX_RESOURCE_VISITS} resources, `Fn::ForEach` loops unrolled: those after are not read"
            ));
            return;
        }
        let at = format!("{path}.{key}");
        if key.starts_with(FOR_EACH) {
            for_each(key, resource, &at, scope, depth, found, out);
            continue;
        }
        let Some(kind) = kind_of(resource) else {
            continue;
        };
        if found.instances.len() >= crate::limits::MAX_TABLES_PER_REGION {
            out.note(format!(
                "more tables than a Region holds ({}): those after are not read",
                crate::limits::MAX_TABLES_PER_REGION
            ));
            return;
        }
        let properties_path = format!("{at}.Properties");
        let properties = resource
            .get("Properties")
            .and_then(|p| scope.resolve(p, &properties_path, out))
            .unwrap_or_else(|| Value::Object(Map::new()));
        let id = match scope.bindings.is_empty() {
            true => key.clone(),
            false => substituted(key, &scope.bindings),
        };
        found.instances.push(Instance {
            id,
            kind,
            properties,
            path: properties_path,
        });
    }
}

/// A `Fn::ForEach::Name: [Identifier, Collection, {fragment}]` loop: its fragment once per
/// element of the collection, or once with the identifier unread when the collection cannot be.
fn for_each(
    key: &str,
    value: &Value,
    path: &str,
    scope: &Scope<'_>,
    depth: usize,
    found: &mut Found,
    out: &mut Lenient<'_>,
) {
    let (Some(identifier), Some(collection), Some(fragment)) = (
        value.get(0).and_then(Value::as_str),
        value.get(1),
        value.get(2).and_then(Value::as_object),
    ) else {
        out.assume_at(
            path,
            format!("`{key}`"),
            "no resources (it is not [identifier, collection, fragment])",
        );
        return;
    };
    if depth >= MAX_LOOP_DEPTH {
        out.note(format!(
            "`{key}`: loops nested deeper than {MAX_LOOP_DEPTH} are not read"
        ));
        return;
    }
    let elements = match scope.resolve(collection, path, out) {
        Some(Value::Array(items)) if items.iter().all(|i| i.is_string() || i.is_number()) => Some(
            items
                .iter()
                .map(|i| i.as_str().map_or_else(|| i.to_string(), str::to_string))
                .collect::<Vec<_>>(),
        ),
        // A CommaDelimitedList parameter's Default.
        Some(Value::String(list)) => Some(list.split(',').map(|s| s.trim().to_string()).collect()),
        _ => None,
    };
    match elements {
        Some(elements) => {
            for element in elements {
                if found.visits > MAX_RESOURCE_VISITS {
                    break;
                }
                let mut inner = scope.clone();
                inner.bindings.push((identifier.to_string(), element));
                expand(fragment, path, &inner, depth + 1, found, out);
            }
        }
        None => {
            out.assume_at(
                path,
                format!("`{key}` over {}", intrinsics_shown(collection)),
                format!("one instance, `${{{identifier}}}` unread"),
            );
            expand(fragment, path, scope, depth + 1, found, out);
        }
    }
}

fn intrinsics_shown(value: &Value) -> String {
    lenient::shown(value)
}

/// `text` with each `${Identifier}` bound replaced by its value.
fn substituted(text: &str, bindings: &[(String, String)]) -> String {
    let mut out = text.to_string();
    for (identifier, value) in bindings {
        out = out.replace(&format!("${{{identifier}}}"), value);
        out = out.replace(&format!("&{{{identifier}}}"), value);
    }
    out
}

/// A design of `tables` alone, read from `what`, with the note that says so first. Tables of
/// one name (a `count` of a fixed name, one placeholder for several) are told apart by a
/// number, said in a note.
pub(crate) fn tables_only(mut tables: Vec<Table>, what: &str, mut notes: Vec<String>) -> Imported {
    let mut taken = Vec::new();
    for table in &mut tables {
        let unique = super::unique_name(&table.name, &mut taken);
        if unique != table.name {
            notes.push(format!(
                "table {unique}: named `{}` in the file, as an earlier table is; numbered to tell them apart",
                table.name
            ));
            table.name = unique;
        }
    }
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

/// The note for a table's stream, which a design does not hold.
pub(crate) fn note_stream(table: &str, view: Option<&str>, notes: &mut Vec<String>) {
    notes.push(format!(
        "table {table}: its stream ({}) is not kept; keyplan designs hold no stream settings",
        view.unwrap_or("enabled")
    ));
}

/// The note naming a table's settings outside `kept`, if it has any.
pub(crate) fn note_not_kept(table: &str, at: &At<'_>, kept: &[&str], out: &mut Lenient<'_>) {
    let others: Vec<&str> = at
        .members()
        .unwrap_or_default()
        .into_iter()
        .map(|(key, _)| key)
        .filter(|key| !kept.contains(key))
        .collect();
    if !others.is_empty() {
        out.note(format!("table {table}: {} not kept", others.join(", ")));
    }
}

/// The literal text of a name: a string, or `Fn::Sub`'s template with its substitutions
/// (`${Environment}`) and the separators beside them left out. `None` when nothing literal is
/// left.
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

/// The attributes a table's keys may name, with their types, from `AttributeDefinitions`.
fn attribute_definitions(properties: &At<'_>, out: &mut Lenient<'_>) -> Vec<(String, KeyType)> {
    let Some(list) = properties.get("AttributeDefinitions") else {
        return Vec::new();
    };
    let mut definitions = Vec::new();
    for (i, definition) in out.list(&list, "AttributeDefinitions").iter().enumerate() {
        let Some(name) = definition.get("AttributeName") else {
            out.assume(
                definition,
                "an attribute definition without AttributeName",
                "none",
            );
            continue;
        };
        let fallback = placeholder(name.value()).unwrap_or_else(|| format!("attribute{}", i + 1));
        let name = out.text(&name, "AttributeName", fallback);
        let ty = match definition.get("AttributeType") {
            Some(ty) => out.key_type(&ty, &format!("attribute `{name}`'s AttributeType")),
            None => {
                out.assume(
                    definition,
                    format!("attribute `{name}` without AttributeType"),
                    "a string (S)",
                );
                KeyType::S
            }
        };
        definitions.push((name, ty));
    }
    definitions
}

/// An attribute a key names, typed from the definitions; a string where it is not defined.
fn typed(
    name: String,
    at: &At<'_>,
    definitions: &[(String, KeyType)],
    out: &mut Lenient<'_>,
) -> KeyAttribute {
    match definitions.iter().find(|(n, _)| *n == name) {
        Some((_, ty)) => KeyAttribute::new(name, *ty),
        None => {
            out.assume(
                at,
                format!("`{name}` is not in AttributeDefinitions"),
                "a string (S)",
            );
            KeyAttribute::new(name, KeyType::S)
        }
    }
}

/// The HASH and RANGE attributes of a KeySchema, in order, typed from the definitions. An
/// element whose KeyType cannot be read is HASH when first, else RANGE.
fn key_schema(
    at: &At<'_>,
    definitions: &[(String, KeyType)],
    out: &mut Lenient<'_>,
) -> (Vec<KeyAttribute>, Vec<KeyAttribute>) {
    let mut hash = Vec::new();
    let mut range = Vec::new();
    for (i, element) in out.list(at, "KeySchema").iter().enumerate() {
        let Some(name_at) = element.get("AttributeName") else {
            out.assume(element, "a KeySchema element without AttributeName", "none");
            continue;
        };
        let fallback = placeholder(name_at.value()).unwrap_or_else(|| format!("key{}", i + 1));
        let name = out.text(&name_at, "KeySchema's AttributeName", fallback);
        let key = typed(name, &name_at, definitions, out);
        match element
            .get("KeyType")
            .as_ref()
            .map(|k| (k, k.value().as_str()))
        {
            Some((_, Some("HASH"))) => hash.push(key),
            Some((_, Some("RANGE"))) => range.push(key),
            kind => {
                let guess = if i == 0 { "HASH" } else { "RANGE" };
                let shown = kind.map_or("absent".into(), |(k, _)| lenient::shown(k.value()));
                out.assume(
                    element,
                    format!("KeyType {shown} of `{}`", key.name),
                    format!("{guess}, by its place"),
                );
                if i == 0 {
                    hash.push(key)
                } else {
                    range.push(key)
                }
            }
        }
    }
    (hash, range)
}

fn projection(at: Option<At<'_>>, out: &mut Lenient<'_>) -> crate::model::Projection {
    let Some(at) = at else {
        return crate::model::Projection::All;
    };
    match at.get("ProjectionType") {
        Some(ty) => out.projection(&ty, at.get("NonKeyAttributes")),
        // CloudFormation's default projection is KEYS_ONLY.
        None => crate::model::Projection::KeysOnly,
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
    "VectorIndexes",
];

const KEPT_SIMPLE: &[&str] = &["TableName", "PrimaryKey", "ProvisionedThroughput"];

/// The table's name: its TableName where it reads, else the resource's logical ID.
fn table_name(id: &str, properties: &At<'_>, out: &mut Lenient<'_>) -> String {
    let fallback = || literal_name(id).unwrap_or_else(|| id.to_string());
    match properties.get("TableName") {
        Some(name) => {
            let fallback = fallback();
            let read = out.text(&name, "TableName", fallback.clone());
            if read.is_empty() { fallback } else { read }
        }
        None => fallback(),
    }
}

fn read_table(id: &str, kind: Kind, properties: &At<'_>, out: &mut Lenient<'_>) -> Table {
    let name = table_name(id, properties, out);
    if kind == Kind::Simple {
        return read_simple_table(name, properties, out);
    }
    let definitions = attribute_definitions(properties, out);
    let (mut hash, mut range) = match properties.get("KeySchema") {
        Some(schema) => key_schema(&schema, &definitions, out),
        None => (Vec::new(), Vec::new()),
    };
    if hash.is_empty() {
        out.assume(
            properties,
            format!("table {name}: no HASH key in its KeySchema"),
            "a partition key `id`, a string",
        );
        hash.push(KeyAttribute::new("id", KeyType::S));
    }
    if hash.len() > 1 || range.len() > 1 {
        out.assume(
            properties,
            format!(
                "table {name}: a table's key of {} HASH and {} RANGE elements",
                hash.len(),
                range.len()
            ),
            "the first of each",
        );
    }
    range.truncate(1);
    let mut table = Table::new(name, hash.remove(0), range.pop());
    // Each GSI's own ProvisionedThroughput, kept once the table's billing is read.
    let mut index_capacity = std::collections::BTreeMap::new();
    if let Some(list) = properties.get("GlobalSecondaryIndexes") {
        for (i, index) in out.list(&list, "GlobalSecondaryIndexes").iter().enumerate() {
            let index_name = index_name(index, "gsi", i, out);
            let (partition_key, sort_key) = match index.get("KeySchema") {
                Some(schema) => key_schema(&schema, &definitions, out),
                None => (Vec::new(), Vec::new()),
            };
            if partition_key.is_empty() {
                out.assume(
                    index,
                    format!("GSI {index_name} without a HASH key"),
                    "the index left out",
                );
                continue;
            }
            if let Some(throughput) = index.get("ProvisionedThroughput")
                && let Some(capacity) = provisioned(&throughput, &index_name, out).table_capacity()
            {
                index_capacity.insert(index_name.clone(), capacity);
            }
            table.gsis.push(Gsi {
                name: index_name,
                partition_key,
                sort_key,
                projection: projection(index.get("Projection"), out),
            });
        }
    }
    if let Some(list) = properties.get("LocalSecondaryIndexes") {
        for (i, index) in out.list(&list, "LocalSecondaryIndexes").iter().enumerate() {
            let index_name = index_name(index, "lsi", i, out);
            let sort_key = match index.get("KeySchema") {
                Some(schema) => key_schema(&schema, &definitions, out).1.pop(),
                None => None,
            };
            let Some(sort_key) = sort_key else {
                out.assume(
                    index,
                    format!("LSI {index_name} without a RANGE key"),
                    "the index left out",
                );
                continue;
            };
            table.lsis.push(Lsi {
                name: index_name,
                sort_key,
                projection: projection(index.get("Projection"), out),
            });
        }
    }
    table.vector_indexes = vector::vector_indexes(&table.name, properties, out);
    table.billing = billing(&table.name, kind, properties, out);
    if kind == Kind::Global {
        table.replicas = replicas(&table.name, properties, out);
    }
    table.billing.set_index_capacity(index_capacity);
    if let Some(ttl) = properties.get("TimeToLiveSpecification") {
        let enabled = match ttl.get("Enabled") {
            // Unreadable, TTL is taken as off: the least.
            Some(e) => out.flag(&e, "TimeToLiveSpecification's Enabled", false),
            None => true,
        };
        let attribute = ttl
            .get("AttributeName")
            .map(|a| out.text(&a, "TTL AttributeName", "ttl".into()));
        table.ttl_attribute = attribute.filter(|_| enabled);
    }
    if let Some(stream) = properties.get("StreamSpecification") {
        let view = stream.get("StreamViewType").and_then(|v| v.str().ok());
        note_stream(&table.name, view, &mut out.notes);
    }
    note_not_kept(&table.name, properties, KEPT, out);
    table
}

fn index_name(index: &At<'_>, kind: &str, i: usize, out: &mut Lenient<'_>) -> String {
    let fallback = format!("{kind}{}", i + 1);
    match index.get("IndexName") {
        Some(name) => out.text(&name, "IndexName", fallback),
        None => {
            out.assume(index, "an index without IndexName", format!("`{fallback}`"));
            fallback
        }
    }
}

/// SAM's `AWS::Serverless::SimpleTable`: its PrimaryKey (SAM's default, a string `id`), and
/// its capacity, or on-demand without one.
fn read_simple_table(name: String, properties: &At<'_>, out: &mut Lenient<'_>) -> Table {
    let key = properties.get("PrimaryKey");
    let key_name = match key.as_ref().and_then(|k| k.get("Name")) {
        Some(n) => out.text(&n, "PrimaryKey's Name", "id".into()),
        None => "id".to_string(),
    };
    let key_type = match key.as_ref().and_then(|k| k.get("Type")) {
        Some(t) => out.key_type(&t, "PrimaryKey's Type"),
        None => KeyType::S,
    };
    let mut table = Table::new(name, KeyAttribute::new(key_name, key_type), None);
    table.billing = match properties.get("ProvisionedThroughput") {
        Some(throughput) => provisioned(&throughput, &table.name, out),
        None => Billing::OnDemand,
    };
    note_not_kept(&table.name, properties, KEPT_SIMPLE, out);
    table
}

/// A ProvisionedThroughput's read and write capacity.
fn provisioned(throughput: &At<'_>, table: &str, out: &mut Lenient<'_>) -> Billing {
    out.provisioned(
        throughput,
        ["ReadCapacityUnits", "WriteCapacityUnits"],
        table,
    )
}

fn billing(name: &str, kind: Kind, properties: &At<'_>, out: &mut Lenient<'_>) -> Billing {
    // A table's default is PROVISIONED; a global table's is PROVISIONED as well, with its
    // capacity in WriteProvisionedThroughputSettings and per replica.
    let provisioned_mode = match properties.get("BillingMode") {
        None => true,
        Some(mode) => match mode.value().as_str() {
            Some("PAY_PER_REQUEST") => false,
            Some("PROVISIONED") => true,
            _ => {
                let stated = properties.get("ProvisionedThroughput").is_some()
                    || properties
                        .get("WriteProvisionedThroughputSettings")
                        .is_some();
                out.assume(
                    &mode,
                    format!("BillingMode {}", lenient::shown(mode.value())),
                    if stated {
                        "PROVISIONED, as its capacity is stated"
                    } else {
                        "PAY_PER_REQUEST, as no capacity is stated"
                    },
                );
                stated
            }
        },
    };
    if !provisioned_mode {
        return Billing::OnDemand;
    }
    if kind != Kind::Global {
        return match properties.get("ProvisionedThroughput") {
            Some(throughput) => provisioned(&throughput, name, out),
            None => {
                out.assume(
                    properties,
                    format!("table {name}: PROVISIONED without ProvisionedThroughput"),
                    "1 read and 1 write unit",
                );
                Billing::provisioned(1, 1)
            }
        };
    }
    let write_settings = properties
        .get("WriteProvisionedThroughputSettings")
        .and_then(|w| w.get("WriteCapacityAutoScalingSettings"));
    let write = write_settings
        .as_ref()
        .and_then(|s| s.get("MinCapacity"))
        .map(|c| out.capacity(&c, "MinCapacity"));
    let write_scaling = write_settings.as_ref().and_then(|s| global_scaling(s, out));
    let first_replica = properties
        .get("Replicas")
        .and_then(|r| r.array().ok())
        .and_then(|r| r.into_iter().next());
    let read_settings = first_replica
        .as_ref()
        .and_then(|r| r.get("ReadProvisionedThroughputSettings"));
    let read = read_settings.as_ref().and_then(|r| {
        r.get("ReadCapacityUnits").or_else(|| {
            r.get("ReadCapacityAutoScalingSettings")
                .and_then(|s| s.get("MinCapacity"))
        })
    });
    let read = read.map(|c| out.capacity(&c, "the first replica's read capacity"));
    let read_scaling = read_settings
        .as_ref()
        .and_then(|r| r.get("ReadCapacityAutoScalingSettings"))
        .and_then(|s| global_scaling(&s, out));
    if write.is_none() {
        out.assume(
            properties,
            format!("table {name}: PROVISIONED without a write MinCapacity"),
            "1 write unit",
        );
    }
    if read.is_none() {
        out.assume(
            properties,
            format!("table {name}: PROVISIONED without the first replica's read capacity"),
            "1 read unit",
        );
    }
    Billing::Provisioned {
        read: read.unwrap_or(1),
        write: write.unwrap_or(1),
        auto_scaling: (read_scaling.is_some() || write_scaling.is_some()).then_some(AutoScaling {
            read: read_scaling,
            write: write_scaling,
        }),
        indexes: Default::default(),
    }
}

/// A global table's `...CapacityAutoScalingSettings`: its bounds and target utilisation. A
/// global table must state its write capacity this way, so bounds that are equal are a fixed
/// capacity, not auto scaling (keyplan's export writes a fixed capacity so).
fn global_scaling(settings: &At<'_>, out: &mut Lenient<'_>) -> Option<Scaling> {
    let min = settings.get("MinCapacity")?;
    let max = settings.get("MaxCapacity")?;
    let target = settings
        .get("TargetTrackingScalingPolicyConfiguration")
        .and_then(|t| t.get("TargetValue"))
        .and_then(|t| t.value().as_f64());
    let scaling = Scaling {
        min: out.capacity(&min, "MinCapacity"),
        max: out.capacity(&max, "MaxCapacity"),
        target,
    };
    (scaling.min != scaling.max).then_some(scaling)
}

/// How the note names the stack's own Region, read from `!Ref AWS::Region`.
const STACK_REGION: &str = "AWS::Region";

/// Whether `value` is `{"Ref": "AWS::Region"}`, the Region the stack is deployed to.
fn is_stack_region(value: &Value) -> bool {
    value
        .as_object()
        .filter(|o| o.len() == 1)
        .and_then(|o| o.get("Ref"))
        .and_then(Value::as_str)
        == Some(STACK_REGION)
}

/// A global table's replicas. CloudFormation requires one in the stack's own Region, which
/// only the deploy decides: the first is read as the table's own, the others are kept as the
/// Regions it is replicated to (every write is written again in each), and the choice is
/// said. A Region that cannot be read keeps a placeholder named after it (`Secondary` for
/// `!Ref Secondary`), assumed.
fn replicas(name: &str, properties: &At<'_>, out: &mut Lenient<'_>) -> Vec<String> {
    let Some(replicas) = properties.get("Replicas").and_then(|r| r.array().ok()) else {
        return Vec::new();
    };
    let regions: Vec<String> = replicas
        .iter()
        .map(|r| match r.get("Region") {
            // `!Ref AWS::Region` is the stack's own Region, as it is meant: nothing assumed.
            Some(region) if is_stack_region(region.value()) => STACK_REGION.into(),
            Some(region) => {
                let fallback = placeholder(region.value()).unwrap_or_else(|| "region".into());
                out.text(&region, "a replica's Region", fallback)
            }
            None => {
                out.assume(
                    r,
                    format!("table {name}: a replica without a Region"),
                    "`region`",
                );
                "region".into()
            }
        })
        .collect();
    let Some((own, others)) = regions.split_first() else {
        return Vec::new();
    };
    if !others.is_empty() {
        out.note(format!(
            "table {name}: its replicas are in {}: the first, {own}, is read as the table's own Region (the stack's), the others as the Regions it is replicated to",
            regions.join(", ")
        ));
    }
    others.to_vec()
}
