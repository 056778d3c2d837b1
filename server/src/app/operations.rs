//! What an operator watches: whether the database answers (readiness), the gauges read when the
//! metrics are scraped (unsent mail, live sessions), and the load test's two database baselines
//! (one row read by primary key, one document written durably), served only with the bench
//! routes on.

use serde_json::Value;
use time::Date;
use uuid::Uuid;

use crate::app::accounts::sessions::Cutoffs;
use crate::db::{self, PgPool, Result, applications, bench, outbox, sessions};

/// The database answers.
pub async fn ready(pool: &PgPool) -> Result<()> {
    db::ping(pool).await
}

/// The gauges' counts: e-mails not sent yet, and sessions alive under `cutoffs`.
pub struct Counts {
    pub unsent_mail: i64,
    pub live_sessions: i64,
}

/// Counts what the gauges show.
pub async fn counts(pool: &PgPool, cutoffs: Cutoffs) -> Result<Counts> {
    Ok(Counts {
        unsent_mail: outbox::unsent_count(pool).await?,
        live_sessions: sessions::live_count(pool, cutoffs.idle, cutoffs.created).await?,
    })
}

/// The read baseline: an application's last step and effective date, by primary key.
pub async fn baseline_read(pool: &PgPool, id: Uuid) -> Result<Option<(i16, Option<Date>)>> {
    applications::step_and_date(pool, id).await
}

/// The write baseline: `doc` written durably to row `slot` of `slots`.
pub async fn baseline_write(pool: &PgPool, slot: i32, doc: &Value, slots: i32) -> Result<()> {
    bench::write(pool, slot, doc, slots).await
}

/// Records that a page of the wizard was seen: its route template (never a filled-in path), the
/// session's application and the site's agent, when known. An application's views are bounded.
pub async fn page_viewed(
    pool: &PgPool,
    route: &str,
    application: Option<Uuid>,
    agent: Option<Uuid>,
    now: time::OffsetDateTime,
) -> Result<()> {
    applications::record_page_view(pool, application, agent, route, now).await
}
