//! Evaluating what is literal in the modules read together: see the parent module for what is
//! evaluated and its bounds. A name is looked up in the module it is written in: one of its
//! constants, or an import resolved to the constant or value another module exports (see
//! [`super::scope`]); the evaluation switches to that module while it evaluates it, so a
//! non-literal there is placed in that module's file and line.

use std::collections::HashMap;

use oxc_ast::ast::{
    Argument, ArrayExpressionElement, BinaryOperator, Expression, LogicalOperator,
    ObjectPropertyKind, UnaryOperator,
};
use oxc_span::{GetSpan, Span};
use serde_json::{Map, Value};

use super::scope::{Export, Import, Scope, resolve};
use super::{
    CALL_CHAIN, FALLBACK, FILE, LINE, MAX_NESTING, MAX_TEXT_BYTES, MAX_VALUES, NEW_AT, NON_LITERAL,
    RANDOM_BELOW, SNIPPET, VIA, is_non_literal,
};
use crate::import::ImportError;

/// A value remembered once evaluated: the module, the name, and whether it is the module's
/// export of that name (`module.exports.a = ...`) rather than a binding.
type Key<'a> = (usize, &'a str, bool);

pub(super) struct Evaluator<'a> {
    /// The modules, in the order given.
    pub(super) files: Vec<Scope<'a>>,
    /// The module whose expressions are being evaluated.
    pub(super) current: usize,
    memo: HashMap<Key<'a>, Evaluated>,
    /// Values being evaluated (a cycle is not literal).
    evaluating: Vec<Key<'a>>,
    /// The values made so far, and the bytes of their text: see [`Evaluator::charge`].
    spent: Weight,
}

/// A constant's value, with what a copy of it costs and how deep it nests.
struct Evaluated {
    value: Value,
    weight: Weight,
    height: usize,
}

/// What a value costs the budgets: its values and the bytes of its text.
#[derive(Debug, Clone, Copy)]
struct Weight {
    values: usize,
    text_bytes: usize,
}

impl Weight {
    fn plus(self, other: Weight) -> Weight {
        Weight {
            values: self.values.saturating_add(other.values),
            text_bytes: self.text_bytes.saturating_add(other.text_bytes),
        }
    }
}

impl<'a> Evaluator<'a> {
    pub(super) fn new(files: Vec<Scope<'a>>) -> Evaluator<'a> {
        Evaluator {
            files,
            current: 0,
            memo: HashMap::new(),
            evaluating: Vec::new(),
            spent: Weight {
                values: 0,
                text_bytes: 0,
            },
        }
    }

    /// The text of the module being evaluated.
    pub(super) fn text(&self) -> &'a str {
        self.files[self.current].text
    }

    /// Line and column of an offset in the module being evaluated.
    pub(super) fn line_column(&self, offset: usize) -> (usize, usize) {
        self.files[self.current].lines.line_column(offset)
    }

    /// The source text at `span`, white space collapsed, cut after [`SNIPPET`] characters:
    /// made a character at a time, so a long expression costs no more than a short one.
    pub(super) fn snippet(&self, span: Span) -> String {
        let source = self
            .text()
            .get(span.start as usize..span.end as usize)
            .unwrap_or("?");
        let mut snippet = String::new();
        let mut n_chars = 0;
        for (i, word) in source.split_whitespace().enumerate() {
            let separator = if i == 0 { None } else { Some(' ') };
            for c in separator.into_iter().chain(word.chars()) {
                if n_chars == SNIPPET {
                    snippet.push('…');
                    return snippet;
                }
                snippet.push(c);
                n_chars += 1;
            }
        }
        snippet
    }

