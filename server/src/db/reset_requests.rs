//! The `reset_requests` queue (forgot-password work, shared by every instance) and the
//! `reset_request_log` that limits requests per client address.
//!
//! The queue is leased like the outbox, so a restart loses no request, and at most 20 requests per
//! client address an hour are taken, a limit every instance shares.

use std::net::IpAddr;

use sqlx::PgPool;
use time::OffsetDateTime;

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Queued {
    pub id: i64,
    pub email: String,
    pub origin: String,
    pub address: Option<String>,
    pub requested_at: OffsetDateTime,
    pub attempts: i32,
}

/// Where a request came from: the client's address (kept with the request), and what the limit
/// counts it under (an IPv6 address's /64 network).
#[derive(Debug, Clone, Copy)]
pub struct Requester {
    pub address: IpAddr,
    pub counted_as: IpAddr,
}

/// Queues a request unless its requester made `limit` or more since `since`; whether it was
/// queued. The count and the insert are one statement under a per-address advisory lock, so a
/// parallel burst cannot pass the limit.
pub async fn enqueue(
    pool: &PgPool,
    email: &str,
    origin: &str,
    from: Option<Requester>,
    now: OffsetDateTime,
    since: OffsetDateTime,
    limit: i64,
) -> sqlx::Result<bool> {
    let mut tx = pool.begin().await?;
    let address = from.map(|r| r.address.to_string());
    if let Some(a) = from.map(|r| r.counted_as.to_string()) {
        let a = &a;
        sqlx::query("SELECT pg_advisory_xact_lock(hashtextextended('reset:' || $1, 0))")
            .bind(a)
            .execute(&mut *tx)
            .await?;
        let recent: i64 = sqlx::query_scalar(
            "SELECT count(*) FROM reset_request_log WHERE address = $1::inet AND at > $2",
        )
        .bind(a)
        .bind(since)
        .fetch_one(&mut *tx)
        .await?;
        if recent >= limit {
            return Ok(false);
        }
        sqlx::query("INSERT INTO reset_request_log (at, address) VALUES ($1, $2::inet)")
            .bind(now)
            .bind(a)
            .execute(&mut *tx)
            .await?;
    }
    sqlx::query(
        "INSERT INTO reset_requests (email, origin, address, requested_at)
         VALUES ($1, $2, $3::inet, $4)",
    )
    .bind(email)
    .bind(origin)
    .bind(address)
    .bind(now)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(true)
}

/// Claims up to `limit` queued requests (unclaimed, or whose lease ran out) until `lease_until`.
pub async fn claim(
    pool: &PgPool,
    now: OffsetDateTime,
    lease_until: OffsetDateTime,
    limit: i64,
) -> sqlx::Result<Vec<Queued>> {
    sqlx::query_as(
        "UPDATE reset_requests SET claimed_until = $2, attempts = attempts + 1
         WHERE id IN (SELECT id FROM reset_requests
                      WHERE claimed_until IS NULL OR claimed_until <= $1
                      ORDER BY id LIMIT $3 FOR UPDATE SKIP LOCKED)
         RETURNING id, email, origin, host(address) AS address, requested_at, attempts",
    )
    .bind(now)
    .bind(lease_until)
    .bind(limit)
    .fetch_all(pool)
    .await
}

/// A request is done (or given up): it leaves the queue.
pub async fn done(pool: &PgPool, id: i64) -> sqlx::Result<()> {
    sqlx::query("DELETE FROM reset_requests WHERE id = $1")
        .bind(id)
        .execute(pool)
        .await?;
    Ok(())
}

/// Forgets the per-address log older than `before`.
pub async fn sweep_log(pool: &PgPool, before: OffsetDateTime) -> sqlx::Result<u64> {
    Ok(sqlx::query("DELETE FROM reset_request_log WHERE at <= $1")
        .bind(before)
        .execute(pool)
        .await?
        .rows_affected())
}
