//! NoSQL Workbench model JSON (format versions 1.0, 2.0 and 3.0) read into a keyplan design.
//!
//! The format: `ModelName`, `ModelMetadata` (`Version`, `Description`), and `DataModel`, one
//! object per table with `TableName`, `KeyAttributes` (`PartitionKey`, `SortKey`, each an
//! `AttributeName` and `AttributeType`), `NonKeyAttributes`, `GlobalSecondaryIndexes`
//! (`IndexName`, `KeyAttributes`, `Projection`), `TableData` (items in DynamoDB JSON) and
//! `TableFacets` (`FacetName`, `KeyAttributeAlias`, `NonKeyAttributes`, and in later exports
//! their own `TableData`). Version 3.0 adds `BillingMode` and `ProvisionedCapacitySettings`
//! and moves facet items into the facets; version 1.0 keeps items at the table level. The
//! reader accepts every field wherever either version puts it, so 2.0 (between the two) reads
//! too, and an index may also be written as CloudFormation's `KeySchema`.
//!
//! Workbench has no key templates: a facet is a named view with key aliases (`AccountId`,
//! `SubId#SKU`). `infer.rs` derives each entity and its templates from the facets, the aliases
//! and the items' key values. This file only reads the format.

use std::collections::HashMap;
use std::hash::Hasher;

use crate::item::{AttributeValue, Item};
use crate::model::{
    AttrType, AutoScaling, Billing, Design, Gsi, KeyAttribute, KeyType, Lsi, Projection, Scaling,
    Table,
};

mod infer;
mod json;

pub(crate) use json::{Json, TableItems, parse as parse_json};

use super::{Assumption, At, ImportError, Imported, plain_value};

/// Reads a NoSQL Workbench model export.
pub fn import(text: &str) -> Result<Imported, ImportError> {
    import_json(parse_json(text)?, text)
}

/// Reads a model from its JSON, taking the items read beside the tree (see `json.rs`); `text`
/// is what it was read from, to place what is assumed.
pub(crate) fn import_json(json: Json, text: &str) -> Result<Imported, ImportError> {
    let Json { value, mut tables } = json;
    let value = &value;
    let root = At::root(value);
    // What could not be read, by its path, until the text places it.
    let mut unread: Vec<Unread> = Vec::new();
    let name = match root.get("ModelName") {
        Some(n) => n.str()?.to_string(),
        None => "NoSQL Workbench model".to_string(),
    };
    let mut description = String::new();
    if let Some(meta) = root.get("ModelMetadata") {
        if let Some(version) = meta.get("Version") {
            check_version(&version, &mut unread)?;
        }
        if let Some(d) = meta.get("Description") {
            description = d.str()?.to_string();
        }
    }
    let mut imported = Imported::new(Design::new(name));
    imported.design.description = description;
    // issue 15: what the format has no field for.
    imported.notes.push(
        "NoSQL Workbench models hold no TTL setting: if a table has one, set its TTL attribute in keyplan"
            .to_string(),
    );
    let data_model = root.require("DataModel")?;
    let mut entity_names = Vec::new();
    for (position, table_at) in data_model.array()?.into_iter().enumerate() {
        let items = tables
            .get_mut(position)
            .map(std::mem::take)
            .unwrap_or_default();
        let table = read_table(&table_at, items, &mut imported.notes, &mut unread)?;
        let (entities, mixed) =
            infer::infer_entities(&table, &mut entity_names, &mut imported.notes);
        imported.design.entities.extend(entities);
        for found in mixed {
            let line = item_line(text, position, &table, found.item, &found.attribute);
            imported
                .assumed
                .push(mixed_type(&table.table.name, &found, line));
        }
        let WorkbenchTable {
            table,
            items,
            facets,
            ..
        } = table;
        let samples = samples(items, facets);
        if !samples.is_empty() {
            imported.design.samples.insert(table.name.clone(), samples);
        }
        imported.design.tables.push(table);
    }
    let placed = unread.into_iter().map(|u| {
        let line = line_at(text, &u.path);
        Assumption::at(line, format!("{}: {}", u.path, u.what), u.assumed)
    });
    // Before the entities' (whose tables these values shape), in the file's order.
    imported.assumed.splice(0..0, placed);
    if imported.design.tables.iter().any(|t| !t.gsis.is_empty()) {
        imported.notes.push(
            "secondary index key templates are inferred from the sample items (NoSQL Workbench has aliases for the table's keys only): a write-shard part such as `SHARD{shard:10}` gets one more shard than the largest number the items hold, so check its count"
                .to_string(),
        );
    }
    Ok(imported)
}

