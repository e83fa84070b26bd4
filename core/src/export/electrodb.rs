//! ElectroDB entities in TypeScript: an `Entity` per entity, with its attributes and an index
//! per table key and GSI it fills, each key written as ElectroDB's `template` with the
//! template's variables as `composite` attributes; and a `Service` per table.
//!
//! Keys keep their case (`casing: 'none'`): ElectroDB lowercases keys by default, which would
//! not match the design. A write-shard variable becomes a number attribute with a random
//! default, as the seed's `getShardedStatusKey` does. An index the entity does not fill
//! (sparse) is left out of that entity; a multi-attribute GSI key is left out with a comment.

use std::fmt::Write;

use crate::export::names::{self, Lang, Scope, ts_key, ts_str};
use crate::model::{AttrType, Design, Entity, IndexKind, KeyAttribute, Projection, Table};
use crate::template::{KeyTemplate, Part};

/// The template in the `${name}` syntax ElectroDB and OneTable share.
pub fn dollar_template(t: &KeyTemplate) -> String {
    t.parts()
        .iter()
        .map(|p| match p {
            Part::Literal(s) => s.clone(),
            Part::Var(v) => format!("${{{}}}", v.name),
        })
        .collect()
}

/// The entity's attributes plus any variable its key templates use that it does not declare
/// (a shard, or a typo the findings report): name, type, required, enum values, shard count.
pub struct ModelAttribute {
    pub name: String,
    pub ty: AttrType,
    pub required: bool,
    pub values: Vec<String>,
    pub shards: Option<u32>,
}

pub fn model_attributes(entity: &Entity) -> Vec<ModelAttribute> {
    let mut out: Vec<ModelAttribute> = entity
        .attributes
        .iter()
        .map(|a| ModelAttribute {
            name: a.name.clone(),
            ty: a.ty,
            required: a.required,
            values: a.values.clone(),
            shards: None,
        })
        .collect();
    for template in entity.keys.values() {
        for var in template.vars() {
            if !out.iter().any(|a| a.name == var.name) {
                out.push(ModelAttribute {
                    name: var.name.clone(),
                    ty: if var.shards.is_some() {
                        AttrType::N
                    } else {
                        AttrType::S
                    },
                    required: true,
                    values: Vec::new(),
                    shards: var.shards,
                });
            }
        }
    }
    out
}

fn attribute_type(a: &ModelAttribute) -> String {
    if !a.values.is_empty() && a.ty == AttrType::S {
        let values: Vec<String> = a.values.iter().map(|v| ts_str(v)).collect();
        return format!("[{}] as const", values.join(", "));
    }
    match a.ty {
        AttrType::S => "'string'",
        AttrType::N => "'number'",
        AttrType::Bool => "'boolean'",
        AttrType::SS => "'set', items: 'string'",
        AttrType::NS => "'set', items: 'number'",
        // A map and a list of what keyplan does not model: ElectroDB asks for their
        // properties and items, which are left open.
        AttrType::M => "'map', properties: {}",
        AttrType::L => "'list', items: { type: 'any' }",
        // ElectroDB has no binary type: the format's loss.
        AttrType::B | AttrType::Null | AttrType::BS => "'any'",
    }
    .to_string()
}

fn key(entity: &Entity, key: &KeyAttribute) -> Option<String> {
    let template = entity.key_template(&key.name)?;
    let composite: Vec<String> = template.vars().map(|v| ts_str(&v.name)).collect();
    let implicit = !entity.keys.contains_key(&key.name);
    if implicit {
        // The attribute is its own key: ElectroDB maps the field to the attribute.
        return Some(format!(
            "{{ field: {}, composite: [{}] }}",
            ts_str(&key.name),
            composite.join(", ")
        ));
    }
    Some(format!(
        "{{ field: {}, composite: [{}], template: {}, casing: 'none' }}",
        ts_str(&key.name),
        composite.join(", "),
        ts_str(&dollar_template(&template))
    ))
}

