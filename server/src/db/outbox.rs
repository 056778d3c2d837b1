//! The `outbox` table: every outgoing e-mail, sent or not.

use sqlx::{PgExecutor, PgPool};
use time::OffsetDateTime;

#[derive(Clone, sqlx::FromRow)]
pub struct OutboxRow {
    pub id: i64,
    pub to_address: String,
    pub subject: String,
    pub body: String,
    pub created_at: OffsetDateTime,
    pub sent_at: Option<OffsetDateTime>,
    pub attempts: i32,
}

pub async fn insert(
    db: impl PgExecutor<'_>,
    to_address: &str,
    subject: &str,
    body: &str,
    now: OffsetDateTime,
) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "INSERT INTO outbox (to_address, subject, body, created_at, next_attempt_at)
         VALUES ($1, $2, $3, $4, $4) RETURNING id",
    )
    .bind(to_address)
    .bind(subject)
    .bind(body)
    .bind(now)
    .fetch_one(db)
    .await
}

/// The newest messages first.
pub async fn newest(pool: &PgPool, limit: i64) -> sqlx::Result<Vec<OutboxRow>> {
    sqlx::query_as(
        "SELECT id, to_address, subject, body, created_at, sent_at, attempts FROM outbox
         ORDER BY created_at DESC, id DESC LIMIT $1",
    )
    .bind(limit)
    .fetch_all(pool)
    .await
}

/// Claims up to `limit` unsent messages that are due: each gets a lease until `lease_until` (no
/// other instance takes it meanwhile) and one more attempt counted.
pub async fn claim_due(
    pool: &PgPool,
    now: OffsetDateTime,
    lease_until: OffsetDateTime,
    limit: i64,
) -> sqlx::Result<Vec<OutboxRow>> {
    sqlx::query_as(
        "UPDATE outbox SET next_attempt_at = $2, attempts = attempts + 1
         WHERE id IN (SELECT id FROM outbox
                      WHERE sent_at IS NULL AND next_attempt_at <= $1
                      ORDER BY id LIMIT $3 FOR UPDATE SKIP LOCKED)
         RETURNING id, to_address, subject, body, created_at, sent_at, attempts",
    )
    .bind(now)
    .bind(lease_until)
    .bind(limit)
    .fetch_all(pool)
    .await
}

/// A message was handed to the relay: it is marked sent, and its body (which may hold a
/// single-use link) is not kept.
pub async fn mark_sent(pool: &PgPool, id: i64, now: OffsetDateTime) -> sqlx::Result<()> {
    sqlx::query("UPDATE outbox SET sent_at = $2, body = '' WHERE id = $1")
        .bind(id)
        .bind(now)
        .execute(pool)
        .await?;
    Ok(())
}

/// A send failed: try again at `next_attempt_at` (the message is never dropped).
pub async fn retry_at(pool: &PgPool, id: i64, next_attempt_at: OffsetDateTime) -> sqlx::Result<()> {
    sqlx::query("UPDATE outbox SET next_attempt_at = $2 WHERE id = $1 AND sent_at IS NULL")
        .bind(id)
        .bind(next_attempt_at)
        .execute(pool)
        .await?;
    Ok(())
}
