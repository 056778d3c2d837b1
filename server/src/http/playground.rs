//! The analysts' playground (spec part 1, 2.1 "playground"): any step's form for a chosen context,
//! with its schema, data and the validation of sample answers. Off unless `--playground` is set.
//! It reads the serving rules only; nothing is saved.

use axum::Json;

use super::auth::CurrentUser;
use crate::http::session::SessionState;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use enrollflow_engine::{AgentFlags, Applying, Context, Submission};

use super::wire::{Step, StepViewBody};

use super::error::{ApiError, ApiResult};
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(steps))
        .routes(routes!(try_step))
}

/// The playground answers only when it is on (404 otherwise) and only to a logged-in admin (419
/// without a session, 403 for anyone else): it runs any data through the rules and shows their
/// diagnostics.
async fn enabled(app: &AppState, state: &SessionState) -> ApiResult<()> {
    if !app.config.playground {
        return Err(ApiError::NotFound("No such API call.".into()));
    }
    let session = state.live().ok_or_else(|| state.missing())?;
    match CurrentUser::of(app, session).await? {
        Some(u) if u.user.is_admin() => Ok(()),
        _ => Err(ApiError::Forbidden),
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PlaygroundSteps {
    pub steps: Vec<Step>,
    /// The serving rules' digest.
    pub rules: String,
    /// The carrier flags an agent may have on (the catalog's `agent_flag`s), each with the
    /// carriers it makes quoted.
    pub agent_flags: Vec<AgentFlagChoice>,
}

/// A carrier flag of the catalog and the carriers it makes quoted.
#[derive(Debug, Serialize, ToSchema)]
pub struct AgentFlagChoice {
    pub flag: String,
    pub carriers: Vec<String>,
}

/// The agent to try a step for.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(default)]
pub struct PlaygroundAgent {
    /// The carrier flags that are on (`agent_flags` of `GET /api/playground`).
    pub offers: Vec<String>,
    pub marketplace_certified: bool,
    pub display_medicare: bool,
    pub name: String,
    pub npn: String,
}

impl From<PlaygroundAgent> for AgentFlags {
    fn from(a: PlaygroundAgent) -> Self {
        AgentFlags {
            offers: a.offers,
            marketplace_certified: a.marketplace_certified,
            display_medicare: a.display_medicare,
            name: a.name,
            npn: a.npn,
        }
    }
}

#[utoipa::path(get, path = "/api/playground", tag = "playground",
    responses((status = 200, body = PlaygroundSteps), (status = 403, description = "Not an admin"),
              (status = 404, description = "The playground is off")))]
async fn steps(
    State(app): State<AppState>,
    state: SessionState,
) -> ApiResult<Json<PlaygroundSteps>> {
    enabled(&app, &state).await?;
    let bundle = app.rules.current();
    let cat = bundle.engine.catalog();
    let mut agent_flags: Vec<AgentFlagChoice> = Vec::new();
    for c in &cat.carriers {
        let Some(flag) = &c.agent_flag else { continue };
        match agent_flags.iter_mut().find(|f| &f.flag == flag) {
            Some(f) => f.carriers.push(c.name.clone()),
            None => agent_flags.push(AgentFlagChoice {
                flag: flag.clone(),
                carriers: vec![c.name.clone()],
            }),
        }
    }
    Ok(Json(PlaygroundSteps {
        steps: bundle.engine.steps().cloned().map(Step::from).collect(),
        rules: bundle.engine.hash().to_string(),
        agent_flags,
    }))
}

/// A context to try a step in.
#[derive(Debug, Deserialize, ToSchema)]
pub struct PlaygroundRequest {
    pub step: String,
    /// YYYY-MM-DD; the server's today when absent.
    pub today: Option<String>,
    #[serde(default)]
    #[schema(value_type = String)]
    pub applying: Applying,
    #[serde(default)]
    pub agent: PlaygroundAgent,
    /// The application: flags (`medical_carrier_id`, `enrollment_type`, …) and earlier answers.
    #[serde(default)]
    #[schema(value_type = Object)]
    pub app: Value,
    /// Answers to validate, if any.
    #[schema(value_type = Option<Object>)]
    pub answers: Option<Value>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PlaygroundResult {
    pub view: StepViewBody,
    /// The validation of `answers`: `{outcome: "invalid", errors}` or `{outcome: "accepted", next, …}`.
    #[schema(value_type = Option<Object>)]
    pub validation: Option<Submission>,
}

#[utoipa::path(post, path = "/api/playground", tag = "playground",
    request_body = PlaygroundRequest,
    responses((status = 200, body = PlaygroundResult),
              (status = 400, description = "The rules failed for this context (the message names the rule)"),
              (status = 403, description = "Not an admin"),
              (status = 404, description = "The playground is off")))]
async fn try_step(
    State(app): State<AppState>,
    state: SessionState,
    Json(req): Json<PlaygroundRequest>,
) -> ApiResult<Json<PlaygroundResult>> {
    enabled(&app, &state).await?;
    let today = match &req.today {
        Some(t) => enrollflow_engine::dates::parse(t)
            .ok_or_else(|| ApiError::BadRequest(format!("`{t}` is not a date (YYYY-MM-DD)")))?,
        None => app.clock.today(),
    };
    let ctx = Context {
        today,
        applying: req.applying,
        agent: req.agent.into(),
    };
    let data = if req.app.is_object() {
        req.app
    } else {
        json!({})
    };
    let bundle = app.rules.current();
    let rule_error = |e: enrollflow_engine::EvalError| ApiError::BadRequest(e.to_string());
    let view = match &req.answers {
        Some(a) => bundle.engine.preview(&req.step, a, &data, &ctx),
        None => bundle.engine.step_view(&req.step, &data, &ctx),
    }
    .map_err(rule_error)?;
    let validation = match &req.answers {
        Some(a) if view.kind == "form" => Some(
            bundle
                .engine
                .submit(&req.step, a, &data, &ctx)
                .map_err(rule_error)?,
        ),
        _ => None,
    };
    Ok(Json(PlaygroundResult {
        view: view.into(),
        validation,
    }))
}
