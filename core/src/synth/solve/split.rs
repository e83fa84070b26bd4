//! The problem cut into independent components before the search: a read couples the groups
//! its servings need, and an index limit that could bind couples the groups of its table
//! (every group under [`IndexCount::Distinct`], whose indexes are shared; under
//! [`IndexCount::Overloaded`] only a limit on GSIs and LSIs together, as the Pareto front's
//! re-solves set). Servings that can never win (dearer than the Scan, or needing two primary
//! keys of one entity) and the paths only they need are left out: no optimum chooses them.

use super::super::problem::{IndexCount, Need, OptionRef, Path, PathKind, Problem, Read, Serving};

/// An independent part of the problem, re-indexed as a problem of its own.
#[derive(Debug, Clone)]
pub(super) struct Component {
    pub problem: Problem,
    /// The problem's group of each of the component's groups.
    pub groups: Vec<usize>,
    /// The problem's path of each of the component's paths.
    pub paths: Vec<usize>,
}

/// The components, and the cost of the reads none of them holds (served alike by any choice).
#[derive(Debug, Clone)]
pub(super) struct Split {
    pub components: Vec<Component>,
    pub fixed: f64,
}

/// The index limits a search keeps: DynamoDB's (GSIs, LSIs per table), and for the Pareto
/// front's re-solves a limit on the busiest table's indexes of both kinds together.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Limits {
    pub gsis: u32,
    pub lsis: u32,
    pub total: u32,
}

impl Limits {
    pub fn new(problem: &Problem, total: u32) -> Limits {
        Limits {
            gsis: problem.max_gsis.min(total),
            lsis: super::super::problem::MAX_LSIS.min(total),
            total,
        }
    }

    pub fn of(&self, kind: PathKind) -> u32 {
        match kind {
            PathKind::Gsi => self.gsis,
            PathKind::Lsi => self.lsis,
        }
    }
}

/// Whether a serving could ever be chosen: cheaper than the read's Scan, and not needing two
/// primary keys of one entity (directly or through an LSI's).
fn useful(problem: &Problem, read: &Read, serving: &Serving) -> bool {
    if serving.cost >= read.scan {
        return false;
    }
    let mut keys: Vec<OptionRef> = serving
        .needs
        .iter()
        .filter_map(|need| match need {
            Need::Option(o) => Some(*o),
            Need::Path(p) => problem.paths[*p].requires,
        })
        .collect();
    keys.sort();
    keys.dedup();
    keys.windows(2).all(|pair| pair[0].group != pair[1].group)
}

fn need_group(problem: &Problem, need: &Need) -> usize {
    match need {
        Need::Option(o) => o.group,
        Need::Path(p) => problem.paths[*p].group,
    }
}

fn find(parent: &mut [usize], mut at: usize) -> usize {
    while parent[at] != at {
        parent[at] = parent[parent[at]];
        at = parent[at];
    }
    at
}

fn union(parent: &mut [usize], a: usize, b: usize) {
    let (a, b) = (find(parent, a), find(parent, b));
    // The smaller index is the root, so a component is named by its first group.
    parent[a.max(b)] = a.min(b);
}

