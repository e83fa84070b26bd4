//! A JSON text's values counted before any is made (issue 41): every reader of another
//! tool's JSON builds a `serde_json::Value` tree, which costs 35 to 190 bytes a value, so 32 MB
//! of `{},{},...` asked for 2 GB; a design file's samples cost as much (32 MB of empty items
//! took 453 MB, and a design file has no size bound). [`check`] reads the text once with serde_json, keeping
//! nothing, and refuses it where its values pass [`MAX_JSON_VALUES`], with serde_json's line
//! and column. Strings need no budget of their own: JSON text cannot expand, so its strings
//! hold at most the text's bytes.
//!
//! Nesting counts against serde_json's recursion limit here as in the tree's parse, every
//! level a `deserialize_any`; a syntax error is left to the parse that follows, as is text
//! after the value, so a file's first error is the one it always was.

use std::fmt;

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};

/// What an object or a list counts for against [`MAX_JSON_VALUES`], where a scalar and a
/// member's name count one: it costs more to make (in a tree of 32 MB of `[{},...]`, 54
/// bytes a `{}`; of `[0,...]`, 35 bytes a `0`).
pub const CONTAINER_VALUES: usize = 2;

/// The most values one JSON text may hold, an object or list counting [`CONTAINER_VALUES`]
/// and a member's name one: a quarter of the 32 MB another tool's file may be
/// (`import::MAX_IMPORT_BYTES`, which this module does not name: the importers and the design
/// file's reader call it, so it stands below both). The largest NoSQL Workbench model read
/// (32 MB of items of three attributes, `scripts/hostile-imports`) counts 6.7 million.
pub const MAX_JSON_VALUES: usize = 8 * 1024 * 1024;

/// `Err` where the values of `text`, read as JSON, pass [`MAX_JSON_VALUES`]; `Ok` otherwise,
/// even when `text` is not JSON (its parse says why).
pub fn check(text: &str) -> Result<(), serde_json::Error> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let mut counted = 0;
    match (Counted(&mut counted)).deserialize(&mut deserializer) {
        Err(e) if e.is_data() => Err(e),
        _ => Ok(()),
    }
}

/// One value, counted and dropped.
struct Counted<'c>(&'c mut usize);

impl Counted<'_> {
    fn charge<E: de::Error>(&mut self, values: usize) -> Result<(), E> {
        *self.0 += values;
        if *self.0 > MAX_JSON_VALUES {
            return Err(E::custom(format!(
                "the JSON holds more than {MAX_JSON_VALUES} values by here (an object or list counts {CONTAINER_VALUES}, a name 1); keyplan reads schemas, not data"
            )));
        }
        Ok(())
    }
}

impl<'de> DeserializeSeed<'de> for Counted<'_> {
    type Value = ();
    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Counted<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E: de::Error>(mut self, _: bool) -> Result<(), E> {
        self.charge(1)
    }
    fn visit_i64<E: de::Error>(mut self, _: i64) -> Result<(), E> {
        self.charge(1)
    }
    fn visit_u64<E: de::Error>(mut self, _: u64) -> Result<(), E> {
        self.charge(1)
    }
    fn visit_f64<E: de::Error>(mut self, _: f64) -> Result<(), E> {
        self.charge(1)
    }
    fn visit_str<E: de::Error>(mut self, _: &str) -> Result<(), E> {
        self.charge(1)
    }
    fn visit_unit<E: de::Error>(mut self) -> Result<(), E> {
        self.charge(1)
    }
    fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> Result<(), A::Error> {
        self.charge(CONTAINER_VALUES)?;
        while seq.next_element_seed(Counted(&mut *self.0))?.is_some() {}
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<(), A::Error> {
        self.charge(CONTAINER_VALUES)?;
        // A name is a string, and counts one as a string value does.
        while map.next_key_seed(Counted(&mut *self.0))?.is_some() {
            map.next_value_seed(Counted(&mut *self.0))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_message(text: &str) -> String {
        check(text).map_or_else(|e| e.to_string(), |()| "ok".to_string())
    }

    #[test]
    fn a_schema_passes_and_so_does_text_that_is_not_json() {
        assert_eq!(check_message(r#"{"a": [1, "x", null, {"b": true}]}"#), "ok");
        assert_eq!(check_message("{not json"), "ok");
    }

    /// The largest Workbench model `scripts/hostile-imports` reads: 32 MB (four times the
    /// budget, the import limit) of items of three attributes.
    #[test]
    fn a_workbench_model_of_32_mb_of_items_passes() {
        let mut text = String::from(r#"{"ModelName":"big","DataModel":[{"TableData":["#);
        let mut i = 0;
        while text.len() < 4 * MAX_JSON_VALUES - 200 {
            if i > 0 {
                text.push(',');
            }
            text += &format!(
                r#"{{"pk":{{"S":"USER#{i}"}},"sk":{{"S":"PROFILE#{i}"}},"name":{{"S":"someone {i}"}}}}"#
            );
            i += 1;
        }
        text += "]}]}";
        assert_eq!(check_message(&text), "ok");
    }

    #[test]
    fn empty_objects_past_the_budget_are_refused_where_they_pass_it() {
        let n = MAX_JSON_VALUES / CONTAINER_VALUES;
        let text = format!("[\n{}{{}}]", "{},".repeat(n));
        let message = check_message(&text);
        assert!(
            message.contains("more than 8388608 values by here") && message.contains("line 2"),
            "{message}"
        );
    }
}