    /// `{"$js": "<source>", "$line": n}`, with `"$file"` when several modules are read.
    pub(super) fn non_literal(&self, span: Span) -> Value {
        let mut object = Map::new();
        object.insert(NON_LITERAL.to_string(), Value::String(self.snippet(span)));
        let (line, _) = self.line_column(span.start as usize);
        object.insert(LINE.to_string(), Value::from(line));
        if self.files.len() > 1 {
            let name = self.files[self.current].name;
            object.insert(FILE.to_string(), Value::String(name.to_string()));
        }
        Value::Object(object)
    }

    /// Charges `cost` to the budgets before what it costs is made at `span`: `Err`, with the
    /// line and column of `span`, when the values would pass [`MAX_VALUES`] or their text
    /// [`MAX_TEXT_BYTES`]. Nothing is refunded: a value dropped still counted, so the budgets
    /// bound what the evaluation ever held at once.
    fn charge(&mut self, cost: Weight, span: Span) -> Result<(), ImportError> {
        let spent = self.spent.plus(cost);
        let message = if spent.values > MAX_VALUES {
            format!(
                "its constants expand to more than {MAX_VALUES} values here; keyplan reads schemas, not data"
            )
        } else if spent.text_bytes > MAX_TEXT_BYTES {
            format!(
                "its constants expand to more than {} MB of text here; keyplan reads schemas, not data",
                MAX_TEXT_BYTES / (1024 * 1024)
            )
        } else {
            self.spent = spent;
            return Ok(());
        };
        let (line, column) = self.line_column(span.start as usize);
        Err(ImportError::Syntax {
            line,
            column,
            message,
        })
    }

    /// [`Evaluator::charge`] for `n` bytes of text.
    pub(super) fn charge_text(&mut self, n: usize, span: Span) -> Result<(), ImportError> {
        self.charge(
            Weight {
                values: 0,
                text_bytes: n,
            },
            span,
        )
    }

    /// The value of the constant `name`, referred to at `span`, `depth` levels down: evaluated
    /// the first time, a copy of it (charged) after. A value that would nest past
    /// [`MAX_NESTING`] where it is referred to is not literal, as a deeper expression is.
    ///
    /// `key` names the module the expression is written in, which it is evaluated in; `span`
    /// is where it is referred to, in the module being evaluated.
    pub(super) fn constant(
        &mut self,
        key: Key<'a>,
        expression: &'a Expression<'a>,
        span: Span,
        depth: usize,
    ) -> Result<Value, ImportError> {
        if !self.memo.contains_key(&key) {
            if self.evaluating.contains(&key) {
                return Ok(self.non_literal(span));
            }
            self.evaluating.push(key);
            let referring = std::mem::replace(&mut self.current, key.0);
            // One level down: a chain of constants that name each other is as deep as the
            // brackets it stands for.
            let value = self.eval(expression, depth + 1);
            self.current = referring;
            self.evaluating.pop();
            let value = value?;
            let evaluated = Evaluated {
                weight: weight(&value),
                height: height(&value),
                value,
            };
            self.memo.insert(key, evaluated);
        }
        let Some(&Evaluated { weight, height, .. }) = self.memo.get(&key) else {
            return Ok(self.non_literal(span));
        };
        // As deep as an expression evaluated here may make (a non-literal past the limit is
        // two levels).
        if depth + height > MAX_NESTING + 3 {
            return Ok(self.non_literal(span));
        }
        self.charge(weight, span)?;
        Ok(self
            .memo
            .get(&key)
            .map_or(Value::Null, |evaluated| evaluated.value.clone()))
    }

    /// The value `name` has in the module being evaluated, referred to at `span`: one of its
    /// constants, or what it imports. A name that is not literal is named where it is referred
    /// to (`Customer`, not the `new Entity(...)` it stands for).
    fn name(&mut self, name: &'a str, span: Span, depth: usize) -> Result<Value, ImportError> {
        let file = self.current;
        let value = if let Some(init) = self.files[file].by_name.get(name).copied() {
            self.constant((file, name, false), init, span, depth)?
        } else if let Some(import) = self.files[file].imports.get(name).copied() {
            self.imported(file, import, span, depth)?
        } else {
            return Ok(self.non_literal(span));
        };
        Ok(if is_non_literal(&value) {
            // Named where it is referred to; a call chain keeps its calls
            // (`const schema = item({...})`), and `a ?? 'x'` its fallback
            // (`const pkField = options?.pk ?? 'pk'`).
            let mut named = self.non_literal(span);
            if let Value::Object(members) = &mut named {
                for kept in [CALL_CHAIN, FALLBACK] {
                    if let Some(v) = value.get(kept) {
                        members.insert(kept.to_string(), v.clone());
                    }
                }
            }
            named
        } else {
            value
        })
    }

