//! A key's template inferred from the values the entity's items hold (or a facet's alias alone):
//! literal tags, variables named from attributes, placeholders, aliases and tags, and write
//! shards.

use super::*;

/// The template inferred for one key attribute of one entity.
pub(super) enum Inferred {
    /// No item of the entity has the attribute: the entity is absent from that index.
    Absent,
    /// The attribute is a plain attribute of the entity (its own name).
    Natural,
    /// A template.
    Template(Vec<Piece>),
    /// The items disagree on the key's shape; in a table without facets, the template of what
    /// they share (see [`shared_template`]).
    Mixed(Option<Vec<Piece>>),
}

/// A piece of an inferred template.
#[derive(Debug, Clone)]
pub(super) enum Piece {
    /// A write shard, `{shard:10}`: a number the writer picks, not an attribute.
    Shard { name: String, count: u32 },
    /// Literal text, separators included (not yet escaped).
    Literal(String),
    Var {
        name: String,
        ty: AttrType,
        /// The value of the variable in each item, by the item's index in the entity.
        values: Vec<(usize, String)>,
    },
}

pub(super) fn render(pieces: &[Piece]) -> String {
    let mut source = String::new();
    for piece in pieces {
        match piece {
            Piece::Literal(l) => source.push_str(&template_literal(l)),
            Piece::Var { name, .. } => {
                source.push('{');
                source.push_str(name);
                source.push('}');
            }
            Piece::Shard { name, count } => {
                source.push_str(&format!("{{{name}:{count}}}"));
            }
        }
    }
    source
}

pub(super) fn push_literal(pieces: &mut Vec<Piece>, text: &str) {
    if let Some(Piece::Literal(l)) = pieces.last_mut() {
        l.push_str(text);
    } else if !text.is_empty() {
        pieces.push(Piece::Literal(text.to_string()));
    }
}

/// The most items of one entity a key's template is inferred from: more are read from an
/// evenly spread subset of this many. Classifying every key value of an 80,000-item model
/// took seconds, and a template is settled long before (the corpus's models hold at most 19
/// items per table, and a live table's sample is 1,000 items by default).
pub(super) const TEMPLATE_SAMPLE: usize = 1_000;

/// At most `limit` (2 or more) of `items`, evenly spread from the first to the last.
pub(super) fn evenly_spread<T: Copy>(items: &[T], limit: usize) -> Vec<T> {
    if items.len() <= limit {
        return items.to_vec();
    }
    (0..limit)
        .map(|k| items[k * (items.len() - 1) / (limit - 1)])
        .collect()
}

