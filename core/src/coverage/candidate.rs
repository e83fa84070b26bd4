//! How one index would serve a read ([`Candidate`]), or why it cannot: its key condition from
//! the returned entities' key templates and the pattern's inputs, sort condition and order
//! ([`ReadContext`]), what else its Query reads, and how it ranks against the others.

use super::filter;
use super::prepared::{Member, Prepared, PreparedIndex, index_label};
use super::shape::{self, BoundPrefix, bound_prefix, push_literal};
use super::{key_parts, shard_count};
use crate::accepts::{self, Read, Schema};
use crate::answer::{KeyPart, Operation, QuerySpec, SortKeyCondition};
use crate::model::{AccessPattern, IndexKeys, IndexKind, Projection, SortOp};
use crate::template::{KeyTemplate, Part};

/// A way one index serves a read.
#[derive(Debug)]
pub(super) struct Candidate<'a> {
    pub(super) position: usize,
    pub(super) keys: IndexKeys<'a>,
    pub(super) operation: Operation,
    pub(super) query: QuerySpec,
    pub(super) shards: Option<u32>,
    /// Other entity types the Query also reads and the caller must skip.
    pub(super) skipped: Vec<usize>,
    /// Inputs the key does not use: a filter after the read.
    pub(super) unused_inputs: Vec<String>,
    /// What the range condition cannot say exactly (BETWEEN's inclusive bound).
    pub(super) range_note: Option<String>,
    /// The sort-key attribute the Query reads in order and the attribute it orders by, when
    /// one variable follows the bound prefix in every returned entity's sort key.
    pub(super) ordered_by: Option<(String, Option<String>)>,
    /// When the key does not read in the pattern's order: why, and the Query reads every
    /// matching item to sort them after the read (issue 43: not a Scan).
    pub(super) sorted_in_memory: Option<String>,
}

impl Candidate<'_> {
    /// What the caller must know when this candidate serves the read: written only for the
    /// chosen one, since most candidates lose.
    pub(super) fn notes(&self, prepared: &Prepared<'_>) -> Vec<String> {
        let label = index_label(&self.keys);
        let mut notes: Vec<String> = self
            .sorted_in_memory
            .iter()
            .chain(&self.range_note)
            .cloned()
            .collect();
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

    /// Lower is cheaper: a key that reads in the pattern's order (sorting in memory reads
    /// every matching item); GetItem; then a key that uses every input (a filter reads items
    /// only to drop them); then the table or an LSI before a GSI; fewer shards; fewer other
    /// entity types to skip; the table's index order.
    pub(super) fn rank(&self) -> (bool, bool, usize, u8, u32, usize, usize) {
        let kind = match self.keys.kind {
            IndexKind::Table | IndexKind::Lsi => 1,
            IndexKind::Gsi => 2,
        };
        (
            self.sorted_in_memory.is_some(),
            self.operation != Operation::GetItem,
            self.unused_inputs.len(),
            kind,
            self.shards.unwrap_or(1),
            self.skipped.len(),
            self.position,
        )
    }
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
    pub(super) fn filtered_candidate(
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
        let mut sorted_in_memory = None;
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
                sorted_in_memory = Some({
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
                });
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
            sorted_in_memory = Some(if n_sort == 0 {
                format!("it has no sort key, so nothing orders the results by `{order}`")
            } else {
                format!(
                    "the inputs bind all of its sort key, so nothing orders the results by `{order}`"
                )
            });
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
            sorted_in_memory,
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
    // issue 43: `{createdAt}$` read as a typo; say what the character after the separator does.
    let past_note = |equal_items: &str| {
        let sep = separator.and_then(|s| s.chars().next())?;
        let next = shape::next_char(sep)?;
        Some(format!(
            "the bound ends in `{next}`, the character after `{sep}`: it sorts after every key that goes on `{sep}...` past `{attribute}`, so items whose `{attribute}` equals the value are {equal_items}"
        ))
    };
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
                    past_note("skipped, as `>` means")
                };
                (
                    SortOp::Between,
                    vec![t(&low), t(&shape::successor(prefix))],
                    note,
                )
            } else if var_is_last {
                (SortOp::Gt, vec![t(&low)], None)
            } else {
                (
                    SortOp::Ge,
                    vec![t(&low)],
                    past_note("skipped, as `>` means"),
                )
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
            let note = (!var_is_last)
                .then(|| past_note("included, as `<=` means"))
                .flatten();
            if below {
                (SortOp::Between, vec![t(prefix), t(&high)], note)
            } else if var_is_last {
                (SortOp::Le, vec![t(&high)], None)
            } else {
                (SortOp::Lt, vec![t(&high)], note)
            }
        }
        SortOp::Between => {
            let high = if var_is_last {
                value.clone()
            } else {
                past_value(&value)
            };
            let note = (!var_is_last)
                .then(|| past_note("included at both ends"))
                .flatten();
            (SortOp::Between, vec![t(&value), t(&high)], note)
        }
    }
}
