//! Coverage: for every access pattern, the operation and index that serve it, or why none can.
//!
//! A read is decided per index of the table holding its entities: every returned entity must
//! be in the index (a template for each of its key attributes), the inputs must bind the
//! partition key (a shard variable means scatter-gather), and the sort key must narrow to the
//! returned entities and map the pattern's sort condition. Among the indexes that serve, the
//! cheapest wins (GetItem, then a Query on the table or an LSI, then a GSI; fewer shards; fewer
//! other entity types to skip). A read no index serves is a Scan, with a reason per index and a
//! suggested index.
//!
//! Coverage never sees values: it works on the parsed templates only, and every template is
//! looked up once per analysis ([`Prepared`]), because this runs on every keystroke.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::ops::Bound;
use std::sync::OnceLock;

use crate::accepts::{self, Read, Schema};
use crate::answer::{KeyCondition, KeyPart, Operation, QuerySpec, SortKeyCondition, Verdict};
use crate::model::{
    AccessPattern, Action, Design, Entity, IndexKeys, IndexKind, Order, Projection, SortOp, Table,
};
use crate::template::{KeyTemplate, Part};

pub(crate) mod filter;
pub(crate) mod shape;

pub use filter::clause as filter_clause;
mod suggest;

use shape::{BoundPrefix, bound_prefix, push_literal};

/// One verdict per pattern, in design order.
pub fn verdicts(design: &Design) -> Vec<Verdict> {
    verdicts_of(&Prepared::new(design))
}

/// [`verdicts`] without their words: every reason and suggested index left out, the rest
/// the same. A Scan's reasons (one per index of its table, 21 in the generated designs) and
/// its suggestion were more than a quarter of the verdicts' work (979M -> 693M instructions
/// at 10,000 entities) that the cost estimate, which reads only how each pattern is served,
/// threw away (issue 13).
pub fn verdicts_unexplained(design: &Design) -> Vec<Verdict> {
    let prepared = Prepared::new(design);
    crate::par::map(&design.patterns, |p| verdict_in(&prepared, p, Words::Left))
}

/// The verdict of one pattern of an already prepared design, as [`verdicts_of`] gives it.
pub(crate) fn verdict_of(prepared: &Prepared<'_>, pattern: &AccessPattern) -> Verdict {
    verdict(prepared, pattern)
}

/// [`verdicts`] of an already prepared design (the findings reuse the same [`Prepared`]).
pub(crate) fn verdicts_of(prepared: &Prepared<'_>) -> Vec<Verdict> {
    crate::par::map(&prepared.design.patterns, |p| verdict(prepared, p))
}

/// The design with every table's indexes and every entity's key templates looked up once.
#[derive(Debug)]
pub(crate) struct Prepared<'a> {
    pub design: &'a Design,
    pub tables: Vec<PreparedTable<'a>>,
    /// By entity index: its table's index in `tables` and its position among that table's
    /// entities; `None` when its table does not exist.
    pub homes: Vec<Option<(usize, usize)>>,
    /// The first entity of each name.
    pub entity_by_name: HashMap<&'a str, usize>,
}

#[derive(Debug)]
pub(crate) struct PreparedTable<'a> {
    pub table: &'a Table,
    /// [`Table::indexes`] order: the table, its GSIs, its LSIs.
    pub indexes: Vec<PreparedIndex<'a>>,
}

#[derive(Debug)]
pub(crate) struct PreparedIndex<'a> {
    pub keys: IndexKeys<'a>,
    /// The entities present in the index, in design order.
    pub members: Vec<Member<'a>>,
    /// By an entity's position in its table: its position in `members`.
    pub member_of: Vec<Option<usize>>,
    /// By member: its partition group, the members whose partition templates have the same
    /// text (so their partitions can always be equal).
    partition_group: Vec<usize>,
    /// By group: its members, in design order.
    group_members: Vec<Vec<usize>>,
    /// By group, worked out on first use: the members whose partition can render equal to
    /// the group's, in design order. Comparing groups instead of members keeps a big table
    /// (hundreds of entities in a few dozen partitions) from comparing every pair.
    partition_peers: Vec<OnceLock<Vec<usize>>>,
    /// The groups by the literal text their first partition template begins with. Two
    /// partitions can only be equal when one's beginning starts the other's, so a group is
    /// compared with the groups under a prefix of its beginning or under a longer beginning
    /// it starts, not with all (10,000 entities in 2,000 partitions).
    groups_by_leading: BTreeMap<String, Vec<usize>>,
}

/// The partition peers of each group of an index's members, as far as they were worked out
/// (`None`: never asked for), with the members' partition templates they were worked out
/// from: an edited design's index whose members are the same takes them instead of working
/// them out again (issue 19, [`crate::analysis::Analyzed`]).
#[derive(Debug, Default)]
pub(crate) struct KnownPeers {
    /// Each member's entity and the text of its partition templates.
    members: Vec<(usize, Vec<String>)>,
    by_group: Vec<Option<Vec<usize>>>,
}

impl PreparedIndex<'_> {
    /// The peers worked out for this index, to give [`PreparedIndex::take_known`] of the
    /// next version of the design; `last` is what that gave back for this index.
    pub(crate) fn into_known(self, last: Option<KnownPeers>) -> KnownPeers {
        let members = match last {
            Some(last) => last.members,
            None => self.fingerprint(),
        };
        KnownPeers {
            members,
            by_group: self
                .partition_peers
                .into_iter()
                .map(OnceLock::into_inner)
                .collect(),
        }
    }

    /// Takes the peers `known` holds when they were worked out for members with the same
    /// partition templates, in the same order; gives `known` back either way, with these
    /// members' templates in it.
    pub(crate) fn take_known(&self, mut known: KnownPeers) -> KnownPeers {
        if self.same_members(&known) && known.by_group.len() == self.partition_peers.len() {
            for (cell, peers) in self.partition_peers.iter().zip(&mut known.by_group) {
                if let Some(peers) = peers.take() {
                    let _ = cell.set(peers);
                }
            }
        } else {
            known.members = self.fingerprint();
        }
        known
    }

    /// Each member's entity and the text of its partition templates.
    fn fingerprint(&self) -> Vec<(usize, Vec<String>)> {
        self.members
            .iter()
            .map(|m| {
                let sources = m.partition.iter().map(|t| t.source().to_string()).collect();
                (m.entity, sources)
            })
            .collect()
    }

    fn same_members(&self, known: &KnownPeers) -> bool {
        self.members.len() == known.members.len()
            && self
                .members
                .iter()
                .zip(&known.members)
                .all(|(m, (entity, sources))| {
                    m.entity == *entity
                        && m.partition.len() == sources.len()
                        && m.partition
                            .iter()
                            .zip(sources)
                            .all(|(t, s)| t.source() == s)
                })
    }

    /// The members (positions in `members`) whose partition key can render equal to member
    /// `member`'s, itself included, in design order: the items a Query on its partition can
    /// meet.
    pub fn partition_peers(&self, member: usize) -> &[usize] {
        let group = self.partition_group[member];
        self.partition_peers[group].get_or_init(|| {
            let mine = &self.members[self.group_members[group][0]].partition;
            let leading = partition_leading(mine);
            // Beginnings that are prefixes of this one (itself included), then longer ones.
            let shorter = leading
                .char_indices()
                .map(|(at, _)| &leading[..at])
                .chain([leading])
                .filter_map(|prefix| self.groups_by_leading.get(prefix));
            let longer = self
                .groups_by_leading
                .range::<str, _>((Bound::Excluded(leading), Bound::Unbounded))
                .take_while(|(other, _)| other.starts_with(leading))
                .map(|(_, groups)| groups);
            let mut peers: Vec<usize> = shorter
                .chain(longer)
                .flatten()
                .map(|&other| &self.group_members[other])
                .filter(|other| {
                    let theirs = &self.members[other[0]].partition;
                    theirs
                        .iter()
                        .zip(mine)
                        .all(|(a, b)| shape::can_equal(a.parts(), b.parts()))
                })
                .flatten()
                .copied()
                .collect();
            peers.sort_unstable();
            peers
        })
    }
}

