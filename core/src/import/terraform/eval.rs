//! Terraform expressions evaluated as far as the file allows (issue 36): each `variable`'s
//! `default` as `var`, the `locals` that evaluate as `local`, `count.index` and `each` per
//! instance of a block, and `dynamic` blocks unrolled over a literal collection. What does not
//! evaluate stays as its text, `{"$expr": "var.x"}`, for the slot that reads it to assume the
//! least; a template keeps what is known of it. Also: the line of a value from its path, as
//! HCL's parsed tree keeps no places. Nothing here reads outside the text.

use hcl::eval::{Context, Evaluate};
use serde_json::{Map, Value};

use super::super::cloudformation::Lenient;
use super::super::cloudformation::lenient::{EXPR, Piece, joined};

/// How many passes resolve `locals` that name each other.
const LOCAL_PASSES: usize = 8;

/// The most values one expression may make, counted before it is evaluated from the sizes of
/// what it names (a local of a thousand elements named a thousand times is not evaluated), and
/// the most values the variables, the locals and the blocks read may hold (`count`, `for_each`
/// and `dynamic` blocks repeat them): issue 41's bounds, decided before allocating.
const MAX_EVAL_VALUES: usize = 100_000;
const MAX_BUILT_VALUES: usize = super::MAX_HCL_TOKENS / 4;

/// Expressions evaluated within bounds: the context (each `variable`'s `default` as `var`, the
/// `locals` that evaluate as `local`, `each`, `count` and `dynamic` iterators as they are
/// declared) and the size of each value in it.
pub(super) struct Evaluator {
    ctx: Context<'static>,
    /// The number of values of `var.x`, `local.x` and of each other variable declared.
    sizes: std::collections::HashMap<String, usize>,
    /// How many values the blocks read hold so far.
    built: usize,
}

impl Evaluator {
    pub(super) fn new(body: &hcl::Body) -> Evaluator {
        let mut ev = Evaluator {
            ctx: Context::new(),
            sizes: Default::default(),
            built: 0,
        };
        let mut variables = hcl::Map::new();
        for block in body.blocks().filter(|b| b.identifier() == "variable") {
            let (Some(name), Some(default)) = (
                block.labels().first(),
                block.body().attributes().find(|a| a.key() == "default"),
            ) else {
                continue;
            };
            if let Some(value) = ev.eval(default.expr())
                && ev.build(size(&value))
            {
                ev.sizes
                    .insert(format!("var.{}", name.as_str()), size(&value));
                variables.insert(name.as_str().to_string(), value);
            }
        }
        ev.ctx.declare_var("var", hcl::Value::Object(variables));
        let mut pending: Vec<&hcl::Attribute> = body
            .blocks()
            .filter(|b| b.identifier() == "locals")
            .flat_map(|b| b.body().attributes())
            .collect();
        let mut locals = hcl::Map::new();
        for _ in 0..LOCAL_PASSES {
            let before = pending.len();
            let mut still = Vec::new();
            for attribute in pending {
                match ev.eval(attribute.expr()) {
                    Some(value) if ev.build(size(&value)) => {
                        ev.sizes
                            .insert(format!("local.{}", attribute.key()), size(&value));
                        locals.insert(attribute.key().to_string(), value);
                    }
                    _ => still.push(attribute),
                }
            }
            pending = still;
            ev.ctx
                .declare_var("local", hcl::Value::Object(locals.clone()));
            if pending.len() == before {
                break;
            }
        }
        ev.ctx.declare_var("local", hcl::Value::Object(locals));
        // The blocks read are counted afresh: what the variables and locals hold was counted
        // against the same bound, so together they hold at most twice it.
        ev.built = 0;
        ev
    }

    /// `name` holds `value` from here on (`each`, `count`, a `dynamic` block's iterator).
    pub(super) fn declare(&mut self, name: &str, value: hcl::Value) {
        self.sizes.insert(name.to_string(), size(&value));
        self.ctx.declare_var(name, value);
    }

    /// The value of `expr`, when it evaluates within [`MAX_EVAL_VALUES`]: no `for`
    /// expression or template directive, no function (none is declared), and what it names
    /// small enough.
    pub(super) fn eval(&self, expr: &hcl::Expression) -> Option<hcl::Value> {
        if self.cost(expr) > MAX_EVAL_VALUES {
            return None;
        }
        expr.evaluate(&self.ctx).ok()
    }

