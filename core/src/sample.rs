//! Sample data: believable items for every entity of a design, the same for the same seed.
//!
//! Values are chosen by attribute type, name and hints (ids, emails, names, ISO-8601
//! timestamps in a plausible order, enum values, numbers in ranges by name, nested maps and
//! lists). Relationships follow shared key variables: a variable is owned by the entity whose
//! primary key ends with it (`customerId` by Customer, `orderId` by Order), and every other
//! entity carrying that variable takes it from an existing owner item, so every Order's
//! `customerId` is a real Customer's. Every key attribute of the table and its indexes is
//! rendered from the entity's template, write shards included; an entity with no template for
//! an index's key is absent from it (sparse). Items imported with the design are kept, used as
//! parents, and stand in for generated items of their table unless a count asks for more.
//! Items written by hand (`hand`) are put last, as PutItem puts them, and are no parents.
//!
//! Generation is a pure function of the design and the [`SampleConfig`]: no clock, no OS
//! randomness (the PRNG is seeded from the config), so it runs the same in the browser.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde::Serialize;

/// Where the sample's counts have long been grouped from; the rule lives in [`crate::counts`].
pub use crate::counts::thousands;
use crate::eval::{LoadItem, render_key_in};
use crate::fast_hash::FastHashSet;
use crate::item::{AttributeValue, Item};
use crate::model::{AttrType, Attribute, Design, Entity, KeyAttribute, KeyType};
use crate::template::{KeyTemplate, Part};

mod hand;
mod values;
/// A time as the sample writes it (and the kept-tables listing shows it): `2025-03-14T09:26:53Z`.
pub use values::iso_datetime;

pub use hand::{Misfit, misfits};

/// How many items an entity with no parent gets by default.
pub const DEFAULT_ROOT_COUNT: u32 = 10;
/// How many items per parent item a child entity gets by default.
pub const DEFAULT_CHILDREN_PER_PARENT: u32 = 3;
/// The most items a sample may have from the browser and the API (a run's items), and by
/// default on the command line: about 0.7 GB of a run's memory (issue 13).
pub const MAX_SAMPLE_ITEMS: u64 = 100_000;
/// Shard numbers below this have their text made once per sample (see [`generate`]).
const SHARD_TEXTS: u32 = 32;

/// What to generate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SampleConfig {
    pub seed: u64,
    /// Items per entity, by entity name; entities not named get the defaults.
    pub counts: BTreeMap<String, u32>,
}

impl Default for SampleConfig {
    fn default() -> Self {
        SampleConfig {
            seed: 1,
            counts: BTreeMap::new(),
        }
    }
}

impl SampleConfig {
    /// These counts, and this seed when there is one (else the default seed: the app's).
    pub fn new(counts: BTreeMap<String, u32>, seed: Option<u64>) -> SampleConfig {
        let default = SampleConfig::default();
        SampleConfig {
            seed: seed.unwrap_or(default.seed),
            counts,
        }
    }
}

/// One sample item and where it belongs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SampleItem {
    pub table: String,
    /// The entity the item is of; `None` for an imported item no entity's keys match.
    pub entity: Option<String>,
    pub item: Item,
}

/// The sample: imported items first, then the generated ones entity by entity (parents
/// before children).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct SampleData {
    pub items: Vec<SampleItem>,
}

impl SampleData {
    /// How many items of `entity` there are.
    pub fn count(&self, entity: &str) -> usize {
        self.items
            .iter()
            .filter(|i| i.entity.as_deref() == Some(entity))
            .count()
    }

    /// The items as the evaluator loads them.
    pub fn load_items(&self) -> impl Iterator<Item = LoadItem> + '_ {
        self.items.iter().map(|i| LoadItem {
            table: i.table.clone(),
            entity: i.entity.clone(),
            item: i.item.clone(),
        })
    }

    /// [`SampleData::load_items`] for a sample no longer needed: the items are moved into the
    /// store, not copied and then dropped with the sample.
    pub fn into_load_items(self) -> impl Iterator<Item = LoadItem> {
        self.items.into_iter().map(|i| LoadItem {
            table: i.table,
            entity: i.entity,
            item: i.item,
        })
    }
}

