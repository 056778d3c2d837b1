//! The `known_devices` table: the browsers each account signed in from, by the SHA-256 of their
//! device cookie.

use sqlx::PgPool;
use time::OffsetDateTime;
use uuid::Uuid;

/// How a sign-in's browser stands with its account.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seen {
    /// Signed in from before.
    Known,
    /// Never seen, and the account has signed in from other browsers: worth telling.
    New,
    /// The account's first browser.
    First,
}

/// Records a sign-in from the browser `device_hash` names and says how it stands.
pub async fn sign_in(
    pool: &PgPool,
    user_id: Uuid,
    device_hash: &[u8; 32],
    now: OffsetDateTime,
) -> sqlx::Result<Seen> {
    let (known, others): (bool, bool) = sqlx::query_as(
        "SELECT EXISTS (SELECT 1 FROM known_devices WHERE user_id = $1 AND device_hash = $2),
                EXISTS (SELECT 1 FROM known_devices WHERE user_id = $1 AND device_hash <> $2)",
    )
    .bind(user_id)
    .bind(&device_hash[..])
    .fetch_one(pool)
    .await?;
    sqlx::query(
        "INSERT INTO known_devices (user_id, device_hash, first_seen, last_seen)
         VALUES ($1, $2, $3, $3)
         ON CONFLICT (user_id, device_hash) DO UPDATE SET last_seen = EXCLUDED.last_seen",
    )
    .bind(user_id)
    .bind(&device_hash[..])
    .bind(now)
    .execute(pool)
    .await?;
    Ok(match (known, others) {
        (true, _) => Seen::Known,
        (false, true) => Seen::New,
        (false, false) => Seen::First,
    })
}
