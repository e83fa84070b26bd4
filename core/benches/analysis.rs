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
use keyplan_core::analysis::{Analyzed, analyze_measured};
use keyplan_core::analyze;
use keyplan_core::findings::Measured;

const N_ENTITIES: usize = 200;

/// One table with 20 GSIs; entities in groups of five under a parent partition, each in one
/// GSI by status; five patterns per entity (the generator `examples/scale.rs` grows).
fn generated_design() -> keyplan_core::Design {
    keyplan_core::generated::design(N_ENTITIES)
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
    // The worst case of KP025 (issue 16): every GSI's members fill its sort key with one
    // joined template, so each GSI's multi-attribute offer is checked on a copy of the design
    // (its members, then every pattern it serves).
    let offered = every_gsi_offered(&design);
    let n_offers = analyze(&offered)
        .findings
        .iter()
        .filter(|f| f.code == "KP025" && f.fix.is_some())
        .count();
    eprintln!("the same design with every GSI offered a multi-attribute key: {n_offers} offers");
    c.bench_function(
        "analyze 200 entities, 1000 patterns, 20 GSIs each offered a multi-attribute key",
        |b| b.iter(|| analyze(black_box(&offered))),
    );
    // The browser app's case (issue 19): one key template edited, keystroke after keystroke,
    // each analysed again as the app does (`Analyzed::again`: the verdicts of the patterns the edit cannot reach
    // kept), against the whole analysis of the same edits.
    let keystrokes = |design: &keyplan_core::Design| {
        let mut edited = design.clone();
        let entity = design.entities.len() / 2;
        let key = "PK".to_string();
        let own = edited.entities[entity]
            .key_template(&key)
            .map(|t| t.source().to_string())
            .unwrap_or_default();
        let sources = [format!("{own}#X"), own];
        move |i: usize| {
            edited.entities[entity].keys.insert(
                key.clone(),
                keyplan_core::KeyTemplate::parse(&sources[i % 2]),
            );
            edited.clone()
        }
    };
    let mut edit = keystrokes(&design);
    let edits: Vec<_> = (0..2).map(&mut edit).collect();
    c.bench_function("a key-template keystroke, analysed whole", |b| {
        let mut i = 0;
        b.iter(|| {
            i += 1;
            analyze_measured(black_box(&edits[i % 2]), Some(&Measured::default()))
        })
    });
    c.bench_function(
        "a key-template keystroke, analysed again (Analyzed::again)",
        |b| {
            let mut analyzed = Some(Analyzed::new(&edits[0], Some(&Measured::default()), None));
            let mut i = 0;
            b.iter(|| {
                i += 1;
                let last = analyzed.take().expect("the last analysis");
                let (next, changed) =
                    last.again(black_box(&edits[i % 2]), Some(&Measured::default()), None);
                analyzed = Some(next);
                changed
            })
        },
    );
}

/// `design` with every GSI sort key filled by `{createdAt}#{status}` in every entity.
fn every_gsi_offered(design: &keyplan_core::Design) -> keyplan_core::Design {
    let mut offered = design.clone();
    for entity in &mut offered.entities {
        for (key, template) in entity.keys.iter_mut() {
            if key.starts_with("GSI") && key.ends_with("SK") {
                *template = keyplan_core::KeyTemplate::parse("{createdAt}#{status}");
            }
        }
    }
    offered
}

criterion_group!(benches, bench);
criterion_main!(benches);
