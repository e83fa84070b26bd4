//! Explain: one line of why, in figures from the problem, for every table key, index and
//! shard count of a rendered proposal ("GSI1 serves `Get orders by status`; without it that
//! read is a Scan costing $41.20 a month"), and the reads left to a Scan with the reason no
//! key serves them.

use std::collections::BTreeMap;

use super::candidates::{Candidates, Origin};
use super::problem::{Need, Solution};
use super::render::Rendered;
use super::{Reason, Subject, Unserved};
use crate::pricing::{dollars, grouped};

/// The reasons and unserved reads of `solution` as `rendered`.
pub fn explain(
    candidates: &Candidates,
    solution: &Solution,
    rendered: &Rendered,
) -> (Vec<Reason>, Vec<Unserved>) {
    let problem = &candidates.problem;
    let mut reasons = Vec::new();
    // Per table: which reads each entity's primary key serves.
    let mut on_table: BTreeMap<(usize, usize), Vec<String>> = BTreeMap::new();
    // Per index: the reads it serves, their Scan cost without it, and what it costs.
    let mut on_index: BTreeMap<(String, String), (Vec<&str>, f64)> = BTreeMap::new();
    let mut unserved = Vec::new();
    for (r, read) in problem.reads.iter().enumerate() {
        let Some(serving) = solution.servings.get(r).copied().flatten() else {
            unserved.push(Unserved {
                pattern: read.pattern.clone(),
                reason: unserved_reason(candidates, r),
            });
            continue;
        };
        let needs = &read.servings[serving].needs;
        let index = needs.iter().find_map(|n| match n {
            Need::Path(p) => rendered.placed.get(p),
            Need::Option(_) => None,
        });
        match index {
            Some(place) => {
                let entry = on_index.entry(place.clone()).or_default();
                entry.0.push(&read.pattern);
                entry.1 += candidates.reads[r].scan;
            }
            None => {
                let operation = candidates.reads[r]
                    .servings
                    .get(serving)
                    .map_or("Query", |s| s.operation.as_str());
                let one = if needs.len() > 1 {
                    format!("`{}` (one {operation} for all its entities)", read.pattern)
                } else {
                    format!("`{}` ({operation})", read.pattern)
                };
                for need in needs {
                    if let Need::Option(o) = need {
                        on_table
                            .entry((o.group, o.option))
                            .or_default()
                            .push(one.clone());
                    }
                }
            }
        }
    }
    for (t, table) in candidates.tables.iter().enumerate() {
        let mut parts = Vec::new();
        for (g, group) in candidates.groups.iter().enumerate() {
            if problem.groups[g].table != t {
                continue;
            }
            let o = solution.options.get(g).copied().unwrap_or_default();
            let Some(option) = rendered.keys.get(&g) else {
                continue;
            };
            let served = on_table.get(&(g, o)).map(Vec::as_slice).unwrap_or(&[]);
            let key = format!("`{}` / `{}`", option.partition, option.sort);
            let why = match &option.origin {
                Origin::Pinned => "as the input pinned it".to_string(),
                Origin::Own => "its own partition".to_string(),
                Origin::Under(parent) => format!("under {parent}, in its item collection"),
                Origin::Apart(parent) => {
                    format!(
                        "keyed on {parent}'s identity, apart from it (its key is another partition)"
                    )
                }
                Origin::Keyed(pattern) => format!("keyed on the inputs of `{pattern}`"),
            };
            let reads = if served.is_empty() {
                String::new()
            } else {
                format!("; serves {}", and_list(served))
            };
            parts.push(format!("{} at {key}: {why}{reads}", group.entity));
        }
        let mut text = format!(
            "{}/{}: {}",
            table.partition_key.name,
            table.sort_key.name,
            parts.join("; ")
        );
        if table.sort_added {
            text.push_str(&format!(
                " ({} added: the table had no sort key, and co-location needs one)",
                table.sort_key.name
            ));
        }
        reasons.push(Reason {
            subject: Subject::TableKey {
                table: table.name.clone(),
            },
            text,
        });
    }
    // What each index costs: its chosen paths' writes and storage.
    let mut index_cost: BTreeMap<(String, String), f64> = BTreeMap::new();
    for (&p, place) in &rendered.placed {
        *index_cost.entry(place.clone()).or_default() += problem.paths[p].cost;
    }
    for (place, cost) in &index_cost {
        let (served, scans) = on_index.get(place).cloned().unwrap_or_default();
        let text = if served.is_empty() {
            format!(
                "{} costs {} a month in writes and storage",
                place.1,
                money(*cost)
            )
        } else {
            let it = if served.len() == 1 {
                "that read is a Scan"
            } else {
                "they are Scans"
            };
            format!(
                "{} serves {}; without it {it} costing {} a month; it costs {} a month in writes and storage",
                place.1,
                names(&served),
                money(scans),
                money(*cost)
            )
        };
        reasons.push(Reason {
            subject: Subject::Index {
                table: place.0.clone(),
                index: place.1.clone(),
            },
            text,
        });
    }
    shard_reasons(candidates, solution, rendered, &mut reasons);
    (reasons, unserved)
}

