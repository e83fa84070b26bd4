//! Every export format for the largest built-in example design (the importer's corpus designs
//! join when they are larger). Target: all formats together under 10 ms.

use criterion::{Criterion, criterion_group, criterion_main};
use keyplan_core::export::{Format, export};

fn largest_example() -> keyplan_core::Design {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let mut best: Option<(usize, keyplan_core::Design)> = None;
    for entry in std::fs::read_dir(&dir).expect("examples/ exists") {
        let path = entry.expect("readable entry").path();
        if !path.to_string_lossy().ends_with(".keyplan.json") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("readable example");
        let design = keyplan_core::file::parse(&text).expect("examples parse");
        if best.as_ref().is_none_or(|(size, _)| text.len() > *size) {
            best = Some((text.len(), design));
        }
    }
    best.expect("at least one example").1
}

fn all_formats(c: &mut Criterion) {
    let design = largest_example();
    c.bench_function("export all formats", |b| {
        b.iter(|| {
            for format in Format::ALL {
                let text = export(std::hint::black_box(&design), format).expect("exports");
                std::hint::black_box(text);
            }
        })
    });
}

criterion_group!(benches, all_formats);
criterion_main!(benches);
