//! Access code: a function per access pattern, in TypeScript on `@aws-sdk/lib-dynamodb`,
//! Python on boto3 and Rust on aws-sdk-dynamodb, in the style of the seed article (typed
//! inputs, pagination by ExclusiveStartKey and LastEvaluatedKey, one TransactWriteItems for a
//! multi-item write, scatter-gather over write shards).
//!
//! Each pattern is first turned into a language-neutral [`Call`] from its coverage verdict and
//! the entities' key templates; the three renderers only spell it. Every expression uses
//! `#name` and `:value` placeholders, so attribute names that are DynamoDB reserved words
//! (`status`, `name`, `date`) need no care.

use std::collections::BTreeMap;
use std::fmt::Write;

use crate::analysis::{Operation, Verdict, verdicts};
use crate::export::electrodb::model_attributes;
use crate::export::names::{self, Lang, Scope, py_str, rs_str, ts_key, ts_str, ts_template_text};
use crate::model::{
    AccessPattern, Action, AttrType, ByName, Design, Entity, KeyType, SortOp, Table,
};
use crate::template::{KeyTemplate, Part};

/// A function input: an attribute the caller knows.
#[derive(Debug, Clone, PartialEq)]
struct Input {
    /// The attribute's name in the design.
    attr: String,
    ty: AttrType,
}

/// A key attribute and the template of its value.
#[derive(Debug, Clone)]
struct KeyValue {
    attr: String,
    ty: KeyType,
    template: KeyTemplate,
}

/// A placeholder in an expression and the value it stands for.
#[derive(Debug, Clone)]
struct Placeholder {
    name: String,
    value: KeyValue,
}

#[derive(Debug, Clone)]
struct Read {
    table: String,
    index: Option<String>,
    key_condition: String,
    names: Vec<(String, String)>,
    values: Vec<Placeholder>,
    forward: bool,
    limit: Option<u32>,
    consistent: bool,
    /// The shard variable and the shard count of a scatter-gather.
    shards: Option<(String, u32)>,
    /// The index's last sort-key attribute, to merge shards by.
    merge_by: Option<(String, KeyType)>,
}

#[derive(Debug, Clone)]
struct Get {
    table: String,
    key: Vec<KeyValue>,
    consistent: bool,
}

#[derive(Debug, Clone)]
struct Scan {
    table: Option<String>,
    filter: String,
    names: Vec<(String, String)>,
    values: Vec<(String, String)>,
    limit: Option<u32>,
    why: Vec<String>,
}

/// A put of one entity: its computed key attributes, spread with the item.
#[derive(Debug, Clone)]
struct PutStep {
    table: String,
    entity: String,
    keys: Vec<KeyValue>,
    condition: Option<String>,
}

/// An update of one entity: the table key, then SET of each change and of each index key a
/// change feeds.
#[derive(Debug, Clone)]
struct UpdateStep {
    table: String,
    entity: String,
    key: Vec<KeyValue>,
    /// Attributes set from the caller's `changes`.
    set: Vec<String>,
    /// Index keys recomputed from the changes.
    derived: Vec<KeyValue>,
    /// The attributes `changes` must carry (changes plus the variables of derived keys).
    change_inputs: Vec<Input>,
    condition: Option<String>,
}

#[derive(Debug, Clone)]
struct DeleteStep {
    table: String,
    entity: String,
    key: Vec<KeyValue>,
    condition: Option<String>,
}

#[derive(Debug, Clone)]
enum Step {
    Put(PutStep),
    Update(UpdateStep),
    Delete(DeleteStep),
}

impl Step {
    fn entity(&self) -> &str {
        match self {
            Step::Put(p) => &p.entity,
            Step::Update(u) => &u.entity,
            Step::Delete(d) => &d.entity,
        }
    }
}

/// The parameter of each transaction step: the entity's name in `case` (plural for a step
/// that writes several items), unique and valid in `lang`; and whether it takes several items.
fn transact_params(
    steps: &[(Step, u32)],
    lang: Lang,
    case: fn(&str) -> String,
) -> Vec<(String, bool)> {
    let mut fields = Scope::with_taken(&["client", "transact_items", "input"]);
    steps
        .iter()
        .map(|(step, count)| {
            let base = case(step.entity());
            let many = *count > 1;
            let name = if many { format!("{base}s") } else { base };
            (fields.unique(names::valid(&name, lang, "step")), many)
        })
        .collect()
}

#[derive(Debug, Clone)]
enum Kind {
    Get(Get),
    Query(Read),
    Scan(Scan),
    Write(Step),
    Transact(Vec<(Step, u32)>),
    /// Nothing to generate, and why.
    Skip(String),
}

/// One pattern, ready to spell in any language.
#[derive(Debug, Clone)]
struct Call {
    pattern: String,
    description: String,
    operation: Operation,
    index: Option<String>,
    /// Variables the key values need, in first-use order (shards excluded).
    inputs: Vec<Input>,
    /// Entities returned or written.
    entities: Vec<String>,
    kind: Kind,
}

/// Placeholder names: `#` or `:` then the attribute's letters, digits and `_`, unique.
fn placeholder(attr: &str, taken: &mut Scope, fallback: &str) -> String {
    let clean: String = attr
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    taken.unique(if clean.is_empty() {
        fallback.to_string()
    } else {
        clean
    })
}

/// The design with its entities by name ([`ByName`]), for the lookups every pattern makes:
/// searching the entity list for each would be quadratic in a big design.
struct Lookup<'a> {
    design: &'a Design,
    by_name: ByName<'a>,
}

impl<'a> Lookup<'a> {
    fn new(design: &'a Design) -> Lookup<'a> {
        Lookup {
            design,
            by_name: ByName::new(design),
        }
    }

    fn entity(&self, name: &str) -> Option<&'a Entity> {
        self.by_name.entity(name)
    }

    fn table(&self, name: &str) -> Option<&'a Table> {
        self.design.table(name)
    }
}

fn input_type(design: &Lookup<'_>, entities: &[String], attr: &str) -> AttrType {
    entities
        .iter()
        .filter_map(|e| design.entity(e))
        .find_map(|e| e.attribute(attr).map(|a| a.ty))
        .filter(|ty| matches!(ty, AttrType::S | AttrType::N))
        .unwrap_or(AttrType::S)
}

fn push_inputs(inputs: &mut Vec<Input>, t: &KeyTemplate, design: &Lookup<'_>, entities: &[String]) {
    for v in t.attribute_vars() {
        if !inputs.iter().any(|i| i.attr == v.name) {
            inputs.push(Input {
                attr: v.name.clone(),
                ty: input_type(design, entities, &v.name),
            });
        }
    }
}

fn key_type_of(table: &Table, attr: &str) -> KeyType {
    table.key_attribute(attr).map_or(KeyType::S, |k| k.ty)
}

/// The table-key values of an entity: its template for the partition and sort key.
fn table_key(table: &Table, entity: &Entity) -> Vec<KeyValue> {
    std::iter::once(&table.partition_key)
        .chain(table.sort_key.as_ref())
        .filter_map(|k| {
            Some(KeyValue {
                attr: k.name.clone(),
                ty: k.ty,
                template: entity.key_template(&k.name)?.into_owned(),
            })
        })
        .collect()
}

/// Every key attribute an entity fills with its own template. A key attribute that is also an
/// attribute of the entity is the item's own value, never computed over it.
fn computed_keys(table: &Table, entity: &Entity) -> Vec<KeyValue> {
    table
        .key_attributes()
        .into_iter()
        .filter(|k| entity.attribute(&k.name).is_none())
        .filter_map(|k| {
            Some(KeyValue {
                attr: k.name.clone(),
                ty: k.ty,
                template: entity.keys.get(&k.name)?.clone(),
            })
        })
        .collect()
}

fn entity_and_table<'a>(design: &Lookup<'a>, name: &str) -> Option<(&'a Entity, &'a Table)> {
    let entity = design.entity(name)?;
    Some((entity, design.table(&entity.table)?))
}

fn put_step(design: &Lookup<'_>, entity_name: &str, condition: Option<String>) -> Option<PutStep> {
    let (entity, table) = entity_and_table(design, entity_name)?;
    Some(PutStep {
        table: table.name.clone(),
        entity: entity.name.clone(),
        keys: computed_keys(table, entity),
        condition,
    })
}

fn update_step(
    design: &Lookup<'_>,
    entity_name: &str,
    changes: &[String],
    condition: Option<String>,
) -> Option<UpdateStep> {
    let (entity, table) = entity_and_table(design, entity_name)?;
    let key = table_key(table, entity);
    let key_vars: Vec<&str> = key
        .iter()
        .flat_map(|k| k.template.attribute_vars().map(|v| v.name.as_str()))
        .collect();
    let mut set: Vec<String> = if changes.is_empty() {
        // No changes stated: every attribute that is not part of the table key.
        entity
            .attributes
            .iter()
            .filter(|a| !key_vars.contains(&a.name.as_str()))
            .map(|a| a.name.clone())
            .collect()
    } else {
        changes.to_vec()
    };
    let table_key_names: Vec<&str> = key.iter().map(|k| k.attr.as_str()).collect();
    set.retain(|a| !table_key_names.contains(&a.as_str()));
    let derived: Vec<KeyValue> = computed_keys(table, entity)
        .into_iter()
        .filter(|k| !table_key_names.contains(&k.attr.as_str()))
        .filter(|k| k.template.attribute_vars().any(|v| set.contains(&v.name)))
        .collect();
    let entities = [entity.name.clone()];
    let mut change_inputs: Vec<Input> = set
        .iter()
        .map(|a| Input {
            attr: a.clone(),
            ty: entity.attribute(a).map(|x| x.ty).unwrap_or(AttrType::S),
        })
        .collect();
    for d in &derived {
        for v in d.template.attribute_vars() {
            if !key_vars.contains(&v.name.as_str())
                && !change_inputs.iter().any(|i| i.attr == v.name)
            {
                change_inputs.push(Input {
                    attr: v.name.clone(),
                    ty: input_type(design, &entities, &v.name),
                });
            }
        }
    }
    Some(UpdateStep {
        table: table.name.clone(),
        entity: entity.name.clone(),
        key,
        set,
        derived,
        change_inputs,
        condition,
    })
}

fn delete_step(
    design: &Lookup<'_>,
    entity_name: &str,
    condition: Option<String>,
) -> Option<DeleteStep> {
    let (entity, table) = entity_and_table(design, entity_name)?;
    Some(DeleteStep {
        table: table.name.clone(),
        entity: entity.name.clone(),
        key: table_key(table, entity),
        condition,
    })
}

fn step(
    design: &Lookup<'_>,
    action: Action,
    entity: &str,
    changes: &[String],
    condition: Option<String>,
) -> Option<Step> {
    match action {
        Action::Put => put_step(design, entity, condition).map(Step::Put),
        Action::Update => update_step(design, entity, changes, condition).map(Step::Update),
        Action::Delete => delete_step(design, entity, condition).map(Step::Delete),
        Action::Read | Action::Transact => None,
    }
}

fn step_key_inputs(s: &Step) -> Vec<&KeyValue> {
    match s {
        Step::Put(_) => Vec::new(),
        Step::Update(u) => u.key.iter().collect(),
        Step::Delete(d) => d.key.iter().collect(),
    }
}

