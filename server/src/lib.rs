//! keyplan's server: the HTTP app (the built browser app plus the JSON API) and the command
//! line behind the `keyplan` binary.
//!
//! The server does no design reasoning of its own: it parses requests, calls `keyplan_core`,
//! and answers. [`app`] builds the whole router without a socket, so tests drive it with
//! `tower::ServiceExt::oneshot` and `keyplan serve` only binds it to an address.
//!
//! To add API routes: write `api/<feature>.rs` exposing `pub fn router() -> Router<AppState>`
//! (paths relative to `/api`, handlers returning `Result<_, ApiError>`), declare it in
//! `api/mod.rs` and `.merge()` it there. Shared state the handlers need (engine handles, run
//! records) goes in [`AppState`] as a cheap-to-clone field, initialised in [`AppState::new`].

use std::path::{Path, PathBuf};

use axum::Router;
use axum::middleware::from_fn_with_state;
use tower_http::compression::CompressionLayer;
use tower_http::compression::predicate::{DefaultPredicate, NotForContentType, Predicate};
use tower_http::services::{ServeDir, ServeFile};

pub mod api;
mod caching;
pub mod cli;
pub mod design_io;
pub mod engine;
pub mod error;
pub mod heavy;
pub mod live;
pub mod mcp;
pub mod reports;
pub mod rooms;
pub mod runner;
pub mod security;
pub mod synthesis;

pub use error::ApiError;

/// What every handler can reach.
#[derive(Debug, Clone)]
pub struct AppState {
    pub dist: Dist,
    /// The DynamoDB engines runs may use, by name (none until [`AppState::with_engines`]).
    pub engines: engine::Engines,
    /// The runs started over the API, and the limits they share.
    pub runs: api::runs::Runs,
    /// Where CPU-heavy handlers (exports, planning) run: off the async threads, bounded.
    pub heavy: heavy::Pool,
    /// The host names this server answers to.
    pub hosts: security::Hosts,
    /// Where `POST /api/import` runs an import: in this process (the default) or in a child
    /// of the `keyplan` binary (`keyplan serve`).
    pub imports: api::import::child::Imports,
    /// The live rooms this server holds open (issue 38).
    pub rooms: rooms::Rooms,
    /// Where runs asked to keep their tables record them (none until
    /// [`AppState::with_keeper`]: every run deletes its tables).
    pub keeper: runner::kept::Keeper,
}

impl AppState {
    /// The engine a request names (`None`: the default), or the 400 that lists the engines:
    /// a name, never an address.
    pub fn requested_engine(&self, name: Option<&str>) -> Result<engine::Engine, error::ApiError> {
        self.engines
            .get(name)
            .cloned()
            .map_err(|e| error::ApiError::BadRequest(e.to_string()))
    }

    pub fn new(dist: Dist) -> Self {
        AppState {
            dist,
            engines: engine::Engines::default(),
            runs: api::runs::Runs::default(),
            heavy: heavy::Pool::default(),
            hosts: security::Hosts::default(),
            imports: api::import::child::Imports::default(),
            rooms: rooms::Rooms::default(),
            keeper: runner::kept::Keeper::default(),
        }
    }

    /// The same state letting runs keep their tables, recorded by `keeper`.
    pub fn with_keeper(self, keeper: runner::kept::Keeper) -> Self {
        AppState { keeper, ..self }
    }

    /// The same state answering only to `hosts`.
    pub fn with_hosts(self, hosts: security::Hosts) -> Self {
        AppState { hosts, ..self }
    }

    /// The same state with these limits on runs.
    pub fn with_run_limits(self, limits: api::runs::Limits) -> Self {
        AppState {
            runs: api::runs::Runs::new(limits),
            ..self
        }
    }

    /// The same state with this heavy-work pool.
    pub fn with_heavy(self, heavy: heavy::Pool) -> Self {
        AppState { heavy, ..self }
    }

    /// The same state running imports where `imports` says.
    pub fn with_imports(self, imports: api::import::child::Imports) -> Self {
        AppState { imports, ..self }
    }

    /// The same state with these live rooms.
    pub fn with_rooms(self, rooms: rooms::Rooms) -> Self {
        AppState { rooms, ..self }
    }

    /// The same state with these engines for runs.
    pub fn with_engines(self, engines: engine::Engines) -> Self {
        AppState { engines, ..self }
    }
}

/// A folder holding a built app: it exists and has an `index.html`.
#[derive(Debug, Clone)]
pub struct Dist(PathBuf);

/// Why the built app cannot be served.
#[derive(Debug, thiserror::Error)]
pub enum DistError {
    #[error(
        "the built app is missing: no index.html in {}\n  build it with `make run` (or `trunk build --release` in the repository root), or point --dist at a built app",
        .0.display()
    )]
    Missing(PathBuf),
}

impl Dist {
    /// The workspace's `dist/` as seen when this binary was compiled.
    pub fn workspace_default() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../dist")
    }

    /// Checks a given folder; without one, tries `./dist`, then the workspace's `dist/`.
    pub fn locate(given: Option<PathBuf>) -> Result<Dist, DistError> {
        let candidates = match given {
            Some(path) => vec![path],
            None => vec![PathBuf::from("dist"), Self::workspace_default()],
        };
        for candidate in &candidates {
            if candidate.join("index.html").is_file() {
                let path = std::fs::canonicalize(candidate).unwrap_or_else(|_| candidate.clone());
                return Ok(Dist(path));
            }
        }
        let shown = candidates.last().cloned().unwrap_or_default();
        Err(DistError::Missing(shown))
    }

    pub fn path(&self) -> &Path {
        &self.0
    }
}

/// The whole HTTP app: `/api/...` plus the built app, with any other path answered by
/// `index.html` (the app routes in the browser) and responses compressed when the client
/// accepts it. Only requests to this server's host names, from its own pages, get through
/// ([`security`]); every response carries the security headers.
pub fn app(state: AppState) -> Router {
    let dist = state.dist.path();
    let index = std::fs::read_to_string(dist.join("index.html")).unwrap_or_default();
    let headers = security::Headers::for_index(&index);
    // The app's files are served precompressed where scripts/build.sh left `.br` and `.gz`
    // copies beside them (brotli at its best quality, made once per build); a file without
    // them is compressed on the fly by the layer below, which passes encoded answers through.
    // Each file says how long a browser may keep it (`caching`).
    let static_files = tower::ServiceBuilder::new()
        .layer(axum::middleware::from_fn(caching::cache_control))
        .service(
            ServeDir::new(dist)
                .precompressed_br()
                .precompressed_gzip()
                .fallback(ServeFile::new(dist.join("index.html"))),
        );
    let hosts = state.hosts.clone();
    // Around the whole API router (not its routes), so the error shape also covers what the
    // router itself answers: a 405 with its `Allow`.
    let api = tower::ServiceBuilder::new()
        .layer(axum::middleware::from_fn(caching::no_store))
        .layer(axum::middleware::from_fn(api::json_errors))
        .service(api::router().with_state(state.clone()));
    Router::new()
        .nest_service("/api", api)
        .merge(mcp::http::router(&state))
        .fallback_service(static_files)
        // A streamed answer (an engine import's progress lines, like the runs' events) is not
        // compressed: the encoder would hold every line back until the end.
        .layer(CompressionLayer::new().compress_when(
            DefaultPredicate::new().and(NotForContentType::const_new(api::stream::NDJSON)),
        ))
        .layer(from_fn_with_state(hosts, security::check_host_and_origin))
        .layer(from_fn_with_state(headers, security::add_headers))
        .with_state(state)
}

#[cfg(test)]
mod tests;
