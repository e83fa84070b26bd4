//! A migration plan from one design to another, for a table that holds data (issue 18).
//!
//! The plan is in expand / migrate / contract order: first what can be added without touching
//! items (tables, GSIs DynamoDB backfills itself), then what rewrites items (new key attributes
//! on existing items, items copied to new keys, tables rebuilt), and last what can be dropped
//! once nothing reads it. Each step says why it is needed, how many items it touches, and the
//! read and write units, the on-demand cost and the time it takes at a write rate; the
//! arithmetic is in the step's `units` text. Volumes come from `--items ENTITY=N`, else from
//! the entities' recorded volumes, the new design's before the old one's (a live import records
//! them, a person sets the new design's), else they are unknown and the step
//! says so.
//!
//! What is counted: a backfill is a Scan of the entity's items (half a read unit per 4 KB, as
//! an eventually consistent Scan costs) and one UpdateItem per item (write units of the whole
//! item, as DynamoDB charges); a re-key is the same Scan, a PutItem at the new key and a
//! DeleteItem of the old; a rebuild copies every item of the table that way; an index DynamoDB
//! backfills costs one write per item it holds. Each write that puts an item into a GSI costs
//! that GSI one more write.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Serialize;

use crate::limits::Prices;
use crate::model::{Design, Entity, Gsi, Table};
use crate::sample::thousands;
use sizes::{Sizes, Work};

/// Where a step sits in the expand / migrate / contract order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Added beside what is there; the application still runs on the old design.
    Expand,
    /// Items rewritten; the application writes both forms meanwhile.
    Migrate,
    /// Dropped once nothing reads it.
    Contract,
}

impl Phase {
    /// `expand`, `migrate`, `contract`.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Expand => "expand",
            Phase::Migrate => "migrate",
            Phase::Contract => "contract",
        }
    }
}

/// What a step does to the data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StepKind {
    /// DynamoDB does it without a write from us: a new table, a GSI whose key attributes the
    /// items already carry (DynamoDB backfills it).
    Online,
    /// New key attributes written onto existing items.
    Backfill,
    /// Each item copied to its new key and the old one deleted.
    Rekey,
    /// What DynamoDB cannot change in place (table keys, LSIs): a new table and a copy.
    Rebuild,
    /// An index, attribute, entity or table dropped.
    Contract,
}

impl StepKind {
    /// `online`, `backfill`, `re-key`, `rebuild`, `contract`.
    pub fn name(self) -> &'static str {
        match self {
            StepKind::Online => "online",
            StepKind::Backfill => "backfill",
            StepKind::Rekey => "re-key",
            StepKind::Rebuild => "rebuild",
            StepKind::Contract => "contract",
        }
    }
}

/// One step of a plan.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Step {
    pub phase: Phase,
    pub kind: StepKind,
    pub table: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub index: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub entity: Option<String>,
    /// What to do, in words.
    pub action: String,
    /// Why the step is needed.
    pub why: String,
    /// Items the step reads or writes; `None` when the volume is unknown.
    pub items: Option<u64>,
    pub read_units: f64,
    pub write_units: f64,
    /// On-demand cost in US dollars.
    pub cost: f64,
    /// Seconds at the plan's write rate (`max_wcu`).
    pub seconds: f64,
    /// How the units were counted.
    pub units: String,
    /// `index` is a vector index: UpdateTable's `VectorIndexUpdates` make and drop it, not its
    /// GSI updates (see `migrate::vector`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub vector: bool,
}

/// A migration plan: its steps in order, and their totals.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MigrationPlan {
    pub steps: Vec<Step>,
    pub read_units: f64,
    pub write_units: f64,
    pub cost: f64,
    pub seconds: f64,
    /// The write rate the durations are at.
    pub max_wcu: f64,
    /// Entities whose volume is unknown, so their steps count nothing.
    pub unknown_volumes: Vec<String>,
    /// The entities whose items the steps count, known or not, by name: those a person can
    /// give a count for (the Migrate tab's fields).
    #[serde(skip)]
    pub counted: Vec<String>,
    /// Entities whose figures are too large to count (more than 2^64 bytes or write units),
    /// with their count and size, so their steps count nothing.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub too_large: Vec<String>,
}

