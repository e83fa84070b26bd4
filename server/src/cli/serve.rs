//! `keyplan serve`: the built browser app and the API on one address.
//!
//! Listening on an address other machines can reach (`--host 0.0.0.0`) is warned about on
//! stderr: nothing but the Host check stands between them and the API.
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
    /// A DynamoDB engine runs may use besides the embedded one, `NAME=URL` (DynamoDB Local,
    /// LocalStack, moto), or `aws` (needs `--allow-aws`); repeatable. The browser picks among
    /// these by name.
    #[arg(long = "endpoint", value_name = "NAME=URL")]
    pub endpoints: Vec<String>,
    /// Allow `--endpoint aws`: runs on Amazon DynamoDB with the standard credential chain.
    #[arg(long, env = "KEYPLAN_ALLOW_AWS")]
    pub allow_aws: bool,
    /// The AWS Region of `--endpoint aws`; else AWS_REGION, else AWS_DEFAULT_REGION.
    #[arg(long, value_name = "REGION")]
    pub region: Option<String>,
    /// Another host name the server answers to (besides 127.0.0.1, localhost, [::1] and
    /// `--host`), e.g. the machine's name on the LAN; repeatable. Requests naming any other
    /// Host are refused (421), which stops DNS rebinding.
    #[arg(long = "allowed-host", value_name = "NAME")]
    pub allowed_hosts: Vec<String>,
    /// The most sample items all runs together may hold at once; a run that does not fit is
    /// refused (429) until others finish.
    #[arg(long, env = "KEYPLAN_MAX_ITEMS_IN_FLIGHT", default_value_t = crate::api::runs::MAX_ITEMS_IN_FLIGHT)]
    pub max_items_in_flight: usize,
    /// The address space, in bytes, of the child process each `POST /api/import` runs in;
    /// an import that needs more ends with a 413, the server goes on. Hidden: for tests.
    #[arg(long, env = "KEYPLAN_IMPORT_CHILD_MAX_BYTES", default_value_t = crate::api::import::child::MEMORY_LIMIT, hide = true)]
    pub import_memory_limit: u64,
    /// Refuse runs that keep their tables: every run deletes its tables (for a server others
    /// use, whose engines' tables only you should leave behind).
    #[arg(long, env = "KEYPLAN_NO_KEPT_TABLES")]
    pub no_kept_tables: bool,
    #[command(flatten)]
    pub rooms: RoomArgs,
}

/// Live rooms (issue 38): their bounds.
#[derive(Debug, clap::Args)]
pub struct RoomArgs {
    /// The most live rooms this server holds open at once.
    #[arg(long, env = "KEYPLAN_MAX_ROOMS", default_value_t = crate::rooms::Bounds::default().max_rooms)]
    pub max_rooms: usize,
    /// The most clients one room takes at once.
    #[arg(long, env = "KEYPLAN_ROOM_MAX_CLIENTS", default_value_t = crate::rooms::Bounds::default().max_clients)]
    pub room_max_clients: usize,
    /// Edits one client may send a second, on average; more are refused.
    #[arg(long, env = "KEYPLAN_ROOM_EDITS_PER_SECOND", default_value_t = crate::rooms::Bounds::default().edits_per_second)]
    pub room_edits_per_second: u32,
    /// Edits one client may send at once before the rate applies.
    #[arg(long, env = "KEYPLAN_ROOM_EDIT_BURST", default_value_t = crate::rooms::Bounds::default().edit_burst)]
    pub room_edit_burst: u32,
    /// Where this server keeps its rooms (in the embedded engine's file `rooms.db`) and the
    /// runs that kept their tables, so a restart keeps them. Default: the user's data folder
    /// (`$XDG_DATA_HOME/keyplan`, else `~/.local/share/keyplan`).
    #[arg(long, env = "KEYPLAN_DATA_DIR", value_name = "DIR")]
    pub data_dir: Option<PathBuf>,
    /// Keep rooms in a DynamoDB table at this endpoint instead (DynamoDB Local, moto, ...),
    /// so several servers behind one address share rooms; the table is made when missing.
    #[arg(long, env = "KEYPLAN_ROOMS_ENDPOINT", value_name = "URL")]
    pub rooms_endpoint: Option<String>,
    /// The rooms table's name.
    #[arg(long, env = "KEYPLAN_ROOMS_TABLE", default_value = crate::rooms::store::DEFAULT_TABLE)]
    pub rooms_table: String,
}

impl RoomArgs {
    /// The rooms' store: the endpoint's table, else the embedded engine's file.
    pub async fn store(&self) -> anyhow::Result<crate::rooms::store::Store> {
        use crate::engine::{EmbeddedEngine, Engine};
        use crate::rooms::store::{Store, Table};
        let (client, shared) = match &self.rooms_endpoint {
            Some(url) => {
                crate::engine::check_url(url)
                    .map_err(|e| anyhow::anyhow!("--rooms-endpoint: {e}"))?;
                (Engine::endpoint("rooms", url).client, true)
            }
            None => {
                let dir = data_dir(self.data_dir.clone());
                std::fs::create_dir_all(&dir)
                    .with_context(|| format!("cannot make the data folder {}", dir.display()))?;
                let engine = EmbeddedEngine::open(&dir.join("rooms.db"))?;
                (Engine::embedded(&engine).client, false)
            }
        };
        let table = Table::open(client, &self.rooms_table, shared)
            .await
            .with_context(|| format!("cannot open the rooms table `{}`", self.rooms_table))?;
        Ok(Store::Table(table))
    }

