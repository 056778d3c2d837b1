//! The audit of personal-data access, recorded in one place for every route so
//! that no handler can forget it:
//!
//! - a view of an application's details (More Info) or its opening to continue it (Enroll);
//! - every export and every PDF;
//! - every change an admin makes while acting as an agent;
//! - hand-off links sent and withdrawn, resume and hand-off links used, scenario downloads, list
//!   searches (that a list was searched, never the words), outbox and audit-log reads, and agent
//!   messages written or changed;
//! - every refused authorization (403; and 404 on the routes that name one application, which is
//!   how another agent's application is refused without saying it exists).
//!
//! A row names the actor (the admin while impersonating), the subject (the session's user), the
//! application (from the route or the session), the method and route template (never a value from
//! the request), the time, the client address and the request id of the access log. Admins read
//! the rows, filtered, at `GET /api/admin/audit` (the dashboard's Audit log page).
//!
//! Checked by `server/tests/api/audit.rs` and
//! `accounts::the_audit_trail_names_ids_and_addresses_never_addresses_or_passwords`.

use axum::Json;
use axum::extract::{FromRequestParts, MatchedPath, Query, Request, State};
use axum::http::{Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use uuid::Uuid;

use super::auth::CurrentUser;
use super::error::{ApiError, ApiResult};
use super::host::ClientAddress;
use crate::app::audit::{self, Action};
use crate::http::session::SessionState;
use crate::http::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(audit_log))
}

/// What a successful call to an audited route records, and where its application comes from.
enum Reached {
    /// The `{id}` at the end of the path.
    PathApplication(Action),
    /// The session's application.
    SessionApplication(Action),
    /// No one application (an export of a list).
    List(Action),
}

fn audited(method: &Method, route: &str, searched: bool) -> Option<Reached> {
    Some(match (method.as_str(), route) {
        ("POST", "/api/dashboard/handoff/{id}") => Reached::PathApplication(Action::HandoffSent),
        ("DELETE", "/api/dashboard/handoff/{id}") => {
            Reached::PathApplication(Action::HandoffWithdrawn)
        }
        ("POST", "/api/application/resume") => Reached::List(Action::LinkUsed),
        ("GET", "/api/dashboard/scenario/{id}") => {
            Reached::PathApplication(Action::ScenarioDownloaded)
        }
        ("GET", "/api/dashboard/quotes" | "/api/dashboard/enrollees") if searched => {
            Reached::List(Action::ListSearched)
        }
        ("GET", "/api/admin/outbox") => Reached::List(Action::OutboxRead),
        ("GET", "/api/admin/audit") => Reached::List(Action::AuditRead),
        ("PUT", "/api/admin/manageMessage") | ("POST", "/api/admin/manageMessage/{id}") => {
            Reached::List(Action::MessageChanged)
        }
        ("GET", "/api/dashboard/getAppInfo/{id}") => {
            Reached::PathApplication(Action::ApplicationViewed)
        }
        ("GET", "/api/dashboard/evidencePdf/{id}" | "/api/dashboard/evidenceJson/{id}") => {
            Reached::PathApplication(Action::ApplicationViewed)
        }
        ("POST", "/api/dashboard/enroll/{id}") => {
            Reached::PathApplication(Action::ApplicationOpened)
        }
        ("GET", "/api/dashboard/quotesExport" | "/api/dashboard/enrolleesExport") => {
            Reached::List(Action::Exported)
        }
        (
            "GET",
            "/api/printPdf/{plan_type}/{flag}"
            | "/api/printPdf/{plan_type}/{flag}/{filters}"
            | "/api/printSelectionPdf",
        ) => Reached::SessionApplication(Action::PdfMade),
        _ => return None,
    })
}

/// A change made through this call (a page-view count is not one; switching back is audited as
/// `impersonate_end`).
fn is_change(method: &Method, route: &str) -> bool {
    !matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS)
        && !matches!(route, "/api/events/pageView" | "/api/unFabricateAgent")
}

