//! The `keyplan` command line: parses the arguments and runs one subcommand.
//!
//! This file only parses and reports; every subcommand lives in its own module under
//! `server/src/cli/`. To add a subcommand `keyplan frob`:
//! 1. create `server/src/cli/frob.rs` with a `#[derive(Debug, clap::Args)] pub struct Args`
//!    (each field `#[arg(long, env = "KEYPLAN_...")]` with a `///` doc comment, which becomes
//!    its `--help`) and `pub async fn run(args: Args) -> anyhow::Result<ExitCode>`;
//! 2. in `server/src/cli/mod.rs` add `pub mod frob;`, a variant `Frob(frob::Args)` with a `///`
//!    line to `Command`, and the arm `Command::Frob(args) => frob::run(args).await` in `run`.
//!
//! A subcommand returns `Ok(ExitCode::FAILURE)` for a negative answer it has already printed
//! (a design that fails `check`), and `Err` for anything that stopped it: the error is printed
//! here once, with its causes, and the exit code is 1, or 2 for input that cannot be read
//! (`keyplan_server::design_io` decides which). No subcommand panics on bad input.

use std::process::ExitCode;

use clap::Parser;
use keyplan_server::cli::{self, Cli};

/// jemalloc, with its background threads on: memory a finished or cancelled run freed goes
/// back to the system within its decay time (10 s), where glibc's malloc kept hundreds of MB
/// for the life of the server (issue 13; `scripts/run-memory` measures it). Built unprefixed
/// (Cargo.toml), it is the C code's `malloc` too, so the embedded engine's SQLite frees into
/// it rather than into glibc's per-thread arenas, which kept what a run's tables had held.
/// Not on MSVC, which jemalloc does not support.
#[cfg(not(target_env = "msvc"))]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

fn main() -> ExitCode {
    let cli = Cli::parse();
    cli::init_tracing();
    let result = match cli.command {
        // An import's child lowers its address space first thing, on this thread and with no
        // runtime: a runtime's worker threads, started late under load, met the lowered limit
        // while starting and aborted the child ("failed to allocate an alternative stack").
        cli::Command::ImportChild(args) => cli::import_child::run_sync(args),
        command => tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .map_err(anyhow::Error::from)
            .and_then(|runtime| runtime.block_on(cli::run(Cli { command }))),
    };
    match result {
        Ok(code) => code,
        Err(error) => {
            eprintln!("error: {error:#}");
            keyplan_server::design_io::exit_code(&error)
        }
    }
}