/// The literal text a partition's first template begins with (what [`shape::can_equal`]
/// compares first).
fn partition_leading<'t>(partition: &'t [Cow<'_, KeyTemplate>]) -> &'t str {
    partition
        .first()
        .map_or("", |template| shape::leading(template.parts()))
}

/// An entity present in an index, with its template for each key attribute.
#[derive(Debug)]
pub(crate) struct Member<'a> {
    pub entity: usize,
    pub partition: Vec<Cow<'a, KeyTemplate>>,
    pub sort: Vec<Cow<'a, KeyTemplate>>,
}

impl<'a> Prepared<'a> {
    pub fn new(design: &'a Design) -> Prepared<'a> {
        let mut table_by_name: HashMap<&str, usize> = HashMap::new();
        for (i, t) in design.tables.iter().enumerate() {
            table_by_name.entry(t.name.as_str()).or_insert(i);
        }
        let mut entity_by_name = HashMap::with_capacity(design.entities.len());
        let mut homes = Vec::with_capacity(design.entities.len());
        let mut per_table: Vec<Vec<usize>> = vec![Vec::new(); design.tables.len()];
        for (i, e) in design.entities.iter().enumerate() {
            entity_by_name.entry(e.name.as_str()).or_insert(i);
            match table_by_name.get(e.table.as_str()) {
                Some(&t) => {
                    homes.push(Some((t, per_table[t].len())));
                    per_table[t].push(i);
                }
                None => homes.push(None),
            }
        }
        let tables = design
            .tables
            .iter()
            .zip(per_table)
            .map(|(table, entities)| {
                let templated = Templated::new(design, table, &entities);
                let indexes = table
                    .indexes()
                    .into_iter()
                    .map(|keys| prepare_index(design, keys, &entities, &templated))
                    .collect();
                PreparedTable { table, indexes }
            })
            .collect();
        Prepared {
            design,
            tables,
            homes,
            entity_by_name,
        }
    }

    /// Seeds every index's partition peers from `known` ([`KnownPeers`], table by table,
    /// index by index) where its members are the same; gives `known` back for
    /// [`Prepared::into_known_peers`].
    pub(crate) fn take_known_peers(&self, known: Vec<Vec<KnownPeers>>) -> Vec<Vec<KnownPeers>> {
        known
            .into_iter()
            .zip(&self.tables)
            .map(|(known, table)| {
                known
                    .into_iter()
                    .zip(&table.indexes)
                    .map(|(known, index)| index.take_known(known))
                    .collect()
            })
            .collect()
    }

    /// The partition peers worked out for every index, table by table, for the next version
    /// of the design ([`Prepared::take_known_peers`]); `last` is what that gave back.
    pub(crate) fn into_known_peers(self, last: Vec<Vec<KnownPeers>>) -> Vec<Vec<KnownPeers>> {
        let mut last = last.into_iter();
        self.tables
            .into_iter()
            .map(|table| {
                let mut last = last.next().unwrap_or_default().into_iter();
                table
                    .indexes
                    .into_iter()
                    .map(|index| index.into_known(last.next()))
                    .collect()
            })
            .collect()
    }

    pub fn entity(&self, idx: usize) -> &'a Entity {
        &self.design.entities[idx]
    }

    /// The member record of entity `idx` in index `index` of its table.
    pub fn member(&self, index: &'a PreparedIndex<'a>, idx: usize) -> Option<&'a Member<'a>> {
        self.member_position(index, idx).map(|m| &index.members[m])
    }

    /// The position of entity `idx` among the members of index `index` of its table.
    pub fn member_position(&self, index: &PreparedIndex<'_>, idx: usize) -> Option<usize> {
        let (_, pos) = self.homes[idx]?;
        index.member_of[pos]
    }
}

/// Which of a table's key attributes each of its entities has a template for
/// ([`Entity::key_template`]): worked out once per entity from its own keys and attributes,
/// so that an index whose keys an entity lacks is passed over without looking its keys up
/// (10,000 entities and 21 indexes, issue 13).
struct Templated<'a> {
    /// The table's key attribute names, each with its position.
    positions: HashMap<&'a str, usize>,
    /// Per entity of the table (in the table's order), a flag per key attribute position.
    flags: Vec<bool>,
}

