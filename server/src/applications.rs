//! The application service: whose site a request is on and who applies (the engine's
//! `Context`), the caller's application (from the cache when it holds a current copy), opening a
//! step (403 when the flow does not allow it), and storing an application's document (the caches
//! keep the new version). Used by the step, plan, print and document resources alike; knows
//! nothing of HTTP (the caller passes the site, the session's user and application).
//!
//! - Who applies is the server's decision, never the browser's: an agent's user (or an admin acting
//!   as one) on their own agent's site applies as the agent (`Applying::Agent`: the agent's
//!   signature, the subsidy rule for certified agents, "your customer" wording), and the
//!   application they start is `agent_started` and names the user (`started_by_user_id`); everyone
//!   else applies as a consumer (`server/tests/api/agent_assisted.rs`).
//! - `create`: a new application, its binding to the session and its first answers commit in one
//!   transaction, so a crash never leaves an empty application behind (`tests/faults`).
//! - `store_summarized`, `store_updates`, `create`: the caches keep the new version; `http/open.rs`
//!   adapts the service to a request (the caller from the session and host; every store tells the
//!   browser's `ef_rev`).

use std::sync::Arc;

use enrollflow_engine::{Applying, Context, Engine, EvalError};
use serde_json::{Value, json};
use uuid::Uuid;

use crate::cache::CachedApplication;
use crate::db::{agents, applications, sessions, users};
use crate::error::{ApiError, ApiResult};
use crate::state::AppState;

/// Who calls, as the service needs it: the site's subdomain, the session's user and application,
/// and whether a cached copy of an application is as new as what this browser last wrote.
#[derive(Clone, Copy)]
pub struct Caller<'a> {
    pub subdomain: Option<&'a str>,
    pub user_id: Option<Uuid>,
    pub application_id: Option<Uuid>,
    pub is_current: fn(Uuid, i64) -> bool,
}

/// The agent whose site a subdomain names (from the cache when it holds it).
pub async fn site_agent(
    app: &AppState,
    subdomain: &str,
) -> ApiResult<Option<Arc<agents::AgentRow>>> {
    if let Some(agent) = app.caches.agent(subdomain) {
        return Ok(Some(agent));
    }
    let generation = app.caches.generation();
    let Some(agent) = agents::by_subdomain(&app.pool, subdomain).await? else {
        return Ok(None);
    };
    let agent = Arc::new(agent);
    app.caches.put_agent(generation, subdomain, agent.clone());
    Ok(Some(agent))
}

/// Who applies: an agent user of this site's agent (an admin acting as one included) applies as
/// the agent; everyone else as a consumer.
async fn applying(
    app: &AppState,
    user_id: Option<Uuid>,
    agent: &agents::AgentRow,
) -> ApiResult<Applying> {
    let Some(user_id) = user_id else {
        return Ok(Applying::Consumer);
    };
    let user = users::by_id(&app.pool, user_id).await?;
    Ok(match user {
        Some(u) if !u.is_admin() && u.agent_id == Some(agent.id) => Applying::Agent,
        _ => Applying::Consumer,
    })
}

/// The agent of the site and the engine context for this request.
pub async fn context(
    app: &AppState,
    caller: &Caller<'_>,
) -> ApiResult<(Arc<agents::AgentRow>, Context)> {
    let Some(sub) = caller.subdomain else {
        return Err(ApiError::NotFound(
            "This web address is not an agent's site.".into(),
        ));
    };
    let agent = site_agent(app, sub)
        .await?
        .ok_or_else(|| ApiError::NotFound("This web address is not an agent's site.".into()))?;
    let applying = applying(app, caller.user_id, &agent).await?;
    let ctx = Context {
        today: app.clock.today(),
        applying,
        agent: agent.engine_flags(),
    };
    Ok((agent, ctx))
}

/// An application's data if it belongs to this agent (from the cache when it holds it).
pub async fn agent_application(
    app: &AppState,
    id: Uuid,
    agent_id: Uuid,
    is_current: impl Fn(Uuid, i64) -> bool,
) -> ApiResult<Option<Arc<CachedApplication>>> {
    // A copy older than what this browser last wrote (another instance saved it) is not served.
    if let Some(cached) = app.caches.application(&id)
        && is_current(id, cached.revision)
    {
        return Ok((cached.agent_id == agent_id).then_some(cached));
    }
    let generation = app.caches.generation();
    let Some((data, revision)) = applications::data_for_agent(&app.pool, id, agent_id).await?
    else {
        return Ok(None);
    };
    let cached = Arc::new(CachedApplication::new(agent_id, Arc::new(data), revision));
    app.caches.put_application(generation, id, cached.clone());
    Ok(Some(cached))
}

