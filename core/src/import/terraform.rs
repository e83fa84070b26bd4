//! Terraform configuration (HCL), read into a keyplan design's tables.
//!
//! Every `resource "aws_dynamodb_table"` block becomes a table, and every call of the
//! `terraform-aws-modules/dynamodb-table/aws` module (the most used DynamoDB module: its
//! `attributes`, `global_secondary_indexes`, `local_secondary_indexes`, `ttl_attribute_name`):
//! `hash_key` and `range_key` with the types of the `attribute` blocks, `global_secondary_index`
//! blocks (with `key_schema` blocks, a multi-attribute key), `local_secondary_index` blocks,
//! projections, `billing_mode` with `read_capacity` and `write_capacity`, `ttl`, and the
//! Regions of `replica` blocks (the module's `replica_regions`). Streams and the rest are
//! named in notes. As with CloudFormation, no entities or access
//! patterns come from it.
//!
//! Expressions are evaluated as far as the file allows (issue 36): `var.x` reads the
//! variable's `default`, `local.x` the `locals` it names, `dynamic` blocks and `count` and
//! `for_each` unroll over a literal collection (one table per instance); an interpolated name
//! keeps what is known (`"orders-${var.environment}"`). What cannot be evaluated is assumed,
//! the least (a placeholder name such as `var.table_name`, valid as a DynamoDB name; a string
//! attribute; one table for a collection that cannot be read), with its line (see
//! `cloudformation::lenient`). Only a file without any table is refused.
//!
//! HCL is parsed by `hcl-rs` (which bounds nesting) and the tables are read through JSON
//! values, whose paths (`resource.aws_dynamodb_table.orders.global_secondary_index`) place
//! each assumption on its line.

use serde_json::Value;

use crate::model::{Billing, Gsi, KeyAttribute, KeyType, Lsi, Table};

use super::cloudformation::lenient::{EXPR, shown};
use super::cloudformation::{Lenient, note_not_kept, note_stream, placeholder, tables_only};
use super::{At, ImportError, Imported, Source};

use eval::{Evaluator, body_json, hcl_line, instances};

mod scaling;

mod eval;
#[cfg(test)]
mod tests;

/// The most bytes of HCL read; a larger file is refused before it is parsed.
pub const MAX_HCL_BYTES: usize = 4 * 1024 * 1024;

/// The most tokens of HCL parsed, counted as [`check_tokens`] counts them: a quarter of
/// [`MAX_HCL_BYTES`]. hcl's tree takes 90 to 180 bytes a token (4 MB of `x = [1,1,...]` took
/// 374 MB, of `a {}` blocks 354 MB: issue 41), so the tree of the most tokens allowed takes
/// under 200 MB.
pub const MAX_HCL_TOKENS: usize = MAX_HCL_BYTES / 4;

const RESOURCE: &str = "aws_dynamodb_table";

/// Reads Terraform configuration.
pub fn import(text: &str) -> Result<Imported, ImportError> {
    import_source(&Source::new(text))
}

/// Parses HCL, with the line and column of a syntax error. Larger text than
/// [`MAX_HCL_BYTES`], or of more tokens than [`MAX_HCL_TOKENS`], is refused first.
pub(crate) fn parse_hcl(text: &str) -> Result<hcl::Body, ImportError> {
    if text.len() > MAX_HCL_BYTES {
        return Err(ImportError::TooLarge {
            bytes: text.len(),
            limit: MAX_HCL_BYTES,
            what: "Terraform configuration",
        });
    }
    check_tokens(text)?;
    hcl::parse(text).map_err(|e| match e {
        hcl::Error::Parse(parse) => ImportError::Syntax {
            line: parse.location().line(),
            column: parse.location().column(),
            message: parse.message().to_string(),
        },
        other => ImportError::Invalid {
            path: "the document".into(),
            message: other.to_string(),
        },
    })
}

