//! Published rule sets, for analysts and admins: the history of publications, publishing a
//! draft (every file of `rules/`, `forms/` and `templates/`, checked whole first), and serving an
//! earlier set again. Instances serving from the database (`--rules-from-database`) switch when
//! the publication's notification arrives.
//!
//! The calls: `GET /api/admin/rules/sets`, `POST …/publish` (a draft's files, refused whole with
//! file:line problems), `POST …/rollback`, and the impact; the CLI has `publish`, `rollback` and
//! `rule-sets`. Each set is kept with its engine hash. `server/tests/api/rule_sets.rs`: two
//! instances switch and roll back, a broken draft changes nothing, an application replays under the
//! set it was saved with.

use axum::Json;
use axum::extract::State;
use axum::http::HeaderMap;
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::auth::CurrentUser;
use super::error::ApiResult;
use super::host::ClientAddress;
use super::proposals::{decider, handles, refusal};
use crate::app::rule_sets::draft::Draft;
use crate::app::rule_sets::impact as impacts;
use crate::app::rule_sets::{Publication, decide};
use crate::http::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(history))
        .routes(routes!(rollback))
        .routes(routes!(impact))
}

#[utoipa::path(get, path = "/api/admin/rules/sets", tag = "admin",
    responses((status = 200, description = "The publications, newest first (the first is serving)", body = Vec<Publication>),
              (status = 403, description = "Not an analyst or an admin")))]
async fn history(
    State(app): State<AppState>,
    current: CurrentUser,
) -> ApiResult<Json<Vec<Publication>>> {
    current.require_rules()?;
    let list = decide::history(&handles(&app)).await.map_err(refusal)?;
    Ok(Json(list))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct Rollback {
    /// The earlier set's hash (or the start of it, naming one set).
    pub hash: String,
}

#[utoipa::path(post, path = "/api/admin/rules/rollback", tag = "admin",
    request_body = Rollback,
    responses((status = 200, description = "That set serves again on every instance serving from the database (an emergency: one approver's action)", body = Publication),
              (status = 403, description = "No approve permission"),
              (status = 404, description = "No single published set has that hash")))]
async fn rollback(
    State(app): State<AppState>,
    current: CurrentUser,
    ClientAddress(address): ClientAddress,
    headers: HeaderMap,
    Json(body): Json<Rollback>,
) -> ApiResult<Json<Publication>> {
    current.require_rules()?;
    let by = decider(&current, address, &headers);
    let p = decide::roll_back(&handles(&app), &by, &body.hash)
        .await
        .map_err(refusal)?;
    Ok(Json(p))
}

#[utoipa::path(post, path = "/api/admin/rules/impact", tag = "admin",
    request_body = Draft,
    responses((status = 200, description = "What the draft changes against the rules serving now: the scenario suites and made-up households with their values, and of the most recent stored applications only counts in the serving set's words (no answer, nor any value a rule computed from one, leaves the server)", body = crate::rules::impact::Report),
              (status = 403, description = "Not an analyst or an admin"),
              (status = 422, description = "`{errors: {files: [...]}}`: the draft does not load, or the impact ran past its budget"),
              (status = 429, description = "Another impact is running on this instance (`Retry-After`)")))]
async fn impact(
    State(app): State<AppState>,
    current: CurrentUser,
    ClientAddress(address): ClientAddress,
    headers: HeaderMap,
    Json(draft): Json<Draft>,
) -> ApiResult<Json<crate::rules::impact::Report>> {
    current.require_rules()?;
    let actor = super::audit::actor_of(&current, address, &headers);
    let (root, budget) = (&app.config.root, app.config.impact_budget());
    let report = impacts::impact(&handles(&app), root, budget, &draft, &actor)
        .await
        .map_err(refusal)?;
    Ok(Json(report))
}
