//! KP025 and KP026: DynamoDB's current guidance on GSI keys (issue 16).
//!
//! - KP025 (info): a GSI key that items fill by joining attributes into one string
//!   (`{status}#{createdAt}`). Since November 2025 a GSI's partition key and its sort key may
//!   each be up to four attributes, of their own types: numbers sort as numbers, nothing is
//!   zero-padded, and DynamoDB indexes the attributes items already have, so there is no
//!   synthetic key to write or backfill. The finding carries the edit
//!   ([`Fix::UseMultiAttributeKey`]) when it changes nothing else: every member fills the key
//!   with the same template, no other entity would join the index, and every pattern the GSI
//!   serves is still served after it.
//! - KP026 (warning): in a multi-tenant table (a tenant attribute, named as one, in the
//!   partition key of most of its entities), a GSI whose partition key lacks the tenant: one
//!   Query on it can return items of several tenants.
//!
//! Nothing here changes the design; the edit is tried on a copy. Whether a read given as a
//! PartiQL statement is still served after it takes the parser: a build without it (the app's
//! main thread) takes that from the statements a build with it judged
//! (`coverage::stated::ServedAfter`, the app's worker's answer).

use std::borrow::Cow;

use super::Findings;
use crate::answer::{Fix, Place, Severity, Verdict};
use crate::coverage::stated::{ServedAfter, Statements};
use crate::coverage::{Member, Prepared, PreparedIndex};
use crate::limits;
use crate::model::{Design, KeyAttribute, KeyType};
use crate::template::KeyTemplate;

/// How [`still_served`] judges the reads given as statements that a GSI serves.
pub(crate) enum StatedReads<'a> {
    /// As this build judges them (by their structured fields, without the parser).
    Here,
    /// As a build with the parser judged them, where it did.
    Judged(&'a Statements),
    /// As this build judges them, each answer recorded (the parser's build, for the other).
    Record(Vec<ServedAfter>),
}

/// KP025 for every GSI of every table.
pub(super) fn multi_attribute_keys(
    prepared: &Prepared<'_>,
    verdicts: &[Verdict],
    stated: &mut StatedReads<'_>,
    out: &mut Findings,
) {
    for (t, table) in prepared.tables.iter().enumerate() {
        for index in table.indexes.iter().skip(1) {
            if index.keys.kind != crate::model::IndexKind::Gsi {
                continue;
            }
            if let Some(finding) = concatenated_key(prepared, verdicts, t, index, stated) {
                out.push_fix(
                    "KP025",
                    Severity::Info,
                    finding.place,
                    finding.message,
                    finding.fix,
                );
            }
        }
    }
}

struct Offer {
    place: Place,
    message: String,
    fix: Option<Fix>,
}

/// The GSI's first key template that joins two or more attributes, and the offer.
fn concatenated_key(
    prepared: &Prepared<'_>,
    verdicts: &[Verdict],
    t: usize,
    index: &PreparedIndex<'_>,
    stated: &mut StatedReads<'_>,
) -> Option<Offer> {
    let table = &prepared.tables[t];
    let gsi = index.keys.name?;
    let roles = [
        ("partition", index.keys.partition_key),
        ("sort", index.keys.sort_key),
    ];
    // (member, role, position in the key) of the first template that joins attributes.
    let (member, role, at) = index.members.iter().find_map(|m| {
        (0..2).find_map(|role| {
            role_templates(m, role)
                .iter()
                .position(|t| joins_attributes(t))
                .map(|at| (m, role, at))
        })
    })?;
    let entity = prepared.entity(member.entity);
    let key = &roles[role].1[at];
    let template = &role_templates(member, role)[at];
    let n_vars = template.attribute_vars().count();
    let names: Vec<&str> = template.attribute_vars().map(|v| v.name.as_str()).collect();
    let mut message = format!(
        "{gsi} of `{}`: {}.{} `{template}` joins {n_vars} attributes into one string; a multi-attribute {} key ({}) keeps each attribute's own type (numbers sort as numbers, nothing is zero-padded) and DynamoDB indexes the attributes the items already have: no key to write, no backfill",
        table.table.name,
        entity.name,
        key.name,
        roles[role].0,
        names.join(", "),
    );
    let fix = match offer(prepared, verdicts, t, index, stated) {
        Ok(fix) => Some(fix),
        Err(why) => {
            message.push_str(&format!(" (no edit offered: {why})"));
            None
        }
    };
    Some(Offer {
        place: Place::gsi(&table.table.name, gsi),
        message,
        fix,
    })
}

