//! The `renewals` table (migration 35): each customer's renewal into the next plan year as the
//! engine worked it out, under the rule set named by `engine_hash`; and the worklist read from it,
//! with the customer's name from the application's summary and the renewal link's state from
//! `application_links`.

use serde_json::Value;
use sqlx::{PgPool, Postgres, QueryBuilder};
use time::{Date, OffsetDateTime};
use uuid::Uuid;

/// A submitted application whose renewal is missing or was worked out under another rule set.
#[derive(Debug, sqlx::FromRow)]
pub struct Stale {
    pub id: Uuid,
    pub data: Value,
}

/// The agent's submitted applications taking effect in `[from, to)` whose renewal is missing or
/// was worked out under another engine than `engine_hash`.
pub async fn stale(
    pool: &PgPool,
    agent_id: Uuid,
    (from, to): (Date, Date),
    engine_hash: &str,
) -> sqlx::Result<Vec<Stale>> {
    sqlx::query_as(
        "SELECT a.id, a.data FROM applications a
         LEFT JOIN renewals r ON r.application_id = a.id
         WHERE a.agent_id = $1 AND a.submission_time IS NOT NULL
           AND a.effective_date >= $2 AND a.effective_date < $3
           AND (r.application_id IS NULL OR r.engine_hash <> $4)",
    )
    .bind(agent_id)
    .bind(from)
    .bind(to)
    .bind(engine_hash)
    .fetch_all(pool)
    .await
}

/// A renewal to store.
pub struct Worked {
    pub application_id: Uuid,
    pub status: &'static str,
    pub risk: i16,
    pub current_cents: i64,
    pub next_cents: i64,
    pub change_percent: f64,
    pub renewal: Value,
}

/// Stores renewals worked out under `engine_hash` for `plan_year`, over any older ones (a
/// renewal's link and re-enrollment stay).
pub async fn store(
    pool: &PgPool,
    agent_id: Uuid,
    plan_year: i32,
    engine_hash: &str,
    rows: &[Worked],
    now: OffsetDateTime,
) -> sqlx::Result<()> {
    for chunk in rows.chunks(500) {
        let mut q: QueryBuilder<'_, Postgres> = QueryBuilder::new(
            "INSERT INTO renewals (application_id, agent_id, plan_year, engine_hash, status, risk,
                                   current_cents, next_cents, change_percent, renewal,
                                   worked_out_at) ",
        );
        q.push_values(chunk, |mut b, r| {
            b.push_bind(r.application_id)
                .push_bind(agent_id)
                .push_bind(plan_year)
                .push_bind(engine_hash)
                .push_bind(r.status)
                .push_bind(r.risk)
                .push_bind(r.current_cents)
                .push_bind(r.next_cents)
                .push_bind(r.change_percent)
                .push_bind(sqlx::types::Json(&r.renewal))
                .push_bind(now);
        });
        q.push(
            " ON CONFLICT (application_id) DO UPDATE SET plan_year = EXCLUDED.plan_year,
               engine_hash = EXCLUDED.engine_hash, status = EXCLUDED.status,
               risk = EXCLUDED.risk, current_cents = EXCLUDED.current_cents,
               next_cents = EXCLUDED.next_cents, change_percent = EXCLUDED.change_percent,
               renewal = EXCLUDED.renewal, worked_out_at = EXCLUDED.worked_out_at",
        );
        q.build().execute(pool).await?;
    }
    Ok(())
}

/// Where a renewal's link stands, as stored: nothing sent, sent, opened, or re-enrolled (the new
/// year's application submitted).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Follow {
    ToDo,
    Sent,
    Opened,
    Reenrolled,
}

impl Follow {
    pub fn key(self) -> &'static str {
        match self {
            Follow::ToDo => "to_do",
            Follow::Sent => "sent",
            Follow::Opened => "opened",
            Follow::Reenrolled => "reenrolled",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        [
            Follow::ToDo,
            Follow::Sent,
            Follow::Opened,
            Follow::Reenrolled,
        ]
        .into_iter()
        .find(|f| f.key() == s)
    }
}

/// The worklist's filters.
#[derive(Debug, Default, Clone)]
pub struct Filter {
    /// Only these statuses (all when empty).
    pub statuses: Vec<String>,
    /// `up` or `down`: premiums that rise, or fall.
    pub change: Option<String>,
    pub follow: Option<Follow>,
    /// Words of the customer's name.
    pub search: Option<String>,
}

/// A worklist row.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Row {
    pub application_id: Uuid,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub email: Option<String>,
    pub status: String,
    pub current_cents: i64,
    pub next_cents: i64,
    pub change_percent: f64,
    pub renewal: sqlx::types::Json<Value>,
    pub follow: String,
    pub sent_at: Option<OffsetDateTime>,
    pub opened_at: Option<OffsetDateTime>,
    pub reenrolled_application_id: Option<Uuid>,
    /// How many rows match the filters in all.
    pub total: i64,
}

