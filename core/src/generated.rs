//! Synthetic designs of any size, for the benchmarks (`benches/analysis.rs`,
//! `examples/scale.rs`) and for tests that check a result on a large design against the same
//! result computed piece by piece. Not part of keyplan's API: hidden from the docs.
//!
//! The shape: one table with [`N_GSIS`] GSIs, entities in groups of [`GROUP`] sharing a parent
//! partition, each in one GSI by a write-sharded status, and five read patterns per entity (a
//! GetItem, a partition Query, a two-entity Query, a sharded status Query with a range, and a
//! lookup by id alone that needs a Scan). One table is the hardest case: every check between
//! the entities of a table sees all of them.

use crate::model::*;
use crate::template::KeyTemplate;

/// GSIs of the generated table.
pub const N_GSIS: usize = 20;
/// Entities that share a parent's partition.
pub const GROUP: usize = 5;
/// Read patterns per entity.
pub const PATTERNS_PER_ENTITY: usize = 5;

/// A design of `n_entities` entities (`Thing0`, `Thing1`...) and five patterns for each.
pub fn design(n_entities: usize) -> Design {
    let mut design = Design::new(format!("generated {n_entities}"));
    let gsis = (1..=N_GSIS)
        .map(|g| Gsi {
            name: format!("GSI{g}"),
            partition_key: vec![KeyAttribute::new(format!("GSI{g}PK"), KeyType::S)],
            sort_key: vec![KeyAttribute::new(format!("GSI{g}SK"), KeyType::S)],
            projection: Projection::All,
        })
        .collect();
    design.tables.push(Table {
        name: "app".to_string(),
        partition_key: KeyAttribute::new("PK", KeyType::S),
        sort_key: Some(KeyAttribute::new("SK", KeyType::S)),
        gsis,
        lsis: Vec::new(),
        billing: Billing::OnDemand,
        ttl_attribute: None,
        replicas: Vec::new(),
        vector_indexes: Vec::new(),
    });
    for i in 0..n_entities {
        let name = format!("Thing{i}");
        let id = format!("thing{i}Id");
        let group = i / GROUP;
        let g = i % N_GSIS + 1;
        let mut status = Attribute::new("status", AttrType::S);
        status.values = vec!["NEW".into(), "OPEN".into(), "DONE".into()];
        let attributes = vec![
            Attribute::new(id.clone(), AttrType::S),
            Attribute::new("parentId", AttrType::S),
            status,
            Attribute::new("createdAt", AttrType::S),
            Attribute::new("title", AttrType::S),
            Attribute::new("amount", AttrType::N),
        ];
        let keys = [
            ("PK".to_string(), format!("PARENT{group}#{{parentId}}")),
            ("SK".to_string(), format!("THING{i}#{{{id}}}")),
            (format!("GSI{g}PK"), format!("T{i}#{{status}}#S{{shard:4}}")),
            (format!("GSI{g}SK"), format!("{{createdAt}}#{{{id}}}")),
        ]
        .into_iter()
        .map(|(k, v)| (k, KeyTemplate::parse(&v)))
        .collect();
        design.entities.push(Entity {
            name: name.clone(),
            table: "app".to_string(),
            description: format!("The {i}th thing."),
            attributes,
            keys,
            volume: None,
        });
        design.layout.insert(
            name.clone(),
            Point {
                x: (i % 100) as f64 * 300.0,
                y: (i / 100) as f64 * 200.0,
            },
        );
        let sibling = format!("Thing{}", group * GROUP);
        let mut by_status = AccessPattern::read(format!("{name} by status"), &[&name], &["status"]);
        by_status.sort = Some(SortCondition {
            attribute: "createdAt".to_string(),
            op: SortOp::Gt,
        });
        by_status.rate = 50.0;
        design.patterns.extend([
            AccessPattern::read(format!("Get {name}"), &[&name], &["parentId", &id]),
            AccessPattern::read(format!("{name} of parent"), &[&name], &["parentId"]),
            AccessPattern::read(
                format!("{name} with {sibling}"),
                &[&name, &sibling],
                &["parentId"],
            ),
            by_status,
            AccessPattern::read(format!("{name} by id"), &[&name], &[&id]),
        ]);
    }
    design
}

