//! A migration proven on an engine, from the app's Migrate tab (issue 18 item 5):
//!
//! - `POST /api/migrate/verify` with `{"engine": "embedded", "old": DESIGN, "new": DESIGN,
//!   "items": {"Order": 30000}}` answers a stream of JSON lines ([`crate::api::stream`]): a
//!   `{"pattern": PatternResult}` line ([`keyplan_core::api::migrate::VerifyLine`]) as each of NEW's patterns is checked on the migrated
//!   data, a `{"cleanup": Cleanup}` line, then `{"answer": {"ok", "verified", "text"}}`: what
//!   `keyplan migrate OLD NEW --verify` reports, as data and in its words.
//!
//! OLD's sample is loaded into run-scoped tables, core's plan executed on them and the data
//! compared with core's prediction (`runner::migrate::verify`). The verification is admitted
//! against the runs' budget like a run, before the designs are parsed; OLD's whole sample, the
//! tables of both designs and their GSIs are counted (`keyplan_core::budget::verify`) before
//! anything is generated. A page that goes away cancels it, and its tables are still
//! deleted.

use axum::Router;
use axum::extract::State;
use axum::routing::post;
use keyplan_core::api::migrate::{VerifyAnswer, VerifyEvent, VerifyRequest};
use keyplan_core::migrate::{PlanConfig, plan};
use keyplan_core::sample::SampleConfig;
use tokio_util::sync::CancellationToken;

use crate::AppState;
use crate::api::extract::Json;
use crate::api::runs::MAX_ITEMS_PER_RUN;
use crate::api::stream;
use crate::error::ApiError;
use crate::runner::{self, RunEvent, RunId};

pub fn router() -> Router<AppState> {
    Router::new().route("/migrate/verify", post(verify))
}

async fn verify(
    State(state): State<AppState>,
    Json(request): Json<VerifyRequest>,
) -> Result<axum::response::Response, ApiError> {
    let engine = state.requested_engine(request.engine.as_deref())?;
    let admission = state.runs.admit(MAX_ITEMS_PER_RUN as usize)?;
    let VerifyRequest {
        old, new, items, ..
    } = request;
    let (designs, admission) = state
        .heavy
        .run("planning the verification", move || {
            let parse = |which: &str, value: &serde_json::Value| {
                keyplan_core::file::parse(&value.to_string()).map_err(|e| {
                    ApiError::BadRequest(format!("the {which} design is not valid: {e}"))
                })
            };
            let designs = parse("old", &old).and_then(|old| {
                let new = parse("new", &new)?;
                keyplan_core::budget::verify(
                    &old,
                    &new,
                    &SampleConfig::default(),
                    u64::from(MAX_ITEMS_PER_RUN),
                )
                .map_err(|e| ApiError::BadRequest(e.to_string()))?;
                let config = PlanConfig {
                    items,
                    ..PlanConfig::default()
                };
                let migration = plan(&old, &new, &config);
                Ok((old, new, migration))
            });
            (designs, admission)
        })
        .await?;
    let (old, new, migration) = designs?;
    Ok(stream::respond(move |lines| async move {
        let _admission = admission;
        let cancel = CancellationToken::new();
        let sent = lines.clone();
        let emit = move |event: RunEvent| match event {
            RunEvent::Pattern(result) => sent.send(VerifyEvent::Pattern(result)),
            RunEvent::Cleanup(cleanup) => sent.send(VerifyEvent::Cleanup(cleanup)),
            _ => {}
        };
        let id = RunId::random();
        let counts = Default::default();
        let verification = runner::migrate::verify(
            &engine, &old, &new, &migration, &counts, &id, &cancel, &emit,
        );
        tokio::pin!(verification);
        let verified = tokio::select! {
            verified = &mut verification => verified,
            () = lines.closed() => {
                // The page went away: stop, and let the verification delete its tables.
                cancel.cancel();
                verification.await
            }
        };
        let verified = verified.map_err(|e| ApiError::BadGateway(e.to_string()))?;
        Ok(VerifyAnswer {
            ok: verified.ok(),
            text: verified.text(&engine.name),
            verified,
        })
    }))
}
