//! Findings: what is wrong or risky in a design, each with a stable code, a severity and a path.
//!
//! Codes never change meaning once released (CI allow-lists name them): a new check gets a new
//! code. Every finding names the place in the design it is about (`entities/Order/keys/PK`), so
//! the app can point at it. Checks read the design and the verdicts; they never fail and never
//! panic on a half-edited design.
//!
//! | code  | severity | what |
//! |-------|----------|------|
//! | KP001 | error    | a key template does not parse (its diagnostics) |
//! | KP002 | error    | a template variable that is not an attribute of the entity (fix: add it) |
//! | KP003 | error    | a key template for a key attribute no index of the table has |
//! | KP004 | error    | two entities whose primary keys can render equal |
//! | KP005 | warning  | a pattern's Query also returns another entity type (sort prefix too short) |
//! | KP006 | warning  | more than 3 GSIs on a table (write cost of each) |
//! | KP007 | warning  | more than 20 GSIs on a table (the default quota) |
//! | KP008 | error    | more than 5 LSIs on a table |
//! | KP009 | error    | an LSI on a table without a sort key |
//! | KP010 | error    | more than 100 INCLUDE attributes over a table's indexes |
//! | KP011 | error    | a multi-attribute GSI key with more than 4 attributes |
//! | KP012 | warning  | an index no read pattern uses |
//! | KP013 | info     | an entity no read pattern reads |
//! | KP014 | warning  | a low-cardinality partition key under more traffic than a partition serves |
//! | KP015 | warning  | a key that can exceed 2048 (partition) or 1024 (sort) bytes |
//! | KP016 | error    | a name that breaks DynamoDB's naming rules |
//! | KP017 | error    | two things of one kind with the same name |
//! | KP018 | error    | a reference to an unknown table or entity |
//! | KP019 | error    | a pattern's input, sort or order attribute no returned entity has (fix: the closest name) |
//! | KP020 | error    | a key template whose value cannot have the key attribute's type |
//! | KP021 | warning  | a number inside a string sort key sorts as text (`10` before `2`) |
//! | KP022 | error    | a transaction over DynamoDB's 100 items |
//! | KP023 | error    | a read pattern that contradicts itself (its sort or order attribute is also an input) |
//! | KP024 | warning  | on the sample, a read's filter discards more than 90% of what it reads (the index that would not) |
//! | KP025 | info     | a GSI key that joins attributes into one string (fix: a multi-attribute key) |
//! | KP026 | warning  | in a multi-tenant table, a GSI whose partition key lacks the tenant |
//! | KP028 | error    | a read pattern that asks an order its index cannot give (no sort key, or one item) |
//! | KP029 | error    | an item collection over 10 GB in a table with an LSI, from the entities' volumes (warning past half) |
//! | KP030 | error    | a name or key template holding a line break, control character or direction mark (issue 41) |
//! | KP031 | warning  | a provisioned table or GSI given less capacity than the patterns' peak (auto scaling's maximum when it scales; issue 40) |
//! | KP041 | error    | a vector index's dimensions outside 1 to 4,096 (issue 40) |
//! | KP042 | error    | a vector attribute an entity declares other than a list (L) of numbers |
//! | KP043 | error    | a vector index on a key attribute |
//! | KP044 | error    | a vector index on a provisioned table (vector indexes are on-demand only) |
//! | KP045 | error    | two vector indexes on one attribute with different dimensions |
//! | KP033 | error    | a read's PartiQL statement keyplan cannot map onto a pattern: why, in which clause, at which line and column (issue 40) |

use std::collections::HashSet;

use crate::answer::{Finding, Fix, Place, Severity, Verdict};
use crate::coverage::stated::Statements;
use crate::coverage::{Prepared, PreparedIndex, PreparedTable};
use crate::limits;
use crate::model::{AttrType, Design, Entity, IndexKind, KeyType, Projection, Table};
use crate::template::KeyTemplate;

mod capacity;
mod collisions;
mod filters;
mod guidance;
mod hidden;
mod measured;
mod partiql;
mod patterns;
mod throttling;
mod units;
mod vectors;

