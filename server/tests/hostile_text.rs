//! Issue 41, item 1: no generator writes design text outside an escaped literal or a one-line
//! comment of its target language. A design whose every name and key template literal ends in
//! random text made of control characters, quotes, comment openers and closers, line and
//! paragraph separators and direction marks, each separator followed by a marker, is exported
//! to every format and migrated (re-keyed, rebuilt) to programs in both languages; each output
//! parses in its language, holds no line that starts with the marker (a line the design wrote),
//! and in code the marker is only ever inside a string literal or a comment.
//!
//! Parsers: serde_json, serde_norway (YAML), hcl-rs, oxc (TypeScript), proc-macro2's lexer
//! (Rust), xmlparser (SVG), a GFM table's cell count (Markdown), and the venv's Python (`ast`
//! and `tokenize`) for Python, skipped with a message when it is missing (failed under
//! `KEYPLAN_REQUIRE_TOOLS=1`).

mod hostile_support;
mod migrate_support;
mod run_support;

use std::process::Command;

use hostile_support::{Hostile, MARKER, hostile_design, starts_a_line};
use keyplan_core::export::{Target, export};
use keyplan_core::migrate::code::{Language, generate};
use keyplan_core::migrate::{PlanConfig, plan};
use keyplan_core::model::Design;
use run_support::{repo, tool};

/// How many random designs each run checks (each exported 15 ways, migrated 4 ways).
const CASES: u64 = 12;

/// One generated text, with what it is.
struct Output {
    what: String,
    kind: Kind,
    text: String,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    Json,
    Yaml,
    Hcl,
    TypeScript,
    Python,
    Rust,
    Markdown,
    Svg,
}

fn kind(target: Target) -> Kind {
    match target {
        Target::CloudFormationJson | Target::CreateTable | Target::NosqlWorkbench => Kind::Json,
        Target::CloudFormationYaml => Kind::Yaml,
        Target::Terraform => Kind::Hcl,
        Target::Cdk
        | Target::ElectroDb
        | Target::OneTable
        | Target::Toolbox
        | Target::Dynamoose
        | Target::TypeScript => Kind::TypeScript,
        Target::Python => Kind::Python,
        Target::Rust => Kind::Rust,
        Target::Markdown => Kind::Markdown,
        Target::Svg => Kind::Svg,
    }
}

/// Every output of the hostile design of `seed`: each export, and the programs of two of issue
/// 18's migrations (a re-key and a rebuild) of the hostile order example.
fn outputs(seed: u64) -> Vec<Output> {
    let mut hostile = Hostile::new(seed);
    let mut out = Vec::new();
    for (slug, design) in keyplan_core::examples::all() {
        let design = hostile_design(&design, &mut hostile);
        for target in Target::ALL {
            let text = match export(&design, target) {
                Ok(text) => text,
                // The YAML writer would write a line per line of a name: it refuses instead.
                Err(e)
                    if target == Target::CloudFormationYaml && e.to_string().contains("KP030") =>
                {
                    continue;
                }
                Err(e) => panic!("seed {seed}, {slug} as {target}: {e}"),
            };
            out.push(Output {
                what: format!("seed {seed}: {slug} as {target}"),
                kind: kind(target),
                text,
            });
        }
    }
    let old = migrate_support::order_example();
    let hostile_old = hostile_design(&old, &mut hostile);
    for (what, new) in migrate_support::migrations()
        .into_iter()
        .filter(|(what, _)| what.contains("re-keyed") || what.contains("LSI"))
    {
        let new = hostile_design(&new, &mut hostile);
        let plan = plan(&hostile_old, &new, &PlanConfig::default());
        for (language, kind) in [
            (Language::TypeScript, Kind::TypeScript),
            (Language::Python, Kind::Python),
        ] {
            let text = generate(&hostile_old, &new, &plan, language)
                .unwrap_or_else(|e| panic!("seed {seed}, {what}: {e}"));
            out.push(Output {
                what: format!("seed {seed}: the migration program for {what} in {language:?}"),
                kind,
                text,
            });
        }
    }
    out
}

