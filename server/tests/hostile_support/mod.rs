//! Hostile designs for issue 41's tests, and the checks of generated text that need no tool: a
//! design renamed so that every name and key template literal ends in random text of control
//! characters, quotes, comment openers and separators, each separator followed by [`MARKER`].
#![allow(dead_code)]

use std::collections::HashMap;

use keyplan_core::model::Design;
use keyplan_core::template::{KeyTemplate, Part};

/// What follows every separator in a hostile name: a generator that writes a separator raw
/// starts a line with it. Not an identifier (the `-`), so a name made an identifier never is it.
pub const MARKER: &str = "pwn-ed";

/// What ends a line somewhere: in JavaScript (U+2028, U+2029), in Python's `splitlines` and
/// editors (VT, FF, the file, group and record separators, NEL), everywhere (CR, LF).
pub const SEPARATORS: &[&str] = &[
    "\n", "\r\n", "\r", "\u{2028}", "\u{2029}", "\u{85}", "\u{b}", "\u{c}", "\u{1c}", "\u{1d}",
    "\u{1e}",
];

/// The rest of the hostile alphabet: quotes, backslashes, comment openers and closers, string
/// interpolation, Markdown's cell separator and HTML, direction marks, and below every other
/// control character.
const PIECES: &[&str] = &[
    "\"", "'", "`", "\\", "\\\"", "//", "#", "/*", "*/", "<!--", "-->", "\"\"\"", "'''", "${",
    "%{", "#{", "|", "<script>", "</text>", "&amp;", "\u{202e}", "\u{2066}", "\u{feff}", ";", "--",
    "@", ".", ")", "]",
];

/// Where a line of `text` starts with the marker: `Some(line number)` when the design wrote it.
pub fn starts_a_line(text: &str) -> Option<usize> {
    let mut lines = vec![text];
    for separator in SEPARATORS {
        lines = lines.iter().flat_map(|l| l.split(separator)).collect();
    }
    lines
        .iter()
        .skip(1)
        .position(|line| line.trim_start_matches([' ', '\t']).starts_with(MARKER))
        .map(|i| i + 2)
}

/// A seeded source of hostile text (xorshift: the same seed, the same designs), each name and
/// literal given the same text every time it is asked.
pub struct Hostile {
    state: u64,
    given: HashMap<String, String>,
}

impl Hostile {
    pub fn new(seed: u64) -> Hostile {
        Hostile {
            state: seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1,
            given: HashMap::new(),
        }
    }

    fn next(&mut self, below: usize) -> usize {
        self.state ^= self.state << 13;
        self.state ^= self.state >> 7;
        self.state ^= self.state << 17;
        (self.state % below as u64) as usize
    }

    /// `name` and a random tail, the same for the same name: always a separator and the
    /// marker first, then up to eight pieces, controls, or separators and the marker.
    pub fn name(&mut self, name: &str) -> String {
        if let Some(given) = self.given.get(name) {
            return given.clone();
        }
        let mut out = name.to_string();
        out.push_str(SEPARATORS[self.next(SEPARATORS.len())]);
        out.push_str(MARKER);
        for _ in 0..self.next(9) {
            match self.next(3) {
                0 => {
                    out.push_str(SEPARATORS[self.next(SEPARATORS.len())]);
                    out.push_str(MARKER);
                }
                1 => out.push_str(PIECES[self.next(PIECES.len())]),
                _ => {
                    let controls: Vec<char> = ('\0'..='\u{1f}')
                        .chain('\u{7f}'..='\u{9f}')
                        .chain(['\u{2028}', '\u{2029}', '\u{200f}', '\u{2069}'])
                        .collect();
                    out.push(controls[self.next(controls.len())]);
                }
            }
        }
        self.given.insert(name.to_string(), out.clone());
        out
    }

    fn template(&mut self, template: &KeyTemplate) -> KeyTemplate {
        let parts: Vec<Part> = template
            .parts()
            .iter()
            .map(|part| match part {
                Part::Literal(text) => Part::Literal(self.name(&format!("literal {text}"))),
                Part::Var(var) => {
                    let mut var = var.clone();
                    var.name = self.name(&var.name);
                    Part::Var(var)
                }
            })
            .collect();
        KeyTemplate::from_parts(&parts)
    }
}