/// The table key attributes of `entity` in order (partition, then sort) with its templates.
fn primary_templates<'a>(
    design: &'a Design,
    entity: &'a Entity,
) -> Vec<(String, KeyType, KeyTemplate)> {
    let Some(table) = design.table(&entity.table) else {
        return Vec::new();
    };
    table
        .primary_key()
        .filter_map(|k| {
            entity
                .key_template(&k.name)
                .map(|t| (k.name.clone(), k.ty, t.into_owned()))
        })
        .collect()
}

/// The attribute variables of `entity`'s primary key, in order.
fn primary_vars(design: &Design, entity: &Entity) -> Vec<String> {
    let mut out = Vec::new();
    let Some(table) = design.table(&entity.table) else {
        return out;
    };
    // The templates borrowed, not copied as [`primary_templates`] gives them.
    for key in table.primary_key() {
        let Some(template) = entity.key_template(&key.name) else {
            continue;
        };
        for var in template.attribute_vars() {
            if !out.contains(&var.name) {
                out.push(var.name.clone());
            }
        }
    }
    out
}

/// A table's key attributes ([`Table::key_attributes`](crate::model::Table::key_attributes)),
/// and each one's position among them by name.
struct KeyList<'a> {
    keys: Vec<&'a KeyAttribute>,
    positions: HashMap<&'a str, usize>,
}

impl KeyList<'_> {
    /// The positions of the keys among `names`, in key order, each once: an entity's few
    /// templates and attributes are looked up among the keys, not the 42 keys of a table with
    /// 20 GSIs in each entity (issue 13).
    fn positions<'n>(&self, names: impl Iterator<Item = &'n String>) -> Vec<usize> {
        let mut out: Vec<usize> = names
            .filter_map(|name| self.positions.get(name.as_str()).copied())
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The keys `entity` has a template for ([`Entity::key_template`]: its own, or the
    /// attribute of the key's name), in key order.
    fn templated(&self, entity: &Entity) -> impl Iterator<Item = &KeyAttribute> + '_ {
        let names = entity
            .keys
            .keys()
            .chain(entity.attributes.iter().map(|a| &a.name));
        self.positions(names).into_iter().map(|at| self.keys[at])
    }
}

/// Each table's [`KeyList`], by table name (the first table of a name, as [`Design::table`]
/// finds): listed once for the design, not once per entity (a table with 20 GSIs has 42 keys).
fn key_lists(design: &Design) -> BTreeMap<&str, KeyList<'_>> {
    let mut out = BTreeMap::new();
    for table in &design.tables {
        out.entry(table.name.as_str()).or_insert_with(|| {
            let keys = table.key_attributes();
            let positions = keys
                .iter()
                .enumerate()
                .map(|(at, key)| (key.name.as_str(), at))
                .collect();
            KeyList { keys, positions }
        });
    }
    out
}

/// Every variable `entity` needs a value for: its attributes, then any variable its key
/// templates use that is not an attribute. `key_lists` is [`key_lists`] of the design.
fn all_vars(key_lists: &BTreeMap<&str, KeyList<'_>>, entity: &Entity) -> Vec<Attribute> {
    let mut out: Vec<Attribute> = entity.attributes.clone();
    if let Some(list) = key_lists.get(entity.table.as_str()) {
        for at in list.positions(entity.keys.keys()) {
            if let Some(template) = entity.keys.get(&list.keys[at].name) {
                for var in template.attribute_vars() {
                    if !out.iter().any(|a| a.name == var.name) {
                        let mut attribute = Attribute::new(&var.name, AttrType::S);
                        attribute.required = true;
                        out.push(attribute);
                    }
                }
            }
        }
    }
    out
}

/// The relationships of a design: for each entity, its parents and the variables it takes
/// from each.
#[derive(Debug, Clone)]
struct Relations {
    /// Per entity index: (parent entity index, the variables shared with it).
    parents: Vec<Vec<(usize, Vec<String>)>>,
    /// Entity indexes, parents before children (cycles broken in design order).
    order: Vec<usize>,
    /// Per entity index: [`all_vars`], in the order generation gives them values.
    vars: Vec<Vec<Attribute>>,
    /// Per entity index: [`primary_vars`].
    keys: Vec<Vec<String>>,
}

