//! The subcommands of `keyplan`, one module each; `main.rs` says how to add one.
//!
//! Nothing here parses design files or talks to DynamoDB by itself: each subcommand turns its
//! arguments into calls to `keyplan_core` or to the server's library, and prints the result.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

pub mod check;
pub mod cost;
pub mod design;
pub mod diff;
pub mod engine_choice;
pub mod export;
pub mod import;
pub mod import_child;
pub mod import_files;
pub mod link;
pub mod mcp;
pub mod migrate;
pub mod query;
pub mod run;
pub mod sample;
pub mod schema;
pub mod serve;

/// keyplan: design, check and run DynamoDB single-table schemas.
#[derive(Debug, Parser)]
#[command(name = "keyplan", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

/// One variant per subcommand, in the order `--help` lists them.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check designs: how every access pattern is served, and every finding.
    Check(check::Args),
    /// Import a NoSQL Workbench model, an awslabs/mcp schema.json, a CloudFormation template or
    /// Terraform configuration as a keyplan design file.
    Import(import::Args),
    /// Print the JSON Schema of the design file.
    Schema(schema::Args),
    /// Print a share link that carries a design file, or (`--decode`) the design a link carries.
    Link(link::Args),
    /// Serve the built browser app and the HTTP API.
    Serve(serve::Args),
    /// Run a design on a DynamoDB engine and compare every pattern with core's evaluation.
    Run(run::Args),
    /// Export a design: CloudFormation, Terraform, CDK, library schemas, access code, docs.
    Export(export::Args),
    /// Print the design's sample items as DynamoDB JSON, one `{"table","entity","item"}` per line.
    Sample(sample::Args),
    /// Run one read pattern over the sample items and print what DynamoDB would return.
    Query(query::Args),
    /// Print the capacity units and monthly on-demand cost of every pattern, and hot partitions.
    Cost(cost::Args),
    /// Propose the keys and indexes that serve the design's patterns, cheapest first, each
    /// proven on an engine.
    Design(design::Args),
    /// What changed between two designs (files or `REV:PATH`), and every verdict that changed;
    /// exits 1 when a pattern is served worse.
    Diff(diff::Args),
    /// The migration plan from one design to another for data that exists: expand, migrate and
    /// contract steps with their items, units, cost and duration.
    Migrate(migrate::Args),
    /// Serve keyplan's tools to an agent over the Model Context Protocol, on stdio.
    Mcp(mcp::Args),
    /// One import of `keyplan serve`, in a process of its own (not for people).
    #[command(name = "__import-child", hide = true)]
    ImportChild(import_child::Args),
}

/// Runs the chosen subcommand.
pub async fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Check(args) => check::run(args).await,
        Command::Import(args) => import::run(args).await,
        Command::Schema(args) => schema::run(args).await,
        Command::Link(args) => link::run(args).await,
        Command::Serve(args) => serve::run(args).await,
        Command::Run(args) => run::run(args).await,
        Command::Export(args) => export::run(args).await,
        Command::Sample(args) => sample::run(args).await,
        Command::Query(args) => query::run(args).await,
        Command::Cost(args) => cost::run(args).await,
        Command::Design(args) => design::run(args).await,
        Command::Diff(args) => diff::run(args).await,
        Command::Migrate(args) => migrate::run(args).await,
        Command::Mcp(args) => mcp::run(args).await,
        Command::ImportChild(args) => import_child::run(args).await,
    }
}

/// Logs to stderr; `RUST_LOG` overrides the default of keyplan's own info messages. Whatever
/// it asks, the AWS SDK's crates (`aws_*`) log at most at info level: at debug and trace they
/// print the request they sign, whose `Authorization` header names the access key id and whose
/// `x-amz-security-token` is the session token, and the credentials they resolve (issue 41).
pub fn init_tracing() {
    use tracing_subscriber::layer::{Layer as _, SubscriberExt as _};
    use tracing_subscriber::util::SubscriberInitExt as _;
    let filter = tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| {
        tracing_subscriber::EnvFilter::new("keyplan_server=info,dynoxide=error,warn")
    });
    let no_credentials = tracing_subscriber::filter::filter_fn(|meta| {
        !(meta.target().starts_with("aws_") && *meta.level() > tracing::Level::INFO)
    });
    let layer = tracing_subscriber::fmt::layer()
        .with_writer(std::io::stderr)
        .with_filter(no_credentials)
        .with_filter(filter);
    // A second initialisation (tests calling in twice) is harmless, so its error is ignored.
    let _ = tracing_subscriber::registry().with(layer).try_init();
}
