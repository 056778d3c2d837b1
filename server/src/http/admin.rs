//! Admins' calls (spec part 1, 2.5, 4.2 and 7 "Admin"): finding an agent's users by NPN, acting as
//! an agent's user and switching back, the agent list, branding by NPN, the mail outbox, and the
//! rule status (also open to operators with `Authorization: Bearer <ENROLLFLOW_ADMIN_TOKEN>`).
//!
//! Only a session whose user is an admin gets through (403 otherwise; an admin acting as an agent
//! is the agent until switching back). Impersonating and switching back are POSTs under the CSRF
//! guard like every other change.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, header};
use axum::response::Response;
use serde::Serialize;
use time::OffsetDateTime;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use uuid::Uuid;

use super::accounts::{logged_in, record};
use super::auth::CurrentUser;
use super::error::{ApiError, ApiResult};
use super::host::ClientAddress;
use super::site::Branding;
use crate::app::admin::agents::{NotAnNpn, Npn};
use crate::app::admin::{acting, agents, outbox};
use crate::app::audit::Action;
use crate::http::session::{self, LiveSession, SessionState};
use crate::http::state::AppState;
use crate::rules::Status;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(rules_status))
        .routes(routes!(users_by_npn))
        .routes(routes!(fabricate_agent))
        .routes(routes!(unfabricate_agent))
        .routes(routes!(agent_list))
        .routes(routes!(branding_by_npn))
        .routes(routes!(outbox_messages))
}

pub const AGENT_NOT_FOUND: &str = "Agent not found";

pub(crate) fn bearer_is_operator(app: &AppState, headers: &HeaderMap) -> bool {
    let sent = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "));
    match (&app.config.admin_token, sent) {
        (Some(token), Some(sent)) if token.len() >= crate::platform::config::OPERATOR_TOKEN_MIN => {
            crate::http::session::constant_time_eq(token.as_bytes(), sent.as_bytes())
        }
        _ => false,
    }
}

/// The serving set's status and the server's clock as it answered (a demonstration date or a
/// moved clock shows here, so an analyst schedules against the time the server keeps).
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = RulesStatusNow)]
pub struct StatusNow {
    #[serde(flatten)]
    pub status: Status,
    #[serde(with = "time::serde::rfc3339")]
    pub now: OffsetDateTime,
}

#[utoipa::path(get, path = "/api/admin/rules/status", tag = "admin",
    responses((status = 200, description = "The rules serving now, the problems of the newest files and the server's clock", body = StatusNow),
              (status = 403, description = "Neither an admin nor an operator")))]
async fn rules_status(
    State(app): State<AppState>,
    headers: HeaderMap,
    state: SessionState,
) -> ApiResult<Json<StatusNow>> {
    let admin = match state.live() {
        Some(s) => CurrentUser::of(&app, s)
            .await?
            .is_some_and(|u| u.user.works_on_rules()),
        None => false,
    };
    if !admin && !bearer_is_operator(&app, &headers) {
        return Err(ApiError::Forbidden);
    }
    Ok(Json(StatusNow {
        status: (*app.rules.status()).clone(),
        now: app.clock.now(),
    }))
}

/// Spec part 1, section 3 "Agent's user list".
#[derive(Debug, Serialize, ToSchema)]
pub struct AgentUser {
    pub id: Uuid,
    pub first_name: String,
    pub last_name: String,
    pub email: String,
}

/// An NPN from a path: too long is a bad request (the input takes 10 characters); anything else
/// that is not an NPN names no agent.
fn parse_npn(npn: &str) -> ApiResult<Npn> {
    npn.parse().map_err(|e| match e {
        NotAnNpn::TooLong => ApiError::BadRequest(e.to_string()),
        NotAnNpn::NotDigits => ApiError::NotFound(AGENT_NOT_FOUND.into()),
    })
}

