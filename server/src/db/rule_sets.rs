//! Published rule sets (migration 16): the analysts' files kept whole, one row per set, and one row
//! per publication (a publish or a rollback), each taking effect at its `effective_at` unless it is
//! cancelled first (migration 30); the newest that took effect is the set every instance serves. A
//! publication notifies [`CHANNEL`] in its transaction, so listeners hear of it only once it is
//! committed.

use serde::{Deserialize, Serialize};
use sqlx::PgPool;
use time::OffsetDateTime;

use enrollflow_engine::Source;

/// The channel instances listen on; the payload is the published set's hash.
pub const CHANNEL: &str = "enrollflow_rules";

/// One file of a set.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct File {
    pub path: String,
    pub text: String,
}

/// A publication: which set, by whom, when, and whether it was a rollback.
#[derive(Debug, Clone, sqlx::FromRow, Serialize, utoipa::ToSchema)]
pub struct Publication {
    pub id: i64,
    /// The set's hash (over every file).
    pub hash: String,
    /// The engine's hash of the set, as applications saved under it record it.
    pub engine_hash: String,
    /// `publish` or `rollback`.
    pub action: String,
    pub author: String,
    pub note: Option<String>,
    #[serde(with = "time::serde::rfc3339")]
    pub published_at: OffsetDateTime,
    /// When it takes effect (or took it).
    #[serde(with = "time::serde::rfc3339")]
    pub effective_at: OffsetDateTime,
    /// Cancelled before it took effect.
    #[serde(with = "time::serde::rfc3339::option")]
    pub cancelled_at: Option<OffsetDateTime>,
    /// Who approved it (a publication of a proposal).
    pub approver: Option<String>,
    /// The proposal it published.
    pub proposal_id: Option<i64>,
}

/// When and on whose approval a publication takes effect.
#[derive(Debug, Clone, Copy)]
pub struct Effect<'a> {
    pub effective_at: OffsetDateTime,
    pub proposal: Option<i64>,
    pub approver: Option<&'a str>,
}

/// The files of a set, as sources the engine and the templates load.
pub fn sources(files: &[File]) -> Vec<Source> {
    files
        .iter()
        .map(|f| Source::new(f.path.clone(), f.text.clone()))
        .collect()
}

/// Keeps a set (once: a set already kept is not written again) and publishes it, effective at
/// `effect.effective_at`.
pub async fn publish(
    pool: &PgPool,
    hash: &str,
    engine_hash: &str,
    files: &[File],
    author: &str,
    note: Option<&str>,
    effect: Effect<'_>,
) -> sqlx::Result<Publication> {
    let mut tx = pool.begin().await?;
    let p = publish_in(&mut tx, hash, engine_hash, files, author, note, effect).await?;
    tx.commit().await?;
    Ok(p)
}

/// [`publish`] in the caller's transaction (an approval decides the proposal in the same one).
pub async fn publish_in(
    tx: &mut sqlx::Transaction<'_, sqlx::Postgres>,
    hash: &str,
    engine_hash: &str,
    files: &[File],
    author: &str,
    note: Option<&str>,
    effect: Effect<'_>,
) -> sqlx::Result<Publication> {
    sqlx::query(
        "INSERT INTO rule_sets (hash, engine_hash, files, author, note)
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT (hash) DO NOTHING",
    )
    .bind(hash)
    .bind(engine_hash)
    .bind(sqlx::types::Json(files))
    .bind(author)
    .bind(note)
    .execute(&mut **tx)
    .await?;
    record(tx, hash, "publish", author, effect).await
}

/// Serves an earlier set again, at `now`; `None` when no set has that hash (or a unique prefix of
/// it).
pub async fn rollback(
    pool: &PgPool,
    hash_prefix: &str,
    author: &str,
    now: OffsetDateTime,
) -> sqlx::Result<Option<Publication>> {
    let mut tx = pool.begin().await?;
    let found: Vec<(String,)> =
        sqlx::query_as("SELECT hash FROM rule_sets WHERE starts_with(hash, $1) LIMIT 2")
            .bind(hash_prefix)
            .fetch_all(&mut *tx)
            .await?;
    let [(hash,)] = found.as_slice() else {
        return Ok(None);
    };
    let effect = Effect {
        effective_at: now,
        proposal: None,
        approver: None,
    };
    let p = record(&mut tx, hash, "rollback", author, effect).await?;
    tx.commit().await?;
    Ok(Some(p))
}