impl<'a> Templated<'a> {
    fn new(design: &Design, table: &'a Table, entities: &[usize]) -> Templated<'a> {
        let positions: HashMap<&str, usize> = table
            .key_attributes()
            .into_iter()
            .enumerate()
            .map(|(position, key)| (key.name.as_str(), position))
            .collect();
        let width = positions.len();
        let mut flags = vec![false; entities.len() * width];
        for (at, &idx) in entities.iter().enumerate() {
            let entity = &design.entities[idx];
            let names = entity
                .keys
                .keys()
                .chain(entity.attributes.iter().map(|a| &a.name));
            for name in names {
                if let Some(&position) = positions.get(name.as_str()) {
                    flags[at * width + position] = true;
                }
            }
        }
        Templated { positions, flags }
    }

    /// The positions of `keys` among the table's key attributes, looked up once per index.
    fn positions_of(&self, keys: &[crate::model::KeyAttribute]) -> Option<Vec<usize>> {
        keys.iter()
            .map(|k| self.positions.get(k.name.as_str()).copied())
            .collect()
    }

    /// Whether the table's entity at position `at` has a template for every key at
    /// `positions` (from [`Templated::positions_of`]).
    fn has_all(&self, at: usize, positions: &[usize]) -> bool {
        let width = self.positions.len();
        positions.iter().all(|&p| self.flags[at * width + p])
    }
}

fn prepare_index<'a>(
    design: &'a Design,
    keys: IndexKeys<'a>,
    entities: &[usize],
    templated: &Templated<'_>,
) -> PreparedIndex<'a> {
    let mut members = Vec::new();
    let mut member_of = Vec::with_capacity(entities.len());
    // The index's keys among the table's (all of them are: they are the table's key
    // attributes).
    let key_positions = templated
        .positions_of(keys.partition_key)
        .zip(templated.positions_of(keys.sort_key));

    for (at, &idx) in entities.iter().enumerate() {
        let entity = &design.entities[idx];
        let templates =
            |attrs: &'a [crate::model::KeyAttribute]| -> Option<Vec<Cow<'a, KeyTemplate>>> {
                attrs.iter().map(|k| entity.key_template(&k.name)).collect()
            };
        let templated_keys = key_positions.as_ref().is_some_and(|(partition, sort)| {
            templated.has_all(at, partition) && templated.has_all(at, sort)
        });
        let present = if keys.partition_key.is_empty() || !templated_keys {
            None
        } else {
            templates(keys.partition_key).and_then(|p| Some((p, templates(keys.sort_key)?)))
        };
        match present {
            Some((partition, sort)) => {
                member_of.push(Some(members.len()));
                members.push(Member {
                    entity: idx,
                    partition,
                    sort,
                });
            }
            None => member_of.push(None),
        }
    }
    // Templates are equal by their text.
    let mut group_of: HashMap<&[Cow<'a, KeyTemplate>], usize> =
        HashMap::with_capacity(members.len());
    let mut partition_group = Vec::with_capacity(members.len());
    let mut group_members: Vec<Vec<usize>> = Vec::new();
    for (position, member) in members.iter().enumerate() {
        let n_groups = group_of.len();
        let group = *group_of.entry(&member.partition).or_insert(n_groups);
        if group == group_members.len() {
            group_members.push(Vec::new());
        }
        group_members[group].push(position);
        partition_group.push(group);
    }
    let partition_peers = vec![OnceLock::new(); group_members.len()];
    let mut groups_by_leading: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (group, positions) in group_members.iter().enumerate() {
        let leading = partition_leading(&members[positions[0]].partition);
        match groups_by_leading.get_mut(leading) {
            Some(groups) => groups.push(group),
            None => {
                groups_by_leading.insert(leading.to_string(), vec![group]);
            }
        }
    }
    PreparedIndex {
        keys,
        members,
        member_of,
        partition_group,
        group_members,
        partition_peers,
        groups_by_leading,
    }
}

/// How an index is named in messages: `the table`, `GSI1`.
pub(crate) fn index_label<'k>(keys: &IndexKeys<'k>) -> &'k str {
    keys.name.unwrap_or("the table")
}

/// Whether a verdict says why: its reasons and suggested index written, or left out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Words {
    Written,
    Left,
}

fn verdict(prepared: &Prepared<'_>, pattern: &AccessPattern) -> Verdict {
    verdict_in(prepared, pattern, Words::Written)
}

fn verdict_in(prepared: &Prepared<'_>, pattern: &AccessPattern, words: Words) -> Verdict {
    let mut verdict = match pattern.action {
        Action::Read => read_verdict(prepared, pattern, words),
        _ => write_verdict(prepared, pattern),
    };
    // The few reasons written before a verdict is decided (an unknown entity) are dropped
    // here; the costly ones are never written.
    if words == Words::Left {
        verdict.reasons = Vec::new();
        verdict.suggestion = None;
    }
    verdict
}

fn empty_verdict(pattern: &AccessPattern, operation: Operation) -> Verdict {
    Verdict {
        pattern: pattern.name.clone(),
        operation,
        table: None,
        index: None,
        key_condition: None,
        query: None,
        filter: None,
        scan_forward: pattern.order == Order::Asc,
        order: None,
        shards: None,
        covered: operation != Operation::Scan,
        reasons: Vec::new(),
        suggestion: None,
    }
}

fn write_verdict(prepared: &Prepared<'_>, pattern: &AccessPattern) -> Verdict {
    let operation = match pattern.action {
        Action::Put => Operation::PutItem,
        Action::Update => Operation::UpdateItem,
        Action::Delete => Operation::DeleteItem,
        Action::Read | Action::Transact => Operation::TransactWriteItems,
    };
    let mut verdict = empty_verdict(pattern, operation);
    let entity_name = match pattern.action {
        Action::Transact => pattern.writes.first().map(|w| w.entity.as_str()),
        _ => pattern.entities.first().map(String::as_str),
    };
    let Some(entity_name) = entity_name else {
        verdict
            .reasons
            .push("the write names no entity".to_string());
        return verdict;
    };
    let Some(&idx) = prepared.entity_by_name.get(entity_name) else {
        verdict
            .reasons
            .push(format!("unknown entity `{entity_name}`"));
        return verdict;
    };
    let Some((table_idx, _)) = prepared.homes[idx] else {
        verdict.reasons.push(format!(
            "entity `{entity_name}` lives in unknown table `{}`",
            prepared.entity(idx).table
        ));
        return verdict;
    };
    let table = &prepared.tables[table_idx];
    verdict.table = Some(table.table.name.clone());
    if pattern.action == Action::Transact {
        return verdict;
    }
    let Some(member) = prepared.member(&table.indexes[0], idx) else {
        verdict.reasons.push(format!(
            "{entity_name} has no template for every primary key attribute of `{}`",
            table.table.name
        ));
        return verdict;
    };
    let keys = &table.indexes[0].keys;
    let query = QuerySpec {
        partition: key_parts(keys.partition_key, &member.partition),
        sort_equal: key_parts(keys.sort_key, &member.sort),
        sort_condition: None,
    };
    verdict.key_condition = Some(key_condition_text(&query));
    verdict.shards = shard_count(&member.partition);
    verdict.query = Some(query);
    verdict
}