/// `Err`, with the line and column where it happens, when `text` holds more than
/// [`MAX_HCL_TOKENS`] tokens, counted without a tokenizer as an upper bound of what the parse
/// makes: every run of letters, digits and `_`, and every other character but white space and
/// `,`. Strings and comments are counted as code, so one of a million words is refused too
/// (the message says where).
fn check_tokens(text: &str) -> Result<(), ImportError> {
    let mut tokens = 0usize;
    let mut in_word = false;
    for (offset, byte) in text.bytes().enumerate() {
        let word = byte.is_ascii_alphanumeric() || byte == b'_' || byte >= 0x80;
        let counts = if word {
            !in_word
        } else {
            !(byte.is_ascii_whitespace() || byte == b',')
        };
        in_word = word;
        if counts {
            tokens += 1;
            if tokens > MAX_HCL_TOKENS {
                let (line, column) = super::line_column(text, offset);
                return Err(ImportError::Syntax {
                    line,
                    column,
                    message: format!(
                        "the configuration holds more than {MAX_HCL_TOKENS} tokens by here; keyplan reads schemas, not data"
                    ),
                });
            }
        }
    }
    Ok(())
}

/// The registry address of terraform-aws-modules' DynamoDB module, and the name of its
/// repository (a `git::` source).
const MODULE: &str = "terraform-aws-modules/dynamodb-table/aws";
const MODULE_REPOSITORY: &str = "terraform-aws-dynamodb-table";

/// What a block declares a table with: a resource, or a call of the module.
#[derive(Clone, Copy, PartialEq)]
enum Shape {
    Resource,
    Module,
}

/// The blocks that declare tables, with their shape and label.
fn table_blocks(body: &hcl::Body) -> impl Iterator<Item = (Shape, &hcl::Block)> {
    body.blocks().filter_map(|b| {
        let labels = b.labels();
        match b.identifier() {
            "resource" if labels.first().is_some_and(|l| l.as_str() == RESOURCE) => {
                Some((Shape::Resource, b))
            }
            "module" if is_table_module(b) => Some((Shape::Module, b)),
            _ => None,
        }
    })
}

/// Whether a `module` block calls terraform-aws-modules' DynamoDB module: by its source, or
/// (a local copy, `source = "../../"`) by the inputs that declare a table, `hash_key` and
/// `attributes`.
fn is_table_module(block: &hcl::Block) -> bool {
    let body = block.body();
    let has = |key: &str| body.attributes().any(|a| a.key() == key);
    body.attributes().any(|a| {
        a.key() == "source"
            && matches!(a.expr(), hcl::Expression::String(s)
                if s.starts_with(MODULE) || s.contains(MODULE_REPOSITORY))
    }) || (has("hash_key") && has("attributes"))
}

pub(crate) fn fits(source: &Source<'_>) -> Result<(), String> {
    if source.json().is_ok() {
        return Err("JSON, not HCL".into());
    }
    let body = source.hcl().map_err(|e| format!("not HCL ({e})"))?;
    if table_blocks(body).next().is_some() {
        Ok(())
    } else {
        Err(format!(
            "no `resource \"{RESOURCE}\"` block or `module` of {MODULE}"
        ))
    }
}

pub(crate) fn import_source(source: &Source<'_>) -> Result<Imported, ImportError> {
    let body = source.hcl()?;
    let text = source.text;
    let mut out = Lenient::new(|path| hcl_line(text, path));
    let mut ev = Evaluator::new(body);
    let mut tables = Vec::new();
    // Each table's resource label, for the auto scaling targets that name it.
    let mut labels = Vec::new();
    for (shape, block) in table_blocks(body) {
        let label = block
            .labels()
            .get(if shape == Shape::Resource { 1 } else { 0 })
            .map_or_else(|| "table".to_string(), |l| l.as_str().to_string());
        let path = match shape {
            Shape::Resource => format!("resource.{RESOURCE}.{label}"),
            Shape::Module => format!("module.{label}"),
        };
        for instance in instances(block.body(), &path, &mut ev, &mut out, tables.len()) {
            let value = body_json(block.body(), &path, &mut ev, &mut out, instance);
            let at = At {
                value: &value,
                path: path.clone(),
            };
            if shape == Shape::Module && creates_nothing(&at, &mut out) {
                out.note(format!(
                    "module {label}: it creates no table (`create_table` or `create` is false)"
                ));
                continue;
            }
            tables.push(read_table(&label, shape, &at, &mut out));
            labels.push(label.clone());
        }
    }
    let mut by_label: Vec<(&str, &mut Table)> = labels
        .iter()
        .map(String::as_str)
        .zip(tables.iter_mut())
        .collect();
    scaling::apply(body, &mut ev, &mut by_label, &mut out);
    if tables.is_empty() {
        return Err(ImportError::Missing {
            path: format!("resource \"{RESOURCE}\""),
        });
    }
    let mut imported = tables_only(tables, "a Terraform configuration", out.notes);
    imported.assumed = out.assumed;
    Ok(imported)
}

