//! `keyplan schema`: prints the JSON Schema of the design file, generated from core's types.
//!
//! The committed copy is `docs/keyplan.schema.json`; a test fails when it no longer matches
//! what the types generate (`UPDATE_EXPECT=1 cargo test -p keyplan-server --test cli_schema`
//! rewrites it).

use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct Args {}

pub async fn run(_args: Args) -> anyhow::Result<ExitCode> {
    print!("{}", crate::design_io::design_schema());
    Ok(ExitCode::SUCCESS)
}