fn relations(design: &Design) -> Relations {
    let n = design.entities.len();
    let keys: Vec<Vec<String>> = design
        .entities
        .iter()
        .map(|e| primary_vars(design, e))
        .collect();
    // A variable's owner: the first entity whose identity it is.
    let identities: Vec<Option<String>> = design
        .entities
        .iter()
        .map(|e| design.table(&e.table).and_then(|t| e.identity(t)))
        .collect();
    let mut owners: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, identity) in identities.iter().enumerate() {
        if let Some(identity) = identity {
            owners.entry(identity.as_str()).or_insert(i);
        }
    }
    let key_lists = key_lists(design);
    let vars: Vec<Vec<Attribute>> = design
        .entities
        .iter()
        .map(|e| all_vars(&key_lists, e))
        .collect();
    let names: Vec<BTreeSet<&str>> = vars
        .iter()
        .map(|v| v.iter().map(|a| a.name.as_str()).collect())
        .collect();
    // Candidate edges (child, parent, variable), each parent once per child; a child's edges
    // are next to each other.
    let mut edges: Vec<(usize, usize, &str)> = Vec::new();
    for (i, attributes) in vars.iter().enumerate() {
        let first_of_child = edges.len();
        for attribute in attributes {
            if !attribute.values.is_empty() {
                continue;
            }
            let Some(&p) = owners.get(attribute.name.as_str()) else {
                continue;
            };
            if p != i && !edges[first_of_child..].iter().any(|(_, q, _)| *q == p) {
                edges.push((i, p, &attribute.name));
            }
        }
    }
    // Two entities that reference each other (a user by `user_id`, its email lookup by
    // `email`): the reference through an id is the real one; the other is dropped.
    let by_id: BTreeSet<(usize, usize)> = edges
        .iter()
        .filter(|(_, _, var)| values::is_id(var))
        .map(|(c, p, _)| (*c, *p))
        .collect();
    let kept: Vec<&(usize, usize, &str)> = edges
        .iter()
        .filter(|(c, p, var)| values::is_id(var) || !by_id.contains(&(*p, *c)))
        .collect();
    let mut parents: Vec<Vec<(usize, Vec<String>)>> = vec![Vec::new(); n];
    for (i, p, _) in kept {
        // The parent's key variables, and the variable the child's own key ends with when the
        // parent holds it too (an email lookup copies its user's email).
        let mut shared: Vec<String> = keys[*p]
            .iter()
            .filter(|v| names[*i].contains(v.as_str()))
            .cloned()
            .collect();
        if let Some(own) = &identities[*i]
            && names[*p].contains(own.as_str())
            && !shared.contains(own)
        {
            shared.push(own.clone());
        }
        parents[*i].push((*p, shared));
    }
    Relations {
        order: parents_first(&parents),
        parents,
        vars,
        keys,
    }
}

/// Entity indexes, parents before children: at each step the first entity (in design order)
/// whose parents are all placed, or, in a cycle, the first not placed (its parents' values are
/// then made up). Kept as sets of the ready and the waiting, not searched for at each step.
fn parents_first(parents: &[Vec<(usize, Vec<String>)>]) -> Vec<usize> {
    let n = parents.len();
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); n];
    // Per entity: how many of its parents (itself aside) are not placed yet.
    let mut waiting: Vec<usize> = vec![0; n];
    for (i, mine) in parents.iter().enumerate() {
        for (p, _) in mine {
            if *p != i {
                children[*p].push(i);
                waiting[i] += 1;
            }
        }
    }
    let mut ready: BTreeSet<usize> = (0..n).filter(|&i| waiting[i] == 0).collect();
    let mut placed = vec![false; n];
    let mut first_unplaced = 0;
    let mut order = Vec::with_capacity(n);
    while order.len() < n {
        let next = match ready.pop_first() {
            Some(i) => i,
            None => {
                while placed[first_unplaced] {
                    first_unplaced += 1;
                }
                first_unplaced
            }
        };
        placed[next] = true;
        order.push(next);
        for &child in &children[next] {
            waiting[child] -= 1;
            if waiting[child] == 0 && !placed[child] {
                ready.insert(child);
            }
        }
    }
    order
}

