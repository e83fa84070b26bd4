//! Names and literals for generated text: identifiers derived from the user's names (pattern
//! "Get order by ID" becomes `getOrderById`, `get_order_by_id`, `GetOrderById`) and string
//! literals escaped for each target language.
//!
//! Every identifier returned here is valid in its language: ASCII letters, digits and `_`,
//! never starting with a digit, never empty, never a reserved word.
//!
//! Architecture Invariant (issue 41): design text reaches generated text only through a function
//! here, one per target language or format: a string literal with every quote, backslash and
//! [hidden character](crate::text::is_hidden) escaped, a Markdown cell or XML text with them
//! replaced, or a one-line comment body of printable characters. No design can end a literal,
//! a comment or a line of the program that holds it.

use std::borrow::Cow;
use std::collections::HashSet;
use std::io;

use serde_json::ser::{Formatter, PrettyFormatter};

use crate::text::{is_hidden, shown};

pub use crate::casing::{camel, pascal, screaming, snake};

/// A target language's identifier rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    TypeScript,
    Python,
    Rust,
    /// CloudFormation logical ids: letters and digits only.
    CloudFormation,
    /// Terraform block labels.
    Hcl,
}

const TS_RESERVED: &[&str] = &[
    "break",
    "case",
    "catch",
    "class",
    "const",
    "continue",
    "debugger",
    "default",
    "delete",
    "do",
    "else",
    "enum",
    "export",
    "extends",
    "false",
    "finally",
    "for",
    "function",
    "if",
    "import",
    "in",
    "instanceof",
    "new",
    "null",
    "return",
    "super",
    "switch",
    "this",
    "throw",
    "true",
    "try",
    "typeof",
    "var",
    "void",
    "while",
    "with",
    "let",
    "static",
    "yield",
    "await",
    "implements",
    "interface",
    "package",
    "private",
    "protected",
    "public",
    "arguments",
    "eval",
    "client",
    "input",
    "options",
    "undefined",
];

const PY_RESERVED: &[&str] = &[
    "False",
    "None",
    "True",
    "and",
    "as",
    "assert",
    "async",
    "await",
    "break",
    "class",
    "continue",
    "def",
    "del",
    "elif",
    "else",
    "except",
    "finally",
    "for",
    "from",
    "global",
    "if",
    "import",
    "in",
    "is",
    "lambda",
    "nonlocal",
    "not",
    "or",
    "pass",
    "raise",
    "return",
    "try",
    "while",
    "with",
    "yield",
    "match",
    "case",
    "type",
    "client",
    "item",
    "items",
    "key",
    "limit",
    "start_key",
    "self",
    "str",
    "int",
    "dict",
    "list",
    "id",
    "input",
    "object",
];

const RS_RESERVED: &[&str] = &[
    "as",
    "async",
    "await",
    "break",
    "const",
    "continue",
    "crate",
    "dyn",
    "else",
    "enum",
    "extern",
    "false",
    "fn",
    "for",
    "if",
    "impl",
    "in",
    "let",
    "loop",
    "match",
    "mod",
    "move",
    "mut",
    "pub",
    "ref",
    "return",
    "self",
    "Self",
    "static",
    "struct",
    "super",
    "trait",
    "true",
    "type",
    "unsafe",
    "use",
    "where",
    "while",
    "abstract",
    "become",
    "box",
    "do",
    "final",
    "macro",
    "override",
    "priv",
    "typeof",
    "unsized",
    "virtual",
    "yield",
    "try",
    "gen",
    "client",
    "item",
    "items",
    "key",
    "limit",
    "start_key",
    "output",
    "Error",
    "Item",
];

