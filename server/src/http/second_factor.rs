//! The second factor: an authenticator app (TOTP) and ten recovery codes.
//!
//! - Required for admins, offered to agents; an admin can require it of every agent.
//! - Login: the password step answers `second_factor: "code"` (or `"setup"` for an account that
//!   must have one and has none yet) and remembers, on the caller's session, whose password it
//!   was for five minutes; `POST /api/login/second-factor` with the code (or a recovery code)
//!   then logs in. Setting up during login shows the QR code first.
//! - A code is accepted once; wrong codes are throttled like passwords (5 per 5 minutes per
//!   account, 20 per address), apart from the password's count.
//! - Impersonating an agent needs the admin's second factor within the last 15 minutes
//!   (`POST /api/user/second-factor/verify` renews it).
//! - While an admin acts as an agent, the agent's factor cannot be seen or changed.
//! - Every setup, removal, failure, recovery-code use and reset is audited.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use uuid::Uuid;

use super::accounts::{Errors, JsonBody, record, text};
use super::auth::CurrentUser;
use super::error::{ApiError, ApiResult};
use super::host::ClientAddress;
use crate::accounts::second_factor::Enrolment;
use crate::app::accounts::UserRow;
use crate::app::accounts::two_step::{self, Code, Ctx, FactorError};
use crate::app::audit::Action;
use crate::http::session::{self, LiveSession};
use crate::http::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(login_code))
        .routes(routes!(login_setup))
        .routes(routes!(status, enable, disable))
        .routes(routes!(setup))
        .routes(routes!(renew_recovery_codes))
        .routes(routes!(verify))
        .routes(routes!(get_settings, put_settings))
        .routes(routes!(reset_for_user))
}

pub use two_step::{
    CODE_REQUIRED, CURRENT_CODE_REQUIRED, FIRST_LOCK, LOCK_AFTER, LOG_IN_AGAIN, MUST_KEEP,
    NO_SETUP, WRONG_CODE, WRONG_RECOVERY_CODE,
};
pub const NOT_WHILE_IMPERSONATING: &str =
    "Switch back to your own account to manage two-step verification.";

/// A code from the authenticator app, or one of the recovery codes.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(default)]
pub struct CodeRequest {
    /// The 6 digits the app shows (spaces ignored).
    pub code: Option<String>,
    /// One of the ten recovery codes instead (dashes, spaces and case ignored).
    pub recovery_code: Option<String>,
}

/// Turning the second factor on (or replacing the app): the password and the new app's code.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(default)]
pub struct EnableRequest {
    pub password: Option<String>,
    /// The first code of the app being set up.
    pub code: Option<String>,
    /// When a factor is on already (replacing it): a code from the current app, or a recovery
    /// code. The password alone never replaces a factor.
    pub current_code: Option<String>,
}

/// Turning the second factor off: the password.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(default)]
pub struct DisableRequest {
    pub password: Option<String>,
    /// A code from the current app, or a recovery code: the password alone never turns it off.
    pub current_code: Option<String>,
}

/// New recovery codes, shown once.
#[derive(Debug, Serialize, ToSchema)]
pub struct RecoveryCodes {
    pub recovery_codes: Vec<String>,
}

/// The caller's second factor.
#[derive(Debug, Serialize, ToSchema)]
pub struct SecondFactorStatus {
    /// An authenticator app is set up.
    pub enabled: bool,
    /// The account must have one (admins; agents when an admin requires it).
    pub required: bool,
    /// Recovery codes not used yet.
    pub recovery_codes_left: i64,
}

/// Settings only admins change.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct SecuritySettings {
    /// Every agent must use two-step verification (admins always must).
    pub second_factor_required_for_agents: bool,
}

/// The two-step use cases' handles for a request from `address`.
fn ctx(app: &AppState, address: Option<std::net::IpAddr>) -> Ctx<'_> {
    Ctx {
        pool: &app.pool,
        caches: &app.caches,
        cipher: &app.cipher,
        clock: app.clock.as_ref(),
        address,
    }
}

/// A request's code, or recovery code.
fn code_of(req: &CodeRequest) -> Code<'_> {
    Code {
        code: text(&req.code),
        recovery_code: text(&req.recovery_code),
    }
}

impl From<FactorError> for ApiError {
    fn from(e: FactorError) -> Self {
        match e {
            FactorError::Refused { field, message } => Errors::only(field, message),
            FactorError::TooMany { retry_after } => ApiError::TooManyRequests(retry_after),
            FactorError::NotFound => ApiError::NotFound(e.to_string()),
            FactorError::OwnAccount => ApiError::Forbidden,
            FactorError::LastAdmins => ApiError::Conflict(e.to_string()),
            FactorError::Failed(e) => e.into(),
        }
    }
}