    /// Which module the import path `source`, written in module `from`, names.
    fn resolve(&self, from: usize, source: &str) -> Option<usize> {
        let names: Vec<&str> = self.files.iter().map(|f| f.name).collect();
        resolve(&names, from, source)
    }

    /// `object.key`: a member of a namespace import (`ns.STATUSES`, `require('./f')`'s
    /// module), or of an object or array that evaluates (`Types.status`, `LIST.length` is not).
    fn member(
        &mut self,
        object: &Expression<'a>,
        key: &'a str,
        span: Span,
        depth: usize,
    ) -> Result<Value, ImportError> {
        if let Expression::Identifier(id) = object.get_inner_expression() {
            let file = self.current;
            let name = id.name.as_str();
            if !self.files[file].by_name.contains_key(name)
                && let Some(import) = self.files[file].imports.get(name).copied()
                && import.name.is_none()
            {
                let value = match self.resolve(file, import.source) {
                    Some(module) => self.exported(module, key, span, depth + 1)?,
                    None => self.non_literal(span),
                };
                return Ok(if is_non_literal(&value) {
                    self.non_literal(span)
                } else {
                    value
                });
            }
        }
        Ok(match self.eval(object, depth + 1)? {
            Value::Object(mut members) if !members.contains_key(NON_LITERAL) => {
                match members.remove(key) {
                    Some(value) if !is_non_literal(&value) => value,
                    _ => self.non_literal(span),
                }
            }
            _ => self.non_literal(span),
        })
    }

    /// The value an import written in module `from` binds, when the module it names is one of
    /// those read. Here and in [`Evaluator::exported`], `span` is in the module being
    /// evaluated, where the chain of imports started.
    fn imported(
        &mut self,
        from: usize,
        import: Import<'a>,
        span: Span,
        depth: usize,
    ) -> Result<Value, ImportError> {
        match self.resolve(from, import.source) {
            Some(file) => self.exported(file, import.name.unwrap_or("default"), span, depth + 1),
            None => Ok(self.non_literal(span)),
        }
    }

    /// What module `file` exports as `name`; a module-level constant of that name that is not
    /// exported is taken too (the file would not compile otherwise, and CommonJS modules
    /// export by assignment).
    fn exported(
        &mut self,
        file: usize,
        name: &'a str,
        span: Span,
        depth: usize,
    ) -> Result<Value, ImportError> {
        if depth > MAX_NESTING {
            return Ok(self.non_literal(span));
        }
        let scope = &self.files[file];
        let export = scope.exports.get(name).copied().or_else(|| {
            (scope.by_name.contains_key(name) || scope.imports.contains_key(name))
                .then_some(Export::Local(name))
        });
        let value = match export {
            Some(Export::Local(local)) => {
                let scope = &self.files[file];
                if let Some(init) = scope.by_name.get(local).copied() {
                    self.constant((file, local, false), init, span, depth)?
                } else if let Some(import) = scope.imports.get(local).copied() {
                    self.imported(file, import, span, depth + 1)?
                } else {
                    self.non_literal(span)
                }
            }
            Some(Export::Value(expression)) => {
                self.constant((file, name, true), expression, span, depth)?
            }
            Some(Export::From(source, exported)) => match self.resolve(file, source) {
                Some(next) => self.exported(next, exported, span, depth + 1)?,
                None => self.non_literal(span),
            },
            None => {
                let stars = self.files[file].star_from.clone();
                for source in stars {
                    if let Some(next) = self.resolve(file, source) {
                        let value = self.exported(next, name, span, depth + 1)?;
                        if !is_non_literal(&value) {
                            return Ok(value);
                        }
                    }
                }
                self.non_literal(span)
            }
        };
        Ok(value)
    }

