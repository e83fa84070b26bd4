//! A key value split at its separators and each segment read as a literal tag or a variable,
//! with the item attribute that holds it: the shapes grouping compares and templates are made of.

use super::*;

/// A piece of a classified key value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Slot {
    Literal(String),
    Var {
        text: String,
        /// A `<name>` placeholder's name.
        hint: Option<String>,
        /// The item attribute holding the same value.
        attribute: Option<String>,
    },
}

/// A key value split into slots and the separators between them.
#[derive(Debug, Clone)]
pub(super) struct Classified {
    pub(super) slots: Vec<Slot>,
    pub(super) separators: Vec<char>,
}

/// The shape of a classified value: its separators, literals and where its variables are.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub(super) struct Shape {
    pub(super) slots: Vec<ShapeSlot>,
    pub(super) separators: Vec<char>,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) enum ShapeSlot {
    Literal(String),
    /// A variable, with the attribute that names it when there is one (this keeps
    /// `{State}#{Date}` apart from a tag-led key of the same length).
    Var(Option<String>),
}

impl Classified {
    /// The value's text from slot `from` on, separators included.
    pub(super) fn text_from(&self, from: usize) -> String {
        let mut text = String::new();
        for (i, slot) in self.slots.iter().enumerate().skip(from) {
            if i > from {
                text.extend(self.separators.get(i - 1));
            }
            match slot {
                Slot::Literal(l) => text.push_str(l),
                Slot::Var { text: t, .. } => text.push_str(t),
            }
        }
        text
    }

    /// The shape, without the variables' attributes: what items of one entity share.
    pub(super) fn shape(&self) -> Shape {
        self.shape_with(|_| None)
    }

    /// The shape with the attribute each variable matched, for naming.
    pub(super) fn named_shape(&self) -> Shape {
        self.shape_with(Option::clone)
    }

    /// The shape, each variable's attribute given by `attribute` (built directly: cloning the
    /// named shape and then clearing it cost every item of an item-heavy model twice).
    pub(super) fn shape_with(
        &self,
        attribute: impl Fn(&Option<String>) -> Option<String>,
    ) -> Shape {
        Shape {
            slots: self
                .slots
                .iter()
                .map(|s| match s {
                    Slot::Literal(l) => ShapeSlot::Literal(l.clone()),
                    Slot::Var { attribute: a, .. } => ShapeSlot::Var(attribute(a)),
                })
                .collect(),
            separators: self.separators.clone(),
        }
    }
}

impl Shape {
    /// The first slot, when it is a literal word followed by more.
    pub(super) fn leading_tag(&self) -> Option<String> {
        let first = self.slots.iter().find(|s| !is_empty_literal(s))?;
        match first {
            ShapeSlot::Literal(l) if is_word(l) => Some(l.clone()),
            _ => None,
        }
    }

    /// A literal word after the last variable (`u#{...}#follower`).
    pub(super) fn trailing_tag(&self) -> Option<String> {
        let last_var = self
            .slots
            .iter()
            .rposition(|s| matches!(s, ShapeSlot::Var(_)))?;
        self.slots[last_var + 1..].iter().find_map(|s| match s {
            ShapeSlot::Literal(l) if is_word(l) => Some(l.clone()),
            _ => None,
        })
    }

    /// The first literal word anywhere (`"info"` for a constant sort key).
    pub(super) fn first_literal_word(&self) -> Option<String> {
        self.slots.iter().find_map(|s| match s {
            ShapeSlot::Literal(l) => {
                let word: String = l.chars().filter(|c| c.is_alphanumeric()).collect();
                (!word.is_empty()).then_some(word)
            }
            ShapeSlot::Var(_) => None,
        })
    }
}

pub(super) fn is_empty_literal(slot: &ShapeSlot) -> bool {
    matches!(slot, ShapeSlot::Literal(l) if l.is_empty())
}

/// Splits a key value at `#`, `|`, and `:` after a letter (`User:UserA`, not `12:00`).
pub(super) fn split(value: &str) -> (Vec<&str>, Vec<char>) {
    let mut segments = Vec::new();
    let mut separators = Vec::new();
    split_into(value, &mut segments, &mut separators);
    (segments, separators)
}

/// [`split`] into buffers, which are cleared first.
pub(super) fn split_into<'v>(
    value: &'v str,
    segments: &mut Vec<&'v str>,
    separators: &mut Vec<char>,
) {
    segments.clear();
    separators.clear();
    split_each(value, |separator, segment| {
        separators.extend(separator);
        segments.push(segment);
    });
}

/// [`split`], each segment handed to `each` with the separator before it (`None` for the
/// first).
pub(super) fn split_each<'v>(value: &'v str, mut each: impl FnMut(Option<char>, &'v str)) {
    // By bytes, not characters (decoding every key value's characters was a seventh of a
    // 32 MB model's inference, issue 15): the separators are ASCII, and a byte before a `:`
    // is an ASCII letter only when the character before it is (every byte of a longer
    // character is 0x80 or more).
    let bytes = value.as_bytes();
    let mut start = 0;
    let mut before = None;
    for (i, &b) in bytes.iter().enumerate() {
        let is_separator = match b {
            b'#' | b'|' => true,
            b':' => i > 0 && bytes[i - 1].is_ascii_alphabetic(),
            _ => false,
        };
        if is_separator {
            each(before, &value[start..i]);
            before = Some(char::from(b));
            start = i + 1;
        }
    }
    each(before, &value[start..]);
}

/// A word: letters and underscores, no digits.
pub(super) fn is_word(text: &str) -> bool {
    !text.is_empty() && text.chars().all(|c| c.is_alphabetic() || c == '_')
}