#[utoipa::path(post, path = "/api/login/second-factor", tag = "accounts",
    request_body = CodeRequest,
    responses(
        (status = 200, body = super::accounts::LoggedIn, description = "Logged in (a new session \
            replaces the caller's). When this login set up the second factor, \
            `recovery_codes` holds the ten recovery codes, shown once."),
        (status = 422, description = "`errors.code` (wrong, used, or the password step is more \
            than 5 minutes old) or `errors.recovery_code`"),
        (status = 429, description = "Too many wrong codes for this account or from this \
            address in the last 5 minutes")))]
async fn login_code(
    State(app): State<AppState>,
    old: LiveSession,
    ClientAddress(address): ClientAddress,
    headers: HeaderMap,
    JsonBody(req): JsonBody<CodeRequest>,
) -> ApiResult<Response> {
    let ctx = ctx(&app, address);
    let user = ctx.challenged_user(&old.id_hash).await?;
    let recovery_codes = ctx.log_in(&user, code_of(&req)).await?;
    let now = app.clock.now();
    let (session, cookie) =
        session::replace(&app, Some(&old), Some(user.id), None, Some(now), &headers).await?;
    record(&app, Action::Login, Some(user.id), Some(user.id), address).await?;
    let mut response = super::accounts::logged_in_with_codes(
        &session,
        cookie,
        user.agent_subdomain.clone(),
        recovery_codes,
    );
    super::sign_in::remember_device(&app, &headers, &user, address, &mut response).await?;
    Ok(response)
}

#[utoipa::path(post, path = "/api/login/second-factor/setup", tag = "accounts",
    responses(
        (status = 200, body = Enrolment, description = "A new secret for an account that must \
            set up two-step verification at this login: its QR code and text. The login \
            finishes with its first code at `/api/login/second-factor`."),
        (status = 422, description = "`errors.code`: the password step is more than 5 minutes old, \
            or the account already has a second factor")))]
async fn login_setup(State(app): State<AppState>, old: LiveSession) -> ApiResult<Json<Enrolment>> {
    let ctx = ctx(&app, None);
    let user = ctx.challenged_user(&old.id_hash).await?;
    Ok(Json(ctx.log_in_setup(&user).await?))
}

/// The person managing their own factor: refused while an admin acts as an agent.
fn own(current: &CurrentUser) -> ApiResult<&UserRow> {
    if current.impersonator_id().is_some() {
        return Err(ApiError::BadRequest(NOT_WHILE_IMPERSONATING.into()));
    }
    Ok(&current.user)
}

#[utoipa::path(get, path = "/api/user/second-factor", tag = "accounts",
    responses((status = 200, body = SecondFactorStatus), (status = 403, description = "Not logged in")))]
async fn status(
    State(app): State<AppState>,
    current: CurrentUser,
) -> ApiResult<Json<SecondFactorStatus>> {
    let user = own(&current)?;
    Ok(Json(SecondFactorStatus {
        enabled: user.second_factor,
        required: user.second_factor_required,
        recovery_codes_left: two_step::recovery_codes_left(&app.pool, user.id).await?,
    }))
}

#[utoipa::path(post, path = "/api/user/second-factor/setup", tag = "accounts",
    responses(
        (status = 200, body = Enrolment, description = "A new secret to scan (it replaces the \
            app only once confirmed with `PUT /api/user/second-factor`)"),
        (status = 400, description = "While acting as an agent"),
        (status = 403, description = "Not logged in")))]
async fn setup(State(app): State<AppState>, current: CurrentUser) -> ApiResult<Json<Enrolment>> {
    let user = own(&current)?;
    Ok(Json(ctx(&app, None).start_setup(user).await?))
}

#[utoipa::path(put, path = "/api/user/second-factor", tag = "accounts",
    request_body = EnableRequest,
    responses(
        (status = 200, body = RecoveryCodes, description = "The scanned app is now the second \
            factor (replacing any earlier one); ten new recovery codes, shown once"),
        (status = 422, description = "`errors.password`, `errors.code`, and when a factor is on \
            already `errors.current_code` (a code from the current app or a recovery code)"),
        (status = 429, description = "Too many wrong passwords or codes")))]
async fn enable(
    State(app): State<AppState>,
    current: CurrentUser,
    ClientAddress(address): ClientAddress,
    JsonBody(req): JsonBody<EnableRequest>,
) -> ApiResult<Json<RecoveryCodes>> {
    let user = own(&current)?;
    let recovery_codes = ctx(&app, address)
        .enable(
            user,
            &current.session.id_hash,
            text(&req.password),
            text(&req.current_code),
            text(&req.code),
        )
        .await?;
    Ok(Json(RecoveryCodes { recovery_codes }))
}

#[utoipa::path(delete, path = "/api/user/second-factor", tag = "accounts",
    request_body = DisableRequest,
    responses(
        (status = 204, description = "Two-step verification is off; the recovery codes are void"),
        (status = 422, description = "`errors.password`, `errors.current_code`; or the account must keep it \
            (admins; agents while required)"),
        (status = 429, description = "Too many wrong passwords")))]