pub use filters::FilterRead;
pub(crate) use guidance::served_after;
pub(crate) use hidden::first_hidden_character;
pub use measured::{Measured, measure, measures_anything};
pub(crate) use units::{PatternFindings, Reused, Units};

/// Every finding for `design`, in design order.
pub fn findings(design: &Design, verdicts: &[Verdict]) -> Vec<Finding> {
    findings_of(
        &Prepared::new(design),
        verdicts,
        &measure(design, verdicts),
        None,
    )
}

/// [`findings`] of an already prepared design (the one coverage used), KP024, KP014 and
/// KP029 judged on what was `measured` on the sample (nothing measured: no KP024 nor KP014, and
/// KP029 only where a volume gives the item size), and KP033 and KP025's offers on the
/// `statements` judged by a build with the PartiQL parser, if given (`analysis::statements`).
pub(crate) fn findings_of(
    prepared: &Prepared<'_>,
    verdicts: &[Verdict],
    measured: &Measured,
    statements: Option<&Statements>,
) -> Vec<Finding> {
    findings_kept(prepared, verdicts, measured, statements, Reused::default()).0
}

/// [`findings_of`], the entities' and patterns' own findings taken from `reused` where it has
/// them; and those of every entity and pattern, to reuse next time.
pub(crate) fn findings_kept(
    prepared: &Prepared<'_>,
    verdicts: &[Verdict],
    measured: &Measured,
    statements: Option<&Statements>,
    reused: Reused,
) -> (Vec<Finding>, Units) {
    let elsewhere = Elsewhere {
        measured,
        statements,
    };
    // Two halves of about the same work at 10,000 entities (the patterns' checks, the hot
    // partitions), at the same time with core's `parallel`, their findings in this order.
    let (first, second) = CHECKS.split_at(FIRST_HALF);
    let ((mut first, units), second) = crate::par::join(
        || {
            let units = Units::new(prepared, verdicts, reused);
            let found = run_checks(first, prepared, verdicts, &elsewhere, &units);
            (found, units)
        },
        || run_checks(second, prepared, verdicts, &elsewhere, &Units::default()),
    );
    first.0.extend(second.0);
    (first.0, units)
}

/// What the checks take from work done elsewhere (the browser app's worker), or here: what
/// was measured on the sample, and the reads given as PartiQL statements judged by a build with
/// the parser.
struct Elsewhere<'a> {
    measured: &'a Measured,
    statements: Option<&'a Statements>,
}

/// One of the checks [`findings_of`] runs, given the entities' and patterns' own findings.
type Check = fn(&Prepared<'_>, &[Verdict], &Elsewhere<'_>, &Units, &mut Findings);

/// Every check, in the order of their findings.
const CHECKS: [Check; 13] = [
    |prepared, _, _, _, out| names(prepared, out),
    |prepared, _, _, units, out| {
        hidden::in_tables(prepared.design, out);
        units.hidden(out);
    },
    |prepared, _, _, _, out| {
        for (t, table) in prepared.tables.iter().enumerate() {
            tables(table.table, out);
            collisions::collisions(prepared, t, out);
        }
    },
    |_, _, _, units, out| units.keys(out),
    |prepared, verdicts, _, units, out| {
        units.patterns(out);
        patterns::unused(prepared, verdicts, out);
    },
    |prepared, _, elsewhere, _, out| {
        capacity::hot_partitions(prepared.design, &elsewhere.measured.partitions, out)
    },
    |prepared, verdicts, elsewhere, _, out| {
        filters::discarding(prepared, verdicts, &elsewhere.measured.filter_reads, out)
    },
    |prepared, _, elsewhere, _, out| {
        capacity::item_collections(prepared.design, &elsewhere.measured.item_bytes, out)
    },
    |prepared, verdicts, elsewhere, _, out| {
        let mut stated = match elsewhere.statements {
            Some(statements) => guidance::StatedReads::Judged(statements),
            None => guidance::StatedReads::Here,
        };
        guidance::multi_attribute_keys(prepared, verdicts, &mut stated, out)
    },
    |prepared, _, _, _, out| guidance::tenant_in_gsi_partitions(prepared, out),
    |prepared, _, elsewhere, _, out| {
        throttling::throttled(prepared.design, &elsewhere.measured.throttles, out)
    },
    |prepared, verdicts, _, _, out| vectors::vector_indexes(prepared.design, verdicts, out),
    |prepared, _, elsewhere, _, out| partiql::statements(prepared, elsewhere.statements, out),
];

