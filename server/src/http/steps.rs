//! The generic step API: every form step of the wizard is read, previewed and saved through the
//! same calls, driven by the engine's rules (spec part 1, 2.2 and 7; part 2, section 7).
//!
//! - The calls: a step's view, preview and save, the reopening of a skipped step, `validStep`, the
//!   last step, and the flow (`GET /api/flow`).
//! - A skipped step opens again only through its flow `reopen` rule (`POST
//!   /api/application/step/{step}/reopen`), which must make the step apply; the server never clears
//!   a skip flag by name.
//! - A whole submission the rules refuse (a form's checks returning `submit_error`: the purchase)
//!   is answered 422 `{"submit_error": "…"}`, apart from any field errors; a submitted
//!   application's save is 409 with the same key. Nothing is stored either way.

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::Response;
use serde::Serialize;
use serde_json::{Value, json};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use uuid::Uuid;

use enrollflow_engine::Context;

use super::application::ActiveApplication;
use super::error::{ApiError, ApiResult};
use super::error::{already_submitted, eval_error};
use super::host::{ClientAddress, SiteHost};
use super::language::Language;
use super::open::{
    agent_application, context, open_application, open_step, open_unchecked, store_updates,
};
use super::prepared::PreparedBody;
use super::revision::Wrote;
use super::wire::{Answers, Flow, Step, StepViewBody};
use crate::app::applying::Handles;
use crate::app::applying::open::{self as applications, OpenStep};
use crate::app::applying::save_step::{SaveStep, save_step as save};
use crate::http::session::LiveSession;
use crate::http::state::AppState;
use crate::rules::evaluation::run;
use crate::security::sensitive;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(view_step, save_step))
        .routes(routes!(preview_step))
        .routes(routes!(continue_page))
        .routes(routes!(reopen_step))
        .routes(routes!(last_step))
        .routes(routes!(valid_step))
        .routes(routes!(flow))
}

#[utoipa::path(get, path = "/api/flow", tag = "application",
    responses((status = 200, description = "The wizard's steps for the session's application (or for a new one): routes, progress list, guards", body = Flow),
              (status = 404, description = "Not an agent's site"),
              (status = 419, description = "No live session")))]
/// The wizard's shape (spec part 1, 2.1 to 2.3) from the flow file, evaluated for the session's
/// application: read on every navigation, so an edit of the flow is live in an open browser.
async fn flow(
    State(app): State<AppState>,
    session: LiveSession,
    host: SiteHost,
    language: Language,
) -> ApiResult<Json<Flow>> {
    flow_of(&app, &session, &host, &language).await.map(Json)
}

/// The wizard's flow for a session's application (`GET /api/flow`, `GET /api/start`).
pub(crate) async fn flow_of(
    app: &AppState,
    session: &crate::http::session::Session,
    host: &SiteHost,
    language: &Language,
) -> ApiResult<Flow> {
    let s = open_unchecked(app, session, host).await?;
    let engine = &s.bundle.engine;
    let mut view = run(&s.budget, || engine.flow_view(&s.data, &s.ctx))
        .await
        .map_err(eval_error)?;
    engine
        .languages()
        .flow(&language.pick(engine.languages()), &mut view);
    Ok(Flow::new(view, engine.hash()))
}

#[utoipa::path(get, path = "/api/application/step/{step}", tag = "application",
    params(("step" = String, Path, description = "A step id, e.g. `census`")),
    responses((status = 200, description = "The step's schema, UI schema, data and navigation", body = StepViewBody),
              (status = 403, description = "The application may not open this step"),
              (status = 419, description = "No live session")))]
async fn view_step(
    State(app): State<AppState>,
    session: LiveSession,
    host: SiteHost,
    Path(step): Path<String>,
    language: Language,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let s = open_step(&app, &session, &host, &step).await?;
    let languages = s.bundle.engine.languages();
    let code = language.pick(languages);
    let make = || -> ApiResult<PreparedBody> {
        let mut view = s
            .bundle
            .engine
            .step_view(&step, &s.data, &s.ctx)
            .map_err(eval_error)?;
        languages.step_view(&code, &mut view);
        let body = view_body(&app, &s, &step, view)?;
        let json = serde_json::to_vec(&body).map_err(|e| ApiError::Internal(e.into()))?;
        Ok(PreparedBody::new(json))
    };
    // The view is a function of the application's version, the rules and the context: written
    // (and compressed) once per version, masked (no SSN is kept in the clear), and served from
    // the cache after.
    let key = format!("view:{step}:{code}:{}", s.prepared_key);
    let prepared = match s
        .cached
        .as_ref()
        .and_then(|c| c.cached::<PreparedBody>(&key))
    {
        Some(p) => p,
        None => {
            run(&s.budget, || match &s.cached {
                Some(c) => c.prepared(key.clone(), make),
                None => make().map(Arc::new),
            })
            .await?
        }
    };
    prepared.respond(&headers)
}

#[utoipa::path(post, path = "/api/application/step/{step}/preview", tag = "application",
    params(("step" = String, Path, description = "A step id")),
    request_body(content = Answers, description = "The answers so far (not saved)"),
    responses((status = 200, description = "The step's view with choices recomputed for these answers", body = StepViewBody),
              (status = 400, description = "The answers are not a JSON object")))]
