//! Entities and key templates inferred from a Workbench table: its facets (named views with
//! key aliases) or, without facets, its items grouped by an entity-type attribute or by the
//! shape of their keys.
//!
//! A key value is split at `#`, `|` and a `:` after a letter; a leading word is a literal tag
//! (`USER`, `c`), the segment after a tag is a variable, a segment equal to one of the item's
//! own attributes is that attribute. Variables are named from, in order: a `<name>`
//! placeholder, the facet's alias, the item attribute holding the same value, the tag before it
//! (`USER#...` -> `userId`; a short tag as the word of the author's it abbreviates, `c#...` ->
//! `customerId`, see [`words`]), and any attribute of the table holding that value. Nothing here is
//! random or order-dependent beyond the document's own order, so an import is reproducible.

use std::cell::{OnceCell, RefCell};
use std::collections::{BTreeMap, HashMap};

use crate::item::{AttributeValue, Item};
use crate::model::{AttrType, Attribute, Entity, KeyAttribute, KeyType};
use crate::template::KeyTemplate;

use super::super::{template_literal, unique_name, variable_name};
use super::{Facet, WorkbenchTable};

mod words;
use words::Words;

/// Names an entity-type attribute may have, compared without case, `_` and `-`.
const ENTITY_TYPE_ATTRIBUTES: &[&str] = &[
    "entitytype",
    "entity",
    "itemtype",
    "recordtype",
    "type",
    "typename",
];

/// What entity inference knows about a table.
struct Context<'a> {
    table: &'a WorkbenchTable,
    /// The attribute that names each item's entity, when every item has one.
    entity_type_attribute: Option<String>,
    /// Every key attribute of the table and its indexes.
    key_attributes: Vec<String>,
    /// [`Context::attribute_with_value`]'s index, built on first use (after
    /// `entity_type_attribute` is set, which it depends on).
    by_value: OnceCell<HashMap<&'a str, ValueOwners<'a>>>,
    /// [`Context::may_name`] by attribute name, filled on use (after `entity_type_attribute`
    /// is set): classifying each key value of each item asked it of every attribute again.
    may_name_by_attribute: RefCell<HashMap<String, bool>>,
    /// The words the author wrote that short key tags may stand for.
    words: Words,
}

/// The first attribute of the table's items (in [`Context::all_items`] order) that may name a
/// variable and holds a value, and the first after it with another name: whichever key is
/// being inferred, one of the two is the answer.
#[derive(Debug, Clone, Copy)]
struct ValueOwners<'a> {
    first: &'a str,
    other: Option<&'a str>,
}

impl<'a> Context<'a> {
    fn declared_type(&self, name: &str) -> Option<AttrType> {
        self.table
            .declared
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, t)| *t)
    }

    /// Whether an item attribute may name a template variable: not the key being inferred, not
    /// an overloaded key attribute, not the entity-type attribute.
    fn can_name(&self, attribute: &str, key: &str) -> bool {
        attribute != key && self.may_name(attribute)
    }

    /// [`Context::can_name`] whatever the key.
    fn may_name(&self, attribute: &str) -> bool {
        if let Some(known) = self.may_name_by_attribute.borrow().get(attribute) {
            return *known;
        }
        let may = self.may_name_uncached(attribute);
        self.may_name_by_attribute
            .borrow_mut()
            .insert(attribute.to_string(), may);
        may
    }

    fn may_name_uncached(&self, attribute: &str) -> bool {
        !is_key_like(attribute)
            && self.entity_type_attribute.as_deref() != Some(attribute)
            && !(self.key_attributes.iter().any(|k| k == attribute) && is_key_like(attribute))
    }

    /// The first attribute of the table's items, facets included, other than `key` that may
    /// name a variable and holds `text` (a string, number or binary), if any. One pass over
    /// the items builds an index the first time: searching them for each value of each item
    /// made an import of 2,000 items take 17 s (issue 12, issue 13).
    fn attribute_with_value(&self, text: &str, key: &str) -> Option<&'a str> {
        let owners = self.by_value.get_or_init(|| {
            let mut may_name: HashMap<&str, bool> = HashMap::new();
            let mut index: HashMap<&'a str, ValueOwners<'a>> = HashMap::new();
            for item in self.all_items() {
                for (name, value) in item {
                    let Some(text) = value.as_key_text() else {
                        continue;
                    };
                    // `can_name` without the key: that part is decided at lookup.
                    if !*may_name
                        .entry(name.as_str())
                        .or_insert_with(|| self.may_name(name))
                    {
                        continue;
                    }
                    let owners = index.entry(text).or_insert(ValueOwners {
                        first: name,
                        other: None,
                    });
                    if owners.other.is_none() && owners.first != name {
                        owners.other = Some(name);
                    }
                }
            }
            index
        });
        let owners = owners.get(text)?;
        if owners.first != key {
            Some(owners.first)
        } else {
            owners.other
        }
    }

    /// Every item of the table, facets included, for the table-wide value lookup.
    fn all_items(&self) -> impl Iterator<Item = &'a Item> + use<'a> {
        self.table
            .items
            .iter()
            .chain(self.table.facets.iter().flat_map(|f| f.items.iter()))
    }
}