fn entity(out: &mut String, design: &Design, table: &Table, entity: &Entity, var: &str) {
    let service = names::camel(&design.name);
    let _ = writeln!(out, "export const {var} = new Entity(");
    out.push_str("  {\n");
    let _ = writeln!(
        out,
        "    model: {{ entity: {}, version: '1', service: {} }},",
        ts_str(&entity.name),
        ts_str(if service.is_empty() {
            "design"
        } else {
            &service
        })
    );
    out.push_str("    attributes: {\n");
    for a in model_attributes(entity) {
        let mut props = format!("type: {}", attribute_type(&a));
        if a.required {
            props.push_str(", required: true");
        }
        if let Some(n) = a.shards {
            let _ = write!(props, ", default: () => Math.floor(Math.random() * {n})");
        }
        let _ = writeln!(out, "      {}: {{ {props} }},", ts_key(&a.name));
    }
    out.push_str("    },\n    indexes: {\n");
    let mut index_names = Scope::with_taken(&["primary"]);
    for index in table.indexes() {
        let label = match (index.kind, index.name) {
            (IndexKind::Table, _) | (_, None) => "primary".to_string(),
            (_, Some(name)) => {
                index_names.unique(names::valid(&names::camel(name), Lang::TypeScript, "index"))
            }
        };
        if index.partition_key.len() > 1 || index.sort_key.len() > 1 {
            let _ = writeln!(
                out,
                "      // {}: a multi-attribute key, which ElectroDB does not model.",
                index.name.unwrap_or("table")
            );
            continue;
        }
        let Some(pk) = index.partition_key.first().and_then(|k| key(entity, k)) else {
            continue;
        };
        let sk = match index.sort_key.first() {
            Some(k) => match key(entity, k) {
                Some(sk) => Some(sk),
                None => continue,
            },
            None => None,
        };
        let _ = writeln!(out, "      {label}: {{");
        if let Some(name) = index.name {
            let _ = writeln!(out, "        index: {},", ts_str(name));
        }
        let _ = writeln!(out, "        pk: {pk},");
        if let Some(sk) = sk {
            let _ = writeln!(out, "        sk: {sk},");
        }
        // ElectroDB checks that a projection names the entity's own attributes: each entity
        // lists those of the index's it has (keys are always projected), keys-only when none.
        match index.projection {
            Projection::All => {}
            Projection::KeysOnly => out.push_str("        projection: 'keys_only',\n"),
            Projection::Include { attributes } => {
                let own: Vec<String> = attributes
                    .iter()
                    .filter(|a| entity.attributes.iter().any(|e| &&e.name == a))
                    .map(|a| ts_str(a))
                    .collect();
                match own.is_empty() {
                    true => out.push_str("        projection: 'keys_only',\n"),
                    false => {
                        let _ = writeln!(out, "        projection: [{}],", own.join(", "));
                    }
                }
            }
        }
        out.push_str("      },\n");
    }
    out.push_str("    },\n  },\n");
    let _ = writeln!(out, "  {{ client, table: {} }},\n);\n", table_const(table));
}

fn table_const(table: &Table) -> String {
    let env = names::screaming(&table.name);
    format!(
        "process.env.{}_TABLE ?? {}",
        if env.is_empty() {
            "DESIGN".to_string()
        } else {
            env
        },
        ts_str(&table.name)
    )
}

pub fn electrodb(design: &Design) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "// ElectroDB entities of {} (exported by keyplan).",
        names::one_line(&design.name)
    );
    out.push_str("import { DynamoDBClient } from '@aws-sdk/client-dynamodb';\n");
    out.push_str("import { Entity, Service } from 'electrodb';\n\n");
    out.push_str("export const client = new DynamoDBClient({});\n\n");
    let mut vars = Scope::with_taken(&["client", "Entity", "Service", "DynamoDBClient"]);
    for table in &design.tables {
        let mut members = Vec::new();
        for e in design.entities_in(&table.name) {
            let var = vars.unique(names::valid(
                &names::pascal(&e.name),
                Lang::TypeScript,
                "Entity",
            ));
            entity(&mut out, design, table, e, &var);
            members.push(var);
        }
        if !members.is_empty() {
            let service = vars.unique(names::valid(
                &format!("{}Service", names::camel(&table.name)),
                Lang::TypeScript,
                "service",
            ));
            let _ = writeln!(
                out,
                "export const {service} = new Service(\n  {{ {} }},\n  {{ client, table: {} }},\n);\n",
                members.join(", "),
                table_const(table)
            );
        }
    }
    out
}
