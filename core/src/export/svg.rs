//! An SVG picture of the design: a card per entity, grouped in a column per table, listing the
//! entity's template for each key of the table and its indexes (by index) and its attributes.
//!
//! A fixed layout from the design alone (no fonts measured, no randomness), so the picture is
//! the same everywhere. Every text goes through [`xml`]: a name cannot inject markup.

use std::fmt::Write;

use crate::export::names::xml;
use crate::model::{Design, Entity, Table};

const CARD_WIDTH: usize = 380;
const LINE: usize = 18;
const GAP: usize = 24;
const MARGIN: usize = 20;
const HEADER: usize = 28;
/// Characters that fit on a card line at the font size used.
const LINE_CHARS: usize = 50;

fn clip(s: &str) -> String {
    if s.chars().count() <= LINE_CHARS {
        s.to_string()
    } else {
        let mut out: String = s.chars().take(LINE_CHARS - 1).collect();
        out.push('…');
        out
    }
}

/// The lines of an entity card: a key line per index it is in, then its attributes.
fn card_lines(table: &Table, entity: &Entity) -> Vec<(String, bool)> {
    let mut lines = Vec::new();
    for index in table.indexes() {
        let label = index.name.unwrap_or("table");
        for key in index.partition_key.iter().chain(index.sort_key) {
            if let Some(t) = entity.key_template(&key.name) {
                lines.push((format!("{label} {}: {}", key.name, t.source()), true));
            }
        }
    }
    for a in &entity.attributes {
        let required = if a.required { "" } else { "?" };
        lines.push((format!("{}{required}: {:?}", a.name, a.ty), false));
    }
    lines
}

pub fn svg(design: &Design) -> String {
    let mut body = String::new();
    let mut width = MARGIN;
    let mut height = MARGIN + HEADER;
    for (column, table) in design.tables.iter().enumerate() {
        let x = MARGIN + column * (CARD_WIDTH + GAP);
        let mut y = MARGIN + HEADER;
        let _ = writeln!(
            body,
            "  <text x=\"{x}\" y=\"{}\" class=\"table\">table {}</text>",
            y - 8,
            xml(&clip(&table.name))
        );
        for entity in design.entities_in(&table.name) {
            let lines = card_lines(table, entity);
            let card_height = HEADER + lines.len() * LINE + 10;
            let _ = writeln!(
                body,
                "  <g class=\"entity\">\n    <rect x=\"{x}\" y=\"{y}\" width=\"{CARD_WIDTH}\" height=\"{card_height}\" rx=\"6\"/>\n    <text x=\"{}\" y=\"{}\" class=\"name\">{}</text>",
                x + 10,
                y + 20,
                xml(&clip(&entity.name))
            );
            for (i, (line, is_key)) in lines.iter().enumerate() {
                let _ = writeln!(
                    body,
                    "    <text x=\"{}\" y=\"{}\" class=\"{}\">{}</text>",
                    x + 10,
                    y + HEADER + 14 + i * LINE,
                    if *is_key { "key" } else { "attr" },
                    xml(&clip(line))
                );
            }
            body.push_str("  </g>\n");
            y += card_height + GAP;
        }
        width = x + CARD_WIDTH + MARGIN;
        height = height.max(y);
    }
    let width = width.max(CARD_WIDTH + 2 * MARGIN);
    let mut out = String::new();
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
    out.push_str(&body);
    out.push_str("</svg>\n");
    out
}
