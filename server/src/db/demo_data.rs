//! The demo data's SQL (`enrollflow seed-demo-data`, `crate::demo_data`): the agents to load for,
//! the per-agent lock and "loaded already" check, the applications' batch insert and the demo
//! messages.

use enrollflow_engine::summary::Summary;
use serde_json::Value;
use sqlx::PgPool;
use time::{Date, OffsetDateTime};
use uuid::Uuid;

use crate::npn::Npn;

/// An agent the demo data is made for, with its first agent user.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct DemoAgent {
    pub id: Uuid,
    pub npn: Npn,
    pub agent_name: String,
    /// The carrier flags that are on.
    pub offers: Vec<String>,
    pub marketplace_certified: bool,
    pub display_medicare: bool,
    pub subdomains: Vec<String>,
    pub user_id: Option<Uuid>,
}

/// The agents with these NPNs (all agents when empty), by NPN.
pub async fn agents(pool: &PgPool, npns: &[Npn]) -> sqlx::Result<Vec<DemoAgent>> {
    sqlx::query_as(
        "SELECT a.id, a.npn, a.agent_name, a.offers, a.marketplace_certified, a.display_medicare,
                coalesce(array(SELECT s.subdomain FROM agent_subdomains s WHERE s.agent_id = a.id
                               ORDER BY s.position, s.subdomain), '{}') AS subdomains,
                (SELECT u.id FROM users u WHERE u.agent_id = a.id AND u.role = 'agent'
                 ORDER BY u.created_at, u.email LIMIT 1) AS user_id
         FROM agents a
         WHERE cardinality($1::text[]) = 0 OR a.npn = ANY($1)
         ORDER BY a.npn",
    )
    .bind(npns)
    .fetch_all(pool)
    .await
}

/// Takes the agent's demo-data lock for the transaction (a second load waits, then sees the
/// first one's rows) and answers whether the agent has demo applications already.
pub async fn lock_and_check(tx: &mut sqlx::PgConnection, agent: &DemoAgent) -> sqlx::Result<bool> {
    sqlx::query("SELECT pg_advisory_xact_lock(hashtext('enrollflow demo data'), hashtext($1))")
        .bind(&agent.npn)
        .execute(&mut *tx)
        .await?;
    sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM applications WHERE agent_id = $1 AND data @> '{\"demo\": true}')",
    )
    .bind(agent.id)
    .fetch_one(&mut *tx)
    .await
}

/// Rows by column, for one `INSERT … SELECT FROM unnest(…)`.
#[derive(Default)]
pub struct ApplicationBatch {
    pub id: Vec<Uuid>,
    pub agent_id: Vec<Uuid>,
    pub last_step: Vec<i16>,
    pub effective_date: Vec<Option<Date>>,
    pub period: Vec<Option<i16>>,
    pub medical_carrier_id: Vec<Option<i16>>,
    pub dental_carrier_id: Vec<Option<i16>>,
    pub vision_carrier_id: Vec<Option<i16>>,
    pub network: Vec<Option<i16>>,
    pub skip_medical: Vec<bool>,
    pub skip_dental: Vec<bool>,
    pub skip_vision: Vec<bool>,
    pub skip_other: Vec<bool>,
    pub skip_pcp: Vec<bool>,
    pub submission_time: Vec<Option<OffsetDateTime>>,
    pub created_at: Vec<OffsetDateTime>,
    pub updated_at: Vec<OffsetDateTime>,
    pub data: Vec<Value>,
    pub rules_hash: Vec<String>,
    /// The flow's summary of each application (the dashboard's columns).
    pub summary: Vec<sqlx::types::Json<Summary>>,
    pub agent_started: Vec<bool>,
    pub started_by: Vec<Option<Uuid>>,
    pub subdomain: Vec<Option<String>>,
}

