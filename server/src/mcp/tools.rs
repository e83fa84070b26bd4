//! The MCP tools' work, without the protocol: each takes its arguments and answers a short
//! summary and the structured JSON, or a [`ToolError`] saying what is wrong and where.
//!
//! Every tool gives the answer of the `keyplan` command of the same name, because it calls the
//! same functions: `check` builds `keyplan check --json`'s design report, `cost` is
//! `keyplan cost --json`, `diff` is `keyplan diff --json`, `migration_plan` is
//! `keyplan migrate --json`, `export` is `keyplan export --to`, `import` is `keyplan import`'s
//! design. Nothing here decides anything about a design: core does, as for the CLI.
//! (`run` and `propose`, `keyplan design --json`, need the server's engines and limits, so
//! they live in `mcp::service`.)

use std::collections::BTreeMap;

use keyplan_core::analyze;
use keyplan_core::export::Target;
use keyplan_core::import::Format;
use keyplan_core::migrate::{DEFAULT_MAX_WCU, PlanConfig};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

use super::input::{DesignSource, Files, Read, ToolError, read};

/// A tool's answer: a line or two for the conversation, and the data.
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    pub summary: String,
    pub structured: serde_json::Value,
}

fn structured(value: &impl serde::Serialize) -> Result<serde_json::Value, ToolError> {
    serde_json::to_value(value)
        .map_err(|e| ToolError::general(format!("the answer could not be written: {e}")))
}

/// `check`'s arguments: the design.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct CheckArgs {
    #[serde(flatten)]
    pub source: DesignSource,
}

/// How every access pattern is served and every finding: `keyplan check --json`'s report of
/// the design.
pub fn check(args: &CheckArgs, files: Files) -> Result<Answer, ToolError> {
    let read = read(&args.source, "design", files)?;
    let analysis = analyze(read.design());
    let report = crate::reports::design_report(&read.label, &read.design().name, &analysis);
    let verdict = if analysis.passes() { "pass" } else { "FAIL" };
    Ok(Answer {
        summary: format!(
            "{}: {}: {verdict}",
            read.design().name,
            crate::reports::tally(&analysis)
        ),
        structured: structured(&report)?,
    })
}

/// `explain_pattern`'s arguments: the design and a pattern's name.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct ExplainArgs {
    #[serde(flatten)]
    pub source: DesignSource,
    /// The access pattern's name, as the design names it.
    pub pattern: String,
}

/// One pattern's verdict (the row `check` gives it), why, and the index that would serve it
/// when none does.
pub fn explain_pattern(args: &ExplainArgs, files: Files) -> Result<Answer, ToolError> {
    let read = read(&args.source, "design", files)?;
    let analysis = analyze(read.design());
    let Some(position) = analysis
        .verdicts
        .iter()
        .position(|v| v.pattern == args.pattern)
    else {
        let names: Vec<&str> = analysis
            .verdicts
            .iter()
            .map(|v| v.pattern.as_str())
            .collect();
        return Err(ToolError::new(
            format!(
                "the design has no pattern `{}`; its patterns are: {}",
                args.pattern,
                names.join(", ")
            ),
            "pattern",
        ));
    };
    let verdict = &analysis.verdicts[position];
    let mut report = crate::reports::design_report(&read.label, &read.design().name, &analysis);
    let row = report.patterns.swap_remove(position);
    let served_by = match (&verdict.index, verdict.covered) {
        (_, false) => "no index: it needs a Scan".to_string(),
        (Some(index), true) => index.clone(),
        (None, true) => "the table".to_string(),
    };
    let mut summary = format!(
        "`{}`: {} on {served_by}",
        verdict.pattern,
        verdict.operation.as_str()
    );
    for suggestion in &verdict.suggestions {
        summary.push_str(&format!("; suggestion: {suggestion}"));
    }
    Ok(Answer {
        summary,
        structured: json!({
            "pattern": row,
            "table": verdict.table,
            "order": verdict.order,
            "shards": verdict.shards,
            "suggestion": verdict.suggestions.first(),
            "suggestions": verdict.suggestions,
        }),
    })
}