/// [`CHECKS`] up to the patterns' own: the first of the halves [`findings_of`] runs at once,
/// the only one that reads the [`Units`].
const FIRST_HALF: usize = 5;

/// The findings of `checks`, run one after the other.
fn run_checks(
    checks: &[Check],
    prepared: &Prepared<'_>,
    verdicts: &[Verdict],
    elsewhere: &Elsewhere<'_>,
    units: &Units,
) -> Findings {
    let mut out = Findings(Vec::new());
    for check in checks {
        check(prepared, verdicts, elsewhere, units, &mut out);
    }
    out
}

struct Findings(Vec<Finding>);

impl Findings {
    fn push(&mut self, code: &'static str, severity: Severity, place: Place, message: String) {
        self.push_fix(code, severity, place, message, None);
    }

    /// Like [`Findings::push`], with a quick fix.
    fn push_fix(
        &mut self,
        code: &'static str,
        severity: Severity,
        place: Place,
        message: String,
        fix: Option<Fix>,
    ) {
        // A message quotes names, which may hold what a terminal acts on (`\x1b[2J`) or a line
        // break: shown by name instead (issue 41).
        let message = if crate::text::first_hidden(&message).is_some() {
            crate::text::visible(&message)
        } else {
            message
        };
        self.0.push(Finding {
            code,
            severity,
            message,
            place,
            fix,
        });
    }
}

fn table_path(table: &Table) -> Place {
    Place::Table(table.name.clone())
}

fn index_path(table: &Table, kind: IndexKind, name: Option<&str>) -> Place {
    match (kind, name) {
        (IndexKind::Gsi, Some(n)) => Place::gsi(&table.name, n),
        (IndexKind::Lsi, Some(n)) => Place::lsi(&table.name, n),
        _ => table_path(table),
    }
}

/// Up to how many attributes an entity's are compared pair by pair for duplicates.
const FEW_ATTRIBUTES: usize = 16;

