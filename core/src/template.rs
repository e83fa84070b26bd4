//! Key templates: `CUSTOMER#{customerId}`, `{createdAt}#{orderId}`, `PROFILE`,
//! `STATUS#{status}#SHARD{shard:10}`.
//!
//! A template is literal text with variables in braces. A variable names an attribute of the
//! entity; `{name:N}` is a write shard, a number from 0 to N-1 chosen at write time, which a
//! reader must scatter-gather over. `{{` and `}}` stand for literal braces.
//!
//! Parsing never fails: a bad template is kept with its source and a list of [`Diagnostic`]s,
//! each with the byte span it is about, so an editor can underline it. Nothing here knows
//! which attributes exist; that is the findings' business.

use std::fmt;

use serde::{Deserialize, Serialize};

/// The most shards one key may be split into.
pub const MAX_SHARDS: u32 = 10_000;

/// A byte range in a template's source.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }
}

/// Something wrong with a template, and where.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagnostic {
    pub span: Span,
    pub message: String,
}

/// A variable in a template.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Var {
    pub name: String,
    /// `Some(n)` for a write-shard variable `{name:n}`.
    pub shards: Option<u32>,
    /// The span of the whole `{...}`.
    pub span: Span,
}

/// One piece of a template.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Part {
    Literal(String),
    Var(Var),
}

/// A parsed key template. Equality and serialisation go by the source text.
#[derive(Clone)]
pub struct KeyTemplate {
    source: String,
    parts: Vec<Part>,
    diagnostics: Vec<Diagnostic>,
}

impl KeyTemplate {
    /// Parses `source`. Never fails; see [`KeyTemplate::diagnostics`].
    pub fn parse(source: &str) -> KeyTemplate {
        let (parts, diagnostics) = parse_parts(source);
        KeyTemplate {
            source: source.to_string(),
            parts,
            diagnostics,
        }
    }

    /// Builds a template from parts (literal text and variables) without parsing: the source
    /// is written with braces escaped and the spans are recomputed. Adjacent literals merge.
    /// Used to state derived templates (a key condition's value) from parsed ones.
    pub fn from_parts<'p>(parts: impl IntoIterator<Item = &'p Part>) -> KeyTemplate {
        let mut source = String::new();
        let mut out: Vec<Part> = Vec::new();
        for part in parts {
            match part {
                Part::Literal(text) => {
                    if text.is_empty() {
                        continue;
                    }
                    source.push_str(&escape(text));
                    match out.last_mut() {
                        Some(Part::Literal(last)) => last.push_str(text),
                        _ => out.push(Part::Literal(text.clone())),
                    }
                }
                Part::Var(var) => {
                    let start = source.len();
                    source.push('{');
                    source.push_str(&var.name);
                    if let Some(n) = var.shards {
                        source.push_str(&format!(":{n}"));
                    }
                    source.push('}');
                    out.push(Part::Var(Var {
                        name: var.name.clone(),
                        shards: var.shards,
                        span: Span::new(start, source.len()),
                    }));
                }
            }
        }
        if source.is_empty() {
            return KeyTemplate::parse("");
        }
        KeyTemplate {
            source,
            parts: out,
            diagnostics: Vec::new(),
        }
    }

    /// The template `{name}`: the attribute's own value.
    pub fn variable(name: &str) -> KeyTemplate {
        KeyTemplate::parse(&format!("{{{}}}", escape(name)))
    }

    pub fn source(&self) -> &str {
        &self.source
    }

    pub fn parts(&self) -> &[Part] {
        &self.parts
    }

    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    pub fn is_valid(&self) -> bool {
        self.diagnostics.is_empty()
    }

    /// Every variable, in order, shard variables included.
    pub fn vars(&self) -> impl Iterator<Item = &Var> {
        self.parts.iter().filter_map(|p| match p {
            Part::Var(v) => Some(v),
            Part::Literal(_) => None,
        })
    }

    /// The variables that name attributes (every variable but the shards).
    pub fn attribute_vars(&self) -> impl Iterator<Item = &Var> {
        self.vars().filter(|v| v.shards.is_none())
    }

    /// The shard variable, if the template is write-sharded.
    pub fn shard(&self) -> Option<&Var> {
        self.vars().find(|v| v.shards.is_some())
    }

    /// A template with no variables renders one value for every item.
    pub fn is_constant(&self) -> bool {
        self.vars().next().is_none()
    }

    /// The literal text before the first variable (all of it for a constant).
    pub fn literal_prefix(&self) -> &str {
        match self.parts.first() {
            Some(Part::Literal(s)) => s,
            _ => "",
        }
    }

    /// Renders the template. `value` gives each variable's text (a shard variable gets its
    /// shard number as text); `None` if any variable has no value.
    pub fn render(&self, mut value: impl FnMut(&Var) -> Option<String>) -> Option<String> {
        let mut out = String::new();
        for part in &self.parts {
            match part {
                Part::Literal(s) => out.push_str(s),
                Part::Var(v) => out.push_str(&value(v)?),
            }
        }
        Some(out)
    }

    /// Renders the template as far as the values reach: the literal text and variables up to
    /// the first variable without a value. Returns the prefix and whether it is the whole
    /// template. This is what a `begins_with` on a partly known key uses.
    pub fn render_prefix(&self, mut value: impl FnMut(&Var) -> Option<String>) -> (String, bool) {
        let mut out = String::new();
        for part in &self.parts {
            match part {
                Part::Literal(s) => out.push_str(s),
                Part::Var(v) => match value(v) {
                    Some(text) => out.push_str(&text),
                    None => return (out, false),
                },
            }
        }
        (out, true)
    }
}

