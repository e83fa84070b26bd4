//! `keyplan import FILE [--from FORMAT] [--usage USAGE.json] -o OUT.keyplan.json`: reads
//! another tool's model (any format keyplan reads, detected unless `--from` names it) and
//! writes it as a keyplan design file. `keyplan import A.ts B.ts ...` or `keyplan import
//! FOLDER` reads the OneTable or ElectroDB modules of one application together (see
//! [`super::import_files`]).
//!
//! `keyplan import --table TABLE [--all] [--sample N] --endpoint URL -o OUT` reads tables that
//! exist instead (issue 17), read-only: their description and a bounded sample of their items,
//! from which entities and key templates are inferred (see `crate::live`).
//!
//! What the source says that a keyplan design cannot hold (or that was guessed, such as key
//! templates inferred from items) is printed to stderr as notes, and each value that could not
//! be read as `assumed: FILE:LINE: what: assumed what` (issue 36). `--json` prints the same
//! report on stdout as one JSON document ([`Report`]). The file is written only when the import
//! succeeds.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use keyplan_core::import::live::{self, Options};
use keyplan_core::import::{Format, Imported};
use keyplan_core::sample::MAX_SAMPLE_ITEMS;
use keyplan_core::text::visible;

use super::engine_choice::EngineChoice;
use crate::design_io::{Unreadable, read_imported, read_text};
use crate::engine::{EMBEDDED, Engines};
use crate::live::{DEFAULT_SAMPLE, MAX_SAMPLE, list_tables, read_tables};
use crate::runner::scan::ScanStats;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The model to import: a NoSQL Workbench model, an awslabs/mcp schema.json, a OneTable
    /// schema, an ElectroDB, DynamoDB-Toolbox or Dynamoose module (or DynamoDB-Toolbox DTO
    /// JSON), a CloudFormation template, Terraform configuration (or a keyplan design). Several
    /// files, or a folder, are the JavaScript or TypeScript modules of one application, read
    /// together (at most 256 files, 4 MB).
    #[arg(value_name = "FILE", required_unless_present_any = ["table", "all"])]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub from: crate::design_io::From,
    /// With an awslabs/mcp schema: its usage-data file, whose items become the design's samples.
    #[arg(long, value_name = "USAGE.json")]
    pub usage: Option<PathBuf>,
    /// Import a table that exists on the engine instead of a file (read-only); repeatable.
    #[arg(long, value_name = "TABLE", conflicts_with_all = ["files", "all"])]
    pub table: Vec<String>,
    /// Import every table of the engine into one design.
    #[arg(long, conflicts_with = "files")]
    pub all: bool,
    /// With `--table` or `--all`: the most items to read from each table.
    #[arg(
        long,
        value_name = "N",
        default_value_t = DEFAULT_SAMPLE,
        value_parser = clap::value_parser!(u64).range(1..=MAX_SAMPLE)
    )]
    pub sample: u64,
    /// With `--table` or `--all`: keep the sampled items in the design as its sample data
    /// (they are the table's real items: mind what goes into git).
    #[arg(long)]
    pub keep_items: bool,
    #[command(flatten)]
    pub engine: EngineChoice,
    /// Where to write the design file (`*.keyplan.json`); `-` for stdout.
    #[arg(short = 'o', long = "output", value_name = "OUT.keyplan.json")]
    pub output: PathBuf,
    /// Print the import's report (format, counts, notes, values assumed) as JSON on stdout.
    #[arg(long)]
    pub json: bool,
}

/// The `--json` document: what was read, what was written, and what could not be read.
#[derive(Debug, serde::Serialize)]
pub struct Report<'a> {
    /// The file read; absent for tables read from an engine.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// The files and folders read together, when several were (or a folder).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub files: Vec<String>,
    /// The format it was read as (`cloudformation`...); absent for tables read from an engine.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub format: Option<&'static str>,
    /// What was read, in words: "a CloudFormation template: 2 tables, no entities".
    pub summary: String,
    /// The design file written.
    pub output: String,
    pub tables: usize,
    pub entities: usize,
    pub patterns: usize,
    pub notes: &'a [String],
    pub assumed: &'a [keyplan_core::import::Assumption],
}

