//! `POST /mcp` on `keyplan serve`: the MCP server over the protocol's streamable HTTP
//! transport, stateless (each request is answered on its own, as JSON), so the server keeps
//! nothing per client.
//!
//! The API's rules hold here too: the app's Host check ([`crate::security`]) is around it like
//! around every path; a foreign `Origin` is refused on every method (not only on those that
//! change state), as on `/api`, by the same [`crate::security::Hosts::allows_origin`]; and a
//! body is read up to [`crate::api::extract::BODY_LIMIT`] bytes, 413 past it. No tool reads a
//! file over HTTP ([`super::input::Files::Refused`]).

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::middleware::{Next, from_fn_with_state};
use axum::response::{IntoResponse, Response};
use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};

use super::Keyplan;
use super::input::Files;
use crate::AppState;
use crate::error::ApiError;
use crate::security::Hosts;

/// The `/mcp` endpoint of the app behind `state`.
pub fn router<S: Clone + Send + Sync + 'static>(state: &AppState) -> axum::Router<S> {
    let keyplan = Keyplan::new(
        state.engines.clone(),
        state.runs.clone(),
        state.heavy.clone(),
        Files::Refused,
    );
    let config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(false)
        .with_json_response(true)
        // The app's own Host check stands before this, with `--allowed-host` names; rmcp's
        // would refuse those.
        .disable_allowed_hosts()
        .with_max_request_body_bytes(crate::api::extract::BODY_LIMIT);
    let service = StreamableHttpService::new(
        move || Ok(keyplan.clone()),
        Arc::new(NeverSessionManager::default()),
        config,
    );
    axum::Router::new()
        .route_service("/mcp", service)
        .layer(from_fn_with_state(state.hosts.clone(), same_origin))
}

/// Refuses a request from a page this server does not serve, whatever its method.
async fn same_origin(State(hosts): State<Hosts>, request: Request, next: Next) -> Response {
    let foreign = request
        .headers()
        .get(axum::http::header::ORIGIN)
        .map(|origin| origin.to_str().unwrap_or("\u{fffd}"))
        .filter(|origin| !hosts.allows_origin(origin))
        .map(str::to_string);
    match foreign {
        Some(origin) => ApiError::Forbidden(format!(
            "requests from the page at `{}` are refused: only pages this keyplan server serves may use its MCP endpoint",
            origin.chars().take(80).collect::<String>()
        ))
        .into_response(),
        None => next.run(request).await,
    }
}
