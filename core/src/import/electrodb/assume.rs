//! What could not be read inside one ElectroDB `new Entity(...)`, assumed and said: the
//! [`Assume`] helper that places each [`Assumption`] at its value's line (the call's when the
//! value has none) in its file, and the readers of the values it assumes (casing, an
//! attribute's type, a placeholder name).

use serde_json::Value;

use crate::import::js;
use crate::import::{Assumption, At};
use crate::model::AttrType;

/// What could not be read inside one `new Entity(...)`, each said as an [`Assumption`]
/// placed at the value's line (the call's when the value has none) in its file.
pub(super) struct Assume<'x> {
    pub(super) file: &'x str,
    pub(super) line: usize,
    pub(super) out: &'x mut Vec<Assumption>,
}

impl Assume<'_> {
    pub(super) fn push(&mut self, value: &Value, what: String, assumed: String) {
        let mut assumption = crate::import::assumption_of(value, what, assumed);
        if assumption.line == 0 {
            assumption.line = self.line;
        }
        if assumption.file.is_none() && !self.file.is_empty() {
            assumption.file = Some(self.file.to_string());
        }
        self.out.push(assumption);
    }

    /// The text at `at`, or `fallback`, assumed and said, when it is anything else.
    pub(super) fn text(&mut self, at: &At<'_>, what: &str, fallback: &str) -> String {
        match at.value() {
            Value::String(s) => s.clone(),
            other => {
                self.push(
                    other,
                    format!("{what} `{}`", js::snippet_of(other)),
                    format!("`{fallback}`"),
                );
                fallback.to_string()
            }
        }
    }

    /// A text or a list of texts; what is not text is left out, and said.
    pub(super) fn texts(&mut self, at: &At<'_>, what: &str) -> Vec<String> {
        match at.value() {
            Value::String(s) => vec![s.clone()],
            Value::Array(items) => {
                let mut out = Vec::new();
                for item in items {
                    match item {
                        Value::String(s) => out.push(s.clone()),
                        other => self.push(
                            other,
                            format!("{what}: `{}`", js::snippet_of(other)),
                            "it is left out".to_string(),
                        ),
                    }
                }
                out
            }
            other => {
                self.push(
                    other,
                    format!("{what} `{}`", js::snippet_of(other)),
                    "none".to_string(),
                );
                Vec::new()
            }
        }
    }
}

/// A placeholder name for a value that was not read: its source text, usable as a name.
pub(super) fn placeholder(value: &Value) -> String {
    crate::import::variable_name(&js::snippet_of(value))
}

pub(super) fn casing(at: &At<'_>, assume: &mut Assume<'_>) -> &'static str {
    match at.get("casing") {
        None => "lower",
        Some(c) => match c.value().as_str() {
            Some("none") => "none",
            Some("upper") => "upper",
            Some("lower" | "default") => "lower",
            _ => {
                assume.push(
                    c.value(),
                    format!("{}: casing `{}`", c.path(), js::snippet_of(c.value())),
                    "lower case, ElectroDB's default".to_string(),
                );
                "lower"
            }
        },
    }
}

pub(super) fn cased(text: &str, casing: &str) -> String {
    match casing {
        "upper" => text.to_uppercase(),
        "lower" => text.to_lowercase(),
        _ => text.to_string(),
    }
}

pub(super) fn attribute_type(at: &At<'_>, assume: &mut Assume<'_>) -> (AttrType, Vec<String>) {
    let Some(ty) = at.get("type") else {
        return (AttrType::S, Vec::new());
    };
    let what = format!("{}'s type", at.path());
    if let Value::Array(_) = ty.value() {
        return (AttrType::S, assume.texts(&ty, &format!("{what} value")));
    }
    let Some(name) = ty.value().as_str() else {
        assume.push(
            ty.value(),
            format!("{what} `{}`", js::snippet_of(ty.value())),
            "a string".to_string(),
        );
        return (AttrType::S, Vec::new());
    };
    (
        match name {
            "string" => AttrType::S,
            "number" => AttrType::N,
            "boolean" => AttrType::Bool,
            "list" => AttrType::L,
            "map" => AttrType::M,
            "set" => match at.get("items").map(|i| i.value().clone()) {
                Some(Value::String(s)) if s == "number" => AttrType::NS,
                _ => AttrType::SS,
            },
            "any" | "custom" => AttrType::S,
            other => {
                assume.push(
                    ty.value(),
                    format!("{what} `{other}` (ElectroDB's are string, number, boolean, list, map, set, any, custom or a list of values)"),
                    "a string".to_string(),
                );
                AttrType::S
            }
        },
        Vec::new(),
    )
}
