//! The `applications` table (the part the app shell reads; the wizard's answers arrive later).
//!
//! - A submitted application is never changed: every save is `UPDATE … WHERE submission_time IS
//!   NULL`, and the purchase (the accepted submission of the flow's `submitted_step`) sets the
//!   submission time in that same statement, so of two purchases racing exactly one succeeds (the
//!   other gets 409; `server/tests/api/purchase.rs`).
//! - A save can be a HOT update: no index of `applications` reads a column every save writes
//!   (`data`, `summary`, `updated_at`, `revision`, `rules_hash`), and the table keeps room on its
//!   pages (fill factor 70, migration 18), so most saves write no index entry
//!   (`server/tests/api/retention.rs` `no_index_of_the_applications_reads_what_every_save_writes`;
//!   `make bench-http` prints the WAL bytes per save and the share of HOT updates).
//! - A save runs no function of the schema to decide whether a trigger fires: every `WHEN` of the
//!   `applications` triggers compares columns (a SQL function returning a row is not inlined, and
//!   PostgreSQL set it up again at each save: migration 27's did, half of the database's CPU per
//!   save; migration 29). Checked by
//!   `no_trigger_condition_of_the_applications_calls_a_function_of_the_schema` (`retention.rs`);
//!   the search trigger's condition names every column `application_search_row` reads
//!   (`dashboard.rs`, `the_search_trigger_compares_every_column_the_search_row_reads`).
//! - The flags the flow sets are mirrored into typed columns at each save.

use enrollflow_engine::summary::Summary;
use sqlx::PgPool;
use time::{Date, OffsetDateTime};
use uuid::Uuid;

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ApplicationRow {
    pub id: Uuid,
    pub agent_id: Uuid,
    /// The typed columns mirrored from the document's flags.
    #[sqlx(flatten)]
    pub columns: Columns,
    pub submission_time: Option<OffsetDateTime>,
    /// Bumped by every save (the caches and the `ef_rev` cookie compare it).
    pub revision: i64,
}

/// The columns of an `ApplicationRow`.
const ROW: &str = "id, agent_id, last_step, effective_date, enrollment_period_type_id,
    medical_carrier_id, dental_carrier_id, vision_carrier_id, medical_network_type_id,
    skip_medical, skip_dental, skip_vision, skip_other, skip_pcp, submission_time, revision";

pub async fn by_id(pool: &PgPool, id: Uuid) -> sqlx::Result<Option<ApplicationRow>> {
    sqlx::query_as::<_, ApplicationRow>(&format!("SELECT {ROW} FROM applications WHERE id = $1"))
        .bind(id)
        .fetch_optional(pool)
        .await
}

/// Starts an empty application for an agent (used by the wizard and by tests); `started_by` names
/// the agent's user when the agent applies for a customer (the application is then agent-started);
/// `subdomain` is the site it is started on (the dashboard's Site filter).
pub async fn create(
    db: impl sqlx::PgExecutor<'_>,
    agent_id: Uuid,
    now: OffsetDateTime,
    started_by: Option<Uuid>,
    subdomain: Option<&str>,
) -> sqlx::Result<Uuid> {
    create_with_id(db, Uuid::new_v4(), agent_id, now, started_by, subdomain).await
}

/// `create` with the id chosen by the caller (the wizard binds the first answers' encrypted
/// values to it before the row exists).
pub async fn create_with_id(
    db: impl sqlx::PgExecutor<'_>,
    id: Uuid,
    agent_id: Uuid,
    now: OffsetDateTime,
    started_by: Option<Uuid>,
    subdomain: Option<&str>,
) -> sqlx::Result<Uuid> {
    sqlx::query(
        "INSERT INTO applications (id, agent_id, created_at, agent_started, started_by_user_id,
                                   subdomain)
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(id)
    .bind(agent_id)
    .bind(now)
    .bind(started_by.is_some())
    .bind(started_by)
    .bind(subdomain)
    .execute(db)
    .await?;
    Ok(id)
}