/// Whether a module call turns its table off (`create_table = false`, `create = false`).
fn creates_nothing(at: &At<'_>, out: &mut Lenient<'_>) -> bool {
    ["create_table", "create"]
        .iter()
        .filter_map(|key| at.get(key))
        .any(|flag| !out.flag(&flag, "create", true))
}

/// The indexes a module input or a resource's blocks list: a list of objects, or (the
/// module's newer form) a map from the index's name.
fn indexes<'a>(at: &At<'a>, out: &mut Lenient<'_>) -> Vec<(Option<String>, At<'a>)> {
    match at.value() {
        Value::Object(_) if at.value().get(EXPR).is_none() => at
            .members()
            .unwrap_or_default()
            .into_iter()
            .map(|(k, v)| (Some(k.to_string()), v))
            .collect(),
        _ => out
            .list(at, "the indexes")
            .into_iter()
            .map(|i| (None, i))
            .collect(),
    }
}

const KEPT: &[&str] = &[
    "name",
    "hash_key",
    "range_key",
    "attribute",
    "global_secondary_index",
    "local_secondary_index",
    "billing_mode",
    "read_capacity",
    "write_capacity",
    "ttl",
    "stream_enabled",
    "stream_view_type",
    "provider",
    "depends_on",
    "lifecycle",
];

const KEPT_MODULE: &[&str] = &[
    "source",
    "version",
    "name",
    "hash_key",
    "range_key",
    "attributes",
    "global_secondary_indexes",
    "local_secondary_indexes",
    "billing_mode",
    "read_capacity",
    "write_capacity",
    "ttl_enabled",
    "ttl_attribute_name",
    "stream_enabled",
    "stream_view_type",
    "replica_regions",
    "create_table",
    "create",
    "providers",
    "depends_on",
];

/// An index's name: its `name`, else the key it has in a map of indexes, else `gsi1`...
fn index_name(
    index: &At<'_>,
    map_key: Option<String>,
    kind: &str,
    i: usize,
    out: &mut Lenient<'_>,
) -> String {
    let fallback = format!("{kind}{}", i + 1);
    match index.get("name") {
        Some(n) => name_of(&n, "index name", &fallback, out),
        None => map_key.unwrap_or(fallback),
    }
}

/// A name: the text where it reads, else a placeholder from what the file wrote.
fn name_of(at: &At<'_>, slot: &str, fallback: &str, out: &mut Lenient<'_>) -> String {
    let fallback = placeholder(at.value()).unwrap_or_else(|| fallback.to_string());
    out.text(at, slot, fallback)
}

