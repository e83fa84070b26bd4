//! Items grouped into entities by the shapes of their table keys, for a table without facets
//! or an entity-type attribute, and each group's entity name from its keys' tags.

use super::*;

/// Groups the items by the shape of their table keys, in order of first appearance, each with
/// an entity name guessed from the keys' tags and the word it was made from (`UInfo` and `U`
/// when two groups share the tag `u`).
pub(super) fn group_by_shape<'a>(ctx: &Context<'a>) -> Vec<(String, String, Vec<&'a Item>)> {
    let table = &ctx.table.table;
    let pk = table.partition_key.name.as_str();
    let sk = table.sort_key.as_ref().map(|k| k.name.as_str());
    // Each group: its key shapes, the first item's shapes with attributes (for naming), items.
    let mut groups: Vec<Group<'a>> = Vec::new();
    // The groups by their shapes as tokens borrowed from the items: classifying every item in
    // full (its slots' text copied, each segment's attribute found and named) took half a
    // second for a 32 MB model's 400,000 items (issue 15), where telling its shapes needs
    // only whether some attribute holds each segment. Buffers are reused from item to item.
    let mut group_of: HashMap<Vec<ShapeToken<'a>>, usize> = HashMap::new();
    let mut tokens: Vec<ShapeToken<'a>> = Vec::new();
    // The previous item's tokens and group: an entity's items come in runs, and a comparison
    // with the previous item spares hashing every item's tokens (a twentieth of a 32 MB
    // model's import went to SipHash here, issue 15).
    let mut previous: Vec<ShapeToken<'a>> = Vec::new();
    let mut previous_group: Option<usize> = None;
    // The item's attributes with text values, listed once: each segment is looked for among
    // them, and walking the item's map for every segment was a tenth of a 32 MB model's
    // inference (issue 15).
    let mut texts: Vec<(&'a str, &'a str)> = Vec::new();
    // Each group's tokens, for merging the groups a sample value split (see [`merge_groups`]).
    let mut group_tokens: Vec<Vec<ShapeToken<'a>>> = Vec::new();
    for item in &ctx.table.items {
        std::mem::swap(&mut previous, &mut tokens);
        item_shape(ctx, item, &mut texts, &mut tokens);
        let known = match previous_group {
            Some(group) if previous == tokens => Some(group),
            _ => group_of.get(tokens.as_slice()).copied(),
        };
        match known {
            Some(group) => {
                groups[group].2.push(item);
                previous_group = Some(group);
            }
            None => {
                // The group's shapes, and with attributes to name it: its first item's,
                // classified in full.
                let classified: Vec<Option<Classified>> = std::iter::once(pk)
                    .chain(sk)
                    .map(|key| {
                        let value = item.get(key).and_then(AttributeValue::as_key_text);
                        value.map(|text| classify(ctx, text, item, key))
                    })
                    .collect();
                let shapes = classified
                    .iter()
                    .map(|c| c.as_ref().map(Classified::shape).unwrap_or_default())
                    .collect();
                let named = classified
                    .iter()
                    .map(|c| c.as_ref().map(Classified::named_shape).unwrap_or_default())
                    .collect();
                group_of.insert(tokens.clone(), groups.len());
                group_tokens.push(tokens.clone());
                previous_group = Some(groups.len());
                groups.push((shapes, named, vec![item]));
            }
        }
    }
    let groups = merge_groups(groups, &group_tokens);
    let mut names: Vec<String> = groups
        .iter()
        .map(|(_, n, _)| shape_name(&ctx.words, n))
        .collect();
    // Two groups with one name: add the sort key's constant or tag, then a number.
    let first_names = names.clone();
    for i in 0..names.len() {
        if first_names.iter().filter(|n| **n == first_names[i]).count() > 1 {
            let suffix = groups[i]
                .0
                .get(1)
                .and_then(|s| s.first_literal_word())
                .map(|w| pascal(&w))
                .unwrap_or_default();
            if !suffix.is_empty() && !names[i].ends_with(&suffix) {
                names[i] = format!("{}{suffix}", names[i]);
            }
        }
    }
    groups
        .into_iter()
        .zip(names.into_iter().zip(first_names))
        .map(|((_, _, items), (name, word))| (name, word, items))
        .collect()
}

/// The shapes of an item's table keys as tokens borrowed from it, into `tokens` (cleared
/// first); `texts` is a buffer for the item's attributes with text values.
pub(super) fn item_shape<'a>(
    ctx: &Context<'a>,
    item: &'a Item,
    texts: &mut Vec<(&'a str, &'a str)>,
    tokens: &mut Vec<ShapeToken<'a>>,
) {
    let table = &ctx.table.table;
    let pk = table.partition_key.name.as_str();
    let sk = table.sort_key.as_ref().map(|k| k.name.as_str());
    tokens.clear();
    texts.clear();
    texts.extend(
        item.iter()
            .filter_map(|(name, value)| Some((name.as_str(), value.as_key_text()?))),
    );
    for key in std::iter::once(pk).chain(sk) {
        tokens.push(ShapeToken::Key);
        let Some(text) = item.get(key).and_then(AttributeValue::as_key_text) else {
            continue;
        };
        // Segment by segment as the value is split, into no lists of segments and readings.
        let mut reader = SegmentReader::default();
        split_each(text, |separator, segment| {
            if let Some(separator) = separator {
                tokens.push(ShapeToken::Separator(separator));
            }
            let held =
                |segment: &str| has_matching_attribute(ctx, texts, segment, key).then_some(());
            tokens.push(match reader.read(segment, held) {
                Reading::Literal => ShapeToken::Literal(segment),
                Reading::Placeholder(_) | Reading::Var(_) => ShapeToken::Var,
            });
        });
    }
}