/// KP016 and KP017: naming rules and duplicates.
fn names(prepared: &Prepared<'_>, out: &mut Findings) {
    let design = prepared.design;
    let entity_by_name = &prepared.entity_by_name;
    let mut seen = HashSet::new();
    for table in &design.tables {
        if !seen.insert(table.name.as_str()) {
            out.push(
                "KP017",
                Severity::Error,
                table_path(table),
                format!("two tables are named `{}`", table.name),
            );
        }
        if !limits::is_valid_table_name(&table.name) {
            out.push(
                "KP016",
                Severity::Error,
                table_path(table),
                format!(
                    "table name `{}` breaks DynamoDB's rule: 3 to 255 characters of a-z A-Z 0-9 _ - .",
                    table.name
                ),
            );
        }
        let mut index_names = HashSet::new();
        for index in table.indexes().iter().skip(1) {
            let name = index.name.unwrap_or_default();
            let path = || index_path(table, index.kind, index.name);
            if !index_names.insert(name) {
                out.push(
                    "KP017",
                    Severity::Error,
                    path(),
                    format!("two indexes of `{}` are named `{name}`", table.name),
                );
            }
            if !limits::is_valid_table_name(name) {
                out.push(
                    "KP016",
                    Severity::Error,
                    path(),
                    format!(
                        "index name `{name}` breaks DynamoDB's rule: 3 to 255 characters of a-z A-Z 0-9 _ - ."
                    ),
                );
            }
        }
        for key in table.key_attributes() {
            if !limits::KEY_ATTRIBUTE_NAME_BYTES.contains(&key.name.len()) {
                out.push(
                    "KP016",
                    Severity::Error,
                    table_path(table),
                    format!(
                        "key attribute name `{}` must be 1 to 255 bytes, not {}",
                        key.name,
                        key.name.len()
                    ),
                );
            }
        }
    }
    for (e, entity) in design.entities.iter().enumerate() {
        let path = || Place::Entity(entity.name.clone());
        if entity.name.trim().is_empty() {
            out.push(
                "KP016",
                Severity::Error,
                path(),
                "an entity has no name".into(),
            );
        }
        // The first entity of each name is looked up already: a later one is a duplicate.
        if entity_by_name.get(entity.name.as_str()) != Some(&e) {
            out.push(
                "KP017",
                Severity::Error,
                path(),
                format!("two entities are named `{}`", entity.name),
            );
        }
        // An entity's few attributes are compared with each other, without hashing: a set of
        // each entity's attributes was most of this check's time on a keystroke (100 entities).
        let few = entity.attributes.len() <= FEW_ATTRIBUTES;
        let mut attrs = HashSet::with_capacity(if few { 0 } else { entity.attributes.len() });
        for (at, a) in entity.attributes.iter().enumerate() {
            let repeated = if few {
                entity.attributes[..at].iter().any(|b| b.name == a.name)
            } else {
                !attrs.insert(a.name.as_str())
            };
            if repeated {
                out.push(
                    "KP017",
                    Severity::Error,
                    Place::Attribute {
                        entity: entity.name.clone(),
                        attribute: a.name.clone(),
                    },
                    format!("{} has two attributes named `{}`", entity.name, a.name),
                );
            }
        }
        if design.table(&entity.table).is_none() {
            out.push(
                "KP018",
                Severity::Error,
                Place::EntityTable(entity.name.clone()),
                format!("{} lives in unknown table `{}`", entity.name, entity.table),
            );
        }
    }
    let mut seen = HashSet::with_capacity(design.patterns.len());
    for pattern in &design.patterns {
        let path = || Place::Pattern(pattern.name.clone());
        if pattern.name.trim().is_empty() {
            out.push(
                "KP016",
                Severity::Error,
                path(),
                "a pattern has no name".into(),
            );
        }
        if !seen.insert(pattern.name.as_str()) {
            out.push(
                "KP017",
                Severity::Error,
                path(),
                format!("two patterns are named `{}`", pattern.name),
            );
        }
    }
}

/// KP006 to KP011: index counts and shapes.
fn tables(table: &Table, out: &mut Findings) {
    let path = || table_path(table);
    let n_gsis = table.gsis.len();
    if n_gsis > limits::MAX_GSIS {
        out.push(
            "KP007",
            Severity::Warning,
            path(),
            format!(
                "`{}` has {n_gsis} GSIs, over the default quota of {}: request a quota increase before deploying",
                table.name,
                limits::MAX_GSIS
            ),
        );
    } else if n_gsis > limits::RECOMMENDED_MAX_GSIS {
        out.push(
            "KP006",
            Severity::Warning,
            path(),
            format!(
                "`{}` has {n_gsis} GSIs: each one adds a write, storage and replication lag to every item it holds; consider overloading one GSI for several patterns",
                table.name
            ),
        );
    }
    if table.lsis.len() > limits::MAX_LSIS {
        out.push(
            "KP008",
            Severity::Error,
            path(),
            format!(
                "`{}` has {} LSIs; DynamoDB allows {}",
                table.name,
                table.lsis.len(),
                limits::MAX_LSIS
            ),
        );
    }
    if table.sort_key.is_none() {
        for lsi in &table.lsis {
            out.push(
                "KP009",
                Severity::Error,
                Place::lsi(&table.name, &lsi.name),
                format!(
                    "LSI `{}` needs a table with a sort key, and `{}` has none",
                    lsi.name, table.name
                ),
            );
        }
    }
    let projected: usize = table
        .gsis
        .iter()
        .map(|g| &g.projection)
        .chain(table.lsis.iter().map(|l| &l.projection))
        .map(|p| match p {
            Projection::Include { attributes } => attributes.len(),
            _ => 0,
        })
        .sum();
    if projected > limits::MAX_PROJECTED_ATTRIBUTES {
        out.push(
            "KP010",
            Severity::Error,
            path(),
            format!(
                "the indexes of `{}` project {projected} INCLUDE attributes in all; DynamoDB allows {}",
                table.name,
                limits::MAX_PROJECTED_ATTRIBUTES
            ),
        );
    }
    for gsi in &table.gsis {
        for (which, keys) in [("partition", &gsi.partition_key), ("sort", &gsi.sort_key)] {
            if keys.len() > limits::MAX_GSI_KEY_ATTRIBUTES {
                out.push(
                    "KP011",
                    Severity::Error,
                    Place::gsi(&table.name, &gsi.name),
                    format!(
                        "GSI `{}` has {} {which} key attributes; a multi-attribute key takes at most {}",
                        gsi.name,
                        keys.len(),
                        limits::MAX_GSI_KEY_ATTRIBUTES
                    ),
                );
            }
        }
        if gsi.partition_key.is_empty() {
            out.push(
                "KP011",
                Severity::Error,
                Place::gsi(&table.name, &gsi.name),
                format!("GSI `{}` has no partition key", gsi.name),
            );
        }
    }
}

