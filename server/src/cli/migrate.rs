//! `keyplan migrate OLD NEW`: the migration plan that takes data stored in OLD's shape to
//! NEW's, in expand / migrate / contract order, with each step's items, read and write units,
//! on-demand cost and duration (issue 18). The plan is `keyplan_core::migrate::plan`; this
//! command reads the designs (files or `REV:PATH`, as `keyplan diff` does) and prints it.
//!
//! Volumes: `--items ENTITY=N` (repeatable), else the volumes the designs record (a live
//! import records them); a step of an entity with neither says its volume is unknown.
//! Durations are at `--max-wcu` write units per second (default 1,000, one partition's
//! limit). Exit 0 with a plan, 2 when a design cannot be read.
//!
//! `--to typescript|python [-o FILE]` writes the plan as a program that moves the data itself
//! (`keyplan_core::migrate::code`): a parallel, rate-limited, resumable Scan that rewrites
//! each item with conditional writes, so a rerun changes nothing.
//!
//! `--verify` proves the plan on an engine (`--engine`, `--endpoint`; the embedded one by
//! default), within `keyplan_core::budget::verify` (OLD's sample within `--max-items`, the
//! tables of both designs and their GSIs), checked first: OLD's sample is loaded into
//! run-scoped tables, the plan's steps executed, the data read back and compared with core's
//! prediction, and NEW's patterns run on it (see `runner::migrate`). Exit 1 when anything
//! differs or fails; the tables are deleted in every case.

use std::process::ExitCode;

use anyhow::Context as _;
use keyplan_core::budget::OverBudget;
use keyplan_core::migrate::code::{Language, generate};
use keyplan_core::migrate::{DEFAULT_MAX_WCU, PlanConfig, plan};
use keyplan_core::sample::SampleConfig;
use tokio_util::sync::CancellationToken;

use crate::engine::Engines;
use crate::runner::{self, RunId};

use crate::design_io::{check_entities, parse_entity_number, parse_rate, print};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// OLD, the design the data is stored in, and NEW, the one to migrate to.
    #[command(flatten)]
    pub designs: super::diff::Designs,
    /// Items of an entity in the table, `ENTITY=N`; repeatable.
    #[arg(long = "items", value_name = "ENTITY=N", value_parser = parse_entity_number::<u64>)]
    pub items: Vec<(String, u64)>,
    /// Write units per second the migration may use.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_WCU, value_parser = parse_rate)]
    pub max_wcu: f64,
    /// Print the plan as one JSON document.
    #[arg(long)]
    pub json: bool,
    /// Prove the plan on an engine: load OLD's sample, execute the steps, compare the data and
    /// NEW's patterns with core's prediction.
    #[arg(long)]
    pub verify: bool,
    #[command(flatten)]
    pub engine: super::engine_choice::EngineChoice,
    /// Write the migration as a program instead of the plan: typescript or python.
    #[arg(long = "to", value_name = "LANGUAGE", value_parser = parse_language, conflicts_with_all = ["verify", "json"])]
    pub to: Option<Language>,
    /// With --to: write the program here instead of stdout.
    #[arg(short = 'o', long = "out", value_name = "FILE", requires = "to")]
    pub out: Option<std::path::PathBuf>,
    /// With --verify: the most items of OLD's sample to load.
    #[command(flatten)]
    pub budget: crate::design_io::Budget,
}

fn parse_language(name: &str) -> Result<Language, String> {
    Language::parse(name).ok_or_else(|| {
        format!("`{name}` is not a language keyplan writes migrations in: typescript or python")
    })
}

pub async fn run(args: Args) -> anyhow::Result<ExitCode> {
    let (old, new) = args.designs.read()?;
    if args.verify {
        // issue 41: before anything is planned or made (a 3.3 KB design aborted at 3.7 GB).
        keyplan_core::budget::verify(&old, &new, &SampleConfig::default(), args.budget.max_items)
            .map_err(|e| match e {
                OverBudget::Items(e) => anyhow::anyhow!(
                    "cannot verify: {e}; a verification loads OLD's sample: raise `--max-items` to allow it"
                ),
                other => anyhow::anyhow!("cannot verify: {other}"),
            })?;
    }
    // An entity named in --items must be in one of the designs.
    for (entity, _) in &args.items {
        if old.entity(entity).is_none() {
            check_entities(&new, "--items", &[(entity.clone(), 0)])?;
        }
    }
    let config = PlanConfig {
        items: args.items.into_iter().collect(),
        max_wcu: args.max_wcu,
        ..PlanConfig::default()
    };
    let plan = plan(&old, &new, &config);
    if let Some(language) = args.to {
        let text = generate(&old, &new, &plan, language)
            .map_err(|e| anyhow::anyhow!("cannot write the migration: {e}"))?;
        match &args.out {
            Some(path) => std::fs::write(path, &text)
                .with_context(|| format!("cannot write {}", path.display()))?,
            None => print(&text)?,
        }
        return Ok(ExitCode::SUCCESS);
    }
    if !args.verify {
        if args.json {
            print(&format!("{}\n", serde_json::to_string_pretty(&plan)?))?;
        } else {
            print(&plan.text())?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    let (engines, name) = args.engine.config();
    let engines = Engines::start(&engines).await?;
    let engine = engines.get(Some(&name))?.clone();
    let cancel = CancellationToken::new();
    let on_interrupt = cancel.clone();
    tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            eprintln!("interrupted: deleting the verification's tables...");
            on_interrupt.cancel();
        }
    });
    let verified = runner::migrate::verify(
        &engine,
        &old,
        &new,
        &plan,
        &Default::default(),
        &RunId::random(),
        &cancel,
        &|_| {},
    )
    .await
    .context("the verification stopped")?;
    if args.json {
        let both = serde_json::json!({ "plan": plan, "verified": verified, "ok": verified.ok() });
        print(&format!("{}\n", serde_json::to_string_pretty(&both)?))?;
    } else {
        print(&plan.text())?;
        print(&verified.text(&engine.name))?;
    }
    Ok(if verified.ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
