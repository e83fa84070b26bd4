//! A table's settings read without refusing the file over one value (issue 36), for
//! CloudFormation and Terraform alike: each slot (a name, a key type, a capacity, a list) takes
//! what the file states, and where the value cannot be read (`!Ref TableName` without a
//! Default, `var.hash_key`, a `Fn::GetAtt`) it assumes the least (a string attribute, a
//! capacity of 1, the resource's own name) and records an [`Assumption`] with the line.
//!
//! A value that could not be evaluated reaches a slot either as the intrinsic function that
//! CloudFormation wrote (`{"Ref": "X"}`) or, from Terraform, as `{"$expr": "var.x"}` holding the
//! expression's text; [`shown`] writes either as the file did.

use serde_json::Value;

use crate::model::{Billing, KeyType, Projection};

use super::super::{Assumption, At};

/// The member that stands for a Terraform expression that could not be evaluated.
pub(crate) const EXPR: &str = "$expr";

/// What was read of one file's tables, besides the tables: what was assumed, with where, and
/// the notes of what a design does not hold.
pub(crate) struct Lenient<'l> {
    pub(crate) assumed: Vec<Assumption>,
    pub(crate) notes: Vec<String>,
    /// The line of a value, from its path (`Properties.KeySchema[0].AttributeName`).
    locate: Box<dyn Fn(&str) -> usize + 'l>,
}

impl<'l> Lenient<'l> {
    pub(crate) fn new(locate: impl Fn(&str) -> usize + 'l) -> Lenient<'l> {
        Lenient {
            assumed: Vec::new(),
            notes: Vec::new(),
            locate: Box::new(locate),
        }
    }

    /// Records that `what`, at `path`, could not be read and `assumed` took its place; said
    /// once however many tables share the place (a `Fn::ForEach` fragment, a `count`).
    pub(crate) fn assume_at(
        &mut self,
        path: &str,
        what: impl Into<String>,
        assumed: impl Into<String>,
    ) {
        let assumption = Assumption::at((self.locate)(path), what, assumed);
        if !self.assumed.contains(&assumption) {
            self.assumed.push(assumption);
        }
    }

    pub(crate) fn assume(
        &mut self,
        at: &At<'_>,
        what: impl Into<String>,
        assumed: impl Into<String>,
    ) {
        self.assume_at(at.path(), what, assumed);
    }

    /// A note, said once.
    pub(crate) fn note(&mut self, note: String) {
        if !self.notes.contains(&note) {
            self.notes.push(note);
        }
    }

    /// The text at `at` (a number or true/false reads as its text); else `fallback`, assumed.
    /// `slot` names the value in the assumption: "TableName", "KeySchema's AttributeName".
    pub(crate) fn text(&mut self, at: &At<'_>, slot: &str, fallback: String) -> String {
        match at.value() {
            Value::String(s) => s.clone(),
            Value::Number(n) => n.to_string(),
            Value::Bool(b) => b.to_string(),
            other => {
                self.assume(
                    at,
                    format!("{slot} {}", shown(other)),
                    format!("`{fallback}`"),
                );
                fallback
            }
        }
    }

    /// A key attribute's type: `S`, `N` or `B` (SAM's `String`, `Number`, `Binary` too); a
    /// string where it cannot be read.
    pub(crate) fn key_type(&mut self, at: &At<'_>, slot: &str) -> KeyType {
        match at.value().as_str() {
            Some("S" | "String") => KeyType::S,
            Some("N" | "Number") => KeyType::N,
            Some("B" | "Binary") => KeyType::B,
            _ => {
                self.assume(at, format!("{slot} {}", shown(at.value())), "a string (S)");
                KeyType::S
            }
        }
    }

    /// A capacity: a whole number, or text holding one (YAML templates often quote them); 1
    /// where it cannot be read.
    pub(crate) fn capacity(&mut self, at: &At<'_>, slot: &str) -> u64 {
        let read = match at.value() {
            Value::String(s) => s.trim().parse().ok(),
            other => other.as_u64(),
        };
        read.unwrap_or_else(|| {
            self.assume(at, format!("{slot} {}", shown(at.value())), "1");
            1
        })
    }

    /// Provisioned billing from the read and write capacities `at` holds under `keys`
    /// (`ReadCapacityUnits`, `read_capacity`...), 1 assumed for one it lacks; `table` names
    /// the table in the assumption.
    pub(crate) fn provisioned(&mut self, at: &At<'_>, keys: [&str; 2], table: &str) -> Billing {
        let mut units = |key: &str| match at.get(key) {
            Some(c) => self.capacity(&c, key),
            None => {
                self.assume(at, format!("table {table}: PROVISIONED without {key}"), "1");
                1
            }
        };
        Billing::provisioned(units(keys[0]), units(keys[1]))
    }

    /// true or false (`"true"` too); `fallback` where it cannot be read.
    pub(crate) fn flag(&mut self, at: &At<'_>, slot: &str, fallback: bool) -> bool {
        match at.value() {
            Value::Bool(b) => *b,
            Value::String(s) if s.eq_ignore_ascii_case("true") => true,
            Value::String(s) if s.eq_ignore_ascii_case("false") => false,
            other => {
                self.assume(at, format!("{slot} {}", shown(other)), fallback.to_string());
                fallback
            }
        }
    }

    /// The elements of a list; none where it is not one.
    pub(crate) fn list<'a>(&mut self, at: &At<'a>, slot: &str) -> Vec<At<'a>> {
        match at.array() {
            Ok(items) => items,
            Err(_) => {
                self.assume(at, format!("{slot} {}", shown(at.value())), "none");
                Vec::new()
            }
        }
    }

    /// A projection from its type (`ALL`, `KEYS_ONLY`, `INCLUDE`) and, for `INCLUDE`, its
    /// non-key attributes; CloudFormation and Terraform name both the same way. `KEYS_ONLY`,
    /// the least, where the type cannot be read.
    pub(crate) fn projection(&mut self, ty: &At<'_>, non_key: Option<At<'_>>) -> Projection {
        match ty.value().as_str() {
            Some("ALL") => Projection::All,
            Some("KEYS_ONLY") => Projection::KeysOnly,
            Some("INCLUDE") => {
                let attributes = match non_key {
                    Some(list) => self
                        .list(&list, "NonKeyAttributes")
                        .iter()
                        .map(|a| self.text(a, "a non-key attribute", "value".into()))
                        .collect(),
                    None => Vec::new(),
                };
                Projection::Include { attributes }
            }
            _ => {
                self.assume(ty, format!("projection {}", shown(ty.value())), "KEYS_ONLY");
                Projection::KeysOnly
            }
        }
    }
}

