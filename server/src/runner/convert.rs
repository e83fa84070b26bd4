//! Between core's items (DynamoDB JSON, [`keyplan_core::AttributeValue`]) and the SDK's
//! attribute values, and the one canonical form both sides are compared in.
//!
//! Nothing is lost either way: numbers stay decimal text, binaries go through base64. The
//! canonical form only normalises what DynamoDB itself normalises (number spelling, set order),
//! so two items that DynamoDB would store identically compare equal and nothing else does.

use std::collections::{BTreeMap, HashMap};

use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::AttributeValue as Sdk;
use keyplan_core::{AttributeValue, Item};

/// Why a value cannot go to the engine.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("attribute value is not valid base64: {0}")]
pub struct BadBinary(String);

/// A core value as the SDK sends it.
pub fn to_sdk(value: &AttributeValue) -> Result<Sdk, BadBinary> {
    let blob = |text: &str| {
        aws_smithy_types::base64::decode(text)
            .map(Blob::new)
            .map_err(|_| BadBinary(text.to_string()))
    };
    Ok(match value {
        AttributeValue::S(s) => Sdk::S(s.clone()),
        AttributeValue::N(n) => Sdk::N(n.clone()),
        AttributeValue::B(b) => Sdk::B(blob(b)?),
        AttributeValue::Bool(b) => Sdk::Bool(*b),
        AttributeValue::Null(b) => Sdk::Null(*b),
        AttributeValue::M(m) => Sdk::M(
            m.iter()
                .map(|(k, v)| Ok((k.clone(), to_sdk(v)?)))
                .collect::<Result<_, BadBinary>>()?,
        ),
        AttributeValue::L(l) => Sdk::L(l.iter().map(to_sdk).collect::<Result<_, _>>()?),
        AttributeValue::SS(s) => Sdk::Ss(s.clone()),
        AttributeValue::NS(n) => Sdk::Ns(n.clone()),
        AttributeValue::BS(b) => Sdk::Bs(b.iter().map(|x| blob(x)).collect::<Result<_, _>>()?),
    })
}

/// A core item as the SDK sends it.
pub fn item_to_sdk(item: &Item) -> Result<HashMap<String, Sdk>, BadBinary> {
    item.iter()
        .map(|(k, v)| Ok((k.clone(), to_sdk(v)?)))
        .collect()
}

/// An SDK value as core holds it. A type the SDK adds later becomes NULL, visibly wrong in
/// a diff rather than silently dropped.
pub fn from_sdk(value: &Sdk) -> AttributeValue {
    let b64 = |b: &Blob| aws_smithy_types::base64::encode(b.as_ref());
    match value {
        Sdk::S(s) => AttributeValue::S(s.clone()),
        Sdk::N(n) => AttributeValue::N(n.clone()),
        Sdk::B(b) => AttributeValue::B(b64(b)),
        Sdk::Bool(b) => AttributeValue::Bool(*b),
        Sdk::Null(b) => AttributeValue::Null(*b),
        Sdk::M(m) => AttributeValue::M(m.iter().map(|(k, v)| (k.clone(), from_sdk(v))).collect()),
        Sdk::L(l) => AttributeValue::L(l.iter().map(from_sdk).collect()),
        Sdk::Ss(s) => AttributeValue::SS(s.clone()),
        Sdk::Ns(n) => AttributeValue::NS(n.clone()),
        Sdk::Bs(b) => AttributeValue::BS(b.iter().map(b64).collect()),
        _ => AttributeValue::Null(true),
    }
}

/// An SDK item as core holds it.
pub fn item_from_sdk(item: &HashMap<String, Sdk>) -> Item {
    item.iter().map(|(k, v)| (k.clone(), from_sdk(v))).collect()
}

/// The value as DynamoDB would store it: numbers in their shortest spelling, sets sorted.
pub fn canonical(value: &AttributeValue) -> AttributeValue {
    match value {
        AttributeValue::N(n) => AttributeValue::N(canonical_number(n)),
        AttributeValue::M(m) => {
            AttributeValue::M(m.iter().map(|(k, v)| (k.clone(), canonical(v))).collect())
        }
        AttributeValue::L(l) => AttributeValue::L(l.iter().map(canonical).collect()),
        AttributeValue::SS(s) => AttributeValue::SS(sorted(s.clone())),
        AttributeValue::NS(n) => {
            AttributeValue::NS(sorted(n.iter().map(|x| canonical_number(x)).collect()))
        }
        AttributeValue::BS(b) => AttributeValue::BS(sorted(b.clone())),
        other => other.clone(),
    }
}