async fn disable(
    State(app): State<AppState>,
    current: CurrentUser,
    ClientAddress(address): ClientAddress,
    JsonBody(req): JsonBody<DisableRequest>,
) -> ApiResult<StatusCode> {
    let user = own(&current)?;
    ctx(&app, address)
        .disable(user, text(&req.password), text(&req.current_code))
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

#[utoipa::path(post, path = "/api/user/second-factor/recovery-codes", tag = "accounts",
    request_body = CodeRequest,
    responses(
        (status = 200, body = RecoveryCodes, description = "Ten new recovery codes; the old ones \
            no longer work"),
        (status = 422, description = "`errors.code`"),
        (status = 429, description = "Too many wrong codes")))]
async fn renew_recovery_codes(
    State(app): State<AppState>,
    current: CurrentUser,
    ClientAddress(address): ClientAddress,
    JsonBody(req): JsonBody<CodeRequest>,
) -> ApiResult<Json<RecoveryCodes>> {
    let user = own(&current)?;
    let recovery_codes = ctx(&app, address)
        .renew_recovery_codes(user, text(&req.code))
        .await?;
    Ok(Json(RecoveryCodes { recovery_codes }))
}

#[utoipa::path(post, path = "/api/user/second-factor/verify", tag = "accounts",
    request_body = CodeRequest,
    responses(
        (status = 204, description = "The second factor is proved for this session now (acting \
            as an agent is allowed for the next 15 minutes)"),
        (status = 422, description = "`errors.code` or `errors.recovery_code`"),
        (status = 429, description = "Too many wrong codes")))]
async fn verify(
    State(app): State<AppState>,
    current: CurrentUser,
    ClientAddress(address): ClientAddress,
    JsonBody(req): JsonBody<CodeRequest>,
) -> ApiResult<StatusCode> {
    let user = own(&current)?;
    ctx(&app, address)
        .verify(user, &current.session.id_hash, code_of(&req))
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// An admin's powerful action (acting as an agent, disabling an account, resetting another's second
/// factor, the agents' two-step requirement) needs the admin's second factor proved within the
/// last 15 minutes on this session: 403 `second_factor` otherwise (the web app asks for a code and
/// tries again). Answers when it was proved.
pub(crate) async fn recent_factor(
    app: &AppState,
    current: &CurrentUser,
) -> ApiResult<OffsetDateTime> {
    let now = app.clock.now();
    two_step::recently_proved(&app.pool, &current.session.id_hash, now)
        .await?
        .ok_or(ApiError::SecondFactorNeeded)
}

#[utoipa::path(get, path = "/api/admin/security-settings", tag = "admin",
    responses((status = 200, body = SecuritySettings), (status = 403, description = "Not an admin")))]
async fn get_settings(
    State(app): State<AppState>,
    current: CurrentUser,
) -> ApiResult<Json<SecuritySettings>> {
    current.require_admin()?;
    Ok(Json(SecuritySettings {
        second_factor_required_for_agents: two_step::required_for_agents(&app.pool).await?,
    }))
}

#[utoipa::path(put, path = "/api/admin/security-settings", tag = "admin",
    request_body = SecuritySettings,
    responses(
        (status = 200, body = SecuritySettings, description = "Saved. Requiring two-step \
            verification of agents ends the sessions of agents who have not used it in them: \
            they set it up at their next login."),
        (status = 403, description = "Not an admin; or `{\"second_factor\": \"required\"}`: \
            no code in the last 15 minutes")))]
async fn put_settings(
    State(app): State<AppState>,
    current: CurrentUser,
    ClientAddress(address): ClientAddress,
    Json(req): Json<SecuritySettings>,
) -> ApiResult<Json<SecuritySettings>> {
    current.require_admin()?;
    recent_factor(&app, &current).await?;
    ctx(&app, address)
        .set_required_for_agents(&current.user, req.second_factor_required_for_agents)
        .await?;
    Ok(Json(req))
}

#[utoipa::path(delete, path = "/api/admin/users/{userId}/second-factor", tag = "admin",
    params(("userId" = Uuid, Path, description = "The user who lost their app and codes")),
    responses(
        (status = 204, description = "The user's second factor and recovery codes are removed \
            and their sessions ended; they set it up again at their next login if required"),
        (status = 403, description = "Not an admin, or the admin's own account; or \
            `{\"second_factor\": \"required\"}`: no code in the last 15 minutes"),
        (status = 404, description = "No such user"),
        (status = 409, description = "It would leave fewer than two active administrators \
            with two-step verification")))]
async fn reset_for_user(
    State(app): State<AppState>,
    current: CurrentUser,
    ClientAddress(address): ClientAddress,
    Path(user_id): Path<String>,
) -> ApiResult<StatusCode> {
    current.require_admin()?;
    let not_found = || ApiError::NotFound(FactorError::NotFound.to_string());
    let id: Uuid = user_id.parse().map_err(|_| not_found())?;
    let ctx = ctx(&app, address);
    let user = ctx.account_to_reset(&current.user, id).await?;
    recent_factor(&app, &current).await?;
    ctx.reset_for(&current.user, &user).await?;
    Ok(StatusCode::NO_CONTENT)
}
