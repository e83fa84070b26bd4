//! Identifier casing: a name split into words (`customerId` is two) and joined again in
//! each convention (`GetOrderById`, `getOrderById`, `get_order_by_id`, `get-order-by-id`,
//! `GET_ORDER_BY_ID`). A leaf of core (issue 14): the exporters make identifiers with it and the
//! importers name what they infer with it, and neither imports the other for it. Whether a
//! result is a valid identifier of a language is [`crate::export::names`]'s business.

/// Splits a name into words: at anything that is not an ASCII letter or digit, and where a
/// lowercase letter or digit is followed by an uppercase one (`customerId` is two words).
pub fn words(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if !c.is_ascii_alphanumeric() {
            if !current.is_empty() {
                out.push(std::mem::take(&mut current));
            }
            prev_lower = false;
            continue;
        }
        if c.is_ascii_uppercase() && prev_lower && !current.is_empty() {
            out.push(std::mem::take(&mut current));
        }
        current.push(c);
        prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

fn capitalised(word: &str) -> String {
    let lower = word.to_ascii_lowercase();
    let mut chars = lower.chars();
    match chars.next() {
        Some(first) => first.to_ascii_uppercase().to_string() + chars.as_str(),
        None => String::new(),
    }
}

/// `GetOrderById`. May be empty or start with a digit; see `export::names::valid`.
pub fn pascal(name: &str) -> String {
    words(name).iter().map(|w| capitalised(w)).collect()
}

/// `getOrderById`.
pub fn camel(name: &str) -> String {
    let mut out = String::new();
    for (i, w) in words(name).iter().enumerate() {
        if i == 0 {
            out.push_str(&w.to_ascii_lowercase());
        } else {
            out.push_str(&capitalised(w));
        }
    }
    out
}

/// `get_order_by_id`.
pub fn snake(name: &str) -> String {
    words(name)
        .iter()
        .map(|w| w.to_ascii_lowercase())
        .collect::<Vec<_>>()
        .join("_")
}

/// `get-order-by-id`.
pub fn kebab(name: &str) -> String {
    words(name)
        .iter()
        .map(|w| w.to_ascii_lowercase())
        .collect::<Vec<_>>()
        .join("-")
}

/// A design's name as a file name's stem, the one slug Save and every export use (issue 43:
/// Save wrote `saas-multi-tenant.keyplan.json` while Export, splitting `SaaS` as an
/// identifier, wrote `saa-s-multi-tenant.yaml`): letters and digits lowercased, every run of
/// anything else one `-` (`_` for a Python or Rust module, whose names cannot hold `-`);
/// `design` when nothing is left.
pub fn file_stem(name: &str, separator: char) -> String {
    let mut stem = String::new();
    for c in name.chars() {
        if c.is_alphanumeric() {
            stem.extend(c.to_lowercase());
        } else if !stem.is_empty() && !stem.ends_with(separator) {
            stem.push(separator);
        }
    }
    let stem = stem.trim_end_matches(separator);
    if stem.is_empty() {
        "design".to_string()
    } else {
        stem.to_string()
    }
}

/// `GET_ORDER_BY_ID`.
pub fn screaming(name: &str) -> String {
    snake(name).to_ascii_uppercase()
}