impl PartialEq for KeyTemplate {
    fn eq(&self, other: &Self) -> bool {
        self.source == other.source
    }
}

impl Eq for KeyTemplate {}

impl std::hash::Hash for KeyTemplate {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.source.hash(state)
    }
}

impl fmt::Debug for KeyTemplate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "KeyTemplate({:?})", self.source)
    }
}

impl fmt::Display for KeyTemplate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.source)
    }
}

impl From<&str> for KeyTemplate {
    fn from(source: &str) -> Self {
        KeyTemplate::parse(source)
    }
}

impl Serialize for KeyTemplate {
    /// A template serialises as its source text.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.source)
    }
}

impl<'de> Deserialize<'de> for KeyTemplate {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let source = String::deserialize(deserializer)?;
        Ok(KeyTemplate::parse(&source))
    }
}

#[cfg(feature = "schema")]
impl schemars::JsonSchema for KeyTemplate {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "KeyTemplate".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "description": "A key template: literal text with {attribute} variables and at most one {shard:N} write-shard variable; {{ and }} are literal braces.",
            "examples": ["CUSTOMER#{customerId}", "{createdAt}#{orderId}", "PROFILE", "STATUS#{status}#SHARD{shard:10}"]
        })
    }
}

/// Whether `c`, in a template's literal text, separates the values around it (`#`, `|`, `.`):
/// punctuation other than `_` and `-`, which live inside identifiers. Values are taken not to
/// hold the separators of their own template (an id holds no `#`).
pub fn is_separator(c: char) -> bool {
    !c.is_alphanumeric() && c != '_' && c != '-'
}

/// Escapes braces so that `name` reads as literal text inside a template.
fn escape(name: &str) -> String {
    name.replace('{', "{{").replace('}', "}}")
}

