//! Applies the per-address limits (`crate::security::limits`) by route: a new session (the calls that start
//! one, made without a live session), a new application (a step saved by a session without one),
//! a page view, a document upload, a PDF, an export. Past a limit: 429 with `Retry-After`, before
//! the handler does any work.

use axum::extract::{FromRequestParts, MatchedPath, Request, State};
use axum::http::Method;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::error::ApiError;
use super::host::ClientAddress;
use crate::http::session::SessionState;
use crate::http::state::AppState;
use crate::security::limits::Bucket;

fn bucket(
    method: &Method,
    route: &str,
    has_session: bool,
    has_application: bool,
) -> Option<Bucket> {
    match (method.as_str(), route) {
        ("GET", "/api/get-auth-state" | "/api/start") if !has_session => Some(Bucket::NewSession),
        ("POST", "/api/events/pageView") => Some(Bucket::PageView),
        ("PUT", "/api/application/step/{step}") if !has_application => Some(Bucket::NewApplication),
        ("POST", "/api/whyapplying/fileupload") => Some(Bucket::Upload),
        (
            "GET",
            "/api/printPdf/{plan_type}/{flag}"
            | "/api/printPdf/{plan_type}/{flag}/{filters}"
            | "/api/printSelectionPdf",
        ) => Some(Bucket::Pdf),
        ("GET", "/api/dashboard/quotesExport" | "/api/dashboard/enrolleesExport") => {
            Some(Bucket::Export)
        }
        _ => None,
    }
}

pub async fn layer(State(app): State<AppState>, req: Request, next: Next) -> Response {
    let live = req
        .extensions()
        .get::<SessionState>()
        .and_then(|s| s.live());
    let has_session = live.is_some();
    let has_application = live.is_some_and(|s| s.application_id.is_some());
    let spend = req
        .extensions()
        .get::<MatchedPath>()
        .and_then(|p| bucket(req.method(), p.as_str(), has_session, has_application));
    let Some(spend) = spend else {
        return next.run(req).await;
    };
    let (mut parts, body) = req.into_parts();
    let ClientAddress(address) = match ClientAddress::from_request_parts(&mut parts, &app).await {
        Ok(a) => a,
        Err(never) => match never {},
    };
    if let Err(wait) = app.limits.spend(spend, address) {
        return ApiError::TooManyRequests(wait).into_response();
    }
    next.run(Request::from_parts(parts, body)).await
}
