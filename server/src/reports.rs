//! What `keyplan check` and `keyplan cost` report, apart from how the command prints it: the
//! `--json` report of a checked design and its tally in words, and the cost estimate with the
//! options it is made with. The CLI (`crate::cli`) prints these and the MCP tools
//! (`crate::mcp::tools`) answer with them, so a tool answers as the command of the same name.

use keyplan_core::cost::{CostConfig, CostReport, estimate_sampled};
use keyplan_core::counts::{plural, thousands};
use keyplan_core::limits::Prices;
use keyplan_core::model::Design;
use keyplan_core::{Analysis, Severity};
use serde::Serialize;

use crate::design_io::{Budget, check_entities, parse_count, sample_config};

/// The `--json` document of `keyplan check`.
#[derive(Debug, Serialize)]
pub struct Report {
    pub designs: Vec<DesignReport>,
}

#[derive(Debug, Serialize)]
pub struct DesignReport {
    pub file: String,
    pub name: String,
    pub patterns: Vec<PatternReport>,
    pub findings: Vec<FindingReport>,
}

#[derive(Debug, Serialize)]
pub struct PatternReport {
    pub name: String,
    pub operation: &'static str,
    /// `None` for the table itself (and for Scan and writes).
    pub index: Option<String>,
    pub key_condition: Option<String>,
    /// The FilterExpression applied after the read (issue 16).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub filter: Option<String>,
    pub covered: bool,
    pub reasons: Vec<String>,
}

#[derive(Debug, Serialize)]
pub struct FindingReport {
    pub code: &'static str,
    pub severity: Severity,
    pub message: String,
    pub path: String,
    /// The quick fix, in words (`Add attribute `tier` to Customer`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<String>,
}

/// The JSON report of one analysed design.
pub fn design_report(file: &str, name: &str, analysis: &Analysis) -> DesignReport {
    DesignReport {
        file: file.to_string(),
        name: name.to_string(),
        patterns: analysis
            .verdicts
            .iter()
            .map(|v| PatternReport {
                name: v.pattern.clone(),
                operation: v.operation.as_str(),
                index: v.index.clone(),
                key_condition: v.key_condition.as_ref().map(|k| k.expression.clone()),
                filter: v.filter.as_ref().map(|f| f.expression.clone()),
                covered: v.covered,
                reasons: v.reasons.clone(),
            })
            .collect(),
        findings: analysis
            .findings
            .iter()
            .map(|f| FindingReport {
                code: f.code,
                severity: f.severity,
                message: f.message.clone(),
                path: f.place.to_string(),
                fix: f.fix.as_ref().map(|fix| fix.label()),
            })
            .collect(),
    }
}

/// The reads covered and the findings of each severity, in words: `7 of 8 reads covered, 0
/// errors, 2 warnings, 2 info`.
pub fn tally(analysis: &Analysis) -> String {
    let (covered, reads) = analysis.coverage();
    let count = |s: Severity| analysis.findings.iter().filter(|f| f.severity == s).count();
    format!(
        "{} of {} covered, {}, {}, {} info",
        thousands(covered as u64),
        plural(reads, "read"),
        plural(count(Severity::Error), "error"),
        plural(count(Severity::Warning), "warning"),
        thousands(count(Severity::Info) as u64),
    )
}

/// What the estimate is made with: the Region's prices (each overridable), the sample that
/// gives item sizes and the items stored; shared with the MCP `cost` tool.
#[derive(Debug, Clone, clap::Args)]
pub struct Options {
    /// The AWS Region whose prices to use (us-east-1, us-east-2, us-west-2, eu-west-1).
    #[arg(long, env = "KEYPLAN_REGION", default_value = keyplan_core::pricing::DEFAULT_REGION)]
    pub region: String,
    /// The share of provisioned capacity auto scaling aims to use, over 0 and at most 1.
    #[arg(long, default_value_t = keyplan_core::cost::DEFAULT_TARGET_UTILIZATION, value_parser = parse_utilization)]
    pub target_utilization: f64,
    /// The seed of the sample generator (item sizes are averaged over the sample).
    #[arg(long, default_value_t = 1, env = "KEYPLAN_SEED")]
    pub seed: u64,
    /// Sample items to generate for an entity, `ENTITY=N`; repeatable.
    #[arg(long = "count", value_name = "ENTITY=N", value_parser = parse_count)]
    pub counts: Vec<(String, u32)>,
    /// Items stored in production for an entity, `ENTITY=N`, for the storage cost; repeatable.
    #[arg(long = "stored", value_name = "ENTITY=N", value_parser = parse_count)]
    pub stored: Vec<(String, u32)>,
    #[command(flatten)]
    pub budget: Budget,
    /// US dollars per million write request units (Standard), instead of the Region's.
    #[arg(long, env = "KEYPLAN_PRICE_WRITE")]
    pub price_write: Option<f64>,
    /// US dollars per million read request units (Standard), instead of the Region's.
    #[arg(long, env = "KEYPLAN_PRICE_READ")]
    pub price_read: Option<f64>,
    /// US dollars per GB-month of storage (Standard), instead of the Region's.
    #[arg(long, env = "KEYPLAN_PRICE_STORAGE")]
    pub price_storage: Option<f64>,
    /// US dollars per provisioned write capacity unit and hour (Standard), instead of the
    /// Region's.
    #[arg(long)]
    pub price_wcu_hour: Option<f64>,
    /// US dollars per provisioned read capacity unit and hour (Standard), instead of the
    /// Region's.
    #[arg(long)]
    pub price_rcu_hour: Option<f64>,
}

