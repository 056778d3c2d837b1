//! Opening and storing an application, what every applying use case starts and ends with: whose
//! site a call is on and who applies (the engine's `Context`), the caller's application (from the
//! cache when it holds a current copy), opening a step (refused when the flow does not allow it),
//! and storing an application's document (the caches keep the new version). Used by the step,
//! plan, print and document resources alike; knows nothing of HTTP (the caller passes the site,
//! the session's user and application) and answers its own errors ([`OpenError`],
//! [`StoreError`]), which `http/error.rs` maps to statuses.
//!
//! - Who applies is the server's decision, never the browser's: an agent's user (or an admin acting
//!   as one) on their own agent's site applies as the agent (`Applying::Agent`: the agent's
//!   signature, the subsidy rule for certified agents, "your customer" wording), and the
//!   application they start is `agent_started` and names the user (`started_by_user_id`); everyone
//!   else applies as a consumer (`server/tests/api/agent_assisted.rs`).
//! - `create`: a new application, its binding to the session and its first answers commit in one
//!   transaction, so a crash never leaves an empty application behind (`tests/faults`).
//! - `store_summarized`, `store_updates`, `create`: the caches keep the new version and answer the
//!   stored row, whose revision the caller hands back to the browser (`http/open.rs` adapts these
//!   to a request: the caller from the session and host; every store tells the browser's
//!   `ef_rev`).

use std::sync::Arc;

use crate::db::PgPool;
use enrollflow_engine::{Applying, Context, Engine, EvalError};
use serde_json::{Value, json};
use uuid::Uuid;

use super::Handles;
pub use crate::db::applications::ApplicationRow;
use crate::db::{agents, applications, sessions, users};
use crate::platform::cache::CachedApplication;
use crate::rules::evaluation::RuleBudget;

/// Why an application or one of its steps could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// The web address names no agent's site.
    #[error("This web address is not an agent's site.")]
    NotASite,
    /// The flow does not let this application open the step (yet, or any more).
    #[error("the flow does not open this step")]
    StepClosed,
    /// The rules could not be evaluated.
    #[error(transparent)]
    Rules(#[from] EvalError),
    /// The database could not be read.
    #[error(transparent)]
    Failed(#[from] anyhow::Error),
}

crate::app::database_errors_fail!(OpenError);

/// Why an application's document was not stored (nothing was written).
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The application was changed (in another window, by another person) since the revision the
    /// save was made against.
    #[error("changed elsewhere since it was read")]
    ChangedElsewhere,
    /// The application was submitted: it is never changed again.
    #[error("already submitted")]
    AlreadySubmitted,
    /// The flow's summary of the new document could not be worked out.
    #[error("rule failed: {0}")]
    Rule(EvalError),
    /// The database could not be written.
    #[error(transparent)]
    Failed(#[from] anyhow::Error),
}

crate::app::database_errors_fail!(StoreError);

/// Who calls, as the service needs it: the site's subdomain, the session's user and application,
/// and what the caller's browser last saw of its application.
#[derive(Clone)]
pub struct Caller<'a> {
    pub subdomain: Option<&'a str>,
    pub user_id: Option<Uuid>,
    pub application_id: Option<Uuid>,
    pub seen: Option<Seen>,
    /// The rule time the call may spend in all.
    pub budget: RuleBudget,
}

/// What a browser last saw of its session's application (behind a round-robin balancer its next
/// request may reach an instance that has not heard of the save it just made): a cached copy older
/// than that is not served.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Seen {
    pub application: Option<Uuid>,
    pub revision: i64,
}

/// Whether a cached copy of application `id` at `revision` is at least what the browser last saw
/// of it (a browser that said nothing sets no bound).
pub fn is_current(seen: Option<Seen>, id: Uuid, revision: i64) -> bool {
    seen.is_none_or(|s| s.application != Some(id) || revision >= s.revision)
}

/// The agent whose site a subdomain names (from the cache when it holds it).
pub async fn site_agent(
    h: &Handles<'_>,
    subdomain: &str,
) -> anyhow::Result<Option<Arc<agents::AgentRow>>> {
    if let Some(agent) = h.caches.agent(subdomain) {
        return Ok(Some(agent));
    }
    let generation = h.caches.generation();
    let Some(agent) = agents::by_subdomain(h.pool, subdomain).await? else {
        return Ok(None);
    };
    let agent = Arc::new(agent);
    h.caches.put_agent(generation, subdomain, agent.clone());
    Ok(Some(agent))
}

/// Who applies: an agent user of this site's agent (an admin acting as one included) applies as
/// the agent; everyone else as a consumer.
async fn applying(
    pool: &PgPool,
    user_id: Option<Uuid>,
    agent: &agents::AgentRow,
) -> anyhow::Result<Applying> {
    let Some(user_id) = user_id else {
        return Ok(Applying::Consumer);
    };
    let user = users::by_id(pool, user_id).await?;
    Ok(match user {
        Some(u) if !u.is_admin() && u.agent_id == Some(agent.id) => Applying::Agent,
        _ => Applying::Consumer,
    })
}

