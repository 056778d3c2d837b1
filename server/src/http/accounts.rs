//! Accounts (spec part 1, 2.5, 4.2 and 7 "Accounts"): login, logout, forgotten and reset
//! passwords, accepting an invitation, changing the password.
//!
//! - Login replaces the session (new id, new CSRF token); the old id stops working at once.
//! - A wrong password and an unknown address get the same answer in about the same time.
//! - Failed logins are counted per account and per client address over a sliding window; past the
//!   limit the call answers 429 without looking at the password. A success clears the account.
//! - Forgot-password answers the same, in the same time, whether or not the address exists: the
//!   lookup and the mail are done after the answer.
//! - Every login, failed login, logout, password change, reset and registration is audited (ids,
//!   time, client address; never a password, token or e-mail address).
//!
//! The forgot-password lookup and mail run in a bounded background queue. Also `get-user` by
//! invitation token and `register`.

use std::collections::BTreeMap;

use axum::Json;
use axum::extract::{FromRequest, Path, Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use uuid::Uuid;

use super::auth::CurrentUser;
use super::error::{ApiError, ApiResult};
use super::host::ClientAddress;
use crate::accounts::{self, normalize_email};
use crate::app::accounts::change_password::{self, Change, ChangeError};
use crate::app::accounts::log_in::{self, Checked, LoginError};
use crate::app::accounts::register::{self, RegisterError, Registration};
use crate::app::accounts::reset_password::{self, Reset, ResetError};
use crate::app::audit::{self, Action};
use crate::http::session::{self, LiveSession};
use crate::http::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(login))
        .routes(routes!(logout))
        .routes(routes!(forgot_password))
        .routes(routes!(reset_password))
        .routes(routes!(get_user))
        .routes(routes!(register))
        .routes(routes!(change_password))
}

pub const BAD_CREDENTIALS: &str = "These credentials do not match our records.";
pub const LINK_NO_LONGER_VALID: &str = "Sorry, the link you used is no longer valid.";
pub const FORGOT_MESSAGE: &str = "If an account uses that e-mail address, we have sent it a link \
                                  to reset the password. The link works for one hour.";
pub const PASSWORD_CHANGED: &str = "Your password has been changed.";
pub const PASSWORD_RESET: &str = "Your password has been reset.";
pub const ACCOUNT_DISABLED: &str = "This account has been disabled. Please ask your administrator.";
pub const ACCOUNT_CREATED: &str = "Thank you for creating your account.";

/// A JSON body whose shape errors answer 400 with a JSON message (fields are optional here and
/// checked by the handler, so missing ones become field errors).
pub struct JsonBody<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        Json::<T>::from_request(req, state)
            .await
            .map(|Json(v)| JsonBody(v))
            .map_err(|_| ApiError::BadRequest("The request body must be a JSON object.".into()))
    }
}

/// Field errors in the spec's keys, answered 422 as `{"errors": {key: [message]}}`.
#[derive(Default)]
pub(crate) struct Errors(BTreeMap<String, Vec<String>>);

impl Errors {
    pub(crate) fn add(&mut self, key: &str, message: &str) {
        self.0
            .entry(key.to_string())
            .or_default()
            .push(message.to_string());
    }

    pub(crate) fn into_result(self) -> ApiResult<()> {
        if self.0.is_empty() {
            Ok(())
        } else {
            Err(ApiError::Validation(self.0))
        }
    }

    pub(crate) fn only(key: &str, message: &str) -> ApiError {
        let mut e = Errors::default();
        e.add(key, message);
        ApiError::Validation(e.0)
    }
}

pub(crate) fn text(v: &Option<String>) -> &str {
    v.as_deref().unwrap_or("")
}

fn truthy(v: &Value) -> bool {
    match v {
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_i64() == Some(1),
        Value::String(s) => matches!(s.as_str(), "1" | "true" | "on" | "yes"),
        _ => false,
    }
}

pub(crate) async fn record(
    app: &AppState,
    action: Action,
    actor: Option<Uuid>,
    subject: Option<Uuid>,
    address: Option<std::net::IpAddr>,
) -> ApiResult<()> {
    let now = app.clock.now();
    audit::record_event(&app.pool, now, action, (actor, subject), address).await?;
    Ok(())
}