/// KP001, KP002, KP003, KP015, KP020, KP021: each key template of an entity (of `entities`).
fn entity_keys(
    entity: &Entity,
    entities: &[Entity],
    table: Option<&PreparedTable<'_>>,
    out: &mut Findings,
) {
    for (key, template) in &entity.keys {
        let path = || Place::key(&entity.name, key);
        for d in template.diagnostics() {
            out.push(
                "KP001",
                Severity::Error,
                path(),
                format!(
                    "{}.{key} `{template}` at {}..{}: {}",
                    entity.name, d.span.start, d.span.end, d.message
                ),
            );
        }
        let mut missing: Vec<&str> = Vec::new();
        for var in template.attribute_vars() {
            if entity.attribute(&var.name).is_none() && !missing.contains(&var.name.as_str()) {
                missing.push(&var.name);
            }
        }
        for name in missing {
            // A template that is one variable filling a number key wants a number.
            let ty = match table.and_then(|t| key_role(&t.indexes, key)) {
                Some((KeyType::N, _, _)) => AttrType::N,
                Some((KeyType::B, _, _)) => AttrType::B,
                _ => AttrType::S,
            };
            out.push_fix(
                "KP002",
                Severity::Error,
                path(),
                format!(
                    "`{{{name}}}` in {}.{key} is not an attribute of {}",
                    entity.name, entity.name
                ),
                Some(Fix::AddAttribute {
                    entity: entity.name.clone(),
                    attribute: name.to_string(),
                    ty,
                    replaces: entity
                        .starting_id_renamed(entities, name)
                        .map(str::to_string),
                }),
            );
        }
        let Some(table) = table else { continue };
        let Some((ty, is_sort, is_partition)) = key_role(&table.indexes, key) else {
            out.push(
                "KP003",
                Severity::Error,
                path(),
                format!(
                    "`{key}` is not a key attribute of `{}` or its indexes: the template is never used",
                    table.table.name
                ),
            );
            continue;
        };
        key_type(entity, key, template, ty, &path, out);
        if ty == KeyType::S {
            if is_sort {
                numbers_in_string_sort_key(entity, key, template, &path, out);
            }
            key_length(entity, key, template, is_partition, &path, out);
        }
    }
}

