//! What changed between two designs: tables, indexes, entities, key templates, attributes and
//! patterns, and every pattern whose verdict changed (issue 18).
//!
//! The comparison is by name: a renamed entity is one removed and one added. Within a table,
//! an entity or a pattern, each field that differs is one [`Change`] with its value before and
//! after, read from the design file's own JSON form, so a field added to the model later is
//! compared without a line here. A verdict that gets worse for a pattern both designs have (a
//! GetItem or Query that becomes a Scan, a covered read that is no longer covered) is a
//! regression: `keyplan diff` exits 1 on one, so a pull request can be stopped by it.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use serde::Serialize;
use serde_json::Value;

use crate::analysis::{Operation, Verdict, verdicts};
use crate::counts::plural;
use crate::model::{Design, Entity, Gsi, Lsi, VectorIndex};

/// The differences between two designs, grouped by table, then the patterns, then the
/// verdicts that changed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DesignDiff {
    /// One per table either design has that changed (its own fields, its indexes, the
    /// entities stored in it), in the new design's order, then the removed ones.
    pub tables: Vec<TableDiff>,
    /// Patterns added, removed or changed.
    pub patterns: Vec<Difference>,
    /// Every pattern both designs have whose verdict changed, and those only one has.
    pub verdicts: Vec<VerdictChange>,
}

/// What changed in one table and in the entities stored in it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TableDiff {
    pub table: String,
    /// The table itself (added, removed, or its keys, billing and TTL).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub changes: Vec<Difference>,
    /// Its GSIs and LSIs.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub indexes: Vec<Difference>,
    /// The entities stored in it: the entity, its key templates, its attributes.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub entities: Vec<Difference>,
}

/// One thing added, removed or changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Difference {
    /// What it is about.
    pub subject: Subject,
    pub change: Change,
}

/// What a [`Difference`] is about, by name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Subject {
    Table { table: String },
    Index { table: String, index: String },
    Entity { entity: String },
    KeyTemplate { entity: String, attribute: String },
    Attribute { entity: String, attribute: String },
    Pattern { pattern: String },
}

/// How it changed. Values are in words: a string as itself, a key attribute as `PK (S)`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "change", rename_all = "snake_case")]
pub enum Change {
    Added {
        value: String,
    },
    Removed {
        value: String,
    },
    /// `field` is empty when the whole value changed (a key template).
    Changed {
        field: String,
        before: String,
        after: String,
    },
}

/// A pattern whose verdict is not what it was.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VerdictChange {
    pub pattern: String,
    /// `None` when the old design has no such pattern.
    pub before: Option<Resolution>,
    /// `None` when the new design has no such pattern.
    pub after: Option<Resolution>,
    /// The pattern is in both designs and is served worse: it needs a Scan, or is no longer
    /// covered.
    pub regression: bool,
}

/// How a pattern is served, in the words `keyplan check` uses.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Resolution {
    pub operation: &'static str,
    /// `None` for the table itself, and for Scans and writes.
    pub index: Option<String>,
    pub key_condition: Option<String>,
    pub covered: bool,
}

impl Resolution {
    /// How `v` serves its pattern.
    pub fn of(v: &Verdict) -> Resolution {
        Resolution {
            operation: v.operation.as_str(),
            index: v.index.clone(),
            key_condition: v.key_condition.as_ref().map(|k| k.expression.clone()),
            covered: v.covered,
        }
    }

    /// `Query on GSI1 (GSI1PK = :pk)`, `GetItem (PK = :pk AND SK = :sk)`, `Scan, not covered`.
    pub fn words(&self) -> String {
        let mut out = self.operation.to_string();
        if let Some(index) = &self.index {
            let _ = write!(out, " on {index}");
        }
        if let Some(condition) = &self.key_condition {
            let _ = write!(out, " ({condition})");
        }
        if !self.covered {
            out.push_str(", not covered");
        }
        out
    }
}