/// Cancels a publication that has not taken effect yet; false when there is none such.
pub async fn cancel(pool: &PgPool, id: i64, now: OffsetDateTime) -> sqlx::Result<bool> {
    let mut tx = pool.begin().await?;
    let done = sqlx::query(
        "UPDATE rule_set_publications SET cancelled_at = $2
         WHERE id = $1 AND cancelled_at IS NULL AND effective_at > $2",
    )
    .bind(id)
    .bind(now)
    .execute(&mut *tx)
    .await?;
    sqlx::query("SELECT pg_notify($1, 'cancelled')")
        .bind(CHANNEL)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(done.rows_affected() == 1)
}

/// The publications that have not taken effect yet, soonest first.
pub async fn scheduled(pool: &PgPool, now: OffsetDateTime) -> sqlx::Result<Vec<Publication>> {
    sqlx::query_as(&format!(
        "{HISTORY} WHERE p.cancelled_at IS NULL AND p.effective_at > $1 ORDER BY p.effective_at, p.id"
    ))
    .bind(now)
    .fetch_all(pool)
    .await
}

async fn record(
    tx: &mut sqlx::Transaction<'_, sqlx::Postgres>,
    hash: &str,
    action: &str,
    author: &str,
    effect: Effect<'_>,
) -> sqlx::Result<Publication> {
    let (id,): (i64,) = sqlx::query_as(
        "INSERT INTO rule_set_publications (hash, action, author, effective_at, proposal_id, approver)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
    )
    .bind(hash)
    .bind(action)
    .bind(author)
    .bind(effect.effective_at)
    .bind(effect.proposal)
    .bind(effect.approver)
    .fetch_one(&mut **tx)
    .await?;
    sqlx::query("SELECT pg_notify($1, $2)")
        .bind(CHANNEL)
        .bind(hash)
        .execute(&mut **tx)
        .await?;
    sqlx::query_as(&format!("{HISTORY} WHERE p.id = $1"))
        .bind(id)
        .fetch_one(&mut **tx)
        .await
}

const HISTORY: &str =
    "SELECT p.id, p.hash, s.engine_hash, p.action, p.author, s.note, p.published_at,
            p.effective_at, p.cancelled_at, p.approver, p.proposal_id
     FROM rule_set_publications p JOIN rule_sets s ON s.hash = p.hash";

/// The newest publications first.
pub async fn history(pool: &PgPool, limit: i64) -> sqlx::Result<Vec<Publication>> {
    sqlx::query_as(&format!("{HISTORY} ORDER BY p.id DESC LIMIT $1"))
        .bind(limit)
        .fetch_all(pool)
        .await
}

/// The publication serving at `now`: the newest that took effect and was not cancelled; `None`
/// before the first publish.
pub async fn newest(pool: &PgPool, now: OffsetDateTime) -> sqlx::Result<Option<Publication>> {
    sqlx::query_as(&format!(
        "{HISTORY} WHERE p.cancelled_at IS NULL AND p.effective_at <= $1
         ORDER BY p.effective_at DESC, p.id DESC LIMIT 1"
    ))
    .bind(now)
    .fetch_optional(pool)
    .await
}

/// Whether any set was ever published.
pub async fn any(pool: &PgPool) -> sqlx::Result<bool> {
    sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM rule_set_publications)")
        .fetch_one(pool)
        .await
}

/// The set serving at `now` and its files; `None` before the first publish.
pub async fn serving(
    pool: &PgPool,
    now: OffsetDateTime,
) -> sqlx::Result<Option<(Publication, Vec<File>)>> {
    let Some(p) = newest(pool, now).await? else {
        return Ok(None);
    };
    let files = files(pool, &p.hash).await?.unwrap_or_default();
    Ok(Some((p, files)))
}

/// A kept set's files.
pub async fn files(pool: &PgPool, hash: &str) -> sqlx::Result<Option<Vec<File>>> {
    let row: Option<(sqlx::types::Json<Vec<File>>,)> =
        sqlx::query_as("SELECT files FROM rule_sets WHERE hash = $1")
            .bind(hash)
            .fetch_optional(pool)
            .await?;
    Ok(row.map(|(j,)| j.0))
}

/// The files of the newest kept set whose engine hash is `engine_hash` (the set an application
/// was saved under).
pub async fn files_by_engine_hash(
    pool: &PgPool,
    engine_hash: &str,
) -> sqlx::Result<Option<Vec<File>>> {
    let row: Option<(sqlx::types::Json<Vec<File>>,)> = sqlx::query_as(
        "SELECT files FROM rule_sets WHERE engine_hash = $1 ORDER BY created_at DESC LIMIT 1",
    )
    .bind(engine_hash)
    .fetch_optional(pool)
    .await?;
    Ok(row.map(|(j,)| j.0))
}
