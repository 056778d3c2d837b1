//! Proposed rule sets (migration 30): a draft kept on the server with its note, the set it was
//! proposed against, the hash of its diff and the evidence an approver reads; then approved,
//! rejected (with a reason) or withdrawn.

use serde::Serialize;
use sqlx::{PgExecutor, PgPool};
use time::OffsetDateTime;
use uuid::Uuid;

use super::rule_sets::File;

/// A proposal as lists show it (without its files).
#[derive(Debug, Clone, sqlx::FromRow, Serialize, utoipa::ToSchema)]
pub struct Proposal {
    pub id: i64,
    /// The proposed set's hash.
    pub hash: String,
    pub engine_hash: String,
    /// The set serving when it was proposed: the diff is against it.
    pub base_hash: String,
    pub note: String,
    pub diff_hash: String,
    /// `proposed`, `approved`, `rejected` or `withdrawn`.
    pub state: String,
    pub author_id: Uuid,
    pub author: String,
    pub decided_by: Option<String>,
    #[serde(with = "time::serde::rfc3339::option")]
    pub decided_at: Option<OffsetDateTime>,
    /// Why it was rejected.
    pub reason: Option<String>,
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    /// What the approver reads: the impact (counts of stored applications, made-up households),
    /// the suites' result and the coverage.
    #[schema(value_type = Object)]
    pub evidence: sqlx::types::Json<serde_json::Value>,
}

const SELECT: &str = "
    SELECT p.id, p.hash, p.engine_hash, p.base_hash, p.note, p.diff_hash, p.state, p.author_id,
           a.email AS author, d.email AS decided_by, p.decided_at, p.reason, p.created_at,
           p.evidence
    FROM rule_proposals p
    LEFT JOIN users a ON a.id = p.author_id
    LEFT JOIN users d ON d.id = p.decided_by";

/// What a new proposal holds.
pub struct New<'a> {
    pub hash: &'a str,
    pub engine_hash: &'a str,
    pub base_hash: &'a str,
    pub files: &'a [File],
    /// The scenario suites the proposal changes (`tests/scenarios/…`), if any.
    pub suites: &'a [File],
    pub note: &'a str,
    pub diff_hash: &'a str,
    pub evidence: &'a serde_json::Value,
    pub author: Uuid,
}

pub async fn insert(
    db: impl PgExecutor<'_>,
    p: &New<'_>,
    now: OffsetDateTime,
) -> sqlx::Result<i64> {
    let (id,): (i64,) = sqlx::query_as(
        "INSERT INTO rule_proposals (hash, engine_hash, base_hash, files, note, diff_hash, evidence,
                                     author_id, state, created_at, updated_at, suites)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'proposed', $9, $9, $10) RETURNING id",
    )
    .bind(p.hash)
    .bind(p.engine_hash)
    .bind(p.base_hash)
    .bind(sqlx::types::Json(p.files))
    .bind(p.note)
    .bind(p.diff_hash)
    .bind(sqlx::types::Json(p.evidence))
    .bind(p.author)
    .bind(now)
    .bind(sqlx::types::Json(p.suites))
    .fetch_one(db)
    .await?;
    Ok(id)
}

/// The newest proposals first.
pub async fn list(pool: &PgPool, limit: i64) -> sqlx::Result<Vec<Proposal>> {
    sqlx::query_as(&format!("{SELECT} ORDER BY p.id DESC LIMIT $1"))
        .bind(limit)
        .fetch_all(pool)
        .await
}

pub async fn by_id(db: impl PgExecutor<'_>, id: i64) -> sqlx::Result<Option<Proposal>> {
    sqlx::query_as(&format!("{SELECT} WHERE p.id = $1"))
        .bind(id)
        .fetch_optional(db)
        .await
}

/// A proposal's files.
pub async fn files(db: impl PgExecutor<'_>, id: i64) -> sqlx::Result<Option<Vec<File>>> {
    let row: Option<(sqlx::types::Json<Vec<File>>,)> =
        sqlx::query_as("SELECT files FROM rule_proposals WHERE id = $1")
            .bind(id)
            .fetch_optional(db)
            .await?;
    Ok(row.map(|(f,)| f.0))
}

/// The scenario suites a proposal changes.
pub async fn suites(db: impl PgExecutor<'_>, id: i64) -> sqlx::Result<Vec<File>> {
    let row: Option<(sqlx::types::Json<Vec<File>>,)> =
        sqlx::query_as("SELECT suites FROM rule_proposals WHERE id = $1")
            .bind(id)
            .fetch_optional(db)
            .await?;
    Ok(row.map(|(f,)| f.0).unwrap_or_default())
}

/// Decides a proposal still `proposed`: `approved`, `rejected` or `withdrawn`. False when it was
/// decided already (by someone else meanwhile).
pub async fn decide(
    db: impl PgExecutor<'_>,
    id: i64,
    state: &str,
    by: Uuid,
    reason: Option<&str>,
    now: OffsetDateTime,
) -> sqlx::Result<bool> {
    let done = sqlx::query(
        "UPDATE rule_proposals SET state = $2, decided_by = $3, decided_at = $5, reason = $4,
                                   updated_at = $5
         WHERE id = $1 AND state = 'proposed'",
    )
    .bind(id)
    .bind(state)
    .bind(by)
    .bind(reason)
    .bind(now)
    .execute(db)
    .await?;
    Ok(done.rows_affected() == 1)
}