/// Infers the template of `key` from the values the items hold. `items` are the entity's
/// items with their index in the entity; at most [`TEMPLATE_SAMPLE`] of them are classified.
pub(super) fn infer_template(
    ctx: &Context<'_>,
    key: &KeyAttribute,
    items: &[(usize, &Item)],
    alias: Option<&str>,
) -> Inferred {
    let all_items = items;
    let items = evenly_spread(items, TEMPLATE_SAMPLE);
    let classified: Vec<(usize, Classified)> = items
        .iter()
        .filter_map(|(index, item)| {
            item.get(&key.name)
                .and_then(AttributeValue::as_key_text)
                .map(|text| (*index, classify(ctx, text, item, &key.name)))
        })
        .collect();
    let Some((_, first)) = classified.first() else {
        return Inferred::Absent;
    };
    let shape = first.shape();
    let unified = classified.iter().any(|(_, c)| c.shape() != shape);
    if unified {
        if !ctx.table.facets.is_empty() {
            return Inferred::Mixed(None);
        }
        let same_layout = classified
            .iter()
            .all(|(_, c)| c.separators == first.separators);
        if !same_layout {
            return Inferred::Mixed(shared_prefix(ctx, &classified));
        }
    }
    let mut classified = classified;
    if unified {
        unify(&mut classified);
    }
    let first = &classified[0].1;
    let n_slots = first.slots.len();

    // A variable every item fills with the same word, in a group of several, is a literal.
    let mut literal_at: Vec<Option<String>> = vec![None; n_slots];
    if classified.len() >= 2 {
        for (i, slot) in first.slots.iter().enumerate() {
            if let Slot::Var {
                text,
                hint: None,
                attribute: None,
            } = slot
                && is_word(text)
                && classified.iter().all(|(_, c)| {
                    matches!(&c.slots[i], Slot::Var { text: t, attribute: None, .. } if t == text)
                })
            {
                literal_at[i] = Some(text.clone());
            }
        }
    }
    let var_positions: Vec<usize> = (0..n_slots)
        .filter(|&i| literal_at[i].is_none() && matches!(first.slots[i], Slot::Var { .. }))
        .collect();
    let alias_names = alias
        .filter(|a| *a != key.name && !a.is_empty())
        .map(|a| alias_names(a, n_slots, &var_positions))
        .unwrap_or_default();
    let only: Vec<Classified> = classified.iter().map(|(_, c)| c.clone()).collect();

    let mut pieces: Vec<Piece> = Vec::new();
    let mut taken: Vec<String> = Vec::new();
    let mut nth_var = 0;
    for (i, slot) in first.slots.iter().enumerate() {
        if i > 0 {
            push_literal(&mut pieces, &first.separators[i - 1].to_string());
        }
        match (slot, &literal_at[i]) {
            (_, Some(l)) | (Slot::Literal(l), None) => push_literal(&mut pieces, l),
            (Slot::Var { .. }, None) => {
                let alias = alias_names.get(nth_var).cloned().flatten();
                nth_var += 1;
                let values: Vec<(usize, String)> = classified
                    .iter()
                    .filter_map(|(index, c)| match &c.slots[i] {
                        Slot::Var { text, .. } => Some((*index, text.clone())),
                        Slot::Literal(_) => None,
                    })
                    .collect();
                // A write shard's count is the largest number of every item, not only the
                // subset's: splitting each value is cheap next to classifying it.
                let shard = write_shard(values.iter().map(|(_, v)| v.as_str())).and_then(|found| {
                    if all_items.len() == items.len() {
                        return Some(found);
                    }
                    write_shard(all_items.iter().filter_map(|(_, item)| {
                        let text = item.get(&key.name)?.as_key_text()?;
                        let (segments, _) = split(text);
                        (segments.len() == n_slots).then(|| segments[i])
                    }))
                });
                if let Some((word, count)) = shard {
                    push_literal(&mut pieces, &word);
                    let name = unique_name("shard", &mut taken);
                    pieces.push(Piece::Shard { name, count });
                    continue;
                }
                let name = name_variable(ctx, key, &only, i, alias, &literal_at);
                let name = unique_name(&variable_name(&name), &mut taken);
                let ty = if n_slots == 1 && key.ty == KeyType::N {
                    AttrType::N
                } else {
                    AttrType::S
                };
                pieces.push(Piece::Var { name, ty, values });
            }
        }
    }
    let source = render(&pieces);
    // An empty key value is no template (DynamoDB refuses it too): keep the plain attribute.
    if source.is_empty() || source == format!("{{{}}}", variable_name(&key.name)) {
        return Inferred::Natural;
    }
    if unified {
        return Inferred::Mixed(Some(pieces));
    }
    Inferred::Template(pieces)
}

/// Values of one layout (separators) but different shapes, made one: each slot that is not
/// the same literal in every value becomes a variable in all of them (`{date}#Shipped` and
/// `{date}#{Status}` are `{date}#{Status}`).
fn unify(classified: &mut [(usize, Classified)]) {
    let n_slots = classified.first().map_or(0, |(_, c)| c.slots.len());
    for i in 0..n_slots {
        let shared = match &classified[0].1.slots[i] {
            Slot::Literal(l) => classified
                .iter()
                .all(|(_, c)| matches!(&c.slots[i], Slot::Literal(m) if m == l)),
            Slot::Var { .. } => false,
        };
        if shared {
            continue;
        }
        for (_, c) in classified.iter_mut() {
            if let Slot::Literal(text) = &c.slots[i] {
                c.slots[i] = Slot::Var {
                    text: text.clone(),
                    hint: None,
                    attribute: None,
                };
            }
        }
    }
}

