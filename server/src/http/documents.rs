//! The qualifying-event document upload (spec part 2, sections 3 "whyapplying/fileupload" and 5)
//! and the wizard's page-view events (spec part 1, 4.1).
//!
//! `POST /api/whyapplying/fileupload`: 413 over 3 MB, 415 when it does not start `%PDF-`, 503 when
//! the store fails; the row and the application change in one transaction. `POST
//! /api/events/pageView` stores route templates only.

use axum::Json;
use axum::extract::{DefaultBodyLimit, Multipart, State};
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use uuid::Uuid;

use super::error::already_submitted;
use super::error::{ApiError, ApiResult};
use super::host::SiteHost;
use super::open::{context, open_step};
use super::revision::Wrote;
use crate::app::applying::Handles;
use crate::app::applying::upload::{self, Upload, UploadError};
use crate::app::operations;
use crate::documents;
use crate::http::session::LiveSession;
use crate::http::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(upload))
        // Room for the 3 MB file plus the multipart framing; the handler enforces the exact limit.
        .layer(DefaultBodyLimit::max(documents::MAX_BYTES + 64 * 1024))
        .routes(routes!(page_view))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Uploaded {
    pub document_id: Uuid,
    pub file_name: String,
    /// The application's revision after the upload (the next save's `If-Match`).
    pub revision: i64,
}

/// Reads the `file` part whole, refusing it as soon as it passes the limit.
async fn read_file(mut field: axum::extract::multipart::Field<'_>) -> ApiResult<Vec<u8>> {
    let mut bytes = Vec::new();
    while let Some(chunk) = field
        .chunk()
        .await
        .map_err(|e| ApiError::BadRequest(format!("The upload could not be read: {e}")))?
    {
        if bytes.len() + chunk.len() > documents::MAX_BYTES {
            return Err(ApiError::PayloadTooLarge);
        }
        bytes.extend_from_slice(&chunk);
    }
    Ok(bytes)
}

/// The upload check: reads the multipart body and answers the cleaned file name and the bytes of
/// the `file` part, or the refusal (400 unreadable, no file, empty or a wrong `enrollment_type`;
/// 413 over [`documents::MAX_BYTES`]; 415 not a PDF). Pure apart from reading the body, so
/// `fuzz/` drives it with arbitrary bodies.
pub async fn read_upload(mut multipart: Multipart) -> ApiResult<(String, Vec<u8>)> {
    let mut file = None;
    while let Some(field) = multipart.next_field().await.map_err(|e| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::PayloadTooLarge
        } else {
            ApiError::BadRequest(format!("The upload could not be read: {e}"))
        }
    })? {
        match field.name() {
            Some("file") => {
                let name = documents::clean_file_name(field.file_name().unwrap_or(""));
                file = Some((name, read_file(field).await?));
            }
            Some("enrollment_type") => {
                let t = field.text().await.unwrap_or_default();
                if t != "qle" {
                    return Err(ApiError::BadRequest(
                        "Documents are uploaded for a qualifying event only.".into(),
                    ));
                }
            }
            _ => {}
        }
    }
    let (file_name, bytes) =
        file.ok_or_else(|| ApiError::BadRequest("Choose a PDF file to upload.".into()))?;
    if bytes.is_empty() {
        return Err(ApiError::BadRequest("The file is empty.".into()));
    }
    if !documents::is_pdf(&bytes) {
        return Err(ApiError::UnsupportedMediaType);
    }
    Ok((file_name, bytes))
}

#[utoipa::path(post, path = "/api/whyapplying/fileupload", tag = "application",
    request_body(content = super::wire::UploadForm, content_type = "multipart/form-data",
                 description = "`file`: the PDF (at most 3 MB); `enrollment_type`: optional, must be `qle`"),
    responses((status = 200, body = Uploaded),
              (status = 403, description = "No application on this session yet (save Why Are You Applying first)"),
              (status = 409, description = "The application has been submitted, or has used its upload quota (10 files, 30 MB)"),
              (status = 413, description = "The file is larger than 3 MB"),
              (status = 415, description = "The file is not a PDF"),
              (status = 503, description = "The file could not be stored; nothing was changed")))]
async fn upload(
    State(app): State<AppState>,
    session: LiveSession,
    host: SiteHost,
    multipart: Multipart,
) -> ApiResult<(Wrote, Json<Uploaded>)> {
    // The step the upload belongs to (its answers show the file's name): the flow's `upload_step`.
    let step = app
        .rules
        .current()
        .engine
        .upload_step()
        .map(str::to_string)
        .ok_or_else(|| ApiError::NotFound("This application takes no documents.".into()))?;
    let s = open_step(&app, &session, &host, &step).await?;
    let id = s.id.ok_or(ApiError::Forbidden)?;
    let (file_name, bytes) = read_upload(multipart).await?;
    let u = Upload {
        application: id,
        step: &step,
        file_name: &file_name,
        bytes: &bytes,
    };
    match upload::attach(&Handles::of(&app), &u).await {
        Ok(a) => Ok((
            Wrote::application(id, a.revision),
            Json(Uploaded {
                document_id: a.document_id,
                file_name,
                revision: a.revision,
            }),
        )),
        Err(e @ UploadError::NotStored) => Err(ApiError::TryAgain(e.to_string())),
        Err(e @ UploadError::OverQuota) => Err(ApiError::Conflict(e.to_string())),
        Err(UploadError::Submitted) => Err(already_submitted()),
        Err(UploadError::Failed(e)) => Err(e.into()),
    }
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct PageView {
    /// The route's template as the router names it (`/census`, `/reset-password/email/:email/token/:token`),
    /// never a filled-in path.
    pub route: String,
}

#[utoipa::path(post, path = "/api/events/pageView", tag = "application",
    request_body = PageView,
    responses((status = 204, description = "Recorded"), (status = 400, description = "Not a route template")))]
async fn page_view(
    State(app): State<AppState>,
    session: LiveSession,
    host: SiteHost,
    Json(view): Json<PageView>,
) -> ApiResult<StatusCode> {
    let ok = view.route.starts_with('/')
        && view.route.len() <= 121
        && view
            .route
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"/_:.-".contains(&b));
    if !ok {
        return Err(ApiError::BadRequest("Not a route template.".into()));
    }
    let agent = match context(&app, &host, Some(&session)).await {
        Ok((agent, _)) => Some(agent.id),
        Err(ApiError::NotFound(_)) => None,
        Err(e) => return Err(e),
    };
    let now = app.clock.now();
    operations::page_viewed(&app.pool, &view.route, session.application_id, agent, now).await?;
    Ok(StatusCode::NO_CONTENT)
}