/// A message for the user.
#[derive(Debug, Serialize, ToSchema)]
pub struct Message {
    pub message: String,
}

fn message(m: &str) -> Json<Message> {
    Json(Message { message: m.into() })
}

/// The answer to a login (and to impersonating or switching back): where the user's site is, and
/// the new session's CSRF token. The response sets the new session cookie. When the password was
/// right but a second factor must follow, `second_factor` says which step, and nothing else
/// changed (no cookie, the same session and CSRF token).
#[derive(Debug, Serialize, ToSchema)]
pub struct LoggedIn {
    /// The first subdomain of the user's agent (for an admin, of the admin's site, if any).
    pub subdomain: Option<String>,
    pub csrf_token: String,
    /// `code`: send a code from the authenticator app (or a recovery code) to
    /// `/api/login/second-factor`; `setup`: the account must add an authenticator app first
    /// (`/api/login/second-factor/setup`, then the code). Absent when logged in.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub second_factor: Option<SecondFactorStep>,
    /// The new recovery codes, shown once: when this login set up the second factor.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub recovery_codes: Vec<String>,
}

/// The step a login still needs.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum SecondFactorStep {
    Code,
    Setup,
}

/// Answers with the new session's cookie.
pub fn logged_in(
    session: &session::Session,
    cookie: axum::http::HeaderValue,
    subdomain: Option<String>,
) -> Response {
    logged_in_with_codes(session, cookie, subdomain, Vec::new())
}

/// Answers with the new session's cookie and recovery codes to show once.
pub fn logged_in_with_codes(
    session: &session::Session,
    cookie: axum::http::HeaderValue,
    subdomain: Option<String>,
    recovery_codes: Vec<String>,
) -> Response {
    (
        [(header::SET_COOKIE, cookie)],
        Json(LoggedIn {
            subdomain,
            csrf_token: session.csrf_token.clone(),
            second_factor: None,
            recovery_codes,
        }),
    )
        .into_response()
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(default)]
pub struct LoginRequest {
    pub email: Option<String>,
    pub password: Option<String>,
}

#[utoipa::path(post, path = "/api/login", tag = "accounts", request_body = LoginRequest,
    responses(
        (status = 200, body = LoggedIn, description = "Logged in: a new session (new cookie, new \
            CSRF token) replaces the caller's, whose id stops working. Or, for an account with \
            (or required to have) a second factor, `second_factor` names the step still to do \
            and nothing else changed."),
        (status = 422, description = "`errors.login_email` or `errors.login_password` (the same \
            answer for a wrong password and an unknown address)"),
        (status = 429, description = "Too many failed logins for this account or from this \
            address in the last 5 minutes: try again later")))]
async fn login(
    State(app): State<AppState>,
    old: LiveSession,
    ClientAddress(address): ClientAddress,
    headers: HeaderMap,
    JsonBody(req): JsonBody<LoginRequest>,
) -> ApiResult<Response> {
    let typed = text(&req.email).trim().to_string();
    let password = req.password.unwrap_or_default();
    let mut errors = Errors::default();
    if typed.is_empty() {
        errors.add("login_email", "The email field is required.");
    }
    if password.is_empty() {
        errors.add("login_password", "The password field is required.");
    }
    errors.into_result()?;

    let credentials = log_in::Credentials {
        email: &typed,
        password,
        session: &old.id_hash,
        address,
    };
    let user = match log_in::check(&app.pool, credentials, app.clock.now()).await {
        Ok(Checked::Account(user)) => user,
        Ok(Checked::SecondFactor { code }) => {
            let step = if code {
                SecondFactorStep::Code
            } else {
                SecondFactorStep::Setup
            };
            return Ok(Json(LoggedIn {
                subdomain: None,
                csrf_token: old.csrf_token.clone(),
                second_factor: Some(step),
                recovery_codes: Vec::new(),
            })
            .into_response());
        }
        Err(LoginError::TooMany { retry_after }) => {
            return Err(ApiError::TooManyRequests(retry_after));
        }
        Err(e @ (LoginError::BadCredentials | LoginError::Disabled)) => {
            return Err(Errors::only("login_password", &e.to_string()));
        }
        Err(LoginError::Failed(e)) => return Err(e.into()),
    };
    let (session, cookie) =
        session::replace(&app, Some(&old), Some(user.id), None, None, &headers).await?;
    record(&app, Action::Login, Some(user.id), Some(user.id), address).await?;
    let mut response = logged_in(&session, cookie, user.agent_subdomain.clone());
    super::sign_in::remember_device(&app, &headers, &user, address, &mut response).await?;
    Ok(response)
}