/// A member's templates for the partition key (`role` 0) or the sort key (1).
fn role_templates<'m>(member: &'m Member<'_>, role: usize) -> &'m [Cow<'m, KeyTemplate>] {
    if role == 0 {
        &member.partition
    } else {
        &member.sort
    }
}

/// A template that joins two or more attributes (with no shard, which no attribute holds).
fn joins_attributes(template: &KeyTemplate) -> bool {
    template.shard().is_none() && template.attribute_vars().nth(1).is_some()
}

/// The multi-attribute keys that replace the GSI's joined keys, when they change nothing but
/// the keys; otherwise why not.
fn offer(
    prepared: &Prepared<'_>,
    verdicts: &[Verdict],
    t: usize,
    index: &PreparedIndex<'_>,
    stated: &mut StatedReads<'_>,
) -> Result<Fix, String> {
    let table = &prepared.tables[t];
    let gsi = index.keys.name.unwrap_or_default();
    let mut new_keys: [Vec<KeyAttribute>; 2] = [Vec::new(), Vec::new()];
    let roles = [index.keys.partition_key, index.keys.sort_key];
    for (role, keys) in roles.iter().enumerate() {
        let [key] = keys else {
            // Already a multi-attribute key: it joins nothing itself.
            continue;
        };
        let of = |m| -> &KeyTemplate { &role_templates(m, role)[0] };
        let first = of(&index.members[0]);
        let joined = index.members.iter().any(|m| joins_attributes(of(m)));
        if !joined {
            continue;
        }
        if let Some(other) = index
            .members
            .iter()
            .find(|m| of(m).source() != first.source())
        {
            return Err(format!(
                "{} and {} fill {} differently (`{first}` and `{}`), so the key also tells them apart",
                prepared.entity(index.members[0].entity).name,
                prepared.entity(other.entity).name,
                key.name,
                of(other)
            ));
        }
        let vars: Vec<&str> = first.attribute_vars().map(|v| v.name.as_str()).collect();
        if vars.len() > limits::MAX_GSI_KEY_ATTRIBUTES {
            return Err(format!(
                "`{first}` joins {} attributes, and a multi-attribute key takes at most {}",
                vars.len(),
                limits::MAX_GSI_KEY_ATTRIBUTES
            ));
        }
        for (i, name) in vars.iter().enumerate() {
            if vars[..i].contains(name) {
                return Err(format!("`{first}` uses `{name}` twice"));
            }
            if *name == key.name {
                return Err(format!(
                    "`{name}` names both the key attribute and one of the attributes it joins"
                ));
            }
            let ty = attribute_key_type(prepared, index, name)?;
            if let Some(existing) = table.table.key_attribute(name)
                && existing.ty != ty
            {
                return Err(format!(
                    "`{name}` is already a key attribute of `{}` of type {:?}",
                    table.table.name, existing.ty
                ));
            }
            new_keys[role].push(KeyAttribute::new(*name, ty));
        }
    }
    let [partition, sort] = new_keys;
    let fix = Fix::UseMultiAttributeKey {
        table: table.table.name.clone(),
        gsi: gsi.to_string(),
        partition,
        sort,
    };
    // Worked out on the table's entities and the GSI's patterns, not on a copy of the whole
    // design: a copy and its preparation per GSI made the analysis five times slower with
    // 20 GSIs offered (issue 16, `cargo bench --bench analysis`).
    same_members(prepared, t, index, &fix)?;
    still_served(prepared, verdicts, t, gsi, &fix, stated)?;
    Ok(fix)
}

/// The key type every member gives attribute `name`: the one type all of them have it as.
fn attribute_key_type(
    prepared: &Prepared<'_>,
    index: &PreparedIndex<'_>,
    name: &str,
) -> Result<KeyType, String> {
    let mut found: Option<KeyType> = None;
    for m in &index.members {
        let entity = prepared.entity(m.entity);
        if entity.keys.contains_key(name) {
            return Err(format!(
                "{} already has a key template named `{name}`",
                entity.name
            ));
        }
        let Some(attribute) = entity.attribute(name) else {
            return Err(format!("`{name}` is not an attribute of {}", entity.name));
        };
        let Some(ty) = attribute.ty.as_key_type() else {
            return Err(format!(
                "{}.{name} is of type {}, and a key attribute is S, N or B",
                entity.name,
                attribute.ty.as_str()
            ));
        };
        match found {
            Some(other) if other != ty => {
                return Err(format!(
                    "the members give `{name}` different types ({other:?} and {ty:?})"
                ));
            }
            _ => found = Some(ty),
        }
    }
    found.ok_or_else(|| "the index has no members".to_string())
}

