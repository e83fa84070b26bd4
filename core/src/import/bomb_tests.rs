//! Bombs (issue 41): small files of each format that ask for far more memory than they hold,
//! refused with a message saying what is wrong and where before that memory is taken. What
//! each costs the `keyplan` process is bounded by server/tests/import_bombs.rs, which runs
//! `keyplan import` on bombs of every format under a memory cap.

use expect_test::expect;

use super::import;
#[cfg(feature = "js")]
use super::{Format, js};

/// A OneTable schema in a module whose model `M` has the key `pk` with the value `value` and
/// the attribute `tags` with the values `tags` (JavaScript expressions), after `consts`.
#[cfg(feature = "js")]
fn onetable_module(consts: &str, value: &str, tags: &str) -> String {
    format!(
        "{consts}export const Schema = {{\n  indexes: {{ primary: {{ hash: 'pk' }} }},\n  models: {{ M: {{ pk: {{ type: String, value: {value} }}, tags: {{ type: Array, enum: {tags} }} }} }},\n}};\n"
    )
}

/// `const NAME0 = first;` then `count` constants, each `step` of the one before (`{p}` in
/// `step` is its name).
#[cfg(feature = "js")]
fn doubling(name: &str, first: &str, count: usize, step: &str) -> String {
    let mut out = format!("const {name}0 = {first};\n");
    for i in 1..=count {
        let previous = format!("{name}{}", i - 1);
        out += &format!("const {name}{i} = {};\n", step.replace("{p}", &previous));
    }
    out
}

/// The error reading `text` as a OneTable module gives.
#[cfg(feature = "js")]
fn refused(text: &str) -> String {
    match import(Format::OneTable, text) {
        Ok(_) => "read".to_string(),
        Err(e) => e.to_string(),
    }
}

