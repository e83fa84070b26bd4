//! The one walk over a design's calls, shared by every language: it names each function,
//! hands each call to the language's [`Dialect`], and, for a transaction, each of its steps.
//! A dialect spells; it decides nothing about what a pattern does.
//!
//! The driver writes the module in one pass: no text is written and then rewritten (a
//! signature too long for its line is laid out by [`Layout`] as the dialect writes it).

use crate::export::names::{self, Lang, Scope};
use crate::model::Design;
use crate::template::{KeyTemplate, Part};

use super::{
    Call, DeleteStep, Get, Kind, Lookup, PutStep, Read, Scan, Step, TemplatedKey, UpdateStep,
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
    fn case(name: &str) -> String;

    /// The module's names, which function names must not repeat.
    fn scope(&mut self) -> &mut Scope;

    /// A string-valued expression of the template, each variable spelled by `var`.
    fn string(&self, t: &KeyTemplate, var: &dyn Fn(&str) -> String) -> String;

    /// The expression of a key attribute's value: a number key filled by one variable is the
    /// number itself, any other key the template's string.
    fn value(&self, k: &TemplatedKey, var: &dyn Fn(&str) -> String) -> String {
        if let (crate::model::KeyType::N, [Part::Var(v)]) = (k.ty, k.template.parts()) {
            return var(&v.name);
        }
        self.string(&k.template, var)
    }

    /// The module's opening: imports, table names, types and helpers the calls use.
    fn preamble(&mut self, out: &mut String, design: &Design, calls: &[Call]);

    /// Written before every call's function (or its note that it is not generated).
    fn before(&self, _out: &mut String, _f: &Function<'_>) {}

    /// A note that the call's function is not generated, and why.
    fn skip(&self, out: &mut String, f: &Function<'_>, why: &str);

    fn get(&self, out: &mut String, f: &Function<'_>, get: &Get);
    fn query(&self, out: &mut String, f: &Function<'_>, read: &Read);
    fn scan(&self, out: &mut String, f: &Function<'_>, scan: &Scan);

    fn put(&self, out: &mut String, put: &PutStep, to: &Write<'_>);
    fn update(&self, out: &mut String, update: &UpdateStep, to: &Write<'_>);
    fn delete(&self, out: &mut String, delete: &DeleteStep, to: &Write<'_>);

    /// A transaction's function up to its first step; `params` are the steps' parameters and
    /// whether each takes several items ([`transact_params`]).
    fn transaction(
        &self,
        out: &mut String,
        f: &Function<'_>,
        steps: &[(Step, u32)],
        params: &[(String, bool)],
    );

    /// Opens the step whose parameter is `param`; returns the item's expression and the
    /// step's indentation.
    fn step_start(&self, out: &mut String, param: &str, many: bool) -> (String, &'static str);

    fn step_end(&self, out: &mut String, many: bool);

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
    let mut out = String::with_capacity(BYTES_PER_CALL * calls.len() + 256 * design.entities.len());
    dialect.preamble(&mut out, design, &calls);
    let mut registry = Vec::new();
    for call in &calls {
        let name =
            dialect
                .scope()
                .unique(names::valid(&D::case(&call.pattern), D::LANG, "pattern"));
        let doc = doc_line(call);
        let f = Function {
            name: &name,
            doc: &doc,
            call,
        };
        dialect.before(&mut out, &f);
        match &call.kind {
            Kind::Skip(why) => dialect.skip(&mut out, &f, why),
            Kind::Get(get) => dialect.get(&mut out, &f, get),
            Kind::Query(read) => dialect.query(&mut out, &f, read),
            Kind::Scan(scan) => dialect.scan(&mut out, &f, scan),
            Kind::Write(step) => write_step(&dialect, &mut out, step, &Write::Alone(&f)),
            Kind::Transact(steps) => {
                let params = transact_params(steps, D::LANG, D::case);
                dialect.transaction(&mut out, &f, steps, &params);
                for ((step, _), (param, many)) in steps.iter().zip(&params) {
                    let (item, indent) = dialect.step_start(&mut out, param, *many);
                    write_step(
                        &dialect,
                        &mut out,
                        step,
                        &Write::Step {
                            item: &item,
                            indent,
                        },
                    );
                    dialect.step_end(&mut out, *many);
                }
                dialect.transaction_end(&mut out);
            }
        }
        if !matches!(call.kind, Kind::Skip(_)) {
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

    /// The constant of the table named `table`, if the design has it.
    pub fn get(&self, table: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(t, _)| t == table)
            .map(|(_, c)| c.as_str())
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
