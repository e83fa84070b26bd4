//! `keyplan export FILE --to FORMAT [-o OUT]`: writes one export of a design (CloudFormation,
//! Terraform, CDK, library schemas, access code, the design document...) to a file or stdout.
//!
//! The export itself is core's pure function; this module only reads the file, picks the
//! format and writes the text, and on stderr a `warning:` line for each thing the format has
//! no place for and leaves out (core's [`warnings`]: a vector index in a Workbench model).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use keyplan_core::export::{Target, export, warnings};

use crate::design_io::read_design;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The design file: a keyplan design or any format keyplan reads (see `--from`).
    pub file: PathBuf,
    #[command(flatten)]
    pub from: crate::design_io::From,
    /// The format: cloudformation-json, cloudformation-yaml, terraform, create-table, cdk,
    /// nosql-workbench, electrodb, onetable, dynamodb-toolbox, dynamoose, typescript, python,
    /// rust, markdown or svg.
    #[arg(long = "to", value_name = "FORMAT", value_parser = parse_format)]
    pub format: Target,
    /// Write here instead of stdout.
    #[arg(short = 'o', long = "out", value_name = "OUT")]
    pub out: Option<PathBuf>,
}

fn parse_format(name: &str) -> Result<Target, String> {
    name.parse::<Target>().map_err(|e| e.to_string())
}

pub async fn run(args: Args) -> anyhow::Result<ExitCode> {
    let design = read_design(&args.file, args.from)?;
    let text = export(&design, args.format)
        .with_context(|| format!("cannot export {}", args.file.display()))?;
    for warning in warnings(&design, args.format) {
        eprintln!("warning: {warning}");
    }
    match &args.out {
        Some(path) => std::fs::write(path, &text)
            .with_context(|| format!("cannot write {}", path.display()))?,
        None => std::io::stdout()
            .write_all(text.as_bytes())
            .context("cannot write to stdout")?,
    }
    Ok(ExitCode::SUCCESS)
}