/// Per entity index, the variables its children copy from its items (empty: no entity is its
/// child, so its items are not kept as parents).
fn parent_vars(relations: &Relations, n_entities: usize) -> Vec<BTreeSet<String>> {
    let mut parent_vars: Vec<BTreeSet<String>> = vec![BTreeSet::new(); n_entities];
    for parents in &relations.parents {
        for (p, shared) in parents {
            parent_vars[*p].extend(shared.iter().cloned());
        }
    }
    parent_vars
}

/// The entity index an imported item of `table` is of, if any, and its name.
fn imported_entity(design: &Design, table: &str, item: &Item) -> (Option<String>, Option<usize>) {
    let entity = identify(design, table, item);
    let index = entity
        .as_deref()
        .and_then(|name| design.entities.iter().position(|x| x.name == name));
    (entity, index)
}

/// How many items a sample will have at most, entity by entity, known before any is made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SamplePlan {
    /// Items imported with the design (kept as they are).
    pub imported: u64,
    /// Every entity with a table, in generation order (parents before children).
    pub entities: Vec<PlannedEntity>,
    /// Imported and generated items together; `u64::MAX` when it does not fit.
    pub total: u64,
}

/// The items one entity will have at most, and where that number comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlannedEntity {
    pub entity: String,
    pub items: u64,
    pub source: CountSource,
}

/// Where an entity's planned count comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CountSource {
    /// The configuration names it.
    Given,
    /// Its table has imported items, which stand in for generated ones.
    Imported,
    /// No parent with items: [`DEFAULT_ROOT_COUNT`].
    Root,
    /// [`DEFAULT_CHILDREN_PER_PARENT`] for each item of this parent.
    PerParent(String),
}

/// A sample that would be larger than allowed: refused before an item is made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "the sample would have {} items, more than the {} allowed: entity `{entity}` alone would take {}{}",
    thousands(*total), thousands(*max), thousands(*items), origin_note(origin)
)]
pub struct TooManyItems {
    /// The entity with the most items: the one to give fewer.
    pub entity: String,
    /// How many items it would take.
    pub items: u64,
    pub origin: CountSource,
    /// The whole sample's items.
    pub total: u64,
    pub max: u64,
}

fn origin_note(origin: &CountSource) -> String {
    match origin {
        CountSource::Given => " (its count)".to_string(),
        CountSource::Imported => " (imported items)".to_string(),
        CountSource::Root => format!(" ({DEFAULT_ROOT_COUNT} by default)"),
        CountSource::PerParent(parent) => {
            format!(" ({DEFAULT_CHILDREN_PER_PARENT} for each item of `{parent}`)")
        }
    }
}

impl SamplePlan {
    /// `Err` naming the largest entity when the sample would have more than `max` items.
    pub fn check(&self, max: u64) -> Result<(), TooManyItems> {
        if self.total <= max {
            return Ok(());
        }
        // The largest, the first of equals (max_by_key keeps the last, hence the reversal).
        let largest = self.entities.iter().rev().max_by_key(|e| e.items);
        Err(TooManyItems {
            entity: largest.map(|e| e.entity.clone()).unwrap_or_default(),
            items: largest.map_or(self.imported, |e| e.items),
            origin: largest.map_or(CountSource::Imported, |e| e.source.clone()),
            total: self.total,
            max,
        })
    }
}

