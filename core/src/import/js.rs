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
use oxc_ast::ast::{BindingPattern, Expression, NewExpression, ObjectPropertyKind, Program};
use oxc_ast_visit::Visit;
use oxc_parser::{ParseOptions, Parser};
use oxc_span::{GetSpan, SourceType, Span};
use serde_json::Value;

use super::ImportError;

mod builders;
mod eval;
mod scope;
#[cfg(test)]
mod tests;

use eval::Evaluator;
use scope::{Export, Scope};

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
/// The key of a non-literal value's 1-based line in its file.
pub const LINE: &str = super::CODE_LINE;
/// The key of the function a schema was handed to (`helper({ indexes, models })`), its
/// result read as the schema it was given.
pub const VIA: &str = "$via";
/// The key of a non-literal value's file, when several are read together.
pub const FILE: &str = super::CODE_FILE;
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
/// Beside [`NON_LITERAL`], where a `new X(...)` inside a value is, `[line, column]` in its
/// file, to find the [`NewCall`] it is (Dynamoose's `model('Cat', new Schema({...}))`).
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
    /// The file's name as given; empty for a module read alone.
    pub name: String,
    pub consts: Vec<(String, Value)>,
    pub default_export: Option<Value>,
    /// The line each of `consts` is written on, by name, and the default export's (`default`).
    pub lines: HashMap<String, usize>,
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
    let mut read = read_files(&[("", text)])?;
    Ok(read.modules.swap_remove(0))
}

/// Modules read together, and the files that were not read.
#[derive(Debug, Clone, Default)]
pub struct Modules {
    /// One per file read, in the order given.
    pub modules: Vec<Module>,
    /// Each file given that is not JavaScript or TypeScript, with why: left out, so one
    /// unrelated file of a folder does not refuse the rest.
    pub unread: Vec<super::Assumption>,
}

/// An error of the file `name`, read with others: its place says which file.
fn in_file(name: &str, error: ImportError) -> ImportError {
    if name.is_empty() {
        return error;
    }
    match error {
        ImportError::Syntax {
            line,
            column,
            message,
        } => ImportError::Invalid {
            path: format!("{name}, line {line}, column {column}"),
            message,
        },
        ImportError::Invalid { path, message } => ImportError::Invalid {
            path: format!("{name}: {path}"),
            message,
        },
        ImportError::Missing { path } => ImportError::Missing {
            path: format!("{name}: {path}"),
        },
        other => other,
    }
}

/// Parses one text, bounded first (see [`check_bounds`]).
fn parse<'a>(allocator: &'a Allocator, text: &'a str) -> Result<Program<'a>, ImportError> {
    check_bounds(text)?;
    let options = ParseOptions {
        preserve_parens: false,
        ..ParseOptions::default()
    };
    let parsed = Parser::new(allocator, text, SourceType::ts())
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
    Ok(parsed.program)
}

/// Reads several modules together, `(name, text)` each, so that an import of one from another
/// (`import { STATUSES } from './types'`) reads the value the other module gives it (issue 36).
/// Names are paths as given (`models/task.ts`); an import's path is resolved against the
/// importing file's folder. One evaluation, with one budget, reads them all: the bounds of
/// one module hold for all of them together, and at most [`MAX_FILES`] files of at most
/// [`MAX_TOTAL_BYTES`] together are read. A file of several that does not parse is left out
/// and said in [`Modules::unread`]; a module read alone that does not parse is refused.
pub fn read_files(files: &[(&str, &str)]) -> Result<Modules, ImportError> {
    check_total(files.iter().map(|(_, text)| text.len()))?;
    let allocators: Vec<Allocator> = files.iter().map(|_| Allocator::default()).collect();
    let mut programs = Vec::new();
    let mut unread = Vec::new();
    for ((name, text), allocator) in files.iter().zip(&allocators) {
        match parse(allocator, text) {
            Ok(program) => programs.push((*name, *text, program)),
            Err(error) if files.len() > 1 && matches!(error, ImportError::Syntax { .. }) => {
                let (line, message) = match &error {
                    ImportError::Syntax { line, message, .. } => (*line, message.clone()),
                    _ => (0, error.to_string()),
                };
                unread.push(
                    super::Assumption::at(
                        line,
                        format!("the file is {message}"),
                        "nothing from it",
                    )
                    .in_file(name),
                );
            }
            Err(error) => return Err(in_file(name, error)),
        }
    }
    if programs.is_empty()
        && let Some(first) = unread.first()
    {
        return Err(ImportError::Invalid {
            path: first.file.clone().unwrap_or_default(),
            message: first.what.clone(),
        });
    }
    let scopes = programs
        .iter()
        .map(|(name, text, program)| Scope::new(name, text, program))
        .collect();
    let mut evaluator = Evaluator::new(scopes);
    let mut modules = Vec::new();
    for (file, (name, _, program)) in programs.iter().enumerate() {
        evaluator.current = file;
        module(&mut evaluator, program)
            .map(|mut module| {
                module.name = name.to_string();
                modules.push(module);
            })
            .map_err(|error| in_file(name, error))?;
    }
    Ok(Modules { modules, unread })
}