#[utoipa::path(get, path = "/api/admin/getUsersByNPN/{npn}", tag = "admin",
    params(("npn" = String, Path, description = "The agent's NPN (at most 10 characters)")),
    responses(
        (status = 200, body = Vec<AgentUser>, description = "The agent's users (empty when it has none)"),
        (status = 400, description = "The NPN is longer than 10 characters"),
        (status = 403, description = "Not an admin"),
        (status = 404, description = "\"Agent not found\"")))]
async fn users_by_npn(
    State(app): State<AppState>,
    current: CurrentUser,
    Path(npn): Path<String>,
) -> ApiResult<Json<Vec<AgentUser>>> {
    current.require_admin()?;
    let npn = parse_npn(&npn)?;
    let list = agents::users_of(&app.pool, &npn)
        .await?
        .ok_or_else(|| ApiError::NotFound(AGENT_NOT_FOUND.into()))?
        .into_iter()
        .map(|u| AgentUser {
            id: u.id,
            first_name: u.first_name,
            last_name: u.last_name,
            email: u.email,
        })
        .collect();
    Ok(Json(list))
}

#[utoipa::path(post, path = "/api/admin/fabricateAgent/{userId}", tag = "admin",
    params(("userId" = Uuid, Path, description = "An agent user's id (from getUsersByNPN)")),
    responses(
        (status = 200, body = super::accounts::LoggedIn, description = "The admin now acts as \
            that agent user: a new session (new cookie, new CSRF token) replaces the admin's. \
            A POST under the CSRF guard (the spec's GET changed state)."),
        (status = 403, description = "Not an admin (or already acting as an agent); or \
            `{\"second_factor\": \"required\"}`: the admin's second factor was not proved in \
            the last 15 minutes (`/api/user/second-factor/verify`, then call again)"),
        (status = 404, description = "No such agent user"),
        (status = 419, description = "No `X-CSRF-Token` header with the session's token")))]
async fn fabricate_agent(
    State(app): State<AppState>,
    current: CurrentUser,
    headers: HeaderMap,
    ClientAddress(address): ClientAddress,
    Path(user_id): Path<String>,
) -> ApiResult<Response> {
    current.require_admin()?;
    let not_found = || ApiError::NotFound("User not found".into());
    let target_id: Uuid = user_id.parse().map_err(|_| not_found())?;
    let target = agents::agent_user(&app.pool, target_id)
        .await?
        .ok_or_else(not_found)?;
    let admin = current.user.id;
    // Acting as an agent reaches every one of the agent's customers: the admin's second factor
    // must have been proved within the last 15 minutes (403 `second_factor` otherwise; the web
    // asks for a code and tries again).
    let proved_at = super::second_factor::recent_factor(&app, &current).await?;
    let (new, cookie) = session::replace(
        &app,
        Some(&current.session),
        Some(target.id),
        Some(admin),
        Some(proved_at),
        &headers,
    )
    .await?;
    record(
        &app,
        Action::Impersonate,
        Some(admin),
        Some(target.id),
        address,
    )
    .await?;
    Ok(logged_in(&new, cookie, target.agent_subdomain.clone()))
}

#[utoipa::path(post, path = "/api/unFabricateAgent", tag = "admin",
    responses(
        (status = 200, body = super::accounts::LoggedIn, description = "Back to the admin's own \
            account: a new session replaces the impersonating one. A POST under the CSRF guard \
            (the spec's GET changed state)."),
        (status = 403, description = "The session is not an admin acting as an agent"),
        (status = 419, description = "No `X-CSRF-Token` header with the session's token")))]
async fn unfabricate_agent(
    State(app): State<AppState>,
    session: LiveSession,
    headers: HeaderMap,
    ClientAddress(address): ClientAddress,
) -> ApiResult<Response> {
    let (Some(admin_id), Some(agent_user)) = (session.impersonator_id, session.user_id) else {
        return Err(ApiError::Forbidden);
    };
    // The admin's own session again, with the proof the impersonation began with.
    let (admin, proved_at) = acting::switching_back(&app.pool, admin_id, &session.id_hash)
        .await?
        .ok_or(ApiError::Forbidden)?;
    let (new, cookie) = session::replace(
        &app,
        Some(&session),
        Some(admin.id),
        None,
        proved_at,
        &headers,
    )
    .await?;
    record(
        &app,
        Action::ImpersonateEnd,
        Some(admin.id),
        Some(agent_user),
        address,
    )
    .await?;
    Ok(logged_in(&new, cookie, admin.agent_subdomain.clone()))
}