/// What the plan is computed with.
#[derive(Debug, Clone, PartialEq)]
pub struct PlanConfig {
    /// Items per entity, overriding the design's recorded volumes.
    pub items: BTreeMap<String, u64>,
    /// The write units per second the migration may use.
    pub max_wcu: f64,
    pub prices: Prices,
}

/// The default write rate: one partition's limit, so a migration never throttles itself on a
/// table that has not split.
pub const DEFAULT_MAX_WCU: f64 = crate::limits::PARTITION_WRITE_UNITS_PER_SECOND;

impl Default for PlanConfig {
    fn default() -> Self {
        PlanConfig {
            items: BTreeMap::new(),
            max_wcu: DEFAULT_MAX_WCU,
            prices: Prices::default(),
        }
    }
}

/// A write rate as typed (`--max-wcu`, the Migrate tab's field): a number of at least 1 write
/// unit per second, thousands separators allowed.
pub fn parse_rate(arg: &str) -> Result<f64, String> {
    arg.trim()
        .replace(',', "")
        .parse::<f64>()
        .map_err(|_| rate_error(arg))
        .and_then(within_rate)
}

/// `n`, when it is a write rate: at least 1 write unit per second.
pub fn within_rate(n: f64) -> Result<f64, String> {
    if n.is_finite() && n >= 1.0 {
        Ok(n)
    } else {
        Err(rate_error(&n.to_string()))
    }
}

fn rate_error(arg: &str) -> String {
    format!("`{arg}` is not a rate of at least 1 write unit per second")
}

/// The plan that takes data in `old`'s shape to `new`'s.
pub fn plan(old: &Design, new: &Design, config: &PlanConfig) -> MigrationPlan {
    let sizes = Sizes::of(old, new, config);
    let mut steps = Vec::new();
    for table in &new.tables {
        match old.table(&table.name) {
            None => steps.push(sizes.step(
                Phase::Expand,
                StepKind::Online,
                table,
                None,
                None,
                format!("Create table {}", table.name),
                "the new design has it".to_string(),
                Work::default(),
            )),
            Some(before) if needs_rebuild(before, table) => {
                steps.push(rebuild(&sizes, old, new, before, table));
            }
            Some(before) => table_steps(&mut steps, &sizes, old, new, before, table),
        }
    }
    for table in &old.tables {
        if new.table(&table.name).is_none() {
            let entities: Vec<&Entity> = old.entities_in(&table.name).collect();
            steps.push(sizes.step(
                Phase::Contract,
                StepKind::Contract,
                table,
                None,
                None,
                format!("Delete table {}", table.name),
                "the new design has no such table; delete it once nothing reads it".to_string(),
                sizes.count(&entities),
            ));
        }
    }
    steps.sort_by_key(|s| s.phase);
    let sum = |f: fn(&Step) -> f64| steps.iter().map(f).sum::<f64>();
    MigrationPlan {
        read_units: sum(|s| s.read_units),
        write_units: sum(|s| s.write_units),
        cost: sum(|s| s.cost),
        seconds: sum(|s| s.seconds),
        max_wcu: config.max_wcu,
        unknown_volumes: sizes.unknown(old, new),
        counted: sizes.asked(),
        too_large: sizes
            .too_large
            .iter()
            .map(|(entity, counts)| format!("{entity}: {counts}"))
            .collect(),
        steps,
    }
}

/// Table keys and LSIs cannot change on a table that exists.
fn needs_rebuild(before: &Table, after: &Table) -> bool {
    before.partition_key != after.partition_key
        || before.sort_key != after.sort_key
        || before.lsis != after.lsis
}

fn rebuild(sizes: &Sizes, old: &Design, new: &Design, before: &Table, after: &Table) -> Step {
    let entities: Vec<&Entity> = new
        .entities_in(&after.name)
        .filter(|e| old.entity(&e.name).is_some_and(|o| o.table == after.name))
        .collect();
    let what = if before.partition_key != after.partition_key || before.sort_key != after.sort_key {
        "its primary key changes"
    } else {
        "its local secondary indexes change"
    };
    let mut work = Work::default();
    for e in &entities {
        work = work.add(sizes.copy(e));
    }
    sizes.step(
        Phase::Migrate,
        StepKind::Rebuild,
        after,
        None,
        None,
        format!(
            "Create table {} anew in its new shape, copy every item into it at its new keys, switch over, delete the old table",
            after.name
        ),
        format!("{what}, which DynamoDB cannot change on an existing table"),
        work,
    )
}

