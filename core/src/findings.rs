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

use std::collections::{HashMap, HashSet};

use crate::analysis::Statements;
use crate::answer::{Finding, Fix, Operation, Place, Severity, Verdict};
use crate::coverage::shape;
use crate::coverage::{Member, Prepared, PreparedIndex, PreparedTable};
use crate::limits;
use crate::model::{Action, AttrType, Design, Entity, IndexKind, KeyType, Projection, Table};
use crate::template::KeyTemplate;

mod capacity;
mod collisions;
mod filters;
mod guidance;
mod hidden;
mod measured;
mod partiql;
mod throttling;
mod vectors;

pub use filters::FilterRead;
pub(crate) use guidance::served_after;
pub(crate) use hidden::first_hidden_character;
pub use measured::{Measured, measure, measures_anything};

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
    let elsewhere = Elsewhere {
        measured,
        statements,
    };
    // Two halves of about the same work at 10,000 entities (the patterns' checks, the hot
    // partitions), at the same time with core's `parallel`, their findings in this order.
    let (first, second) = CHECKS.split_at(FIRST_HALF);
    let (mut first, second) = crate::par::join(
        || run_checks(first, prepared, verdicts, &elsewhere),
        || run_checks(second, prepared, verdicts, &elsewhere),
    );
    first.0.extend(second.0);
    first.0
}

/// What the checks take from work done elsewhere (the browser app's worker), or here: what
/// was measured on the sample, and the reads given as PartiQL statements judged by a build with
/// the parser.
struct Elsewhere<'a> {
    measured: &'a Measured,
    statements: Option<&'a Statements>,
}

/// One of the checks [`findings_of`] runs.
type Check = fn(&Prepared<'_>, &[Verdict], &Elsewhere<'_>, &mut Findings);

/// Every check, in the order of their findings.
const CHECKS: [Check; 13] = [
    |prepared, _, _, out| names(prepared.design, out),
    |prepared, _, _, out| hidden::hidden_characters(prepared.design, out),
    |prepared, _, _, out| {
        for (t, table) in prepared.tables.iter().enumerate() {
            tables(table.table, out);
            collisions::collisions(prepared, t, out);
        }
    },
    |prepared, _, _, out| {
        for (e, entity) in prepared.design.entities.iter().enumerate() {
            let table = prepared.homes[e].map(|(t, _)| &prepared.tables[t]);
            entity_keys(entity, &prepared.design.entities, table, out);
        }
    },
    |prepared, verdicts, _, out| patterns(prepared, verdicts, out),
    |prepared, _, elsewhere, out| {
        capacity::hot_partitions(prepared.design, &elsewhere.measured.partitions, out)
    },
    |prepared, verdicts, elsewhere, out| {
        filters::discarding(prepared, verdicts, &elsewhere.measured.filter_reads, out)
    },
    |prepared, _, elsewhere, out| {
        capacity::item_collections(prepared.design, &elsewhere.measured.item_bytes, out)
    },
    |prepared, verdicts, elsewhere, out| {
        let mut stated = match elsewhere.statements {
            Some(statements) => guidance::StatedReads::Judged(statements),
            None => guidance::StatedReads::Here,
        };
        guidance::multi_attribute_keys(prepared, verdicts, &mut stated, out)
    },
    |prepared, _, _, out| guidance::tenant_in_gsi_partitions(prepared, out),
    |prepared, _, elsewhere, out| {
        throttling::throttled(prepared.design, &elsewhere.measured.throttles, out)
    },
    |prepared, verdicts, _, out| vectors::vector_indexes(prepared.design, verdicts, out),
    |prepared, _, elsewhere, out| partiql::statements(prepared, elsewhere.statements, out),
];

/// [`CHECKS`] up to the patterns' own: the first of the halves [`findings_of`] runs at once.
const FIRST_HALF: usize = 5;

