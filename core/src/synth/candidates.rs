//! Candidates: from a design, every primary key each entity could have and every
//! secondary-index membership that could serve a read, each priced by keyplan's cost model, as
//! the covering [`Problem`] the solver sees; beside it, what each option, path and serving
//! means ([`Candidates`]), for rendering and explaining the solver's choice.
//!
//! Every serving is judged by core's own verdicts on a probe design ([`probe`]): a serving is
//! in the problem only when the verdict rules accept it as a GetItem or a Query, and it costs
//! what the cost model says the read costs there. Nothing here picks among the candidates.

use std::collections::BTreeMap;

use crate::answer::Operation;
use crate::model::{AccessPattern, Design, Entity, Gsi, KeyAttribute, KeyType, Lsi, Projection};
use crate::template::KeyTemplate;

use super::problem::{Choice, Group, IndexCount, Need, OptionRef, PathKind, Problem, Read};
use super::{Options, Style, SynthError};

pub mod probe;
pub mod shape;

use probe::{ProbeIndex, Prober};
use shape::{Seg, Shape, identities, keyed_partition, keyed_sort, label, parents};

/// The name of the GSI and LSI a probe adds, and of their key attributes.
const PROBE_INDEX: &str = "PROBE";
const PROBE_PK: &str = "PROBE_PK";
const PROBE_SK: &str = "PROBE_SK";
/// At most this many combinations of co-located options are tried for one multi-entity read.
const MAX_COMBINATIONS: usize = 16;

/// The problem and the meaning of each of its parts, position by position.
#[derive(Debug, Clone)]
pub struct Candidates {
    pub problem: Problem,
    /// By the problem's table index.
    pub tables: Vec<TableKeys>,
    /// By group: the entity and its options.
    pub groups: Vec<GroupMeaning>,
    /// By path.
    pub paths: Vec<PathMeaning>,
    /// By read: the servings.
    pub reads: Vec<ReadMeaning>,
}

/// A table's key attributes in the proposal.
#[derive(Debug, Clone, PartialEq)]
pub struct TableKeys {
    pub name: String,
    pub partition_key: KeyAttribute,
    pub sort_key: KeyAttribute,
    /// The input table had no sort key: one is added.
    pub sort_added: bool,
}

#[derive(Debug, Clone)]
pub struct GroupMeaning {
    pub entity: String,
    pub identity: String,
    pub options: Vec<KeyOption>,
}

/// One primary key of an entity.
#[derive(Debug, Clone, PartialEq)]
pub struct KeyOption {
    pub partition: String,
    pub sort: String,
    pub origin: Origin,
    /// When write-sharded: the shards and the write units a second its busiest partition
    /// would take unsharded, at peak.
    pub sharding: Option<Sharding>,
}

/// Why a key has write shards: the cost model's figures.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sharding {
    pub shards: u32,
    pub write_units_per_second: f64,
}

/// Where a primary key option comes from.
#[derive(Debug, Clone, PartialEq)]
pub enum Origin {
    /// The entity's own partition.
    Own,
    /// Under a parent's partition (co-located with it).
    Under(String),
    /// Keyed on a parent's identity where the parent's own key is another partition: not in
    /// its item collection. Only a rendered key has it ([`super::render::Rendered::keys`]).
    Apart(String),
    /// Keyed on a read's inputs, sorted by its sort attribute.
    Keyed(String),
    /// As the input pinned it.
    Pinned,
}

/// An entity's membership of a secondary index.
#[derive(Debug, Clone, PartialEq)]
pub struct PathMeaning {
    pub entity: String,
    pub kind: PathKind,
    pub partition: Shape,
    /// For an LSI, the sort key only.
    pub sort: Shape,
    /// The read it was made for.
    pub pattern: String,
    pub sharding: Option<Sharding>,
}

#[derive(Debug, Clone)]
pub struct ReadMeaning {
    pub pattern: String,
    pub servings: Vec<ServingMeaning>,
    /// Monthly cost in USD of the read as a Scan, without the penalty the problem adds.
    pub scan: f64,
    /// What the problem adds to the Scan of a read some key can serve, so that serving every
    /// read comes first and cost second: more than any choice of keys and indexes costs.
    pub penalty: f64,
    /// Why no key can serve the read, when none can.
    pub unkeyable: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ServingMeaning {
    pub operation: Operation,
    pub shards: Option<u32>,
}

/// A read's shape: what it binds and what it sorts by.
struct ReadShape<'d> {
    pattern: &'d AccessPattern,
    /// Entity positions of the returned entities.
    entities: Vec<usize>,
    /// Inputs that bind the partition (every input but the sort attribute).
    equal: Vec<String>,
    sort: Option<String>,
}