/// The application's data document and its revision, if it belongs to this agent.
pub async fn data_for_agent(
    pool: &PgPool,
    id: Uuid,
    agent_id: Uuid,
) -> sqlx::Result<Option<(serde_json::Value, i64)>> {
    sqlx::query_as("SELECT data, revision FROM applications WHERE id = $1 AND agent_id = $2")
        .bind(id)
        .bind(agent_id)
        .fetch_optional(pool)
        .await
}

/// What replaying an application needs, if it belongs to this agent: its document, when it was
/// last saved, and whether the agent applied for the customer.
pub async fn replay_of(pool: &PgPool, id: Uuid, agent_id: Uuid) -> sqlx::Result<Option<Replayed>> {
    sqlx::query_as(
        "SELECT data, updated_at, agent_started, rules_hash FROM applications
         WHERE id = $1 AND agent_id = $2",
    )
    .bind(id)
    .bind(agent_id)
    .fetch_optional(pool)
    .await
}

/// What a replay reads of an application: its answers, when it was last saved, whether an agent
/// started it, and the engine hash of the rules it was saved under.
#[derive(Debug, sqlx::FromRow)]
pub struct Replayed {
    pub data: serde_json::Value,
    pub updated_at: OffsetDateTime,
    pub agent_started: bool,
    pub rules_hash: Option<String>,
}

/// An application to walk for the impact of a rule change: its answers, when it was last saved,
/// who started it and whose it is.
#[derive(Debug, sqlx::FromRow)]
pub struct Recent {
    pub id: Uuid,
    pub data: serde_json::Value,
    pub updated_at: OffsetDateTime,
    pub agent_started: bool,
    pub agent_id: Uuid,
}

/// The `n` applications saved most recently.
pub async fn recent(pool: &PgPool, n: i64) -> sqlx::Result<Vec<Recent>> {
    sqlx::query_as(
        "SELECT id, data, updated_at, agent_started, agent_id FROM applications
         ORDER BY updated_at DESC LIMIT $1",
    )
    .bind(n)
    .fetch_all(pool)
    .await
}

/// The book's mix, as counts only: applications by residential ZIP code and by household size
/// (people covered), from the summaries of the last saves; an application not yet given a ZIP
/// (its summary's `residential_zip` absent or null) is not counted.
pub async fn book_mix(pool: &PgPool) -> sqlx::Result<(Vec<(String, i64)>, Vec<(i16, i64)>)> {
    let zips = sqlx::query_as(
        "SELECT summary->>'residential_zip', count(*) FROM applications
         WHERE summary->>'residential_zip' IS NOT NULL GROUP BY 1",
    )
    .fetch_all(pool)
    .await?;
    let sizes = sqlx::query_as(
        "SELECT (1 + dependents + CASE WHEN (summary->>'has_spouse')::boolean THEN 1 ELSE 0 END)::int2,
                count(*)
         FROM applications WHERE summary->>'residential_zip' IS NOT NULL GROUP BY 1",
    )
    .fetch_all(pool)
    .await?;
    Ok((zips, sizes))
}

/// The application's summary (the flow's `summary:` at its last save), if it belongs to this agent.
pub async fn summary_for_agent(
    pool: &PgPool,
    id: Uuid,
    agent_id: Uuid,
) -> sqlx::Result<Option<Summary>> {
    let row: Option<(sqlx::types::Json<Summary>,)> =
        sqlx::query_as("SELECT summary FROM applications WHERE id = $1 AND agent_id = $2")
            .bind(id)
            .bind(agent_id)
            .fetch_optional(pool)
            .await?;
    Ok(row.map(|(s,)| s.0))
}

/// The agent's application's care needs (`care`) and chosen medical plan (its snapshot), for
/// More Info.
pub async fn care_for_agent(
    pool: &PgPool,
    id: Uuid,
    agent_id: Uuid,
) -> sqlx::Result<Option<(Option<serde_json::Value>, Option<serde_json::Value>)>> {
    sqlx::query_as(
        "SELECT data->'care', data->'medical_plan' FROM applications WHERE id = $1 AND agent_id = $2",
    )
    .bind(id)
    .bind(agent_id)
    .fetch_optional(pool)
    .await
}

