//! "Save and finish later" over HTTP: the consumer asks for a resume link; the
//! link's page uses it in any browser (`crate::resume`).

use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, header};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use time::OffsetDateTime;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use enrollflow_engine::Applying;

use super::accounts::{Errors, JsonBody, text};
use super::error::{ApiError, ApiResult};
use super::host::SiteHost;
use super::language::Language;
use super::open::{context, open_unchecked};
use crate::accounts::{normalize_email, public_origin};
use crate::applications::already_submitted;
use crate::db::links::Purpose;
use crate::db::{applications, sessions};
use crate::http::session::LiveSession;
use crate::resume::{self, Rechecked};
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(save_for_later))
        .routes(routes!(resume_application))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct SaveForLaterRequest {
    /// Where to send the link.
    pub email: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SavedForLater {
    /// Until when the e-mailed link works.
    #[serde(with = "time::serde::rfc3339")]
    pub expires_at: OffsetDateTime,
}

/// What an agent is told: their customers' links are theirs to send, not this one.
const AGENTS_SEND_HANDOFFS: &str = "Save and finish later is for the person applying; an agent's applications stay on the dashboard.";

#[utoipa::path(post, path = "/api/application/saveForLater", tag = "application",
    description = "E-mails the consumer a single-use link, valid 14 days on this agent's sites, \
                   that opens the session's application in any browser (an earlier link stops \
                   working).",
    request_body = SaveForLaterRequest,
    responses((status = 200, body = SavedForLater),
              (status = 403, description = "No application on this session"),
              (status = 409, description = "Submitted, not far enough, or an agent's session"),
              (status = 422, description = "`errors.email`: not an e-mail address"),
              (status = 429, description = "Too many links for this application today")))]
async fn save_for_later(
    State(app): State<AppState>,
    session: LiveSession,
    host: SiteHost,
    headers: HeaderMap,
    JsonBody(req): JsonBody<SaveForLaterRequest>,
) -> ApiResult<Json<SavedForLater>> {
    let s = open_unchecked(&app, &session, &host).await?;
    let id = s.id.ok_or(ApiError::Forbidden)?;
    if s.data.get("submitted").and_then(Value::as_bool) == Some(true) {
        return Err(already_submitted());
    }
    if s.ctx.applying == Applying::Agent {
        return Err(ApiError::Conflict(AGENTS_SEND_HANDOFFS.into()));
    }
    let engine = &s.bundle.engine;
    let reached = s.data.get("last_step").and_then(Value::as_u64).unwrap_or(1);
    let from = engine
        .save_for_later_from()
        .ok_or_else(|| ApiError::Conflict("This application cannot be saved for later.".into()))?;
    if reached < u64::from(from) {
        let title = engine
            .steps()
            .find(|st| st.number == from)
            .map_or("the plans", |st| st.title.as_str());
        return Err(ApiError::Conflict(format!(
            "Save and finish later is offered from {title} on."
        )));
    }
    let Some(email) = normalize_email(text(&req.email)) else {
        return Err(Errors::only(
            "email",
            "Please enter a valid e-mail address.",
        ));
    };
    let origin = public_origin(
        &app.config,
        headers.get(header::HOST).and_then(|h| h.to_str().ok()),
    );
    // The e-mail in the consumer's language.
    let language = Language::from_headers(&headers).pick(s.bundle.engine.languages());
    let expires_at = resume::save_for_later(&app, &s, id, &email, &origin, &language).await?;
    Ok(Json(SavedForLater { expires_at }))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ResumeRequest {
    /// The token of the e-mailed link.
    pub token: Option<String>,
}

#[utoipa::path(post, path = "/api/application/resume", tag = "application",
    description = "Uses an e-mailed link (a consumer's resume link or an agent's hand-off): the \
                   application becomes this session's, and is checked again under the rules in \
                   force (where to go on, what changed).",
    request_body = ResumeRequest,
    responses((status = 200, body = Rechecked),
              (status = 404, description = "Not a link, or a link of another agent's site \
                  (`error` says which)"),
              (status = 409, description = "An agent is logged in on this browser"),
              (status = 410, description = "Used, replaced, expired, or the application was \
                  submitted (`error` says which)")))]
async fn resume_application(
    State(app): State<AppState>,
    session: LiveSession,
    host: SiteHost,
    headers: HeaderMap,
    JsonBody(req): JsonBody<ResumeRequest>,
) -> ApiResult<Json<Rechecked>> {
    let (agent, ctx) = context(&app, &host, Some(&session)).await?;
    if ctx.applying == Applying::Agent {
        return Err(ApiError::Conflict(
            "You are logged in as an agent: this link is your customer's. Log out, then open it again."
                .into(),
        ));
    }
    let token = text(&req.token).trim();
    if token.is_empty() {
        return Err(ApiError::NotFound(resume::NOT_A_LINK.into()));
    }
    let (id, purpose) = resume::use_link(&app, &agent, token).await?;
    sessions::set_application(&app.pool, &session.id_hash, Some(id)).await?;
    app.caches.evict_session(&session.id_hash);
    let (data, revision) = applications::data_for_agent(&app.pool, id, agent.id)
        .await?
        .ok_or_else(|| ApiError::NotFound(resume::NOT_A_LINK.into()))?;
    crate::http::revision::wrote(Some(id), revision);
    let bundle = app.rules.current();
    let mut checked =
        crate::evaluation::run(|| resume::recheck(&bundle.engine, &app.cipher, id, &data, &ctx))
            .await?;
    if purpose == Purpose::Handoff {
        checked.from_agent = Some(agent.agent_name.clone());
    }
    // What changed, in the consumer's language (step titles and plan kinds within included).
    let languages = bundle.engine.languages();
    let code = Language::from_headers(&headers).pick(languages);
    for change in &mut checked.changes {
        *change = languages.text(&code, change);
    }
    Ok(Json(checked))
}