// issue 41: a 1.6 KB module of template literals, each doubling the one before, asked for
// ~8 GB: the budget counted values, not bytes. Each kind of doubling is refused where the
// text passes the budget, before it is made.
#[cfg(feature = "js")]
#[test]
fn doubling_templates_spreads_and_nested_literals_are_refused_where_they_pass_the_budget() {
    let kilobytes = |n: usize| format!("'{}'", "x".repeat(n * 1024));
    let cases = [
        (
            "template literals",
            onetable_module(
                &doubling("t", "'abcdefghijklmnop'", 40, "`${{p}}${{p}}`"),
                "t40",
                "[]",
            ),
        ),
        (
            "array spreads",
            onetable_module(
                &doubling("s", &format!("[{}]", kilobytes(64)), 30, "[...{p}, ...{p}]"),
                "'M'",
                "s30",
            ),
        ),
        (
            "nested arrays",
            onetable_module(
                &doubling(
                    "a",
                    &kilobytes(1024),
                    6,
                    "[{p}, {p}, {p}, {p}, {p}, {p}, {p}, {p}]",
                ),
                "'M'",
                "a6",
            ),
        ),
        (
            "nested objects",
            onetable_module(
                &doubling(
                    "o",
                    &format!("{{ v: {} }}", kilobytes(64)),
                    30,
                    "{ l: {p}, r: {p} }",
                ),
                "'M'",
                "[o30]",
            ),
        ),
        (
            "values",
            onetable_module(
                &doubling(
                    "v",
                    "[1, 1, 1, 1, 1, 1, 1, 1]",
                    30,
                    "[...{p}, ...{p}, ...{p}]",
                ),
                "'M'",
                "v30",
            ),
        ),
    ];
    let lines: Vec<String> = cases
        .iter()
        .map(|(what, text)| format!("{what} ({} bytes): {}", text.len(), refused(text)))
        .collect();
    expect![[r#"
        template literals (1277 bytes): line 19, column 16: its constants expand to more than 8 MB of text here; keyplan reads schemas, not data
        array spreads (66580 bytes): line 8, column 16: its constants expand to more than 8 MB of text here; keyplan reads schemas, not data
        nested arrays (1049016 bytes): line 2, column 37: its constants expand to more than 8 MB of text here; keyplan reads schemas, not data
        nested objects (66647 bytes): line 8, column 17: its constants expand to more than 8 MB of text here; keyplan reads schemas, not data
        values (1294 bytes): line 10, column 30: its constants expand to more than 200000 values here; keyplan reads schemas, not data"#]].assert_eq(&lines.join("\n"));
}

// issue 15: constants that refer to constants cannot multiply past the evaluation budget.
#[cfg(feature = "js")]
#[test]
fn constants_multiplying_through_references_are_refused() {
    let text = doubling(
        "a",
        "[1, 1, 1, 1, 1, 1, 1, 1]",
        29,
        "[{p}, {p}, {p}, {p}, {p}, {p}, {p}, {p}]",
    ) + "export default a29;\n";
    let error = js::read(&text).expect_err("a billion laughs");
    expect!["line 6, column 29: its constants expand to more than 200000 values here; keyplan reads schemas, not data"]
        .assert_eq(&error.to_string());
}

// issue 41: only what a schema reaches is evaluated. A bomb beside the schema that nothing
// refers to is never made, and code that would make text (`repeat`, `join`, `+`) is never run.
#[cfg(feature = "js")]
#[test]
fn a_bomb_no_schema_refers_to_is_never_evaluated() {
    let bomb = doubling("t", "'abcdefghijklmnop'", 40, "`${{p}}${{p}}`")
        + &doubling(
            "v",
            "[1, 1, 1, 1, 1, 1, 1, 1]",
            30,
            "[...{p}, ...{p}, ...{p}]",
        )
        + "const r = 'x'.repeat(2 ** 40);\nconst j = Array(2 ** 30).fill('x').join('');\n";
    let text = onetable_module(&bomb, "'M#' + r + j", "['a']");
    let imported = import(Format::OneTable, &text).expect("the schema reads");
    let notes: Vec<&str> = imported
        .notes
        .iter()
        .filter(|n| n.starts_with("not literal"))
        .map(String::as_str)
        .collect();
    expect!["not literal, so not read (keyplan never runs the module's code): Schema.models.M.pk.value (`'M#' + r + j`)"].assert_eq(&notes.join("\n"));
    let module = js::read(&text).expect("the module reads");
    let names: Vec<&str> = module.consts.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["Schema"]);
}

// issue 41: a YAML alias bomb, one list of 80,000 scalars referred to 200,000 times, is a
// 1 MB template that expands to 16 billion values; serde_norway's own limit counts the
// aliases, not what they expand to.
#[test]
fn a_yaml_alias_bomb_is_refused_before_it_expands() {
    let mut yaml = String::from("Resources:\n  A: &a [");
    yaml += &"x,".repeat(80_000);
    yaml += "x]\n  B: [";
    yaml += &"*a,".repeat(200_000);
    yaml += "*a]\n";
    let error = import(super::Format::CloudFormation, &yaml).expect_err("a bomb");
    expect!["760033 bytes: line 2, column 88548: Resources.B[5][44269]: the template expands to more than 524288 values (its aliases repeat what they name); keyplan reads templates, not data at line 2 column 88548"].assert_eq(&format!("{} bytes: {error}", yaml.len()));
}

// issue 41: JSON's value budget is a quarter of the import limit, stated as a number where it
// lives (json_budget stands below the importers and does not name them).
#[test]
fn the_json_budget_is_a_quarter_of_the_import_limit() {
    assert_eq!(
        crate::json_budget::MAX_JSON_VALUES,
        super::MAX_IMPORT_BYTES / 4
    );
}

/// Issue 36, item 4: a builder chain (`string().optional()...`) is read a call at a time, at
/// most MAX_NESTING calls deep, so a chain of 400 calls reads on a small stack (the rest of it
/// not literal); past the walk's bound a chain is refused with where it is.
#[cfg(feature = "js")]
#[test]
fn a_builder_chain_longer_than_the_nesting_bound_reads_without_recursing_through_it() {
    let module = |n_calls: usize| {
        format!(
            "const t = new Table({{ name: 't', partitionKey: {{ name: 'pk', type: 'string' }} }});\nconst e = new Entity({{ name: 'E', table: t, schema: item({{ pk: string().key(), a: string(){} }}) }});\n",
            ".optional()".repeat(n_calls)
        )
    };
    let read = |text: String| {
        // A thread with a small stack: recursing once per call would overflow it.
        std::thread::Builder::new()
            .stack_size(1024 * 1024)
            .spawn(move || import(Format::Toolbox, &text).map(|i| i.design.entities.len()))
            .expect("a thread")
            .join()
            .expect("no overflow")
    };
    expect![[r#"Ok(1)"#]].assert_eq(&format!("{:?}", read(module(400))));
    expect![[r#"Err(Syntax { line: 2, column: 83, message: "an expression nested more than 1000 levels deep; keyplan reads schemas, not deeply nested code" })"#]].assert_eq(&format!("{:?}", read(module(5_000))));
}
