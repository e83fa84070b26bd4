//! The MCP server itself: the tools as the protocol lists and calls them, and the resources.
//!
//! Each tool hands its work ([`super::tools`]) to the server's heavy-work pool and answers a
//! tool result: a short summary as text and the data as structured content, or, when the
//! input is wrong, a result with `isError` whose structured content is
//! `{"error": "...", "where": "design.entities[0].name"}`, so an agent can correct its call.
//! Arguments that do not fit a tool's input schema, an unknown tool and an unknown resource
//! are the protocol's errors (invalid params, resource not found), answered by `rmcp`.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use keyplan_core::sample::SampleConfig;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolResult, ContentBlock, Implementation, ListResourcesResult, PaginatedRequestParams,
    ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, Resource,
    ResourceContents, ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, tool, tool_handler, tool_router};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;
use tokio_util::sync::CancellationToken;

use super::input::{Arguments, DesignSource, Files, ToolError, read};
use super::tools::{self, Answer};
use crate::api::runs::{MAX_ITEMS_PER_RUN, Runs};
use crate::engine::Engines;
use crate::heavy::Pool;
use crate::runner::{self, RunEvent, RunId};
use keyplan_core::synth::{Control, Options};

/// keyplan's MCP server: what every tool may use. Cheap to clone (one per HTTP session).
#[derive(Debug, Clone)]
pub struct Keyplan {
    engines: Engines,
    runs: Runs,
    heavy: Pool,
    files: Files,
    tool_router: ToolRouter<Keyplan>,
}

/// `propose`'s arguments: the design and what the synthesis is asked for.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct ProposeArgs {
    #[serde(flatten)]
    pub source: DesignSource,
    /// `single-table` (the default: PK/SK, prefixed templates, overloaded GSIs) or `natural`.
    #[serde(default)]
    pub style: Option<String>,
    /// The most GSIs a table may have, at most 20 (the default).
    #[serde(default)]
    pub max_gsis: Option<u32>,
    /// How many designs of the Pareto front of (monthly cost, indexes), 1 (the default) to 20.
    #[serde(default)]
    pub alternatives: Option<usize>,
    /// Search nodes before the search stops with its best and gap: 1 to 1,000,000,000,
    /// default 200,000.
    #[serde(default)]
    pub budget: Option<u64>,
    /// The engine the proposals are proven on, by name (`embedded`, the default).
    #[serde(default)]
    pub engine: Option<String>,
}

/// `run`'s arguments.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct RunArgs {
    #[serde(flatten)]
    pub source: DesignSource,
    /// The engine to run on, by name (`embedded`, the default: dynoxide in this process).
    #[serde(default)]
    pub engine: Option<String>,
    /// Sample items to generate per entity (`{"Order": 100}`); the whole sample may hold at
    /// most 100,000 items.
    #[serde(default)]
    pub counts: BTreeMap<String, u32>,
    /// The seed of the sample generator.
    #[serde(default)]
    pub seed: Option<u64>,
}

fn success(answer: Answer) -> CallToolResult {
    let mut result = CallToolResult::success(vec![ContentBlock::text(answer.summary)]);
    result.structured_content = Some(answer.structured);
    result
}

fn failure(error: ToolError) -> CallToolResult {
    let mut result = CallToolResult::error(vec![ContentBlock::text(match &error.at {
        Some(at) => format!("{} (at {at})", error.message),
        None => error.message.clone(),
    })]);
    result.structured_content = Some(json!({ "error": error.message, "where": error.at }));
    result
}

#[tool_router]
impl Keyplan {
    /// A server whose runs use `engines` within the limits of `runs`, whose CPU work runs in
    /// `heavy`, and which reads files only when `files` says so.
    pub fn new(engines: Engines, runs: Runs, heavy: Pool, files: Files) -> Keyplan {
        Keyplan {
            engines,
            runs,
            heavy,
            files,
            tool_router: Self::tool_router(),
        }
    }

    /// Runs `work` in the heavy-work pool and answers its result.
    async fn answer<F>(&self, what: &str, work: F) -> Result<CallToolResult, ErrorData>
    where
        F: FnOnce() -> Result<Answer, ToolError> + Send + 'static,
    {
        Ok(match self.heavy.run(what, work).await {
            Ok(Ok(answer)) => success(answer),
            Ok(Err(error)) => failure(error),
            Err(busy) => failure(busy.into()),
        })
    }

