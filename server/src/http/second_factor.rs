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

use super::accounts::{Errors, JsonBody, WRONG_PASSWORD, password_guess, record, text};
use super::auth::CurrentUser;
use super::error::{ApiError, ApiResult};
use super::host::ClientAddress;
use crate::account_notices;
use crate::accounts;
use crate::app::accounts::disable;
use crate::db::audit::Action;
use crate::db::second_factor as store;
use crate::db::{login_failures, sessions, users};
use crate::http::session::{self, LiveSession};
use crate::http::state::AppState;
use crate::second_factor::{self as factor, Enrolment};

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

pub const CODE_REQUIRED: &str = "Please enter the 6-digit code from your authenticator app.";
pub const WRONG_CODE: &str =
    "That code is not right, or it was used already. Wait for the next code and try again.";
pub const WRONG_RECOVERY_CODE: &str = "That recovery code is not right, or it was used already.";
pub const LOG_IN_AGAIN: &str =
    "Please log in again: it has been more than 5 minutes since you entered your password.";
pub const NO_SETUP: &str = "Please start again: scan the new QR code, then enter its code.";
pub const MUST_KEEP: &str =
    "Your account must keep two-step verification: you can only replace your authenticator app.";
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

fn throttled() -> ApiError {
    ApiError::TooManyRequests(accounts::retry_after_secs())
}

/// Counts an attempt at the user's second factor; 429 past the limit.
async fn attempt(
    app: &AppState,
    user: &users::UserRow,
    address: Option<std::net::IpAddr>,
) -> ApiResult<()> {
    let key = factor::throttle_key(user.id);
    if accounts::attempt_login(&app.pool, &key, address, app.clock.now()).await? {
        return Err(throttled());
    }
    Ok(())
}

async fn attempt_succeeded(app: &AppState, user: &users::UserRow) -> ApiResult<()> {
    login_failures::clear_account(&app.pool, &factor::throttle_key(user.id)).await?;
    store::clear_failures(&app.pool, user.id).await?;
    Ok(())
}

/// Wrong codes in a row that lock the factor.
pub const LOCK_AFTER: i32 = 5;
/// The first lock; each one after lasts twice the one before, up to a day.
pub const FIRST_LOCK: time::Duration = time::Duration::minutes(15);
const LONGEST_LOCK: time::Duration = time::Duration::hours(24);

/// 429 while the user's factor is locked for wrong codes, with the seconds left.
async fn unlocked(app: &AppState, user: &users::UserRow) -> ApiResult<()> {
    let now = app.clock.now();
    match store::locked_until(&app.pool, user.id, now).await? {
        Some(until) => Err(ApiError::TooManyRequests(
            u64::try_from((until - now).whole_seconds().max(1)).unwrap_or(1),
        )),
        None => Ok(()),
    }
}

/// A wrong code: audited and counted; the fifth in a row locks the factor (the owner is mailed).
/// The refusal to answer under `key`.
async fn wrong_code(
    app: &AppState,
    user: &users::UserRow,
    address: Option<std::net::IpAddr>,
    key: &str,
    message: &str,
) -> ApiError {
    let counted = async {
        record(
            app,
            Action::SecondFactorFailed,
            None,
            Some(user.id),
            address,
        )
        .await?;
        let now = app.clock.now();
        if let Some(until) = store::record_failure(
            &app.pool,
            user.id,
            now,
            LOCK_AFTER,
            FIRST_LOCK,
            LONGEST_LOCK,
        )
        .await?
        {
            let minutes = (until - now).whole_minutes();
            notify(
                app,
                user,
                "Two-step verification locked",
                format!(
                    "{LOCK_AFTER} wrong codes in a row were given for your account, so codes are \
                     refused for the next {minutes} minutes (longer each time it happens again). If \
                     this was not you, your password is known to someone else: change it."
                ),
            )
            .await?;
        }
        ApiResult::Ok(())
    };
    match counted.await {
        Ok(()) => Errors::only(key, message),
        Err(e) => e,
    }
}

/// Mails the owner of the account what was done to its second factor.
async fn notify(
    app: &AppState,
    user: &users::UserRow,
    headline: &str,
    text: String,
) -> ApiResult<()> {
    Ok(account_notices::tell_now(
        &app.pool,
        user,
        &account_notices::Notice { headline, text },
        app.clock.now(),
    )
    .await?)
}

