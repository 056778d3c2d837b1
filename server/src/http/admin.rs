//! Operators' calls. Until admin accounts exist, they need `Authorization: Bearer <token>` with the
//! configured `ENROLLFLOW_ADMIN_TOKEN`; without one configured they are closed.

use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, header};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::error::{ApiError, ApiResult};
use crate::rules::Status;
use crate::startup::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(rules_status))
}

fn require_operator(app: &AppState, headers: &HeaderMap) -> ApiResult<()> {
    let sent = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "));
    match (&app.config.admin_token, sent) {
        (Some(token), Some(sent)) if !token.is_empty() && token.as_bytes() == sent.as_bytes() => {
            Ok(())
        }
        _ => Err(ApiError::Forbidden),
    }
}

#[utoipa::path(get, path = "/api/admin/rules/status", tag = "admin",
    responses((status = 200, description = "The rules serving now and the problems of the newest files", body = Status),
              (status = 403, description = "Not an operator")))]
async fn rules_status(State(app): State<AppState>, headers: HeaderMap) -> ApiResult<Json<Status>> {
    require_operator(&app, &headers)?;
    Ok(Json((*app.rules.status()).clone()))
}