/// An item in canonical form; see [`canonical`].
pub fn canonical_item(item: &Item) -> Item {
    item.iter()
        .map(|(k, v)| (k.clone(), canonical(v)))
        .collect::<BTreeMap<_, _>>()
}

fn sorted(mut values: Vec<String>) -> Vec<String> {
    values.sort();
    values
}

/// `"007.50"` -> `"7.5"`, `"-0"` -> `"0"`, `"1E3"` kept as written (exponents are rare in
/// keys and DynamoDB answers them in plain digits; a diff will show it).
pub fn canonical_number(text: &str) -> String {
    let text = text.trim();
    let (sign, digits) = match text.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", text.strip_prefix('+').unwrap_or(text)),
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit() || c == '.') {
        return text.to_string();
    }
    let (int, frac) = digits.split_once('.').unwrap_or((digits, ""));
    let int = int.trim_start_matches('0');
    let frac = frac.trim_end_matches('0');
    let int = if int.is_empty() { "0" } else { int };
    let body = if frac.is_empty() {
        int.to_string()
    } else {
        format!("{int}.{frac}")
    };
    if body == "0" {
        body
    } else {
        format!("{sign}{body}")
    }
}

/// One line per value, compact and readable: `{"S":"x"}` becomes `"x"`, a number `12`.
pub fn show_value(value: &AttributeValue) -> String {
    match value {
        AttributeValue::S(s) => format!("{s:?}"),
        AttributeValue::N(n) => n.clone(),
        AttributeValue::B(b) => format!("b64:{b}"),
        AttributeValue::Bool(b) => b.to_string(),
        AttributeValue::Null(_) => "null".to_string(),
        AttributeValue::M(m) => {
            let inner: Vec<String> = m
                .iter()
                .map(|(k, v)| format!("{k}: {}", show_value(v)))
                .collect();
            format!("{{{}}}", inner.join(", "))
        }
        AttributeValue::L(l) => {
            let inner: Vec<String> = l.iter().map(show_value).collect();
            format!("[{}]", inner.join(", "))
        }
        AttributeValue::SS(s) => format!(
            "<<{}>>",
            s.iter()
                .map(|x| format!("{x:?}"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        AttributeValue::NS(n) | AttributeValue::BS(n) => format!("<<{}>>", n.join(", ")),
    }
}

/// An item on one line, the given key attributes first (in that order), then the rest by name.
pub fn show_item(item: &Item, keys_first: &[String]) -> String {
    let mut parts = Vec::with_capacity(item.len());
    for key in keys_first {
        if let Some(v) = item.get(key) {
            parts.push(format!("{key}: {}", show_value(v)));
        }
    }
    for (k, v) in item {
        if !keys_first.contains(k) {
            parts.push(format!("{k}: {}", show_value(v)));
        }
    }
    format!("{{{}}}", parts.join(", "))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_compared_in_their_shortest_spelling() {
        let out: Vec<String> = [
            "007.50", "-0", "-0.0", "10", "0.001", "+3", "1E3", "abc", "-12.340",
        ]
        .iter()
        .map(|n| format!("{n} -> {}", canonical_number(n)))
        .collect();
        expect_test::expect![[r#"
            007.50 -> 7.5
            -0 -> 0
            -0.0 -> 0
            10 -> 10
            0.001 -> 0.001
            +3 -> 3
            1E3 -> 1E3
            abc -> abc
            -12.340 -> -12.34"#]]
        .assert_eq(&out.join("\n"));
    }

    #[test]
    fn values_survive_a_round_trip_through_the_sdk() {
        let item: Item = serde_json::from_str(
            r#"{"PK":{"S":"A"},"n":{"N":"1.5"},"b":{"B":"AAEC"},"m":{"M":{"x":{"L":[{"BOOL":true},{"NULL":true}]}}},"ss":{"SS":["b","a"]},"bs":{"BS":["AA=="]}}"#,
        )
        .unwrap();
        let back = item_from_sdk(&item_to_sdk(&item).unwrap());
        assert_eq!(back, item);
        assert_eq!(
            show_item(&item, &["PK".to_string()]),
            r#"{PK: "A", b: b64:AAEC, bs: <<AA==>>, m: {x: [true, null]}, n: 1.5, ss: <<"b", "a">>}"#
        );
    }

    #[test]
    fn a_bad_binary_is_an_error_not_a_panic() {
        let err = to_sdk(&AttributeValue::B("%%%".into())).unwrap_err();
        assert_eq!(err.to_string(), "attribute value is not valid base64: %%%");
    }
}