/// The session's application for this agent's site: its id and its data, if there is one.
async fn caller_application(
    app: &AppState,
    caller: &Caller<'_>,
    agent: &agents::AgentRow,
) -> ApiResult<Option<(Uuid, Arc<CachedApplication>)>> {
    let Some(id) = caller.application_id else {
        return Ok(None);
    };
    Ok(agent_application(app, id, agent.id, caller.is_current)
        .await?
        .map(|cached| (id, cached)))
}

/// Stores an application's document with the summary its save worked out ([`saving`],
/// [`summarize`]), only over the save's expected revision when it has one: 409 when the
/// application was changed since (in another window, by another person) or has been submitted
/// meanwhile, and nothing is written. The caches keep the new version (and tell the other
/// instances); the caller tells the browser the new revision (`http::revision::wrote`).
pub async fn store_summarized(
    app: &AppState,
    id: Uuid,
    data: Value,
    saving: &applications::Saving<'_>,
    save: applications::Save,
) -> ApiResult<applications::ApplicationRow> {
    let expected = saving.expected_revision;
    let row = applications::save_data(&app.pool, id, &data, saving, app.clock.now(), save).await?;
    let Some(row) = row else {
        return Err(not_saved(app, id, expected).await);
    };
    saved(app, &row, data);
    Ok(row)
}

/// Why a save wrote nothing: the application was submitted, or changed since `expected`.
pub(crate) async fn not_saved(app: &AppState, id: Uuid, expected: Option<i64>) -> ApiError {
    if expected.is_none() {
        return already_submitted();
    }
    match applications::by_id(&app.pool, id).await {
        Ok(Some(row)) if row.submission_time.is_none() => changed_elsewhere(),
        _ => already_submitted(),
    }
}

/// A save made against an older revision of the application.
pub fn changed_elsewhere() -> ApiError {
    ApiError::Conflict(
        "This application was changed in another window or by someone else since this page was \
         opened, so your answers were not saved. The page now shows it as it is: please enter \
         your changes again."
            .into(),
    )
}

/// What a save under this rule set writes besides the document: the set's hash and the
/// application's summary by its flow. The summary is rule work (the flow's expressions): it runs
/// where the rules run, off the async workers (`evaluation::run`).
pub(crate) async fn saving<'e>(
    engine: &'e Engine,
    data: &Value,
    expected_revision: Option<i64>,
) -> ApiResult<applications::Saving<'e>> {
    crate::evaluation::run(|| summarize(engine, data, expected_revision)).await
}

/// [`saving`], for a caller already running rules off the async workers (inside
/// `evaluation::run`): a step save works out its summary with its submission, in one hand-over.
pub(crate) fn summarize<'e>(
    engine: &'e Engine,
    data: &Value,
    expected_revision: Option<i64>,
) -> ApiResult<applications::Saving<'e>> {
    Ok(applications::Saving {
        rules_hash: engine.hash(),
        summary: engine.summary(data).map_err(eval_error)?,
        expected_revision,
    })
}

/// After a save committed: the new version into the caches.
pub(crate) fn saved(app: &AppState, row: &applications::ApplicationRow, data: Value) {
    let cached = CachedApplication::new(row.agent_id, Arc::new(data), row.revision);
    app.caches.saved_application(row.id, Arc::new(cached));
}

/// A new application for the caller's session: the application, the session's link to it and its
/// first answers commit together (a crash in between leaves no empty application behind). The
/// first save's summary is worked out by the caller with its submission ([`summarize`]).
pub async fn create(
    app: &AppState,
    new: NewApplication<'_>,
    data: Value,
    saving: &applications::Saving<'_>,
    save: applications::Save,
) -> ApiResult<applications::ApplicationRow> {
    let now = app.clock.now();
    let mut tx = app.pool.begin().await?;
    let id = applications::create_with_id(
        &mut *tx,
        new.id,
        new.agent_id,
        now,
        new.started_by,
        new.subdomain,
    )
    .await?;
    sessions::set_application(&mut *tx, new.session, Some(id)).await?;
    let row = applications::save_data(&mut *tx, id, &data, saving, now, save).await?;
    tx.commit().await?;
    app.caches.evict_session(new.session);
    let row = row.ok_or_else(already_submitted)?;
    saved(app, &row, data);
    Ok(row)
}

/// Who a new application belongs to.
pub struct NewApplication<'a> {
    /// Its id, chosen before the row exists (encrypted answers are bound to it).
    pub id: Uuid,
    pub agent_id: Uuid,
    /// The session (its id hash) the application is bound to.
    pub session: &'a [u8; 32],
    /// The agent's user who started it (`None` for a consumer).
    pub started_by: Option<Uuid>,
    /// The site it was started on.
    pub subdomain: Option<&'a str>,
}