/// The agent's renewals of `plan_year` with their follow-up (`$1` the agent, `$2` now, `$3` the
/// plan year): an expired or withdrawn unopened link is to do again; re-enrolled once the new
/// year's application is submitted.
const WORKLIST: &str = "SELECT r.application_id, a.summary->>'first_name' AS first_name,
        a.summary->>'last_name' AS last_name, a.summary->>'email' AS email, r.status, r.risk,
        r.current_cents, r.next_cents, r.change_percent, r.renewal, r.reenrolled_application_id,
        l.created_at AS sent_at, l.used_at AS opened_at,
        CASE WHEN n.submission_time IS NOT NULL THEN 'reenrolled'
             WHEN l.used_at IS NOT NULL THEN 'opened'
             WHEN l.created_at IS NOT NULL AND l.revoked_at IS NULL AND l.expires_at > $2 THEN 'sent'
             ELSE 'to_do' END AS follow
    FROM renewals r JOIN applications a ON a.id = r.application_id
    LEFT JOIN applications n ON n.id = r.reenrolled_application_id
    LEFT JOIN LATERAL (SELECT created_at, used_at, revoked_at, expires_at FROM application_links
                       WHERE application_id = r.application_id AND purpose = 'renewal'
                       ORDER BY created_at DESC LIMIT 1) l ON true
    WHERE r.agent_id = $1 AND r.plan_year = $3";

/// One page of the agent's worklist for `plan_year` under the filters: riskiest first, then the
/// largest change, then by name (`limit`, `offset`), each row with the count of all that match.
pub async fn page(
    pool: &PgPool,
    agent_id: Uuid,
    plan_year: i32,
    now: OffsetDateTime,
    f: &Filter,
    (limit, offset): (i64, i64),
) -> sqlx::Result<Vec<Row>> {
    let search = f
        .search
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| {
            format!(
                "%{}%",
                s.replace('\\', "\\\\")
                    .replace('%', "\\%")
                    .replace('_', "\\_")
            )
        });
    sqlx::query_as(&format!(
        "SELECT w.*, count(*) OVER () AS total FROM ({WORKLIST}) w
         WHERE (cardinality($4::text[]) = 0 OR w.status = ANY($4))
           AND ($5::text IS NULL OR ($5 = 'up' AND w.next_cents > w.current_cents)
                OR ($5 = 'down' AND w.next_cents < w.current_cents))
           AND ($6::text IS NULL OR w.follow = $6)
           AND ($7::text IS NULL OR concat_ws(' ', w.first_name, w.last_name) ILIKE $7
                OR concat_ws(' ', w.last_name, w.first_name) ILIKE $7)
         ORDER BY w.risk, abs(w.change_percent) DESC, w.last_name, w.first_name, w.application_id
         LIMIT $8 OFFSET $9"
    ))
    .bind(agent_id)
    .bind(now)
    .bind(plan_year)
    .bind(&f.statuses)
    .bind(f.change.as_deref())
    .bind(f.follow.map(Follow::key))
    .bind(search)
    .bind(limit)
    .bind(offset)
    .fetch_all(pool)
    .await
}

/// One of the agent's renewals, with its follow-up.
pub async fn one(
    pool: &PgPool,
    agent_id: Uuid,
    plan_year: i32,
    now: OffsetDateTime,
    id: Uuid,
) -> sqlx::Result<Option<Row>> {
    sqlx::query_as(&format!(
        "SELECT w.*, 1::bigint AS total FROM ({WORKLIST}) w WHERE w.application_id = $4"
    ))
    .bind(agent_id)
    .bind(now)
    .bind(plan_year)
    .bind(id)
    .fetch_optional(pool)
    .await
}

/// How many of the agent's renewals of `plan_year` stand where: to do, sent (or opened), done.
pub async fn follow_counts(
    pool: &PgPool,
    agent_id: Uuid,
    plan_year: i32,
    now: OffsetDateTime,
) -> sqlx::Result<Vec<(String, i64)>> {
    sqlx::query_as(&format!(
        "SELECT w.follow, count(*) FROM ({WORKLIST}) w GROUP BY w.follow"
    ))
    .bind(agent_id)
    .bind(now)
    .bind(plan_year)
    .fetch_all(pool)
    .await
}

/// The renewal a re-enrolling application was started from: the renewed application's id and
/// its stored renewal.
pub async fn of_reenrollment(
    pool: &PgPool,
    reenrolled: Uuid,
) -> sqlx::Result<Option<(Uuid, sqlx::types::Json<Value>)>> {
    sqlx::query_as(
        "SELECT application_id, renewal FROM renewals WHERE reenrolled_application_id = $1",
    )
    .bind(reenrolled)
    .fetch_optional(pool)
    .await
}

/// The stored renewal of an application, if any.
pub async fn renewal_of(
    pool: &PgPool,
    application_id: Uuid,
) -> sqlx::Result<Option<(Uuid, sqlx::types::Json<Value>, Option<Uuid>)>> {
    sqlx::query_as(
        "SELECT agent_id, renewal, reenrolled_application_id FROM renewals
         WHERE application_id = $1",
    )
    .bind(application_id)
    .fetch_optional(pool)
    .await
}

/// Records the new year's application a renewal link started.
pub async fn set_reenrolled(
    db: impl sqlx::PgExecutor<'_>,
    application_id: Uuid,
    reenrolled: Uuid,
) -> sqlx::Result<()> {
    sqlx::query("UPDATE renewals SET reenrolled_application_id = $2 WHERE application_id = $1")
        .bind(application_id)
        .bind(reenrolled)
        .execute(db)
        .await?;
    Ok(())
}
