//! What a backup is checked by (`crate::maintenance::backup`): every table's row count and a checksum of the
//! applications, read in one snapshot.

use std::collections::BTreeMap;

use sqlx::PgPool;

/// Rows per table of the `public` schema, and the MD5 of every application row, whole, in id
/// order (empty without applications).
pub async fn snapshot(pool: &PgPool) -> sqlx::Result<(BTreeMap<String, i64>, String)> {
    let mut tx = pool.begin().await?;
    sqlx::query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        .execute(&mut *tx)
        .await?;
    let names: Vec<String> = sqlx::query_scalar(
        "SELECT tablename::text FROM pg_tables WHERE schemaname = 'public' ORDER BY 1",
    )
    .fetch_all(&mut *tx)
    .await?;
    let mut tables = BTreeMap::new();
    for name in names {
        // Names come from the catalog; quoted as identifiers all the same.
        let quoted = format!("\"{}\"", name.replace('"', "\"\""));
        let n: i64 = sqlx::query_scalar(&format!("SELECT count(*) FROM {quoted}"))
            .fetch_one(&mut *tx)
            .await?;
        tables.insert(name, n);
    }
    let applications: Option<String> = sqlx::query_scalar(
        "SELECT md5(string_agg(a::text, ',' ORDER BY a.id)) FROM applications a",
    )
    .fetch_one(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok((tables, applications.unwrap_or_default()))
}

/// Tables in the `public` schema (a restore wants none).
pub async fn table_count(pool: &PgPool) -> sqlx::Result<i64> {
    sqlx::query_scalar("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")
        .fetch_one(pool)
        .await
}