impl Default for Options {
    /// The command's defaults, as `keyplan cost FILE` runs with no option.
    fn default() -> Self {
        Options {
            region: keyplan_core::pricing::DEFAULT_REGION.to_string(),
            target_utilization: keyplan_core::cost::DEFAULT_TARGET_UTILIZATION,
            seed: 1,
            counts: Vec::new(),
            stored: Vec::new(),
            budget: Budget::default(),
            price_write: None,
            price_read: None,
            price_storage: None,
            price_wcu_hour: None,
            price_rcu_hour: None,
        }
    }
}

/// A target utilisation: a number over 0 and at most 1.
fn parse_utilization(text: &str) -> Result<f64, String> {
    let x = text.parse::<f64>().map_err(|_| utilization_error(text))?;
    within_utilization(x)
}

/// `x`, when it is a target utilisation.
fn within_utilization(x: f64) -> Result<f64, String> {
    if x > 0.0 && x <= 1.0 {
        Ok(x)
    } else {
        Err(utilization_error(&x.to_string()))
    }
}

fn utilization_error(text: &str) -> String {
    format!("`{text}` is not a target utilisation: a number over 0 and at most 1, such as 0.7")
}

/// The cost report of `design`, or why the options cannot make one (an entity `--count` or
/// `--stored` does not name, a sample over the budget, an unknown Region, a bad price).
pub fn estimate(design: &Design, options: &Options) -> anyhow::Result<CostReport> {
    let sample = sample_config(design, options.seed, &options.counts, options.budget)?;
    // The same check as --count: a stored count must name an entity.
    check_entities(design, "--stored", &options.stored)?;
    within_utilization(options.target_utilization).map_err(anyhow::Error::msg)?;
    let mut prices = Prices::for_region(&options.region).map_err(anyhow::Error::msg)?;
    for (price, given) in [
        (
            &mut prices.standard.per_million_write_units,
            options.price_write,
        ),
        (
            &mut prices.standard.per_million_read_units,
            options.price_read,
        ),
        (&mut prices.standard.per_gb_month, options.price_storage),
        (&mut prices.standard.per_wcu_hour, options.price_wcu_hour),
        (&mut prices.standard.per_rcu_hour, options.price_rcu_hour),
    ] {
        if let Some(given) = given {
            if !(given.is_finite() && given >= 0.0) {
                anyhow::bail!("a price must be a number of dollars, 0 or more, not {given}");
            }
            *price = given;
        }
    }
    let config = CostConfig {
        prices,
        target_utilization: options.target_utilization,
        counts: options
            .stored
            .iter()
            .map(|(e, n)| (e.clone(), u64::from(*n)))
            .collect(),
        ..CostConfig::default()
    };
    Ok(estimate_sampled(design, &sample, &config))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_report_has_a_line_per_pattern_and_a_total() {
        let design =
            keyplan_core::file::parse(include_str!("../../examples/order-management.keyplan.json"))
                .expect("the example parses");
        let report = estimate_sampled(
            &design,
            &keyplan_core::sample::SampleConfig::default(),
            &CostConfig::default(),
        );
        assert_eq!(report.patterns.len(), design.patterns.len());
        let table = report.to_table();
        assert!(table.contains("Create order"));
        assert!(table.contains("monthly, on-demand, Standard, us-east-1: requests $"));
        let json = serde_json::to_value(&report).expect("the report serialises");
        assert!(json["monthly_total"].as_f64().unwrap_or_default() > 0.0);
    }

    // issue 43: "1 warnings".
    #[test]
    fn the_tally_counts_one_warning_in_the_singular() {
        let design = keyplan_core::examples::get("saas-multi-tenant").expect("the example");
        assert_eq!(
            tally(&keyplan_core::analysis::analyze(&design)),
            "9 of 9 reads covered, 0 errors, 1 warning, 1 info"
        );
    }
}