    /// An upper bound of the values `expr` makes: its literal values and the size of each
    /// variable it names; `usize::MAX` for what repeats (`for`, directives) or calls.
    fn cost(&self, expr: &hcl::Expression) -> usize {
        use hcl::Expression as E;
        match expr {
            E::Null | E::Bool(_) | E::Number(_) | E::String(_) => 1,
            E::Array(items) => items
                .iter()
                .fold(1usize, |sum, item| sum.saturating_add(self.cost(item))),
            E::Object(members) => members
                .values()
                .fold(1usize, |sum, value| sum.saturating_add(self.cost(value))),
            E::TemplateExpr(template) => match hcl::Template::from_expr(template) {
                Ok(template) => template.elements().iter().fold(1usize, |sum, element| {
                    sum.saturating_add(match element {
                        hcl::template::Element::Literal(_) => 1,
                        hcl::template::Element::Interpolation(i) => self.cost(&i.expr),
                        hcl::template::Element::Directive(_) => usize::MAX,
                    })
                }),
                Err(_) => usize::MAX,
            },
            E::Variable(v) => self.sizes.get(v.as_str()).copied().unwrap_or(1),
            E::Traversal(traversal) => {
                let named = match (&traversal.expr, traversal.operators.first()) {
                    (E::Variable(v), Some(hcl::expr::TraversalOperator::GetAttr(a))) => self
                        .sizes
                        .get(&format!("{}.{}", v.as_str(), a.as_str()))
                        .or_else(|| self.sizes.get(v.as_str()))
                        .copied()
                        .unwrap_or(1),
                    (root, _) => self.cost(root),
                };
                traversal.operators.iter().fold(named, |sum, op| match op {
                    hcl::expr::TraversalOperator::Index(i) => sum.saturating_add(self.cost(i)),
                    _ => sum,
                })
            }
            E::Parenthesis(inner) => self.cost(inner),
            E::Conditional(c) => self
                .cost(&c.cond_expr)
                .saturating_add(self.cost(&c.true_expr))
                .saturating_add(self.cost(&c.false_expr)),
            E::Operation(op) => match op.as_ref() {
                hcl::expr::Operation::Unary(u) => self.cost(&u.expr),
                hcl::expr::Operation::Binary(b) => self
                    .cost(&b.lhs_expr)
                    .saturating_add(self.cost(&b.rhs_expr)),
            },
            _ => usize::MAX,
        }
    }

    /// Counts `n` values built; `false` once more than [`MAX_BUILT_VALUES`] are.
    fn build(&mut self, n: usize) -> bool {
        self.built = self.built.saturating_add(n);
        self.built <= MAX_BUILT_VALUES
    }
}

/// The number of values in `value`.
fn size(value: &hcl::Value) -> usize {
    match value {
        hcl::Value::Array(items) => items.iter().fold(1usize, |s, v| s.saturating_add(size(v))),
        hcl::Value::Object(members) => members
            .values()
            .fold(1usize, |s, v| s.saturating_add(size(v))),
        _ => 1,
    }
}

/// One instance of a block: `count.index` and `each` as they are in it.
pub(super) enum Instance {
    Single,
    Count(u64),
    Each(hcl::Value, hcl::Value),
}

/// The instances a block makes: one per `count` or per element of `for_each` where it
/// evaluates, else one (said), at most as many as a Region holds beside `made` tables.
pub(super) fn instances(
    body: &hcl::Body,
    path: &str,
    ev: &mut Evaluator,
    out: &mut Lenient<'_>,
    made: usize,
) -> Vec<Instance> {
    let room = crate::limits::MAX_TABLES_PER_REGION
        .saturating_sub(made)
        .max(1);
    for attribute in body.attributes() {
        let key = attribute.key();
        if key != "count" && key != "for_each" {
            continue;
        }
        let at = format!("{path}.{key}");
        let written = format!("{key} `{}`", attribute.expr());
        let value = ev.eval(attribute.expr()).ok_or(());
        let list: Option<Vec<Instance>> = match (key, value) {
            ("count", Ok(hcl::Value::Number(n))) => match n.as_u64() {
                Some(0) => {
                    out.assume_at(
                        &at,
                        format!("{written} is 0 here"),
                        "one table, as the file states it",
                    );
                    Some(vec![Instance::Count(0)])
                }
                Some(n) => Some((0..n.min(room as u64)).map(Instance::Count).collect()),
                None => None,
            },
            ("for_each", Ok(hcl::Value::Object(members))) => Some(
                members
                    .into_iter()
                    .take(room)
                    .map(|(k, v)| Instance::Each(hcl::Value::String(k), v))
                    .collect(),
            ),
            ("for_each", Ok(hcl::Value::Array(items))) => Some(
                items
                    .into_iter()
                    .take(room)
                    .map(|v| Instance::Each(v.clone(), v))
                    .collect(),
            ),
            _ => None,
        };
        return match list {
            Some(list) if !list.is_empty() => list,
            Some(_) => {
                out.assume_at(
                    &at,
                    format!("{written} is empty here"),
                    "one table, as the file states it",
                );
                vec![Instance::Single]
            }
            None => {
                let what = if key == "count" {
                    "`count.index`"
                } else {
                    "`each`"
                };
                out.assume_at(&at, written, format!("one table, {what} unread"));
                vec![Instance::Single]
            }
        };
    }
    vec![Instance::Single]
}