/// `cost`'s arguments: the design and what `keyplan cost` takes as options.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct CostArgs {
    #[serde(flatten)]
    pub source: DesignSource,
    /// The AWS Region whose prices to use (us-east-1, us-east-2, us-west-2, eu-west-1);
    /// us-east-1 by default.
    #[serde(default)]
    pub region: Option<String>,
    /// Items stored in production per entity, for the storage cost (`{"Order": 1000000}`);
    /// else the entities' volumes, else the sample's counts.
    #[serde(default)]
    pub stored: BTreeMap<String, u32>,
    /// Sample items to generate per entity, for item sizes (`{"Order": 50}`).
    #[serde(default)]
    pub counts: BTreeMap<String, u32>,
    /// The seed of the sample generator (1 by default).
    #[serde(default)]
    pub seed: Option<u64>,
    /// The share of provisioned capacity auto scaling aims to use, over 0 and at most 1.
    #[serde(default)]
    pub target_utilization: Option<f64>,
}

/// The capacity and monthly cost of every pattern and every table under every billing mode:
/// `keyplan cost --json`.
pub fn cost(args: &CostArgs, files: Files) -> Result<Answer, ToolError> {
    let read = read(&args.source, "design", files)?;
    let defaults = crate::reports::Options::default();
    let options = crate::reports::Options {
        region: args.region.clone().unwrap_or(defaults.region.clone()),
        target_utilization: args
            .target_utilization
            .unwrap_or(defaults.target_utilization),
        seed: args.seed.unwrap_or(defaults.seed),
        counts: args.counts.clone().into_iter().collect(),
        stored: args.stored.clone().into_iter().collect(),
        ..defaults
    };
    let report = crate::reports::estimate(read.design(), &options)
        .map_err(|e| ToolError::general(format!("{e:#}")))?;
    Ok(Answer {
        summary: format!(
            "{} in {}: ${:.2} a month on demand (${:.2} requests, ${:.2} storage); `billing` has every table under every billing mode",
            read.design().name,
            options.region,
            report.monthly_total,
            report.monthly_request_cost,
            report.monthly_storage_cost
        ),
        structured: structured(&report)?,
    })
}

/// `export`'s arguments: the design and the format.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct ExportArgs {
    #[serde(flatten)]
    pub source: DesignSource,
    /// The format: cloudformation-json, cloudformation-yaml, terraform, create-table, cdk,
    /// nosql-workbench, electrodb, onetable, dynamodb-toolbox, dynamoose, typescript, python,
    /// rust, markdown or svg.
    pub format: String,
}

/// The design in a format keyplan writes: `keyplan export --to FORMAT`'s text.
pub fn export(args: &ExportArgs, files: Files) -> Result<Answer, ToolError> {
    let target: Target =
        args.format
            .parse()
            .map_err(|e: keyplan_core::export::UnknownFormat| {
                ToolError::new(e.to_string(), "format")
            })?;
    let read = read(&args.source, "design", files)?;
    let text = keyplan_core::export::export(read.design(), target)
        .map_err(|e| ToolError::general(format!("cannot export {}: {e}", read.label)))?;
    let file_name = target.file_name(read.design());
    Ok(Answer {
        summary: format!(
            "{} as {}: {file_name}, {} lines",
            read.design().name,
            args.format,
            text.lines().count()
        ),
        structured: json!({
            "format": args.format,
            "file_name": file_name,
            "content_type": target.content_type(),
            "text": text,
            // What the format has no place for and leaves out (issue 40).
            "warnings": keyplan_core::export::warnings(read.design(), target),
        }),
    })
}

/// `import`'s arguments: a file's text in any format keyplan reads.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct ImportArgs {
    /// The file's text: a NoSQL Workbench model, an awslabs/mcp schema.json, a CloudFormation
    /// template, Terraform configuration, a OneTable schema, an ElectroDB, DynamoDB-Toolbox or
    /// Dynamoose module, or DynamoDB-Toolbox DTO JSON.
    pub text: String,
    /// The format (nosql-workbench, mcp, cloudformation, terraform, onetable, electrodb,
    /// dynamodb-toolbox, dynamoose, keyplan); detected when absent.
    #[serde(default)]
    pub from: Option<String>,
}