fn decrypt(app: &AppState, stored: Option<String>) -> ApiResult<Option<String>> {
    Ok(match stored {
        Some(s) => Some(app.cipher.decrypt(&s)?),
        None => None,
    })
}

/// Checks a code (or recovery code) against the user's factor, using it up. Throttled; a wrong
/// one is audited and answered 422 under `code` or `recovery_code`.
async fn prove(
    app: &AppState,
    user: &users::UserRow,
    req: &CodeRequest,
    address: Option<std::net::IpAddr>,
) -> ApiResult<()> {
    prove_under(app, user, req, address, ["code", "recovery_code"]).await
}

/// The current factor proved by `typed`, a code from the app (six digits) or a recovery code,
/// before the factor is replaced or turned off: refusals under `current_code`.
async fn prove_current(
    app: &AppState,
    user: &users::UserRow,
    typed: &str,
    address: Option<std::net::IpAddr>,
) -> ApiResult<()> {
    let typed = typed.trim();
    if typed.is_empty() {
        return Err(Errors::only("current_code", CURRENT_CODE_REQUIRED));
    }
    let is_app_code = typed.len() == 6 && typed.bytes().all(|b| b.is_ascii_digit());
    let req = CodeRequest {
        code: is_app_code.then(|| typed.to_string()),
        recovery_code: (!is_app_code).then(|| typed.to_string()),
    };
    prove_under(app, user, &req, address, ["current_code", "current_code"]).await
}

/// What replacing or turning off the factor asks for besides the password.
pub const CURRENT_CODE_REQUIRED: &str =
    "Enter a code from your current authenticator app, or one of your recovery codes.";

async fn prove_under(
    app: &AppState,
    user: &users::UserRow,
    req: &CodeRequest,
    address: Option<std::net::IpAddr>,
    [code_key, recovery_key]: [&str; 2],
) -> ApiResult<()> {
    let code = text(&req.code).trim();
    let recovery = text(&req.recovery_code).trim();
    if code.is_empty() && recovery.is_empty() {
        return Err(Errors::only(code_key, CODE_REQUIRED));
    }
    unlocked(app, user).await?;
    attempt(app, user, address).await?;
    let secret = decrypt(app, store::stored(&app.pool, user.id).await?.secret)?
        .ok_or_else(|| Errors::only("code", WRONG_CODE))?;
    let now = app.clock.now();
    let (right, key, message) = if code.is_empty() {
        let right = match factor::recovery_hash(recovery) {
            Some(h) => store::use_recovery_code(&app.pool, user.id, &h, now).await?,
            None => false,
        };
        (right, recovery_key, WRONG_RECOVERY_CODE)
    } else {
        let right = match factor::matching_step(&secret, code, app.clock.real_now()) {
            Some(step) => store::use_step(&app.pool, user.id, step).await?,
            None => false,
        };
        (right, code_key, WRONG_CODE)
    };
    if !right {
        return Err(wrong_code(app, user, address, key, message).await);
    }
    if !recovery.is_empty() && code.is_empty() {
        record(
            app,
            Action::RecoveryCodeUsed,
            Some(user.id),
            Some(user.id),
            address,
        )
        .await?;
        let left = store::recovery_codes_left(&app.pool, user.id).await?;
        notify(
            app,
            user,
            "A recovery code was used",
            format!(
                "One of your recovery codes was used instead of a code from your authenticator \
                 app. It cannot be used again; {left} of your recovery codes are left."
            ),
        )
        .await?;
    }
    attempt_succeeded(app, user).await
}

/// A new secret for the user to scan, kept (encrypted) until a code confirms it.
async fn start_setup(app: &AppState, user: &users::UserRow) -> ApiResult<Enrolment> {
    let secret = factor::new_secret();
    store::set_pending(&app.pool, user.id, &app.cipher.encrypt(&secret)?).await?;
    Ok(factor::enrolment(&secret, &user.email)?)
}

