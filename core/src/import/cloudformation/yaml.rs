//! YAML read into values within a budget (issue 41): every value, and the bytes of every
//! string, key and tag, is charged before it is made, aliases expanded included, so a template
//! whose aliases expand to billions of values (a list of 80,000 scalars named 200,000 times is
//! under 1 MB) is refused with where it passed the budget instead of taking the memory.
//! serde_norway bounds the number of aliases followed, not what they expand to.
//!
//! What it makes is what `serde_norway::Value`'s own reader makes, duplicate keys refused as
//! it refuses them.

use std::fmt;

use serde::de::{self, DeserializeSeed, EnumAccess, MapAccess, SeqAccess, VariantAccess, Visitor};
use serde_norway::value::{Tag, TaggedValue};
use serde_norway::{Mapping, Value};

use super::MAX_YAML_BYTES;

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