pub(super) fn infer_entities(
    table: &WorkbenchTable,
    entity_names: &mut Vec<String>,
    notes: &mut Vec<String>,
) -> Vec<Entity> {
    let mut key_attributes: Vec<String> = Vec::new();
    for key in table.table.key_attributes() {
        key_attributes.push(key.name.clone());
    }
    let mut ctx = Context {
        table,
        entity_type_attribute: None,
        key_attributes,
        by_value: OnceCell::new(),
        may_name_by_attribute: RefCell::new(HashMap::new()),
        words: attribute_words(table),
    };
    if !table.facets.is_empty() {
        for facet in &table.facets {
            ctx.words
                .entity(&facet.name, identity_tag(table, facet.items.iter()));
        }
        let entities = table
            .facets
            .iter()
            .map(|facet| facet_entity(&ctx, facet, entity_names, notes))
            .collect();
        note_sampled(table, table.facets.iter().map(|f| f.items.len()), notes);
        return entities;
    }
    if table.items.is_empty() {
        return vec![bare_entity(table, entity_names)];
    }
    ctx.entity_type_attribute = entity_type_attribute(&table.items);
    ctx.may_name_by_attribute.borrow_mut().clear();
    let groups: Vec<(String, Vec<&Item>)> = match &ctx.entity_type_attribute {
        Some(attr) => {
            let groups = by_entity_type(&table.items, attr);
            for (name, items) in &groups {
                ctx.words
                    .entity(name, identity_tag(table, items.iter().copied()));
            }
            groups
        }
        None => {
            let groups = group_by_shape(&ctx);
            // The words the keys name entities with (`Post` for `PK = u#1#post`) expand the
            // tags of the others (`p#...` -> `postId`).
            for (_, word, items) in &groups {
                ctx.words
                    .entity(word, identity_tag(table, items.iter().copied()));
            }
            groups
                .into_iter()
                .map(|(name, _, items)| (name, items))
                .collect()
        }
    };
    let single = groups.len() == 1;
    let mut entities = Vec::new();
    let mut sizes = Vec::new();
    for (label, items) in groups {
        let name = if ctx.entity_type_attribute.is_some() {
            label
        } else if single {
            pascal(&table.table.name)
        } else {
            label
        };
        let name = unique_name(&name, entity_names);
        entities.push(build_entity(&ctx, name, &items, None, None, &[], notes));
        sizes.push(items.len());
    }
    note_sampled(table, sizes.into_iter(), notes);
    if let Some(attr) = &ctx.entity_type_attribute {
        notes.push(format!(
            "table {}: entities are the values of the `{attr}` attribute",
            table.table.name
        ));
    } else if !single {
        notes.push(format!(
            "table {}: no facets, so entities were inferred from the shapes of the items' keys",
            table.table.name
        ));
    }
    entities
}

