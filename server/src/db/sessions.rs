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

/// What a cookie's token names.
#[derive(Debug, Clone)]
pub enum Lookup {
    /// A live session (its activity now recorded).
    Live(SessionRow),
    /// A session that was idle past the cutoff or older than its absolute lifetime: deleted now.
    Expired,
    /// A session replaced (login, impersonation, switch back) or ended (logout, timeout) within
    /// the last [`REPLACED_KEPT`]: a request sent before that with the old cookie.
    Replaced,
    /// No such session (never one, swept, or ended by a password change or an admin).
    Unknown,
}

/// How long a replaced session's hash is remembered.
pub const REPLACED_KEPT: time::Duration = time::Duration::minutes(1);

/// Records activity on a live session and returns it. A session idle since `idle_cutoff` or
/// created before `created_cutoff` (the absolute lifetime) is deleted and answered `Expired`.
pub async fn touch(
    pool: &PgPool,
    id_hash: &[u8],
    now: OffsetDateTime,
    idle_cutoff: OffsetDateTime,
    created_cutoff: OffsetDateTime,
) -> sqlx::Result<Lookup> {
    let row: Option<(SessionRow, OffsetDateTime)> = sqlx::query_as::<_, FullRow>(
        "SELECT csrf_token, application_id, user_id, impersonator_id, last_seen_at, created_at
         FROM sessions WHERE id_hash = $1",
    )
    .bind(id_hash)
    .fetch_optional(pool)
    .await?
    .map(FullRow::split);
    let Some((row, created_at)) = row else {
        let replaced: bool = sqlx::query_scalar(
            "SELECT EXISTS (SELECT 1 FROM replaced_sessions WHERE id_hash = $1 AND replaced_at > $2)",
        )
        .bind(id_hash)
        .bind(now - REPLACED_KEPT)
        .fetch_one(pool)
        .await?;
        return Ok(if replaced {
            Lookup::Replaced
        } else {
            Lookup::Unknown
        });
    };
    if row.last_seen_at <= idle_cutoff || created_at <= created_cutoff {
        delete(pool, id_hash).await?;
        return Ok(Lookup::Expired);
    }
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
    Ok(Lookup::Live(SessionRow {
        last_seen_at: recorded,
        ..row
    }))
}

#[derive(sqlx::FromRow)]
struct FullRow {
    csrf_token: String,
    application_id: Option<Uuid>,
    user_id: Option<Uuid>,
    impersonator_id: Option<Uuid>,
    last_seen_at: OffsetDateTime,
    created_at: OffsetDateTime,
}

impl FullRow {
    fn split(self) -> (SessionRow, OffsetDateTime) {
        (
            SessionRow {
                csrf_token: self.csrf_token,
                application_id: self.application_id,
                user_id: self.user_id,
                impersonator_id: self.impersonator_id,
                last_seen_at: self.last_seen_at,
            },
            self.created_at,
        )
    }
}

/// Remembers that a session was replaced or ended (see [`Lookup::Replaced`]).
async fn remember_replaced(
    db: impl sqlx::PgExecutor<'_>,
    id_hash: &[u8],
    now: OffsetDateTime,
) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO replaced_sessions (id_hash, replaced_at) VALUES ($1, $2)
         ON CONFLICT (id_hash) DO UPDATE SET replaced_at = EXCLUDED.replaced_at",
    )
    .bind(id_hash)
    .bind(now)
    .execute(db)
    .await?;
    Ok(())
}

/// Replaces a session: deletes `old` (if any) and inserts the new one with its user, in one
/// transaction. Sessions are never given a user in place, so the id changes at every login,
/// impersonation and switch back.
pub async fn replace(
    pool: &PgPool,
    old: Option<&[u8]>,
    new: &NewSession<'_>,
    now: OffsetDateTime,
) -> sqlx::Result<()> {
    let mut tx = pool.begin().await?;
    if let Some(old) = old {
        sqlx::query("DELETE FROM sessions WHERE id_hash = $1")
            .bind(old)
            .execute(&mut *tx)
            .await?;
        remember_replaced(&mut *tx, old, now).await?;
    }
    sqlx::query(
        "INSERT INTO sessions (id_hash, csrf_token, user_id, impersonator_id, user_agent,
                               second_factor_at, created_at, last_seen_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $7)",
    )
    .bind(new.id_hash)
    .bind(new.csrf_token)
    .bind(new.user_id)
    .bind(new.impersonator_id)
    .bind(new.user_agent)
    .bind(new.second_factor_at)
    .bind(now)
    .execute(&mut *tx)
    .await?;
    tx.commit().await
}

