//! The built-in example designs, compiled into the binary from `examples/*.keyplan.json`.
//!
//! The files in `examples/` are the single source: nothing here restates a design. Each is
//! parsed on demand; `core/tests/examples.rs` proves every file parses, so a broken example is
//! a failing test, never a user-facing error.

use crate::file;
use crate::model::Design;

/// Slug (the file name without `.keyplan.json`) and text of each built-in example, the
/// first being the one a new visitor sees.
pub const SOURCES: &[(&str, &str)] = &[
    (
        "order-management",
        include_str!("../../examples/order-management.keyplan.json"),
    ),
    (
        "saas-multi-tenant",
        include_str!("../../examples/saas-multi-tenant.keyplan.json"),
    ),
    (
        "ecommerce-orders",
        include_str!("../../examples/ecommerce-orders.keyplan.json"),
    ),
];

/// Every built-in example that parses, by slug, in [`SOURCES`] order.
pub fn all() -> Vec<(&'static str, Design)> {
    SOURCES
        .iter()
        .filter_map(|(slug, text)| file::parse(text).ok().map(|design| (*slug, design)))
        .collect()
}

/// The example with this slug.
pub fn get(slug: &str) -> Option<Design> {
    SOURCES
        .iter()
        .find(|(s, _)| *s == slug)
        .and_then(|(_, text)| file::parse(text).ok())
}

/// The design shown on a first visit: the seed article's order management. Only the sources
/// up to the first that parses are parsed (a first visit, and the app's warming, ask for it).
pub fn first() -> Design {
    SOURCES
        .iter()
        .find_map(|(_, text)| file::parse(text).ok())
        .unwrap_or_else(|| Design::new("untitled"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `file::byte_len` (the live room's size bound) is the written file's length, here on a
    /// real design rather than an empty one.
    #[test]
    fn byte_len_is_the_written_files_length() {
        let design = first();
        assert_eq!(file::byte_len(&design), file::to_string(&design).len());
    }

    #[test]
    fn every_built_in_example_parses_and_the_first_is_order_management() {
        let examples = all();
        assert_eq!(examples.len(), SOURCES.len(), "an example failed to parse");
        assert_eq!(examples[0].0, "order-management");
        assert!(!first().entities.is_empty());
        assert_eq!(get("order-management"), Some(first()));
        assert_eq!(get("no-such-example"), None);
    }
}
