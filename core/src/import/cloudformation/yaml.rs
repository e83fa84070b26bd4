//! YAML read into values within a budget (issue 41): every value, and the bytes of every
//! string, key and tag, is charged before it is made, aliases expanded included, so a template
//! whose aliases expand to billions of values (a list of 80,000 scalars named 200,000 times is
//! under 1 MB) is refused with where it passed the budget instead of taking the memory.
//! serde_norway bounds the number of aliases followed, not what they expand to.
//!
//! What it makes is what `serde_norway::Value`'s own reader makes, duplicate keys refused as
//! it refuses them; [`parse_yaml`] turns it into JSON values, CloudFormation's short-form tags
//! into their long form.

use std::fmt;

use serde::de::{self, DeserializeSeed, EnumAccess, MapAccess, SeqAccess, VariantAccess, Visitor};
use serde_json::{Map, Number, Value as Json};
use serde_norway::value::{Tag, TaggedValue};
use serde_norway::{Mapping, Value};

use super::super::ImportError;
use super::{MAX_DEPTH, MAX_YAML_BYTES};

/// The most values a template may expand to: half a value per byte of the largest template
/// read, more than a template without aliases can hold (`[1,1,...]` is two bytes a value).
pub const MAX_YAML_VALUES: usize = MAX_YAML_BYTES / 2;
/// The most text (strings, keys and tags) a template may expand to: four times the largest
/// template read.
pub const MAX_YAML_TEXT_BYTES: usize = 4 * MAX_YAML_BYTES;

/// What has been made so far.
#[derive(Debug, Default)]
pub(super) struct Budget {
    values: usize,
    text_bytes: usize,
}

impl Budget {
    /// Charges one value holding `text_bytes` bytes of text, before it is made.
    fn charge<E: de::Error>(&mut self, text_bytes: usize) -> Result<(), E> {
        self.values += 1;
        self.text_bytes = self.text_bytes.saturating_add(text_bytes);
        if self.values > MAX_YAML_VALUES {
            return Err(E::custom(format!(
                "the template expands to more than {MAX_YAML_VALUES} values (its aliases repeat what they name); keyplan reads templates, not data"
            )));
        }
        if self.text_bytes > MAX_YAML_TEXT_BYTES {
            return Err(E::custom(format!(
                "the template expands to more than {} MB of text (its aliases repeat what they name); keyplan reads templates, not data",
                MAX_YAML_TEXT_BYTES / (1024 * 1024)
            )));
        }
        Ok(())
    }
}

/// One value, read within the budget.
pub(super) struct Budgeted<'b>(pub(super) &'b mut Budget);

impl<'de> DeserializeSeed<'de> for Budgeted<'_> {
    type Value = Value;
    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Budgeted<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any YAML value")
    }

    fn visit_bool<E: de::Error>(self, b: bool) -> Result<Value, E> {
        self.0.charge(0)?;
        Ok(Value::Bool(b))
    }

    fn visit_i64<E: de::Error>(self, i: i64) -> Result<Value, E> {
        self.0.charge(0)?;
        Ok(Value::Number(i.into()))
    }

    fn visit_u64<E: de::Error>(self, u: u64) -> Result<Value, E> {
        self.0.charge(0)?;
        Ok(Value::Number(u.into()))
    }

    fn visit_f64<E: de::Error>(self, f: f64) -> Result<Value, E> {
        self.0.charge(0)?;
        Ok(Value::Number(f.into()))
    }

    fn visit_str<E: de::Error>(self, s: &str) -> Result<Value, E> {
        self.0.charge(s.len())?;
        Ok(Value::String(s.to_owned()))
    }

    fn visit_string<E: de::Error>(self, s: String) -> Result<Value, E> {
        self.0.charge(s.len())?;
        Ok(Value::String(s))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        self.0.charge(0)?;
        Ok(Value::Null)
    }

    fn visit_none<E: de::Error>(self) -> Result<Value, E> {
        self.visit_unit()
    }

    fn visit_some<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        self.deserialize(deserializer)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        self.0.charge(0)?;
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(Budgeted(&mut *self.0))? {
            items.push(item);
        }
        Ok(Value::Sequence(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        use serde_norway::mapping::Entry;
        self.0.charge(0)?;
        let mut mapping = Mapping::new();
        while let Some(key) = map.next_key_seed(Budgeted(&mut *self.0))? {
            match mapping.entry(key) {
                Entry::Occupied(entry) => {
                    return Err(de::Error::custom(duplicate(entry.key())));
                }
                Entry::Vacant(entry) => {
                    entry.insert(map.next_value_seed(Budgeted(&mut *self.0))?);
                }
            }
        }
        Ok(Value::Mapping(mapping))
    }

    /// A tagged value (`!Ref x`): serde_norway gives the tag as the variant's name.
    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<Value, A::Error> {
        let (tag, contents): (String, _) = data.variant()?;
        self.0.charge(tag.len())?;
        let value = contents.newtype_variant_seed(Budgeted(&mut *self.0))?;
        Ok(Value::Tagged(Box::new(TaggedValue {
            tag: Tag::new(tag),
            value,
        })))
    }
}

