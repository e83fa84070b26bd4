//! Prints, for every built-in example, how long its share link is and how that compares with
//! sending the same design as gzipped, base64 NoSQL Workbench JSON (the usual way to paste a
//! model into a chat). Run: `scripts/link-lengths` or
//! `cargo run -p keyplan-core --example link_lengths`.
//!
//! Then every model of the shared corpus of real designs (`../shared/corpus` beside the
//! repository, when present) is imported and its link measured, with the average, so a change
//! to the codec is judged on designs in general and not on the examples alone.
//!
//! With `--seeds DIR` it also writes fuzz seeds for `fuzz/fuzz_targets/share_decode.rs`: each
//! example's link (mode byte 0) and its version-1 wire bytes (mode byte 2).

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use keyplan_core::export::{Target, export};
use keyplan_core::share;

/// Bytes of a gzip member: 10-byte header, the DEFLATE stream, CRC-32 and length (8 bytes).
fn gzip_len(data: &[u8]) -> usize {
    10 + miniz_oxide::deflate::compress_to_vec(data, 9).len() + 8
}

/// Characters of standard, padded base64 for `n` bytes.
fn base64_len(n: usize) -> usize {
    STANDARD.encode(vec![0u8; n]).len()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let seeds = args
        .iter()
        .position(|a| a == "--seeds")
        .and_then(|i| args.get(i + 1));
    println!(
        "{:<24} {:>6} {:>7} {:>6} {:>9} {:>9} {:>6} {:>11} {:>6}",
        "example",
        "wire B",
        "payload",
        "link",
        "NWB JSON",
        "gz+b64",
        "ratio",
        "file gz+b64",
        "ratio"
    );
    for (slug, design) in keyplan_core::examples::all() {
        let wire = share::wire_bytes(&design).len();
        let payload = match share::encode(&design) {
            Ok(p) => p,
            Err(e) => {
                println!("{slug:<24} cannot be shared: {e}");
                continue;
            }
        };
        let link = match share::link(share::DEFAULT_BASE, &design) {
            Ok(l) => l,
            Err(e) => {
                println!("{slug:<24} cannot be shared: {e}");
                continue;
            }
        };
        let nwb = match export(&design, Target::NosqlWorkbench) {
            Ok(text) => text,
            Err(e) => {
                println!("{slug:<24} NoSQL Workbench export failed: {e}");
                continue;
            }
        };
        let nwb_b64 = base64_len(gzip_len(nwb.as_bytes()));
        let file_b64 = base64_len(gzip_len(keyplan_core::file::to_string(&design).as_bytes()));
        println!(
            "{:<24} {:>6} {:>7} {:>6} {:>9} {:>9} {:>6.2} {:>11} {:>6.2}",
            slug,
            wire,
            payload.len(),
            link.len(),
            nwb.len(),
            nwb_b64,
            link.len() as f64 / nwb_b64 as f64,
            file_b64,
            link.len() as f64 / file_b64 as f64
        );
        if let Some(dir) = seeds {
            let mut as_link = vec![0u8];
            as_link.extend_from_slice(link.as_bytes());
            let mut as_wire = vec![2u8];
            as_wire.extend_from_slice(&share::wire_bytes(&design));
            if let Err(e) = std::fs::create_dir_all(dir)
                .and_then(|()| std::fs::write(format!("{dir}/{slug}.link"), as_link))
                .and_then(|()| std::fs::write(format!("{dir}/{slug}.wire"), as_wire))
            {
                eprintln!("cannot write seeds to {dir}: {e}");
            }
        }
    }
    corpus_lengths();
    println!(
        "link = `{}/#d=` + payload; ratio = link length / gzipped base64 NoSQL Workbench JSON \
         (with its generated sample items), then / gzipped base64 keyplan design file",
        share::DEFAULT_BASE
    );
}

/// Link lengths of every corpus model that imports, then their average.
fn corpus_lengths() {
    let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/corpus"));
    let mut paths = Vec::new();
    let mut dirs = vec![root.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for path in entries.flatten().map(|e| e.path()) {
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "json") {
                paths.push(path);
            }
        }
    }
    paths.sort();
    let mut lengths = Vec::new();
    for path in paths {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let Ok(imported) = keyplan_core::import::detect_and_import(&text) else {
            continue;
        };
        let name = path
            .file_stem()
            .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
        match share::link(share::DEFAULT_BASE, &imported.design) {
            Ok(link) => {
                println!(
                    "  corpus {:<44.44} {:>6} {:>6}",
                    name,
                    share::wire_bytes(&imported.design).len(),
                    link.len()
                );
                lengths.push(link.len());
            }
            Err(e) => println!("  corpus {name:<44.44} cannot be shared: {e}"),
        }
    }
    if !lengths.is_empty() {
        println!(
            "corpus: {} designs, average link {:.1} characters (wire B, link)",
            lengths.len(),
            lengths.iter().sum::<usize>() as f64 / lengths.len() as f64
        );
    }
}