/// No entity joins or leaves the index: with keys on natural attributes, every item that has
/// them is in the index, where before only the entities with templates were. (The edit only
/// removes templates of the replaced key attributes, which the new keys do not name.)
fn same_members(
    prepared: &Prepared<'_>,
    t: usize,
    index: &PreparedIndex<'_>,
    fix: &Fix,
) -> Result<(), String> {
    let Fix::UseMultiAttributeKey {
        gsi,
        partition,
        sort,
        ..
    } = fix
    else {
        return Ok(());
    };
    let pick = |new: &'_ [KeyAttribute], old: &'_ [KeyAttribute]| -> Vec<String> {
        let keys = if new.is_empty() { old } else { new };
        keys.iter().map(|k| k.name.clone()).collect()
    };
    let mut keys = pick(partition, index.keys.partition_key);
    keys.extend(pick(sort, index.keys.sort_key));
    for (i, entity) in prepared.design.entities.iter().enumerate() {
        if prepared.homes[i].map(|(home, _)| home) != Some(t) {
            continue;
        }
        let member = keys.iter().all(|k| entity.fills(k));
        let was = prepared.member_position(index, i).is_some();
        if member && !was {
            return Err(format!(
                "{} has those attributes too, and would join {gsi}",
                entity.name
            ));
        }
        if was && !member {
            return Err(format!("{} would leave {gsi}", entity.name));
        }
    }
    Ok(())
}

/// Every read pattern the GSI served before is served (not a Scan) after the edit. A read's
/// verdict depends on its table's indexes and the entities it returns (the others in a
/// partition change its key condition, never whether an index serves it), so the patterns
/// are judged on a design of the table and those entities alone, with the edit applied.
fn still_served(
    prepared: &Prepared<'_>,
    verdicts: &[Verdict],
    t: usize,
    gsi: &str,
    fix: &Fix,
    stated: &mut StatedReads<'_>,
) -> Result<(), String> {
    let design = prepared.design;
    let table = prepared.tables[t].table;
    let served: Vec<&crate::model::AccessPattern> = design
        .patterns
        .iter()
        .zip(verdicts)
        .filter(|(p, v)| {
            p.is_read()
                && v.covered
                && v.table.as_deref() == Some(table.name.as_str())
                && v.index.as_deref() == Some(gsi)
        })
        .map(|(p, _)| p)
        .collect();
    if served.is_empty() {
        return Ok(());
    }
    let states = served.iter().any(|p| p.statement().is_some());
    if let (true, StatedReads::Judged(statements)) = (states, &*stated)
        && !crate::partiql::READS_PARTIQL
        && let Some(after) = statements.served_after(&table.name, gsi)
    {
        return after.refused.clone().map_or(Ok(()), Err);
    }
    let served_after = served_after_edit(design, table, gsi, served, fix);
    if let (true, StatedReads::Record(record)) = (states, stated) {
        record.push(ServedAfter {
            table: table.name.clone(),
            gsi: gsi.to_string(),
            refused: served_after.clone().err(),
        });
    }
    served_after
}

/// [`still_served`] judged here: the `served` patterns on a design of `table` and the
/// entities they return, `fix` applied.
fn served_after_edit(
    design: &Design,
    table: &crate::model::Table,
    gsi: &str,
    served: Vec<&crate::model::AccessPattern>,
    fix: &Fix,
) -> Result<(), String> {
    let mut small = Design::new(design.name.clone());
    small.tables.push(table.clone());
    small.entities = design
        .entities_in(&table.name)
        .filter(|e| served.iter().any(|p| p.entities.contains(&e.name)))
        .cloned()
        .collect();
    small.patterns = served.into_iter().cloned().collect();
    let edit = fix
        .edit(&small)
        .ok_or_else(|| "the GSI cannot take the edit".to_string())?;
    crate::edit::apply(&mut small, edit).map_err(|e| e.to_string())?;
    let after = Prepared::new(&small);
    for pattern in &small.patterns {
        let verdict = crate::coverage::verdict_of(&after, pattern);
        if !verdict.covered {
            let prefix = format!("{gsi}: ");
            let why = verdict
                .reasons
                .iter()
                .find_map(|r| r.strip_prefix(&prefix))
                .or(verdict.reasons.first().map(String::as_str))
                .unwrap_or_default()
                .to_string();
            return Err(format!(
                "`{}` would need a Scan after it ({gsi} would not serve it: {why})",
                pattern.name
            ));
        }
    }
    Ok(())
}