/// For values of different depths (`INVENTORY#WH1`, `INVENTORY#WH1#BIN2`), the literal parts
/// every value starts with and one variable for the rest, named after the last tag
/// (`INVENTORY#{inventoryId}`); `None` when they share no literal word (issue 36).
fn shared_prefix(ctx: &Context<'_>, classified: &[(usize, Classified)]) -> Option<Vec<Piece>> {
    let first = &classified.first()?.1;
    let mut pieces = Vec::new();
    let mut tag: Option<&str> = None;
    let mut rest_from = 0;
    for (i, slot) in first.slots.iter().enumerate() {
        let Slot::Literal(literal) = slot else {
            break;
        };
        let separator = first.separators.get(i);
        let everywhere = separator.is_some()
            && classified.iter().all(|(_, c)| {
                matches!(c.slots.get(i), Some(Slot::Literal(l)) if l == literal)
                    && c.separators.get(i) == separator
            });
        let Some(separator) = separator.filter(|_| everywhere) else {
            break;
        };
        push_literal(&mut pieces, literal);
        push_literal(&mut pieces, &separator.to_string());
        if is_word(literal) {
            tag = Some(literal);
        }
        rest_from = i + 1;
    }
    let tag = tag?.to_string();
    let name = id_name(&ctx.words.expand(&tag).unwrap_or(tag));
    let values = classified
        .iter()
        .map(|(index, c)| (*index, c.text_from(rest_from)))
        .collect();
    pieces.push(Piece::Var {
        name: variable_name(&ctx.spelled(name)),
        ty: AttrType::S,
        values,
    });
    Some(pieces)
}

/// The most write shards a sampled key is read as: larger numbers are ids, not shards.
pub(super) const MAX_SHARDS: u32 = 1000;

/// When every value is one word ending in `shard` followed by a small number (`SHARD3`,
/// `shard_7`), the word and the shard count: one more than the largest number seen, which is
/// the design's count when the sample holds an item of the last shard.
pub(super) fn write_shard<'v>(values: impl IntoIterator<Item = &'v str>) -> Option<(String, u32)> {
    let mut word: Option<&str> = None;
    let mut largest = 0u32;
    for value in values {
        let digits = value.find(|c: char| c.is_ascii_digit())?;
        let (prefix, number) = value.split_at(digits);
        let is_shard_word = prefix
            .trim_end_matches(['_', '-'])
            .to_ascii_lowercase()
            .ends_with("shard");
        if !is_shard_word || number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        if word.is_some_and(|w| w != prefix) {
            return None;
        }
        word = Some(prefix);
        let n: u32 = number.parse().ok().filter(|n| *n < MAX_SHARDS)?;
        largest = largest.max(n);
    }
    Some((word?.to_string(), largest + 1))
}

/// Names for the variables at `var_positions` from a facet's key alias: position by position
/// when the alias has as many parts as the value (`ITEMS#ItemID`), else in order when it has
/// as many parts as there are variables (`SubId#SKU` for `SUB#123#SKU#999`).
pub(super) fn alias_names(
    alias: &str,
    n_slots: usize,
    var_positions: &[usize],
) -> Vec<Option<String>> {
    let (parts, _) = split(alias);
    let clean = |p: &str| -> Option<String> {
        let p = placeholder(p).unwrap_or(p);
        (!p.is_empty()).then(|| p.to_string())
    };
    if parts.len() == n_slots {
        return var_positions.iter().map(|&i| clean(parts[i])).collect();
    }
    let placeholders: Vec<&str> = parts.iter().filter_map(|p| placeholder(p)).collect();
    if placeholders.len() == var_positions.len() {
        return placeholders.iter().map(|p| Some(p.to_string())).collect();
    }
    let non_empty: Vec<&str> = parts.iter().copied().filter(|p| !p.is_empty()).collect();
    if non_empty.len() == var_positions.len() {
        return non_empty.iter().map(|p| clean(p)).collect();
    }
    Vec::new()
}