/// `design` with every name, reference, description and key template literal made hostile
/// by `hostile` (a name and every reference to it alike), its layout and samples dropped.
pub fn hostile_design(design: &Design, hostile: &mut Hostile) -> Design {
    let mut d = design.clone();
    d.layout.clear();
    d.samples.clear();
    d.name = hostile.name(&d.name);
    d.description = hostile.name(&d.description);
    for table in &mut d.tables {
        table.name = hostile.name(&table.name);
        table.partition_key.name = hostile.name(&table.partition_key.name);
        if let Some(sk) = &mut table.sort_key {
            sk.name = hostile.name(&sk.name);
        }
        if let Some(ttl) = &mut table.ttl_attribute {
            *ttl = hostile.name(ttl);
        }
        for gsi in &mut table.gsis {
            gsi.name = hostile.name(&gsi.name);
            for key in gsi.partition_key.iter_mut().chain(gsi.sort_key.iter_mut()) {
                key.name = hostile.name(&key.name);
            }
        }
        for lsi in &mut table.lsis {
            lsi.name = hostile.name(&lsi.name);
            lsi.sort_key.name = hostile.name(&lsi.sort_key.name);
        }
    }
    for entity in &mut d.entities {
        entity.name = hostile.name(&entity.name);
        entity.table = hostile.name(&entity.table);
        entity.description = hostile.name(&entity.description);
        for attribute in &mut entity.attributes {
            attribute.name = hostile.name(&attribute.name);
            for value in &mut attribute.values {
                *value = hostile.name(value);
            }
        }
        entity.keys = entity
            .keys
            .iter()
            .map(|(key, template)| (hostile.name(key), hostile.template(template)))
            .collect();
    }
    for pattern in &mut d.patterns {
        pattern.name = hostile.name(&pattern.name);
        pattern.description = hostile.name(&pattern.description);
        let names = pattern
            .entities
            .iter_mut()
            .chain(pattern.inputs.iter_mut())
            .chain(pattern.changes.iter_mut())
            .chain(pattern.order_by.iter_mut())
            .chain(pattern.sort.iter_mut().map(|s| &mut s.attribute))
            .chain(pattern.filter.iter_mut().map(|f| &mut f.attribute));
        for name in names {
            *name = hostile.name(name);
        }
        for write in &mut pattern.writes {
            write.entity = hostile.name(&write.entity);
            for name in &mut write.changes {
                *name = hostile.name(name);
            }
        }
    }
    d
}

/// TypeScript that oxc parses without error, with the marker only inside string literals,
/// template text and comments; else what is wrong.
pub fn typescript(text: &str) -> Option<String> {
    use oxc_ast_visit::Visit;

    struct Literals(Vec<(u32, u32)>);
    impl<'a> Visit<'a> for Literals {
        fn visit_string_literal(&mut self, it: &oxc_ast::ast::StringLiteral<'a>) {
            self.0.push((it.span.start, it.span.end));
        }
        fn visit_template_element(&mut self, it: &oxc_ast::ast::TemplateElement<'a>) {
            self.0.push((it.span.start, it.span.end));
        }
    }

    let allocator = oxc_allocator::Allocator::default();
    let parsed = oxc_parser::Parser::new(&allocator, text, oxc_span::SourceType::ts()).parse();
    if parsed.panicked || !parsed.diagnostics.is_empty() {
        let first = parsed.diagnostics.first().map(|d| d.message.to_string());
        return Some(format!("not TypeScript: {first:?}"));
    }
    let mut literals = Literals(Vec::new());
    literals.visit_program(&parsed.program);
    literals.0.extend(
        parsed
            .program
            .comments
            .iter()
            .map(|c| (c.span.start, c.span.end)),
    );
    outside(text, &literals.0)
}

/// Where the marker is in `text` outside every one of `spans` (byte offsets), if anywhere.
fn outside(text: &str, spans: &[(u32, u32)]) -> Option<String> {
    for (at, _) in text.match_indices(MARKER) {
        let at = at as u32;
        if !spans.iter().any(|(s, e)| *s <= at && at < *e) {
            let line = text[..at as usize].matches('\n').count() + 1;
            return Some(format!("the marker is code at line {line}"));
        }
    }
    None
}

/// Rust that proc-macro2 lexes, with the marker never made of its tokens (`pwn` `-` `ed`):
/// only inside a literal or a comment; else what is wrong.
pub fn rust(text: &str) -> Option<String> {
    use proc_macro2::{TokenStream, TokenTree};

    fn flat(stream: TokenStream, out: &mut Vec<String>) {
        for tree in stream {
            match tree {
                TokenTree::Group(group) => flat(group.stream(), out),
                TokenTree::Ident(ident) => out.push(ident.to_string()),
                TokenTree::Punct(punct) => out.push(punct.as_char().to_string()),
                TokenTree::Literal(_) => out.push(String::new()),
            }
        }
    }

    let stream: TokenStream = match text.parse() {
        Ok(stream) => stream,
        Err(e) => return Some(format!("not Rust: {e}")),
    };
    let mut tokens = Vec::new();
    flat(stream, &mut tokens);
    let code = tokens
        .windows(3)
        .any(|w| w[0].ends_with("pwn") && w[1] == "-" && w[2].starts_with("ed"));
    code.then(|| "the marker is code".to_string())
}

/// Markdown whose every table row has as many cells as its header (a line break or an
/// unescaped `|` in a cell would change that); else what is wrong.
pub fn markdown(text: &str) -> Option<String> {
    let cells = |line: &str| {
        let mut n = 0;
        let mut escaped = false;
        for c in line.chars() {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '|') => n += 1,
                _ => {}
            }
        }
        n
    };
    let mut header: Option<usize> = None;
    for (i, line) in text.lines().enumerate() {
        if !line.starts_with('|') {
            header = None;
            continue;
        }
        match header {
            None => header = Some(cells(line)),
            Some(n) if cells(line) != n => {
                return Some(format!(
                    "line {}: {} cells where the header has {n}: {line:?}",
                    i + 1,
                    cells(line)
                ));
            }
            Some(_) => {}
        }
    }
    None
}

/// XML that xmlparser reads to the end with the marker only in text and attribute values;
/// else what is wrong.
pub fn svg(text: &str) -> Option<String> {
    for token in xmlparser::Tokenizer::from(text) {
        match token {
            Err(e) => return Some(format!("not XML: {e}")),
            Ok(
                xmlparser::Token::ElementStart { local, .. }
                | xmlparser::Token::Attribute { local, .. },
            ) if local.as_str().contains(MARKER) => {
                return Some("the marker is a name".to_string());
            }
            Ok(_) => {}
        }
    }
    None
}