/// A block's body as JSON, its expressions evaluated for `instance`: each attribute
/// by name, each nested block kind (a `dynamic` block's too) as a list.
pub(super) fn body_json(
    body: &hcl::Body,
    path: &str,
    ev: &mut Evaluator,
    out: &mut Lenient<'_>,
    instance: Instance,
) -> Value {
    match instance {
        Instance::Single => {}
        Instance::Count(index) => {
            let mut count = hcl::Map::new();
            count.insert("index".to_string(), hcl::Value::from(index));
            ev.declare("count", hcl::Value::Object(count));
        }
        Instance::Each(key, value) => {
            let mut each = hcl::Map::new();
            each.insert("key".to_string(), key);
            each.insert("value".to_string(), value);
            ev.declare("each", hcl::Value::Object(each));
        }
    }
    block_json(body, path, ev, out, 0)
}

/// The deepest nested blocks are read (the HCL parser bounds nesting too).
const MAX_BLOCK_DEPTH: usize = 16;

fn block_json(
    body: &hcl::Body,
    path: &str,
    ev: &mut Evaluator,
    out: &mut Lenient<'_>,
    depth: usize,
) -> Value {
    let mut json = Map::new();
    if !ev.build(1) {
        out.note(format!(
            "the blocks read hold more than {MAX_BUILT_VALUES} values (`count`, `for_each` and `dynamic` blocks repeat them): those after are not read"
        ));
        return Value::Object(json);
    }
    for attribute in body.attributes() {
        let key = attribute.key();
        if key == "count" || key == "for_each" {
            continue;
        }
        let at = format!("{path}.{key}");
        json.insert(
            key.to_string(),
            expression_json(attribute.expr(), &at, ev, out),
        );
    }
    if depth >= MAX_BLOCK_DEPTH {
        return Value::Object(json);
    }
    for block in body.blocks() {
        let (kind, elements) = if block.identifier() == "dynamic" {
            let Some(kind) = block.labels().first().map(|l| l.as_str().to_string()) else {
                continue;
            };
            let at = format!("{path}.{kind}");
            (kind.clone(), dynamic(block, &kind, &at, ev, out, depth))
        } else {
            let kind = block.identifier().to_string();
            let at = format!("{path}.{kind}");
            (
                kind,
                vec![block_json(block.body(), &at, ev, out, depth + 1)],
            )
        };
        let list = json.entry(kind).or_insert_with(|| Value::Array(Vec::new()));
        if let Value::Array(list) = list {
            list.extend(elements);
        }
    }
    Value::Object(json)
}