fn read_table(label: &str, shape: Shape, at: &At<'_>, out: &mut Lenient<'_>) -> Table {
    let module = shape == Shape::Module;
    let name = match at.get("name") {
        Some(name) => name_of(&name, "name", label, out),
        None => label.to_string(),
    };
    let attribute_key = if module { "attributes" } else { "attribute" };
    let mut definitions: Vec<(String, KeyType)> = Vec::new();
    if let Some(list) = at.get(attribute_key) {
        for (i, attribute) in out.list(&list, attribute_key).iter().enumerate() {
            let Some(attribute_name) = attribute.get("name") else {
                continue;
            };
            let attribute_name = name_of(
                &attribute_name,
                "attribute name",
                &format!("attribute{}", i + 1),
                out,
            );
            let ty = match attribute.get("type") {
                Some(ty) => out.key_type(&ty, &format!("attribute `{attribute_name}`'s type")),
                None => KeyType::S,
            };
            definitions.push((attribute_name, ty));
        }
    }
    let mut key = |key_at: &At<'_>, out: &mut Lenient<'_>| -> KeyAttribute {
        let key_name = name_of(key_at, "key attribute", "key", out);
        match definitions.iter().find(|(n, _)| *n == key_name) {
            Some((_, ty)) => KeyAttribute::new(key_name, *ty),
            None => {
                out.assume(
                    key_at,
                    format!("`{key_name}` has no `{attribute_key}` of its type"),
                    "a string (S)",
                );
                definitions.push((key_name.clone(), KeyType::S));
                KeyAttribute::new(key_name, KeyType::S)
            }
        }
    };
    let partition_key = match at.get("hash_key") {
        Some(k) => key(&k, out),
        None => {
            out.assume(
                at,
                format!("table {name} without hash_key"),
                "a partition key `id`, a string",
            );
            KeyAttribute::new("id", KeyType::S)
        }
    };
    let sort_key = at.get("range_key").map(|k| key(&k, out));
    let mut table = Table::new(name, partition_key, sort_key);
    // Each GSI's own read_capacity and write_capacity, kept once the table's billing is read.
    let mut index_capacity = std::collections::BTreeMap::new();
    let gsi_key = if module {
        "global_secondary_indexes"
    } else {
        "global_secondary_index"
    };
    if let Some(list) = at.get(gsi_key) {
        for (i, (map_key, index)) in indexes(&list, out).into_iter().enumerate() {
            let index_name = index_name(&index, map_key, "gsi", i, out);
            let mut partition = Vec::new();
            let mut sort = Vec::new();
            if let Some(schema) = index.get("key_schema") {
                for element in out.list(&schema, "key_schema") {
                    let Some(attribute) = element.get("attribute_name") else {
                        continue;
                    };
                    let attribute = key(&attribute, out);
                    match element
                        .get("key_type")
                        .and_then(|k| k.value().as_str().map(str::to_string))
                        .as_deref()
                    {
                        Some("RANGE") => sort.push(attribute),
                        _ if partition.is_empty() => partition.push(attribute),
                        Some("HASH") => partition.push(attribute),
                        _ => sort.push(attribute),
                    }
                }
            } else if let Some(hash) = index.get("hash_key") {
                partition.push(key(&hash, out));
                if let Some(range) = index.get("range_key") {
                    sort.push(key(&range, out));
                }
            }
            if partition.is_empty() {
                out.assume(
                    &index,
                    format!("GSI {index_name} without a hash_key"),
                    "the index left out",
                );
                continue;
            }
            if index.get("read_capacity").is_some() || index.get("write_capacity").is_some() {
                let keys = ["read_capacity", "write_capacity"];
                if let Some(capacity) = out.provisioned(&index, keys, &index_name).table_capacity()
                {
                    index_capacity.insert(index_name.clone(), capacity);
                }
            }
            table.gsis.push(Gsi {
                name: index_name,
                partition_key: partition,
                sort_key: sort,
                projection: projection(&index, out),
            });
        }
    }
    let lsi_key = if module {
        "local_secondary_indexes"
    } else {
        "local_secondary_index"
    };
    if let Some(list) = at.get(lsi_key) {
        for (i, (map_key, index)) in indexes(&list, out).into_iter().enumerate() {
            let index_name = index_name(&index, map_key, "lsi", i, out);
            let Some(range) = index.get("range_key") else {
                out.assume(
                    &index,
                    format!("LSI {index_name} without a range_key"),
                    "the index left out",
                );
                continue;
            };
            table.lsis.push(Lsi {
                name: index_name,
                sort_key: key(&range, out),
                projection: projection(&index, out),
            });
        }
    }
    table.billing = billing(&table.name, module, at, out);
    table.billing.set_index_capacity(index_capacity);
    table.ttl_attribute = ttl(&table.name, module, at, out);
    let streams = at
        .get("stream_enabled")
        .is_some_and(|s| out.flag(&s, "stream_enabled", false));
    if streams {
        let view = at.get("stream_view_type");
        note_stream(
            &table.name,
            view.as_ref().and_then(|v| v.str().ok()),
            &mut out.notes,
        );
    }
    // A `replica` block (or the module's `replica_regions`) names a Region other than the
    // provider's: each is kept as a Region the table is replicated to. One that cannot be
    // read keeps a placeholder named after it (`var.secondary_region`), assumed.
    if let Some(regions) = at.get("replica_regions").or_else(|| at.get("replica")) {
        for (i, region) in regions.array().unwrap_or_default().iter().enumerate() {
            let name = match region.get("region_name") {
                Some(n) => {
                    let fallback =
                        placeholder(n.value()).unwrap_or_else(|| format!("region{}", i + 1));
                    out.text(&n, "a replica's region_name", fallback)
                }
                None => {
                    out.assume(
                        region,
                        format!("table {}: a replica without a region_name", table.name),
                        format!("`region{}`", i + 1),
                    );
                    format!("region{}", i + 1)
                }
            };
            table.replicas.push(name);
        }
    }
    let mut kept: Vec<&str> = if module {
        KEPT_MODULE.to_vec()
    } else {
        KEPT.to_vec()
    };
    kept.push("replica");
    note_not_kept(&table.name, at, &kept, out);
    table
}