fn read_call(design: &Lookup<'_>, pattern: &AccessPattern, verdict: &Verdict) -> Kind {
    let Some(table_name) = verdict.table.clone().or_else(|| {
        pattern
            .entities
            .first()
            .and_then(|e| design.entity(e))
            .map(|e| e.table.clone())
    }) else {
        return Kind::Skip("the pattern names no entity in a table".to_string());
    };
    let Some(table) = design.table(&table_name) else {
        return Kind::Skip(format!("table `{table_name}` does not exist"));
    };
    let limit = pattern.page_size;
    let spec = match (&verdict.query, verdict.operation) {
        (Some(spec), Operation::GetItem | Operation::Query) => spec,
        _ => {
            // No index serves the read: a filtered Scan, said plainly.
            let mut names_scope = Scope::new();
            let mut names = Vec::new();
            let mut values = Vec::new();
            let mut terms = Vec::new();
            for input in &pattern.inputs {
                let n = placeholder(input, &mut names_scope, "a");
                terms.push(format!("#{n} = :{n}"));
                names.push((format!("#{n}"), input.clone()));
                values.push((format!(":{n}"), input.clone()));
            }
            let mut why = verdict.reasons.clone();
            if let Some(s) = &verdict.suggestion {
                why.push(format!("suggestion: {s}"));
            }
            return Kind::Scan(Scan {
                table: Some(table.name.clone()),
                filter: terms.join(" AND "),
                names,
                values,
                limit,
                why,
            });
        }
    };
    let to_value = |attr: &str, template: &KeyTemplate| KeyValue {
        attr: attr.to_string(),
        ty: key_type_of(table, attr),
        template: template.clone(),
    };
    if verdict.operation == Operation::GetItem {
        return Kind::Get(Get {
            table: table.name.clone(),
            key: spec
                .partition
                .iter()
                .chain(&spec.sort_equal)
                .map(|p| to_value(&p.attribute, &p.template))
                .collect(),
            consistent: pattern.consistent,
        });
    }
    let mut name_scope = Scope::new();
    let mut value_scope = Scope::new();
    let mut names = Vec::new();
    let mut values = Vec::new();
    let mut terms = Vec::new();
    for part in spec.partition.iter().chain(&spec.sort_equal) {
        let n = placeholder(&part.attribute, &mut name_scope, "k");
        let v = placeholder(&part.attribute.to_ascii_lowercase(), &mut value_scope, "v");
        terms.push(format!("#{n} = :{v}"));
        names.push((format!("#{n}"), part.attribute.clone()));
        values.push(Placeholder {
            name: format!(":{v}"),
            value: to_value(&part.attribute, &part.template),
        });
    }
    if let Some(cond) = &spec.sort_condition {
        let n = placeholder(&cond.attribute, &mut name_scope, "k");
        names.push((format!("#{n}"), cond.attribute.clone()));
        let lower = cond.attribute.to_ascii_lowercase();
        let mut value_names = Vec::new();
        for (i, template) in cond.values.iter().enumerate() {
            let base = match (cond.op, i) {
                (SortOp::Between, 0) => format!("{lower}_from"),
                (SortOp::Between, _) => format!("{lower}_to"),
                _ => lower.clone(),
            };
            let v = placeholder(&base, &mut value_scope, "v");
            values.push(Placeholder {
                name: format!(":{v}"),
                value: to_value(&cond.attribute, template),
            });
            value_names.push(format!(":{v}"));
        }
        let term = match (cond.op, value_names.as_slice()) {
            (SortOp::BeginsWith, [v, ..]) => format!("begins_with(#{n}, {v})"),
            (SortOp::Between, [a, b, ..]) => format!("#{n} BETWEEN {a} AND {b}"),
            (op, [v, ..]) => format!("#{n} {} {v}", op.as_str()),
            (_, []) => String::new(),
        };
        if !term.is_empty() {
            terms.push(term);
        }
    }
    let shards = verdict.shards.and_then(|n| {
        spec.partition
            .iter()
            .find_map(|p| p.template.shard().map(|v| (v.name.clone(), n)))
    });
    let index_keys = table.indexes();
    let merge_by = index_keys
        .iter()
        .find(|i| i.name == verdict.index.as_deref())
        .and_then(|i| i.sort_key.last())
        .map(|k| (k.name.clone(), k.ty));
    Kind::Query(Read {
        table: table.name.clone(),
        index: verdict.index.clone(),
        key_condition: terms.join(" AND "),
        names,
        values,
        forward: verdict.scan_forward,
        limit,
        consistent: pattern.consistent,
        shards,
        merge_by,
    })
}

fn calls(design: &Lookup<'_>) -> Vec<Call> {
    let verdicts = verdicts(design.design);
    design
        .design
        .patterns
        .iter()
        .zip(&verdicts)
        .map(|(pattern, verdict)| {
            let kind = match pattern.action {
                Action::Read => read_call(design, pattern, verdict),
                Action::Transact => {
                    let steps: Vec<(Step, u32)> = pattern
                        .writes
                        .iter()
                        .filter_map(|w| {
                            let s =
                                step(design, w.action, &w.entity, &w.changes, w.condition.clone())?;
                            Some((s, w.count.max(1)))
                        })
                        .collect();
                    if steps.is_empty() {
                        Kind::Skip("the transaction has no writes to known entities".to_string())
                    } else {
                        Kind::Transact(steps)
                    }
                }
                action => match pattern.entities.first().and_then(|e| {
                    step(
                        design,
                        action,
                        e,
                        &pattern.changes,
                        pattern.condition.clone(),
                    )
                }) {
                    Some(s) => Kind::Write(s),
                    None => Kind::Skip("the write names no known entity".to_string()),
                },
            };
            let mut inputs = Vec::new();
            match &kind {
                Kind::Get(g) => {
                    for k in &g.key {
                        push_inputs(&mut inputs, &k.template, design, &pattern.entities);
                    }
                }
                Kind::Query(r) => {
                    for p in &r.values {
                        push_inputs(&mut inputs, &p.value.template, design, &pattern.entities);
                    }
                }
                Kind::Scan(s) => {
                    for (_, attr) in &s.values {
                        inputs.push(Input {
                            attr: attr.clone(),
                            ty: input_type(design, &pattern.entities, attr),
                        });
                    }
                }
                Kind::Write(s) => {
                    for k in step_key_inputs(s) {
                        push_inputs(&mut inputs, &k.template, design, &pattern.entities);
                    }
                }
                Kind::Transact(_) | Kind::Skip(_) => {}
            }
            let entities = match &kind {
                Kind::Transact(steps) => {
                    steps.iter().map(|(s, _)| s.entity().to_string()).collect()
                }
                _ => pattern.entities.clone(),
            };
            Call {
                pattern: pattern.name.clone(),
                description: pattern.description.clone(),
                operation: verdict.operation,
                index: verdict.index.clone(),
                inputs,
                entities,
                kind,
            }
        })
        .collect()
}

fn doc_line(call: &Call) -> String {
    let on = match &call.index {
        Some(i) => format!("index {i}"),
        None => "the table".to_string(),
    };
    let mut line = format!("{}: {} on {on}.", call.pattern, call.operation.as_str());
    if !call.description.is_empty() {
        line.push(' ');
        line.push_str(&call.description);
    }
    names::one_line(&line)
}

/// Renders a template with each variable's expression, for a language.
trait Spell {
    /// A string-valued expression of the template.
    fn string(&self, t: &KeyTemplate, var: &dyn Fn(&str) -> String) -> String;

    /// The expression of a key attribute's value: a number key filled by one variable is the
    /// number itself, any other key the template's string.
    fn value(&self, k: &KeyValue, var: &dyn Fn(&str) -> String) -> String {
        if let (KeyType::N, [Part::Var(v)]) = (k.ty, k.template.parts()) {
            return var(&v.name);
        }
        self.string(&k.template, var)
    }
}

