//! An SVG picture of the design: a card per entity, grouped in a column per table, listing the
//! entity's template for each key of the table and its indexes (by index) and its attributes.
//!
//! A fixed layout from the design alone (no fonts measured, no randomness), so the picture is
//! the same everywhere. Every text goes through [`xml`]: a name cannot inject markup.

use std::fmt::Write;

use crate::export::names::{push_xml, xml};
use crate::model::{Design, Entity, IndexKeys};

const CARD_WIDTH: usize = 380;
const LINE: usize = 18;
const GAP: usize = 24;
const MARGIN: usize = 20;
const HEADER: usize = 28;
/// Characters that fit on a card line at the font size used.
const LINE_CHARS: usize = 50;

/// Writes `s` escaped for XML at the end of `out`, clipped to [`LINE_CHARS`] characters (its
/// first `LINE_CHARS - 1` and an ellipsis when longer): what `xml` of a clipped copy gives,
/// written in place, since the picture of 10,000 entities has 200,000 lines (issue 13).
fn push_line_text(out: &mut String, s: &str) {
    // Its character LINE_CHARS - 1 (counted from 0) with another after it: longer than
    // LINE_CHARS, so cut before that character.
    let (text, ellipsis) = match s.char_indices().nth(LINE_CHARS - 1) {
        Some((at, _)) if s[at..].chars().nth(1).is_some() => (&s[..at], true),
        _ => (s, false),
    };
    push_xml(out, text);
    if ellipsis {
        out.push('…');
    }
}

