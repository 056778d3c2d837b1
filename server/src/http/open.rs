//! The HTTP side of the application service (`crate::applications`): the caller from the
//! request's session and site, and every store followed by the new revision for the browser's
//! `ef_rev` cookie (`revision::wrote`), so no resource can store without it.

use std::sync::Arc;

use enrollflow_engine::Context;
use serde_json::Value;
use uuid::Uuid;

use super::host::SiteHost;
use super::revision;
use super::session::Session;
use crate::applications::{self, Caller, NewApplication, OpenStep};
use crate::db::agents::AgentRow;
use crate::db::applications::{ApplicationRow, Save, Saving};
use crate::error::ApiResult;
use crate::state::AppState;

/// The caller: this request's site and, with a session, its user and application.
pub fn caller<'a>(session: Option<&Session>, host: &'a SiteHost) -> Caller<'a> {
    Caller {
        subdomain: host.0.as_deref(),
        user_id: session.and_then(|s| s.user_id),
        application_id: session.and_then(|s| s.application_id),
        is_current: revision::application_is_current,
    }
}

/// The site's agent and the engine context of this request.
pub async fn context(
    app: &AppState,
    host: &SiteHost,
    session: Option<&Session>,
) -> ApiResult<(Arc<AgentRow>, Context)> {
    applications::context(app, &caller(session, host)).await
}

/// Opens a step of the session's application (403 when the flow does not allow it).
pub async fn open_step(
    app: &AppState,
    session: &Session,
    host: &SiteHost,
    step: &str,
) -> ApiResult<OpenStep> {
    applications::open_step(app, &caller(Some(session), host), step).await
}

/// Opens the session's application as a whole (its flow's first step, always valid).
pub async fn open_application(
    app: &AppState,
    session: &Session,
    host: &SiteHost,
) -> ApiResult<OpenStep> {
    applications::open_application(app, &caller(Some(session), host)).await
}

/// The session's application without opening a step (the flow it is in).
pub async fn open_unchecked(
    app: &AppState,
    session: &Session,
    host: &SiteHost,
) -> ApiResult<OpenStep> {
    applications::open_unchecked(app, &caller(Some(session), host)).await
}

/// One of the agent's applications, if it is theirs.
pub async fn agent_application(
    app: &AppState,
    id: Uuid,
    agent_id: Uuid,
) -> ApiResult<Option<Arc<crate::cache::CachedApplication>>> {
    applications::agent_application(app, id, agent_id, revision::application_is_current).await
}

fn wrote(row: ApplicationRow) -> ApplicationRow {
    revision::wrote(Some(row.id), row.revision);
    row
}

/// Stores the application's document with the summary its save worked out
/// (`applications::store_summarized`).
pub async fn store_summarized(
    app: &AppState,
    id: Uuid,
    data: Value,
    saving: &Saving<'_>,
    save: Save,
) -> ApiResult<ApplicationRow> {
    Ok(wrote(
        applications::store_summarized(app, id, data, saving, save).await?,
    ))
}

/// The purchase, with its evidence packet and receipt (`crate::purchase`).
pub async fn purchase(
    app: &AppState,
    buying: crate::purchase::Buying<'_>,
) -> ApiResult<ApplicationRow> {
    Ok(wrote(crate::purchase::purchase(app, buying).await?))
}

/// Merges flags into the opened application's document and stores it.
pub async fn store_updates(
    app: &AppState,
    s: &OpenStep,
    id: Uuid,
    updates: impl IntoIterator<Item = (String, Value)>,
) -> ApiResult<ApplicationRow> {
    Ok(wrote(
        applications::store_updates(app, s, id, updates).await?,
    ))
}

/// Creates the session's application with its first answers and the summary worked out with them.
pub async fn create(
    app: &AppState,
    new: NewApplication<'_>,
    data: Value,
    saving: &Saving<'_>,
    save: Save,
) -> ApiResult<ApplicationRow> {
    Ok(wrote(
        applications::create(app, new, data, saving, save).await?,
    ))
}
