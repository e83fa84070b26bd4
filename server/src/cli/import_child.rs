//! `keyplan __import-child`, hidden from `--help`: one import of `keyplan serve`'s
//! `POST /api/import`, in a process of its own whose memory ends it, not the server
//! ([`crate::api::import::child`] says how the two talk).

use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The address space, in bytes, this process lowers itself to before reading the request.
    #[arg(long, default_value_t = crate::api::import::child::MEMORY_LIMIT)]
    pub memory_limit: u64,
}

/// The child's whole work, on the calling thread: `main` runs it before any runtime exists, so no
/// thread starts after the address space is lowered.
pub fn run_sync(args: Args) -> anyhow::Result<ExitCode> {
    crate::api::import::child::run_child(args.memory_limit)
}

/// [`run_sync`], for `cli::run`'s one list of subcommands.
pub async fn run(args: Args) -> anyhow::Result<ExitCode> {
    run_sync(args)
}