/// Confirms the pending secret with its first code: it becomes the user's factor, with ten new
/// recovery codes (returned, to show once). Throttled like any code.
async fn finish_setup(
    app: &AppState,
    user: &users::UserRow,
    code: &str,
    address: Option<std::net::IpAddr>,
    now: OffsetDateTime,
) -> ApiResult<Vec<String>> {
    if code.trim().is_empty() {
        return Err(Errors::only("code", CODE_REQUIRED));
    }
    unlocked(app, user).await?;
    attempt(app, user, address).await?;
    let Some(pending) = decrypt(app, store::stored(&app.pool, user.id).await?.pending_secret)?
    else {
        return Err(Errors::only("code", NO_SETUP));
    };
    let Some(step) = factor::matching_step(&pending, code, app.clock.real_now()) else {
        return Err(wrong_code(app, user, address, "code", WRONG_CODE).await);
    };
    let codes = factor::new_recovery_codes();
    let hashes: Vec<[u8; 32]> = codes
        .iter()
        .filter_map(|c| factor::recovery_hash(c))
        .collect();
    let mut tx = app.pool.begin().await?;
    if !store::enable(&mut *tx, user.id, step, now).await? {
        return Err(Errors::only("code", NO_SETUP));
    }
    store::replace_recovery_codes(&mut tx, user.id, &hashes, now).await?;
    tx.commit().await?;
    attempt_succeeded(app, user).await?;
    record(
        app,
        Action::SecondFactorEnabled,
        Some(user.id),
        Some(user.id),
        address,
    )
    .await?;
    let (headline, text) = if user.second_factor {
        (
            "Your two-step verification app was replaced",
            "Codes for your account now come from a new authenticator app; the earlier app's \
             codes and your earlier recovery codes no longer work.",
        )
    } else {
        (
            "Two-step verification is on",
            "Logging in to your account now asks for a code from your authenticator app.",
        )
    };
    notify(app, user, headline, text.into()).await?;
    Ok(codes)
}

/// The user whose password this session gave in the last five minutes (the login's first step).
async fn challenged_user(app: &AppState, session: &session::Session) -> ApiResult<users::UserRow> {
    let since = app.clock.now() - factor::CHALLENGE_VALID_FOR;
    let user = match store::challenge(&app.pool, &session.id_hash, since).await? {
        Some(id) => users::by_id(&app.pool, id).await?.filter(|u| !u.disabled),
        None => None,
    };
    user.ok_or_else(|| Errors::only("code", LOG_IN_AGAIN))
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
    let user = challenged_user(&app, &old).await?;
    let now = app.clock.now();
    let recovery_codes = if user.second_factor {
        prove(&app, &user, &req, address).await?;
        Vec::new()
    } else {
        finish_setup(&app, &user, text(&req.code), address, now).await?
    };
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
    let user = challenged_user(&app, &old).await?;
    if user.second_factor {
        return Err(Errors::only("code", LOG_IN_AGAIN));
    }
    Ok(Json(start_setup(&app, &user).await?))
}

/// The person managing their own factor: refused while an admin acts as an agent.
fn own(current: &CurrentUser) -> ApiResult<&users::UserRow> {
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
        recovery_codes_left: store::recovery_codes_left(&app.pool, user.id).await?,
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
    Ok(Json(start_setup(&app, user).await?))
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
    if !password_guess(&app, user, text(&req.password).to_string(), address).await? {
        return Err(Errors::only("password", WRONG_PASSWORD));
    }
    if user.second_factor {
        prove_current(&app, user, text(&req.current_code), address).await?;
    }
    let now = app.clock.now();
    let recovery_codes = finish_setup(&app, user, text(&req.code), address, now).await?;
    store::set_session_proved_at(&app.pool, &current.session.id_hash, now).await?;
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
    if user.second_factor_required {
        return Err(Errors::only("password", MUST_KEEP));
    }
    if !password_guess(&app, user, text(&req.password).to_string(), address).await? {
        return Err(Errors::only("password", WRONG_PASSWORD));
    }
    prove_current(&app, user, text(&req.current_code), address).await?;
    let mut tx = app.pool.begin().await?;
    store::disable(&mut tx, user.id).await?;
    tx.commit().await?;
    record(
        &app,
        Action::SecondFactorDisabled,
        Some(user.id),
        Some(user.id),
        address,
    )
    .await?;
    notify(
        &app,
        user,
        "Two-step verification is off",
        "Logging in to your account no longer asks for a code from an authenticator app, and \
         your recovery codes no longer work."
            .into(),
    )
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
    // Only a code from the app: a recovery code cannot mint new ones.
    let req = CodeRequest {
        code: req.code,
        recovery_code: None,
    };
    prove(&app, user, &req, address).await?;
    let now = app.clock.now();
    let codes = factor::new_recovery_codes();
    let hashes: Vec<[u8; 32]> = codes
        .iter()
        .filter_map(|c| factor::recovery_hash(c))
        .collect();
    let mut tx = app.pool.begin().await?;
    store::replace_recovery_codes(&mut tx, user.id, &hashes, now).await?;
    tx.commit().await?;
    record(
        &app,
        Action::RecoveryCodesRenewed,
        Some(user.id),
        Some(user.id),
        address,
    )
    .await?;
    notify(
        &app,
        user,
        "New recovery codes",
        "Ten new recovery codes were made for your account; the earlier ones no longer work."
            .into(),
    )
    .await?;
    Ok(Json(RecoveryCodes {
        recovery_codes: codes,
    }))
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
    if !user.second_factor {
        return Err(Errors::only("code", NO_SETUP));
    }
    prove(&app, user, &req, address).await?;
    store::set_session_proved_at(&app.pool, &current.session.id_hash, app.clock.now()).await?;
    record(
        &app,
        Action::SecondFactorVerified,
        Some(user.id),
        Some(user.id),
        address,
    )
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
    let proved_at = store::session_proved_at(&app.pool, &current.session.id_hash).await?;
    let now = app.clock.now();
    match proved_at {
        Some(t) if t <= now && now - t <= crate::second_factor::RECENT => Ok(t),
        _ => Err(ApiError::SecondFactorNeeded),
    }
}

