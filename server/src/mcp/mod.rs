//! keyplan for agents (issue 39): a Model Context Protocol server, on the official Rust SDK
//! (`rmcp`), whose tools check, explain, cost, export, import, diff, plan migrations of and
//! run a design, and whose resources are the design file's JSON Schema, the built-in examples
//! and DynamoDB's limits as keyplan knows them.
//!
//! It is served two ways: `keyplan mcp` over stdio (`cli::mcp`), where a tool may read a
//! design file a `path` names, and `POST /mcp` on `keyplan serve` ([`http`]), the protocol's
//! streamable HTTP transport behind the same Host and Origin checks and body limit as the API,
//! where no file is read. The server decides nothing about designs: [`tools`] calls what the
//! `keyplan` commands call, so each tool answers as the command of the same name. CPU work
//! runs in the server's heavy-work pool, and `run` is admitted against the runs' limits like
//! `POST /api/runs`.
//!
//! To add a tool: its arguments (a `Deserialize + JsonSchema` struct with a `///` on each
//! field) and its work in `tools.rs`, then a `#[tool]` method in [`service`] that hands the
//! work to `Keyplan::answer`.

pub mod http;
pub mod input;
pub mod resources;
pub mod service;
pub mod tools;

pub use service::Keyplan;
