//! The caches' announcements to the other instances (`pg_notify` on the cache channel).

use sqlx::PgPool;

/// Sends a batch of notifications on `channel` in one transaction that does not wait for the
/// disk (an announcement lost in a crash only costs a cache miss).
pub async fn announce(pool: &PgPool, channel: &str, batch: &[String]) -> sqlx::Result<()> {
    let mut tx = pool.begin().await?;
    sqlx::query("SET LOCAL synchronous_commit = off")
        .execute(&mut *tx)
        .await?;
    sqlx::query("SELECT pg_notify($1, p) FROM unnest($2::text[]) AS p")
        .bind(channel)
        .bind(batch)
        .execute(&mut *tx)
        .await?;
    tx.commit().await
}
