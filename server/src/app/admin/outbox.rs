//! The outbox as an admin reads it (the demo's mail viewer): the newest messages with the tokens
//! of their single-use links hidden, and a consumer's private message (a receipt) shown by its
//! placeholder only. The operator reads a message whole with `enrollflow mail`.

use time::OffsetDateTime;

use crate::db::{PgPool, Result, outbox};
use crate::platform::mail;

/// A message as an admin may read it.
pub struct Shown {
    pub id: i64,
    pub to_address: String,
    pub subject: String,
    pub body: String,
    pub created_at: OffsetDateTime,
    pub sent_at: Option<OffsetDateTime>,
    pub attempts: i32,
}

/// The newest `limit` messages, newest first, as an admin may read them.
pub async fn newest(pool: &PgPool, limit: i64) -> Result<Vec<Shown>> {
    Ok(outbox::newest(pool, limit)
        .await?
        .into_iter()
        .map(|m| Shown {
            id: m.id,
            to_address: if m.private {
                mail::PRIVATE_RECIPIENT.to_string()
            } else {
                m.to_address
            },
            subject: m.subject,
            body: if m.private {
                mail::PRIVATE_BODY.to_string()
            } else {
                mail::redacted(&m.body)
            },
            created_at: m.created_at,
            sent_at: m.sent_at,
            attempts: m.attempts,
        })
        .collect())
}
