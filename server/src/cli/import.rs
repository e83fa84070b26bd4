//! `keyplan import FILE --from nosql-workbench|mcp [--usage USAGE.json] -o OUT.keyplan.json`:
//! reads another tool's model and writes it as a keyplan design file.
//!
//! What the source says that a keyplan design cannot hold (or that was guessed, such as key
//! templates inferred from NoSQL Workbench items) is printed to stderr as notes. The file is
//! written only when the import succeeds.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use keyplan_core::import::Format;

use super::check::load;
use super::design_io::{Unreadable, read_text};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The model to import.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// The model's format.
    #[arg(long, value_enum)]
    pub from: From,
    /// With `--from mcp`: the schema's usage-data file, whose items become the design's samples.
    #[arg(long, value_name = "USAGE.json")]
    pub usage: Option<PathBuf>,
    /// Where to write the design file (`*.keyplan.json`); `-` for stdout.
    #[arg(short = 'o', long = "output", value_name = "OUT.keyplan.json")]
    pub output: PathBuf,
}

/// The formats `keyplan import` reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum From {
    /// A NoSQL Workbench model export (format 1.0, 2.0 or 3.0).
    NosqlWorkbench,
    /// An awslabs/mcp DynamoDB data-modeling schema.json.
    Mcp,
}

pub async fn run(args: Args) -> anyhow::Result<ExitCode> {
    let format = match args.from {
        From::NosqlWorkbench => Format::NosqlWorkbench,
        From::Mcp => Format::Mcp,
    };
    let mut imported = load(&args.file, Some(format)).map_err(|e| Unreadable(e.to_string()))?;
    if let Some(usage) = &args.usage {
        if format != Format::Mcp {
            anyhow::bail!("--usage goes with --from mcp: it is an awslabs/mcp usage-data file");
        }
        let text = read_text(usage)?;
        keyplan_core::import::mcp::add_usage_data(&mut imported, &text)
            .map_err(|e| Unreadable(format!("{}: {e}", usage.display())))?;
    }
    for note in &imported.notes {
        eprintln!("note: {note}");
    }
    let text = keyplan_core::file::to_string(&imported.design);
    if args.output.as_os_str() == "-" {
        print!("{text}");
    } else {
        std::fs::write(&args.output, text)
            .with_context(|| format!("cannot write {}", args.output.display()))?;
        let design = &imported.design;
        eprintln!(
            "wrote {}: {} tables, {} entities, {} patterns",
            args.output.display(),
            design.tables.len(),
            design.entities.len(),
            design.patterns.len()
        );
    }
    Ok(ExitCode::SUCCESS)
}