fn projection(at: &At<'_>, out: &mut Lenient<'_>) -> crate::model::Projection {
    match at.get("projection_type") {
        Some(ty) => out.projection(&ty, at.get("non_key_attributes")),
        None => {
            out.assume(at, "an index without projection_type", "KEYS_ONLY");
            crate::model::Projection::KeysOnly
        }
    }
}

/// The billing mode: the provider's default is PROVISIONED, the module's PAY_PER_REQUEST.
fn billing(name: &str, module: bool, at: &At<'_>, out: &mut Lenient<'_>) -> Billing {
    let provisioned = match at.get("billing_mode") {
        None => !module,
        Some(mode) => match mode.value().as_str() {
            Some("PAY_PER_REQUEST") => false,
            Some("PROVISIONED") => true,
            _ => {
                let default = if module {
                    "PAY_PER_REQUEST"
                } else {
                    "PROVISIONED"
                };
                out.assume(
                    &mode,
                    format!("table {name}: billing_mode {}", shown(mode.value())),
                    format!("{default}, the default"),
                );
                !module
            }
        },
    };
    if !provisioned {
        return Billing::OnDemand;
    }
    out.provisioned(at, ["read_capacity", "write_capacity"], name)
}

/// The TTL attribute, when TTL is enabled: a resource's `ttl` block, the module's
/// `ttl_enabled` and `ttl_attribute_name` (off by the module's default).
fn ttl(name: &str, module: bool, at: &At<'_>, out: &mut Lenient<'_>) -> Option<String> {
    if module {
        let attribute = at.get("ttl_attribute_name")?;
        let attribute = name_of(&attribute, "ttl_attribute_name", "ttl", out);
        let enabled = at
            .get("ttl_enabled")
            .is_some_and(|e| out.flag(&e, "ttl_enabled", false));
        if !enabled {
            out.note(format!(
                "table {name}: its TTL attribute `{attribute}` is named but ttl_enabled is not true (the module's default is false), so TTL is off"
            ));
        }
        return enabled.then_some(attribute);
    }
    let ttl = at.get("ttl")?.array().ok()?.into_iter().next()?;
    let enabled = ttl
        .get("enabled")
        .is_some_and(|e| out.flag(&e, "ttl enabled", false));
    let attribute = ttl
        .get("attribute_name")
        .map(|a| name_of(&a, "ttl attribute_name", "ttl", out));
    attribute.filter(|_| enabled)
}