/// Makes `candidate` a valid identifier in `lang`: a fallback for an empty one, a prefix for
/// one that starts with a digit, a trailing `_` for a reserved word.
pub fn valid(candidate: &str, lang: Lang, fallback: &str) -> String {
    let mut id: String = candidate
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || (*c == '_' && lang != Lang::CloudFormation))
        .collect();
    if id.is_empty() {
        id = fallback.to_string();
    }
    if id.starts_with(|c: char| c.is_ascii_digit()) {
        id = match lang {
            Lang::CloudFormation => format!("T{id}"),
            _ => format!("_{id}"),
        };
    }
    let reserved = match lang {
        Lang::TypeScript => TS_RESERVED,
        Lang::Python => PY_RESERVED,
        Lang::Rust => RS_RESERVED,
        Lang::CloudFormation | Lang::Hcl => &[],
    };
    if reserved.contains(&id.as_str()) {
        id.push('_');
    }
    id
}

/// Hands out identifiers that are unique within one scope, by adding `2`, `3`... to repeats.
#[derive(Debug, Default)]
pub struct Scope {
    taken: HashSet<String>,
}

impl Scope {
    pub fn new() -> Scope {
        Scope::default()
    }

    /// Reserves names the scope must not hand out (imports, helpers).
    pub fn with_taken(names: &[&str]) -> Scope {
        Scope {
            taken: names.iter().map(|s| s.to_string()).collect(),
        }
    }

    pub fn unique(&mut self, id: String) -> String {
        if self.taken.insert(id.clone()) {
            return id;
        }
        let mut n = 2;
        loop {
            let next = format!("{id}{n}");
            if self.taken.insert(next.clone()) {
                return next;
            }
            n += 1;
        }
    }
}

/// A single-quoted TypeScript string literal.
pub fn ts_str(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('\'');
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\'' => out.push_str("\\'"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c if is_hidden(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}

/// Literal text inside a TypeScript template literal (between backticks).
pub fn ts_template_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.push_str("\\\\"),
            '`' => out.push_str("\\`"),
            '$' if chars.peek() == Some(&'{') => out.push_str("\\$"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if is_hidden(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

/// A double-quoted string literal, valid in Python, Rust, HCL and JSON (`\u{..}` aside).
fn double_quoted(s: &str, control: impl Fn(u32) -> String) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    push_quoted_body(&mut out, s, &control, false);
    out.push('"');
    out
}

/// What [`double_quoted`] writes between the quotes, at the end of `out`; with `braces`, each
/// `{` and `}` doubled as well, as a `format!` or f-string's literal text needs.
fn push_quoted_body(out: &mut String, s: &str, control: &dyn Fn(u32) -> String, braces: bool) {
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '{' if braces => out.push_str("{{"),
            '}' if braces => out.push_str("}}"),
            c if is_hidden(c) => out.push_str(&control(c as u32)),
            c => out.push(c),
        }
    }
}

/// The literal text of a Rust `format!` string at the end of `out`: [`rs_str`]'s escapes
/// (without its quotes), braces doubled. Written in place: the access code writes one for
/// every literal piece of a key template (issue 13).
pub fn push_rs_format_text(out: &mut String, s: &str) {
    push_quoted_body(out, s, &|n| format!("\\u{{{n:x}}}"), true);
}

/// The literal text of a Python f-string at the end of `out`: [`py_str`]'s escapes (without
/// its quotes), braces doubled.
pub fn push_py_format_text(out: &mut String, s: &str) {
    push_quoted_body(out, s, &|n| format!("\\u{n:04x}"), true);
}

/// A double-quoted Python string literal.
pub fn py_str(s: &str) -> String {
    double_quoted(s, |n| format!("\\u{n:04x}"))
}

/// A Python expression for the string `s` with no backslash, quote, brace or `#`, for an
/// f-string expression (which can hold none of them before Python 3.12): single-quoted runs of
/// the other printable characters, each of those and each hidden character as `chr(N)`, joined
/// by `+`: `'user' + chr(10) + 'id'`.
pub fn py_expr_str(s: &str) -> String {
    let mut pieces: Vec<String> = Vec::new();
    let mut run = String::new();
    for c in s.chars() {
        if matches!(c, '\'' | '"' | '\\' | '{' | '}' | '#') || is_hidden(c) {
            if !run.is_empty() {
                pieces.push(format!("'{run}'"));
                run.clear();
            }
            pieces.push(format!("chr({})", c as u32));
        } else {
            run.push(c);
        }
    }
    if !run.is_empty() || pieces.is_empty() {
        pieces.push(format!("'{run}'"));
    }
    pieces.join(" + ")
}

/// A double-quoted Rust string literal.
pub fn rs_str(s: &str) -> String {
    double_quoted(s, |n| format!("\\u{{{n:x}}}"))
}

/// A double-quoted HCL string: also escapes Terraform's `${` and `%{` interpolation.
pub fn hcl_str(s: &str) -> String {
    double_quoted(&s.replace("${", "$${").replace("%{", "%%{"), |n| {
        format!("\\u{n:04x}")
    })
}

/// `value` as indented JSON, as `serde_json::to_string_pretty` writes it but with every hidden
/// character escaped (`\u2028`): JSON allows U+2028, NEL and direction marks raw in a string,
/// where an editor or a JavaScript reader ends a line or reorders the text.
pub fn json_pretty<T: serde::Serialize + ?Sized>(value: &T) -> Result<String, serde_json::Error> {
    let mut out = Vec::with_capacity(256);
    let mut serializer =
        serde_json::Serializer::with_formatter(&mut out, HiddenEscaped(PrettyFormatter::new()));
    value.serialize(&mut serializer)?;
    // serde_json writes UTF-8 only, and the escapes below are ASCII.
    Ok(String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into()))
}