/// What a first proposal's sample measured, by entity, for pricing the probes like it: a probe
/// holds only the entities it tries, with only the keys it tries.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Measured {
    /// Mean item bytes (with every key attribute of the proposal).
    pub bytes: BTreeMap<String, u64>,
    /// Sample items: a Query reads at most its partition's items, so a probe's partitions must
    /// hold as many as the proposal's, or a page is priced at a handful of items.
    pub samples: BTreeMap<String, u32>,
}

/// The candidates of `design` for `options`, with items as a previous proposal `measured`
/// them (by entity; the sample's for an entity not in it).
pub fn candidates(
    design: &Design,
    options: &Options,
    measured: &Measured,
) -> Result<Candidates, SynthError> {
    let tables = table_keys(design)?;
    let ids = identities(design);
    let parents = parents(design, &ids);
    let mut identity = Vec::with_capacity(design.entities.len());
    for (entity, id) in design.entities.iter().zip(&ids) {
        match id {
            Some(id) => identity.push(id.clone()),
            None => {
                return Err(SynthError {
                    message: format!(
                        "entity `{}` has no attributes: nothing names one of its items, so no key can be proposed for it",
                        entity.name
                    ),
                });
            }
        }
    }
    let reads = read_shapes(design);
    let key_map: BTreeMap<String, (KeyAttribute, KeyAttribute)> = tables
        .iter()
        .map(|t| {
            (
                t.name.clone(),
                (t.partition_key.clone(), t.sort_key.clone()),
            )
        })
        .collect();
    let mut prober = Prober::new(design, key_map);
    let mut groups_meaning: Vec<GroupMeaning> = design
        .entities
        .iter()
        .enumerate()
        .map(|(e, entity)| GroupMeaning {
            entity: entity.name.clone(),
            identity: identity[e].clone(),
            options: key_options(design, &ids, &identity, &parents, &reads, e, &tables),
        })
        .collect();
    prober.counts = item_counts(&prober, &tables, &groups_meaning);
    prober.sizes = measured.bytes.clone();
    prober.samples = measured.samples.clone();
    let table_of = |entity: &Entity| tables.iter().position(|t| t.name == entity.table);

    // Each option's writes and storage; a hot partition gets the shards the cost model asks.
    let mut groups = Vec::with_capacity(design.entities.len());
    for (e, entity) in design.entities.iter().enumerate() {
        let writes = prober.writes_of(&entity.name);
        let mut choices = Vec::new();
        for option in &mut groups_meaning[e].options {
            let keys = option_keys(&tables, entity, option);
            let probe = prober.design(&entity.table, &[(entity, keys)], None, writes.clone());
            let mut report = prober.estimate(&probe);
            if option.origin != Origin::Pinned
                && let Some(load) = report
                    .partitions
                    .iter()
                    .find(|l| l.index.is_none() && l.hot && l.shards_needed > 1 && l.shards == 1)
            {
                let sharding = Sharding {
                    shards: load.shards_needed,
                    write_units_per_second: load.write_units_per_second,
                };
                option.partition = format!("{}#{{shard:{}}}", option.partition, sharding.shards);
                option.sharding = Some(sharding);
                let keys = option_keys(&tables, entity, option);
                let probe = prober.design(&entity.table, &[(entity, keys)], None, writes.clone());
                report = prober.estimate(&probe);
            }
            choices.push(Choice {
                cost: report.monthly_total,
            });
        }
        groups.push(Group {
            entity: entity.name.clone(),
            table: table_of(entity).unwrap_or_default(),
            options: choices,
        });
    }

    let (paths, paths_meaning) = index_paths(
        design,
        &prober,
        &tables,
        &ids,
        &identity,
        &reads,
        &groups_meaning,
        options.style,
    );

    let scans = scan_costs(design, &prober, &tables, &groups_meaning);
    let mut penalty = 1.0
        + groups
            .iter()
            .map(|g| g.options.iter().map(|c| c.cost).fold(0.0, f64::max))
            .sum::<f64>()
        + paths.iter().map(|p| p.cost).sum::<f64>();
    let mut problem_reads = Vec::with_capacity(reads.len());
    let mut reads_meaning = Vec::with_capacity(reads.len());
    for read in &reads {
        let (servings, meaning) = servings(
            design,
            &prober,
            &tables,
            read,
            &groups_meaning,
            &paths,
            &paths_meaning,
        );
        let scan = scans.get(&read.pattern.name).copied().unwrap_or_default();
        penalty += servings.iter().map(|s| s.cost).fold(0.0, f64::max);
        problem_reads.push(Read {
            pattern: read.pattern.name.clone(),
            servings,
            scan,
        });
        reads_meaning.push(ReadMeaning {
            pattern: read.pattern.name.clone(),
            servings: meaning,
            scan,
            penalty: 0.0,
            unkeyable: unkeyable(design, read),
        });
    }
    for (read, meaning) in problem_reads.iter_mut().zip(&mut reads_meaning) {
        if !read.servings.is_empty() {
            read.scan += penalty;
            meaning.penalty = penalty;
        }
    }
    let problem = Problem {
        groups,
        paths,
        reads: problem_reads,
        count: match options.style {
            Style::SingleTable => IndexCount::Overloaded,
            Style::Natural => IndexCount::Distinct,
        },
        max_gsis: options.max_gsis,
    };
    Ok(Candidates {
        problem,
        tables,
        groups: groups_meaning,
        paths: paths_meaning,
        reads: reads_meaning,
    })
}

