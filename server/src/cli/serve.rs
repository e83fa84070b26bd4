//! `keyplan serve`: the built browser app and the API on one address.
//!
//! The server never starts on a missing app: without `index.html` in the dist folder it names
//! the command that builds the app and exits non-zero, so nobody meets a blank page.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;

use crate::{AppState, Dist};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Address to listen on.
    #[arg(long, env = "KEYPLAN_HOST", default_value = "127.0.0.1")]
    pub host: String,
    /// Port to listen on; 0 picks a free one (the chosen address is printed).
    #[arg(long, env = "KEYPLAN_PORT", default_value_t = 8080)]
    pub port: u16,
    /// Folder of the built app (trunk's output). Default: `./dist` when it exists, else the
    /// `dist/` of the workspace this binary was built from.
    #[arg(long, env = "KEYPLAN_DIST")]
    pub dist: Option<PathBuf>,
}

pub async fn run(args: Args) -> anyhow::Result<ExitCode> {
    let dist = Dist::locate(args.dist)?;
    let listener = tokio::net::TcpListener::bind((args.host.as_str(), args.port))
        .await
        .with_context(|| format!("cannot listen on {}:{}", args.host, args.port))?;
    let address: SocketAddr = listener.local_addr()?;
    // Printed on stdout, in this exact form, so scripts and tests can find a port chosen by 0.
    println!(
        "keyplan serving {} on http://{address}",
        dist.path().display()
    );
    let app = crate::app(AppState::new(dist));
    axum::serve(listener, app)
        .with_graceful_shutdown(shutdown_signal())
        .await
        .context("the server stopped")?;
    Ok(ExitCode::SUCCESS)
}

async fn shutdown_signal() {
    // Without a Ctrl-C handler (rare), the server runs until it is killed.
    if tokio::signal::ctrl_c().await.is_err() {
        std::future::pending::<()>().await;
    }
}