/// How many items [`generate`] makes for `design` and `config` at most, per entity, computed
/// from the counts and the parent/child relations alone (saturating, never allocating per
/// item). It follows [`generate`]'s rules: a count given for an entity; none for an entity
/// whose table has imported items; else [`DEFAULT_CHILDREN_PER_PARENT`] per item of its first
/// parent (or [`DEFAULT_ROOT_COUNT`] when that parent has none yet). Generation can only make
/// fewer (items whose keys collide are dropped), so a child's bound takes its parent's bound.
pub fn plan(design: &Design, config: &SampleConfig) -> SamplePlan {
    let n = design.entities.len();
    let relations = relations(design);
    let keep = parent_vars(&relations, n);
    let mut imported: u64 = 0;
    // Items each entity has as a parent, at most: its imported ones, then its generated ones.
    let mut parents_at_most: Vec<u64> = vec![0; n];
    for (table, items) in &design.samples {
        for item in items {
            imported = imported.saturating_add(1);
            if let (_, Some(e)) = imported_entity(design, table, item) {
                parents_at_most[e] = parents_at_most[e].saturating_add(1);
            }
        }
    }
    // Hand items are put last; each may replace one, so they add at most their number.
    let mut total = imported.saturating_add(design.hand_items.len() as u64);
    let mut entities = Vec::with_capacity(n);
    for &e in &relations.order {
        let entity = &design.entities[e];
        let Some(table) = design.table(&entity.table) else {
            continue;
        };
        let has_imported = design
            .samples
            .get(&table.name)
            .is_some_and(|s| !s.is_empty());
        let (items, source) = match config.counts.get(&entity.name) {
            Some(&count) => (u64::from(count), CountSource::Given),
            None if has_imported => (0, CountSource::Imported),
            None => match relations.parents[e].first() {
                // Generation gives 3 per parent item it made, or the root count when it made
                // none of the parents planned: the larger of the two bounds both.
                Some((p, _)) if parents_at_most[*p] > 0 => (
                    parents_at_most[*p]
                        .saturating_mul(u64::from(DEFAULT_CHILDREN_PER_PARENT))
                        .max(u64::from(DEFAULT_ROOT_COUNT)),
                    CountSource::PerParent(design.entities[*p].name.clone()),
                ),
                _ => (u64::from(DEFAULT_ROOT_COUNT), CountSource::Root),
            },
        };
        // Generation counts in u32: a child of more than u32::MAX / 3 parents gets u32::MAX.
        let items = items.min(u64::from(u32::MAX));
        if !keep[e].is_empty() {
            parents_at_most[e] = parents_at_most[e].saturating_add(items);
        }
        total = total.saturating_add(items);
        entities.push(PlannedEntity {
            entity: entity.name.clone(),
            items,
            source,
        });
    }
    SamplePlan {
        imported,
        entities,
        total,
    }
}

/// [`generate`], refused with [`TooManyItems`] before anything is made when the sample would
/// have more than `max_items` items: what every caller with input it does not control uses.
pub fn generate_within(
    design: &Design,
    config: &SampleConfig,
    max_items: u64,
) -> Result<SampleData, TooManyItems> {
    plan(design, config).check(max_items)?;
    Ok(generate(design, config))
}

/// The sample whose mean item sizes stand in where no volume gives one (a migration plan's
/// steps, the partition loads KP014 judges): the default sample, or, when that would pass
/// [`MAX_SAMPLE_ITEMS`] (a deep chain of children: issue 41, a 3.3 KB design made `keyplan
/// migrate` allocate gigabytes), one item of each entity; `true` when it is the default one.
pub fn sizing_sample(design: &Design) -> (SampleData, bool) {
    let config = SampleConfig::default();
    match generate_within(design, &config, MAX_SAMPLE_ITEMS) {
        Ok(sample) => (sample, true),
        Err(_) => {
            let counts = design
                .entities
                .iter()
                .map(|e| (e.name.clone(), 1))
                .collect();
            (generate(design, &SampleConfig { counts, ..config }), false)
        }
    }
}

/// Primary keys seen so far. Sample keys are not hostile input, so a fast multiply-rotate hash
/// stands in for SipHash (which took a sixth of the generation time).
type KeySet = FastHashSet<String>;

/// A generated or imported item of an entity, as a parent for others.
#[derive(Debug, Clone)]
struct ParentRecord {
    vars: BTreeMap<String, AttributeValue>,
    /// Seconds since the Unix epoch around which the item's timestamps fall.
    anchor: i64,
}

