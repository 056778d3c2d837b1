//! Renewals (`crate::app::renewals`): the agent's worklist, one renewal side by side, its Excel
//! export, the home card, "Send renewal options"; and the customer's renewal page (the offer and
//! the choice) on the application a renewal link started.

use axum::Json;
use axum::body::Body;
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, header};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use uuid::Uuid;

use super::accounts::{Errors, JsonBody};
use super::auth::CurrentUser;
use super::error::{ApiError, ApiResult};
use super::handoff::{customer_language, link_origin};
use super::host::SiteHost;
use super::open::context;
use crate::app::applying::Handles;
use crate::app::applying::resume::Rechecked;
use crate::app::renewals::reenroll::{self, Choice, ChoiceError, RenewalOffer};
use crate::app::renewals::worklist::{
    self, FollowUp, RenewalCounts, RenewalDetail, RenewalPage, WorklistFilter,
};
use crate::app::renewals::{RenewalError, export, send};
use crate::http::session::LiveSession;
use crate::http::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(renewal_list))
        .routes(routes!(renewal_export))
        .routes(routes!(renewal_counts))
        .routes(routes!(renewal_detail))
        .routes(routes!(send_renewal))
        .routes(routes!(renewal_offer))
        .routes(routes!(choose_renewal))
}

/// The worklist's view from the query string (as the web app's address bar holds it).
fn filter_of(raw: Option<&str>) -> (WorklistFilter, i64) {
    let pairs: Vec<(String, String)> = raw
        .and_then(|q| serde_urlencoded::from_str(q).ok())
        .unwrap_or_default();
    let mut f = WorklistFilter::default();
    let mut page = 1;
    for (k, v) in pairs {
        match k.as_str() {
            "status" => f.statuses.extend(
                v.split(',')
                    .filter(|s| enrollflow_engine::renewal::RenewalStatus::parse(s).is_some())
                    .map(str::to_string),
            ),
            "change" if v == "up" || v == "down" => f.change = Some(v),
            "follow" => f.follow = FollowUp::parse(&v),
            "q" if !v.trim().is_empty() => f.search = Some(v.chars().take(100).collect()),
            "page" => page = v.parse().unwrap_or(1),
            _ => {}
        }
    }
    (f, page)
}

async fn agent_of(app: &AppState, user: &CurrentUser) -> ApiResult<crate::app::sites::AgentRow> {
    let id = user.dashboard_agent()?;
    crate::app::dashboard::home::agent(&app.pool, id)
        .await?
        .ok_or(ApiError::Forbidden)
}

#[utoipa::path(get, path = "/api/dashboard/renewals", tag = "dashboard",
    description = "The agent's renewal worklist for the plan year of the open enrollment ahead, \
                   riskiest first, then the largest premium change. Query: status (comma list of \
                   carrier_change, no_successor, plan_change, member_aging_off, premium_change, \
                   same_plan), change (up, down), follow (to_do, sent, opened, reenrolled), q (the \
                   customer's name), page (25 rows).",
    responses((status = 200, body = RenewalPage), (status = 403), (status = 409), (status = 419)))]
async fn renewal_list(
    State(app): State<AppState>,
    user: CurrentUser,
    RawQuery(raw): RawQuery,
) -> ApiResult<Json<RenewalPage>> {
    let agent = agent_of(&app, &user).await?;
    let (f, page) = filter_of(raw.as_deref());
    Ok(Json(
        worklist::page(&Handles::of(&app), &agent, &f, page).await?,
    ))
}

#[utoipa::path(get, path = "/api/dashboard/renewalsExport", tag = "dashboard",
    description = "Every renewal of the worklist under its filters as Renewals.xlsx.",
    responses((status = 200, description = "The workbook", body = super::wire::BinaryFile, content_type =
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
        (status = 403), (status = 409), (status = 419)))]
async fn renewal_export(
    State(app): State<AppState>,
    user: CurrentUser,
    RawQuery(raw): RawQuery,
) -> ApiResult<Response> {
    let agent = agent_of(&app, &user).await?;
    let (f, _) = filter_of(raw.as_deref());
    let list = worklist::all(&Handles::of(&app), &agent, &f).await?;
    let bytes = tokio::task::spawn_blocking(move || export::workbook(&list))
        .await
        .map_err(|e| ApiError::Internal(e.into()))?
        .map_err(|e| ApiError::Internal(e.into()))?;
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet".to_string(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{}\"", export::FILE_NAME),
            ),
        ],
        Body::from(bytes),
    )
        .into_response())
}

#[utoipa::path(get, path = "/api/dashboard/renewalCounts", tag = "dashboard",
    description = "The home card: the agent's renewals to do, sent and done, and the days left in \
                   open enrollment.",
    responses((status = 200, body = Option<RenewalCounts>, description = "null: no renewal season"),
              (status = 403), (status = 419)))]