/// An attribute named as a tenant: `tenantId`, `tenant_id`, `orgId`, `organizationId`,
/// `workspaceId`. The name decides, not the structure alone: in most single-table designs
/// some parent's id (`customerId`) is in most partition keys without being a tenant.
fn is_tenant_name(name: &str) -> bool {
    let plain: String = name
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .collect::<String>()
        .to_ascii_lowercase();
    plain.contains("tenant")
        || matches!(
            plain.as_str(),
            "org"
                | "orgid"
                | "organization"
                | "organizationid"
                | "organisation"
                | "organisationid"
                | "workspace"
                | "workspaceid"
        )
}

/// KP026: in a table where most entities (at least two, more than half) keep a tenant
/// attribute in their partition key, each GSI whose partition key lacks it for a member that
/// has the attribute. The tenant's own records (an entity whose identity is the tenant, such
/// as `Tenant` itself) are left out: reading them across tenants is what they are for.
pub(super) fn tenant_in_gsi_partitions(prepared: &Prepared<'_>, out: &mut Findings) {
    for table in &prepared.tables {
        let Some(primary) = table.indexes.first() else {
            continue;
        };
        let mut counts: Vec<(&str, usize)> = Vec::new();
        for m in &primary.members {
            let mut seen: Vec<&str> = Vec::new();
            for var in m.partition.iter().flat_map(|t| t.attribute_vars()) {
                if is_tenant_name(&var.name) && !seen.contains(&var.name.as_str()) {
                    seen.push(&var.name);
                    match counts.iter_mut().find(|(n, _)| *n == var.name) {
                        Some((_, count)) => *count += 1,
                        None => counts.push((&var.name, 1)),
                    }
                }
            }
        }
        let Some(&(tenant, count)) = counts
            .iter()
            .reduce(|best, c| if c.1 > best.1 { c } else { best })
        else {
            continue;
        };
        let n_entities = primary.members.len();
        if count < 2 || count * 2 <= n_entities {
            continue;
        }
        for index in table.indexes.iter().skip(1) {
            if index.keys.kind != crate::model::IndexKind::Gsi {
                continue;
            }
            let leaking: Vec<String> = index
                .members
                .iter()
                .filter(|m| {
                    let entity = prepared.entity(m.entity);
                    entity.attribute(tenant).is_some()
                        && entity.identity(table.table).as_deref() != Some(tenant)
                        && !m
                            .partition
                            .iter()
                            .any(|t| t.attribute_vars().any(|v| v.name == tenant))
                })
                .map(|m| {
                    let keys: Vec<String> = m.partition.iter().map(|t| format!("`{t}`")).collect();
                    format!("{} at {}", prepared.entity(m.entity).name, keys.join(" / "))
                })
                .collect();
            if leaking.is_empty() {
                continue;
            }
            let gsi = index.keys.name.unwrap_or_default();
            out.push(
                "KP026",
                Severity::Warning,
                Place::gsi(&table.table.name, gsi),
                format!(
                    "{gsi} of `{}`: its partition key does not hold `{tenant}`, which {count} of the table's {n_entities} entities keep in theirs, so one Query on {gsi} can return items of several tenants ({}); put `{{{tenant}}}` in its partition key, or check the tenant of every item it returns",
                    table.table.name,
                    leaking.join("; ")
                ),
            );
        }
    }
}

/// What [`still_served`] answers for each GSI a KP025 edit is tried on that serves a read given
/// as a statement, judged here: what [`StatedReads::Judged`] takes in a build without the parser.
pub(crate) fn served_after(prepared: &Prepared<'_>, verdicts: &[Verdict]) -> Vec<ServedAfter> {
    let mut stated = StatedReads::Record(Vec::new());
    let mut out = Findings(Vec::new());
    multi_attribute_keys(prepared, verdicts, &mut stated, &mut out);
    match stated {
        StatedReads::Record(record) => record,
        _ => Vec::new(),
    }
}
