//! The MCP server's resources: what an agent may read before it writes a design. The JSON
//! Schema of the design file (`keyplan schema`'s), each built-in example (core's, from
//! `examples/`), and DynamoDB's limits as keyplan checks them (core's `limits::ALL`). Nothing
//! here is restated: each resource is the text the CLI or core already has.

/// A resource: its URI, name, what it is and its text's MIME type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub uri: String,
    pub name: String,
    pub description: String,
    pub mime_type: &'static str,
}

pub const SCHEMA: &str = "keyplan://schema/design";
pub const LIMITS: &str = "keyplan://limits";
const EXAMPLES: &str = "keyplan://examples/";

/// Every resource, in the order they are listed.
pub fn all() -> Vec<Entry> {
    let mut out = vec![
        Entry {
            uri: SCHEMA.to_string(),
            name: "design file schema".to_string(),
            description: "The JSON Schema (draft 2020-12) of a keyplan design file, the `design` every tool takes".to_string(),
            mime_type: "application/schema+json",
        },
        Entry {
            uri: LIMITS.to_string(),
            name: "DynamoDB limits".to_string(),
            description: "DynamoDB's limits as keyplan checks them: name, value, the least allowed for a range, and what each bounds".to_string(),
            mime_type: "application/json",
        },
    ];
    for (slug, _) in keyplan_core::examples::SOURCES {
        out.push(Entry {
            uri: format!("{EXAMPLES}{slug}"),
            name: format!("example: {slug}"),
            description: format!("The built-in example design `{slug}`, a keyplan design file"),
            mime_type: "application/json",
        });
    }
    out
}

/// The text of the resource at `uri`, or `None` when there is none.
pub fn read(uri: &str) -> Option<String> {
    match uri {
        SCHEMA => Some(crate::design_io::design_schema()),
        LIMITS => serde_json::to_string_pretty(keyplan_core::limits::ALL).ok(),
        _ => {
            let slug = uri.strip_prefix(EXAMPLES)?;
            keyplan_core::examples::SOURCES
                .iter()
                .find(|(s, _)| *s == slug)
                .map(|(_, text)| text.to_string())
        }
    }
}