/// Cuts `problem` (valid) into components under `limits`.
pub(super) fn split(problem: &Problem, limits: Limits) -> Split {
    let n_groups = problem.groups.len();
    let mut parent: Vec<usize> = (0..n_groups).collect();
    let useful_servings: Vec<Vec<usize>> = problem
        .reads
        .iter()
        .map(|read| {
            (0..read.servings.len())
                .filter(|&s| useful(problem, read, &read.servings[s]))
                .collect()
        })
        .collect();
    let mut path_useful = vec![false; problem.paths.len()];
    let mut fixed = 0.0;
    let mut read_home: Vec<Option<usize>> = vec![None; problem.reads.len()];
    for (r, read) in problem.reads.iter().enumerate() {
        let mut first: Option<usize> = None;
        for &s in &useful_servings[r] {
            for need in &read.servings[s].needs {
                if let Need::Path(p) = need {
                    path_useful[*p] = true;
                }
                let group = need_group(problem, need);
                match first {
                    None => first = Some(group),
                    Some(f) => union(&mut parent, f, group),
                }
            }
        }
        match first {
            Some(group) => read_home[r] = Some(group),
            None => {
                // Served alike whatever is chosen: by a serving that needs nothing, or scanned.
                let best = useful_servings[r]
                    .iter()
                    .map(|&s| read.servings[s].cost)
                    .fold(read.scan, f64::min);
                fixed += best;
            }
        }
    }
    couple_tables(problem, limits, &path_useful, &mut parent);

    let roots: Vec<usize> = (0..n_groups).map(|g| find(&mut parent, g)).collect();
    let mut order: Vec<usize> = roots.clone();
    order.sort_unstable();
    order.dedup();
    let mut components: Vec<Component> = order
        .iter()
        .map(|&root| {
            let groups: Vec<usize> = (0..n_groups).filter(|&g| roots[g] == root).collect();
            Component {
                problem: Problem {
                    groups: groups.iter().map(|&g| problem.groups[g].clone()).collect(),
                    paths: Vec::new(),
                    reads: Vec::new(),
                    count: problem.count,
                    max_gsis: problem.max_gsis,
                },
                groups,
                paths: Vec::new(),
            }
        })
        .collect();
    let component_of = |root: usize| order.binary_search(&root).unwrap_or(0);
    let mut local_group = vec![0; n_groups];
    for component in &components {
        for (local, &g) in component.groups.iter().enumerate() {
            local_group[g] = local;
        }
    }
    let local_option = |o: OptionRef| OptionRef {
        group: local_group[o.group],
        option: o.option,
    };
    let mut local_path = vec![0; problem.paths.len()];
    for (p, path) in problem.paths.iter().enumerate() {
        if !path_useful[p] {
            continue;
        }
        let component = &mut components[component_of(roots[path.group])];
        local_path[p] = component.paths.len();
        component.paths.push(p);
        component.problem.paths.push(Path {
            group: local_group[path.group],
            requires: path.requires.map(local_option),
            ..path.clone()
        });
    }
    for (r, read) in problem.reads.iter().enumerate() {
        let Some(home) = read_home[r] else { continue };
        let servings = useful_servings[r]
            .iter()
            .map(|&s| Serving {
                needs: read.servings[s]
                    .needs
                    .iter()
                    .map(|need| match need {
                        Need::Option(o) => Need::Option(local_option(*o)),
                        Need::Path(p) => Need::Path(local_path[*p]),
                    })
                    .collect(),
                cost: read.servings[s].cost,
            })
            .collect();
        components[component_of(roots[home])]
            .problem
            .reads
            .push(Read {
                pattern: read.pattern.clone(),
                servings,
                scan: read.scan,
            });
    }
    Split { components, fixed }
}

/// Joins the groups of a table whose index limit could bind, counted over every useful path.
fn couple_tables(problem: &Problem, limits: Limits, path_useful: &[bool], parent: &mut [usize]) {
    for table in 0..problem.tables() {
        let members: Vec<usize> = (0..problem.paths.len())
            .filter(|&p| path_useful[p] && problem.groups[problem.paths[p].group].table == table)
            .collect();
        let all = problem.index_counts(&members);
        let [gsis, lsis] = all.get(table).copied().unwrap_or([0, 0]);
        let coupled = match problem.count {
            // Each group's own count is a constraint of that group alone; only a limit on both
            // kinds together ties the entity with most GSIs to the one with most LSIs.
            IndexCount::Overloaded => gsis > 0 && lsis > 0 && gsis + lsis > limits.total,
            IndexCount::Distinct => {
                gsis > limits.gsis || lsis > limits.lsis || gsis + lsis > limits.total
            }
        };
        if coupled && let Some(&first) = members.first() {
            let first = problem.paths[first].group;
            for &p in &members[1..] {
                union(parent, first, problem.paths[p].group);
            }
        }
    }
}
