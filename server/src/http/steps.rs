//! The generic step API: every form step of the wizard is read, previewed and saved through the
//! same calls, driven by the engine's rules (spec part 1, 2.2 and 7; part 2, section 7).

use std::sync::Arc;

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use serde_json::{Map, Value, json};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use uuid::Uuid;

use enrollflow_engine::{Applying, Context, EvalError, StepInfo, StepView, Submission};

use super::application::ActiveApplication;
use super::error::{ApiError, ApiResult};
use super::host::SiteHost;
use crate::cache::CachedApplication;
use crate::crypto::{self, Cipher};
use crate::db::{agents, applications, sessions, users};
use crate::session::{LiveSession, Session};
use crate::startup::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(view_step, save_step))
        .routes(routes!(preview_step))
        .routes(routes!(continue_page))
        .routes(routes!(reopen_step))
        .routes(routes!(last_step))
        .routes(routes!(valid_step))
}

/// The agent whose site a subdomain names (from the cache when it holds it).
pub(crate) async fn site_agent(
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
    session: Option<&Session>,
    agent: &agents::AgentRow,
) -> ApiResult<Applying> {
    let Some(user_id) = session.and_then(|s| s.user_id) else {
        return Ok(Applying::Consumer);
    };
    let user = users::by_id(&app.pool, user_id).await?;
    Ok(match user {
        Some(u) if !u.is_admin() && u.agent_id == Some(agent.id) => Applying::Agent,
        _ => Applying::Consumer,
    })
}

/// The agent of the site and the engine context for this request.
pub(crate) async fn context(
    app: &AppState,
    host: &SiteHost,
    session: Option<&Session>,
) -> ApiResult<(Arc<agents::AgentRow>, Context)> {
    let Some(sub) = &host.0 else {
        return Err(ApiError::NotFound(
            "This web address is not an agent's site.".into(),
        ));
    };
    let agent = site_agent(app, sub)
        .await?
        .ok_or_else(|| ApiError::NotFound("This web address is not an agent's site.".into()))?;
    let applying = applying(app, session, &agent).await?;
    let ctx = Context {
        today: app.clock.today(),
        applying,
        agent: enrollflow_engine::AgentFlags {
            offers_blue: agent.display_bcbsm,
            offers_priority: agent.display_ph,
            marketplace_certified: agent.marketplace_certified,
            display_medicare: agent.display_medicare,
            name: agent.agent_name.clone(),
            npn: agent.npn.clone(),
        },
    };
    Ok((agent, ctx))
}