    pub(super) fn eval(
        &mut self,
        expression: &Expression<'a>,
        depth: usize,
    ) -> Result<Value, ImportError> {
        self.charge(
            Weight {
                values: 1,
                text_bytes: 0,
            },
            expression.span(),
        )?;
        if depth > MAX_NESTING {
            return Ok(self.non_literal(expression.span()));
        }
        let expression = expression.get_inner_expression();
        Ok(match expression {
            Expression::StringLiteral(s) => {
                self.charge_text(s.value.len(), s.span)?;
                Value::String(s.value.as_str().to_string())
            }
            Expression::NumericLiteral(n) => number(n.value),
            Expression::BooleanLiteral(b) => Value::Bool(b.value),
            Expression::NullLiteral(_) => Value::Null,
            Expression::Identifier(id) if id.name.as_str() == "undefined" => Value::Null,
            Expression::Identifier(id) => self.name(id.name.as_str(), id.span, depth)?,
            // `Types.status`, `ns.STATUSES` (a namespace import), `STATUSES[0]`.
            Expression::StaticMemberExpression(member) => self.member(
                &member.object,
                member.property.name.as_str(),
                member.span,
                depth,
            )?,
            Expression::ComputedMemberExpression(member) => {
                match member.expression.get_inner_expression() {
                    Expression::StringLiteral(key) => {
                        self.member(&member.object, key.value.as_str(), member.span, depth)?
                    }
                    Expression::NumericLiteral(n) => match self.eval(&member.object, depth + 1)? {
                        Value::Array(items) if n.value >= 0.0 && n.value.fract() == 0.0 => {
                            #[expect(
                                clippy::cast_possible_truncation,
                                reason = "whole, not negative"
                            )]
                            let at = n.value as usize;
                            items
                                .get(at)
                                .cloned()
                                .unwrap_or_else(|| self.non_literal(member.span))
                        }
                        _ => self.non_literal(member.span),
                    },
                    _ => self.non_literal(member.span),
                }
            }
            Expression::TemplateLiteral(t) => {
                let mut quasis = Vec::with_capacity(t.quasis.len());
                for quasi in &t.quasis {
                    match &quasi.value.cooked {
                        Some(cooked) => quasis.push(cooked.as_str()),
                        None => return Ok(self.non_literal(t.span)),
                    }
                }
                let mut parts = Vec::with_capacity(t.expressions.len());
                let mut values = Vec::with_capacity(t.expressions.len());
                for part in &t.expressions {
                    values.push(self.eval(part, depth + 1)?);
                }
                for value in &values {
                    parts.push(match value {
                        Value::String(s) => s.clone(),
                        Value::Number(n) => n.to_string(),
                        Value::Bool(b) => b.to_string(),
                        _ => return self.template_parts(t.span, &quasis, values),
                    });
                }
                // The whole text is charged before it is made: doubling templates stop here.
                let n_bytes = quasis.iter().map(|q| q.len()).sum::<usize>()
                    + parts.iter().map(String::len).sum::<usize>();
                self.charge_text(n_bytes, t.span)?;
                let mut out = String::with_capacity(n_bytes);
                for (i, quasi) in quasis.iter().enumerate() {
                    out.push_str(quasi);
                    if let Some(part) = parts.get(i) {
                        out.push_str(part);
                    }
                }
                Value::String(out)
            }
            Expression::UnaryExpression(u) if u.operator == UnaryOperator::UnaryNegation => {
                match self.eval(&u.argument, depth + 1)? {
                    Value::Number(n) => n.as_f64().map_or(Value::Null, |f| number(-f)),
                    _ => self.non_literal(u.span),
                }
            }
            Expression::ArrayExpression(array) => {
                let mut out = Vec::new();
                for element in &array.elements {
                    match element {
                        ArrayExpressionElement::SpreadElement(spread) => {
                            match self.eval(&spread.argument, depth + 1)? {
                                Value::Array(items) => out.extend(items),
                                _ => out.push(self.non_literal(spread.span)),
                            }
                        }
                        ArrayExpressionElement::Elision(_) => out.push(Value::Null),
                        _ => match element.as_expression() {
                            Some(e) => out.push(self.eval(e, depth + 1)?),
                            None => out.push(self.non_literal(element.span())),
                        },
                    }
                }
                Value::Array(out)
            }
            Expression::ObjectExpression(object) => {
                let mut out = Map::new();
                for property in &object.properties {
                    match property {
                        ObjectPropertyKind::SpreadProperty(spread) => {
                            match self.eval(&spread.argument, depth + 1)? {
                                Value::Object(members) if !members.contains_key(NON_LITERAL) => {
                                    out.extend(members);
                                }
                                other => {
                                    let key =
                                        format!("...{}", self.snippet(spread.argument.span()));
                                    self.charge_text(key.len(), spread.span)?;
                                    out.insert(key, other);
                                }
                            }
                        }
                        ObjectPropertyKind::ObjectProperty(p) => {
                            let key = if p.computed {
                                match p.key.as_expression().map(|k| self.eval(k, depth + 1)) {
                                    Some(Ok(Value::String(s))) => Some(s),
                                    Some(Err(e)) => return Err(e),
                                    _ => None,
                                }
                            } else {
                                match p.key.static_name() {
                                    Some(name) => {
                                        self.charge_text(name.len(), p.key.span())?;
                                        Some(name.to_string())
                                    }
                                    None => None,
                                }
                            };
                            let Some(key) = key else { continue };
                            let value = if p.method {
                                self.non_literal(p.value.span())
                            } else {
                                self.eval(&p.value, depth + 1)?
                            };
                            out.insert(key, value);
                        }
                    }
                }
                Value::Object(out)
            }
            Expression::LogicalExpression(l)
                if matches!(l.operator, LogicalOperator::Coalesce | LogicalOperator::Or) =>
            {
                let left = self.eval(&l.left, depth + 1)?;
                if !is_non_literal(&left) && !left.is_null() {
                    return Ok(left);
                }
                let right = self.eval(&l.right, depth + 1)?;
                let mut out = match self.non_literal(l.left.span()) {
                    Value::Object(o) => o,
                    _ => Map::new(),
                };
                out.insert(FALLBACK.to_string(), right);
                Value::Object(out)
            }
            // `() => Math.floor(Math.random() * N)`, an ElectroDB default.
            Expression::ArrowFunctionExpression(arrow) => match arrow
                .body
                .as_expression()
                .map(Expression::get_inner_expression)
            {
                Some(Expression::CallExpression(call))
                    if arrow.params.items.is_empty() && random_below(call).is_some() =>
                {
                    random_below(call).map_or_else(|| self.non_literal(arrow.span), random_value)
                }
                _ => self.arrow(arrow, depth)?,
            },
            Expression::CallExpression(call) => match random_below(call) {
                Some(n) => random_value(n),
                // `helper({ indexes, models })`: a schema handed to a function that builds
                // the one used; never run, its argument is read and the call said (`$via`).
                None => match schema_argument(call) {
                    Some(argument) => match self.eval(argument, depth + 1)? {
                        Value::Object(mut members) if !members.contains_key(NON_LITERAL) => {
                            let via = self.snippet(call.callee.span());
                            let (line, _) = self.line_column(call.span.start as usize);
                            members.insert(VIA.to_string(), Value::String(via));
                            members.insert(LINE.to_string(), Value::from(line));
                            if self.files.len() > 1 {
                                let name = self.files[self.current].name;
                                members.insert(FILE.to_string(), Value::String(name.to_string()));
                            }
                            Value::Object(members)
                        }
                        _ => self.non_literal(call.span),
                    },
                    // `string().key()`: never run, its calls kept (`$chain`).
                    None => self.call_chain(call, depth)?,
                },
            },
            Expression::NewExpression(new) => {
                let mut value = self.non_literal(new.span);
                let (line, column) = self.line_column(new.span.start as usize);
                if let Value::Object(members) = &mut value {
                    members.insert(NEW_AT.to_string(), serde_json::json!([line, column]));
                }
                value
            }
            other => self.non_literal(other.span()),
        })
    }
}

