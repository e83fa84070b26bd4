//! Reading the JavaScript or TypeScript module a OneTable schema or ElectroDB entities are
//! written in: parsed with oxc's parser, then only literal values are evaluated.
//!
//! What is evaluated: object and array literals (spreads of evaluated values included),
//! strings, numbers, booleans, `null`/`undefined`, template literals whose parts evaluate,
//! references to a module-level `const`, the TypeScript wrappers `as const`, `satisfies`,
//! `<T>x` and `x!`, and the one call shape ElectroDB exports use for a write shard,
//! `Math.floor(Math.random() * N)` (also as the body of `() =>`). Anything else (a function, a call, `process.env.X`) is
//! never run: it becomes `{"$js": "<its source text>"}` so the importers can say what was not
//! literal and where; a call chain (`string().key()`), an arrow function's returned value and a
//! template literal's parts are kept beside it (see `builders`). `a ?? 'x'` and `a || 'x'`
//! with a non-literal `a` evaluate to
//! `{"$js": ..., "$fallback": "x"}`, which is how `table: process.env.TABLE ?? 'orders'` keeps
//! its name.
//!
//! Only what the importers read is evaluated (issue 41): the arguments of `new Entity(...)`,
//! `new Service(...)`, `new Table(...)` and `new Schema(...)`, of the calls `model(...)`
//! (Dynamoose's), the `export default` value, and the module-level
//! constants that may be OneTable schemas (an object literal with `models`); a constant is
//! evaluated when one of those refers to it, once. The rest of the module is parsed, never
//! evaluated, so a bomb nothing refers to costs nothing.
//!
//! Hostile input is bounded before anything is parsed: at most [`MAX_BYTES`] of text, and at
//! most [`MAX_NESTING`] brackets or prefix operators open at once (oxc's parser recurses on
//! nesting, and a deep file would overflow the stack). Evaluation is bounded too, each value
//! charged before it is made: at most [`MAX_VALUES`] values holding at most [`MAX_TEXT_BYTES`]
//! of text (strings and names), so constants that refer to constants, template literals and
//! spreads cannot multiply (a 1.6 KB module of doubling templates asked for 8 GB); past either
//! bound the module is refused with the line and column of the expression that passed it.
//! Values nest at most [`MAX_NESTING`] deep, references to constants included, so neither the
//! evaluation nor what it makes recurses deeper than that.

use std::collections::HashMap;

use oxc_allocator::Allocator;
use oxc_ast::ast::{
    Argument, ArrayExpressionElement, BinaryOperator, BindingPattern, Declaration, Expression,
    LogicalOperator, NewExpression, ObjectPropertyKind, Program, Statement, UnaryOperator,
    VariableDeclaration,
};
use oxc_ast_visit::Visit;
use oxc_parser::{ParseOptions, Parser};
use oxc_span::{GetSpan, SourceType, Span};
use serde_json::{Map, Value};

use super::ImportError;

mod builders;

/// The largest module read: 2 MB (the server's body limit), far more than any schema.
pub const MAX_BYTES: usize = 2 * 1024 * 1024;
/// The deepest nesting of brackets and prefix operators read.
pub const MAX_NESTING: usize = 200;
/// The deepest expression the walk for `new X(...)` descends into.
const MAX_WALK: usize = 1000;
/// The most values one module's evaluation may produce.
pub const MAX_VALUES: usize = 200_000;
/// The most text (strings and object keys, copies included) one module's evaluation may
/// produce: four times the largest module, far more than any schema's names and templates.
pub const MAX_TEXT_BYTES: usize = 4 * MAX_BYTES;
/// The classes whose `new` the importers read: ElectroDB's `Entity` and `Service`, OneTable's
/// `Table`, DynamoDB-Toolbox's `Table` and `Entity`, Dynamoose's `Schema`. Any other
/// `new X(...)` is not evaluated.
const CLASSES: &[&str] = &["Entity", "Service", "Table", "Schema"];
/// The functions whose calls the importers read, as [`Module::calls`]: Dynamoose's
/// `dynamoose.model(name, schema, options)`.
const CALLS: &[&str] = &["model"];
/// How much of a non-literal expression's source text is kept for a note.
const SNIPPET: usize = 60;