/// Steps for a table kept in place: its GSIs, and the entities stored in it.
fn table_steps(
    steps: &mut Vec<Step>,
    sizes: &Sizes,
    old: &Design,
    new: &Design,
    before: &Table,
    after: &Table,
) {
    for gsi in &after.gsis {
        let same = before.gsi(&gsi.name).is_some_and(|g| g == gsi);
        if same {
            continue;
        }
        let members: Vec<&Entity> = new
            .entities_in(&after.name)
            .filter(|e| in_gsi(e, gsi))
            .collect();
        let (carried, missing): (Vec<&Entity>, Vec<&Entity>) = members
            .iter()
            .partition(|e| old.entity(&e.name).is_some_and(|o| carries(o, e, gsi)));
        let changed = before.gsi(&gsi.name).is_some();
        let why = match (carried.is_empty(), changed) {
            (_, true) => format!(
                "its keys or projection change, which DynamoDB cannot change on an index: delete the old {} first (or give the new one another name)",
                gsi.name
            ),
            (true, false) => {
                "the new design adds it; no existing item carries its keys yet".to_string()
            }
            (false, false) => format!(
                "the new design adds it; the items of {} already carry its keys, so DynamoDB backfills it",
                names(&carried)
            ),
        };
        let mut work = Work::default();
        for e in &carried {
            work = work.add(sizes.index_writes(e));
        }
        steps.push(sizes.step(
            Phase::Expand,
            StepKind::Online,
            after,
            Some(&gsi.name),
            None,
            format!("Create GSI {}", gsi.name),
            why,
            work,
        ));
        for e in missing {
            let attributes: Vec<&str> = gsi
                .partition_key
                .iter()
                .chain(&gsi.sort_key)
                .map(|k| k.name.as_str())
                .collect();
            steps.push(sizes.step(
                Phase::Migrate,
                StepKind::Backfill,
                after,
                Some(&gsi.name),
                Some(&e.name),
                format!("Write {} onto every {} item", fill(e, &attributes), e.name),
                format!(
                    "{} items must carry {}'s keys to be in it",
                    e.name, gsi.name
                ),
                sizes.update(e, 1),
            ));
        }
    }
    let table_keys: Vec<&str> = after.primary_key().map(|k| k.name.as_str()).collect();
    for e in new.entities_in(&after.name) {
        let Some(o) = old.entity(&e.name) else {
            continue;
        };
        if o.table != after.name {
            steps.push(sizes.step(
                Phase::Migrate,
                StepKind::Rekey,
                after,
                None,
                Some(&e.name),
                format!(
                    "Copy every {} item from {} into {}, then delete it from {}",
                    e.name, o.table, after.name, o.table
                ),
                format!("{} moves to table {}", e.name, after.name),
                sizes.copy(e),
            ));
            continue;
        }
        let rekeyed: Vec<&str> = table_keys
            .iter()
            .copied()
            .filter(|k| o.key_template(k) != e.key_template(k))
            .collect();
        if !rekeyed.is_empty() {
            steps.push(sizes.step(
                Phase::Migrate,
                StepKind::Rekey,
                after,
                None,
                Some(&e.name),
                format!(
                    "Copy every {} item to its new key ({}), then delete the old one; the application writes both meanwhile",
                    e.name,
                    fill(e, &rekeyed)
                ),
                format!("its table key template changes ({})", was(o, e, &rekeyed)),
                sizes.copy(e),
            ));
            continue;
        }
        // GSI key attributes of kept indexes whose template changed for this entity.
        for gsi in after
            .gsis
            .iter()
            .filter(|g| before.gsi(&g.name) == Some(*g))
        {
            let keys: Vec<&str> = gsi
                .partition_key
                .iter()
                .chain(&gsi.sort_key)
                .map(|k| k.name.as_str())
                .filter(|k| o.key_template(k) != e.key_template(k))
                .collect();
            if keys.is_empty() {
                continue;
            }
            steps.push(sizes.step(
                Phase::Migrate,
                StepKind::Backfill,
                after,
                Some(&gsi.name),
                Some(&e.name),
                if keys.iter().all(|k| o.key_template(k).is_none()) {
                    format!("Write {} onto every {} item", fill(e, &keys), e.name)
                } else {
                    format!("Rewrite {} on every {} item", fill(e, &keys), e.name)
                },
                if keys.iter().all(|k| o.key_template(k).is_none()) {
                    format!(
                        "{} items join {}, whose keys they do not carry yet",
                        e.name, gsi.name
                    )
                } else {
                    format!(
                        "its {} key template changes ({})",
                        gsi.name,
                        was(o, e, &keys)
                    )
                },
                sizes.update(e, 1),
            ));
        }
    }
    vector::steps(steps, sizes, old, new, before, after);
    for gsi in &before.gsis {
        if after.gsi(&gsi.name) != Some(gsi) {
            steps.push(sizes.step(
                Phase::Contract,
                StepKind::Contract,
                after,
                Some(&gsi.name),
                None,
                format!("Delete the old GSI {}", gsi.name),
                if after.gsi(&gsi.name).is_some() {
                    "it is replaced by one with other keys or projection".to_string()
                } else {
                    "the new design has no such index; no pattern reads it".to_string()
                },
                Work::default(),
            ));
        }
    }
    for o in old.entities_in(&before.name) {
        match new.entity(&o.name) {
            None => steps.push(sizes.step(
                Phase::Contract,
                StepKind::Contract,
                after,
                None,
                Some(&o.name),
                format!("Delete every {} item", o.name),
                "the new design has no such entity".to_string(),
                sizes.delete(o),
            )),
            Some(e) if e.table == before.name => {
                let dropped: Vec<&str> = o
                    .attributes
                    .iter()
                    .filter(|a| e.attribute(&a.name).is_none())
                    .map(|a| a.name.as_str())
                    .collect();
                if !dropped.is_empty() {
                    steps.push(sizes.step(
                        Phase::Contract,
                        StepKind::Contract,
                        after,
                        None,
                        Some(&o.name),
                        format!("Stop writing {} on {} items (removing it from existing items is optional)", dropped.join(", "), o.name),
                        "the new design no longer has it".to_string(),
                        Work::default(),
                    ));
                }
            }
            Some(_) => {}
        }
    }
}