fn parse_parts(source: &str) -> (Vec<Part>, Vec<Diagnostic>) {
    let mut parts = Vec::new();
    let mut diagnostics = Vec::new();
    let mut literal = String::new();
    let bytes = source.as_bytes();
    let mut i = 0;
    if source.is_empty() {
        diagnostics.push(Diagnostic {
            span: Span::new(0, 0),
            message: "a key template cannot be empty: DynamoDB key values need at least one byte"
                .to_string(),
        });
    }
    while i < bytes.len() {
        match bytes[i] {
            b'{' if bytes.get(i + 1) == Some(&b'{') => {
                literal.push('{');
                i += 2;
            }
            b'}' if bytes.get(i + 1) == Some(&b'}') => {
                literal.push('}');
                i += 2;
            }
            b'}' => {
                diagnostics.push(Diagnostic {
                    span: Span::new(i, i + 1),
                    message: "unmatched `}`: write `}}` for a literal brace".to_string(),
                });
                literal.push('}');
                i += 1;
            }
            b'{' => {
                let start = i;
                let close = source[i + 1..].find(['}', '{']).map(|off| i + 1 + off);
                let end = match close {
                    Some(c) if bytes[c] == b'}' => c,
                    _ => {
                        let stop = close.unwrap_or(source.len());
                        diagnostics.push(Diagnostic {
                            span: Span::new(start, stop),
                            message: "unclosed `{`: a variable ends with `}`".to_string(),
                        });
                        literal.push_str(&source[start..stop]);
                        i = stop;
                        continue;
                    }
                };
                let span = Span::new(start, end + 1);
                if let Some(var) = parse_var(&source[start + 1..end], span, &mut diagnostics) {
                    if !literal.is_empty() {
                        parts.push(Part::Literal(std::mem::take(&mut literal)));
                    }
                    if let (Some(_), Some(Part::Var(prev))) = (var.shards, parts.last())
                        && prev.shards.is_some()
                    {
                        diagnostics.push(Diagnostic {
                            span,
                            message: "two shard variables next to each other".to_string(),
                        });
                    }
                    parts.push(Part::Var(var));
                }
                i = end + 1;
            }
            _ => {
                let ch_len = source[i..].chars().next().map_or(1, char::len_utf8);
                literal.push_str(&source[i..i + ch_len]);
                i += ch_len;
            }
        }
    }
    if !literal.is_empty() {
        parts.push(Part::Literal(literal));
    }
    let shard_vars: Vec<Span> = parts
        .iter()
        .filter_map(|p| match p {
            Part::Var(v) if v.shards.is_some() => Some(v.span),
            _ => None,
        })
        .collect();
    for span in shard_vars.iter().skip(1) {
        diagnostics.push(Diagnostic {
            span: *span,
            message: "a key template can have at most one shard variable".to_string(),
        });
    }
    (parts, diagnostics)
}

fn parse_var(inner: &str, span: Span, diagnostics: &mut Vec<Diagnostic>) -> Option<Var> {
    let (name, shards) = match inner.split_once(':') {
        Some((name, count)) => {
            let count_span = Span::new(span.start + 1 + name.len() + 1, span.end - 1);
            match count.trim().parse::<u32>() {
                Ok(n) if (2..=MAX_SHARDS).contains(&n) => (name, Some(n)),
                Ok(n) => {
                    diagnostics.push(Diagnostic {
                        span: count_span,
                        message: format!("a shard count must be from 2 to {MAX_SHARDS}, not {n}"),
                    });
                    return None;
                }
                Err(_) => {
                    diagnostics.push(Diagnostic {
                        span: count_span,
                        message: format!(
                            "`{count}` is not a shard count: write `{{{name}:10}}` for 10 shards"
                        ),
                    });
                    return None;
                }
            }
        }
        None => (inner, None),
    };
    if name.is_empty() {
        diagnostics.push(Diagnostic {
            span,
            message: "empty variable: name an attribute, as in `{customerId}`".to_string(),
        });
        return None;
    }
    if name.trim() != name || name.chars().any(char::is_whitespace) {
        diagnostics.push(Diagnostic {
            span,
            message: format!("variable `{name}` contains white space"),
        });
        return None;
    }
    Some(Var {
        name: name.to_string(),
        shards,
        span,
    })
}

pub mod overlap;

#[cfg(test)]
mod tests;