impl Candidates {
    /// The problem without the given (read, serving) pairs: servings the rendered design's
    /// verdicts did not confirm. A read left without servings is priced at its Scan.
    pub fn drop_servings(&mut self, wrong: &[(usize, usize)]) {
        let mut wrong = wrong.to_vec();
        wrong.sort_unstable();
        wrong.dedup();
        for &(r, s) in wrong.iter().rev() {
            let (Some(read), Some(meaning)) =
                (self.problem.reads.get_mut(r), self.reads.get_mut(r))
            else {
                continue;
            };
            if s < read.servings.len() {
                read.servings.remove(s);
                meaning.servings.remove(s);
            }
            if read.servings.is_empty() {
                read.scan = meaning.scan;
                meaning.penalty = 0.0;
            }
        }
    }

    /// The penalties in `solution`'s cost: of the reads it scans that some key could serve.
    pub fn penalties(&self, solution: &super::problem::Solution) -> f64 {
        self.reads
            .iter()
            .zip(&solution.servings)
            .filter(|(_, s)| s.is_none())
            .map(|(r, _)| r.penalty)
            .sum()
    }
}

/// Every table's key attributes: the input's names kept, a sort key `SK` added where it has
/// none (co-location needs one).
fn table_keys(design: &Design) -> Result<Vec<TableKeys>, SynthError> {
    let mut out: Vec<TableKeys> = Vec::new();
    for entity in &design.entities {
        if out.iter().any(|t| t.name == entity.table) {
            continue;
        }
        let Some(table) = design.table(&entity.table) else {
            return Err(SynthError {
                message: format!(
                    "entity `{}` is in table `{}`, which the design does not have",
                    entity.name, entity.table
                ),
            });
        };
        let (sort_key, sort_added) = match &table.sort_key {
            Some(sk) => (sk.clone(), false),
            None => {
                let name = if table.partition_key.name == "SK" {
                    "SK2"
                } else {
                    "SK"
                };
                (KeyAttribute::new(name, KeyType::S), true)
            }
        };
        out.push(TableKeys {
            name: table.name.clone(),
            partition_key: table.partition_key.clone(),
            sort_key,
            sort_added,
        });
    }
    Ok(out)
}

fn read_shapes(design: &Design) -> Vec<ReadShape<'_>> {
    design
        .patterns
        .iter()
        .filter(|p| p.is_read())
        .map(|pattern| {
            let sort = pattern
                .sort
                .as_ref()
                .map(|s| s.attribute.clone())
                .or_else(|| pattern.order_by.clone());
            let equal = pattern
                .inputs
                .iter()
                .filter(|i| pattern.sort.as_ref().is_none_or(|s| &s.attribute != *i))
                .cloned()
                .collect();
            let entities = pattern
                .entities
                .iter()
                .filter_map(|name| design.entities.iter().position(|e| &e.name == name))
                .collect();
            ReadShape {
                pattern,
                entities,
                equal,
                sort,
            }
        })
        .collect()
}

/// Whether every returned entity of `read` has every attribute it binds and sorts by, and
/// they share a table: only then can one key serve it.
fn keyable(design: &Design, read: &ReadShape<'_>) -> bool {
    unkeyable(design, read).is_none()
}

