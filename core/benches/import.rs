//! Importing JavaScript and TypeScript modules (issue 15): a large real-shaped ElectroDB module
//! of about 100,000 tokens, a large OneTable module, and the hostile inputs that must be
//! refused fast (nested 100,000 deep, 50 MB). Target: each well under a second.
//!
//! Run: `cargo bench -p keyplan-core --features js --bench import`. It prints the token
//! count of the large modules first.

use criterion::{Criterion, criterion_group, criterion_main};
use keyplan_core::import::{Format, import};

/// `n` ElectroDB entities with ten attributes and three indexes each, in one service.
fn electrodb_module(n: usize) -> String {
    let mut out =
        String::from("import { Entity, Service } from 'electrodb';\nconst table = 'app';\n");
    let mut names = Vec::new();
    for i in 0..n {
        out += &format!(
            "export const E{i} = new Entity({{\n  model: {{ entity: 'e{i}', version: '1', service: 'big' }},\n  attributes: {{\n"
        );
        for a in 0..10 {
            out += &format!(
                "    a{a}: {{ type: 'string', required: {} }},\n",
                a % 2 == 0
            );
        }
        out += "    status: { type: ['open', 'closed'] as const },\n  },\n  indexes: {\n";
        out += "    primary: { pk: { field: 'pk', composite: ['a0'] }, sk: { field: 'sk', composite: ['a1', 'a2'] } },\n";
        out += "    byStatus: { index: 'gsi1', collection: 'all', pk: { field: 'gsi1pk', composite: ['status'] }, sk: { field: 'gsi1sk', composite: ['a3'] } },\n";
        out += "    byA4: { index: 'gsi2', pk: { field: 'gsi2pk', composite: ['a4'], template: 'A4#${a4}', casing: 'none' }, sk: { field: 'gsi2sk', composite: [] } },\n";
        out += "  },\n}, { table });\n";
        names.push(format!("E{i}"));
    }
    out += &format!(
        "export const service = new Service({{ {} }}, {{ table }});\n",
        names.join(", ")
    );
    out
}

/// Tokens, roughly: runs of word characters and each punctuation character.
fn tokens(text: &str) -> usize {
    let mut n = 0;
    let mut in_word = false;
    for c in text.chars() {
        let word = c.is_alphanumeric() || c == '_' || c == '$';
        if (word && !in_word) || (!word && !c.is_whitespace()) {
            n += 1;
        }
        in_word = word;
    }
    n
}

fn onetable_module(n: usize) -> String {
    let mut out = String::from(
        "export const Schema = {\n  indexes: { primary: { hash: 'pk', sort: 'sk' }, gs1: { hash: 'gs1pk', sort: 'gs1sk' } },\n  models: {\n",
    );
    for i in 0..n {
        out += &format!(
            "    M{i}: {{\n      pk: {{ type: String, value: 'm{i}#${{id}}' }},\n      sk: {{ type: String, value: 'm{i}#' }},\n      gs1pk: {{ type: String, value: 'm{i}#${{a1}}' }},\n      gs1sk: {{ type: String, value: '${{a2}}' }},\n"
        );
        for a in 0..10 {
            out += &format!("      a{a}: {{ type: Number, required: true }},\n");
        }
        out += "      id: { type: String, generate: 'ulid' },\n    },\n";
    }
    out += "  },\n} as const;\n";
    out
}

fn bench(c: &mut Criterion) {
    let electrodb = electrodb_module(400);
    let onetable = onetable_module(600);
    println!(
        "electrodb module: {} bytes, {} tokens; onetable module: {} bytes, {} tokens",
        electrodb.len(),
        tokens(&electrodb),
        onetable.len(),
        tokens(&onetable)
    );
    assert!(import(Format::ElectroDb, &electrodb).is_ok());
    assert!(import(Format::OneTable, &onetable).is_ok());
    let mut group = c.benchmark_group("import");
    group.sample_size(10);
    group.bench_function("electrodb 100k tokens", |b| {
        b.iter(|| import(Format::ElectroDb, &electrodb))
    });
    group.bench_function("onetable 100k tokens", |b| {
        b.iter(|| import(Format::OneTable, &onetable))
    });
    let deep = format!(
        "export const x = {}1{};",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    group.bench_function("nested 100,000 deep (refused)", |b| {
        b.iter(|| import(Format::ElectroDb, &deep))
    });
    let huge = format!("export const x = '{}';", "a".repeat(50 * 1024 * 1024));
    group.bench_function("50 MB (refused)", |b| {
        b.iter(|| import(Format::OneTable, &huge))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
