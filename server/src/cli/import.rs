//! `keyplan import FILE [--from FORMAT] [--usage USAGE.json] -o OUT.keyplan.json`: reads
//! another tool's model (any format keyplan reads, detected unless `--from` names it) and
//! writes it as a keyplan design file.
//!
//! What the source says that a keyplan design cannot hold (or that was guessed, such as key
//! templates inferred from NoSQL Workbench items) is printed to stderr as notes. The file is
//! written only when the import succeeds.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use keyplan_core::import::Format;

use super::design_io::{Unreadable, read_imported, read_text};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The model to import: a NoSQL Workbench model, an awslabs/mcp schema.json, a
    /// CloudFormation template, Terraform configuration (or a keyplan design).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    #[command(flatten)]
    pub from: super::design_io::From,
    /// With an awslabs/mcp schema: its usage-data file, whose items become the design's samples.
    #[arg(long, value_name = "USAGE.json")]
    pub usage: Option<PathBuf>,
    /// Where to write the design file (`*.keyplan.json`); `-` for stdout.
    #[arg(short = 'o', long = "output", value_name = "OUT.keyplan.json")]
    pub output: PathBuf,
}

pub async fn run(args: Args) -> anyhow::Result<ExitCode> {
    let (format, mut imported) = read_imported(&args.file, args.from)?;
    if let Some(usage) = &args.usage {
        if format != Format::Mcp {
            anyhow::bail!(
                "--usage goes with an awslabs/mcp schema, and {} reads as {}",
                args.file.display(),
                format.described()
            );
        }
        let text = read_text(usage)?;
        keyplan_core::import::mcp::add_usage_data(&mut imported, &text)
            .map_err(|e| Unreadable(format!("{}: {e}", usage.display())))?;
    }
    eprintln!("read {} as {}", args.file.display(), format.described());
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
        let count =
            |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        eprintln!(
            "wrote {}: {}, {}, {}",
            args.output.display(),
            count(design.tables.len(), "table", "tables"),
            count(design.entities.len(), "entity", "entities"),
            count(design.patterns.len(), "pattern", "patterns")
        );
    }
    Ok(ExitCode::SUCCESS)
}