/// The key attribute's type, and whether it is a sort key and a partition key anywhere.
fn key_role(indexes: &[PreparedIndex<'_>], key: &str) -> Option<(KeyType, bool, bool)> {
    let mut found = None;
    for index in indexes.iter().map(|i| &i.keys) {
        for (k, sort) in index
            .partition_key
            .iter()
            .map(|k| (k, false))
            .chain(index.sort_key.iter().map(|k| (k, true)))
        {
            if k.name == key {
                let (_, s, p) = found.unwrap_or((k.ty, false, false));
                found = Some((k.ty, s || sort, p || !sort));
            }
        }
    }
    found
}

/// KP020: an N or B key must be filled by exactly one attribute of that type.
fn key_type(
    entity: &Entity,
    key: &str,
    template: &KeyTemplate,
    ty: KeyType,
    path: &dyn Fn() -> Place,
    out: &mut Findings,
) {
    if ty == KeyType::S {
        return;
    }
    let single = match template.parts() {
        [crate::template::Part::Var(v)] if v.shards.is_none() => Some(v),
        _ => None,
    };
    let problem = match single {
        None => Some(format!(
            "`{template}` renders text, but `{key}` is of type {ty:?}: an {ty:?} key takes one {ty:?} attribute, as in `{{amount}}`"
        )),
        Some(v) => match entity.attribute(&v.name).map(|a| a.ty.as_key_type()) {
            Some(Some(t)) if t != ty => Some(format!(
                "`{}` is of type {t:?}, but `{key}` is of type {ty:?}",
                v.name
            )),
            Some(None) => Some(format!(
                "`{}` cannot be a key: only S, N and B attributes can",
                v.name
            )),
            _ => None,
        },
    };
    if let Some(message) = problem {
        out.push(
            "KP020",
            Severity::Error,
            path(),
            format!("{}.{key}: {message}", entity.name),
        );
    }
}

/// KP021: a number in a string sort key sorts as text.
fn numbers_in_string_sort_key(
    entity: &Entity,
    key: &str,
    template: &KeyTemplate,
    path: &dyn Fn() -> Place,
    out: &mut Findings,
) {
    for var in template.attribute_vars() {
        if entity
            .attribute(&var.name)
            .is_some_and(|a| a.ty == AttrType::N)
        {
            out.push(
                "KP021",
                Severity::Warning,
                path(),
                format!(
                    "{}.{key} `{template}` puts the number `{}` in a string sort key, where it sorts as text (`10` before `2`): zero-pad it to a fixed width when writing (`{}` as `0002`)",
                    entity.name, var.name, var.name
                ),
            );
        }
    }
}

/// KP015: a key longer than DynamoDB allows, with a generous bound per attribute kind.
fn key_length(
    entity: &Entity,
    key: &str,
    template: &KeyTemplate,
    is_partition: bool,
    path: &dyn Fn() -> Place,
    out: &mut Findings,
) {
    let limit = if is_partition {
        limits::MAX_PARTITION_KEY_BYTES
    } else {
        limits::MAX_SORT_KEY_BYTES
    };
    let mut free_text = Vec::new();
    let mut bytes = 0;
    for part in template.parts() {
        match part {
            crate::template::Part::Literal(s) => bytes += s.len(),
            crate::template::Part::Var(v) => {
                let (n, free) = max_value_bytes(entity, &v.name, v.shards);
                bytes += n;
                if free {
                    free_text.push(format!("`{}`", v.name));
                }
            }
        }
    }
    if bytes > limit {
        out.push(
            "KP015",
            Severity::Warning,
            path(),
            format!(
                "{}.{key} `{template}` can reach about {bytes} bytes, over DynamoDB's {limit}-byte {} key limit{}: bound or hash the long values",
                entity.name,
                if is_partition { "partition" } else { "sort" },
                if free_text.is_empty() {
                    String::new()
                } else {
                    format!(" ({} free text)", free_text.join(", "))
                }
            ),
        );
    }
}

/// The most bytes a variable's value plausibly takes, and whether it is unbounded free text.
/// Ids, dates and enums are short; a number has at most 38 digits; other text is counted at
/// the sort-key limit, since nothing bounds it.
fn max_value_bytes(entity: &Entity, name: &str, shards: Option<u32>) -> (usize, bool) {
    if let Some(n) = shards {
        return (n.to_string().len(), false);
    }
    let Some(a) = entity.attribute(name) else {
        return (0, false);
    };
    if !a.values.is_empty() {
        return (a.values.iter().map(String::len).max().unwrap_or(0), false);
    }
    let lower = name.to_ascii_lowercase();
    match a.ty {
        AttrType::N => (40, false),
        AttrType::S
            if lower.ends_with("id")
                || lower.ends_with("at")
                || lower.contains("date")
                || lower.contains("time")
                || lower.contains("day")
                || lower.ends_with("code")
                || lower.ends_with("key") =>
        {
            (64, false)
        }
        AttrType::S if lower.contains("email") => (254, false),
        _ => (limits::MAX_SORT_KEY_BYTES, true),
    }
}

#[cfg(test)]
mod tests;

/// The naming check's own (tests.rs is full).
#[cfg(test)]
mod names_tests;
