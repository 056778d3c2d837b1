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
    /// The link's token, encrypted under the data key (`mail::LINK_SECRET` marks its place in
    /// the body); `None` once sent or expired, or for a message without one.
    pub secret: Option<String>,
    /// A private message (a consumer's receipt): `to_address` and `body` are encrypted under the
    /// data key (`mail::enqueue_private`).
    pub private: bool,
}

/// A secret that goes into a message's body at send time.
pub struct Secret<'a> {
    /// Encrypted under the data key.
    pub encrypted: &'a str,
    /// When it stops being worth sending (the link's own expiry); it is dropped then.
    pub expires_at: OffsetDateTime,
}

const COLUMNS: &str =
    "id, to_address, subject, body, created_at, sent_at, attempts, secret, private";

pub async fn insert(
    db: impl PgExecutor<'_>,
    to_address: &str,
    subject: &str,
    body: &str,
    secret: Option<&Secret<'_>>,
    now: OffsetDateTime,
) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "INSERT INTO outbox (to_address, subject, body, secret, secret_expires_at, created_at,
                             next_attempt_at)
         VALUES ($1, $2, $3, $4, $5, $6, $6) RETURNING id",
    )
    .bind(to_address)
    .bind(subject)
    .bind(body)
    .bind(secret.map(|s| s.encrypted))
    .bind(secret.map(|s| s.expires_at))
    .bind(now)
    .fetch_one(db)
    .await
}

/// Writes a private message: recipient and body already encrypted, and the recipient's keyed
/// digest (`mail::recipient_digest`) for the operator's look-up by address.
pub async fn insert_private(
    db: impl PgExecutor<'_>,
    to_encrypted: &str,
    to_digest: &[u8; 32],
    subject: &str,
    body_encrypted: &str,
    now: OffsetDateTime,
) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "INSERT INTO outbox (to_address, to_hash, subject, body, private, created_at,
                             next_attempt_at)
         VALUES ($1, $2, $3, $4, true, $5, $5) RETURNING id",
    )
    .bind(to_encrypted)
    .bind(&to_digest[..])
    .bind(subject)
    .bind(body_encrypted)
    .bind(now)
    .fetch_one(db)
    .await
}

/// Drops the secrets of messages whose links have expired; how many.
pub async fn drop_expired_secrets(pool: &PgPool, now: OffsetDateTime) -> sqlx::Result<u64> {
    Ok(sqlx::query(
        "UPDATE outbox SET secret = NULL, secret_expires_at = NULL
         WHERE secret IS NOT NULL AND secret_expires_at <= $1",
    )
    .bind(now)
    .execute(pool)
    .await?
    .rows_affected())
}

/// The newest messages to one address, given with its keyed digest (a private message is found
/// by the digest), or to anyone; for the operator's `enrollflow mail`.
pub async fn newest_to(
    pool: &PgPool,
    to: Option<(&str, [u8; 32])>,
    limit: i64,
) -> sqlx::Result<Vec<OutboxRow>> {
    sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM outbox WHERE ($1::text IS NULL OR lower(to_address) = lower($1)
                OR to_hash = $2)
         ORDER BY created_at DESC, id DESC LIMIT $3"
    ))
    .bind(to.map(|(a, _)| a))
    .bind(to.map(|(_, d)| d.to_vec()))
    .bind(limit)
    .fetch_all(pool)
    .await
}

/// The newest messages first.
pub async fn newest(pool: &PgPool, limit: i64) -> sqlx::Result<Vec<OutboxRow>> {
    sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM outbox ORDER BY created_at DESC, id DESC LIMIT $1"
    ))
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
    sqlx::query_as(&format!(
        "UPDATE outbox SET next_attempt_at = $2, attempts = attempts + 1
         WHERE id IN (SELECT id FROM outbox
                      WHERE sent_at IS NULL AND next_attempt_at <= $1
                      ORDER BY id LIMIT $3 FOR UPDATE SKIP LOCKED)
         RETURNING {COLUMNS}"
    ))
    .bind(now)
    .bind(lease_until)
    .bind(limit)
    .fetch_all(pool)
    .await
}

/// A message was handed to the relay: it is marked sent, and neither its body nor its secret is
/// kept.
pub async fn mark_sent(pool: &PgPool, id: i64, now: OffsetDateTime) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE outbox SET sent_at = $2, body = '', secret = NULL, secret_expires_at = NULL
         WHERE id = $1",
    )
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

/// Messages not sent yet (the `enrollflow_outbox_depth` gauge).
pub async fn unsent_count(pool: &PgPool) -> sqlx::Result<i64> {
    sqlx::query_scalar("SELECT count(*) FROM outbox WHERE sent_at IS NULL")
        .fetch_one(pool)
        .await
}