/// The entities of `table` inferred from `items` alone, as for a Workbench table without
/// facets: what a live table's sample gives (see `live.rs`), with what was assumed of
/// attributes whose values are of two types. The table and items are handed back.
pub(crate) fn infer_from_items(
    table: Table,
    declared: Vec<(String, AttrType)>,
    items: Vec<Item>,
    entity_names: &mut Vec<String>,
    notes: &mut Vec<String>,
) -> (Vec<crate::model::Entity>, Vec<Assumption>, Table, Vec<Item>) {
    let table = WorkbenchTable {
        table,
        declared,
        items,
        facets: Vec::new(),
        schema_models: Vec::new(),
    };
    let (entities, mixed) = infer::infer_entities(&table, entity_names, notes);
    let assumed = mixed
        .iter()
        .map(|found| mixed_type(&table.table.name, found, 0))
        .collect();
    (entities, assumed, table.table, table.items)
}

/// What is assumed of an attribute whose sample values are of two types: a string.
fn mixed_type(table: &str, found: &infer::MixedType<'_>, line: usize) -> Assumption {
    let (first, other) = found.types;
    Assumption::at(
        line,
        format!(
            "table {table}: attribute `{}` of entity {} holds {} in one sample item and {} in another",
            found.attribute,
            found.entity,
            first.as_str(),
            other.as_str()
        ),
        "a string (S)",
    )
}

/// The line of `attribute` in `item`, an item of the `position`th table's `TableData` or of
/// one of its facets' (0 when it cannot be placed).
fn item_line(
    text: &str,
    position: usize,
    table: &WorkbenchTable,
    item: &Item,
    attribute: &str,
) -> usize {
    use super::assumed::{JsonStep, json_line};
    let mut path = vec![JsonStep::Member("DataModel"), JsonStep::Index(position)];
    if let Some(index) = table.items.iter().position(|i| std::ptr::eq(i, item)) {
        path.extend([JsonStep::Member("TableData"), JsonStep::Index(index)]);
    } else {
        let in_facet = table.facets.iter().enumerate().find_map(|(f, facet)| {
            let index = facet.items.iter().position(|i| std::ptr::eq(i, item))?;
            Some((f, index))
        });
        let Some((facet, index)) = in_facet else {
            return 0;
        };
        path.extend([
            JsonStep::Member("TableFacets"),
            JsonStep::Index(facet),
            JsonStep::Member("TableData"),
            JsonStep::Index(index),
        ]);
    }
    path.push(JsonStep::Member(attribute));
    json_line(text, &path)
}

/// The table's items, then each facet item no earlier one equals, moved rather than copied.
/// Equal items are found through a hash of each: `contains` on the growing list compared every
/// pair, billions of comparisons for a model with 80,000 items in its facets. The first item of
/// each hash is kept in one map, and only hashes that unequal items share get a list (a list
/// per hash made a 32 MB model's 400,000 facet items as many allocations, issue 15).
fn samples(items: Vec<Item>, facets: Vec<Facet>) -> Vec<Item> {
    let mut samples = items;
    if facets.iter().all(|f| f.items.is_empty()) {
        return samples;
    }
    let n_facet_items: usize = facets.iter().map(|f| f.items.len()).sum();
    samples.reserve(n_facet_items);
    let mut by_hash = ByHash::with_capacity(samples.len() + n_facet_items);
    let mut bytes = Vec::new();
    for (index, item) in samples.iter().enumerate() {
        by_hash.record(item_hash(item, &mut bytes), index);
    }
    for item in facets.into_iter().flat_map(|f| f.items) {
        let hash = item_hash(&item, &mut bytes);
        if by_hash.earlier(hash).any(|i| samples[i] == item) {
            continue;
        }
        by_hash.record(hash, samples.len());
        samples.push(item);
    }
    samples
}