/// Splits `text` at the commas outside brackets.
fn split_top_level(text: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut current = String::new();
    for c in text.chars() {
        match c {
            '(' | '[' | '<' | '{' => depth += 1,
            ')' | ']' | '>' | '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(current.trim().to_string());
                current.clear();
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    if !current.trim().is_empty() {
        parts.push(current.trim().to_string());
    }
    parts
}

/// The byte positions of a signature's parameter parentheses: the first `(` and its match.
fn parameter_parens(line: &str) -> Option<(usize, usize)> {
    let open = line.find('(')?;
    let mut depth = 0i32;
    for (i, c) in line[open..].char_indices() {
        match c {
            '(' | '[' | '<' => depth += 1,
            ')' | ']' | '>' => {
                depth -= 1;
                if depth == 0 {
                    return Some((open, open + i));
                }
            }
            _ => {}
        }
    }
    None
}

/// Lays out function signatures the way rustfmt and black would: one that fits on a line of
/// `width` stays, a longer one gets a parameter per line; a parameter line holding several
/// parameters is split.
fn tidy_signatures(text: &str, starts: &[&str], first_param: &str, width: usize) -> String {
    let mut out = String::with_capacity(text.len() + 256);
    for line in text.lines() {
        if starts.iter().any(|s| line.starts_with(s))
            && line.len() > width
            && let Some((open, close)) = parameter_parens(line)
        {
            out.push_str(&line[..=open]);
            out.push('\n');
            for param in split_top_level(&line[open + 1..close]) {
                out.push_str("    ");
                out.push_str(&param);
                out.push_str(",\n");
            }
            out.push_str(&line[close..]);
            out.push('\n');
            continue;
        }
        if line.starts_with(first_param) && line.trim_end().ends_with(',') {
            for param in split_top_level(line.trim().trim_end_matches(',')) {
                out.push_str("    ");
                out.push_str(&param);
                out.push_str(",\n");
            }
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

// ---------------------------------------------------------------- TypeScript

struct Ts;

impl Spell for Ts {
    fn string(&self, t: &KeyTemplate, var: &dyn Fn(&str) -> String) -> String {
        if t.is_constant() {
            return ts_str(t.literal_prefix());
        }
        let mut out = String::from("`");
        for p in t.parts() {
            match p {
                Part::Literal(s) => out.push_str(&ts_template_text(s)),
                Part::Var(v) => {
                    let _ = write!(out, "${{{}}}", var(&v.name));
                }
            }
        }
        out.push('`');
        out
    }
}

fn ts_access(obj: &str, attr: &str) -> String {
    let key = ts_key(attr);
    if key.starts_with('\'') {
        format!("{obj}[{key}]")
    } else {
        format!("{obj}.{key}")
    }
}

fn ts_attr_type(a: &crate::export::electrodb::ModelAttribute) -> String {
    if a.ty == AttrType::S && !a.values.is_empty() {
        return a
            .values
            .iter()
            .map(|v| ts_str(v))
            .collect::<Vec<_>>()
            .join(" | ");
    }
    match a.ty {
        AttrType::S => "string",
        AttrType::N => "number",
        AttrType::B => "Uint8Array",
        AttrType::Bool => "boolean",
        AttrType::Null => "null",
        AttrType::M => "Record<string, unknown>",
        AttrType::L => "unknown[]",
        AttrType::SS => "Set<string>",
        AttrType::NS => "Set<number>",
        AttrType::BS => "Set<Uint8Array>",
    }
    .to_string()
}

fn ts_input_type(ty: AttrType) -> &'static str {
    match ty {
        AttrType::N => "number",
        _ => "string",
    }
}

struct TsNames {
    /// By entity name (the first of a name): its interface.
    interfaces: BTreeMap<String, String>,
    tables: Vec<(String, String)>,
}

impl TsNames {
    fn interface(&self, entity: &str) -> String {
        self.interfaces
            .get(entity)
            .cloned()
            .unwrap_or_else(|| "Record<string, unknown>".to_string())
    }

    fn table(&self, table: &str) -> String {
        self.tables
            .iter()
            .find(|(t, _)| t == table)
            .map(|(_, k)| format!("TABLES.{k}"))
            .unwrap_or_else(|| ts_str(table))
    }

    fn items_type(&self, entities: &[String]) -> String {
        let types: Vec<String> = entities.iter().map(|e| self.interface(e)).collect();
        match types.as_slice() {
            [] => "Record<string, unknown>".to_string(),
            [one] => one.clone(),
            // Parenthesised, so `T[]` and `T | undefined` read as meant.
            many => format!("({})", many.join(" | ")),
        }
    }
}

fn ts_names_record(pairs: &[(String, String)]) -> String {
    let inner: Vec<String> = pairs
        .iter()
        .map(|(k, v)| format!("{}: {}", ts_str(k), ts_str(v)))
        .collect();
    format!("{{ {} }}", inner.join(", "))
}

fn ts_put_item(p: &PutStep, obj: &str, ind: &str) -> String {
    let mut out = String::from("{\n");
    for k in &p.keys {
        let value = Ts.value(k, &|v| {
            if k.template.shard().is_some_and(|s| s.name == v) {
                let n = k.template.shard().and_then(|s| s.shards).unwrap_or(1);
                format!("Math.floor(Math.random() * {n})")
            } else {
                ts_access(obj, v)
            }
        });
        let _ = writeln!(out, "{ind}  {}: {value},", ts_key(&k.attr));
    }
    let _ = writeln!(out, "{ind}  ...{obj},");
    let _ = write!(out, "{ind}}}");
    out
}

fn ts_key_object(key: &[KeyValue], obj: &str, ind: &str) -> String {
    let mut out = String::from("{\n");
    for k in key {
        let _ = writeln!(
            out,
            "{ind}  {}: {},",
            ts_key(&k.attr),
            Ts.value(k, &|v| ts_access(obj, v))
        );
    }
    let _ = write!(out, "{ind}}}");
    out
}

/// Placeholder and attribute name pairs (`#status`, `status`).
type Pairs = Vec<(String, String)>;

/// The UpdateExpression parts of an update: the SET clause, names, values.
fn update_expression(u: &UpdateStep) -> (String, Pairs, Pairs) {
    let mut scope = Scope::new();
    let mut sets = Vec::new();
    let mut names = Vec::new();
    let mut values = Vec::new();
    for attr in u.set.iter().chain(u.derived.iter().map(|d| &d.attr)) {
        let n = placeholder(attr, &mut scope, "a");
        sets.push(format!("#{n} = :{n}"));
        names.push((format!("#{n}"), attr.clone()));
        values.push((format!(":{n}"), attr.clone()));
    }
    (format!("SET {}", sets.join(", ")), names, values)
}

fn ts_update_params(
    u: &UpdateStep,
    key_obj: &str,
    changes_obj: &str,
    ind: &str,
    names: &TsNames,
) -> String {
    let (expr, attr_names, attr_values) = update_expression(u);
    let mut out = String::new();
    let _ = writeln!(out, "{ind}TableName: {},", names.table(&u.table));
    let _ = writeln!(out, "{ind}Key: {},", ts_key_object(&u.key, key_obj, ind));
    let _ = writeln!(out, "{ind}UpdateExpression: {},", ts_str(&expr));
    if let Some(c) = &u.condition {
        let _ = writeln!(out, "{ind}ConditionExpression: {},", ts_str(c));
    }
    let _ = writeln!(
        out,
        "{ind}ExpressionAttributeNames: {},",
        ts_names_record(&attr_names)
    );
    let _ = writeln!(out, "{ind}ExpressionAttributeValues: {{");
    let key_vars: Vec<String> = u
        .key
        .iter()
        .flat_map(|k| k.template.attribute_vars().map(|v| v.name.clone()))
        .collect();
    let var = |v: &str| {
        if key_vars.iter().any(|k| k == v) && !u.change_inputs.iter().any(|i| i.attr == v) {
            ts_access(key_obj, v)
        } else {
            ts_access(changes_obj, v)
        }
    };
    for (placeholder, attr) in &attr_values {
        let value = match u.derived.iter().find(|d| &d.attr == attr) {
            Some(d) => Ts.value(d, &|v: &str| {
                if d.template.shard().is_some_and(|s| s.name == v) {
                    let n = d.template.shard().and_then(|s| s.shards).unwrap_or(1);
                    format!("Math.floor(Math.random() * {n})")
                } else {
                    var(v)
                }
            }),
            None => ts_access(changes_obj, attr),
        };
        let _ = writeln!(out, "{ind}  {}: {value},", ts_str(placeholder));
    }
    let _ = writeln!(out, "{ind}}},");
    out
}

fn ts_object_type(inputs: &[Input]) -> String {
    let fields: Vec<String> = inputs
        .iter()
        .map(|i| format!("{}: {}", ts_key(&i.attr), ts_input_type(i.ty)))
        .collect();
    format!("{{ {} }}", fields.join("; "))
}

fn ts_key_inputs(key: &[KeyValue], design: &Lookup<'_>, entity: &str) -> Vec<Input> {
    let mut inputs = Vec::new();
    for k in key {
        push_inputs(&mut inputs, &k.template, design, &[entity.to_string()]);
    }
    inputs
}

pub fn typescript(design: &Design) -> String {
    let lookup = Lookup::new(design);
    let calls = calls(&lookup);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "// Access code for {} (exported by keyplan): one function per access pattern.",
        names::one_line(&design.name)
    );
    let mut commands = vec!["DynamoDBDocumentClient"];
    let uses = |f: &dyn Fn(&Kind) -> bool| calls.iter().any(|c| f(&c.kind));
    let any_step = |want: fn(&Step) -> bool| {
        uses(&|k| match k {
            Kind::Write(s) => want(s),
            _ => false,
        })
    };
    if any_step(|s| matches!(s, Step::Delete(_))) {
        commands.push("DeleteCommand");
    }
    if uses(&|k| matches!(k, Kind::Get(_))) {
        commands.push("GetCommand");
    }
    if any_step(|s| matches!(s, Step::Put(_))) {
        commands.push("PutCommand");
    }
    if uses(&|k| matches!(k, Kind::Query(_))) {
        commands.push("QueryCommand");
    }
    if uses(&|k| matches!(k, Kind::Scan(_))) {
        commands.push("ScanCommand");
    }
    if uses(&|k| matches!(k, Kind::Transact(_))) {
        commands.push("TransactWriteCommand");
    }
    if any_step(|s| matches!(s, Step::Update(_))) {
        commands.push("UpdateCommand");
    }
    commands.sort_unstable();
    out.push_str("import { DynamoDBClient } from '@aws-sdk/client-dynamodb';\n");
    let _ = writeln!(
        out,
        "import {{ {} }} from '@aws-sdk/lib-dynamodb';\n",
        commands.join(", ")
    );

    let mut scope = Scope::with_taken(&[
        "DynamoDBClient",
        "DynamoDBDocumentClient",
        "TABLES",
        "Key",
        "Page",
        "documentClient",
        "compareKeys",
        "PATTERNS",
    ]);
    let mut table_keys = Scope::new();
    let tables: Vec<(String, String)> = design
        .tables
        .iter()
        .map(|t| {
            (
                t.name.clone(),
                table_keys.unique(names::valid(
                    &names::camel(&t.name),
                    Lang::TypeScript,
                    "table",
                )),
            )
        })
        .collect();
    out.push_str("/** Table names; each can be overridden by an environment variable. */\n");
    out.push_str("export const TABLES = {\n");
    for (table, key) in &tables {
        let env = names::screaming(table);
        let _ = writeln!(
            out,
            "  {key}: process.env.{}_TABLE ?? {},",
            if env.is_empty() {
                "DESIGN".to_string()
            } else {
                env
            },
            ts_str(table)
        );
    }
    out.push_str("} as const;\n\n");
    out.push_str("/** A primary key, as DynamoDB returns it in LastEvaluatedKey. */\n");
    out.push_str("export type Key = Record<string, unknown>;\n\n");
    out.push_str("/** One page of a Query: the items and the key to continue from, if any. */\n");
    out.push_str("export interface Page<T> {\n  items: T[];\n  nextKey?: Key;\n}\n\n");
    out.push_str("/** A document client over a DynamoDB client (the default one reads the environment). */\n");
    out.push_str("export function documentClient(client: DynamoDBClient = new DynamoDBClient({})): DynamoDBDocumentClient {\n  return DynamoDBDocumentClient.from(client);\n}\n");

    let mut interfaces = BTreeMap::new();
    for entity in &design.entities {
        let name = scope.unique(names::valid(
            &names::pascal(&entity.name),
            Lang::TypeScript,
            "Entity",
        ));
        let key_vars: Vec<String> = entity
            .keys
            .values()
            .flat_map(|t| t.attribute_vars().map(|v| v.name.clone()))
            .collect();
        let _ = writeln!(out, "\nexport interface {name} {{");
        for a in model_attributes(entity) {
            if a.shards.is_some() {
                continue;
            }
            let optional = !a.required && !key_vars.contains(&a.name);
            let _ = writeln!(
                out,
                "  {}{}: {};",
                ts_key(&a.name),
                if optional { "?" } else { "" },
                ts_attr_type(&a)
            );
        }
        out.push_str("}\n");
        interfaces.entry(entity.name.clone()).or_insert(name);
    }
    let names = TsNames { interfaces, tables };

    if calls
        .iter()
        .any(|c| matches!(&c.kind, Kind::Query(r) if r.shards.is_some()))
    {
        out.push_str(
            "\n/** DynamoDB's order of key values: numbers numerically, strings by code unit. */\n",
        );
        out.push_str("function compareKeys(a: unknown, b: unknown): number {\n");
        out.push_str("  if (typeof a === 'number' && typeof b === 'number') return a - b;\n");
        out.push_str("  const x = String(a);\n  const y = String(b);\n  return x < y ? -1 : x > y ? 1 : 0;\n}\n");
    }

    let mut registry = Vec::new();
    for call in &calls {
        let fname = scope.unique(names::valid(
            &names::camel(&call.pattern),
            Lang::TypeScript,
            "pattern",
        ));
        if !matches!(call.kind, Kind::Skip(_)) {
            registry.push((call.pattern.clone(), fname.clone()));
        }
        let _ = writeln!(out, "\n/** {} */", doc_line(call).replace("*/", "* /"));
        let input_type = ts_object_type(&call.inputs);
        match &call.kind {
            Kind::Skip(why) => {
                let _ = writeln!(out, "// {fname}: not generated: {}.", names::one_line(why));
            }
            Kind::Get(g) => {
                let item = names.items_type(&call.entities);
                let _ = writeln!(
                    out,
                    "export async function {fname}(\n  client: DynamoDBDocumentClient,\n  input: {input_type},\n): Promise<{item} | undefined> {{"
                );
                out.push_str("  const result = await client.send(\n    new GetCommand({\n");
                let _ = writeln!(out, "      TableName: {},", names.table(&g.table));
                let _ = writeln!(
                    out,
                    "      Key: {},",
                    ts_key_object(&g.key, "input", "      ")
                );
                if g.consistent {
                    out.push_str("      ConsistentRead: true,\n");
                }
                let _ = writeln!(
                    out,
                    "    }}),\n  );\n  return result.Item as {item} | undefined;\n}}"
                );
            }
            Kind::Query(r) => {
                let item = names.items_type(&call.entities);
                let var = |v: &str| ts_access("input", v);
                if let Some((shard_var, n)) = &r.shards {
                    let limit = r.limit.unwrap_or(100);
                    let _ = writeln!(
                        out,
                        "export async function {fname}(\n  client: DynamoDBDocumentClient,\n  input: {input_type},\n  limit = {limit},\n): Promise<{item}[]> {{"
                    );
                    let _ = writeln!(
                        out,
                        "  // The partition is write-sharded {n} ways: query every shard at once, then merge.\n  // Each shard is read page by page (a page ends at 1 MB) until it gave `limit` items."
                    );
                    let _ = writeln!(
                        out,
                        "  const shards = await Promise.all(\n    Array.from({{ length: {n} }}, async (_, shard) => {{\n      const found: Record<string, any>[] = [];\n      let lastKey: Key | undefined;\n      while (found.length < limit) {{\n        const page = await client.send(\n          new QueryCommand({{"
                    );
                    ts_query_params(&mut out, r, &names, "            ", &|v: &str| {
                        if v == shard_var {
                            "shard".to_string()
                        } else {
                            var(v)
                        }
                    });
                    out.push_str("            Limit: limit - found.length,\n            ExclusiveStartKey: lastKey,\n          }),\n        );\n");
                    out.push_str("        found.push(...(page.Items ?? []));\n        lastKey = page.LastEvaluatedKey;\n        if (!lastKey) break;\n      }\n      return found;\n    }),\n  );\n");
                    out.push_str("  const items = shards.flat();\n");
                    if let Some((attr, _)) = &r.merge_by {
                        let (a, b) = if r.forward { ("a", "b") } else { ("b", "a") };
                        let _ = writeln!(
                            out,
                            "  items.sort((a, b) => compareKeys({a}[{k}], {b}[{k}]));",
                            k = ts_str(attr)
                        );
                    }
                    let _ = writeln!(out, "  return items.slice(0, limit) as {item}[];\n}}");
                } else {
                    let limit = match r.limit {
                        Some(n) => format!("options.limit ?? {n}"),
                        None => "options.limit".to_string(),
                    };
                    let _ = writeln!(
                        out,
                        "export async function {fname}(\n  client: DynamoDBDocumentClient,\n  input: {input_type},\n  options: {{ limit?: number; lastKey?: Key }} = {{}},\n): Promise<Page<{item}>> {{"
                    );
                    out.push_str("  const result = await client.send(\n    new QueryCommand({\n");
                    ts_query_params(&mut out, r, &names, "      ", &var);
                    let _ = writeln!(
                        out,
                        "      Limit: {limit},\n      ExclusiveStartKey: options.lastKey,\n    }}),\n  );"
                    );
                    let _ = writeln!(
                        out,
                        "  return {{ items: (result.Items ?? []) as {item}[], nextKey: result.LastEvaluatedKey }};\n}}"
                    );
                }
            }
            Kind::Scan(s) => {
                let item = names.items_type(&call.entities);
                for why in &s.why {
                    let _ = writeln!(out, "// {}", names::one_line(why));
                }
                let _ = writeln!(
                    out,
                    "export async function {fname}(\n  client: DynamoDBDocumentClient,\n  input: {input_type},\n  options: {{ limit?: number; lastKey?: Key }} = {{}},\n): Promise<Page<{item}>> {{"
                );
                out.push_str(
                    "  // No index serves this pattern: this Scan reads the whole table.\n",
                );
                out.push_str("  const result = await client.send(\n    new ScanCommand({\n");
                let table = s
                    .table
                    .as_deref()
                    .map(|t| names.table(t))
                    .unwrap_or_default();
                let _ = writeln!(out, "      TableName: {table},");
                if !s.filter.is_empty() {
                    let _ = writeln!(out, "      FilterExpression: {},", ts_str(&s.filter));
                    let _ = writeln!(
                        out,
                        "      ExpressionAttributeNames: {},",
                        ts_names_record(&s.names)
                    );
                    let values: Vec<String> = s
                        .values
                        .iter()
                        .map(|(p, a)| format!("{}: {}", ts_str(p), ts_access("input", a)))
                        .collect();
                    let _ = writeln!(
                        out,
                        "      ExpressionAttributeValues: {{ {} }},",
                        values.join(", ")
                    );
                }
                let limit = match s.limit {
                    Some(n) => format!("options.limit ?? {n}"),
                    None => "options.limit".to_string(),
                };
                let _ = writeln!(
                    out,
                    "      Limit: {limit},\n      ExclusiveStartKey: options.lastKey,\n    }}),\n  );"
                );
                let _ = writeln!(
                    out,
                    "  return {{ items: (result.Items ?? []) as {item}[], nextKey: result.LastEvaluatedKey }};\n}}"
                );
            }
            Kind::Write(Step::Put(p)) => {
                let ty = names.interface(&p.entity);
                let _ = writeln!(
                    out,
                    "export async function {fname}(client: DynamoDBDocumentClient, item: {ty}): Promise<void> {{"
                );
                out.push_str("  await client.send(\n    new PutCommand({\n");
                let _ = writeln!(out, "      TableName: {},", names.table(&p.table));
                let _ = writeln!(out, "      Item: {},", ts_put_item(p, "item", "      "));
                if let Some(c) = &p.condition {
                    let _ = writeln!(out, "      ConditionExpression: {},", ts_str(c));
                }
                out.push_str("    }),\n  );\n}\n");
            }
            Kind::Write(Step::Update(u)) => {
                let key_type = ts_object_type(&ts_key_inputs(&u.key, &lookup, &u.entity));
                let changes_type = ts_object_type(&u.change_inputs);
                let _ = writeln!(
                    out,
                    "export async function {fname}(\n  client: DynamoDBDocumentClient,\n  key: {key_type},\n  changes: {changes_type},\n): Promise<void> {{"
                );
                out.push_str("  await client.send(\n    new UpdateCommand({\n");
                out.push_str(&ts_update_params(u, "key", "changes", "      ", &names));
                out.push_str("    }),\n  );\n}\n");
            }
            Kind::Write(Step::Delete(d)) => {
                let key_type = ts_object_type(&ts_key_inputs(&d.key, &lookup, &d.entity));
                let _ = writeln!(
                    out,
                    "export async function {fname}(client: DynamoDBDocumentClient, key: {key_type}): Promise<void> {{"
                );
                out.push_str("  await client.send(\n    new DeleteCommand({\n");
                let _ = writeln!(out, "      TableName: {},", names.table(&d.table));
                let _ = writeln!(
                    out,
                    "      Key: {},",
                    ts_key_object(&d.key, "key", "      ")
                );
                if let Some(c) = &d.condition {
                    let _ = writeln!(out, "      ConditionExpression: {},", ts_str(c));
                }
                out.push_str("    }),\n  );\n}\n");
            }
            Kind::Transact(steps) => {
                let params = transact_params(steps, Lang::TypeScript, names::camel);
                let field_names: Vec<String> = params.iter().map(|(f, _)| f.clone()).collect();
                let mut field_types = Vec::new();
                for ((s, _), (field, many)) in steps.iter().zip(&params) {
                    let ty = match s {
                        Step::Put(p) => names.interface(&p.entity),
                        Step::Update(u) => {
                            let mut inputs = ts_key_inputs(&u.key, &lookup, &u.entity);
                            for i in &u.change_inputs {
                                if !inputs.contains(i) {
                                    inputs.push(i.clone());
                                }
                            }
                            ts_object_type(&inputs)
                        }
                        Step::Delete(d) => {
                            ts_object_type(&ts_key_inputs(&d.key, &lookup, &d.entity))
                        }
                    };
                    let ty = if *many { format!("Array<{ty}>") } else { ty };
                    field_types.push(format!("{field}: {ty}"));
                }
                let _ = writeln!(
                    out,
                    "export async function {fname}(\n  client: DynamoDBDocumentClient,\n  input: {{ {} }},\n): Promise<void> {{",
                    field_types.join("; ")
                );
                out.push_str("  await client.send(\n    new TransactWriteCommand({\n      TransactItems: [\n");
                for ((s, count), field) in steps.iter().zip(&field_names) {
                    let (open, obj, ind, close) = if *count > 1 {
                        (
                            format!("        ...input.{field}.map((item) => ({{\n"),
                            "item".to_string(),
                            "          ",
                            "        })),\n",
                        )
                    } else {
                        (
                            "        {\n".to_string(),
                            format!("input.{field}"),
                            "          ",
                            "        },\n",
                        )
                    };
                    out.push_str(&open);
                    match s {
                        Step::Put(p) => {
                            let _ = writeln!(out, "{ind}Put: {{");
                            let _ = writeln!(out, "{ind}  TableName: {},", names.table(&p.table));
                            let _ = writeln!(
                                out,
                                "{ind}  Item: {},",
                                ts_put_item(p, &obj, &format!("{ind}  "))
                            );
                            if let Some(c) = &p.condition {
                                let _ = writeln!(out, "{ind}  ConditionExpression: {},", ts_str(c));
                            }
                            let _ = writeln!(out, "{ind}}},");
                        }
                        Step::Update(u) => {
                            let _ = writeln!(out, "{ind}Update: {{");
                            out.push_str(&ts_update_params(
                                u,
                                &obj,
                                &obj,
                                &format!("{ind}  "),
                                &names,
                            ));
                            let _ = writeln!(out, "{ind}}},");
                        }
                        Step::Delete(d) => {
                            let _ = writeln!(out, "{ind}Delete: {{");
                            let _ = writeln!(out, "{ind}  TableName: {},", names.table(&d.table));
                            let _ = writeln!(
                                out,
                                "{ind}  Key: {},",
                                ts_key_object(&d.key, &obj, &format!("{ind}  "))
                            );
                            if let Some(c) = &d.condition {
                                let _ = writeln!(out, "{ind}  ConditionExpression: {},", ts_str(c));
                            }
                            let _ = writeln!(out, "{ind}}},");
                        }
                    }
                    out.push_str(close);
                }
                out.push_str("      ],\n    }),\n  );\n}\n");
            }
        }
    }
    out.push_str("\n/** Every pattern's function, by the pattern's name in the design. */\nexport const PATTERNS = {\n");
    for (pattern, fname) in &registry {
        let _ = writeln!(out, "  {}: {fname},", ts_str(pattern));
    }
    out.push_str("} as const;\n");
    out
}

fn ts_query_params(
    out: &mut String,
    r: &Read,
    names: &TsNames,
    ind: &str,
    var: &dyn Fn(&str) -> String,
) {
    let _ = writeln!(out, "{ind}TableName: {},", names.table(&r.table));
    if let Some(i) = &r.index {
        let _ = writeln!(out, "{ind}IndexName: {},", ts_str(i));
    }
    let _ = writeln!(
        out,
        "{ind}KeyConditionExpression: {},",
        ts_str(&r.key_condition)
    );
    let _ = writeln!(
        out,
        "{ind}ExpressionAttributeNames: {},",
        ts_names_record(&r.names)
    );
    let _ = writeln!(out, "{ind}ExpressionAttributeValues: {{");
    for p in &r.values {
        let _ = writeln!(
            out,
            "{ind}  {}: {},",
            ts_str(&p.name),
            Ts.value(&p.value, var)
        );
    }
    let _ = writeln!(out, "{ind}}},");
    if !r.forward {
        let _ = writeln!(out, "{ind}ScanIndexForward: false,");
    }
    if r.consistent {
        let _ = writeln!(out, "{ind}ConsistentRead: true,");
    }
}

// ---------------------------------------------------------------- Python

struct Py;

impl Spell for Py {
    fn string(&self, t: &KeyTemplate, var: &dyn Fn(&str) -> String) -> String {
        if t.is_constant() {
            return py_str(t.literal_prefix());
        }
        // Literal text is escaped; the expressions go in raw (they use single quotes, since
        // an f-string expression cannot hold a backslash before Python 3.12).
        let mut out = String::from("f\"");
        for p in t.parts() {
            match p {
                Part::Literal(s) => {
                    let quoted = py_str(&s.replace('{', "{{").replace('}', "}}"));
                    out.push_str(&quoted[1..quoted.len() - 1]);
                }
                Part::Var(v) => {
                    let _ = write!(out, "{{{}}}", var(&v.name));
                }
            }
        }
        out.push('"');
        out
    }
}

/// A single-quoted Python string, for dictionary keys inside f-string expressions.
fn py_sq(s: &str) -> String {
    format!("'{}'", s.replace('\\', "\\\\").replace('\'', "\\'"))
}

fn py_ident(attr: &str) -> String {
    names::valid(&names::snake(attr), Lang::Python, "value")
}

fn py_type(ty: AttrType) -> &'static str {
    match ty {
        AttrType::N => "int | Decimal",
        _ => "str",
    }
}

fn py_params(inputs: &[Input]) -> String {
    inputs
        .iter()
        .map(|i| format!(", {}: {}", py_ident(&i.attr), py_type(i.ty)))
        .collect()
}

fn py_dict(pairs: &[(String, String)]) -> String {
    let inner: Vec<String> = pairs
        .iter()
        .map(|(k, v)| format!("{}: {v}", py_str(k)))
        .collect();
    format!("{{{}}}", inner.join(", "))
}

fn py_item_keys(p: &PutStep, obj: &str) -> Vec<(String, String)> {
    p.keys
        .iter()
        .map(|k| {
            let value = Py.value(k, &|v| {
                if k.template.shard().is_some_and(|s| s.name == v) {
                    let n = k.template.shard().and_then(|s| s.shards).unwrap_or(1);
                    format!("random.randrange({n})")
                } else {
                    format!("{obj}[{}]", py_sq(v))
                }
            });
            (k.attr.clone(), value)
        })
        .collect()
}

/// The parameters of a DeleteItem (alone or in a transaction): the table, the key read from
/// the Python dict `key_obj`, and the condition.
fn py_delete_request(d: &DeleteStep, key_obj: &str, table: &str) -> Vec<(String, String)> {
    let key: Vec<(String, String)> = d
        .key
        .iter()
        .map(|k| {
            (
                k.attr.clone(),
                Py.value(k, &|v| format!("{key_obj}[{}]", py_sq(v))),
            )
        })
        .collect();
    let mut request = vec![
        ("TableName".to_string(), table.to_string()),
        ("Key".to_string(), format!("_to_dynamo({})", py_dict(&key))),
    ];
    if let Some(c) = &d.condition {
        request.push(("ConditionExpression".to_string(), py_str(c)));
    }
    request
}

fn py_update_request(
    u: &UpdateStep,
    key_obj: &str,
    changes_obj: &str,
    table: &str,
) -> Vec<(String, String)> {
    let (expr, attr_names, attr_values) = update_expression(u);
    let key_vars: Vec<String> = u
        .key
        .iter()
        .flat_map(|k| k.template.attribute_vars().map(|v| v.name.clone()))
        .collect();
    let var = |v: &str| {
        if key_vars.iter().any(|k| k == v) && !u.change_inputs.iter().any(|i| i.attr == v) {
            format!("{key_obj}[{}]", py_sq(v))
        } else {
            format!("{changes_obj}[{}]", py_sq(v))
        }
    };
    let key: Vec<(String, String)> = u
        .key
        .iter()
        .map(|k| {
            (
                k.attr.clone(),
                Py.value(k, &|v| format!("{key_obj}[{}]", py_sq(v))),
            )
        })
        .collect();
    let values: Vec<(String, String)> = attr_values
        .iter()
        .map(|(placeholder, attr)| {
            let value = match u.derived.iter().find(|d| &d.attr == attr) {
                Some(d) => Py.value(d, &|v: &str| {
                    if d.template.shard().is_some_and(|s| s.name == v) {
                        let n = d.template.shard().and_then(|s| s.shards).unwrap_or(1);
                        format!("random.randrange({n})")
                    } else {
                        var(v)
                    }
                }),
                None => format!("{changes_obj}[{}]", py_str(attr)),
            };
            (placeholder.clone(), value)
        })
        .collect();
    let mut request = vec![
        ("TableName".to_string(), table.to_string()),
        ("Key".to_string(), format!("_to_dynamo({})", py_dict(&key))),
        ("UpdateExpression".to_string(), py_str(&expr)),
    ];
    if let Some(c) = &u.condition {
        request.push(("ConditionExpression".to_string(), py_str(c)));
    }
    let names_pairs: Vec<(String, String)> = attr_names
        .iter()
        .map(|(p, a)| (p.clone(), py_str(a)))
        .collect();
    request.push((
        "ExpressionAttributeNames".to_string(),
        py_dict(&names_pairs),
    ));
    request.push((
        "ExpressionAttributeValues".to_string(),
        format!("_to_dynamo({})", py_dict(&values)),
    ));
    request
}

fn py_kwargs(pairs: &[(String, String)], ind: &str) -> String {
    pairs
        .iter()
        .map(|(k, v)| format!("{ind}{k}={v},\n"))
        .collect()
}

fn py_request(pairs: &[(String, String)], ind: &str) -> String {
    let mut out = String::from("{\n");
    for (k, v) in pairs {
        let _ = writeln!(out, "{ind}    {}: {v},", py_str(k));
    }
    let _ = write!(out, "{ind}}}");
    out
}

pub fn python(design: &Design) -> String {
    tidy_signatures(&python_lines(design), &["def "], "    client, ", 99)
}

fn python_lines(design: &Design) -> String {
    let lookup = Lookup::new(design);
    let calls = calls(&lookup);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "\"\"\"Access code for {} (exported by keyplan): one function per access pattern, on boto3.\"\"\"\n",
        names::one_line(&design.name)
            .replace('\\', "\\\\")
            .replace("\"\"\"", "\\\"\\\"\\\"")
    );
    let sharded = design
        .entities
        .iter()
        .any(|e| e.keys.values().any(|t| t.shard().is_some()));
    out.push_str("from __future__ import annotations\n\nimport os\n");
    if sharded {
        out.push_str("import random\n");
    }
    out.push_str("from decimal import Decimal\nfrom typing import Any, Optional\n\nfrom boto3.dynamodb.types import TypeDeserializer, TypeSerializer\n\n");
    let mut consts = Scope::new();
    let mut table_consts: Vec<(String, String)> = Vec::new();
    for t in &design.tables {
        let c = consts.unique(names::valid(
            &format!("{}_TABLE", names::screaming(&t.name)),
            Lang::Python,
            "TABLE",
        ));
        let _ = writeln!(
            out,
            "{c} = os.environ.get({}, {})",
            py_str(&c),
            py_str(&t.name)
        );
        table_consts.push((t.name.clone(), c));
    }
    let table = |name: &str| {
        table_consts
            .iter()
            .find(|(t, _)| t == name)
            .map(|(_, c)| c.clone())
            .unwrap_or_else(|| py_str(name))
    };
    out.push_str("\nItem = dict[str, Any]\n\n_serializer = TypeSerializer()\n_deserializer = TypeDeserializer()\n\n\n");
    out.push_str("def _to_dynamo(item: Item) -> dict[str, Any]:\n    return {name: _serializer.serialize(value) for name, value in item.items()}\n\n\n");
    out.push_str("def _from_dynamo(item: dict[str, Any]) -> Item:\n    return {name: _deserializer.deserialize(value) for name, value in item.items()}\n");
    if calls
        .iter()
        .any(|c| matches!(&c.kind, Kind::Query(r) if r.shards.is_some()))
    {
        out.push_str("\n\ndef _sort_key(value: Any) -> tuple[int, Any]:\n    \"\"\"DynamoDB's order of key values: numbers numerically, strings by code point.\"\"\"\n    return (0, value) if isinstance(value, (int, Decimal)) else (1, str(value))\n");
    }
    let mut scope = Scope::with_taken(&[
        "Item", "Decimal", "Any", "Optional", "os", "random", "PATTERNS",
    ]);
    let mut registry = Vec::new();
    for call in &calls {
        let fname = scope.unique(names::valid(
            &names::snake(&call.pattern),
            Lang::Python,
            "pattern",
        ));
        if !matches!(call.kind, Kind::Skip(_)) {
            registry.push((call.pattern.clone(), fname.clone()));
        }
        let doc = doc_line(call).replace('\\', "\\\\").replace('"', "\\\"");
        let params = py_params(&call.inputs);
        let input_var = |v: &str| py_ident(v);
        match &call.kind {
            Kind::Skip(why) => {
                let _ = writeln!(
                    out,
                    "\n\n# {fname}: not generated: {}.",
                    names::one_line(why)
                );
            }
            Kind::Get(g) => {
                let _ = writeln!(
                    out,
                    "\n\ndef {fname}(client{params}) -> Optional[Item]:\n    \"\"\"{doc}\"\"\""
                );
                let key: Vec<(String, String)> = g
                    .key
                    .iter()
                    .map(|k| (k.attr.clone(), Py.value(k, &input_var)))
                    .collect();
                let mut kwargs = vec![
                    ("TableName".to_string(), table(&g.table)),
                    ("Key".to_string(), format!("_to_dynamo({})", py_dict(&key))),
                ];
                if g.consistent {
                    kwargs.push(("ConsistentRead".to_string(), "True".to_string()));
                }
                let _ = write!(
                    out,
                    "    response = client.get_item(\n{}    )\n",
                    py_kwargs(&kwargs, "        ")
                );
                out.push_str("    item = response.get(\"Item\")\n    return _from_dynamo(item) if item else None\n");
            }
            Kind::Query(r) => {
                let names_pairs: Vec<(String, String)> = r
                    .names
                    .iter()
                    .map(|(p, a)| (p.clone(), py_str(a)))
                    .collect();
                let mut base = vec![("TableName".to_string(), table(&r.table))];
                if let Some(i) = &r.index {
                    base.push(("IndexName".to_string(), py_str(i)));
                }
                base.push((
                    "KeyConditionExpression".to_string(),
                    py_str(&r.key_condition),
                ));
                base.push((
                    "ExpressionAttributeNames".to_string(),
                    py_dict(&names_pairs),
                ));
                if let Some((shard_var, n)) = &r.shards {
                    let limit = r.limit.unwrap_or(100);
                    let values: Vec<(String, String)> = r
                        .values
                        .iter()
                        .map(|p| {
                            (
                                p.name.clone(),
                                Py.value(&p.value, &|v| {
                                    if v == shard_var {
                                        "shard".to_string()
                                    } else {
                                        py_ident(v)
                                    }
                                }),
                            )
                        })
                        .collect();
                    let _ = writeln!(
                        out,
                        "\n\ndef {fname}(client{params}, limit: int = {limit}) -> list[Item]:\n    \"\"\"{doc}\"\"\""
                    );
                    let _ = writeln!(
                        out,
                        "    # The partition is write-sharded {n} ways: query every shard, then merge."
                    );
                    out.push_str("    # Each shard is read page by page (a page ends at 1 MB) until it gave `limit` items.\n");
                    out.push_str("    items: list[Item] = []\n");
                    let _ = writeln!(out, "    for shard in range({n}):");
                    out.push_str("        found: list[Item] = []\n        start: dict[str, Any] = {}\n        while len(found) < limit:\n");
                    let mut kwargs = base.clone();
                    kwargs.push((
                        "ExpressionAttributeValues".to_string(),
                        format!("_to_dynamo({})", py_dict(&values)),
                    ));
                    if !r.forward {
                        kwargs.push(("ScanIndexForward".to_string(), "False".to_string()));
                    }
                    kwargs.push(("Limit".to_string(), "limit - len(found)".to_string()));
                    let _ = write!(
                        out,
                        "            response = client.query(\n{}                **start,\n            )\n",
                        py_kwargs(&kwargs, "                ")
                    );
                    out.push_str("            found.extend(_from_dynamo(item) for item in response.get(\"Items\", []))\n");
                    out.push_str("            if \"LastEvaluatedKey\" not in response:\n                break\n            start = {\"ExclusiveStartKey\": response[\"LastEvaluatedKey\"]}\n        items.extend(found)\n");
                    if let Some((attr, _)) = &r.merge_by {
                        let _ = writeln!(
                            out,
                            "    items.sort(key=lambda item: _sort_key(item.get({})){})",
                            py_str(attr),
                            if r.forward { "" } else { ", reverse=True" }
                        );
                    }
                    out.push_str("    return items[:limit]\n");
                } else {
                    let values: Vec<(String, String)> = r
                        .values
                        .iter()
                        .map(|p| (p.name.clone(), Py.value(&p.value, &input_var)))
                        .collect();
                    let limit = match r.limit {
                        Some(n) => format!("Optional[int] = {n}"),
                        None => "Optional[int] = None".to_string(),
                    };
                    let _ = writeln!(
                        out,
                        "\n\ndef {fname}(\n    client{params}, limit: {limit}, start_key: Optional[Item] = None\n) -> tuple[list[Item], Optional[Item]]:\n    \"\"\"{doc}\n\n    Returns one page of items and the key to pass as `start_key` for the next, if any.\n    \"\"\""
                    );
                    let mut request = base.clone();
                    request.push((
                        "ExpressionAttributeValues".to_string(),
                        format!("_to_dynamo({})", py_dict(&values)),
                    ));
                    if !r.forward {
                        request.push(("ScanIndexForward".to_string(), "False".to_string()));
                    }
                    if r.consistent {
                        request.push(("ConsistentRead".to_string(), "True".to_string()));
                    }
                    let _ = writeln!(
                        out,
                        "    request: dict[str, Any] = {}",
                        py_request(&request, "    ")
                    );
                    out.push_str("    if limit is not None:\n        request[\"Limit\"] = limit\n");
                    out.push_str("    if start_key is not None:\n        request[\"ExclusiveStartKey\"] = _to_dynamo(start_key)\n");
                    out.push_str("    response = client.query(**request)\n");
                    out.push_str("    next_key = response.get(\"LastEvaluatedKey\")\n");
                    out.push_str("    items = [_from_dynamo(item) for item in response.get(\"Items\", [])]\n");
                    out.push_str(
                        "    return items, (_from_dynamo(next_key) if next_key else None)\n",
                    );
                }
            }
            Kind::Scan(s) => {
                let limit = match s.limit {
                    Some(n) => format!("Optional[int] = {n}"),
                    None => "Optional[int] = None".to_string(),
                };
                let _ = writeln!(
                    out,
                    "\n\ndef {fname}(\n    client{params}, limit: {limit}, start_key: Optional[Item] = None\n) -> tuple[list[Item], Optional[Item]]:\n    \"\"\"{doc}\"\"\""
                );
                for why in &s.why {
                    let _ = writeln!(out, "    # {}", names::one_line(why));
                }
                out.push_str(
                    "    # No index serves this pattern: this Scan reads the whole table.\n",
                );
                let mut request = vec![(
                    "TableName".to_string(),
                    s.table.as_deref().map(&table).unwrap_or_default(),
                )];
                if !s.filter.is_empty() {
                    let names_pairs: Vec<(String, String)> = s
                        .names
                        .iter()
                        .map(|(p, a)| (p.clone(), py_str(a)))
                        .collect();
                    let values: Vec<(String, String)> = s
                        .values
                        .iter()
                        .map(|(p, a)| (p.clone(), py_ident(a)))
                        .collect();
                    request.push(("FilterExpression".to_string(), py_str(&s.filter)));
                    request.push((
                        "ExpressionAttributeNames".to_string(),
                        py_dict(&names_pairs),
                    ));
                    request.push((
                        "ExpressionAttributeValues".to_string(),
                        format!("_to_dynamo({})", py_dict(&values)),
                    ));
                }
                let _ = writeln!(
                    out,
                    "    request: dict[str, Any] = {}",
                    py_request(&request, "    ")
                );
                out.push_str("    if limit is not None:\n        request[\"Limit\"] = limit\n");
                out.push_str("    if start_key is not None:\n        request[\"ExclusiveStartKey\"] = _to_dynamo(start_key)\n");
                out.push_str("    response = client.scan(**request)\n    next_key = response.get(\"LastEvaluatedKey\")\n");
                out.push_str(
                    "    items = [_from_dynamo(item) for item in response.get(\"Items\", [])]\n",
                );
                out.push_str("    return items, (_from_dynamo(next_key) if next_key else None)\n");
            }
            Kind::Write(Step::Put(p)) => {
                let _ = writeln!(
                    out,
                    "\n\ndef {fname}(client, item: Item) -> None:\n    \"\"\"{doc}\"\"\""
                );
                let keys = py_item_keys(p, "item");
                let mut kwargs = vec![
                    ("TableName".to_string(), table(&p.table)),
                    (
                        "Item".to_string(),
                        format!("_to_dynamo({{**item, **{}}})", py_dict(&keys)),
                    ),
                ];
                if let Some(c) = &p.condition {
                    kwargs.push(("ConditionExpression".to_string(), py_str(c)));
                }
                let _ = write!(
                    out,
                    "    client.put_item(\n{}    )\n",
                    py_kwargs(&kwargs, "        ")
                );
            }
            Kind::Write(Step::Update(u)) => {
                let _ = writeln!(
                    out,
                    "\n\ndef {fname}(client, key: Item, changes: Item) -> None:\n    \"\"\"{doc}\"\"\""
                );
                let kwargs = py_update_request(u, "key", "changes", &table(&u.table));
                let _ = write!(
                    out,
                    "    client.update_item(\n{}    )\n",
                    py_kwargs(&kwargs, "        ")
                );
            }
            Kind::Write(Step::Delete(d)) => {
                let _ = writeln!(
                    out,
                    "\n\ndef {fname}(client, key: Item) -> None:\n    \"\"\"{doc}\"\"\""
                );
                let kwargs = py_delete_request(d, "key", &table(&d.table));
                let _ = write!(
                    out,
                    "    client.delete_item(\n{}    )\n",
                    py_kwargs(&kwargs, "        ")
                );
            }
            Kind::Transact(steps) => {
                let params = transact_params(steps, Lang::Python, names::snake);
                let sig: Vec<String> = params
                    .iter()
                    .map(|(f, many)| {
                        format!(", {f}: {}", if *many { "list[Item]" } else { "Item" })
                    })
                    .collect();
                let _ = writeln!(
                    out,
                    "\n\ndef {fname}(client{}) -> None:\n    \"\"\"{doc}\"\"\"",
                    sig.concat()
                );
                out.push_str("    transact_items: list[dict[str, Any]] = []\n");
                for ((s, _), (field, many)) in steps.iter().zip(&params) {
                    let (obj, ind) = if *many {
                        let _ = writeln!(out, "    for item in {field}:");
                        ("item".to_string(), "        ")
                    } else {
                        (field.clone(), "    ")
                    };
                    let (op, request) = match s {
                        Step::Put(p) => {
                            let keys = py_item_keys(p, &obj);
                            let mut r = vec![
                                ("TableName".to_string(), table(&p.table)),
                                (
                                    "Item".to_string(),
                                    format!("_to_dynamo({{**{obj}, **{}}})", py_dict(&keys)),
                                ),
                            ];
                            if let Some(c) = &p.condition {
                                r.push(("ConditionExpression".to_string(), py_str(c)));
                            }
                            ("Put", r)
                        }
                        Step::Update(u) => {
                            ("Update", py_update_request(u, &obj, &obj, &table(&u.table)))
                        }
                        Step::Delete(d) => ("Delete", py_delete_request(d, &obj, &table(&d.table))),
                    };
                    let _ = writeln!(
                        out,
                        "{ind}transact_items.append({{{}: {}}})",
                        py_str(op),
                        py_request(&request, ind)
                    );
                }
                out.push_str("    client.transact_write_items(TransactItems=transact_items)\n");
            }
        }
    }
    out.push_str(
        "\n\n# Every pattern's function, by the pattern's name in the design.\nPATTERNS = {\n",
    );
    for (pattern, fname) in &registry {
        let _ = writeln!(out, "    {}: {fname},", py_str(pattern));
    }
    out.push_str("}\n");
    out
}

// ---------------------------------------------------------------- Rust

struct Rs;

impl Spell for Rs {
    /// Every key value is an `AttributeValue` of the key's type, built from the string.
    fn value(&self, k: &KeyValue, var: &dyn Fn(&str) -> String) -> String {
        let text = self.string(&k.template, var);
        match k.ty {
            KeyType::S => format!("AttributeValue::S({text})"),
            KeyType::N => format!("AttributeValue::N({text})"),
            KeyType::B => format!("AttributeValue::B(Blob::new({text}))"),
        }
    }

    fn string(&self, t: &KeyTemplate, var: &dyn Fn(&str) -> String) -> String {
        if t.is_constant() {
            return format!("{}.to_string()", rs_str(t.literal_prefix()));
        }
        let mut fmt = String::new();
        let mut args = Vec::new();
        for p in t.parts() {
            match p {
                Part::Literal(s) => fmt.push_str(&s.replace('{', "{{").replace('}', "}}")),
                Part::Var(v) => {
                    fmt.push_str("{}");
                    args.push(var(&v.name));
                }
            }
        }
        format!("format!({}, {})", rs_str(&fmt), args.join(", "))
    }
}

fn rs_ident(attr: &str) -> String {
    names::valid(&names::snake(attr), Lang::Rust, "value")
}

fn rs_params(inputs: &[Input]) -> String {
    inputs
        .iter()
        .map(|i| {
            format!(
                ", {}: {}",
                rs_ident(&i.attr),
                if i.ty == AttrType::N { "f64" } else { "&str" }
            )
        })
        .collect()
}

/// Statements binding each variable a key needs, read from an item (`text(&item, "x")?`).
fn rs_bind_from_item(
    keys: &[&KeyValue],
    obj: &str,
    ind: &str,
    skip: &[String],
) -> (String, Vec<String>) {
    let mut out = String::new();
    let mut bound = Vec::new();
    for k in keys {
        for v in k.template.attribute_vars() {
            if bound.contains(&v.name) || skip.contains(&v.name) {
                continue;
            }
            let _ = writeln!(
                out,
                "{ind}let {} = text(&{obj}, {})?;",
                rs_ident(&v.name),
                rs_str(&v.name)
            );
            bound.push(v.name.clone());
        }
    }
    (out, bound)
}

/// The `.key(..)` and `.condition_expression(..)` calls of a delete's builder, one per line at
/// indent `ind`: the same for a DeleteItem alone and for a Delete in a transaction.
fn rs_delete_key_and_condition(out: &mut String, d: &DeleteStep, ind: &str) {
    for k in &d.key {
        let _ = writeln!(
            out,
            "{ind}.key({}, {})",
            rs_str(&k.attr),
            Rs.value(k, &|v| rs_ident(v))
        );
    }
    if let Some(c) = &d.condition {
        let _ = writeln!(out, "{ind}.condition_expression({})", rs_str(c));
    }
}

fn rs_shard_or(k: &KeyValue) -> impl Fn(&str) -> String + '_ {
    move |v: &str| {
        if k.template.shard().is_some_and(|s| s.name == v) {
            let n = k.template.shard().and_then(|s| s.shards).unwrap_or(1);
            format!("shard({n})")
        } else {
            rs_ident(v)
        }
    }
}

