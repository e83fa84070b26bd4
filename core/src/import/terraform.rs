//! Terraform configuration (HCL), read into a keyplan design's tables.
//!
//! Every `resource "aws_dynamodb_table"` block becomes a table: `hash_key` and `range_key`
//! with the types of the `attribute` blocks, `global_secondary_index` blocks (with
//! `key_schema` blocks, a multi-attribute key), `local_secondary_index` blocks, projections,
//! `billing_mode` with `read_capacity` and `write_capacity`, and `ttl`. Streams and the rest
//! are named in notes. As with CloudFormation, no entities or access patterns come from it.
//!
//! HCL is parsed by `hcl-rs` (which bounds nesting) and the resources are read through JSON
//! values, so errors name a path such as
//! `resource.aws_dynamodb_table.orders.global_secondary_index[0].name`. An interpolated name
//! (`"orders-${var.environment}"`) keeps its literal text.

use serde_json::{Map, Value};

use crate::model::{Billing, Gsi, KeyAttribute, Lsi, Projection, Table};

use super::cloudformation::{
    attribute_definitions, enabled_ttl, literal_name, note_not_kept, note_stream, projection_of,
    tables_only,
};
use super::{At, ImportError, Imported, Source};

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

fn tables(body: &hcl::Body) -> impl Iterator<Item = &hcl::Block> {
    body.blocks().filter(|b| {
        b.identifier() == "resource" && b.labels().first().is_some_and(|l| l.as_str() == RESOURCE)
    })
}

pub(crate) fn fits(source: &Source<'_>) -> Result<(), String> {
    if source.json().is_ok() {
        return Err("JSON, not HCL".into());
    }
    let body = source.hcl().map_err(|e| format!("not HCL ({e})"))?;
    if tables(body).next().is_some() {
        Ok(())
    } else {
        Err(format!("no `resource \"{RESOURCE}\"` block"))
    }
}

pub(crate) fn import_source(source: &Source<'_>) -> Result<Imported, ImportError> {
    let body = source.hcl()?;
    let mut resources = Map::new();
    for block in tables(body) {
        let label = block
            .labels()
            .get(1)
            .map_or_else(|| "table".to_string(), |l| l.as_str().to_string());
        resources.insert(label, body_json(block.body()));
    }
    if resources.is_empty() {
        return Err(ImportError::Missing {
            path: format!("resource \"{RESOURCE}\""),
        });
    }
    let mut root = Map::new();
    let mut by_type = Map::new();
    by_type.insert(RESOURCE.to_string(), Value::Object(resources));
    root.insert("resource".to_string(), Value::Object(by_type));
    let root = Value::Object(root);
    let at = At::root(&root);
    let mut notes = Vec::new();
    let mut out = Vec::new();
    for (label, resource) in at.require("resource")?.require(RESOURCE)?.members()? {
        out.push(read_table(label, &resource, &mut notes)?);
    }
    Ok(tables_only(out, "a Terraform configuration", notes))
}

/// A block's body as JSON: each attribute by name, each nested block kind as a list.
fn body_json(body: &hcl::Body) -> Value {
    let mut out = Map::new();
    for attribute in body.attributes() {
        out.insert(
            attribute.key().to_string(),
            expression_json(attribute.expr()),
        );
    }
    for block in body.blocks() {
        let list = out
            .entry(block.identifier().to_string())
            .or_insert_with(|| Value::Array(Vec::new()));
        if let Value::Array(list) = list {
            list.push(body_json(block.body()));
        }
    }
    Value::Object(out)
}

/// Literal values as JSON; a template as its text; any other expression (`var.capacity`) as
/// its text in an interpolation, `${var.capacity}`.
fn expression_json(expr: &hcl::Expression) -> Value {
    use hcl::Expression as E;
    match expr {
        E::Null => Value::Null,
        E::Bool(b) => Value::Bool(*b),
        E::Number(n) => n
            .as_u64()
            .map(Value::from)
            .or_else(|| n.as_f64().map(Value::from))
            .unwrap_or(Value::Null),
        E::String(s) => Value::String(s.clone()),
        E::Array(items) => Value::Array(items.iter().map(expression_json).collect()),
        E::Object(members) => Value::Object(
            members
                .iter()
                .map(|(k, v)| (k.to_string(), expression_json(v)))
                .collect(),
        ),
        E::TemplateExpr(template) => Value::String(match template.as_ref() {
            hcl::TemplateExpr::QuotedString(s) => s.clone(),
            hcl::TemplateExpr::Heredoc(h) => h.template.clone(),
        }),
        other => Value::String(format!("${{{other}}}")),
    }
}

