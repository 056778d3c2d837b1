//! "Save and finish later" over HTTP: the consumer asks for a resume link; the
//! link's page uses it in any browser (`crate::app::applying::resume`).

use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, header};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use time::OffsetDateTime;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use uuid::Uuid;

use enrollflow_engine::Applying;

use super::accounts::{JsonBody, text};
use super::error::{ApiError, ApiResult};
use super::error::{already_submitted, eval_error};
use super::host::SiteHost;
use super::language::Language;
use super::open::{context, open_unchecked};
use super::revision::Wrote;
use crate::accounts::public_origin;
use crate::app::applying::Handles;
use crate::app::applying::open::OpenStep;
use crate::app::applying::resume::{self, LinkError, Purpose, Rechecked};
use crate::http::session::LiveSession;
use crate::http::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(save_for_later_address, save_for_later))
        .routes(routes!(resume_application))
}

/// Where "Save and finish later" sends its link.
#[derive(Debug, Serialize, ToSchema)]
pub struct SaveForLaterAddress {
    /// The e-mail address the application holds (About You's); null when it holds none.
    pub email: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SavedForLater {
    /// Where the link was sent: the application's own address.
    pub email: String,
    /// Until when the e-mailed link works.
    #[serde(with = "time::serde::rfc3339")]
    pub expires_at: OffsetDateTime,
}

/// What a consumer is told when the application holds no e-mail address to send the link to.
const NO_ADDRESS: &str =
    "Your application has no e-mail address yet: add it on About You, then save for later.";

/// What an agent is told: their customers' links are theirs to send, not this one.
const AGENTS_SEND_HANDOFFS: &str = "Save and finish later is for the person applying; an agent's applications stay on the dashboard.";

/// The session's application, when it may be saved for later (a consumer's, not submitted, far
/// enough along).
async fn saveable(
    app: &AppState,
    session: &LiveSession,
    host: &SiteHost,
) -> ApiResult<(OpenStep, Uuid)> {
    let s = open_unchecked(app, session, host).await?;
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
    Ok((s, id))
}

#[utoipa::path(get, path = "/api/application/saveForLater", tag = "application",
    description = "Where a resume link would go: the e-mail address the application holds.",
    responses((status = 200, body = SaveForLaterAddress),
              (status = 403, description = "No application on this session"),
              (status = 409, description = "Submitted, not far enough, or an agent's session")))]
async fn save_for_later_address(
    State(app): State<AppState>,
    session: LiveSession,
    host: SiteHost,
) -> ApiResult<Json<SaveForLaterAddress>> {
    let (s, _) = saveable(&app, &session, &host).await?;
    Ok(Json(SaveForLaterAddress {
        email: resume::resume_address(&s)?,
    }))
}

#[utoipa::path(post, path = "/api/application/saveForLater", tag = "application",
    description = "E-mails the consumer a single-use link, valid 14 days on this agent's sites, \
                   that opens the session's application in any browser (an earlier link stops \
                   working). The link goes only to the e-mail address the application holds.",
    responses((status = 200, body = SavedForLater),
              (status = 403, description = "No application on this session"),
              (status = 409, description = "Submitted, not far enough, an agent's session, or no \
                  e-mail address in the application"),
              (status = 429, description = "Too many links for this application or this address \
                  today")))]
async fn save_for_later(
    State(app): State<AppState>,
    session: LiveSession,
    host: SiteHost,
    headers: HeaderMap,
) -> ApiResult<Json<SavedForLater>> {
    let (s, id) = saveable(&app, &session, &host).await?;
    let Some(email) = resume::resume_address(&s)? else {
        return Err(ApiError::Conflict(NO_ADDRESS.into()));
    };
    let origin = public_origin(
        &app.config,
        headers.get(header::HOST).and_then(|h| h.to_str().ok()),
    );
    // The e-mail in the consumer's language.
    let language = Language::from_headers(&headers).pick(s.bundle.engine.languages());
    let expires_at =
        resume::save_for_later(&Handles::of(&app), &s, id, &email, &origin, &language).await?;
    Ok(Json(SavedForLater { email, expires_at }))
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
) -> ApiResult<(Wrote, Json<Rechecked>)> {
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
    let (id, purpose) = resume::use_link(&Handles::of(&app), &agent, token).await?;
    if purpose == Purpose::Renewal {
        // The renewal's link starts the new year's application; its page shows the choices.
        let (new, revision) =
            crate::app::renewals::reenroll::start(&Handles::of(&app), &session.id_hash, &agent, id)
                .await?;
        let checked = Rechecked {
            route: crate::app::renewals::reenroll::ROUTE.to_string(),
            changes: Vec::new(),
            from_agent: Some(agent.agent_name.clone()),
        };
        return Ok((Wrote::application(new, revision), Json(checked)));
    }
    let (data, revision) =
        resume::take_over(&Handles::of(&app), &session.id_hash, &agent, id).await?;
    let wrote = Wrote::application(id, revision);
    let bundle = app.rules.current();
    let mut checked = crate::rules::evaluation::run(&session.budget, || {
        resume::recheck(&bundle.engine, &app.cipher, id, &data, &ctx)
    })
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
    Ok((wrote, Json(checked)))
}

impl From<LinkError> for ApiError {
    fn from(e: LinkError) -> Self {
        match e {
            LinkError::TooMany => ApiError::TooManyRequests(3600),
            LinkError::NotALink(why) => ApiError::NotFound(why.into()),
            LinkError::NoLonger(why) => ApiError::Gone(why.into()),
            LinkError::Rules(e) => eval_error(e),
            LinkError::Failed(e) => e.into(),
        }
    }
}