impl DesignDiff {
    /// The patterns served worse than before.
    pub fn regressions(&self) -> impl Iterator<Item = &VerdictChange> {
        self.verdicts.iter().filter(|v| v.regression)
    }

    /// Whether the designs are the same in everything compared.
    pub fn is_empty(&self) -> bool {
        self.tables.is_empty() && self.patterns.is_empty() && self.verdicts.is_empty()
    }

    /// Plain text, one line per difference, for a terminal.
    pub fn text(&self) -> String {
        if self.is_empty() {
            return "No differences.\n".to_string();
        }
        let mut out = String::new();
        for table in &self.tables {
            let _ = writeln!(out, "Table {}", table.table);
            for d in table
                .changes
                .iter()
                .chain(&table.indexes)
                .chain(&table.entities)
            {
                let _ = writeln!(out, "  {}", d.line());
            }
        }
        if !self.patterns.is_empty() {
            out.push_str("Patterns\n");
            for d in &self.patterns {
                let _ = writeln!(out, "  {}", d.line());
            }
        }
        if !self.verdicts.is_empty() {
            out.push_str("Verdicts\n");
            for v in &self.verdicts {
                let _ = writeln!(out, "  {}", v.line());
            }
        }
        let _ = writeln!(out, "{}", self.summary());
        out
    }

    /// Markdown for a pull request comment: a summary line, then one table per section.
    pub fn markdown(&self) -> String {
        let mut out = String::from("## Design changes\n\n");
        let _ = writeln!(out, "{}\n", self.summary());
        if self.is_empty() {
            return out;
        }
        for table in &self.tables {
            let _ = writeln!(out, "### Table `{}`\n", table.table);
            out.push_str("| | What | Change |\n|---|---|---|\n");
            for d in table
                .changes
                .iter()
                .chain(&table.indexes)
                .chain(&table.entities)
            {
                out.push_str(&d.row());
            }
            out.push('\n');
        }
        if !self.patterns.is_empty() {
            out.push_str("### Patterns\n\n| | Pattern | Change |\n|---|---|---|\n");
            for d in &self.patterns {
                out.push_str(&d.row());
            }
            out.push('\n');
        }
        if !self.verdicts.is_empty() {
            out.push_str("### Verdicts\n\n| | Pattern | Before | After |\n|---|---|---|---|\n");
            for v in &self.verdicts {
                let words =
                    |r: &Option<Resolution>| r.as_ref().map_or("-".to_string(), Resolution::words);
                let _ = writeln!(
                    out,
                    "| {} | {} | {} | {} |",
                    if v.regression { "**regression**" } else { "" },
                    cell(&v.pattern),
                    cell(&words(&v.before)),
                    cell(&words(&v.after))
                );
            }
            out.push('\n');
        }
        out
    }

    /// `3 changes in 1 table, 1 pattern; 2 verdicts changed, 1 regression`.
    pub fn summary(&self) -> String {
        if self.is_empty() {
            return "No differences.".to_string();
        }
        let changes: usize = self
            .tables
            .iter()
            .map(|t| t.changes.len() + t.indexes.len() + t.entities.len())
            .sum::<usize>()
            + self.patterns.len();
        let regressions = self.regressions().count();
        format!(
            "{}; {} changed, {}.",
            plural(changes, "change"),
            plural(self.verdicts.len(), "verdict"),
            plural(regressions, "regression"),
        )
    }
}

/// A Markdown table cell: pipes escaped, code in backticks kept.
fn cell(text: &str) -> String {
    text.replace('|', "\\|")
}

impl Difference {
    /// A Markdown table row: sign, subject, change.
    fn row(&self) -> String {
        format!(
            "| {} | {} | {} |\n",
            self.change.sign(),
            cell(&self.subject.words()),
            cell(&self.change.words())
        )
    }