async fn preview_step(
    State(app): State<AppState>,
    session: LiveSession,
    host: SiteHost,
    Path(step): Path<String>,
    language: Language,
    Json(input): Json<Value>,
) -> ApiResult<Json<StepViewBody>> {
    answers_object(&input)?;
    let s = open_step(&app, &session, &host, &step).await?;
    let mut view = run(&s.budget, || {
        s.bundle.engine.preview(&step, &input, &s.data, &s.ctx)
    })
    .await
    .map_err(eval_error)?;
    let languages = s.bundle.engine.languages();
    languages.step_view(&language.pick(languages), &mut view);
    Ok(Json(view_body(&app, &s, &step, view)?))
}

/// 400 unless the answers are a JSON object (what a step's answers and a preview's are).
fn answers_object(input: &Value) -> ApiResult<()> {
    if input.is_object() {
        Ok(())
    } else {
        Err(ApiError::BadRequest(
            "The answers must be a JSON object.".into(),
        ))
    }
}

/// A step's view as the browser gets it: sensitive answers masked, the revision it shows.
fn view_body(
    app: &AppState,
    s: &OpenStep,
    step: &str,
    mut view: enrollflow_engine::StepView,
) -> ApiResult<StepViewBody> {
    let place = sensitive::Place {
        application: s.id.unwrap_or_default(),
        step,
    };
    sensitive::mask(&app.cipher, place, &view.schema, &mut view.data)?;
    let mut body = StepViewBody::from(view);
    body.revision = s.cached.as_ref().map_or(0, |c| c.revision);
    Ok(body)
}

/// The answer to a successful save.
#[derive(Debug, Serialize, ToSchema)]
pub struct Saved {
    /// Where to go (the same step when a dialog is asked).
    pub next: Step,
    /// A dialog to show (its id in the view's `modals`).
    pub modal: Option<String>,
    pub application: ActiveApplication,
    /// The application's revision after this save (the next save's `If-Match`).
    pub revision: i64,
}

#[utoipa::path(put, path = "/api/application/step/{step}", tag = "application",
    params(("step" = String, Path, description = "A step id")),
    request_body(content = Answers, description = "The step's answers"),
    params(("If-Match" = Option<String>, Header, description = "The revision the answers were \
        given against (the view's `revision`, or the last save's); without it the save is made \
        whatever the revision")),
    responses((status = 200, body = Saved),
              (status = 422, description = "`{\"errors\": {field_key: [message]}}`"),
              (status = 403, description = "The application may not save this step"),
              (status = 409, description = "The application has already been submitted")))]
/// Saves a step's answers.
async fn save_step(
    State(app): State<AppState>,
    session: LiveSession,
    host: SiteHost,
    address: ClientAddress,
    headers: HeaderMap,
    Path(step): Path<String>,
    Json(answers): Json<Value>,
) -> ApiResult<(Wrote, Json<Saved>)> {
    let saved = save(
        &Handles::of(&app),
        SaveStep {
            caller: super::open::caller(Some(&session), &host),
            session: &session.id_hash,
            step: &step,
            answers,
            expected_revision: if_match(&headers)?,
            languages: Language::from_headers(&headers).wanted(),
            address: address.0,
        },
    )
    .await?;
    let row = saved.application;
    Ok((
        Wrote::row(&row),
        Json(Saved {
            next: saved.next.into(),
            modal: saved.modal,
            revision: row.revision,
            application: row.into(),
        }),
    ))
}

/// The `If-Match` revision of a save (`"12"` or `12`); none without the header; 400 when it is
/// not a revision.
fn if_match(headers: &HeaderMap) -> ApiResult<Option<i64>> {
    let Some(v) = headers.get(axum::http::header::IF_MATCH) else {
        return Ok(None);
    };
    v.to_str()
        .ok()
        .map(|s| s.trim().trim_start_matches("W/").trim_matches('"'))
        .and_then(|s| s.parse::<i64>().ok())
        .filter(|r| *r >= 0)
        .map(Some)
        .ok_or_else(|| ApiError::BadRequest("If-Match must be the application's revision.".into()))
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
) -> ApiResult<(Wrote, Json<Saved>)> {
    let s = open_step(&app, &session, &host, &step).await?;
    let id = s.id.ok_or(ApiError::Forbidden)?;
    let (next, last) = run(&s.budget, || {
        s.bundle.engine.continue_page(&step, &s.data, &s.ctx)
    })
    .await
    .map_err(eval_error)?
    .ok_or_else(|| {
        ApiError::BadRequest(format!(
            "Step `{step}` is saved by its own form or selection."
        ))
    })?;
    let row = store_updates(&app, &s, id, [("last_step".to_string(), json!(last))]).await?;
    Ok((
        Wrote::row(&row),
        Json(Saved {
            next: next.into(),
            modal: None,
            revision: row.revision,
            application: row.into(),
        }),
    ))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Reopened {
    /// The step, now open (id, number, route, title).
    pub step: Step,
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
) -> ApiResult<(Wrote, Json<Reopened>)> {
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
            applications::stored(&app.pool, id)
                .await?
                .ok_or(ApiError::Forbidden)?
        }
        _ => return Err(ApiError::Forbidden),
    };
    Ok((
        Wrote::row(&row),
        Json(Reopened {
            step: info.into(),
            application: row.into(),
        }),
    ))
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
    let cached = agent_application(app, session, id, agent.id)
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
    let bundle = app.rules.current();
    let valid = run(&session.budget, || {
        bundle.engine.valid_step(&step, &data, &ctx)
    })
    .await
    .map_err(eval_error)?;
    Ok(Json(ValidStep { valid }))
}