/// Generates the sample for `design`. It makes as many items as the counts ask: for a design
/// or counts from outside, [`generate_within`] refuses a sample larger than a budget first.
pub fn generate(design: &Design, config: &SampleConfig) -> SampleData {
    let relations = relations(design);
    let mut rng = oorandom::Rand64::new(u128::from(config.seed) ^ 0x6b65_7970_6c61_6e00);
    let mut data = SampleData::default();
    let mut records: Vec<Vec<ParentRecord>> = vec![Vec::new(); design.entities.len()];
    // A hint only, so it is capped: huge counts must not reserve memory up front. Entities
    // with a count of their own make that many; the others are taken as roots.
    let expected: usize = design
        .entities
        .iter()
        .filter(|e| !config.counts.contains_key(&e.name))
        .count()
        .saturating_mul(DEFAULT_ROOT_COUNT as usize)
        .saturating_add(
            config
                .counts
                .values()
                .fold(0usize, |sum, &n| sum.saturating_add(n as usize)),
        )
        .min(MAX_SAMPLE_ITEMS as usize);
    let mut seen_keys: KeySet = KeySet::with_capacity_and_hasher(expected, Default::default());
    // The same hint for the items, so that the list is not copied at each doubling on the way
    // to 100,000 items (issue 13).
    data.items.reserve(expected);

    for (table, items) in &design.samples {
        for item in items {
            let (entity, index) = imported_entity(design, table, item);
            if let Some(e) = index {
                let vars = extract_vars(design, &design.entities[e], item);
                records[e].push(ParentRecord {
                    vars,
                    anchor: values::EPOCH_START,
                });
            }
            data.items.push(SampleItem {
                table: table.clone(),
                entity,
                item: item.clone(),
            });
        }
    }

    // The texts of the first shard numbers, made once instead of formatted for every item of
    // a write-sharded key (100,000 at 10,000 entities, issue 13).
    let shard_texts: Vec<AttributeValue> = (0..SHARD_TEXTS)
        .map(|shard| AttributeValue::S(shard.to_string()))
        .collect();
    // Which entities are parents, and of which of their variables.
    let parent_vars = parent_vars(&relations, design.entities.len());
    let key_lists = key_lists(design);
    // The dimensions each read pattern's vector search states, by (entity, attribute): made
    // once, not looked up across the patterns for every attribute.
    let searched: std::collections::HashMap<(&str, &str), u32> = design
        .patterns
        .iter()
        .filter_map(|p| Some((p, p.vector.as_ref()?)))
        .filter_map(|(p, v)| Some((p, v.attribute.as_str(), v.dimensions?)))
        .flat_map(|(p, attribute, d)| p.entities.iter().map(move |e| ((e.as_str(), attribute), d)))
        .collect();
    for &e in &relations.order {
        let entity = &design.entities[e];
        let Some(table) = design.table(&entity.table) else {
            continue;
        };
        let imported = design
            .samples
            .get(&table.name)
            .is_some_and(|s| !s.is_empty());
        let count = match config.counts.get(&entity.name) {
            Some(&n) => n,
            None if imported => 0,
            // A child of a parent with no items yet (a cycle) counts as a root.
            None => match relations.parents[e].first() {
                Some((p, _)) if !records[*p].is_empty() => {
                    let parents = u32::try_from(records[*p].len()).unwrap_or(u32::MAX);
                    parents.saturating_mul(DEFAULT_CHILDREN_PER_PARENT)
                }
                _ => DEFAULT_ROOT_COUNT,
            },
        };
        let primary = &relations.keys[e];
        // Decided once per entity: how each attribute gets its values, and each key's template.
        let attributes: Vec<(&Attribute, values::Recipe, bool)> = relations.vars[e]
            .iter()
            .map(|a| {
                // A vector index's attribute holds a vector of the index's dimensions, so item
                // sizes and write units are an embedding's (issue 40); without an index, one a
                // read pattern searches holds the pattern's stated dimensions: the items carry
                // embeddings before a migration adds the index DynamoDB backfills from them.
                let dimensions = table
                    .vector_indexes
                    .iter()
                    .find(|v| v.attribute == a.name)
                    .map(|v| v.dimensions)
                    .or_else(|| {
                        searched
                            .get(&(entity.name.as_str(), a.name.as_str()))
                            .copied()
                    });
                let kind = match dimensions {
                    Some(d) if a.ty == AttrType::L => {
                        values::Recipe::Vector(d.min(crate::limits::VECTOR_DIMENSIONS_MAX))
                    }
                    _ => values::classify(a, &entity.name, config.seed),
                };
                // A value a child's key copies is always there.
                let needed =
                    a.required || primary.contains(&a.name) || parent_vars[e].contains(&a.name);
                (a, kind, needed)
            })
            .collect();
        let keys: Vec<(&String, KeyType, Cow<'_, KeyTemplate>, bool)> = key_lists
            .get(table.name.as_str())
            .into_iter()
            .flat_map(|list| list.templated(entity))
            .filter_map(|key| {
                let template = entity.key_template(&key.name)?;
                let is_primary = key.name == table.partition_key.name
                    || table.sort_key.as_ref().is_some_and(|k| k.name == key.name);
                Some((&key.name, key.ty, template, is_primary))
            })
            .collect();
        let keep = &parent_vars[e];
        data.items
            .reserve((count as usize).min(MAX_SAMPLE_ITEMS as usize));
        // Reused across items: the key text being rendered, the item's identity, its keys.
        let mut key_text = String::new();
        let mut identity = String::new();
        let mut rendered_keys: Vec<(&String, AttributeValue)> = Vec::with_capacity(keys.len());
        for i in 0..count {
            let mut draw = values::Generator::new(&mut rng, i);
            let mut item: Item = BTreeMap::new();
            // Parents first: the first parent round-robin, so every parent gets children.
            let mut anchor = None;
            for (k, (p, shared)) in relations.parents[e].iter().enumerate() {
                let pool = &records[*p];
                if pool.is_empty() {
                    continue;
                }
                let pick = if k == 0 {
                    i as usize % pool.len()
                } else {
                    draw.below(pool.len() as u64) as usize
                };
                let parent = &pool[pick];
                for var in shared {
                    if let Some(v) = parent.vars.get(var) {
                        item.entry(var.clone()).or_insert_with(|| v.clone());
                    }
                }
                anchor.get_or_insert(parent.anchor);
            }
            draw.set_anchor(anchor);
            for (attribute, kind, needed) in &attributes {
                if item.contains_key(&attribute.name) {
                    continue;
                }
                if !needed && !draw.chance(0.8) {
                    continue;
                }
                item.insert(attribute.name.clone(), draw.value(kind));
            }
            identity.clear();
            identity.push_str(&table.name);
            let mut complete = true;
            rendered_keys.clear();
            for (name, ty, template, is_primary) in &keys {
                let rendered = render_key_in(
                    template.as_ref(),
                    *ty,
                    |v| match v.shards {
                        Some(n) => {
                            let shard = draw.below(u64::from(n));
                            Some(match shard_texts.get(shard as usize) {
                                Some(text) => Cow::Borrowed(text),
                                None => Cow::Owned(AttributeValue::S(shard.to_string())),
                            })
                        }
                        None => item.get(&v.name).map(Cow::Borrowed),
                    },
                    &mut key_text,
                );
                match rendered {
                    Some(value) => {
                        if *is_primary {
                            identity.push('\u{0}');
                            identity.push_str(value.as_key_text().unwrap_or_default());
                        }
                        rendered_keys.push((*name, value));
                    }
                    None if *is_primary => complete = false,
                    // No value for a variable: the item is not in that index.
                    None => {}
                }
            }
            // Inserted, or a key made before (rare): the key is hashed once.
            if !complete || !seen_keys.insert(identity.clone()) {
                continue;
            }
            if !keep.is_empty() {
                records[e].push(ParentRecord {
                    vars: keep
                        .iter()
                        .filter_map(|v| item.get(v).map(|x| (v.clone(), x.clone())))
                        .collect(),
                    anchor: draw.anchor(),
                });
            }
            for (name, value) in rendered_keys.drain(..) {
                item.insert(name.clone(), value);
            }
            data.items.push(SampleItem {
                table: table.name.clone(),
                entity: Some(entity.name.clone()),
                item,
            });
        }
    }
    hand::put(design, &mut data);
    data
}

/// The entity of `table` whose primary-key templates match `item`'s key values (with the
/// item's own attributes agreeing), or `None`. An item carrying an `entityType`-like
/// attribute naming an entity wins outright.
pub fn identify(design: &Design, table: &str, item: &Item) -> Option<String> {
    for marker in ["entityType", "entity_type", "type", "_type", "__typename"] {
        if let Some(AttributeValue::S(name)) = item.get(marker)
            && design
                .entities
                .iter()
                .any(|e| e.table == table && e.name == *name)
        {
            return Some(name.clone());
        }
    }
    let mut best: Option<(usize, &Entity)> = None;
    for entity in design.entities_in(table) {
        let templates = primary_templates(design, entity);
        if templates.is_empty() {
            continue;
        }
        let mut literal_bytes = 0;
        let mut ok = true;
        for (name, _, template) in &templates {
            let text = item.get(name).and_then(|v| v.as_key_text());
            match text.and_then(|t| match_template(template, t)) {
                Some(vars) => {
                    literal_bytes += literal_len(template);
                    for (var, value) in vars {
                        if let Some(own) = item.get(&var).and_then(|v| v.as_key_text())
                            && own != value
                        {
                            ok = false;
                        }
                    }
                }
                None => ok = false,
            }
        }
        // The most literal text matched is the most specific entity.
        if ok && best.is_none_or(|(b, _)| literal_bytes > b) {
            best = Some((literal_bytes, entity));
        }
    }
    best.map(|(_, e)| e.name.clone())
}

fn literal_len(template: &KeyTemplate) -> usize {
    template
        .parts()
        .iter()
        .map(|p| match p {
            Part::Literal(s) => s.len(),
            Part::Var(_) => 0,
        })
        .sum()
}

/// Matches `text` against `template`, returning each variable's text. Variables are matched
/// lazily up to the next literal (the last one takes the rest); a shard variable must be
/// digits. `None` if the text does not fit.
pub fn match_template(template: &KeyTemplate, text: &str) -> Option<Vec<(String, String)>> {
    let parts = template.parts();
    let mut out = Vec::new();
    let mut rest = text;
    let mut i = 0;
    while i < parts.len() {
        match &parts[i] {
            Part::Literal(lit) => rest = rest.strip_prefix(lit.as_str())?,
            Part::Var(var) => {
                let value = match parts.get(i + 1) {
                    Some(Part::Literal(next)) => {
                        let at = rest.find(next.as_str())?;
                        &rest[..at]
                    }
                    // Two variables in a row: the first takes one character (ambiguous).
                    Some(Part::Var(_)) => rest.get(..1)?,
                    None => rest,
                };
                if value.is_empty() {
                    return None;
                }
                if var.shards.is_some() {
                    if !value.bytes().all(|b| b.is_ascii_digit()) {
                        return None;
                    }
                } else {
                    out.push((var.name.clone(), value.to_string()));
                }
                rest = &rest[value.len()..];
            }
        }
        i += 1;
    }
    rest.is_empty().then_some(out)
}

/// The variable values of an imported item of `entity`: its own attributes, and whatever its
/// primary-key templates reveal.
fn extract_vars(design: &Design, entity: &Entity, item: &Item) -> BTreeMap<String, AttributeValue> {
    let mut vars: BTreeMap<String, AttributeValue> = item.clone();
    for (name, _, template) in primary_templates(design, entity) {
        if let Some(text) = item.get(&name).and_then(|v| v.as_key_text())
            && let Some(found) = match_template(&template, text)
        {
            for (var, value) in found {
                vars.entry(var).or_insert(AttributeValue::S(value));
            }
        }
    }
    vars
}

#[cfg(test)]
mod tests;
