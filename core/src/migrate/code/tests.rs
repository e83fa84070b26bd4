use super::{Language, generate};
use crate::coverage::testing::design;
use crate::migrate::{PlanConfig, plan};

const OLD: &str = "
    table app PK SK
    gsi GSI1 GSI1PK GSI1SK
    entity User userId status | PK={userId} SK=PROFILE GSI1PK=STATUS#{status} GSI1SK={userId}
    entity Note noteId userId | PK=USER#{userId} SK=NOTE#{noteId}
";

/// OLD with User re-keyed to `USER#{userId}` and a write-sharded GSI key for Note.
fn new() -> String {
    OLD.replace("PK={userId} SK=PROFILE", "PK=USER#{userId} SK=PROFILE")
        .replace(
            "SK=NOTE#{noteId}",
            "SK=NOTE#{noteId} GSI1PK=NOTES#{shard:4} GSI1SK={noteId}",
        )
}

fn script(language: Language) -> String {
    let (old, new) = (design(OLD), design(&new()));
    let p = plan(&old, &new, &PlanConfig::default());
    generate(&old, &new, &p, language).expect("generates")
}

// issue 18: one generated migration program per language, as a whole.
#[test]
fn the_typescript_migration_program_is_stable() {
    insta::assert_snapshot!("rekey_and_backfill.ts", script(Language::TypeScript));
}

#[test]
fn the_python_migration_program_is_stable() {
    insta::assert_snapshot!("rekey_and_backfill.py", script(Language::Python));
}

#[test]
fn the_same_plan_generates_the_same_text() {
    assert_eq!(script(Language::Python), script(Language::Python));
}

// issue 18: a step the program does not run is said, never silently skipped.
#[test]
fn a_step_that_changes_a_table_definition_is_an_instruction() {
    let old = design(OLD);
    let new = design(
        &OLD.replace(
            "gsi GSI1 GSI1PK GSI1SK",
            "gsi GSI1 GSI1PK GSI1SK\n    gsi GSI2 GSI2PK",
        )
        .replace("SK=NOTE#{noteId}", "SK=NOTE#{noteId} GSI2PK=N#{noteId}"),
    );
    let p = plan(&old, &new, &PlanConfig::default());
    let text = generate(&old, &new, &p, Language::TypeScript).expect("generates");
    let header: Vec<&str> = text.lines().take_while(|l| l.starts_with("//")).collect();
    expect_test::expect![[r#"
        //   1. [expand, online] Create GSI GSI2 (table app): an UpdateTable in your infrastructure code (CloudFormation, Terraform, CDK), done before this program runs; DynamoDB backfills the index. This program does not change table definitions.
        //   2. [migrate, backfill] Write GSI2PK = N#{noteId} onto every Note item: this program scans app for Note items and writes app"#]]
    .assert_eq(
        &header
            .iter()
            .filter(|l| l.contains(". ["))
            .copied()
            .collect::<Vec<_>>()
            .join("\n"),
    );
}