/// A session about to be created by [`replace`].
pub struct NewSession<'a> {
    pub id_hash: &'a [u8],
    pub csrf_token: &'a str,
    pub user_id: Option<Uuid>,
    pub impersonator_id: Option<Uuid>,
    /// The browser's User-Agent (at most 300 characters).
    pub user_agent: Option<&'a str>,
    /// When the person proved their second factor (carried over by impersonation and switch back).
    pub second_factor_at: Option<OffsetDateTime>,
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

/// Ends a session the browser asked to end (logout, timeout): deleted, and remembered as replaced
/// for a minute so that a request still in flight with its cookie does not start another one.
pub async fn end(pool: &PgPool, id_hash: &[u8], now: OffsetDateTime) -> sqlx::Result<()> {
    let mut tx = pool.begin().await?;
    sqlx::query("DELETE FROM sessions WHERE id_hash = $1")
        .bind(id_hash)
        .execute(&mut *tx)
        .await?;
    remember_replaced(&mut *tx, id_hash, now).await?;
    tx.commit().await
}

/// A user's session, as "Signed-in devices" lists it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct DeviceRow {
    pub id_hash: Vec<u8>,
    pub created_at: OffsetDateTime,
    pub last_seen_at: OffsetDateTime,
    pub user_agent: Option<String>,
    /// An admin's session while acting as an agent.
    pub impersonating: bool,
}

/// The live sessions of a person: their own and, for an admin, those in which they act as an
/// agent; newest activity first.
pub async fn for_person(
    pool: &PgPool,
    user_id: Uuid,
    idle_cutoff: OffsetDateTime,
    created_cutoff: OffsetDateTime,
) -> sqlx::Result<Vec<DeviceRow>> {
    sqlx::query_as(
        "SELECT id_hash, created_at, last_seen_at, user_agent, impersonator_id IS NOT NULL AS impersonating
         FROM sessions
         WHERE ((user_id = $1 AND impersonator_id IS NULL) OR impersonator_id = $1)
           AND last_seen_at > $2 AND created_at > $3
         ORDER BY last_seen_at DESC, created_at DESC",
    )
    .bind(user_id)
    .bind(idle_cutoff)
    .bind(created_cutoff)
    .fetch_all(pool)
    .await
}

/// Ends one of a person's sessions (see [`for_person`]); whether there was one.
pub async fn delete_for_person(pool: &PgPool, user_id: Uuid, id_hash: &[u8]) -> sqlx::Result<bool> {
    Ok(sqlx::query(
        "DELETE FROM sessions WHERE id_hash = $2
           AND ((user_id = $1 AND impersonator_id IS NULL) OR impersonator_id = $1)",
    )
    .bind(user_id)
    .bind(id_hash)
    .execute(pool)
    .await?
    .rows_affected()
        > 0)
}

/// Forgets replaced sessions older than [`REPLACED_KEPT`].
pub async fn sweep_replaced(pool: &PgPool, now: OffsetDateTime) -> sqlx::Result<u64> {
    Ok(
        sqlx::query("DELETE FROM replaced_sessions WHERE replaced_at <= $1")
            .bind(now - REPLACED_KEPT)
            .execute(pool)
            .await?
            .rows_affected(),
    )
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

/// Hands an application over to one session: it becomes that session's, and every other session
/// that held it lets go of it (one statement; each change is announced to every instance's cache
/// by the sessions trigger). Answers how many other sessions let go.
pub async fn hand_over(
    db: impl sqlx::PgExecutor<'_>,
    id_hash: &[u8],
    application_id: Uuid,
) -> sqlx::Result<u64> {
    let done = sqlx::query(
        "UPDATE sessions
         SET application_id = CASE WHEN id_hash = $1 THEN $2 ELSE NULL END
         WHERE id_hash = $1 OR application_id = $2",
    )
    .bind(id_hash)
    .bind(application_id)
    .execute(db)
    .await?;
    Ok(done.rows_affected().saturating_sub(1))
}

/// Removes every session idle since before `cutoff` or created before `created_cutoff`; returns
/// how many.
pub async fn delete_idle(
    pool: &PgPool,
    cutoff: OffsetDateTime,
    created_cutoff: OffsetDateTime,
) -> sqlx::Result<u64> {
    Ok(
        sqlx::query("DELETE FROM sessions WHERE last_seen_at <= $1 OR created_at <= $2")
            .bind(cutoff)
            .bind(created_cutoff)
            .execute(pool)
            .await?
            .rows_affected(),
    )
}

/// Sessions seen since `cutoff` and created since `created_cutoff` (the `enrollflow_sessions_active`
/// gauge).
pub async fn live_count(
    pool: &PgPool,
    cutoff: OffsetDateTime,
    created_cutoff: OffsetDateTime,
) -> sqlx::Result<i64> {
    sqlx::query_scalar("SELECT count(*) FROM sessions WHERE last_seen_at > $1 AND created_at > $2")
        .bind(cutoff)
        .bind(created_cutoff)
        .fetch_one(pool)
        .await
}
