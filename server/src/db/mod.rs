//! PostgreSQL access, one module per table. Queries are checked at run time (`query_as`), so
//! building needs no database.

pub mod agents;
pub mod applications;
pub mod audit;
pub mod backup;
pub mod bench;
pub mod dashboard;
pub mod demo_data;
pub mod evidence;
pub mod key_rotations;
pub mod links;
pub mod login_failures;
pub mod messages;
pub mod notices;
pub mod outbox;
pub mod reset_requests;
pub mod retention;
pub mod rule_proposals;
pub mod rule_sets;
pub mod second_factor;
pub mod sessions;
pub mod users;

use std::time::Duration;

use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::{ConnectOptions, Connection, PgPool};

/// Embedded migrations from `migrations/`.
pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("../migrations");

/// A connection used this recently is handed out without a ping (HikariCP's `aliveBypassWindowMs`,
/// the same 500 ms). sqlx pings every connection before handing it out by default: a round trip
/// to PostgreSQL per acquire, about 50 µs of the server's CPU for each request that uses the
/// database (the write baseline ran 17 % faster without it; docs/performance.md). A connection
/// that went idle longer is pinged, so one that PostgreSQL or the network dropped meanwhile is
/// replaced before a request uses it; one that broke within the window fails its query, and
/// sqlx's own ping when a connection is returned discards it.
const ALIVE_WITHOUT_PING: Duration = Duration::from_millis(500);

pub async fn connect(url: &str) -> anyhow::Result<PgPool> {
    let options: PgConnectOptions = url
        .parse::<PgConnectOptions>()
        .map_err(|e| anyhow::anyhow!("DATABASE_URL is not a PostgreSQL URL: {e}"))?
        .log_statements(tracing::log::LevelFilter::Off);
    let pool = PgPoolOptions::new()
        .max_connections(20)
        .acquire_timeout(Duration::from_secs(5))
        .test_before_acquire(false)
        .before_acquire(|conn, meta| {
            Box::pin(async move {
                if meta.idle_for >= ALIVE_WITHOUT_PING {
                    conn.ping().await?;
                }
                Ok(true)
            })
        })
        .connect_with(options)
        .await?;
    Ok(pool)
}

pub async fn migrate(pool: &PgPool) -> anyhow::Result<()> {
    MIGRATOR.run(pool).await?;
    Ok(())
}

/// Whether the database answers (readiness).
pub async fn ping(pool: &PgPool) -> sqlx::Result<()> {
    sqlx::query_scalar::<_, i32>("SELECT 1")
        .fetch_one(pool)
        .await?;
    Ok(())
}