/// The agent of the site and the engine context for this request.
pub async fn context(
    h: &Handles<'_>,
    caller: &Caller<'_>,
) -> Result<(Arc<agents::AgentRow>, Context), OpenError> {
    let sub = caller.subdomain.ok_or(OpenError::NotASite)?;
    let agent = site_agent(h, sub).await?.ok_or(OpenError::NotASite)?;
    let applying = applying(h.pool, caller.user_id, &agent).await?;
    let ctx = Context {
        today: h.clock.today(),
        applying,
        agent: agent.engine_flags(),
    };
    Ok((agent, ctx))
}

/// An application's data if it belongs to this agent (from the cache when it holds it).
pub async fn agent_application(
    h: &Handles<'_>,
    id: Uuid,
    agent_id: Uuid,
    seen: Option<Seen>,
) -> anyhow::Result<Option<Arc<CachedApplication>>> {
    // A copy older than what this browser last wrote (another instance saved it) is not served.
    if let Some(cached) = h.caches.application(&id)
        && is_current(seen, id, cached.revision)
    {
        return Ok((cached.agent_id == agent_id).then_some(cached));
    }
    let generation = h.caches.generation();
    let Some((data, revision)) = applications::data_for_agent(h.pool, id, agent_id).await? else {
        return Ok(None);
    };
    let cached = Arc::new(CachedApplication::new(agent_id, Arc::new(data), revision));
    h.caches.put_application(generation, id, cached.clone());
    Ok(Some(cached))
}

/// The session's application for this agent's site: its id and its data, if there is one.
async fn caller_application(
    h: &Handles<'_>,
    caller: &Caller<'_>,
    agent: &agents::AgentRow,
) -> anyhow::Result<Option<(Uuid, Arc<CachedApplication>)>> {
    let Some(id) = caller.application_id else {
        return Ok(None);
    };
    Ok(agent_application(h, id, agent.id, caller.seen)
        .await?
        .map(|cached| (id, cached)))
}

/// Stores an application's document with the summary its save worked out ([`saving`],
/// [`summarize`]), only over the save's expected revision when it has one: refused when the
/// application was changed since (in another window, by another person) or has been submitted
/// meanwhile, and nothing is written. The caches keep the new version (and tell the other
/// instances); the caller hands the stored row's revision back to the browser.
pub async fn store_summarized(
    h: &Handles<'_>,
    id: Uuid,
    data: Value,
    saving: &applications::Saving<'_>,
    save: applications::Save,
) -> Result<applications::ApplicationRow, StoreError> {
    let expected = saving.expected_revision;
    let row = applications::save_data(h.pool, id, &data, saving, h.clock.now(), save).await?;
    let Some(row) = row else {
        return Err(not_saved(h.pool, id, expected).await);
    };
    saved(h, &row, data);
    Ok(row)
}

/// Why a save wrote nothing: the application was submitted, or changed since `expected`.
pub(crate) async fn not_saved(pool: &PgPool, id: Uuid, expected: Option<i64>) -> StoreError {
    if expected.is_none() {
        return StoreError::AlreadySubmitted;
    }
    match applications::by_id(pool, id).await {
        Ok(Some(row)) if row.submission_time.is_none() => StoreError::ChangedElsewhere,
        _ => StoreError::AlreadySubmitted,
    }
}

/// What a save under this rule set writes besides the document: the set's hash and the
/// application's summary by its flow. The summary is rule work (the flow's expressions): it runs
/// where the rules run, off the async workers (`evaluation::run`).
pub(crate) async fn saving<'e>(
    budget: &RuleBudget,
    engine: &'e Engine,
    data: &Value,
    expected_revision: Option<i64>,
) -> Result<applications::Saving<'e>, StoreError> {
    crate::rules::evaluation::run(budget, || summarize(engine, data, expected_revision))
        .await
        .map_err(|e| {
            if let EvalError::Rule(d) = &e {
                crate::rules::evaluation::note_failure(d);
            }
            StoreError::Rule(e)
        })
}

/// [`saving`], for a caller already running rules off the async workers (inside
/// `evaluation::run`): a step save works out its summary with its submission, in one hand-over.
pub(crate) fn summarize<'e>(
    engine: &'e Engine,
    data: &Value,
    expected_revision: Option<i64>,
) -> Result<applications::Saving<'e>, EvalError> {
    Ok(applications::Saving {
        rules_hash: engine.hash(),
        summary: engine.summary(data)?,
        expected_revision,
    })
}

/// After a save committed: the new version into the caches.
pub(crate) fn saved(h: &Handles<'_>, row: &applications::ApplicationRow, data: Value) {
    let cached = CachedApplication::new(row.agent_id, Arc::new(data), row.revision);
    h.caches.saved_application(row.id, Arc::new(cached));
}