/// The first built-in example grown to `tables` tables (`table-0`...) of `per_table` entities
/// each (`E{t}x{n}`, an entity of `table-{t}`), listed round-robin across the tables as an
/// import of several files may list them, none placed on the canvas and no patterns: the large
/// import the canvas's automatic placement is tested on.
pub fn across_tables(tables: usize, per_table: usize) -> Design {
    let mut design = crate::examples::first();
    design.layout.clear();
    design.patterns.clear();
    let (Some(table), Some(entity)) = (
        design.tables.first().cloned(),
        design.entities.first().cloned(),
    ) else {
        return design;
    };
    design.tables = (0..tables)
        .map(|t| Table {
            name: format!("table-{t}"),
            ..table.clone()
        })
        .collect();
    design.entities = (0..per_table)
        .flat_map(|n| (0..tables).map(move |t| (n, t)))
        .map(|(n, t)| Entity {
            name: format!("E{t}x{n}"),
            table: format!("table-{t}"),
            ..entity.clone()
        })
        .collect();
    design
}

/// [`design`]'s entities with `n_patterns` patterns among them, for the synthesis benchmark
/// (`scripts/design-bench`: 20 entities and 60 patterns, 100 and 400): each entity's patterns
/// taken in rounds, every entity's first before any entity's second, in the order of
/// [`SYNTH_PATTERN_KINDS`] (a GetItem, a sharded status Query, a Put, a partition Query, a
/// two-entity Query, a lookup by id alone), so every size has reads and writes. At most six
/// patterns per entity: more are not made.
pub fn with_patterns(n_entities: usize, n_patterns: usize) -> Design {
    let mut design = design(n_entities);
    let mut by_entity: Vec<Vec<AccessPattern>> = vec![Vec::new(); n_entities];
    for (p, pattern) in std::mem::take(&mut design.patterns).into_iter().enumerate() {
        by_entity[p / PATTERNS_PER_ENTITY].push(pattern);
    }
    for (i, patterns) in by_entity.iter_mut().enumerate() {
        let mut put = AccessPattern::read(format!("Put Thing{i}"), &[&format!("Thing{i}")], &[]);
        put.action = Action::Put;
        put.rate = 10.0;
        patterns.push(put);
        // design's order (get, of parent, with sibling, by status, by id, put) into the rounds'.
        let order = [0, 3, 5, 1, 2, 4];
        let mut taken: Vec<Option<AccessPattern>> = patterns.drain(..).map(Some).collect();
        patterns.extend(order.iter().filter_map(|&k| taken[k].take()));
    }
    design.patterns = (0..SYNTH_PATTERN_KINDS)
        .flat_map(|round| by_entity.iter().filter_map(move |p| p.get(round).cloned()))
        .take(n_patterns)
        .collect();
    design
}

/// Patterns per entity [`with_patterns`] can make.
pub const SYNTH_PATTERN_KINDS: usize = PATTERNS_PER_ENTITY + 1;

#[cfg(test)]
mod tests {
    #[test]
    fn with_patterns_takes_every_entitys_first_patterns_before_any_entitys_next() {
        let design = super::with_patterns(20, 60);
        assert_eq!(design.entities.len(), 20);
        assert_eq!(design.patterns.len(), 60);
        let names: Vec<&str> = design.patterns.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names[0], "Get Thing0");
        assert_eq!(names[20], "Thing0 by status");
        assert_eq!(names[40], "Put Thing0");
        assert_eq!(names[59], "Put Thing19");
        assert_eq!(super::with_patterns(100, 400).patterns.len(), 400);
        assert_eq!(super::with_patterns(2, 100).patterns.len(), 12);
    }
}