/// The one argument of a call that may be a OneTable schema (see [`super::may_be_schema`]).
fn schema_argument<'c, 'a>(
    call: &'c oxc_ast::ast::CallExpression<'a>,
) -> Option<&'c Expression<'a>> {
    match call.arguments.as_slice() {
        [argument] => argument.as_expression().filter(|e| super::may_be_schema(e)),
        _ => None,
    }
}

/// `Math.floor(Math.random() * N)` (or `N * Math.random()`): `Some(N)`.
fn random_below(call: &oxc_ast::ast::CallExpression<'_>) -> Option<f64> {
    let is_math = |e: &Expression<'_>, name: &str| match e.get_inner_expression() {
        Expression::StaticMemberExpression(m) => {
            m.object.is_specific_id("Math") && m.property.name.as_str() == name
        }
        _ => false,
    };
    if !is_math(&call.callee, "floor") || call.arguments.len() != 1 {
        return None;
    }
    let Some(Expression::BinaryExpression(product)) = call
        .arguments
        .first()
        .and_then(Argument::as_expression)
        .map(Expression::get_inner_expression)
    else {
        return None;
    };
    if product.operator != BinaryOperator::Multiplication {
        return None;
    }
    let is_random = |e: &Expression<'_>| match e.get_inner_expression() {
        Expression::CallExpression(c) => is_math(&c.callee, "random") && c.arguments.is_empty(),
        _ => false,
    };
    let literal = |e: &Expression<'_>| match e.get_inner_expression() {
        Expression::NumericLiteral(n) => Some(n.value),
        _ => None,
    };
    if is_random(&product.left) {
        literal(&product.right)
    } else if is_random(&product.right) {
        literal(&product.left)
    } else {
        None
    }
}