/// The note that says a table's templates were inferred from a subset of its items, when an
/// entity (of `sizes` items each) holds more than [`TEMPLATE_SAMPLE`].
fn note_sampled(
    table: &WorkbenchTable,
    sizes: impl Iterator<Item = usize>,
    notes: &mut Vec<String>,
) {
    let (n_sampled, largest) = sizes
        .filter(|n| *n > TEMPLATE_SAMPLE)
        .fold((0, 0), |(count, largest), n| (count + 1, largest.max(n)));
    if n_sampled > 0 {
        notes.push(format!(
            "table {}: {n_sampled} entit{} more than {TEMPLATE_SAMPLE} items (the largest {largest}): key templates were inferred from {TEMPLATE_SAMPLE} of each one's items, spread evenly through them; every item is kept as sample data",
            table.table.name,
            if n_sampled == 1 { "y holds" } else { "ies hold" },
        ));
    }
}

/// A table with neither facets nor items: one entity holding every declared attribute.
fn bare_entity(table: &WorkbenchTable, entity_names: &mut Vec<String>) -> Entity {
    let name = unique_name(&pascal(&table.table.name), entity_names);
    let attributes = table
        .declared
        .iter()
        .map(|(n, t)| {
            let mut a = Attribute::new(n.clone(), *t);
            a.required = *n == table.table.partition_key.name
                || table.table.sort_key.as_ref().is_some_and(|s| s.name == *n);
            a
        })
        .collect();
    Entity {
        name,
        table: table.table.name.clone(),
        description: String::new(),
        attributes,
        keys: BTreeMap::new(),
        volume: None,
    }
}

fn facet_entity(
    ctx: &Context<'_>,
    facet: &Facet,
    entity_names: &mut Vec<String>,
    notes: &mut Vec<String>,
) -> Entity {
    let name = unique_name(&facet.name, entity_names);
    let items: Vec<&Item> = facet.items.iter().collect();
    build_entity(
        ctx,
        name,
        &items,
        facet.partition_alias.as_deref(),
        facet.sort_alias.as_deref(),
        &facet.attributes,
        notes,
    )
}

/// The items grouped by the value of the entity-type attribute `attr`, in order of first
/// appearance.
fn by_entity_type<'a>(items: &'a [Item], attr: &str) -> Vec<(String, Vec<&'a Item>)> {
    let mut groups: Vec<(String, Vec<&Item>)> = Vec::new();
    let mut group_of: HashMap<&str, usize> = HashMap::new();
    for item in items {
        let value = item
            .get(attr)
            .and_then(AttributeValue::as_key_text)
            .unwrap_or_default();
        let group = *group_of.entry(value).or_insert_with(|| {
            groups.push((value.to_string(), Vec::new()));
            groups.len() - 1
        });
        groups[group].1.push(item);
    }
    groups
}

/// The words of the table's attributes named as ids (declared ones first, then the items'
/// in order of first appearance), for [`Words::expand`].
fn attribute_words(table: &WorkbenchTable) -> Words {
    let mut words = Words::default();
    let mut seen: std::collections::HashSet<&str> = std::collections::HashSet::new();
    let declared = table.declared.iter().map(|(n, _)| n.as_str());
    let keys = table
        .table
        .key_attributes()
        .into_iter()
        .map(|k| k.name.as_str());
    // An item with the names of the one before it adds none: a run of an entity's items is
    // compared name by name, where hashing every item's names into `seen` was a fifth of a
    // 32 MB model's inference (issue 15).
    let mut previous: Option<&Item> = None;
    let held = table
        .items
        .iter()
        .chain(table.facets.iter().flat_map(|f| f.items.iter()))
        .filter(move |item| {
            let same = previous.is_some_and(|p| p.keys().eq(item.keys()));
            previous = Some(item);
            !same
        })
        .flat_map(|item| item.keys().map(String::as_str));
    for name in declared.chain(keys).chain(held) {
        if seen.insert(name) {
            words.attribute(name);
        }
    }
    words
}

