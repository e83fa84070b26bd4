//! A file's JSON read in one pass, for detection and for every reader: the tree of the text,
//! except that the sample items of a NoSQL Workbench model (`DataModel[i].TableData` and
//! `DataModel[i].TableFacets[j].TableData`) are read straight into [`Item`]s beside the tree
//! instead of into it.
//!
//! Items are nearly all of an item-heavy model's text: read as a `serde_json::Value` tree and
//! converted afterwards, the 32 MB model of `scripts/hostile-imports` took three seconds
//! (issue 15). The tree is what `serde_json::from_str::<Value>` makes, those members left
//! out; no other reader looks at them. A value that is not DynamoDB JSON is read as plain JSON
//! and its path (`DataModel[0].TableData[3].name`) kept for the import to say what it assumed
//! (issue 36); an item that is not an object is an error with the path the tree's reader gave
//! it, kept until the reader reaches it, so a file's first error is the one it always was.
//! Nesting counts against serde_json's recursion limit as a tree does, every level a
//! `deserialize_any`, so text too deep fails at the same line and column; nothing here errs on
//! its own, and text of more values than [`crate::json_budget`] allows is refused before any is
//! made.

use std::borrow::Cow;
use std::collections::BTreeSet;
use std::fmt;

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

use super::typed_value;
use crate::import::{ImportError, kind, plain_value};
use crate::item::{AttributeValue, Item};

/// A file's JSON: the tree, and the Workbench sample items read beside it.
pub(crate) struct Json {
    pub(crate) value: Value,
    /// The items of each `DataModel` entry, by its position there.
    pub(crate) tables: Vec<TableItems>,
}

/// The items of one `DataModel` entry and of each of its facets: `None` where there is no
/// `TableData` (or it is null), an error where it is not a list of items in DynamoDB JSON.
#[derive(Default)]
pub(crate) struct TableItems {
    pub(crate) items: Option<Result<Vec<Item>, ImportError>>,
    /// By the facet's position in `TableFacets`.
    pub(crate) facets: Vec<Option<Result<Vec<Item>, ImportError>>>,
    /// The paths of the items' values that are not DynamoDB JSON, read as plain JSON
    /// (`DataModel[0].TableData[3].price`), for the import to say (issue 36).
    pub(crate) plain: Vec<String>,
}

/// Reads `text` as JSON (see the module's documentation).
pub(crate) fn parse(text: &str) -> Result<Json, ImportError> {
    crate::json_budget::check(text)?;
    let mut tables = Vec::new();
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let value = Node {
        at: Level::Root,
        tables: &mut tables,
    }
    .deserialize(&mut deserializer)?;
    deserializer.end()?;
    Ok(Json { value, tables })
}

/// Where in a Workbench model a value is, as far as its items are concerned.
#[derive(Debug, Clone, Copy)]
enum Level {
    /// The document.
    Root,
    /// `DataModel`.
    DataModel,
    /// `DataModel[i]`.
    Table(usize),
    /// `DataModel[i].TableFacets`.
    Facets(usize),
    /// `DataModel[i].TableFacets[j]`.
    Facet(usize, usize),
    /// Anywhere else: a plain tree.
    Plain,
}

/// A value at `at`, read into the tree; the items under it go to `tables`.
struct Node<'t> {
    at: Level,
    tables: &'t mut Vec<TableItems>,
}

impl<'de> DeserializeSeed<'de> for Node<'_> {
    type Value = Value;
    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        // Every entry of `DataModel` and `TableFacets` gets its place, whatever its type.
        match self.at {
            Level::Table(_) => self.tables.push(TableItems::default()),
            Level::Facet(i, _) => self.tables[i].facets.push(None),
            _ => {}
        }
        deserializer.deserialize_any(self)
    }
}

/// A visitor's scalars, read as [`Plain`] reads them and handed to its `other`: a scalar holds
/// no items wherever it is.
macro_rules! scalars_to_other {
    () => {
        fn visit_bool<E: de::Error>(self, v: bool) -> Result<Self::Value, E> {
            Plain.visit_bool(v).map(|v| self.other(v))
        }
        fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
            Plain.visit_i64(v).map(|v| self.other(v))
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
            Plain.visit_u64(v).map(|v| self.other(v))
        }
        fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
            Plain.visit_f64(v).map(|v| self.other(v))
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
            Plain.visit_str(v).map(|v| self.other(v))
        }
        fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
            Plain.visit_string(v).map(|v| self.other(v))
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Plain.visit_unit().map(|v| self.other(v))
        }
    };
}