#[utoipa::path(post, path = "/api/logout", tag = "accounts",
    responses((status = 204, description = "The session is ended and its cookie cleared")))]
async fn logout(
    State(app): State<AppState>,
    session: LiveSession,
    ClientAddress(address): ClientAddress,
) -> ApiResult<Response> {
    let cookie = session::end(&app, &session).await?;
    if let Some(user) = session.user_id {
        let actor = session.impersonator_id.unwrap_or(user);
        record(&app, Action::Logout, Some(actor), Some(user), address).await?;
    }
    Ok((StatusCode::NO_CONTENT, [(header::SET_COOKIE, cookie)]).into_response())
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(default)]
pub struct ForgotPasswordRequest {
    pub email: Option<String>,
}

#[utoipa::path(post, path = "/api/forgot-password", tag = "accounts",
    request_body = ForgotPasswordRequest,
    responses(
        (status = 200, body = Message, description = "The same answer, at once, whether or not the \
            address belongs to an account; if it does, a single-use link valid for an hour is \
            e-mailed shortly after"),
        (status = 422, description = "`errors.email`: not an e-mail address"),
        (status = 429, description = "Too many requests from this client address in the last \
            hour (`Retry-After`)")))]
async fn forgot_password(
    State(app): State<AppState>,
    _session: LiveSession,
    ClientAddress(address): ClientAddress,
    headers: HeaderMap,
    JsonBody(req): JsonBody<ForgotPasswordRequest>,
) -> ApiResult<Json<Message>> {
    let Some(email) = normalize_email(text(&req.email)) else {
        return Err(Errors::only(
            "email",
            "Please enter a valid e-mail address.",
        ));
    };
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    // Nothing that depends on whether the address exists happens before the answer: the request is
    // queued in PostgreSQL for every address alike, and a worker does the lookup and the mail.
    let queued = accounts::queue_reset(
        &app.pool,
        &app.reset_queued,
        &accounts::ResetRequest {
            email,
            origin: accounts::public_origin(&app.config, host),
            address,
            now: app.clock.now(),
        },
    )
    .await?;
    if !queued {
        return Err(ApiError::TooManyRequests(3600));
    }
    Ok(message(FORGOT_MESSAGE))
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(default)]
pub struct ResetPasswordRequest {
    pub email: Option<String>,
    pub token: Option<String>,
    pub password: Option<String>,
    pub password_confirmation: Option<String>,
}

#[utoipa::path(post, path = "/api/reset-password", tag = "accounts",
    request_body = ResetPasswordRequest,
    responses(
        (status = 200, body = Message, description = "The password is reset; every session of the \
            account is ended. The link cannot be used again."),
        (status = 422, description = "`errors.token` (link used or expired; or an `email` sent \
            that is not the account's), \
            `errors.password`, `errors.password_confirmation`")))]
async fn reset_password(
    State(app): State<AppState>,
    _session: LiveSession,
    ClientAddress(address): ClientAddress,
    JsonBody(req): JsonBody<ResetPasswordRequest>,
) -> ApiResult<Json<Message>> {
    let reset = Reset {
        token: text(&req.token),
        email: text(&req.email),
        password: text(&req.password),
        confirmation: text(&req.password_confirmation),
        address,
    };
    match reset_password::reset_password(&app.pool, &app.caches, app.clock.now(), &reset).await {
        Ok(()) => Ok(message(PASSWORD_RESET)),
        Err(ResetError::LinkNoLongerValid) => Err(Errors::only("token", LINK_NO_LONGER_VALID)),
        Err(ResetError::Refused(problems)) => Err(ApiError::Validation(problems)),
        Err(ResetError::Failed(e)) => Err(e.into()),
    }
}

/// Spec part 1, section 3 "User by token".
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UserByToken {
    pub first_name: String,
    pub last_name: String,
    pub email: String,
}