/// The tag leading the last tagged part of the table keys of an entity's first item, its
/// identity: `shp` for `PK = o#1, SK = shp#2`, `c` for `PK = c#1, SK = c#1`.
fn identity_tag<'a>(
    table: &WorkbenchTable,
    mut items: impl Iterator<Item = &'a Item>,
) -> Option<&'a str> {
    let item = items.next()?;
    let last_tag = |key: &KeyAttribute| {
        let value = item.get(&key.name)?.as_key_text()?;
        let (segments, _) = split(value);
        segments
            .windows(2)
            .rev()
            .find(|pair| is_word(pair[0]) && !pair[1].is_empty())
            .map(|pair| pair[0])
    };
    table
        .table
        .sort_key
        .as_ref()
        .and_then(last_tag)
        .or_else(|| last_tag(&table.table.partition_key))
}

/// The attribute every item has, with text values, whose name says it is the entity type.
fn entity_type_attribute(items: &[Item]) -> Option<String> {
    let first = items.first()?;
    let mut candidates: Vec<(usize, &String)> = first
        .keys()
        .filter_map(|name| {
            let norm = normalise(name);
            ENTITY_TYPE_ATTRIBUTES
                .iter()
                .position(|c| *c == norm)
                .map(|rank| (rank, name))
        })
        .collect();
    candidates.sort();
    candidates
        .into_iter()
        .map(|(_, name)| name)
        .find(|name| {
            items
                .iter()
                .all(|item| matches!(item.get(*name), Some(AttributeValue::S(_))))
        })
        .cloned()
}

/// Groups the items by the shape of their table keys, in order of first appearance, each with
/// an entity name guessed from the keys' tags and the word it was made from (`UInfo` and `U`
/// when two groups share the tag `u`).
fn group_by_shape<'a>(ctx: &Context<'a>) -> Vec<(String, String, Vec<&'a Item>)> {
    let table = &ctx.table.table;
    let pk = table.partition_key.name.as_str();
    let sk = table.sort_key.as_ref().map(|k| k.name.as_str());
    // Each group: its key shapes, the first item's shapes with attributes (for naming), items.
    let mut groups: Vec<(Vec<Shape>, Vec<Shape>, Vec<&'a Item>)> = Vec::new();
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
    for item in &ctx.table.items {
        std::mem::swap(&mut previous, &mut tokens);
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
                    |segment: &str| has_matching_attribute(ctx, &texts, segment, key).then_some(());
                tokens.push(match reader.read(segment, held) {
                    Reading::Literal => ShapeToken::Literal(segment),
                    Reading::Placeholder(_) | Reading::Var(_) => ShapeToken::Var,
                });
            });
        }
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
                previous_group = Some(groups.len());
                groups.push((shapes, named, vec![item]));
            }
        }
    }
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