/// Items' positions by their hash: each hash's first, and the further ones of a hash several
/// items have.
struct ByHash {
    first: HashMap<u64, usize>,
    further: HashMap<u64, Vec<usize>>,
}

impl ByHash {
    fn with_capacity(n: usize) -> ByHash {
        ByHash {
            first: HashMap::with_capacity(n),
            further: HashMap::new(),
        }
    }

    fn record(&mut self, hash: u64, index: usize) {
        match self.first.entry(hash) {
            std::collections::hash_map::Entry::Vacant(entry) => {
                entry.insert(index);
            }
            std::collections::hash_map::Entry::Occupied(_) => {
                self.further.entry(hash).or_default().push(index)
            }
        }
    }

    /// The positions recorded with `hash`, in the order they were.
    fn earlier(&self, hash: u64) -> impl Iterator<Item = usize> + '_ {
        let further = self.further.get(&hash).into_iter().flatten();
        self.first.get(&hash).into_iter().chain(further).copied()
    }
}

/// A hash of an item's names and values, equal for equal items. The item is written out into
/// `bytes` (cleared first, kept from item to item) and hashed in one piece: a write to the
/// hasher for each name, tag and value was a seventh of reading a 32 MB model's 400,000 facet
/// items (issue 15). Two items write the same bytes only when they are equal: each text ends
/// with 0xFF and each list or map with 0xFE, bytes that UTF-8 text never holds and that no
/// value's tag (0 to 9) or text starts with.
fn item_hash(item: &Item, bytes: &mut Vec<u8>) -> u64 {
    const TEXT_END: u8 = 0xFF;
    const LIST_END: u8 = 0xFE;
    fn text(s: &str, bytes: &mut Vec<u8>) {
        bytes.extend_from_slice(s.as_bytes());
        bytes.push(TEXT_END);
    }
    fn tagged(tag: u8, s: &str, bytes: &mut Vec<u8>) {
        bytes.push(tag);
        text(s, bytes);
    }
    fn texts(tag: u8, list: &[String], bytes: &mut Vec<u8>) {
        bytes.push(tag);
        for s in list {
            text(s, bytes);
        }
        bytes.push(LIST_END);
    }
    fn value(v: &AttributeValue, bytes: &mut Vec<u8>) {
        match v {
            AttributeValue::S(s) => tagged(0, s, bytes),
            AttributeValue::N(s) => tagged(1, s, bytes),
            AttributeValue::B(s) => tagged(2, s, bytes),
            AttributeValue::Bool(b) => bytes.extend_from_slice(&[3, u8::from(*b)]),
            AttributeValue::Null(b) => bytes.extend_from_slice(&[4, u8::from(*b)]),
            AttributeValue::M(members) => {
                bytes.push(5);
                for (k, v) in members {
                    text(k, bytes);
                    value(v, bytes);
                }
                bytes.push(LIST_END);
            }
            AttributeValue::L(list) => {
                bytes.push(6);
                for v in list {
                    value(v, bytes);
                }
                bytes.push(LIST_END);
            }
            AttributeValue::SS(l) => texts(7, l, bytes),
            AttributeValue::NS(l) => texts(8, l, bytes),
            AttributeValue::BS(l) => texts(9, l, bytes),
        }
    }
    bytes.clear();
    for (name, v) in item {
        text(name, bytes);
        value(v, bytes);
    }
    let mut state = std::hash::DefaultHasher::new();
    state.write(bytes);
    state.finish()
}

/// A value that could not be read, at its path in the model (`DataModel[0].BillingMode`), and
/// what was assumed in its place (issue 36: a model is never refused over one value).
struct Unread {
    path: String,
    what: String,
    assumed: String,
}

