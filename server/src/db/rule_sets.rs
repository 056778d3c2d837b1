//! Published rule sets (migration 16): the analysts' files kept whole, one row per set, and one row
//! per publication (a publish or a rollback); the newest publication is the set every instance
//! serves. A publication notifies [`CHANNEL`] in its transaction, so listeners hear of it only once
//! it is committed.

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
}

/// The files of a set, as sources the engine and the templates load.
pub fn sources(files: &[File]) -> Vec<Source> {
    files
        .iter()
        .map(|f| Source::new(f.path.clone(), f.text.clone()))
        .collect()
}

/// Keeps a set (once: a set already kept is not written again) and publishes it.
pub async fn publish(
    pool: &PgPool,
    hash: &str,
    engine_hash: &str,
    files: &[File],
    author: &str,
    note: Option<&str>,
) -> sqlx::Result<Publication> {
    let mut tx = pool.begin().await?;
    sqlx::query(
        "INSERT INTO rule_sets (hash, engine_hash, files, author, note)
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT (hash) DO NOTHING",
    )
    .bind(hash)
    .bind(engine_hash)
    .bind(sqlx::types::Json(files))
    .bind(author)
    .bind(note)
    .execute(&mut *tx)
    .await?;
    let p = record(&mut tx, hash, "publish", author).await?;
    tx.commit().await?;
    Ok(p)
}

/// Serves an earlier set again; `None` when no set has that hash (or a unique prefix of it).
pub async fn rollback(
    pool: &PgPool,
    hash_prefix: &str,
    author: &str,
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
    let p = record(&mut tx, hash, "rollback", author).await?;
    tx.commit().await?;
    Ok(Some(p))
}

async fn record(
    tx: &mut sqlx::Transaction<'_, sqlx::Postgres>,
    hash: &str,
    action: &str,
    author: &str,
) -> sqlx::Result<Publication> {
    let (id,): (i64,) = sqlx::query_as(
        "INSERT INTO rule_set_publications (hash, action, author) VALUES ($1, $2, $3) RETURNING id",
    )
    .bind(hash)
    .bind(action)
    .bind(author)
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
    "SELECT p.id, p.hash, s.engine_hash, p.action, p.author, s.note, p.published_at
     FROM rule_set_publications p JOIN rule_sets s ON s.hash = p.hash";

/// The newest publications first.
pub async fn history(pool: &PgPool, limit: i64) -> sqlx::Result<Vec<Publication>> {
    sqlx::query_as(&format!("{HISTORY} ORDER BY p.id DESC LIMIT $1"))
        .bind(limit)
        .fetch_all(pool)
        .await
}

/// The newest publication (it names the set serving now); `None` before the first publish.
pub async fn newest(pool: &PgPool) -> sqlx::Result<Option<Publication>> {
    Ok(history(pool, 1).await?.into_iter().next())
}

/// The set serving now (the newest publication) and its files; `None` before the first publish.
pub async fn serving(pool: &PgPool) -> sqlx::Result<Option<(Publication, Vec<File>)>> {
    let Some(p) = newest(pool).await? else {
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
