//! `GET /api/start`: what every page load needs before it can draw, in one answer that `index.html`
//! preloads while the script downloads: the auth state (a session started when there is none, as
//! `GET /api/get-auth-state` does), the session's active application and the wizard's flow. Each
//! part is what its own route answers; those routes stay for the calls made later.
//!
//! `web/index.html` preloads it with `GET /api/site`, and `web/src/app/bootstrap.ts` reads it.

use axum::Json;
use axum::extract::State;
use axum::response::Response;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::application::{ActiveApplication, active_of};
use super::auth::{AuthState, auth_state, session_of, with_cookie};
use super::error::{ApiError, ApiResult};
use super::host::SiteHost;
use super::language::Language;
use super::steps::flow_of;
use super::wire::Flow;
use crate::http::session::SessionState;
use crate::http::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(start))
}

/// The first answer of a page load.
#[derive(Debug, Serialize, ToSchema)]
pub struct Start {
    /// As `GET /api/get-auth-state` answers.
    pub auth: AuthState,
    /// As `GET /api/application/active` answers (`application`).
    pub application: Option<ActiveApplication>,
    /// As `GET /api/flow` answers; null where that is 404 (no agent's site at this address).
    pub flow: Option<Flow>,
}

#[utoipa::path(get, path = "/api/start", tag = "accounts",
    responses(
        (status = 200, description = "The auth state, the active application and the flow; starts \
            a session when there is none (sets the session cookie)", body = Start),
        (status = 419, description = "`{\"session\": \"replaced\"}`: the cookie names a session \
            replaced a moment ago; ask `GET /api/get-auth-state` (its `renew`) instead.")))]
async fn start(
    State(app): State<AppState>,
    state: SessionState,
    host: SiteHost,
    language: Language,
) -> ApiResult<Response> {
    let (session, cookie) = session_of(&app, state, false).await?;
    let auth = auth_state(&app, &session, &host).await?;
    let application = active_of(&app, &session).await?;
    let flow = match flow_of(&app, &session, &host, &language).await {
        Ok(flow) => Some(flow),
        Err(ApiError::NotFound(_)) => None,
        Err(e) => return Err(e),
    };
    let body = Json(Start {
        auth,
        application,
        flow,
    });
    Ok(with_cookie(cookie, body))
}
