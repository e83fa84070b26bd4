//! Access code: a function per access pattern, in TypeScript on `@aws-sdk/lib-dynamodb`,
//! Python on boto3 and Rust on aws-sdk-dynamodb, in the style of the seed article (typed
//! inputs, pagination by ExclusiveStartKey and LastEvaluatedKey, one TransactWriteItems for a
//! multi-item write, scatter-gather over write shards).
//!
//! Each pattern is first turned into a language-neutral [`Call`] (here, from its coverage
//! verdict and the entities' key templates); [`driver::render`] walks the calls once and hands
//! each to a [`driver::Dialect`] (`typescript.rs`, `python.rs`, `rust.rs`), which only spells
//! it. A dialect writes each write step once, told whether it is a function of its own or one
//! step of a transaction. Every expression uses `#name` and `:value` placeholders, so attribute
//! names that are DynamoDB reserved words (`status`, `name`, `date`) need no care.
//!
//! A read whose pattern states a PartiQL statement (issue 40) is sent as that statement with
//! ExecuteStatement, a value for each `?` computed from its template (a [`Statement`]): the
//! application's own statement, judged by coverage as the read it maps to. A vector search is
//! SearchVectors with the caller's query vector ([`vector`]).

mod driver;
mod python;
mod rust;
mod typescript;
mod vector;

use crate::accepts;
use crate::analysis::{Operation, Verdict, verdicts};
use crate::export::names::{self, Lang, Scope};
use crate::model::{
    AccessPattern, Action, AttrType, ByName, Design, Entity, KeyType, SortOp, Table,
};
use crate::template::KeyTemplate;

/// A function input: an attribute the caller knows.
#[derive(Debug, Clone, PartialEq)]
struct Input {
    /// The attribute's name in the design.
    attr: String,
    ty: AttrType,
}

/// A key attribute and the template of its value (not a value: the code computes it from the
/// template's variables).
#[derive(Debug, Clone)]
struct TemplatedKey {
    attr: String,
    ty: KeyType,
    template: KeyTemplate,
}

/// A placeholder in an expression and the value it stands for.
#[derive(Debug, Clone)]
struct Placeholder {
    name: String,
    value: TemplatedKey,
}

