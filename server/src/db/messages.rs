//! Agent messages (spec part 2, Notifications and Manage Agent Messages): written by admins,
//! addressed to chosen agents, dismissed per user unless sticky.

use sqlx::PgPool;
use time::{Date, OffsetDateTime};
use uuid::Uuid;

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct MessageRow {
    pub id: Uuid,
    pub title: String,
    pub content: String,
    pub is_sticky: bool,
    pub publish_date: Date,
    pub expires_at: Option<Date>,
    pub code: Option<String>,
    pub created_at: OffsetDateTime,
    /// Set in an agent's lists: this user dismissed it.
    pub dismissed: bool,
    /// Set in the admin's list: the agents it is addressed to.
    pub agents: Vec<Uuid>,
}

/// A message as the admin saves it (already trimmed, checked and sanitized).
#[derive(Debug, Clone)]
pub struct NewMessage {
    pub title: String,
    pub content: String,
    pub is_sticky: bool,
    pub publish_date: Date,
    pub expires_at: Option<Date>,
    pub code: Option<String>,
    pub agents: Vec<Uuid>,
}

/// An agent's messages for one of its users: $1 agent, $2 user.
const FOR_AGENT: &str =
    "SELECT m.id, m.title, m.content, m.is_sticky, m.publish_date, m.expires_at,
         m.code, m.created_at, (d.user_id IS NOT NULL) AS dismissed, '{}'::uuid[] AS agents
     FROM agent_messages m
     JOIN agent_message_targets t ON t.message_id = m.id AND t.agent_id = $1
     LEFT JOIN agent_message_dismissals d ON d.message_id = m.id AND d.user_id = $2";

/// The agent's current messages for this user: published, not expired, not dismissed.
pub async fn current(
    pool: &PgPool,
    agent_id: Uuid,
    user_id: Uuid,
    today: Date,
) -> sqlx::Result<Vec<MessageRow>> {
    sqlx::query_as(&format!(
        "{FOR_AGENT}
         WHERE m.publish_date <= $3 AND (m.expires_at IS NULL OR m.expires_at >= $3)
           AND (d.user_id IS NULL OR m.is_sticky)
         ORDER BY m.publish_date DESC, m.created_at DESC"
    ))
    .bind(agent_id)
    .bind(user_id)
    .bind(today)
    .fetch_all(pool)
    .await
}

/// The agent's messages published in the `days` before today that are no longer current
/// (dismissed by this user, or expired).
pub async fn old(
    pool: &PgPool,
    agent_id: Uuid,
    user_id: Uuid,
    today: Date,
    days: i64,
) -> sqlx::Result<Vec<MessageRow>> {
    sqlx::query_as(&format!(
        "{FOR_AGENT}
         WHERE m.publish_date <= $3 AND m.publish_date >= $3 - $4::int
           AND ((d.user_id IS NOT NULL AND NOT m.is_sticky)
                OR (m.expires_at IS NOT NULL AND m.expires_at < $3))
         ORDER BY m.publish_date DESC, m.created_at DESC"
    ))
    .bind(agent_id)
    .bind(user_id)
    .bind(today)
    .bind(i32::try_from(days).unwrap_or(i32::MAX))
    .fetch_all(pool)
    .await
}

/// What a dismissal found.
#[derive(Debug, PartialEq, Eq)]
pub enum Dismissed {
    Done,
    Sticky,
    NotFound,
}

/// Records the user's dismissal of a message addressed to their agent (again is fine).
pub async fn dismiss(
    pool: &PgPool,
    id: Uuid,
    agent_id: Uuid,
    user_id: Uuid,
    now: OffsetDateTime,
) -> sqlx::Result<Dismissed> {
    let sticky: Option<bool> = sqlx::query_scalar(
        "SELECT m.is_sticky FROM agent_messages m
         JOIN agent_message_targets t ON t.message_id = m.id AND t.agent_id = $2
         WHERE m.id = $1",
    )
    .bind(id)
    .bind(agent_id)
    .fetch_optional(pool)
    .await?;
    match sticky {
        None => Ok(Dismissed::NotFound),
        Some(true) => Ok(Dismissed::Sticky),
        Some(false) => {
            sqlx::query(
                "INSERT INTO agent_message_dismissals (message_id, user_id, dismissed_at)
                 VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
            )
            .bind(id)
            .bind(user_id)
            .bind(now)
            .execute(pool)
            .await?;
            Ok(Dismissed::Done)
        }
    }
}