    #[tool(
        description = "Check a DynamoDB single-table design: how DynamoDB serves every access pattern (GetItem, Query on the table or an index, or a Scan, with the key condition) and every finding (errors, warnings, info, each with its path in the design and a fix when there is one). The same report as `keyplan check --json`. Give the design as `design` (the design file's JSON; the resource keyplan://schema/design is its schema)."
    )]
    async fn check(
        &self,
        Parameters(Arguments(args)): Parameters<Arguments<tools::CheckArgs>>,
    ) -> Result<CallToolResult, ErrorData> {
        let files = self.files;
        self.answer("the check", move || tools::check(&args, files))
            .await
    }

    #[tool(
        description = "Explain one access pattern of a design: its verdict (operation, index, key condition) as `check` gives it, why (for a Scan, why each index cannot serve it), and the index that would serve it."
    )]
    async fn explain_pattern(
        &self,
        Parameters(Arguments(args)): Parameters<Arguments<tools::ExplainArgs>>,
    ) -> Result<CallToolResult, ErrorData> {
        let files = self.files;
        self.answer("the explanation", move || {
            tools::explain_pattern(&args, files)
        })
        .await
    }

    #[tool(
        description = "The capacity and monthly cost of a design: every pattern's read and write units, the storage, every table under every billing mode (on-demand, provisioned auto-scaled and at peak, 1- and 3-year reserved; Standard and Standard-IA; replicas) and the partitions that would run hot, in any Region keyplan prices. The same report as `keyplan cost --json`."
    )]
    async fn cost(
        &self,
        Parameters(Arguments(args)): Parameters<Arguments<tools::CostArgs>>,
    ) -> Result<CallToolResult, ErrorData> {
        let files = self.files;
        self.answer("the estimate", move || tools::cost(&args, files))
            .await
    }

    #[tool(
        description = "Export a design in a format keyplan writes: CloudFormation (JSON or YAML), Terraform, create-table, CDK, NoSQL Workbench, ElectroDB, OneTable, TypeScript, Python or Rust access code, Markdown or SVG. The text `keyplan export --to FORMAT` writes."
    )]
    async fn export(
        &self,
        Parameters(Arguments(args)): Parameters<Arguments<tools::ExportArgs>>,
    ) -> Result<CallToolResult, ErrorData> {
        let files = self.files;
        self.answer("the export", move || tools::export(&args, files))
            .await
    }

    #[tool(
        description = "Import another tool's model as a keyplan design: a NoSQL Workbench model, an awslabs/mcp schema.json, a CloudFormation template, Terraform configuration, a OneTable schema or an ElectroDB module, given as text. Answers the design and notes on what it could not hold."
    )]
    async fn import(
        &self,
        Parameters(Arguments(args)): Parameters<Arguments<tools::ImportArgs>>,
    ) -> Result<CallToolResult, ErrorData> {
        self.answer("the import", move || tools::import(&args))
            .await
    }

    #[tool(
        description = "What changed between two designs (`old`, `new`): tables, indexes, entities, key templates, attributes and patterns, and every pattern whose verdict changed, regressions marked. The same as `keyplan diff --json`."
    )]
    async fn diff(
        &self,
        Parameters(Arguments(args)): Parameters<Arguments<tools::DiffArgs>>,
    ) -> Result<CallToolResult, ErrorData> {
        let files = self.files;
        self.answer("the diff", move || tools::diff(&args, files))
            .await
    }

    #[tool(
        description = "The migration plan that takes data stored in `old`'s shape to `new`'s: expand, migrate and contract steps with their items, read and write units, cost and duration. The same as `keyplan migrate --json`."
    )]
    async fn migration_plan(
        &self,
        Parameters(Arguments(args)): Parameters<Arguments<tools::MigrationArgs>>,
    ) -> Result<CallToolResult, ErrorData> {
        let files = self.files;
        self.answer("the migration plan", move || {
            tools::migration_plan(&args, files)
        })
        .await
    }

    #[tool(
        description = "Run a design on a DynamoDB engine (the embedded one by default): its sample items are loaded into run-scoped tables, every pattern is executed and compared with what keyplan predicts, and the tables are deleted. Answers every event `keyplan run --json` prints, and whether the run passed."
    )]
    async fn run(
        &self,
        Parameters(Arguments(args)): Parameters<Arguments<RunArgs>>,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        Ok(match self.run_design(args, context.ct).await {
            Ok(answer) => success(answer),
            Err(error) => failure(error),
        })
    }

    #[tool(
        description = "Propose the keys and indexes that serve a design's access patterns: every entity's key templates, GSIs and LSIs, the cheapest by keyplan's cost model within `max_gsis`, with a reason in figures for each key and index, the reads no design can serve and why, a proven lower bound and gap; each proposal is run on a DynamoDB engine (the embedded one by default) before it is answered, and one that fails is only listed under `rejected`. The same as `keyplan design --json`."
    )]
    async fn propose(
        &self,
        Parameters(Arguments(args)): Parameters<Arguments<ProposeArgs>>,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        Ok(match self.propose_design(args, context.ct).await {
            Ok(answer) => success(answer),
            Err(error) => failure(error),
        })
    }
}

