//! Names and literals for generated text: identifiers derived from the user's names (pattern
//! "Get order by ID" becomes `getOrderById`, `get_order_by_id`, `GetOrderById`) and string
//! literals escaped for each target language.
//!
//! Every identifier returned here is valid in its language: ASCII letters, digits and `_`,
//! never starting with a digit, never empty, never a reserved word.

use std::collections::HashSet;

pub use crate::casing::{camel, kebab, pascal, screaming, snake};

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
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
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
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
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
            c if c.is_control() => out.push_str(&control(c as u32)),
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

/// Text for a Markdown table cell: no pipes, no line breaks.
pub fn md_cell(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    push_md_cell(&mut out, s);
    out
}

/// [`md_cell`] of `s` written at the end of `out`, for a document that writes its cells in
/// place (50,000 pattern rows at 10,000 entities, issue 13).
pub fn push_md_cell(out: &mut String, s: &str) {
    // Most cells have none of the four: found by a pass with no early exit, which the compiler
    // turns into vector instructions, then copied whole: a fifth of the byte-by-byte loop's
    // instructions below on the 10,000-entity document's 308,000 cells (331M -> 59M, issue 13).
    let special = s.bytes().fold(false, |found, byte| {
        found | matches!(byte, b'\\' | b'|' | b'\n' | b'\r')
    });
    if !special {
        out.push_str(s);
        return;
    }
    // One pass, copying the runs between the characters it replaces whole (an export writes a
    // cell per pattern and finding, 10,000s in a big design; char by char took a twentieth of
    // the 10,000-entity document, issue 13). The four are ASCII, so a byte never splits a char.
    let mut from = 0;
    for (at, byte) in s.bytes().enumerate() {
        let replacement = match byte {
            b'\\' => "\\\\",
            b'|' => "\\|",
            b'\n' | b'\r' => " ",
            _ => continue,
        };
        out.push_str(&s[from..at]);
        out.push_str(replacement);
        from = at + 1;
    }
    out.push_str(&s[from..]);
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
            c if c.is_control() && c != '\n' && c != '\t' => "\u{fffd}",
            _ => continue,
        };
        out.push_str(&s[from..at]);
        out.push_str(replacement);
        from = at + c.len_utf8();
    }
    out.push_str(&s[from..]);
}

/// A `//` or `#` comment body on one line: the words of `s` (split at any whitespace) joined
/// by single spaces.
pub fn one_line(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    push_one_line(&mut out, s);
    out
}

/// [`one_line`] of `s` written at the end of `out`: the access code writes a comment line
/// per reason of every Scan (21 at 10,000 entities, 210,000 lines), each a string of its own
/// before (issue 13).
pub fn push_one_line(out: &mut String, s: &str) {
    // Most text is already one line of ASCII words, copied as it is: no byte outside ASCII,
    // no whitespace but single spaces between words.
    let mut after_space = true;
    let plain = s.bytes().all(|b| {
        let space = b == b' ';
        let fine = b.is_ascii() && !(space && after_space) && (space || !is_ascii_space(b));
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
        out.push_str(word);
    }
}

/// Whitespace for `char::is_whitespace` among ASCII bytes (`u8::is_ascii_whitespace` leaves
/// out the vertical tab).
fn is_ascii_space(b: u8) -> bool {
    b.is_ascii_whitespace() || b == 0x0b
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