fn rs_table_const(design: &Design) -> Vec<(String, String)> {
    let mut consts = Scope::new();
    design
        .tables
        .iter()
        .map(|t| {
            (
                t.name.clone(),
                consts.unique(names::valid(
                    &format!("{}_TABLE", names::screaming(&t.name)),
                    Lang::Rust,
                    "TABLE",
                )),
            )
        })
        .collect()
}

/// The builder calls of a write step, on an existing builder expression.
fn rs_update_calls(u: &UpdateStep, table: &str, ind: &str) -> String {
    let (expr, attr_names, attr_values) = update_expression(u);
    let mut out = String::new();
    let _ = writeln!(out, "{ind}.table_name({table})");
    for k in &u.key {
        let _ = writeln!(
            out,
            "{ind}.key({}, {})",
            rs_str(&k.attr),
            Rs.value(k, &|v| rs_ident(v))
        );
    }
    let _ = writeln!(out, "{ind}.update_expression({})", rs_str(&expr));
    if let Some(c) = &u.condition {
        let _ = writeln!(out, "{ind}.condition_expression({})", rs_str(c));
    }
    for (p, a) in &attr_names {
        let _ = writeln!(
            out,
            "{ind}.expression_attribute_names({}, {})",
            rs_str(p),
            rs_str(a)
        );
    }
    for (p, attr) in &attr_values {
        let value = match u.derived.iter().find(|d| &d.attr == attr) {
            Some(d) => Rs.value(d, &rs_shard_or(d)),
            None => format!("value(&changes, {})?", rs_str(attr)),
        };
        let _ = writeln!(
            out,
            "{ind}.expression_attribute_values({}, {value})",
            rs_str(p)
        );
    }
    out
}