fn key_parts(
    attrs: &[crate::model::KeyAttribute],
    templates: &[Cow<'_, KeyTemplate>],
) -> Vec<KeyPart> {
    attrs
        .iter()
        .zip(templates)
        .map(|(k, t)| KeyPart {
            attribute: k.name.clone(),
            template: t.as_ref().clone(),
        })
        .collect()
}

/// The product of the shard counts of these templates, if any is sharded.
fn shard_count(templates: &[Cow<'_, KeyTemplate>]) -> Option<u32> {
    templates
        .iter()
        .filter_map(|t| t.shard().and_then(|v| v.shards))
        .fold(None, |acc, n| Some(acc.unwrap_or(1).saturating_mul(n)))
}

/// A placeholder name: `:pk` when it is the only one of its kind, else `:pk1`, `:pk2`...
fn placeholder(stem: &str, i: usize, n: usize) -> String {
    let mut name = String::with_capacity(stem.len() + 3);
    name.push(':');
    name.push_str(stem);
    if n != 1 {
        name.push_str(&(i + 1).to_string());
    }
    name
}

/// The key condition expression and its placeholder values, from the structured query.
/// The clauses are written into the expression in place, not formatted one by one and
/// joined: every covered read has one (40,000 at 10,000 entities, issue 13).
fn key_condition_text(query: &QuerySpec) -> KeyCondition {
    // Sized up front (each clause's attribute and a few words besides): growing it by
    // doubling was most of this function's work.
    let attributes = query.partition.iter().chain(&query.sort_equal);
    let mut capacity: usize = attributes.map(|p| p.attribute.len() + 16).sum();
    capacity += query
        .sort_condition
        .as_ref()
        .map_or(0, |c| c.attribute.len() + 32);
    let mut expression = String::with_capacity(capacity);
    let mut values = Vec::with_capacity(
        query.partition.len()
            + query.sort_equal.len()
            + query.sort_condition.as_ref().map_or(0, |c| c.values.len()),
    );
    // Each clause is text, so an empty expression is one before the first clause.
    let and = |expression: &mut String| {
        if !expression.is_empty() {
            expression.push_str(" AND ");
        }
    };
    let equal = |expression: &mut String, part: &KeyPart, name: &str| {
        and(expression);
        expression.push_str(&part.attribute);
        expression.push_str(" = ");
        expression.push_str(name);
    };
    let n_pk = query.partition.len();
    for (i, part) in query.partition.iter().enumerate() {
        let name = placeholder("pk", i, n_pk);
        equal(&mut expression, part, &name);
        values.push((name, part.template.source().to_string()));
    }
    let n_sk = query.sort_equal.len() + query.sort_condition.as_ref().map_or(0, |c| c.values.len());
    let mut sk = (0..n_sk).map(|i| placeholder("sk", i, n_sk));
    for part in &query.sort_equal {
        let name = sk.next().unwrap_or_default();
        equal(&mut expression, part, &name);
        values.push((name, part.template.source().to_string()));
    }
    if let Some(cond) = &query.sort_condition {
        let names: Vec<String> = cond
            .values
            .iter()
            .map(|_| sk.next().unwrap_or_default())
            .collect();
        let attr = cond.attribute.as_str();
        and(&mut expression);
        let parts: &[&str] = match (cond.op, names.as_slice()) {
            (SortOp::BeginsWith, [a]) => &["begins_with(", attr, ", ", a, ")"],
            (SortOp::Between, [a, b]) => &[attr, " BETWEEN ", a, " AND ", b],
            (op, [a]) => &[attr, " ", op.as_str(), " ", a],
            (op, _) => &[attr, " ", op.as_str(), " ", &names.join(", ")],
        };
        parts.iter().for_each(|p| expression.push_str(p));
        for (name, t) in names.into_iter().zip(&cond.values) {
            values.push((name, t.source().to_string()));
        }
    }
    KeyCondition { expression, values }
}

/// A way one index serves a read.
#[derive(Debug)]
struct Candidate<'a> {
    position: usize,
    keys: IndexKeys<'a>,
    operation: Operation,
    query: QuerySpec,
    shards: Option<u32>,
    /// Other entity types the Query also reads and the caller must skip.
    skipped: Vec<usize>,
    /// Inputs the key does not use: a filter after the read.
    unused_inputs: Vec<String>,
    /// What the range condition cannot say exactly (BETWEEN's inclusive bound).
    range_note: Option<String>,
    /// The sort-key attribute the Query reads in order and the attribute it orders by, when
    /// one variable follows the bound prefix in every returned entity's sort key.
    ordered_by: Option<(String, Option<String>)>,
}

impl Candidate<'_> {
    /// What the caller must know when this candidate serves the read: written only for the
    /// chosen one, since most candidates lose.
    fn notes(&self, prepared: &Prepared<'_>) -> Vec<String> {
        let label = index_label(&self.keys);
        let mut notes: Vec<String> = self.range_note.iter().cloned().collect();
        if !self.skipped.is_empty() {
            let names: Vec<&str> = self
                .skipped
                .iter()
                .map(|&e| prepared.entity(e).name.as_str())
                .collect();
            notes.push(format!(
                "the Query on {label} can also return {} items: skip them by type",
                names.join(", ")
            ));
        }
        if !self.unused_inputs.is_empty() {
            notes.push(format!(
                "{} not in {label}'s key: filter after the read",
                self.unused_inputs
                    .iter()
                    .map(|i| format!("`{i}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        if let Some(n) = self.shards {
            notes.push(format!(
                "the partition key is write-sharded: scatter {n} Queries, one per shard, and merge"
            ));
        }
        if self.keys.kind != IndexKind::Table {
            match self.keys.projection {
                Projection::All => {}
                Projection::KeysOnly => notes.push(format!(
                    "{label} projects KEYS_ONLY: fetch the items from the table by key"
                )),
                Projection::Include { .. } => notes.push(format!(
                    "{label} projects only some attributes: fetch the rest from the table"
                )),
            }
        }
        notes
    }

    /// Lower is cheaper: GetItem; then a key that uses every input (a filter reads items only
    /// to drop them); then the table or an LSI before a GSI; fewer shards; fewer other entity
    /// types to skip; the table's index order.
    fn rank(&self) -> (bool, usize, u8, u32, usize, usize) {
        let kind = match self.keys.kind {
            IndexKind::Table | IndexKind::Lsi => 1,
            IndexKind::Gsi => 2,
        };
        (
            self.operation != Operation::GetItem,
            self.unused_inputs.len(),
            kind,
            self.shards.unwrap_or(1),
            self.skipped.len(),
            self.position,
        )
    }
}

fn read_verdict(prepared: &Prepared<'_>, pattern: &AccessPattern, words: Words) -> Verdict {
    let mut verdict = empty_verdict(pattern, Operation::Scan);
    let mut returned = Vec::with_capacity(pattern.entities.len());
    for name in &pattern.entities {
        match prepared.entity_by_name.get(name.as_str()) {
            Some(&idx) => returned.push(idx),
            None => verdict.reasons.push(format!("unknown entity `{name}`")),
        }
    }
    if pattern.entities.is_empty() {
        verdict
            .reasons
            .push("the pattern returns no entity: name the entities it reads".to_string());
    }
    if !verdict.reasons.is_empty() {
        return verdict;
    }
    let mut table_idx = None;
    for &idx in &returned {
        let entity = prepared.entity(idx);
        match prepared.homes[idx] {
            None => {
                verdict.reasons.push(format!(
                    "{} lives in unknown table `{}`",
                    entity.name, entity.table
                ));
                return verdict;
            }
            Some((t, _)) => match table_idx {
                None => table_idx = Some(t),
                Some(first) if first != t => {
                    verdict.reasons.push(format!(
                        "{} and {} live in different tables (`{}` and `{}`): one request cannot read both",
                        prepared.entity(returned[0]).name,
                        entity.name,
                        prepared.tables[first].table.name,
                        entity.table
                    ));
                    return verdict;
                }
                Some(_) => {}
            },
        }
    }
    let Some(table_idx) = table_idx else {
        return verdict;
    };
    let table = &prepared.tables[table_idx];
    verdict.table = Some(table.table.name.clone());
    let entities: Vec<&Entity> = returned.iter().map(|&i| prepared.entity(i)).collect();
    // A filter DynamoDB refuses (begins_with on a number) fails the request on every index: no
    // read serves the pattern, and no index would.
    for condition in &pattern.filter {
        let ty = entities
            .iter()
            .find_map(|e| e.attribute(&condition.attribute))
            .map(|a| a.ty);
        if let Some(ty) = ty
            && let Err(refusal) = accepts::filter_condition(&condition.attribute, ty, condition.op)
        {
            verdict
                .reasons
                .push(format!("DynamoDB refuses it: {refusal}"));
            return verdict;
        }
    }
    let unknown = unknown_attributes(pattern, &entities);
    let mut ctx = ReadContext {
        prepared,
        pattern,
        returned: &returned,
        explain: false,
    };
    // An index without the first returned entity serves nothing: passed over before building
    // a candidate, since most of a big table's indexes hold none of its entities (21 indexes,
    // one holding a given entity, for 50,000 patterns; issue 13).
    let mut candidates: Vec<Candidate<'_>> = table
        .indexes
        .iter()
        .enumerate()
        .filter(|(_, index)| prepared.member_position(index, returned[0]).is_some())
        .filter_map(|(position, index)| ctx.filtered_candidate(position, index).ok())
        .collect();
    candidates.sort_by_key(Candidate::rank);
    let mut candidates = candidates.into_iter();
    let Some(best) = candidates.next() else {
        if words == Words::Left {
            verdict.filter = filter::expression(filter::scan_terms(pattern), None);
            return verdict;
        }
        // No index serves it: ask each again, this time for its reason.
        ctx.explain = true;
        verdict.reasons = unknown
            .iter()
            .map(|u| u.to_string())
            .chain(
                table
                    .indexes
                    .iter()
                    .enumerate()
                    .filter_map(|(position, index)| {
                        let reason = ctx.filtered_candidate(position, index).err()?;
                        let label = index_label(&index.keys);
                        let mut line = String::with_capacity(label.len() + 2 + reason.len());
                        line.push_str(label);
                        line.push_str(": ");
                        line.push_str(&reason);
                        Some(line)
                    }),
            )
            .collect();
        // An index keyed on an attribute the entities do not have would serve nothing.
        if unknown.is_empty() {
            verdict.suggestion = suggest::suggestion(&ctx, table);
        }
        if let (Some(cond), Some(by)) = (&pattern.sort, &pattern.order_by)
            && cond.attribute != *by
        {
            verdict.reasons.insert(
                0,
                format!(
                    "a Query returns a range in the order of its attribute: it cannot narrow by `{}` and order by `{by}`; sort after the read, or order by `{}`",
                    cond.attribute, cond.attribute
                ),
            );
        }
        if verdict.suggestion.is_none() && pattern.inputs.is_empty() {
            verdict.reasons.insert(
                0,
                "the pattern has no inputs yet: name the attributes the caller knows".to_string(),
            );
        }
        verdict.filter = filter::expression(filter::scan_terms(pattern), None);
        return verdict;
    };
    let mut best = best;
    let mut reasons: Vec<String> = Vec::new();
    if words == Words::Written {
        reasons.extend(unknown.iter().map(|u| u.to_string()));
        reasons.extend(best.notes(prepared));
    }
    // GetItem takes no FilterExpression: a Query on the whole key reads the same one item
    // and applies the filter (issue 16).
    if best.operation == Operation::GetItem && !pattern.filter.is_empty() {
        best.operation = Operation::Query;
        // The sort key's equality becomes the Query's sort-key condition (a table with no
        // sort key has only its partition key's).
        if let Some(last) = best.query.sort_equal.pop() {
            best.query.sort_condition = Some(SortKeyCondition {
                attribute: last.attribute,
                op: SortOp::Eq,
                values: vec![last.template],
            });
        }
        if words == Words::Written {
            reasons.push(
                "GetItem takes no FilterExpression: a Query on the whole key reads the same item and applies the filter"
                    .to_string(),
            );
        }
    }
    if words == Words::Written {
        for other in candidates {
            reasons.push(why_better(&best, &other));
        }
    }
    verdict.operation = best.operation;
    verdict.covered = true;
    verdict.index = best.keys.name.map(str::to_string);
    verdict.key_condition = Some(key_condition_text(&best.query));
    if best.operation == Operation::Query {
        verdict.filter = filter::expression(
            filter::query_terms(pattern, &best.unused_inputs),
            verdict.key_condition.as_ref(),
        );
    }
    verdict.order = order_text(pattern, &best);
    verdict.query = Some(best.query);
    verdict.shards = best.shards;
    verdict.reasons = reasons;
    verdict
}

/// The order a Query gives, in words, when the pattern names one or reads descending.
fn order_text(pattern: &AccessPattern, best: &Candidate<'_>) -> Option<String> {
    if pattern.order_by.is_none() && pattern.order == Order::Asc {
        return None;
    }
    let (sort_key, by) = best.ordered_by.as_ref()?;
    let descending = pattern.order == Order::Desc;
    let by = by.as_deref().unwrap_or(sort_key);
    let words = match (is_time_like(by), descending) {
        (true, true) => "newest first",
        (true, false) => "oldest first",
        (false, true) => "descending",
        (false, false) => "ascending",
    };
    Some(format!(
        "{words} by {by} (ScanIndexForward={} on {sort_key})",
        !descending
    ))
}

/// True for an attribute named like a point in time: `createdAt`, `orderDate`, `timestamp`.
fn is_time_like(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    name.ends_with("At")
        || name.ends_with("_at")
        || ["date", "time", "timestamp", "day", "month", "year"]
            .iter()
            .any(|w| lower.ends_with(w))
}

/// An attribute a read pattern names (an input, its sort condition's or its order's) that none
/// of the entities it returns has: a typo, or a name left behind by a rename.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct UnknownAttribute<'a> {
    /// `input`, `sort attribute` or `order attribute`.
    pub role: &'static str,
    pub name: &'a str,
    /// The returned entities, as a message names them: `Order`, `Order or Customer`.
    pub entities: String,
    /// The entities' attribute closest to `name`, if one is close enough to be meant.
    pub closest: Option<&'a str>,
}

impl std::fmt::Display for UnknownAttribute<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} `{}` is not an attribute of {}",
            self.role, self.name, self.entities
        )?;
        match self.closest {
            Some(closest) => write!(f, ": did you mean `{closest}`?"),
            None => Ok(()),
        }
    }
}