pub(super) fn placeholder(segment: &str) -> Option<&str> {
    let inner = segment
        .strip_prefix('<')
        .and_then(|s| s.strip_suffix('>'))
        .or_else(|| segment.strip_prefix('{').and_then(|s| s.strip_suffix('}')))?;
    (!inner.is_empty()).then_some(inner)
}

/// Classifies one key value of one item.
pub(super) fn classify(ctx: &Context<'_>, value: &str, item: &Item, key: &str) -> Classified {
    let (segments, separators) = split(value);
    let mut readings = Vec::with_capacity(segments.len());
    let attribute = |segment: &str| matching_attribute(ctx, item, segment, key);
    read_segments(&segments, attribute, &mut readings);
    let slots = segments
        .iter()
        .zip(readings)
        .map(|(segment, reading)| match reading {
            Reading::Literal => Slot::Literal(segment.to_string()),
            Reading::Placeholder(name) => Slot::Var {
                text: segment.to_string(),
                hint: Some(name.to_string()),
                attribute: None,
            },
            Reading::Var(attribute) => Slot::Var {
                text: segment.to_string(),
                hint: None,
                attribute,
            },
        })
        .collect();
    Classified { slots, separators }
}

/// How one segment of a key value reads: what [`classify`] makes a slot of.
pub(super) enum Reading<'v, A> {
    Literal,
    /// A `<name>` placeholder: a variable named so.
    Placeholder(&'v str),
    /// A variable, with the attribute found holding it.
    Var(Option<A>),
}

/// [`classify`]'s reading of each of `segments` into `readings` (cleared first), `attribute`
/// finding the item attribute that holds a segment where that decides. One procedure for the
/// full classification and the grouping's (which needs only whether there is one).
pub(super) fn read_segments<'v, A>(
    segments: &[&'v str],
    mut attribute: impl FnMut(&str) -> Option<A>,
    readings: &mut Vec<Reading<'v, A>>,
) {
    readings.clear();
    let mut reader = SegmentReader::default();
    for segment in segments {
        readings.push(reader.read(segment, &mut attribute));
    }
}

/// [`read_segments`] one segment at a time, in order: what it knows of the segments before.
#[derive(Default)]
pub(super) struct SegmentReader {
    /// Whether the last slot that is not an empty literal is a variable.
    previous_is_var: Option<bool>,
}

impl SegmentReader {
    pub(super) fn read<'v, A>(
        &mut self,
        segment: &'v str,
        attribute: impl FnOnce(&str) -> Option<A>,
    ) -> Reading<'v, A> {
        let reading = if let Some(name) = placeholder(segment) {
            Reading::Placeholder(name)
        } else if segment.is_empty() || (segment.starts_with('"') && segment.ends_with('"')) {
            Reading::Literal
        } else if let Some(found) = attribute(segment) {
            Reading::Var(Some(found))
        } else if !is_word(segment) {
            Reading::Var(None)
        } else {
            match self.previous_is_var {
                // A whole value or a leading word is a constant or a tag (a whole value's
                // one segment is its first).
                None => Reading::Literal,
                // The word after a tag is the tag's value.
                Some(false) => Reading::Var(None),
                // A word after a value starts the next part.
                Some(true) => Reading::Literal,
            }
        };
        match reading {
            Reading::Literal if segment.is_empty() => {}
            Reading::Literal => self.previous_is_var = Some(false),
            Reading::Placeholder(_) | Reading::Var(_) => self.previous_is_var = Some(true),
        }
        reading
    }
}

/// A piece of the shapes of an item's table keys, as grouping compares them: what
/// [`Classified::shape`] keeps, borrowed from the item. `Key` opens each key's pieces (none
/// when the item lacks the key).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum ShapeToken<'v> {
    Key,
    Literal(&'v str),
    Var,
    Separator(char),
}

/// Whether [`matching_attribute`] finds an attribute, without naming it, among an item's
/// attributes with text values (`texts`, name and text): the item's attributes are the
/// declared ones it holds and its others, so every one is tried, in any order.
pub(super) fn has_matching_attribute(
    ctx: &Context<'_>,
    texts: &[(&str, &str)],
    segment: &str,
    key: &str,
) -> bool {
    if is_one_letter(segment) {
        return false;
    }
    texts
        .iter()
        .any(|(name, text)| *text == segment && ctx.can_name(name, key))
}

/// A word of one letter (`c`), which is a tag, never a value (a one-digit number may be one).
/// Without counting the characters of every segment of every key value.
pub(super) fn is_one_letter(segment: &str) -> bool {
    let mut chars = segment.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_') && chars.next().is_none()
}

/// The item attribute (other than keys) whose value is exactly `segment`, in declared order.
pub(super) fn matching_attribute(
    ctx: &Context<'_>,
    item: &Item,
    segment: &str,
    key: &str,
) -> Option<String> {
    // A one-letter word is a tag (`c#...`), never a value; a one-digit number may be one.
    if is_one_letter(segment) {
        return None;
    }
    let declared = ctx.table.declared.iter().map(|(n, _)| n);
    // An item's names come sorted (it is a `BTreeMap`).
    let undeclared = item
        .keys()
        .filter(|k| !ctx.table.declared.iter().any(|(n, _)| n == *k));
    declared
        .chain(undeclared)
        .filter(|name| ctx.can_name(name, key))
        .find(|name| {
            item.get(*name)
                .and_then(AttributeValue::as_key_text)
                .is_some_and(|v| v == segment)
        })
        .cloned()
}