/// A seed that reads its value whatever the JSON type, as its own visitor.
macro_rules! seed_of_any {
    ($($visitor:ty),*) => {
        $(impl<'de> DeserializeSeed<'de> for $visitor {
            type Value = <$visitor as Visitor<'de>>::Value;
            fn deserialize<D: de::Deserializer<'de>>(
                self,
                deserializer: D,
            ) -> Result<Self::Value, D::Error> {
                deserializer.deserialize_any(self)
            }
        })*
    };
}

seed_of_any!(Plain, Items, ItemSeed, Typed);

impl Node<'_> {
    /// A value that holds no items: itself.
    fn other(self, value: Value) -> Value {
        value
    }
}

impl<'de> Visitor<'de> for Node<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    scalars_to_other!();

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let element = |n: usize| match self.at {
            Level::DataModel => Some(Level::Table(n)),
            Level::Facets(i) => Some(Level::Facet(i, n)),
            _ => None,
        };
        if element(0).is_none() {
            return Plain.visit_seq(seq);
        }
        let mut out = Vec::new();
        while let Some(value) = seq.next_element_seed(Node {
            at: element(out.len()).unwrap_or(Level::Plain),
            tables: &mut *self.tables,
        })? {
            out.push(value);
        }
        Ok(Value::Array(out))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        if matches!(self.at, Level::DataModel | Level::Facets(_) | Level::Plain) {
            return Plain.visit_map(map);
        }
        let mut out = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            // A member given twice counts once, the last, as in a tree.
            let (items_path, child) = match (self.at, key.as_str()) {
                (Level::Root, "DataModel") => {
                    self.tables.clear();
                    (None, Level::DataModel)
                }
                (Level::Table(i), "TableFacets") => {
                    self.tables[i].facets.clear();
                    (None, Level::Facets(i))
                }
                (Level::Table(i), "TableData") => {
                    (Some(format!("DataModel[{i}].TableData")), Level::Plain)
                }
                (Level::Facet(i, j), "TableData") => (
                    Some(format!("DataModel[{i}].TableFacets[{j}].TableData")),
                    Level::Plain,
                ),
                _ => (None, Level::Plain),
            };
            match items_path {
                Some(path) => {
                    let (items, plain) = map.next_value_seed(Items { path })?;
                    if let Level::Table(i) | Level::Facet(i, _) = self.at {
                        self.tables[i].plain.extend(plain);
                    }
                    match self.at {
                        Level::Table(i) => self.tables[i].items = items,
                        Level::Facet(i, j) => self.tables[i].facets[j] = items,
                        _ => {}
                    }
                }
                None => {
                    let value = map.next_value_seed(Node {
                        at: child,
                        tables: &mut *self.tables,
                    })?;
                    out.insert(key, value);
                }
            }
        }
        Ok(Value::Object(out))
    }
}

/// A plain tree, as `serde_json::Value` reads it.
struct Plain;

impl<'de> Visitor<'de> for Plain {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Number::from_f64(v).map_or(Value::Null, Value::Number))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut out = Vec::new();
        while let Some(value) = seq.next_element_seed(Plain)? {
            out.push(value);
        }
        Ok(Value::Array(out))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            out.insert(key, map.next_value_seed(Plain)?);
        }
        Ok(Value::Object(out))
    }
}

/// `TableData`, at `path`: `None` for null, the items, or the first of them that is wrong;
/// and the paths of the values read as plain JSON.
struct Items {
    path: String,
}

/// What [`Items`] reads.
type ReadItems = (Option<Result<Vec<Item>, ImportError>>, Vec<String>);

impl Items {
    /// Not a list: the error the tree's reader gave.
    fn other(self, value: Value) -> ReadItems {
        let items = match value {
            Value::Null => None,
            value => Some(Err(ImportError::Invalid {
                path: self.path,
                message: format!("expected a list, found {}", kind(&value)),
            })),
        };
        (items, Vec::new())
    }
}