/// An entity name from the shapes of its partition and sort keys: a tag after the partition
/// key's variable (`u#{...}#follower`), a tag leading the sort key (`comm#{...}`) that differs
/// from the partition key's, the partition key's tag, or the partition variable's attribute.
fn shape_name(words: &Words, shapes: &[Shape]) -> String {
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

/// Builds one entity from its items (and a facet's aliases and attribute list).
fn build_entity(
    ctx: &Context<'_>,
    name: String,
    items: &[&Item],
    partition_alias: Option<&str>,
    sort_alias: Option<&str>,
    facet_attributes: &[String],
    notes: &mut Vec<String>,
) -> Entity {
    let table = &ctx.table.table;
    let mut keys: BTreeMap<String, KeyTemplate> = BTreeMap::new();
    let mut attributes: Vec<Attribute> = Vec::new();
    let mut templated: Vec<String> = Vec::new();

    // The table's keys, then every overloaded index key the items (or the facet) carry.
    let mut key_list: Vec<(&KeyAttribute, Option<&str>)> =
        vec![(&table.partition_key, partition_alias)];
    if let Some(sk) = &table.sort_key {
        key_list.push((sk, sort_alias));
    }
    for gsi in &table.gsis {
        for key in gsi.partition_key.iter().chain(&gsi.sort_key) {
            if is_key_like(&key.name) && !key_list.iter().any(|(k, _)| k.name == key.name) {
                key_list.push((key, None));
            }
        }
    }
    for lsi in &table.lsis {
        if is_key_like(&lsi.sort_key.name)
            && !key_list.iter().any(|(k, _)| k.name == lsi.sort_key.name)
        {
            key_list.push((&lsi.sort_key, None));
        }
    }

    // The items in runs of the same attribute names, which hold the same keys: an entity's
    // items come in runs, and a lookup or a count per attribute of each of a 32 MB model's
    // 400,000 items was a fifth of its inference (issue 15).
    let mut runs: Vec<std::ops::Range<usize>> = Vec::new();
    for (i, item) in items.iter().enumerate() {
        match runs.last_mut() {
            Some(run) if items[run.start].keys().eq(item.keys()) => run.end = i + 1,
            _ => runs.push(i..i + 1),
        }
    }

    // Each variable's values by item, to tell one attribute used twice (`c#{cId}` in PK and
    // SK) from two that only share a name (`u#{uId}#follower` and `u#{uId}`).
    let mut variables: Vec<(String, Vec<(usize, String)>)> = Vec::new();
    for (key, alias) in key_list {
        let is_table_key = key.name == table.partition_key.name
            || table.sort_key.as_ref().is_some_and(|s| s.name == key.name);
        let carried: Vec<(usize, &Item)> = runs
            .iter()
            .filter(|run| items[run.start].contains_key(&key.name))
            .flat_map(|run| run.clone().map(|i| (i, items[i])))
            .collect();
        let inferred = if !carried.is_empty() {
            infer_template(ctx, key, &carried, alias)
        } else if items.is_empty() && (is_table_key || facet_attributes.contains(&key.name)) {
            alias_template(key, alias)
        } else {
            Inferred::Absent
        };
        // Items of several shapes under one facet: the facet's alias, when it has a shape of
        // its own (`EQUIPMENTS#EquipID`), says which one the entity means.
        let inferred = match inferred {
            Inferred::Mixed => match alias_template(key, alias) {
                template @ Inferred::Template(_) => {
                    notes.push(format!(
                        "entity {name}: the items' `{}` values have different shapes; the template follows the facet's alias `{}`",
                        key.name,
                        alias.unwrap_or_default()
                    ));
                    template
                }
                _ => Inferred::Mixed,
            },
            other => other,
        };
        match inferred {
            Inferred::Absent => {}
            Inferred::Natural => {
                push_attribute(
                    &mut attributes,
                    &key.name,
                    AttrType::from(key.ty),
                    is_table_key || carried.len() == items.len(),
                );
            }
            Inferred::Template(mut pieces) => {
                for piece in &pieces {
                    if let Piece::Shard { count, .. } = piece {
                        notes.push(format!(
                            "entity {name}: `{}` is write-sharded; {count} shards is one more than the largest shard number in the items, so check it against the writers",
                            key.name
                        ));
                    }
                }
                for piece in &mut pieces {
                    let Piece::Var { name, ty, values } = piece else {
                        continue;
                    };
                    // Another key's variable of this name that an item fills differently.
                    // By item index through a map: comparing every pair of values made an
                    // 80,000-item model take 20 s (issue 12's storage test).
                    let clash = |n: &str| {
                        variables.iter().any(|(other, other_values)| {
                            other == n && {
                                let by_item: HashMap<usize, &String> =
                                    other_values.iter().map(|(j, w)| (*j, w)).collect();
                                values
                                    .iter()
                                    .any(|(i, v)| by_item.get(i).is_some_and(|w| *w != v))
                            }
                        }) || ctx.key_attributes.iter().any(|k| k == n && is_key_like(k))
                            || n == table.partition_key.name
                            || table.sort_key.as_ref().is_some_and(|s| s.name == n)
                    };
                    if clash(name) {
                        let base = name.clone();
                        let mut n = 2;
                        while clash(&format!("{base}{n}"))
                            || variables.iter().any(|(o, _)| *o == format!("{base}{n}"))
                        {
                            n += 1;
                        }
                        *name = format!("{base}{n}");
                    }
                    match variables.iter_mut().find(|(o, _)| o == name) {
                        Some((_, known)) => known.extend(values.iter().cloned()),
                        None => variables.push((name.clone(), values.clone())),
                    }
                    let ty = ctx.declared_type(name).unwrap_or(*ty);
                    push_attribute(&mut attributes, name, ty, true);
                }
                keys.insert(key.name.clone(), KeyTemplate::parse(&render(&pieces)));
                templated.push(key.name.clone());
            }
            Inferred::Mixed => {
                push_attribute(&mut attributes, &key.name, AttrType::from(key.ty), true);
                notes.push(format!(
                    "entity {name}: the items' `{}` values have different shapes, so the key is kept as the attribute `{}`",
                    key.name, key.name
                ));
            }
        }
    }

    // The other attributes: the facet's list, or what the items hold, in declared order. One
    // pass over the runs counts the items holding each attribute and keeps the type of its
    // first value, which a run's first item holds (a pass per attribute took seconds on an
    // item-heavy model).
    let mut held: BTreeMap<&str, (usize, AttrType)> = BTreeMap::new();
    for run in &runs {
        for (attr, value) in items[run.start] {
            held.entry(attr).or_insert((0, AttrType::of(value))).0 += run.len();
        }
    }
    let mut names: Vec<String> = facet_attributes.to_vec();
    for (declared, _) in &ctx.table.declared {
        if held.contains_key(declared.as_str()) && !names.contains(declared) {
            names.push(declared.clone());
        }
    }
    let extra: Vec<String> = held
        .keys()
        .filter(|k| !names.iter().any(|n| n == *k))
        .map(|k| k.to_string())
        .collect();
    names.extend(extra);
    for attr in names {
        if templated.contains(&attr)
            || attr == table.partition_key.name
            || table.sort_key.as_ref().is_some_and(|s| s.name == attr)
        {
            continue;
        }
        let held = held.get(attr.as_str());
        let ty = ctx
            .declared_type(&attr)
            .unwrap_or_else(|| held.map(|(_, ty)| *ty).unwrap_or_default());
        let required = !items.is_empty() && held.is_some_and(|(n, _)| *n == items.len());
        push_attribute(&mut attributes, &attr, ty, required);
    }

    Entity {
        name,
        table: table.name.clone(),
        description: String::new(),
        attributes,
        keys,
        volume: None,
    }
}

fn push_attribute(attributes: &mut Vec<Attribute>, name: &str, ty: AttrType, required: bool) {
    if attributes.iter().any(|a| a.name == name) {
        return;
    }
    let mut attribute = Attribute::new(name, ty);
    attribute.required = required;
    attributes.push(attribute);
}

// ---------------------------------------------------------------------------------------------
// Templates from key values

/// The template inferred for one key attribute of one entity.
enum Inferred {
    /// No item of the entity has the attribute: the entity is absent from that index.
    Absent,
    /// The attribute is a plain attribute of the entity (its own name).
    Natural,
    /// A template.
    Template(Vec<Piece>),
    /// The items disagree on the key's shape.
    Mixed,
}

/// A piece of an inferred template.
#[derive(Debug, Clone)]
enum Piece {
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

fn render(pieces: &[Piece]) -> String {
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

fn push_literal(pieces: &mut Vec<Piece>, text: &str) {
    if let Some(Piece::Literal(l)) = pieces.last_mut() {
        l.push_str(text);
    } else if !text.is_empty() {
        pieces.push(Piece::Literal(text.to_string()));
    }
}

/// A piece of a classified key value.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Slot {
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
struct Classified {
    slots: Vec<Slot>,
    separators: Vec<char>,
}

/// The shape of a classified value: its separators, literals and where its variables are.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
struct Shape {
    slots: Vec<ShapeSlot>,
    separators: Vec<char>,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum ShapeSlot {
    Literal(String),
    /// A variable, with the attribute that names it when there is one (this keeps
    /// `{State}#{Date}` apart from a tag-led key of the same length).
    Var(Option<String>),
}

impl Classified {
    /// The shape, without the variables' attributes: what items of one entity share.
    fn shape(&self) -> Shape {
        self.shape_with(|_| None)
    }

    /// The shape with the attribute each variable matched, for naming.
    fn named_shape(&self) -> Shape {
        self.shape_with(Option::clone)
    }

    /// The shape, each variable's attribute given by `attribute` (built directly: cloning the
    /// named shape and then clearing it cost every item of an item-heavy model twice).
    fn shape_with(&self, attribute: impl Fn(&Option<String>) -> Option<String>) -> Shape {
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
    fn leading_tag(&self) -> Option<String> {
        let first = self.slots.iter().find(|s| !is_empty_literal(s))?;
        match first {
            ShapeSlot::Literal(l) if is_word(l) => Some(l.clone()),
            _ => None,
        }
    }

    /// A literal word after the last variable (`u#{...}#follower`).
    fn trailing_tag(&self) -> Option<String> {
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
    fn first_literal_word(&self) -> Option<String> {
        self.slots.iter().find_map(|s| match s {
            ShapeSlot::Literal(l) => {
                let word: String = l.chars().filter(|c| c.is_alphanumeric()).collect();
                (!word.is_empty()).then_some(word)
            }
            ShapeSlot::Var(_) => None,
        })
    }
}

fn is_empty_literal(slot: &ShapeSlot) -> bool {
    matches!(slot, ShapeSlot::Literal(l) if l.is_empty())
}

/// Splits a key value at `#`, `|`, and `:` after a letter (`User:UserA`, not `12:00`).
fn split(value: &str) -> (Vec<&str>, Vec<char>) {
    let mut segments = Vec::new();
    let mut separators = Vec::new();
    split_into(value, &mut segments, &mut separators);
    (segments, separators)
}

/// [`split`] into buffers, which are cleared first.
fn split_into<'v>(value: &'v str, segments: &mut Vec<&'v str>, separators: &mut Vec<char>) {
    segments.clear();
    separators.clear();
    split_each(value, |separator, segment| {
        separators.extend(separator);
        segments.push(segment);
    });
}

/// [`split`], each segment handed to `each` with the separator before it (`None` for the
/// first).
fn split_each<'v>(value: &'v str, mut each: impl FnMut(Option<char>, &'v str)) {
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
fn is_word(text: &str) -> bool {
    !text.is_empty() && text.chars().all(|c| c.is_alphabetic() || c == '_')
}

fn placeholder(segment: &str) -> Option<&str> {
    let inner = segment
        .strip_prefix('<')
        .and_then(|s| s.strip_suffix('>'))
        .or_else(|| segment.strip_prefix('{').and_then(|s| s.strip_suffix('}')))?;
    (!inner.is_empty()).then_some(inner)
}

/// Classifies one key value of one item.
fn classify(ctx: &Context<'_>, value: &str, item: &Item, key: &str) -> Classified {
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
enum Reading<'v, A> {
    Literal,
    /// A `<name>` placeholder: a variable named so.
    Placeholder(&'v str),
    /// A variable, with the attribute found holding it.
    Var(Option<A>),
}

/// [`classify`]'s reading of each of `segments` into `readings` (cleared first), `attribute`
/// finding the item attribute that holds a segment where that decides. One procedure for the
/// full classification and the grouping's (which needs only whether there is one).
fn read_segments<'v, A>(
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
struct SegmentReader {
    /// Whether the last slot that is not an empty literal is a variable.
    previous_is_var: Option<bool>,
}

impl SegmentReader {
    fn read<'v, A>(
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
enum ShapeToken<'v> {
    Key,
    Literal(&'v str),
    Var,
    Separator(char),
}

/// Whether [`matching_attribute`] finds an attribute, without naming it, among an item's
/// attributes with text values (`texts`, name and text): the item's attributes are the
/// declared ones it holds and its others, so every one is tried, in any order.
fn has_matching_attribute(
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
fn is_one_letter(segment: &str) -> bool {
    let mut chars = segment.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_') && chars.next().is_none()
}

/// The item attribute (other than keys) whose value is exactly `segment`, in declared order.
fn matching_attribute(ctx: &Context<'_>, item: &Item, segment: &str, key: &str) -> Option<String> {
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

/// The most items of one entity a key's template is inferred from: more are read from an
/// evenly spread subset of this many. Classifying every key value of an 80,000-item model
/// took seconds, and a template is settled long before (the corpus's models hold at most 19
/// items per table, and a live table's sample is 1,000 items by default).
const TEMPLATE_SAMPLE: usize = 1_000;

/// At most `limit` (2 or more) of `items`, evenly spread from the first to the last.
fn evenly_spread<T: Copy>(items: &[T], limit: usize) -> Vec<T> {
    if items.len() <= limit {
        return items.to_vec();
    }
    (0..limit)
        .map(|k| items[k * (items.len() - 1) / (limit - 1)])
        .collect()
}

/// Infers the template of `key` from the values the items hold. `items` are the entity's
/// items with their index in the entity; at most [`TEMPLATE_SAMPLE`] of them are classified.
fn infer_template(
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
    if classified.iter().any(|(_, c)| c.shape() != shape) {
        return Inferred::Mixed;
    }
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
    Inferred::Template(pieces)
}

/// The most write shards a sampled key is read as: larger numbers are ids, not shards.
const MAX_SHARDS: u32 = 1000;

/// When every value is one word ending in `shard` followed by a small number (`SHARD3`,
/// `shard_7`), the word and the shard count: one more than the largest number seen, which is
/// the design's count when the sample holds an item of the last shard.
fn write_shard<'v>(values: impl IntoIterator<Item = &'v str>) -> Option<(String, u32)> {
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
fn alias_names(alias: &str, n_slots: usize, var_positions: &[usize]) -> Vec<Option<String>> {
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
fn name_variable(
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
        return id_name(&ctx.words.expand(&tag).unwrap_or(tag));
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
fn vote(values: impl Iterator<Item = String>) -> Option<String> {
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
fn alias_template(key: &KeyAttribute, alias: Option<&str>) -> Inferred {
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

// ---------------------------------------------------------------------------------------------
// Names

/// Lower case with `_`, `-` and other punctuation removed.
fn normalise(name: &str) -> String {
    name.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// Whether an attribute name is an overloaded key (`PK`, `GSI1-SK`, `gsi2pk`) rather than a
/// natural attribute (`customer_id`).
fn is_key_like(name: &str) -> bool {
    let n = normalise(name);
    n == "pk"
        || n == "sk"
        || n.ends_with("pk")
        || n.ends_with("sk")
        || n.starts_with("gsi")
        || n.starts_with("lsi")
        || matches!(
            n.as_str(),
            "partitionkey" | "sortkey" | "hashkey" | "rangekey" | "id"
        )
}

/// `ORDER_ITEM` -> `OrderItem`, `orderItem` -> `OrderItem`, `c` -> `C`; never empty.
fn pascal(name: &str) -> String {
    let out = crate::casing::pascal(name);
    if out.is_empty() {
        "Item".to_string()
    } else {
        out
    }
}

/// `ORDER_ITEM` -> `orderItem`, `User` -> `user`.
fn camel(name: &str) -> String {
    crate::casing::camel(name)
}

/// The variable name for the value after a tag: `USER` -> `userId`, `suuid` -> `suuid`.
fn id_name(tag: &str) -> String {
    let c = camel(tag);
    if c.to_lowercase().ends_with("id") {
        c
    } else {
        format!("{c}Id")
    }
}

/// `complaint_id` -> `complaint`, `userId` -> `user`.
fn strip_id(name: &str) -> &str {
    for suffix in ["_id", "-id", "Id", "ID", "_ID"] {
        if let Some(stem) = name.strip_suffix(suffix)
            && !stem.is_empty()
        {
            return stem;
        }
    }
    name
}

/// `2020-04-24T14:40:00`, `2023-05-18`.
fn looks_like_date(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() >= 10
        && b[..4].iter().all(u8::is_ascii_digit)
        && b[4] == b'-'
        && b[5..7].iter().all(u8::is_ascii_digit)
        && b[7] == b'-'
        && b[8..10].iter().all(u8::is_ascii_digit)
}