/// An application's data if it belongs to this agent (from the cache when it holds it).
pub(crate) async fn agent_application(
    app: &AppState,
    id: Uuid,
    agent_id: Uuid,
) -> ApiResult<Option<Arc<CachedApplication>>> {
    // A copy older than what this browser last wrote (another instance saved it) is not served.
    if let Some(cached) = app.caches.application(&id)
        && crate::revision::application_is_current(id, cached.revision)
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
async fn session_application(
    app: &AppState,
    session: &LiveSession,
    agent: &agents::AgentRow,
) -> ApiResult<Option<(Uuid, Arc<CachedApplication>)>> {
    let Some(id) = session.application_id else {
        return Ok(None);
    };
    Ok(agent_application(app, id, agent.id)
        .await?
        .map(|cached| (id, cached)))
}

/// Stores an application's document; the caches keep the new version (and tell the other
/// instances), the browser's `ef_rev` cookie names it. 409 when the application has been
/// submitted meanwhile.
pub(crate) async fn store(
    app: &AppState,
    id: Uuid,
    data: Value,
    rules_hash: &str,
    save: applications::Save,
) -> ApiResult<applications::ApplicationRow> {
    let row = applications::save_data(&app.pool, id, &data, rules_hash, app.clock.now(), save)
        .await?
        .ok_or_else(already_submitted)?;
    saved(app, &row, data);
    Ok(row)
}

/// After a save committed: the new version into the caches, its revision into the cookie.
fn saved(app: &AppState, row: &applications::ApplicationRow, data: Value) {
    let cached = CachedApplication::new(row.agent_id, Arc::new(data), row.revision);
    app.caches.saved_application(row.id, Arc::new(cached));
    crate::revision::wrote(Some(row.id), row.revision);
}

/// Merges flags into the opened application's document and stores it (hand-built pages: plan
/// selections, Review Selections' Continue).
pub(crate) async fn store_updates(
    app: &AppState,
    s: &OpenStep,
    id: Uuid,
    updates: impl IntoIterator<Item = (String, Value)>,
) -> ApiResult<applications::ApplicationRow> {
    let mut data = s.data.as_object().cloned().unwrap_or_default();
    data.extend(updates);
    store(
        app,
        id,
        Value::Object(data),
        s.bundle.engine.hash(),
        applications::Save::Answers,
    )
    .await
}

/// A submitted application is never changed (a second purchase included).
pub(crate) fn already_submitted() -> ApiError {
    ApiError::Conflict("This application has already been submitted.".into())
}

pub(crate) fn eval_error(e: EvalError) -> ApiError {
    match e {
        EvalError::UnknownStep(s) => ApiError::NotFound(format!("There is no step `{s}`.")),
        EvalError::NotAForm(s) => {
            ApiError::BadRequest(format!("Step `{s}` is saved by its own page."))
        }
        EvalError::Rule(d) => ApiError::Internal(anyhow::anyhow!("rule failed: {d}")),
    }
}

/// Paths of sensitive fields in a view's schema (`x-sensitive: true`).
fn sensitive_paths(schema: &Value) -> Vec<Vec<String>> {
    fn walk(s: &Value, prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
        if s.get("x-sensitive").and_then(Value::as_bool) == Some(true) {
            out.push(prefix.clone());
        }
        if let Some(props) = s.get("properties").and_then(Value::as_object) {
            for (k, v) in props {
                prefix.push(k.clone());
                walk(v, prefix, out);
                prefix.pop();
            }
        }
        if let Some(items) = s.get("items") {
            prefix.push("*".into());
            walk(items, prefix, out);
            prefix.pop();
        }
    }
    let mut out = Vec::new();
    walk(schema, &mut Vec::new(), &mut out);
    out
}

/// Applies `f` to every string at `path` (`*` = each array item).
fn map_strings(
    v: &mut Value,
    path: &[String],
    f: &mut dyn FnMut(&str) -> anyhow::Result<Option<String>>,
) -> anyhow::Result<()> {
    let Some((first, rest)) = path.split_first() else {
        if let Value::String(s) = v
            && let Some(new) = f(s)?
        {
            *s = new;
        }
        return Ok(());
    };
    if first == "*" {
        if let Value::Array(items) = v {
            for item in items {
                map_strings(item, rest, f)?;
            }
        }
    } else if let Some(child) = v.get_mut(first) {
        map_strings(child, rest, f)?;
    }
    Ok(())
}

/// Stored (encrypted) sensitive values, as the browser sees them: masked.
fn mask_sensitive(cipher: &Cipher, schema: &Value, data: &mut Value) -> anyhow::Result<()> {
    for path in sensitive_paths(schema) {
        map_strings(data, &path, &mut |s| {
            Ok(Some(if Cipher::is_encrypted(s) {
                crypto::mask(&cipher.decrypt(s)?)
            } else {
                crypto::mask(s)
            }))
        })?;
    }
    Ok(())
}

/// A submission's sensitive values: a mask sent back unchanged means "keep what is stored".
fn unmask_sensitive(
    cipher: &Cipher,
    schema: &Value,
    input: &mut Value,
    stored: Option<&Value>,
) -> anyhow::Result<()> {
    for path in sensitive_paths(schema) {
        let mut i = 0usize;
        let mut stored_values = Vec::new();
        if let Some(stored) = stored {
            let mut s = stored.clone();
            map_strings(&mut s, &path, &mut |v| {
                stored_values.push(v.to_string());
                Ok(None)
            })?;
        }
        map_strings(input, &path, &mut |v| {
            let prior = stored_values.get(i).cloned();
            i += 1;
            if !crypto::is_mask(v) {
                return Ok(None);
            }
            match prior {
                Some(p) if Cipher::is_encrypted(&p) => {
                    let plain = cipher.decrypt(&p)?;
                    Ok((crypto::mask(&plain) == v).then_some(plain))
                }
                _ => Ok(None),
            }
        })?;
    }
    Ok(())
}

fn encrypt_sensitive(cipher: &Cipher, schema: &Value, answers: &mut Value) -> anyhow::Result<()> {
    for path in sensitive_paths(schema) {
        map_strings(answers, &path, &mut |s| {
            Ok(if Cipher::is_encrypted(s) {
                None
            } else {
                Some(cipher.encrypt(s)?)
            })
        })?;
    }
    Ok(())
}

#[utoipa::path(get, path = "/api/application/step/{step}", tag = "application",
    params(("step" = String, Path, description = "A step id, e.g. `census`")),
    responses((status = 200, description = "The step's schema, UI schema, data and navigation", body = Object),
              (status = 403, description = "The application may not open this step"),
              (status = 419, description = "No live session")))]
