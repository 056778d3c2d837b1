//! The `applications` table (the part the app shell reads; the wizard's answers arrive later).

use sqlx::PgPool;
use time::{Date, OffsetDateTime};
use uuid::Uuid;

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ApplicationRow {
    pub id: Uuid,
    pub agent_id: Uuid,
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
    pub submission_time: Option<OffsetDateTime>,
}

pub async fn by_id(pool: &PgPool, id: Uuid) -> sqlx::Result<Option<ApplicationRow>> {
    sqlx::query_as::<_, ApplicationRow>(
        "SELECT id, agent_id, last_step, effective_date, enrollment_period_type_id,
                medical_carrier_id, dental_carrier_id, vision_carrier_id, medical_network_type_id,
                skip_medical, skip_dental, skip_vision, skip_other, skip_pcp, submission_time
         FROM applications WHERE id = $1",
    )
    .bind(id)
    .fetch_optional(pool)
    .await
}

/// Starts an empty application for an agent (used by the wizard and by tests).
pub async fn create(pool: &PgPool, agent_id: Uuid, now: OffsetDateTime) -> sqlx::Result<Uuid> {
    let id = Uuid::new_v4();
    sqlx::query("INSERT INTO applications (id, agent_id, created_at) VALUES ($1, $2, $3)")
        .bind(id)
        .bind(agent_id)
        .bind(now)
        .execute(pool)
        .await?;
    Ok(id)
}