/// Records the audited calls after they are answered (see the module's documentation). A call
/// whose row cannot be written is answered 503 instead: its answer (an export, a customer's
/// details) never leaves unrecorded.
pub async fn layer(State(app): State<AppState>, req: Request, next: Next) -> Response {
    let Some(route) = req
        .extensions()
        .get::<MatchedPath>()
        .map(|p| p.as_str().to_string())
        .filter(|r| r.starts_with("/api/"))
    else {
        return next.run(req).await;
    };
    let method = req.method().clone();
    let session = req
        .extensions()
        .get::<SessionState>()
        .and_then(|s| s.live().cloned());
    let (request_id, client_request_id) = request_ids(req.headers());
    // A list searched by name: whether, never the words (the query is read on the lists only).
    let searched = matches!(
        route.as_str(),
        "/api/dashboard/quotes" | "/api/dashboard/enrollees"
    ) && req.uri().query().is_some_and(|q| {
        q.split('&').any(|kv| {
            kv.strip_prefix("searchName=")
                .is_some_and(|v| !v.is_empty())
        })
    });
    let last_segment = req
        .uri()
        .path()
        .rsplit('/')
        .next()
        .and_then(|s| s.parse::<Uuid>().ok());
    let (mut parts, body) = req.into_parts();
    let ClientAddress(address) = match ClientAddress::from_request_parts(&mut parts, &app).await {
        Ok(a) => a,
        Err(never) => match never {},
    };
    let res = next.run(Request::from_parts(parts, body)).await;

    let status = res.status();
    let reached = audited(&method, &route, searched);
    let action = if status == StatusCode::FORBIDDEN
        || (status == StatusCode::NOT_FOUND && matches!(reached, Some(Reached::PathApplication(_))))
    {
        Some((Action::AccessRefused, last_segment))
    } else if status.is_success() {
        match reached {
            Some(Reached::PathApplication(a)) => Some((a, last_segment)),
            Some(Reached::SessionApplication(a)) => {
                Some((a, session.as_ref().and_then(|s| s.application_id)))
            }
            Some(Reached::List(a)) => Some((a, None)),
            None if is_change(&method, &route)
                && session
                    .as_ref()
                    .is_some_and(|s| s.impersonator_id.is_some()) =>
            {
                Some((
                    Action::ImpersonatedAction,
                    session.as_ref().and_then(|s| s.application_id),
                ))
            }
            None => None,
        }
    } else {
        None
    };
    if let Some((action, application)) = action {
        let entry = audit::Entry {
            action,
            actor: session
                .as_ref()
                .and_then(|s| s.impersonator_id.or(s.user_id)),
            subject: session.as_ref().and_then(|s| s.user_id),
            address,
            application,
            detail: Some(format!("{method} {route}")),
            request_id,
            client_request_id,
        };
        if let Err(e) = audit::record(&app.pool, app.clock.now(), &entry).await {
            // What cannot be recorded is not answered: the data stays with the server.
            tracing::error!(error = %e, action = action.as_str(), "audit row not written");
            return ApiError::Unavailable.into_response();
        }
    }
    res
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(default)]
pub struct AuditQuery {
    /// One action (`application_viewed`, `access_refused`, …).
    pub action: Option<String>,
    /// A person's e-mail address: rows where they are the actor or the subject.
    pub person: Option<String>,
    /// One application's id.
    pub application: Option<Uuid>,
    /// From this day (YYYY-MM-DD, UTC), inclusive.
    pub from: Option<String>,
    /// Until this day (YYYY-MM-DD, UTC), inclusive.
    pub until: Option<String>,
    /// The `next` of the previous page.
    pub before: Option<i64>,
}

/// One audit row.
#[derive(Debug, Serialize, ToSchema)]
pub struct AuditRow {
    pub id: i64,
    #[serde(with = "time::serde::rfc3339")]
    pub at: OffsetDateTime,
    pub action: String,
    pub actor_id: Option<Uuid>,
    pub actor_name: Option<String>,
    pub subject_id: Option<Uuid>,
    pub subject_name: Option<String>,
    pub application_id: Option<Uuid>,
    /// The method and route template of the call.
    pub detail: Option<String>,
    pub address: Option<String>,
    /// The server's own id of the request.
    pub request_id: Option<String>,
    /// The id the client sent, if it sent one.
    pub client_request_id: Option<String>,
}