async fn view_step(
    State(app): State<AppState>,
    session: LiveSession,
    host: SiteHost,
    Path(step): Path<String>,
) -> ApiResult<Response> {
    let s = open_step(&app, &session, &host, &step).await?;
    let make = || -> ApiResult<Bytes> {
        let mut view = s
            .bundle
            .engine
            .step_view(&step, &s.data, &s.ctx)
            .map_err(eval_error)?;
        mask_sensitive(&app.cipher, &view.schema, &mut view.data)?;
        let json = serde_json::to_vec(&view).map_err(|e| ApiError::Internal(e.into()))?;
        Ok(Bytes::from(json))
    };
    // The view is a function of the application's version, the rules and the context: written
    // once per version (masked: no SSN is kept in the clear) and served from the cache after.
    let body = match &s.cached {
        Some(c) => (*c.prepared(format!("view:{step}:{}", s.prepared_key), make)?).clone(),
        None => make()?,
    };
    Ok(([(header::CONTENT_TYPE, "application/json")], body).into_response())
}

/// What a step call works on: the serving rules, the context, and the session's application.
pub(crate) struct OpenStep {
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
pub(crate) async fn open_step(
    app: &AppState,
    session: &LiveSession,
    host: &SiteHost,
    step: &str,
) -> ApiResult<OpenStep> {
    let (agent, ctx) = context(app, host, Some(session)).await?;
    let bundle = app.rules.current();
    let (id, data, cached) = match session_application(app, session, &agent).await? {
        Some((id, cached)) => (Some(id), cached.data.clone(), Some(cached)),
        None => (None, Arc::new(json!({})), None),
    };
    let valid = || {
        bundle
            .engine
            .valid_step(step, &data, &ctx)
            .map_err(eval_error)
    };
    // Remembered with the application's version, for these rules and this context.
    let prepared_key = format!("{}:{ctx:?}", bundle.engine.hash());
    let valid = match &cached {
        Some(c) => *c.prepared(format!("valid:{step}:{prepared_key}"), valid)?,
        None => valid()?,
    };
    if !valid {
        return Err(ApiError::Forbidden);
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
pub(crate) async fn open_application(
    app: &AppState,
    session: &LiveSession,
    host: &SiteHost,
) -> ApiResult<OpenStep> {
    let first = app
        .rules
        .current()
        .engine
        .steps()
        .next()
        .map(|s| s.id.clone());
    open_step(app, session, host, first.as_deref().unwrap_or_default()).await
}

#[utoipa::path(post, path = "/api/application/step/{step}/preview", tag = "application",
    params(("step" = String, Path, description = "A step id")),
    request_body(content = Object, description = "The answers so far (not saved)"),
    responses((status = 200, description = "The step's view with choices recomputed for these answers", body = Object)))]
async fn preview_step(
    State(app): State<AppState>,
    session: LiveSession,
    host: SiteHost,
    Path(step): Path<String>,
    Json(input): Json<Value>,
) -> ApiResult<Json<StepView>> {
    let s = open_step(&app, &session, &host, &step).await?;
    let mut view = s
        .bundle
        .engine
        .preview(&step, &input, &s.data, &s.ctx)
        .map_err(eval_error)?;
    mask_sensitive(&app.cipher, &view.schema, &mut view.data)?;
    Ok(Json(view))
}

/// The answer to a successful save.
#[derive(Debug, Serialize, ToSchema)]
pub struct Saved {
    /// Where to go (the same step when a dialog is asked).
    #[schema(value_type = Object)]
    pub next: StepInfo,
    /// A dialog to show (its id in the view's `modals`).
    pub modal: Option<String>,
    pub application: ActiveApplication,
}

#[utoipa::path(put, path = "/api/application/step/{step}", tag = "application",
    params(("step" = String, Path, description = "A step id")),
    request_body(content = Object, description = "The step's answers"),
    responses((status = 200, body = Saved),
              (status = 422, description = "`{\"errors\": {field_key: [message]}}`"),
              (status = 403, description = "The application may not save this step"),
              (status = 409, description = "The application has already been submitted")))]
