//! The `sessions` table. Rows are keyed by the SHA-256 of the cookie token.

use sqlx::PgPool;
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct SessionRow {
    pub csrf_token: String,
    pub application_id: Option<Uuid>,
    /// The logged-in user (the agent's user while an admin impersonates).
    pub user_id: Option<Uuid>,
    /// The admin acting as `user_id`, while impersonating.
    pub impersonator_id: Option<Uuid>,
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
    let row: Option<SessionRow> = sqlx::query_as(
        "SELECT csrf_token, application_id, user_id, impersonator_id, last_seen_at FROM sessions
         WHERE id_hash = $1 AND last_seen_at > $2",
    )
    .bind(id_hash)
    .bind(cutoff)
    .fetch_optional(pool)
    .await?;
    let Some(row) = row else {
        return Ok(None);
    };
    let last_seen_at = row.last_seen_at;
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
        last_seen_at: recorded,
        ..row
    }))
}

/// Replaces a session: deletes `old` (if any) and inserts the new one with its user, in one
/// transaction. Sessions are never given a user in place, so the id changes at every login,
/// impersonation and switch back.
pub async fn replace(
    pool: &PgPool,
    old: Option<&[u8]>,
    id_hash: &[u8],
    csrf_token: &str,
    user_id: Option<Uuid>,
    impersonator_id: Option<Uuid>,
    now: OffsetDateTime,
) -> sqlx::Result<()> {
    let mut tx = pool.begin().await?;
    if let Some(old) = old {
        sqlx::query("DELETE FROM sessions WHERE id_hash = $1")
            .bind(old)
            .execute(&mut *tx)
            .await?;
    }
    sqlx::query(
        "INSERT INTO sessions (id_hash, csrf_token, user_id, impersonator_id, created_at, last_seen_at)
         VALUES ($1, $2, $3, $4, $5, $5)",
    )
    .bind(id_hash)
    .bind(csrf_token)
    .bind(user_id)
    .bind(impersonator_id)
    .bind(now)
    .execute(&mut *tx)
    .await?;
    tx.commit().await
}

/// Ends every session of a user (as the user, or as the admin acting as them), except `keep`.
/// Returns the hashes of the sessions ended.
pub async fn delete_for_user(
    db: impl sqlx::PgExecutor<'_>,
    user_id: Uuid,
    keep: Option<&[u8]>,
) -> sqlx::Result<Vec<Vec<u8>>> {
    sqlx::query_scalar(
        "DELETE FROM sessions
         WHERE (user_id = $1 OR impersonator_id = $1) AND ($2::bytea IS NULL OR id_hash <> $2)
         RETURNING id_hash",
    )
    .bind(user_id)
    .bind(keep)
    .fetch_all(db)
    .await
}

pub async fn delete(pool: &PgPool, id_hash: &[u8]) -> sqlx::Result<()> {
    sqlx::query("DELETE FROM sessions WHERE id_hash = $1")
        .bind(id_hash)
        .execute(pool)
        .await?;
    Ok(())
}

pub async fn set_application(
    db: impl sqlx::PgExecutor<'_>,
    id_hash: &[u8],
    application_id: Option<Uuid>,
) -> sqlx::Result<()> {
    sqlx::query("UPDATE sessions SET application_id = $2 WHERE id_hash = $1")
        .bind(id_hash)
        .bind(application_id)
        .execute(db)
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