    /// `+ index GSI1: added (...)`, as `keyplan diff` prints it.
    pub fn line(&self) -> String {
        format!(
            "{} {}: {}",
            self.change.sign(),
            self.subject.words(),
            self.change.words()
        )
    }
}

impl VerdictChange {
    /// `~ Get order by ID: Scan -> Query on GSI4 (...)`, as `keyplan diff` prints it.
    pub fn line(&self) -> String {
        let mark = if self.regression { "!" } else { "~" };
        let tail = if self.regression {
            "  (regression)"
        } else {
            ""
        };
        match (&self.before, &self.after) {
            (Some(b), Some(a)) => format!(
                "{mark} {}: {} -> {}{tail}",
                self.pattern,
                b.words(),
                a.words()
            ),
            (None, Some(a)) => format!("+ {}: {}", self.pattern, a.words()),
            (Some(b), None) => format!("- {}: was {}", self.pattern, b.words()),
            (None, None) => format!("~ {}", self.pattern),
        }
    }
}

impl Subject {
    fn words(&self) -> String {
        match self {
            Subject::Table { table } => format!("table {table}"),
            Subject::Index { index, .. } => format!("index {index}"),
            Subject::Entity { entity } => format!("entity {entity}"),
            Subject::KeyTemplate { entity, attribute } => format!("{entity} key {attribute}"),
            Subject::Attribute { entity, attribute } => format!("{entity}.{attribute}"),
            Subject::Pattern { pattern } => format!("pattern {pattern}"),
        }
    }
}

impl Change {
    fn sign(&self) -> &'static str {
        match self {
            Change::Added { .. } => "+",
            Change::Removed { .. } => "-",
            Change::Changed { .. } => "~",
        }
    }

    fn words(&self) -> String {
        match self {
            Change::Added { value } => format!("added ({value})"),
            Change::Removed { value } => format!("removed ({value})"),
            Change::Changed {
                field,
                before,
                after,
            } if field.is_empty() => format!("{before} -> {after}"),
            Change::Changed {
                field,
                before,
                after,
            } => format!("{field} {before} -> {after}"),
        }
    }
}

/// Compares two designs.
pub fn diff(old: &Design, new: &Design) -> DesignDiff {
    let mut tables = Vec::new();
    for name in names(
        old.tables.iter().map(|t| &t.name),
        new.tables.iter().map(|t| &t.name),
    ) {
        let (before, after) = (old.table(&name), new.table(&name));
        let mut table = TableDiff {
            table: name.clone(),
            changes: Vec::new(),
            indexes: Vec::new(),
            entities: Vec::new(),
        };
        let subject = || Subject::Table {
            table: name.clone(),
        };
        compare(
            &mut table.changes,
            subject,
            before,
            after,
            &["name", "gsis", "lsis", "vector_indexes"],
        );
        let gsis = (before.map(|t| &t.gsis[..]), after.map(|t| &t.gsis[..]));
        indexes(&mut table.indexes, &name, gsis, |g: &Gsi| &g.name);
        let lsis = (before.map(|t| &t.lsis[..]), after.map(|t| &t.lsis[..]));
        indexes(&mut table.indexes, &name, lsis, |l: &Lsi| &l.name);
        let vectors = (
            before.map(|t| &t.vector_indexes[..]),
            after.map(|t| &t.vector_indexes[..]),
        );
        indexes(&mut table.indexes, &name, vectors, |v: &VectorIndex| {
            &v.name
        });
        let in_table = |d: &'_ Design| -> Vec<Entity> { d.entities_in(&name).cloned().collect() };
        let (old_entities, new_entities) = (in_table(old), in_table(new));
        for entity in names(
            old_entities.iter().map(|e| &e.name),
            new_entities.iter().map(|e| &e.name),
        ) {
            let find = |es: &[Entity]| es.iter().find(|e| e.name == entity).cloned();
            entity_changes(
                &mut table.entities,
                &entity,
                find(&old_entities).as_ref(),
                find(&new_entities).as_ref(),
            );
        }
        if !(table.changes.is_empty() && table.indexes.is_empty() && table.entities.is_empty()) {
            tables.push(table);
        }
    }

    let mut patterns = Vec::new();
    for name in names(
        old.patterns.iter().map(|p| &p.name),
        new.patterns.iter().map(|p| &p.name),
    ) {
        let subject = || Subject::Pattern {
            pattern: name.clone(),
        };
        compare(
            &mut patterns,
            subject,
            old.pattern(&name),
            new.pattern(&name),
            &["name"],
        );
    }

    DesignDiff {
        tables,
        patterns,
        verdicts: verdict_changes(old, new),
    }
}