/// Why no key can serve `read`, when none can: an entity it returns that the design lacks,
/// entities in different tables, an attribute it binds or sorts by that an entity lacks.
fn unkeyable(design: &Design, read: &ReadShape<'_>) -> Option<String> {
    let pattern = read.pattern;
    if let Some(missing) = pattern
        .entities
        .iter()
        .find(|name| design.entity(name).is_none())
    {
        return Some(format!(
            "it returns `{missing}`, which the design does not have"
        ));
    }
    let Some(&first) = read.entities.first() else {
        return Some("it returns no entity".to_string());
    };
    let first_table = &design.entities[first].table;
    for &e in &read.entities {
        let entity = &design.entities[e];
        if &entity.table != first_table {
            return Some(format!(
                "its entities are in different tables (`{}` in {}, `{}` in {}): no one Query reads both",
                design.entities[first].name, first_table, entity.name, entity.table
            ));
        }
        if let Some(input) = read.equal.iter().find(|i| entity.attribute(i).is_none()) {
            return Some(format!(
                "`{input}` is not an attribute of {}, so no key of it can hold the input",
                entity.name
            ));
        }
        if let Some(sort) = &read.sort
            && read.entities.len() == 1
            && entity.attribute(sort).is_none()
        {
            return Some(format!(
                "`{sort}` is not an attribute of {}, so no sort key of it orders by it",
                entity.name
            ));
        }
    }
    None
}

/// The primary keys entity `e` could have: pinned, or under each parent, keyed on each read's
/// inputs that returns it, and its own partition; in that order, which is the order of
/// preference between equal costs (co-location first, as the seed articles teach). Each is unique per item (its identity is
/// in the partition or the sort key).
fn key_options(
    design: &Design,
    ids: &[Option<String>],
    identity: &[String],
    parents: &[Vec<usize>],
    reads: &[ReadShape<'_>],
    e: usize,
    tables: &[TableKeys],
) -> Vec<KeyOption> {
    let entity = &design.entities[e];
    let table = tables.iter().find(|t| t.name == entity.table);
    if let Some(table) = table
        && let Some(partition) = entity.keys.get(&table.partition_key.name)
    {
        return vec![KeyOption {
            partition: partition.source().to_string(),
            sort: entity
                .keys
                .get(&table.sort_key.name)
                .map(|t| t.source().to_string())
                .unwrap_or_default(),
            origin: Origin::Pinned,
            sharding: None,
        }];
    }
    let id = &identity[e];
    // UpdateItem cannot change a primary key attribute: a key built on one the updates
    // change would make them impossible.
    let changed = changed_attributes(design, &entity.name);
    // Every item holds its primary key: where the entity says which attributes it requires,
    // an optional one (other than its identity) keys an index, never the table.
    let says_required = entity.attributes.iter().any(|a| a.required);
    let optional = |name: &str| {
        says_required && name != id && entity.attribute(name).is_some_and(|a| !a.required)
    };
    let mut out: Vec<KeyOption> = Vec::new();
    let mut push = |partition: Shape, sort: Shape, origin: Origin| {
        if partition
            .attributes()
            .iter()
            .chain(&sort.attributes())
            .any(|a| changed.contains(*a) || optional(a))
        {
            return;
        }
        let option = KeyOption {
            partition: partition.template(),
            sort: sort.template(),
            origin,
            sharding: None,
        };
        if !out
            .iter()
            .any(|o| o.partition == option.partition && o.sort == option.sort)
        {
            out.push(option);
        }
    };
    for &p in &parents[e] {
        let parent = &design.entities[p];
        let partition = Shape(vec![
            Seg::Label(label(&parent.name)),
            Seg::Attr(identity[p].clone()),
        ]);
        let sort = keyed_sort(&entity.name, None, id, &partition);
        push(partition, sort, Origin::Under(parent.name.clone()));
    }
    for read in reads {
        if !read.entities.contains(&e) || read.equal.is_empty() || !keyable(design, read) {
            continue;
        }
        let partition = keyed_partition(design, ids, &entity.name, &read.equal);
        let sort_attr = read
            .sort
            .as_deref()
            .filter(|s| entity.attribute(s).is_some());
        let sort = keyed_sort(&entity.name, sort_attr, id, &partition);
        // Keyed on a parent's identity alone: under the parent, in its item collection.
        let parent = parents[e]
            .iter()
            .find(|&&p| read.equal.len() == 1 && read.equal[0] == identity[p]);
        let origin = match parent {
            Some(&p) => Origin::Under(design.entities[p].name.clone()),
            None => Origin::Keyed(read.pattern.name.clone()),
        };
        push(partition, sort, origin);
    }
    let own = Shape(vec![Seg::Label(label(&entity.name)), Seg::Attr(id.clone())]);
    push(
        own,
        Shape(vec![Seg::Label(label(&entity.name))]),
        Origin::Own,
    );
    out
}

/// The attributes of `entity` some update of the design changes (an update pattern's, or a
/// transaction's update step's).
fn changed_attributes<'d>(design: &'d Design, entity: &str) -> std::collections::BTreeSet<&'d str> {
    let mut out = std::collections::BTreeSet::new();
    for pattern in &design.patterns {
        if pattern.action == crate::model::Action::Update
            && pattern.entities.iter().any(|e| e == entity)
        {
            out.extend(pattern.changes.iter().map(String::as_str));
        }
        for step in &pattern.writes {
            if step.action == crate::model::Action::Update && step.entity == entity {
                out.extend(step.changes.iter().map(String::as_str));
            }
        }
    }
    out
}

