//! PostgreSQL access, one module per table. Queries are checked at run time (`query_as`), so
//! building needs no database.

pub mod agents;
pub mod applications;
pub mod audit;
pub mod backup;
pub mod bench;
pub mod coverage;
pub mod dashboard;
pub mod demo_data;
pub mod evidence;
pub mod key_rotations;
pub mod known_devices;
pub mod links;
pub mod login_failures;
pub mod messages;
pub mod notices;
pub mod outbox;
pub mod renewals;
pub mod reset_requests;
pub mod retention;
pub mod rule_proposals;
pub mod rule_sets;
pub mod second_factor;
pub mod sessions;
pub mod users;

use std::time::Duration;

use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::{ConnectOptions, Connection};

// What the layers above name of the database: the pool, a connection, an executor, a query's
// error and result, a JSON column and the notifications' listener. Only db/ names sqlx itself
// (the layer check, tools/layers).
pub use sqlx::postgres::PgListener;
pub use sqlx::types::Json;
pub use sqlx::{Error, PgConnection, PgExecutor, PgPool, Result};

/// Whether a query's error comes from the database connection rather than the query: no
/// connection in time, an I/O failure, or PostgreSQL's connection exception (08) and
/// shutdown/startup (57P) codes.
pub fn is_unavailable(e: &Error) -> bool {
    match e {
        Error::PoolTimedOut | Error::PoolClosed | Error::Io(_) => true,
        Error::Database(d) => d
            .code()
            .is_some_and(|c| c.starts_with("08") || c.starts_with("57P")),
        _ => false,
    }
}

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

/// Migrations whose comments were reworded after they were applied, with the checksum (SHA-384 of
/// the file) they were applied under. Only comments changed; sqlx checksums the whole file, so a
/// database that ran the old text would refuse to start without [`accept_reworded`].
pub const REWORDED: &[(i64, &str)] = &[
    (
        20261122000010,
        "b6d2318c0bac96cefe2c09cd5dc1b43806daeacd66084699a2153db79351594a586b69a5feb787b798822800a19b151a",
    ),
    (
        20261125000012,
        "bb5834e5c520c1f0ac6f2e001b5d4680cf2be6a721d2a09ac0e20235a848e49322b98c612a7ab59cf153f8395adf4ca3",
    ),
    (
        20261125000013,
        "6c0e5f703fca3a8e9cd76fef27802bee5d0407047ac0e6e4792e64af79298c3f5a84cf98f553fa6c939599a3810355a3",
    ),
    (
        20261126000014,
        "dbea6f7e32877afa1f7871b8c4015b9b4821b315c6ed1d28b031607233b56f19ce670b3f73096fab360c3e12740cf5e2",
    ),
    (
        20261126000015,
        "68bf9a1be9b10c1a1b3a19dadf14b68467085c016d5795d109a5d8ae519536f6c36cb3ec147376a8e72ce7efdddf3268",
    ),
    (
        20261126000016,
        "7acf6456bd98011102263b220d059315342f16056d005da6a74d61f5a35f330332769263e2b9aed7649d68d55fc1cedd",
    ),
    (
        20261126000017,
        "a41dfd4e840c37c8ed46092ebeedd0784450a50d7f2b50893f27ba67d5d7bad93fb52e495dc35140c06077c895ff94c7",
    ),
    (
        20261126000018,
        "847da58fef8a4fa85c93491392ce7ba00227b84910f2fec89081504c898277a56d8d10bbad06d00b1d62c86adeaec699",
    ),
    (
        20261126000019,
        "690fb074e4718a76646a90e116b342ae1b76eef1d00e1bf91f980315fad5ce9cbe1905ae8f571df35532f158dd294e55",
    ),
    (
        20261126000020,
        "7c60ce24a47b7b364b6574caa3fa3b80d52a2366b395148da56094730d26543aec8e91db8d7461a909a5b4b971372b15",
    ),
    (
        20261126000021,
        "a4f9eb3a15983d29dfdb761eacccadc698f0e3b258bc5afe14b15849dfe142b89e9d3d01cf4528dd24ea90c432fbc4ae",
    ),
    (
        20261126000022,
        "76060a9dc2597e210301a590f4a5fdbaa4d81b6fc6164c6dd4e0768f83363082242ad3fd8a62ac6108c5def1f4b864f3",
    ),
    (
        20261126000023,
        "3c6a287208fe880aa7a82f553d18d5d3f96ace61a3babbb8c652311b190777e90a076ff6dfbcf37bd2074ebf52caaf26",
    ),
    (
        20261127000024,
        "cc2b5b0b71c9fc2e67c0a8a4977e665cf663971aff651540ecb1e67a813e8391563e1d2190299ab06960b1697d7cb9a6",
    ),
    (
        20261127000025,
        "c47333e2aea3c9bbf81acb0fb7fe142545a4ccac0d682995a72e944a266384b9f234a982266866ff9df17dd5f278b413",
    ),
    (
        20261127000026,
        "9573cda015b0a9dbd0a7e9183601e4f474e80faa2dc0513a3ac4ecda0239f3757ed9af13bc938d26c795b8d4e8cd75e1",
    ),
    (
        20261128000027,
        "f5e46ddff9e51db06cb8d534ce1fb2998ffeb7af351467388b18eb6d0876a48cb0b4d2c0ef1cd409c9ee6f00e021b285",
    ),
    (
        20261128000028,
        "14514b745efc66f31a16961976490eaf0c41ce86fd92e9ab3953942fe6d817bb29251adfd2a2df2edf4da306f834bfaa",
    ),
];

/// Records the new checksum of each [`REWORDED`] migration where the database holds exactly the
/// old one (nothing else is accepted: a migration changed otherwise still stops the start).
async fn accept_reworded(conn: &mut sqlx::PgConnection) -> anyhow::Result<()> {
    let applied: Option<String> =
        sqlx::query_scalar("SELECT to_regclass('_sqlx_migrations')::text")
            .fetch_one(&mut *conn)
            .await?;
    if applied.is_none() {
        return Ok(());
    }
    for (version, old) in REWORDED {
        let Some(now) = MIGRATOR.iter().find(|m| m.version == *version) else {
            continue;
        };
        sqlx::query(
            "UPDATE _sqlx_migrations SET checksum = $2 WHERE version = $1 AND checksum = decode($3, 'hex')",
        )
        .bind(version)
        .bind(now.checksum.as_ref())
        .bind(old)
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

/// Runs the migrations as the login (the schema's owner) on a connection taken out of the pool
/// for good, so the pool keeps none that may have opened before the application's role existed.
pub async fn migrate(pool: &PgPool) -> anyhow::Result<()> {
    let mut conn = pool.acquire().await?.detach();
    sqlx::query("RESET ROLE").execute(&mut conn).await?;
    accept_reworded(&mut conn).await?;
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
