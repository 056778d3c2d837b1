//! The write baseline of `make bench-http` (`--bench-routes` only): one JSONB document written
//! durably to one row, the database work of a step save without the application's columns and
//! indexes. Its table is made empty by the migrations (the server's role makes no tables) and
//! filled on first use.

use serde_json::Value;
use sqlx::PgPool;
use tokio::sync::OnceCell;

static TABLE: OnceCell<()> = OnceCell::const_new();

/// Writes `doc` to row `slot` of `bench_writes` (given `slots` rows on first use).
pub async fn write(pool: &PgPool, slot: i32, doc: &Value, slots: i32) -> sqlx::Result<()> {
    TABLE
        .get_or_try_init(|| async {
            sqlx::query(
                "INSERT INTO bench_writes SELECT g, '{}' FROM generate_series(0, $1 - 1) g
                 ON CONFLICT (slot) DO NOTHING",
            )
            .bind(slots)
            .execute(pool)
            .await
            .map(|_| ())
        })
        .await?;
    sqlx::query("UPDATE bench_writes SET doc = $2 WHERE slot = $1")
        .bind(slot)
        .bind(sqlx::types::Json(doc))
        .execute(pool)
        .await
        .map(|_| ())
}
