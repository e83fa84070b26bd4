//! The one walk over a design's calls, shared by every language: it names each function,
//! hands each call to the language's [`Dialect`], and, for a transaction, each of its steps.
//! A dialect spells; it decides nothing about what a pattern does.
//!
//! The driver writes the module in one pass: no text is written and then rewritten (a
//! signature too long for its line is laid out by [`Layout`] as the dialect writes it).

use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt::Write as _;

use crate::export::names::{self, Lang, Scope};
use crate::model::Design;
use crate::template::{KeyTemplate, Part};

use super::vector::Search;
use super::{
    Call, CallKind, DeleteStep, Get, Lookup, PutStep, Read, Scan, Statement, Step, TemplatedKey,
    UpdateStep,
};
use super::{calls, doc_line, transact_params};

/// The function a dialect writes for one call.
pub(super) struct Function<'a> {
    /// Its name, valid and unique in the module.
    pub name: &'a str,
    /// Its one-line documentation.
    pub doc: &'a str,
    pub call: &'a Call,
}

/// A step of a transaction and its parameter in the transaction's function.
pub(super) struct StepParam<'a> {
    pub step: &'a Step,
    /// The parameter's name, valid and unique in the function.
    pub name: String,
    /// Whether the parameter takes several items (the step writes each).
    pub many: bool,
}

/// The parameters of a transaction's function after the client, `, name: Type` each: `one`
/// for a step of one item, `many` for a step of several.
pub(super) fn step_params(steps: &[StepParam<'_>], one: &str, many: &str) -> String {
    steps
        .iter()
        .map(|s| format!(", {}: {}", s.name, if s.many { many } else { one }))
        .collect()
}

/// `open`, each of `items` written by `write` with `sep` between them, and `close`, written
/// in one string (no string per item).
pub(super) fn enclosed<T>(
    (open, sep, close): (&str, &str, &str),
    items: &[T],
    write: impl Fn(&mut String, &T),
) -> String {
    let mut out = String::with_capacity(open.len() + close.len() + 48 * items.len());
    out.push_str(open);
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(sep);
        }
        write(&mut out, item);
    }
    out.push_str(close);
    out
}

/// Each of `lines` as a comment line opened by `open` (`// `, `    # `), flattened to one line.
pub(super) fn comments(out: &mut String, open: &str, lines: &[String]) {
    for line in lines {
        out.push_str(open);
        names::push_one_line(out, line);
        out.push('\n');
    }
}

/// Where a write step is written.
pub(super) enum Write<'a> {
    /// A function of its own, which takes the item (a put) or the key and the changes.
    Alone(&'a Function<'a>),
    /// One step of a transaction: `item` is the expression of the step's item, which carries
    /// the key and the changes alike; `indent` is the step's indentation.
    Step { item: &'a str, indent: &'a str },
}

impl Write<'_> {
    /// The expressions the key's variables and the changes are read from: the function's
    /// parameters `key` and `changes` (named by the caller), or the step's item for both.
    pub fn objects<'s>(&'s self, key: &'s str, changes: &'s str) -> (&'s str, &'s str) {
        match self {
            Write::Alone(_) => (key, changes),
            Write::Step { item, .. } => (item, item),
        }
    }
}

