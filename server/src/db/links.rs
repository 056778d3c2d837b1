//! The `application_links` table (migration 20): single-use links that open an application in
//! another browser.

use sqlx::{PgExecutor, PgPool};
use time::OffsetDateTime;
use uuid::Uuid;

/// What a link is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    /// "Save and finish later": the consumer's own link.
    Resume,
    /// "Send to customer": the agent hands the application to the customer to finish.
    Handoff,
    /// "Send renewal options": the customer's submitted application, renewed into the next plan
    /// year (the link starts a new application).
    Renewal,
}

impl Purpose {
    fn as_str(self) -> &'static str {
        match self {
            Purpose::Resume => "resume",
            Purpose::Handoff => "handoff",
            Purpose::Renewal => "renewal",
        }
    }

    fn parse(s: &str) -> Option<Self> {
        match s {
            "resume" => Some(Purpose::Resume),
            "handoff" => Some(Purpose::Handoff),
            "renewal" => Some(Purpose::Renewal),
            _ => None,
        }
    }
}

/// A link to record: its token's hash, the application, the agent's site, what for, until when,
/// and the recipient's keyed digest (a limit per address).
pub struct NewLink<'a> {
    pub token_hash: &'a [u8; 32],
    pub application_id: Uuid,
    pub agent_id: Uuid,
    pub purpose: Purpose,
    pub recipient_digest: &'a [u8; 32],
    pub now: OffsetDateTime,
    pub expires_at: OffsetDateTime,
}

/// Records a new link and withdraws the application's earlier unused links of the same purpose
/// (only the newest works).
pub async fn insert(db: &mut sqlx::PgConnection, l: &NewLink<'_>) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE application_links SET revoked_at = $3
         WHERE application_id = $1 AND purpose = $2 AND used_at IS NULL AND revoked_at IS NULL",
    )
    .bind(l.application_id)
    .bind(l.purpose.as_str())
    .bind(l.now)
    .execute(&mut *db)
    .await?;
    sqlx::query(
        "INSERT INTO application_links (token_hash, application_id, agent_id, purpose, created_at,
                                        expires_at, recipient_digest)
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(&l.token_hash[..])
    .bind(l.application_id)
    .bind(l.agent_id)
    .bind(l.purpose.as_str())
    .bind(l.now)
    .bind(l.expires_at)
    .bind(&l.recipient_digest[..])
    .execute(&mut *db)
    .await?;
    Ok(())
}

/// Links of any purpose and application sent to one recipient (by digest) since `since`.
pub async fn count_to_since(
    pool: &PgPool,
    recipient_digest: &[u8; 32],
    since: OffsetDateTime,
) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "SELECT count(*) FROM application_links WHERE recipient_digest = $1 AND created_at > $2",
    )
    .bind(&recipient_digest[..])
    .bind(since)
    .fetch_one(pool)
    .await
}

/// Links of one purpose made for an application since `since` (a limit on mails).
pub async fn count_since(
    pool: &PgPool,
    application_id: Uuid,
    purpose: Purpose,
    since: OffsetDateTime,
) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "SELECT count(*) FROM application_links
         WHERE application_id = $1 AND purpose = $2 AND created_at > $3",
    )
    .bind(application_id)
    .bind(purpose.as_str())
    .bind(since)
    .fetch_one(pool)
    .await
}

/// A link as found by its token.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct LinkRow {
    purpose: String,
    pub application_id: Uuid,
    pub agent_id: Uuid,
    pub expires_at: OffsetDateTime,
    pub used_at: Option<OffsetDateTime>,
    pub revoked_at: Option<OffsetDateTime>,
    /// The application has been submitted.
    pub submitted: bool,
}

impl LinkRow {
    pub fn purpose(&self) -> Option<Purpose> {
        Purpose::parse(&self.purpose)
    }
}

/// The link with this token, if there is one.
pub async fn find(pool: &PgPool, token_hash: &[u8; 32]) -> sqlx::Result<Option<LinkRow>> {
    sqlx::query_as(
        "SELECT l.purpose, l.application_id, l.agent_id, l.expires_at, l.used_at, l.revoked_at,
                a.submission_time IS NOT NULL AS submitted
         FROM application_links l JOIN applications a ON a.id = l.application_id
         WHERE l.token_hash = $1",
    )
    .bind(&token_hash[..])
    .fetch_optional(pool)
    .await
}