/// Merges flags into the opened application's document and stores it (hand-built pages: plan
/// selections, Review Selections' Continue).
pub async fn store_updates(
    app: &AppState,
    s: &OpenStep,
    id: Uuid,
    updates: impl IntoIterator<Item = (String, Value)>,
) -> ApiResult<applications::ApplicationRow> {
    let mut data = s.data.as_object().cloned().unwrap_or_default();
    data.extend(updates);
    let data = Value::Object(data);
    // Merged into the document as it was read: written only over that revision, so a save made
    // meanwhile (another window, the agent) is never lost (409 instead).
    let read = s.cached.as_ref().map(|c| c.revision);
    let saving = saving(&s.bundle.engine, &data, read).await?;
    store_summarized(app, id, data, &saving, applications::Save::Answers).await
}

/// A submitted application is never changed (a second purchase included).
pub fn already_submitted() -> ApiError {
    ApiError::Conflict("This application has already been submitted.".into())
}

pub fn eval_error(e: EvalError) -> ApiError {
    match e {
        EvalError::UnknownStep(s) => ApiError::NotFound(format!("There is no step `{s}`.")),
        EvalError::NotAForm(s) => {
            ApiError::BadRequest(format!("Step `{s}` is saved by its own page."))
        }
        EvalError::Rule(d) => {
            crate::evaluation::note_failure(&d);
            ApiError::Internal(anyhow::anyhow!("rule failed: {d}"))
        }
    }
}

/// What a step call works on: the serving rules, the context, and the session's application.
pub struct OpenStep {
    pub bundle: Arc<crate::rules::Bundle>,
    pub agent: Arc<agents::AgentRow>,
    pub ctx: Context,
    /// The application's id, if the session has one on this site.
    pub id: Option<Uuid>,
    /// Its data document (`{}` before the first save).
    pub data: Arc<Value>,
    /// The cached application, where answers prepared from it are kept.
    pub cached: Option<Arc<CachedApplication>>,
    /// What a prepared answer depends on besides the application: the rules and the context.
    pub prepared_key: String,
}

/// Loads what a step call needs and refuses a step the application may not open (403).
pub async fn open_step(app: &AppState, caller: &Caller<'_>, step: &str) -> ApiResult<OpenStep> {
    open_checked(app, caller, Some(step)).await
}

/// Loads the caller's application (or none) without opening a step: for what is about the
/// application as a whole and shows no step's answers (the flow it is in; a submitted application
/// may open only its last step, but it is still in its flow).
pub async fn open_unchecked(app: &AppState, caller: &Caller<'_>) -> ApiResult<OpenStep> {
    open_checked(app, caller, None).await
}

async fn open_checked(
    app: &AppState,
    caller: &Caller<'_>,
    step: Option<&str>,
) -> ApiResult<OpenStep> {
    let (agent, ctx) = context(app, caller).await?;
    let bundle = app.rules.current();
    let (id, data, cached) = match caller_application(app, caller, &agent).await? {
        Some((id, cached)) => (Some(id), cached.data.clone(), Some(cached)),
        None => (None, Arc::new(json!({})), None),
    };
    // Remembered with the application's version, for these rules and this context.
    let prepared_key = format!("{}:{ctx:?}", bundle.engine.hash());
    if let Some(step) = step {
        let valid = || {
            bundle
                .engine
                .valid_step(step, &data, &ctx)
                .map_err(eval_error)
        };
        // Evaluated once per version (off the async workers), then read from the cache.
        let key = format!("valid:{step}:{prepared_key}");
        let valid = match cached.as_ref().and_then(|c| c.cached::<bool>(&key)) {
            Some(v) => *v,
            None => {
                crate::evaluation::run(|| match &cached {
                    Some(c) => c.prepared(key.clone(), valid).map(|v| *v),
                    None => valid(),
                })
                .await?
            }
        };
        if !valid {
            return Err(ApiError::Forbidden);
        }
    }
    Ok(OpenStep {
        bundle,
        agent,
        ctx,
        id,
        data,
        cached,
        prepared_key,
    })
}

/// What a call about the application as a whole (not one step) works on: the flow's first step is
/// opened, which is always valid.
pub async fn open_application(app: &AppState, caller: &Caller<'_>) -> ApiResult<OpenStep> {
    let first = app
        .rules
        .current()
        .engine
        .steps()
        .next()
        .map(|s| s.id.clone());
    open_step(app, caller, first.as_deref().unwrap_or_default()).await
}