/// The key of a non-literal value's source text.
pub const NON_LITERAL: &str = "$js";
/// The key of the literal fallback of `a ?? 'x'`.
pub const FALLBACK: &str = "$fallback";
/// The key of `Math.floor(Math.random() * N)`: a random whole number below N.
pub const RANDOM_BELOW: &str = "$randomBelow";
/// Beside [`NON_LITERAL`], the calls of a call chain not run, in order: `string().key()` is
/// `[{"name": "string", "args": []}, {"name": "key", "args": []}]`, each argument evaluated
/// (a name is the callee's source text, `s.string` or `dynamoose.type.CONSTANT`), for the
/// readers of libraries whose schemas are builder calls (DynamoDB-Toolbox, Dynamoose).
pub const CALL_CHAIN: &str = "$chain";
/// Beside [`NON_LITERAL`], what an arrow function `(...) => value` returns, evaluated (a
/// parameter is not literal): DynamoDB-Toolbox's `computeKey` and `.link()`.
pub const RETURNS: &str = "$returns";
/// Beside [`NON_LITERAL`], a template literal's parts when some are not literal: text and
/// the values of the `${}` parts in turn (`` `USER#${id}` `` is `["USER#", {"$js": "id"}, ""]`).
pub const TEMPLATE_PARTS: &str = "$template";
/// Beside [`NON_LITERAL`], where a `new X(...)` inside a value is, `[line, column]`, to find
/// the [`NewCall`] it is (Dynamoose's `model('Cat', new Schema({...}))`).
pub const NEW_AT: &str = "$newAt";

/// A `new Name(...)` call in the module, with its arguments evaluated.
#[derive(Debug, Clone)]
pub struct NewCall {
    /// The class: `Entity`, `Service`, `Table` (the last segment of `electrodb.Entity`).
    pub class: String,
    pub args: Vec<Value>,
    /// The module-level `const` it is assigned to, if any.
    pub var: Option<String>,
    /// Where the `new` is, 1-based.
    pub line: usize,
    pub column: usize,
}

/// What a module holds: its module-level constants that may be OneTable schemas (evaluated),
/// in source order, its `export default` value, and every `new` of one of [`CLASSES`]
/// anywhere in it.
#[derive(Debug, Clone, Default)]
pub struct Module {
    pub consts: Vec<(String, Value)>,
    pub default_export: Option<Value>,
    pub news: Vec<NewCall>,
    /// Every call of one of [`CALLS`] anywhere in it, as a [`NewCall`] whose class is the
    /// function's name.
    pub calls: Vec<NewCall>,
}

pub use super::line_column;

/// Words that are prefix operators: `typeof typeof x` nests like `!!x`.
const PREFIX_WORDS: &[&[u8]] = &[b"typeof", b"void", b"delete", b"await", b"new", b"yield"];

