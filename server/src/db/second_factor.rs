//! Second-factor state: the user's TOTP secret (encrypted by the caller), the step last used,
//! recovery-code hashes, logins waiting for their code, the session's last proof, and the
//! admins' "required for all agents" setting.

use sqlx::{PgExecutor, PgPool};
use time::OffsetDateTime;
use uuid::Uuid;

/// A user's factor as stored: the secrets still encrypted.
#[derive(Debug, sqlx::FromRow)]
pub struct Stored {
    pub secret: Option<String>,
    pub pending_secret: Option<String>,
}

pub async fn stored(pool: &PgPool, user_id: Uuid) -> sqlx::Result<Stored> {
    sqlx::query_as(
        "SELECT totp_secret AS secret, totp_pending_secret AS pending_secret
         FROM users WHERE id = $1",
    )
    .bind(user_id)
    .fetch_optional(pool)
    .await
    .map(|r| {
        r.unwrap_or(Stored {
            secret: None,
            pending_secret: None,
        })
    })
}

/// Keeps a secret being enrolled (encrypted) until a code confirms it.
pub async fn set_pending(pool: &PgPool, user_id: Uuid, encrypted: &str) -> sqlx::Result<()> {
    sqlx::query("UPDATE users SET totp_pending_secret = $2 WHERE id = $1")
        .bind(user_id)
        .bind(encrypted)
        .execute(pool)
        .await?;
    Ok(())
}

/// The pending secret becomes the user's factor; `step` (the confirming code's) counts as used.
pub async fn enable(
    db: impl PgExecutor<'_>,
    user_id: Uuid,
    step: i64,
    now: OffsetDateTime,
) -> sqlx::Result<bool> {
    let done = sqlx::query(
        "UPDATE users SET totp_secret = totp_pending_secret, totp_pending_secret = NULL,
                          totp_enabled_at = $2, totp_last_step = $3
         WHERE id = $1 AND totp_pending_secret IS NOT NULL",
    )
    .bind(user_id)
    .bind(now)
    .bind(step)
    .execute(db)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Removes the user's factor and recovery codes.
pub async fn disable(db: &mut sqlx::PgConnection, user_id: Uuid) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE users SET totp_secret = NULL, totp_pending_secret = NULL, totp_enabled_at = NULL,
                          totp_last_step = NULL
         WHERE id = $1",
    )
    .bind(user_id)
    .execute(&mut *db)
    .await?;
    sqlx::query("DELETE FROM recovery_codes WHERE user_id = $1")
        .bind(user_id)
        .execute(&mut *db)
        .await?;
    Ok(())
}

/// Records `step` as used unless it or a later one already was: whether the code counts. Atomic,
/// so two requests with the same code cannot both pass.
pub async fn use_step(pool: &PgPool, user_id: Uuid, step: i64) -> sqlx::Result<bool> {
    let done = sqlx::query(
        "UPDATE users SET totp_last_step = $2
         WHERE id = $1 AND totp_secret IS NOT NULL
           AND (totp_last_step IS NULL OR totp_last_step < $2)",
    )
    .bind(user_id)
    .bind(step)
    .execute(pool)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Replaces the user's recovery codes with these hashes.
pub async fn replace_recovery_codes(
    db: &mut sqlx::PgConnection,
    user_id: Uuid,
    hashes: &[[u8; 32]],
    now: OffsetDateTime,
) -> sqlx::Result<()> {
    sqlx::query("DELETE FROM recovery_codes WHERE user_id = $1")
        .bind(user_id)
        .execute(&mut *db)
        .await?;
    for h in hashes {
        sqlx::query(
            "INSERT INTO recovery_codes (user_id, code_hash, created_at) VALUES ($1, $2, $3)",
        )
        .bind(user_id)
        .bind(h.as_slice())
        .bind(now)
        .execute(&mut *db)
        .await?;
    }
    Ok(())
}

/// Uses a recovery code: whether it was one of the user's, unused (it is used now).
pub async fn use_recovery_code(
    pool: &PgPool,
    user_id: Uuid,
    hash: &[u8],
    now: OffsetDateTime,
) -> sqlx::Result<bool> {
    let done = sqlx::query(
        "UPDATE recovery_codes SET used_at = $3
         WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL",
    )
    .bind(user_id)
    .bind(hash)
    .bind(now)
    .execute(pool)
    .await?;
    Ok(done.rows_affected() == 1)
}

pub async fn recovery_codes_left(pool: &PgPool, user_id: Uuid) -> sqlx::Result<i64> {
    sqlx::query_scalar("SELECT count(*) FROM recovery_codes WHERE user_id = $1 AND used_at IS NULL")
        .bind(user_id)
        .fetch_one(pool)
        .await
}

/// A login's password step passed on this (anonymous) session: the code step may follow.
pub async fn set_challenge(
    pool: &PgPool,
    session_hash: &[u8],
    user_id: Uuid,
    now: OffsetDateTime,
) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO login_challenges (session_hash, user_id, created_at) VALUES ($1, $2, $3)
         ON CONFLICT (session_hash) DO UPDATE SET user_id = EXCLUDED.user_id,
                                                  created_at = EXCLUDED.created_at",
    )
    .bind(session_hash)
    .bind(user_id)
    .bind(now)
    .execute(pool)
    .await?;
    Ok(())
}

