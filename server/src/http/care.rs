//! The household's care needs on the medical plan page: each member's expected use of care (low,
//! medium or high), which the plans' yearly estimates follow. Stored with the application (its
//! `care`), so it travels wherever the application goes (resume and hand-off links).

use axum::Json;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use enrollflow_engine::catalog::PlanKind;
use enrollflow_engine::yearly_cost::CareUse;

use super::application::ActiveApplication;
use super::error::{ApiError, ApiResult};
use super::host::SiteHost;
use super::plans::open_plan_step;
use super::revision::Wrote;
use crate::app::applying::quotes::household_and_care;
use crate::http::session::LiveSession;
use crate::http::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(care_needs, save_care_needs))
}

/// The key of the application's document that holds its care needs.
const CARE: &str = "care";

/// Each member's expected use of care, in the household's order (subscriber, spouse,
/// dependents).
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct CareNeeds {
    #[schema(value_type = Vec<String>, example = json!(["medium", "high"]))]
    pub uses: Vec<CareUse>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CareSaved {
    pub care: CareNeeds,
    pub application: ActiveApplication,
}

#[utoipa::path(get, path = "/api/care", tag = "plans",
    responses((status = 200, body = CareNeeds),
              (status = 409, description = "About You is not complete")))]
async fn care_needs(
    State(app): State<AppState>,
    session: LiveSession,
    host: SiteHost,
) -> ApiResult<Json<CareNeeds>> {
    let (s, _, _) = open_plan_step(&app, &session, &host, PlanKind::Medical.type_id()).await?;
    let (_, care) = crate::rules::evaluation::run(&s.budget, || household_and_care(&s)).await?;
    Ok(Json(CareNeeds {
        uses: care.iter().map(|c| c.care_use).collect(),
    }))
}

#[utoipa::path(put, path = "/api/care", tag = "plans",
    request_body = CareNeeds,
    responses((status = 200, body = CareSaved),
              (status = 422, description = "`{errors: {uses: [...]}}`: not one use for each member"),
              (status = 409, description = "About You is not complete")))]
async fn save_care_needs(
    State(app): State<AppState>,
    session: LiveSession,
    host: SiteHost,
    Json(needs): Json<CareNeeds>,
) -> ApiResult<(Wrote, Json<CareSaved>)> {
    let (s, _, _) = open_plan_step(&app, &session, &host, PlanKind::Medical.type_id()).await?;
    let id = s.id.ok_or(ApiError::Forbidden)?;
    let (h, _) = crate::rules::evaluation::run(&s.budget, || household_and_care(&s)).await?;
    if needs.uses.len() != h.members.len() {
        let mut errors = std::collections::BTreeMap::new();
        errors.insert(
            "uses".to_string(),
            vec!["Please choose the expected use of care of each member.".to_string()],
        );
        return Err(ApiError::Validation(errors));
    }
    let mut care = s
        .data
        .get(CARE)
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_else(Map::new);
    care.insert(
        "uses".into(),
        serde_json::to_value(&needs.uses).map_err(anyhow::Error::new)?,
    );
    let row =
        super::open::store_updates(&app, &s, id, [(CARE.to_string(), Value::Object(care))]).await?;
    Ok((
        Wrote::row(&row),
        Json(CareSaved {
            care: needs,
            application: row.into(),
        }),
    ))
}