/// A table's GSIs (or LSIs) before and after, each compared by name.
fn indexes<T: Serialize>(
    out: &mut Vec<Difference>,
    table: &str,
    (before, after): (Option<&[T]>, Option<&[T]>),
    name: impl Fn(&T) -> &String,
) {
    let (before, after) = (before.unwrap_or_default(), after.unwrap_or_default());
    for index in names(before.iter().map(&name), after.iter().map(&name)) {
        let find = |all: &[T]| -> Option<usize> { all.iter().position(|i| *name(i) == index) };
        let subject = || Subject::Index {
            table: table.to_string(),
            index: index.clone(),
        };
        let (b, a) = (
            find(before).map(|i| &before[i]),
            find(after).map(|i| &after[i]),
        );
        compare(out, subject, b, a, &["name"]);
    }
}

/// An entity's own fields, then its key templates and attributes, each compared by name.
fn entity_changes(
    out: &mut Vec<Difference>,
    entity: &str,
    before: Option<&Entity>,
    after: Option<&Entity>,
) {
    let subject = || Subject::Entity {
        entity: entity.to_string(),
    };
    if before.is_none() || after.is_none() {
        // Added or removed whole: one line, its keys in the value.
        compare(
            out,
            subject,
            before.map(entity_summary).as_ref(),
            after.map(entity_summary).as_ref(),
            &[],
        );
        return;
    }
    let (Some(before), Some(after)) = (before, after) else {
        return;
    };
    compare(
        out,
        subject,
        Some(before),
        Some(after),
        &["name", "attributes", "keys", "table"],
    );
    for key in names(before.keys.keys(), after.keys.keys()) {
        let subject = || Subject::KeyTemplate {
            entity: entity.to_string(),
            attribute: key.clone(),
        };
        let template = |e: &Entity| e.keys.get(&key).map(|t| t.to_string());
        compare(
            out,
            subject,
            template(before).as_ref(),
            template(after).as_ref(),
            &[],
        );
    }
    for attribute in names(
        before.attributes.iter().map(|a| &a.name),
        after.attributes.iter().map(|a| &a.name),
    ) {
        let subject = || Subject::Attribute {
            entity: entity.to_string(),
            attribute: attribute.clone(),
        };
        compare(
            out,
            subject,
            before.attribute(&attribute),
            after.attribute(&attribute),
            &["name"],
        );
    }
}

/// An entity in words for its addition or removal: `PK=CUSTOMER#{customerId}, SK=PROFILE`.
fn entity_summary(e: &Entity) -> String {
    if e.keys.is_empty() {
        return "no key templates".to_string();
    }
    let keys: Vec<String> = e.keys.iter().map(|(k, t)| format!("{k}={t}")).collect();
    keys.join(", ")
}