/// A language the access code is written in: how it spells each kind of call. The methods
/// append to `out`.
pub(super) trait Dialect {
    /// The language's identifier rules.
    const LANG: Lang;
    /// The case of function names and transaction parameters (`getOrder`, `get_order`).
    const CASE: fn(&str) -> String;
    /// The names the module's preamble and helpers take, which no function may have.
    const TAKEN: &'static [&'static str];

    /// What opens a note in place of a function that is not generated (`// `, after the
    /// blank lines that separate functions).
    const NOTE: &'static str;

    /// A string literal of `text`.
    fn literal(&self, text: &str) -> String;

    /// Appends the literal text `s` to an interpolation's `text`, escaped for it.
    fn text(&self, text: &mut String, s: &str);

    /// What opens and closes an interpolated string (`` ` `` and `` ` ``), and a variable in it
    /// (`${` and `}`).
    const QUOTES: [&'static str; 2];
    const HOLE: [&'static str; 2];

    /// Appends the variable `expr` to an interpolation: to its `text`, or to its `args` and a
    /// hole in the text.
    fn hole(&self, text: &mut String, _args: &mut Vec<String>, expr: String) {
        let [open, close] = Self::HOLE;
        text.push_str(open);
        text.push_str(&expr);
        text.push_str(close);
    }

    /// The interpolation of `text` and `args`: a string-valued expression.
    fn interpolation(&self, text: &str, _args: &[String]) -> String {
        let [open, close] = Self::QUOTES;
        [open, text, close].concat()
    }

    /// An expression drawing a write shard, 0 to `n` - 1.
    fn random_shard(&self, n: u32) -> String;

    /// The value of a key attribute computed into an item, its write shard drawn at random.
    fn computed_value(&self, k: &TemplatedKey, var: &dyn Fn(&str) -> String) -> String {
        self.value(k, &|v| match k.template.shard() {
            Some(shard) if shard.name == v => self.random_shard(shard.shards.unwrap_or(1)),
            _ => var(v),
        })
    }

    /// A string-valued expression of the template, each variable spelled by `var`.
    fn string(&self, t: &KeyTemplate, var: &dyn Fn(&str) -> String) -> String {
        if t.is_constant() {
            return self.literal(t.literal_prefix());
        }
        let mut text = String::new();
        let mut args = Vec::new();
        for p in t.parts() {
            match p {
                Part::Literal(s) => self.text(&mut text, s),
                Part::Var(v) => self.hole(&mut text, &mut args, var(&v.name)),
            }
        }
        self.interpolation(&text, &args)
    }

    /// The expression of a key attribute's value: a number key filled by one variable is the
    /// number itself, any other key the template's string.
    fn value(&self, k: &TemplatedKey, var: &dyn Fn(&str) -> String) -> String {
        if let (crate::model::KeyType::N, [Part::Var(v)]) = (k.ty, k.template.parts()) {
            return var(&v.name);
        }
        self.string(&k.template, var)
    }

    /// The module's opening: imports, table names, types and helpers the calls use; the
    /// names it gives in the module (types) it takes from `scope`.
    fn preamble(&mut self, out: &mut String, design: &Design, calls: &[Call], scope: &mut Scope);

    /// Written before every call's function (or its note that it is not generated).
    fn before(&self, _out: &mut String, _f: &Function<'_>) {}

    fn get(&self, out: &mut String, f: &Function<'_>, get: &Get);
    fn query(&self, out: &mut String, f: &Function<'_>, read: &Read);
    fn scan(&self, out: &mut String, f: &Function<'_>, scan: &Scan);
    /// A read sent as its pattern's PartiQL statement, with ExecuteStatement: one page.
    fn statement(&self, out: &mut String, f: &Function<'_>, statement: &Statement);
    /// A vector search: SearchVectors with the query vector, the best `TopK` with their scores.
    fn vector_search(&self, out: &mut String, f: &Function<'_>, search: &Search);

    fn put(&self, out: &mut String, put: &PutStep, to: &Write<'_>);
    fn update(&self, out: &mut String, update: &UpdateStep, to: &Write<'_>);
    fn delete(&self, out: &mut String, delete: &DeleteStep, to: &Write<'_>);

    /// A transaction's function up to its first step.
    fn transaction(&self, out: &mut String, f: &Function<'_>, steps: &[StepParam<'_>]);

    /// Opens a step (a loop over its items, when it takes several); returns the item's
    /// expression and the step's indentation.
    fn step_start(&self, out: &mut String, step: &StepParam<'_>) -> (String, &'static str);

    fn step_end(&self, out: &mut String, step: &StepParam<'_>);

    /// Sends the transaction and closes its function.
    fn transaction_end(&self, out: &mut String);

    /// The module's end; `registry` pairs each generated function with its pattern's name.
    fn epilogue(&self, out: &mut String, registry: &[(String, String)]);
}

/// The module for `design` in `dialect`'s language.
pub(super) fn render<D: Dialect>(design: &Design, mut dialect: D) -> String {
    let lookup = Lookup::new(design);
    let calls = calls(&lookup);
    // Room for the whole module at once: growing a string of tens of megabytes by doubling
    // copied it again and again (a function is about 1.3 KB in every language).
    let capacity = BYTES_PER_CALL * calls.len() + 256 * design.entities.len();
    let mut out = String::with_capacity(capacity);
    let mut scope = Scope::with_taken(D::TAKEN);
    dialect.preamble(&mut out, design, &calls, &mut scope);
    let mut registry = Vec::new();
    for call in &calls {
        let case = D::CASE;
        let name = scope.unique(names::valid(&case(&call.pattern), D::LANG, "pattern"));
        let doc = doc_line(call);
        let f = Function {
            name: &name,
            doc: &doc,
            call,
        };
        dialect.before(&mut out, &f);
        match &call.kind {
            CallKind::Skip(why) => {
                let why = names::one_line(why);
                let _ = writeln!(out, "{}{name}: not generated: {why}.", D::NOTE);
            }
            CallKind::Get(get) => dialect.get(&mut out, &f, get),
            CallKind::Query(read) => dialect.query(&mut out, &f, read),
            CallKind::Scan(scan) => dialect.scan(&mut out, &f, scan),
            CallKind::Statement(statement) => dialect.statement(&mut out, &f, statement),
            CallKind::Vector(search) => dialect.vector_search(&mut out, &f, search),
            CallKind::Write(step) => write_step(&dialect, &mut out, step, &Write::Alone(&f)),
            CallKind::Transact(steps) => {
                let params: Vec<StepParam<'_>> = steps
                    .iter()
                    .zip(transact_params(steps, D::LANG, D::CASE))
                    .map(|((step, _), (name, many))| StepParam { step, name, many })
                    .collect();
                dialect.transaction(&mut out, &f, &params);
                for param in &params {
                    let (item, indent) = dialect.step_start(&mut out, param);
                    let to = Write::Step {
                        item: &item,
                        indent,
                    };
                    write_step(&dialect, &mut out, param.step, &to);
                    dialect.step_end(&mut out, param);
                }
                dialect.transaction_end(&mut out);
            }
        }
        if !matches!(call.kind, CallKind::Skip(_)) {
            registry.push((call.pattern.clone(), name));
        }
    }
    dialect.epilogue(&mut out, &registry);
    out.shrink_to_fit();
    out
}

/// What [`render`] reserves for each call's function.
const BYTES_PER_CALL: usize = 1536;

fn write_step<D: Dialect>(dialect: &D, out: &mut String, step: &Step, to: &Write<'_>) {
    match step {
        Step::Put(put) => dialect.put(out, put, to),
        Step::Update(update) => dialect.update(out, update, to),
        Step::Delete(delete) => dialect.delete(out, delete, to),
    }
}

/// A language's identifiers of attribute names, each worked out once per module: the same
/// attributes come back in most functions' parameters and keys.
#[derive(Default)]
pub(super) struct Idents(RefCell<HashMap<String, String>>);

impl Idents {
    /// The identifier of `attr`, made by `make` the first time.
    pub fn get(&self, attr: &str, make: fn(&str) -> String) -> String {
        if let Some(id) = self.0.borrow().get(attr) {
            return id.clone();
        }
        let id = make(attr);
        self.0.borrow_mut().insert(attr.to_string(), id.clone());
        id
    }
}

/// The generated module's table names: each table's constant (or object key), in the
/// design's order.
#[derive(Default)]
pub(super) struct Tables(Vec<(String, String)>);
impl Tables {
    /// Each table's name in `case`, valid in `lang` and unique.
    pub fn new(
        design: &Design,
        lang: Lang,
        case: impl Fn(&str) -> String,
        fallback: &str,
    ) -> Tables {
        let mut scope = Scope::new();
        Tables(
            design
                .tables
                .iter()
                .map(|t| {
                    (
                        t.name.clone(),
                        scope.unique(names::valid(&case(&t.name), lang, fallback)),
                    )
                })
                .collect(),
        )
    }

    /// The expression of the table named `table`: its constant after `prefix`, or its name
    /// quoted by `quote` when the design has no such table.
    pub fn expr(&self, table: &str, prefix: &str, quote: fn(&str) -> String) -> String {
        match self.0.iter().find(|(t, _)| t == table) {
            Some((_, c)) => format!("{prefix}{c}"),
            None => quote(table),
        }
    }

    /// (table name, constant), in the design's order.
    pub fn iter(&self) -> impl Iterator<Item = &(String, String)> {
        self.0.iter()
    }
}

/// How a language lays out a function signature too long for a line, the way rustfmt and
/// black would: a signature line (one starting with one of `starts`) that fits in `width`
/// stays, a longer one gets a parameter per line; a parameter line (starting with
/// `first_param`) holding several parameters is split.
pub(super) struct Layout {
    pub starts: &'static str,
    pub first_param: &'static str,
    pub width: usize,
}

impl Layout {
    /// Appends `text` (whole lines, each ending with a newline) to `out`, laid out.
    pub fn write(&self, out: &mut String, text: &str) {
        for line in text.lines() {
            if line.starts_with(self.starts)
                && line.len() > self.width
                && let Some((open, close)) = parameter_parens(line)
            {
                out.push_str(&line[..=open]);
                out.push('\n');
                push_params(out, &line[open + 1..close]);
                out.push_str(&line[close..]);
                out.push('\n');
                continue;
            }
            if line.starts_with(self.first_param) && line.trim_end().ends_with(',') {
                push_params(out, line.trim().trim_end_matches(','));
                continue;
            }
            out.push_str(line);
            out.push('\n');
        }
    }
}

/// Each parameter of `list` on its own line, indented, with a trailing comma.
fn push_params(out: &mut String, list: &str) {
    for param in split_top_level(list) {
        out.push_str("    ");
        out.push_str(&param);
        out.push_str(",\n");
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