    pub fn bounds(&self) -> crate::rooms::Bounds {
        crate::rooms::Bounds {
            max_rooms: self.max_rooms,
            max_clients: self.room_max_clients,
            edits_per_second: self.room_edits_per_second,
            edit_burst: self.room_edit_burst.max(1),
            ..Default::default()
        }
    }
}

pub async fn run(args: Args) -> anyhow::Result<ExitCode> {
    let dist = Dist::locate(args.dist)?;
    let engines = crate::engine::Engines::start(&crate::engine::EnginesConfig {
        embedded: true,
        endpoints: args.endpoints,
        allow_aws: args.allow_aws,
        region: args.region,
    })
    .await?;
    let rooms_store = args.rooms.store().await?;
    let listener = tokio::net::TcpListener::bind((args.host.as_str(), args.port))
        .await
        .with_context(|| format!("cannot listen on {}:{}", args.host, args.port))?;
    let address: SocketAddr = listener.local_addr()?;
    if let Some(warning) = exposure_warning(&address) {
        eprintln!("{warning}");
    }
    // Printed on stdout, in this exact form, so scripts and tests can find a port chosen by 0.
    println!(
        "keyplan serving {} on http://{address}",
        dist.path().display()
    );
    // Each import runs in a child of this very binary (issue 41): one that exhausts its
    // memory or its stack ends only itself.
    let imports = crate::api::import::child::Imports::Child(crate::api::import::child::Child {
        exe: std::env::current_exe().context("cannot find the keyplan binary for imports")?,
        memory_limit: args.import_memory_limit,
    });
    let mut names = vec![args.host.clone()];
    names.extend(args.allowed_hosts);
    let state = AppState::new(dist)
        .with_engines(engines)
        .with_hosts(crate::security::Hosts::new(Some(address.port()), &names))
        .with_imports(imports)
        .with_rooms(crate::rooms::Rooms::new(args.rooms.bounds(), rooms_store))
        .with_keeper(match args.no_kept_tables {
            true => crate::runner::kept::Keeper::refusing(
                "this server was started with --no-kept-tables, so every run deletes its tables",
            ),
            false => crate::runner::kept::Keeper::in_dir(data_dir(args.rooms.data_dir.clone())),
        })
        .with_run_limits(crate::api::runs::Limits {
            max_items_in_flight: args.max_items_in_flight,
            ..Default::default()
        });
    let runs = state.runs.clone();
    let app = crate::app(state);
    // On Ctrl-C, runs are cancelled first: each deletes its tables and ends its event stream,
    // which lets the graceful shutdown finish.
    let cancel_runs = runs.clone();
    axum::serve(listener, app)
        .with_graceful_shutdown(async move {
            shutdown_signal().await;
            cancel_runs.cancel_all();
        })
        .await
        .context("the server stopped")?;
    runs.wait_all().await;
    Ok(ExitCode::SUCCESS)
}

/// The data folder `--data-dir` names, else the user's data folder for keyplan:
/// `$XDG_DATA_HOME/keyplan`, else `~/.local/share/keyplan` (`~/Library/Application
/// Support/keyplan` on macOS), else `./keyplan-data`.
pub fn data_dir(given: Option<PathBuf>) -> PathBuf {
    if let Some(dir) = given {
        return dir;
    }
    if let Some(xdg) = std::env::var_os("XDG_DATA_HOME").filter(|v| !v.is_empty()) {
        return PathBuf::from(xdg).join("keyplan");
    }
    match std::env::var_os("HOME").filter(|v| !v.is_empty()) {
        Some(home) if cfg!(target_os = "macos") => {
            PathBuf::from(home).join("Library/Application Support/keyplan")
        }
        Some(home) => PathBuf::from(home).join(".local/share/keyplan"),
        None => PathBuf::from("keyplan-data"),
    }
}

/// What an operator must know when the server listens beyond this machine (issue 41): the Host
/// check stops a web page from reaching the server through DNS rebinding, and nothing more.
fn exposure_warning(address: &SocketAddr) -> Option<String> {
    (!address.ip().is_loopback()).then(|| {
        format!(
            "warning: listening on {}, which other machines can reach: the Host check (421) only stops DNS rebinding, it is not access control; anyone who can reach this address can use the API and the engines it names",
            address.ip()
        )
    })
}

async fn shutdown_signal() {
    // Without a Ctrl-C handler (rare), the server runs until it is killed.
    if tokio::signal::ctrl_c().await.is_err() {
        std::future::pending::<()>().await;
    }
}