/// Refuses, before parsing, text longer than [`MAX_BYTES`] or nested deeper than
/// [`MAX_NESTING`]. oxc's parser recurses on brackets, prefix operators, `?:`, `=`, `=>` and
/// `<...>`, so a deep file would overflow the stack. The count is a conservative upper bound,
/// not a tokenizer: every open `(`, `[`, `{` counts a level, and so does every two operator
/// characters (or one prefix word such as `typeof`) since the last `,` or `;`. A string or
/// comment full of brackets or operators may be refused too; the message says where.
fn check_bounds(text: &str) -> Result<(), ImportError> {
    if text.len() > MAX_BYTES {
        return Err(ImportError::Invalid {
            path: "the module".to_string(),
            message: format!(
                "{} bytes: keyplan reads JavaScript and TypeScript modules of at most {} MB",
                text.len(),
                MAX_BYTES / (1024 * 1024)
            ),
        });
    }
    let bytes = text.as_bytes();
    let mut depth: usize = 0;
    let mut run: usize = 0;
    let mut word_start: Option<usize> = None;
    for (offset, &byte) in bytes.iter().enumerate() {
        let is_word = byte.is_ascii_alphanumeric() || byte == b'_' || byte == b'$';
        match (word_start, is_word) {
            (None, true) => word_start = Some(offset),
            (Some(start), false) => {
                if PREFIX_WORDS.contains(&&bytes[start..offset]) {
                    run += 2;
                }
                word_start = None;
            }
            _ => {}
        }
        match byte {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            b'!' | b'~' | b'-' | b'+' | b'?' | b'=' | b'<' | b'>' | b'*' | b'&' | b'|' | b':' => {
                run += 1
            }
            b';' | b',' => run = 0,
            _ => {}
        }
        if depth + run / 2 > MAX_NESTING {
            let (line, column) = line_column(text, offset);
            return Err(ImportError::Syntax {
                line,
                column,
                message: format!(
                    "nested more than {MAX_NESTING} levels deep; keyplan reads schemas, not deeply nested code"
                ),
            });
        }
    }
    Ok(())
}

/// Parses `text` as a TypeScript module (JavaScript is read the same way) and evaluates what
/// is literal in it.
pub fn read(text: &str) -> Result<Module, ImportError> {
    check_bounds(text)?;
    let allocator = Allocator::default();
    let options = ParseOptions {
        preserve_parens: false,
        ..ParseOptions::default()
    };
    let parsed = Parser::new(&allocator, text, SourceType::ts())
        .with_options(options)
        .parse();
    if let Some(error) = parsed.diagnostics.iter().next()
        && (parsed.panicked || !parsed.diagnostics.is_empty())
    {
        let offset = error
            .labels
            .first()
            .map_or(0, |label| label.offset() as usize);
        let (line, column) = line_column(text, offset);
        return Err(ImportError::Syntax {
            line,
            column,
            message: format!("not JavaScript or TypeScript: {}", error.message),
        });
    }
    let program = &parsed.program;
    let mut evaluator = Evaluator::new(text, program);
    let mut module = Module::default();
    for (name, expression) in evaluator.order.clone() {
        if may_be_schema(expression) {
            let value = evaluator.constant(name, expression, expression.span(), 0)?;
            module.consts.push((name.to_string(), value));
        }
    }
    for statement in &program.body {
        if let Statement::ExportDefaultDeclaration(export) = statement
            && let Some(expression) = export.declaration.as_expression()
        {
            module.default_export = Some(evaluator.eval(expression, 0)?);
        }
    }
    let mut finder = NewFinder {
        evaluator: &mut evaluator,
        news: Vec::new(),
        calls: Vec::new(),
        error: None,
        assigned: HashMap::new(),
        depth: 0,
    };
    for (name, expression) in finder.evaluator.order.clone() {
        match expression.get_inner_expression() {
            Expression::NewExpression(new) => {
                finder.assigned.insert(new.span, name.to_string());
            }
            Expression::CallExpression(call) => {
                finder.assigned.insert(call.span, name.to_string());
            }
            _ => {}
        }
    }
    finder.visit_program(program);
    if let Some(error) = finder.error {
        return Err(error);
    }
    module.news = finder.news;
    module.calls = finder.calls;
    Ok(module)
}

/// Whether a constant's value may be a OneTable schema: an object literal with `models`.
fn may_be_schema(expression: &Expression<'_>) -> bool {
    let Expression::ObjectExpression(object) = expression.get_inner_expression() else {
        return false;
    };
    object.properties.iter().any(|property| match property {
        ObjectPropertyKind::ObjectProperty(p) => p.key.static_name().as_deref() == Some("models"),
        ObjectPropertyKind::SpreadProperty(_) => false,
    })
}

