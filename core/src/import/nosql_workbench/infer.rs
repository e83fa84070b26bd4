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

mod build;
mod classify;
mod group;
mod names;
mod template;
mod words;

use build::*;
use classify::*;
use group::*;
use names::*;
use template::*;
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
    /// The table's attribute names, each once (see [`attribute_names`]).
    attribute_names: Vec<&'a str>,
    /// The table's attribute names by their [`normalise`]d form, for [`Context::spelled`].
    spellings: OnceCell<HashMap<String, &'a str>>,
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

    /// `name` as the table's attributes spell it, when one of them is `name` written another way
    /// (`company_id` for `companyId`): a variable named from a key's tag keeps the author's
    /// spelling (issue 36).
    fn spelled(&self, name: String) -> String {
        let spellings = self.spellings.get_or_init(|| {
            // Never a key's own name: a key's variable is not the key.
            let keys = |a: &str| is_key_like(a) || self.key_attributes.iter().any(|k| k == a);
            let mut spellings: HashMap<String, &'a str> = HashMap::new();
            for &attribute in self.attribute_names.iter().filter(|a| !keys(a)) {
                spellings.entry(normalise(attribute)).or_insert(attribute);
            }
            spellings
        });
        match spellings.get(&normalise(&name)) {
            Some(spelled) => spelled.to_string(),
            None => name,
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

/// An attribute whose sample values are of two types (and no declared type): its entity, the
/// first two types, and the item that holds the second, for the import to place and say.
pub(crate) struct MixedType<'a> {
    pub(crate) entity: String,
    pub(crate) attribute: String,
    pub(crate) types: (AttrType, AttrType),
    pub(crate) item: &'a Item,
}

/// What inference finds beside the entities: notes, and attributes of mixed types.
pub(super) struct Found<'a, 'n> {
    notes: &'n mut Vec<String>,
    mixed: Vec<MixedType<'a>>,
}

/// The entities of `table`, and each attribute whose sample values are of two types.
pub(super) fn infer_entities<'a>(
    table: &'a WorkbenchTable,
    entity_names: &mut Vec<String>,
    notes: &mut Vec<String>,
) -> (Vec<Entity>, Vec<MixedType<'a>>) {
    let mut found = Found {
        notes,
        mixed: Vec::new(),
    };
    let entities = entities(table, entity_names, &mut found);
    (entities, found.mixed)
}