/// The attributes `pattern` names that none of `entities` has, in the pattern's order (inputs,
/// then the sort condition's, then the order's), each once.
pub(crate) fn unknown_attributes<'a>(
    pattern: &'a AccessPattern,
    entities: &[&'a Entity],
) -> Vec<UnknownAttribute<'a>> {
    if entities.is_empty() {
        return Vec::new();
    }
    let named = pattern
        .inputs
        .iter()
        .map(|i| ("input", i.as_str()))
        .chain(
            pattern
                .sort
                .iter()
                .map(|c| ("sort attribute", c.attribute.as_str())),
        )
        .chain(
            pattern
                .order_by
                .iter()
                .map(|o| ("order attribute", o.as_str())),
        );
    let mut out: Vec<UnknownAttribute<'a>> = Vec::new();
    for (role, name) in named {
        if entities.iter().any(|e| e.attribute(name).is_some())
            || out.iter().any(|u| u.name == name)
        {
            continue;
        }
        let candidates = entities
            .iter()
            .flat_map(|e| e.attributes.iter().map(|a| a.name.as_str()));
        out.push(UnknownAttribute {
            role,
            name,
            entities: entities
                .iter()
                .map(|e| e.name.as_str())
                .collect::<Vec<_>>()
                .join(" or "),
            closest: closest_name(name, candidates),
        });
    }
    out
}