impl Keyplan {
    /// `keyplan design`'s work: the options bounded before any search, the search on the heavy
    /// pool, each proposal proven by a run admitted as `run`'s are.
    async fn propose_design(
        &self,
        args: ProposeArgs,
        cancel: CancellationToken,
    ) -> Result<Answer, ToolError> {
        let defaults = Options::default();
        let style = match &args.style {
            Some(style) => style
                .parse()
                .map_err(|e: String| ToolError::new(e, "style"))?,
            None => defaults.style,
        };
        let options = Options {
            style,
            max_gsis: within(
                args.max_gsis,
                defaults.max_gsis,
                0,
                defaults.max_gsis,
                "max_gsis",
            )?,
            alternatives: within(
                args.alternatives,
                1,
                1,
                keyplan_core::synth::MAX_ALTERNATIVES,
                "alternatives",
            )?,
            budget: within(
                args.budget,
                defaults.budget,
                1,
                keyplan_core::synth::MAX_BUDGET,
                "budget",
            )?,
        };
        let engine = self
            .engines
            .get(args.engine.as_deref())
            .map_err(|e| ToolError::new(e.to_string(), "engine"))?
            .clone();
        let files = self.files;
        let synthesis = self
            .heavy
            .run("proposing keys", move || {
                let read = read(&args.source, "design", files)?;
                keyplan_core::synth::propose(read.design(), &options, &mut |_| Control::Continue)
                    .map_err(|e| {
                        ToolError::general(format!(
                            "cannot propose a design for {}: {e}",
                            read.label
                        ))
                    })
            })
            .await??;
        let admission = self.runs.admit(MAX_ITEMS_PER_RUN as usize)?;
        let prover = crate::synthesis::Prover {
            engine: &engine,
            sample: &SampleConfig::default(),
            budget: crate::design_io::Budget {
                max_items: u64::from(MAX_ITEMS_PER_RUN),
            },
        };
        let answer = prover.prove(synthesis, &cancel).await;
        drop(admission);
        let summary = match answer.proposals.first() {
            Some(best) => format!(
                "{} proposal(s) proven on {}, {} refused; the cheapest: ${:.2} a month, {} index(es), {}/{} reads served; {}",
                answer.proposals.len(),
                engine.name,
                answer.rejected.len(),
                best.proposal.monthly_cost,
                best.proposal.indexes,
                best.proposal.reads_served,
                best.proposal.reads,
                match answer.optimal {
                    true => "proven optimal".to_string(),
                    false => format!("gap {:.1}% to the lower bound", answer.gap_percent),
                }
            ),
            None => format!(
                "no proposal passed on {}: {}",
                engine.name,
                answer
                    .rejected
                    .first()
                    .map_or("none was made".to_string(), |r| r.engine.first_reason())
            ),
        };
        Ok(Answer {
            summary,
            structured: serde_json::to_value(&answer)
                .map_err(|e| ToolError::general(format!("the answer could not be written: {e}")))?,
        })
    }
}