/// A page of the audit log, newest first.
#[derive(Debug, Serialize, ToSchema)]
pub struct AuditPage {
    pub rows: Vec<AuditRow>,
    /// Pass as `before` for the next (older) page; absent on the last page.
    pub next: Option<i64>,
    /// Every action name, for the filter.
    pub actions: Vec<&'static str>,
}

const PAGE: i64 = 50;

fn day(s: &Option<String>, key: &str) -> ApiResult<Option<OffsetDateTime>> {
    match s.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
        None => Ok(None),
        Some(s) => time::Date::parse(s, time::macros::format_description!("[year]-[month]-[day]"))
            .map(|d| Some(d.midnight().assume_utc()))
            .map_err(|_| ApiError::BadRequest(format!("`{key}` must be a date like 2024-11-20."))),
    }
}

#[utoipa::path(get, path = "/api/admin/audit", tag = "admin", params(AuditQuery),
    responses(
        (status = 200, body = AuditPage),
        (status = 400, description = "An unknown action or a malformed date"),
        (status = 403, description = "Not an admin")))]
async fn audit_log(
    State(app): State<AppState>,
    current: CurrentUser,
    Query(q): Query<AuditQuery>,
) -> ApiResult<Json<AuditPage>> {
    current.require_admin()?;
    let action = match q.action.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
        None => None,
        Some(a) => Some(
            Action::parse(a).ok_or_else(|| ApiError::BadRequest(format!("No action `{a}`.")))?,
        ),
    };
    let search = audit::Search {
        action,
        person: q.person.as_deref().map(str::trim).filter(|s| !s.is_empty()),
        application: q.application,
        from: day(&q.from, "from")?,
        until: day(&q.until, "until")?.map(|d| d + time::Duration::days(1)),
        before: q.before,
    };
    let audit::Page { rows, next } = audit::search(&app.pool, &search, PAGE).await?;
    Ok(Json(AuditPage {
        rows: rows
            .into_iter()
            .map(|r| AuditRow {
                id: r.id,
                at: r.at,
                action: r.action,
                actor_id: r.actor_id,
                actor_name: r.actor_name,
                subject_id: r.subject_id,
                subject_name: r.subject_name,
                application_id: r.application_id,
                detail: r.detail,
                address: r.address,
                request_id: r.request_id,
                client_request_id: r.client_request_id,
            })
            .collect(),
        next,
        actions: Action::ALL.iter().map(|a| a.as_str()).collect(),
    }))
}

/// The header a client's own `x-request-id` is moved to: the server always names a request itself.
pub const CLIENT_REQUEST_ID: &str = "x-client-request-id";

/// Moves a client's `x-request-id` aside (to [`CLIENT_REQUEST_ID`], 100 visible ASCII characters
/// at most), so that the id set next, logged and audited is the server's own.
pub async fn own_request_id(mut req: Request, next: Next) -> Response {
    if let Some(sent) = req.headers_mut().remove("x-request-id") {
        let kept: String = sent
            .to_str()
            .unwrap_or_default()
            .chars()
            .filter(char::is_ascii_graphic)
            .take(100)
            .collect();
        if let Ok(v) = axum::http::HeaderValue::from_str(&kept)
            && !kept.is_empty()
        {
            req.headers_mut().insert(CLIENT_REQUEST_ID, v);
        }
    }
    next.run(req).await
}

/// The server's request id and the client's, as the audit log keeps them.
pub fn request_ids(headers: &axum::http::HeaderMap) -> (Option<String>, Option<String>) {
    let get = |name: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string)
    };
    (get("x-request-id"), get(CLIENT_REQUEST_ID))
}

/// Who acts on the rules, as their audit rows name them: the person (the admin while acting as
/// an agent), the client's address and both request ids.
pub fn actor_of(
    current: &super::auth::CurrentUser,
    address: Option<std::net::IpAddr>,
    headers: &axum::http::HeaderMap,
) -> crate::rules::governance::Actor {
    let (request_id, client_request_id) = request_ids(headers);
    crate::rules::governance::Actor {
        id: Some(current.actor_id()),
        address,
        request_id,
        client_request_id,
    }
}