/// What a read pattern asks that cannot hold together, one sentence each (issue 16): an input
/// is matched exactly, so a range condition or an order on that same attribute says nothing
/// a key could serve. Such a pattern gets no suggested index.
pub(crate) fn contradictions(pattern: &AccessPattern) -> Vec<String> {
    let is_input = |name: &str| pattern.inputs.iter().any(|i| i == name);
    let mut out = Vec::new();
    if let Some(cond) = &pattern.sort
        && is_input(&cond.attribute)
    {
        out.push(format!(
            "`{}` is an input, matched exactly, and also the attribute of its sort condition; drop one of them",
            cond.attribute
        ));
    }
    if let Some(by) = &pattern.order_by
        && is_input(by)
        && pattern.sort.as_ref().is_none_or(|c| c.attribute != *by)
    {
        out.push(format!(
            "`{by}` is an input, matched exactly, so every result has the same `{by}` and ordering by it orders nothing"
        ));
    }
    out
}

/// The candidate `name` most likely meant: the nearest by edit distance (ignoring case) among
/// those within a third of the name's length (at least 2 edits), or that one contains the
/// other (`orderId` and `id` after a rename). Ties go to the first.
pub(crate) fn closest_name<'a>(
    name: &str,
    candidates: impl Iterator<Item = &'a str>,
) -> Option<&'a str> {
    // Attribute names are short; a pathological one is not worth a quadratic comparison.
    const LONGEST: usize = 255;
    if name.len() > LONGEST {
        return None;
    }
    let lower = name.to_lowercase();
    let mut best: Option<(usize, &'a str)> = None;
    for candidate in candidates.filter(|c| c.len() <= LONGEST) {
        let other = candidate.to_lowercase();
        let distance = edit_distance(&lower, &other);
        let near = distance <= (lower.chars().count() / 3).max(2);
        let contained = other.len() >= 2 && (lower.contains(&other) || other.contains(&lower));
        if (near || contained) && best.is_none_or(|(d, _)| distance < d) {
            best = Some((distance, candidate));
        }
    }
    best.map(|(_, c)| c)
}

/// Levenshtein distance between `a` and `b`, by characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1)
                .min(row[j] + 1)
                .min(diagonal + usize::from(ca != *cb));
            diagonal = above;
        }
    }
    row[b.len()]
}

/// One sentence saying why `best` beat `other`, by the first criterion that differs.
fn why_better(best: &Candidate<'_>, other: &Candidate<'_>) -> String {
    let (b, o) = (best.rank(), other.rank());
    let name = index_label(&best.keys);
    let other_name = index_label(&other.keys);
    let why = if b.0 != o.0 {
        "a GetItem reads exactly one item by its full key".to_string()
    } else if b.1 != o.1 {
        format!(
            "its key uses more of the inputs ({} left to filter instead of {})",
            b.1, o.1
        )
    } else if b.2 != o.2 {
        match best.keys.kind {
            IndexKind::Lsi => {
                "an LSI shares the table's partitions and can read consistently".to_string()
            }
            _ => "a Query on the table needs no index (no extra writes or storage) and can read consistently".to_string(),
        }
    } else if b.3 != o.3 {
        match b.3 {
            1 => format!("one Query instead of {} (one per shard)", o.3),
            n => format!(
                "{n} Queries instead of {} (fewer shards to scatter over)",
                o.3
            ),
        }
    } else if b.4 != o.4 {
        format!("it reads {} other entity type(s) instead of {}", b.4, o.4)
    } else {
        "it comes first in the table's index order".to_string()
    };
    format!("chose {name} over {other_name}, which also serves it: {why}")
}

pub(crate) struct ReadContext<'p, 'a> {
    pub prepared: &'p Prepared<'a>,
    pub pattern: &'p AccessPattern,
    pub returned: &'p [usize],
    /// Write the reasons of rejected indexes (only needed for a Scan).
    pub explain: bool,
}

impl<'p, 'a> ReadContext<'p, 'a> {
    fn is_input(&self, name: &str) -> bool {
        self.pattern.inputs.iter().any(|i| i == name)
    }