/// Writes an entity card's lines (a key line per index it is in, then its attributes) as
/// `<text>` elements at the end of `out`, the first at `y`: how many lines it wrote. `line` is
/// scratch space, reused from card to card.
fn card_lines(
    indexes: &[IndexKeys<'_>],
    entity: &Entity,
    x: usize,
    y: usize,
    line: &mut String,
    out: &mut String,
) -> usize {
    let mut n = 0;
    let mut text = |out: &mut String, line: &str, class: &str| {
        let _ = write!(
            out,
            "    <text x=\"{x}\" y=\"{}\" class=\"{class}\">",
            y + n * LINE
        );
        push_line_text(out, line);
        out.push_str("</text>\n");
        n += 1;
    };
    for index in indexes {
        let label = index.name.unwrap_or("table");
        for key in index.partition_key.iter().chain(index.sort_key) {
            if let Some(t) = entity.key_template(&key.name) {
                line.clear();
                let _ = write!(line, "{label} {}: {}", key.name, t.source());
                text(out, line, "key");
            }
        }
    }
    for a in &entity.attributes {
        let required = if a.required { "" } else { "?" };
        line.clear();
        let _ = write!(line, "{}{required}: {:?}", a.name, a.ty);
        text(out, line, "attr");
    }
    n
}

pub fn svg(design: &Design) -> String {
    let mut body = String::new();
    let mut width = MARGIN;
    let mut height = MARGIN + HEADER;
    // Reused from card to card: a line's text, and the card's lines (written before the
    // card's rectangle, whose height they decide).
    let (mut line, mut lines) = (String::new(), String::new());
    for (column, table) in design.tables.iter().enumerate() {
        let x = MARGIN + column * (CARD_WIDTH + GAP);
        let mut y = MARGIN + HEADER;
        let _ = write!(
            body,
            "  <text x=\"{x}\" y=\"{}\" class=\"table\">table ",
            y - 8
        );
        push_line_text(&mut body, &table.name);
        body.push_str("</text>\n");
        let indexes = table.indexes();
        for entity in design.entities_in(&table.name) {
            lines.clear();
            let n = card_lines(
                &indexes,
                entity,
                x + 10,
                y + HEADER + 14,
                &mut line,
                &mut lines,
            );
            let card_height = HEADER + n * LINE + 10;
            let _ = write!(
                body,
                "  <g class=\"entity\">\n    <rect x=\"{x}\" y=\"{y}\" width=\"{CARD_WIDTH}\" height=\"{card_height}\" rx=\"6\"/>\n    <text x=\"{}\" y=\"{}\" class=\"name\">",
                x + 10,
                y + 20,
            );
            push_line_text(&mut body, &entity.name);
            body.push_str("</text>\n");
            body.push_str(&lines);
            body.push_str("  </g>\n");
            y += card_height + GAP;
        }
        width = x + CARD_WIDTH + MARGIN;
        height = height.max(y);
    }
    let width = width.max(CARD_WIDTH + 2 * MARGIN);
    let mut out = String::with_capacity(1024);
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" role=\"img\" aria-label=\"{}\">",
        xml(&design.name)
    );
    let _ = writeln!(out, "  <title>{}</title>", xml(&design.name));
    out.push_str("  <style>\n    text { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 12px; fill: #1f2933; }\n    .table { font-size: 14px; font-weight: 600; fill: #52606d; }\n    .name { font-size: 14px; font-weight: 700; }\n    .key { fill: #0b6e4f; }\n    .attr { fill: #3e4c59; }\n    rect { fill: #ffffff; stroke: #9aa5b1; stroke-width: 1; }\n  </style>\n");
    let _ = writeln!(
        out,
        "  <rect x=\"0\" y=\"0\" width=\"{width}\" height=\"{height}\" style=\"fill:#f5f7fa;stroke:none\"/>"
    );
    // The head goes in front of the body in place: a second string of the body's size (9 MB
    // at 10,000 entities) was memory touched for the first time, page by page (issue 13).
    body.insert_str(0, &out);
    body.push_str("</svg>\n");
    body
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    proptest! {
        // issue 13: a line's text is clipped and escaped in place; it must be what escaping
        // the clipped text gives: up to LINE_CHARS characters whole, longer ones cut to
        // LINE_CHARS - 1 and an ellipsis, any character (markup, controls, non-ASCII) escaped
        // as `xml` escapes it.
        #[test]
        fn a_line_is_the_escaped_clipped_text(
            s in "(\\PC|[&<>\"'\\x00-\\x1f\\u{80}-\\u{9f}]){0,70}|[a-zé\\u{80}-\\u{9f}]{0,60}"
        ) {
            let chars: Vec<char> = s.chars().collect();
            let clipped: String = if chars.len() <= LINE_CHARS {
                s.clone()
            } else {
                chars[..LINE_CHARS - 1].iter().chain(['…'].iter()).collect()
            };
            let mut out = String::from("<");
            push_line_text(&mut out, &s);
            prop_assert_eq!(out, format!("<{}", xml(&clipped)));
        }

        // The escaping itself, written in runs: each character of the text as XML escapes
        // it, the five markup characters as entities, a newline, return or tab as a character
        // reference (no line of the file is the design's, issue 41), every other hidden
        // character (C1's too, U+2028, direction marks) as U+FFFD, every other as it is.
        #[test]
        fn xml_escapes_each_character(s in "(\\PC|[&<>\"'\\x00-\\x1f\\u{80}-\\u{9f}]){0,70}|[a-zé\\u{80}-\\u{9f}]{0,60}") {
            let one_by_one: String = s
                .chars()
                .map(|c| match c {
                    '&' => "&amp;".to_string(),
                    '<' => "&lt;".to_string(),
                    '>' => "&gt;".to_string(),
                    '"' => "&quot;".to_string(),
                    '\'' => "&apos;".to_string(),
                    '\n' => "&#xA;".to_string(),
                    '\r' => "&#xD;".to_string(),
                    '\t' => "&#x9;".to_string(),
                    c if crate::text::is_hidden(c) => "\u{fffd}".to_string(),
                    c => c.to_string(),
                })
                .collect();
            prop_assert_eq!(xml(&s), one_by_one);
        }
    }
}