/// serde_json's pretty layout, with [`is_hidden`] characters escaped in strings.
struct HiddenEscaped<'a>(PrettyFormatter<'a>);

impl Formatter for HiddenEscaped<'_> {
    fn write_string_fragment<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        let mut from = 0;
        for (at, c) in fragment.char_indices() {
            if is_hidden(c) {
                writer.write_all(&fragment.as_bytes()[from..at])?;
                write!(writer, "\\u{:04x}", c as u32)?;
                from = at + c.len_utf8();
            }
        }
        writer.write_all(&fragment.as_bytes()[from..])
    }

    fn begin_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_array(w)
    }

    fn end_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_array(w)
    }

    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.0.begin_array_value(w, first)
    }

    fn end_array_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_array_value(w)
    }

    fn begin_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_object(w)
    }

    fn end_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_object(w)
    }

    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.0.begin_object_key(w, first)
    }

    fn begin_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_object_value(w)
    }

    fn end_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_object_value(w)
    }
}

/// Text for a Markdown table cell: no pipes, no line breaks, no hidden characters (a line
/// break or separator becomes a space, any other [`shown`] as `U+001B`).
pub fn md_cell(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    push_md_cell(&mut out, s);
    out
}

/// [`md_cell`] of `s` written at the end of `out`, for a document that writes its cells in
/// place (50,000 pattern rows at 10,000 entities, issue 13).
pub fn push_md_cell(out: &mut String, s: &str) {
    // Most cells have none of the special bytes: found by a pass with no early exit, which the
    // compiler turns into vector instructions, then copied whole: a fifth of the byte-by-byte
    // loop's instructions below on the 10,000-entity document's 308,000 cells (331M -> 59M,
    // issue 13). A byte past ASCII may start a hidden character (U+2028), so it takes the
    // slow path too.
    let special = s.bytes().fold(false, |found, byte| {
        found | matches!(byte, b'\\' | b'|' | 0..=0x1f | 0x7f..=0xff)
    });
    if !special {
        out.push_str(s);
        return;
    }
    // One pass, copying the runs between the characters it replaces whole (an export writes a
    // cell per pattern and finding, 10,000s in a big design; char by char took a twentieth of
    // the 10,000-entity document, issue 13).
    let mut from = 0;
    for (at, c) in s.char_indices() {
        let replacement = match c {
            '\\' => Cow::Borrowed("\\\\"),
            '|' => Cow::Borrowed("\\|"),
            c if is_hidden(c) && c.is_whitespace() => Cow::Borrowed(" "),
            c if is_hidden(c) => Cow::Owned(shown(c)),
            _ => continue,
        };
        out.push_str(&s[from..at]);
        out.push_str(&replacement);
        from = at + c.len_utf8();
    }
    out.push_str(&s[from..]);
}