    fn name(&self, idx: usize) -> &'a str {
        &self.prepared.entity(idx).name
    }

    /// A rejection's reason, written only when the verdict will show it (a Scan).
    fn why(&self, reason: impl FnOnce() -> String) -> String {
        if self.explain {
            reason()
        } else {
            String::new()
        }
    }

    /// [`ReadContext::candidate`], refused when its FilterExpression would name a key
    /// attribute of the index, which DynamoDB refuses in a Query (issue 16).
    fn filtered_candidate(
        &self,
        position: usize,
        index: &'a PreparedIndex<'a>,
    ) -> Result<Candidate<'a>, String> {
        let candidate = self.candidate(position, index)?;
        if candidate.operation == Operation::GetItem && self.pattern.filter.is_empty() {
            return Ok(candidate);
        }
        let terms = filter::query_terms(self.pattern, &candidate.unused_inputs);
        match filter::key_attribute_filtered(&candidate.keys, &terms) {
            None => Ok(candidate),
            Some(attribute) => Err(self.why(|| {
                format!(
                    "`{attribute}` is a key attribute of {}, and a Query's FilterExpression cannot name one: make it an input or the sort condition",
                    index_label(&candidate.keys)
                )
            })),
        }
    }

    fn candidate(
        &self,
        position: usize,
        index: &'a PreparedIndex<'a>,
    ) -> Result<Candidate<'a>, String> {
        let keys = index.keys;
        if accepts::consistent_read(keys.kind, self.pattern.consistent).is_err() {
            return Err(self.why(|| {
                "a GSI is eventually consistent, and the pattern needs strongly consistent reads"
                    .to_string()
            }));
        }
        if keys.partition_key.is_empty() {
            return Err(self.why(|| "it has no partition key".to_string()));
        }
        // Every returned entity must be in the index (checked before allocating: most
        // indexes of a big table hold none of them).
        if let Some(&idx) = self
            .returned
            .iter()
            .find(|&&idx| self.prepared.member(index, idx).is_none())
        {
            return Err(self.why(|| {
                let entity = self.prepared.entity(idx);
                let missing = keys
                    .partition_key
                    .iter()
                    .chain(keys.sort_key)
                    .find(|k| entity.key_template(&k.name).is_none())
                    .map_or("its key", |k| k.name.as_str());
                // Written in place: a Scan gives this reason for nearly every index of a big
                // table (10,000 Scans x 21 indexes at 10,000 entities, issue 13).
                let label = index_label(&keys);
                let parts = [
                    entity.name.as_str(),
                    " is absent from ",
                    label,
                    ": it has no template for ",
                    missing,
                ];
                let mut reason = String::with_capacity(parts.iter().map(|p| p.len()).sum());
                parts.iter().for_each(|p| reason.push_str(p));
                reason
            }));
        }
        let members: Vec<&Member<'_>> = self
            .returned
            .iter()
            .filter_map(|&idx| self.prepared.member(index, idx))
            .collect();
        let first = members[0];
        // One partition for all, bound by the inputs.
        for (j, attr) in keys.partition_key.iter().enumerate() {
            let template = &first.partition[j];
            for m in &members[1..] {
                if m.partition[j].source() != template.source() {
                    return Err(self.why(|| format!(
                        "{} and {} keep different {} values (`{}` and `{}`), so no one partition holds both",
                        self.name(first.entity),
                        self.name(m.entity),
                        attr.name,
                        template,
                        m.partition[j]
                    )));
                }
            }
            if let Some(var) = template.attribute_vars().find(|v| !self.is_input(&v.name)) {
                return Err(self.why(|| {
                    format!(
                        "{} = `{template}` needs `{}`, which is not an input",
                        attr.name, var.name
                    )
                }));
            }
        }
        let shards = shard_count(&first.partition);
        let mut query = QuerySpec {
            partition: key_parts(keys.partition_key, &first.partition),
            sort_equal: Vec::new(),
            sort_condition: None,
        };
        let mut range_note = None;
        // Other entities that can share the partition.
        let mut others: Vec<&Member<'_>> = match self.prepared.member_position(index, first.entity)
        {
            Some(position) => index
                .partition_peers(position)
                .iter()
                .map(|&m| &index.members[m])
                .filter(|m| !self.returned.contains(&m.entity))
                .collect(),
            None => Vec::new(),
        };
        let mut skipped: Vec<usize> = Vec::new();
        let mut operation = Operation::Query;
        let n_sort = keys.sort_key.len();
        let mut j = 0;
        // Leading sort attributes every returned entity fills with the same bound template.
        while j < n_sort {
            let template = &first.sort[j];
            let same = members[1..]
                .iter()
                .all(|m| m.sort[j].source() == template.source());
            let bound = template
                .vars()
                .all(|v| v.shards.is_none() && self.is_input(&v.name));
            if !(same && bound) {
                break;
            }
            others.retain(|m| shape::can_equal(m.sort[j].parts(), template.parts()));
            if j + 1 < n_sort {
                query.sort_equal.push(KeyPart {
                    attribute: keys.sort_key[j].name.clone(),
                    template: template.as_ref().clone(),
                });
            } else if let Some(cond) = &self.pattern.sort {
                return Err(self.why(|| format!(
                    "the condition on `{}` has no sort key left to map onto: the inputs bind all of {}",
                    cond.attribute, keys.sort_key[j].name
                )));
            } else if keys.kind == IndexKind::Table && members.len() == 1 && shards.is_none() {
                operation = Operation::GetItem;
                query.sort_equal.push(KeyPart {
                    attribute: keys.sort_key[j].name.clone(),
                    template: template.as_ref().clone(),
                });
            } else {
                query.sort_condition = Some(SortKeyCondition {
                    attribute: keys.sort_key[j].name.clone(),
                    op: SortOp::Eq,
                    values: vec![template.as_ref().clone()],
                });
            }
            j += 1;
        }
        let mut ordered_by = None;
        if n_sort == 0 {
            if let Some(cond) = &self.pattern.sort {
                return Err(self.why(|| {
                    format!(
                        "it has no sort key for the condition on `{}`",
                        cond.attribute
                    )
                }));
            }
            if keys.kind == IndexKind::Table && members.len() == 1 && shards.is_none() {
                operation = Operation::GetItem;
            }
            skipped.extend(others.iter().map(|m| m.entity));
        } else if j == n_sort {
            // Fully bound: only entities with an equal key remain.
            skipped.extend(others.iter().map(|m| m.entity));
        } else {
            let attr = &keys.sort_key[j].name;
            let prefixes: Vec<BoundPrefix<'_>> = members
                .iter()
                .map(|m| bound_prefix(&m.sort[j], |name| self.is_input(name)))
                .collect();
            let mut common = prefixes[0].parts.clone();
            for p in &prefixes[1..] {
                common = shape::common_prefix(&common, &p.parts);
            }
            let has_bound_var = common.iter().any(|p| matches!(p, Part::Var(_)));
            let inside: Vec<&Member<'_>> = others
                .iter()
                .copied()
                .filter(|m| common.is_empty() || shape::can_begin_with(m.sort[j].parts(), &common))
                .collect();
            let (mut below, mut above) = (false, false);
            if !common.is_empty() {
                for m in others
                    .iter()
                    .filter(|m| !inside.iter().any(|i| i.entity == m.entity))
                {
                    let (b, a) = shape::sides(m.sort[j].parts(), &common);
                    below |= b;
                    above |= a;
                }
            }
            skipped.extend(inside.iter().map(|m| m.entity));
            // The attribute the sort key orders by after the bound prefix, if every returned
            // entity continues with the same one.
            let next_var = prefixes
                .iter()
                .map(|p| {
                    p.next
                        .filter(|v| v.shards.is_none() && shape::same_parts(&p.parts, &common))
                        .map(|v| v.name.as_str())
                })
                .reduce(|a, b| if a == b { a } else { None })
                .flatten();
            if let Some(order) = &self.pattern.order_by
                && next_var != Some(order.as_str())
            {
                return Err(self.why(|| {
                    let after = if common.is_empty() {
                        String::new()
                    } else {
                        format!(" after `{}`", KeyTemplate::from_parts(&common))
                    };
                    let sorts_by = match next_var {
                        Some(v) => format!("it sorts by `{v}`{after}"),
                        None => format!("{attr} does not continue with one variable{after}"),
                    };
                    format!("the order by `{order}` is not the order of {attr}: {sorts_by}")
                }));
            }
            ordered_by = Some((attr.clone(), next_var.map(str::to_string)));
            match &self.pattern.sort {
                None => {
                    if !common.is_empty() && (has_bound_var || below || above) {
                        query.sort_condition = Some(SortKeyCondition {
                            attribute: attr.clone(),
                            op: SortOp::BeginsWith,
                            values: vec![KeyTemplate::from_parts(&common)],
                        });
                    }
                }
                Some(cond) => {
                    for (m, p) in members.iter().zip(&prefixes) {
                        let maps = shape::same_parts(&p.parts, &common)
                            && p.next
                                .is_some_and(|v| v.shards.is_none() && v.name == cond.attribute);
                        if !maps {
                            let after = if common.is_empty() {
                                String::new()
                            } else {
                                format!(" after `{}`", KeyTemplate::from_parts(&common))
                            };
                            let next = match p.next {
                                Some(v) if shape::same_parts(&p.parts, &common) => {
                                    format!("the next variable is `{}`", v.name)
                                }
                                Some(_) | None => {
                                    "it does not continue with a variable".to_string()
                                }
                            };
                            return Err(self.why(|| format!(
                                "the condition on `{}` does not map onto {attr}: in {}'s `{}`{after}, {next}, not `{}`",
                                cond.attribute,
                                self.name(m.entity),
                                m.sort[j],
                                cond.attribute
                            )));
                        }
                    }
                    let rest = prefixes[0].rest;
                    let (op, values, note) =
                        range_condition(cond.op, &cond.attribute, &common, rest, below, above);
                    range_note = note;
                    query.sort_condition = Some(SortKeyCondition {
                        attribute: attr.clone(),
                        op,
                        values,
                    });
                }
            }
        }
        // What DynamoDB would refuse is no Query, whatever the shapes say (issue 16: `check`
        // called a begins_with on a number sort key covered while a run skipped it).
        let read = match operation {
            Operation::GetItem => Read::GetItem,
            _ => Read::Query,
        };
        if let Err(refusal) =
            accepts::query_spec(Schema::from(&keys), read, self.pattern.consistent, &query)
        {
            return Err(self.why(|| refusal.to_string()));
        }
        // One item (a GetItem) is in any order; more, with no sort key left, in none.
        if let Some(order) = &self.pattern.order_by
            && ordered_by.is_none()
            && operation != Operation::GetItem
        {
            return Err(self.why(|| {
                if n_sort == 0 {
                    format!("it has no sort key, so nothing orders the results by `{order}`")
                } else {
                    format!(
                        "the inputs bind all of its sort key, so nothing orders the results by `{order}`"
                    )
                }
            }));
        }
        skipped.sort_unstable();
        skipped.dedup();
        let used = |name: &str| {
            query
                .partition
                .iter()
                .chain(&query.sort_equal)
                .map(|k| &k.template)
                .chain(query.sort_condition.iter().flat_map(|c| &c.values))
                .any(|t| t.attribute_vars().any(|v| v.name == name))
        };
        let unused_inputs: Vec<String> = self
            .pattern
            .inputs
            .iter()
            .filter(|i| !used(i))
            .cloned()
            .collect();
        Ok(Candidate {
            position,
            keys,
            operation,
            query,
            shards,
            skipped,
            unused_inputs,
            range_note,
            ordered_by,
        })
    }
}

