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
pub mod rule_sets;
pub mod second_factor;
pub mod sessions;
pub mod users;

use std::time::Duration;

use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::{ConnectOptions, PgPool};

/// Embedded migrations from `migrations/`.
pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("../migrations");

pub async fn connect(url: &str) -> anyhow::Result<PgPool> {
    let options: PgConnectOptions = url
        .parse::<PgConnectOptions>()
        .map_err(|e| anyhow::anyhow!("DATABASE_URL is not a PostgreSQL URL: {e}"))?
        .log_statements(tracing::log::LevelFilter::Off);
    let pool = PgPoolOptions::new()
        .max_connections(20)
        .acquire_timeout(Duration::from_secs(5))
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
