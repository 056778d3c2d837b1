//! "Signed-in devices" (account menu): the person's sessions, with sign-out of one or of all the
//! others; and an admin disabling or enabling an account.
//!
//! - The person is whoever is at the keyboard: while an admin acts as an agent, the admin (their
//!   own sessions and those in which they act as an agent), never the agent's.
//! - A session is named by the hex of its id's SHA-256 (what the table stores): it cannot be
//!   turned back into a cookie.
//! - Disabling an account deletes its sessions in the same transaction; the table's trigger tells
//!   every instance to drop them from its cache, and every request re-reads the user, so a
//!   disabled account is refused at once everywhere.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use uuid::Uuid;

use super::accounts::JsonBody;
use super::auth::CurrentUser;
use super::error::{ApiError, ApiResult};
use super::host::ClientAddress;
use crate::app::accounts::disable::{self, ByAdmin, DisableError};
use crate::app::accounts::sessions::{self as store, Cutoffs};
use crate::app::accounts::sign_in::describe_browser;
use crate::http::session;
use crate::http::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list, end_others))
        .routes(routes!(end_one))
        .routes(routes!(set_disabled))
}

/// One signed-in device.
#[derive(Debug, Serialize, ToSchema)]
pub struct Device {
    /// Names the session for `DELETE /api/user/sessions/{id}` (not a cookie).
    pub id: String,
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    #[serde(with = "time::serde::rfc3339")]
    pub last_seen_at: OffsetDateTime,
    /// The browser and system, as far as its User-Agent tells ("Chrome on Windows").
    pub browser: String,
    /// The session this request came with.
    pub current: bool,
    /// An admin's session while acting as an agent.
    pub acting_as_agent: bool,
}

#[utoipa::path(get, path = "/api/user/sessions", tag = "accounts",
    responses(
        (status = 200, body = Vec<Device>, description = "The person's live sessions, newest \
            activity first (an admin's include those in which they act as an agent)"),
        (status = 403, description = "Not logged in")))]
async fn list(State(app): State<AppState>, current: CurrentUser) -> ApiResult<Json<Vec<Device>>> {
    let now = app.clock.now();
    let cutoffs = Cutoffs {
        idle: now - app.config.idle_timeout(),
        created: now - app.config.session_lifetime(),
    };
    let rows = store::devices(&app.pool, current.actor_id(), cutoffs).await?;
    Ok(Json(
        rows.into_iter()
            .map(|r| Device {
                current: r.id_hash == current.session.id_hash,
                id: hex::encode(&r.id_hash),
                created_at: r.created_at,
                last_seen_at: r.last_seen_at,
                browser: describe_browser(r.user_agent.as_deref()),
                acting_as_agent: r.impersonating,
            })
            .collect(),
    ))
}

#[utoipa::path(delete, path = "/api/user/sessions/{id}", tag = "accounts",
    params(("id" = String, Path, description = "A session's id from the list")),
    responses(
        (status = 204, description = "That session is ended (the current one: the cookie is \
            cleared too)"),
        (status = 404, description = "No such session of the person's")))]
async fn end_one(
    State(app): State<AppState>,
    current: CurrentUser,
    ClientAddress(address): ClientAddress,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    let not_found = || ApiError::NotFound("No such session.".into());
    let hash: [u8; 32] = hex::decode(&id)
        .ok()
        .and_then(|h| h.try_into().ok())
        .ok_or_else(not_found)?;
    let (now, person) = (app.clock.now(), current.actor_id());
    if hash == current.session.id_hash {
        let cookie = session::end(&app, &current.session).await?;
        store::record_ended(&app.pool, now, person, address).await?;
        return Ok((StatusCode::NO_CONTENT, [(header::SET_COOKIE, cookie)]).into_response());
    }
    if !store::end_device(&app.pool, &app.caches, now, person, &hash, address).await? {
        return Err(not_found());
    }
    Ok(StatusCode::NO_CONTENT.into_response())
}

#[utoipa::path(delete, path = "/api/user/sessions", tag = "accounts",
    responses((status = 204, description = "Every other session of the person is ended; this one \
        stays")))]
async fn end_others(
    State(app): State<AppState>,
    current: CurrentUser,
    ClientAddress(address): ClientAddress,
) -> ApiResult<StatusCode> {
    store::end_other_devices(
        &app.pool,
        &app.caches,
        app.clock.now(),
        current.actor_id(),
        &current.session.id_hash,
        address,
    )
    .await?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(default)]
pub struct DisabledRequest {
    pub disabled: bool,
}

/// An account's state, as the admins' Accounts page shows it.
#[derive(Debug, Serialize, ToSchema)]
pub struct AccountState {
    pub id: Uuid,
    pub disabled: bool,
}

#[utoipa::path(put, path = "/api/admin/users/{userId}/disabled", tag = "admin",
    request_body = DisabledRequest,
    params(("userId" = Uuid, Path, description = "The account's id")),
    responses(
        (status = 200, body = AccountState, description = "Disabled (it cannot log in; every \
            session of it, or of an admin acting as it, ends at once on every instance) or \
            enabled again"),
        (status = 400, description = "An admin cannot disable their own account"),
        (status = 403, description = "Not an admin; or `{\"second_factor\": \"required\"}`: \
            no code in the last 15 minutes"),
        (status = 404, description = "No such account"),
        (status = 409, description = "It would leave fewer than two active administrators with \
            two-step verification")))]
async fn set_disabled(
    State(app): State<AppState>,
    current: CurrentUser,
    ClientAddress(address): ClientAddress,
    Path(user_id): Path<String>,
    JsonBody(req): JsonBody<DisabledRequest>,
) -> ApiResult<Json<AccountState>> {
    current.require_admin()?;
    let id: Uuid = user_id
        .parse()
        .map_err(|_| ApiError::NotFound(DisableError::NotFound.to_string()))?;
    // Said before a code is asked for: no code makes it possible.
    if id == current.user.id {
        return Err(ApiError::BadRequest(DisableError::OwnAccount.to_string()));
    }
    super::second_factor::recent_factor(&app, &current).await?;
    let name = current.user.full_name();
    let by = ByAdmin {
        id: current.user.id,
        name: &name,
        address,
    };
    disable::set_disabled(
        &app.pool,
        &app.caches,
        app.clock.now(),
        &by,
        id,
        req.disabled,
    )
    .await
    .map_err(|e| match e {
        DisableError::NotFound => ApiError::NotFound(e.to_string()),
        DisableError::OwnAccount => ApiError::BadRequest(e.to_string()),
        DisableError::LastAdmins => ApiError::Conflict(e.to_string()),
        DisableError::Failed(e) => e.into(),
    })?;
    Ok(Json(AccountState {
        id,
        disabled: req.disabled,
    }))
}