/// serde_norway's message for a key given twice in one mapping.
fn duplicate(key: &Value) -> String {
    match key {
        Value::Null => "duplicate entry with null key".to_string(),
        Value::Bool(b) => format!("duplicate entry with key `{b}`"),
        Value::Number(n) => format!("duplicate entry with key {n}"),
        Value::String(s) => format!("duplicate entry with key {s:?}"),
        Value::Sequence(_) | Value::Mapping(_) | Value::Tagged(_) => {
            "duplicate entry in YAML map".to_string()
        }
    }
}

/// Parses YAML into JSON values, CloudFormation's short-form tags into their long form, with
/// the line and column of a syntax error. Larger text than [`MAX_YAML_BYTES`] is refused first,
/// and aliases that expand past [`MAX_YAML_VALUES`] values are refused where they do.
pub(crate) fn parse_yaml(text: &str) -> Result<Json, ImportError> {
    if text.len() > MAX_YAML_BYTES {
        return Err(ImportError::TooLarge {
            bytes: text.len(),
            limit: MAX_YAML_BYTES,
            what: "a YAML template",
        });
    }
    // The YAML scanner's time grows with the square of the flow nesting (`[[[[...`): 200 KB
    // of brackets took minutes. Deeper flow nesting than values may have is refused first.
    if let Some((line, column)) = flow_too_deep(text, MAX_DEPTH) {
        return Err(ImportError::Syntax {
            line,
            column,
            message: format!("brackets nested more than {MAX_DEPTH} deep"),
        });
    }
    let deserializer = serde_norway::Deserializer::from_str(text);
    let value = Budgeted(&mut Budget::default())
        .deserialize(deserializer)
        .map_err(|e| match e.location() {
            Some(at) => ImportError::Syntax {
                line: at.line(),
                column: at.column(),
                message: e.to_string(),
            },
            None => ImportError::Invalid {
                path: "the document".into(),
                message: e.to_string(),
            },
        })?;
    to_json(value, 0)
}

fn to_json(value: serde_norway::Value, depth: usize) -> Result<Json, ImportError> {
    use serde_norway::Value as Yaml;
    if depth > MAX_DEPTH {
        return Err(ImportError::Invalid {
            path: "the document".into(),
            message: format!("nested more than {MAX_DEPTH} deep"),
        });
    }
    Ok(match value {
        Yaml::Null => Json::Null,
        Yaml::Bool(b) => Json::Bool(b),
        Yaml::Number(n) => {
            if let Some(u) = n.as_u64() {
                Json::Number(u.into())
            } else if let Some(i) = n.as_i64() {
                Json::Number(i.into())
            } else {
                n.as_f64()
                    .and_then(Number::from_f64)
                    .map_or(Json::Null, Json::Number)
            }
        }
        Yaml::String(s) => Json::String(s),
        Yaml::Sequence(items) => Json::Array(
            items
                .into_iter()
                .map(|v| to_json(v, depth + 1))
                .collect::<Result<_, _>>()?,
        ),
        Yaml::Mapping(mapping) => {
            let mut out = Map::new();
            for (key, value) in mapping {
                let key = match key {
                    Yaml::String(s) => s,
                    other => serde_norway::to_string(&other)
                        .map(|s| s.trim_end().to_string())
                        .unwrap_or_default(),
                };
                out.insert(key, to_json(value, depth + 1)?);
            }
            Json::Object(out)
        }
        Yaml::Tagged(tagged) => {
            let tag = tagged.tag.to_string();
            let name = tag.trim_start_matches('!');
            let inner = to_json(tagged.value, depth + 1)?;
            let key = if name == "Ref" || name == "Condition" {
                name.to_string()
            } else {
                format!("Fn::{name}")
            };
            // `!GetAtt Table.Arn` is the short form of `Fn::GetAtt: [Table, Arn]`.
            let inner = match (name, inner) {
                ("GetAtt", Json::String(s)) => match s.split_once('.') {
                    Some((resource, attribute)) => Json::Array(vec![
                        Json::String(resource.into()),
                        Json::String(attribute.into()),
                    ]),
                    None => Json::String(s),
                },
                (_, inner) => inner,
            };
            let mut out = Map::new();
            out.insert(key, inner);
            Json::Object(out)
        }
    })
}

/// Where YAML flow brackets (`[` and `{` outside quotes and comments) first nest deeper than
/// `max`, as a line and column; `None` when they never do. A bound taken before parsing, not
/// a parse: an unusual file it misjudges is refused with a clear message, never misread.
fn flow_too_deep(text: &str, max: usize) -> Option<(usize, usize)> {
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    let mut comment = false;
    let (mut line, mut column) = (1, 0);
    let mut previous = '\n';
    for c in text.chars() {
        column += 1;
        if c == '\n' {
            (line, column, comment) = (line + 1, 0, false);
            previous = c;
            continue;
        }
        match (quote, c) {
            _ if comment => {}
            (Some('"'), '\\') if previous == '\\' => {
                previous = ' ';
                continue;
            }
            (Some(q), _) if c == q && !(q == '"' && previous == '\\') => quote = None,
            (Some(_), _) => {}
            // A quote opens a quoted scalar only where a scalar can start (`it's` is plain).
            (None, '"' | '\'') if previous.is_whitespace() || "[{,:-".contains(previous) => {
                quote = Some(c)
            }
            (None, '#') if previous.is_whitespace() => comment = true,
            (None, '[' | '{') => {
                depth += 1;
                if depth > max {
                    return Some((line, column));
                }
            }
            (None, ']' | '}') => depth = depth.saturating_sub(1),
            _ => {}
        }
        previous = c;
    }
    None
}