/// The entity's keys in the table for `option`.
fn option_keys(
    tables: &[TableKeys],
    entity: &Entity,
    option: &KeyOption,
) -> BTreeMap<String, KeyTemplate> {
    let mut keys = BTreeMap::new();
    if let Some(table) = tables.iter().find(|t| t.name == entity.table) {
        keys.insert(
            table.partition_key.name.clone(),
            KeyTemplate::parse(&option.partition),
        );
        if !option.sort.is_empty() {
            keys.insert(
                table.sort_key.name.clone(),
                KeyTemplate::parse(&option.sort),
            );
        }
    }
    keys
}

/// Items per entity in the whole design with every entity in its first option: its volume,
/// else the whole sample's count, so that every probe prices storage at the same counts.
fn item_counts(
    prober: &Prober<'_>,
    tables: &[TableKeys],
    groups: &[GroupMeaning],
) -> BTreeMap<String, u64> {
    let design = prober.design;
    let mut base = design.clone();
    base.tables.iter_mut().for_each(|t| {
        t.gsis.clear();
        t.lsis.clear();
        if let Some((pk, sk)) = prober.keys.get(&t.name) {
            t.partition_key = pk.clone();
            t.sort_key = Some(sk.clone());
        }
    });
    for (entity, group) in base.entities.iter_mut().zip(groups) {
        if let Some(option) = group.options.first() {
            entity.keys = option_keys(tables, entity, option);
        }
    }
    base.patterns.retain(|p| !p.is_read());
    let report = prober.estimate(&base);
    report
        .entities
        .iter()
        .map(|s| (s.entity.clone(), s.items.round().max(0.0) as u64))
        .collect()
}

/// The monthly cost of each read as a Scan: the whole table read, at its consistency and rate.
fn scan_costs(
    design: &Design,
    prober: &Prober<'_>,
    tables: &[TableKeys],
    groups: &[GroupMeaning],
) -> BTreeMap<String, f64> {
    let mut out = BTreeMap::new();
    for table in tables {
        let members: Vec<(&Entity, BTreeMap<String, KeyTemplate>)> = design
            .entities
            .iter()
            .zip(groups)
            .filter(|(e, _)| e.table == table.name)
            .map(|(e, g)| {
                let keys = g
                    .options
                    .first()
                    .map(|o| option_keys(tables, e, o))
                    .unwrap_or_default();
                (e, keys)
            })
            .collect();
        // Each read with nothing to key on, so that every one of them is a Scan of the table.
        let patterns: Vec<AccessPattern> = design
            .patterns
            .iter()
            .filter(|p| {
                p.is_read()
                    && p.entities
                        .first()
                        .and_then(|n| design.entity(n))
                        .is_some_and(|e| e.table == table.name)
            })
            .map(|p| {
                let mut scan = p.clone();
                scan.inputs.clear();
                scan.sort = None;
                scan.order_by = None;
                scan.filter.clear();
                scan
            })
            .collect();
        if patterns.is_empty() {
            continue;
        }
        let probe = prober.design(&table.name, &members, None, patterns);
        let report = prober.estimate(&probe);
        for cost in &report.patterns {
            out.insert(cost.pattern.clone(), cost.monthly_cost);
        }
    }
    out
}

mod paths;
mod servings;

use paths::index_paths;
use servings::servings;

