//! "Send to customer" for the agent: send, follow, withdraw a hand-off
//! (`crate::app::applying::handoff`).

use axum::Json;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, header};
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use uuid::Uuid;

use super::accounts::{Errors, JsonBody, text};
use super::auth::CurrentUser;
use super::error::{ApiError, ApiResult};
use crate::accounts::public_origin;
use crate::app::applying::Handles;
use crate::app::applying::handoff::{self, Handoff, HandoffError};
use crate::http::state::AppState;
use enrollflow_engine::i18n::{PSEUDO, SOURCE};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(handoff_state, send_handoff, revoke_handoff))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct HandoffRequest {
    /// The customer's address (the Quoting row's e-mail, or another one the customer gave).
    pub email: Option<String>,
    /// The language of the e-mail, e.g. `es` (the customer opens the link in the language their
    /// browser asks for). English when absent or when the rules do not speak it.
    pub language: Option<String>,
}

#[utoipa::path(get, path = "/api/dashboard/handoff/{id}", tag = "dashboard",
    params(("id" = Uuid, Path, description = "One of the agent's applications")),
    responses((status = 200, body = Option<Handoff>, description = "The newest hand-off (null: none)"),
              (status = 403), (status = 404), (status = 419)))]
async fn handoff_state(
    State(app): State<AppState>,
    user: CurrentUser,
    Path(id): Path<Uuid>,
) -> ApiResult<Json<Option<Handoff>>> {
    let agent = user.dashboard_agent()?;
    Ok(Json(
        handoff::state_for(&Handles::of(&app), agent, id).await?,
    ))
}

#[utoipa::path(post, path = "/api/dashboard/handoff/{id}", tag = "dashboard",
    description = "E-mails the customer a single-use link, valid 14 days on the agent's sites, to \
                   review the application, give their own details, sign and purchase (an earlier \
                   hand-off stops working).",
    params(("id" = Uuid, Path, description = "One of the agent's applications")),
    request_body = HandoffRequest,
    responses((status = 200, body = Handoff), (status = 403), (status = 404),
              (status = 409, description = "Submitted, or not quoted yet"),
              (status = 422, description = "`errors.email`: not an e-mail address"),
              (status = 429, description = "Too many hand-offs of this application today"),
              (status = 419)))]
async fn send_handoff(
    State(app): State<AppState>,
    user: CurrentUser,
    Path(id): Path<Uuid>,
    headers: HeaderMap,
    JsonBody(req): JsonBody<HandoffRequest>,
) -> ApiResult<Json<Handoff>> {
    let agent = user.dashboard_agent()?;
    let origin = link_origin(&app, &headers);
    let bundle = app.rules.current();
    let language = customer_language(&bundle, req.language.as_deref());
    let to = handoff::Customer {
        email: text(&req.email),
        origin: &origin,
        language,
    };
    // The application is the customer's to finish now: the agent's browser lets go of it (its
    // purchase would otherwise hold the agent's wizard and dashboard on Review and Purchase).
    let holder = (&user.session.id_hash, user.session.application_id);
    let sent = handoff::hand_off(&Handles::of(&app), agent, id, &to, holder).await?;
    Ok(Json(sent))
}

#[utoipa::path(delete, path = "/api/dashboard/handoff/{id}", tag = "dashboard",
    description = "Withdraws the application's unopened hand-off link.",
    params(("id" = Uuid, Path, description = "One of the agent's applications")),
    responses((status = 200, body = Option<Handoff>, description = "The hand-off now"),
              (status = 403), (status = 404), (status = 409), (status = 419)))]
async fn revoke_handoff(
    State(app): State<AppState>,
    user: CurrentUser,
    Path(id): Path<Uuid>,
) -> ApiResult<Json<Option<Handoff>>> {
    let agent = user.dashboard_agent()?;
    Ok(Json(
        handoff::withdraw(&Handles::of(&app), agent, id).await?,
    ))
}

/// The agent's site a customer's link opens on: the site the agent is on.
pub(super) fn link_origin(app: &AppState, headers: &HeaderMap) -> String {
    public_origin(
        &app.config,
        headers.get(header::HOST).and_then(|h| h.to_str().ok()),
    )
}

/// The language of a customer's e-mail: the one the agent chose, when the rules speak it, else
/// English.
pub(super) fn customer_language<'a>(
    bundle: &crate::rules::Bundle,
    asked: Option<&'a str>,
) -> &'a str {
    let languages = bundle.engine.languages();
    asked
        .filter(|code| *code != PSEUDO && languages.speaks(code))
        .unwrap_or(SOURCE)
}

impl From<HandoffError> for ApiError {
    fn from(e: HandoffError) -> Self {
        match e {
            HandoffError::NotFound => ApiError::NotFound(e.to_string()),
            HandoffError::AlreadySubmitted | HandoffError::NotQuoted => {
                ApiError::Conflict(e.to_string())
            }
            HandoffError::NotAnEmail => Errors::only("email", &e.to_string()),
            HandoffError::NoAgent => ApiError::Forbidden,
            HandoffError::Link(e) => e.into(),
        }
    }
}
