//! The `sessions` table. Rows are keyed by the SHA-256 of the cookie token.

use sqlx::PgPool;
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct SessionRow {
    pub csrf_token: String,
    pub application_id: Option<Uuid>,
    /// The activity time now recorded.
    pub last_seen_at: OffsetDateTime,
}

pub async fn create(
    pool: &PgPool,
    id_hash: &[u8],
    csrf_token: &str,
    now: OffsetDateTime,
) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO sessions (id_hash, csrf_token, created_at, last_seen_at) VALUES ($1, $2, $3, $3)",
    )
    .bind(id_hash)
    .bind(csrf_token)
    .bind(now)
    .execute(pool)
    .await?;
    Ok(())
}

/// How often activity is written: a request within this long of the last recorded one needs no
/// write (idle expiry is 30 minutes, so a few seconds of precision cost nothing, and most requests
/// stay read-only).
pub const TOUCH_EVERY: time::Duration = time::Duration::seconds(15);

/// Records activity on a live session and returns it; `None` if it is unknown or idle past `cutoff`.
pub async fn touch(
    pool: &PgPool,
    id_hash: &[u8],
    now: OffsetDateTime,
    cutoff: OffsetDateTime,
) -> sqlx::Result<Option<SessionRow>> {
    let row: Option<(String, Option<Uuid>, OffsetDateTime)> = sqlx::query_as(
        "SELECT csrf_token, application_id, last_seen_at FROM sessions
         WHERE id_hash = $1 AND last_seen_at > $2",
    )
    .bind(id_hash)
    .bind(cutoff)
    .fetch_optional(pool)
    .await?;
    let Some((csrf_token, application_id, last_seen_at)) = row else {
        return Ok(None);
    };
    let mut recorded = last_seen_at;
    if now - last_seen_at >= TOUCH_EVERY || last_seen_at > now {
        sqlx::query("UPDATE sessions SET last_seen_at = $2 WHERE id_hash = $1")
            .bind(id_hash)
            .bind(now)
            .execute(pool)
            .await?;
        recorded = now;
    }
    Ok(Some(SessionRow {
        csrf_token,
        application_id,
        last_seen_at: recorded,
    }))
}

pub async fn delete(pool: &PgPool, id_hash: &[u8]) -> sqlx::Result<()> {
    sqlx::query("DELETE FROM sessions WHERE id_hash = $1")
        .bind(id_hash)
        .execute(pool)
        .await?;
    Ok(())
}

pub async fn set_application(
    pool: &PgPool,
    id_hash: &[u8],
    application_id: Option<Uuid>,
) -> sqlx::Result<()> {
    sqlx::query("UPDATE sessions SET application_id = $2 WHERE id_hash = $1")
        .bind(id_hash)
        .bind(application_id)
        .execute(pool)
        .await?;
    Ok(())
}

/// Removes every session idle since before `cutoff`; returns how many.
pub async fn delete_idle(pool: &PgPool, cutoff: OffsetDateTime) -> sqlx::Result<u64> {
    Ok(sqlx::query("DELETE FROM sessions WHERE last_seen_at <= $1")
        .bind(cutoff)
        .execute(pool)
        .await?
        .rows_affected())
}