async fn save_step(
    State(app): State<AppState>,
    session: LiveSession,
    host: SiteHost,
    Path(step): Path<String>,
    Json(mut input): Json<Value>,
) -> ApiResult<Json<Saved>> {
    let OpenStep {
        bundle,
        agent,
        ctx,
        id: existing,
        data,
        ..
    } = open_step(&app, &session, &host, &step).await?;
    let engine = &bundle.engine;
    // A submitted application is never changed: say so before its rules are asked anything.
    if data.get("submitted").and_then(Value::as_bool) == Some(true) {
        return Err(already_submitted());
    }
    if !input.is_object() {
        return Err(ApiError::BadRequest(
            "The answers must be a JSON object.".into(),
        ));
    }
    // Which answers are sensitive is a property of the form's full schema; no need to resolve a view.
    let schema = engine
        .form_schema(&step)
        .ok_or_else(|| ApiError::BadRequest(format!("Step `{step}` is saved by its own page.")))?;
    unmask_sensitive(&app.cipher, schema, &mut input, data.get(&step))?;
    let t = match engine
        .submit(&step, &input, &data, &ctx)
        .map_err(eval_error)?
    {
        Submission::Invalid { errors } => return Err(ApiError::Validation(errors)),
        Submission::Accepted(t) => t,
    };
    let mut answers = t.answers;
    encrypt_sensitive(&app.cipher, schema, &mut answers)?;
    let mut next_data: Map<String, Value> = data.as_object().cloned().unwrap_or_default();
    next_data.insert(step.clone(), answers);
    for (k, v) in t.updates {
        next_data.insert(k, v);
    }
    // The submitted step's accepted answers (no dialog pending) are the purchase.
    let save = if step == engine.submitted_step() && t.modal.is_none() {
        next_data.insert("submitted".into(), Value::Bool(true));
        applications::Save::Purchase
    } else {
        applications::Save::Answers
    };
    let next_data = Value::Object(next_data);
    let row = match existing {
        Some(id) => store(&app, id, next_data, engine.hash(), save).await?,
        None => {
            // The context already decided: the session's user applies as the agent.
            let started_by = match ctx.applying {
                Applying::Agent => session.user_id,
                Applying::Consumer => None,
            };
            // The new application, the session's link to it and its first answers commit
            // together: a crash in between leaves no empty application behind.
            let now = app.clock.now();
            let mut tx = app.pool.begin().await?;
            let id = applications::create(&mut *tx, agent.id, now, started_by, host.0.as_deref())
                .await?;
            sessions::set_application(&mut *tx, &session.id_hash, Some(id)).await?;
            let row =
                applications::save_data(&mut *tx, id, &next_data, engine.hash(), now, save).await?;
            tx.commit().await?;
            app.caches.evict_session(&session.id_hash);
            let row = row.ok_or_else(already_submitted)?;
            saved(&app, &row, next_data);
            row
        }
    };
    Ok(Json(Saved {
        next: t.next,
        modal: t.modal,
        application: row.into(),
    }))
}

#[utoipa::path(post, path = "/api/application/step/{step}/continue", tag = "application",
    params(("step" = String, Path, description = "A page step that saves nothing, e.g. `review`")),
    responses((status = 200, body = Saved),
              (status = 400, description = "The step is saved by its form or its plan selection"),
              (status = 403, description = "The application may not open this step"),
              (status = 409, description = "The application has already been submitted")))]
async fn continue_page(
    State(app): State<AppState>,
    session: LiveSession,
    host: SiteHost,
    Path(step): Path<String>,
) -> ApiResult<Json<Saved>> {
    let s = open_step(&app, &session, &host, &step).await?;
    let id = s.id.ok_or(ApiError::Forbidden)?;
    let (next, last) = s
        .bundle
        .engine
        .continue_page(&step, &s.data, &s.ctx)
        .map_err(eval_error)?
        .ok_or_else(|| {
            ApiError::BadRequest(format!(
                "Step `{step}` is saved by its own form or selection."
            ))
        })?;
    let row = store_updates(&app, &s, id, [("last_step".to_string(), json!(last))]).await?;
    Ok(Json(Saved {
        next,
        modal: None,
        application: row.into(),
    }))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Reopened {
    /// The step, now open (id, number, route, title).
    #[schema(value_type = Object)]
    pub step: StepInfo,
    pub application: ActiveApplication,
}

#[utoipa::path(post, path = "/api/application/step/{step}/reopen", tag = "application",
    params(("step" = String, Path, description = "A step id, e.g. `dental`")),
    responses((status = 200, body = Reopened, description = "The step is open (again)"),
              (status = 403, description = "No application, or the step cannot be opened"),
              (status = 409, description = "The application has already been submitted")))]
