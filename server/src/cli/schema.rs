//! `keyplan schema`: prints the JSON Schema of the design file, generated from core's types.
//!
//! The committed copy is `docs/keyplan.schema.json`; a test fails when it no longer matches
//! what the types generate (`UPDATE_EXPECT=1 cargo test -p keyplan-server --test cli_schema`
//! rewrites it).

use std::process::ExitCode;

use keyplan_core::model::Design;

#[derive(Debug, clap::Args)]
pub struct Args {}

/// The JSON Schema (draft 2020-12) of a `*.keyplan.json` design file, pretty, with a trailing
/// newline.
pub fn design_schema() -> String {
    let schema = schemars::schema_for!(Design);
    let mut text = serde_json::to_string_pretty(&schema)
        .unwrap_or_else(|e| unreachable!("a JSON Schema always serialises: {e}"));
    text.push('\n');
    text
}

pub async fn run(_args: Args) -> anyhow::Result<ExitCode> {
    print!("{}", design_schema());
    Ok(ExitCode::SUCCESS)
}