/// `{"$randomBelow": n}`.
fn random_value(n: f64) -> Value {
    let mut out = Map::new();
    out.insert(RANDOM_BELOW.to_string(), number(n));
    Value::Object(out)
}

fn number(f: f64) -> Value {
    if f.fract() == 0.0 && f.abs() < 9.0e15 {
        // A whole number reads as one (`version: 1`, not `1.0`).
        #[expect(
            clippy::cast_possible_truncation,
            reason = "checked whole and in range"
        )]
        return Value::from(f as i64);
    }
    serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)
}

/// What a copy of `value` costs: its values and the bytes of its strings and keys.
fn weight(value: &Value) -> Weight {
    let mut total = Weight {
        values: 1,
        text_bytes: 0,
    };
    match value {
        Value::String(s) => total.text_bytes = s.len(),
        Value::Array(items) => {
            for item in items {
                total = total.plus(weight(item));
            }
        }
        Value::Object(members) => {
            for (key, member) in members {
                total.text_bytes = total.text_bytes.saturating_add(key.len());
                total = total.plus(weight(member));
            }
        }
        _ => {}
    }
    total
}

/// How deep `value` nests: 1 for a scalar.
fn height(value: &Value) -> usize {
    1 + match value {
        Value::Array(items) => items.iter().map(height).max().unwrap_or(0),
        Value::Object(members) => members.values().map(height).max().unwrap_or(0),
        _ => 0,
    }
}
