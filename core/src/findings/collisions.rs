//! KP004: entities of one table whose primary keys can render equal, so one item can
//! overwrite another.
//!
//! Decided exactly by [`crate::template::overlap`]: two entities collide when, for every key
//! attribute of the table, their templates can render the same value (the attributes are
//! independent, so this is the whole question). Entities that collide are grouped (by
//! connected pairs), and each group is one finding: a table of generic `{PK}` / `{SK}` keys
//! shared by twenty entities says so once, not 190 times. Nothing here changes the design.

use std::collections::{BTreeMap, HashMap};

use super::Findings;
use crate::answer::{Place, Severity};
use crate::coverage::{Member, Prepared, shape};
use crate::model::{AttrType, Entity};
use crate::template::overlap::{Matcher, Overlap, VarKind};
use crate::template::{KeyTemplate, Var};

/// What the variables of `entity`'s templates can hold: an attribute's known values, a
/// number, or any text.
fn var_kind<'e>(entity: &'e Entity) -> impl Fn(&Var) -> VarKind<'e> {
    move |var| match entity.attribute(&var.name) {
        Some(attribute) if !attribute.values.is_empty() => VarKind::OneOf(&attribute.values),
        Some(attribute) if attribute.ty == AttrType::N => VarKind::Number,
        _ => VarKind::Text,
    }
}

/// The compiled templates of a table, one per distinct pattern, and what pairs of them gave.
struct Compiled {
    by_pattern: HashMap<String, usize>,
    matchers: Vec<Matcher>,
    overlaps: HashMap<(usize, usize), Overlap>,
}

impl Compiled {
    /// Room for `templates` templates and as many pairs, made once: growing the maps on every
    /// insert was a third of the check's time on an edit of the 100-entity benchmark.
    fn with_capacity(templates: usize) -> Compiled {
        Compiled {
            by_pattern: HashMap::with_capacity(templates),
            matchers: Vec::with_capacity(templates),
            overlaps: HashMap::with_capacity(templates),
        }
    }

    fn id(&mut self, template: &KeyTemplate, entity: &Entity) -> usize {
        let matcher = Matcher::new(template.parts(), var_kind(entity));
        if let Some(&id) = self.by_pattern.get(matcher.pattern()) {
            return id;
        }
        self.by_pattern
            .insert(matcher.pattern().to_string(), self.matchers.len());
        self.matchers.push(matcher);
        self.matchers.len() - 1
    }

    fn overlap(&mut self, a: usize, b: usize) -> &Overlap {
        let key = (a.min(b), a.max(b));
        let matchers = &self.matchers;
        self.overlaps
            .entry(key)
            .or_insert_with(|| matchers[key.0].overlap(&matchers[key.1]))
    }
}

/// Two members that can share a primary key: what each key attribute can be for both.
struct Pair {
    first: usize,
    second: usize,
    keys: Vec<Overlap>,
}

/// KP004 for table `t`: one finding per group of entities that can share a primary key.
pub(super) fn collisions(prepared: &Prepared<'_>, t: usize, out: &mut Findings) {
    let table = &prepared.tables[t];
    let Some(primary) = table.indexes.first() else {
        return;
    };
    let members = &primary.members;
    let keys = primary.keys.partition_key.len() + primary.keys.sort_key.len();
    let mut compiled = Compiled::with_capacity(members.len() * keys);
    // Each member's pattern ids, partition then sort: equal ids render the same keys.
    let ids: Vec<(Vec<usize>, Vec<usize>)> = members
        .iter()
        .map(|m| {
            let entity = prepared.entity(m.entity);
            let mut ids = |ts: &[std::borrow::Cow<'_, KeyTemplate>]| {
                ts.iter().map(|t| compiled.id(t, entity)).collect()
            };
            (ids(&m.partition), ids(&m.sort))
        })
        .collect();
    // Members by partition patterns, so a partition pair is compared once, not per member.
    let mut groups: Vec<(&[usize], Vec<usize>)> = Vec::new();
    let mut group_of: HashMap<&[usize], usize> = HashMap::with_capacity(members.len());
    for (i, (partition, _)) in ids.iter().enumerate() {
        let g = *group_of.entry(partition).or_insert_with(|| {
            groups.push((partition, Vec::new()));
            groups.len() - 1
        });
        groups[g].1.push(i);
    }
    let leading = |g: usize| {
        members[groups[g].1[0]]
            .partition
            .first()
            .map_or("", |t| shape::leading(t.parts()))
    };
    // Exact and cheap, to skip most pairs of groups: a key begins with its leading literal, so
    // two keys can only be equal when one's beginning starts the other's. Groups by beginning.
    let mut by_leading: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for g in 0..groups.len() {
        by_leading.entry(leading(g)).or_default().push(g);
    }
    let mut pairs: Vec<Pair> = Vec::new();
    for g in 0..groups.len() {
        let mine = leading(g);
        let mut peers: Vec<usize> = shape::agreeing_beginnings(&by_leading, mine)
            .flatten()
            .copied()
            .collect();
        peers.retain(|&h| h >= g);
        peers.sort_unstable();
        for h in peers {
            // Worked out when a pair of members' sort keys can be equal (most cannot).
            let mut partitions: Option<Option<Vec<Overlap>>> = None;
            'members: for &i in &groups[g].1 {
                for &j in &groups[h].1 {
                    if g == h && j <= i {
                        continue;
                    }
                    let (first, second) = (i.min(j), i.max(j));
                    let (x, y) = (&ids[first].1, &ids[second].1);
                    let Some(sorts) = all_overlap(&mut compiled, x, y) else {
                        continue;
                    };
                    let partitions = partitions.get_or_insert_with(|| {
                        all_overlap(&mut compiled, groups[g].0, groups[h].0)
                    });
                    let Some(partitions) = partitions else {
                        break 'members;
                    };
                    let keys = partitions.iter().cloned().chain(sorts).collect();
                    pairs.push(Pair {
                        first,
                        second,
                        keys,
                    });
                }
            }
        }
    }
    report(prepared, members, &table.table.name, pairs, out);
}