/// A group of items: its key shapes, its first item's shapes with attributes (for naming), and
/// its items.
type Group<'a> = (Vec<Shape>, Vec<Shape>, Vec<&'a Item>);

/// The most groups [`merge_groups`] compares pairwise.
const MAX_MERGED_GROUPS: usize = 256;

/// The groups, those that only a sample value told apart merged (issue 36: a cart keyed by its
/// customer's name, `Liz`, `Chad`, `Sue`, whose sort key ends in its status,
/// `2019-10-08T21:11:42#Active`, was an entity per customer and status word). Two groups
/// merge when their first items hold the same attributes and their tokens agree but where one
/// has a variable and the other a word after a separator, or where the partition keys are two
/// words whole (a constant partition key, `ANALYTICS`, stays its group's own when no other
/// group shares the rest of its shape). Merged groups keep the first's place; their shapes
/// keep what both share.
fn merge_groups<'a>(groups: Vec<Group<'a>>, tokens: &[Vec<ShapeToken<'a>>]) -> Vec<Group<'a>> {
    if groups.len() < 2 || groups.len() > MAX_MERGED_GROUPS {
        return groups;
    }
    let mergeable = |i: usize, j: usize| {
        let (a, b) = (&tokens[i], &tokens[j]);
        a.len() == b.len()
            && groups[i].2[0].keys().eq(groups[j].2[0].keys())
            && a.iter().zip(b).enumerate().all(|(p, pair)| match pair {
                (x, y) if x == y => true,
                // The partition key's whole value, two words: two customers, not two entities.
                (ShapeToken::Literal(v), ShapeToken::Literal(w)) => {
                    p == 1
                        && a.get(2).is_none_or(|t| *t == ShapeToken::Key)
                        && is_word(v)
                        && is_word(w)
                }
                (ShapeToken::Var, ShapeToken::Literal(w))
                | (ShapeToken::Literal(w), ShapeToken::Var) => {
                    is_word(w) && p > 0 && matches!(a[p - 1], ShapeToken::Separator(_))
                }
                _ => false,
            })
    };
    // Each group's root: the earliest group it merges with, directly or through others.
    let mut root: Vec<usize> = (0..groups.len()).collect();
    for j in 1..groups.len() {
        for i in 0..j {
            if root[i] != root[j] && mergeable(i, j) {
                let (ri, rj) = (root[i], root[j]);
                let (keep, gone) = (ri.min(rj), ri.max(rj));
                for r in &mut root {
                    if *r == gone {
                        *r = keep;
                    }
                }
            }
        }
    }
    let mut merged: Vec<Option<Group<'a>>> = Vec::new();
    let mut at_root: HashMap<usize, usize> = HashMap::new();
    for (g, (shapes, named, items)) in groups.into_iter().enumerate() {
        match at_root.get(&root[g]) {
            Some(&m) => {
                let (into_shapes, into_named, into_items) =
                    merged[m].as_mut().expect("a merged group");
                generalise(into_shapes, &shapes);
                generalise(into_named, &named);
                into_items.extend(items);
            }
            None => {
                at_root.insert(root[g], merged.len());
                merged.push(Some((shapes, named, items)));
            }
        }
    }
    merged.into_iter().flatten().collect()
}

/// `shapes` made to hold what they share with `other`: each slot where they differ a variable.
fn generalise(shapes: &mut [Shape], other: &[Shape]) {
    for (shape, other) in shapes.iter_mut().zip(other) {
        if shape.slots.len() != other.slots.len() {
            continue;
        }
        for (slot, other) in shape.slots.iter_mut().zip(&other.slots) {
            if slot != other {
                *slot = ShapeSlot::Var(None);
            }
        }
    }
}

/// An entity name from the shapes of its partition and sort keys: a tag after the partition
/// key's variable (`u#{...}#follower`), a tag leading the sort key (`comm#{...}`) that differs
/// from the partition key's, the partition key's tag, or the partition variable's attribute.
pub(super) fn shape_name(words: &Words, shapes: &[Shape]) -> String {
    let pascal = |tag: &str| pascal(&words.expand(tag).unwrap_or_else(|| tag.to_string()));
    let pk = shapes.first();
    let sk = shapes.get(1);
    if let Some(pk) = pk
        && let Some(tag) = pk.trailing_tag()
    {
        return pascal(&tag);
    }
    let pk_tag = pk.and_then(Shape::leading_tag);
    if let Some(sk) = sk
        && let Some(tag) = sk.leading_tag()
        && sk.slots.len() > 1
        && Some(&tag) != pk_tag.as_ref()
    {
        return pascal(&tag);
    }
    if let Some(tag) = pk_tag {
        return pascal(&tag);
    }
    if let Some(attr) = pk.and_then(|p| {
        p.slots.iter().find_map(|s| match s {
            ShapeSlot::Var(Some(a)) => Some(a.clone()),
            _ => None,
        })
    }) {
        return pascal(strip_id(&attr));
    }
    "Item".to_string()
}
