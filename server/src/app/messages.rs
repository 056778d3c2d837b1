//! Agent messages: an agent's current and recent messages and their dismissal, and the admin's
//! list, save and delete. A message's form is checked and its HTML sanitized by the caller
//! (`http/messages.rs`); here it is stored, addressed only to agents that exist, and read back.

use time::{Date, OffsetDateTime};
use uuid::Uuid;

use crate::db::PgPool;
use crate::db::messages::{self as store, Dismissed};
pub use crate::db::messages::{MessageRow, NewMessage};

/// Why a message was not changed.
#[derive(Debug, thiserror::Error)]
pub enum MessageError {
    #[error("No such message.")]
    NotFound,
    /// A sticky message stays until it expires.
    #[error("a sticky message cannot be dismissed")]
    Sticky,
    #[error("Choose agents from the list.")]
    UnknownAgents,
    #[error(transparent)]
    Failed(#[from] crate::db::Error),
}

/// The agent's messages published by `today`, not expired, not dismissed by `user`.
pub async fn current(
    pool: &PgPool,
    agent: Uuid,
    user: Uuid,
    today: Date,
) -> Result<Vec<MessageRow>, MessageError> {
    Ok(store::current(pool, agent, user, today).await?)
}

/// The agent's messages of the past `days` that are no longer current (dismissed or expired).
pub async fn recent(
    pool: &PgPool,
    agent: Uuid,
    user: Uuid,
    today: Date,
    days: i64,
) -> Result<Vec<MessageRow>, MessageError> {
    Ok(store::old(pool, agent, user, today, days).await?)
}

/// Dismisses message `id` for `user`; a sticky one is not dismissed.
pub async fn dismiss(
    pool: &PgPool,
    id: Uuid,
    agent: Uuid,
    user: Uuid,
    now: OffsetDateTime,
) -> Result<(), MessageError> {
    match store::dismiss(pool, id, agent, user, now).await? {
        Dismissed::Done => Ok(()),
        Dismissed::Sticky => Err(MessageError::Sticky),
        Dismissed::NotFound => Err(MessageError::NotFound),
    }
}

/// Every message (the admin's list).
pub async fn all(pool: &PgPool) -> Result<Vec<MessageRow>, MessageError> {
    Ok(store::all(pool).await?)
}

/// Saves a checked message (a new one when `id` is none) by `author`, and reads it back.
pub async fn save(
    pool: &PgPool,
    id: Option<Uuid>,
    message: &NewMessage,
    author: Uuid,
    now: OffsetDateTime,
) -> Result<MessageRow, MessageError> {
    let known = usize::try_from(store::known_agents(pool, &message.agents).await?).unwrap_or(0);
    if known != message.agents.len() {
        return Err(MessageError::UnknownAgents);
    }
    let id = store::save(pool, id, message, author, now)
        .await?
        .ok_or(MessageError::NotFound)?;
    store::by_id(pool, id).await?.ok_or(MessageError::NotFound)
}

/// Deletes message `id`.
pub async fn delete(pool: &PgPool, id: Uuid) -> Result<(), MessageError> {
    if store::delete(pool, id).await? {
        Ok(())
    } else {
        Err(MessageError::NotFound)
    }
}