fn entities<'a>(
    table: &'a WorkbenchTable,
    entity_names: &mut Vec<String>,
    found: &mut Found<'a, '_>,
) -> Vec<Entity> {
    let mut key_attributes: Vec<String> = Vec::new();
    for key in table.table.key_attributes() {
        key_attributes.push(key.name.clone());
    }
    let attribute_names = attribute_names(table);
    let mut ctx = Context {
        table,
        entity_type_attribute: None,
        key_attributes,
        by_value: OnceCell::new(),
        may_name_by_attribute: RefCell::new(HashMap::new()),
        words: attribute_words(&attribute_names),
        attribute_names,
        spellings: OnceCell::new(),
    };
    if !table.facets.is_empty() {
        for facet in &table.facets {
            ctx.words
                .entity(&facet.name, identity_tag(table, facet.items.iter()));
        }
        let entities = table
            .facets
            .iter()
            .map(|facet| facet_entity(&ctx, facet, entity_names, found))
            .collect();
        note_sampled(
            table,
            table.facets.iter().map(|f| f.items.len()),
            found.notes,
        );
        return entities;
    }
    if table.items.is_empty() {
        return vec![bare_entity(table, entity_names)];
    }
    ctx.entity_type_attribute = entity_type_attribute(&table.items);
    ctx.may_name_by_attribute.borrow_mut().clear();
    let by_type = ctx
        .entity_type_attribute
        .as_deref()
        .map(|attr| by_entity_type(&table.items, attr));
    if let (Some(attr), Some(groups)) = (&ctx.entity_type_attribute, &by_type)
        && !values_name_types(&ctx, groups)
    {
        let values: Vec<&str> = groups.iter().take(4).map(|(v, _)| v.as_str()).collect();
        found.notes.push(format!(
            "table {}: the `{attr}` attribute's values ({}{}) are not entity types (their items' keys have one shape and no value is a key's tag), so they split no entities",
            table.table.name,
            values.join(", "),
            if groups.len() > values.len() { ", ..." } else { "" },
        ));
        ctx.entity_type_attribute = None;
        ctx.may_name_by_attribute.borrow_mut().clear();
    }
    let groups: Vec<(String, Vec<&Item>)> = match (&ctx.entity_type_attribute, by_type) {
        (Some(_), Some(groups)) => {
            for (name, items) in &groups {
                ctx.words
                    .entity(name, identity_tag(table, items.iter().copied()));
            }
            groups
        }
        _ => {
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
        entities.push(build_entity(&ctx, name, &items, (None, None), &[], found));
        sizes.push(items.len());
    }
    let notes = &mut *found.notes;
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

fn facet_entity<'a>(
    ctx: &Context<'a>,
    facet: &'a Facet,
    entity_names: &mut Vec<String>,
    found: &mut Found<'a, '_>,
) -> Entity {
    let name = unique_name(&facet.name, entity_names);
    let items: Vec<&Item> = facet.items.iter().collect();
    build_entity(
        ctx,
        name,
        &items,
        (
            facet.partition_alias.as_deref(),
            facet.sort_alias.as_deref(),
        ),
        &facet.attributes,
        found,
    )
}

/// Whether `tag` is `word` or stands for it (both normalised): it starts with the word's first
/// letter and holds some of its letters in order (`c` and `cust` for `customer`).
fn abbreviates(tag: &str, word: &str) -> bool {
    let mut letters = word.chars();
    tag.chars().next().is_some_and(|c| word.starts_with(c))
        && tag.chars().all(|c| letters.any(|w| w == c))
}

/// Whether the values of an entity-type attribute (`groups`: the items by value) name entity
/// types rather than a state of one (issue 36: `type` of an order's events is `SHIPPED`,
/// `CREATED`...): the items of different values have keys of different shapes, or a tag of
/// their keys is the value or stands for it (`ORDER#1` or `o#1` for `order`), or the model's
/// `ModelSchema` names every value as a model.
fn values_name_types<'a>(ctx: &Context<'a>, groups: &[(String, Vec<&'a Item>)]) -> bool {
    // The model's own schema names them (issue 36: aws-samples' ACL model, whose user, group,
    // role and privilege items have keys of one shape, `U1`, `G1`).
    let models: Vec<String> = ctx
        .table
        .schema_models
        .iter()
        .map(|m| normalise(m))
        .collect();
    if !models.is_empty()
        && groups
            .iter()
            .all(|(value, _)| models.contains(&normalise(value)))
    {
        return true;
    }
    let mut texts = Vec::new();
    let mut tokens = Vec::new();
    let mut shapes_of_first: Option<std::collections::HashSet<Vec<ShapeToken<'a>>>> = None;
    let mut shapes_differ = false;
    for (value, items) in groups {
        let value = normalise(value);
        let mut shapes = std::collections::HashSet::new();
        // A value's items past [`TEMPLATE_SAMPLE`] tell no more shapes than a spread of them:
        // reading the shapes of every item of an 80,000-item model again cost a fifth of its
        // import.
        for item in evenly_spread(items, TEMPLATE_SAMPLE) {
            item_shape(ctx, item, &mut texts, &mut tokens);
            let tagged = tokens
                .iter()
                .any(|t| matches!(t, ShapeToken::Literal(w) if abbreviates(&normalise(w), &value)));
            if tagged {
                return true;
            }
            if !shapes.contains(tokens.as_slice()) {
                shapes.insert(tokens.clone());
            }
        }
        match &shapes_of_first {
            None => shapes_of_first = Some(shapes),
            Some(first) => shapes_differ |= *first != shapes,
        }
    }
    shapes_differ
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

/// The table's attribute names, each once: declared ones first, then the keys, then the items'
/// in order of first appearance. An item with the names of the one before it adds none: a run
/// of an entity's items is compared name by name, where hashing every item's names into a set
/// was a fifth of a 32 MB model's inference (issue 15).
fn attribute_names(table: &WorkbenchTable) -> Vec<&str> {
    let mut seen: std::collections::HashSet<&str> = std::collections::HashSet::new();
    let declared = table.declared.iter().map(|(n, _)| n.as_str());
    let keys = table
        .table
        .key_attributes()
        .into_iter()
        .map(|k| k.name.as_str());
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
    declared
        .chain(keys)
        .chain(held)
        .filter(|name| seen.insert(name))
        .collect()
}

/// The words of the table's attributes named as ids, for [`Words::expand`].
fn attribute_words(names: &[&str]) -> Words {
    let mut words = Words::default();
    for name in names {
        words.attribute(name);
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

#[cfg(test)]
mod tests;