/// An agent in the admins' list.
#[derive(Debug, Serialize, ToSchema)]
pub struct AgentListItem {
    pub id: Uuid,
    #[schema(value_type = String)]
    pub npn: Npn,
    /// The agent's name split at its last space (Manage Messages' Name column).
    pub first_name: String,
    pub last_name: String,
    pub email: String,
    pub agent_name: String,
    pub agency_name: String,
    pub subdomains: Vec<String>,
}

#[utoipa::path(get, path = "/api/admin/agentList", tag = "admin",
    responses((status = 200, body = Vec<AgentListItem>), (status = 403, description = "Not an admin")))]
async fn agent_list(
    State(app): State<AppState>,
    current: CurrentUser,
) -> ApiResult<Json<Vec<AgentListItem>>> {
    current.require_admin()?;
    let list = agents::list(&app.pool)
        .await?
        .into_iter()
        .map(|l| AgentListItem {
            id: l.agent.id,
            npn: l.agent.npn,
            first_name: l.first_name,
            last_name: l.last_name,
            email: l.agent.email,
            agent_name: l.agent.agent_name,
            agency_name: l.agent.agency_name,
            subdomains: l.agent.subdomains,
        })
        .collect();
    Ok(Json(list))
}

#[utoipa::path(get, path = "/api/agent_branding_number/{npn}", tag = "branding",
    params(("npn" = String, Path, description = "The agent's NPN (at most 10 characters)")),
    responses(
        (status = 200, body = Branding),
        (status = 403, description = "Not an admin, an admin acting as an agent, or that agent's user"),
        (status = 404, description = "\"Agent not found\"")))]
async fn branding_by_npn(
    State(app): State<AppState>,
    current: CurrentUser,
    Path(npn): Path<String>,
) -> ApiResult<Json<Branding>> {
    let npn = parse_npn(&npn)?;
    let agent = agents::by_npn(&app.pool, &npn).await?;
    let allowed = current.user.is_admin()
        || current.impersonator_id().is_some()
        || agent.as_ref().is_some_and(|a| current.may_act_for(a.id));
    if !allowed {
        return Err(ApiError::Forbidden);
    }
    let agent = agent.ok_or_else(|| ApiError::NotFound(AGENT_NOT_FOUND.into()))?;
    Ok(Json(Branding::from(&agent)))
}

/// A message in the outbox (the demo's mail viewer), its link hidden.
#[derive(Debug, Serialize, ToSchema)]
pub struct OutboxMessage {
    pub id: i64,
    pub to_address: String,
    pub subject: String,
    /// The text with its single-use link's token hidden (only the recipient's copy has it: the
    /// operator reads it whole with `enrollflow mail`); empty once sent through SMTP.
    pub body: String,
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    #[serde(with = "time::serde::rfc3339::option")]
    pub sent_at: Option<OffsetDateTime>,
    pub attempts: i32,
}

#[utoipa::path(get, path = "/api/admin/outbox", tag = "admin",
    responses(
        (status = 200, body = Vec<OutboxMessage>, description = "The newest 100 e-mails, newest \
            first, with the tokens of their reset and invitation links hidden"),
        (status = 403, description = "Not an admin")))]
async fn outbox_messages(
    State(app): State<AppState>,
    current: CurrentUser,
) -> ApiResult<Json<Vec<OutboxMessage>>> {
    current.require_admin()?;
    let list = outbox::newest(&app.pool, 100)
        .await?
        .into_iter()
        .map(|m| OutboxMessage {
            id: m.id,
            to_address: m.to_address,
            subject: m.subject,
            body: m.body,
            created_at: m.created_at,
            sent_at: m.sent_at,
            attempts: m.attempts,
        })
        .collect();
    Ok(Json(list))
}