/// Opens a skipped step again by its flow's `reopen` rule ("I want to select a dental plan
/// instead" on Other Questions); a step that is open already is answered as it is.
async fn reopen_step(
    State(app): State<AppState>,
    session: LiveSession,
    host: SiteHost,
    Path(step): Path<String>,
) -> ApiResult<Json<Reopened>> {
    let s = open_application(&app, &session, &host).await?;
    let id = s.id.ok_or(ApiError::Forbidden)?;
    let engine = &s.bundle.engine;
    if s.data.get("submitted").and_then(Value::as_bool) == Some(true) {
        return Err(already_submitted());
    }
    let info = engine
        .steps()
        .find(|i| i.id == step)
        .cloned()
        .ok_or_else(|| ApiError::NotFound(format!("There is no step `{step}`.")))?;
    let row = match engine.reopen(&step, &s.data, &s.ctx).map_err(eval_error)? {
        Some(Value::Object(flags)) => store_updates(&app, &s, id, flags).await?,
        _ if engine
            .valid_step(&step, &s.data, &s.ctx)
            .map_err(eval_error)? =>
        {
            applications::by_id(&app.pool, id)
                .await?
                .ok_or(ApiError::Forbidden)?
        }
        _ => return Err(ApiError::Forbidden),
    };
    Ok(Json(Reopened {
        step: info,
        application: row.into(),
    }))
}

/// The application in a path must be the session's own.
async fn own_application(
    app: &AppState,
    session: &LiveSession,
    host: &SiteHost,
    id: Uuid,
) -> ApiResult<(Arc<Value>, Context)> {
    let (agent, ctx) = context(app, host, Some(session)).await?;
    if session.application_id != Some(id) {
        return Err(ApiError::Forbidden);
    }
    let cached = agent_application(app, id, agent.id)
        .await?
        .ok_or(ApiError::Forbidden)?;
    Ok((cached.data.clone(), ctx))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct LastStep {
    pub last_step: u64,
    /// The route of the last step reached (Continue Quote goes there).
    pub route: Option<String>,
}

#[utoipa::path(get, path = "/api/application/{application_id}/step", tag = "application",
    params(("application_id" = Uuid, Path, description = "The session's application")),
    responses((status = 200, body = LastStep), (status = 403, description = "Not the session's application")))]
async fn last_step(
    State(app): State<AppState>,
    session: LiveSession,
    host: SiteHost,
    Path(id): Path<Uuid>,
) -> ApiResult<Json<LastStep>> {
    let (data, _) = own_application(&app, &session, &host, id).await?;
    let last = data.get("last_step").and_then(Value::as_u64).unwrap_or(1);
    let bundle = app.rules.current();
    let route = bundle
        .engine
        .steps()
        .filter(|s| u64::from(s.number) <= last)
        .last()
        .map(|s| s.route.clone());
    Ok(Json(LastStep {
        last_step: last,
        route,
    }))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ValidStep {
    pub valid: bool,
}

#[utoipa::path(get, path = "/api/application/{application_id}/step/{step}/validStep", tag = "application",
    params(("application_id" = Uuid, Path, description = "The session's application"),
           ("step" = String, Path, description = "A step id")),
    responses((status = 200, body = ValidStep), (status = 403, description = "Not the session's application")))]
async fn valid_step(
    State(app): State<AppState>,
    session: LiveSession,
    host: SiteHost,
    Path((id, step)): Path<(Uuid, String)>,
) -> ApiResult<Json<ValidStep>> {
    let (data, ctx) = own_application(&app, &session, &host, id).await?;
    let valid = app
        .rules
        .current()
        .engine
        .valid_step(&step, &data, &ctx)
        .map_err(eval_error)?;
    Ok(Json(ValidStep { valid }))
}
