//! The `evidence_packets` table (migration 19) and the uploaded documents' hashes.

use sqlx::{PgExecutor, PgPool};
use time::OffsetDateTime;
use uuid::Uuid;

/// An application's uploaded document, as the packet needs it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct DocumentRow {
    pub id: Uuid,
    pub storage_key: String,
    pub file_name: String,
    pub size_bytes: i32,
    pub sha256: Option<Vec<u8>>,
    pub created_at: OffsetDateTime,
}

/// The application's documents, oldest first.
pub async fn documents_of(
    db: impl PgExecutor<'_>,
    application_id: Uuid,
) -> sqlx::Result<Vec<DocumentRow>> {
    sqlx::query_as(
        "SELECT id, storage_key, file_name, size_bytes, sha256, created_at FROM documents
         WHERE application_id = $1 ORDER BY created_at, id",
    )
    .bind(application_id)
    .fetch_all(db)
    .await
}

/// Records a document's hash (for rows uploaded before hashes were kept).
pub async fn set_document_sha256(
    db: impl PgExecutor<'_>,
    id: Uuid,
    sha256: &[u8; 32],
) -> sqlx::Result<()> {
    sqlx::query("UPDATE documents SET sha256 = $2 WHERE id = $1")
        .bind(id)
        .bind(&sha256[..])
        .execute(db)
        .await?;
    Ok(())
}

/// Stores a purchase's packet (in the purchase's transaction).
pub async fn insert(
    db: impl PgExecutor<'_>,
    application_id: Uuid,
    packet: &[u8],
    sha256: &[u8; 32],
    now: OffsetDateTime,
) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO evidence_packets (application_id, packet, sha256, created_at)
         VALUES ($1, $2, $3, $4)",
    )
    .bind(application_id)
    .bind(packet)
    .bind(&sha256[..])
    .bind(now)
    .execute(db)
    .await?;
    Ok(())
}

/// A stored packet.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct PacketRow {
    pub application_id: Uuid,
    pub packet: Vec<u8>,
    pub sha256: Vec<u8>,
    pub created_at: OffsetDateTime,
    pub pdf: Option<Vec<u8>>,
    pub pdf_sha256: Option<Vec<u8>>,
    pub pdf_problem: Option<String>,
}

const PACKET: &str =
    "e.application_id, e.packet, e.sha256, e.created_at, e.pdf, e.pdf_sha256, e.pdf_problem";

/// An application's packet.
pub async fn packet(pool: &PgPool, application_id: Uuid) -> sqlx::Result<Option<PacketRow>> {
    sqlx::query_as(&format!(
        "SELECT {PACKET} FROM evidence_packets e WHERE e.application_id = $1"
    ))
    .bind(application_id)
    .fetch_optional(pool)
    .await
}

/// The packet of one of the agent's applications.
pub async fn packet_for_agent(
    pool: &PgPool,
    application_id: Uuid,
    agent_id: Uuid,
) -> sqlx::Result<Option<PacketRow>> {
    sqlx::query_as(&format!(
        "SELECT {PACKET} FROM evidence_packets e JOIN applications a ON a.id = e.application_id
         WHERE e.application_id = $1 AND a.agent_id = $2"
    ))
    .bind(application_id)
    .bind(agent_id)
    .fetch_optional(pool)
    .await
}

/// Whether one of the agent's applications is submitted (a submission without a packet was made
/// before packets were kept).
pub async fn submitted_for_agent(
    pool: &PgPool,
    application_id: Uuid,
    agent_id: Uuid,
) -> sqlx::Result<Option<bool>> {
    sqlx::query_scalar(
        "SELECT submission_time IS NOT NULL FROM applications WHERE id = $1 AND agent_id = $2",
    )
    .bind(application_id)
    .bind(agent_id)
    .fetch_optional(pool)
    .await
}

/// Which packet a file is, by its hash: the application, and whether the file is the PDF.
pub async fn by_hash(pool: &PgPool, sha256: &[u8; 32]) -> sqlx::Result<Option<(Uuid, bool)>> {
    sqlx::query_as(
        "SELECT application_id, pdf_sha256 = $1 FROM evidence_packets
         WHERE sha256 = $1 OR pdf_sha256 = $1 LIMIT 1",
    )
    .bind(&sha256[..])
    .fetch_optional(pool)
    .await
}

/// Packets still without a PDF (and without a problem), oldest first.
pub async fn without_pdf(pool: &PgPool, limit: i64) -> sqlx::Result<Vec<Uuid>> {
    sqlx::query_scalar(
        "SELECT application_id FROM evidence_packets WHERE pdf IS NULL AND pdf_problem IS NULL
         ORDER BY created_at LIMIT $1",
    )
    .bind(limit)
    .fetch_all(pool)
    .await
}

/// Keeps a packet's PDF (unless another instance kept one first: the first stays).
pub async fn set_pdf(
    pool: &PgPool,
    application_id: Uuid,
    pdf: &[u8],
    sha256: &[u8; 32],
    now: OffsetDateTime,
) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE evidence_packets SET pdf = $2, pdf_sha256 = $3, pdf_made_at = $4, pdf_problem = NULL
         WHERE application_id = $1 AND pdf IS NULL",
    )
    .bind(application_id)
    .bind(pdf)
    .bind(&sha256[..])
    .bind(now)
    .execute(pool)
    .await?;
    Ok(())
}

/// Why a packet's PDF could not be made (cleared when it is asked for again).
pub async fn set_problem(
    pool: &PgPool,
    application_id: Uuid,
    problem: Option<&str>,
) -> sqlx::Result<()> {
    sqlx::query("UPDATE evidence_packets SET pdf_problem = $2 WHERE application_id = $1")
        .bind(application_id)
        .bind(problem)
        .execute(pool)
        .await?;
    Ok(())
}
