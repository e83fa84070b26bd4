//! `keyplan check`, `keyplan import` and `keyplan schema`, run as the built binary: exit codes
//! 0, 1 and 2, the exact `--json` shape, imports that write readable design files, and the
//! committed JSON Schema kept in step with the types.

mod cli_support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use keyplan_core::model::{
    AccessPattern, AttrType, Attribute, Design, Entity, KeyAttribute, KeyType, Table,
};

fn keyplan(args: &[&str]) -> Output {
    cli_support::keyplan_without(&[], args)
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Asserts the exit code, showing what the command printed when it is another.
fn exits(output: &Output, code: i32) {
    assert_eq!(
        output.status.code(),
        Some(code),
        "{}{}",
        stdout(output),
        stderr(output)
    );
}

/// A file of `shared/corpus` beside the checkout (the main checkout's folder, or the folder of
/// the worktrees a checkout sits in).
fn corpus(relative: &str) -> PathBuf {
    let server = Path::new(env!("CARGO_MANIFEST_DIR"));
    server
        .ancestors()
        .skip(2)
        .map(|dir| dir.join("shared/corpus"))
        .find(|dir| dir.is_dir())
        .unwrap_or_else(|| server.join("../../shared/corpus"))
        .join(relative)
}

/// A one-table design: a user read by id, and (when `with_scan`) a read by email no index serves.
fn design(with_scan: bool) -> Design {
    let mut design = Design::new("users");
    design.tables.push(Table::new(
        "app".into(),
        KeyAttribute::new("PK", KeyType::S),
        Some(KeyAttribute::new("SK", KeyType::S)),
    ));
    let mut user_id = Attribute::new("userId", AttrType::S);
    user_id.required = true;
    let mut email = Attribute::new("email", AttrType::S);
    email.required = true;
    design.entities.push(Entity {
        name: "User".into(),
        table: "app".into(),
        description: String::new(),
        attributes: vec![user_id, email],
        keys: [
            ("PK".to_string(), "USER#{userId}".into()),
            ("SK".to_string(), "PROFILE".into()),
        ]
        .into_iter()
        .collect(),
        volume: None,
    });
    design
        .patterns
        .push(AccessPattern::read("Get user", &["User"], &["userId"]));
    if with_scan {
        design.patterns.push(AccessPattern::read(
            "Find user by email",
            &["User"],
            &["email"],
        ));
    }
    design
}

fn write_design(dir: &Path, name: &str, design: &Design) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, keyplan_core::file::to_string(design)).expect("writable temp file");
    path
}

#[test]
fn check_exits_0_when_every_read_is_covered() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = write_design(dir.path(), "ok.keyplan.json", &design(false));
    let out = keyplan(&["check", file.to_str().expect("utf-8 path")]);
    exits(&out, 0);
    let text = stdout(&out);
    assert!(text.contains("Get user"), "{text}");
    assert!(text.contains("GetItem"), "{text}");
    assert!(text.contains("PK = :pk AND SK = :sk"), "{text}");
    assert!(
        !text.contains('\u{1b}'),
        "no colour when stdout is not a terminal: {text:?}"
    );
}

#[test]
fn check_exits_1_and_explains_when_a_read_needs_a_scan() {
    let dir = tempfile::tempdir().expect("temp dir");
    let ok = write_design(dir.path(), "ok.keyplan.json", &design(false));
    let bad = write_design(dir.path(), "scan.keyplan.json", &design(true));
    let out = keyplan(&[
        "check",
        ok.to_str().expect("utf-8"),
        bad.to_str().expect("utf-8"),
    ]);
    exits(&out, 1);
    let text = stdout(&out);
    assert!(text.contains("Find user by email"), "{text}");
    assert!(text.contains("Scan"), "{text}");
    assert!(text.contains("because"), "{text}");
    assert!(text.contains("suggestion:"), "{text}");
}