/// A `dynamic "kind" { for_each = ...; content { ... } }` block: its content once per element
/// of the collection, the iterator (`kind`, or `iterator`'s name) holding `key` and `value`;
/// none, said, when the collection cannot be read here.
fn dynamic(
    block: &hcl::Block,
    kind: &str,
    path: &str,
    ev: &mut Evaluator,
    out: &mut Lenient<'_>,
    depth: usize,
) -> Vec<Value> {
    let body = block.body();
    let iterator = body
        .attributes()
        .find(|a| a.key() == "iterator")
        .map_or_else(|| kind.to_string(), |a| a.expr().to_string());
    let Some(content) = body.blocks().find(|b| b.identifier() == "content") else {
        return Vec::new();
    };
    let Some(collection) = body.attributes().find(|a| a.key() == "for_each") else {
        return Vec::new();
    };
    let elements: Vec<(hcl::Value, hcl::Value)> = match ev.eval(collection.expr()) {
        Some(hcl::Value::Array(items)) => items
            .into_iter()
            .enumerate()
            .map(|(i, v)| (hcl::Value::from(i as u64), v))
            .collect(),
        Some(hcl::Value::Object(members)) => members
            .into_iter()
            .map(|(k, v)| (hcl::Value::String(k), v))
            .collect(),
        _ => {
            out.assume_at(
                path,
                format!("dynamic \"{kind}\" over `{}`", collection.expr()),
                format!("no `{kind}` block: its collection cannot be read here"),
            );
            return Vec::new();
        }
    };
    let mut blocks = Vec::new();
    for (key, value) in elements {
        let mut element = hcl::Map::new();
        element.insert("key".to_string(), key);
        element.insert("value".to_string(), value);
        ev.declare(iterator.as_str(), hcl::Value::Object(element));
        blocks.push(block_json(content.body(), path, ev, out, depth + 1));
    }
    blocks
}

/// An expression's value as JSON; a template with what is known where only part is
/// (`"orders-${var.env}"` is `orders` when `var.env` has no default); else `{"$expr": text}`,
/// for the slot that reads it to assume the least.
fn expression_json(
    expr: &hcl::Expression,
    path: &str,
    ev: &mut Evaluator,
    out: &mut Lenient<'_>,
) -> Value {
    if let Some(literal) = literal_part(expr, path, ev, out) {
        return literal;
    }
    if let Some(value) = ev.eval(expr) {
        if !ev.build(size(&value)) {
            return Value::Null;
        }
        if let Ok(json) = serde_json::to_value(&value) {
            return json;
        }
    }
    let written = Value::Object(Map::from_iter([(
        EXPR.to_string(),
        Value::String(expr.to_string()),
    )]));
    // A list or an object keeps what of it evaluates (a replica's region beside a key's ARN).
    match expr {
        hcl::Expression::Array(items) => {
            return Value::Array(
                items
                    .iter()
                    .enumerate()
                    .map(|(i, item)| expression_json(item, &format!("{path}[{i}]"), ev, out))
                    .collect(),
            );
        }
        hcl::Expression::Object(members) => {
            return Value::Object(
                members
                    .iter()
                    .map(|(key, value)| {
                        let key = match key {
                            hcl::ObjectKey::Identifier(i) => i.to_string(),
                            hcl::ObjectKey::Expression(e) => match ev.eval(e) {
                                Some(hcl::Value::String(s)) => s,
                                _ => e.to_string(),
                            },
                            other => other.to_string(),
                        };
                        let value = expression_json(value, &format!("{path}.{key}"), ev, out);
                        (key, value)
                    })
                    .collect(),
            );
        }
        _ => {}
    }
    let hcl::Expression::TemplateExpr(template) = expr else {
        return written;
    };
    let Ok(template) = hcl::Template::from_expr(template) else {
        return written;
    };
    let pieces = template_pieces(&template, ev, false);
    joined(&quoted(expr), pieces, "", path, out).unwrap_or(written)
}

/// A template as pieces of a name: its literal text, each interpolation's value, unknown
/// where it does not evaluate or, with `skip_settings`, where it names a variable or a local.
fn template_pieces(template: &hcl::Template, ev: &Evaluator, skip_settings: bool) -> Vec<Piece> {
    template
        .elements()
        .iter()
        .map(|element| match element {
            hcl::template::Element::Literal(s) => Piece::Known(s.clone()),
            hcl::template::Element::Interpolation(i) => {
                let value = if skip_settings && names_a_setting(&i.expr) {
                    None
                } else {
                    ev.eval(&i.expr)
                };
                match value {
                    Some(hcl::Value::String(s)) => Piece::Known(s),
                    Some(hcl::Value::Number(n)) => Piece::Known(n.to_string()),
                    _ => Piece::Unknown(format!("`${{{}}}`", i.expr)),
                }
            }
            hcl::template::Element::Directive(_) => Piece::Unknown("a template directive".into()),
        })
        .collect()
}