/// The verdicts of the patterns that changed, in the new design's order, then the removed.
fn verdict_changes(old: &Design, new: &Design) -> Vec<VerdictChange> {
    let (before, after) = (verdicts(old), verdicts(new));
    let find =
        |vs: &[Verdict], name: &str| vs.iter().find(|v| v.pattern == name).map(Resolution::of);
    let worse = |b: &Resolution, a: &Resolution| {
        (b.covered && !a.covered)
            || (a.operation == Operation::Scan.as_str() && b.operation != Operation::Scan.as_str())
    };
    names(
        before.iter().map(|v| &v.pattern),
        after.iter().map(|v| &v.pattern),
    )
    .into_iter()
    .filter_map(|name| {
        let (b, a) = (find(&before, &name), find(&after, &name));
        if b == a {
            return None;
        }
        let regression = matches!((&b, &a), (Some(b), Some(a)) if worse(b, a));
        Some(VerdictChange {
            pattern: name,
            before: b,
            after: a,
            regression,
        })
    })
    .collect()
}

/// Names in the new order, then those only the old has, each once.
fn names<'a>(
    old: impl Iterator<Item = &'a String>,
    new: impl Iterator<Item = &'a String>,
) -> Vec<String> {
    let mut seen = BTreeSet::new();
    let new: Vec<&String> = new.collect();
    let old: Vec<&String> = old.collect();
    new.into_iter()
        .chain(old)
        .filter(|n| seen.insert(n.as_str()))
        .cloned()
        .collect()
}

/// Adds what differs between `before` and `after`: one addition or removal when only one is
/// there, else one change per field of their JSON form (but those in `skip`).
fn compare<T: Serialize>(
    out: &mut Vec<Difference>,
    subject: impl Fn() -> Subject,
    before: Option<&T>,
    after: Option<&T>,
    skip: &[&str],
) {
    let json = |t: &T| serde_json::to_value(t).unwrap_or(Value::Null);
    match (before.map(json), after.map(json)) {
        (None, None) => {}
        (None, Some(a)) => out.push(Difference {
            subject: subject(),
            change: Change::Added {
                value: words(&without(a, skip)),
            },
        }),
        (Some(b), None) => out.push(Difference {
            subject: subject(),
            change: Change::Removed {
                value: words(&without(b, skip)),
            },
        }),
        (Some(Value::Object(b)), Some(Value::Object(a))) => {
            let fields: BTreeSet<&String> = b.keys().chain(a.keys()).collect();
            for field in fields.into_iter().filter(|f| !skip.contains(&f.as_str())) {
                let (fb, fa) = (b.get(field), a.get(field));
                if fb != fa {
                    out.push(Difference {
                        subject: subject(),
                        change: Change::Changed {
                            field: field.replace('_', " "),
                            before: fb.map_or("none".to_string(), words),
                            after: fa.map_or("none".to_string(), words),
                        },
                    });
                }
            }
        }
        (Some(b), Some(a)) if b != a => out.push(Difference {
            subject: subject(),
            change: Change::Changed {
                field: String::new(),
                before: words(&b),
                after: words(&a),
            },
        }),
        _ => {}
    }
}

fn without(value: Value, skip: &[&str]) -> Value {
    match value {
        Value::Object(mut map) => {
            map.retain(|k, _| !skip.contains(&k.as_str()));
            Value::Object(map)
        }
        other => other,
    }
}

/// A JSON value in words: strings as themselves, a key attribute as `PK (S)`, a list joined by
/// commas, an object as `name: value` pairs.
fn words(value: &Value) -> String {
    match value {
        Value::Null => "none".to_string(),
        Value::String(s) => s.clone(),
        Value::Bool(b) => if *b { "yes" } else { "no" }.to_string(),
        Value::Number(n) => n.to_string(),
        Value::Array(items) if items.is_empty() => "none".to_string(),
        Value::Array(items) => items.iter().map(words).collect::<Vec<_>>().join(", "),
        Value::Object(map) => {
            if let (Some(Value::String(name)), Some(Value::String(ty)), 2) =
                (map.get("name"), map.get("type"), map.len())
            {
                return format!("{name} ({ty})");
            }
            let parts: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("{}: {}", k.replace('_', " "), words(v)))
                .collect();
            format!("{{{}}}", parts.join(", "))
        }
    }
}

#[cfg(test)]
mod tests;