pub async fn run(args: Args) -> anyhow::Result<ExitCode> {
    if args.json && args.output.as_os_str() == "-" {
        anyhow::bail!(
            "--json prints the report on stdout, where `-o -` would print the design: write the design to a file"
        );
    }
    let (format, imported) = match args.files.as_slice() {
        [] => (None, import_tables(&args).await?),
        paths if super::import_files::several(paths) => {
            if args.usage.is_some() {
                anyhow::bail!("--usage goes with one awslabs/mcp schema, not several files");
            }
            let (format, imported, label) = super::import_files::read(paths)?;
            if let Some(from) = args.from.from.0
                && from != format
            {
                anyhow::bail!("--from {from}: the {label} read as {}", format.described());
            }
            eprintln!("read {label}: {}", imported.summary(format));
            (Some(format), imported)
        }
        [file, ..] => {
            let (format, imported) = import_file(file, &args)?;
            (Some(format), imported)
        }
    };
    let one_file = match args.files.as_slice() {
        [file] if !file.is_dir() => Some(file),
        _ => None,
    };
    for note in &imported.notes {
        eprintln!("note: {}", visible(note));
    }
    for assumed in &imported.assumed {
        let place = match (&assumed.file, one_file) {
            (None, Some(file)) => assumed.clone().in_file(&file.display().to_string()),
            _ => assumed.clone(),
        };
        eprintln!("assumed: {}", visible(&place.to_string()));
    }
    let text = keyplan_core::file::to_string(&imported.design);
    if args.output.as_os_str() == "-" {
        print!("{text}");
    } else {
        std::fs::write(&args.output, text)
            .with_context(|| format!("cannot write {}", args.output.display()))?;
        let design = &imported.design;
        eprintln!(
            "wrote {}: {}, {}, {}",
            args.output.display(),
            count(design.tables.len(), "table", "tables"),
            count(design.entities.len(), "entity", "entities"),
            count(design.patterns.len(), "pattern", "patterns")
        );
    }
    if args.json {
        let design = &imported.design;
        let report = Report {
            file: one_file.map(|f| f.display().to_string()),
            files: match one_file {
                Some(_) => Vec::new(),
                None => args.files.iter().map(|f| f.display().to_string()).collect(),
            },
            format: format.map(Format::as_str),
            summary: match format {
                Some(format) => imported.summary(format),
                None => format!(
                    "tables on an engine: {}",
                    count(design.tables.len(), "table", "tables")
                ),
            },
            output: args.output.display().to_string(),
            tables: design.tables.len(),
            entities: design.entities.len(),
            patterns: design.patterns.len(),
            notes: &imported.notes,
            assumed: &imported.assumed,
        };
        println!("{}", serde_json::to_string_pretty(&report)?);
    }
    Ok(ExitCode::SUCCESS)
}

fn import_file(file: &std::path::Path, args: &Args) -> anyhow::Result<(Format, Imported)> {
    let (format, mut imported) = read_imported(file, args.from)?;
    if let Some(usage) = &args.usage {
        if format != Format::Mcp {
            anyhow::bail!(
                "--usage goes with an awslabs/mcp schema, and {} reads as {}",
                file.display(),
                format.described()
            );
        }
        let text = read_text(usage)?;
        keyplan_core::import::mcp::add_usage_data(&mut imported, &text)
            .map_err(|e| Unreadable(format!("{}: {e}", usage.display())))?;
    }
    eprintln!(
        "read {} as {}",
        file.display(),
        imported.held.as_deref().unwrap_or(format.described())
    );
    Ok((format, imported))
}

/// `--table`/`--all`: the engine's tables, described and sampled.
async fn import_tables(args: &Args) -> anyhow::Result<Imported> {
    let (config, name) = args.engine.config();
    let engines = Engines::start(&config).await?;
    let engine = engines.get(Some(&name))?;
    let tables = if args.all {
        let tables = list_tables(engine).await?;
        if tables.is_empty() {
            anyhow::bail!(
                "engine `{}` has no tables{}",
                engine.name,
                embedded_hint(&name)
            );
        }
        tables
    } else {
        args.table.clone()
    };
    // issue 41: the tables and the items one import may read, before the first is described.
    keyplan_core::budget::import(tables.len(), args.sample, MAX_SAMPLE_ITEMS)?;
    let bar = Mutex::new(None::<ProgressBar>);
    let terminal = std::io::stderr().is_terminal();
    let sample = args.sample;
    let progress = |p: crate::live::Progress<'_>| {
        if !terminal {
            return;
        }
        let Ok(mut bar) = bar.lock() else { return };
        let bar = bar.get_or_insert_with(|| {
            let bar = ProgressBar::new(p.expected);
            if let Ok(style) = ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} items") {
                bar.set_style(style.progress_chars("=> "));
            }
            bar
        });
        bar.set_message(p.table.to_string());
        bar.set_length(p.expected.max(p.read));
        bar.set_position(p.read);
    };
    let read = read_tables(engine, &tables, sample, &progress)
        .await
        .map_err(|e| match e {
            e @ crate::runner::error::RunError::NoTable { .. } => {
                anyhow::anyhow!("{e}{}", embedded_hint(&name))
            }
            other => other.into(),
        })?;
    if let Ok(mut bar) = bar.lock()
        && let Some(bar) = bar.take()
    {
        bar.finish_and_clear();
    }
    let mut live_tables = Vec::new();
    for (table, stats) in read {
        eprintln!(
            "read table {} from engine `{}`: {}",
            table.table.name,
            engine.name,
            described(&stats, table.item_count)
        );
        live_tables.push(table);
    }
    let design_name = match tables.as_slice() {
        [one] => one.clone(),
        _ => format!("tables of {}", engine.name),
    };
    Ok(live::import(
        &design_name,
        live_tables,
        Options {
            keep_items: args.keep_items,
        },
    ))
}

/// "1,000 items (of about 3,914) in 4 scan pages, 125.5 read units"
fn described(stats: &ScanStats, item_count: u64) -> String {
    let units = match stats.read_units {
        Some(u) => format!("{u} read units consumed"),
        None => "the engine reported no consumed read units".to_string(),
    };
    format!(
        "{} (the table reports {}) in {}, {units}",
        count(stats.items as usize, "item", "items"),
        count(item_count as usize, "item", "items"),
        count(stats.pages as usize, "scan page", "scan pages"),
    )
}

/// A hint for an empty engine: the embedded one starts empty in every process.
fn embedded_hint(name: &str) -> &'static str {
    if name == EMBEDDED {
        "; the embedded engine starts empty in every keyplan process: name the engine that holds the table with --endpoint URL"
    } else {
        ""
    }
}

fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}