impl Unread {
    fn at(at: &At<'_>, what: String, assumed: &str) -> Unread {
        Unread {
            path: at.path().to_string(),
            what,
            assumed: assumed.to_string(),
        }
    }
}

/// The line of the value at `path`, a path as [`At`] writes it (`DataModel[0].TableFacets[2]`);
/// 0 when it cannot be placed.
fn line_at(text: &str, path: &str) -> usize {
    use super::assumed::{JsonStep, json_line};
    let mut steps = Vec::new();
    for part in path.split('.') {
        let mut pieces = part.split('[');
        if let Some(name) = pieces.next().filter(|n| !n.is_empty()) {
            steps.push(JsonStep::Member(name));
        }
        for index in pieces {
            match index.strip_suffix(']').and_then(|i| i.parse().ok()) {
                Some(i) => steps.push(JsonStep::Index(i)),
                None => return 0,
            }
        }
    }
    json_line(text, &steps)
}

fn check_version(version: &At<'_>, unread: &mut Vec<Unread>) -> Result<(), ImportError> {
    let text = match version.value() {
        serde_json::Value::Number(n) => n.to_string(),
        _ => version.str()?.to_string(),
    };
    let major = text.split('.').next().unwrap_or("");
    match major.trim().parse::<u32>() {
        Ok(1..=3) => Ok(()),
        _ => {
            unread.push(Unread::at(
                version,
                format!("format version {text} (keyplan knows 1.0, 2.0 and 3.0)"),
                "the members of 3.0, read where they are",
            ));
            Ok(())
        }
    }
}

/// One `DataModel` entry, read but not yet turned into entities.
struct WorkbenchTable {
    table: Table,
    /// Every attribute the table declares (keys first), with its type, in document order.
    declared: Vec<(String, AttrType)>,
    items: Vec<Item>,
    facets: Vec<Facet>,
    /// The entity names the table's `ModelSchema.models` states (the OneTable-shaped schema
    /// newer models carry), an editor's placeholder such as `~new~` left out: values of a
    /// `type` attribute that are these names are entity types, whatever their keys' shapes.
    schema_models: Vec<String>,
}

struct Facet {
    name: String,
    partition_alias: Option<String>,
    sort_alias: Option<String>,
    attributes: Vec<String>,
    items: Vec<Item>,
}

