//! `keyplan sample FILE`: prints the design's sample items as DynamoDB JSON, one per line.
//!
//! Each line is `{"table":"orders","entity":"Order","item":{"PK":{"S":"..."},...}}`: the
//! table (a design may have several), the entity the item is of (`null` for an imported item
//! no entity's keys match) and the item exactly as DynamoDB JSON writes it, so
//! `jq -c .item` gives what a PutItem takes. The same design, seed and counts print the same
//! lines.

use std::path::PathBuf;
use std::process::ExitCode;

use keyplan_core::model::Design;
use keyplan_core::sample::{SampleConfig, SampleData, generate};

use crate::design_io::{Budget, print, read_design, sample_config};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The design file: a keyplan design or any format keyplan reads (see `--from`).
    pub file: PathBuf,
    #[command(flatten)]
    pub from: crate::design_io::From,
    /// The seed of the generator: the same seed gives the same items.
    #[arg(long, default_value_t = 1, env = "KEYPLAN_SEED")]
    pub seed: u64,
    /// Items to generate for an entity, `ENTITY=N`; repeatable. Entities without a parent get
    /// 10 by default, children 3 per parent item.
    #[arg(long = "count", value_name = "ENTITY=N", value_parser = crate::design_io::parse_count)]
    pub counts: Vec<(String, u32)>,
    #[command(flatten)]
    pub budget: Budget,
}

pub async fn run(args: Args) -> anyhow::Result<ExitCode> {
    let design = read_design(&args.file, args.from)?;
    let config = sample_config(&design, args.seed, &args.counts, args.budget)?;
    let mut text = lines(&design, &config).join("\n");
    text.push('\n');
    print(&text)?;
    Ok(ExitCode::SUCCESS)
}

/// The output lines for `design` with `config`.
pub fn lines(design: &Design, config: &SampleConfig) -> Vec<String> {
    let data: SampleData = generate(design, config);
    data.items
        .iter()
        .filter_map(|item| serde_json::to_string(item).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_is_one_table_entity_and_dynamodb_json_item() {
        let design = keyplan_core::file::parse(include_str!(
            "../../../examples/order-management.keyplan.json"
        ))
        .expect("the example parses");
        let lines = lines(&design, &SampleConfig::default());
        assert_eq!(lines.len(), 230);
        let first: serde_json::Value = serde_json::from_str(&lines[0]).expect("a JSON line");
        assert_eq!(first["table"], "orders");
        assert_eq!(first["entity"], "Customer");
        assert_eq!(first["item"]["SK"]["S"], "PROFILE");
        assert_eq!(lines, super::lines(&design, &SampleConfig::default()));
    }
}