/// Finds `new X(...)` of the [`CLASSES`] anywhere and evaluates its arguments.
struct NewFinder<'e, 'a> {
    evaluator: &'e mut Evaluator<'a>,
    news: Vec<NewCall>,
    calls: Vec<NewCall>,
    error: Option<ImportError>,
    assigned: HashMap<Span, String>,
    depth: usize,
}

/// Line and column of offsets in one text, from its line starts found once.
struct Lines<'t> {
    text: &'t str,
    starts: Vec<usize>,
}

impl<'t> Lines<'t> {
    fn new(text: &'t str) -> Lines<'t> {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Lines { text, starts }
    }

    fn line_column(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let line = self.starts.partition_point(|&s| s <= offset);
        let start = self.starts[line - 1];
        let column = self
            .text
            .get(start..offset)
            .map_or(0, |l| l.chars().count())
            + 1;
        (line, column)
    }
}

impl<'a> Visit<'a> for NewFinder<'_, 'a> {
    /// Bounds the walk: a chain such as `a.b.c...` or `a + a + ...` parses without recursion
    /// but nests in the tree.
    fn visit_expression(&mut self, it: &Expression<'a>) {
        if self.error.is_some() {
            return;
        }
        if self.depth >= MAX_WALK {
            let (line, column) = line_column(self.evaluator.text, it.span().start as usize);
            self.error = Some(ImportError::Syntax {
                line,
                column,
                message: format!(
                    "an expression nested more than {MAX_WALK} levels deep; keyplan reads schemas, not deeply nested code"
                ),
            });
            return;
        }
        self.depth += 1;
        oxc_ast_visit::walk::walk_expression(self, it);
        self.depth -= 1;
    }

    fn visit_new_expression(&mut self, it: &NewExpression<'a>) {
        let class = match it.callee.get_inner_expression() {
            Expression::Identifier(id) => Some(id.name.as_str().to_string()),
            Expression::StaticMemberExpression(member) => {
                Some(member.property.name.as_str().to_string())
            }
            _ => None,
        };
        if let Some(class) = class
            && CLASSES.contains(&class.as_str())
            && self.error.is_none()
        {
            let Some(args) = self.arguments(&it.arguments) else {
                return;
            };
            let (line, column) = self.evaluator.lines.line_column(it.span.start as usize);
            self.news.push(NewCall {
                class,
                args,
                var: self.assigned.get(&it.span).cloned(),
                line,
                column,
            });
        }
        oxc_ast_visit::walk::walk_new_expression(self, it);
    }

    /// A `const x = new X(...)` (or a call) inside a function is assigned too: a test's
    /// `const table = new Table(...)` is found by its name.
    fn visit_variable_declarator(&mut self, it: &oxc_ast::ast::VariableDeclarator<'a>) {
        if let (BindingPattern::BindingIdentifier(id), Some(init)) = (&it.id, &it.init) {
            let span = match init.get_inner_expression() {
                Expression::NewExpression(new) => Some(new.span),
                Expression::CallExpression(call) => Some(call.span),
                _ => None,
            };
            if let Some(span) = span {
                self.assigned
                    .entry(span)
                    .or_insert_with(|| id.name.as_str().to_string());
            }
        }
        oxc_ast_visit::walk::walk_variable_declarator(self, it);
    }