/// Reads one `DataModel` entry, `data` holding its items and its facets' (see `json.rs`).
fn read_table(
    at: &At<'_>,
    data: TableItems,
    notes: &mut Vec<String>,
    unread: &mut Vec<Unread>,
) -> Result<WorkbenchTable, ImportError> {
    let name = at.require("TableName")?.str()?.to_string();
    let keys = at.require("KeyAttributes")?;
    let partition_key = read_key(&keys.require("PartitionKey")?, unread)?;
    let sort_key = keys
        .get("SortKey")
        .map(|k| read_key(&k, unread))
        .transpose()?;
    let mut declared: Vec<(String, AttrType)> = Vec::new();
    declared.push((partition_key.name.clone(), AttrType::from(partition_key.ty)));
    if let Some(sk) = &sort_key {
        declared.push((sk.name.clone(), AttrType::from(sk.ty)));
    }
    if let Some(non_key) = at.get("NonKeyAttributes") {
        for attr in non_key.array()? {
            let attr_name = attr.require("AttributeName")?.str()?.to_string();
            let ty = match attr.get("AttributeType") {
                Some(t) => parse_attr_type(&t, unread)?,
                None => AttrType::S,
            };
            if !declared.iter().any(|(n, _)| *n == attr_name) {
                declared.push((attr_name, ty));
            }
        }
    }
    let mut gsis = Vec::new();
    if let Some(list) = at.get("GlobalSecondaryIndexes") {
        for gsi in list.array()? {
            gsis.push(read_gsi(&gsi, &declared, unread)?);
        }
    }
    let mut lsis = Vec::new();
    if let Some(list) = at.get("LocalSecondaryIndexes") {
        for lsi in list.array()? {
            let gsi = read_gsi(&lsi, &declared, unread)?;
            let Some(sort_key) = gsi.sort_key.into_iter().next() else {
                return Err(lsi.invalid("a local secondary index needs a sort key"));
            };
            lsis.push(Lsi {
                name: gsi.name,
                sort_key,
                projection: gsi.projection,
            });
        }
    }
    let billing = read_billing(at, unread)?;
    let TableItems {
        items,
        facets: mut facet_items,
        plain,
    } = data;
    unread.extend(plain.into_iter().map(|path| Unread {
        path,
        what: "not a value in DynamoDB JSON, such as {\"S\": \"text\"}".to_string(),
        assumed: "the plain JSON value (text S, number N, true or false BOOL, null NULL, object M, list L)"
            .to_string(),
    }));
    let items = items.transpose()?.unwrap_or_default();
    let mut facets = Vec::new();
    if let Some(list) = at.get("TableFacets") {
        for (position, facet) in list.array()?.into_iter().enumerate() {
            let items = facet_items.get_mut(position).and_then(Option::take);
            facets.push(read_facet(&facet, items)?);
        }
    }
    let schema_models = match at.get("ModelSchema").and_then(|m| m.get("models")) {
        Some(models) => {
            notes.push(format!(
                "table {name}: its `ModelSchema` is read for the names of its models only (which `type` values are entities); the key templates it states (`value`) are inferred from the items instead"
            ));
            models
                .members()
                .unwrap_or_default()
                .into_iter()
                .map(|(name, _)| name.to_string())
                .filter(|name| !name.starts_with('~'))
                .collect()
        }
        None => Vec::new(),
    };
    Ok(WorkbenchTable {
        schema_models,
        table: Table {
            name,
            partition_key,
            sort_key,
            gsis,
            lsis,
            billing,
            ttl_attribute: None,
            replicas: Vec::new(),
            vector_indexes: Vec::new(),
        },
        declared,
        items,
        facets,
    })
}

fn read_key(at: &At<'_>, unread: &mut Vec<Unread>) -> Result<KeyAttribute, ImportError> {
    let name = at.require("AttributeName")?.str()?.to_string();
    let ty = match at.get("AttributeType") {
        Some(t) => parse_key_type(&t, unread)?,
        None => KeyType::S,
    };
    Ok(KeyAttribute { name, ty })
}

/// One key attribute, or a list of them (a multi-attribute GSI key).
fn read_keys(at: &At<'_>, unread: &mut Vec<Unread>) -> Result<Vec<KeyAttribute>, ImportError> {
    match at.value() {
        serde_json::Value::Array(_) => at.array()?.iter().map(|k| read_key(k, unread)).collect(),
        _ => Ok(vec![read_key(at, unread)?]),
    }
}

