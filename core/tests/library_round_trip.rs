//! Every built-in example exported to DynamoDB-Toolbox and to Dynamoose, imported back, and
//! compared with core's diff (issue 36, item 4): what changes in tables, indexes, key templates
//! and attribute types is what the format cannot hold, and the snapshot says which. The
//! libraries declare no access patterns, so patterns are left out of the comparison.
#![cfg(feature = "js")]

use keyplan_core::diff::diff;
use keyplan_core::export::{Target, export};
use keyplan_core::import::{Format, import};

fn round_trip(target: Target, format: Format) -> String {
    let mut out = String::new();
    for (slug, design) in keyplan_core::examples::all() {
        let text = export(&design, target).unwrap_or_else(|e| panic!("{slug}: {e}"));
        let imported = import(format, &text).unwrap_or_else(|e| panic!("{slug}: {e}\n{text}"));
        let mut expected = design.clone();
        expected.patterns.clear();
        out += &format!("== {slug}\n{}", diff(&expected, &imported.design).text());
        for assumption in &imported.assumed {
            out += &format!("assumed: {assumption}\n");
        }
    }
    out
}

#[test]
fn dynamodb_toolbox_export_reads_back_with_only_what_the_library_cannot_hold_lost() {
    insta::assert_snapshot!(round_trip(Target::Toolbox, Format::Toolbox));
}

#[test]
fn dynamoose_export_reads_back_with_only_what_the_library_cannot_hold_lost() {
    insta::assert_snapshot!(round_trip(Target::Dynamoose, Format::Dynamoose));
}
