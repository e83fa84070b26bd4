//! The full analysis (coverage and findings) of a large generated design: 200 entities,
//! 1,000 access patterns and 20 GSIs in one table. It runs on every keystroke in the browser,
//! so the target is a median under 5 ms.
//!
//! Run: `cargo bench -p keyplan-core --bench analysis`.
//!
//! Instruction counts (stable on a loaded machine, unlike times): run the bench binary once
//! with `KEYPLAN_ANALYZE_ONCE=1` under
//! `valgrind --tool=callgrind --toggle-collect='keyplan_core::analysis::analyze*'`, which
//! counts the one `analyze` call and skips criterion's loop. `KEYPLAN_ANALYZE_DUMP=FILE`
//! writes the analysis of this design and of every example to FILE instead of benchmarking:
//! compare the dumps before and after an optimisation.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use keyplan_core::model::*;
use keyplan_core::{KeyTemplate, analyze};

const N_ENTITIES: usize = 200;
const N_GSIS: usize = 20;
/// Entities that share a parent's partition.
const GROUP: usize = 5;

/// One table with 20 GSIs; entities in groups of five under a parent partition, each in one
/// GSI by status; five patterns per entity: a GetItem, a partition Query, a multi-entity
/// Query, a sharded status Query with a range, and a lookup by id alone that needs a Scan.
fn generated_design() -> Design {
    let mut design = Design::new("generated");
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
    });
    for i in 0..N_ENTITIES {
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
            description: String::new(),
            attributes,
            keys,
        });
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

/// The analysis of the generated design and of every example, as text: an optimisation must
/// leave it byte for byte the same.
fn dump(generated: &keyplan_core::Analysis) -> String {
    let mut out = format!("{generated:#?}");
    let examples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let mut files: Vec<_> = std::fs::read_dir(examples)
        .expect("read examples/")
        .map(|f| f.expect("list examples/").path())
        .collect();
    files.sort();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("read an example");
        let design = keyplan_core::file::parse(&text).expect("examples parse");
        out.push_str(&format!("{}\n{:#?}\n", file.display(), analyze(&design)));
    }
    out
}

fn bench(c: &mut Criterion) {
    let design = generated_design();
    assert_eq!(design.patterns.len(), 1000);
    let analysis = analyze(&design);
    let (covered, reads) = analysis.coverage();
    eprintln!(
        "generated design: {} entities, {} patterns ({covered}/{reads} reads covered), {} GSIs, {} findings",
        design.entities.len(),
        design.patterns.len(),
        design.tables[0].gsis.len(),
        analysis.findings.len()
    );
    if let Some(path) = std::env::var_os("KEYPLAN_ANALYZE_DUMP") {
        std::fs::write(path, dump(&analysis)).expect("write the dump");
        return;
    }
    if std::env::var_os("KEYPLAN_ANALYZE_ONCE").is_some() {
        return;
    }
    c.bench_function("analyze 200 entities, 1000 patterns, 20 GSIs", |b| {
        b.iter(|| analyze(black_box(&design)))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
