//! `keyplan migrate OLD NEW`: the migration plan that takes data stored in OLD's shape to
//! NEW's, in expand / migrate / contract order, with each step's items, read and write units,
//! on-demand cost and duration (issue 18). The plan is `keyplan_core::migrate::plan`; this
//! command reads the designs (files or `REV:PATH`, as `keyplan diff` does) and prints it.
//!
//! Volumes: `--items ENTITY=N` (repeatable), else the volumes the designs record (a live
//! import records them); a step of an entity with neither says its volume is unknown.
//! Durations are at `--max-wcu` write units per second (default 1,000, one partition's
//! limit). Exit 0 with a plan, 2 when a design cannot be read.

use std::process::ExitCode;

use keyplan_core::migrate::{DEFAULT_MAX_WCU, PlanConfig, plan};

use super::design_io::{From, check_entities, parse_pair, print};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The design the data is stored in: a file, or `REV:PATH` for the file as git has it.
    #[arg(value_name = "OLD")]
    pub old: String,
    /// The design to migrate to: a file, or `REV:PATH`.
    #[arg(value_name = "NEW")]
    pub new: String,
    #[command(flatten)]
    pub from: From,
    /// Items of an entity in the table, `ENTITY=N`; repeatable.
    #[arg(long = "items", value_name = "ENTITY=N", value_parser = parse_items)]
    pub items: Vec<(String, u64)>,
    /// Write units per second the migration may use.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_WCU, value_parser = parse_rate)]
    pub max_wcu: f64,
    /// Print the plan as one JSON document.
    #[arg(long)]
    pub json: bool,
}

fn parse_items(arg: &str) -> Result<(String, u64), String> {
    let (entity, n) = parse_pair(arg)?;
    let n = n
        .trim()
        .replace('_', "")
        .parse()
        .map_err(|_| format!("`--items {arg}`: `{}` is not a whole number", n.trim()))?;
    Ok((entity, n))
}

fn parse_rate(arg: &str) -> Result<f64, String> {
    match arg.trim().parse::<f64>() {
        Ok(n) if n.is_finite() && n >= 1.0 => Ok(n),
        _ => Err(format!(
            "`{arg}` is not a rate of at least 1 write unit per second"
        )),
    }
}

pub async fn run(args: Args) -> anyhow::Result<ExitCode> {
    let old = super::diff::read(&args.old, args.from)?;
    let new = super::diff::read(&args.new, args.from)?;
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
    if args.json {
        print(&format!("{}\n", serde_json::to_string_pretty(&plan)?))?;
    } else {
        print(&plan.text())?;
    }
    Ok(ExitCode::SUCCESS)
}