#[utoipa::path(get, path = "/api/get-user/{token}", tag = "accounts",
    params(("token" = String, Path, description = "The invitation token from the e-mailed link")),
    responses(
        (status = 200, body = UserByToken, description = "Who the invitation is for (the greeting)"),
        (status = 404, description = "\"Sorry, the link you used is no longer valid.\"")))]
async fn get_user(
    State(app): State<AppState>,
    Path(token): Path<String>,
) -> ApiResult<Json<UserByToken>> {
    register::invitee(&app.pool, &token, app.clock.now())
        .await?
        .map(|u| {
            Json(UserByToken {
                first_name: u.first_name,
                last_name: u.last_name,
                email: u.email,
            })
        })
        .ok_or_else(|| ApiError::NotFound(LINK_NO_LONGER_VALID.into()))
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(default)]
pub struct RegisterRequest {
    pub token: Option<String>,
    pub email: Option<String>,
    pub password: Option<String>,
    pub password_confirmation: Option<String>,
    /// The Terms of Use checkbox: `true` (`1` is accepted too).
    #[schema(value_type = bool)]
    pub tos_agree: Value,
}

#[utoipa::path(post, path = "/api/register", tag = "accounts", request_body = RegisterRequest,
    responses(
        (status = 200, body = Message, description = "The account has its password; the user can \
            log in. Role and agent come from the invitation, never from the request."),
        (status = 422, description = "`errors.token` (\"Sorry, the link you used is no longer \
            valid.\"), `errors.email`, `errors.password`, `errors.password_confirmation`, \
            `errors.tos_agree`")))]
async fn register(
    State(app): State<AppState>,
    _session: LiveSession,
    ClientAddress(address): ClientAddress,
    JsonBody(req): JsonBody<RegisterRequest>,
) -> ApiResult<Json<Message>> {
    let registration = Registration {
        token: text(&req.token),
        email: text(&req.email),
        password: text(&req.password),
        confirmation: text(&req.password_confirmation),
        terms_agreed: truthy(&req.tos_agree),
        address,
    };
    match register::register(&app.pool, app.clock.now(), &registration).await {
        Ok(()) => Ok(message(ACCOUNT_CREATED)),
        Err(RegisterError::LinkNoLongerValid) => Err(Errors::only("token", LINK_NO_LONGER_VALID)),
        Err(RegisterError::Refused(problems)) => Err(ApiError::Validation(problems)),
        Err(RegisterError::Failed(e)) => Err(e.into()),
    }
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(default)]
pub struct ChangePasswordRequest {
    pub current_password: Option<String>,
    pub new_password: Option<String>,
    pub new_password_confirmation: Option<String>,
}

#[utoipa::path(put, path = "/api/user/password", tag = "accounts",
    request_body = ChangePasswordRequest,
    responses(
        (status = 200, body = Message, description = "\"Your password has been changed.\" The \
            user's other sessions are ended."),
        (status = 403, description = "Not logged in"),
        (status = 422, description = "`errors.current_password`, `errors.new_password`, \
            `errors.new_password_confirmation`"),
        (status = 429, description = "Too many wrong passwords for this account")))]
async fn change_password(
    State(app): State<AppState>,
    current: CurrentUser,
    ClientAddress(address): ClientAddress,
    JsonBody(req): JsonBody<ChangePasswordRequest>,
) -> ApiResult<Json<Message>> {
    // The person at the keyboard changes their own password: an admin acting as an agent changes
    // the admin's (spec part 1, 2.3: Change Password stays in the menu while impersonating), and
    // never learns or sets the agent's.
    let change = Change {
        person: current.impersonator_id().unwrap_or(current.user.id),
        session: &current.session.id_hash,
        current: text(&req.current_password),
        new: text(&req.new_password),
        confirmation: text(&req.new_password_confirmation),
        address,
    };
    match change_password::change_password(&app.pool, &app.caches, app.clock.now(), &change).await {
        Ok(()) => Ok(message(PASSWORD_CHANGED)),
        Err(ChangeError::NoAccount) => Err(ApiError::Forbidden),
        Err(ChangeError::TooMany { retry_after }) => Err(ApiError::TooManyRequests(retry_after)),
        Err(ChangeError::Refused(problems)) => Err(ApiError::Validation(problems)),
        Err(ChangeError::Failed(e)) => Err(e.into()),
    }
}