/// Whether `path` is keyed on its entity's attribute names, as natural style writes an index
/// whose keys are attributes only (single-table style's keys always carry a label).
pub fn keyed_naturally(path: &PathMeaning) -> bool {
    path.kind == PathKind::Gsi
        && path.partition.is_attributes_only()
        && (path.sort.0.is_empty() || path.sort.is_attributes_only())
}

/// The other entities of the path's table that an index keyed naturally for `path` holds
/// too: every one with each of its key attributes (an item with all of an index's key
/// attributes is in it), so their writes and storage in it are the path's, and its reads
/// read them. None for a path keyed on templates.
pub fn landers<'d>(design: &'d Design, path: &PathMeaning) -> Vec<(usize, &'d Entity)> {
    if !keyed_naturally(path) {
        return Vec::new();
    }
    let Some(table) = design.entity(&path.entity).map(|e| e.table.as_str()) else {
        return Vec::new();
    };
    let attributes: Vec<&str> = path
        .partition
        .attributes()
        .into_iter()
        .chain(path.sort.attributes())
        .collect();
    design
        .entities
        .iter()
        .enumerate()
        .filter(|(_, e)| {
            e.name != path.entity
                && e.table == table
                && attributes.iter().all(|a| e.attribute(a).is_some())
        })
        .collect()
}

/// `members` with the landers of `path` added, each on its first key option, without the
/// index's keys (the caller adds [`path_keys`] where the probe has the index).
fn with_landers<'d>(
    design: &'d Design,
    tables: &[TableKeys],
    groups: &[GroupMeaning],
    path: &PathMeaning,
    members: &mut Vec<(&'d Entity, BTreeMap<String, KeyTemplate>)>,
) {
    for (l, lander) in landers(design, path) {
        let keys = groups[l]
            .options
            .first()
            .map(|o| option_keys(tables, lander, o))
            .unwrap_or_default();
        members.push((lander, keys));
    }
}

/// The keys of an entity in a probe's index for a path: the index's key attributes filled by
/// the path's templates.
fn path_keys(path: &PathMeaning) -> BTreeMap<String, KeyTemplate> {
    let mut keys = BTreeMap::new();
    if path.kind == PathKind::Gsi {
        keys.insert(PROBE_PK.to_string(), path.partition.parse());
    }
    if !path.sort.0.is_empty() {
        keys.insert(PROBE_SK.to_string(), path.sort.parse());
    }
    keys
}

/// The probe's index for `path`, shaped as the proposal renders it: a GSI has a sort key only
/// when the path sorts. A sort key the path leaves empty would make its items absent from the
/// probe's index (sparse), so that the index's writes and storage went unpriced while the
/// verdicts still read through it.
fn probe_index(path: &PathMeaning) -> ProbeIndex {
    match path.kind {
        PathKind::Gsi => ProbeIndex::Gsi(Gsi {
            name: PROBE_INDEX.to_string(),
            partition_key: vec![KeyAttribute::new(PROBE_PK, KeyType::S)],
            sort_key: if path.sort.0.is_empty() {
                Vec::new()
            } else {
                vec![KeyAttribute::new(PROBE_SK, KeyType::S)]
            },
            projection: Projection::All,
        }),
        PathKind::Lsi => ProbeIndex::Lsi(Lsi {
            name: PROBE_INDEX.to_string(),
            sort_key: KeyAttribute::new(PROBE_SK, KeyType::S),
            projection: Projection::All,
        }),
    }
}

/// Whether every attribute of `shape` is an input of `read` (or it has none): only then can
/// the read bind it.
fn binds(read: &ReadShape<'_>, shape_attrs: &[&str]) -> bool {
    shape_attrs
        .iter()
        .all(|a| read.pattern.inputs.iter().any(|i| i == a))
}

/// The needs of a path, with the option an LSI requires.
fn path_needs(path: usize, requires: Option<OptionRef>) -> Vec<Need> {
    let mut needs: Vec<Need> = requires.map(Need::Option).into_iter().collect();
    needs.push(Need::Path(path));
    needs
}

/// Distinct values in first-seen order, numbered.
struct Numbering<K: Ord> {
    seen: BTreeMap<K, u32>,
}

impl<K: Ord> Numbering<K> {
    fn new() -> Numbering<K> {
        Numbering {
            seen: BTreeMap::new(),
        }
    }

    fn number(&mut self, key: K) -> u32 {
        let next = self.seen.len() as u32;
        *self.seen.entry(key).or_insert(next)
    }
}
