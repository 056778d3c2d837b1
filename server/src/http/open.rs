//! The HTTP side of opening and storing applications (`crate::app::applying::open`): the caller
//! from the request's session and site, with what its browser last saw (`ef_rev`). A handler that
//! stores answers the stored revision as a `revision::Wrote` part of its answer.

use std::sync::Arc;

use enrollflow_engine::Context;
use serde_json::Value;
use uuid::Uuid;

use super::host::SiteHost;
use super::session::Session;
use crate::app::applying::Handles;
use crate::app::applying::open::ApplicationRow;
use crate::app::applying::open::{self as applications, Caller, OpenStep};
use crate::app::sites::AgentRow;
use crate::http::state::AppState;
use crate::platform::error::ApiResult;

/// The caller: this request's site and, with a session, its user and application.
pub fn caller<'a>(session: Option<&Session>, host: &'a SiteHost) -> Caller<'a> {
    Caller {
        subdomain: host.0.as_deref(),
        user_id: session.and_then(|s| s.user_id),
        application_id: session.and_then(|s| s.application_id),
        seen: session.and_then(|s| s.seen),
        // Without a session (the site's context only) no rule runs; the default stands in.
        budget: session.map_or_else(
            || crate::rules::evaluation::budget(crate::platform::config::RULE_BUDGET_DEFAULT),
            |s| s.budget.clone(),
        ),
    }
}

/// The site's agent and the engine context of this request.
pub async fn context(
    app: &AppState,
    host: &SiteHost,
    session: Option<&Session>,
) -> ApiResult<(Arc<AgentRow>, Context)> {
    Ok(applications::context(&Handles::of(app), &caller(session, host)).await?)
}

/// Opens a step of the session's application (403 when the flow does not allow it).
pub async fn open_step(
    app: &AppState,
    session: &Session,
    host: &SiteHost,
    step: &str,
) -> ApiResult<OpenStep> {
    Ok(applications::open_step(&Handles::of(app), &caller(Some(session), host), step).await?)
}

/// Opens the session's application as a whole (its flow's first step, always valid).
pub async fn open_application(
    app: &AppState,
    session: &Session,
    host: &SiteHost,
) -> ApiResult<OpenStep> {
    Ok(applications::open_application(&Handles::of(app), &caller(Some(session), host)).await?)
}

/// The session's application without opening a step (the flow it is in).
pub async fn open_unchecked(
    app: &AppState,
    session: &Session,
    host: &SiteHost,
) -> ApiResult<OpenStep> {
    Ok(applications::open_unchecked(&Handles::of(app), &caller(Some(session), host)).await?)
}

/// One of the agent's applications, if it is theirs.
pub async fn agent_application(
    app: &AppState,
    session: &Session,
    id: Uuid,
    agent_id: Uuid,
) -> ApiResult<Option<Arc<crate::platform::cache::CachedApplication>>> {
    Ok(applications::agent_application(&Handles::of(app), id, agent_id, session.seen).await?)
}

/// Merges flags into the opened application's document and stores it.
pub async fn store_updates(
    app: &AppState,
    s: &OpenStep,
    id: Uuid,
    updates: impl IntoIterator<Item = (String, Value)>,
) -> ApiResult<ApplicationRow> {
    Ok(applications::store_updates(&Handles::of(app), s, id, updates).await?)
}