/// The text of a name: its literal part when it is interpolated.
fn name_of(at: &At<'_>) -> Result<String, ImportError> {
    let text = at.str()?;
    literal_name(text).ok_or_else(|| at.invalid(format!("`{text}` has no literal text")))
}

fn capacity(at: &At<'_>, notes: &mut Vec<String>, table: &str) -> Result<u64, ImportError> {
    match at.value() {
        Value::String(s) => {
            notes.push(format!(
                "table {table}: {} is `{s}`, not a number; 1 assumed",
                at.path().rsplit('.').next().unwrap_or("a capacity")
            ));
            Ok(1)
        }
        _ => at.u64(),
    }
}

fn projection(at: &At<'_>) -> Result<Projection, ImportError> {
    projection_of(
        &at.require("projection_type")?,
        at.get("non_key_attributes"),
    )
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
];

fn read_table(label: &str, at: &At<'_>, notes: &mut Vec<String>) -> Result<Table, ImportError> {
    let name = match at.get("name") {
        Some(name) => name_of(&name)?,
        None => label.to_string(),
    };
    let definitions = match at.get("attribute") {
        Some(list) => attribute_definitions(&list, "name", "type")?,
        None => Vec::new(),
    };
    let key = |key_at: &At<'_>| -> Result<KeyAttribute, ImportError> {
        let name = key_at.str()?;
        match definitions.iter().find(|(n, _)| n == name) {
            Some((_, ty)) => Ok(KeyAttribute::new(name, *ty)),
            None => Err(key_at.invalid(format!("`{name}` has no `attribute` block"))),
        }
    };
    let partition_key = key(&at.require("hash_key")?)?;
    let sort_key = at.get("range_key").map(|k| key(&k)).transpose()?;
    let mut table = Table::new(name, partition_key, sort_key);
    if let Some(list) = at.get("global_secondary_index") {
        for index in list.array()? {
            let mut partition = Vec::new();
            let mut sort = Vec::new();
            if let Some(schema) = index.get("key_schema") {
                for element in schema.array()? {
                    let attribute = key(&element.require("attribute_name")?)?;
                    let kind = element.require("key_type")?;
                    match kind.str()? {
                        "HASH" => partition.push(attribute),
                        "RANGE" => sort.push(attribute),
                        other => {
                            return Err(
                                kind.invalid(format!("key_type `{other}`: expected HASH or RANGE"))
                            );
                        }
                    }
                }
            } else {
                partition.push(key(&index.require("hash_key")?)?);
                if let Some(range) = index.get("range_key") {
                    sort.push(key(&range)?);
                }
            }
            table.gsis.push(Gsi {
                name: index.require("name")?.str()?.to_string(),
                partition_key: partition,
                sort_key: sort,
                projection: projection(&index)?,
            });
        }
    }
    if let Some(list) = at.get("local_secondary_index") {
        for index in list.array()? {
            table.lsis.push(Lsi {
                name: index.require("name")?.str()?.to_string(),
                sort_key: key(&index.require("range_key")?)?,
                projection: projection(&index)?,
            });
        }
    }
    // The provider's default billing mode is PROVISIONED.
    let mode = at
        .get("billing_mode")
        .map(|m| m.str().map(str::to_string))
        .transpose()?;
    table.billing = match mode.as_deref() {
        Some("PAY_PER_REQUEST") => Billing::OnDemand,
        Some("PROVISIONED") | None => Billing::Provisioned {
            read: match at.get("read_capacity") {
                Some(c) => capacity(&c, notes, &table.name)?,
                None => 1,
            },
            write: match at.get("write_capacity") {
                Some(c) => capacity(&c, notes, &table.name)?,
                None => 1,
            },
        },
        Some(other) => {
            return Err(at.require("billing_mode")?.invalid(format!(
                "`{other}`: expected PAY_PER_REQUEST or PROVISIONED"
            )));
        }
    };
    if let Some(ttl) = at
        .get("ttl")
        .and_then(|t| t.array().ok())
        .and_then(|t| t.into_iter().next())
    {
        table.ttl_attribute = enabled_ttl(&ttl, "enabled", "attribute_name", false)?;
    }
    if at
        .get("stream_enabled")
        .is_some_and(|s| s.bool().unwrap_or(false))
    {
        let view = at.get("stream_view_type");
        note_stream(&table.name, view.as_ref().and_then(|v| v.str().ok()), notes);
    }
    note_not_kept(&table.name, at, KEPT, notes)?;
    Ok(table)
}
