//! Who the caller is. Accounts and login arrive with the accounts issue; today every caller is a
//! visitor, and this call is also how a browser gets its session and CSRF token.

use axum::Json;
use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::error::ApiResult;
use crate::session::{self, SessionState};
use crate::startup::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(get_auth_state))
}

/// Spec part 1, section 3 "Auth state", plus the session's CSRF token.
#[derive(Debug, Serialize, ToSchema)]
pub struct AuthState {
    pub is_authorized: bool,
    pub is_admin: bool,
    pub agent_subdomain: Option<String>,
    pub admin_subdomain: Option<String>,
    pub user_name: Option<String>,
    /// Send it back in the `X-CSRF-Token` header on every state-changing call.
    pub csrf_token: String,
}

#[utoipa::path(get, path = "/api/get-auth-state", tag = "accounts",
    responses((status = 200, description = "The caller's state; starts a session when there is none \
                                            (sets the session cookie)", body = AuthState)))]
async fn get_auth_state(State(app): State<AppState>, state: SessionState) -> ApiResult<Response> {
    let (session, cookie) = match state {
        SessionState::Live(s) => (s, None),
        SessionState::None | SessionState::Expired => {
            let (s, cookie) = session::start(&app).await?;
            (std::sync::Arc::new(s), Some(cookie))
        }
    };
    let body = Json(AuthState {
        is_authorized: false,
        is_admin: false,
        agent_subdomain: None,
        admin_subdomain: None,
        user_name: None,
        csrf_token: session.csrf_token.clone(),
    });
    Ok(match cookie {
        Some(c) => ([(header::SET_COOKIE, c)], body).into_response(),
        None => body.into_response(),
    })
}