/// Messages with their agents (the admin's view); `$1` one message's id, or NULL for all.
const WITH_AGENTS: &str = "SELECT m.id, m.title, m.content, m.is_sticky, m.publish_date,
         m.expires_at, m.code, m.created_at, false AS dismissed,
         coalesce(array_agg(t.agent_id ORDER BY t.agent_id)
                  FILTER (WHERE t.agent_id IS NOT NULL), '{}') AS agents
     FROM agent_messages m
     LEFT JOIN agent_message_targets t ON t.message_id = m.id
     WHERE $1::uuid IS NULL OR m.id = $1
     GROUP BY m.id
     ORDER BY m.created_at DESC, m.id";

/// Every message with its agents, newest first (the admin's list).
pub async fn all(pool: &PgPool) -> sqlx::Result<Vec<MessageRow>> {
    sqlx::query_as(WITH_AGENTS)
        .bind(None::<Uuid>)
        .fetch_all(pool)
        .await
}

pub async fn by_id(pool: &PgPool, id: Uuid) -> sqlx::Result<Option<MessageRow>> {
    sqlx::query_as(WITH_AGENTS)
        .bind(Some(id))
        .fetch_optional(pool)
        .await
}

/// How many of these ids are agents.
pub async fn known_agents(pool: &PgPool, ids: &[Uuid]) -> sqlx::Result<i64> {
    sqlx::query_scalar("SELECT count(*) FROM agents WHERE id = ANY($1)")
        .bind(ids)
        .fetch_one(pool)
        .await
}

/// Creates (`id` None) or replaces a message and its agents in one transaction; `None` when the
/// message to replace does not exist.
pub async fn save(
    pool: &PgPool,
    id: Option<Uuid>,
    m: &NewMessage,
    by: Uuid,
    now: OffsetDateTime,
) -> sqlx::Result<Option<Uuid>> {
    let mut tx = pool.begin().await?;
    let id = match id {
        None => {
            let id = Uuid::new_v4();
            sqlx::query(
                "INSERT INTO agent_messages (id, title, content, is_sticky, publish_date, expires_at,
                                             code, created_at, created_by)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
            )
            .bind(id)
            .bind(&m.title)
            .bind(&m.content)
            .bind(m.is_sticky)
            .bind(m.publish_date)
            .bind(m.expires_at)
            .bind(&m.code)
            .bind(now)
            .bind(by)
            .execute(&mut *tx)
            .await?;
            id
        }
        Some(id) => {
            let done = sqlx::query(
                "UPDATE agent_messages SET title = $2, content = $3, is_sticky = $4,
                        publish_date = $5, expires_at = $6, code = $7
                 WHERE id = $1",
            )
            .bind(id)
            .bind(&m.title)
            .bind(&m.content)
            .bind(m.is_sticky)
            .bind(m.publish_date)
            .bind(m.expires_at)
            .bind(&m.code)
            .execute(&mut *tx)
            .await?;
            if done.rows_affected() == 0 {
                return Ok(None);
            }
            sqlx::query("DELETE FROM agent_message_targets WHERE message_id = $1")
                .bind(id)
                .execute(&mut *tx)
                .await?;
            id
        }
    };
    sqlx::query(
        "INSERT INTO agent_message_targets (message_id, agent_id)
         SELECT $1, unnest($2::uuid[]) ON CONFLICT DO NOTHING",
    )
    .bind(id)
    .bind(&m.agents)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(Some(id))
}

/// Deletes a message; false when there was none.
pub async fn delete(pool: &PgPool, id: Uuid) -> sqlx::Result<bool> {
    Ok(sqlx::query("DELETE FROM agent_messages WHERE id = $1")
        .bind(id)
        .execute(pool)
        .await?
        .rows_affected()
        > 0)
}
