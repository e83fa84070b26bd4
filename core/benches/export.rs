//! Every export format for the largest design keyplan knows: the built-in examples and every
//! design imported from ../shared/corpus (when it is there), the largest by entities plus
//! patterns plus indexes. Target: all thirteen formats together under 10 ms.
//!
//! Run: `cargo bench -p keyplan-core --bench export`.

use std::path::{Path, PathBuf};

use criterion::{Criterion, criterion_group, criterion_main};
use keyplan_core::Design;
use keyplan_core::export::{Target, export};

fn size(design: &Design) -> usize {
    design.entities.len()
        + design.patterns.len()
        + design
            .tables
            .iter()
            .map(|t| 1 + t.gsis.len() + t.lsis.len())
            .sum::<usize>()
}

fn corpus_designs() -> Vec<(String, Design)> {
    let mut out = Vec::new();
    let mut dirs = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus")];
    let mut files: Vec<PathBuf> = Vec::new();
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "json") {
                files.push(path);
            }
        }
    }
    for path in files {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        if let Ok(imported) = keyplan_core::import::detect_and_import(&text) {
            out.push((path.display().to_string(), imported.design));
        }
    }
    out
}

fn all_formats(c: &mut Criterion) {
    let mut designs: Vec<(String, Design)> = keyplan_core::examples::all()
        .into_iter()
        .map(|(slug, d)| (slug.to_string(), d))
        .collect();
    designs.extend(corpus_designs());
    let (name, design) = designs
        .into_iter()
        .max_by_key(|(_, d)| size(d))
        .expect("at least the built-in examples");
    eprintln!(
        "largest design: {name} ({} entities, {} patterns)",
        design.entities.len(),
        design.patterns.len()
    );
    let mut each = c.benchmark_group("export one format");
    each.sample_size(20)
        .measurement_time(std::time::Duration::from_secs(1))
        .warm_up_time(std::time::Duration::from_millis(300));
    for format in Target::ALL {
        each.bench_function(format.name(), |b| {
            b.iter(|| export(std::hint::black_box(&design), format).expect("exports"))
        });
    }
    each.finish();
    c.bench_function("export all 13 formats of the largest design", |b| {
        b.iter(|| {
            for format in Target::ALL {
                let text = export(std::hint::black_box(&design), format).expect("exports");
                std::hint::black_box(text);
            }
        })
    });
}

criterion_group!(benches, all_formats);
criterion_main!(benches);