fn flag_i16(data: &serde_json::Value, key: &str) -> Option<i16> {
    data.get(key)
        .and_then(serde_json::Value::as_i64)
        .and_then(|n| i16::try_from(n).ok())
}

fn flag_bool(data: &serde_json::Value, key: &str) -> bool {
    data.get(key)
        .and_then(serde_json::Value::as_bool)
        .unwrap_or(false)
}

/// What a save does besides storing the document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Save {
    Answers,
    /// The purchase: the submission time is set in the same statement.
    Purchase,
}

/// The typed columns of an application, mirrored from its document's flags (the engine sets them).
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct Columns {
    /// A step number of the flow; 1 to 255 as the column.
    pub last_step: i16,
    pub effective_date: Option<Date>,
    pub enrollment_period_type_id: Option<i16>,
    pub medical_carrier_id: Option<i16>,
    pub dental_carrier_id: Option<i16>,
    pub vision_carrier_id: Option<i16>,
    pub medical_network_type_id: Option<i16>,
    pub skip_medical: bool,
    pub skip_dental: bool,
    pub skip_vision: bool,
    pub skip_other: bool,
    pub skip_pcp: bool,
}

impl Columns {
    pub fn of(data: &serde_json::Value) -> Self {
        Columns {
            last_step: flag_i16(data, "last_step").unwrap_or(1).clamp(1, 255),
            effective_date: data
                .get("effective_date")
                .and_then(serde_json::Value::as_str)
                .and_then(enrollflow_engine::dates::parse),
            enrollment_period_type_id: flag_i16(data, "enrollment_period_type_id"),
            medical_carrier_id: flag_i16(data, "medical_carrier_id"),
            dental_carrier_id: flag_i16(data, "dental_carrier_id"),
            vision_carrier_id: flag_i16(data, "vision_carrier_id"),
            medical_network_type_id: flag_i16(data, "medical_network_type_id"),
            skip_medical: flag_bool(data, "skip_medical"),
            skip_dental: flag_bool(data, "skip_dental"),
            skip_vision: flag_bool(data, "skip_vision"),
            skip_other: flag_bool(data, "skip_other"),
            skip_pcp: flag_bool(data, "skip_pcp"),
        }
    }
}

/// What a save writes besides the document's flags: the rule set it was saved under and the
/// application's summary by that rule set's flow.
pub struct Saving<'a> {
    pub rules_hash: &'a str,
    pub summary: Summary,
    /// Save only over this revision (the one the answers were given against); `None`: whatever
    /// the revision.
    pub expected_revision: Option<i64>,
}

/// Stores the data document, mirrors its flags into the typed columns and its summary (the
/// dashboard's columns), and returns the row; `None` when the application has been submitted
/// meanwhile, or is no longer at the expected revision (a submitted application is never changed, so of two purchases racing, exactly one
/// succeeds).
pub async fn save_data(
    db: impl sqlx::PgExecutor<'_>,
    id: Uuid,
    data: &serde_json::Value,
    saving: &Saving<'_>,
    now: OffsetDateTime,
    save: Save,
) -> sqlx::Result<Option<ApplicationRow>> {
    let c = Columns::of(data);
    sqlx::query_as::<_, ApplicationRow>(&format!(
        "UPDATE applications SET data = $2, rules_hash = $3, updated_at = $4, last_step = $5,
                effective_date = $6, enrollment_period_type_id = $7, medical_carrier_id = $8,
                dental_carrier_id = $9, vision_carrier_id = $10, medical_network_type_id = $11,
                skip_medical = $12, skip_dental = $13, skip_vision = $14, skip_other = $15,
                skip_pcp = $16,
                submission_time = CASE WHEN $17 THEN $4 ELSE NULL END, summary = $18,
                revision = revision + 1
         WHERE id = $1 AND submission_time IS NULL AND ($19::bigint IS NULL OR revision = $19)
         RETURNING {ROW}"
    ))
    .bind(id)
    .bind(data)
    .bind(saving.rules_hash)
    .bind(now)
    .bind(c.last_step)
    .bind(c.effective_date)
    .bind(c.enrollment_period_type_id)
    .bind(c.medical_carrier_id)
    .bind(c.dental_carrier_id)
    .bind(c.vision_carrier_id)
    .bind(c.medical_network_type_id)
    .bind(c.skip_medical)
    .bind(c.skip_dental)
    .bind(c.skip_vision)
    .bind(c.skip_other)
    .bind(c.skip_pcp)
    .bind(save == Save::Purchase)
    .bind(sqlx::types::Json(&saving.summary))
    .bind(saving.expected_revision)
    .fetch_optional(db)
    .await
}

