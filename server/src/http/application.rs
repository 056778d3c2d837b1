//! The active application of the caller's session (spec part 1, section 7 "Application").
//!
//! Also the timeout call (`POST /api/application/timeout`), which ends the session.

use axum::Json;
use axum::extract::{Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use uuid::Uuid;

use super::error::{ApiError, ApiResult};
use super::revision::Wrote;
use crate::app::applying::Handles;
use crate::app::applying::open::{self as applications, ApplicationRow};
use crate::http::session::{self, LiveSession, SessionState};
use crate::http::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(active))
        .routes(routes!(reset))
        .routes(routes!(timeout))
}

/// Spec part 1, section 3 "Application (active)".
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ActiveApplication {
    pub application_id: Uuid,
    pub last_step: i16,
    /// YYYY-MM-DD.
    pub effective_date: Option<String>,
    pub enrollment_period_type_id: Option<i16>,
    pub medical_carrier_id: Option<i16>,
    pub dental_carrier_id: Option<i16>,
    pub vision_carrier_id: Option<i16>,
    pub medical_network_type_id: Option<i16>,
    pub skip_medical: bool,
    pub skip_dental: bool,
    pub skip_vision: bool,
    pub skip_other: bool,
    pub skip_pcp: bool,
    #[serde(with = "time::serde::rfc3339::option")]
    pub submission_time: Option<OffsetDateTime>,
}

impl From<ApplicationRow> for ActiveApplication {
    fn from(a: ApplicationRow) -> Self {
        let c = a.columns;
        ActiveApplication {
            application_id: a.id,
            last_step: c.last_step,
            effective_date: c.effective_date.map(enrollflow_engine::dates::format),
            enrollment_period_type_id: c.enrollment_period_type_id,
            medical_carrier_id: c.medical_carrier_id,
            dental_carrier_id: c.dental_carrier_id,
            vision_carrier_id: c.vision_carrier_id,
            medical_network_type_id: c.medical_network_type_id,
            skip_medical: c.skip_medical,
            skip_dental: c.skip_dental,
            skip_vision: c.skip_vision,
            skip_other: c.skip_other,
            skip_pcp: c.skip_pcp,
            submission_time: a.submission_time,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ActiveResponse {
    pub application: Option<ActiveApplication>,
}

#[derive(Debug, Deserialize, IntoParams)]
pub struct ActiveQuery {
    /// Not accepted on a GET: restarting is `POST /api/application/active/reset`.
    #[serde(default)]
    pub reset: bool,
}

#[utoipa::path(get, path = "/api/application/active", tag = "application",
    params(ActiveQuery),
    responses((status = 200, body = ActiveResponse),
              (status = 405, description = "`reset=true`: a GET never changes state; restart with \
                  `POST /api/application/active/reset`"),
              (status = 419, description = "No live session")))]
async fn active(
    State(app): State<AppState>,
    session: LiveSession,
    Query(q): Query<ActiveQuery>,
) -> ApiResult<Json<ActiveResponse>> {
    if q.reset {
        return Err(ApiError::MethodNotAllowed(
            "Restarting is POST /api/application/active/reset.".into(),
        ));
    }
    Ok(Json(ActiveResponse {
        application: active_of(&app, &session).await?,
    }))
}

/// A session's active application (`GET /api/application/active`, `GET /api/start`).
pub(crate) async fn active_of(
    app: &AppState,
    session: &crate::http::session::Session,
) -> ApiResult<Option<ActiveApplication>> {
    Ok(match session.application_id {
        Some(id) => applications::stored(&app.pool, id).await?.map(Into::into),
        None => None,
    })
}

#[utoipa::path(post, path = "/api/application/active/reset", tag = "application",
    responses((status = 200, body = ActiveResponse, description = "Restarted: the session lets go \
                  of its application (spec part 1, 7: the spec's `GET …?reset=true`, a POST under \
                  the CSRF guard here)"),
              (status = 419, description = "No live session, or no CSRF token")))]
async fn reset(
    State(app): State<AppState>,
    session: LiveSession,
) -> ApiResult<(Wrote, Json<ActiveResponse>)> {
    applications::let_go(&Handles::of(&app), &session.id_hash).await?;
    Ok((Wrote::none(), Json(ActiveResponse { application: None })))
}

#[utoipa::path(post, path = "/api/application/timeout", tag = "application",
    responses((status = 204, description = "The session is ended (the spec's GET: a POST under the \
                  CSRF guard here, so no other page can log a user out)"),
              (status = 419, description = "No live session, or no CSRF token")))]
async fn timeout(State(app): State<AppState>, state: SessionState) -> ApiResult<Response> {
    Ok(match state.live() {
        Some(s) => {
            let cookie = session::end(&app, s).await?;
            (StatusCode::NO_CONTENT, [(header::SET_COOKIE, cookie)]).into_response()
        }
        None => StatusCode::NO_CONTENT.into_response(),
    })
}