/// A template with literal text of its own, read without its variables and locals
/// (`"orders-${var.environment}"` is `orders`, as keyplan's own export writes it, whatever the
/// variable's default); `None` when nothing literal is left without them.
fn literal_part(
    expr: &hcl::Expression,
    path: &str,
    ev: &Evaluator,
    out: &mut Lenient<'_>,
) -> Option<Value> {
    let hcl::Expression::TemplateExpr(template) = expr else {
        return None;
    };
    let template = hcl::Template::from_expr(template).ok()?;
    let skips = template.elements().iter().any(|element| {
        matches!(element, hcl::template::Element::Interpolation(i) if names_a_setting(&i.expr))
    });
    if !skips {
        return None;
    }
    let pieces = template_pieces(&template, ev, true);
    let has_literal = pieces
        .iter()
        .any(|p| matches!(p, Piece::Known(s) if s.chars().any(|c| c.is_alphanumeric())));
    if !has_literal {
        return None;
    }
    joined(&quoted(expr), pieces, "", path, out).filter(Value::is_string)
}

/// Whether an expression reads a `var.` or a `local.` (a setting, not an instance's `each` or
/// `count`).
fn names_a_setting(expr: &hcl::Expression) -> bool {
    use hcl::Expression as E;
    match expr {
        E::Variable(v) => matches!(v.as_str(), "var" | "local"),
        E::Traversal(t) => names_a_setting(&t.expr),
        E::Parenthesis(inner) => names_a_setting(inner),
        E::Conditional(c) => {
            names_a_setting(&c.cond_expr)
                || names_a_setting(&c.true_expr)
                || names_a_setting(&c.false_expr)
        }
        E::Operation(op) => match op.as_ref() {
            hcl::expr::Operation::Unary(u) => names_a_setting(&u.expr),
            hcl::expr::Operation::Binary(b) => {
                names_a_setting(&b.lhs_expr) || names_a_setting(&b.rhs_expr)
            }
        },
        _ => false,
    }
}

/// A template as the file wrote it, quoted, for assumptions.
fn quoted(expr: &hcl::Expression) -> Value {
    Value::Object(Map::from_iter([(
        EXPR.to_string(),
        Value::String(format!("\"{}\"", template_text(expr))),
    )]))
}

fn template_text(expr: &hcl::Expression) -> String {
    match expr {
        hcl::Expression::TemplateExpr(t) => match t.as_ref() {
            hcl::TemplateExpr::QuotedString(s) => s.clone(),
            hcl::TemplateExpr::Heredoc(h) => h.template.clone(),
        },
        other => other.to_string(),
    }
}

/// The line of a value from its path (`resource.aws_dynamodb_table.orders.attribute`): the
/// block's header, then each name written as an attribute (`name =`) or a block (`name {`,
/// `dynamic "name"`) after the one before; the deepest found where a name is not. Lists stop
/// at their first element, as in CloudFormation.
pub(super) fn hcl_line(text: &str, path: &str) -> usize {
    let mut names = path.split('.').map(|s| s.split('[').next().unwrap_or(s));
    let header: Vec<String> = match names.next() {
        Some("resource") => names.by_ref().take(2).map(|l| format!("\"{l}\"")).collect(),
        Some("module") => names.by_ref().take(1).map(|l| format!("\"{l}\"")).collect(),
        _ => return 0,
    };
    let Some(mut at) = text
        .match_indices('\n')
        .map(|(i, _)| i + 1)
        .chain(std::iter::once(0))
        .filter(|&start| {
            let line = text[start..].lines().next().unwrap_or("");
            (line.trim_start().starts_with("resource") || line.trim_start().starts_with("module"))
                && header.iter().all(|h| line.contains(h.as_str()))
        })
        .min()
    else {
        return 0;
    };
    let whole = path.contains('[');
    for name in names {
        match find_name(&text[at..], name) {
            Some(offset) => at += offset,
            None => break,
        }
        if whole && path.split('[').next().is_some_and(|p| p.ends_with(name)) {
            break;
        }
    }
    super::super::line_column(text, at).0
}

/// The offset of `name` written as an attribute or a block in `text`.
fn find_name(text: &str, name: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(found) = text[from..].find(name) {
        let at = from + found;
        let before = text[..at].chars().next_back();
        let after = text[at + name.len()..].trim_start_matches([' ', '\t']);
        let word_start = before.is_none_or(|c| c.is_whitespace() || c == '"');
        let is_name = after.starts_with('=') && !after.starts_with("==")
            || after.starts_with('{')
            || (before == Some('"') && after.starts_with('"'));
        if word_start && is_name {
            return Some(at);
        }
        from = at + name.len();
    }
    None
}