/// What is wrong with `output` (checked here, in Rust), if anything.
fn wrong(output: &Output) -> Option<String> {
    if let Some(line) = starts_a_line(&output.text) {
        return Some(format!("the design wrote line {line}"));
    }
    let text = &output.text;
    match output.kind {
        Kind::Json => serde_json::from_str::<serde_json::Value>(text)
            .err()
            .map(|e| format!("not JSON: {e}")),
        Kind::Yaml => serde_norway::from_str::<serde_norway::Value>(text)
            .err()
            .map(|e| format!("not YAML: {e}")),
        Kind::Hcl => hcl::parse(text).err().map(|e| format!("not HCL: {e}")),
        Kind::TypeScript => hostile_support::typescript(text),
        Kind::Rust => hostile_support::rust(text),
        Kind::Markdown => hostile_support::markdown(text),
        Kind::Svg => hostile_support::svg(text),
        // Checked by the venv's Python, all at once.
        Kind::Python => None,
    }
}

/// Python's verdict on each file: `ast.parse`, then every token holding the marker is a string
/// or a comment. One line per file that fails.
const PYTHON_CHECK: &str = r#"
import ast, io, sys, tokenize
marker = sys.argv[1]
allowed = {tokenize.STRING, tokenize.COMMENT}
if hasattr(tokenize, "FSTRING_MIDDLE"):
    allowed.add(tokenize.FSTRING_MIDDLE)
for path in sys.argv[2:]:
    source = open(path, encoding="utf-8").read()
    try:
        ast.parse(source)
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if marker in token.string and token.type not in allowed:
                raise SyntaxError(f"the marker in a {tokenize.tok_name[token.type]} token at line {token.start[0]}: {token.line!r}")
    except SyntaxError as e:
        print(f"{path}: {e}")
"#;

// issue 41: a name or key template holding a newline, U+2028 or a comment opener wrote code
// into the generated programs and raw Markdown into the document.
#[test]
fn hostile_names_and_templates_stay_inside_literals_in_every_format_and_program() {
    let mut failures = Vec::new();
    let mut python = Vec::new();
    let mut n_outputs = 0;
    for seed in 0..CASES {
        for output in outputs(seed) {
            n_outputs += 1;
            if let Some(why) = wrong(&output) {
                failures.push(format!("{}: {why}", output.what));
            }
            if output.kind == Kind::Python {
                python.push(output);
            }
        }
    }
    if let Some(interpreter) = tool(".tools/venv/bin/python") {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut files = Vec::new();
        for (i, output) in python.iter().enumerate() {
            let path = dir.path().join(format!("out{i}.py"));
            std::fs::write(&path, &output.text).expect("write");
            files.push(path);
        }
        let result = Command::new(interpreter)
            .current_dir(repo())
            .arg("-c")
            .arg(PYTHON_CHECK)
            .arg(MARKER)
            .args(&files)
            .output()
            .expect("python runs");
        let said = String::from_utf8_lossy(&result.stdout);
        assert!(
            result.status.success(),
            "{}",
            String::from_utf8_lossy(&result.stderr)
        );
        for line in said.lines() {
            let index: usize = line
                .split("out")
                .nth(1)
                .and_then(|rest| rest.split('.').next())
                .and_then(|n| n.parse().ok())
                .unwrap_or(0);
            failures.push(format!("{}: {line}", python[index].what));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {n_outputs} outputs:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

// issue 41: the hostile designs are what the test says: every name holds the marker after a
// separator, so a generator that wrote one raw would be caught.
#[test]
fn every_hostile_name_holds_a_separator_then_the_marker() {
    let mut hostile = Hostile::new(7);
    let design: Design = hostile_design(
        &keyplan_core::examples::get("order-management").expect("the example"),
        &mut hostile,
    );
    let names = design
        .tables
        .iter()
        .map(|t| t.name.clone())
        .chain(design.entities.iter().map(|e| e.name.clone()))
        .chain(design.patterns.iter().map(|p| p.name.clone()));
    for name in names {
        assert!(
            starts_a_line(&format!("x{name}")).is_some(),
            "{name:?} would not be caught"
        );
    }
}