// issue 41: `keyplan check` exited 0 on a design whose key template held U+2028, which
// ended a comment of the migration program keyplan wrote from it.
#[test]
fn check_exits_1_naming_a_line_separator_in_a_key_template() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut hostile = design(false);
    hostile.entities[0]
        .keys
        .insert("SK".to_string(), "PROFILE\u{2028}import os".into());
    let file = write_design(dir.path(), "hostile.keyplan.json", &hostile);
    let out = keyplan(&["check", file.to_str().expect("utf-8 path")]);
    exits(&out, 1);
    let text = stdout(&out);
    assert!(text.contains("KP030"), "{text}");
    assert!(
        text.contains("key template `PROFILEU+2028import os` holds U+2028"),
        "{text}"
    );
    // The key condition shows the template too: by name, not as a line break in the terminal.
    assert!(!text.contains('\u{2028}'), "{text:?}");
    assert!(text.contains("PROFILEU+2028import os]"), "{text}");
}

#[test]
fn check_exits_2_naming_the_file_line_and_column_of_a_broken_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    let ok = write_design(dir.path(), "ok.keyplan.json", &design(false));
    let broken = dir.path().join("broken.json");
    std::fs::write(&broken, "{\n  \"version\": 1,\n  \"name\": \"x\",\n}\n").expect("writable");
    let missing = dir.path().join("missing.json");
    let out = keyplan(&[
        "check",
        ok.to_str().expect("utf-8"),
        broken.to_str().expect("utf-8"),
        missing.to_str().expect("utf-8"),
    ]);
    exits(&out, 2);
    let err = stderr(&out);
    assert!(
        err.contains(&format!("{}: line 4, column 1:", broken.display())),
        "{err}"
    );
    assert!(
        err.contains(&format!("{}: cannot read", missing.display())),
        "{err}"
    );
    // The readable file is still checked.
    assert!(stdout(&out).contains("Get user"));
}