/// How one key attribute of NEW's table is written on a migrated item of an entity: what
/// [`migrated_item`] does with it, as data, so the generated migration scripts
/// (`migrate::code`) follow the very same rules.
#[derive(Debug, Clone, PartialEq)]
pub struct KeyRule {
    pub attribute: String,
    pub ty: crate::model::KeyType,
    /// The entity's template for it in NEW; `None` when NEW gives the entity none.
    pub template: Option<crate::KeyTemplate>,
    /// The template is the one OLD had for the entity in the same table: an item that carries
    /// the attribute keeps its value.
    pub unchanged: bool,
    /// A key of NEW's table itself: an item must get a value.
    pub table_key: bool,
}

/// What [`migrated_item`] does to every item of one entity.
#[derive(Debug, Clone, PartialEq)]
pub struct ItemRules {
    pub entity: String,
    /// NEW's table the entity lives in.
    pub table: String,
    /// The key attributes of NEW's table the entity does not hold as attributes of its own,
    /// each once, in the table's order.
    pub keys: Vec<KeyRule>,
    /// Attributes a write shard is not hashed from: the key attributes OLD and NEW derive for
    /// the entity from templates, so an item already migrated hashes to the shard it got.
    pub derived: std::collections::BTreeSet<String>,
}

/// The rules that migrate items of `entity` from `old`'s shape to `new`'s; `Ok(None)` when
/// `new` has no such entity (its items are deleted).
pub fn item_rules(old: &Design, new: &Design, entity: &str) -> Result<Option<ItemRules>, String> {
    let Some(e) = new.entity(entity) else {
        return Ok(None);
    };
    let Some(table) = new.table(&e.table) else {
        return Err(format!(
            "{entity}'s table {} is not in the new design",
            e.table
        ));
    };
    let before = old.entity(entity).filter(|o| o.table == e.table);
    let table_keys: Vec<&str> = table.primary_key().map(|k| k.name.as_str()).collect();
    let keys = table
        .key_attributes()
        .into_iter()
        // An attribute of the entity's own is its key value as it is.
        .filter(|key| e.attribute(&key.name).is_none())
        .map(|key| {
            let template = e.keys.get(&key.name);
            KeyRule {
                attribute: key.name.clone(),
                ty: key.ty,
                template: template.cloned(),
                unchanged: before.is_some_and(|o| o.keys.get(&key.name) == template),
                table_key: table_keys.contains(&key.name.as_str()),
            }
        })
        .collect();
    let derived = e
        .keys
        .keys()
        .chain(old.entity(entity).into_iter().flat_map(|o| o.keys.keys()))
        .filter(|k| e.attribute(k).is_none())
        .cloned()
        .collect();
    Ok(Some(ItemRules {
        entity: entity.to_string(),
        table: e.table.clone(),
        keys,
        derived,
    }))
}