pub fn rust(design: &Design) -> String {
    tidy_signatures(
        &rust_lines(design),
        &["pub async fn "],
        "    client: &Client, ",
        100,
    )
}

fn rust_lines(design: &Design) -> String {
    let lookup = Lookup::new(design);
    let calls = calls(&lookup);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "//! Access code for {} (exported by keyplan): one function per access pattern, on\n//! aws-sdk-dynamodb.\n",
        names::one_line(&design.name)
    );
    let uses_transact = calls.iter().any(|c| matches!(c.kind, Kind::Transact(_)));
    let uses_blob = design
        .tables
        .iter()
        .any(|t| t.key_attributes().iter().any(|k| k.ty == KeyType::B));
    let mut types = vec!["AttributeValue"];
    let transact_steps: Vec<&Step> = calls
        .iter()
        .flat_map(|c| match &c.kind {
            Kind::Transact(steps) => steps.iter().map(|(s, _)| s).collect(),
            _ => Vec::new(),
        })
        .collect();
    if transact_steps.iter().any(|s| matches!(s, Step::Delete(_))) {
        types.push("Delete");
    }
    if transact_steps.iter().any(|s| matches!(s, Step::Put(_))) {
        types.push("Put");
    }
    if uses_transact {
        types.push("TransactWriteItem");
    }
    if transact_steps.iter().any(|s| matches!(s, Step::Update(_))) {
        types.push("Update");
    }
    out.push_str("use std::collections::HashMap;\n\n");
    if calls.iter().any(|c| !matches!(c.kind, Kind::Skip(_))) {
        out.push_str("use aws_sdk_dynamodb::Client;\n");
    }
    if uses_blob {
        out.push_str("use aws_sdk_dynamodb::primitives::Blob;\n");
    }
    let _ = writeln!(
        out,
        "use aws_sdk_dynamodb::types::{{{}}};\n",
        types.join(", ")
    );
    out.push_str("/// An item: attribute names to values.\npub type Item = HashMap<String, AttributeValue>;\n");
    out.push_str("/// Any failure: the SDK's, or a missing attribute in an item passed in.\npub type Error = Box<dyn std::error::Error + Send + Sync>;\n\n");
    let tables = rs_table_const(design);
    for (t, c) in &tables {
        let _ = writeln!(out, "pub const {c}: &str = {};", rs_str(t));
    }
    let table = |name: &str| {
        tables
            .iter()
            .find(|(t, _)| t == name)
            .map(|(_, c)| c.clone())
            .unwrap_or_else(|| rs_str(name))
    };
    out.push_str("\n/// The text of a string or number attribute of `item`, for a key template.\n#[allow(dead_code)]\nfn text(item: &Item, name: &str) -> Result<String, Error> {\n    match item.get(name) {\n        Some(AttributeValue::S(s)) | Some(AttributeValue::N(s)) => Ok(s.clone()),\n        _ => Err(format!(\"the item has no string or number attribute `{name}`\").into()),\n    }\n}\n");
    out.push_str("\n/// An attribute of `item`, which must be there.\n#[allow(dead_code)]\nfn value(item: &Item, name: &str) -> Result<AttributeValue, Error> {\n    item.get(name)\n        .cloned()\n        .ok_or_else(|| format!(\"the item has no attribute `{name}`\").into())\n}\n");
    let sharded = design
        .entities
        .iter()
        .any(|e| e.keys.values().any(|t| t.shard().is_some()));
    if sharded {
        out.push_str("\n/// A write shard, 0 to n-1, spread by the clock's nanoseconds (no rand dependency).\n#[allow(dead_code)]\nfn shard(n: u32) -> u32 {\n    let nanos = std::time::SystemTime::now()\n        .duration_since(std::time::UNIX_EPOCH)\n        .map(|d| d.subsec_nanos())\n        .unwrap_or(0);\n    nanos % n\n}\n");
    }
    let mut scope = Scope::with_taken(&["text", "value", "shard", "Item", "Error"]);
    for call in &calls {
        let fname = scope.unique(names::valid(
            &names::snake(&call.pattern),
            Lang::Rust,
            "pattern",
        ));
        let doc = doc_line(call);
        let params = rs_params(&call.inputs);
        match &call.kind {
            Kind::Skip(why) => {
                let _ = writeln!(
                    out,
                    "\n// {fname}: not generated: {}.",
                    names::one_line(why)
                );
            }
            Kind::Get(g) => {
                let _ = writeln!(
                    out,
                    "\n/// {doc}\npub async fn {fname}(client: &Client{params}) -> Result<Option<Item>, Error> {{"
                );
                let _ = writeln!(
                    out,
                    "    let output = client\n        .get_item()\n        .table_name({})",
                    table(&g.table)
                );
                for k in &g.key {
                    let _ = writeln!(
                        out,
                        "        .key({}, {})",
                        rs_str(&k.attr),
                        Rs.value(k, &|v| rs_ident(v))
                    );
                }
                if g.consistent {
                    out.push_str("        .consistent_read(true)\n");
                }
                out.push_str("        .send()\n        .await?;\n    Ok(output.item)\n}\n");
            }
            Kind::Query(r) => {
                let query_calls = |out: &mut String, var: &dyn Fn(&str) -> String, ind: &str| {
                    let _ = writeln!(out, "{ind}.table_name({})", table(&r.table));
                    if let Some(i) = &r.index {
                        let _ = writeln!(out, "{ind}.index_name({})", rs_str(i));
                    }
                    let _ = writeln!(
                        out,
                        "{ind}.key_condition_expression({})",
                        rs_str(&r.key_condition)
                    );
                    for (p, a) in &r.names {
                        let _ = writeln!(
                            out,
                            "{ind}.expression_attribute_names({}, {})",
                            rs_str(p),
                            rs_str(a)
                        );
                    }
                    for p in &r.values {
                        let _ = writeln!(
                            out,
                            "{ind}.expression_attribute_values({}, {})",
                            rs_str(&p.name),
                            Rs.value(&p.value, var)
                        );
                    }
                    if !r.forward {
                        let _ = writeln!(out, "{ind}.scan_index_forward(false)");
                    }
                    if r.consistent {
                        let _ = writeln!(out, "{ind}.consistent_read(true)");
                    }
                };
                if let Some((shard_var, n)) = &r.shards {
                    let _ = writeln!(
                        out,
                        "\n/// {doc}\npub async fn {fname}(client: &Client{params}, limit: i32) -> Result<Vec<Item>, Error> {{"
                    );
                    let _ = writeln!(
                        out,
                        "    // The partition is write-sharded {n} ways: query every shard, then merge."
                    );
                    let _ = writeln!(
                        out,
                        "    // Each shard is read page by page (a page ends at 1 MB) until it gave `limit` items.\n    let mut items: Vec<Item> = Vec::new();\n    for shard in 0..{n}u32 {{\n        let (mut taken, mut start_key) = (0, None);\n        while taken < limit {{\n            let output = client\n                .query()"
                    );
                    query_calls(
                        &mut out,
                        &|v: &str| {
                            if v == shard_var {
                                "shard".to_string()
                            } else {
                                rs_ident(v)
                            }
                        },
                        "                ",
                    );
                    out.push_str("                .limit(limit - taken)\n                .set_exclusive_start_key(start_key)\n                .send()\n                .await?;\n            let page = output.items.unwrap_or_default();\n            taken += i32::try_from(page.len()).unwrap_or(i32::MAX);\n            items.extend(page);\n            start_key = output.last_evaluated_key;\n            if start_key.is_none() {\n                break;\n            }\n        }\n    }\n");
                    if let Some((attr, ty)) = &r.merge_by {
                        let key = match ty {
                            KeyType::N => format!(
                                "item.get({}).and_then(|v| v.as_n().ok()).and_then(|n| n.parse::<f64>().ok()).unwrap_or(f64::NAN)",
                                rs_str(attr)
                            ),
                            _ => format!(
                                "item.get({}).and_then(|v| v.as_s().ok()).cloned().unwrap_or_default()",
                                rs_str(attr)
                            ),
                        };
                        let (a, b) = if r.forward { ("a", "b") } else { ("b", "a") };
                        let cmp = match ty {
                            KeyType::N => format!("sort_key({a}).total_cmp(&sort_key({b}))"),
                            _ => format!("sort_key({a}).cmp(&sort_key({b}))"),
                        };
                        let ret = match ty {
                            KeyType::N => "f64",
                            _ => "String",
                        };
                        let _ = writeln!(
                            out,
                            "    let sort_key = |item: &Item| -> {ret} {{ {key} }};\n    items.sort_by(|a, b| {cmp});"
                        );
                    }
                    out.push_str("    items.truncate(usize::try_from(limit).unwrap_or(0));\n    Ok(items)\n}\n");
                } else {
                    let _ = writeln!(
                        out,
                        "\n/// {doc}\n///\n/// Returns one page and the key to pass as `start_key` for the next, if any.\npub async fn {fname}(\n    client: &Client{params},\n    limit: Option<i32>,\n    start_key: Option<Item>,\n) -> Result<(Vec<Item>, Option<Item>), Error> {{"
                    );
                    out.push_str("    let output = client\n        .query()\n");
                    query_calls(&mut out, &|v: &str| rs_ident(v), "        ");
                    let limit = match r.limit {
                        Some(n) => format!("limit.or(Some({n}))"),
                        None => "limit".to_string(),
                    };
                    let _ = writeln!(
                        out,
                        "        .set_limit({limit})\n        .set_exclusive_start_key(start_key)\n        .send()\n        .await?;"
                    );
                    out.push_str("    Ok((output.items.unwrap_or_default(), output.last_evaluated_key))\n}\n");
                }
            }
            Kind::Scan(s) => {
                let _ = writeln!(
                    out,
                    "\n/// {doc}\npub async fn {fname}(\n    client: &Client{params},\n    limit: Option<i32>,\n    start_key: Option<Item>,\n) -> Result<(Vec<Item>, Option<Item>), Error> {{"
                );
                for why in &s.why {
                    let _ = writeln!(out, "    // {}", names::one_line(why));
                }
                out.push_str(
                    "    // No index serves this pattern: this Scan reads the whole table.\n",
                );
                let _ = writeln!(
                    out,
                    "    let output = client\n        .scan()\n        .table_name({})",
                    s.table.as_deref().map(&table).unwrap_or_default()
                );
                if !s.filter.is_empty() {
                    let _ = writeln!(out, "        .filter_expression({})", rs_str(&s.filter));
                    for (p, a) in &s.names {
                        let _ = writeln!(
                            out,
                            "        .expression_attribute_names({}, {})",
                            rs_str(p),
                            rs_str(a)
                        );
                    }
                    for ((p, a), input) in s.values.iter().zip(&call.inputs) {
                        let v = if input.ty == AttrType::N {
                            format!("AttributeValue::N({}.to_string())", rs_ident(a))
                        } else {
                            format!("AttributeValue::S({}.to_string())", rs_ident(a))
                        };
                        let _ = writeln!(
                            out,
                            "        .expression_attribute_values({}, {v})",
                            rs_str(p)
                        );
                    }
                }
                let limit = match s.limit {
                    Some(n) => format!("limit.or(Some({n}))"),
                    None => "limit".to_string(),
                };
                let _ = writeln!(
                    out,
                    "        .set_limit({limit})\n        .set_exclusive_start_key(start_key)\n        .send()\n        .await?;"
                );
                out.push_str(
                    "    Ok((output.items.unwrap_or_default(), output.last_evaluated_key))\n}\n",
                );
            }
            Kind::Write(Step::Put(p)) => {
                // `mut` only when keys are computed into the item.
                let item = if p.keys.is_empty() {
                    "item"
                } else {
                    "mut item"
                };
                let _ = writeln!(
                    out,
                    "\n/// {doc}\npub async fn {fname}(client: &Client, {item}: Item) -> Result<(), Error> {{"
                );
                let keys: Vec<&KeyValue> = p.keys.iter().collect();
                let (bind, _) = rs_bind_from_item(&keys, "item", "    ", &[]);
                out.push_str(&bind);
                for k in &p.keys {
                    let _ = writeln!(
                        out,
                        "    item.insert({}.to_string(), {});",
                        rs_str(&k.attr),
                        Rs.value(k, &rs_shard_or(k))
                    );
                }
                let _ = writeln!(
                    out,
                    "    client\n        .put_item()\n        .table_name({})\n        .set_item(Some(item))",
                    table(&p.table)
                );
                if let Some(c) = &p.condition {
                    let _ = writeln!(out, "        .condition_expression({})", rs_str(c));
                }
                out.push_str("        .send()\n        .await?;\n    Ok(())\n}\n");
            }
            Kind::Write(Step::Update(u)) => {
                let _ = writeln!(
                    out,
                    "\n/// {doc}\npub async fn {fname}(client: &Client, key: Item, changes: Item) -> Result<(), Error> {{"
                );
                let key_refs: Vec<&KeyValue> = u.key.iter().collect();
                let (bind, bound) = rs_bind_from_item(&key_refs, "key", "    ", &[]);
                out.push_str(&bind);
                let derived: Vec<&KeyValue> = u.derived.iter().collect();
                let (bind2, _) = rs_bind_from_item(&derived, "changes", "    ", &bound);
                out.push_str(&bind2);
                out.push_str("    client\n        .update_item()\n");
                out.push_str(&rs_update_calls(u, &table(&u.table), "        "));
                out.push_str("        .send()\n        .await?;\n    Ok(())\n}\n");
            }
            Kind::Write(Step::Delete(d)) => {
                let _ = writeln!(
                    out,
                    "\n/// {doc}\npub async fn {fname}(client: &Client, key: Item) -> Result<(), Error> {{"
                );
                let key_refs: Vec<&KeyValue> = d.key.iter().collect();
                let (bind, _) = rs_bind_from_item(&key_refs, "key", "    ", &[]);
                out.push_str(&bind);
                let _ = writeln!(
                    out,
                    "    client\n        .delete_item()\n        .table_name({})",
                    table(&d.table)
                );
                rs_delete_key_and_condition(&mut out, d, "        ");
                out.push_str("        .send()\n        .await?;\n    Ok(())\n}\n");
            }
            Kind::Transact(steps) => {
                let params = transact_params(steps, Lang::Rust, names::snake);
                let sig: Vec<String> = params
                    .iter()
                    .map(|(f, many)| format!(", {f}: {}", if *many { "Vec<Item>" } else { "Item" }))
                    .collect();
                let _ = writeln!(
                    out,
                    "\n/// {doc}\npub async fn {fname}(client: &Client{}) -> Result<(), Error> {{",
                    sig.concat()
                );
                out.push_str("    let mut transact_items = Vec::new();\n");
                for ((s, _), (field, many)) in steps.iter().zip(&params) {
                    let (obj, ind) = if *many {
                        let _ = writeln!(out, "    for item in {field} {{");
                        ("item".to_string(), "        ")
                    } else {
                        let _ = writeln!(out, "    {{");
                        (field.clone(), "        ")
                    };
                    match s {
                        Step::Put(p) => {
                            let keys: Vec<&KeyValue> = p.keys.iter().collect();
                            let (bind, _) = rs_bind_from_item(&keys, &obj, ind, &[]);
                            out.push_str(&bind);
                            let item = if p.keys.is_empty() {
                                "item"
                            } else {
                                "mut item"
                            };
                            let _ = writeln!(out, "{ind}let {item} = {obj};");
                            for k in &p.keys {
                                let _ = writeln!(
                                    out,
                                    "{ind}item.insert({}.to_string(), {});",
                                    rs_str(&k.attr),
                                    Rs.value(k, &rs_shard_or(k))
                                );
                            }
                            let _ = writeln!(
                                out,
                                "{ind}let put = Put::builder()\n{ind}    .table_name({})\n{ind}    .set_item(Some(item))",
                                table(&p.table)
                            );
                            if let Some(c) = &p.condition {
                                let _ =
                                    writeln!(out, "{ind}    .condition_expression({})", rs_str(c));
                            }
                            let _ = writeln!(
                                out,
                                "{ind}    .build()?;\n{ind}transact_items.push(TransactWriteItem::builder().put(put).build());"
                            );
                        }
                        Step::Update(u) => {
                            let key_refs: Vec<&KeyValue> = u.key.iter().collect();
                            let (bind, bound) = rs_bind_from_item(&key_refs, &obj, ind, &[]);
                            out.push_str(&bind);
                            let derived: Vec<&KeyValue> = u.derived.iter().collect();
                            let (bind2, _) = rs_bind_from_item(&derived, &obj, ind, &bound);
                            out.push_str(&bind2);
                            let _ = writeln!(out, "{ind}let changes = &{obj};");
                            let _ = writeln!(out, "{ind}let update = Update::builder()");
                            out.push_str(
                                &rs_update_calls(u, &table(&u.table), &format!("{ind}    "))
                                    .replace("value(&changes,", "value(changes,"),
                            );
                            let _ = writeln!(
                                out,
                                "{ind}    .build()?;\n{ind}transact_items.push(TransactWriteItem::builder().update(update).build());"
                            );
                        }
                        Step::Delete(d) => {
                            let key_refs: Vec<&KeyValue> = d.key.iter().collect();
                            let (bind, _) = rs_bind_from_item(&key_refs, &obj, ind, &[]);
                            out.push_str(&bind);
                            let _ = writeln!(
                                out,
                                "{ind}let delete = Delete::builder()\n{ind}    .table_name({})",
                                table(&d.table)
                            );
                            rs_delete_key_and_condition(&mut out, d, &format!("{ind}    "));
                            let _ = writeln!(
                                out,
                                "{ind}    .build()?;\n{ind}transact_items.push(TransactWriteItem::builder().delete(delete).build());"
                            );
                        }
                    }
                    out.push_str("    }\n");
                }
                out.push_str("    client\n        .transact_write_items()\n        .set_transact_items(Some(transact_items))\n        .send()\n        .await?;\n    Ok(())\n}\n");
            }
        }
    }
    out
}