#[derive(Debug, Clone)]
struct Read {
    table: String,
    index: Option<String>,
    key_condition: String,
    /// The FilterExpression (issue 16), its names and values among `names` and `values`.
    filter: Option<String>,
    /// Each input a filter value is given as, and the attribute it is compared with (its type).
    filter_inputs: Vec<(String, String)>,
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
    key: Vec<TemplatedKey>,
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

/// A read sent as the PartiQL statement its pattern states (issue 40), with ExecuteStatement:
/// the statement as written, and the value of each `?` in order, from its template.
#[derive(Debug, Clone)]
struct Statement {
    statement: String,
    /// Each `?`'s value; its `attr` is the variable or `value`.
    parameters: Vec<TemplatedKey>,
    consistent: bool,
    limit: Option<u32>,
    /// Why DynamoDB reads every item for it, when it does (a Scan).
    why: Vec<String>,
}

/// The comment over an ExecuteStatement call, in every language: the statement names its
/// table, so the module's table constant (and its environment variable) does not apply.
const STATEMENT_AS_WRITTEN: &str =
    "The pattern's PartiQL statement, sent as written: it names its table itself.";

/// A put of one entity: its computed key attributes, spread with the item.
#[derive(Debug, Clone)]
struct PutStep {
    table: String,
    entity: String,
    keys: Vec<TemplatedKey>,
    condition: Option<String>,
}

/// An update of one entity: the table key, then SET of each change and of each index key a
/// change feeds.
#[derive(Debug, Clone)]
struct UpdateStep {
    table: String,
    entity: String,
    key: Vec<TemplatedKey>,
    /// The variables of the table key, in first-use order: what the caller passes as `key`.
    key_inputs: Vec<Input>,
    /// Attributes set from the caller's `changes`.
    set: Vec<String>,
    /// Index keys recomputed from the changes.
    derived: Vec<TemplatedKey>,
    /// The attributes `changes` must carry (changes plus the variables of derived keys).
    change_inputs: Vec<Input>,
    condition: Option<String>,
}

impl UpdateStep {
    /// Whether a variable of a SET value is read from the caller's key (a variable of the
    /// table key that the changes do not carry) rather than from the changes.
    fn reads_from_key(&self, var: &str) -> bool {
        self.key
            .iter()
            .any(|k| k.template.attribute_vars().any(|v| v.name == var))
            && !self.change_inputs.iter().any(|i| i.attr == var)
    }
}

#[derive(Debug, Clone)]
struct DeleteStep {
    table: String,
    entity: String,
    key: Vec<TemplatedKey>,
    /// The variables of the table key, in first-use order: what the caller passes as `key`.
    key_inputs: Vec<Input>,
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
enum CallKind {
    Get(Get),
    Query(Read),
    Scan(Scan),
    Statement(Statement),
    /// A vector search: SearchVectors (issue 40).
    Vector(vector::Search),
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
    kind: CallKind,
}

/// Placeholder names: `#` or `:` then the attribute's letters, digits and `_`, unique.
fn placeholder(attr: &str, taken: &mut Scope, fallback: &str) -> String {
    // Sized once: collected char by char, the string grew (and was copied) twice or more
    // for each of the 100,000 placeholders of a 10,000-entity design (issue 13).
    let mut clean = String::with_capacity(attr.len());
    clean.extend(
        attr.chars()
            .filter(|c| c.is_ascii_alphanumeric() || *c == '_'),
    );
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

/// The variables of `key`'s templates, typed from `entities`' attributes.
fn key_inputs(design: &Lookup<'_>, key: &[TemplatedKey], entities: &[String]) -> Vec<Input> {
    let mut inputs = Vec::new();
    for k in key {
        push_inputs(&mut inputs, &k.template, design, entities);
    }
    inputs
}

fn key_type_of(table: &Table, attr: &str) -> KeyType {
    table.key_attribute(attr).map_or(KeyType::S, |k| k.ty)
}

/// The table-key values of an entity: its template for the partition and sort key.
fn table_key(table: &Table, entity: &Entity) -> Vec<TemplatedKey> {
    table
        .primary_key()
        .filter_map(|k| {
            Some(TemplatedKey {
                attr: k.name.clone(),
                ty: k.ty,
                template: entity.key_template(&k.name)?.into_owned(),
            })
        })
        .collect()
}

/// Every key attribute an entity fills with its own template. A key attribute that is also an
/// attribute of the entity is the item's own value, never computed over it.
fn computed_keys(table: &Table, entity: &Entity) -> Vec<TemplatedKey> {
    table
        .key_attributes()
        .into_iter()
        .filter(|k| entity.attribute(&k.name).is_none())
        .filter_map(|k| {
            Some(TemplatedKey {
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
    let derived: Vec<TemplatedKey> = computed_keys(table, entity)
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
        key_inputs: key_inputs(design, &key, &entities),
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
    let key = table_key(table, entity);
    Some(DeleteStep {
        table: table.name.clone(),
        entity: entity.name.clone(),
        key_inputs: key_inputs(design, &key, std::slice::from_ref(&entity.name)),
        key,
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

fn step_key_inputs(s: &Step) -> Vec<&TemplatedKey> {
    match s {
        Step::Put(_) => Vec::new(),
        Step::Update(u) => u.key.iter().collect(),
        Step::Delete(d) => d.key.iter().collect(),
    }
}

/// The verdict's reasons and filter are taken, not copied: a Scan's reasons (one per index of
/// its table, 210,000 at 10,000 entities) are what the call writes, and were copied for it
/// (issue 13).
fn read_call(design: &Lookup<'_>, pattern: &AccessPattern, verdict: &mut Verdict) -> CallKind {
    let Some(table_name) = verdict.table.clone().or_else(|| {
        pattern
            .entities
            .first()
            .and_then(|e| design.entity(e))
            .map(|e| e.table.clone())
    }) else {
        return CallKind::Skip("the pattern names no entity in a table".to_string());
    };
    let Some(table) = design.table(&table_name) else {
        return CallKind::Skip(format!("table `{table_name}` does not exist"));
    };
    if verdict.operation == Operation::SearchVectors {
        return vector::search_call(table, pattern, verdict);
    }
    if let Some(kind) = statement_call(design, pattern, verdict) {
        return kind;
    }
    let limit = pattern.page_size;
    let spec = match (&verdict.query, verdict.operation) {
        (Some(spec), Operation::GetItem | Operation::Query) => spec,
        _ => {
            // No index serves the read: a filtered Scan, said plainly, with the verdict's
            // FilterExpression (the inputs, the sort condition, the filter conditions).
            let (filter, names, values) = match verdict.filter.take() {
                Some(f) => (
                    f.expression,
                    f.names,
                    f.values
                        .into_iter()
                        .map(|(name, template)| {
                            let input = template.trim_start_matches('{').trim_end_matches('}');
                            (name, input.to_string())
                        })
                        .collect(),
                ),
                None => (String::new(), Vec::new(), Vec::new()),
            };
            let mut why = std::mem::take(&mut verdict.reasons);
            for s in &verdict.suggestions {
                why.push(format!("suggestion: {s}"));
            }
            return CallKind::Scan(Scan {
                table: Some(table.name.clone()),
                filter,
                names,
                values,
                limit,
                why,
            });
        }
    };
    // The same authority coverage asked: a call DynamoDB would refuse is not written.
    let read = match verdict.operation {
        Operation::GetItem => accepts::Read::GetItem,
        _ => accepts::Read::Query,
    };
    let refused = table
        .indexes()
        .iter()
        .find(|i| i.name == verdict.index.as_deref())
        .map(|keys| accepts::query_spec(keys.into(), read, pattern.consistent, spec));
    match refused {
        None => {
            return CallKind::Skip(format!(
                "the index the verdict names is not in `{}`",
                table.name
            ));
        }
        Some(Err(refusal)) => {
            return CallKind::Skip(format!("DynamoDB would refuse it: {refusal}"));
        }
        Some(Ok(())) => {}
    }
    let to_value = |attr: &str, template: &KeyTemplate| TemplatedKey {
        attr: attr.to_string(),
        ty: key_type_of(table, attr),
        template: template.clone(),
    };
    if verdict.operation == Operation::GetItem {
        return CallKind::Get(Get {
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
    // The placeholders are joined, not formatted: several for each of 50,000 reads at 10,000
    // entities (issue 13).
    for part in spec.partition.iter().chain(&spec.sort_equal) {
        let n = placeholder(&part.attribute, &mut name_scope, "k");
        let v = placeholder(&part.attribute.to_ascii_lowercase(), &mut value_scope, "v");
        terms.push(["#", &n, " = :", &v].concat());
        names.push((["#", &n].concat(), part.attribute.clone()));
        values.push(Placeholder {
            name: [":", &v].concat(),
            value: to_value(&part.attribute, &part.template),
        });
    }
    if let Some(cond) = &spec.sort_condition {
        let n = placeholder(&cond.attribute, &mut name_scope, "k");
        names.push((["#", &n].concat(), cond.attribute.clone()));
        let lower = cond.attribute.to_ascii_lowercase();
        let mut value_names = Vec::new();
        for (i, template) in cond.values.iter().enumerate() {
            let base = match (cond.op, i) {
                (SortOp::Between, 0) => format!("{lower}_from"),
                (SortOp::Between, _) => format!("{lower}_to"),
                _ => lower.clone(),
            };
            let v = [":", &placeholder(&base, &mut value_scope, "v")].concat();
            values.push(Placeholder {
                name: v.clone(),
                value: to_value(&cond.attribute, template),
            });
            value_names.push(v);
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
    // The FilterExpression, its placeholders kept apart from the key condition's (`#f_`,
    // `:f_`), each value an input of the function typed by the attribute it is compared with.
    let mut filter = None;
    let mut filter_inputs = Vec::new();
    if let Some(expression) = &verdict.filter {
        let mut clauses = Vec::new();
        for term in &expression.terms {
            let n = placeholder(&format!("f_{}", term.attribute), &mut name_scope, "f");
            names.push((format!("#{n}"), term.attribute.clone()));
            let ty = input_type(design, &pattern.entities, &term.attribute)
                .as_key_type()
                .unwrap_or(KeyType::S);
            let mut value_names = Vec::new();
            for input in &term.inputs {
                let v = placeholder(&format!("f_{input}"), &mut value_scope, "f");
                values.push(Placeholder {
                    name: format!(":{v}"),
                    value: TemplatedKey {
                        attr: term.attribute.clone(),
                        ty,
                        template: KeyTemplate::variable(input),
                    },
                });
                value_names.push(format!(":{v}"));
                filter_inputs.push((input.clone(), term.attribute.clone()));
            }
            clauses.push(crate::coverage::filter_clause(
                term.op,
                &format!("#{n}"),
                &value_names,
            ));
        }
        filter = Some(clauses.join(" AND "));
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
    CallKind::Query(Read {
        table: table.name.clone(),
        index: verdict.index.clone(),
        key_condition: terms.join(" AND "),
        filter,
        filter_inputs,
        names,
        values,
        forward: verdict.scan_forward,
        limit,
        consistent: pattern.consistent,
        shards,
        merge_by,
    })
}

/// The call of a read whose pattern states a PartiQL statement: ExecuteStatement with it, when
/// coverage mapped it (the verdict holds it with each `?`'s template); a note when it could
/// not (KP033 says why). `None` for a pattern that states none, and in a build without the
/// parser, which writes the structured read its fields describe.
fn statement_call(
    design: &Lookup<'_>,
    pattern: &AccessPattern,
    verdict: &mut Verdict,
) -> Option<CallKind> {
    pattern.partiql.as_ref()?;
    if !crate::partiql::READS_PARTIQL {
        return None;
    }
    let Some(stated) = verdict.partiql.take() else {
        let why = verdict.reasons.first().map_or("", String::as_str);
        return Some(CallKind::Skip(format!(
            "its PartiQL statement is not sent: {why}"
        )));
    };
    let parameters = stated
        .parameters
        .iter()
        .map(|source| {
            let template = KeyTemplate::parse(source);
            let var = match template.parts() {
                [crate::template::Part::Var(v)] => Some(v.name.clone()),
                _ => None,
            };
            let ty = match &var {
                Some(v) if input_type(design, &pattern.entities, v) == AttrType::N => KeyType::N,
                _ => KeyType::S,
            };
            TemplatedKey {
                attr: var.unwrap_or_else(|| "value".to_string()),
                ty,
                template,
            }
        })
        .collect();
    let why = if verdict.operation == Operation::Scan {
        std::mem::take(&mut verdict.reasons)
    } else {
        Vec::new()
    };
    Some(CallKind::Statement(Statement {
        statement: stated.statement,
        parameters,
        consistent: pattern.consistent,
        limit: pattern.page_size,
        why,
    }))
}

fn calls(design: &Lookup<'_>) -> Vec<Call> {
    let verdicts = verdicts(design.design);
    // Each pattern's call on its own (over the machine's cores with core's `parallel`).
    let pairs: Vec<(&AccessPattern, Verdict)> =
        design.design.patterns.iter().zip(verdicts).collect();
    crate::par::map_owned(pairs, |(pattern, mut verdict)| {
        let kind = match pattern.action {
            Action::Read => read_call(design, pattern, &mut verdict),
            Action::Transact => {
                let steps: Vec<(Step, u32)> = pattern
                    .writes
                    .iter()
                    .filter_map(|w| {
                        let s = step(design, w.action, &w.entity, &w.changes, w.condition.clone())?;
                        Some((s, w.count.max(1)))
                    })
                    .collect();
                if steps.is_empty() {
                    CallKind::Skip("the transaction has no writes to known entities".to_string())
                } else {
                    CallKind::Transact(steps)
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
                Some(s) => CallKind::Write(s),
                None => CallKind::Skip("the write names no known entity".to_string()),
            },
        };
        let mut inputs = Vec::new();
        match &kind {
            CallKind::Get(g) => {
                for k in &g.key {
                    push_inputs(&mut inputs, &k.template, design, &pattern.entities);
                }
            }
            CallKind::Query(r) => {
                for p in &r.values {
                    push_inputs(&mut inputs, &p.value.template, design, &pattern.entities);
                }
                // A filter value (`status_1`, `total_to`) has its attribute's type.
                for (input, attribute) in &r.filter_inputs {
                    if let Some(i) = inputs.iter_mut().find(|i| i.attr == *input) {
                        i.ty = input_type(design, &pattern.entities, attribute);
                    }
                }
            }
            CallKind::Statement(s) => {
                for p in &s.parameters {
                    push_inputs(&mut inputs, &p.template, design, &pattern.entities);
                }
            }
            CallKind::Scan(s) => {
                for (_, attr) in &s.values {
                    inputs.push(Input {
                        attr: attr.clone(),
                        ty: input_type(design, &pattern.entities, attr),
                    });
                }
            }
            CallKind::Write(s) => {
                for k in step_key_inputs(s) {
                    push_inputs(&mut inputs, &k.template, design, &pattern.entities);
                }
            }
            // The query vector is the function's own parameter, not a key input.
            CallKind::Vector(_) | CallKind::Transact(_) | CallKind::Skip(_) => {}
        }
        let entities = match &kind {
            CallKind::Transact(steps) => {
                steps.iter().map(|(s, _)| s.entity().to_string()).collect()
            }
            _ => pattern.entities.clone(),
        };
        Call {
            pattern: pattern.name.clone(),
            description: pattern.description.clone(),
            operation: verdict.operation,
            index: verdict.index,
            inputs,
            entities,
            kind,
        }
    })
}

/// A call's one-line documentation: the pattern, how it is served, its description.
fn doc_line(call: &Call) -> String {
    // Joined in one string, not formatted in pieces: one per call (issue 13).
    let (on, index) = match &call.index {
        Some(i) => ("index ", i.as_str()),
        None => ("the table", ""),
    };
    let line = [
        call.pattern.as_str(),
        ": ",
        call.operation.as_str(),
        " on ",
        on,
        index,
        ".",
        if call.description.is_empty() { "" } else { " " },
        call.description.as_str(),
    ]
    .concat();
    names::one_line(&line)
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

/// Whether any entity's key has a write shard (the code then draws one at random).
fn writes_shards(design: &Design) -> bool {
    design
        .entities
        .iter()
        .any(|e| e.keys.values().any(|t| t.shard().is_some()))
}

/// Whether any call is a scatter-gather Query over write shards (the code then merges).
fn gathers_shards(calls: &[Call]) -> bool {
    calls
        .iter()
        .any(|c| matches!(&c.kind, CallKind::Query(r) if r.shards.is_some()))
}

/// The TypeScript module on `@aws-sdk/lib-dynamodb`.
pub fn typescript(design: &Design) -> String {
    driver::render(design, typescript::TypeScript::default())
}

/// The Python module on boto3.
pub fn python(design: &Design) -> String {
    driver::render(design, python::Python::default())
}

/// The Rust module on aws-sdk-dynamodb.
pub fn rust(design: &Design) -> String {
    driver::render(design, rust::Rust::default())
}

#[cfg(all(test, feature = "partiql"))]
mod tests;