/// Text inside a Markdown code span, in a table cell or not: a backtick (which would end the
/// span) becomes `'`, a pipe (which would end the cell) `\|`, a backslash `\\`, a line break
/// or separator a space, any other hidden character [`shown`].
pub fn md_code(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    push_md_code(&mut out, s);
    out
}

/// [`md_code`] of `s` written at the end of `out`.
pub fn push_md_code(out: &mut String, s: &str) {
    for c in s.chars() {
        match c {
            '`' => out.push('\''),
            // A table reads `\\` as an escaped backslash, so the pipe after it would end the
            // cell: doubled, a backslash cannot escape what follows (it shows twice in a span).
            '\\' => out.push_str("\\\\"),
            '|' => out.push_str("\\|"),
            c if is_hidden(c) && c.is_whitespace() => out.push(' '),
            c if is_hidden(c) => out.push_str(&shown(c)),
            c => out.push(c),
        }
    }
}

/// Text for XML character data and attribute values.
pub fn xml(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    push_xml(&mut out, s);
    out
}

/// [`xml`] of `s`, written at the end of `out`: the SVG picture of 10,000 entities writes
/// 200,000 lines (issue 13). The runs between the characters it replaces are copied whole, as
/// [`push_md_cell`] does (char by char, the picture of 10,000 entities took about a fifth
/// longer).
pub fn push_xml(out: &mut String, s: &str) {
    let mut from = 0;
    for (at, c) in s.char_indices() {
        let replacement = match c {
            '&' => "&amp;",
            '<' => "&lt;",
            '>' => "&gt;",
            '"' => "&quot;",
            '\'' => "&apos;",
            // A line break stays one, as a reference: no line of the file is the design's.
            '\n' => "&#xA;",
            '\r' => "&#xD;",
            '\t' => "&#x9;",
            // XML has no reference for the other controls; a direction mark would reorder
            // what the picture shows.
            c if is_hidden(c) => "\u{fffd}",
            _ => continue,
        };
        out.push_str(&s[from..at]);
        out.push_str(replacement);
        from = at + c.len_utf8();
    }
    out.push_str(&s[from..]);
}

/// A `//` or `#` comment body on one line: the words of `s` (split at any whitespace) joined
/// by single spaces, each other hidden character [`shown`] (`U+001B`). Printable characters on
/// one line end no comment of any language keyplan writes (issue 41).
pub fn one_line(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    push_one_line(&mut out, s);
    out
}

/// [`one_line`] of `s` written at the end of `out`: the access code writes a comment line
/// per reason of every Scan (21 at 10,000 entities, 210,000 lines), each a string of its own
/// before (issue 13).
pub fn push_one_line(out: &mut String, s: &str) {
    // Most text is already one line of printable ASCII words, copied as it is: no byte outside
    // ASCII, no control, no whitespace but single spaces between words.
    let mut after_space = true;
    let plain = s.bytes().all(|b| {
        let space = b == b' ';
        let fine = (b' '..=b'~').contains(&b) && !(space && after_space);
        after_space = space;
        fine
    });
    if plain && (!after_space || s.is_empty()) {
        out.push_str(s);
        return;
    }
    for (i, word) in s.split_whitespace().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        for c in word.chars() {
            if is_hidden(c) {
                out.push_str(&shown(c));
            } else {
                out.push(c);
            }
        }
    }
}

/// An object key in TypeScript: bare when it is an identifier, else a string literal.
pub fn ts_key(name: &str) -> String {
    let is_ident = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
    if is_ident {
        name.to_string()
    } else {
        ts_str(name)
    }
}
