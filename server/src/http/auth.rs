//! Who the caller is: the auth-state call (which is also how a browser gets its session and CSRF
//! token) and the `CurrentUser` extractor that handlers use to decide what the caller may do.
//!
//! - What a caller may do is decided by the session's user (`CurrentUser`), read from PostgreSQL:
//!   admin-only calls refuse everyone else with 403 (`require_admin`; an admin acting as an agent
//!   is that agent until switching back); an agent's user acts only for their own agent
//!   (`may_act_for`); owner, role and agent id are never read from request bodies.
//! - No GET changes state: impersonation, switch back, the timeout and restarting are POSTs under
//!   the CSRF guard. A disabled account (`users.disabled_at`) has no sessions and `CurrentUser`
//!   refuses it.

use std::sync::Arc;

use axum::Json;
use axum::extract::{FromRequestParts, Query, State};
use axum::http::header;
use axum::http::request::Parts;
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use uuid::Uuid;

use super::error::{ApiError, ApiResult};
use super::host::SiteHost;
use crate::app::accounts::UserRow;
use crate::app::accounts::sessions as store;
use crate::http::session::{self, Session, SessionState};
use crate::http::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(get_auth_state))
}

/// The logged-in user of the request's session. Extracting it answers 419 without a live session
/// and 403 when the session has no user. While an admin acts as an agent's user, `user` is the
/// agent's user (what the session may do is what that user may do) and the admin is the
/// session's `impersonator_id`.
#[derive(Debug, Clone)]
pub struct CurrentUser {
    pub session: Arc<Session>,
    pub user: Arc<UserRow>,
}

impl CurrentUser {
    /// The session's user, if it has one (read from PostgreSQL, so a role change counts at once).
    pub async fn of(app: &AppState, session: &Arc<Session>) -> ApiResult<Option<CurrentUser>> {
        let Some(id) = session.user_id else {
            return Ok(None);
        };
        // A disabled account has no sessions left (disabling deletes them); a request already in
        // flight is refused all the same.
        Ok(store::active_user(&app.pool, id)
            .await?
            .map(|u| CurrentUser {
                session: session.clone(),
                user: Arc::new(u),
            }))
    }

    /// Admin-only calls refuse everyone else with 403 (an admin acting as an agent is the agent).
    pub fn require_admin(&self) -> ApiResult<()> {
        if self.user.is_admin() {
            Ok(())
        } else {
            Err(ApiError::Forbidden)
        }
    }

    /// Only analysts and admins work on the rules (403 otherwise).
    pub fn require_rules(&self) -> ApiResult<()> {
        if self.user.works_on_rules() {
            Ok(())
        } else {
            Err(ApiError::Forbidden)
        }
    }

    /// The admin acting as this user, while impersonating.
    pub fn impersonator_id(&self) -> Option<Uuid> {
        self.session.impersonator_id
    }

    /// Who to name as the actor in the audit log: the admin while impersonating.
    pub fn actor_id(&self) -> Uuid {
        self.session.impersonator_id.unwrap_or(self.user.id)
    }

    /// The agent whose dashboard this is: 403 for an admin not acting as an agent, or a user
    /// without an agent.
    pub fn dashboard_agent(&self) -> ApiResult<Uuid> {
        if self.user.is_admin() {
            return Err(ApiError::Forbidden);
        }
        self.agent_id().ok_or(ApiError::Forbidden)
    }

    /// The agent this user acts for, if any.
    pub fn agent_id(&self) -> Option<Uuid> {
        self.user.agent_id
    }

    /// Whether the user may act for this agent: only for their own.
    pub fn may_act_for(&self, agent_id: Uuid) -> bool {
        self.user.agent_id == Some(agent_id)
    }
}

impl FromRequestParts<AppState> for CurrentUser {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &AppState) -> Result<Self, ApiError> {
        let session = match parts.extensions.get::<SessionState>() {
            Some(SessionState::Live(s)) => s.clone(),
            Some(other) => return Err(other.missing()),
            None => return Err(ApiError::SessionExpired),
        };
        CurrentUser::of(app, &session)
            .await?
            .ok_or(ApiError::Forbidden)
    }
}