/// The findings of `checks`, run one after the other.
fn run_checks(
    checks: &[Check],
    prepared: &Prepared<'_>,
    verdicts: &[Verdict],
    elsewhere: &Elsewhere<'_>,
) -> Findings {
    let mut out = Findings(Vec::new());
    for check in checks {
        check(prepared, verdicts, elsewhere, &mut out);
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

/// KP016 and KP017: naming rules and duplicates.
fn names(design: &Design, out: &mut Findings) {
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
    let mut seen = HashSet::with_capacity(design.entities.len());
    for entity in &design.entities {
        let path = || Place::Entity(entity.name.clone());
        if entity.name.trim().is_empty() {
            out.push(
                "KP016",
                Severity::Error,
                path(),
                "an entity has no name".into(),
            );
        }
        if !seen.insert(entity.name.as_str()) {
            out.push(
                "KP017",
                Severity::Error,
                path(),
                format!("two entities are named `{}`", entity.name),
            );
        }
        let mut attrs = HashSet::with_capacity(entity.attributes.len());
        for a in &entity.attributes {
            if !attrs.insert(a.name.as_str()) {
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

/// KP005, KP012, KP013, KP018, KP019, KP022, KP023, KP028: the patterns and what they use.
fn patterns(prepared: &Prepared<'_>, verdicts: &[Verdict], out: &mut Findings) {
    let design = prepared.design;
    let mut used_indexes: HashSet<(&str, Option<&str>)> = HashSet::new();
    let mut read_entities: HashSet<&str> = HashSet::with_capacity(design.entities.len());
    for (pattern, verdict) in design.patterns.iter().zip(verdicts) {
        let path = || Place::Pattern(pattern.name.clone());
        let named: Vec<&str> = match pattern.action {
            Action::Transact => pattern.writes.iter().map(|w| w.entity.as_str()).collect(),
            _ => pattern.entities.iter().map(String::as_str).collect(),
        };
        let mut known = Vec::new();
        for name in named {
            match prepared.entity_by_name.get(name) {
                Some(&e) => known.push(prepared.entity(e)),
                None => out.push(
                    "KP018",
                    Severity::Error,
                    path(),
                    format!("`{}` names unknown entity `{name}`", pattern.name),
                ),
            }
        }
        if pattern.is_read() {
            read_entities.extend(pattern.entities.iter().map(String::as_str));
            if let (Some(table), true) = (&verdict.table, verdict.covered) {
                used_indexes.insert((table.as_str(), verdict.index.as_deref()));
            }
            for unknown in crate::coverage::unknown_attributes(pattern, &known) {
                out.push_fix(
                    "KP019",
                    Severity::Error,
                    path(),
                    format!("`{}`: {unknown}", pattern.name),
                    unknown.closest.map(|to| Fix::RenamePatternAttribute {
                        pattern: pattern.name.clone(),
                        from: unknown.name.to_string(),
                        to: to.to_string(),
                    }),
                );
            }
            let contradictions = crate::coverage::contradictions(pattern);
            for contradiction in &contradictions {
                out.push(
                    "KP023",
                    Severity::Error,
                    path(),
                    format!("`{}` contradicts itself: {contradiction}", pattern.name),
                );
            }
            if contradictions.is_empty() {
                unordered(prepared, pattern, verdict, &path, out);
            }
            skipped_types(prepared, pattern, verdict, &path, out);
        }
        if pattern.action == Action::Transact {
            let items: u64 = pattern.writes.iter().map(|w| u64::from(w.count)).sum();
            if items > limits::MAX_TRANSACT_ITEMS as u64 {
                out.push(
                    "KP022",
                    Severity::Error,
                    path(),
                    format!(
                        "`{}` writes {items} items in one transaction; DynamoDB allows {}",
                        pattern.name,
                        limits::MAX_TRANSACT_ITEMS
                    ),
                );
            }
        }
    }
    for table in &prepared.tables {
        for index in table.indexes.iter().skip(1) {
            let name = index.keys.name;
            if !used_indexes.contains(&(table.table.name.as_str(), name)) {
                out.push(
                    "KP012",
                    Severity::Warning,
                    index_path(table.table, index.keys.kind, name),
                    format!(
                        "no read pattern uses {} of `{}`: it costs writes and storage for nothing; drop it or add the pattern it is for",
                        name.unwrap_or_default(),
                        table.table.name
                    ),
                );
            }
        }
    }
    for entity in &design.entities {
        if !read_entities.contains(entity.name.as_str()) {
            out.push(
                "KP013",
                Severity::Info,
                Place::Entity(entity.name.clone()),
                format!(
                    "no read pattern reads {}: add the patterns that read it, so coverage can check them",
                    entity.name
                ),
            );
        }
    }
}

/// KP028: a covered read that asks an order (`order: desc`, `order_by`) its operation cannot
/// give: a GetItem (one item), or a Query on an index without a sort key, or with its whole
/// sort key bound by the inputs, whose items share one sort-key value (issue 16). No
/// suggestion goes with it: the pattern, not the design, has to say which order it means.
fn unordered(
    prepared: &Prepared<'_>,
    pattern: &crate::model::AccessPattern,
    verdict: &Verdict,
    path: &dyn Fn() -> Place,
    out: &mut Findings,
) {
    let asks = pattern.order_by.is_some() || pattern.order == crate::model::Order::Desc;
    if !asks || !verdict.covered || verdict.order.is_some() {
        return;
    }
    let asked = match &pattern.order_by {
        Some(by) => format!("its results ordered by `{by}`"),
        None => "its results in descending order".to_string(),
    };
    let Some(index) = prepared
        .tables
        .iter()
        .find(|t| verdict.table.as_deref() == Some(t.table.name.as_str()))
        .and_then(|t| {
            t.indexes
                .iter()
                .find(|i| i.keys.name == verdict.index.as_deref())
        })
    else {
        return;
    };
    let label = crate::coverage::index_label(&index.keys);
    let why = match (verdict.operation, index.keys.sort_key) {
        (Operation::GetItem, _) => {
            "it reads one item (a GetItem on its full primary key), and one item has no order; drop the order, or the input that names the item".to_string()
        }
        (_, []) => format!(
            "{label}, which serves it, has no sort key, so its Query returns a partition's items in no order; give {label} a sort key on the attribute to order by, or drop the order"
        ),
        (_, keys) => {
            let names: Vec<String> = keys.iter().map(|k| format!("`{}`", k.name)).collect();
            format!(
                "its inputs bind all of {label}'s sort key ({}), so the items it returns share one sort-key value and come back in no order; drop the order, or the input that binds the last sort-key attribute",
                names.join(", ")
            )
        }
    };
    out.push(
        "KP028",
        Severity::Error,
        path(),
        format!("`{}` asks {asked}, but {why}", pattern.name),
    );
}

/// KP005: the chosen Query's sort condition also matches another entity type in the partition.
fn skipped_types(
    prepared: &Prepared<'_>,
    pattern: &crate::model::AccessPattern,
    verdict: &Verdict,
    path: &dyn Fn() -> Place,
    out: &mut Findings,
) {
    if verdict.operation != Operation::Query {
        return;
    }
    let (Some(table), Some(query)) = (&verdict.table, &verdict.query) else {
        return;
    };
    let Some(table) = prepared.tables.iter().find(|t| &t.table.name == table) else {
        return;
    };
    let Some(index) = table
        .indexes
        .iter()
        .find(|i| i.keys.name == verdict.index.as_deref())
    else {
        return;
    };
    let returned: Vec<usize> = pattern
        .entities
        .iter()
        .filter_map(|n| prepared.entity_by_name.get(n.as_str()).copied())
        .collect();
    let sort_attr = query.sort_condition.as_ref().map(|c| c.attribute.as_str());
    let prefix = query.sort_condition.as_ref().and_then(|c| c.values.first());
    // The Query's partition is normally the first returned entity's: then the members that
    // can share it are known already.
    let peers = returned.first().and_then(|&e| {
        let position = prepared.member_position(index, e)?;
        let mine = &index.members[position].partition;
        let same = mine.len() == query.partition.len()
            && mine
                .iter()
                .zip(&query.partition)
                .all(|(a, b)| a.source() == b.template.source());
        same.then(|| index.partition_peers(position))
    });
    let candidates: Box<dyn Iterator<Item = &Member<'_>>> = match peers {
        Some(peers) => Box::new(peers.iter().map(|&m| &index.members[m])),
        None => Box::new(index.members.iter()),
    };
    let mut seen = HashMap::new();
    for m in candidates {
        if returned.contains(&m.entity) {
            continue;
        }
        let other = prepared.entity(m.entity);
        let same_partition = peers.is_some()
            || m.partition
                .iter()
                .zip(&query.partition)
                .all(|(a, b)| shape::can_equal(a.parts(), b.template.parts()));
        let same_equal = query.sort_equal.iter().all(|k| {
            index
                .keys
                .sort_key
                .iter()
                .position(|s| s.name == k.attribute)
                .is_some_and(|j| shape::can_equal(m.sort[j].parts(), k.template.parts()))
        });
        if !same_partition || !same_equal {
            continue;
        }
        let their_sort = sort_attr.and_then(|a| {
            index
                .keys
                .sort_key
                .iter()
                .position(|s| s.name == a)
                .map(|j| &m.sort[j])
        });
        let matches = match (prefix, their_sort) {
            (Some(p), Some(t)) => {
                let literal_prefix: Vec<_> = p
                    .parts()
                    .iter()
                    .take_while(|part| match part {
                        crate::template::Part::Var(v) => pattern.inputs.contains(&v.name),
                        crate::template::Part::Literal(_) => true,
                    })
                    .cloned()
                    .collect();
                shape::can_begin_with(t.parts(), &literal_prefix)
            }
            _ => true,
        };
        if matches && seen.insert(other.name.as_str(), ()).is_none() {
            let condition = match (prefix, their_sort) {
                (Some(p), Some(t)) => format!("`{p}` also matches {}'s `{t}`", other.name),
                _ => shared_prefix(prepared, pattern, index, m).unwrap_or_else(|| {
                    format!(
                        "nothing in the key condition tells {} items apart",
                        other.name
                    )
                }),
            };
            out.push(
                "KP005",
                Severity::Warning,
                path(),
                format!(
                    "`{}` reads {} but its Query also returns {} items: {condition}; give each type its own sort-key prefix, or skip {} by type",
                    pattern.name,
                    pattern.entities.join(", "),
                    other.name,
                    other.name
                ),
            );
        }
    }
}

/// For a Query with no sort condition: the returned entity's sort template and the other's,
/// and the prefix they share (`ORDER#{orderId}` and `ORDER#{orderId}#ITEM#{itemId}`).
fn shared_prefix(
    prepared: &Prepared<'_>,
    pattern: &crate::model::AccessPattern,
    index: &PreparedIndex<'_>,
    other: &Member<'_>,
) -> Option<String> {
    let name = pattern.entities.first()?;
    let &e = prepared.entity_by_name.get(name.as_str())?;
    let mine = prepared.member(index, e)?;
    let (a, b) = (mine.sort.last()?, other.sort.last()?);
    let bound =
        |t: &KeyTemplate| shape::bound_prefix(t, |v| pattern.inputs.iter().any(|i| i == v)).parts;
    let common = shape::common_prefix(&bound(a), &bound(b));
    let shared = if common.is_empty() {
        String::new()
    } else {
        format!(" share the prefix `{}`", KeyTemplate::from_parts(&common))
    };
    let verb = if shared.is_empty() {
        " both fit the key condition"
    } else {
        ""
    };
    Some(format!(
        "{name}'s `{a}` and {}'s `{b}`{shared}{verb}",
        prepared.entity(other.entity).name
    ))
}

#[cfg(test)]
mod tests;
