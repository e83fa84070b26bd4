//! Designs past the budgets of runs and verifications (issue 41), for the CLI and API tests.
#![allow(dead_code, clippy::unwrap_used)]

/// The design file at `path` (from the repository's root), as JSON.
pub fn design_file(path: &str) -> serde_json::Value {
    let text =
        std::fs::read_to_string(format!("{}/../{path}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// The order example with `n_tables` tables (copies of its first) and `n_gsis` GSIs on its
/// first table (copies of its first GSI).
pub fn grown(n_tables: usize, n_gsis: usize) -> serde_json::Value {
    let mut design = design_file("examples/order-management.keyplan.json");
    let tables = design["tables"].as_array_mut().unwrap();
    let first = tables[0].clone();
    while tables.len() < n_tables {
        let mut copy = first.clone();
        copy["name"] = format!("copy{}", tables.len()).into();
        tables.push(copy);
    }
    let gsis = tables[0]["gsis"].as_array_mut().unwrap();
    let gsi = gsis[0].clone();
    while gsis.len() < n_gsis {
        let mut copy = gsi.clone();
        copy["name"] = format!("extra{}", gsis.len()).into();
        gsis.push(copy);
    }
    design
}