/// Spec part 1, section 3 "Auth state", plus the session's CSRF token.
#[derive(Debug, Serialize, ToSchema)]
pub struct AuthState {
    /// A user is logged in.
    pub is_authorized: bool,
    /// The user is an admin (false while an admin acts as an agent: the session is the agent's).
    pub is_admin: bool,
    /// The user works on the rules (an analyst or an admin): the workbench is theirs.
    pub works_on_rules: bool,
    /// The first subdomain of the user's agent (the agent's while impersonating).
    pub agent_subdomain: Option<String>,
    /// While an admin acts as an agent: the admin's own site subdomain (the admin's agent's, else
    /// the site in use), where Switch back to Admin returns.
    pub admin_subdomain: Option<String>,
    /// An admin is acting as this user (Switch back to Admin is offered).
    pub impersonating: bool,
    /// The user's first and last name.
    pub user_name: Option<String>,
    /// Send it back in the `X-CSRF-Token` header on every state-changing call.
    pub csrf_token: String,
}

#[derive(Debug, Deserialize, IntoParams)]
pub struct AuthStateQuery {
    /// `true` starts a new session even for a cookie of a session replaced a moment ago (the
    /// client asks this when it has been answered "replaced" twice: its browser never got the
    /// newer cookie).
    #[serde(default)]
    pub renew: bool,
}

#[utoipa::path(get, path = "/api/get-auth-state", tag = "accounts", params(AuthStateQuery),
    responses(
        (status = 200, description = "The caller's state; starts a session when there is none \
            (sets the session cookie)", body = AuthState),
        (status = 419, description = "`{\"session\": \"replaced\"}`: the cookie names a session \
            replaced a moment ago (a login in another tab); ask again, the browser has the new \
            cookie. The cookie is not touched.")))]
async fn get_auth_state(
    State(app): State<AppState>,
    state: SessionState,
    host: SiteHost,
    Query(q): Query<AuthStateQuery>,
) -> ApiResult<Response> {
    let (session, cookie) = session_of(&app, state, q.renew).await?;
    let body = Json(auth_state(&app, &session, &host).await?);
    Ok(with_cookie(cookie, body))
}

/// An answer carrying the cookie of a session started for it (see [`session_of`]).
pub(crate) fn with_cookie(
    cookie: Option<axum::http::HeaderValue>,
    body: impl IntoResponse,
) -> Response {
    match cookie {
        Some(c) => ([(header::SET_COOKIE, c)], body).into_response(),
        None => body.into_response(),
    }
}

/// The request's live session, or a new one with the cookie that names it (no session, or an
/// expired or ended one); a cookie of a session replaced a moment ago is answered "replaced"
/// unless `renew`.
pub(crate) async fn session_of(
    app: &AppState,
    state: SessionState,
    renew: bool,
) -> ApiResult<(Arc<Session>, Option<axum::http::HeaderValue>)> {
    Ok(match state {
        SessionState::Live(s) => (s, None),
        SessionState::Replaced if !renew => return Err(ApiError::SessionReplaced),
        SessionState::None
        | SessionState::Expired
        | SessionState::Ended
        | SessionState::Replaced => {
            let (s, cookie) = session::start(app).await?;
            (Arc::new(s), Some(cookie))
        }
    })
}

/// Spec part 1, section 3 "Auth state" of a session.
pub(crate) async fn auth_state(
    app: &AppState,
    session: &Arc<Session>,
    host: &SiteHost,
) -> ApiResult<AuthState> {
    let current = CurrentUser::of(app, session).await?;
    let admin_subdomain = match session.impersonator_id {
        Some(admin) => store::account(&app.pool, admin)
            .await?
            .and_then(|a| a.agent_subdomain)
            .or(host.0.clone()),
        None => None,
    };
    let user = current.as_ref().map(|c| &c.user);
    Ok(AuthState {
        is_authorized: user.is_some(),
        is_admin: user.is_some_and(|u| u.is_admin()),
        works_on_rules: user.is_some_and(|u| u.works_on_rules()),
        agent_subdomain: user.and_then(|u| u.agent_subdomain.clone()),
        admin_subdomain,
        impersonating: session.impersonator_id.is_some() && user.is_some(),
        user_name: user.map(|u| u.full_name()),
        csrf_token: session.csrf_token.clone(),
    })
}