async fn renewal_counts(
    State(app): State<AppState>,
    user: CurrentUser,
) -> ApiResult<Json<Option<RenewalCounts>>> {
    let agent = agent_of(&app, &user).await?;
    match worklist::counts(&Handles::of(&app), &agent).await {
        Ok(c) => Ok(Json(Some(c))),
        Err(RenewalError::NoSeason) => Ok(Json(None)),
        Err(e) => Err(e.into()),
    }
}

#[utoipa::path(get, path = "/api/dashboard/renewals/{id}", tag = "dashboard",
    params(("id" = Uuid, Path, description = "The renewed (submitted) application")),
    responses((status = 200, body = RenewalDetail), (status = 403), (status = 404), (status = 419)))]
async fn renewal_detail(
    State(app): State<AppState>,
    user: CurrentUser,
    Path(id): Path<Uuid>,
) -> ApiResult<Json<RenewalDetail>> {
    let agent = agent_of(&app, &user).await?;
    Ok(Json(
        worklist::detail(&Handles::of(&app), &agent, id).await?,
    ))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct SendRenewalRequest {
    /// The language of the e-mail, e.g. `es`; English when absent or when the rules do not
    /// speak it.
    pub language: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct RenewalSent {
    #[serde(with = "time::serde::rfc3339")]
    pub expires_at: time::OffsetDateTime,
}

#[utoipa::path(post, path = "/api/dashboard/renewals/{id}/send", tag = "dashboard",
    description = "E-mails the customer, at the address on their application, a single-use link \
                   (14 days, the agent's sites) to their renewal options (an earlier one stops \
                   working).",
    params(("id" = Uuid, Path, description = "The renewed (submitted) application")),
    request_body = SendRenewalRequest,
    responses((status = 200, body = RenewalSent), (status = 403), (status = 404),
              (status = 409, description = "Re-enrolled already, or no address on file"),
              (status = 429), (status = 419)))]
async fn send_renewal(
    State(app): State<AppState>,
    user: CurrentUser,
    Path(id): Path<Uuid>,
    headers: HeaderMap,
    JsonBody(req): JsonBody<SendRenewalRequest>,
) -> ApiResult<Json<RenewalSent>> {
    let agent = agent_of(&app, &user).await?;
    let origin = link_origin(&app, &headers);
    let bundle = app.rules.current();
    let language = customer_language(&bundle, req.language.as_deref());
    let expires_at = send::send(&Handles::of(&app), &agent, id, &origin, language).await?;
    Ok(Json(RenewalSent { expires_at }))
}

#[utoipa::path(get, path = "/api/renewal", tag = "application",
    description = "The renewal the session's application was started from: this year's plans, \
                   next year's renewal and the alternatives, each member's premium.",
    responses((status = 200, body = RenewalOffer), (status = 404), (status = 419)))]
async fn renewal_offer(
    State(app): State<AppState>,
    session: LiveSession,
    host: SiteHost,
) -> ApiResult<Json<RenewalOffer>> {
    let (agent, _) = context(&app, &host, Some(&session)).await?;
    let id = session.application_id.ok_or_else(no_renewal)?;
    Ok(Json(reenroll::offer(&Handles::of(&app), &agent, id).await?))
}

#[utoipa::path(post, path = "/api/renewal/choose", tag = "application",
    description = "The customer's choice of next year's plans (one the renewal shows for each \
                   kind, or null for none): last year's answers are carried on through the new \
                   year's rules; answers where the wizard goes on.",
    request_body = Choice,
    responses((status = 200, body = Rechecked), (status = 404), (status = 422), (status = 419)))]
async fn choose_renewal(
    State(app): State<AppState>,
    session: LiveSession,
    host: SiteHost,
    JsonBody(choice): JsonBody<Choice>,
) -> ApiResult<Json<Rechecked>> {
    let (agent, _) = context(&app, &host, Some(&session)).await?;
    let id = session.application_id.ok_or_else(no_renewal)?;
    let checked = reenroll::choose(&Handles::of(&app), &agent, id, &choice)
        .await
        .map_err(|e| match e {
            ChoiceError::Renewal(e) => e.into(),
            e @ (ChoiceError::NotOffered(_) | ChoiceError::Nothing) => {
                Errors::only("choice", &e.to_string())
            }
        })?;
    app.caches.evict_session(&session.id_hash);
    Ok(Json(checked))
}

fn no_renewal() -> ApiError {
    ApiError::NotFound(RenewalError::NotFound.to_string())
}

impl From<RenewalError> for ApiError {
    fn from(e: RenewalError) -> Self {
        match e {
            RenewalError::NotFound => ApiError::NotFound(e.to_string()),
            RenewalError::NoSeason | RenewalError::NoEmail | RenewalError::AlreadyReenrolled => {
                ApiError::Conflict(e.to_string())
            }
            RenewalError::Link(e) => e.into(),
            RenewalError::Failed(e) => e.into(),
        }
    }
}