impl<'de> Visitor<'de> for Items {
    type Value = ReadItems;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a list of items")
    }

    scalars_to_other!();

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        Ok(self.other(Plain.visit_map(map)?))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut items = Vec::new();
        let mut plain = Vec::new();
        while let Some(item) = seq.next_element_seed(ItemSeed)? {
            match item {
                Ok((item, plain_names)) => {
                    let at = |name: String| format!("{}[{}].{name}", self.path, items.len());
                    plain.extend(plain_names.into_iter().map(at));
                    items.push(item);
                }
                Err(wrong) => {
                    let at = format!("{}[{}]", self.path, items.len());
                    drop(items);
                    // The rest is read as a tree is, for the syntax and the nesting.
                    while seq.next_element_seed(Plain)?.is_some() {}
                    return Ok((Some(Err(wrong.at(at))), Vec::new()));
                }
            }
        }
        Ok((Some(Ok(items)), plain))
    }
}

/// What is wrong with an item: it is not an object; what it is, in words.
enum Wrong {
    NotAnObject(&'static str),
}

impl Wrong {
    /// The error, for the item at `path`, worded as the tree's reader worded it.
    fn at(self, path: String) -> ImportError {
        match self {
            Wrong::NotAnObject(what) => ImportError::Invalid {
                path,
                message: format!("expected an object, found {what}"),
            },
        }
    }
}

/// One item of `TableData`, and the names of its attributes whose values are not DynamoDB JSON,
/// read as plain JSON (`{"price": 12}` as `N`; issue 36: a model is not refused over one).
struct ItemSeed;

impl ItemSeed {
    fn other(self, value: Value) -> Result<(Item, Vec<String>), Wrong> {
        Err(Wrong::NotAnObject(kind(&value)))
    }
}

impl<'de> Visitor<'de> for ItemSeed {
    type Value = Result<(Item, Vec<String>), Wrong>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an item")
    }

    scalars_to_other!();

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        Ok(self.other(Plain.visit_seq(seq)?))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut item = Item::new();
        // The attributes whose (last) value is not DynamoDB JSON, by name.
        let mut plain: BTreeSet<String> = BTreeSet::new();
        while let Some(name) = map.next_key::<String>()? {
            match map.next_value_seed(Typed)? {
                Ok(value) => {
                    if !plain.is_empty() {
                        plain.remove(&name);
                    }
                    item.insert(name, value);
                }
                Err(value) => {
                    item.insert(name.clone(), plain_value(&value));
                    plain.insert(name);
                }
            }
        }
        Ok(Ok((item, plain.into_iter().collect())))
    }
}

/// An attribute value in DynamoDB JSON (`{"S": "x"}`), or the plain tree when it is not: what
/// [`typed_value`] makes of its tree, the common one-member values read without one.
struct Typed;

impl Typed {
    fn other(self, value: Value) -> Result<AttributeValue, Value> {
        Err(value)
    }
}

/// [`typed_value`] of `value`, or `value` itself when it is not DynamoDB JSON.
fn typed_or_plain(value: Value) -> Result<AttributeValue, Value> {
    typed_value(&value).ok_or(value)
}

impl<'de> Visitor<'de> for Typed {
    type Value = Result<AttributeValue, Value>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a value in DynamoDB JSON")
    }

    scalars_to_other!();

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        Ok(self.other(Plain.visit_seq(seq)?))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let Some(tag) = map.next_key_seed(Tag)? else {
            return Ok(Err(Value::Object(Map::new())));
        };
        let inner = map.next_value_seed(Plain)?;
        let Some(second) = map.next_key::<String>()? else {
            return Ok(match inner {
                Value::String(s) if tag == "S" => Ok(AttributeValue::S(s)),
                Value::String(s) if tag == "N" => Ok(AttributeValue::N(s)),
                Value::String(s) if tag == "B" => Ok(AttributeValue::B(s)),
                inner => typed_or_plain(Value::Object(Map::from_iter([(tag.into_owned(), inner)]))),
            });
        };
        // More than one member (or one given twice): the tree decides.
        let mut members = Map::from_iter([(tag.into_owned(), inner)]);
        members.insert(second, map.next_value_seed(Plain)?);
        while let Some(key) = map.next_key::<String>()? {
            members.insert(key, map.next_value_seed(Plain)?);
        }
        Ok(typed_or_plain(Value::Object(members)))
    }
}

/// An object's member name, borrowed from the text when it has no escapes.
struct Tag;

impl<'de> DeserializeSeed<'de> for Tag {
    type Value = Cow<'de, str>;
    fn deserialize<D: de::Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Tag {
    type Value = Cow<'de, str>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a name")
    }
    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Self::Value, E> {
        Ok(Cow::Borrowed(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
        Ok(Cow::Owned(v.to_owned()))
    }
    fn visit_string<E>(self, v: String) -> Result<Self::Value, E> {
        Ok(Cow::Owned(v))
    }
}
