//! `keyplan cost FILE`: the capacity and monthly on-demand cost of every access pattern, the
//! storage, the total, and the partitions that would run hot.
//!
//! Item sizes come from the design's sample items (`--seed`, `--count`); storage is priced for
//! `--stored ENTITY=N` items per entity (default: the sample's counts). Prices default to
//! us-east-1 on-demand, standard table class; a month is 30 days. `--json` prints the whole
//! report as one JSON document.

use std::path::PathBuf;
use std::process::ExitCode;

use keyplan_core::cost::{CostConfig, CostReport, estimate};
use keyplan_core::eval::Store;
use keyplan_core::limits::Prices;
use keyplan_core::model::Design;
use keyplan_core::sample::{SampleConfig, generate};

use super::design_io::{Budget, check_entities, print, read_design, sample_config};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The design file: a keyplan design or any format keyplan reads (see `--from`).
    pub file: PathBuf,
    #[command(flatten)]
    pub from: super::design_io::From,
    /// Print the report as one JSON document.
    #[arg(long)]
    pub json: bool,
    /// The seed of the sample generator (item sizes are averaged over the sample).
    #[arg(long, default_value_t = 1, env = "KEYPLAN_SEED")]
    pub seed: u64,
    /// Sample items to generate for an entity, `ENTITY=N`; repeatable.
    #[arg(long = "count", value_name = "ENTITY=N", value_parser = super::design_io::parse_count)]
    pub counts: Vec<(String, u32)>,
    /// Items stored in production for an entity, `ENTITY=N`, for the storage cost; repeatable.
    #[arg(long = "stored", value_name = "ENTITY=N", value_parser = super::design_io::parse_count)]
    pub stored: Vec<(String, u32)>,
    #[command(flatten)]
    pub budget: Budget,
    /// US dollars per million write request units.
    #[arg(long, env = "KEYPLAN_PRICE_WRITE", default_value_t = Prices::default().per_million_write_units)]
    pub price_write: f64,
    /// US dollars per million read request units.
    #[arg(long, env = "KEYPLAN_PRICE_READ", default_value_t = Prices::default().per_million_read_units)]
    pub price_read: f64,
    /// US dollars per GB-month of storage.
    #[arg(long, env = "KEYPLAN_PRICE_STORAGE", default_value_t = Prices::default().per_gb_month)]
    pub price_storage: f64,
}

pub async fn run(args: Args) -> anyhow::Result<ExitCode> {
    let design = read_design(&args.file, args.from)?;
    let sample = sample_config(&design, args.seed, &args.counts, args.budget)?;
    // The same check as --count: a stored count must name an entity.
    check_entities(&design, "--stored", &args.stored)?;
    let config = CostConfig {
        prices: Prices {
            per_million_write_units: args.price_write,
            per_million_read_units: args.price_read,
            per_gb_month: args.price_storage,
        },
        counts: args
            .stored
            .iter()
            .map(|(e, n)| (e.clone(), u64::from(*n)))
            .collect(),
    };
    let report = report(&design, &sample, &config);
    if args.json {
        print(&format!("{}\n", serde_json::to_string_pretty(&report)?))?;
    } else {
        print(&report.to_table())?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The cost report of `design` over its sample.
pub fn report(design: &Design, sample: &SampleConfig, config: &CostConfig) -> CostReport {
    // The sample moves into the store, and cost reads the verdicts only (issue 13: scale).
    let store = Store::build(design, generate(design, sample).into_load_items());
    let verdicts = keyplan_core::analysis::verdicts(design);
    estimate(design, &verdicts, &store, config)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_report_has_a_line_per_pattern_and_a_total() {
        let design = keyplan_core::file::parse(include_str!(
            "../../../examples/order-management.keyplan.json"
        ))
        .expect("the example parses");
        let report = report(&design, &SampleConfig::default(), &CostConfig::default());
        assert_eq!(report.patterns.len(), design.patterns.len());
        let table = report.to_table();
        assert!(table.contains("Create order"));
        assert!(table.contains("monthly: requests $"));
        let json = serde_json::to_value(&report).expect("the report serialises");
        assert!(json["monthly_total"].as_f64().unwrap_or_default() > 0.0);
    }
}