/// An uploaded document to attach to an application.
pub struct NewDocument<'a> {
    pub id: Uuid,
    pub application_id: Uuid,
    pub storage_key: &'a str,
    pub file_name: &'a str,
    pub size: i32,
    /// The bytes' SHA-256 (the evidence packet lists it).
    pub sha256: &'a [u8; 32],
    /// The step whose answers show the file's name.
    pub step: &'a str,
    pub now: OffsetDateTime,
}

/// What attaching a document did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Attached {
    /// Attached: the application's new revision, and the storage keys of the documents it
    /// replaced (their rows are gone; the objects are for the caller to remove).
    Saved {
        revision: i64,
        replaced: Vec<String>,
    },
    /// The application has been submitted: nothing was written.
    Submitted,
    /// The application has used its upload quota: nothing was written.
    OverQuota,
}

/// Records a stored document and makes it the application's qualifying-event document
/// (`enrollment_reason_document`, and the file name in the step's answers), counting it against
/// the application's quota (`max_uploads` files, `max_bytes` in all, replaced ones included) and
/// removing the rows of the documents it replaces, in one transaction.
pub async fn attach_document(
    pool: &PgPool,
    d: &NewDocument<'_>,
    max_uploads: i32,
    max_bytes: i64,
) -> sqlx::Result<Attached> {
    let mut tx = pool.begin().await?;
    let counted: Option<i32> = sqlx::query_scalar(
        "INSERT INTO document_uploads AS u (application_id, uploads, bytes)
         SELECT $1, 1, $2 WHERE $2 <= $4
         ON CONFLICT (application_id) DO UPDATE SET uploads = u.uploads + 1, bytes = u.bytes + $2
         WHERE u.uploads < $3 AND u.bytes + $2 <= $4
         RETURNING uploads",
    )
    .bind(d.application_id)
    .bind(i64::from(d.size))
    .bind(max_uploads)
    .bind(max_bytes)
    .fetch_optional(&mut *tx)
    .await?;
    if counted.is_none() {
        return Ok(Attached::OverQuota);
    }
    let revision: Option<i64> = sqlx::query_scalar(
        "UPDATE applications SET updated_at = $3, revision = revision + 1,
                data = jsonb_set(
                    data || jsonb_build_object('enrollment_reason_document',
                                               jsonb_build_object('id', $2::text, 'file_name', $4::text)),
                    ARRAY[$5::text],
                    coalesce(data -> $5, '{}'::jsonb)
                        || jsonb_build_object('enrollment_reason_file_name', $4::text))
         WHERE id = $1 AND submission_time IS NULL RETURNING revision",
    )
    .bind(d.application_id)
    .bind(d.id)
    .bind(d.now)
    .bind(d.file_name)
    .bind(d.step)
    .fetch_optional(&mut *tx)
    .await?;
    let Some(revision) = revision else {
        return Ok(Attached::Submitted);
    };
    let replaced: Vec<String> =
        sqlx::query_scalar("DELETE FROM documents WHERE application_id = $1 RETURNING storage_key")
            .bind(d.application_id)
            .fetch_all(&mut *tx)
            .await?;
    sqlx::query(
        "INSERT INTO documents (id, application_id, storage_key, file_name, content_type, size_bytes,
                                created_at, sha256)
         VALUES ($1, $2, $3, $4, 'application/pdf', $5, $6, $7)",
    )
    .bind(d.id)
    .bind(d.application_id)
    .bind(d.storage_key)
    .bind(d.file_name)
    .bind(d.size)
    .bind(d.now)
    .bind(&d.sha256[..])
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(Attached::Saved { revision, replaced })
}

