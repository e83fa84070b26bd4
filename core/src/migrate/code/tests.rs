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

/// The role `env_var` was given, read back from the variable: `None` when the name is not one
/// `env_var` writes.
fn role_of_variable(variable: &str) -> Option<String> {
    let mut rest = variable.strip_prefix("KEYPLAN_TABLE_")?.chars().peekable();
    let mut role = String::new();
    while let Some(c) = rest.next() {
        match c {
            'A'..='Z' => role.push(c.to_ascii_lowercase()),
            '0'..='9' => role.push(c),
            '_' if rest.peek() == Some(&'_') => {
                rest.next();
                role.push('_');
            }
            '_' => {
                let word: String = rest.by_ref().take_while(|c| *c != '_').collect();
                role.push(match word.as_str() {
                    "DASH" => '-',
                    "DOT" => '.',
                    "AT" => '@',
                    w => char::from_u32(u32::from_str_radix(w.strip_prefix('U')?, 16).ok()?)?,
                });
            }
            _ => return None,
        }
    }
    Some(role)
}

proptest::proptest! {
    // issue 41, item 6: `events-new` and `events@new` both read KEYPLAN_TABLE_EVENTS_NEW. Every
    // role is read back from its variable up to the case of its ASCII letters, so no two roles
    // that differ by more share one, and the variable is a portable name (upper case, digits,
    // `_`).
    #[test]
    fn every_role_is_read_back_from_its_variable(role in "[a-zA-Z0-9_.@-]{1,12}|\\PC{1,8}") {
        let variable = super::env_var(&role);
        proptest::prop_assert!(
            variable.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_'),
            "{variable}"
        );
        proptest::prop_assert_eq!(role_of_variable(&variable), Some(role.to_ascii_lowercase()));
    }
}

#[test]
fn the_roles_of_the_issue_read_variables_of_their_own() {
    assert_eq!(
        super::env_var("events-new"),
        "KEYPLAN_TABLE_EVENTS_DASH_NEW"
    );
    assert_eq!(super::env_var("events@new"), "KEYPLAN_TABLE_EVENTS_AT_NEW");
    assert_eq!(super::env_var("events_new"), "KEYPLAN_TABLE_EVENTS__NEW");
    assert_eq!(super::env_var("Events.v2"), "KEYPLAN_TABLE_EVENTS_DOT_V2");
}

// issue 40: a vector index's step is an instruction too, naming where it can be made (the AWS
// provider's Terraform has no vector index block), never run by the program.
#[test]
fn a_vector_index_step_is_an_instruction_that_names_where_it_is_made() {
    let old = design(&OLD.replace("userId status |", "userId status embedding:L |"));
    let new = design(
        &OLD.replace("userId status |", "userId status embedding:L |")
            .replace(
                "gsi GSI1 GSI1PK GSI1SK",
                "gsi GSI1 GSI1PK GSI1SK\n    vector ByEmbedding embedding 8",
            ),
    );
    let p = plan(&old, &new, &PlanConfig::default());
    let text = generate(&old, &new, &p, Language::Python).expect("generates");
    let steps: Vec<&str> = text.lines().filter(|l| l.contains(". [")).collect();
    expect_test::expect![[r##"
        #   1. [expand, online] Create vector index ByEmbedding (embedding, 8 dimensions, COSINE) (table app): an UpdateTable with VectorIndexUpdates (CloudFormation's VectorIndexes, the CDK's property override, or `aws dynamodb update-table`; Terraform's AWS provider has no vector index block), done before this program runs; DynamoDB backfills the index. This program does not change table definitions.
                    "text": "1. [expand, online] Create vector index ByEmbedding (embedding, 8 dimensions, COSINE) (table app): an UpdateTable with VectorIndexUpdates (CloudFormation's VectorIndexes, the CDK's property override, or `aws dynamodb update-table`; Terraform's AWS provider has no vector index block), done before this program runs; DynamoDB backfills the index. This program does not change table definitions.","##]]
    .assert_eq(&steps.join("\n"));
}