#[test]
fn check_json_has_exactly_the_documented_shape() {
    let dir = tempfile::tempdir().expect("temp dir");
    let bad = write_design(dir.path(), "scan.keyplan.json", &design(true));
    let out = keyplan(&["check", "--json", bad.to_str().expect("utf-8")]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("stdout is JSON");
    let keys = |v: &serde_json::Value| -> Vec<String> {
        let mut k: Vec<String> = v.as_object().expect("an object").keys().cloned().collect();
        k.sort();
        k
    };
    assert_eq!(keys(&json), ["designs"]);
    let design = &json["designs"][0];
    assert_eq!(keys(design), ["file", "findings", "name", "patterns"]);
    assert_eq!(design["file"], bad.display().to_string());
    assert_eq!(design["name"], "users");
    let get = &design["patterns"][0];
    assert_eq!(
        keys(get),
        [
            "covered",
            "index",
            "key_condition",
            "name",
            "operation",
            "reasons"
        ]
    );
    assert_eq!(get["name"], "Get user");
    assert_eq!(get["operation"], "GetItem");
    assert_eq!(get["index"], serde_json::Value::Null);
    assert_eq!(get["key_condition"], "PK = :pk AND SK = :sk");
    assert_eq!(get["covered"], true);
    let scan = &design["patterns"][1];
    assert_eq!(scan["operation"], "Scan");
    assert_eq!(scan["covered"], false);
    assert_eq!(scan["key_condition"], serde_json::Value::Null);
    assert!(!scan["reasons"].as_array().expect("a list").is_empty());
    for finding in design["findings"].as_array().expect("a list") {
        assert_eq!(keys(finding), ["code", "message", "path", "severity"]);
    }
}

#[test]
fn check_reads_the_other_formats_by_detection_or_by_flag() {
    let workbench =
        corpus("nosql-workbench/aws-dynamodb-examples/ChatSystem__ChatSystemSchema.json");
    let mcp = corpus("mcp-data-model/valid_schemas__ecommerce_app__ecommerce_schema.json");
    let out = keyplan(&[
        "check",
        "--json",
        workbench.to_str().expect("utf-8"),
        mcp.to_str().expect("utf-8"),
    ]);
    assert_ne!(out.status.code(), Some(2), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("stdout is JSON");
    assert_eq!(json["designs"].as_array().map(Vec::len), Some(2));
    // A wrong --format is a parse error, exit 2.
    let out = keyplan(&[
        "check",
        "--format",
        "mcp",
        workbench.to_str().expect("utf-8"),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("tables missing"), "{}", stderr(&out));
}

#[test]
fn import_writes_a_design_file_that_reads_back() {
    let dir = tempfile::tempdir().expect("temp dir");
    for (from, source) in [
        (
            "mcp",
            corpus("mcp-data-model/valid_schemas__saas_app__project_management_schema.json"),
        ),
        (
            "nosql-workbench",
            corpus(
                "nosql-workbench/aws-dynamodb-examples/RecurringPayments__RecurringPaymentsSchema.json",
            ),
        ),
    ] {
        let target = dir.path().join(format!("{from}.keyplan.json"));
        let out = keyplan(&[
            "import",
            source.to_str().expect("utf-8"),
            "--from",
            from,
            "-o",
            target.to_str().expect("utf-8"),
        ]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let text = std::fs::read_to_string(&target).expect("the design was written");
        let design = keyplan_core::file::parse(&text).expect("the written design parses");
        assert!(!design.entities.is_empty());
        // And it checks.
        let out = keyplan(&["check", target.to_str().expect("utf-8")]);
        assert_ne!(out.status.code(), Some(2), "{}", stderr(&out));
    }
    // An mcp schema with its usage data: the items become the design's samples.
    let schema = corpus("mcp-data-model/valid_schemas__ecommerce_app__ecommerce_schema.json");
    let usage = corpus("mcp-data-model/valid_usage_data__ecommerce_app__ecommerce_usage_data.json");
    let out = keyplan(&[
        "import",
        schema.to_str().expect("utf-8"),
        "--from",
        "mcp",
        "--usage",
        usage.to_str().expect("utf-8"),
        "-o",
        "-",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let design = keyplan_core::file::parse(&stdout(&out)).expect("the design on stdout parses");
    assert!(design.samples.values().map(Vec::len).sum::<usize>() > 0);
    let out = keyplan(&[
        "import",
        "/nonexistent/model.json",
        "--from",
        "mcp",
        "-o",
        "-",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("/nonexistent/model.json: cannot read"));
}

#[test]
fn schema_prints_the_json_schema_of_the_design_file() {
    let out = keyplan(&["schema"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout(&out), keyplan_server::design_io::design_schema());
}

/// The member of the JSON list `list` whose `name` is `name`.
fn named<'a>(list: &'a mut serde_json::Value, name: &str) -> &'a mut serde_json::Value {
    list.as_array_mut()
        .expect("a list")
        .iter_mut()
        .find(|member| member["name"] == name)
        .unwrap_or_else(|| panic!("no {name}"))
}

/// The order example and the same design with a GSI that serves "Get order by ID" (issue 18's
/// first migration: the Scan it reports today).
fn order_example_with_and_without_an_order_id_gsi(dir: &Path) -> (PathBuf, PathBuf) {
    let example =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/order-management.keyplan.json");
    let text = std::fs::read_to_string(&example).expect("the example is readable");
    let mut design: serde_json::Value = serde_json::from_str(&text).expect("the example is JSON");
    let orders = named(&mut design["tables"], "orders");
    orders["gsis"]
        .as_array_mut()
        .expect("gsis")
        .push(serde_json::json!({
            "name": "GSI4",
            "partition_key": [{"name": "GSI4PK", "type": "S"}],
            "projection": {"type": "ALL"}
        }));
    let order = named(&mut design["entities"], "Order");
    order["keys"]["GSI4PK"] = serde_json::json!("ORDER#{orderId}");
    let old = dir.join("old.keyplan.json");
    let new = dir.join("new.keyplan.json");
    std::fs::write(&old, &text).expect("writable temp file");
    std::fs::write(&new, serde_json::to_string_pretty(&design).expect("JSON")).expect("writable");
    (old, new)
}

// issue 18: `keyplan diff` lists the new index and key template and the Scan that became a
// Query, and exits 0; the other way round the Query that became a Scan is a regression (1).
#[test]
fn diff_names_the_new_index_and_the_verdict_it_changes_and_exits_1_on_a_regression() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (old, new) = order_example_with_and_without_an_order_id_gsi(dir.path());
    let (old, new) = (old.to_str().expect("utf-8"), new.to_str().expect("utf-8"));
    let out = keyplan(&["diff", old, new]);
    exits(&out, 0);
    let text = stdout(&out);
    assert!(text.contains("+ index GSI4: added"), "{text}");
    assert!(
        text.contains("+ Order key GSI4PK: added (ORDER#{orderId})"),
        "{text}"
    );
    assert!(
        text.contains("~ Get order by ID: Scan, not covered -> Query on GSI4 (GSI4PK = :pk)"),
        "{text}"
    );
    assert!(text.contains("0 regressions"), "{text}");

    let out = keyplan(&["diff", new, old]);
    exits(&out, 1);
    let text = stdout(&out);
    assert!(text.contains("- index GSI4: removed"), "{text}");
    assert!(
        text.contains(
            "! Get order by ID: Query on GSI4 (GSI4PK = :pk) -> Scan, not covered  (regression)"
        ),
        "{text}"
    );

    let out = keyplan(&["diff", new, old, "--json"]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("--json is JSON");
    assert_eq!(json["verdicts"][0]["pattern"], "Get order by ID");
    assert_eq!(json["verdicts"][0]["regression"], true);
    assert_eq!(json["verdicts"][0]["after"]["operation"], "Scan");
}

// issue 18: OLD as `REV:PATH`, the way a pull request compares with its base branch.
#[test]
fn diff_reads_the_old_design_from_git_and_prints_markdown_for_a_pull_request() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (old, new) = order_example_with_and_without_an_order_id_gsi(dir.path());
    let repo = dir.path().join("repo");
    std::fs::create_dir(&repo).expect("a repo dir");
    let git = |args: &[&str]| {
        let out = Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
            .args(args)
            .current_dir(&repo)
            .output()
            .expect("git runs");
        assert!(out.status.success(), "git {args:?}: {}", stderr(&out));
    };
    git(&["init", "-q"]);
    std::fs::copy(&old, repo.join("orders.keyplan.json")).expect("copy");
    git(&["add", "orders.keyplan.json"]);
    git(&["commit", "-q", "-m", "the design as deployed"]);
    std::fs::copy(&new, repo.join("orders.keyplan.json")).expect("copy");
    let in_repo = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_keyplan"))
            .args(args)
            .current_dir(&repo)
            .env("NO_COLOR", "1")
            .output()
            .expect("the keyplan binary runs")
    };
    let out = in_repo(&[
        "diff",
        "HEAD:orders.keyplan.json",
        "orders.keyplan.json",
        "--markdown",
    ]);
    exits(&out, 0);
    let text = stdout(&out);
    assert!(text.starts_with("## Design changes\n"), "{text}");
    assert!(text.contains("| + | index GSI4 |"), "{text}");
    assert!(
        text.contains("|  | Get order by ID | Scan, not covered | Query on GSI4 (GSI4PK = :pk) |"),
        "{text}"
    );

    let out = in_repo(&[
        "diff",
        "no-such-branch:orders.keyplan.json",
        "orders.keyplan.json",
    ]);
    exits(&out, 2);
    assert!(
        stderr(&out).contains("no-such-branch:orders.keyplan.json"),
        "{}",
        stderr(&out)
    );
    let out = in_repo(&["diff", "HEAD:missing.json", "orders.keyplan.json"]);
    exits(&out, 2);
    assert!(stderr(&out).contains("missing.json"), "{}", stderr(&out));
}

// issue 18: a file in another tool's format is compared as keyplan reads it; the same model
// twice has no differences.
#[test]
fn diff_of_a_workbench_model_with_itself_finds_nothing() {
    let model = corpus(
        "nosql-workbench/amazon-dynamodb-design-patterns/an-online-shop__json__AnOnlineShop_14.json",
    );
    if !model.exists() {
        eprintln!("skipped: the corpus is not beside the checkout");
        return;
    }
    let model = model.to_str().expect("utf-8");
    let out = keyplan(&["diff", model, model]);
    exits(&out, 0);
    assert_eq!(stdout(&out), "No differences.\n");
}

// issue 18: `keyplan migrate` plans the GSI that serves "Get order by ID": created, then
// backfilled onto every order, counted from --items.
#[test]
fn migrate_plans_a_new_gsi_as_an_online_step_and_a_backfill_of_the_orders() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (old, new) = order_example_with_and_without_an_order_id_gsi(dir.path());
    let (old, new) = (old.to_str().expect("utf-8"), new.to_str().expect("utf-8"));
    let out = keyplan(&[
        "migrate",
        old,
        new,
        "--items",
        "Order=1_000_000",
        "--max-wcu",
        "2000",
        "--json",
    ]);
    exits(&out, 0);
    let plan: serde_json::Value = serde_json::from_slice(&out.stdout).expect("--json is JSON");
    let steps = plan["steps"].as_array().expect("steps");
    let kinds: Vec<(&str, &str)> = steps
        .iter()
        .map(|s| {
            (
                s["phase"].as_str().unwrap_or(""),
                s["kind"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(
        kinds,
        [("expand", "online"), ("migrate", "backfill")],
        "{plan}"
    );
    assert_eq!(steps[1]["entity"], "Order");
    assert_eq!(steps[1]["items"], 1_000_000);
    let writes = steps[1]["write_units"].as_f64().expect("write units");
    assert!(writes >= 1_000_000.0, "{plan}");
    assert_eq!(plan["seconds"].as_f64(), Some(writes / 2000.0), "{plan}");

    let out = keyplan(&["migrate", old, new, "--items", "Ordr=5"]);
    exits(&out, 1);
    assert!(
        stderr(&out).contains("`--items Ordr=...` names no entity"),
        "{}",
        stderr(&out)
    );
}

// issue 18: `keyplan migrate --verify` proves the plan on the embedded engine and says so.
#[test]
fn migrate_verify_proves_the_plan_on_the_embedded_engine() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (old, new) = order_example_with_and_without_an_order_id_gsi(dir.path());
    let (old, new) = (old.to_str().expect("utf-8"), new.to_str().expect("utf-8"));
    let out = keyplan(&["migrate", old, new, "--verify"]);
    exits(&out, 0);
    let text = stdout(&out);
    assert!(
        text.contains("data: as core predicts, item for item"),
        "{text}"
    );
    assert!(text.contains("pass     Get order by ID"), "{text}");
    assert!(text.ends_with("Verification passed.\n"), "{text}");
    let out = keyplan(&["migrate", old, new, "--verify", "--json"]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("--json is JSON");
    assert_eq!(json["ok"], true, "{json}");
    assert_eq!(
        json["verified"]["items_before"],
        json["verified"]["items_after"]
    );
}

// issue 14: the "Add this GSI" edit is core's, so `check --fix` applies it to a file: the order
// example's "Get order by ID" Scan gets the GSI the app would use (issue 43: GSI3, which holds
// no Order, not a new GSI4), the file is written back and
// checks clean; a second run changes nothing; another tool's file is refused, not rewritten.
#[test]
fn check_fix_adds_the_suggested_gsi_to_the_file_as_the_app_would() {
    let dir = tempfile::tempdir().expect("temp dir");
    let example = keyplan_core::examples::get("order-management").expect("the example");
    let path = write_design(dir.path(), "orders.keyplan.json", &example);
    let path_text = path.to_str().expect("utf-8 path");
    let out = keyplan(&["check", "--fix", path_text]);
    exits(&out, 0);
    assert!(
        stderr(&out).contains(&format!(
            "fixed {path_text}: used GSI3 for `Get order by ID` (Query on GSI3)"
        )),
        "{}",
        stderr(&out)
    );
    // The file holds what the app's edit makes of the example.
    let mut expected = example.clone();
    let suggestion = keyplan_core::analyze(&example)
        .verdicts
        .into_iter()
        .find(|v| v.pattern == "Get order by ID")
        .and_then(|v| v.suggestions.into_iter().next())
        .expect("the Scan's suggestion");
    keyplan_core::edit::apply(&mut expected, suggestion.edit(&example).expect("an edit"))
        .expect("applies");
    // Then each multi-attribute key the findings offer (issue 16), as the app's "Apply".
    apply_multi_attribute_offers(&mut expected);
    let fixed = std::fs::read_to_string(&path).expect("the fixed file");
    assert_eq!(fixed, keyplan_core::file::to_string(&expected));
    let again = keyplan(&["check", "--fix", path_text]);
    exits(&again, 0);
    assert!(!stderr(&again).contains("fixed"), "{}", stderr(&again));
    assert_eq!(std::fs::read_to_string(&path).expect("the file"), fixed);

    let workbench =
        corpus("nosql-workbench/aws-dynamodb-examples/ChatSystem__ChatSystemSchema.json");
    let before = std::fs::read(&workbench).expect("the corpus file");
    let out = keyplan(&["check", "--fix", workbench.to_str().expect("utf-8 path")]);
    exits(&out, 2);
    assert!(
        stderr(&out)
            .contains("--fix writes keyplan design files, and this is a NoSQL Workbench model"),
        "{}",
        stderr(&out)
    );
    assert_eq!(std::fs::read(&workbench).expect("the corpus file"), before);
}

/// Applies each multi-attribute key a KP025 finding offers, one at a time, as the app's
/// "Apply" does; returns their labels.
fn apply_multi_attribute_offers(design: &mut Design) -> Vec<String> {
    let mut labels = Vec::new();
    while let Some(fix) = keyplan_core::analyze(design)
        .findings
        .into_iter()
        .filter(|f| f.code == "KP025")
        .find_map(|f| f.fix)
    {
        let edit = fix.edit(design).expect("an offered fix fits");
        keyplan_core::edit::apply(design, edit).expect("applies");
        labels.push(fix.label());
    }
    labels
}

// issue 16 item 7: `check --fix` keys a GSI whose templates join attributes on those attributes
// (KP025's multi-attribute key, the app's "Apply"): the file holds core's edit, every read is
// still covered, the finding is gone and a second run changes nothing.
#[test]
fn check_fix_turns_a_joined_gsi_key_into_a_multi_attribute_key() {
    let dir = tempfile::tempdir().expect("temp dir");
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/joined-gsi-key.keyplan.json"),
    )
    .expect("the fixture");
    let path = dir.path().join("orders.keyplan.json");
    std::fs::write(&path, &text).expect("write the design");
    let path_text = path.to_str().expect("utf-8 path");
    let before = keyplan(&["check", path_text]);
    assert!(stdout(&before).contains("KP025"), "{}", stdout(&before));
    let out = keyplan(&["check", "--fix", path_text]);
    exits(&out, 0);
    assert_eq!(
        stderr(&out),
        format!("fixed {path_text}: Use a multi-attribute sort key (total, orderId) on ByStatus\n")
    );
    let mut expected = keyplan_core::file::parse(&text).expect("the design parses");
    assert_eq!(
        apply_multi_attribute_offers(&mut expected),
        ["Use a multi-attribute sort key (total, orderId) on ByStatus"]
    );
    let fixed = std::fs::read_to_string(&path).expect("the fixed file");
    assert_eq!(fixed, keyplan_core::file::to_string(&expected));
    let design = keyplan_core::file::parse(&fixed).expect("the fixed file parses");
    let gsi = &design.tables[0].gsis[0];
    assert_eq!(
        gsi.sort_key,
        [
            KeyAttribute::new("total", KeyType::N),
            KeyAttribute::new("orderId", KeyType::S)
        ]
    );
    assert!(!design.entities[0].keys.contains_key("GSI1SK"));
    let analysis = keyplan_core::analyze(&design);
    assert_eq!(analysis.coverage(), (2, 2));
    let by_status = &analysis.verdicts[1];
    assert_eq!(by_status.index.as_deref(), Some("ByStatus"));
    assert_eq!(
        by_status
            .key_condition
            .as_ref()
            .map(|k| k.expression.as_str()),
        Some("GSI1PK = :pk AND total >= :sk")
    );
    assert!(!stdout(&out).contains("KP025"), "{}", stdout(&out));
    let again = keyplan(&["check", "--fix", path_text]);
    exits(&again, 0);
    assert_eq!(stderr(&again), "");
    assert_eq!(std::fs::read_to_string(&path).expect("the file"), fixed);
}