impl ItemRules {
    /// `item` in NEW's shape: see [`migrated_item`].
    pub fn apply(&self, item: &crate::Item) -> Result<crate::Item, String> {
        let mut out = item.clone();
        for rule in &self.keys {
            if rule.unchanged && (rule.template.is_none() || item.contains_key(&rule.attribute)) {
                continue;
            }
            out.remove(&rule.attribute);
            let Some(template) = &rule.template else {
                continue;
            };
            let rendered = crate::eval::render_key(template, rule.ty, |v| match v.shards {
                Some(n) => Some(crate::AttributeValue::S(
                    shard_of(item, &self.derived, n).to_string(),
                )),
                None => item.get(&v.name).cloned(),
            });
            match rendered {
                Some(value) => {
                    out.insert(rule.attribute.clone(), value);
                }
                None if rule.table_key => {
                    return Err(format!(
                        "an item of {} has no value for every variable of {}'s template {template}",
                        self.entity, rule.attribute
                    ));
                }
                // Not every variable has a value: the item is not in that index.
                None => {}
            }
        }
        Ok(out)
    }
}

/// An item of `entity` stored in `old`'s shape, in `new`'s: every key attribute of `new`'s
/// table whose template for the entity changed is rendered again from the item's own
/// attributes (a write-shard variable from a hash of them, so a rerun writes the same shard),
/// or dropped when `new` gives the entity none, so the item is in exactly the indexes `new`
/// says. A key attribute whose template did not change keeps its value, and attributes no
/// index of `new` is keyed on are kept as they are (deleting an index leaves them, harmless).
/// `Ok(None)` when `new` has no such entity (its items are deleted); `Err` says which table
/// key cannot be rendered and why. The runner writes what this returns, the verification
/// on an engine predicts the migrated data with it, and the generated scripts follow the same
/// [`item_rules`].
pub fn migrated_item(
    old: &Design,
    new: &Design,
    entity: &str,
    item: &crate::Item,
) -> Result<Option<crate::Item>, String> {
    item_rules(old, new, entity)?
        .map(|rules| rules.apply(item))
        .transpose()
}

/// A shard in `0..n` from the item's attributes (FNV-1a over their names and key texts, in
/// the item's name order), leaving out the `derived` key attributes: the same item always
/// gets the same shard, before its migration and after it (issue 18: a rerun changes nothing).
pub fn shard_of(item: &crate::Item, derived: &std::collections::BTreeSet<String>, n: u32) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for (name, value) in item {
        if derived.contains(name) {
            continue;
        }
        let text = value.as_key_text().unwrap_or_default();
        for byte in name.bytes().chain([0]).chain(text.bytes()).chain([0]) {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    }
    hash % u64::from(n.max(1))
}

/// Whether an entity's items go into a GSI: it fills every partition-key attribute.
fn in_gsi(e: &Entity, gsi: &Gsi) -> bool {
    gsi.partition_key.iter().all(|k| e.fills(&k.name))
}

/// Whether the old entity's items already carry every key attribute of `gsi` as the new one
/// fills it.
fn carries(old: &Entity, new: &Entity, gsi: &Gsi) -> bool {
    gsi.partition_key
        .iter()
        .chain(&gsi.sort_key)
        .filter_map(|k| Some((k, new.key_template(&k.name)?)))
        .all(|(k, template)| old.key_template(&k.name).as_ref() == Some(&template))
}

