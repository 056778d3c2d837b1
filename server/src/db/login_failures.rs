//! The `login_failures` table: recent failed logins per account key and client address, shared by
//! every instance.

use sqlx::PgPool;
use time::OffsetDateTime;

/// Records a login attempt as a failure (a success clears it again) and returns the failures
/// counted before it since `since`: (for this account key, from this address). The count and the
/// insert run under a per-account lock in one transaction, so a parallel burst is counted one by
/// one: each attempt sees every earlier one.
pub async fn record_attempt(
    pool: &PgPool,
    account_key: &[u8],
    address: Option<std::net::IpAddr>,
    now: OffsetDateTime,
    since: OffsetDateTime,
) -> sqlx::Result<(i64, i64)> {
    let mut tx = pool.begin().await?;
    sqlx::query("SELECT pg_advisory_xact_lock(hashtextextended('login:' || encode($1, 'hex'), 0))")
        .bind(account_key)
        .execute(&mut *tx)
        .await?;
    let counts: (i64, i64) = sqlx::query_as(
        "SELECT count(*) FILTER (WHERE account_key = $1),
                count(*) FILTER (WHERE address = $2::text::inet)
         FROM login_failures
         WHERE at > $3 AND (account_key = $1 OR address = $2::text::inet)",
    )
    .bind(account_key)
    .bind(address.map(|a| a.to_string()))
    .bind(since)
    .fetch_one(&mut *tx)
    .await?;
    sqlx::query(
        "INSERT INTO login_failures (at, account_key, address) VALUES ($1, $2, $3::text::inet)",
    )
    .bind(now)
    .bind(account_key)
    .bind(address.map(|a| a.to_string()))
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(counts)
}

/// A successful login forgets the account's failures (those of the address stay).
pub async fn clear_account(pool: &PgPool, account_key: &[u8]) -> sqlx::Result<()> {
    sqlx::query("DELETE FROM login_failures WHERE account_key = $1")
        .bind(account_key)
        .execute(pool)
        .await?;
    Ok(())
}

/// Removes failures older than `cutoff`; returns how many.
pub async fn delete_before(pool: &PgPool, cutoff: OffsetDateTime) -> sqlx::Result<u64> {
    Ok(sqlx::query("DELETE FROM login_failures WHERE at < $1")
        .bind(cutoff)
        .execute(pool)
        .await?
        .rows_affected())
}