/// Whose password this session gave since `since`, if anyone's.
pub async fn challenge(
    pool: &PgPool,
    session_hash: &[u8],
    since: OffsetDateTime,
) -> sqlx::Result<Option<Uuid>> {
    sqlx::query_scalar(
        "SELECT user_id FROM login_challenges WHERE session_hash = $1 AND created_at >= $2",
    )
    .bind(session_hash)
    .bind(since)
    .fetch_optional(pool)
    .await
}

pub async fn delete_challenges_before(pool: &PgPool, cutoff: OffsetDateTime) -> sqlx::Result<u64> {
    Ok(
        sqlx::query("DELETE FROM login_challenges WHERE created_at < $1")
            .bind(cutoff)
            .execute(pool)
            .await?
            .rows_affected(),
    )
}

/// When the session's person last proved their second factor.
pub async fn session_proved_at(
    pool: &PgPool,
    session_hash: &[u8],
) -> sqlx::Result<Option<OffsetDateTime>> {
    Ok(
        sqlx::query_scalar("SELECT second_factor_at FROM sessions WHERE id_hash = $1")
            .bind(session_hash)
            .fetch_optional(pool)
            .await?
            .flatten(),
    )
}

pub async fn set_session_proved_at(
    pool: &PgPool,
    session_hash: &[u8],
    at: OffsetDateTime,
) -> sqlx::Result<()> {
    sqlx::query("UPDATE sessions SET second_factor_at = $2 WHERE id_hash = $1")
        .bind(session_hash)
        .bind(at)
        .execute(pool)
        .await?;
    Ok(())
}

pub async fn required_for_agents(pool: &PgPool) -> sqlx::Result<bool> {
    Ok(
        sqlx::query_scalar("SELECT second_factor_for_agents FROM security_settings")
            .fetch_optional(pool)
            .await?
            .unwrap_or(false),
    )
}

/// Sets the "required for all agents" switch. Switching it on ends the sessions of agents who
/// have not proved a second factor in them (they enrol at their next login); returns those
/// sessions' hashes.
pub async fn set_required_for_agents(
    pool: &PgPool,
    required: bool,
    by: Uuid,
    now: OffsetDateTime,
) -> sqlx::Result<Vec<Vec<u8>>> {
    let mut tx = pool.begin().await?;
    sqlx::query(
        "UPDATE security_settings SET second_factor_for_agents = $1, updated_at = $2,
                                      updated_by = $3",
    )
    .bind(required)
    .bind(now)
    .bind(by)
    .execute(&mut *tx)
    .await?;
    let ended = if required {
        sqlx::query_scalar(
            "DELETE FROM sessions s USING users u
             WHERE s.user_id = u.id AND u.role = 'agent' AND s.impersonator_id IS NULL
               AND s.second_factor_at IS NULL
             RETURNING s.id_hash",
        )
        .fetch_all(&mut *tx)
        .await?
    } else {
        Vec::new()
    };
    tx.commit().await?;
    Ok(ended)
}

/// Until when the user's factor is locked for wrong codes, if it is.
pub async fn locked_until(
    pool: &PgPool,
    user_id: Uuid,
    now: OffsetDateTime,
) -> sqlx::Result<Option<OffsetDateTime>> {
    Ok(sqlx::query_scalar(
        "SELECT factor_locked_until FROM users WHERE id = $1 AND factor_locked_until > $2",
    )
    .bind(user_id)
    .bind(now)
    .fetch_optional(pool)
    .await?
    .flatten())
}

/// Counts a wrong code. The `limit`-th in a row locks the factor, for `first` the first time and
/// twice as long each time after (at most `longest`), and starts the count again: the lock's end
/// when this wrong code locked it.
pub async fn record_failure(
    pool: &PgPool,
    user_id: Uuid,
    now: OffsetDateTime,
    limit: i32,
    first: time::Duration,
    longest: time::Duration,
) -> sqlx::Result<Option<OffsetDateTime>> {
    let (failures, lockouts): (i32, i32) = sqlx::query_as(
        "UPDATE users SET factor_failures = factor_failures + 1 WHERE id = $1
         RETURNING factor_failures, factor_lockouts",
    )
    .bind(user_id)
    .fetch_one(pool)
    .await?;
    if failures < limit {
        return Ok(None);
    }
    let doubled = first * 2_i32.saturating_pow(u32::try_from(lockouts.min(16)).unwrap_or(16));
    let until = now + doubled.min(longest);
    sqlx::query(
        "UPDATE users SET factor_failures = 0, factor_lockouts = factor_lockouts + 1,
                          factor_locked_until = $2
         WHERE id = $1",
    )
    .bind(user_id)
    .bind(until)
    .execute(pool)
    .await?;
    Ok(Some(until))
}

/// A right code: the count of wrong ones and the growing lock start over.
pub async fn clear_failures(pool: &PgPool, user_id: Uuid) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE users SET factor_failures = 0, factor_lockouts = 0, factor_locked_until = NULL
         WHERE id = $1 AND (factor_failures <> 0 OR factor_lockouts <> 0)",
    )
    .bind(user_id)
    .execute(pool)
    .await?;
    Ok(())
}