    fn visit_call_expression(&mut self, it: &oxc_ast::ast::CallExpression<'a>) {
        let function = match it.callee.get_inner_expression() {
            Expression::Identifier(id) => Some(id.name.as_str()),
            Expression::StaticMemberExpression(member) => Some(member.property.name.as_str()),
            _ => None,
        };
        if let Some(function) = function
            && CALLS.contains(&function)
            && self.error.is_none()
        {
            let Some(args) = self.arguments(&it.arguments) else {
                return;
            };
            let (line, column) = self.evaluator.lines.line_column(it.span.start as usize);
            self.calls.push(NewCall {
                class: function.to_string(),
                args,
                var: self.assigned.get(&it.span).cloned(),
                line,
                column,
            });
        }
        oxc_ast_visit::walk::walk_call_expression(self, it);
    }
}

struct Evaluator<'a> {
    text: &'a str,
    lines: Lines<'a>,
    /// Module-level constants by name, and in source order.
    by_name: HashMap<&'a str, &'a Expression<'a>>,
    order: Vec<(&'a str, &'a Expression<'a>)>,
    memo: HashMap<&'a str, Evaluated>,
    /// Constants being evaluated (a cycle is not literal).
    evaluating: Vec<&'a str>,
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

fn declarations<'a>(
    declaration: &'a VariableDeclaration<'a>,
    out: &mut Vec<(&'a str, &'a Expression<'a>)>,
) {
    for declarator in &declaration.declarations {
        if let (BindingPattern::BindingIdentifier(id), Some(init)) =
            (&declarator.id, &declarator.init)
        {
            out.push((id.name.as_str(), init));
        }
    }
}

impl<'a> Evaluator<'a> {
    fn new(text: &'a str, program: &'a Program<'a>) -> Evaluator<'a> {
        let mut order = Vec::new();
        for statement in &program.body {
            match statement {
                Statement::VariableDeclaration(declaration) => {
                    declarations(declaration, &mut order)
                }
                Statement::ExportDeclaration(export) => {
                    if let Declaration::VariableDeclaration(declaration) = &export.declaration {
                        declarations(declaration, &mut order);
                    }
                }
                _ => {}
            }
        }
        let by_name = order.iter().map(|(n, e)| (*n, *e)).collect();
        Evaluator {
            text,
            lines: Lines::new(text),
            by_name,
            order,
            memo: HashMap::new(),
            evaluating: Vec::new(),
            spent: Weight {
                values: 0,
                text_bytes: 0,
            },
        }
    }

    /// The source text at `span`, white space collapsed, cut after [`SNIPPET`] characters:
    /// made a character at a time, so a long expression costs no more than a short one.
    fn snippet(&self, span: Span) -> String {
        let source = self
            .text
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

    fn non_literal(&self, span: Span) -> Value {
        let mut object = Map::new();
        object.insert(NON_LITERAL.to_string(), Value::String(self.snippet(span)));
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
        let (line, column) = self.lines.line_column(span.start as usize);
        Err(ImportError::Syntax {
            line,
            column,
            message,
        })
    }

    /// [`Evaluator::charge`] for `n` bytes of text.
    fn charge_text(&mut self, n: usize, span: Span) -> Result<(), ImportError> {
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
    fn constant(
        &mut self,
        name: &'a str,
        expression: &'a Expression<'a>,
        span: Span,
        depth: usize,
    ) -> Result<Value, ImportError> {
        if !self.memo.contains_key(name) {
            if self.evaluating.contains(&name) {
                return Ok(self.non_literal(expression.span()));
            }
            self.evaluating.push(name);
            // One level down: a chain of constants that name each other is as deep as the
            // brackets it stands for.
            let value = self.eval(expression, depth + 1);
            self.evaluating.pop();
            let value = value?;
            let evaluated = Evaluated {
                weight: weight(&value),
                height: height(&value),
                value,
            };
            self.memo.insert(name, evaluated);
        }
        let Some(&Evaluated { weight, height, .. }) = self.memo.get(name) else {
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
            .get(name)
            .map_or(Value::Null, |evaluated| evaluated.value.clone()))
    }

    fn eval(&mut self, expression: &Expression<'a>, depth: usize) -> Result<Value, ImportError> {
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
            Expression::Identifier(id) => match self.by_name.get(id.name.as_str()).copied() {
                Some(init) => {
                    let value = self.constant(id.name.as_str(), init, id.span, depth)?;
                    if is_non_literal(&value) {
                        // Name the constant, not its code: `Customer`, not `new Entity(...)`;
                        // a call chain keeps its calls (`const schema = item({...})`).
                        let mut named = self.non_literal(id.span);
                        if let (Value::Object(members), Some(chain)) =
                            (&mut named, value.get(CALL_CHAIN))
                        {
                            members.insert(CALL_CHAIN.to_string(), chain.clone());
                        }
                        named
                    } else {
                        value
                    }
                }
                None => self.non_literal(id.span),
            },
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
                                Value::Object(members) => out.extend(members),
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
                None => self.call_chain(call, depth)?,
            },
            Expression::NewExpression(new) => {
                let mut value = self.non_literal(new.span);
                let (line, column) = self.lines.line_column(new.span.start as usize);
                if let Value::Object(members) = &mut value {
                    members.insert(NEW_AT.to_string(), serde_json::json!([line, column]));
                }
                value
            }
            other => self.non_literal(other.span()),
        })
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

/// Whether `value` stands for code that was not evaluated.
pub fn is_non_literal(value: &Value) -> bool {
    value.get(NON_LITERAL).is_some()
}

/// The source text of a non-literal value, or its JSON.
pub fn snippet_of(value: &Value) -> String {
    match value.get(NON_LITERAL).and_then(Value::as_str) {
        Some(s) => s.to_string(),
        None => value.to_string(),
    }
}

/// The literal fallback of a non-literal value (`process.env.T ?? 'orders'` gives `orders`).
pub fn fallback(value: &Value) -> Option<&Value> {
    value.get(FALLBACK)
}

/// Every non-literal value under `value`, with its path, in document order.
pub fn non_literals(value: &Value, path: &str, out: &mut Vec<(String, String)>) {
    if is_non_literal(value) {
        out.push((path.to_string(), snippet_of(value)));
        return;
    }
    match value {
        Value::Object(members) => {
            for (key, child) in members {
                let child_path = if path.is_empty() {
                    key.clone()
                } else {
                    format!("{path}.{key}")
                };
                non_literals(child, &child_path, out);
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                non_literals(child, &format!("{path}[{i}]"), out);
            }
        }
        _ => {}
    }
}

/// One note listing what was not literal under the paths given, at most a dozen by name.
pub fn non_literal_note(found: &[(String, String)]) -> Option<String> {
    if found.is_empty() {
        return None;
    }
    let mut listed: Vec<String> = found
        .iter()
        .take(12)
        .map(|(path, code)| format!("{path} (`{code}`)"))
        .collect();
    if found.len() > 12 {
        listed.push(format!("and {} more", found.len() - 12));
    }
    Some(format!(
        "not literal, so not read (keyplan never runs the module's code): {}",
        listed.join(", ")
    ))
}

/// Whether `text` parses as a module that has `new Entity(` or `new Service(` in it, or a
/// OneTable schema: for detection.
pub fn looks_like(module: &Module) -> Option<super::Format> {
    if module
        .news
        .iter()
        .any(|n| super::toolbox::module_is_table(n) || super::toolbox::module_is_entity(n))
    {
        return Some(super::Format::Toolbox);
    }
    if module.news.iter().any(|n| n.class == "Schema") || !module.calls.is_empty() {
        return Some(super::Format::Dynamoose);
    }
    if module
        .news
        .iter()
        .any(|n| n.class == "Entity" || n.class == "Service")
    {
        return Some(super::Format::ElectroDb);
    }
    let is_schema = |v: &Value| v.get("models").is_some_and(Value::is_object);
    if module.consts.iter().any(|(_, v)| is_schema(v))
        || module.default_export.as_ref().is_some_and(is_schema)
        || module.news.iter().any(|n| {
            n.class == "Table"
                && n.args
                    .first()
                    .and_then(|a| a.get("schema"))
                    .is_some_and(is_schema)
        })
    {
        return Some(super::Format::OneTable);
    }
    None
}