/// The newest link of a purpose of each of these applications (the dashboard's hand-off states).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct NewestLink {
    pub application_id: Uuid,
    pub created_at: OffsetDateTime,
    pub expires_at: OffsetDateTime,
    pub used_at: Option<OffsetDateTime>,
    pub revoked_at: Option<OffsetDateTime>,
    pub submitted: bool,
}

pub async fn newest_of(
    pool: &PgPool,
    ids: &[Uuid],
    purpose: Purpose,
) -> sqlx::Result<Vec<NewestLink>> {
    sqlx::query_as(
        "SELECT DISTINCT ON (l.application_id) l.application_id, l.created_at, l.expires_at,
                l.used_at, l.revoked_at, a.submission_time IS NOT NULL AS submitted
         FROM application_links l JOIN applications a ON a.id = l.application_id
         WHERE l.application_id = ANY($1) AND l.purpose = $2
         ORDER BY l.application_id, l.created_at DESC",
    )
    .bind(ids)
    .bind(purpose.as_str())
    .fetch_all(pool)
    .await
}

/// The application's summary when its newest opened hand-off was opened (what the agent had
/// entered), if a hand-off was opened.
pub async fn summary_at_handoff(
    pool: &PgPool,
    application_id: Uuid,
) -> sqlx::Result<Option<serde_json::Value>> {
    let row: Option<(Option<serde_json::Value>,)> = sqlx::query_as(
        "SELECT summary_at_use FROM application_links
         WHERE application_id = $1 AND purpose = 'handoff' AND used_at IS NOT NULL
         ORDER BY used_at DESC LIMIT 1",
    )
    .bind(application_id)
    .fetch_optional(pool)
    .await?;
    Ok(row.map(|(s,)| s.unwrap_or(serde_json::Value::Null)))
}

/// For each of these applications a customer opened a hand-off of, the summary as the agent had
/// left it then (the newest opened hand-off's).
pub async fn summaries_at_handoff(
    pool: &PgPool,
    application_ids: &[Uuid],
) -> sqlx::Result<Vec<(Uuid, serde_json::Value)>> {
    if application_ids.is_empty() {
        return Ok(Vec::new());
    }
    let rows: Vec<(Uuid, Option<serde_json::Value>)> = sqlx::query_as(
        "SELECT DISTINCT ON (application_id) application_id, summary_at_use FROM application_links
         WHERE application_id = ANY($1) AND purpose = 'handoff' AND used_at IS NOT NULL
         ORDER BY application_id, used_at DESC",
    )
    .bind(application_ids)
    .fetch_all(pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(|(id, s)| (id, s.unwrap_or(serde_json::Value::Null)))
        .collect())
}

/// Withdraws an application's unused links of a purpose; how many.
pub async fn revoke(
    pool: &PgPool,
    application_id: Uuid,
    purpose: Purpose,
    now: OffsetDateTime,
) -> sqlx::Result<u64> {
    Ok(sqlx::query(
        "UPDATE application_links SET revoked_at = $3
         WHERE application_id = $1 AND purpose = $2 AND used_at IS NULL AND revoked_at IS NULL",
    )
    .bind(application_id)
    .bind(purpose.as_str())
    .bind(now)
    .execute(pool)
    .await?
    .rows_affected())
}

/// Uses a link: true when it was still usable (of two uses at once, exactly one gets true).
pub async fn use_once(
    db: impl PgExecutor<'_>,
    token_hash: &[u8; 32],
    now: OffsetDateTime,
) -> sqlx::Result<bool> {
    Ok(sqlx::query(
        "UPDATE application_links l SET used_at = $2,
                summary_at_use = (SELECT a.summary FROM applications a WHERE a.id = l.application_id)
         WHERE token_hash = $1 AND used_at IS NULL AND revoked_at IS NULL AND expires_at > $2",
    )
    .bind(&token_hash[..])
    .bind(now)
    .execute(db)
    .await?
    .rows_affected()
        == 1)
}