/// `Order, Customer`.
fn names(entities: &[&Entity]) -> String {
    entities
        .iter()
        .map(|e| e.name.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// `GSI4PK = ORDER#{orderId}, GSI4SK = ORDER`.
fn fill(e: &Entity, attributes: &[&str]) -> String {
    attributes
        .iter()
        .filter_map(|a| e.key_template(a).map(|t| format!("{a} = {t}")))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `SK was ORDER#{orderId}, now ORDER#{createdAt}#{orderId}`.
fn was(old: &Entity, new: &Entity, attributes: &[&str]) -> String {
    let show = |e: &Entity, a: &str| {
        e.key_template(a)
            .map_or("nothing".to_string(), |t| t.to_string())
    };
    attributes
        .iter()
        .map(|a| format!("{a} was {}, now {}", show(old, a), show(new, a)))
        .collect::<Vec<_>>()
        .join("; ")
}

impl Step {
    /// Why the step's cost and time are not figures, when they are not: a vector index's
    /// backfill is metered in vector write bytes, which have no published price, and takes as
    /// long as the index's construction (see `migrate::vector`), never $0 or 0 s.
    pub fn unpriced(&self) -> Option<&'static str> {
        (self.vector && self.kind == StepKind::Online).then_some(crate::pricing::VECTOR_NOT_PRICED)
    }

    /// Whether the step's figures are too large to count (see [`MigrationPlan::too_large`]).
    pub fn too_large(&self) -> bool {
        self.items.is_none() && self.units.starts_with(sizes::TOO_LARGE)
    }

    /// The step's items in words: `1,200,000`, `too large` or `unknown`.
    pub fn items_text(&self) -> String {
        match self.items {
            Some(n) => thousands(n),
            None if self.too_large() => "too large".to_string(),
            None => "unknown".to_string(),
        }
    }
}

impl MigrationPlan {
    /// The plan as text: one numbered step a paragraph, then the totals.
    pub fn text(&self) -> String {
        if self.steps.is_empty() {
            return "Nothing to migrate: the data already has the new design's shape.\n"
                .to_string();
        }
        let mut out = String::new();
        for (i, s) in self.steps.iter().enumerate() {
            let (phase, kind) = (s.phase.name(), s.kind.name());
            let _ = writeln!(out, "{}. [{phase}, {kind}] {}", i + 1, s.action);
            let _ = writeln!(out, "   why: {}", s.why);
            let items = s.items_text();
            if let Some(unpriced) = s.unpriced() {
                let _ = writeln!(
                    out,
                    "   items: {items}, {unpriced}; its time follows the index's construction, not the items"
                );
            } else {
                let _ = writeln!(
                    out,
                    "   items: {items}, {} RRU, {} WRU, ${:.4}, {}",
                    units(s.read_units),
                    units(s.write_units),
                    s.cost,
                    duration(s.seconds)
                );
            }
            if !s.units.is_empty() {
                let _ = writeln!(out, "   units: {}", s.units);
            }
        }
        let _ = writeln!(
            out,
            "Total: {} RRU, {} WRU, ${:.4} on demand, {} at {} WCU/s",
            units(self.read_units),
            units(self.write_units),
            self.cost,
            duration(self.seconds),
            units(self.max_wcu)
        );
        if let Some(unpriced) = self.steps.iter().find_map(Step::unpriced) {
            let _ = writeln!(
                out,
                "Not in the total: what the vector indexes' backfill replicates (vector write bytes, {unpriced})."
            );
        }
        if !self.unknown_volumes.is_empty() {
            let _ = writeln!(
                out,
                "Volumes unknown for {}: give --items ENTITY=N to count their steps.",
                self.unknown_volumes.join(", ")
            );
        }
        for too_large in &self.too_large {
            let _ = writeln!(
                out,
                "Too large to count: {too_large}; give --items ENTITY=N a smaller N."
            );
        }
        out
    }
}

/// Units in words: `29.5`, `11,200,000,000` (whole from 1,000 up).
pub fn units(n: f64) -> String {
    if n >= u64::MAX as f64 {
        format!("{n:.3e}")
    } else if n >= 1000.0 {
        thousands(n.round() as u64)
    } else {
        n.to_string()
    }
}

/// `2 h 5 min`, `40 s`, `0 s`.
pub fn duration(seconds: f64) -> String {
    let s = seconds.ceil() as u64;
    match s {
        0..60 => format!("{s} s"),
        60..3600 => format!("{} min {} s", s / 60, s % 60),
        _ => format!("{} h {} min", s / 3600, (s % 3600) / 60),
    }
}

pub mod code;
mod sizes;
mod vector;

#[cfg(test)]
mod tests;
