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
use crate::accounts::{normalize_email, public_origin};
use crate::app::applying::Handles;
use crate::app::applying::handoff::{self, Handoff};
use crate::app::applying::open::already_submitted;
use crate::db::{agents, applications, sessions};
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

/// One of the agent's applications, not submitted; 404 or 409 otherwise.
async fn open_quote(app: &AppState, agent: Uuid, id: Uuid) -> ApiResult<i16> {
    let (last_step, submitted, _) = applications::standing_for_agent(&app.pool, id, agent)
        .await?
        .ok_or_else(|| ApiError::NotFound("No such application.".into()))?;
    if submitted {
        return Err(already_submitted());
    }
    Ok(last_step)
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
    applications::standing_for_agent(&app.pool, id, agent)
        .await?
        .ok_or_else(|| ApiError::NotFound("No such application.".into()))?;
    Ok(Json(handoff::state_of(&Handles::of(&app), id).await?))
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
    let agent_id = user.dashboard_agent()?;
    let last_step = open_quote(&app, agent_id, id).await?;
    let bundle = app.rules.current();
    if let Some(from) = bundle.engine.save_for_later_from()
        && last_step < i16::from(from)
    {
        return Err(ApiError::Conflict(
            "Quote the customer's plans before sending the application to them.".into(),
        ));
    }
    let Some(email) = normalize_email(text(&req.email)) else {
        return Err(Errors::only(
            "email",
            "Please enter a valid e-mail address.",
        ));
    };
    let agent = agents::by_id(&app.pool, agent_id)
        .await?
        .ok_or(ApiError::Forbidden)?;
    let origin = public_origin(
        &app.config,
        headers.get(header::HOST).and_then(|h| h.to_str().ok()),
    );
    let languages = bundle.engine.languages();
    let language = req
        .language
        .as_deref()
        .filter(|code| *code != PSEUDO && languages.speaks(code))
        .unwrap_or(SOURCE);
    let to = handoff::Customer {
        email: &email,
        origin: &origin,
        language,
    };
    let sent = handoff::send(&Handles::of(&app), &bundle, &agent, id, &to).await?;
    // The application is the customer's to finish now: the agent's browser lets go of it (its
    // purchase would otherwise hold the agent's wizard and dashboard on Review and Purchase).
    if user.session.application_id == Some(id) {
        sessions::set_application(&app.pool, &user.session.id_hash, None).await?;
        app.caches.evict_session(&user.session.id_hash);
    }
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
    open_quote(&app, agent, id).await?;
    Ok(Json(handoff::revoke(&Handles::of(&app), id).await?))
}
