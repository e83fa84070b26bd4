//! The names at the top level of a JSON object, read without building its values: how
//! detection tells the JSON formats apart, even in text too large to parse whole.

use std::fmt;

/// How [`top_level_keys`] reads the values beside the names.
#[derive(Clone, Copy)]
pub(crate) enum Values {
    /// Skipped, as fast as serde_json can: for text too large to parse whole, where an error
    /// deep inside does not matter.
    Skipped,
    /// Read as the tree's parse reads them, without keeping them: every level counts against
    /// serde_json's nesting limit and every number and string is parsed, so the names come
    /// only from text that [`parse_json`] takes, and text it refuses gives `None`.
    Checked,
}

/// The names at the top level of a JSON object, read without building its values; `None`
/// when the text is not a JSON object.
pub(crate) fn top_level_keys(text: &str, values: Values) -> Option<Vec<String>> {
    use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};

    struct Keys(Values);
    impl<'de> Visitor<'de> for Keys {
        type Value = Vec<String>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("an object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Vec<String>, A::Error> {
            let mut keys = Vec::new();
            while let Some(key) = map.next_key::<String>()? {
                match self.0 {
                    Values::Skipped => {
                        map.next_value::<IgnoredAny>()?;
                    }
                    Values::Checked => map.next_value_seed(Checked)?,
                }
                keys.push(key);
            }
            Ok(keys)
        }
    }

    /// Any value, read with `deserialize_any` at every level as the tree's visitors read it
    /// (serde_json's own skipping, `IgnoredAny`, neither counts nesting nor parses numbers).
    struct Checked;
    impl<'de> DeserializeSeed<'de> for Checked {
        type Value = ();
        fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
            deserializer.deserialize_any(self)
        }
    }
    impl<'de> Visitor<'de> for Checked {
        type Value = ();
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("any JSON value")
        }
        fn visit_bool<E>(self, _: bool) -> Result<(), E> {
            Ok(())
        }
        fn visit_i64<E>(self, _: i64) -> Result<(), E> {
            Ok(())
        }
        fn visit_u64<E>(self, _: u64) -> Result<(), E> {
            Ok(())
        }
        fn visit_f64<E>(self, _: f64) -> Result<(), E> {
            Ok(())
        }
        fn visit_str<E>(self, _: &str) -> Result<(), E> {
            Ok(())
        }
        fn visit_unit<E>(self) -> Result<(), E> {
            Ok(())
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
            while seq.next_element_seed(Checked)?.is_some() {}
            Ok(())
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
            // A name is read as the tree reads it (serde_json reads any name as a string).
            while map.next_key::<IgnoredAny>()?.is_some() {
                map.next_value_seed(Checked)?;
            }
            Ok(())
        }
    }

    let mut deserializer = serde_json::Deserializer::from_str(text);
    let keys = serde::Deserializer::deserialize_map(&mut deserializer, Keys(values)).ok()?;
    match values {
        Values::Skipped => Some(keys),
        Values::Checked => deserializer.end().ok().map(|()| keys),
    }
}