#[utoipa::path(get, path = "/api/admin/security-settings", tag = "admin",
    responses((status = 200, body = SecuritySettings), (status = 403, description = "Not an admin")))]
async fn get_settings(
    State(app): State<AppState>,
    current: CurrentUser,
) -> ApiResult<Json<SecuritySettings>> {
    current.require_admin()?;
    Ok(Json(SecuritySettings {
        second_factor_required_for_agents: store::required_for_agents(&app.pool).await?,
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
    let now = app.clock.now();
    let before = store::required_for_agents(&app.pool).await?;
    let ended = store::set_required_for_agents(
        &app.pool,
        req.second_factor_required_for_agents,
        current.user.id,
        now,
    )
    .await?;
    session::evict_all(&app, &ended);
    record(
        &app,
        Action::SecuritySettingsChanged,
        Some(current.user.id),
        None,
        address,
    )
    .await?;
    if before != req.second_factor_required_for_agents {
        let notice = account_notices::Notice {
            headline: "the agents' two-step verification changed",
            text: format!(
                "{} {} two-step verification for agents.",
                current.user.full_name(),
                if req.second_factor_required_for_agents {
                    "required"
                } else {
                    "stopped requiring"
                }
            ),
        };
        let mut db = app.pool.acquire().await?;
        account_notices::tell_admins(&mut db, &notice, None, now).await?;
    }
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
    let not_found = || ApiError::NotFound("User not found".into());
    let id: Uuid = user_id.parse().map_err(|_| not_found())?;
    let user = users::by_id(&app.pool, id).await?.ok_or_else(not_found)?;
    if user.id == current.user.id {
        // One admin cannot vouch for themselves: another admin resets it.
        return Err(ApiError::Forbidden);
    }
    recent_factor(&app, &current).await?;
    if disable::among_last_admins(&app.pool, &user).await? {
        return Err(ApiError::Conflict(disable::LAST_ADMINS.into()));
    }
    let now = app.clock.now();
    let mut tx = app.pool.begin().await?;
    store::disable(&mut tx, user.id).await?;
    let ended = sessions::delete_for_user(&mut *tx, user.id, None).await?;
    let by = current.user.full_name();
    account_notices::tell(
        &mut tx,
        &user,
        &account_notices::Notice {
            headline: "your two-step verification was reset",
            text: format!(
                "{by}, an administrator, removed your authenticator app and recovery codes and \
                 signed you out everywhere. You set up two-step verification again at your next \
                 login."
            ),
        },
        now,
    )
    .await?;
    account_notices::tell_admins(
        &mut tx,
        &account_notices::Notice {
            headline: "a user's two-step verification was reset",
            text: format!(
                "{by} reset the two-step verification of {}.",
                user.full_name()
            ),
        },
        Some(user.id),
        now,
    )
    .await?;
    tx.commit().await?;
    session::evict_all(&app, &ended);
    record(
        &app,
        Action::SecondFactorReset,
        Some(current.user.id),
        Some(user.id),
        address,
    )
    .await?;
    Ok(StatusCode::NO_CONTENT)
}
