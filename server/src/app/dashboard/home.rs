//! The dashboard's home and More Info: the agent behind the dashboard, whether the session's
//! application is still open, this year's submissions by month and by medical carrier, and one
//! application's details. Details of an application handed to its customer are given with what
//! the agent had entered when the customer opened the link, so that what the customer gave since
//! is masked.

use time::OffsetDateTime;
use uuid::Uuid;

use crate::app::sites::AgentRow;
use crate::db::{PgPool, Result, agents, applications, links};
use enrollflow_engine::summary::Summary;

/// The agent `id`.
pub async fn agent(pool: &PgPool, id: Uuid) -> Result<Option<AgentRow>> {
    agents::by_id(pool, id).await
}

/// Whether the application `id` is the agent's and not submitted (Continue Quote).
pub async fn is_open(pool: &PgPool, id: Uuid, agent: Uuid) -> Result<bool> {
    applications::open_for_agent(pool, id, agent).await
}

/// The agent's submissions in `[from, to)` by month (1 to 12).
pub async fn submissions_by_month(
    pool: &PgPool,
    agent: Uuid,
    (from, to): (OffsetDateTime, OffsetDateTime),
) -> Result<Vec<(i32, i64)>> {
    applications::submissions_by_month(pool, agent, from, to).await
}

/// The agent's submissions in `[from, to)` by their medical plan's carrier id.
pub async fn submissions_by_medical_carrier(
    pool: &PgPool,
    agent: Uuid,
    (from, to): (OffsetDateTime, OffsetDateTime),
) -> Result<Vec<(i16, i64)>> {
    applications::submissions_by_medical_carrier(pool, agent, from, to).await
}

/// One of the agent's applications as More Info shows it.
pub struct Details {
    pub summary: Summary,
    /// Handed to the customer: what the agent had entered when the customer opened the link.
    pub entered_by_agent: Option<Summary>,
    /// The household's care needs as stored (`care`: expected uses, doctors, drugs).
    pub care: Option<serde_json::Value>,
    /// The chosen medical plan's snapshot (with its yearly estimate when it has one).
    pub medical_plan: Option<serde_json::Value>,
}

/// The details of the agent's application `id`, if it is theirs.
pub async fn details(pool: &PgPool, agent: Uuid, id: Uuid) -> Result<Option<Details>> {
    let Some(summary) = applications::summary_for_agent(pool, id, agent).await? else {
        return Ok(None);
    };
    let entered_by_agent = links::summary_at_handoff(pool, id)
        .await?
        .map(|at| serde_json::from_value(at).unwrap_or_default());
    let (care, medical_plan) = applications::care_for_agent(pool, id, agent)
        .await?
        .unwrap_or_default();
    Ok(Some(Details {
        summary,
        entered_by_agent,
        care: care.filter(|v| !v.is_null()),
        medical_plan: medical_plan.filter(|v| !v.is_null()),
    }))
}