/// A value as the file wrote it, in one line cut at 80 characters: `` `!Ref TableName` ``,
/// `` `var.hash_key` ``, `` `{"Fn::GetAtt":["T","Arn"]}` ``.
pub(crate) fn shown(value: &Value) -> String {
    let text = match value {
        Value::Object(o) if o.len() == 1 => {
            let (key, inner) = o
                .iter()
                .next()
                .map_or(("", value), |(k, v)| (k.as_str(), v));
            let inner_text = match inner {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            match key {
                EXPR => inner_text,
                "Ref" => format!("!Ref {inner_text}"),
                _ if key.starts_with("Fn::") => format!("!{} {inner_text}", &key[4..]),
                _ => value.to_string(),
            }
        }
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    let cut = match text.char_indices().nth(80) {
        Some((end, _)) => format!("{}...", &text[..end]),
        None => text,
    };
    format!("`{cut}`")
}

/// A name for what could not be read, from what the file wrote: the parameter a `Ref` names,
/// the literal text of a `Fn::Sub`, a Terraform expression's text (`var.table_name`, valid as a
/// DynamoDB name; of `try(each.value.name, var.defaults.name, null)`, its first choice,
/// `each.value.name`); `None` when nothing in it serves.
pub(crate) fn placeholder(value: &Value) -> Option<String> {
    let text = match value {
        Value::Object(o) if o.len() == 1 => match o.iter().next().map(|(k, v)| (k.as_str(), v)) {
            Some(("Ref", Value::String(s))) => s.clone(),
            Some((EXPR, Value::String(s))) => first_choice(s).unwrap_or(s).to_string(),
            Some(("Fn::Sub", Value::String(s))) => super::literal_name(s)?,
            _ => return None,
        },
        Value::String(s) => s.clone(),
        _ => return None,
    };
    let name: String = text
        .trim_start_matches("${")
        .trim_end_matches('}')
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "_-.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .take(*crate::limits::TABLE_NAME_LEN.end())
        .collect();
    let name = name.trim_matches('_').to_string();
    (name.len() >= *crate::limits::TABLE_NAME_LEN.start()).then_some(name)
}

/// The first argument of a Terraform `try(...)` or `coalesce(...)`, the value it is written to
/// take (terraform-aws-modules' wrapper passes `try(each.value.x, var.defaults.x, null)` for
/// every input); `None` for any other expression.
fn first_choice(expression: &str) -> Option<&str> {
    let arguments = ["try(", "coalesce("]
        .iter()
        .find_map(|call| expression.trim().strip_prefix(call))?;
    let mut depth = 0usize;
    let mut quoted = false;
    for (i, c) in arguments.char_indices() {
        match c {
            '"' => quoted = !quoted,
            '(' | '[' | '{' if !quoted => depth += 1,
            ')' | ']' | '}' if !quoted && depth > 0 => depth -= 1,
            ',' | ')' if !quoted && depth == 0 => {
                let first = arguments[..i].trim();
                return (!first.is_empty()).then_some(first);
            }
            _ => {}
        }
    }
    None
}

/// What a piece of a joined name came to.
pub(crate) enum Piece {
    Known(String),
    /// Not known here, with how the file wrote it.
    Unknown(String),
}

/// The pieces of a name joined by `separator`, what is not known left out with an assumption
/// saying so; as written (`whole`) when nothing known is left.
pub(crate) fn joined(
    whole: &Value,
    pieces: Vec<Piece>,
    separator: &str,
    path: &str,
    out: &mut Lenient<'_>,
) -> Option<Value> {
    let unknown: Vec<&str> = pieces
        .iter()
        .filter_map(|p| match p {
            Piece::Unknown(s) => Some(s.as_str()),
            Piece::Known(_) => None,
        })
        .collect();
    let known: Vec<&str> = pieces
        .iter()
        .filter_map(|p| match p {
            Piece::Known(s) => Some(s.as_str()),
            Piece::Unknown(_) => None,
        })
        .filter(|s| separator.is_empty() || !s.is_empty())
        .collect();
    let text = known.join(separator);
    if unknown.is_empty() {
        return Some(Value::String(text));
    }
    let trimmed =
        text.trim_matches(|c: char| matches!(c, '-' | '_' | '.' | '/' | ':') || c.is_whitespace());
    let trimmed = trimmed.replace("--", "-");
    if trimmed.is_empty() {
        return Some(whole.clone());
    }
    out.assume_at(
        path,
        format!("{} ({} left out)", shown(whole), unknown.join(", ")),
        format!("`{trimmed}`, its literal part"),
    );
    Some(Value::String(trimmed))
}