/// The sort-key condition for a pattern's condition `op` on the variable right after the bound
/// `prefix`, with `rest` the template after the variable.
///
/// Keys sort as text, so a condition on a variable inside a composite key needs care:
/// - after the variable comes more text (`{createdAt}#{orderId}`): `> X` must skip every
///   `X#...`, so its value is `X` followed by the character after `#` (`X$`); `<= X` likewise
///   becomes `< X$`; `= X` becomes `begins_with(X#)`.
/// - before the variable is a literal prefix (`ORDER#{createdAt}`) and other entity types in
///   the partition sort outside it (`PROFILE` above `ORDER#`): a one-sided range would return
///   them too, so the range is closed with `BETWEEN`, bounded by the prefix (`ORDER#`) or its
///   successor (`ORDER$`).
///
/// Returns the key operator, its value templates and, when DynamoDB's inclusive BETWEEN cannot
/// say a strict bound exactly, a note.
fn range_condition(
    op: SortOp,
    attribute: &str,
    prefix: &[Part],
    rest: &[Part],
    below: bool,
    above: bool,
) -> (SortOp, Vec<KeyTemplate>, Option<String>) {
    let var = Part::Var(crate::template::Var {
        name: attribute.to_string(),
        shards: None,
        span: crate::template::Span::new(0, 0),
    });
    let mut value = prefix.to_vec();
    value.push(var);
    let separator = match rest.first() {
        Some(Part::Literal(text)) => Some(text.as_str()),
        _ => None,
    };
    // `value` followed by the least text above every continuation after the variable.
    let past_value = |value: &[Part]| -> Vec<Part> {
        let mut v = value.to_vec();
        match separator
            .and_then(|s| s.chars().next())
            .and_then(shape::next_char)
        {
            Some(c) => push_literal(&mut v, &c.to_string()),
            None => push_literal(&mut v, &char::MAX.to_string()),
        }
        v
    };
    let t = |parts: &[Part]| KeyTemplate::from_parts(parts);
    let var_is_last = rest.is_empty();
    let inclusive_note = |bound: &str| {
        Some(format!(
            "BETWEEN is inclusive: items whose `{attribute}` equals the {bound} bound are returned too; skip them"
        ))
    };
    match op {
        SortOp::Eq if var_is_last => (SortOp::Eq, vec![t(&value)], None),
        SortOp::Eq => {
            let mut v = value.clone();
            if let Some(s) = separator {
                push_literal(&mut v, s);
            }
            (SortOp::BeginsWith, vec![t(&v)], None)
        }
        SortOp::BeginsWith => (SortOp::BeginsWith, vec![t(&value)], None),
        SortOp::Ge if above => (
            SortOp::Between,
            vec![t(&value), t(&shape::successor(prefix))],
            None,
        ),
        SortOp::Ge => (SortOp::Ge, vec![t(&value)], None),
        SortOp::Gt => {
            let low = if var_is_last {
                value.clone()
            } else {
                past_value(&value)
            };
            if above {
                let note = if var_is_last {
                    inclusive_note("lower")
                } else {
                    None
                };
                (
                    SortOp::Between,
                    vec![t(&low), t(&shape::successor(prefix))],
                    note,
                )
            } else if var_is_last {
                (SortOp::Gt, vec![t(&low)], None)
            } else {
                (SortOp::Ge, vec![t(&low)], None)
            }
        }
        SortOp::Lt => {
            if below {
                let note = if var_is_last {
                    inclusive_note("upper")
                } else {
                    None
                };
                (SortOp::Between, vec![t(prefix), t(&value)], note)
            } else {
                (SortOp::Lt, vec![t(&value)], None)
            }
        }
        SortOp::Le => {
            let high = if var_is_last {
                value.clone()
            } else {
                past_value(&value)
            };
            if below {
                (SortOp::Between, vec![t(prefix), t(&high)], None)
            } else if var_is_last {
                (SortOp::Le, vec![t(&high)], None)
            } else {
                (SortOp::Lt, vec![t(&high)], None)
            }
        }
        SortOp::Between => {
            let high = if var_is_last {
                value.clone()
            } else {
                past_value(&value)
            };
            (SortOp::Between, vec![t(&value), t(&high)], None)
        }
    }
}

#[cfg(test)]
pub(crate) mod testing;
#[cfg(test)]
mod tests;