pub use super::folder::{MAX_FILES, MAX_TOTAL_BYTES, check_total};
const _: () = assert!(
    MAX_TOTAL_BYTES == 2 * MAX_BYTES,
    "folder's bound is twice a module's"
);

/// What the module being evaluated holds: see [`Module`].
fn module<'a>(
    evaluator: &mut Evaluator<'a>,
    program: &'a Program<'a>,
) -> Result<Module, ImportError> {
    let file = evaluator.current;
    let mut module = Module::default();
    let scope = &evaluator.files[file];
    let mut candidates: Vec<(&'a str, &'a Expression<'a>, bool)> = scope
        .order
        .iter()
        .map(|(name, expression)| (*name, *expression, false))
        .collect();
    // CommonJS `exports.Schema = {...}`.
    candidates.extend(
        scope
            .exports
            .iter()
            .filter_map(|(name, export)| match export {
                Export::Value(expression)
                    if *name != "default" && !scope.by_name.contains_key(name) =>
                {
                    Some((*name, *expression, true))
                }
                _ => None,
            }),
    );
    let default = match scope.exports.get("default") {
        Some(Export::Value(expression)) => Some(*expression),
        Some(Export::Local(name)) => scope.by_name.get(name).copied(),
        _ => None,
    };
    for (name, expression, exported) in candidates {
        if may_be_schema(expression) {
            let value =
                evaluator.constant((file, name, exported), expression, expression.span(), 0)?;
            let (line, _) = evaluator.line_column(expression.span().start as usize);
            module.lines.insert(name.to_string(), line);
            module.consts.push((name.to_string(), value));
        }
    }
    if let Some(expression) = default {
        let (line, _) = evaluator.line_column(expression.span().start as usize);
        module.lines.insert("default".to_string(), line);
        module.default_export = Some(evaluator.eval(expression, 0)?);
    }
    let mut finder = NewFinder {
        evaluator,
        news: Vec::new(),
        calls: Vec::new(),
        error: None,
        assigned: HashMap::new(),
        depth: 0,
    };
    for (name, expression) in finder.evaluator.files[file].order.clone() {
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

/// Whether a constant's value may be a OneTable schema: an object literal with `models`, or
/// an ElectroDB schema written apart from its `new Entity` (`{ model, attributes, indexes }`,
/// issue 36: ElectroDB's own taskapp example exports its models so). Or a call of one such
/// object, `helper({ indexes, models })`.
fn may_be_schema(expression: &Expression<'_>) -> bool {
    let object = match expression.get_inner_expression() {
        Expression::ObjectExpression(object) => object,
        Expression::CallExpression(call) => {
            return matches!(call.arguments.as_slice(), [argument]
                if argument.as_expression().is_some_and(may_be_schema));
        }
        _ => return false,
    };
    let has = |key: &str| {
        object.properties.iter().any(|property| match property {
            ObjectPropertyKind::ObjectProperty(p) => p.key.static_name().as_deref() == Some(key),
            ObjectPropertyKind::SpreadProperty(_) => false,
        })
    };
    has("models") || (has("model") && has("indexes"))
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

impl<'a> Visit<'a> for NewFinder<'_, 'a> {
    /// Bounds the walk: a chain such as `a.b.c...` or `a + a + ...` parses without recursion
    /// but nests in the tree.
    fn visit_expression(&mut self, it: &Expression<'a>) {
        if self.error.is_some() {
            return;
        }
        if self.depth >= MAX_WALK {
            let (line, column) = self.evaluator.line_column(it.span().start as usize);
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
            let (line, column) = self.evaluator.line_column(it.span.start as usize);
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
            let (line, column) = self.evaluator.line_column(it.span.start as usize);
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
