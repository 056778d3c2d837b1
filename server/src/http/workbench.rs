//! The rules workbench's reads, for analysts and admins: any step's view for a
//! sample household and context with the validation of sample answers (the preview the consumer
//! renderer draws; it replaces the playground's API), the serving set's files, and the scenario
//! results with the rule coverage of the serving set. Nothing is saved.

use axum::Json;

use super::auth::CurrentUser;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use enrollflow_engine::{AgentFlags, Applying, Context, Submission};

use super::wire::{Step, StepViewBody};

use super::error::{ApiError, ApiResult};
use crate::app::rule_sets::report::{self, RulesReport};
use crate::http::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(steps, try_step))
        .routes(routes!(files))
        .routes(routes!(report))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PreviewSteps {
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
pub struct PreviewAgent {
    /// The carrier flags that are on (`agent_flags` of `GET /api/admin/rules/preview`).
    pub offers: Vec<String>,
    pub marketplace_certified: bool,
    pub display_medicare: bool,
    pub name: String,
    pub npn: String,
}

impl From<PreviewAgent> for AgentFlags {
    fn from(a: PreviewAgent) -> Self {
        AgentFlags {
            offers: a.offers,
            marketplace_certified: a.marketplace_certified,
            display_medicare: a.display_medicare,
            name: a.name,
            npn: a.npn,
        }
    }
}

#[utoipa::path(get, path = "/api/admin/rules/preview", tag = "workbench",
    responses((status = 200, body = PreviewSteps), (status = 403, description = "Not an analyst or an admin")))]
async fn steps(State(app): State<AppState>, current: CurrentUser) -> ApiResult<Json<PreviewSteps>> {
    current.require_rules()?;
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
    Ok(Json(PreviewSteps {
        steps: bundle.engine.steps().cloned().map(Step::from).collect(),
        rules: bundle.engine.hash().to_string(),
        agent_flags,
    }))
}

/// A context to try a step in.
#[derive(Debug, Deserialize, ToSchema)]
pub struct PreviewRequest {
    pub step: String,
    /// YYYY-MM-DD; the server's today when absent.
    pub today: Option<String>,
    #[serde(default)]
    #[schema(value_type = String)]
    pub applying: Applying,
    #[serde(default)]
    pub agent: PreviewAgent,
    /// The application: flags (`medical_carrier_id`, `enrollment_type`, …) and earlier answers.
    #[serde(default)]
    #[schema(value_type = Object)]
    pub app: Value,
    /// Answers to validate, if any.
    #[schema(value_type = Option<Object>)]
    pub answers: Option<Value>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PreviewResult {
    pub view: StepViewBody,
    /// The validation of `answers`: `{outcome: "invalid", errors}` or `{outcome: "accepted", next, …}`.
    #[schema(value_type = Option<Object>)]
    pub validation: Option<Submission>,
    /// A plan page's plans quoted for the sample household, cheapest first, as the plan page shows
    /// them; none for another page, or when the household cannot be quoted yet.
    pub plans: Option<PreviewPlans>,
}

/// The plans a plan page would list for the sample household.
#[derive(Debug, Serialize, ToSchema)]
pub struct PreviewPlans {
    pub plans: Vec<super::plans::PlanView>,
    pub household_size: usize,
    /// Why nothing is quoted (no household yet, no plan year, no rating area), if so.
    pub none_because: Option<String>,
}

#[utoipa::path(post, path = "/api/admin/rules/preview", tag = "workbench",
    request_body = PreviewRequest,
    responses((status = 200, body = PreviewResult),
              (status = 400, description = "The rules failed for this context (the message names the rule)"),
              (status = 403, description = "Not an analyst or an admin")))]
async fn try_step(
    State(app): State<AppState>,
    current: CurrentUser,
    Json(req): Json<PreviewRequest>,
) -> ApiResult<Json<PreviewResult>> {
    current.require_rules()?;
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
    let (view, validation) = crate::rules::evaluation::run(&current.session.budget, || {
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
        Ok::<_, ApiError>((view, validation))
    })
    .await?;
    let plans = view.plan_kind().map(|kind| {
        let selected = crate::rules::quoting::selected_id(&data, kind);
        match bundle.engine.quote(kind, &data, &ctx) {
            Ok(list) => {
                let household_size = list.first().map_or(0, |(_, r)| r.members.len());
                let cat = bundle.engine.catalog();
                let care = bundle
                    .engine
                    .household_and_care(&data, &ctx)
                    .ok()
                    .flatten()
                    .map(|(_, care)| care)
                    .unwrap_or_default();
                PreviewPlans {
                    plans: list
                        .into_iter()
                        .map(|(p, r)| {
                            let yearly = bundle.engine.yearly_cost(p, &r, &care);
                            super::plans::plan_view(cat, p, r, household_size, selected, yearly)
                        })
                        .collect(),
                    household_size,
                    none_because: None,
                }
            }
            Err(e) => PreviewPlans {
                plans: Vec::new(),
                household_size: 0,
                none_because: Some(e.to_string()),
            },
        }
    });
    Ok(Json(PreviewResult {
        view: view.into(),
        validation,
        plans,
    }))
}

/// One file of the serving set.
#[derive(Debug, Serialize, ToSchema)]
pub struct SetFile {
    pub path: String,
    pub text: String,
}

#[utoipa::path(get, path = "/api/admin/rules/files", tag = "workbench",
    responses((status = 200, description = "Every file of the set serving now (rules/, forms/, templates/), in path order", body = Vec<SetFile>),
              (status = 403, description = "Not an analyst or an admin")))]
async fn files(State(app): State<AppState>, current: CurrentUser) -> ApiResult<Json<Vec<SetFile>>> {
    current.require_rules()?;
    let bundle = app.rules.current();
    let mut out: Vec<SetFile> = bundle
        .files
        .iter()
        .map(|f| SetFile {
            path: f.path.clone(),
            text: f.text.clone(),
        })
        .collect();
    out.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(Json(out))
}

#[utoipa::path(get, path = "/api/admin/rules/report", tag = "workbench",
    responses((status = 200, description = "The scenario results and the coverage of the set serving now", body = RulesReport),
              (status = 403, description = "Not an analyst or an admin")))]
async fn report(State(app): State<AppState>, current: CurrentUser) -> ApiResult<Json<RulesReport>> {
    current.require_rules()?;
    let made = report::serving(&app.rules, &app.config.root)
        .await
        .map_err(super::proposals::refusal)?;
    Ok(Json((*made).clone()))
}
