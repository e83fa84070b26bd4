//! A design prepared for coverage ([`Prepared`]): every table's indexes with the entities each
//! holds (its members) and their key templates, looked up once per analysis; and, worked out on
//! first use, which members' partitions can hold the same items (partition peers), kept from
//! one version of a design to the next where the members are the same ([`KnownPeers`]).

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::sync::OnceLock;

use super::shape;
use crate::model::{Design, Entity, IndexKeys, Table};
use crate::template::KeyTemplate;

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
            let mut peers: Vec<usize> =
                shape::agreeing_beginnings(&self.groups_by_leading, leading)
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
