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

/// The role the server's connections work as, made by the migrations: it reads and writes the
/// application's tables, and may only read and insert audit rows.
pub const APP_ROLE: &str = "enrollflow_app";

/// The server's pool: each connection takes [`APP_ROLE`] once the migrations have made it (before
/// that, in a database not migrated yet, the login's own).
pub async fn connect(url: &str) -> anyhow::Result<PgPool> {
    pool(url, true).await
}

/// A pool of the login's own role, for what only the schema's owner does (making databases in
/// tests, or changing what the server's role cannot).
pub async fn connect_as_owner(url: &str) -> anyhow::Result<PgPool> {
    pool(url, false).await
}

async fn pool(url: &str, as_app: bool) -> anyhow::Result<PgPool> {
    let options: PgConnectOptions = url
        .parse::<PgConnectOptions>()
        .map_err(|e| anyhow::anyhow!("DATABASE_URL is not a PostgreSQL URL: {e}"))?
        .log_statements(tracing::log::LevelFilter::Off);
    let pool = PgPoolOptions::new()
        .after_connect(move |conn, _| {
            Box::pin(async move {
                if as_app {
                    sqlx::query(
                        "SELECT set_config('role', rolname::text, false) FROM pg_roles WHERE rolname = $1",
                    )
                    .bind(APP_ROLE)
                    .execute(conn)
                    .await?;
                }
                Ok(())
            })
        })
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

/// Runs the migrations as the login (the schema's owner) on a connection taken out of the pool
/// for good, so the pool keeps none that may have opened before the application's role existed.
pub async fn migrate(pool: &PgPool) -> anyhow::Result<()> {
    let mut conn = pool.acquire().await?.detach();
    sqlx::query("RESET ROLE").execute(&mut conn).await?;
    MIGRATOR.run(&mut conn).await?;
    conn.close().await?;
    Ok(())
}

/// Whether the database answers (readiness).
pub async fn ping(pool: &PgPool) -> sqlx::Result<()> {
    sqlx::query_scalar::<_, i32>("SELECT 1")
        .fetch_one(pool)
        .await?;
    Ok(())
}
