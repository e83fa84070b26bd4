//! Names: attribute names compared without case and punctuation, overloaded key names, and the
//! entity and variable names made from tags and attributes.

/// Lower case with `_`, `-` and other punctuation removed.
pub(super) fn normalise(name: &str) -> String {
    name.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// Whether an attribute name is an overloaded key (`PK`, `GSI1-SK`, `gsi2pk`) rather than a
/// natural attribute (`customer_id`).
pub(super) fn is_key_like(name: &str) -> bool {
    let n = normalise(name);
    n == "pk"
        || n == "sk"
        || n.ends_with("pk")
        || n.ends_with("sk")
        || n.starts_with("gsi")
        || n.starts_with("lsi")
        || matches!(
            n.as_str(),
            "partitionkey" | "sortkey" | "hashkey" | "rangekey" | "id"
        )
}

/// `ORDER_ITEM` -> `OrderItem`, `orderItem` -> `OrderItem`, `c` -> `C`; never empty.
pub(super) fn pascal(name: &str) -> String {
    let out = crate::casing::pascal(name);
    if out.is_empty() {
        "Item".to_string()
    } else {
        out
    }
}

/// `ORDER_ITEM` -> `orderItem`, `User` -> `user`.
pub(super) fn camel(name: &str) -> String {
    crate::casing::camel(name)
}

/// The variable name for the value after a tag: `USER` -> `userId`, `suuid` -> `suuid`.
pub(super) fn id_name(tag: &str) -> String {
    let c = camel(tag);
    if c.to_lowercase().ends_with("id") {
        c
    } else {
        format!("{c}Id")
    }
}

/// `complaint_id` -> `complaint`, `userId` -> `user`.
pub(super) fn strip_id(name: &str) -> &str {
    for suffix in ["_id", "-id", "Id", "ID", "_ID"] {
        if let Some(stem) = name.strip_suffix(suffix)
            && !stem.is_empty()
        {
            return stem;
        }
    }
    name
}

/// `2020-04-24T14:40:00`, `2023-05-18`.
pub(super) fn looks_like_date(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() >= 10
        && b[..4].iter().all(u8::is_ascii_digit)
        && b[4] == b'-'
        && b[5..7].iter().all(u8::is_ascii_digit)
        && b[7] == b'-'
        && b[8..10].iter().all(u8::is_ascii_digit)
}