fn read_gsi(
    at: &At<'_>,
    declared: &[(String, AttrType)],
    unread: &mut Vec<Unread>,
) -> Result<Gsi, ImportError> {
    let name = at.require("IndexName")?.str()?.to_string();
    let (partition_key, sort_key) = if let Some(keys) = at.get("KeyAttributes") {
        let pk = match keys.get("PartitionKeys") {
            Some(list) => read_keys(&list, unread)?,
            None => read_keys(&keys.require("PartitionKey")?, unread)?,
        };
        let sk = match (keys.get("SortKeys"), keys.get("SortKey")) {
            (Some(list), _) => read_keys(&list, unread)?,
            (None, Some(one)) => read_keys(&one, unread)?,
            (None, None) => Vec::new(),
        };
        (pk, sk)
    } else if let Some(schema) = at.get("KeySchema") {
        let mut pk = Vec::new();
        let mut sk = Vec::new();
        for element in schema.array()? {
            let attr = element.require("AttributeName")?.str()?.to_string();
            let ty = declared
                .iter()
                .find(|(n, _)| *n == attr)
                .and_then(|(_, t)| t.as_key_type())
                .unwrap_or_default();
            let key = KeyAttribute::new(attr, ty);
            let key_type = element.require("KeyType")?;
            match key_type.str()? {
                "HASH" => pk.push(key),
                "RANGE" => sk.push(key),
                other => unread.push(Unread::at(
                    &key_type,
                    format!("KeyType `{other}` (HASH or RANGE)"),
                    "no key: the element is left out",
                )),
            }
        }
        (pk, sk)
    } else {
        return Err(ImportError::Missing {
            path: format!("{}.KeyAttributes", at.path()),
        });
    };
    if partition_key.is_empty() {
        return Err(at.invalid("the index has no partition key"));
    }
    let projection = match at.get("Projection") {
        None => Projection::All,
        Some(p) => match p.get("ProjectionType").map(|t| t.str()).transpose()? {
            None | Some("ALL") => Projection::All,
            Some("KEYS_ONLY") => Projection::KeysOnly,
            Some("INCLUDE") => {
                let mut attributes = Vec::new();
                if let Some(list) = p.get("NonKeyAttributes") {
                    for a in list.array()? {
                        attributes.push(a.str()?.to_string());
                    }
                }
                Projection::Include { attributes }
            }
            Some(other) => {
                if let Some(at) = p.get("ProjectionType") {
                    let what = format!("ProjectionType `{other}` (ALL, KEYS_ONLY or INCLUDE)");
                    unread.push(Unread::at(&at, what, "ALL"));
                }
                Projection::All
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

fn read_billing(at: &At<'_>, unread: &mut Vec<Unread>) -> Result<Billing, ImportError> {
    let Some(mode) = at.get("BillingMode") else {
        return Ok(Billing::OnDemand);
    };
    match mode.str()? {
        "PAY_PER_REQUEST" | "ON_DEMAND" => Ok(Billing::OnDemand),
        "PROVISIONED" => {
            let throughput = at
                .get("ProvisionedCapacitySettings")
                .and_then(|s| s.get("ProvisionedThroughput"));
            let (read, write) = match throughput {
                Some(t) => (
                    t.require("ReadCapacityUnits")?.u64()?,
                    t.require("WriteCapacityUnits")?.u64()?,
                ),
                None => (1, 1),
            };
            // Workbench's auto scaling, per dimension: a scalable target's bounds and a
            // target-tracking policy's utilisation, as Application Auto Scaling takes them.
            let scaling = |key: &str| -> Result<Option<Scaling>, ImportError> {
                let Some(settings) = at
                    .get("ProvisionedCapacitySettings")
                    .and_then(|s| s.get(key))
                else {
                    return Ok(None);
                };
                let Some(target) = settings.get("ScalableTargetRequest") else {
                    return Ok(None);
                };
                Ok(Some(Scaling {
                    min: target.require("MinCapacity")?.u64()?,
                    max: target.require("MaxCapacity")?.u64()?,
                    target: settings
                        .get("ScalingPolicyConfiguration")
                        .and_then(|p| p.get("TargetValue"))
                        .and_then(|t| t.value().as_f64()),
                }))
            };
            let (read_scaling, write_scaling) =
                (scaling("AutoScalingRead")?, scaling("AutoScalingWrite")?);
            Ok(Billing::Provisioned {
                read,
                write,
                auto_scaling: (read_scaling.is_some() || write_scaling.is_some()).then_some(
                    AutoScaling {
                        read: read_scaling,
                        write: write_scaling,
                    },
                ),
                indexes: Default::default(),
            })
        }
        other => {
            unread.push(Unread::at(
                &mode,
                format!("BillingMode `{other}` (PROVISIONED or PAY_PER_REQUEST)"),
                "on-demand (PAY_PER_REQUEST)",
            ));
            Ok(Billing::OnDemand)
        }
    }
}

/// A value in DynamoDB JSON (`{"S": "x"}`). Workbench writes the insides of `M` and `L` either
/// typed or as plain JSON (`{"M": {"is_enabled": true}}`); both are read.
fn typed_value(value: &serde_json::Value) -> Option<AttributeValue> {
    use serde_json::Value;
    let object = value.as_object()?;
    if object.len() != 1 {
        return None;
    }
    let (tag, inner) = object.iter().next()?;
    let strings = |v: &Value| -> Option<Vec<String>> {
        v.as_array()?
            .iter()
            .map(|x| match x {
                Value::String(s) => Some(s.clone()),
                Value::Number(n) => Some(n.to_string()),
                _ => None,
            })
            .collect()
    };
    Some(match (tag.as_str(), inner) {
        ("S", Value::String(s)) => AttributeValue::S(s.clone()),
        ("N", Value::String(s)) => AttributeValue::N(s.clone()),
        ("N", Value::Number(n)) => AttributeValue::N(n.to_string()),
        ("B", Value::String(s)) => AttributeValue::B(s.clone()),
        ("BOOL", Value::Bool(b)) => AttributeValue::Bool(*b),
        ("NULL", Value::Bool(b)) => AttributeValue::Null(*b),
        ("M", Value::Object(members)) => AttributeValue::M(
            members
                .iter()
                .map(|(k, v)| (k.clone(), typed_value(v).unwrap_or_else(|| plain_value(v))))
                .collect(),
        ),
        ("L", Value::Array(list)) => AttributeValue::L(
            list.iter()
                .map(|v| typed_value(v).unwrap_or_else(|| plain_value(v)))
                .collect(),
        ),
        ("SS", v) => AttributeValue::SS(strings(v)?),
        ("NS", v) => AttributeValue::NS(strings(v)?),
        ("BS", v) => AttributeValue::BS(strings(v)?),
        _ => return None,
    })
}

/// Reads one facet, `items` holding its `TableData` (see `json.rs`).
fn read_facet(
    at: &At<'_>,
    items: Option<Result<Vec<Item>, ImportError>>,
) -> Result<Facet, ImportError> {
    let name = at.require("FacetName")?.str()?.to_string();
    let (partition_alias, sort_alias) = match at.get("KeyAttributeAlias") {
        Some(alias) => (
            alias
                .get("PartitionKeyAlias")
                .map(|a| a.str().map(str::to_string))
                .transpose()?,
            alias
                .get("SortKeyAlias")
                .map(|a| a.str().map(str::to_string))
                .transpose()?,
        ),
        None => (None, None),
    };
    let mut attributes = Vec::new();
    if let Some(list) = at.get("NonKeyAttributes") {
        for a in list.array()? {
            attributes.push(a.str()?.to_string());
        }
    }
    let items = items.transpose()?.unwrap_or_default();
    Ok(Facet {
        name,
        partition_alias,
        sort_alias,
        attributes,
        items,
    })
}

/// A type by its DynamoDB name (`S`, `BOOL`, `SS`...), as the model serialises it.
fn parse_named<T: serde::de::DeserializeOwned>(name: &str) -> Option<T> {
    serde_json::from_value(serde_json::Value::String(name.to_string())).ok()
}

/// A key attribute's type; a string, said, when it is not S, N or B.
fn parse_key_type(at: &At<'_>, unread: &mut Vec<Unread>) -> Result<KeyType, ImportError> {
    let name = at.str()?;
    Ok(parse_named(name).unwrap_or_else(|| {
        let what = format!("key type `{name}` (a key attribute is S, N or B)");
        unread.push(Unread::at(at, what, "a string (S)"));
        KeyType::S
    }))
}

/// An attribute's type; a string, said, when DynamoDB has no type of that name.
fn parse_attr_type(at: &At<'_>, unread: &mut Vec<Unread>) -> Result<AttrType, ImportError> {
    let name = at.str()?;
    Ok(parse_named(name).unwrap_or_else(|| {
        let what = format!("attribute type `{name}` (S, N, B, BOOL, NULL, M, L, SS, NS or BS)");
        unread.push(Unread::at(at, what, "a string (S)"));
        AttrType::S
    }))
}

#[cfg(test)]
mod tests;
