//! `keyplan cost FILE`: the capacity and monthly cost of every access pattern, the storage,
//! every table's bill under every billing mode side by side (on-demand, provisioned
//! auto-scaled and at the peak, 1- and 3-year reserved; Standard and Standard-IA; global-table
//! replicas), and the partitions that would run hot.
//!
//! Item sizes come from the entities' volumes, else the design's sample items (`--seed`,
//! `--count`); storage is priced for `--stored ENTITY=N` items per entity, else the entities'
//! volumes, else the sample's counts (which the report says). Prices are `--region`'s (default
//! us-east-1, from core's pricing module), each overridable; a month is 30 days. `--json`
//! prints the whole report as one JSON document, `--markdown` the billing modes and patterns as
//! Markdown tables.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::design_io::{print, read_design};
use crate::reports::{Options, estimate};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The design file: a keyplan design or any format keyplan reads (see `--from`).
    pub file: PathBuf,
    #[command(flatten)]
    pub from: crate::design_io::From,
    /// Print the report as one JSON document.
    #[arg(long, conflicts_with = "markdown")]
    pub json: bool,
    /// Print the billing modes and the patterns as Markdown tables.
    #[arg(long)]
    pub markdown: bool,
    #[command(flatten)]
    pub options: Options,
}

pub async fn run(args: Args) -> anyhow::Result<ExitCode> {
    let design = read_design(&args.file, args.from)?;
    let report = estimate(&design, &args.options)?;
    if args.json {
        print(&format!("{}\n", serde_json::to_string_pretty(&report)?))?;
    } else if args.markdown {
        print(&report.to_markdown())?;
    } else {
        print(&report.to_table())?;
    }
    Ok(ExitCode::SUCCESS)
}