impl ApplicationBatch {
    /// Inserts the rows and empties the batch.
    pub async fn insert(&mut self, tx: &mut sqlx::PgConnection) -> sqlx::Result<u64> {
        if self.id.is_empty() {
            return Ok(0);
        }
        let b = std::mem::take(self);
        let done = sqlx::query(
            "INSERT INTO applications (id, agent_id, last_step, effective_date,
                 enrollment_period_type_id, medical_carrier_id, dental_carrier_id, vision_carrier_id,
                 medical_network_type_id, skip_medical, skip_dental, skip_vision, skip_pcp,
                 submission_time, created_at, updated_at, data, rules_hash, agent_started,
                 started_by_user_id, subdomain, summary, skip_other)
             SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::int2[], $4::date[], $5::int2[],
                 $6::int2[], $7::int2[], $8::int2[], $9::int2[], $10::bool[], $11::bool[],
                 $12::bool[], $13::bool[], $14::timestamptz[], $15::timestamptz[],
                 $16::timestamptz[], $17::jsonb[], $18::text[], $19::bool[], $20::uuid[], $21::text[],
                 $22::jsonb[], $23::bool[])",
        )
        .bind(&b.id)
        .bind(&b.agent_id)
        .bind(&b.last_step)
        .bind(&b.effective_date)
        .bind(&b.period)
        .bind(&b.medical_carrier_id)
        .bind(&b.dental_carrier_id)
        .bind(&b.vision_carrier_id)
        .bind(&b.network)
        .bind(&b.skip_medical)
        .bind(&b.skip_dental)
        .bind(&b.skip_vision)
        .bind(&b.skip_pcp)
        .bind(&b.submission_time)
        .bind(&b.created_at)
        .bind(&b.updated_at)
        .bind(&b.data)
        .bind(&b.rules_hash)
        .bind(&b.agent_started)
        .bind(&b.started_by)
        .bind(&b.subdomain)
        .bind(&b.summary)
        .bind(&b.skip_other)
        .execute(&mut *tx)
        .await?;
        Ok(done.rows_affected())
    }
}

/// The first admin (the demo messages' author).
/// After a bulk load: the day and name counts rewritten whole, the rest vacuumed and analyzed
/// (one statement a message: VACUUM cannot run in a multi-statement one).
pub async fn vacuum_after_load(pool: &PgPool) -> sqlx::Result<()> {
    for vacuum in [
        "VACUUM (FULL, ANALYZE) application_day_counts, application_name_counts",
        "VACUUM (ANALYZE) applications, application_search",
    ] {
        sqlx::raw_sql(vacuum).execute(pool).await?;
    }
    Ok(())
}

pub async fn first_admin(pool: &PgPool) -> sqlx::Result<Option<Uuid>> {
    sqlx::query_scalar(
        "SELECT id FROM users WHERE role = 'admin' ORDER BY created_at, email LIMIT 1",
    )
    .fetch_optional(pool)
    .await
}

/// A demo message.
pub struct NewMessage<'a> {
    pub id: Uuid,
    pub title: &'a str,
    pub content: &'a str,
    pub sticky: bool,
    pub publish_date: Date,
    pub expires: Option<Date>,
    pub code: Option<&'a str>,
    pub created_at: OffsetDateTime,
    pub created_by: Option<Uuid>,
}

/// Adds the message unless it is there (fixed ids) and targets it at the agents; answers 1 when
/// it was new.
pub async fn insert_message(
    tx: &mut sqlx::PgConnection,
    m: &NewMessage<'_>,
    agents: &[Uuid],
) -> sqlx::Result<u64> {
    let created = sqlx::query(
        "INSERT INTO agent_messages (id, title, content, is_sticky, publish_date, expires_at, code,
                                     created_at, created_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (id) DO NOTHING",
    )
    .bind(m.id)
    .bind(m.title)
    .bind(m.content)
    .bind(m.sticky)
    .bind(m.publish_date)
    .bind(m.expires)
    .bind(m.code)
    .bind(m.created_at)
    .bind(m.created_by)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    sqlx::query(
        "INSERT INTO agent_message_targets (message_id, agent_id)
         SELECT $1, unnest($2::uuid[]) ON CONFLICT DO NOTHING",
    )
    .bind(m.id)
    .bind(agents)
    .execute(&mut *tx)
    .await?;
    Ok(created)
}
