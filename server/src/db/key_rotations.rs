//! What `enrollflow rotate-key` reads and writes (`crate::security::keys`): applications in id order, the
//! other encrypted columns, and the rotation's checkpoint (`key_rotations`).

use serde_json::Value;
use sqlx::PgPool;
use uuid::Uuid;

/// Where a rotation to a key stands.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Checkpoint {
    pub last_application: Option<Uuid>,
    pub rotated: i64,
    pub finished_at: Option<time::OffsetDateTime>,
}

pub async fn checkpoint(pool: &PgPool, key_id: &str) -> sqlx::Result<Option<Checkpoint>> {
    sqlx::query_as(
        "SELECT last_application, rotated, finished_at FROM key_rotations WHERE key_id = $1",
    )
    .bind(key_id)
    .fetch_optional(pool)
    .await
}

/// Whether any rotation has finished (everything older releases wrote is re-sealed since).
pub async fn any_finished(pool: &PgPool) -> sqlx::Result<bool> {
    sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM key_rotations WHERE finished_at IS NOT NULL)")
        .fetch_one(pool)
        .await
}

/// Records progress: every application up to `last` is done.
pub async fn advance(pool: &PgPool, key_id: &str, last: Uuid, rotated: i64) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO key_rotations (key_id, last_application, rotated) VALUES ($1, $2, $3)
         ON CONFLICT (key_id) DO UPDATE SET last_application = $2, rotated = $3, finished_at = NULL",
    )
    .bind(key_id)
    .bind(last)
    .bind(rotated)
    .execute(pool)
    .await?;
    Ok(())
}

pub async fn finish(pool: &PgPool, key_id: &str, rotated: i64) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO key_rotations (key_id, rotated, finished_at) VALUES ($1, $2, now())
         ON CONFLICT (key_id) DO UPDATE SET rotated = $2, finished_at = now()",
    )
    .bind(key_id)
    .bind(rotated)
    .execute(pool)
    .await?;
    Ok(())
}

/// Applications after `after` (all from the start with `None`), in id order: id, revision, data.
pub async fn applications_after(
    pool: &PgPool,
    after: Option<Uuid>,
    limit: i64,
) -> sqlx::Result<Vec<(Uuid, i64, Value)>> {
    sqlx::query_as(
        "SELECT id, revision, data FROM applications
         WHERE $1::uuid IS NULL OR id > $1 ORDER BY id LIMIT $2",
    )
    .bind(after)
    .bind(limit)
    .fetch_all(pool)
    .await
}

/// One application's revision and data.
pub async fn application(pool: &PgPool, id: Uuid) -> sqlx::Result<Option<(i64, Value)>> {
    sqlx::query_as("SELECT revision, data FROM applications WHERE id = $1")
        .bind(id)
        .fetch_optional(pool)
        .await
}

/// Applications after `after` (all with `None`).
pub async fn count_after(pool: &PgPool, after: Option<Uuid>) -> sqlx::Result<i64> {
    sqlx::query_scalar("SELECT count(*) FROM applications WHERE $1::uuid IS NULL OR id > $1")
        .bind(after)
        .fetch_one(pool)
        .await
}

/// Writes re-encrypted data if the application is still at `revision`. The revision is kept (the
/// answers did not change, so an open wizard's next save is not refused); the table's trigger
/// announces the change, so every instance drops its cached copy.
pub async fn replace_data(
    pool: &PgPool,
    id: Uuid,
    revision: i64,
    data: &Value,
) -> sqlx::Result<bool> {
    Ok(
        sqlx::query("UPDATE applications SET data = $3 WHERE id = $1 AND revision = $2")
            .bind(id)
            .bind(revision)
            .bind(data)
            .execute(pool)
            .await?
            .rows_affected()
            == 1,
    )
}

/// Outbox rows holding encrypted values: id, recipient, body, link secret, private.
pub async fn encrypted_outbox(
    pool: &PgPool,
) -> sqlx::Result<Vec<(i64, String, String, Option<String>, bool, Option<Vec<u8>>)>> {
    sqlx::query_as(
        "SELECT id, to_address, body, secret, private, to_hash FROM outbox
         WHERE private OR secret IS NOT NULL ORDER BY id",
    )
    .fetch_all(pool)
    .await
}

/// Writes a message's re-encrypted values (and a private one's recipient digest under the current
/// key) unless its secret changed meanwhile (sent or expired).
pub async fn replace_outbox(
    pool: &PgPool,
    id: i64,
    (to_address, body, secret): (&str, &str, Option<&str>),
    to_hash: Option<&[u8; 32]>,
    old_secret: Option<&str>,
) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE outbox SET to_address = $2, body = $3, secret = $4, to_hash = coalesce($6, to_hash)
         WHERE id = $1 AND secret IS NOT DISTINCT FROM $5",
    )
    .bind(id)
    .bind(to_address)
    .bind(body)
    .bind(secret)
    .bind(old_secret)
    .bind(to_hash.map(|h| h.to_vec()))
    .execute(pool)
    .await?;
    Ok(())
}

/// Users' authenticator secrets: id, confirmed secret, pending secret.
pub async fn totp_secrets(
    pool: &PgPool,
) -> sqlx::Result<Vec<(Uuid, Option<String>, Option<String>)>> {
    sqlx::query_as(
        "SELECT id, totp_secret, totp_pending_secret FROM users
         WHERE totp_secret IS NOT NULL OR totp_pending_secret IS NOT NULL ORDER BY id",
    )
    .fetch_all(pool)
    .await
}

/// Writes a user's re-encrypted secrets unless they changed meanwhile (`old`).
pub async fn replace_totp(
    pool: &PgPool,
    id: Uuid,
    new: (Option<&str>, Option<&str>),
    old: (Option<&str>, Option<&str>),
) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE users SET totp_secret = $2, totp_pending_secret = $3
         WHERE id = $1 AND totp_secret IS NOT DISTINCT FROM $4
           AND totp_pending_secret IS NOT DISTINCT FROM $5",
    )
    .bind(id)
    .bind(new.0)
    .bind(new.1)
    .bind(old.0)
    .bind(old.1)
    .execute(pool)
    .await?;
    Ok(())
}

/// Every stored document: its application and storage key.
pub async fn documents(pool: &PgPool) -> sqlx::Result<Vec<(Uuid, String)>> {
    sqlx::query_as("SELECT application_id, storage_key FROM documents ORDER BY id")
        .fetch_all(pool)
        .await
}