/// What each pair of templates can both render, or `None` when some pair cannot.
fn all_overlap(compiled: &mut Compiled, a: &[usize], b: &[usize]) -> Option<Vec<Overlap>> {
    a.iter()
        .zip(b)
        .map(|(&x, &y)| Some(compiled.overlap(x, y).clone()).filter(|o| *o != Overlap::Disjoint))
        .collect()
}

/// One finding per connected group of colliding members.
fn report(
    prepared: &Prepared<'_>,
    members: &[Member<'_>],
    table: &str,
    mut pairs: Vec<Pair>,
    out: &mut Findings,
) {
    let mut root: Vec<usize> = (0..members.len()).collect();
    fn find(root: &mut [usize], mut i: usize) -> usize {
        while root[i] != i {
            root[i] = root[root[i]];
            i = root[i];
        }
        i
    }
    pairs.sort_by_key(|p| (p.second, p.first));
    for pair in &pairs {
        let (a, b) = (find(&mut root, pair.first), find(&mut root, pair.second));
        root[a.max(b)] = a.min(b);
    }
    // Each group's members in design order, with its first pair (in design order) as example.
    let mut groups: Vec<(usize, Vec<usize>, &Pair)> = Vec::new();
    for pair in &pairs {
        let r = find(&mut root, pair.first);
        if !groups.iter().any(|(g, _, _)| *g == r) {
            let in_group: Vec<usize> = (0..members.len())
                .filter(|&i| find(&mut root, i) == r)
                .collect();
            groups.push((r, in_group, pair));
        }
    }
    for (_, in_group, example) in groups {
        let name = |i: usize| &prepared.entity(members[i].entity).name;
        let entry = |i: usize| format!("{} ({})", name(i), describe_key(&members[i]));
        let listed: Vec<String> = in_group.iter().map(|&i| entry(i)).collect();
        let shared = describe_overlap(&example.keys);
        let message = match listed.as_slice() {
            [a, b] => format!(
                "{a} and {b} can have the same primary key in `{table}` ({shared}): one would overwrite the other; give each a distinct prefix"
            ),
            _ => format!(
                "{} entities can have the same primary key in `{table}`, one overwriting another: {} ({} and {}: {shared}); give each a distinct prefix",
                listed.len(),
                listed.join(", "),
                name(example.first),
                name(example.second),
            ),
        };
        out.push(
            "KP004",
            Severity::Error,
            Place::Keys(name(in_group[1]).clone()),
            message,
        );
    }
}

/// What two keys can both be: `both can be `USER#0` / `PROFILE``, or why keyplan cannot say.
fn describe_overlap(keys: &[Overlap]) -> String {
    if let Some(why) = keys.iter().find_map(|o| match o {
        Overlap::Undecided(why) => Some(why),
        _ => None,
    }) {
        return format!("keyplan could not rule it out: {why}");
    }
    let values: Vec<String> = keys
        .iter()
        .map(|o| match o {
            Overlap::Shared(key) => format!("`{key}`"),
            _ => String::new(),
        })
        .collect();
    format!("both can be {}", values.join(" / "))
}

fn describe_key(m: &Member<'_>) -> String {
    m.partition
        .iter()
        .chain(&m.sort)
        .map(|t| format!("`{t}`"))
        .collect::<Vec<_>>()
        .join(" / ")
}