/// The name of the variable at slot `i`: a placeholder, the alias, the item attribute with
/// that value (most items' choice), the tag before it, a table attribute with that value, or
/// a name from the key.
pub(super) fn name_variable(
    ctx: &Context<'_>,
    key: &KeyAttribute,
    classified: &[Classified],
    i: usize,
    alias: Option<String>,
    literal_at: &[Option<String>],
) -> String {
    if let Some(hint) = classified.iter().find_map(|c| match &c.slots[i] {
        Slot::Var { hint: Some(h), .. } => Some(h.clone()),
        _ => None,
    }) {
        return hint;
    }
    if let Some(alias) = alias {
        return alias;
    }
    if let Some(attribute) = vote(classified.iter().filter_map(|c| match &c.slots[i] {
        Slot::Var {
            attribute: Some(a), ..
        } => Some(a.clone()),
        _ => None,
    })) {
        return attribute;
    }
    let texts = classified.iter().filter_map(|c| match &c.slots[i] {
        Slot::Var { text, .. } => Some(text.as_str()),
        Slot::Literal(_) => None,
    });
    let table_wide = || {
        vote(texts.clone().filter_map(|text| {
            (text.chars().count() >= 2)
                .then(|| ctx.attribute_with_value(text, &key.name))
                .flatten()
                .map(str::to_string)
        }))
    };
    // A date after a tag (`p#2020-06-21T19:18:00`) is a date, not the tag's id.
    if texts.clone().all(looks_like_date) {
        return table_wide().unwrap_or_else(|| "date".to_string());
    }
    let first = &classified[0];
    let tag = (0..i).rev().find_map(|j| {
        let text = literal_at[j].as_ref().or(match &first.slots[j] {
            Slot::Literal(l) => Some(l),
            Slot::Var { .. } => None,
        });
        match text {
            Some(t) if t.is_empty() => None,
            Some(t) => Some(Some(t.clone())),
            None => Some(None),
        }
    });
    if let Some(Some(tag)) = tag
        && is_word(&tag)
    {
        return ctx.spelled(id_name(&ctx.words.expand(&tag).unwrap_or(tag)));
    }
    if let Some(name) = table_wide() {
        return name;
    }
    if first.slots.len() == 1 && !is_key_like(&key.name) {
        return key.name.clone();
    }
    format!("{}Value", camel(&key.name))
}

/// The most frequent value, the first seen winning a tie.
pub(super) fn vote(values: impl Iterator<Item = String>) -> Option<String> {
    let mut counts: Vec<(String, usize)> = Vec::new();
    for v in values {
        match counts.iter_mut().find(|(c, _)| *c == v) {
            Some((_, n)) => *n += 1,
            None => counts.push((v, 1)),
        }
    }
    let best = counts.iter().map(|(_, n)| *n).max()?;
    counts.into_iter().find(|(_, n)| *n == best).map(|(v, _)| v)
}

/// A template from a facet's alias alone (a facet without items): `USER#<id>` gives
/// `USER#{id}`; a single name is the variable; otherwise upper-case words are literals.
pub(super) fn alias_template(key: &KeyAttribute, alias: Option<&str>) -> Inferred {
    let Some(alias) = alias.filter(|a| !a.is_empty() && *a != key.name) else {
        return Inferred::Natural;
    };
    let (parts, separators) = split(alias);
    let explicit = parts.iter().any(|p| placeholder(p).is_some());
    let mut pieces = Vec::new();
    let mut taken = Vec::new();
    for (i, part) in parts.iter().enumerate() {
        if i > 0 {
            push_literal(&mut pieces, &separators[i - 1].to_string());
        }
        let var = match placeholder(part) {
            Some(name) => Some(name.to_string()),
            None if explicit => None,
            None if parts.len() == 1 => Some(part.to_string()),
            None if part.is_empty() || part.chars().all(|c| !c.is_lowercase()) => None,
            None => Some(part.to_string()),
        };
        match var {
            Some(name) => pieces.push(Piece::Var {
                name: unique_name(&variable_name(&name), &mut taken),
                ty: AttrType::from(key.ty),
                values: Vec::new(),
            }),
            None => push_literal(&mut pieces, part),
        }
    }
    if render(&pieces) == format!("{{{}}}", key.name) {
        return Inferred::Natural;
    }
    Inferred::Template(pieces)
}