/// A new application for the caller's session: the application, the session's link to it and its
/// first answers commit together (a crash in between leaves no empty application behind). The
/// first save's summary is worked out by the caller with its submission ([`summarize`]).
pub async fn create(
    h: &Handles<'_>,
    new: NewApplication<'_>,
    data: Value,
    saving: &applications::Saving<'_>,
    save: applications::Save,
) -> Result<applications::ApplicationRow, StoreError> {
    let now = h.clock.now();
    let mut tx = h.pool.begin().await?;
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
    h.caches.evict_session(new.session);
    let row = row.ok_or(StoreError::AlreadySubmitted)?;
    saved(h, &row, data);
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
    h: &Handles<'_>,
    s: &OpenStep,
    id: Uuid,
    updates: impl IntoIterator<Item = (String, Value)>,
) -> Result<applications::ApplicationRow, StoreError> {
    let mut data = s.data.as_object().cloned().unwrap_or_default();
    data.extend(updates);
    let data = Value::Object(data);
    // Merged into the document as it was read: written only over that revision, so a save made
    // meanwhile (another window, the agent) is never lost (409 instead).
    let read = s.cached.as_ref().map(|c| c.revision);
    let saving = saving(&s.budget, &s.bundle.engine, &data, read).await?;
    store_summarized(h, id, data, &saving, applications::Save::Answers).await
}

/// What a caller is told when a submitted application would be changed.
pub const ALREADY_SUBMITTED: &str = "This application has already been submitted.";

/// What a caller is told when a save was made against an older revision of the application.
pub const CHANGED_ELSEWHERE: &str = "This application was changed in another window or by \
     someone else since this page was opened, so your answers were not saved. The page now shows \
     it as it is: please enter your changes again.";

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
    /// The rule time the call may still spend.
    pub budget: RuleBudget,
}

/// Loads what a step call needs and refuses a step the application may not open.
pub async fn open_step(
    h: &Handles<'_>,
    caller: &Caller<'_>,
    step: &str,
) -> Result<OpenStep, OpenError> {
    open_checked(h, caller, Some(step)).await
}

/// Loads the caller's application (or none) without opening a step: for what is about the
/// application as a whole and shows no step's answers (the flow it is in; a submitted application
/// may open only its last step, but it is still in its flow).
pub async fn open_unchecked(h: &Handles<'_>, caller: &Caller<'_>) -> Result<OpenStep, OpenError> {
    open_checked(h, caller, None).await
}

async fn open_checked(
    h: &Handles<'_>,
    caller: &Caller<'_>,
    step: Option<&str>,
) -> Result<OpenStep, OpenError> {
    let (agent, ctx) = context(h, caller).await?;
    let bundle = h.rules.current();
    let (id, data, cached) = match caller_application(h, caller, &agent).await? {
        Some((id, cached)) => (Some(id), cached.data.clone(), Some(cached)),
        None => (None, Arc::new(json!({})), None),
    };
    // Remembered with the application's version, for these rules and this context.
    let prepared_key = format!("{}:{ctx:?}", bundle.engine.hash());
    if let Some(step) = step {
        let valid = || bundle.engine.valid_step(step, &data, &ctx);
        // Evaluated once per version (off the async workers), then read from the cache.
        let key = format!("valid:{step}:{prepared_key}");
        let valid = match cached.as_ref().and_then(|c| c.cached::<bool>(&key)) {
            Some(v) => *v,
            None => {
                crate::rules::evaluation::run(&caller.budget, || match &cached {
                    Some(c) => c.prepared(key.clone(), valid).map(|v| *v),
                    None => valid(),
                })
                .await?
            }
        };
        if !valid {
            return Err(OpenError::StepClosed);
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
        budget: caller.budget.clone(),
    })
}

/// What a call about the application as a whole (not one step) works on: the flow's first step is
/// opened, which is always valid.
pub async fn open_application(h: &Handles<'_>, caller: &Caller<'_>) -> Result<OpenStep, OpenError> {
    let first = h
        .rules
        .current()
        .engine
        .steps()
        .next()
        .map(|s| s.id.clone());
    open_step(h, caller, first.as_deref().unwrap_or_default()).await
}

/// The application `id` as stored (its document decrypted by the caller's reads, not here).
pub async fn stored(pool: &PgPool, id: Uuid) -> crate::db::Result<Option<ApplicationRow>> {
    applications::by_id(pool, id).await
}

/// Starting over: the session lets go of its application (the application itself stays, for
/// its agent and for a resume link).
pub async fn let_go(h: &Handles<'_>, session: &[u8; 32]) -> crate::db::Result<()> {
    sessions::set_application(h.pool, session, None).await?;
    h.caches.evict_session(session);
    Ok(())
}
