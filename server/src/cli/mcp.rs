//! `keyplan mcp`: keyplan's MCP server over stdio, for an agent's client to start (see
//! `crate::mcp`). It reads JSON-RPC messages on stdin, one a line and at most the API's body
//! limit each, and answers on stdout; logs go to stderr. A tool may read a design file a
//! `path` names, relative to the working directory. Runs use the embedded engine, or the ones
//! `--endpoint` names, within the same limits as `keyplan serve`'s.

use std::process::ExitCode;

use anyhow::Context as _;
use rmcp::ServiceExt as _;
use rmcp::transport::async_rw::AsyncRwTransport;

use crate::mcp::Keyplan;
use crate::mcp::input::Files;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// A DynamoDB engine the `run` tool may use besides the embedded one, `NAME=URL`
    /// (DynamoDB Local, LocalStack, moto); repeatable.
    #[arg(long = "endpoint", value_name = "NAME=URL")]
    pub endpoints: Vec<String>,
}

pub async fn run(args: Args) -> anyhow::Result<ExitCode> {
    let engines = crate::engine::Engines::start(&crate::engine::EnginesConfig {
        embedded: true,
        endpoints: args.endpoints,
        allow_aws: false,
        region: None,
    })
    .await?;
    let keyplan = Keyplan::new(
        engines,
        crate::api::runs::Runs::default(),
        crate::heavy::Pool::default(),
        Files::Readable,
    );
    let (stdin, stdout) = rmcp::transport::stdio();
    let transport = AsyncRwTransport::new_server(stdin, stdout)
        .with_max_line_length(crate::api::extract::BODY_LIMIT);
    let server = keyplan
        .serve(transport)
        .await
        .context("the MCP client did not start a session")?;
    server.waiting().await.context("the MCP session failed")?;
    Ok(ExitCode::SUCCESS)
}
