//! Retention of abandoned quotes: an application nobody submitted and nobody
//! saved for `ENROLLFLOW_RETENTION_DAYS` days is deleted or anonymized
//! (`ENROLLFLOW_RETENTION_ACTION`), its documents with it, by a job every instance runs hourly (the
//! statements re-check each row, so two instances never do a row twice). Off when the days are 0.
//!
//! Anonymized: the answers and the summary (names, contact, addresses, SSNs, the household) are
//! emptied and the documents and links removed; the typed columns the dashboard's statistics count
//! (dates, carriers, products) stay. Metrics: `enrollflow_retention_applications_total{action}`,
//! `enrollflow_retention_last_run_timestamp_seconds`.
//!
//! Abandoned quotes are found by their creation (migration 26), so that no index reads
//! `updated_at`; each is retired by a statement of its own, so the count tables' triggers lock in
//! the order every save does and a purchase is never stopped as a deadlock by the job; the
//! documents' objects are removed. An anonymized application is marked `anonymized_at`.
//! `server/tests/api/retention.rs`.

use std::time::Duration;

use crate::db::retention as store;

pub use crate::platform::config::RetentionAction as Action;

impl Action {
    fn label(self) -> &'static str {
        match self {
            Action::Delete => "deleted",
            Action::Anonymize => "anonymized",
        }
    }
}

/// Applications per statement.
const BATCH: i64 = 500;

/// What retiring quotes uses: the database, the clock and the document store.
pub struct Retention {
    pub pool: crate::db::PgPool,
    pub clock: std::sync::Arc<dyn crate::platform::clock::Clock>,
    pub documents: crate::documents::ObjectStore,
}

/// One pass: every quote abandoned for `days` days as of now; how many were done.
pub async fn run_once(r: &Retention, days: u32, action: Action) -> anyhow::Result<i64> {
    let now = r.clock.now();
    let before = now - time::Duration::days(i64::from(days));
    let mut done = 0;
    loop {
        let ids = store::abandoned(&r.pool, before, BATCH).await?;
        if ids.is_empty() {
            break;
        }
        let (n, documents) = match action {
            Action::Delete => store::delete(&r.pool, &ids, before).await?,
            Action::Anonymize => store::anonymize(&r.pool, &ids, before, now).await?,
        };
        r.documents.delete_all(&documents).await;
        metrics::counter!("enrollflow_retention_applications_total", "action" => action.label())
            .increment(u64::try_from(n).unwrap_or(0));
        done += n;
        if (ids.len() as i64) < BATCH || n == 0 {
            break;
        }
    }
    metrics::gauge!("enrollflow_retention_last_run_timestamp_seconds")
        .set(now.unix_timestamp() as f64);
    if done > 0 {
        tracing::info!(
            applications = done,
            action = action.label(),
            "abandoned quotes retired"
        );
    }
    Ok(done)
}

/// The hourly job (none when retention is off).
pub fn spawn(r: Retention, days: u32, action: Action) -> Option<tokio::task::JoinHandle<()>> {
    (days > 0).then(|| {
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(Duration::from_secs(3600));
            loop {
                tick.tick().await;
                if let Err(e) = run_once(&r, days, action).await {
                    tracing::warn!(error = %e, "the retention job failed; it runs again in an hour");
                }
            }
        })
    })
}