/// Another tool's model as a keyplan design, with what it could not hold: the design
/// `keyplan import` writes and the notes it prints.
pub fn import(args: &ImportArgs) -> Result<Answer, ToolError> {
    let from = match &args.from {
        None => crate::design_io::From::default(),
        Some(name) => crate::design_io::From {
            from: crate::design_io::Detect(Some(
                name.parse::<Format>()
                    .map_err(|e| ToolError::new(e, "from"))?,
            )),
        },
    };
    if args.text.len() > super::input::MAX_DESIGN_BYTES {
        return Err(ToolError::new(
            format!(
                "`text` is {} bytes, more than the {} bytes a design may have here",
                args.text.len(),
                super::input::MAX_DESIGN_BYTES
            ),
            "text",
        ));
    }
    let (format, imported) = crate::design_io::import_as(&args.text, from)
        .map_err(|e| ToolError::new(crate::design_io::import_error("`text`", from, &e), "text"))?;
    let design: serde_json::Value =
        serde_json::from_str(&keyplan_core::file::to_string(&imported.design))
            .map_err(|e| ToolError::general(e.to_string()))?;
    Ok(Answer {
        summary: imported.summary(format),
        structured: json!({
            "format": format.as_str(),
            "design": design,
            "notes": imported.notes,
            "assumed": imported.assumed,
        }),
    })
}

/// Two designs: OLD and NEW, each inline or (over stdio) a file.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct TwoDesigns {
    /// The design before: a keyplan design file's JSON object, or a string in any format
    /// keyplan reads.
    #[serde(default)]
    pub old: Option<serde_json::Value>,
    /// Over stdio only: the design before, as a file.
    #[serde(default)]
    pub old_path: Option<String>,
    /// The design after.
    #[serde(default)]
    pub new: Option<serde_json::Value>,
    /// Over stdio only: the design after, as a file.
    #[serde(default)]
    pub new_path: Option<String>,
}

impl TwoDesigns {
    fn read(&self, files: Files) -> Result<(Read, Read), ToolError> {
        let old = DesignSource {
            design: self.old.clone(),
            path: self.old_path.clone(),
        };
        let new = DesignSource {
            design: self.new.clone(),
            path: self.new_path.clone(),
        };
        Ok((read(&old, "old", files)?, read(&new, "new", files)?))
    }
}

/// `diff`'s arguments.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct DiffArgs {
    #[serde(flatten)]
    pub designs: TwoDesigns,
}

/// What changed between two designs and every verdict that changed: `keyplan diff --json`.
pub fn diff(args: &DiffArgs, files: Files) -> Result<Answer, ToolError> {
    let (old, new) = args.designs.read(files)?;
    let difference = keyplan_core::diff::diff(old.design(), new.design());
    Ok(Answer {
        summary: difference.summary(),
        structured: structured(&difference)?,
    })
}

/// `migration_plan`'s arguments.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct MigrationArgs {
    #[serde(flatten)]
    pub designs: TwoDesigns,
    /// Items per entity in the table (`{"Order": 30000}`), else the designs' recorded volumes.
    #[serde(default)]
    pub items: BTreeMap<String, u64>,
    /// Write units per second the migration may use (1,000 by default, one partition's limit).
    #[serde(default)]
    pub max_wcu: Option<f64>,
}

/// The expand / migrate / contract steps from OLD to NEW with their items, units, cost and
/// duration: `keyplan migrate --json`.
pub fn migration_plan(args: &MigrationArgs, files: Files) -> Result<Answer, ToolError> {
    let max_wcu = args.max_wcu.unwrap_or(DEFAULT_MAX_WCU);
    crate::design_io::within_rate(max_wcu).map_err(|e| ToolError::new(e, "max_wcu"))?;
    let (old, new) = args.designs.read(files)?;
    for entity in args.items.keys() {
        if old.design().entity(entity).is_none() {
            crate::design_io::check_entities(new.design(), "items", &[(entity.clone(), 0)])
                .map_err(|e| ToolError::new(e.to_string(), format!("items.{entity}")))?;
        }
    }
    let config = PlanConfig {
        items: args.items.clone(),
        max_wcu,
        ..PlanConfig::default()
    };
    let plan = keyplan_core::migrate::plan(old.design(), new.design(), &config);
    Ok(Answer {
        summary: format!(
            "{} steps, ${:.2}, {:.0} s at {max_wcu} write units a second",
            plan.steps.len(),
            plan.cost,
            plan.seconds
        ),
        structured: structured(&plan)?,
    })
}