fn shard_reasons(
    candidates: &Candidates,
    solution: &Solution,
    rendered: &Rendered,
    reasons: &mut Vec<Reason>,
) {
    let line = |template: &str, shards: u32, units: f64| {
        format!(
            "`{template}`: {shards} shards, {} WCU a second at peak on its busiest partition, over {} per partition",
            grouped(units, 0),
            grouped(crate::limits::PARTITION_WRITE_UNITS_PER_SECOND, 0)
        )
    };
    for (g, group) in candidates.groups.iter().enumerate() {
        let Some(option) = rendered.keys.get(&g) else {
            continue;
        };
        if let Some(sharding) = option.sharding {
            let key = candidates
                .tables
                .get(candidates.problem.groups[g].table)
                .map(|t| t.partition_key.name.clone())
                .unwrap_or_default();
            reasons.push(Reason {
                subject: Subject::Shards {
                    entity: group.entity.clone(),
                    key,
                },
                text: line(
                    &option.partition,
                    sharding.shards,
                    sharding.write_units_per_second,
                ),
            });
        }
    }
    for &p in &solution.paths {
        let path = &candidates.paths[p];
        if let Some(sharding) = path.sharding {
            let key = rendered
                .placed
                .get(&p)
                .map(|(_, index)| format!("{index}PK"))
                .unwrap_or_default();
            reasons.push(Reason {
                subject: Subject::Shards {
                    entity: path.entity.clone(),
                    key,
                },
                text: line(
                    &path.partition.template(),
                    sharding.shards,
                    sharding.write_units_per_second,
                ),
            });
        }
    }
}

/// Why read `r` is left to a Scan.
fn unserved_reason(candidates: &Candidates, r: usize) -> String {
    let read = &candidates.problem.reads[r];
    let meaning = &candidates.reads[r];
    if let Some(why) = &meaning.unkeyable {
        format!(
            "no key can serve it: {why}; a Scan costs {} a month",
            money(meaning.scan)
        )
    } else if read.servings.is_empty() {
        format!(
            "no key keyplan's verdicts accept serves it; a Scan costs {} a month",
            money(meaning.scan)
        )
    } else {
        let cheapest = read
            .servings
            .iter()
            .map(|s| s.cost)
            .fold(f64::INFINITY, f64::min);
        format!(
            "the index limits leave no room for the keys that serve it (a Query would cost {} a month); a Scan costs {} a month",
            money(cheapest),
            money(candidates.reads[r].scan)
        )
    }
}

fn money(x: f64) -> String {
    dollars(x, 2)
}

/// `` `A` ``, `` `A` and `B` ``, `` `A`, `B` and `C` ``.
fn names(reads: &[&str]) -> String {
    let quoted: Vec<String> = reads.iter().map(|r| format!("`{r}`")).collect();
    and_list(&quoted)
}

/// `A`, `A and B`, `A, B and C`.
fn and_list(items: &[String]) -> String {
    match items.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}