/// `value`, or `default` when absent, refused with where when it is outside `low..=high`.
fn within<T: PartialOrd + std::fmt::Display + Copy>(
    value: Option<T>,
    default: T,
    low: T,
    high: T,
    field: &str,
) -> Result<T, ToolError> {
    let value = value.unwrap_or(default);
    if value < low || value > high {
        return Err(ToolError::new(
            format!("{value} is not in {low}..={high}"),
            field,
        ));
    }
    Ok(value)
}

impl Keyplan {
    /// A run as `POST /api/runs` makes one: admitted before any work, its sample bounded
    /// before it is planned, cancelled (and its tables deleted) when the request is.
    async fn run_design(
        &self,
        args: RunArgs,
        cancel: CancellationToken,
    ) -> Result<Answer, ToolError> {
        let engine = self
            .engines
            .get(args.engine.as_deref())
            .map_err(|e| ToolError::new(e.to_string(), "engine"))?
            .clone();
        let admission = self.runs.admit(MAX_ITEMS_PER_RUN as usize)?;
        let files = self.files;
        let plan = self
            .heavy
            .run("planning the run", move || {
                let read = read(&args.source, "design", files)?;
                let design = read.design();
                let counts: Vec<(String, u32)> = args.counts.into_iter().collect();
                crate::design_io::check_entities(design, "counts", &counts)
                    .map_err(|e| ToolError::new(e.to_string(), "counts"))?;
                let sample = SampleConfig::new(counts.into_iter().collect(), args.seed);
                // The budget of every run (issue 41): the sample, the tables and their GSIs.
                keyplan_core::budget::run(design, &sample, u64::from(MAX_ITEMS_PER_RUN))
                    .map_err(|e| ToolError::new(e.to_string(), "counts"))?;
                runner::build::plan_sample(design, &sample)
                    .map_err(|e| ToolError::general(format!("cannot run {}: {e}", read.label)))
            })
            .await??;
        let events: Arc<Mutex<Vec<RunEvent>>> = Arc::default();
        let log = events.clone();
        let emit = move |event: RunEvent| {
            if let Ok(mut events) = log.lock() {
                events.push(event);
            }
        };
        let summary = runner::run(&engine, &plan, &RunId::random(), &cancel, &emit).await;
        drop(plan);
        drop(admission);
        let events = std::mem::take(
            &mut *events
                .lock()
                .map_err(|_| ToolError::general("the run's events could not be read"))?,
        );
        Ok(Answer {
            summary: format!(
                "{} on {}: {} passed, {} mismatched, {} errors, {} skipped; {} items loaded",
                if summary.ok { "passed" } else { "FAILED" },
                engine.name,
                summary.passed,
                summary.mismatched,
                summary.errors,
                summary.skipped,
                summary.items_written
            ),
            structured: json!({ "ok": summary.ok, "events": events }),
        })
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Keyplan {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_resources()
                .build(),
        )
        .with_server_info(Implementation::new("keyplan", env!("CARGO_PKG_VERSION")))
        .with_instructions(
            "keyplan checks, costs, exports, diffs and runs Amazon DynamoDB single-table designs deterministically. Give a design as `design`: a keyplan design file's JSON (schema: resource keyplan://schema/design; examples: keyplan://examples/...). Start with `check`; `explain_pattern` says why one pattern is a Scan and which index would serve it; `cost` prices every billing mode; `run` proves the design on an embedded DynamoDB engine; `propose` designs the keys and indexes from the patterns, each proposal proven on the engine.",
        )
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let resources: Vec<Resource> = super::resources::all()
            .into_iter()
            .map(|entry| {
                Resource::new(entry.uri, entry.name)
                    .with_description(entry.description)
                    .with_mime_type(entry.mime_type)
            })
            .collect();
        Ok(ListResourcesResult::with_all_items(resources))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let text = super::resources::read(&request.uri).ok_or_else(|| {
            ErrorData::resource_not_found(
                format!(
                    "no resource `{}`: list them with resources/list",
                    request.uri
                ),
                Some(json!({ "uri": request.uri })),
            )
        })?;
        Ok(ReadResourceResult::new(vec![ResourceContents::text(text, request.uri)]).into())
    }
}
