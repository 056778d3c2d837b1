//! Submissions' evidence packets for their agent: whether the PDF is ready, and
//! the PDF and JSON as they were stored (`crate::documents::evidence`).

use axum::Json;
use axum::extract::{Path, State};
use axum::http::{HeaderName, HeaderValue, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use time::OffsetDateTime;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use uuid::Uuid;

use super::auth::CurrentUser;
use super::error::{ApiError, ApiResult};
use crate::app::dashboard::evidence::{self as packets, PacketError};
use crate::documents::evidence::confirmation;
use crate::http::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(evidence_status))
        .routes(routes!(evidence_pdf))
        .routes(routes!(evidence_json))
        .routes(routes!(evidence_keys))
}

/// The evidence keys as a JSON Web Key Set (RFC 7517, Ed25519 keys as in RFC 8037).
#[derive(Debug, Serialize, ToSchema)]
pub struct EvidenceKeySet {
    pub keys: Vec<EvidenceKey>,
}

/// One trusted evidence key.
#[derive(Debug, Serialize, ToSchema)]
pub struct EvidenceKey {
    /// Always `OKP`.
    pub kty: String,
    /// Always `Ed25519`.
    pub crv: String,
    /// Always `EdDSA`.
    pub alg: String,
    /// Always `sig`.
    #[serde(rename = "use")]
    pub use_: String,
    /// The key id packets name.
    pub kid: String,
    /// The public key, base64url without padding.
    pub x: String,
}

#[utoipa::path(get, path = "/.well-known/enrollflow-evidence-keys.json", tag = "site",
    description = "The public keys evidence packets and their PDFs are signed with, as a JSON Web \
                   Key Set (Ed25519, by key id): the key signing today's packets and the retired \
                   keys earlier packets name. `enrollflow verify-packet --keys` reads this file.",
    responses((status = 200, content_type = "application/json", body = EvidenceKeySet)))]
async fn evidence_keys(State(app): State<AppState>) -> Response {
    (
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            ),
            (
                header::CACHE_CONTROL,
                HeaderValue::from_static("public, max-age=3600"),
            ),
        ],
        app.evidence_keys.jwks().to_string(),
    )
        .into_response()
}

#[derive(Debug, Serialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum PacketState {
    /// The PDF is being drawn in the background (the JSON is ready).
    Preparing,
    Ready,
}

/// A submission's evidence packet.
#[derive(Debug, Serialize, ToSchema)]
pub struct Evidence {
    pub state: PacketState,
    pub confirmation: String,
    /// The SHA-256 (hex) of the packet's JSON, stored at the purchase.
    pub sha256: String,
    /// The SHA-256 (hex) of its PDF, once drawn.
    pub pdf_sha256: Option<String>,
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
}

impl From<PacketError> for ApiError {
    fn from(e: PacketError) -> Self {
        match e {
            PacketError::NoApplication | PacketError::NotSubmitted | PacketError::NoPacketKept => {
                ApiError::NotFound(e.to_string())
            }
            PacketError::CustomersOwn => ApiError::Conflict(e.to_string()),
            PacketError::Failed(e) => e.into(),
        }
    }
}

#[utoipa::path(get, path = "/api/dashboard/evidence/{id}", tag = "dashboard",
    description = "Whether a submission's evidence packet is ready to download; asking again \
                   restarts the PDF of a packet whose drawing failed.",
    params(("id" = Uuid, Path, description = "One of the agent's submissions")),
    responses((status = 200, body = Evidence), (status = 403), (status = 404), (status = 419)))]
async fn evidence_status(
    State(app): State<AppState>,
    user: CurrentUser,
    Path(id): Path<Uuid>,
) -> ApiResult<Json<Evidence>> {
    let p = packets::packet_state(&app.pool, user.dashboard_agent()?, id).await?;
    if p.pdf.is_none() {
        app.evidence_waiting.notify_one();
    }
    Ok(Json(Evidence {
        state: if p.pdf.is_some() {
            PacketState::Ready
        } else {
            PacketState::Preparing
        },
        confirmation: confirmation(p.application_id),
        sha256: hex::encode(&p.sha256),
        pdf_sha256: p.pdf_sha256.as_deref().map(hex::encode),
        created_at: p.created_at,
    }))
}

fn download(
    bytes: Vec<u8>,
    content_type: &'static str,
    file_name: &str,
    sha256: &[u8],
) -> Response {
    let disposition = HeaderValue::from_str(&format!("attachment; filename=\"{file_name}\""))
        .unwrap_or_else(|_| HeaderValue::from_static("attachment"));
    let sha = HeaderValue::from_str(&hex::encode(sha256))
        .unwrap_or_else(|_| HeaderValue::from_static(""));
    (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static(content_type)),
            (header::CONTENT_DISPOSITION, disposition),
            // Personal data: never kept by a cache.
            (header::CACHE_CONTROL, HeaderValue::from_static("no-store")),
            (HeaderName::from_static("x-content-sha256"), sha),
        ],
        bytes,
    )
        .into_response()
}

#[utoipa::path(get, path = "/api/dashboard/evidencePdf/{id}", tag = "dashboard",
    params(("id" = Uuid, Path, description = "One of the agent's submissions")),
    responses((status = 200, content_type = "application/pdf", description = "The packet's PDF, \
                   as drawn once and kept (its SHA-256 in `X-Content-SHA256`)"),
              (status = 403), (status = 404),
              (status = 409, description = "The PDF is still being prepared, or the customer \
                  finished the application from a hand-off"), (status = 419)))]
async fn evidence_pdf(
    State(app): State<AppState>,
    user: CurrentUser,
    Path(id): Path<Uuid>,
) -> ApiResult<Response> {
    let p = packets::downloadable(&app.pool, user.dashboard_agent()?, id).await?;
    let name = format!("evidence-{}.pdf", confirmation(id));
    match (p.pdf, p.pdf_sha256) {
        (Some(pdf), Some(sha)) => Ok(download(pdf, "application/pdf", &name, &sha)),
        _ => {
            app.evidence_waiting.notify_one();
            Err(ApiError::Conflict(
                "The evidence packet's PDF is still being prepared. Try again in a moment.".into(),
            ))
        }
    }
}

#[utoipa::path(get, path = "/api/dashboard/evidenceJson/{id}", tag = "dashboard",
    params(("id" = Uuid, Path, description = "One of the agent's submissions")),
    responses((status = 200, content_type = "application/json", description = "The packet's \
                   JSON, byte for byte as stored at the purchase (its SHA-256 in \
                   `X-Content-SHA256`)"),
              (status = 403), (status = 404),
              (status = 409, description = "The customer finished the application from a hand-off"),
              (status = 419)))]
async fn evidence_json(
    State(app): State<AppState>,
    user: CurrentUser,
    Path(id): Path<Uuid>,
) -> ApiResult<Response> {
    let p = packets::downloadable(&app.pool, user.dashboard_agent()?, id).await?;
    let name = format!("evidence-{}.json", confirmation(id));
    Ok(download(p.packet, "application/json", &name, &p.sha256))
}