/// The last step and effective date of an application (the benchmark's primary-key read).
pub async fn step_and_date(pool: &PgPool, id: Uuid) -> sqlx::Result<Option<(i16, Option<Date>)>> {
    sqlx::query_as("SELECT last_step, effective_date FROM applications WHERE id = $1")
        .bind(id)
        .fetch_optional(pool)
        .await
}

/// Whether the application is the agent's and not yet submitted.
pub async fn open_for_agent(pool: &PgPool, id: Uuid, agent_id: Uuid) -> sqlx::Result<bool> {
    Ok(sqlx::query_scalar::<_, bool>(
        "SELECT submission_time IS NULL FROM applications WHERE id = $1 AND agent_id = $2",
    )
    .bind(id)
    .bind(agent_id)
    .fetch_optional(pool)
    .await?
    .unwrap_or(false))
}

/// Where one of the agent's applications stands: its last step, whether it is submitted, its
/// revision.
pub async fn standing_for_agent(
    pool: &PgPool,
    id: Uuid,
    agent_id: Uuid,
) -> sqlx::Result<Option<(i16, bool, i64)>> {
    sqlx::query_as(
        "SELECT last_step, submission_time IS NOT NULL, revision FROM applications
         WHERE id = $1 AND agent_id = $2",
    )
    .bind(id)
    .bind(agent_id)
    .fetch_optional(pool)
    .await
}

/// Submissions of the agent per month (1-12, UTC) in `[from, to)`.
pub async fn submissions_by_month(
    pool: &PgPool,
    agent_id: Uuid,
    from: OffsetDateTime,
    to: OffsetDateTime,
) -> sqlx::Result<Vec<(i32, i64)>> {
    sqlx::query_as(
        "SELECT extract(month FROM submission_time AT TIME ZONE 'UTC')::int, count(*)
         FROM applications
         WHERE agent_id = $1 AND submission_time >= $2 AND submission_time < $3
         GROUP BY 1",
    )
    .bind(agent_id)
    .bind(from)
    .bind(to)
    .fetch_all(pool)
    .await
}

/// Submissions of the agent per medical carrier id in `[from, to)`, by carrier id.
pub async fn submissions_by_medical_carrier(
    pool: &PgPool,
    agent_id: Uuid,
    from: OffsetDateTime,
    to: OffsetDateTime,
) -> sqlx::Result<Vec<(i16, i64)>> {
    sqlx::query_as(
        "SELECT medical_carrier_id, count(*) FROM applications
         WHERE agent_id = $1 AND submission_time >= $2 AND submission_time < $3
           AND medical_carrier_id IS NOT NULL
         GROUP BY 1 ORDER BY 1",
    )
    .bind(agent_id)
    .bind(from)
    .bind(to)
    .fetch_all(pool)
    .await
}

/// Records a page view (a route template, never a raw path).
pub async fn record_page_view(
    pool: &PgPool,
    application_id: Option<Uuid>,
    agent_id: Option<Uuid>,
    route: &str,
    at: OffsetDateTime,
) -> sqlx::Result<()> {
    // An application's views are bounded: past the bound, further views of it are not kept (the
    // statistics need the first ones; a script replaying views cannot grow the table).
    sqlx::query(
        "INSERT INTO page_views (application_id, agent_id, route, viewed_at)
         SELECT $1, $2, $3, $4
         WHERE $1::uuid IS NULL
            OR (SELECT count(*) FROM page_views WHERE application_id = $1) < $5",
    )
    .bind(application_id)
    .bind(agent_id)
    .bind(route)
    .bind(at)
    .bind(PAGE_VIEWS_PER_APPLICATION)
    .execute(pool)
    .await?;
    Ok(())
}

/// The most page views kept for one application (a wizard walked through many times over is a
/// few hundred).
pub const PAGE_VIEWS_PER_APPLICATION: i64 = 1000;
